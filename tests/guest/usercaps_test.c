// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps tests - policy set with chmod/chown on the securityfs files,
 * checked through capable()-gated syscalls made by unprivileged children.
 *
 * Runs as root in a guest booted with usercaps in lsm=. USERCAPS_MODE
 * (naive, cached or percred) names the variant the kernel was booted with.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define USERCAPS_DIR "/sys/kernel/security/usercaps"

/* Numeric ids: the guest's /etc/passwd is the host's, so no names. */
#define USER 1000
#define USER_GROUP 1000
#define OTHER_USER 3000
#define GRANT_GROUP 2000
#define RAW_GROUP 2001
#define UNRELATED_GROUP 3000

/*
 * A child exits with the errno of its probe (0: the call succeeded), or
 * with one of these when it could not get as far as the probe.
 */
#define CHILD_SETUP_FAILED 250
#define CHILD_NOT_SETGID 251
#define CHILD_WRONG_STEP 252

/* argv[1] of the set-group-ID copy: try a raw socket and exit. */
#define PROBE_RAW_SOCKET_ARG "--probe-raw-socket"

/* Indexed by capability number: the file names of Linux 6.1. */
static const char *const cap_names[] = {
	"chown", "dac_override", "dac_read_search", "fowner", "fsetid",
	"kill", "setgid", "setuid", "setpcap", "linux_immutable",
	"net_bind_service", "net_broadcast", "net_admin", "net_raw",
	"ipc_lock", "ipc_owner", "sys_module", "sys_rawio", "sys_chroot",
	"sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
	"sys_resource", "sys_time", "sys_tty_config", "mknod", "lease",
	"audit_write", "audit_control", "setfcap", "mac_override",
	"mac_admin", "syslog", "wake_alarm", "block_suspend", "audit_read",
	"perfmon", "bpf", "checkpoint_restore",
};
_Static_assert(ARRAY_SIZE(cap_names) == CAP_CHECKPOINT_RESTORE + 1,
	       "one file per capability of Linux 6.1");

struct identity {
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t groups[4];
};

/* In GRANT_GROUP only as a supplementary group. */
static const struct identity member = {
	.uid = USER, .gid = USER_GROUP, .ngroups = 1, .groups = { GRANT_GROUP },
};

static const struct identity outsider = {
	.uid = USER, .gid = USER_GROUP, .ngroups = 1, .groups = { UNRELATED_GROUP },
};

/* A uid equal to GRANT_GROUP's number, in no group: catches uid/gid mix-ups. */
static const struct identity gid_numbered_user = {
	.uid = GRANT_GROUP, .gid = USER_GROUP,
};

static const struct identity plain_user = {
	.uid = USER, .gid = USER_GROUP,
};

typedef int (*probe_fn)(const void *arg);

static void cap_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, USERCAPS_DIR "/%s", name);
}

/* Returns 0 or -errno. */
static int set_policy(const char *name, uid_t owner, gid_t group, mode_t mode)
{
	char path[128];

	cap_path(path, sizeof(path), name);
	if (chown(path, owner, group))
		return -errno;
	if (chmod(path, mode))
		return -errno;
	return 0;
}

static int reset_policy(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(cap_names); i++) {
		err = set_policy(cap_names[i], 0, 0, 0100);
		if (err)
			return err;
	}
	return 0;
}

/* Reads a whole small file as a string; returns its length or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t size)
{
	ssize_t len = 0, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

static ssize_t read_cap_file(const char *name, char *buf, size_t size)
{
	char path[128];

	cap_path(path, sizeof(path), name);
	return read_text(path, buf, size);
}

/* What a child's exit status means, for failure messages. */
static const char *outcome(int status)
{
	switch (status) {
	case 0:
		return "success";
	case CHILD_SETUP_FAILED:
		return "child setup failed (see its message above)";
	case CHILD_NOT_SETGID:
		return "probe did not run with the expected egid";
	case CHILD_WRONG_STEP:
		return "a step before the last went wrong (see above)";
	default:
		if (status > 0 && status < 200)
			return strerrorname_np(status) ?: "unknown errno";
		return "killed or not waited for";
	}
}

/* @seen is evaluated once: it is often a whole child's run. */
#define ASSERT_OUTCOME(expected, seen, what) do { \
	const int outcome_seen = (seen); \
	ASSERT_EQ(expected, outcome_seen) { \
		TH_LOG("%s: want %s, got %s", what, outcome(expected), \
		       outcome(outcome_seen)); \
	} \
} while (0)

#define EXPECT_OUTCOME(expected, seen, what) do { \
	const int outcome_seen = (seen); \
	EXPECT_EQ(expected, outcome_seen) { \
		TH_LOG("%s: want %s, got %s", what, outcome(expected), \
		       outcome(outcome_seen)); \
	} \
} while (0)

static int child_fail(const char *what)
{
	fprintf(stderr, "# child: %s: %s\n", what, strerror(errno));
	return CHILD_SETUP_FAILED;
}

