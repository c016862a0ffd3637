// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps hostile input - every way but chmod/chown by a holder of
 * CAP_MAC_ADMIN to change /sys/kernel/security/usercaps must fail and
 * leave the policy as it was.
 *
 * Each case is one system call on the policy files, by root, by a user, by
 * a user the policy grants CAP_KILL, or CAP_FOWNER and CAP_MAC_ADMIN, by
 * root holding only CAP_FOWNER, only CAP_DAC_OVERRIDE or everything but
 * CAP_MAC_ADMIN, by root of a new user namespace or by a set-group-ID
 * program; after each, every file's owner, group and mode
 * and the text of "grants" are compared with a snapshot taken before. A
 * random pass then throws malformed calls at the files. Runs as root in a
 * guest booted with usercaps in lsm=.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define DIR_PATH "/sys/kernel/security/usercaps"
#define KILL_PATH DIR_PATH "/kill"
#define NEW_NAME DIR_PATH "/usercaps_hostile_new"

/* kill is granted to GRANTED_GROUP, fowner and mac_admin to GATE_GROUP. */
#define GRANTED_GROUP 2000
#define GATE_GROUP 2002
#define OWNING_USER 1000

/* argv[1] of the set-group-ID copy: try to change the policy and exit. */
#define SETGID_ARG "--as-setgid-copy"

/* Cases tried, over all tests: each test runs in its own process. */
static int *cases_tried;

struct file_state {
	char name[32];
	uid_t uid;
	gid_t gid;
	mode_t mode;
	ino_t ino;
};

struct snapshot {
	struct file_state files[48];
	int nfiles;
	char grants[4096];
};

