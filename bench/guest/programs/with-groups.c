// SPDX-License-Identifier: GPL-2.0-only
/*
 * with-groups - run a command as a user with many supplementary groups.
 *
 * setpriv --groups= takes the list as one argument, which the kernel caps
 * at 128 KiB (about 10000 groups); the benchmark needs up to 65536, the
 * kernel's NGROUPS_MAX. Run as root: sets the groups, then the gid, then
 * the uid (which clears every capability set), then execs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The filler groups are FILLER_BASE, FILLER_BASE + 1, ...: far from the
 * benchmark's own gids, so the granted group is the only one that counts. */
#define FILLER_BASE 100000

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: with-groups UID GID COUNT [GROUP] -- COMMAND [ARG...]\n"
		"\n"
		"As root: run COMMAND with uid and gid UID and GID and COUNT supplementary\n"
		"groups (1..65536): GROUP (if given) and filler groups %d, %d, ...\n",
		FILLER_BASE, FILLER_BASE + 1);
}

static unsigned long number(const char *what, const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v > max) {
		fprintf(stderr, "with-groups: %s takes a number up to %lu, not '%s'\n", what, max, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid, count, i = 0;
	long ngroups_max = sysconf(_SC_NGROUPS_MAX);
	int sep;
	gid_t *groups;

	for (sep = 1; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	if (sep < 4 || sep > 5 || sep + 1 >= argc) {
		usage(stderr);
		return 2;
	}
	uid = number("UID", argv[1], 65535);
	gid = number("GID", argv[2], 65535);
	count = number("COUNT", argv[3], ngroups_max);
	if (count < 1) {
		fprintf(stderr, "with-groups: COUNT must be at least 1\n");
		return 2;
	}
	groups = calloc(count, sizeof(*groups));
	if (!groups) {
		fprintf(stderr, "with-groups: no memory for %lu groups\n", count);
		return 1;
	}
	if (sep == 5)
		groups[i++] = number("GROUP", argv[4], 65535);
	for (; i < count; i++)
		groups[i] = FILLER_BASE + i;

	if (setgroups(count, groups) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		fprintf(stderr, "with-groups: cannot become %lu:%lu with %lu groups: %s\n",
			uid, gid, count, strerror(errno));
		return 1;
	}
	free(groups);
	execvp(argv[sep + 1], argv + sep + 1);
	fprintf(stderr, "with-groups: %s: %s\n", argv[sep + 1], strerror(errno));
	return 127;
}
