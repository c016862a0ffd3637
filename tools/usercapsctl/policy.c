// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the policy directory
 *
 * Reads the owner, group and mode of every capability file with stat(),
 * which needs no privilege, and changes them with chown and chmod, all or
 * nothing: a failure part-way restores what was read before.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

/* Where securityfs is mounted; host-side tests point it at a fake tree. */
static const char *uc_securityfs(void)
{
	const char *dir = getenv("USERCAPS_SECURITYFS");

	return dir && *dir ? dir : "/sys/kernel/security";
}

/* Whether the comma-separated list in SECURITYFS/lsm names usercaps. */
static int uc_check_active(const char *securityfs)
{
	char path[4096], list[1024], copy[1024], *tok, *save;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lsm", securityfs);
	f = fopen(path, "re");
	if (!f)
		return uc_err(UC_EXIT_INACTIVE, "usercaps is not active: cannot read %s: %s",
			      path, strerror(errno));
	len = fread(list, 1, sizeof(list) - 1, f);
	fclose(f);
	list[len] = '\0';
	list[strcspn(list, "\n")] = '\0';
	strcpy(copy, list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "usercaps"))
			return UC_EXIT_OK;
	return uc_err(UC_EXIT_INACTIVE,
		      "usercaps is not active in this kernel: %s lists only %s (boot with usercaps in lsm=)",
		      path, len ? list : "nothing");
}

static int uc_cap_cmp(const void *a, const void *b)
{
	return strcmp(((const struct uc_cap *)a)->name,
		      ((const struct uc_cap *)b)->name);
}

static int uc_stat_entry(int dirfd, const char *name, struct uc_entry *e)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	e->owner = st.st_uid;
	e->group = st.st_gid;
	e->mode = st.st_mode & 07777;
	return 0;
}

/* Every regular file but "grants" and "mode" is a capability. */
static int uc_policy_read(struct uc_policy *p)
{
	struct dirent *d;
	DIR *dir;
	int fd = dup(p->dirfd);

	if (fd < 0 || !(dir = fdopendir(fd)))
		return uc_err(UC_EXIT_FAILED, "%s: %s", p->dir, strerror(errno));
	p->ncaps = 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "grants") ||
		    !strcmp(d->d_name, "mode"))
			continue;
		if (p->ncaps == UC_MAX_CAPS || strlen(d->d_name) >= UC_NAME_MAX) {
			closedir(dir);
			return uc_err(UC_EXIT_FAILED, "%s: unexpected file %s", p->dir, d->d_name);
		}
		strcpy(p->caps[p->ncaps].name, d->d_name);
		if (uc_stat_entry(p->dirfd, d->d_name, &p->caps[p->ncaps].entry)) {
			closedir(dir);
			return uc_err(UC_EXIT_FAILED, "%s/%s: not a capability file",
				      p->dir, d->d_name);
		}
		p->ncaps++;
	}
	closedir(dir);
	if (!p->ncaps)
		return uc_err(UC_EXIT_INACTIVE, "%s holds no capability files", p->dir);
	qsort(p->caps, p->ncaps, sizeof(p->caps[0]), uc_cap_cmp);
	return UC_EXIT_OK;
}

/**
 * uc_policy_open - Check that usercaps is active and read its policy
 * @p: Where to store the policy
 * @for_change: Lock the directory first, so that two usercapsctl runs do
 *	not interleave their changes or roll back each other's
 *
 * Return: UC_EXIT_OK, or an exit status after saying why.
 */
int uc_policy_open(struct uc_policy *p, bool for_change)
{
	const char *securityfs = uc_securityfs();
	int status = uc_check_active(securityfs);

	if (status)
		return status;
	snprintf(p->dir, sizeof(p->dir), "%s/usercaps", securityfs);
	p->dirfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd < 0)
		return uc_err(UC_EXIT_INACTIVE, "usercaps is not active: %s: %s",
			      p->dir, strerror(errno));
	if (for_change && flock(p->dirfd, LOCK_EX))
		return uc_err(UC_EXIT_FAILED, "%s: lock: %s", p->dir, strerror(errno));
	return uc_policy_read(p);
}

/* The index of the capability file NAME, exactly, or -1. */
int uc_cap_find(const struct uc_policy *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ncaps; i++)
		if (!strcmp(p->caps[i].name, name))
			return i;
	return -1;
}

/**
 * uc_cap_lookup - Find a capability by any of its spellings
 * @p: The policy
 * @name: sys_nice, CAP_SYS_NICE or cap_sys_nice, in any case
 * @cap: Where to store its index
 *
 * Return: UC_EXIT_OK, or UC_EXIT_UNKNOWN_CAP without a message.
 */
int uc_cap_lookup(const struct uc_policy *p, const char *name, int *cap)
{
	char lower[UC_NAME_MAX + 4];
	size_t i;

	if (strlen(name) >= sizeof(lower))
		return UC_EXIT_UNKNOWN_CAP;
	for (i = 0; name[i]; i++)
		lower[i] = tolower((unsigned char)name[i]);
	lower[i] = '\0';
	*cap = uc_cap_find(p, strncmp(lower, "cap_", 4) ? lower : lower + 4);
	return *cap < 0 ? UC_EXIT_UNKNOWN_CAP : UC_EXIT_OK;
}