/* Returns 0, or the errno of what could not be read. */
static int read_whole(const char *path, char *buf, size_t size)
{
	ssize_t len = 0, n = 1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	while (n > 0 && (size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		len += n > 0 ? n : 0;
	}
	buf[len] = '\0';
	close(fd);
	return n < 0 ? EIO : 0;
}

static int take_snapshot(struct snapshot *snap)
{
	struct dirent *entry;
	struct stat st;
	char path[sizeof(DIR_PATH) + sizeof(entry->d_name)];
	DIR *dir;

	memset(snap, 0, sizeof(*snap));
	dir = opendir(DIR_PATH);
	if (!dir)
		return errno;
	while ((entry = readdir(dir)) && snap->nfiles < 48) {
		struct file_state *f = &snap->files[snap->nfiles++];

		snprintf(path, sizeof(path), DIR_PATH "/%s", entry->d_name);
		if (lstat(path, &st)) {
			closedir(dir);
			return errno;
		}
		snprintf(f->name, sizeof(f->name), "%.31s", entry->d_name);
		f->uid = st.st_uid;
		f->gid = st.st_gid;
		f->mode = st.st_mode;
		f->ino = st.st_ino;
	}
	closedir(dir);
	return read_whole(DIR_PATH "/grants", snap->grants, sizeof(snap->grants));
}

/* Returns NULL if unchanged, else what differs (static buffer). */
static const char *policy_change(const struct snapshot *before)
{
	static char why[256];
	struct snapshot now;
	int i, err = take_snapshot(&now);

	if (err) {
		snprintf(why, sizeof(why), "cannot read the policy: %s", strerror(err));
		return why;
	}
	if (now.nfiles != before->nfiles) {
		snprintf(why, sizeof(why), "%d entries, were %d", now.nfiles, before->nfiles);
		return why;
	}
	for (i = 0; i < now.nfiles; i++) {
		const struct file_state *a = &before->files[i], *b = &now.files[i];

		if (strcmp(a->name, b->name) || a->uid != b->uid || a->gid != b->gid ||
		    a->mode != b->mode || a->ino != b->ino) {
			snprintf(why, sizeof(why), "%s %u:%u %o ino %lu is now %s %u:%u %o ino %lu",
				 a->name, a->uid, a->gid, a->mode, (unsigned long)a->ino,
				 b->name, b->uid, b->gid, b->mode, (unsigned long)b->ino);
			return why;
		}
	}
	if (strcmp(now.grants, before->grants)) {
		snprintf(why, sizeof(why), "grants reads '%.100s', was '%.100s'", now.grants, before->grants);
		return why;
	}
	return NULL;
}

/* One system call on the policy files, as data, so any identity can run it. */
enum op_kind {
	OP_OPEN, OP_CHMOD, OP_CHOWN, OP_TRUNCATE, OP_LINK, OP_UNLINK, OP_RMDIR,
	OP_RENAME, OP_MKNOD, OP_MKDIR, OP_SYMLINK, OP_SETXATTR, OP_REMOVEXATTR,
	OP_UTIMES, OP_MMAP, OP_FTRUNCATE,
};

struct op {
	enum op_kind kind;
	const char *path;
	const char *path2;	/* link, rename, symlink target; xattr name */
	int flags;		/* open flags */
	mode_t mode;		/* chmod, mknod, mkdir, open */
	uid_t uid;		/* chown */
	gid_t gid;
	off_t length;		/* truncate */
};

/* A well-formed security.capability: every capability, effective. */
static const struct vfs_cap_data all_file_caps = {
	.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	.data = { { .permitted = ~0u }, { .permitted = ~0u } },
};

/* Returns 0 if the call succeeded, else its errno. */
static int do_op(const struct op *op)
{
	int ret = -1, fd;
	void *map;

	switch (op->kind) {
	case OP_OPEN:
		fd = open(op->path, op->flags, op->mode);
		if (fd >= 0)
			close(fd);
		ret = fd < 0 ? -1 : 0;
		break;
	case OP_CHMOD:
		ret = chmod(op->path, op->mode);
		break;
	case OP_CHOWN:
		ret = chown(op->path, op->uid, op->gid);
		break;
	case OP_TRUNCATE:
		ret = truncate(op->path, op->length);
		break;
	case OP_LINK:
		ret = link(op->path, op->path2);
		break;
	case OP_UNLINK:
		ret = unlink(op->path);
		break;
	case OP_RMDIR:
		ret = rmdir(op->path);
		break;
	case OP_RENAME:
		ret = rename(op->path, op->path2);
		break;
	case OP_MKNOD:
		ret = mknod(op->path, op->mode, makedev(1, 3));
		break;
	case OP_MKDIR:
		ret = mkdir(op->path, op->mode);
		break;
	case OP_SYMLINK:
		ret = symlink(op->path2, op->path);
		break;
	case OP_SETXATTR:
		ret = setxattr(op->path, op->path2, &all_file_caps, sizeof(all_file_caps), op->flags);
		break;
	case OP_REMOVEXATTR:
		ret = removexattr(op->path, op->path2);
		break;
	case OP_UTIMES:
		ret = utimensat(AT_FDCWD, op->path, NULL, 0);
		break;
	case OP_MMAP:
	case OP_FTRUNCATE:
		fd = open(op->path, O_RDONLY);
		if (fd < 0)
			return errno;
		if (op->kind == OP_MMAP) {
			map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
			ret = map == MAP_FAILED ? -1 : 0;
			if (!ret)
				munmap(map, 4096);
		} else {
			ret = ftruncate(fd, op->length);
		}
		ret = ret ? errno : 0;
		close(fd);
		return ret;
	}
	return ret ? errno : 0;
}

/* Who makes a call, as far as the kernel's answer goes. */
enum caller {
	BY_ROOT,	/* root of the initial user namespace */
	BY_USER,	/* a user, whatever the policy grants it */
	BY_NS_ROOT,	/* root of a new user namespace mapping every id to itself */
	BY_NS_USER,	/* a user as root of a new user namespace mapping only itself */
	CALLERS
};

/* The kernels a case's errors are those of (see linux_from_6_11()). */
enum case_kernels { ANY_KERNEL, BEFORE_6_11, FROM_6_11 };

/* Tried by every identity: each must fail with the errno given for its caller. */
struct hostile_case {
	struct op op;
	int want[CALLERS];	/* 0: root's legitimate way in, not tried by root */
	enum case_kernels kernels;
};

/* Whether the running kernel is Linux 6.11 or later, from uname(). */
static bool linux_from_6_11(void)
{
	struct utsname uts;
	unsigned int major, minor;

	if (uname(&uts) || sscanf(uts.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 11);
}

static const struct hostile_case refused_cases[] = {
	{ { OP_OPEN, KILL_PATH, .flags = O_WRONLY }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_OPEN, KILL_PATH, .flags = O_RDWR }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_OPEN, KILL_PATH, .flags = O_WRONLY | O_APPEND }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_OPEN, KILL_PATH, .flags = O_RDONLY | O_TRUNC }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_OPEN, KILL_PATH, .flags = O_WRONLY | O_TRUNC }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_OPEN, KILL_PATH, .flags = O_WRONLY | O_CREAT | O_EXCL, .mode = 0777 },
	  { EEXIST, EEXIST, EEXIST, EEXIST } },
	{ { OP_OPEN, NEW_NAME, .flags = O_WRONLY | O_CREAT, .mode = 0777 },
	  { EACCES, EACCES, EACCES, EACCES } },
	{ { OP_OPEN, NEW_NAME, .flags = O_RDONLY | O_CREAT, .mode = 07777 },
	  { EACCES, EACCES, EACCES, EACCES } },
	{ { OP_OPEN, DIR_PATH, .flags = O_RDWR | O_TMPFILE, .mode = 0600 },
	  { EOPNOTSUPP, EACCES, EOPNOTSUPP, EACCES } },
	{ { OP_OPEN, DIR_PATH, .flags = O_WRONLY }, { EISDIR, EISDIR, EISDIR, EISDIR } },
	{ { OP_CHMOD, KILL_PATH, .mode = 07777 }, { 0, EPERM, EPERM, EPERM } },
	{ { OP_CHMOD, KILL_PATH, .mode = 0100 }, { 0, EPERM, EPERM, EPERM } },
	{ { OP_CHOWN, KILL_PATH, .uid = 1000, .gid = 1000 }, { 0, EPERM, EPERM, EINVAL } },
	{ { OP_CHOWN, KILL_PATH, .uid = 0, .gid = 0 }, { 0, EPERM, EPERM, EPERM } },
	{ { OP_CHOWN, KILL_PATH, .uid = -1, .gid = GRANTED_GROUP }, { 0, EPERM, EPERM, EINVAL } },
	{ { OP_UTIMES, KILL_PATH }, { 0, EACCES, EPERM, EACCES } },
	{ { OP_TRUNCATE, KILL_PATH, .length = 0 }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_TRUNCATE, KILL_PATH, .length = 1 << 20 }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_TRUNCATE, KILL_PATH, .length = -1 }, { EINVAL, EINVAL, EINVAL, EINVAL } },
	{ { OP_FTRUNCATE, KILL_PATH, .length = 0 }, { EINVAL, EACCES, EINVAL, EACCES } },
	{ { OP_MMAP, KILL_PATH }, { ENODEV, EACCES, ENODEV, EACCES } },
	{ { OP_LINK, KILL_PATH, NEW_NAME }, { EPERM, EPERM, EPERM, EPERM } },
	{ { OP_LINK, KILL_PATH, "/tmp/usercaps_hostile_link" }, { EXDEV, EXDEV, EXDEV, EXDEV } },
	{ { OP_UNLINK, KILL_PATH }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_UNLINK, DIR_PATH "/grants" }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_UNLINK, DIR_PATH "/mode" }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_RMDIR, DIR_PATH }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_RENAME, KILL_PATH, NEW_NAME }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_RENAME, KILL_PATH, DIR_PATH "/net_raw" }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_RENAME, DIR_PATH "/grants", KILL_PATH }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_RENAME, KILL_PATH, "/tmp/usercaps_hostile_moved" }, { EXDEV, EXDEV, EXDEV, EXDEV } },
	{ { OP_RENAME, DIR_PATH, "/sys/kernel/security/usercaps2" }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_MKNOD, NEW_NAME, .mode = S_IFREG | 0777 }, { EACCES, EACCES, EACCES, EACCES } },
	{ { OP_MKNOD, NEW_NAME, .mode = S_IFCHR | 0666 }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_MKNOD, NEW_NAME, .mode = S_IFIFO | 0666 }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_MKDIR, NEW_NAME, .mode = 0777 }, { EPERM, EACCES, EPERM, EACCES } },
	{ { OP_SYMLINK, NEW_NAME, KILL_PATH }, { EPERM, EACCES, EPERM, EACCES } },
	/*
	 * With the bpf LSM in the stack, as in Debian's kernel, 6.1's
	 * security_inode_setxattr() and security_inode_removexattr() take
	 * bpf's default 0 for an LSM's answer and skip commoncap's check of
	 * a security.* name: securityfs, which has no xattr handler, then
	 * refuses everyone with EOPNOTSUPP. Since 6.11 (the
	 * inode_xattr_skipcap hook) commoncap checks the name unless an LSM
	 * claims it: a caller without CAP_SYS_ADMIN (CAP_SETFCAP over the
	 * file for security.capability) gets EPERM first.
	 * security.capability's setxattr meets cap_convert_nscap() first on
	 * both.
	 */
	{ { OP_SETXATTR, KILL_PATH, "security.capability" }, { EOPNOTSUPP, EPERM, EOPNOTSUPP, EPERM } },
	{ { OP_SETXATTR, KILL_PATH, "security.usercaps" },
	  { EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP }, BEFORE_6_11 },
	{ { OP_SETXATTR, KILL_PATH, "security.usercaps" },
	  { EOPNOTSUPP, EPERM, EPERM, EPERM }, FROM_6_11 },
	{ { OP_SETXATTR, KILL_PATH, "user.usercaps" }, { EOPNOTSUPP, EACCES, EOPNOTSUPP, EACCES } },
	{ { OP_SETXATTR, KILL_PATH, "trusted.usercaps" }, { EOPNOTSUPP, EPERM, EPERM, EPERM } },
	{ { OP_SETXATTR, KILL_PATH, "system.posix_acl_access" },
	  { EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP } },
	{ { OP_REMOVEXATTR, KILL_PATH, "security.capability" },
	  { EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP, EOPNOTSUPP }, BEFORE_6_11 },
	{ { OP_REMOVEXATTR, KILL_PATH, "security.capability" },
	  { EOPNOTSUPP, EPERM, EOPNOTSUPP, EPERM }, FROM_6_11 },
};

