// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - securityfs interface
 *
 * /sys/kernel/security/usercaps/ holds one file per capability, whose
 * owner, group and mode are the policy, changed with chown and chmod by
 * a holder of CAP_MAC_ADMIN only; "grants" lists the files not in
 * default state, and "mode" shows where checks read the policy.
 */

#define pr_fmt(fmt) "usercaps: " fmt

#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/uidgid.h>
#include <linux/usercaps.h>

#include "usercaps.h"

/*
 * File names, indexed by CAP_*: the name of the capability, lower case.
 * Sized by its initializer, which usercaps_init_securityfs() checks
 * against CAP_LAST_CAP when it is built, and entry by entry at boot.
 */
const char *const usercaps_cap_names[] = {
	[CAP_CHOWN] = "chown",
	[CAP_DAC_OVERRIDE] = "dac_override",
	[CAP_DAC_READ_SEARCH] = "dac_read_search",
	[CAP_FOWNER] = "fowner",
	[CAP_FSETID] = "fsetid",
	[CAP_KILL] = "kill",
	[CAP_SETGID] = "setgid",
	[CAP_SETUID] = "setuid",
	[CAP_SETPCAP] = "setpcap",
	[CAP_LINUX_IMMUTABLE] = "linux_immutable",
	[CAP_NET_BIND_SERVICE] = "net_bind_service",
	[CAP_NET_BROADCAST] = "net_broadcast",
	[CAP_NET_ADMIN] = "net_admin",
	[CAP_NET_RAW] = "net_raw",
	[CAP_IPC_LOCK] = "ipc_lock",
	[CAP_IPC_OWNER] = "ipc_owner",
	[CAP_SYS_MODULE] = "sys_module",
	[CAP_SYS_RAWIO] = "sys_rawio",
	[CAP_SYS_CHROOT] = "sys_chroot",
	[CAP_SYS_PTRACE] = "sys_ptrace",
	[CAP_SYS_PACCT] = "sys_pacct",
	[CAP_SYS_ADMIN] = "sys_admin",
	[CAP_SYS_BOOT] = "sys_boot",
	[CAP_SYS_NICE] = "sys_nice",
	[CAP_SYS_RESOURCE] = "sys_resource",
	[CAP_SYS_TIME] = "sys_time",
	[CAP_SYS_TTY_CONFIG] = "sys_tty_config",
	[CAP_MKNOD] = "mknod",
	[CAP_LEASE] = "lease",
	[CAP_AUDIT_WRITE] = "audit_write",
	[CAP_AUDIT_CONTROL] = "audit_control",
	[CAP_SETFCAP] = "setfcap",
	[CAP_MAC_OVERRIDE] = "mac_override",
	[CAP_MAC_ADMIN] = "mac_admin",
	[CAP_SYSLOG] = "syslog",
	[CAP_WAKE_ALARM] = "wake_alarm",
	[CAP_BLOCK_SUSPEND] = "block_suspend",
	[CAP_AUDIT_READ] = "audit_read",
	[CAP_PERFMON] = "perfmon",
	[CAP_BPF] = "bpf",
	[CAP_CHECKPOINT_RESTORE] = "checkpoint_restore",
};

/**
 * usercaps_show_cap - Print the policy of one capability
 * @m: Where to print
 * @cap: The capability
 *
 * One line: name, owner, group and mode as chown and chmod set them, and
 * which classes of the mode grant the capability to someone.
 */
static void usercaps_show_cap(struct seq_file *m, int cap)
{
	struct usercaps_entry entry;
	unsigned int grantees;
	const char *sep = "";
	int class;

	usercaps_policy_get(cap, &entry);
	grantees = usercaps_grantees(&entry);
	seq_printf(m, "%s owner=%u group=%u mode=%04o granted=",
		   usercaps_cap_names[cap],
		   from_kuid(&init_user_ns, entry.owner),
		   from_kgid(&init_user_ns, entry.group), entry.mode);
	if (!grantees)
		seq_puts(m, "none");
	for (class = 0; class < ARRAY_SIZE(usercaps_class_names); class++) {
		if (grantees & BIT(class)) {
			seq_printf(m, "%s%s", sep, usercaps_class_names[class]);
			sep = ",";
		}
	}
	seq_putc(m, '\n');
}

static int usercaps_cap_show(struct seq_file *m, void *unused)
{
	usercaps_show_cap(m, (long)m->private);
	return 0;
}