/*
 * The classes whose execute bit grants to someone, as the kernel's
 * "granted=": the owner bit of a root-owned file never grants.
 */
unsigned int uc_grantees(const struct uc_entry *e)
{
	unsigned int bits = e->mode & (UC_GROUP_X | UC_OTHER_X);

	if (e->owner != 0)
		bits |= e->mode & UC_OWNER_X;
	return bits;
}

bool uc_entry_is_default(const struct uc_entry *e)
{
	return !e->owner && !e->group && e->mode == UC_DEFAULT_MODE;
}

/*
 * A grant is what "chown U" or "chgrp G; chmod g+x" or "chmod o+x" does to
 * the file; one file has one owner and one group, so a grant to another
 * user or group replaces the one before.
 */
void uc_entry_grant(struct uc_entry *e, const struct uc_target *t)
{
	switch (t->class) {
	case UC_USER:
		e->owner = t->id;
		e->mode |= UC_OWNER_X;
		break;
	case UC_GROUP:
		e->group = t->id;
		e->mode |= UC_GROUP_X;
		break;
	case UC_OTHER:
		e->mode |= UC_OTHER_X;
		break;
	}
}

/* The inverse of uc_entry_grant; false if @t held nothing to revoke. */
bool uc_entry_revoke(struct uc_entry *e, const struct uc_target *t)
{
	switch (t->class) {
	case UC_USER:
		if (e->owner != t->id)
			return false;
		e->owner = 0;
		e->mode |= UC_OWNER_X;
		return true;
	case UC_GROUP:
		if (e->group != t->id || !(e->mode & UC_GROUP_X))
			return false;
		e->group = 0;
		e->mode &= ~UC_GROUP_X;
		return true;
	case UC_OTHER:
		if (!(e->mode & UC_OTHER_X))
			return false;
		e->mode &= ~UC_OTHER_X;
		return true;
	}
	return false;
}

int uc_require_root(void)
{
	if (geteuid() != 0)
		return uc_err(UC_EXIT_NOT_ROOT,
			      "changing the policy needs root (uid %u is not)", geteuid());
	return UC_EXIT_OK;
}

/*
 * Take away the bits that go first, then change owner and group, then add
 * the new bits: at no moment does the file grant to anyone whom neither
 * the old nor the new state grants to. @p keeps what the file holds now,
 * also after a failure part-way.
 */
static int uc_cap_set(struct uc_policy *p, int cap, const struct uc_entry *to)
{
	struct uc_entry *cur = &p->caps[cap].entry;
	const char *name = p->caps[cap].name;

	if ((cur->mode & to->mode) != cur->mode) {
		if (fchmodat(p->dirfd, name, cur->mode & to->mode, 0))
			return -errno;
		cur->mode &= to->mode;
	}
	if (cur->owner != to->owner || cur->group != to->group) {
		if (fchownat(p->dirfd, name, to->owner, to->group, AT_SYMLINK_NOFOLLOW))
			return -errno;
		/* chown may have cleared set-id bits. */
		if (uc_stat_entry(p->dirfd, name, cur))
			return -errno;
	}
	if (cur->mode != to->mode) {
		if (fchmodat(p->dirfd, name, to->mode, 0))
			return -errno;
		cur->mode = to->mode;
	}
	return 0;
}

static bool uc_entry_eq(const struct uc_entry *a, const struct uc_entry *b)
{
	return a->owner == b->owner && a->group == b->group && a->mode == b->mode;
}

/**
 * uc_policy_commit - Make every capability file hold what @want says
 * @p: The policy as read, locked with uc_policy_open(p, true)
 * @want: One entry per capability of @p
 *
 * Files that already agree are not touched. On a failure, the files
 * changed so far get back the state read before, in reverse order.
 *
 * Return: UC_EXIT_OK; UC_EXIT_NOT_ROOT or UC_EXIT_FAILED after a message.
 */
int uc_policy_commit(struct uc_policy *p, const struct uc_entry *want)
{
	struct uc_entry before[UC_MAX_CAPS];
	int cap, err = 0, undo, status;

	for (cap = 0; cap < (int)p->ncaps; cap++)
		before[cap] = p->caps[cap].entry;
	for (cap = 0; cap < (int)p->ncaps; cap++) {
		if (uc_entry_eq(&p->caps[cap].entry, &want[cap]))
			continue;
		err = uc_cap_set(p, cap, &want[cap]);
		if (err)
			break;
	}
	if (!err)
		return UC_EXIT_OK;

	status = uc_err(err == -EPERM || err == -EACCES ? UC_EXIT_NOT_ROOT : UC_EXIT_FAILED,
			"%s/%s: %s", p->dir, p->caps[cap].name, strerror(-err));
	for (undo = cap; undo >= 0; undo--) {
		if (uc_entry_eq(&p->caps[undo].entry, &before[undo]))
			continue;
		err = uc_cap_set(p, undo, &before[undo]);
		if (err) {
			uc_err(status, "%s/%s: cannot roll back: %s; the policy is now mixed",
			       p->dir, p->caps[undo].name, strerror(-err));
			return status;
		}
	}
	uc_err(status, "rolled back: the policy is as it was before");
	return status;
}
