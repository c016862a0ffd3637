// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the lock that keeps changes apart
 *
 * Two runs that change the policy at once would interleave their changes
 * and roll back each other's, so a change holds an exclusive lock from
 * before it reads the policy until it exits. The lock is a file of its
 * own under /run, mode 0600: no other user can open it, so no other user
 * can hold it and make root wait. (The policy directory, 0755, would not
 * do: anyone can open it and flock it.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "usercapsctl.h"

/*
 * Take the lock, trying every 50 ms until it is free or @wait seconds have
 * passed; a run that has to wait says so.
 */
static int uc_lock_wait(int fd, const char *path, unsigned int wait)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct timespec now, deadline;
	bool said = false;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += wait;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return uc_err(UC_EXIT_FAILED, "lock %s: %s; nothing changed", path,
				      strerror(errno));
		if (!said)
			uc_err(0, "waiting for %s: another usercapsctl is changing the policy (at most %u s, --wait)",
			       path, wait);
		said = true;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
			return uc_err(UC_EXIT_LOCKED,
				      "lock %s: still held after %u s; nothing changed (--wait SECONDS waits longer)",
				      path, wait);
		nanosleep(&pause, NULL);
	}
	return UC_EXIT_OK;
}

/*
 * Take the lock, or say why not; it is released when the process exits.
 * A run waits at most @wait seconds: a hung run must not hold up every
 * other one, the boot's included.
 */
int uc_lock(unsigned int wait)
{
	char *path = uc_strdupf("%s/run/usercapsctl.lock", uc_root());
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0 || fstat(fd, &st))
		return uc_err(UC_EXIT_FAILED, "lock %s: %s; nothing changed", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 0077))
		return uc_err(UC_EXIT_FAILED,
			      "lock %s: not a regular file of root's with mode 0600, so others may hold it: remove it; nothing changed",
			      path);
	return uc_lock_wait(fd, path, wait);
}
