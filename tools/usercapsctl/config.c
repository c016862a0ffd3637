// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - policy files
 *
 * One grant per line, "#" to the end of a line is a comment:
 *
 *	CAP user NAME [force | excluded]
 *	CAP group NAME [force | excluded]
 *	CAP other [force]
 *
 * Several files (the system configuration: usercaps.conf and its drop-ins,
 * confdirs.c) make one policy. As in sysctl.d, a later line for the same
 * capability and class overrides an earlier one, in the same file or in
 * an earlier one: a file has one owner, one group and one other class. A
 * capability they do not name is reset to its default, so that the files
 * are the whole policy: applying them twice, or at every boot, gives the
 * same result whatever was there before.
 * "force" acknowledges a grant that usercapsctl would otherwise refuse or
 * warn about (see risk.c). "excluded" makes the user the file's owner, or
 * the group its group, without the execute bit: the owner class (or the
 * group class) then decides for them, and grants nothing, so that the
 * group and other classes (or the other class) leave them out. It is how
 * a file says what "revoke --user" leaves, exactly (save.c).
 */
#define _GNU_SOURCE
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

/* Refuse or warn about a risky grant, unless its line says "force". */
static int uc_config_risk(int cap, const struct uc_target *t, bool line_force,
			  unsigned int flags, const char *where)
{
	const char *why;
	enum uc_tier tier = uc_grant_risk(cap, t, &why);

	if (tier == UC_TIER_NONE || line_force)
		return UC_EXIT_OK;
	if (tier == UC_TIER_FORCE && !(flags & UC_CONF_FORCE))
		return uc_err(UC_EXIT_DANGEROUS,
			      "%srefusing to grant %s without 'force' at the end of the line or --force: %s",
			      where, uc_cap_name(cap), why);
	uc_err(0, "%swarning: granting %s to %s: %s ('force' at the end of the line acknowledges it)",
	       where, uc_cap_name(cap), uc_target_str(t), why);
	return UC_EXIT_OK;
}

/* uc_config_line() for a line's @n words, with @where for the messages. */
static int uc_config_words(const struct uc_policy *p, const struct uc_file *f,
			   const char *where, char **words, int n, unsigned int flags,
			   struct uc_config *c)
{
	enum uc_class class;
	struct uc_target t;
	int cap, status, need;
	bool force = false, excluded = false;

	if (n < 2 || uc_class_parse(words[1], &class))
		return uc_err(UC_EXIT_BAD_FILE,
			      "%sexpected 'CAP user NAME', 'CAP group NAME' or 'CAP other', optionally followed by 'force' (or 'excluded')",
			      where);
	need = class == UC_OTHER ? 2 : 3;
	if (n == need + 1) {
		force = !strcmp(words[need], "force");
		excluded = class != UC_OTHER && !strcmp(words[need], "excluded");
	}
	if (n > need + 1 || (n == need + 1 && !force && !excluded) || n < need)
		return uc_err(UC_EXIT_BAD_FILE, "%s'%s %s' takes %s, then optionally %s",
			      where, words[0], words[1],
			      class == UC_OTHER ? "nothing" : "one name or number",
			      class == UC_OTHER ? "'force'" : "'force' or 'excluded'");
	if (uc_cap_lookup(words[0], &cap))
		return uc_err(UC_EXIT_UNKNOWN_CAP, "%sunknown capability '%s'", where, words[0]);
	if (!p->present[cap])
		return uc_err(UC_EXIT_UNKNOWN_CAP, "%s%s: this kernel has no such capability file",
			      where, words[0]);
	status = uc_target_lookup(class, class == UC_OTHER ? NULL : words[2], &t, where);
	if (status)
		return status;
	status = excluded ? UC_EXIT_OK : uc_config_risk(cap, &t, force, flags, where);
	if (status)
		return status;
	c->line[cap][class] = (struct uc_line){ f->path, f->lineno, t, force, excluded };
	return UC_EXIT_OK;
}

/*
 * Check one line of @f and record it in @c. Returns UC_EXIT_OK or the
 * status of its error, after a message that starts with "FILE:LINE: ".
 */
static int uc_config_line(const struct uc_policy *p, const struct uc_file *f, char *line,
			  unsigned int flags, struct uc_config *c)
{
	char *words[UC_MAX_WORDS], *where;
	int n = uc_split(line, words), status;

	if (!n)
		return UC_EXIT_OK;
	where = uc_strdupf("%s:%u: ", f->path, f->lineno);
	status = uc_config_words(p, f, where, words, n, flags, c);
	free(where);
	return status;
}