struct identity {
	const char *name;
	enum caller caller;
	uid_t uid;
	gid_t gid;
	gid_t group;		/* one supplementary group, 0 for none */
	bool limit_caps;	/* root: keep only @caps, in every set */
	__u64 caps;
};

static const struct identity root = { "root", BY_ROOT };
static const struct identity plain_user = { "user 3000", BY_USER, 3000, 3000 };
/* Owns a capability file (sys_nice, u+x): owning is not CAP_FOWNER. */
static const struct identity file_owner = { "owner of sys_nice", BY_USER, OWNING_USER, 1000 };
/* Holds CAP_KILL through the policy; tries to get more. */
static const struct identity kill_holder = {
	"member of the kill group", BY_USER, 1002, 1002, GRANTED_GROUP,
};
/* What the policy gate refuses: CAP_FOWNER is not CAP_MAC_ADMIN, nor a grant. */
static const struct identity fowner_root = {
	"root with only CAP_FOWNER", BY_ROOT, .limit_caps = true,
	.caps = 1ULL << CAP_FOWNER,
};
static const struct identity dac_override_root = {
	"root with only CAP_DAC_OVERRIDE", BY_ROOT, .limit_caps = true,
	.caps = 1ULL << CAP_DAC_OVERRIDE,
};
static const struct identity all_but_mac_admin_root = {
	"root with every capability but CAP_MAC_ADMIN", BY_ROOT, .limit_caps = true,
	.caps = ((1ULL << (CAP_LAST_CAP + 1)) - 1) & ~(1ULL << CAP_MAC_ADMIN),
};
static const struct identity gate_holder = {
	"holder of usercaps-granted fowner and mac_admin", BY_USER, 1003, 1003, GATE_GROUP,
};
/* Full capabilities over every id, in its namespace: what setattr_prepare() would take. */
static const struct identity ns_root = { "root of an identity-mapped user namespace", BY_NS_ROOT };
static const struct identity ns_user = { "user 1000 as root of its user namespace", BY_NS_USER, 1000, 1000 };

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * Enters a new user namespace that maps every id to itself. Only a process
 * outside it may write such a map: a helper left behind in the parent.
 * Returns 0, or the errno of the step that failed.
 */
