// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - policy files
 *
 * One grant per line, "#" to the end of a line is a comment:
 *
 *	CAP user NAME [force]
 *	CAP group NAME [force]
 *	CAP other [force]
 *
 * A capability the file does not name is reset to its default, so that a
 * file is the whole policy: applying it twice, or at every boot, gives the
 * same result whatever was there before. "force" acknowledges a grant
 * that usercapsctl would otherwise refuse (see risk.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usercapsctl.h"

#define UC_MAX_WORDS 5

static const char *const uc_class_words[] = {
	[UC_USER] = "user",
	[UC_GROUP] = "group",
	[UC_OTHER] = "other",
};

/* What the file says so far about one capability: a line per class. */
struct uc_listed {
	unsigned int line[3];
	struct uc_target target[3];
};

static int uc_class_parse(const char *word, enum uc_class *class)
{
	int i;

	for (i = UC_USER; i <= UC_OTHER; i++) {
		if (!strcmp(word, uc_class_words[i])) {
			*class = i;
			return 0;
		}
	}
	return -1;
}

/* Split @line at blanks, dropping a comment; returns the number of words. */
static int uc_split(char *line, char **words)
{
	char *save, *word;
	int n = 0;

	line[strcspn(line, "#")] = '\0';
	for (word = strtok_r(line, " \t\r\n", &save); word;
	     word = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == UC_MAX_WORDS)
			return n + 1;
		words[n++] = word;
	}
	return n;
}

/*
 * Check one line and record it in @listed. Returns UC_EXIT_OK or the
 * status of its error, after a message that starts with @where.
 */
static int uc_config_line(const struct uc_policy *p, char *line, const char *where,
			  unsigned int lineno, bool force, struct uc_listed *listed)
{
	char *words[UC_MAX_WORDS];
	const char *risk;
	enum uc_class class;
	struct uc_target t;
	int n = uc_split(line, words), cap, status, need;
	struct uc_listed *l;

	if (!n)
		return UC_EXIT_OK;
	if (n < 2 || uc_class_parse(words[1], &class))
		return uc_err(UC_EXIT_BAD_FILE,
			      "%sexpected 'CAP user NAME', 'CAP group NAME' or 'CAP other', optionally followed by 'force'",
			      where);
	need = class == UC_OTHER ? 2 : 3;
	if (n > need + 1 || (n == need + 1 && strcmp(words[need], "force")) || n < need)
		return uc_err(UC_EXIT_BAD_FILE, "%s'%s %s' takes %s, then optionally 'force'",
			      where, words[0], words[1],
			      class == UC_OTHER ? "nothing" : "one name or number");
	if (uc_cap_lookup(p, words[0], &cap))
		return uc_err(UC_EXIT_UNKNOWN_CAP, "%sunknown capability '%s'", where, words[0]);
	status = uc_target_lookup(class, class == UC_OTHER ? NULL : words[2], &t, where);
	if (status)
		return status;
	l = &listed[cap];
	if (l->line[class])
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s%s already has a %s on line %u: a capability file has one owner, one group and one other class",
			      where, p->caps[cap].name, uc_class_words[class], l->line[class]);
	risk = uc_cap_risk(p->caps[cap].name);
	if (risk && !force && n != need + 1)
		return uc_err(UC_EXIT_DANGEROUS,
			      "%srefusing to grant %s without 'force' at the end of the line or --force: its holder %s",
			      where, p->caps[cap].name, risk);
	l->line[class] = lineno;
	l->target[class] = t;
	return UC_EXIT_OK;
}

/**
 * uc_config_read - Parse and check a whole policy file
 * @p: The policy, for the capability names
 * @path: The file, or "-" for standard input
 * @force: Accept dangerous grants without "force" on their lines
 * @want: Where to store the resulting entry of every capability
 *
 * Every line is checked, and every error reported, before the caller
 * changes anything.
 *
 * Return: UC_EXIT_OK, or the status of the first error.
 */
