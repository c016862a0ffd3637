// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - users and groups
 *
 * Names as GNU chown takes them: "+N" is the number N, never a name; a
 * plain word is a name first, then a number, so that a user called
 * "1000" means that user. A number without a passwd or group entry is
 * accepted, as chown accepts it, with a warning. Names are never
 * truncated: a grant must not go to the user named by a prefix.
 */
#define _GNU_SOURCE
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

/*
 * Look up a name with getpwnam_r or getgrnam_r, which tell "no such
 * entry" (0, and no result) from a failure of the database (an error
 * number, e.g. from an LDAP module): 0, -ENOENT, or that error number.
 */
static int uc_id_by_name(enum uc_class class, const char *s, unsigned int *id)
{
	struct passwd pw, *pwr = NULL;
	struct group gr, *grr = NULL;
	size_t size = 1024;
	char *buf = NULL;
	int err;

	do {
		size *= 2;
		free(buf);
		buf = malloc(size);
		if (!buf)
			exit(uc_err(UC_EXIT_FAILED, "out of memory"));
		if (class == UC_USER)
			err = getpwnam_r(s, &pw, buf, size, &pwr);
		else
			err = getgrnam_r(s, &gr, buf, size, &grr);
	} while (err == ERANGE && size < 1 << 20);
	if (pwr)
		*id = pwr->pw_uid;
	if (grr)
		*id = grr->gr_gid;
	free(buf);
	if (err)
		return err;
	return pwr || grr ? 0 : -ENOENT;
}

/**
 * uc_id_lookup - A user (UC_USER) or group (UC_GROUP) by name or number
 * @class: UC_USER or UC_GROUP
 * @s: "+N", or a name, or a number
 * @id: Where to store the id
 *
 * Return: UC_EXIT_OK; UC_EXIT_USAGE for a name longer than
 * UC_ID_NAME_MAX, which is never looked up; UC_EXIT_UNKNOWN_ID;
 * UC_EXIT_FAILED, with errno set, if the database failed: a name that
 * it could not look up is not taken for a number.
 */
int uc_id_lookup(enum uc_class class, const char *s, unsigned int *id)
{
	int err;

	if (strlen(s) > UC_ID_NAME_MAX)
		return UC_EXIT_USAGE;
	if (s[0] == '+')
		return uc_parse_id(s + 1, id) ? UC_EXIT_OK : UC_EXIT_UNKNOWN_ID;
	err = uc_id_by_name(class, s, id);
	if (err > 0) {
		errno = err;
		return UC_EXIT_FAILED;
	}
	if (!err || uc_parse_id(s, id))
		return UC_EXIT_OK;
	return UC_EXIT_UNKNOWN_ID;
}

/* uc_id_lookup, saying what went wrong; @where prefixes the messages. */
int uc_id_resolve(enum uc_class class, const char *s, unsigned int *id, const char *where)
{
	const char *what = class == UC_USER ? "user" : "group";
	int status = uc_id_lookup(class, s, id);

	if (status == UC_EXIT_USAGE)
		return uc_err(*where ? UC_EXIT_BAD_FILE : UC_EXIT_USAGE,
			      "%sa %s name of %zu bytes: longer than %d", where, what, strlen(s),
			      UC_ID_NAME_MAX);
	if (status == UC_EXIT_FAILED)
		return uc_err(status, "%slooking up %s '%s': %s", where, what, s, strerror(errno));
	if (status)
		return uc_err(status, "%sunknown %s '%s'", where, what, s);
	if (!uc_id_entry(class, *id))
		uc_err(0, "%swarning: %s %u has no %s entry", where, what, *id,
		       class == UC_USER ? "passwd" : "group");
	return UC_EXIT_OK;
}

/**
 * uc_target_lookup - Resolve the user or group a grant names
 * @class: UC_USER, UC_GROUP or UC_OTHER (which names nobody: @s is NULL)
 * @s: The name or number
 * @t: Where to store the class and id
 * @where: Prefix of the messages ("" or "FILE:LINE: ")
 *
 * Return: UC_EXIT_OK; UC_EXIT_UNKNOWN_ID; UC_EXIT_USAGE for user root,
 * whose owner bit never grants, or an overlong name (UC_EXIT_BAD_FILE in
 * a file); each after a message.
 */
int uc_target_lookup(enum uc_class class, const char *s, struct uc_target *t,
		     const char *where)
{
	int status;

	t->class = class;
	t->id = 0;
	if (class == UC_OTHER)
		return UC_EXIT_OK;
	status = uc_id_resolve(class, s, &t->id, where);
	if (!status && class == UC_USER && t->id == 0)
		return uc_err(UC_EXIT_USAGE,
			      "%suser %s: root holds capabilities through its own sets; the owner bit of a root-owned file never grants",
			      where, s);
	return status;
}

/* Whether @uid is in group @gid, as a login puts it: primary or supplementary. */
bool uc_user_in_group(uid_t uid, gid_t gid)
{
	static gid_t groups[65536];	/* NGROUPS_MAX of the kernel */
	struct passwd *pw = getpwuid(uid);
	int i, n = sizeof(groups) / sizeof(groups[0]);

	if (!pw || getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/*
 * A few strings that live until they are reused, so that one printf can
 * show several names, however long.
 */
static const char *uc_keep(char *s)
{
	static char *kept[8];
	static unsigned int next;
	char **slot = &kept[next++ % 8];

	free(*slot);
	*slot = s;
	return s;
}

/* The name of a user or group id, or its number if it has none. */
static const char *uc_id_name(enum uc_class class, unsigned int id)
{
	const char *name = uc_id_entry(class, id);

	return uc_keep(name ? uc_strdupf("%s", name) : uc_strdupf("%u", id));
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
	switch (t->class) {
	case UC_USER:
		return uc_keep(uc_strdupf("user %s", uc_user_name(t->id)));
	case UC_GROUP:
		return uc_keep(uc_strdupf("group %s", uc_group_name(t->id)));
	case UC_OTHER:
		break;
	}
	return "other";
}

/**
 * uc_id_word - How a policy file names an id so that it reads back as it
 * @class: UC_USER or UC_GROUP
 * @id: The id
 *
 * Return: the entry's name if it is one word that uc_id_lookup() maps back
 * to @id, else "+ID".
 */
const char *uc_id_word(enum uc_class class, unsigned int id)
{
	const char *name = uc_id_entry(class, id), *c;
	unsigned int back;
	char *s;

	if (!name)
		return uc_keep(uc_strdupf("+%u", id));
	/* A copy: the lookup below reuses the static entry @name is in. */
	s = uc_strdupf("%s", name);
	for (c = s; *c && (unsigned char)*c > ' ' && *c != '#' && *c != 0x7f; c++)
		;
	if (!*c && s[0] != '+' && !uc_id_lookup(class, s, &back) && back == id)
		return uc_keep(s);
	free(s);
	return uc_keep(uc_strdupf("+%u", id));
}
