// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy-update - what a usercaps policy change costs, and how soon a
 * capability check on another CPU sees it.
 *
 * cost: the time of the syscalls that change the policy, as root: a chmod
 * of one capability file (each one makes cached and percred copy the
 * whole policy table and free the old one after an RCU grace period;
 * percred also moves the policy generation on, making every credential's
 * cached decisions stale), a chown of it, or a whole policy of 41 files
 * applied with a chown and a chmod each, as usercapsctl apply would.
 *
 * visibility: a reader pinned to CPU 1, a user that holds CAP_KILL only
 * through the kill file, calls kill(target, 0) in a loop while a writer on
 * CPU 0 flips the file between grant and default with chmod; for each flip,
 * when the reader first got the new answer, from the chmod's return and
 * from its start. A check that started after a chmod had returned (and
 * ended before the next one started) and still got the old answer is a
 * stale decision: counted, and an error.
 *
 * memory: the slab use of the policy tables (the kmalloc cache they land
 * in and SUnreclaim) before, at the peak of and after a storm of chmods,
 * for what kfree_rcu leaves waiting for grace periods and what it leaks.
 *
 * Every file it changes gets back at exit the owner, group and mode it had
 * at the start, which is then checked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>

#define DEFAULT_DIR "/sys/kernel/security/usercaps"
/* The capability files of Linux 6.1: CAP_CHOWN ... CAP_CHECKPOINT_RESTORE. */
#define NCAPS 41
/* The grant and the default policy of a file, as the benchmark sets them. */
#define MODE_GRANT 0110
#define MODE_DEFAULT 0100
/* How long a writer waits for the reader to see a flip. */
#define VISIBILITY_TIMEOUT_NS (10 * 1000000000LL)
/* ... and for the reader to start and see the first policy. */
#define READER_START_TIMEOUT_NS (60 * 1000000000LL)

/**
 * struct saved_file - A capability file as it was at the start
 * @name: Its name in the policy directory
 * @uid: Its owner
 * @gid: Its group
 * @mode: Its permission bits
 */
struct saved_file {
	char name[64];
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

static const char *prog = "policy-update";

#include "bench-util.h"

static const char *policy_dir = DEFAULT_DIR;
static int dir_fd = -1;
static struct saved_file saved[NCAPS];
static int nsaved;
/* Set while files may differ from saved[]: restore them at exit. */
static volatile sig_atomic_t restore_armed;
/* The process that restores (not a forked child). */
static pid_t owner_pid;

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --- The files and their restoration --- */

static int set_file(const char *name, uid_t uid, gid_t gid, mode_t mode)
{
	if (fchownat(dir_fd, name, uid, gid, AT_SYMLINK_NOFOLLOW))
		return -1;
	return fchmodat(dir_fd, name, mode, 0);
}

/* Async-signal-safe: called from the signal handler too. */
static int restore_files(void)
{
	int failed = 0;

	for (int i = 0; i < nsaved; i++)
		if (set_file(saved[i].name, saved[i].uid, saved[i].gid, saved[i].mode))
			failed++;
	return failed;
}

/* Restore, then check with stat; 0 when every file is as it was. */
static int restore_and_verify(void)
{
	int bad = 0;

	restore_armed = 0;
	for (int i = 0; i < nsaved; i++) {
		struct saved_file *f = &saved[i];
		struct stat st;

		if (set_file(f->name, f->uid, f->gid, f->mode)) {
			fprintf(stderr, "%s: cannot restore %s/%s: %s\n", prog, policy_dir,
				f->name, strerror(errno));
			bad++;
			continue;
		}
		if (fstatat(dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_uid != f->uid || st.st_gid != f->gid || (st.st_mode & 07777) != f->mode) {
			fprintf(stderr, "%s: %s/%s is %u:%u:%04o after restoring %u:%u:%04o\n",
				prog, policy_dir, f->name, (unsigned int)st.st_uid,
				(unsigned int)st.st_gid, (unsigned int)(st.st_mode & 07777),
				(unsigned int)f->uid, (unsigned int)f->gid, (unsigned int)f->mode);
			bad++;
		}
	}
	return bad;
}

static void restore_at_exit(void)
{
	if (restore_armed && getpid() == owner_pid && restore_files())
		fprintf(stderr, "%s: could not restore every policy file\n", prog);
}

static void on_fatal_signal(int sig)
{
	if (restore_armed && getpid() == owner_pid)
		restore_files();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A capability file's name: one name in the directory, not grants or mode. */
static void check_cap_name(const char *name)
{
	struct stat st;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    !strcmp(name, "grants") || !strcmp(name, "mode") || strlen(name) >= sizeof(saved[0].name))
		usage_error("'%s' is not the name of a capability file", name);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW))
		die("no capability file %s/%s: %s (names are lower case without CAP_, e.g. kill)",
		    policy_dir, name, strerror(errno));
	if (!S_ISREG(st.st_mode))
		die("%s/%s is not a capability file", policy_dir, name);
}

static void open_dir(void)
{
	dir_fd = open(policy_dir, O_RDONLY | O_DIRECTORY);
	if (dir_fd < 0)
		die("%s: %s (is usercaps in lsm=?)", policy_dir, strerror(errno));
}