static int unshare_identity_mapped(void)
{
	static const char *const maps[] = { "uid_map", "gid_map" };
	pid_t self = getpid(), helper;
	int go[2], status, err = 0;
	char path[64], byte;
	size_t i;

	if (pipe(go))
		return errno;
	helper = fork();
	if (helper == 0) {
		if (read(go[0], &byte, 1) != 1)
			_exit(EPIPE);
		for (i = 0; i < ARRAY_SIZE(maps); i++) {
			snprintf(path, sizeof(path), "/proc/%d/%s", self, maps[i]);
			if (write_text(path, "0 0 4294967295"))
				_exit(errno);
		}
		_exit(0);
	}
	if (helper < 0 || unshare(CLONE_NEWUSER))
		err = errno;
	if (write(go[1], "g", 1) != 1 && !err)
		err = errno;
	if (helper > 0 && waitpid(helper, &status, 0) == helper && !err)
		err = WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
	close(go[0]);
	close(go[1]);
	return err;
}

/* Keeps only @caps in the effective, permitted and inheritable sets. */
static int limit_caps(__u64 caps)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };
	int i;

	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		data[i].effective = data[i].permitted = data[i].inheritable = caps >> (32 * i);
	return syscall(SYS_capset, &head, data);
}

/* Returns 0, or the errno of the step that failed. */
static int become(const struct identity *id)
{
	gid_t groups[1] = { id->group };
	char map[32];

	if (id->uid && (setgroups(id->group ? 1 : 0, groups) ||
			setresgid(id->gid, id->gid, id->gid) ||
			setresuid(id->uid, id->uid, id->uid)))
		return errno;
	if (id->limit_caps && limit_caps(id->caps))
		return errno;
	if (id->caller == BY_NS_ROOT)
		return unshare_identity_mapped();
	if (id->caller == BY_NS_USER) {
		/* Changing ids made /proc/self root's: make it ours again. */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			return errno;
		snprintf(map, sizeof(map), "0 %u 1", id->uid);
		if (unshare(CLONE_NEWUSER) || write_text("/proc/self/uid_map", map) ||
		    write_text("/proc/self/setgroups", "deny"))
			return errno;
		snprintf(map, sizeof(map), "0 %u 1", id->gid);
		return write_text("/proc/self/gid_map", map) ? errno : 0;
	}
	return 0;
}

/* Runs @fn as @id in a child; returns its exit status, 255 if it died. */
static int as_identity(const struct identity *id, int (*fn)(const void *), const void *arg)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(become(id) ? 254 : fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

static int op_in_child(const void *op)
{
	return do_op(op);
}

static const char *kind_name(enum op_kind kind)
{
	static const char *const names[] = {
		"open", "chmod", "chown", "truncate", "link", "unlink", "rmdir",
		"rename", "mknod", "mkdir", "symlink", "setxattr", "removexattr",
		"utimensat", "mmap", "ftruncate",
	};

	return names[kind];
}

static const char *errno_name(int err)
{
	return err ? strerrorname_np(err) ?: "?" : "success";
}

FIXTURE(hostile) {
	struct snapshot before;
	char setgid_copy[64];
};

/* The policy every case starts from, and must leave as it was. */
static int set_baseline(void)
{
	/* The first three cannot be changed: they are only checked. */
	static const struct { const char *name; uid_t uid; gid_t gid; mode_t mode; } files[] = {
		{ "", 0, 0, 0755 },
		{ "grants", 0, 0, 0444 },
		{ "mode", 0, 0, 0444 },
		{ "kill", 0, GRANTED_GROUP, 0110 },
		{ "sys_nice", OWNING_USER, 0, 0100 },
		{ "fowner", 0, GATE_GROUP, 0110 },
		{ "mac_admin", 0, GATE_GROUP, 0110 },
	};
	char path[128];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), DIR_PATH "/%s", files[i].name);
		if (i < 3) {
			if (stat(path, &st))
				return errno;
			if (st.st_uid != files[i].uid || st.st_gid != files[i].gid ||
			    (st.st_mode & 07777) != files[i].mode)
				return EEXIST;
			continue;
		}
		if (chown(path, files[i].uid, files[i].gid) || chmod(path, files[i].mode))
			return errno;
	}
	return 0;
}

