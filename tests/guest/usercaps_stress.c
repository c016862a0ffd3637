// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps stress - capability checks racing chmod and chown of their file.
 *
 * Readers pinned to every CPU but the first check CAP_KILL in a loop as a
 * user in group 2000, while a writer on the first CPU flips the kill file
 * between two policies that differ in owner, group and mode. Every state
 * the file legitimately passes through refuses the reader; the states a
 * check could see only by mixing fields of different moments grant. So
 * every grant is a torn read.
 *
 * Runs as root in a guest booted with usercaps in lsm=. USERCAPS_MODE names
 * the mode booted; USERCAPS_STRESS_SECONDS (default 10) how long to flip.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define KILL_FILE "/sys/kernel/security/usercaps/kill"

/* The reader: uid 1000, primary group 1000, supplementary group 2000. */
#define READER_UID 1000
#define READER_GID 1000
#define READER_GROUP 2000

struct policy {
	uid_t owner;
	gid_t group;
	mode_t mode;
};

/*
 * A flip A->B is chown then chmod, passing through AB_HALFWAY; a flip
 * B->A is chmod then chown, passing through AB_HALFWAY again. All three
 * refuse the reader: A names it as owner without u+x, B and AB_HALFWAY
 * put it in the other class without o+x.
 */
static const struct policy policy_a = { READER_UID, READER_GROUP, 0010 };
static const struct policy policy_b = { 3000, 2001, 0110 };
static const struct policy ab_halfway = { 3000, 2001, 0010 };

/*
 * Mixes of A's and B's fields that no legitimate state is, each granting.
 * The first is a check that reads i_uid after a chown A->B wrote it and
 * i_gid before: one event inside the check. The others need the mode read
 * before a chmod and the owner after the following chown.
 */
static const struct policy torn_states[] = {
	{ 3000, READER_GROUP, 0010 },	/* group class, g+x */
	{ READER_UID, READER_GROUP, 0110 },	/* owner class, u+x */
	{ READER_UID, 2001, 0110 },	/* owner class, u+x */
	{ 3000, READER_GROUP, 0110 },	/* group class, g+x */
};

static int apply(const struct policy *p)
{
	if (chown(KILL_FILE, p->owner, p->group) || chmod(KILL_FILE, p->mode))
		return -errno;
	return 0;
}

static int become_reader(void)
{
	const gid_t groups[] = { READER_GROUP };

	return setgroups(1, groups) || setresgid(READER_GID, READER_GID, READER_GID) ||
	       setresuid(READER_UID, READER_UID, READER_UID) ? -errno : 0;
}