/* Remember a file's state, to be restored at exit. */
static void save_file(const char *name)
{
	struct saved_file *f = &saved[nsaved];
	struct stat st;

	if (nsaved == NCAPS)
		die("more than %d files to save", NCAPS);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW))
		die("%s/%s: %s", policy_dir, name, strerror(errno));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->uid = st.st_uid;
	f->gid = st.st_gid;
	f->mode = st.st_mode & 07777;
	nsaved++;
}

static void arm_restore(void)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	owner_pid = getpid();
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &sa, NULL);
	atexit(restore_at_exit);
	restore_armed = 1;
}

static void finish_restore(void)
{
	int bad = restore_and_verify();

	if (bad)
		die("%d of %d policy files are not as they were at the start", bad, nsaved);
	printf("# restored the owner, group and mode read at the start: %d policy file%s, checked\n",
	       nsaved, nsaved == 1 ? "" : "s");
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct saved_file *)a)->name, ((const struct saved_file *)b)->name);
}

/* Every capability file of the directory into saved[]; there must be 41. */
static void save_all_caps(void)
{
	DIR *d = opendir(policy_dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		die("%s: %s", policy_dir, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "grants") ||
		    !strcmp(de->d_name, "mode"))
			continue;
		if (fstatat(dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (++n > NCAPS)
			break;
		save_file(de->d_name);
	}
	closedir(d);
	if (n != NCAPS)
		die("%s holds %s%d capability files, not %d: not the 6.1 usercaps this measures",
		    policy_dir, n > NCAPS ? "more than " : "", n > NCAPS ? NCAPS : n, NCAPS);
	qsort(saved, nsaved, sizeof(saved[0]), cmp_name);
}

/* --- Numbers --- */

/* A uid or gid: 0 .. 2^32 - 2 ((id_t)-1 means "unchanged" to chown). */
static unsigned int parse_id(const char *opt, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || v >= UINT32_MAX)
		usage_error("%s takes a numeric id, not '%s'", opt, s);
	return v;
}

/* --- cost --- */

static const char *cap_name = "kill";
static gid_t grant_group = 2000;

static int run_chmod(unsigned long i)
{
	return fchmodat(dir_fd, cap_name, i & 1 ? MODE_DEFAULT : MODE_GRANT, 0);
}

static int run_chown(unsigned long i)
{
	return fchownat(dir_fd, cap_name, -1, i & 1 ? 0 : grant_group, AT_SYMLINK_NOFOLLOW);
}

/*
 * A whole policy, as a 41-line usercapsctl apply: every file to owner 0,
 * group GRANT, mode 0110 (even iterations) or back to the default 0:0:0100
 * (odd ones), a chown and a chmod each.
 */
static int run_apply(unsigned long i)
{
	gid_t gid = i & 1 ? 0 : grant_group;
	mode_t mode = i & 1 ? MODE_DEFAULT : MODE_GRANT;

	for (int f = 0; f < nsaved; f++)
		if (set_file(saved[f].name, 0, gid, mode))
			return -1;
	return 0;
}

/**
 * struct update_op - One kind of policy change
 * @name: Its name on the command line and in the output
 * @what: What one iteration does, for the header
 * @syscalls: Syscalls per iteration
 * @run: One iteration; 0, or -1 with errno
 */
struct update_op {
	const char *name;
	const char *what;
	unsigned int syscalls;
	int (*run)(unsigned long i);
};

static const struct update_op update_ops[] = {
	{ "chmod", "fchmodat(CAP) to 0110, then back to 0100", 1, run_chmod },
	{ "chown", "fchownat(CAP, -1, GROUP), then back to group 0", 1, run_chown },
	{ "apply-41", "fchownat + fchmodat of each of the 41 files: 0:GROUP:0110, then 0:0:0100",
	  2 * NCAPS, run_apply },
};

static void cost_usage(FILE *f)
{
	fprintf(f,
		"Usage: policy-update cost [options] OP\n"
		"\n"
		"Time the syscalls of a policy change, as root. OP:\n");
	for (size_t i = 0; i < sizeof(update_ops) / sizeof(update_ops[0]); i++)
		fprintf(f, "  %-9s %s (%u syscall%s an iteration)\n", update_ops[i].name,
			update_ops[i].what, update_ops[i].syscalls,
			update_ops[i].syscalls == 1 ? "" : "s");
	fprintf(f,
		"\n"
		"Options:\n"
		"  -n, --iterations N  timed iterations per repeat (default 10000)\n"
		"  -r, --repeat N      repeats (default 3; 0: only --latency)\n"
		"  -w, --warmup N      untimed iterations first (default: iterations / 10)\n"
		"  -l, --latency N     then time N iterations one by one\n"
		"  -c, --config NAME   configuration label for the output (default -)\n"
		"      --cap NAME      the capability file of chmod and chown (default kill)\n"
		"      --group GID     the group of the grant (default 2000)\n"
		"      --dir DIR       the policy directory (default " DEFAULT_DIR ")\n"
		"  -h, --help          this text\n"
		"\n"
		"Rows, after '#' comment lines:\n"
		"  op config repeat iterations total_ns ns_per_op\n"
		"  op config 1 calls p50 p90 p99 p99.9 max     (--latency; ns per iteration)\n"
		"The files touched get back their owner, group and mode at the end.\n");
}