static int become(const struct identity *id)
{
	if (setgroups(id->ngroups, id->groups))
		return child_fail("setgroups");
	if (setresgid(id->gid, id->gid, id->gid))
		return child_fail("setresgid");
	if (setresuid(id->uid, id->uid, id->uid))
		return child_fail("setresuid");
	return 0;
}

/*
 * run_probe - fork, drop @bounding_drop from the bounding set (unless -1),
 * become @id (unless NULL: stay root), and run @probe.
 *
 * Return: the child's exit status, or 256 + signal if it was killed.
 */
static int run_probe(const struct identity *id, int bounding_drop,
		     probe_fn probe, const void *arg)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 256;
	if (pid == 0) {
		if (bounding_drop >= 0 &&
		    prctl(PR_CAPBSET_DROP, bounding_drop, 0, 0, 0))
			_exit(child_fail("PR_CAPBSET_DROP"));
		if (id && become(id))
			_exit(CHILD_SETUP_FAILED);
		_exit(probe(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return 256;
	if (WIFSIGNALED(status))
		return 256 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* CAP_KILL: signalling root's init needs it. */
static int probe_kill_init(const void *arg)
{
	return kill(1, 0) ? errno : 0;
}

/* CAP_NET_RAW. */
static int probe_raw_socket(const void *arg)
{
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* CAP_SYS_NICE: with RLIMIT_NICE at 0, lowering the nice value needs it. */
static int probe_lower_nice(const void *arg)
{
	const struct rlimit no_nice = { 0, 0 };

	if (setrlimit(RLIMIT_NICE, &no_nice))
		return child_fail("setrlimit(RLIMIT_NICE)");
	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) != 0 || errno)
		return child_fail("getpriority: nice is not 0");
	return setpriority(PRIO_PROCESS, 0, -1) ? errno : 0;
}


/* Clears @cap from the sets in @which (bits: 1 effective, 2 permitted). */
static int drop_capability(int cap, int which)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data))
		return -1;
	if (which & 1)
		data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	if (which & 2)
		data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	return syscall(SYS_capset, &head, data);
}

/*
 * In a new user and UTS namespace, sethostname() asks for CAP_SYS_ADMIN
 * in the namespace the caller is in: commoncap finds the effective set
 * and, once it is cleared, asks usercaps, which must refuse a credential
 * outside the initial namespace. The first call shows the path works.
 */
static int probe_sethostname_in_user_ns(const void *arg)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWUTS))
		return child_fail("unshare(CLONE_NEWUSER | CLONE_NEWUTS)");
	if (sethostname("usercaps-ns", 11)) {
		fprintf(stderr, "# child: sethostname with the namespace's capabilities: %s\n",
			strerror(errno));
		return CHILD_WRONG_STEP;
	}
	if (drop_capability(CAP_SYS_ADMIN, 1))
		return child_fail("capset");
	return sethostname("usercaps-ns", 11) ? errno : 0;
}

/* kill(pid, 0) of the process given: CAP_KILL in its user namespace. */
static int probe_kill_pid(const void *arg)
{
	return kill(*(const pid_t *)arg, 0) ? errno : 0;
}

static int probe_raw_socket_without_effective(const void *arg)
{
	if (drop_capability(CAP_NET_RAW, 1))
		return child_fail("capset");
	return probe_raw_socket(arg);
}

/*
 * As after an execve() that followed PR_CAPBSET_DROP: out of the bounding
 * set and out of the permitted and effective sets.
 */
static int probe_raw_socket_without_bounding(const void *arg)
{
	if (prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0))
		return child_fail("PR_CAPBSET_DROP");
	if (drop_capability(CAP_NET_RAW, 1 | 2))
		return child_fail("capset");
	return probe_raw_socket(arg);
}

struct exec_probe {
	const char *path;
	gid_t egid;
};

static int probe_exec_raw_socket(const void *arg)
{
	const struct exec_probe *probe = arg;
	char egid[16];

	snprintf(egid, sizeof(egid), "%u", probe->egid);
	execl(probe->path, probe->path, PROBE_RAW_SOCKET_ARG, egid, (char *)NULL);
	return child_fail("execl");
}

/* main() of the set-group-ID copy. */
static int raw_socket_as_setgid(const char *egid)
{
	if (getegid() != strtoul(egid, NULL, 10)) {
		fprintf(stderr, "# probe: egid %u, want %s\n", getegid(), egid);
		return CHILD_NOT_SETGID;
	}
	return probe_raw_socket(NULL);
}

static int probe_fchmod(const void *arg)
{
	return fchmod(*(const int *)arg, 0111) ? errno : 0;
}

static int probe_fchown_to_user(const void *arg)
{
	return fchown(*(const int *)arg, USER, USER_GROUP) ? errno : 0;
}

static int probe_fchgrp_to_own_group(const void *arg)
{
	return fchown(*(const int *)arg, -1, USER_GROUP) ? errno : 0;
}