int uc_config_read(const struct uc_policy *p, const char *path, bool force,
		   struct uc_entry *want)
{
	struct uc_listed listed[UC_MAX_CAPS] = { 0 };
	int first = UC_EXIT_OK, status, class;
	unsigned int lineno = 0;
	char *line = NULL, where[4200];
	size_t size = 0, cap;
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;

	if (!f)
		return uc_err(UC_EXIT_BAD_FILE, "%s: %s", path, strerror(errno));
	while (getline(&line, &size, f) >= 0) {
		snprintf(where, sizeof(where), "%s:%u: ", path, ++lineno);
		status = uc_config_line(p, line, where, lineno, force, listed);
		if (!first)
			first = status;
	}
	if (ferror(f) && !first)
		first = uc_err(UC_EXIT_BAD_FILE, "%s: %s", path, strerror(errno));
	free(line);
	if (f != stdin)
		fclose(f);

	for (cap = 0; cap < p->ncaps; cap++) {
		want[cap] = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
		for (class = UC_USER; class <= UC_OTHER; class++)
			if (listed[cap].line[class])
				uc_entry_grant(&want[cap], &listed[cap].target[class]);
	}
	return first;
}

/* A name, unless a policy file could not read it back as one word. */
static const char *uc_config_word(const char *name, unsigned int id)
{
	static char buf[16];

	if (!strpbrk(name, " \t\r\n#"))
		return name;
	snprintf(buf, sizeof(buf), "%u", id);
	return buf;
}

static void uc_config_write_line(const char *cap, const struct uc_target *t)
{
	const char *word = NULL;

	if (t->class == UC_USER)
		word = uc_config_word(uc_user_name(t->id), t->id);
	else if (t->class == UC_GROUP)
		word = uc_config_word(uc_group_name(t->id), t->id);
	printf("%s %s%s%s%s\n", cap, uc_class_words[t->class], word ? " " : "",
	       word ? word : "", uc_cap_risk(cap) ? " force" : "");
}

/**
 * uc_config_write - Print the policy as a policy file
 * @p: The policy
 *
 * Applying the output gives every capability the same grantees. A file
 * whose state a policy file cannot say exactly (an owner whose bit is
 * clear, which keeps that user out of the group and other classes) gets
 * a comment saying what apply would change.
 */
void uc_config_write(const struct uc_policy *p)
{
	const struct uc_entry *e;
	struct uc_entry canon;
	struct uc_target t;
	unsigned int grantees;
	size_t cap;

	printf("# usercaps policy, written by usercapsctl show-config.\n"
	       "# CAP user NAME | CAP group NAME | CAP other [force]; unlisted: default.\n");
	for (cap = 0; cap < p->ncaps; cap++) {
		e = &p->caps[cap].entry;
		grantees = uc_grantees(e);
		canon = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
		t = (struct uc_target){ UC_USER, e->owner };
		if (grantees & UC_OWNER_X)
			uc_config_write_line(p->caps[cap].name, &t);
		t = (struct uc_target){ UC_GROUP, e->group };
		if (grantees & UC_GROUP_X)
			uc_config_write_line(p->caps[cap].name, &t);
		t = (struct uc_target){ UC_OTHER, 0 };
		if (grantees & UC_OTHER_X)
			uc_config_write_line(p->caps[cap].name, &t);
		if (grantees & UC_OWNER_X)
			canon.owner = e->owner;
		if (grantees & UC_GROUP_X)
			canon.group = e->group;
		canon.mode |= grantees;
		if (canon.owner != e->owner || canon.group != e->group || canon.mode != e->mode)
			printf("# note: %s is owner=%s group=%s mode=%04o; the lines above make it owner=%s group=%s mode=%04o\n",
			       p->caps[cap].name, uc_user_name(e->owner), uc_group_name(e->group),
			       e->mode, uc_user_name(canon.owner), uc_group_name(canon.group),
			       canon.mode);
	}
}