static int cmd_cost(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "latency", required_argument, NULL, 'l' },
		{ "config", required_argument, NULL, 'c' },
		{ "cap", required_argument, NULL, 'C' },
		{ "group", required_argument, NULL, 'g' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long iterations = 10000, repeats = 3, warmup = ULONG_MAX, calls = 0, i;
	const char *config = "-";
	const struct update_op *op = NULL;
	int64_t *samples = NULL;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:r:w:l:c:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n': iterations = parse_count("--iterations", optarg, 1); break;
		case 'r': repeats = parse_count("--repeat", optarg, 0); break;
		case 'w': warmup = parse_count("--warmup", optarg, 0); break;
		case 'l': calls = parse_count("--latency", optarg, 1); break;
		case 'c': config = optarg; break;
		case 'C': cap_name = optarg; break;
		case 'g': grant_group = parse_id("--group", optarg); break;
		case 'd': policy_dir = optarg; break;
		case 'h': cost_usage(stdout); return 0;
		default: cost_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1)
		usage_error("cost takes one OP: chmod, chown or apply-41");
	for (size_t k = 0; k < sizeof(update_ops) / sizeof(update_ops[0]); k++)
		if (!strcmp(update_ops[k].name, argv[optind]))
			op = &update_ops[k];
	if (!op)
		usage_error("no OP '%s': chmod, chown or apply-41", argv[optind]);
	if (!*config || strchr(config, ' '))
		usage_error("--config takes a name without spaces, not '%s'", config);
	if (!repeats && !calls)
		usage_error("--repeat 0 needs --latency: nothing to measure");
	if (warmup == ULONG_MAX)
		warmup = iterations / 10;
	if (calls) {
		samples = malloc(calls * sizeof(*samples));
		if (!samples)
			die("no memory for %lu samples", calls);
	}

	open_dir();
	if (op->run == run_apply) {
		save_all_caps();
	} else {
		check_cap_name(cap_name);
		save_file(cap_name);
	}
	arm_restore();

	printf("# Running 'policy-update/%s' benchmark:\n", op->name);
	printf("# %s; config %s; %u syscall%s an iteration; uid %d\n", op->what, config,
	       op->syscalls, op->syscalls == 1 ? "" : "s", (int)geteuid());
	if (op->run == run_apply)
		printf("# files: the %d of %s; group %u\n", nsaved, policy_dir,
		       (unsigned int)grant_group);
	else
		printf("# file: %s/%s, at the start %u:%u:%04o; group %u\n", policy_dir, cap_name,
		       (unsigned int)saved[0].uid, (unsigned int)saved[0].gid,
		       (unsigned int)saved[0].mode, (unsigned int)grant_group);
	if (repeats)
		printf("# op config repeat iterations total_ns ns_per_op\n");
	if (calls)
		printf("# op config repeat calls p50 p90 p99 p99.9 max\n");
	fflush(stdout);

	/* One iteration counter throughout, so that each call changes the file. */
	for (i = 0; i < warmup; i++)
		if (op->run(i))
			die("%s: warm-up iteration %lu: %s", op->name, i, strerror(errno));
	for (unsigned int rep = 1; rep <= repeats; rep++) {
		unsigned long end = i + iterations;
		int64_t start = now_ns(), total;

		for (; i < end; i++)
			if (op->run(i))
				die("%s: iteration %lu: %s", op->name, i, strerror(errno));
		total = now_ns() - start;
		printf("%s %s %u %lu %" PRId64 " %.1f\n", op->name, config, rep, iterations, total,
		       (double)total / iterations);
		fflush(stdout);
	}
	if (calls) {
		for (unsigned long c = 0; c < calls; c++, i++) {
			int64_t t0 = now_ns();

			if (op->run(i))
				die("%s: timed call %lu: %s", op->name, c, strerror(errno));
			samples[c] = now_ns() - t0;
		}
		qsort(samples, calls, sizeof(*samples), cmp_i64);
		printf("%s %s 1 %lu %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
		       op->name, config, calls, percentile(samples, calls, 50),
		       percentile(samples, calls, 90), percentile(samples, calls, 99),
		       percentile(samples, calls, 99.9), samples[calls - 1]);
	}
	finish_restore();
	free(samples);
	return 0;
}

/* --- visibility --- */

/**
 * struct vis_shared - What the writer and the reader share
 * @started: The last flip whose chmod the writer has begun (0: the setup)
 * @returned: The last flip whose chmod has returned
 * @seen: The last flip whose new answer the reader has recorded (-1: none)
 * @seen_word: Moved on with @seen, for the writer to sleep on (futex)
 * @sleeping: Set while the writer sleeps on @seen_word
 * @wakes: The times the reader woke the writer
 * @stop: Set by the writer when the reader should exit
 * @error: Set by the reader, with a message in @message, when it failed
 * @checks: The reader's checks
 * @judged: Its checks made wholly after a chmod returned and before the
 *          next began: each must give that chmod's answer
 * @stale: Those that gave the answer from before it
 * @stale_flip: The flip of the first stale check
 * @stale_after_ns: How long after that flip's chmod returned it started
 * @loop_ns: The time of the reader's loop, first check to last
 * @check_ns: The sum of its checks' durations (kill alone)
 * @stalls: The reader's loop iterations (one check's start to the next's)
 *          longer than STALL_NS: its CPU ran something else, or (in a
 *          virtual machine) did not run at all
 * @stall_ns: Their total time
 * @stall_max_ns: The longest
 * @message: The reader's error
 * @returned_ns: Per flip, when its chmod returned (for @stale_after_ns)
 * @seen_ns: Per flip, when the reader's first check with its answer ended
 * @stalled_ns: Per flip, the time the reader stalled between the start of
 *              its chmod (roughly) and the first check with its answer
 *
 * Flip K's answer is a grant when K is odd, a refusal when it is even.
 */