/*
 * As USER in no group, keeping CAP_FOWNER and CAP_CHOWN in the effective
 * set and nothing else: the ordinary permission to chmod and chown any
 * file, without CAP_MAC_ADMIN.
 */
static int become_file_owner_anywhere(void)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	const __u32 caps = CAP_TO_MASK(CAP_FOWNER) | CAP_TO_MASK(CAP_CHOWN);

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return child_fail("PR_SET_KEEPCAPS");
	if (become(&plain_user))
		return CHILD_SETUP_FAILED;
	data[0].effective = caps;
	data[0].permitted = caps;
	if (syscall(SYS_capset, &head, data))
		return child_fail("capset");
	return 0;
}

/*
 * @arg: the descriptors of a capability file and of a file of root's. The
 * ordinary permission is shown first on root's file; then the capability
 * file's chmod (and chown, with @arg[2] set) must be refused.
 */
static int probe_policy_change_with_fowner(const void *arg)
{
	const int *fds = arg;

	if (become_file_owner_anywhere())
		return CHILD_SETUP_FAILED;
	if (fchmod(fds[1], 0640) || fchown(fds[1], USER, USER_GROUP)) {
		fprintf(stderr, "# child: chmod and chown of root's file with CAP_FOWNER and CAP_CHOWN: %s\n",
			strerror(errno));
		return CHILD_WRONG_STEP;
	}
	if (fds[2])
		return fchown(fds[0], USER, USER_GROUP) ? errno : 0;
	return fchmod(fds[0], 0111) ? errno : 0;
}

/* CAP_DAC_READ_SEARCH, or the file's own permission: @arg is its path. */
static int probe_open_for_reading(const void *arg)
{
	int fd = open(arg, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The same question asked with access(2), under its override credential. */
static int probe_access_for_reading(const void *arg)
{
	return access(arg, R_OK) ? errno : 0;
}

/*
 * ruid and euid USER, saved uid OTHER_USER, who owns the kill file: the
 * grant must follow the fsuid as it moves between the two.
 */
static int probe_kill_follows_fsuid(const void *arg)
{
	if (setgroups(0, NULL) || setresgid(USER_GROUP, USER_GROUP, USER_GROUP) ||
	    setresuid(USER, USER, OTHER_USER))
		return child_fail("dropping ids");
	if (probe_kill_init(arg) != EPERM) {
		fprintf(stderr, "# child: kill(1, 0) with fsuid %d did not fail with EPERM\n", USER);
		return CHILD_WRONG_STEP;
	}
	setfsuid(OTHER_USER);
	if (setfsuid(-1) != OTHER_USER)
		return child_fail("setfsuid");
	if (probe_kill_init(arg) != 0) {
		fprintf(stderr, "# child: kill(1, 0) with fsuid %d failed: %s\n",
			OTHER_USER, strerror(errno));
		return CHILD_WRONG_STEP;
	}
	setfsuid(USER);
	return probe_kill_init(arg);
}

FIXTURE(usercaps) {
	char setgid_copy[64];
};

FIXTURE_SETUP(usercaps)
{
	ASSERT_EQ(0, geteuid()) {
		TH_LOG("the usercaps tests must run as root");
	}
	ASSERT_EQ(0, access(USERCAPS_DIR, F_OK)) {
		TH_LOG(USERCAPS_DIR " is missing: is usercaps in lsm= ? (%s)",
		       strerror(errno));
	}
	/* A test stopped by its timeout never reaches its teardown. */
	ASSERT_EQ(0, reset_policy());
}

FIXTURE_TEARDOWN(usercaps)
{
	if (self->setgid_copy[0])
		unlink(self->setgid_copy);
	EXPECT_EQ(0, reset_policy());
}

TEST_F(usercaps, every_capability_has_a_file)
{
	char path[128], text[256], prefix[64];
	struct dirent *entry;
	struct stat st;
	size_t i, entries = 0;
	DIR *dir;

	for (i = 0; i < ARRAY_SIZE(cap_names); i++) {
		cap_path(path, sizeof(path), cap_names[i]);
		ASSERT_EQ(0, stat(path, &st)) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
		EXPECT_TRUE(S_ISREG(st.st_mode));
		EXPECT_EQ(0100, st.st_mode & 07777);
		ASSERT_LT(0, read_cap_file(cap_names[i], text, sizeof(text)));
		snprintf(prefix, sizeof(prefix), "%s owner=", cap_names[i]);
		EXPECT_EQ(0, strncmp(prefix, text, strlen(prefix))) {
			TH_LOG("%s reads '%s'", path, text);
		}
	}
	dir = opendir(USERCAPS_DIR);
	ASSERT_NE(NULL, dir);
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			entries++;
	closedir(dir);
	/* The capabilities, mode and grants. */
	EXPECT_EQ(ARRAY_SIZE(cap_names) + 2, entries);
}

TEST_F(usercaps, mode_and_grants_are_read_only)
{
	struct stat st;

	ASSERT_EQ(0, stat(USERCAPS_DIR "/mode", &st));
	EXPECT_EQ(0444, st.st_mode & 07777);
	ASSERT_EQ(0, stat(USERCAPS_DIR "/grants", &st));
	EXPECT_EQ(0444, st.st_mode & 07777);
}

TEST_F(usercaps, mode_names_the_expected_variant)
{
	static const char *const modes[] = { "naive", "cached", "percred" };
	const char *want = getenv("USERCAPS_MODE");
	char expected[64] = "", text[64];
	bool known = false;
	size_t i;

	ASSERT_NE(NULL, want) {
		TH_LOG("set USERCAPS_MODE to the variant booted: naive, cached or percred");
	}
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		bool active = !strcmp(want, modes[i]);

		snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected),
			 active ? "%s[%s]" : "%s%s", i ? " " : "", modes[i]);
		known |= active;
	}
	strcat(expected, "\n");
	ASSERT_TRUE(known) {
		TH_LOG("USERCAPS_MODE is '%s', not naive, cached or percred", want);
	}
	ASSERT_LT(0, read_text(USERCAPS_DIR "/mode", text, sizeof(text)));
	EXPECT_STREQ(expected, text);
}

