// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy-storm - change a capability file's policy in a loop.
 *
 * Flips the file between two policies that both grant to the benchmark's
 * user, so that a reader measures what the updates cost it, not a
 * different decision: owner UID_A and owner UID_B, both with group GID
 * and mode 0110, then 0111. Each flip is one chown and one chmod. Prints
 * "ready" once a signal would stop it cleanly, runs until SIGTERM or
 * SIGINT, then prints the number of flips and the rate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const mode_t modes[2] = { 0110, 0111 };
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long flips = 0;
	uid_t owners[2];
	gid_t group;
	double start;

	if (argc != 5) {
		fprintf(stderr, "Usage: policy-storm FILE UID_A UID_B GID\n");
		return 2;
	}
	owners[0] = strtoul(argv[2], NULL, 10);
	owners[1] = strtoul(argv[3], NULL, 10);
	group = strtoul(argv[4], NULL, 10);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("ready\n");
	fflush(stdout);

	start = now();
	while (!stop) {
		int i = flips & 1;

		if (chown(argv[1], owners[i], group) || chmod(argv[1], modes[i])) {
			fprintf(stderr, "policy-storm: %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		flips++;
	}
	printf("policy-storm: %lu flips in %.3f s: %.0f flips/s\n",
	       flips, now() - start, flips / (now() - start));
	return 0;
}
