// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl-fault - fault injection for usercapsctl-host.t (LD_PRELOAD)
 *
 * USERCAPS_FAULT="CALL:N:ACTION[,CALL:N:ACTION...]" makes the Nth call of
 * CALL (fchmodat, fchownat, getpwnam_r, getgrnam_r, read, scandirat or
 * fsync) in the process do ACTION:
 *
 *	EPERM, EACCES, EIO, EROFS  fail with that errno, changing nothing
 *	SIGINT, SIGTERM, SIGHUP  first send the process that signal, as a
 *	              user's ^C or a shutdown would
 *	symlink=PATH  first replace the file by a symlink to PATH, as a race
 *	              against the tool would
 *	fifo          do the call, then replace the file by a FIFO
 *
 * getpwnam_r and getgrnam_r take only an errno, which they return, as a
 * failing NSS module makes them; read, scandirat and fsync only an errno,
 * with which they fail.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	int err;
} fault_errnos[] = {
	{ "EPERM", EPERM }, { "EACCES", EACCES }, { "EIO", EIO }, { "EROFS", EROFS },
	{ "ENOMEM", ENOMEM },
};

static const struct {
	const char *name;
	int sig;
} fault_signals[] = {
	{ "SIGINT", SIGINT }, { "SIGTERM", SIGTERM }, { "SIGHUP", SIGHUP },
};

/* The action for the @n-th call of @call, or NULL. */
static const char *fault_action(const char *call, unsigned int n)
{
	static char rule[256];
	const char *spec = getenv("USERCAPS_FAULT");
	char *save, *tok, *c, *num;

	if (!spec || strlen(spec) >= sizeof(rule))
		return NULL;
	strcpy(rule, spec);
	for (tok = strtok_r(rule, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		c = strtok(tok, ":");
		num = strtok(NULL, ":");
		if (c && num && !strcmp(c, call) && strtoul(num, NULL, 10) == n)
			return strtok(NULL, "");
	}
	return NULL;
}

/* Do the part of @action that comes before the call; -1 with errno to fail it. */
static int fault_before(const char *action, int dirfd, const char *name)
{
	size_t i;

	if (!strncmp(action, "symlink=", 8)) {
		unlinkat(dirfd, name, 0);
		return symlinkat(action + 8, dirfd, name);
	}
	for (i = 0; i < sizeof(fault_errnos) / sizeof(fault_errnos[0]); i++) {
		if (!strcmp(action, fault_errnos[i].name)) {
			errno = fault_errnos[i].err;
			return -1;
		}
	}
	for (i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		if (!strcmp(action, fault_signals[i].name))
			raise(fault_signals[i].sig);
	return 0;
}

static void fault_after(const char *action, int dirfd, const char *name)
{
	if (!strcmp(action, "fifo")) {
		unlinkat(dirfd, name, 0);
		mkfifoat(dirfd, name, 0100);
	}
}

int fchmodat(int dirfd, const char *name, mode_t mode, int flags)
{
	static unsigned int calls;
	int (*real)(int, const char *, mode_t, int) = dlsym(RTLD_NEXT, "fchmodat");
	const char *action = fault_action("fchmodat", ++calls);
	int ret;

	if (action && fault_before(action, dirfd, name))
		return -1;
	ret = real(dirfd, name, mode, flags);
	if (action && !ret)
		fault_after(action, dirfd, name);
	return ret;
}

int fchownat(int dirfd, const char *name, uid_t owner, gid_t group, int flags)
{
	static unsigned int calls;
	int (*real)(int, const char *, uid_t, gid_t, int) = dlsym(RTLD_NEXT, "fchownat");
	const char *action = fault_action("fchownat", ++calls);
	int ret;

	if (action && fault_before(action, dirfd, name))
		return -1;
	ret = real(dirfd, name, owner, group, flags);
	if (action && !ret)
		fault_after(action, dirfd, name);
	return ret;
}

/* The errno that the @n-th call of @call is to return, or 0. */
static int fault_errno(const char *call, unsigned int n)
{
	const char *action = fault_action(call, n);
	size_t i;

	for (i = 0; action && i < sizeof(fault_errnos) / sizeof(fault_errnos[0]); i++)
		if (!strcmp(action, fault_errnos[i].name))
			return fault_errnos[i].err;
	return 0;
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t size,
	       struct passwd **result)
{
	static unsigned int calls;
	int (*real)(const char *, struct passwd *, char *, size_t, struct passwd **) =
		dlsym(RTLD_NEXT, "getpwnam_r");
	int err = fault_errno("getpwnam_r", ++calls);

	*result = NULL;
	return err ? err : real(name, pw, buf, size, result);
}

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t size,
	       struct group **result)
{
	static unsigned int calls;
	int (*real)(const char *, struct group *, char *, size_t, struct group **) =
		dlsym(RTLD_NEXT, "getgrnam_r");
	int err = fault_errno("getgrnam_r", ++calls);

	*result = NULL;
	return err ? err : real(name, gr, buf, size, result);
}

ssize_t read(int fd, void *buf, size_t size)
{
	static unsigned int calls;
	ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");
	int err = fault_errno("read", ++calls);

	if (err) {
		errno = err;
		return -1;
	}
	return real(fd, buf, size);
}

int scandirat(int dirfd, const char *dir, struct dirent ***names,
	      int (*filter)(const struct dirent *),
	      int (*cmp)(const struct dirent **, const struct dirent **))
{
	static unsigned int calls;
	int (*real)(int, const char *, struct dirent ***, int (*)(const struct dirent *),
		    int (*)(const struct dirent **, const struct dirent **)) =
		dlsym(RTLD_NEXT, "scandirat");
	int err = fault_errno("scandirat", ++calls);

	if (err) {
		errno = err;
		return -1;
	}
	return real(dirfd, dir, names, filter, cmp);
}

int fsync(int fd)
{
	static unsigned int calls;
	int (*real)(int) = dlsym(RTLD_NEXT, "fsync");
	int err = fault_errno("fsync", ++calls);

	if (err) {
		errno = err;
		return -1;
	}
	return real(fd);
}
