// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - showing who holds what: list and check
 *
 * The same rule as the kernel's usercaps_entry_grants(): the execute bit
 * of one class decides, the owner's if the user owns the file, else the
 * group's if it is in the file's group, else the others'; a root-owned
 * file's owner bit never grants.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "usercapsctl.h"

/* Who holds a capability, in words: "group audio", "others but group x". */
static char *uc_holders(const struct uc_entry *e)
{
	unsigned int granted = uc_grantees(e);
	const char *sep = "";
	char *buf = NULL;
	size_t size;
	FILE *out = open_memstream(&buf, &size);

	if (!out)
		return NULL;
	if (!granted)
		fputs("-", out);
	if (granted & UC_OWNER_X) {
		fprintf(out, "user %s", uc_user_name(e->owner));
		sep = ", ";
	}
	if (granted & UC_GROUP_X) {
		fprintf(out, "%sgroup %s", sep, uc_group_name(e->group));
		sep = ", ";
	}
	if (granted & UC_OTHER_X) {
		fprintf(out, "%sothers", sep);
		if (!(granted & UC_GROUP_X))
			fprintf(out, " but group %s", uc_group_name(e->group));
	}
	if (granted && e->owner && !(granted & UC_OWNER_X))
		fprintf(out, " (not user %s)", uc_user_name(e->owner));
	fclose(out);
	return buf;
}

void uc_list_table(const struct uc_policy *p)
{
	const struct uc_entry *e;
	char *holders;
	int cap;

	printf("%-20s %-12s %-12s %-5s %s\n", "CAPABILITY", "OWNER", "GROUP", "MODE", "HELD BY");
	for (cap = 0; cap < UC_NCAPS; cap++) {
		if (!p->present[cap])
			continue;
		e = &p->entry[cap];
		holders = uc_holders(e);
		printf("%-20s %-12s %-12s %04o  %s\n", uc_cap_name(cap),
		       uc_user_name(e->owner), uc_group_name(e->group), e->mode,
		       holders ? holders : "?");
		free(holders);
	}
}

static void uc_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* "name": "x" for an id that has a name, "name": null for one that has not. */
static void uc_json_name(const char *key, const char *name)
{
	printf(", \"%s\": ", key);
	if (name)
		uc_json_string(name);
	else
		fputs("null", stdout);
}

void uc_list_json(const struct uc_policy *p)
{
	static const char *const classes[] = { "owner", "group", "other" };
	static const unsigned int bits[] = { UC_OWNER_X, UC_GROUP_X, UC_OTHER_X };
	const struct uc_entry *e;
	const char *sep = "", *class_sep;
	char *holders;
	size_t i;
	int cap;

	printf("{\"capabilities\": [");
	for (cap = 0; cap < UC_NCAPS; cap++) {
		if (!p->present[cap])
			continue;
		e = &p->entry[cap];
		printf("%s\n  {\"name\": ", sep);
		uc_json_string(uc_cap_name(cap));
		printf(", \"owner\": %u", e->owner);
		uc_json_name("owner_name", uc_id_entry(UC_USER, e->owner));
		printf(", \"group\": %u", e->group);
		uc_json_name("group_name", uc_id_entry(UC_GROUP, e->group));
		printf(", \"mode\": \"%04o\", \"granted\": [", e->mode);
		class_sep = "";
		for (i = 0; i < 3; i++) {
			if (uc_grantees(e) & bits[i]) {
				printf("%s\"%s\"", class_sep, classes[i]);
				class_sep = ", ";
			}
		}
		holders = uc_holders(e);
		printf("], \"held_by\": ");
		uc_json_string(holders ? holders : "?");
		free(holders);
		putchar('}');
		sep = ",";
	}
	printf("\n]}\n");
}

static bool uc_in_groups(gid_t gid, const gid_t *groups, int ngroups)
{
	int i;

	for (i = 0; i < ngroups; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/**
 * uc_check - Say whether a user would hold a capability, and why
 * @p: The policy
 * @cap: The capability's index
 * @user: A user name or number, or NULL for the caller's real uid
 *
 * The user's groups are its primary group and those getgrouplist() finds,
 * as a login gives them. A number without a passwd entry is in no group.
 *
 * Return: UC_EXIT_OK if the user holds the capability, through usercaps
 * or as root; UC_EXIT_NOT_HELD if not; that of uc_id_resolve().
 */
int uc_check(const struct uc_policy *p, int cap, const char *user)
{
	const struct uc_entry *e = &p->entry[cap];
	const char *name = uc_cap_name(cap), *who;
	static gid_t groups[65536];	/* NGROUPS_MAX of the kernel */
	int ngroups = 0;
	struct passwd *pw;
	bool held;
	uid_t uid = getuid();
	int status = user ? uc_id_resolve(UC_USER, user, &uid, "") : UC_EXIT_OK;

	if (status)
		return status;
	pw = getpwuid(uid);
	if (pw) {
		ngroups = sizeof(groups) / sizeof(groups[0]);
		if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &ngroups) < 0)
			return uc_err(UC_EXIT_FAILED, "%s: too many groups", pw->pw_name);
	}
	who = uc_user_name(uid);

	if (uid == e->owner) {
		held = uid != 0 && (e->mode & UC_OWNER_X);
		printf("%s %s %s through usercaps: %s owns the file, so the owner class decides, and %s\n",
		       who, held ? "holds" : "does not hold", name, who,
		       uid == 0 ? "a root-owned file's owner bit never grants" :
		       held ? "the mode has u+x" : "the mode has no u+x");
	} else if (uc_in_groups(e->group, groups, ngroups)) {
		held = e->mode & UC_GROUP_X;
		printf("%s %s %s through usercaps: %s is in group %s (%s), so the group class decides, and the mode has %s\n",
		       who, held ? "holds" : "does not hold", name, who, uc_group_name(e->group),
		       pw->pw_gid == e->group ? "its primary group" : "a supplementary group",
		       held ? "g+x" : "no g+x");
	} else {
		held = e->mode & UC_OTHER_X;
		printf("%s %s %s through usercaps: %s is neither the owner %s nor in group %s, so the other class decides, and the mode has %s\n",
		       who, held ? "holds" : "does not hold", name, who, uc_user_name(e->owner),
		       uc_group_name(e->group), held ? "o+x" : "no o+x");
	}
	if (uid == 0)
		printf("%s holds %s anyway: uid 0 has every capability in its own capability sets\n",
		       who, name);
	return held || uid == 0 ? UC_EXIT_OK : UC_EXIT_NOT_HELD;
}