/* The setup of both fixtures: the baseline policy, and its snapshot. */
static void set_up_baseline(struct __test_metadata *_metadata, struct snapshot *before)
{
	ASSERT_EQ(0, geteuid()) {
		TH_LOG("the hostile-input tests must run as root");
	}
	ASSERT_EQ(0, access(DIR_PATH, F_OK)) {
		TH_LOG(DIR_PATH " is missing: is usercaps in lsm= ? (%s)", strerror(errno));
	}
	ASSERT_EQ(0, set_baseline());
	ASSERT_EQ(0, take_snapshot(before));
}

FIXTURE_SETUP(hostile)
{
	set_up_baseline(_metadata, &self->before);
}

FIXTURE_TEARDOWN(hostile)
{
	if (self->setgid_copy[0])
		unlink(self->setgid_copy);
}

/* After each case: the policy as in the snapshot. */
#define ASSERT_POLICY_UNCHANGED(what) do { \
	const char *change = policy_change(&self->before); \
	__atomic_add_fetch(cases_tried, 1, __ATOMIC_RELAXED); \
	ASSERT_EQ(NULL, change) { \
		TH_LOG("after %s: %s", what, change); \
	} \
} while (0)

/*
 * Runs @fn as @id; @fn returns 0 if every step went as its comments say,
 * else the number of the first that did not. Then the policy as before.
 */
#define ASSERT_STEPS_AS_EXPECTED(id, fn, arg) do { \
	const int step = as_identity(id, fn, arg); \
	EXPECT_EQ(0, step) { \
		TH_LOG("%s: step %d of " #fn "() did not go as expected", (id)->name, step); \
	} \
	ASSERT_POLICY_UNCHANGED(#fn); \
} while (0)

static void describe(char *buf, size_t size, const struct identity *id, const struct op *op)
{
	snprintf(buf, size, "%s by %s on %s%s%s (flags %#o mode %#o)", kind_name(op->kind),
		 id->name, op->path, op->path2 ? " " : "", op->path2 ?: "", op->flags, op->mode);
}

/* The table of refused calls, by each identity in turn. */
FIXTURE(refused) {
	struct snapshot before;
};

FIXTURE_VARIANT(refused) {
	const struct identity *id;
};

FIXTURE_VARIANT_ADD(refused, root) { .id = &root };
FIXTURE_VARIANT_ADD(refused, user) { .id = &plain_user };
FIXTURE_VARIANT_ADD(refused, capability_file_owner) { .id = &file_owner };
FIXTURE_VARIANT_ADD(refused, holder_of_granted_kill) { .id = &kill_holder };
FIXTURE_VARIANT_ADD(refused, root_of_identity_mapped_user_namespace) { .id = &ns_root };
FIXTURE_VARIANT_ADD(refused, user_as_root_of_its_user_namespace) { .id = &ns_user };

FIXTURE_SETUP(refused)
{
	set_up_baseline(_metadata, &self->before);
}

FIXTURE_TEARDOWN(refused)
{
	unlink("/tmp/usercaps_hostile_link");
	unlink("/tmp/usercaps_hostile_moved");
}

TEST_F(refused, calls)
{
	const struct identity *id = variant->id;
	enum case_kernels other = linux_from_6_11() ? BEFORE_6_11 : FROM_6_11;
	char what[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refused_cases); i++) {
		const struct hostile_case *c = &refused_cases[i];
		int want = c->want[id->caller];
		int got;

		/* root's chmod, chown and touch are the legitimate way in. */
		if (!want || c->kernels == other)
			continue;
		describe(what, sizeof(what), id, &c->op);
		got = as_identity(id, op_in_child, &c->op);
		EXPECT_EQ(want, got) {
			TH_LOG("%s: want %s, got %s", what, errno_name(want), errno_name(got));
		}
		ASSERT_POLICY_UNCHANGED(what);
	}
}

/* Returns 0 if every step gave what the comments say, else the step's number. */
static int try_escalation(const void *unused)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };
	const gid_t root_group[] = { 0 };

	/* The grant itself works: this is the identity the policy favours. */
	if (kill(1, 0))
		return 1;
	/* The grant is not in the capability sets, so it cannot be passed on. */
	if (syscall(SYS_capget, &head, data) || data[0].effective || data[0].permitted)
		return 2;
	data[0].effective = data[0].permitted = data[0].inheritable =
		CAP_TO_MASK(CAP_FOWNER) | CAP_TO_MASK(CAP_KILL);
	if (!syscall(SYS_capset, &head, data) || errno != EPERM)
		return 3;
	if (!prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0) || errno != EPERM)
		return 4;
	if (!setuid(0) || errno != EPERM)
		return 5;
	if (!setgroups(1, root_group) || errno != EPERM)
		return 6;
	if (!chmod(DIR_PATH "/fowner", 0111) || errno != EPERM)
		return 7;
	if (!chown(DIR_PATH "/setuid", 1000, GRANTED_GROUP) || errno != EPERM)
		return 8;
	return 0;
}

TEST_F(hostile, holder_of_granted_kill_cannot_escalate)
{
	ASSERT_STEPS_AS_EXPECTED(&kill_holder, try_escalation, NULL);
}