TEST_F(usercaps, nothing_granted_by_default)
{
	ASSERT_OUTCOME(EPERM, run_probe(&member, -1, probe_kill_init, NULL),
		       "kill(1, 0) by a user");
}

TEST_F(usercaps, grant_by_supplementary_group)
{
	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	ASSERT_OUTCOME(0, run_probe(&member, -1, probe_kill_init, NULL),
		       "kill(1, 0) by a user with the group as a supplementary group");
}

TEST_F(usercaps, grant_by_fsgid_of_setgid_binary)
{
	struct exec_probe probe = { .path = self->setgid_copy };
	char buf[65536];
	ssize_t n;
	int in, out;

	/* As in the seed: net_raw to group "raw", ping set-group-ID raw. */
	ASSERT_EQ(0, set_policy("net_raw", 0, RAW_GROUP, 0110));
	strcpy(self->setgid_copy, "/tmp/usercaps_test.setgid.XXXXXX");
	out = mkstemp(self->setgid_copy);
	ASSERT_LE(0, out);
	in = open("/proc/self/exe", O_RDONLY);
	ASSERT_LE(0, in);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ASSERT_EQ(n, write(out, buf, n));
	ASSERT_EQ(0, n);
	close(in);
	ASSERT_EQ(0, fchown(out, 0, RAW_GROUP));
	ASSERT_EQ(0, fchmod(out, 0755));
	ASSERT_EQ(0, close(out));

	probe.egid = USER_GROUP;
	ASSERT_OUTCOME(EPERM, run_probe(&plain_user, -1, probe_exec_raw_socket, &probe),
		       "raw socket from the copy before chmod g+s");

	ASSERT_EQ(0, chmod(self->setgid_copy, 02755));
	probe.egid = RAW_GROUP;
	ASSERT_OUTCOME(0, run_probe(&plain_user, -1, probe_exec_raw_socket, &probe),
		       "raw socket from the set-group-ID copy, user not in the group");
}

TEST_F(usercaps, grant_by_owner_uid)
{
	ASSERT_EQ(0, set_policy("sys_nice", USER, 0, 0100));
	ASSERT_OUTCOME(0, run_probe(&plain_user, -1, probe_lower_nice, NULL),
		       "setpriority(-1) by the owner");
}

TEST_F(usercaps, grant_by_other_bit)
{
	ASSERT_EQ(0, set_policy("kill", 0, 0, 0101));
	ASSERT_OUTCOME(0, run_probe(&plain_user, -1, probe_kill_init, NULL),
		       "kill(1, 0) by a user, kill at mode 0101");
}

TEST_F(usercaps, grant_follows_fsuid)
{
	ASSERT_EQ(0, set_policy("kill", OTHER_USER, 0, 0100));
	ASSERT_OUTCOME(EPERM, run_probe(NULL, -1, probe_kill_follows_fsuid, NULL),
		       "kill(1, 0) after setfsuid back from the owner");
}

/*
 * The revocation moves the grant to a group the member is not in: kill is
 * still granted to someone, so its may-grant bit stays set, and only the
 * policy generation (percred) or the new table (cached) tells the
 * member's process, whose decision is cached, that it lost the grant.
 */