/* kill(1, 0) by the reader in a child: 0 granted, else the errno (or 255). */
static int reader_probe(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(become_reader() ? 255 : kill(1, 0) ? errno : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

/*
 * Shrink every slab cache: SLUB gives back its empty slabs, and a KASAN
 * kernel empties its quarantine of the cache, which otherwise holds freed
 * objects (up to 1/32 of memory) and looks like a leak.
 */
static void shrink_slab_caches(void)
{
	DIR *dir = opendir("/sys/kernel/slab");
	struct dirent *entry;
	char path[PATH_MAX];
	int fd;

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", entry->d_name);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, "1", 1) != 1)
			printf("# shrinking %s: %s\n", entry->d_name, strerror(errno));
		close(fd);
	}
	closedir(dir);
}

/* Unreclaimable slab in kB, after dropping caches and letting RCU free. */
static long settled_slab_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f;
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3", 1) != 1)
		return -1;
	close(fd);
	/* kfree_rcu batches for up to a few jiffies; give it ample time. */
	sleep(2);
	shrink_slab_caches();
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* What each reader reports, in memory shared with the writer. */
struct reader_count {
	long checks;
	long granted;
	long other_errors;	/* neither 0 nor EPERM: the probe is broken */
	int setup_errno;
};

struct stress_board {
	int stop;
	struct reader_count readers[];
};

static int pin_to_cpu(int cpu)
{
	cpu_set_t only = { 0 };

	CPU_SET(cpu, &only);
	return sched_setaffinity(0, sizeof(only), &only);
}

static void reader_loop(struct stress_board *board, int cpu)
{
	struct reader_count *count = &board->readers[cpu];
	long checks = 0, granted = 0, other = 0;

	if (pin_to_cpu(cpu) || become_reader()) {
		count->setup_errno = errno;
		return;
	}
	while (!__atomic_load_n(&board->stop, __ATOMIC_RELAXED)) {
		if (kill(1, 0) == 0)
			granted++;
		else if (errno != EPERM)
			other++;
		checks++;
	}
	count->checks = checks;
	count->granted = granted;
	count->other_errors = other;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *booted_mode(void)
{
	const char *mode = getenv("USERCAPS_MODE");

	return mode && (!strcmp(mode, "naive") || !strcmp(mode, "cached") ||
			!strcmp(mode, "percred")) ? mode : NULL;
}

FIXTURE(stress) {};

FIXTURE_SETUP(stress)
{
	ASSERT_EQ(0, geteuid()) {
		TH_LOG("the usercaps stress tests must run as root");
	}
	ASSERT_EQ(0, access(KILL_FILE, F_OK)) {
		TH_LOG(KILL_FILE " is missing: is usercaps in lsm= ? (%s)", strerror(errno));
	}
	ASSERT_NE(NULL, booted_mode()) {
		TH_LOG("set USERCAPS_MODE to the mode booted: naive, cached or percred");
	}
}

FIXTURE_TEARDOWN(stress)
{
	const struct policy boot_default = { 0, 0, 0100 };

	EXPECT_EQ(0, apply(&boot_default));
}

/*
 * The detector itself: each legitimate state refuses the reader and each
 * torn mix grants it, as the kernel decides when the file is set to it.
 */
TEST_F(stress, torn_mixes_grant_and_legitimate_states_refuse)
{
	const struct policy *legitimate[] = { &policy_a, &ab_halfway, &policy_b };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(legitimate); i++) {
		ASSERT_EQ(0, apply(legitimate[i]));
		EXPECT_EQ(EPERM, reader_probe()) {
			TH_LOG("legitimate state %u:%u %04o", legitimate[i]->owner,
			       legitimate[i]->group, legitimate[i]->mode);
		}
	}
	for (i = 0; i < ARRAY_SIZE(torn_states); i++) {
		ASSERT_EQ(0, apply(&torn_states[i]));
		EXPECT_EQ(0, reader_probe()) {
			TH_LOG("torn state %u:%u %04o", torn_states[i].owner,
			       torn_states[i].group, torn_states[i].mode);
		}
	}
}

/* A leak of one 512-byte table per change would be 100 MB for 10^5 flips. */
#define SLAB_TOLERANCE_KB 2048
/*
 * A race needs enough flips to mean anything: on a loaded host (a debug
 * kernel's guest beside another under TCG) the flipping goes on past
 * USERCAPS_STRESS_SECONDS until MIN_FLIPS, up to MAX_STRETCH times as long.
 */
#define MIN_FLIPS 1000
#define MAX_STRETCH 6

TEST_F_TIMEOUT(stress, flips_racing_checks, 120)
{
	const char *mode = booted_mode(), *env = getenv("USERCAPS_STRESS_SECONDS");
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), cpu, status;
	double seconds = env ? atof(env) : 10, start, elapsed;
	long flips = 0, checks = 0, torn = 0, slab_before, slab_after;
	size_t size = sizeof(struct stress_board) + ncpus * sizeof(struct reader_count);
	struct stress_board *board;
	bool on_a = true;
	pid_t pids[64];

	if (ncpus < 2)
		SKIP(return, "needs 2 CPUs, the guest has %d", ncpus);
	ASSERT_GE(64, ncpus);
	ASSERT_LT(0, seconds);
	board = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, board);
	ASSERT_EQ(0, apply(&policy_a));
	slab_before = settled_slab_kb();
	ASSERT_LT(0, slab_before);

	fflush(NULL);
	for (cpu = 1; cpu < ncpus; cpu++) {
		pids[cpu] = fork();
		ASSERT_LE(0, pids[cpu]);
		if (pids[cpu] == 0) {
			reader_loop(board, cpu);
			_exit(0);
		}
	}
	ASSERT_EQ(0, pin_to_cpu(0));
	start = now();
	do {
		const struct policy *to = on_a ? &policy_b : &policy_a;

		if (on_a) {
			ASSERT_EQ(0, apply(to));
		} else {
			ASSERT_EQ(0, chmod(KILL_FILE, to->mode) ||
				     chown(KILL_FILE, to->owner, to->group) ? errno : 0);
		}
		on_a = !on_a;
		flips++;
	} while ((flips & 63) || now() - start < seconds ||
		 (flips < MIN_FLIPS && now() - start < MAX_STRETCH * seconds));
	elapsed = now() - start;
	__atomic_store_n(&board->stop, 1, __ATOMIC_RELAXED);
	for (cpu = 1; cpu < ncpus; cpu++) {
		const struct reader_count *count = &board->readers[cpu];

		ASSERT_EQ(pids[cpu], waitpid(pids[cpu], &status, 0));
		EXPECT_EQ(0, count->setup_errno) {
			TH_LOG("reader on CPU %d could not start: %s", cpu,
			       strerror(count->setup_errno));
		}
		EXPECT_EQ(0, count->other_errors) {
			TH_LOG("reader on CPU %d: %ld checks failed with neither 0 nor EPERM",
			       cpu, count->other_errors);
		}
		EXPECT_LT(0, count->checks);
		checks += count->checks;
		torn += count->granted;
	}
	munmap(board, size);
	slab_after = settled_slab_kb();

	printf("# stress %s: %ld flips, %ld checks on %d CPUs in %.1f s, %ld torn, slab before/after %ld/%ld kB\n",
	       mode, flips, checks, ncpus, elapsed, torn, slab_before, slab_after);
	EXPECT_LE(MIN_FLIPS, flips);
	EXPECT_LE(MIN_FLIPS, checks);
	ASSERT_LT(0, slab_after);
	EXPECT_GE(SLAB_TOLERANCE_KB, slab_after - slab_before) {
		TH_LOG("unreclaimable slab grew by %ld kB over %ld flips (tolerance %d kB)",
		       slab_after - slab_before, flips, SLAB_TOLERANCE_KB);
	}
	if (!strcmp(mode, "naive")) {
		printf("# naive mode reads i_mode, i_uid and i_gid one by one in usercaps_policy_get(): "
		       "a check may mix fields of different moments; its %ld torn are reported, not failed\n",
		       torn);
		return;
	}
	EXPECT_EQ(0, torn) {
		TH_LOG("%s mode: %ld of %ld checks granted CAP_KILL, which no state of the file grants",
		       mode, torn, checks);
	}
}

TEST_HARNESS_MAIN
