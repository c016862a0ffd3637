// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the policy directory
 *
 * Reads the owner, group and mode of every capability file with stat(),
 * which needs no privilege, and changes them with chown and chmod, all or
 * nothing: a failure part-way restores what was read before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

/* Whether the comma-separated list in SECURITYFS/lsm names usercaps. */
static int uc_check_active(const char *securityfs)
{
	char *path = uc_strdupf("%s/lsm", securityfs), list[1024], copy[1024], *tok, *save;
	size_t len;
	FILE *f;

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

/* The entry of a capability file: 0, or -errno (-EINVAL if not a regular file). */
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

/* Every capability file this tool knows; others are left alone. */
static int uc_policy_read(struct uc_policy *p)
{
	bool any = false;
	int cap, err;

	for (cap = 0; cap < UC_NCAPS; cap++) {
		err = uc_stat_entry(p->dirfd, uc_cap_name(cap), &p->entry[cap]);
		p->present[cap] = !err;
		any |= !err;
		if (err == -EINVAL)
			return uc_err(UC_EXIT_FAILED, "%s/%s: not a regular file, so not a capability file",
				      p->dir, uc_cap_name(cap));
		if (err && err != -ENOENT)
			return uc_err(UC_EXIT_FAILED, "%s/%s: %s", p->dir, uc_cap_name(cap),
				      strerror(-err));
	}
	if (!any)
		return uc_err(UC_EXIT_INACTIVE, "%s holds no capability files", p->dir);
	return UC_EXIT_OK;
}

/**
 * uc_policy_open - Check that usercaps is active and read its policy
 * @p: Where to store the policy
 * @for_change: Check for root and take the lock (lock.c) first, so that
 *	what is read stays true until the change is made
 * @wait: How many seconds to wait for the lock
 *
 * Return: UC_EXIT_OK, or an exit status after saying why.
 */
int uc_policy_open(struct uc_policy *p, bool for_change, unsigned int wait)
{
	char *securityfs = uc_strdupf("%s/sys/kernel/security", uc_root());
	int status = uc_check_active(securityfs);

	if (!status && for_change)
		status = uc_require_root();
	if (!status && for_change)
		status = uc_lock(wait);
	if (status)
		return status;
	p->dir = uc_strdupf("%s/usercaps", securityfs);
	p->dirfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd < 0)
		return uc_err(UC_EXIT_INACTIVE, "usercaps is not active: %s: %s",
			      p->dir, strerror(errno));
	return uc_policy_read(p);
}