TEST_F(usercaps, revocation_takes_effect_on_next_call)
{
	int to_parent[2], to_child[2], status;
	char first;
	pid_t pid;

	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	ASSERT_EQ(0, pipe(to_parent));
	ASSERT_EQ(0, pipe(to_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char go;

		close(to_parent[0]);
		close(to_child[1]);
		if (become(&member))
			_exit(CHILD_SETUP_FAILED);
		first = probe_kill_init(NULL);
		if (write(to_parent[1], &first, 1) != 1 ||
		    read(to_child[0], &go, 1) != 1)
			_exit(child_fail("pipe to the parent"));
		_exit(probe_kill_init(NULL));
	}
	close(to_parent[1]);
	close(to_child[0]);
	ASSERT_EQ(1, read(to_parent[0], &first, 1));
	EXPECT_OUTCOME(0, first, "kill(1, 0) while the group is granted");
	ASSERT_EQ(0, set_policy("kill", 0, RAW_GROUP, 0110));
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_OUTCOME(EPERM, WEXITSTATUS(status),
		       "kill(1, 0) by the same process after chgrp to another group");
}

/* What the policy writer and the checkers of its flips share. */
struct flip_board {
	int seq;		/* the flip to check; -1: stop */
	int expect;		/* the outcome flip @seq must give */
	int checked;		/* checks made of flip @seq */
	int wrong;		/* checks that gave the other outcome */
	int arrived;		/* racing checkers that saw a flip, in all */
};

#define FLIPS 400
#define RACE_THREADS 2
#define RACE_FLIPS 600
#define RACE_ROUNDS 10

static struct flip_board *map_flip_board(void)
{
	struct flip_board *board = mmap(NULL, sizeof(*board), PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return board == MAP_FAILED ? NULL : board;
}

/*
 * A checker: once per flip, as soon as it is announced, one check. With
 * @warm it keeps checking between flips, so that its credential's cached
 * decision is current when the next flip lands. Without, it is one of
 * RACE_THREADS checkers pinned to different CPUs: it makes no call
 * between flips, and waits for the others to see the flip too, so that
 * they all make their first check of it at the same moment (the writer
 * may have kept one of them off its CPU until then).
 */
static void check_flips(struct flip_board *board, bool warm)
{
	int seen = 0, seq;

	for (;;) {
		seq = __atomic_load_n(&board->seq, __ATOMIC_ACQUIRE);
		if (seq < 0)
			return;
		if (seq == seen) {
			if (warm)
				probe_kill_init(NULL);
			else
				sched_yield();
			continue;
		}
		if (!warm) {
			__atomic_add_fetch(&board->arrived, 1, __ATOMIC_ACQ_REL);
			while (__atomic_load_n(&board->arrived, __ATOMIC_ACQUIRE) <
			       seq * RACE_THREADS)
				__builtin_ia32_pause();
		}
		if (probe_kill_init(NULL) != board->expect)
			__atomic_add_fetch(&board->wrong, 1, __ATOMIC_RELAXED);
		seen = seq;
		__atomic_add_fetch(&board->checked, 1, __ATOMIC_RELEASE);
	}
}

/*
 * flip_policy - Flip the member's grant of kill @flips times
 * @board: Shared with the checkers
 * @pid: The process whose @checkers checkers check each flip
 *
 * Odd flips grant kill to the member's group. Even flips refuse it in
 * turn by the mode (percred stops at its may-grant byte) and by granting
 * it to a group the member is not in (percred must decide again: its
 * cached decisions would say yes). After each change, announces the flip
 * and waits for @checkers checks of it; then stops the checkers and waits
 * for @pid. board->wrong says how many checks did not see the flip made
 * before them.
 */
static void flip_policy(struct __test_metadata *_metadata, struct flip_board *board,
			pid_t pid, int checkers, int flips)
{
	int flip, status;

	for (flip = 1; flip <= flips; flip++) {
		const bool other_group = !(flip & 3);
		const mode_t mode = flip & 1 || other_group ? 0110 : 0100;

		ASSERT_EQ(0, set_policy("kill", 0, other_group ? UNRELATED_GROUP : GRANT_GROUP, mode));
		board->expect = flip & 1 ? 0 : EPERM;
		__atomic_store_n(&board->checked, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&board->seq, flip, __ATOMIC_RELEASE);
		while (__atomic_load_n(&board->checked, __ATOMIC_ACQUIRE) != checkers) {
			if (waitpid(pid, &status, WNOHANG) == pid)
				break;
			sched_yield();
		}
		ASSERT_EQ(checkers, board->checked) {
			TH_LOG("the checking process exited: %s", outcome(WEXITSTATUS(status)));
		}
	}
	__atomic_store_n(&board->seq, -1, __ATOMIC_RELEASE);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_OUTCOME(0, WIFEXITED(status) ? WEXITSTATUS(status) : 256, "the checking process");
}

static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The reader of the flips, pinned to @cpu, a member of the group. */
static int flip_reader(struct flip_board *board, int cpu)
{
	if (pin_to_cpu(cpu))
		return child_fail("sched_setaffinity");
	if (become(&member))
		return CHILD_SETUP_FAILED;
	check_flips(board, true);
	return 0;
}

static int flip_reader_cpu1(struct flip_board *board)
{
	return flip_reader(board, 1);
}

/*
 * start_checkers - Revoke kill by mode and fork the checkers of its flips
 * @checkers: Run in the child, which exits with its status
 * @pid: Where to store the child's pid
 *
 * Return: the board shared with the child.
 */
static struct flip_board *start_checkers(struct __test_metadata *_metadata,
					 int (*checkers)(struct flip_board *), pid_t *pid)
{
	struct flip_board *board = map_flip_board();

	ASSERT_NE(NULL, board);
	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0100));
	fflush(NULL);
	*pid = fork();
	ASSERT_LE(0, *pid);
	if (*pid == 0)
		_exit(checkers(board));
	return board;
}

