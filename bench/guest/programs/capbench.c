// SPDX-License-Identifier: GPL-2.0-only
/*
 * capbench - what one capable() check costs on a syscall's path, in the
 * style of perf bench syscall.
 *
 * Each workload is a syscall that reaches capable() for one capability at
 * every call (ioprio and mlock reach it more than once, see the table).
 * The loop is timed with CLOCK_MONOTONIC as a whole (ns/op), then
 * optionally call by call (--latency: percentiles and a CDF). Every
 * call's result is checked against --expect: a benchmark of the wrong
 * path (a denial where a grant was meant, a grant that came from the
 * effective set where the LSM was meant to grant it) is worse than none,
 * so capbench stops at the first surprise.
 *
 * The churn workloads measure the other side of the bill: what a kernel
 * with usercaps costs where credentials are made and dropped (fork, exec,
 * set*id, capset, setgroups), which is where percred mode allocates its
 * cache and fills it again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "../../plugin/gate.h"

/* From include/uapi/linux/ioprio.h, which glibc does not wrap. */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_RT 1
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_RT_LEVEL4 ((IOPRIO_CLASS_RT << IOPRIO_CLASS_SHIFT) | 4)

enum expect { EXPECT_ALLOW, EXPECT_DENY };

/* What a workload measures: a capable() check, or credential churn. */
enum kind { KIND_CAPABLE, KIND_CHURN };

static const char *const kind_names[] = { "capable", "churn" };

/* A heavy workload (a fork, a sort of 4096 groups) makes this many
 * times fewer calls than -n says, so that every workload takes a while. */
#define HEAVY_DIVISOR 50

/* setgroups-4096's list: the granted group first, then fillers. */
#define GRANT_GID 2000
#define FILLER_GID 100000
#define MANY_GROUPS 4096

/**
 * struct workload - one syscall that reaches capable()
 * @name: its name on the command line and in the output
 * @kind: a capable() check or credential churn
 * @call: what one iteration does, for the header
 * @cap: the capability that grants it (-1: none)
 * @cap_name: its usercaps file name ("-": none)
 * @deny_errno: the errno of a denial
 * @heavy: one call costs a fork or more: HEAVY_DIVISOR times fewer calls
 * @setup: prepare the process (limits, memory); 0 or -1 with a message
 * @run: one iteration: 0 on success, else the errno; may return -1 when
 *       a step that cannot fail did (a bug in the setup, not a denial)
 */
struct workload {
	const char *name;
	enum kind kind;
	const char *call;
	int cap;
	const char *cap_name;
	int deny_errno;
	bool heavy;
	int (*setup)(void);
	int (*run)(void);
	/* The capability files of a call's checks, in order, when they are
	 * not all cap_name's (its first check is slot 1 of the capcheck
	 * plugin, and so on; the last one repeats). */
	const char *checks;
};

static const char *prog = "capbench";

#include "bench-util.h"

static pid_t kill_target = 1;
static void *lock_page;
static long page_size;
static int base_nice;
static const char *exec_path;
static uid_t flip_ids[2];
static gid_t groups_list[MANY_GROUPS];

static int set_limit(int resource, const char *name)
{
	struct rlimit zero = { 0, 0 };

	if (setrlimit(resource, &zero)) {
		fprintf(stderr, "%s: setrlimit(%s, 0): %s\n", prog, name, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_getppid(void)
{
	return syscall(SYS_getppid) > 0 ? 0 : errno;
}

/* kill(pid, 0) checks permission only: with no uid in common with the
 * target it needs CAP_KILL. With one in common it never asks, so refuse. */
static int setup_kill(void)
{
	char path[64], line[256];
	uid_t ruid = getuid(), euid = geteuid();
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)kill_target);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: kill target %d: %s\n", prog, (int)kill_target, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int uid, euid_t, suid;

		if (sscanf(line, "Uid: %u %u %u", &uid, &euid_t, &suid) == 3) {
			fclose(f);
			if (uid == ruid || uid == euid || suid == ruid || suid == euid) {
				fprintf(stderr, "%s: kill target %d (uid %u, suid %u) shares a uid with "
					"this process (uid %u, euid %u): kill() would not check CAP_KILL; "
					"use --target with a process of another user\n",
					prog, (int)kill_target, uid, suid, ruid, euid);
				return -1;
			}
			return 0;
		}
	}
	fclose(f);
	fprintf(stderr, "%s: no Uid line in %s\n", prog, path);
	return -1;
}

