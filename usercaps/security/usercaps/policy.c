// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - policy
 *
 * Owner, group and mode of each capability file, as a capability check
 * reads them: from the file's inode (naive mode) or from a table under
 * RCU that chmod and chown replace (cached mode, and percred mode when a
 * credential's cached decisions are stale).
 */

#define pr_fmt(fmt) "usercaps: " fmt

#include <linux/error-injection.h>
#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/usercaps.h>

#include "usercaps.h"

/**
 * struct usercaps_table - The policy of every capability, as published
 * @rcu: Frees a table that was replaced, once no reader can see it
 * @caps: One entry per capability, indexed by CAP_*
 * @grantees: usercaps_grantees() of each entry, computed once when it is
 *            published instead of at every check
 */
struct usercaps_table {
	struct rcu_head rcu;
	struct usercaps_entry caps[CAP_LAST_CAP + 1];
	u8 grantees[CAP_LAST_CAP + 1];
};

/*
 * Readers see one consistent table; a writer publishes a modified copy.
 * The mutex orders writers to different files, which hold different
 * inode locks.
 */
static struct usercaps_table __rcu *usercaps_table;
static DEFINE_MUTEX(usercaps_table_lock);

/*
 * Bit CAP_* set if any credential but root's may hold that capability: a
 * clear bit refuses at the first test of a check (usercaps_capable()).
 * One word, so that the test is a load and a bit test of the capability
 * already in a register. Naive mode reads the inode at every check, as
 * the 2005 patch did, and keeps every bit set.
 */
u64 usercaps_may_grant __read_mostly;

/*
 * The capability files' inodes, for naive mode. Set before the static key
 * lets any check in, and never freed: the files are never removed.
 */
static struct inode *usercaps_inodes[CAP_LAST_CAP + 1] __ro_after_init;

/**
 * usercaps_policy_init - Allocate the table, every entry in default state
 *
 * Return: 0, or -ENOMEM.
 */
int __init usercaps_policy_init(void)
{
	struct usercaps_table *table;
	int cap;

	table = kzalloc(sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (cap = 0; cap <= CAP_LAST_CAP; cap++) {
		table->caps[cap].mode = USERCAPS_DEFAULT_MODE;
		table->caps[cap].owner = GLOBAL_ROOT_UID;
		table->caps[cap].group = GLOBAL_ROOT_GID;
	}
	if (usercaps_mode == USERCAPS_MODE_NAIVE)
		usercaps_may_grant = GENMASK_ULL(CAP_LAST_CAP, 0);
	RCU_INIT_POINTER(usercaps_table, table);
	return 0;
}

/**
 * usercaps_policy_set_inode - Record the inode of a capability's file
 * @cap: The capability
 * @inode: Its file's inode, in its default state
 */
void __init usercaps_policy_set_inode(int cap, struct inode *inode)
{
	usercaps_inodes[cap] = inode;
}

/**
 * usercaps_policy_forget_inodes - Forget the inodes of files removed
 *
 * Called when creating the files failed part-way, before they are
 * removed: nothing may reach an inode through usercaps_policy_inode().
 */
void __init usercaps_policy_forget_inodes(void)
{
	memset(usercaps_inodes, 0, sizeof(usercaps_inodes));
}

/**
 * usercaps_policy_inode - The inode of a capability's file
 * @cap: The capability
 *
 * Return: the inode, or NULL before the files exist.
 */
struct inode *usercaps_policy_inode(int cap)
{
	return usercaps_inodes[cap];
}

/**
 * usercaps_policy_get - Read the policy of one capability
 * @cap: The capability
 * @entry: Where to store its owner, group and mode
 *
 * Called from naive mode's checks, in any context, and by the files'
 * reads and the grant tracepoint: allocates nothing, takes no lock, does
 * not sleep and writes no shared memory. In naive mode the three fields
 * are read one by one and may mix the values from before and after a
 * concurrent chmod or chown; in the other modes they come from one table.
 */
void usercaps_policy_get(int cap, struct usercaps_entry *entry)
{
	const struct inode *inode;

	if (usercaps_mode == USERCAPS_MODE_NAIVE) {
		inode = usercaps_inodes[cap];
		entry->mode = READ_ONCE(inode->i_mode) & S_IALLUGO;
		entry->owner = READ_ONCE(inode->i_uid);
		entry->group = READ_ONCE(inode->i_gid);
		return;
	}
	/*
	 * Disabling preemption is a read section of plain RCU too, which
	 * kfree_rcu() waits for, and costs less than rcu_read_lock()'s
	 * out-of-line calls with PREEMPT_RCU.
	 */
	preempt_disable();
	*entry = rcu_dereference_sched(usercaps_table)->caps[cap];
	preempt_enable();
}

/**
 * usercaps_naive_capable - Decide from the capability file's inode
 * @cred: The credential being checked
 * @cap: The capability
 *
 * The check of the 2005 patch: the inode's fields, read one by one at
 * every check, may mix the values from before and after a concurrent
 * chmod or chown. Out of line so that its frame (the entry it copies is
 * on the stack, behind the stack protector) is not cached mode's.
 *
 * Return: 0 if granted, -EPERM otherwise.
 */
static noinline int usercaps_naive_capable(const struct cred *cred, int cap)
{
	struct usercaps_entry entry;

	if (!usercaps_cred_eligible(cred, cap))
		return -EPERM;
	usercaps_policy_get(cap, &entry);
	if (!usercaps_entry_grants(&entry, cred->fsuid, cred->fsgid,
				   cred->group_info))
		return -EPERM;
	return usercaps_allow(cred, cap);
}

/**
 * usercaps_cred_capable - Whether usercaps grants a capability
 * @cred: The credential being checked, not necessarily current's
 * @cap: A capability not in @cred's effective set, which the policy may
 *       grant to someone
 *
 * Called by usercaps_capable() from cap_capable(), in any context, in
 * naive and cached modes. Cached mode decides here, on the published
 * table in place, with preemption disabled as the read section (see
 * usercaps_policy_get()): the class that applies to @cred, against the
 * classes the entry grants, computed when it was published.
 * A 0 return is handled as for a capability in the effective set:
 * ns_capable() and friends set PF_SUPERPRIV on it, and commoncap audits
 * nothing; usercaps_allow() has the rules that apply to every grant.
 *
 * Return: 0 if granted, -EPERM otherwise.
 */
int usercaps_cred_capable(const struct cred *cred, int cap)
{
	const struct usercaps_table *table;
	unsigned int grants;

	if (static_branch_unlikely(&usercaps_naive))
		return usercaps_naive_capable(cred, cap);
	if (!usercaps_cred_eligible(cred, cap))
		return -EPERM;
	preempt_disable();
	table = rcu_dereference_sched(usercaps_table);
	/*
	 * The grantees first: one value fewer live across groups_search(),
	 * one register fewer saved and restored at every check.
	 */
	grants = table->grantees[cap];
	grants &= usercaps_entry_class(&table->caps[cap], cred->fsuid,
				       cred->fsgid, cred->group_info);
	preempt_enable();
	if (!grants)
		return -EPERM;
	return usercaps_allow(cred, cap);
}

/**
 * usercaps_policy_granted - Every capability the policy grants a credential
 * @cred: The credential
 *
 * Reads the table, whatever the mode; see usercaps_cred_granted().
 *
 * Return: bit CAP_* set for each capability granted to @cred.
 */
u64 usercaps_policy_granted(const struct cred *cred)
{
	u64 granted;

	rcu_read_lock();
	granted = usercaps_cred_granted(rcu_dereference(usercaps_table)->caps,
					cred);
	rcu_read_unlock();
	return granted;
}

/**
 * usercaps_table_dup - Copy the published table for a writer to change
 * @table: The published table
 *
 * A function of its own so that fail_function can make it fail: the
 * guest tests inject -ENOMEM here (ALLOW_ERROR_INJECTION).
 *
 * Return: the copy, or NULL.
 */
static noinline struct usercaps_table *
usercaps_table_dup(const struct usercaps_table *table)
{
	return kmemdup(table, sizeof(*table), GFP_KERNEL);
}

ALLOW_ERROR_INJECTION(usercaps_table_dup, NULL);

/**
 * usercaps_policy_setattr - Change a capability file and publish it
 * @mnt_userns: The idmapping of the mount, as for setattr_copy()
 * @cap: The capability
 * @inode: Its file's inode, locked by the caller
 * @attr: The change, already checked by setattr_prepare()
 *
 * The table is kept in every mode so that changing mode needs nothing
 * but a reboot. The copy is allocated before the inode changes, so that
 * on failure the file and the table still agree. A change is audited
 * once published; a setattr that leaves owner, group and mode as they
 * were (utimensat(), a chmod to the same mode) changes the file's times
 * only, and neither moves the generation nor leaves an audit record.
 *
 * Return: 0, or -ENOMEM with nothing changed.
 */
int usercaps_policy_setattr(struct user_namespace *mnt_userns, int cap,
			    struct inode *inode, struct iattr *attr)
{
	struct usercaps_table *old, *new;
	struct usercaps_entry was, now;

	mutex_lock(&usercaps_table_lock);
	old = rcu_dereference_protected(usercaps_table,
					lockdep_is_held(&usercaps_table_lock));
	new = usercaps_table_dup(old);
	if (!new) {
		mutex_unlock(&usercaps_table_lock);
		return -ENOMEM;
	}

	setattr_copy(mnt_userns, inode, attr);
	mark_inode_dirty(inode);

	was = old->caps[cap];
	now.mode = inode->i_mode & S_IALLUGO;
	now.owner = inode->i_uid;
	now.group = inode->i_gid;
	if (now.mode == was.mode && uid_eq(now.owner, was.owner) &&
	    gid_eq(now.group, was.group)) {
		mutex_unlock(&usercaps_table_lock);
		kfree(new);
		return 0;
	}
	new->caps[cap] = now;
	new->grantees[cap] = usercaps_grantees(&now);
	old = rcu_replace_pointer(usercaps_table, new,
				  lockdep_is_held(&usercaps_table_lock));
	usercaps_percred_publish(cap, &now);
	mutex_unlock(&usercaps_table_lock);

	kfree_rcu(old, rcu);
	usercaps_audit_change(cap, &was, &now);
	return 0;
}