/* Every capability, at its default, for checking policy files offline. */
void uc_policy_offline(struct uc_policy *p)
{
	int cap;

	p->dirfd = -1;
	p->dir = "(none)";
	for (cap = 0; cap < UC_NCAPS; cap++) {
		p->present[cap] = true;
		p->entry[cap] = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
	}
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

/*
 * What an "excluded" line says: the user owns the file, or the group is
 * its group, without the execute bit, so that the class after it leaves
 * them out.
 */
void uc_entry_exclude(struct uc_entry *e, const struct uc_target *t)
{
	switch (t->class) {
	case UC_USER:
		e->owner = t->id;
		e->mode &= ~UC_OWNER_X;
		break;
	case UC_GROUP:
		e->group = t->id;
		e->mode &= ~UC_GROUP_X;
		break;
	case UC_OTHER:
		break;
	}
}

/*
 * The inverse of uc_entry_grant; false if @t held nothing to revoke. A
 * user who owns the file without its owner bit is the one user the
 * group and other classes leave out: already not granted. @in_group says
 * whether user @t is in the file's group.
 */
bool uc_entry_revoke(struct uc_entry *e, const struct uc_target *t, bool in_group)
{
	switch (t->class) {
	case UC_USER:
		if (e->owner != t->id || !(e->mode & UC_OWNER_X))
			return false;
		/* With root in its place, the other or group class would grant it. */
		if ((e->mode & UC_OTHER_X) || (in_group && (e->mode & UC_GROUP_X)))
			e->mode &= ~UC_OWNER_X;
		else
			e->owner = 0;
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
 * the old nor the new state grants to. No call follows a symlink. @p
 * keeps what the file holds now, also after a failure part-way.
 *
 * Return: 0 or -errno.
 */
static int uc_cap_set(struct uc_policy *p, int cap, const struct uc_entry *to)
{
	struct uc_entry *cur = &p->entry[cap];
	const char *name = uc_cap_name(cap);
	int err;

	if ((cur->mode & to->mode) != cur->mode) {
		if (fchmodat(p->dirfd, name, cur->mode & to->mode, AT_SYMLINK_NOFOLLOW))
			return -errno;
		cur->mode &= to->mode;
	}
	if (cur->owner != to->owner || cur->group != to->group) {
		if (fchownat(p->dirfd, name, to->owner, to->group, AT_SYMLINK_NOFOLLOW))
			return -errno;
		/* chown may have cleared set-id bits. */
		err = uc_stat_entry(p->dirfd, name, cur);
		if (err)
			return err;
	}
	if (cur->mode != to->mode) {
		if (fchmodat(p->dirfd, name, to->mode, AT_SYMLINK_NOFOLLOW))
			return -errno;
		cur->mode = to->mode;
	}
	return 0;
}

static bool uc_entry_eq(const struct uc_entry *a, const struct uc_entry *b)
{
	return a->owner == b->owner && a->group == b->group && a->mode == b->mode;
}

/* What a -errno of uc_cap_set() means. */
static const char *uc_cap_strerror(int err)
{
	return err == -EINVAL ? "no longer a regular file" : strerror(-err);
}

/* The message and exit status of a change that failed with -@err. */
static int uc_change_failed(const struct uc_policy *p, int cap, int err)
{
	if (err == -EPERM || err == -EACCES)
		return uc_err(UC_EXIT_REFUSED,
			      "%s/%s: %s: changing the usercaps policy needs CAP_MAC_ADMIN",
			      p->dir, uc_cap_name(cap), strerror(-err));
	return uc_err(UC_EXIT_FAILED, "%s/%s: %s", p->dir, uc_cap_name(cap), uc_cap_strerror(err));
}

/*
 * Give the files changed so far, up to @failed, the state read before, in
 * reverse order; the one that failed is read again first, as the failure
 * may have come after a part of its change. A step that fails does not
 * stop the others. Only then say what went wrong: a message to a closed
 * stderr must not come between a failure and its rollback.
 */
static int uc_rollback(struct uc_policy *p, const struct uc_entry *before, int failed, int err)
{
	int undo, undo_err[UC_NCAPS] = { 0 }, status;
	bool mixed = false;

	for (undo = failed; undo >= 0; undo--) {
		if (undo == failed)
			undo_err[undo] = uc_stat_entry(p->dirfd, uc_cap_name(undo), &p->entry[undo]);
		if (!undo_err[undo] && p->present[undo] && !uc_entry_eq(&p->entry[undo], &before[undo]))
			undo_err[undo] = uc_cap_set(p, undo, &before[undo]);
		mixed |= undo_err[undo] != 0;
	}
	status = uc_change_failed(p, failed, err);
	for (undo = failed; undo >= 0; undo--)
		if (undo_err[undo])
			uc_err(UC_EXIT_MIXED,
			       "%s/%s: cannot roll back: %s; the policy is now mixed ('usercapsctl list' shows it)",
			       p->dir, uc_cap_name(undo), uc_cap_strerror(undo_err[undo]));
	if (mixed)
		return UC_EXIT_MIXED;
	return uc_err(status, "rolled back: the policy is as it was before");
}

/**
 * uc_policy_commit - Make every capability file hold what @want says
 * @p: The policy as read, locked with uc_policy_open(p, true)
 * @want: One entry per capability
 *
 * Files that already agree are not touched. On a failure, the files
 * changed so far get back the state read before (uc_rollback). The change
 * and its rollback are one transaction: SIGINT, SIGTERM and SIGHUP wait
 * until it is over, and a closed stderr gives EPIPE instead of SIGPIPE.
 *
 * Return: UC_EXIT_OK; UC_EXIT_FAILED or UC_EXIT_REFUSED, rolled back;
 * UC_EXIT_MIXED if the rollback failed too; each after a message.
 */
int uc_policy_commit(struct uc_policy *p, const struct uc_entry *want)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old_pipe;
	struct uc_entry before[UC_NCAPS];
	sigset_t block, old_mask;
	int cap, err = 0, status = UC_EXIT_OK;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	sigaction(SIGPIPE, &ignore, &old_pipe);

	memcpy(before, p->entry, sizeof(before));
	for (cap = 0; cap < UC_NCAPS; cap++) {
		if (!p->present[cap] || uc_entry_eq(&p->entry[cap], &want[cap]))
			continue;
		err = uc_cap_set(p, cap, &want[cap]);
		if (err)
			break;
	}
	if (err)
		status = uc_rollback(p, before, cap, err);

	sigaction(SIGPIPE, &old_pipe, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return status;
}