struct vis_shared {
	int64_t started;
	int64_t returned;
	int64_t seen;
	int seen_word;
	int sleeping;
	int stop;
	uint64_t wakes;
	int error;
	uint64_t checks;
	uint64_t judged;
	uint64_t stale;
	int64_t stale_flip;
	int64_t stale_after_ns;
	int64_t loop_ns;
	int64_t check_ns;
	uint64_t stalls;
	int64_t stall_ns;
	int64_t stall_max_ns;
	char message[256];
	/* Arrays of flips + 1, after the struct. */
	int64_t *returned_ns;
	int64_t *seen_ns;
	int64_t *stalled_ns;
};

/* A reader loop iteration this long means the reader was not running. */
#define STALL_NS 100000

static bool flip_grants(int64_t flip)
{
	return flip & 1;
}

static int64_t load(const int64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void store(int64_t *p, int64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot pin to CPU %d: %s", cpu, strerror(errno));
}

/* The hex capability set named FIELD ("CapEff") of /proc/self/status. */
static uint64_t proc_caps(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	uint64_t caps = UINT64_MAX;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':')
			caps = strtoull(line + len + 1, NULL, 16);
	fclose(f);
	return caps;
}

/* The real and saved uids of process PID, from /proc; -1 if it has none. */
static int proc_uids(pid_t pid, unsigned int *ruid, unsigned int *euid, unsigned int *suid)
{
	char path[64], line[256];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u %u %u", ruid, euid, suid) == 3)
			found = 0;
	fclose(f);
	return found;
}

static void reader_fail(struct vis_shared *sh, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->message, sizeof(sh->message), fmt, ap);
	va_end(ap);
	__atomic_store_n(&sh->error, 1, __ATOMIC_SEQ_CST);
	_exit(1);
}

/*
 * The reader: on CPU 1, as UID/GID with GRANT as its only supplementary
 * group and no capability, kill(target, 0) in a loop. A check is judged
 * when it started after flip K's chmod had returned (K read before its
 * start) and no later chmod had begun when it ended (read after): it must
 * then give flip K's answer.
 */
static void reader(struct vis_shared *sh, uid_t uid, gid_t gid, gid_t grant, pid_t target)
{
	int64_t last_seen = -1, first = 0, t0 = 0, t1 = 0, prev_t1 = 0, gap;
	uint64_t caps;

	pin_to_cpu(1);
	if (setgroups(1, &grant) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		reader_fail(sh, "cannot become uid %u gid %u groups %u: %s", (unsigned int)uid,
			    (unsigned int)gid, (unsigned int)grant, strerror(errno));
	caps = proc_caps("CapEff");
	if (caps)
		reader_fail(sh, "the reader kept capabilities after setresuid (CapEff %016" PRIx64
			    ")", caps);
	for (;;) {
		int64_t k = load(&sh->returned), s;
		bool granted;
		int rc, err;

		t0 = now_ns();
		rc = kill(target, 0);
		err = errno;
		t1 = now_ns();
		s = load(&sh->started);
		if (rc && err != EPERM)
			reader_fail(sh, "kill(%d, 0): %s", (int)target, strerror(err));
		granted = !rc;
		if (!sh->checks)
			first = prev_t1 = t0;
		/* From the end of the previous check to the end of this one. */
		gap = t1 - prev_t1;
		prev_t1 = t1;
		if (gap > STALL_NS) {
			sh->stalls++;
			sh->stall_ns += gap;
			if (gap > sh->stall_max_ns)
				sh->stall_max_ns = gap;
			/* Flip s (begun before this check ended) waits for it. */
			if (s > last_seen)
				sh->stalled_ns[s] += gap;
		}
		sh->checks++;
		sh->check_ns += t1 - t0;
		if (s == k) {
			sh->judged++;
			if (granted != flip_grants(k) && !sh->stale++) {
				sh->stale_flip = k;
				sh->stale_after_ns = t0 - sh->returned_ns[k];
			}
		}
		if (s > last_seen && granted == flip_grants(s)) {
			sh->seen_ns[s] = t1;
			last_seen = s;
			store(&sh->seen, s);
			__atomic_add_fetch(&sh->seen_word, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&sh->sleeping, __ATOMIC_SEQ_CST)) {
				syscall(SYS_futex, &sh->seen_word, FUTEX_WAKE, 1, NULL, NULL, 0);
				/* Counted in the next iteration, a stall if long. */
				sh->wakes++;
			}
		}
		if (__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST))
			break;
	}
	sh->loop_ns = t1 - first;
	_exit(0);
}

/*
 * Wait until the reader has recorded FLIP's answer; false on a timeout.
 * Spin for SPIN_NS, then sleep: the reader's futex wake would delay its
 * next checks, but in a virtual machine whose vCPUs share a host CPU, a
 * writer that only spins keeps the reader's vCPU from running.
 */