/*
 * A policy change is seen by the next check on another CPU: the writer
 * flips the grant of CAP_KILL on one CPU and then tells the reader, pinned
 * to another, which checks once. No check may see the policy from before.
 */
TEST_F(usercaps, flip_seen_by_next_check_on_other_cpu)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct flip_board *board;
	pid_t pid;

	if (ncpus < 2)
		SKIP(return, "needs 2 CPUs, the guest has %d", ncpus);
	board = start_checkers(_metadata, flip_reader_cpu1, &pid);
	ASSERT_EQ(0, pin_to_cpu(0));
	flip_policy(_metadata, board, pid, 1, FLIPS);
	EXPECT_EQ(0, board->wrong) {
		TH_LOG("%d of %d checks on CPU 1 did not see the flip made on CPU 0 before them",
		       board->wrong, FLIPS);
	}
	munmap(board, sizeof(*board));
}

static struct flip_board *race_board;

/* Thread @cpu, pinned to that CPU, so that the threads check at once. */
static void *race_thread(void *cpu)
{
	if (pin_to_cpu((long)cpu))
		child_fail("sched_setaffinity");
	check_flips(race_board, false);
	return NULL;
}

#define FILL_EVENT "/sys/kernel/tracing/events/usercaps/usercaps_percred_fill"

/* Writes @text to the file at @path; 0 or -errno. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : 0;
}

/* Records percred's fills, with the usercaps_percred_fill tracepoint. */
static int start_fill_trace(void)
{
	return write_text("/sys/kernel/tracing/trace", "") ?:
	       write_text(FILL_EVENT "/enable", "1");
}

/*
 * Stops the trace and counts the fills it recorded in @fills, and in
 * @lost those that did not store their decisions: another fill claimed
 * the cache or stored a newer generation first. Returns 0 or -errno.
 */
static int stop_fill_trace(int *fills, int *lost)
{
	char line[512];
	FILE *trace;

	if (write_text(FILL_EVENT "/enable", "0"))
		return -errno;
	trace = fopen("/sys/kernel/tracing/trace", "re");
	if (!trace)
		return -errno;
	*fills = *lost = 0;
	while (fgets(line, sizeof(line), trace)) {
		if (!strstr(line, "usercaps_percred_fill:"))
			continue;
		*fills += 1;
		*lost += !!strstr(line, " stored=0");
	}
	fclose(trace);
	return 0;
}

/* The process whose threads share one credential, a member of the group. */
static int race_threads(struct flip_board *board)
{
	pthread_t threads[RACE_THREADS];
	long i;

	if (become(&member))
		return CHILD_SETUP_FAILED;
	race_board = board;
	for (i = 0; i < RACE_THREADS; i++)
		if (pthread_create(&threads[i], NULL, race_thread, (void *)i))
			return child_fail("pthread_create");
	for (i = 0; i < RACE_THREADS; i++)
		pthread_join(threads[i], NULL);
	return 0;
}

/*
 * Threads share their process's credential. After each policy change,
 * both threads, one per CPU, check at once, so that in percred mode they race to fill
 * the credential's stale cache: each must get the new policy's answer.
 * Whether two vCPUs meet in the fill is up to the host's scheduling: in
 * percred mode the flips go on, RACE_FLIPS a round, until a fill has lost
 * the race (its cache store refused), at most RACE_ROUNDS rounds: under
 * single-threaded TCG on a loaded host, more than the harness's default 30
 * s (seen: killed in round 5 with three guests on two CPUs).
 */
TEST_F_TIMEOUT(usercaps, threads_race_the_first_fill_after_each_change, 180)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool percred = !strcmp(getenv("USERCAPS_MODE") ?: "", "percred");
	struct flip_board *board;
	int round, fills, lost, lost_all = 0;
	pid_t pid;

	if (ncpus < RACE_THREADS)
		SKIP(return, "needs %d CPUs, the guest has %d", RACE_THREADS, ncpus);
	for (round = 1; round <= RACE_ROUNDS && !lost_all; round++) {
		if (percred)
			ASSERT_EQ(0, start_fill_trace());
		board = start_checkers(_metadata, race_threads, &pid);
		flip_policy(_metadata, board, pid, RACE_THREADS, RACE_FLIPS);
		EXPECT_EQ(0, board->wrong) {
			TH_LOG("%d of %d checks racing the first fill after a change gave the old answer",
			       board->wrong, RACE_THREADS * RACE_FLIPS);
		}
		munmap(board, sizeof(*board));
		if (!percred)
			return;
		ASSERT_EQ(0, stop_fill_trace(&fills, &lost));
		TH_LOG("round %d: %d fills for %d flips, %d of them lost the race for the cache",
		       round, fills, RACE_FLIPS, lost);
		/* Flips to a mode that refuses stop at the may-grant word: no fill. */
		EXPECT_LE(RACE_FLIPS / 2 + RACE_FLIPS / 4, fills) {
			TH_LOG("fewer fills than flips that reach the cache: the tracepoint missed some");
		}
		lost_all += lost;
	}
	/* One TCG thread runs the vCPUs in turn (vm/run): the race may not run. */
	if (!lost_all && getenv("USERCAPS_VCPUS_TAKE_TURNS"))
		SKIP(return, "no fill lost the race in %d rounds: the vCPUs take turns (single-threaded TCG)",
		     RACE_ROUNDS);
	EXPECT_LT(0, lost_all) {
		TH_LOG("no fill lost the race for the cache in %d rounds: the race was never run",
		       RACE_ROUNDS);
	}
}