/* In a new user and mount namespace: securityfs is not mountable, a bind is no way in. */
static int try_from_mount_namespace(const void *unused)
{
	char dir[] = "/tmp/usercaps_hostile.XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	if (unshare(CLONE_NEWNS))
		return 2;
	if (!mount("securityfs", dir, "securityfs", 0, NULL) || errno != EPERM)
		return 3;
	if (mount(DIR_PATH, dir, NULL, MS_BIND, NULL))
		return 4;
	if (chdir(dir) || !chmod("kill", 0111) || errno != EPERM)
		return 5;
	if (!chown("kill", 0, 0) || errno != EPERM)
		return 6;
	return 0;
}

TEST_F(hostile, user_namespace_mounts_give_no_way_in)
{
	ASSERT_STEPS_AS_EXPECTED(&ns_root, try_from_mount_namespace, NULL);
}

static int exec_setgid_copy(const void *path)
{
	execl(path, path, SETGID_ARG, (char *)NULL);
	return 100;
}

/* main() of the set-group-ID copy: the same steps as try_escalation's file part. */
static int as_setgid_copy(void)
{
	if (getegid() != GRANTED_GROUP)
		return 10;
	/* The set-group-ID group holds kill, as the documentation warns. */
	if (kill(1, 0))
		return 11;
	if (!chmod(KILL_PATH, 0111) || errno != EPERM)
		return 12;
	if (!chown(KILL_PATH, getuid(), GRANTED_GROUP) || errno != EPERM)
		return 13;
	if (open(KILL_PATH, O_WRONLY) >= 0 || errno != EACCES)
		return 14;
	if (!truncate(KILL_PATH, 0) || errno != EACCES)
		return 15;
	return 0;
}

/* Copies this program to @path, set-group-ID GRANTED_GROUP; returns 0 or errno. */
static int make_setgid_copy(char *path)
{
	int in = open("/proc/self/exe", O_RDONLY), out = mkstemp(path), err = 0;
	struct stat st;

	if (in < 0 || out < 0 || fstat(in, &st) ||
	    sendfile(out, in, NULL, st.st_size) != st.st_size ||
	    fchown(out, 0, GRANTED_GROUP) || fchmod(out, 02755))
		err = errno ?: EIO;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) && !err)
		err = errno;
	return err;
}

/* The set-group-ID copy runs as_setgid_copy(). */
TEST_F(hostile, setgid_program_cannot_change_grants)
{
	strcpy(self->setgid_copy, "/tmp/usercaps_hostile.setgid.XXXXXX");
	ASSERT_EQ(0, make_setgid_copy(self->setgid_copy));
	ASSERT_STEPS_AS_EXPECTED(&plain_user, exec_setgid_copy, self->setgid_copy);
}

/*
 * The directory, "grants" and "mode" decide who may read the policy, and
 * nothing may change them: not even their owner, uid 0, without
 * capabilities. Returns 0, or the first call that was not refused with
 * EPERM, as 1 + its index.
 */
static int chmod_view(const void *unused)
{
	static const struct op calls[] = {
		{ OP_CHMOD, DIR_PATH, .mode = 0700 },
		{ OP_CHMOD, DIR_PATH "/grants", .mode = 0 },
		{ OP_CHMOD, DIR_PATH "/mode", .mode = 0 },
		{ OP_UTIMES, DIR_PATH "/grants" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (do_op(&calls[i]) != EPERM)
			return 1 + i;
	return 0;
}

static int chmod_view_without_capabilities(const void *arg)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (syscall(SYS_capset, &head, none))
		return 100;
	return chmod_view(arg);
}

TEST_F(hostile, root_without_capabilities_cannot_chmod_the_view)
{
	ASSERT_STEPS_AS_EXPECTED(&root, chmod_view_without_capabilities, NULL);
}

TEST_F(hostile, root_of_user_namespace_cannot_chmod_the_view)
{
	ASSERT_STEPS_AS_EXPECTED(&ns_root, chmod_view, NULL);
}

/* As the capability files: "grants" and "mode" cannot be opened for writing or truncated. */
TEST_F(hostile, read_only_files_refuse_writing_by_root)
{
	static const char *const files[] = { DIR_PATH "/grants", DIR_PATH "/mode" };
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		fd = open(files[i], O_WRONLY);
		EXPECT_EQ(-1, fd) {
			TH_LOG("%s opened for writing; write(\"x\") then fails with %s", files[i],
			       write(fd, "x", 1) < 0 ? errno_name(errno) : "nothing");
		}
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(-1, truncate(files[i], 0)) {
			TH_LOG("%s truncated", files[i]);
		}
		*cases_tried += 2;
		ASSERT_POLICY_UNCHANGED(files[i]);
	}
}

/* chmod with bits beyond 07777 keeps only 07777; the file stays regular. */
TEST_F(hostile, odd_modes_by_root)
{
	static const struct { mode_t mode; const char *text; } cases[] = {
		{ 07777, "kill owner=0 group=2000 mode=7777 granted=group,other\n" },
		{ 04110, "kill owner=0 group=2000 mode=4110 granted=group\n" },
		{ 0170110, "kill owner=0 group=2000 mode=0110 granted=group\n" },
		{ S_IFCHR | 01000, "kill owner=0 group=2000 mode=1000 granted=none\n" },
	};
	char text[256];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, chmod(KILL_PATH, cases[i].mode));
		ASSERT_EQ(0, stat(KILL_PATH, &st));
		EXPECT_TRUE(S_ISREG(st.st_mode));
		EXPECT_EQ(cases[i].mode & 07777, st.st_mode & 07777);
		ASSERT_EQ(0, read_whole(KILL_PATH, text, sizeof(text)));
		EXPECT_STREQ(cases[i].text, text);
		__atomic_add_fetch(cases_tried, 1, __ATOMIC_RELAXED);
	}
	ASSERT_EQ(0, set_baseline());
	ASSERT_POLICY_UNCHANGED("odd modes, restored");
}