#define SPIN_NS 1000000
static bool wait_seen(struct vis_shared *sh, pid_t pid, int64_t flip, int64_t timeout)
{
	int64_t start = now_ns(), t;

	for (;;) {
		struct timespec ts = { 0, 10 * 1000000 };
		int word;

		if (load(&sh->seen) >= flip)
			return true;
		t = now_ns();
		if (t - start < SPIN_NS) {
			__builtin_ia32_pause();
			continue;
		}
		if (__atomic_load_n(&sh->error, __ATOMIC_SEQ_CST))
			die("the reader failed: %s", sh->message);
		if (waitpid(pid, NULL, WNOHANG) == pid)
			die("the reader exited before it saw flip %" PRId64, flip);
		if (t - start > timeout)
			return false;
		word = __atomic_load_n(&sh->seen_word, __ATOMIC_SEQ_CST);
		__atomic_store_n(&sh->sleeping, 1, __ATOMIC_SEQ_CST);
		if (load(&sh->seen) < flip)
			syscall(SYS_futex, &sh->seen_word, FUTEX_WAIT, word, &ts, NULL, 0);
		__atomic_store_n(&sh->sleeping, 0, __ATOMIC_SEQ_CST);
	}
}

static void vis_usage(FILE *f)
{
	fprintf(f,
		"Usage: policy-update visibility [options] --uid U --gid G --group GRANT --target PID\n"
		"\n"
		"How soon a chmod of the kill file on CPU 0 reaches a capability check on\n"
		"CPU 1 (needs 2 CPUs), as root. The reader runs as uid U, gid G, with the\n"
		"single supplementary group GRANT and no capabilities, and calls\n"
		"kill(PID, 0), which needs CAP_KILL: PID must belong to another user. The\n"
		"writer sets the file's owner and group to 0:GRANT once, then flips its mode\n"
		"between 0110 (grant) and 0100 (default) and waits (spins 1 ms, then sleeps;\n"
		"at most 10 s) until the reader has the new answer. A reader loop iteration\n"
		"over 100 us is a stall (the reader did not run: another task, or in a\n"
		"virtual machine the host, had its CPU): the '#' lines count them, and the\n"
		"slow flips they explain.\n"
		"\n"
		"Options:\n"
		"  -n, --flips N       chmods (default 1000)\n"
		"  -c, --config NAME   configuration label for the output (default -)\n"
		"      --uid U         the reader's uid (required)\n"
		"      --gid G         its gid (required)\n"
		"      --group GRANT   its supplementary group, the one granted (required)\n"
		"      --target PID    the process it signals (required)\n"
		"      --dir DIR       the policy directory (default " DEFAULT_DIR ")\n"
		"  -h, --help          this text\n"
		"\n"
		"Rows, after '#' comment lines (signed ns; negative: seen before the chmod\n"
		"returned):\n"
		"  visibility config flips p50 p90 p99 max             from the chmod's return\n"
		"  visibility-from-start config flips p50 p90 p99 max  from its start\n"
		"to the end of the reader's first check with the new answer. A check that\n"
		"started after a chmod had returned, and ended before the next chmod began,\n"
		"with the answer from before that chmod is a stale decision: the exit\n"
		"status is then 1.\n");
}

static void print_vis_row(const char *name, const char *config, int64_t *v, unsigned long n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	printf("%s %s %lu %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n", name, config, n,
	       percentile(v, n, 50), percentile(v, n, 90), percentile(v, n, 99), v[n - 1]);
}

