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

/* The passwd or group entry's name of @id, or NULL if it has none. */
const char *uc_id_entry(enum uc_class class, unsigned int id)
{
	struct passwd *pw;
	struct group *gr;

	if (class == UC_USER) {
		pw = getpwuid(id);
		return pw ? pw->pw_name : NULL;
	}
	gr = getgrgid(id);
	return gr ? gr->gr_name : NULL;
}

static bool uc_id_by_name(enum uc_class class, const char *s, unsigned int *id)
{
	struct passwd *pw;
	struct group *gr;

	if (class == UC_USER) {
		pw = getpwnam(s);
		if (pw)
			*id = pw->pw_uid;
		return pw;
	}
	gr = getgrnam(s);
	if (gr)
		*id = gr->gr_gid;
	return gr;
}

/* A user (UC_USER) or group (UC_GROUP) by name or number. */
int uc_id_lookup(enum uc_class class, const char *s, unsigned int *id)
{
	if (uc_id_by_name(class, s, id) || uc_parse_id(s, id))
		return UC_EXIT_OK;
	return UC_EXIT_UNKNOWN_ID;
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
		if (uc_id_lookup(UC_USER, s, &t->id))
			return uc_err(UC_EXIT_UNKNOWN_ID, "%sunknown user '%s'", where, s);
		if (t->id == 0)
			return uc_err(UC_EXIT_USAGE,
				      "%suser %s: root holds capabilities through its own sets; the owner bit of a root-owned file never grants",
				      where, s);
		break;
	case UC_GROUP:
		if (uc_id_lookup(UC_GROUP, s, &t->id))
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

/* The name of a user or group id, or its number if it has none. */
static const char *uc_id_name(enum uc_class class, unsigned int id)
{
	const char *name = uc_id_entry(class, id);
	char *buf = uc_name_buf();

	if (name)
		snprintf(buf, 64, "%s", name);
	else
		snprintf(buf, 64, "%u", id);
	return buf;
}

const char *uc_user_name(uid_t uid)
{
	return uc_id_name(UC_USER, uid);
}

const char *uc_group_name(gid_t gid)
{
	return uc_id_name(UC_GROUP, gid);
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