/* A seq_file read from any offset, in any size, gives the same text. */
TEST_F(hostile, reads_at_odd_offsets_and_sizes)
{
	char full[256], piece[256], byte;
	size_t len = 0;
	ssize_t n;
	int fd;

	ASSERT_EQ(0, read_whole(KILL_PATH, full, sizeof(full)));
	fd = open(KILL_PATH, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, read(fd, &byte, 0));
	while ((n = read(fd, &byte, 1)) == 1 && len < sizeof(piece) - 1)
		piece[len++] = byte;
	piece[len] = '\0';
	EXPECT_EQ(0, n);
	EXPECT_STREQ(full, piece);
	n = pread(fd, piece, sizeof(piece) - 1, 1);
	ASSERT_EQ((ssize_t)strlen(full) - 1, n);
	piece[n] = '\0';
	EXPECT_STREQ(full + 1, piece);
	EXPECT_EQ(0, pread(fd, piece, sizeof(piece), 1LL << 40));
	EXPECT_EQ(-1, pread(fd, piece, sizeof(piece), -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(fd, 0, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(fd, "1", 1));
	EXPECT_EQ(EBADF, errno);
	close(fd);
	*cases_tried += 7;
	ASSERT_POLICY_UNCHANGED("reads at odd offsets");
}

/*
 * Every change the policy gate must refuse with EPERM: chmod, chown and
 * utimensat of capability files (those granting kill, fowner, mac_admin),
 * by path and by @kill_fd, opened by root. Returns 0, or the first call
 * that was not refused with EPERM, as 1 + its index.
 */
static int change_policy(const void *kill_fd)
{
	static const struct op calls[] = {
		{ OP_CHMOD, KILL_PATH, .mode = 0111 },
		{ OP_CHMOD, KILL_PATH, .mode = 0110 },
		{ OP_CHOWN, KILL_PATH, .uid = 1003, .gid = -1 },
		{ OP_CHOWN, KILL_PATH, .uid = -1, .gid = GATE_GROUP },
		{ OP_CHOWN, KILL_PATH, .uid = 0, .gid = GRANTED_GROUP },
		{ OP_UTIMES, KILL_PATH },
		{ OP_CHMOD, DIR_PATH "/fowner", .mode = 0111 },
		{ OP_CHMOD, DIR_PATH "/mac_admin", .mode = 0111 },
		{ OP_CHOWN, DIR_PATH "/setuid", .uid = 1003, .gid = GATE_GROUP },
		{ OP_CHMOD, DIR_PATH "/sys_admin", .mode = 0011 },
	};
	const int fd = *(const int *)kill_fd;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (do_op(&calls[i]) != EPERM)
			return 1 + i;
	if (!fchmod(fd, 0111) || errno != EPERM)
		return 101;
	if (!fchown(fd, 1003, GATE_GROUP) || errno != EPERM)
		return 102;
	return 0;
}

/* Returns 0, or the step that did not go as its comment says. */
static int gate_holder_steps(const void *arg)
{
	/* The grants hold: fowner lets it chmod a file of another user. */
	if (chmod("/tmp", 01777))
		return 200;
	return change_policy(arg);
}

FIXTURE(gate) {
	struct snapshot before;
	int kill_fd;
};

FIXTURE_VARIANT(gate) {
	const struct identity *id;
};

FIXTURE_VARIANT_ADD(gate, fowner_root) { .id = &fowner_root };
FIXTURE_VARIANT_ADD(gate, dac_override_root) { .id = &dac_override_root };
FIXTURE_VARIANT_ADD(gate, all_but_mac_admin_root) { .id = &all_but_mac_admin_root };
FIXTURE_VARIANT_ADD(gate, granted_fowner_and_mac_admin) { .id = &gate_holder };
FIXTURE_VARIANT_ADD(gate, root_of_identity_mapped_user_namespace) { .id = &ns_root };

FIXTURE_SETUP(gate)
{
	set_up_baseline(_metadata, &self->before);
	self->kill_fd = open(KILL_PATH, O_RDONLY);
	ASSERT_LE(0, self->kill_fd);
}

FIXTURE_TEARDOWN(gate)
{
	close(self->kill_fd);
	chmod("/tmp", 01777);
}

/* Only CAP_MAC_ADMIN in the effective set of the initial namespace passes. */
TEST_F(gate, policy_changes_refused)
{
	const struct identity *id = variant->id;

	if (id == &gate_holder)
		ASSERT_STEPS_AS_EXPECTED(id, gate_holder_steps, &self->kill_fd);
	else
		ASSERT_STEPS_AS_EXPECTED(id, change_policy, &self->kill_fd);
}

static unsigned int rand_below(unsigned int n)
{
	return (unsigned int)random() % n;
}

/*
 * A random malformed call. By root, chmod, chown and utimensat are left
 * out: they are root's way to change the policy. By a caller who may chmod
 * files it does not own (any other process of uid 0, and holders of
 * CAP_FOWNER) they aim only at capability files: the directory, "grants"
 * and "mode" are uid 0's (see chmod_view()), and ".." is securityfs' root,
 * not policy.
 */
static void random_op(struct op *op, char *path, size_t size, bool by_root, bool owns_view)
{
	static const char *const names[] = {
		"kill", "fowner", "setuid", "sys_nice", "grants", "mode", "", ".", "..",
		"usercaps_hostile_new", "kill/", "kill/x", "KILL",
	};
	static const int flag_bits[] = {
		O_WRONLY, O_RDWR, O_TRUNC, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW,
		O_NONBLOCK, O_SYNC, O_NOATIME, O_DIRECTORY, O_PATH, O_CLOEXEC,
	};
	static const char *const xattrs[] = {
		"security.capability", "security.usercaps", "user.x", "trusted.x",
		"system.posix_acl_access", "system.posix_acl_default", "security.", "bogus",
	};
	bool setattr;
	int i;

	memset(op, 0, sizeof(*op));
	do {
		op->kind = rand_below(OP_FTRUNCATE + 1);
		setattr = op->kind == OP_CHMOD || op->kind == OP_CHOWN || op->kind == OP_UTIMES;
	} while (by_root && setattr);
	/* The first four names are capability files. */
	snprintf(path, size, DIR_PATH "/%s",
		 names[rand_below(setattr && owns_view ? 4 : ARRAY_SIZE(names))]);
	op->path = path;
	op->path2 = rand_below(2) ? NEW_NAME : DIR_PATH "/net_raw";
	for (i = 0; i < (int)ARRAY_SIZE(flag_bits); i++)
		if (rand_below(3) == 0)
			op->flags |= flag_bits[i];
	op->mode = random() & 0177777;
	op->uid = rand_below(4) ? rand_below(5000) : (uid_t)-1;
	op->gid = rand_below(4) ? rand_below(5000) : (gid_t)-1;
	op->length = rand_below(2) ? 0 : (off_t)random() - RAND_MAX / 2;
	if (op->kind == OP_SETXATTR || op->kind == OP_REMOVEXATTR)
		op->path2 = xattrs[rand_below(ARRAY_SIZE(xattrs))];
	if (op->kind == OP_SETXATTR)
		op->flags = rand_below(3) == 0 ? XATTR_CREATE : rand_below(2) ? XATTR_REPLACE : 0;
}

#define RANDOM_CALLS 400

struct random_pass {
	bool by_root;
	bool owns_view;		/* may chmod the directory, grants, mode or ".." */
	unsigned int seed;
};

/* Returns 0, or 1 after printing the call that changed the policy. */
static int random_calls(const void *arg)
{
	const struct random_pass *pass = arg;
	struct snapshot before;
	const char *change;
	char path[128];
	struct op op;
	int i;

	/* Taken here: a user namespace shows other ids than the parent's. */
	if (take_snapshot(&before))
		return 2;
	srandom(pass->seed);
	for (i = 0; i < RANDOM_CALLS; i++) {
		random_op(&op, path, sizeof(path), pass->by_root, pass->owns_view);
		do_op(&op);
		change = policy_change(&before);
		if (change) {
			fprintf(stderr, "# %s %s %s flags %#o mode %#o %d:%d length %lld: %s\n",
				kind_name(op.kind), op.path, op.path2, op.flags, op.mode,
				(int)op.uid, (int)op.gid, (long long)op.length, change);
			return 1;
		}
	}
	return 0;
}

/*
 * 2,400 calls take seconds on the benchmark kernel, and minutes on the
 * debug kernel (KASAN, lockdep) under TCG: the harness's 30 s would stop
 * them half-way there.
 */
TEST_F_TIMEOUT(hostile, random_calls_change_nothing, 900)
{
	const struct identity *ids[] = {
		&root, &plain_user, &file_owner, &kill_holder, &ns_root, &ns_user,
		&fowner_root, &dac_override_root, &all_but_mac_admin_root, &gate_holder,
	};
	struct random_pass pass;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		/* Only root passes the gate: its changes are not hostile. */
		pass.by_root = ids[i] == &root;
		pass.owns_view = ids[i]->uid == 0 || ids[i] == &gate_holder;
		pass.seed = 0x5eed + i;
		EXPECT_EQ(0, as_identity(ids[i], random_calls, &pass)) {
			TH_LOG("random calls by %s changed the policy", ids[i]->name);
		}
		__atomic_add_fetch(cases_tried, RANDOM_CALLS, __ATOMIC_RELAXED);
		ASSERT_POLICY_UNCHANGED("random calls");
	}
}

static void print_cases_tried(void)
{
	printf("# hostile: %d cases tried\n", *cases_tried);
}

/*
 * The harness's main() under another name: ours also serves as the set-
 * group-ID copy, and prints how many cases all tests tried when the
 * harness exits.
 */
#define main hostile_harness_main
TEST_HARNESS_MAIN
#undef main

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], SETGID_ARG))
		return as_setgid_copy();
	cases_tried = mmap(NULL, sizeof(*cases_tried), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cases_tried == MAP_FAILED || atexit(print_cases_tried))
		return 1;
	return hostile_harness_main(argc, argv);
}