/**
 * usercaps_open_read_only - Open one of the files, for reading only
 * @file: The file being opened
 * @show: What reading it shows
 * @data: The seq_file's private data
 *
 * The mode of a capability file is policy, not access control, and root
 * passes the DAC check of every file for writing: refuse writing here.
 *
 * Return: 0, -EPERM for writing, or -ENOMEM.
 */
static int usercaps_open_read_only(struct file *file,
				   int (*show)(struct seq_file *, void *),
				   void *data)
{
	if (file->f_mode & FMODE_WRITE)
		return -EPERM;
	return single_open(file, show, data);
}

/*
 * The file operations of a read-only file that shows NAME_show(), which
 * gets the inode's i_private (the capability of a capability file), as
 * DEFINE_SHOW_ATTRIBUTE() but refusing to open for writing.
 */
#define USERCAPS_READ_ONLY_FOPS(name)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return usercaps_open_read_only(file, name##_show,		\
				       inode->i_private);		\
}									\
									\
static const struct file_operations name##_fops = {			\
	.open = name##_open,						\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

USERCAPS_READ_ONLY_FOPS(usercaps_cap);

/**
 * usercaps_may_change_policy - Whether current may change the policy
 *
 * Changing the policy takes CAP_MAC_ADMIN, as changing SafeSetID's,
 * AppArmor's or Smack's does, held in the effective set itself, in the
 * initial user namespace, by a task acting with its own credential: not
 * by a kernel thread, and not under a credential the kernel substituted
 * for the task's own (override_creds(): ksmbd's keeps CAP_MAC_ADMIN while
 * its fsuid is an SMB user's). Capabilities that usercaps grants are
 * never in a credential's sets, so none of them, mac_admin included,
 * lets its holder change the policy that granted it. CAP_FOWNER, which
 * lets its holder chmod any file, is not enough: the capability files'
 * modes are policy, not access control. capable() then lets the other
 * LSMs refuse, and marks the task as having used a privilege.
 *
 * Return: true if current may chmod and chown the capability files.
 */
bool usercaps_may_change_policy(void)
{
	const struct cred *cred = current_cred();

	if ((current->flags & PF_KTHREAD) || cred != current_real_cred())
		return false;
	return cred->user_ns == &init_user_ns &&
	       cap_raised(cred->cap_effective, CAP_MAC_ADMIN) &&
	       capable(CAP_MAC_ADMIN);
}

/**
 * usercaps_cap_setattr - chmod or chown a capability file
 * @mnt_userns: The idmapping of the mount
 * @dentry: The file
 * @attr: The change
 *
 * Only a process that usercaps_may_change_policy() may change the policy:
 * setattr_prepare() would let the owner of a file chmod it, and owning a
 * capability file is what usercaps gives to a user who is not root.
 * Truncating means nothing. A change that is refused or fails is audited
 * here, one that succeeds by the policy. Called by notify_change() with
 * the inode locked, which orders changes to one file.
 *
 * Return: 0, or -EPERM, or an error from setattr_prepare() or the policy.
 */
static int usercaps_cap_setattr(struct user_namespace *mnt_userns,
				struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int cap = (long)inode->i_private;
	const char *reason;
	int err = -EPERM;

	reason = "truncate";
	if (attr->ia_valid & ATTR_SIZE)
		goto refused;
	reason = "gate";
	if (!usercaps_may_change_policy())
		goto refused;
	reason = "setattr";
	err = setattr_prepare(mnt_userns, dentry, attr);
	if (err)
		goto refused;
	reason = "nomem";
	err = usercaps_policy_setattr(mnt_userns, cap, inode, attr);
	if (err)
		goto refused;
	return 0;

refused:
	usercaps_audit_refusal(cap, attr, reason, err);
	return err;
}

static const struct inode_operations usercaps_cap_iops = {
	.setattr = usercaps_cap_setattr,
};

/*
 * The directory, "grants" and "mode" are the same for everyone, always:
 * without this, root with no capability at all could chmod them (it owns
 * them) and hide the policy from the users it concerns.
 */
static int usercaps_fixed_setattr(struct user_namespace *mnt_userns,
				  struct dentry *dentry, struct iattr *attr)
{
	return -EPERM;
}

static const struct inode_operations usercaps_fixed_iops = {
	.setattr = usercaps_fixed_setattr,
};

static const struct inode_operations usercaps_dir_iops = {
	.lookup = simple_lookup,
	.setattr = usercaps_fixed_setattr,
};