static int run_kill(void)
{
	return kill(kill_target, 0) ? errno : 0;
}

static int run_ioprio(void)
{
	return syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_RT_LEVEL4) ? errno : 0;
}

/* With RLIMIT_MEMLOCK at 0 only CAP_IPC_LOCK lets mlock() through. */
static int setup_mlock(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	lock_page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (lock_page == MAP_FAILED) {
		fprintf(stderr, "%s: mmap: %s\n", prog, strerror(errno));
		return -1;
	}
	return set_limit(RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK");
}

static int run_mlock(void)
{
	if (mlock(lock_page, page_size))
		return errno;
	return munlock(lock_page, page_size) ? -1 : 0;
}

/* With RLIMIT_NICE at 0 only CAP_SYS_NICE lets the nice value go down;
 * going back up needs nothing. */
static int setup_setpriority(void)
{
	errno = 0;
	base_nice = getpriority(PRIO_PROCESS, 0);
	if (errno) {
		fprintf(stderr, "%s: getpriority: %s\n", prog, strerror(errno));
		return -1;
	}
	if (base_nice <= -20) {
		fprintf(stderr, "%s: nice is already %d: nothing to lower\n", prog, base_nice);
		return -1;
	}
	return set_limit(RLIMIT_NICE, "RLIMIT_NICE");
}

static int run_setpriority(void)
{
	int rc = setpriority(PRIO_PROCESS, 0, base_nice - 1) ? errno : 0;

	if (setpriority(PRIO_PROCESS, 0, base_nice))
		return -1;
	return rc;
}

/* Wait for child PID; its exit status, or -1 if it did not exit. */
static int reap(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* fork() gives the child a credential of its own (copy_creds()). */
static int run_fork(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	return reap(pid) ? -1 : 0;
}

/* A new credential that checks a capability once, as a forked helper of
 * a granted user does: in percred mode the check fills a fresh cache. */
static int run_fork_kill(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(run_kill());
	return reap(pid);
}

static int setup_fork_exec(void)
{
	if (access(exec_path, X_OK)) {
		fprintf(stderr, "%s: fork-exec runs %s: %s (see --exec)\n", prog, exec_path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* exec also makes a credential (prepare_exec_creds()) and runs the
 * bprm_creds hooks. */
static int run_fork_exec(void)
{
	char *const argv[] = { (char *)exec_path, NULL };
	char *const envp[] = { NULL };
	pid_t pid = fork();

	if (!pid) {
		execve(exec_path, argv, envp);
		_exit(127);
	}
	return reap(pid) ? -1 : 0;
}

/*
 * Flip an effective id between the real and the saved one: no capability
 * is needed, and each call commits a new credential. The ids must differ
 * (setpriv --ruid=1000 --euid=1002 makes them so).
 */
static int setup_flip(bool gid)
{
	const char *what = gid ? "gid" : "uid";
	unsigned int real, effective, saved;

	if (gid ? getresgid(&real, &effective, &saved) : getresuid(&real, &effective, &saved)) {
		fprintf(stderr, "%s: getres%s: %s\n", prog, what, strerror(errno));
		return -1;
	}
	if (real == saved) {
		fprintf(stderr, "%s: setres%s flips the effective %s between the real and the "
			"saved one, but both are %u: start it with two (setpriv --r%s=A --e%s=B)\n",
			prog, what, what, real, what, what);
		return -1;
	}
	flip_ids[0] = real;
	flip_ids[1] = saved;
	return 0;
}

static int setup_setresuid(void)
{
	return setup_flip(false);
}

static int setup_setresgid(void)
{
	return setup_flip(true);
}

static unsigned int flip_count;

static int run_setresuid(void)
{
	return setresuid(-1, flip_ids[++flip_count & 1], -1) ? errno : 0;
}

static int run_setresgid(void)
{
	return setresgid(-1, flip_ids[++flip_count & 1], -1) ? errno : 0;
}

/* capset() of the sets the process already has still commits a new
 * credential, and cap_capset() asks cap_capable() for CAP_SETPCAP. */
static int run_capset(void)
{
	struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data))
		return -1;
	return syscall(SYS_capset, &header, data) ? errno : 0;
}

/* The list keeps the granted group, so a grant holds from call to call. */
static int setup_setgroups(void)
{
	groups_list[0] = GRANT_GID;
	for (int i = 1; i < MANY_GROUPS; i++)
		groups_list[i] = FILLER_GID + i;
	return 0;
}

static int run_setgroups_1(void)
{
	return setgroups(1, groups_list) ? errno : 0;
}

static int run_setgroups_many(void)
{
	return setgroups(MANY_GROUPS, groups_list) ? errno : 0;
}

static const struct workload workloads[] = {
	{ "kill", KIND_CAPABLE, "kill(target, 0): CAP_KILL", CAP_KILL, "kill", EPERM, false,
	  setup_kill, run_kill, NULL },
	{ "ioprio", KIND_CAPABLE, "ioprio_set(self, RT/4): CAP_SYS_ADMIN, then CAP_SYS_NICE",
	  CAP_SYS_NICE, "sys_nice", EPERM, false, NULL, run_ioprio, "sys_admin,sys_nice" },
	{ "mlock", KIND_CAPABLE, "mlock + munlock of one page, RLIMIT_MEMLOCK 0: CAP_IPC_LOCK",
	  CAP_IPC_LOCK, "ipc_lock", EPERM, false, setup_mlock, run_mlock, NULL },
	{ "setpriority", KIND_CAPABLE,
	  "setpriority(nice - 1) + setpriority(nice), RLIMIT_NICE 0: CAP_SYS_NICE",
	  CAP_SYS_NICE, "sys_nice", EACCES, false, setup_setpriority, run_setpriority, NULL },
	{ "getppid", KIND_CAPABLE, "getppid(): no capability, the syscall floor", -1, "-", 0, false,
	  NULL, run_getppid, NULL },
	{ "fork", KIND_CHURN, "fork + _exit + waitpid: a credential made and freed", -1, "-", 0, true,
	  NULL, run_fork, NULL },
	{ "fork-kill", KIND_CHURN, "fork, the child checks kill(target, 0) once: CAP_KILL",
	  CAP_KILL, "kill", EPERM, true, setup_kill, run_fork_kill, NULL },
	{ "fork-exec", KIND_CHURN, "fork + execve of a static binary that exits + waitpid",
	  -1, "-", 0, true, setup_fork_exec, run_fork_exec, NULL },
	{ "setresuid", KIND_CHURN, "setresuid(-1, real or saved uid, -1): a new credential",
	  -1, "-", 0, false, setup_setresuid, run_setresuid, NULL },
	{ "setresgid", KIND_CHURN, "setresgid(-1, real or saved gid, -1): a new credential",
	  -1, "-", 0, false, setup_setresgid, run_setresgid, NULL },
	{ "capset", KIND_CHURN, "capset() of the current sets: a new credential", -1, "-", 0, false,
	  NULL, run_capset, NULL },
	{ "setgroups-1", KIND_CHURN, "setgroups() of 1 group (the granted one): CAP_SETGID",
	  CAP_SETGID, "setgid", EPERM, false, setup_setgroups, run_setgroups_1, NULL },
	{ "setgroups-4096", KIND_CHURN, "setgroups() of 4096 groups (the granted one first): CAP_SETGID",
	  CAP_SETGID, "setgid", EPERM, true, setup_setgroups, run_setgroups_many, NULL },
};

static const struct workload *find_workload(const char *name)
{
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

/* The hex capability set named FIELD ("CapEff") of /proc/self/status. */
static uint64_t proc_caps(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	uint64_t caps = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		die("/proc/self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			caps = strtoull(line + len + 1, NULL, 16);
	fclose(f);
	return caps;
}

/* NAME in the directory this program was run from. */
static const char *beside_self(const char *name)
{
	static char path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (len < 0)
		die("/proc/self/exe: %s", strerror(errno));
	path[len] = '\0';
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) + 1 + strlen(name) >= sizeof(path))
		die("cannot place %s beside %s", name, path);
	strcpy(slash + 1, name);
	return path;
}

/* The result every call must give: 0 or the workload's errno. */
static int wanted(const struct workload *w, enum expect expect)
{
	return (expect == EXPECT_ALLOW || w->cap < 0) ? 0 : w->deny_errno;
}

/* Call I gave RC where the configuration wants WANT. */
static void surprise(const struct workload *w, int want, int rc, unsigned long i)
{
	if (rc < 0)
		die("%s: call %lu: a step that needs no capability failed: %s",
		    w->name, i, strerror(errno));
	die("%s: call %lu returned %s, but this configuration expects %s: "
	    "the benchmark would measure the wrong path",
	    w->name, i, rc ? strerror(rc) : "success", want ? strerror(want) : "success");
}

/*
 * The distribution of the sorted samples as quantile points, one line
 * each: every percent, then the tail to the maximum, so that a CDF plot
 * shows both the body and the rare slow calls.
 */
static void write_cdf(FILE *f, const char *workload, const char *config, unsigned int repeat,
		      const int64_t *sorted, unsigned long n)
{
	static const double tail[] = { 99.5, 99.9, 99.95, 99.99, 100 };

	for (int p = 1; p <= 99; p++)
		fprintf(f, "%s %s %u %.2f %" PRId64 "\n", workload, config, repeat, p / 100.0,
			percentile(sorted, n, p));
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		fprintf(f, "%s %s %u %.4f %" PRId64 "\n", workload, config, repeat, tail[i] / 100,
			percentile(sorted, n, tail[i]));
}

/*
 * calls_for() - how many calls make a repeat last @min_ns, from @warmup
 * calls that took @warm_ns, with a tenth to spare (the warmup runs cold);
 * never fewer than @at_least.
 */
static unsigned long calls_for(int64_t min_ns, unsigned long warmup, int64_t warm_ns,
			       unsigned long at_least)
{
	double calls = 1.1 * (double)min_ns * warmup / (warm_ns > 0 ? warm_ns : 1);

	return calls > at_least ? (unsigned long)calls + 1 : at_least;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: capbench [options] WORKLOAD\n"
		"\n"
		"Time a syscall that reaches capable() (perf bench style).\n"
		"\n"
		"Workloads (capable: one check per call; churn: credentials made per call):\n");
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(f, "  %-15s %-8s %s%s\n", workloads[i].name, kind_names[workloads[i].kind],
			workloads[i].call, workloads[i].heavy ? " (heavy)" : "");
	fprintf(f,
		"\n"
		"Options:\n"
		"  -n, --iterations N  timed calls per repeat (default 100000; a heavy\n"
		"                      workload makes N/50)\n"
		"  -r, --repeat N      repeats (default 3; 0: only --latency)\n"
		"  -w, --warmup N      untimed calls first (default: iterations / 10)\n"
		"  -T, --min-time MS   make each repeat last at least MS ms (0: off; the warmup,\n"
		"                      timed, says how many calls that takes; at least -n)\n"
		"  -e, --expect WHAT   allow: every call must succeed; deny: every call must fail\n"
		"                      with the workload's errno (default allow)\n"
		"      --effective Y   yes/no: the workload's capability must / must not be in\n"
		"                      the effective set (so a grant comes from where it should)\n"
		"  -c, --config NAME   configuration label for the output (default: none)\n"
		"  -t, --target PID    the process kill() signals (default 1); it must share no\n"
		"                      uid with this one\n"
		"  -l, --latency N     then time N calls one by one: p50/p90/p99/p99.9/max\n"
		"      --cdf F         with --latency, append their distribution to file F\n"
		"      --exec PATH     the program fork-exec runs (default: exit0 beside capbench)\n"
		"      --format FMT    default (for people) or simple (one row per repeat)\n"
		"      --gate NAME     open a session of the capcheck QEMU plugin named NAME\n"
		"                      around each repeat's calls (bench/plugin/gate.h)\n"
		"      --settle MS     with --gate, sleep MS ms after the calls, before the\n"
		"                      session closes: the RCU callbacks that free the calls'\n"
		"                      credentials (security_cred_free) run in it (the\n"
		"                      repeat's time counts the sleep)\n"
		"      --interrupts US a timer interrupt every US to 2 US microseconds in the\n"
		"                      timed calls (an interval timer, its signal ignored):\n"
		"                      interrupts that land in checks, for the plugin to\n"
		"                      leave out\n"
		"      --list          print each workload, its capability file, kind and the\n"
		"                      capability files of its checks in order, and exit\n"
		"  -h, --help          this text\n"
		"\n"
		"--format=simple rows (after '#' comment lines):\n"
		"  ns/op:   workload config repeat iterations total_ns ns_per_op\n"
		"  latency: workload config 1 calls p50 p90 p99 p99.9 max (ns)\n"
		"--cdf rows: workload config repeat quantile ns (0.01 ... 1: the maximum)\n");
}

/* The timer of --interrupts: each next one after a pseudo-random 1 to 2
 * times the period, so that the interrupts do not lock to the phase of
 * a loop whose calls take a fixed time (under icount they would). */
static unsigned long interrupt_us;
static unsigned int interrupt_seed = 1;

static void arm_next_interrupt(void)
{
	unsigned long us = interrupt_us + (unsigned long)rand_r(&interrupt_seed) % (interrupt_us + 1);
	struct itimerval next = { .it_value = { .tv_sec = us / 1000000, .tv_usec = us % 1000000 } };

	setitimer(ITIMER_REAL, &next, NULL);
}

static void on_timer(int sig)
{
	int saved = errno;

	(void)sig;
	arm_next_interrupt();
	errno = saved;
}

/* A timer interrupt every US to 2 US microseconds from now on. */
static void arm_interrupts(unsigned long us)
{
	struct sigaction sa = { .sa_handler = on_timer, .sa_flags = SA_RESTART };

	interrupt_us = us;
	if (sigaction(SIGALRM, &sa, NULL))
		die("--interrupts: cannot handle SIGALRM: %s", strerror(errno));
	arm_next_interrupt();
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "min-time", required_argument, NULL, 'T' },
		{ "expect", required_argument, NULL, 'e' },
		{ "effective", required_argument, NULL, 'E' },
		{ "config", required_argument, NULL, 'c' },
		{ "target", required_argument, NULL, 't' },
		{ "latency", required_argument, NULL, 'l' },
		{ "cdf", required_argument, NULL, 'H' },
		{ "exec", required_argument, NULL, 'X' },
		{ "format", required_argument, NULL, 'f' },
		{ "gate", required_argument, NULL, 'G' },
		{ "interrupts", required_argument, NULL, 'I' },
		{ "settle", required_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long iterations = 100000, repeats = 3, warmup = ULONG_MAX;
	enum expect expect = EXPECT_ALLOW;
	const char *config = "-", *effective = NULL, *cdf_path = NULL, *gate = NULL;
	unsigned long interrupts = 0;
	unsigned long calls = 0, min_ms = 0, settle_ms = 0;
	bool simple = false;
	const struct workload *w;
	int64_t *samples = NULL, warm_start;
	FILE *cdf = NULL;
	uint64_t eff;
	int opt, want;

	while ((opt = getopt_long(argc, argv, "n:r:w:T:e:c:t:l:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n': iterations = parse_count("--iterations", optarg, 1); break;
		case 'r': repeats = parse_count("--repeat", optarg, 0); break;
		case 'w': warmup = parse_count("--warmup", optarg, 0); break;
		case 'T': min_ms = parse_count("--min-time", optarg, 0); break;
		case 't': kill_target = parse_count("--target", optarg, 1); break;
		case 'c': config = optarg; break;
		case 'l': calls = parse_count("--latency", optarg, 1); break;
		case 'H': cdf_path = optarg; break;
		case 'I': interrupts = parse_count("--interrupts", optarg, 1); break;
		case 'S': settle_ms = parse_count("--settle", optarg, 0); break;
		case 'X': exec_path = optarg; break;
		case 'G':
			if (!*optarg || strlen(optarg) > CAPCHECK_NAME_MAX || strpbrk(optarg, "\t\n"))
				die("--gate takes a name of 1 to %d characters, no tab or newline",
				    CAPCHECK_NAME_MAX);
			gate = optarg;
			break;
		case 'E':
			if (strcmp(optarg, "yes") && strcmp(optarg, "no"))
				die("--effective takes yes or no, not '%s'", optarg);
			effective = optarg;
			break;
		case 'e':
			if (!strcmp(optarg, "allow"))
				expect = EXPECT_ALLOW;
			else if (!strcmp(optarg, "deny"))
				expect = EXPECT_DENY;
			else
				die("--expect takes allow or deny, not '%s'", optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "simple"))
				simple = true;
			else if (strcmp(optarg, "default"))
				die("--format takes default or simple, not '%s'", optarg);
			break;
		case 'h': usage(stdout); return 0;
		case 'L':
			for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
				printf("%s %s %s %s\n", workloads[i].name, workloads[i].cap_name,
				       kind_names[workloads[i].kind],
				       workloads[i].checks ? workloads[i].checks : workloads[i].cap_name);
			return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	w = find_workload(argv[optind]);
	if (!w)
		die("no workload '%s' (see --help)", argv[optind]);
	if (cdf_path && !calls)
		die("--cdf needs --latency");
	if (!repeats && !calls)
		die("--repeat 0 needs --latency: nothing to measure");
	if (w->heavy)
		iterations = (iterations + HEAVY_DIVISOR - 1) / HEAVY_DIVISOR;
	if (warmup == ULONG_MAX)
		warmup = iterations / 10;
	if (min_ms && !warmup)
		die("--min-time needs a warmup to time (--warmup 0, or -n below 10)");
	if (settle_ms && !gate)
		die("--settle keeps a plugin session open: it needs --gate");
	if (!exec_path)
		exec_path = beside_self("exit0");

	eff = proc_caps("CapEff");
	if (effective && w->cap >= 0 && !!(eff & (1ULL << w->cap)) != !strcmp(effective, "yes"))
		die("%s: capability %d is %sin the effective set (CapEff %016" PRIx64 "), "
		    "but --effective=%s", w->name, w->cap, (eff & (1ULL << w->cap)) ? "" : "not ",
		    eff, effective);
	if (w->setup && w->setup())
		return 1;
	if (calls) {
		samples = malloc(calls * sizeof(*samples));
		if (!samples)
			die("no memory for %lu samples", calls);
	}
	if (cdf_path) {
		cdf = fopen(cdf_path, "a");
		if (!cdf)
			die("%s: %s", cdf_path, strerror(errno));
	}

	printf("# Running '%s/%s' benchmark:\n", kind_names[w->kind], w->name);
	printf("# %s; config %s; expect %s\n", w->call, config,
	       w->cap < 0 ? "success (no capability)" : expect == EXPECT_ALLOW ? "success" :
	       strerror(w->deny_errno));
	printf("# uid %d euid %d gid %d groups %d CapEff %016" PRIx64 " CapAmb %016" PRIx64 "\n",
	       (int)getuid(), (int)geteuid(), (int)getgid(), getgroups(0, NULL), eff,
	       proc_caps("CapAmb"));
	if (simple && repeats)
		printf("# workload config repeat iterations total_ns ns_per_op\n");
	if (simple && calls)
		printf("# workload config repeat calls p50 p90 p99 p99.9 max\n");
	fflush(stdout);

	want = wanted(w, expect);
	warm_start = now_ns();
	for (unsigned long i = 0; i < warmup; i++) {
		int rc = w->run();

		if (rc != want)
			surprise(w, want, rc, i);
	}
	if (min_ms)
		iterations = calls_for(min_ms * 1000000, warmup, now_ns() - warm_start, iterations);

	if (interrupts)
		arm_interrupts(interrupts);
	for (unsigned int rep = 1; rep <= repeats; rep++) {
		int64_t start = now_ns(), total;

		/* The session holds the calls alone: no clock, no output;
		 * with --settle, then the RCU callbacks of their credentials. */
		if (gate)
			capcheck_gate_open(gate);
		for (unsigned long i = 0; i < iterations; i++) {
			int rc = w->run();

			if (rc != want)
				surprise(w, want, rc, i);
		}
		if (gate && settle_ms) {
			struct timespec settle = { settle_ms / 1000, settle_ms % 1000 * 1000000 };

			while (nanosleep(&settle, &settle) && errno == EINTR)
				;
		}
		if (gate)
			capcheck_gate_close();
		total = now_ns() - start;
		if (simple)
			printf("%s %s %u %lu %" PRId64 " %.1f\n", w->name, config, rep,
			       iterations, total, (double)total / iterations);
		else
			printf("# Executed %lu %s calls, repeat %u of %lu\n"
			       "     Total time: %.3f [sec]\n\n"
			       "     %14.1f nsecs/op\n"
			       "     %14.0f ops/sec\n",
			       iterations, w->name, rep, repeats, total / 1e9,
			       (double)total / iterations, iterations / (total / 1e9));
		fflush(stdout);
	}

	if (calls) {
		for (unsigned long i = 0; i < calls; i++) {
			int64_t t0 = now_ns(), dt;
			int rc = w->run();

			dt = now_ns() - t0;
			if (rc != want)
				surprise(w, want, rc, i);
			samples[i] = dt;
		}
		qsort(samples, calls, sizeof(*samples), cmp_i64);
		if (simple)
			printf("%s %s 1 %lu %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
			       w->name, config, calls,
			       percentile(samples, calls, 50), percentile(samples, calls, 90),
			       percentile(samples, calls, 99), percentile(samples, calls, 99.9),
			       samples[calls - 1]);
		else
			printf("# Timed %lu %s calls one by one\n"
			       "     p50 %" PRId64 "  p90 %" PRId64 "  p99 %" PRId64 "  p99.9 %" PRId64
			       "  max %" PRId64 " [nsecs]\n",
			       calls, w->name,
			       percentile(samples, calls, 50), percentile(samples, calls, 90),
			       percentile(samples, calls, 99), percentile(samples, calls, 99.9),
			       samples[calls - 1]);
		if (cdf)
			write_cdf(cdf, w->name, config, 1, samples, calls);
		fflush(stdout);
	}
	if (cdf && fclose(cdf))
		die("%s: %s", cdf_path, strerror(errno));
	return 0;
}