TEST_F(usercaps, user_outside_group_refused)
{
	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	EXPECT_OUTCOME(EPERM, run_probe(&outsider, -1, probe_kill_init, NULL),
		       "kill(1, 0) by a user in another group");
	EXPECT_OUTCOME(EPERM, run_probe(&gid_numbered_user, -1, probe_kill_init, NULL),
		       "kill(1, 0) by a uid equal to the granted gid");
}

TEST_F(usercaps, root_unchanged)
{
	ASSERT_EQ(0, set_policy("net_raw", USER, GRANT_GROUP, 0000));
	ASSERT_OUTCOME(0, run_probe(NULL, -1, probe_raw_socket, NULL),
		       "raw socket by root, net_raw at mode 0000");
}

TEST_F(usercaps, nothing_granted_in_user_namespace)
{
	ASSERT_EQ(0, set_policy("sys_admin", 0, GRANT_GROUP, 0110));
	ASSERT_OUTCOME(EPERM, run_probe(&member, -1, probe_sethostname_in_user_ns, NULL),
		       "sethostname() by a member of the granted group, as a user namespace's "
		       "root without CAP_SYS_ADMIN in its effective set");
}

/*
 * A grant reaches an object in a child user namespace: cap_capable() walks
 * up from the target's namespace to the caller's, the initial one, where
 * usercaps is asked. The target is another user's process in a namespace
 * of its own.
 */
TEST_F(usercaps, grant_reaches_child_namespace)
{
	int ready[2], status;
	char byte;
	pid_t target;

	ASSERT_EQ(0, pipe(ready));
	fflush(NULL);
	target = fork();
	ASSERT_LE(0, target);
	if (target == 0) {
		const struct identity other = { .uid = OTHER_USER, .gid = OTHER_USER };

		close(ready[0]);
		if (become(&other) || unshare(CLONE_NEWUSER))
			_exit(CHILD_SETUP_FAILED);
		if (write(ready[1], "r", 1) != 1)
			_exit(CHILD_SETUP_FAILED);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	close(ready[0]);
	EXPECT_OUTCOME(EPERM, run_probe(&member, -1, probe_kill_pid, &target),
		       "kill(0) of another user's process in its user namespace, no grant");
	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	EXPECT_OUTCOME(0, run_probe(&member, -1, probe_kill_pid, &target),
		       "kill(0) of another user's process in its user namespace, kill granted");
	kill(target, SIGKILL);
	ASSERT_EQ(target, waitpid(target, &status, 0));
}

TEST_F(usercaps, root_without_effective_cap_not_restored)
{
	ASSERT_OUTCOME(EPERM, run_probe(NULL, -1, probe_raw_socket_without_effective, NULL),
		       "raw socket by root without CAP_NET_RAW in its effective set");
}

TEST_F(usercaps, root_without_bounding_cap_not_restored)
{
	ASSERT_OUTCOME(EPERM, run_probe(NULL, -1, probe_raw_socket_without_bounding, NULL),
		       "raw socket by root after PR_CAPBSET_DROP");
}

TEST_F(usercaps, group_grant_bounded_by_bounding_set)
{
	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	ASSERT_OUTCOME(EPERM, run_probe(&member, CAP_KILL, probe_kill_init, NULL),
		       "kill(1, 0) by a group member without CAP_KILL in its bounding set");
}

TEST_F(usercaps, read_back_format)
{
	static const struct {
		uid_t owner;
		gid_t group;
		mode_t mode;
		const char *text;
	} cases[] = {
		{ 0, 0, 0100, "kill owner=0 group=0 mode=0100 granted=none\n" },
		{ 0, 0, 0111, "kill owner=0 group=0 mode=0111 granted=group,other\n" },
		{ 0, GRANT_GROUP, 0010, "kill owner=0 group=2000 mode=0010 granted=group\n" },
		{ USER, 0, 0101, "kill owner=1000 group=0 mode=0101 granted=owner,other\n" },
		{ USER, GRANT_GROUP, 0710, "kill owner=1000 group=2000 mode=0710 granted=owner,group\n" },
		{ USER, GRANT_GROUP, 0666, "kill owner=1000 group=2000 mode=0666 granted=none\n" },
		{ USER, GRANT_GROUP, 0777, "kill owner=1000 group=2000 mode=0777 granted=owner,group,other\n" },
	};
	char text[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, set_policy("kill", cases[i].owner, cases[i].group, cases[i].mode));
		ASSERT_LT(0, read_cap_file("kill", text, sizeof(text)));
		EXPECT_STREQ(cases[i].text, text);
	}
}

