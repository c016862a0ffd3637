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

#include "usercapsctl.h"

/* Take the lock, or say why not; it is released when the process exits. */
int uc_lock(void)
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
	if (flock(fd, LOCK_EX))
		return uc_err(UC_EXIT_FAILED, "lock %s: %s; nothing changed", path, strerror(errno));
	return UC_EXIT_OK;
}
