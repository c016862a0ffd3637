// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - users and groups
 *
 * Names as chown takes them: a name first, then a number, so that a user
 * called "1000" means that user. Numbers without an entry are accepted,
 * as chown accepts them.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usercapsctl.h"

/* A decimal id below (id_t)-1, which chown reads as "unchanged". */
static bool uc_parse_id(const char *s, unsigned int *id)
{
	unsigned long n;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || n >= UINT_MAX)
		return false;
	*id = n;
	return true;
}

int uc_user_lookup(const char *s, uid_t *uid)
{
	struct passwd *pw = getpwnam(s);

	if (pw)
		*uid = pw->pw_uid;
	else if (!uc_parse_id(s, uid))
		return UC_EXIT_UNKNOWN_ID;
	return UC_EXIT_OK;
}

int uc_group_lookup(const char *s, gid_t *gid)
{
	struct group *gr = getgrnam(s);

	if (gr)
		*gid = gr->gr_gid;
	else if (!uc_parse_id(s, gid))
		return UC_EXIT_UNKNOWN_ID;
	return UC_EXIT_OK;
}

/**
 * uc_target_lookup - Resolve the user or group a grant names
 * @class: UC_USER, UC_GROUP or UC_OTHER (which names nobody: @s is NULL)
 * @s: The name or number
 * @t: Where to store the class and id
 * @where: Prefix of the error messages ("" or "FILE:LINE: ")
 *
 * Return: UC_EXIT_OK; UC_EXIT_UNKNOWN_ID, or UC_EXIT_USAGE for user root,
 * whose owner bit never grants, after a message.
 */
int uc_target_lookup(enum uc_class class, const char *s, struct uc_target *t,
		     const char *where)
{
	t->class = class;
	t->id = 0;
	switch (class) {
	case UC_USER:
		if (uc_user_lookup(s, &t->id))
			return uc_err(UC_EXIT_UNKNOWN_ID, "%sunknown user '%s'", where, s);
		if (t->id == 0)
			return uc_err(UC_EXIT_USAGE,
				      "%suser %s: root holds capabilities through its own sets; the owner bit of a root-owned file never grants",
				      where, s);
		break;
	case UC_GROUP:
		if (uc_group_lookup(s, &t->id))
			return uc_err(UC_EXIT_UNKNOWN_ID, "%sunknown group '%s'", where, s);
		break;
	case UC_OTHER:
		break;
	}
	return UC_EXIT_OK;
}

/* A few static buffers, so that one printf can show several names. */
static char *uc_name_buf(void)
{
	static char bufs[4][64];
	static unsigned int next;

	return bufs[next++ % 4];
}

/* The user's name, or its number if it has no entry. */
const char *uc_user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	char *buf = uc_name_buf();

	if (pw)
		snprintf(buf, 64, "%s", pw->pw_name);
	else
		snprintf(buf, 64, "%u", uid);
	return buf;
}

const char *uc_group_name(gid_t gid)
{
	struct group *gr = getgrgid(gid);
	char *buf = uc_name_buf();

	if (gr)
		snprintf(buf, 64, "%s", gr->gr_name);
	else
		snprintf(buf, 64, "%u", gid);
	return buf;
}

/* "user alice", "group audio" or "other", as a policy file says it. */
const char *uc_target_str(const struct uc_target *t)
{
	char *buf = uc_name_buf();

	switch (t->class) {
	case UC_USER:
		snprintf(buf, 64, "user %s", uc_user_name(t->id));
		break;
	case UC_GROUP:
		snprintf(buf, 64, "group %s", uc_group_name(t->id));
		break;
	case UC_OTHER:
		snprintf(buf, 64, "other");
		break;
	}
	return buf;
}