static int cmd_visibility(int argc, char **argv)
{
	static const struct option options[] = {
		{ "flips", required_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "uid", required_argument, NULL, 'u' },
		{ "gid", required_argument, NULL, 'g' },
		{ "group", required_argument, NULL, 'G' },
		{ "target", required_argument, NULL, 't' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long flips = 1000, slow = 0, slow_stalled = 0;
	long uid = -1, gid = -1, grant = -1, target = -1;
	const char *config = "-";
	unsigned int ruid, euid, suid;
	struct vis_shared *sh;
	int64_t *start_ns, *from_return, *from_start, *chmod_ns;
	cpu_set_t allowed;
	size_t size;
	pid_t pid;
	int opt, status;

	while ((opt = getopt_long(argc, argv, "n:c:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n': flips = parse_count("--flips", optarg, 1); break;
		case 'c': config = optarg; break;
		case 'u': uid = parse_id("--uid", optarg); break;
		case 'g': gid = parse_id("--gid", optarg); break;
		case 'G': grant = parse_id("--group", optarg); break;
		case 't': target = parse_count("--target", optarg, 1); break;
		case 'd': policy_dir = optarg; break;
		case 'h': vis_usage(stdout); return 0;
		default: vis_usage(stderr); return 2;
		}
	}
	if (optind != argc)
		usage_error("visibility takes no operand ('%s')", argv[optind]);
	if (uid < 0 || gid < 0 || grant < 0 || target < 0)
		usage_error("visibility needs --uid, --gid, --group and --target");
	if (!*config || strchr(config, ' '))
		usage_error("--config takes a name without spaces, not '%s'", config);
	if (uid == 0)
		usage_error("--uid 0: root needs no grant; name an unprivileged user");
	if (flips > 10000000)
		usage_error("--flips: at most 10000000");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		die("visibility needs 2 CPUs (a writer on CPU 0, a reader on CPU 1); "
		    "this system has %ld online", sysconf(_SC_NPROCESSORS_ONLN));
	if (sched_getaffinity(0, sizeof(allowed), &allowed) || !CPU_ISSET(0, &allowed) ||
	    !CPU_ISSET(1, &allowed))
		die("visibility needs CPUs 0 and 1, and may not run on both");
	if (geteuid() != 0)
		die("visibility must run as root (it changes the policy and drops to --uid)");
	if (proc_uids(target, &ruid, &euid, &suid))
		die("--target %ld: no such process", target);
	if (ruid == uid || suid == uid || euid == uid)
		die("--target %ld (uid %u, euid %u, suid %u) shares uid %ld with the reader: "
		    "kill() would not check CAP_KILL", target, ruid, euid, suid, uid);

	open_dir();
	check_cap_name("kill");
	cap_name = "kill";

	size = sizeof(*sh) + 3 * (flips + 1) * sizeof(int64_t);
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap of %zu bytes: %s", size, strerror(errno));
	sh->returned_ns = (int64_t *)(sh + 1);
	sh->seen_ns = sh->returned_ns + flips + 1;
	sh->stalled_ns = sh->seen_ns + flips + 1;
	sh->seen = -1;
	start_ns = calloc(flips + 1, sizeof(*start_ns));
	from_return = calloc(flips, sizeof(*from_return));
	from_start = calloc(flips, sizeof(*from_start));
	chmod_ns = calloc(flips, sizeof(*chmod_ns));
	if (!start_ns || !from_return || !from_start || !chmod_ns)
		die("no memory for %lu flips", flips);

	/* Flip 0, the setup: owner and group for good, and a refusal. */
	save_file("kill");
	arm_restore();
	if (set_file("kill", 0, grant, MODE_DEFAULT))
		die("%s/kill: %s", policy_dir, strerror(errno));
	sh->returned_ns[0] = now_ns();

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		reader(sh, uid, gid, grant, target);
	pin_to_cpu(0);
	if (!wait_seen(sh, pid, 0, READER_START_TIMEOUT_NS))
		die("the reader did not get its first answer (a refusal) in %lld s",
		    READER_START_TIMEOUT_NS / 1000000000);

	for (int64_t k = 1; k <= (int64_t)flips; k++) {
		int64_t t0, t1;

		store(&sh->started, k);
		t0 = now_ns();
		if (fchmodat(dir_fd, "kill", flip_grants(k) ? MODE_GRANT : MODE_DEFAULT, 0))
			die("flip %" PRId64 ": chmod %s/kill: %s", k, policy_dir, strerror(errno));
		t1 = now_ns();
		start_ns[k] = t0;
		sh->returned_ns[k] = t1;
		store(&sh->returned, k);
		if (!wait_seen(sh, pid, k, VISIBILITY_TIMEOUT_NS)) {
			__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
			die("flip %" PRId64 " (to %s): the reader did not see it in %lld s after the "
			    "chmod returned (%" PRIu64 " checks so far, %" PRIu64 " stale)", k,
			    flip_grants(k) ? "grant" : "default", VISIBILITY_TIMEOUT_NS / 1000000000,
			    sh->checks, sh->stale);
		}
		from_return[k - 1] = sh->seen_ns[k] - t1;
		if (from_return[k - 1] > STALL_NS) {
			slow++;
			slow_stalled += sh->stalled_ns[k] > 0;
		}
		from_start[k - 1] = sh->seen_ns[k] - t0;
		chmod_ns[k - 1] = t1 - t0;
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the reader failed: %s", sh->error ? sh->message : "killed");

	printf("# Running 'policy-update/visibility' benchmark:\n");
	printf("# writer on CPU 0: chmod %s/kill 0110/0100 (group %ld), %lu flips; reader on CPU 1:"
	       " uid %ld gid %ld group %ld, kill(%ld, 0); config %s\n", policy_dir, grant, flips,
	       uid, gid, grant, target, config);
	printf("# reader: %" PRIu64 " checks, loop %.1f ns, kill %.1f ns on average; %" PRIu64
	       " stalls (an iteration over %d ns: the reader did not run), %.1f%% of the time, "
	       "the longest %" PRId64 " ns\n", sh->checks, (double)sh->loop_ns / sh->checks,
	       (double)sh->check_ns / sh->checks, sh->stalls, STALL_NS,
	       100.0 * sh->stall_ns / (sh->loop_ns ? sh->loop_ns : 1), sh->stall_max_ns);
	printf("# flips seen over %d ns after the chmod returned: %lu, %lu of them with a reader "
	       "stall meanwhile (a wake of the writer included); the writer slept (after %d ns) %"
	       PRIu64 " times\n", STALL_NS,
	       slow, slow_stalled, SPIN_NS, sh->wakes);
	qsort(chmod_ns, flips, sizeof(*chmod_ns), cmp_i64);
	printf("# writer: chmod p50 %" PRId64 " p99 %" PRId64 " max %" PRId64 " ns\n",
	       percentile(chmod_ns, flips, 50), percentile(chmod_ns, flips, 99),
	       chmod_ns[flips - 1]);
	printf("# stale: %" PRIu64 " of %" PRIu64 " checks made wholly after a chmod returned "
	       "(and before the next began) gave the answer from before it", sh->stale, sh->judged);
	if (sh->stale)
		printf("; the first after flip %" PRId64 ", starting %" PRId64 " ns after its chmod "
		       "returned", sh->stale_flip, sh->stale_after_ns);
	printf("\n# name config flips p50 p90 p99 max (ns to the end of the first check with "
	       "the new answer)\n");
	print_vis_row("visibility", config, from_return, flips);
	print_vis_row("visibility-from-start", config, from_start, flips);
	finish_restore();
	fflush(stdout);
	if (sh->stale)
		die("%" PRIu64 " stale decision%s: a check that started after the chmod had returned "
		    "gave the old answer", sh->stale, sh->stale == 1 ? "" : "s");
	return 0;
}

/* --- memory --- */

/**
 * struct slab_sample - The slab use of one moment
 * @sunreclaim_kb: SUnreclaim of /proc/meminfo
 * @active_objs: The cache's active objects in /proc/slabinfo
 * @obj_size: Its object size
 */
struct slab_sample {
	long sunreclaim_kb;
	long active_objs;
	long obj_size;
};

static const char *slab_cache;

static void sample_slab(struct slab_sample *s)
{
	char line[512], name[128];
	FILE *f = fopen("/proc/meminfo", "r");

	s->sunreclaim_kb = s->active_objs = s->obj_size = -1;
	if (!f)
		die("/proc/meminfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &s->sunreclaim_kb) == 1)
			break;
	fclose(f);
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		die("/proc/slabinfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		long active, total, size;

		if (sscanf(line, "%127s %ld %ld %ld", name, &active, &total, &size) == 4 &&
		    !strcmp(name, slab_cache)) {
			s->active_objs = active;
			s->obj_size = size;
			break;
		}
	}
	fclose(f);
	if (s->sunreclaim_kb < 0)
		die("no SUnreclaim in /proc/meminfo");
	if (s->active_objs < 0)
		die("no cache '%s' in /proc/slabinfo", slab_cache);
}

/* Give SLUB's per-CPU slabs back, so that freed objects stop counting. */
static bool shrink_slab(void)
{
	char path[256];
	int fd;
	bool ok;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", slab_cache);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return false;
	ok = write(fd, "1", 1) == 1;
	close(fd);
	return ok;
}

/*
 * The cache once earlier changes have let their tables go: kfree_rcu() of
 * 6.1 may hold a CPU's freed tables 5 s before their grace period even
 * starts (KFREE_DRAIN_JIFFIES, when fewer than a page of pointers, 510,
 * wait). Read every 100 ms, shrunk, until the count has not moved for
 * QUIET_MS, or MAX_MS have passed. Returns whether it was quiet.
 */
static bool wait_quiet(struct slab_sample *s, unsigned long quiet_ms, unsigned long max_ms,
		       int64_t *waited_ns)
{
	int64_t start = now_ns(), changed = start, t;

	shrink_slab();
	sample_slab(s);
	for (;;) {
		struct slab_sample next;

		t = now_ns();
		*waited_ns = t - start;
		if (t - changed >= (int64_t)quiet_ms * 1000000)
			return true;
		if (t - start >= (int64_t)max_ms * 1000000)
			return false;
		sleep_ns(100 * 1000000);
		shrink_slab();
		sample_slab(&next);
		if (next.active_objs != s->active_objs)
			changed = now_ns();
		*s = next;
	}
}

static void print_sample(const char *config, const char *phase, const struct slab_sample *s)
{
	printf("%s %s %ld %s %ld %ld\n", config, phase, s->sunreclaim_kb, slab_cache,
	       s->active_objs, s->obj_size);
}

static void mem_usage(FILE *f)
{
	fprintf(f,
		"Usage: policy-update memory [options] --cache NAME\n"
		"\n"
		"The slab use of the policy tables around a storm of chmods of one\n"
		"capability file (between 0110 and 0100), as root: SUnreclaim and the\n"
		"active objects of kmalloc cache NAME (the one struct usercaps_table lands\n"
		"in), before, at the peak while a child process runs the chmods (sampled\n"
		"every --interval), and after: once the active objects are back to before\n"
		"(read every 50 ms), or when --settle has passed (kfree_rcu() of 6.1 may\n"
		"hold a CPU's freed tables 5 s before their grace period even starts).\n"
		"Before is read once the count has not moved for --quiet, so that the\n"
		"tables of earlier changes are gone. Before and after, NAME is shrunk\n"
		"(/sys/kernel/slab/NAME/shrink), so that SLUB's per-CPU slabs do not count\n"
		"freed objects as active.\n"
		"\n"
		"Options:\n"
		"  -n, --updates N     chmods (default 100000)\n"
		"  -c, --config NAME   configuration label for the output (default -)\n"
		"      --cache NAME    the slab cache, e.g. kmalloc-512 (required)\n"
		"      --cap NAME      the capability file (default kill)\n"
		"      --interval MS   sampling period during the chmods (default 10)\n"
		"      --quiet MS      how long before must be still (default 6000; at most\n"
		"                      4 times that is waited)\n"
		"      --settle MS     the longest wait for after (default 12000)\n"
		"      --dir DIR       the policy directory (default " DEFAULT_DIR ")\n"
		"  -h, --help          this text\n"
		"\n"
		"Rows, after '#' comment lines, for phases before, peak and after (the\n"
		"peak of each column, maybe from different samples):\n"
		"  config phase sunreclaim_kb cache active_objs obj_size\n");
}

static int cmd_memory(int argc, char **argv)
{
	static const struct option options[] = {
		{ "updates", required_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "cache", required_argument, NULL, 'S' },
		{ "cap", required_argument, NULL, 'C' },
		{ "interval", required_argument, NULL, 'i' },
		{ "settle", required_argument, NULL, 's' },
		{ "quiet", required_argument, NULL, 'q' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long updates = 100000, interval_ms = 10, settle_ms = 12000, quiet_ms = 6000;
	unsigned long samples = 0;
	const char *config = "-";
	struct slab_sample before, peak, after, s;
	int64_t start, storm_ns, settle_start, settle_ns, quiet_ns;
	bool shrunk, settled = false, quiet;
	pid_t pid;
	int opt, status;

	while ((opt = getopt_long(argc, argv, "n:c:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n': updates = parse_count("--updates", optarg, 1); break;
		case 'c': config = optarg; break;
		case 'S': slab_cache = optarg; break;
		case 'C': cap_name = optarg; break;
		case 'i': interval_ms = parse_count("--interval", optarg, 1); break;
		case 's': settle_ms = parse_count("--settle", optarg, 0); break;
		case 'q': quiet_ms = parse_count("--quiet", optarg, 0); break;
		case 'd': policy_dir = optarg; break;
		case 'h': mem_usage(stdout); return 0;
		default: mem_usage(stderr); return 2;
		}
	}
	if (optind != argc)
		usage_error("memory takes no operand ('%s')", argv[optind]);
	if (!slab_cache)
		usage_error("memory needs --cache");
	if (!*slab_cache || strchr(slab_cache, '/') || strchr(slab_cache, ' ') ||
	    slab_cache[0] == '.')
		usage_error("--cache takes a slab cache's name, not '%s'", slab_cache);
	if (!*config || strchr(config, ' '))
		usage_error("--config takes a name without spaces, not '%s'", config);

	open_dir();
	check_cap_name(cap_name);
	shrunk = shrink_slab();
	quiet = wait_quiet(&before, quiet_ms, 4 * quiet_ms, &quiet_ns);
	save_file(cap_name);
	arm_restore();

	fflush(stdout);
	start = now_ns();
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		for (unsigned long i = 0; i < updates; i++) {
			if (run_chmod(i)) {
				fprintf(stderr, "%s: chmod %lu of %s/%s: %s\n", prog, i, policy_dir,
					cap_name, strerror(errno));
				_exit(1);
			}
		}
		_exit(0);
	}
	peak = before;
	for (;;) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done < 0)
			die("waitpid: %s", strerror(errno));
		sample_slab(&s);
		samples++;
		if (s.sunreclaim_kb > peak.sunreclaim_kb)
			peak.sunreclaim_kb = s.sunreclaim_kb;
		if (s.active_objs > peak.active_objs)
			peak.active_objs = s.active_objs;
		if (done == pid)
			break;
		sleep_ns(interval_ms * 1000000);
	}
	storm_ns = now_ns() - start;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the chmods failed");

	/*
	 * Until the freed tables are back. kfree_rcu() in 6.1 frees a CPU's
	 * batch one grace period after it is handed over, which it is at
	 * once when 510 objects wait (a page of pointers), else after
	 * KFREE_DRAIN_JIFFIES, 5 s: a storm leaves up to 509 tables per CPU
	 * for 5 s and more.
	 */
	settle_start = now_ns();
	for (;;) {
		shrink_slab();
		sample_slab(&after);
		if (after.active_objs <= before.active_objs) {
			settled = true;
			break;
		}
		if (now_ns() - settle_start >= (int64_t)settle_ms * 1000000)
			break;
		sleep_ns(50 * 1000000);
	}
	settle_ns = now_ns() - settle_start;

	printf("# Running 'policy-update/memory':\n");
	printf("# %lu chmods of %s/%s in %.3f s (%.0f ns each), %lu samples every %lu ms; "
	       "config %s\n", updates, policy_dir, cap_name, storm_ns / 1e9,
	       (double)storm_ns / updates, samples, interval_ms, config);
	printf("# before: read after %.2f s, the count %s\n", quiet_ns / 1e9,
	       quiet ? "unchanged for the last --quiet ms" : "still moving (gave up waiting)");
	printf("# before and after: %s %s; after: %s %.2f s after the chmods ended\n",
	       slab_cache, shrunk ? "shrunk first" : "not shrunk (no /sys/kernel/slab/CACHE/shrink)",
	       settled ? "back to the objects of before" : "not back to before, read",
	       settle_ns / 1e9);
	printf("# config phase sunreclaim_kb cache active_objs obj_size\n");
	print_sample(config, "before", &before);
	print_sample(config, "peak", &peak);
	print_sample(config, "after", &after);
	finish_restore();
	return 0;
}

/* --- main --- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: policy-update cost [options] chmod|chown|apply-41\n"
		"       policy-update visibility [options] --uid U --gid G --group GRANT --target PID\n"
		"       policy-update memory [options] --cache NAME\n"
		"\n"
		"What changing the usercaps policy costs (cost), how soon a check on another\n"
		"CPU sees a change (visibility), and the slab use of the policy tables\n"
		"during a storm of changes (memory). Run as root; every policy file touched\n"
		"gets back its owner, group and mode at the end.\n"
		"'policy-update COMMAND -h' describes each. Exit status: 0, 1 on failure\n"
		"(or a stale decision), 2 on a usage error.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "cost"))
		return cmd_cost(argc - 1, argv + 1);
	if (!strcmp(argv[1], "visibility"))
		return cmd_visibility(argc - 1, argv + 1);
	if (!strcmp(argv[1], "memory"))
		return cmd_memory(argc - 1, argv + 1);
	usage_error("no command '%s': cost, visibility or memory", argv[1]);
	return 2;
}