/* Check every line of one file into @c; the status of the first error. */
static int uc_config_file(const struct uc_policy *p, const char *path, unsigned int flags,
			  struct uc_config *c, unsigned int *skipped)
{
	int first, status, bad;
	struct uc_file f;
	char *line;

	first = uc_file_open(&f, path);
	c->unreadable |= f.unreadable;
	if (flags & UC_CONF_LIST)
		printf(!first ? "# read %s\n" : f.unreadable ? "# skipped %s: cannot be read\n" :
		       "# skipped %s: refused\n", path);
	if (first) {
		++*skipped;
		return first;
	}
	while ((line = uc_file_line(&f, &bad))) {
		status = bad ? bad : uc_config_line(p, &f, line, flags, c);
		*skipped += !!status;
		if (!first)
			first = status;
	}
	uc_file_close(&f);
	return first;
}

/**
 * uc_config_read - Parse and check policy files, which make one policy
 * @p: The policy, for the capabilities that this kernel has
 * @files: The files, in order, ended by a NULL path; "-" is standard input
 * @flags: UC_CONF_FORCE, UC_CONF_BOOT, UC_CONF_LIST
 * @c: Where to store the lines that decide
 *
 * Every line is checked, and every error reported, before the caller
 * changes anything. With UC_CONF_BOOT, @c holds what the good lines
 * say, for the caller to apply all the same, unless c->unreadable says
 * that a file could not be read at all.
 *
 * Return: UC_EXIT_OK, or the status of the first error.
 */
int uc_config_read(const struct uc_policy *p, const struct uc_conf_file *files,
		   unsigned int flags, struct uc_config *c)
{
	int first = UC_EXIT_OK, status;
	unsigned int skipped = 0;

	*c = (struct uc_config){ 0 };
	for (; files->path; files++) {
		if (files->skip) {
			if (flags & UC_CONF_LIST)
				printf("# skipped %s: %s\n", files->path, files->skip);
			continue;
		}
		status = uc_config_file(p, files->path, flags, c, &skipped);
		if (!first)
			first = status;
	}
	if (skipped && (flags & UC_CONF_BOOT) && !c->unreadable)
		uc_err(0, "%u bad line%s or file%s skipped; the rest is applied", skipped,
		       skipped == 1 ? "" : "s", skipped == 1 ? "" : "s");
	return first;
}

/* The entry of every capability that the lines of @c make. */
void uc_config_want(const struct uc_config *c, struct uc_entry *want)
{
	const struct uc_line *l;
	int cap, class;

	for (cap = 0; cap < UC_NCAPS; cap++) {
		want[cap] = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
		for (class = UC_USER; class <= UC_OTHER; class++) {
			l = &c->line[cap][class];
			if (l->path && l->excluded)
				uc_entry_exclude(&want[cap], &l->target);
			else if (l->path)
				uc_entry_grant(&want[cap], &l->target);
		}
	}
}

/**
 * uc_config_print_line - Print a policy line, without its newline
 * @out: Where
 * @cap: The capability
 * @t: The user, group or other
 * @flag: "force", "excluded" or NULL
 */
void uc_config_print_line(FILE *out, int cap, const struct uc_target *t, const char *flag)
{
	const char *word = NULL;

	if (t->class != UC_OTHER)
		word = uc_id_word(t->class, t->id);
	fprintf(out, "%s %s%s%s%s%s", uc_cap_name(cap), uc_class_words[t->class],
		word ? " " : "", word ? word : "", flag ? " " : "", flag ? flag : "");
}

/**
 * uc_config_cat - Print the policy that @c says, as one policy file
 * @c: The lines that decide, as uc_config_read() found them
 *
 * Each line is followed by the file and line it comes from.
 */
void uc_config_cat(const struct uc_config *c)
{
	const struct uc_line *l;
	int cap, class;

	for (cap = 0; cap < UC_NCAPS; cap++) {
		for (class = UC_USER; class <= UC_OTHER; class++) {
			l = &c->line[cap][class];
			if (!l->path)
				continue;
			uc_config_print_line(stdout, cap, &l->target,
					     l->force ? "force" : l->excluded ? "excluded" : NULL);
			printf("\t# %s:%u\n", l->path, l->lineno);
		}
	}
}