TEST_F(usercaps, grants_lists_non_default_files)
{
	char text[4096];

	ASSERT_LE(0, read_text(USERCAPS_DIR "/grants", text, sizeof(text)));
	EXPECT_STREQ("", text);

	ASSERT_EQ(0, set_policy("kill", 0, GRANT_GROUP, 0110));
	ASSERT_EQ(0, set_policy("net_raw", USER, 0, 0100));
	/* Not in the default state, though it grants nothing. */
	ASSERT_EQ(0, set_policy("sys_nice", 0, GRANT_GROUP, 0100));
	ASSERT_LE(0, read_text(USERCAPS_DIR "/grants", text, sizeof(text)));
	EXPECT_STREQ("kill owner=0 group=2000 mode=0110 granted=group\n"
		     "net_raw owner=1000 group=0 mode=0100 granted=owner\n"
		     "sys_nice owner=0 group=2000 mode=0100 granted=none\n", text);
}

TEST_F(usercaps, open_for_writing_refused)
{
	int fd = open(USERCAPS_DIR "/kill", O_WRONLY);

	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EPERM, errno);
	fd = open(USERCAPS_DIR "/kill", O_RDWR);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EPERM, errno);
}

TEST_F(usercaps, truncate_refused)
{
	ASSERT_EQ(-1, truncate(USERCAPS_DIR "/kill", 0));
	ASSERT_EQ(EPERM, errno);
}

/*
 * A user with CAP_FOWNER and CAP_CHOWN may chmod and chown any file: the
 * ordinary permission checks would let it change a capability file, so
 * the refusal is the policy gate's, which asks for CAP_MAC_ADMIN. The
 * children use descriptors opened by root so that the result does not
 * depend on whether they may search the directory.
 */
TEST_F(usercaps, chmod_chown_by_non_root_refused)
{
	int fds[3], i;

	fds[0] = open(USERCAPS_DIR "/kill", O_RDONLY);
	ASSERT_LE(0, fds[0]);
	for (i = 0; i < 2; i++) {
		fds[1] = open("/tmp", O_TMPFILE | O_RDWR, 0600);
		ASSERT_LE(0, fds[1]);
		fds[2] = i;
		EXPECT_OUTCOME(EPERM, run_probe(NULL, -1, probe_policy_change_with_fowner, fds),
			       i ? "fchown of a capability file by a user with CAP_FOWNER and CAP_CHOWN"
				 : "fchmod of a capability file by a user with CAP_FOWNER");
		close(fds[1]);
	}
	close(fds[0]);
}

/*
 * access(2) checks under an override credential with the real ids: a
 * granted user gets the same answer there as from open().
 */
TEST_F(usercaps, access_answers_as_open)
{
	char path[] = "/tmp/usercaps-secret-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, set_policy("dac_read_search", 0, GRANT_GROUP, 0110));
	EXPECT_OUTCOME(0, run_probe(&member, -1, probe_open_for_reading, path),
		       "open(O_RDONLY) of root's 0600 file by a member of the granted group");
	EXPECT_OUTCOME(0, run_probe(&member, -1, probe_access_for_reading, path),
		       "access(R_OK) of root's 0600 file by a member of the granted group");
	EXPECT_OUTCOME(EACCES, run_probe(&outsider, -1, probe_open_for_reading, path),
		       "open(O_RDONLY) of root's 0600 file by a user outside the group");
	EXPECT_OUTCOME(EACCES, run_probe(&outsider, -1, probe_access_for_reading, path),
		       "access(R_OK) of root's 0600 file by a user outside the group");
	unlink(path);
}

TEST_F(usercaps, chmod_chown_by_non_root_owner_refused)
{
	char text[256];
	int fd;

	ASSERT_EQ(0, set_policy("kill", USER, 0, 0100));
	fd = open(USERCAPS_DIR "/kill", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_OUTCOME(EPERM, run_probe(&plain_user, -1, probe_fchmod, &fd),
		       "fchmod by the non-root owner");
	EXPECT_OUTCOME(EPERM, run_probe(&plain_user, -1, probe_fchgrp_to_own_group, &fd),
		       "fchown to its own group by the non-root owner");
	close(fd);
	ASSERT_LT(0, read_cap_file("kill", text, sizeof(text)));
	EXPECT_STREQ("kill owner=1000 group=0 mode=0100 granted=owner\n", text);
}

/*
 * The harness's main() under another name: ours also serves as the probe
 * that a set-group-ID copy of this binary runs.
 */
#define main usercaps_harness_main
TEST_HARNESS_MAIN
#undef main

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], PROBE_RAW_SOCKET_ARG))
		return raw_socket_as_setgid(argv[2]);
	return usercaps_harness_main(argc, argv);
}