static int usercaps_grants_show(struct seq_file *m, void *unused)
{
	struct usercaps_entry entry;
	int cap;

	for (cap = 0; cap <= CAP_LAST_CAP; cap++) {
		usercaps_policy_get(cap, &entry);
		if (!usercaps_entry_is_default(&entry))
			usercaps_show_cap(m, cap);
	}
	return 0;
}

USERCAPS_READ_ONLY_FOPS(usercaps_grants);

/* Every mode, the active one in brackets, as Lockdown shows its levels. */
static int usercaps_mode_show(struct seq_file *m, void *unused)
{
	int mode;

	for (mode = 0; mode < USERCAPS_MODE_COUNT; mode++)
		seq_printf(m, mode == usercaps_mode ? "%s[%s]" : "%s%s",
			   mode ? " " : "", usercaps_mode_names[mode]);
	seq_putc(m, '\n');
	return 0;
}

USERCAPS_READ_ONLY_FOPS(usercaps_mode);

/* The files, so that a failure to create one can remove the others. */
static struct dentry *usercaps_files[CAP_LAST_CAP + 3] __initdata;
static int usercaps_nfiles __initdata;

/**
 * usercaps_create_file - Create one file in /sys/kernel/security/usercaps
 * @name: Its name
 * @mode: Its mode
 * @dir: The usercaps directory
 * @data: Its i_private
 * @fops: Its file operations
 *
 * Return: the file's inode, or an ERR_PTR.
 */
static struct inode *__init usercaps_create_file(const char *name, umode_t mode,
						 struct dentry *dir, void *data,
						 const struct file_operations *fops)
{
	struct dentry *dentry;

	dentry = securityfs_create_file(name, mode, dir, data, fops);
	if (IS_ERR(dentry))
		return ERR_CAST(dentry);
	usercaps_files[usercaps_nfiles++] = dentry;
	return d_inode(dentry);
}

/**
 * usercaps_init_securityfs - Create the policy files and enable checks
 *
 * securityfs is ready only at fs_initcall, long after the LSM's init. Until
 * the files exist the policy is in its default state, which grants
 * nothing, so checks are enabled last (see usercaps_enable()).
 *
 * Return: 0, or the error that left usercaps with no files and no checks.
 */
static int __init usercaps_init_securityfs(void)
{
	struct dentry *dir;
	struct inode *inode;
	long cap;

	/* A kernel with a new capability needs its name here first. */
	BUILD_BUG_ON(ARRAY_SIZE(usercaps_cap_names) != CAP_LAST_CAP + 1);

	if (!usercaps_initialized)
		return 0;
	/* A hole in the table, which the build cannot see: grant nothing. */
	for (cap = 0; cap <= CAP_LAST_CAP; cap++) {
		if (!usercaps_cap_names[cap]) {
			pr_err("no file name for capability %ld: granting nothing\n",
			       cap);
			return -EINVAL;
		}
	}

	dir = securityfs_create_dir("usercaps", NULL);
	if (IS_ERR(dir)) {
		inode = ERR_CAST(dir);
		goto fail;
	}
	for (cap = 0; cap <= CAP_LAST_CAP; cap++) {
		inode = usercaps_create_file(usercaps_cap_names[cap],
					     USERCAPS_DEFAULT_MODE, dir,
					     (void *)cap, &usercaps_cap_fops);
		if (IS_ERR(inode))
			goto fail;
		inode->i_op = &usercaps_cap_iops;
		usercaps_policy_set_inode(cap, inode);
	}
	inode = usercaps_create_file("grants", 0444, dir, NULL,
				     &usercaps_grants_fops);
	if (IS_ERR(inode))
		goto fail;
	inode->i_op = &usercaps_fixed_iops;
	inode = usercaps_create_file("mode", 0444, dir, NULL,
				     &usercaps_mode_fops);
	if (IS_ERR(inode))
		goto fail;
	inode->i_op = &usercaps_fixed_iops;
	d_inode(dir)->i_op = &usercaps_dir_iops;

	usercaps_enable();
	return 0;

fail:
	usercaps_policy_forget_inodes();
	while (usercaps_nfiles)
		securityfs_remove(usercaps_files[--usercaps_nfiles]);
	securityfs_remove(dir);
	pr_err("cannot create /sys/kernel/security/usercaps (%ld): granting nothing\n",
	       PTR_ERR(inode));
	return PTR_ERR(inode);
}
fs_initcall(usercaps_init_securityfs);
