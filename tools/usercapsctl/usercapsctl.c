// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - administer usercaps: commands and options
 *
 * usercaps keeps its policy in /sys/kernel/security/usercaps, one file per
 * capability whose owner, group and mode say who holds it. This tool
 * reads and changes those files, and applies policy files. usercapsctl.8
 * documents it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "usercapsctl.h"

const char *uc_prog = "usercapsctl";

/*
 * Print "usercapsctl: MESSAGE" on stderr and return @status: an error
 * when @status is not 0, else a warning (for the journal, journal.c).
 */
int uc_err(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s: ", uc_journal_prefix(status ? LOG_ERR : LOG_WARNING), uc_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* A new string, printf-style; exits when memory runs out. */
char *uc_strdupf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		exit(uc_err(UC_EXIT_FAILED, "out of memory"));
	return s;
}

/*
 * At exit: what went to stdout must have reached it. A full disk under
 * "show-config > FILE" must not exit 0, so a write error overrides the
 * status (atexit, as gnulib's close_stdout, so that no exit path skips it).
 */
static void uc_close_stdout(void)
{
	int err = fflush(stdout) ? errno : 0;

	if (ferror(stdout) || fclose(stdout))
		_exit(uc_err(UC_EXIT_FAILED, "standard output: %s", strerror(err ? err : errno)));
}

static const char uc_usage[] =
	"Usage: usercapsctl COMMAND [OPTIONS]\n"
	"\n"
	"  list [--json]                          every capability, who holds it\n"
	"  grant CAP --user U|--group G|--other [--force] [--wait SECONDS]\n"
	"  revoke CAP [--user U|--group G|--other] [--wait SECONDS]\n"
	"                                         without a target: back to root:root 0100\n"
	"  check CAP [--user U]                   would U (default: you) hold CAP, and why\n"
	"  apply [--force] [--dry-run] [--boot] [--wait SECONDS] [FILE...]\n"
	"                                         make the policy what the FILEs say (- is\n"
	"                                         stdin; none: /etc/usercaps.conf and the\n"
	"                                         *.conf of /etc, /run, /usr/lib/usercaps.d);\n"
	"                                         --boot skips bad lines\n"
	"  lint [--force] [FILE...]               check FILEs as apply would, without the kernel\n"
	"  cat-config [FILE...]                   the policy the FILEs make, line by line\n"
	"  show-config                            the policy as a file for apply\n"
	"  save [--wait SECONDS] [FILE]           write it to FILE (/etc/usercaps.conf),\n"
	"                                         atomically\n"
	"  --version, --help\n"
	"\n"
	"CAP: sys_nice, CAP_SYS_NICE or cap_sys_nice. U, G: a name, or +N for the id N.\n"
	"Policy file lines: 'CAP user U', 'CAP group G' or 'CAP other', optionally\n"
	"then 'force' (or, for user and group, 'excluded'); a later line for the\n"
	"same CAP and class overrides an earlier one.\n"
	"Exit: 0 ok, 1 check: not held, 2 usage, 3 unknown capability, 4 unknown\n"
	"user or group, 5 not root, 6 usercaps not active, 7 refused without\n"
	"--force, 8 bad policy file, 9 failed (nothing changed), 10 the kernel\n"
	"refused (needs CAP_MAC_ADMIN), 11 failed and the rollback too, 12 revoke:\n"
	"the target still holds CAP through another class, 13 the lock is still\n"
	"held after --wait SECONDS (default 30), 14 show-config, save: no policy\n"
	"file can say this policy exactly.\n"
	"See usercapsctl(8).\n";

/* Options, as bits of the set each command accepts. */
enum {
	OPT_USER = 1 << 0,
	OPT_GROUP = 1 << 1,
	OPT_OTHER = 1 << 2,
	OPT_FORCE = 1 << 3,
	OPT_JSON = 1 << 4,
	OPT_DRY_RUN = 1 << 5,
	OPT_BOOT = 1 << 6,
	OPT_WAIT = 1 << 7,
	OPT_TARGET = OPT_USER | OPT_GROUP | OPT_OTHER,
};

/* What a command takes after its options. */
enum uc_operands {
	UC_NO_OPERAND,
	UC_CAP,		/* exactly one CAP */
	UC_FILES,	/* FILE..., maybe none */
	UC_FILE,	/* FILE, maybe none */
};

struct uc_args {
	unsigned int opts;
	const char *name;	/* of --user or --group */
	unsigned int wait;	/* --wait: seconds to wait for the lock */
	char **operands;	/* NULL-terminated */
};

static const struct option uc_options[] = {
	{ "user", required_argument, NULL, 'u' },
	{ "group", required_argument, NULL, 'g' },
	{ "other", no_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "boot", no_argument, NULL, 'b' },
	{ "wait", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ }
};

static int uc_usage_error(const char *what)
{
	return uc_err(UC_EXIT_USAGE, "%s (usercapsctl --help shows the usage)", what);
}

/* A whole number of seconds, at most a day. */
static int uc_parse_seconds(const char *s, unsigned int *seconds)
{
	unsigned long n;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || n > 86400)
		return -1;
	*seconds = n;
	return 0;
}

/*
 * Parse the options after the command word into @a; @allowed is the set
 * the command takes, @operands what follows them.
 */
static int uc_parse(int argc, char **argv, unsigned int allowed, enum uc_operands operands,
		    struct uc_args *a)
{
	int c, opt;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "u:g:ofjnbw:h", uc_options, NULL)) != -1) {
		switch (c) {
		case 'u': opt = OPT_USER; a->name = optarg; break;
		case 'g': opt = OPT_GROUP; a->name = optarg; break;
		case 'o': opt = OPT_OTHER; break;
		case 'f': opt = OPT_FORCE; break;
		case 'j': opt = OPT_JSON; break;
		case 'n': opt = OPT_DRY_RUN; break;
		case 'b': opt = OPT_BOOT; break;
		case 'w':
			opt = OPT_WAIT;
			if (uc_parse_seconds(optarg, &a->wait))
				return uc_usage_error("--wait takes a number of seconds, at most a day");
			break;
		case 'h': fputs(uc_usage, stdout); exit(UC_EXIT_OK);
		default: return uc_usage_error("unknown option or missing argument");
		}
		if (!(allowed & opt))
			return uc_usage_error("an option that this command does not take");
		if ((opt & OPT_TARGET) && (a->opts & OPT_TARGET))
			return uc_usage_error("one of --user, --group, --other at most");
		a->opts |= opt;
	}
	a->operands = argv + optind;
	if (operands == UC_CAP && optind == argc)
		return uc_usage_error("missing CAP");
	if (((operands == UC_CAP || operands == UC_FILE) && argc - optind > 1) ||
	    (operands == UC_NO_OPERAND && optind != argc))
		return uc_usage_error("too many arguments");
	return UC_EXIT_OK;
}

static int uc_lookup_or_fail(const struct uc_policy *p, const char *name, int *cap)
{
	if (uc_cap_lookup(name, cap))
		return uc_err(UC_EXIT_UNKNOWN_CAP,
			      "unknown capability '%s' ('usercapsctl list' shows them)", name);
	if (!p->present[*cap])
		return uc_err(UC_EXIT_UNKNOWN_CAP, "%s: this kernel has no such capability file",
			      name);
	return UC_EXIT_OK;
}

static int uc_args_target(const struct uc_args *a, struct uc_target *t)
{
	if (a->opts & OPT_USER)
		return uc_target_lookup(UC_USER, a->name, t, "");
	if (a->opts & OPT_GROUP)
		return uc_target_lookup(UC_GROUP, a->name, t, "");
	return uc_target_lookup(UC_OTHER, NULL, t, "");
}

/* Refuse or warn about a risky grant, as the man page's RISKY GRANTS says. */
static int uc_grant_check(int cap, const struct uc_target *t, bool force)
{
	const char *why;
	enum uc_tier tier = uc_grant_risk(cap, t, &why);

	if (tier == UC_TIER_FORCE && !force)
		return uc_err(UC_EXIT_DANGEROUS, "refusing to grant %s without --force: %s",
			      uc_cap_name(cap), why);
	if (tier != UC_TIER_NONE)
		uc_err(0, "warning: granting %s to %s: %s", uc_cap_name(cap),
		       uc_target_str(t), why);
	return UC_EXIT_OK;
}

/*
 * The exit status of a revoke from @t that leaves @t holding @cap through
 * another class (@e is the entry after the revoke; @in_group, whether
 * user @t is in its group), after saying so; UC_EXIT_OK if none does.
 */
static int uc_still_held(int cap, const struct uc_entry *e, const struct uc_target *t,
			 bool in_group, bool revoked)
{
	const char *name = uc_cap_name(cap), *who = uc_target_str(t);

	if (t->class == UC_USER && t->id != e->owner && in_group && (e->mode & UC_GROUP_X))
		return uc_err(UC_EXIT_STILL_HELD,
			      "%s is not granted to %s, but %s still holds it through group %s (revoke --group %s)",
			      name, who, uc_user_name(t->id), uc_group_name(e->group),
			      uc_group_name(e->group));
	if (t->class == UC_USER && t->id != e->owner && !in_group && (e->mode & UC_OTHER_X))
		return uc_err(UC_EXIT_STILL_HELD,
			      "%s is not granted to %s, but %s still holds it through other (revoke --other)",
			      name, who, uc_user_name(t->id));
	if (t->class == UC_GROUP && revoked && (e->mode & UC_OTHER_X))
		return uc_err(UC_EXIT_STILL_HELD,
			      "%s: revoked from %s, but its members still hold it through other (revoke --other)",
			      name, who);
	return UC_EXIT_OK;
}

/* grant and revoke: one capability, one target (or, for revoke, none). */
static int uc_cmd_change(struct uc_policy *p, const struct uc_args *a, bool grant)
{
	struct uc_entry want[UC_NCAPS], *cur;
	struct uc_target t;
	int cap, status;
	bool in_group = false, revoked = true;

	status = uc_lookup_or_fail(p, a->operands[0], &cap);
	if (!status && (a->opts & OPT_TARGET))
		status = uc_args_target(a, &t);
	if (!status && grant)
		status = uc_grant_check(cap, &t, a->opts & OPT_FORCE);
	if (status)
		return status;
	memcpy(want, p->entry, sizeof(want));
	cur = &p->entry[cap];
	if ((a->opts & OPT_TARGET) && t.class == UC_USER)
		in_group = uc_user_in_group(t.id, cur->group);

	if (grant) {
		uc_entry_grant(&want[cap], &t);
	} else if (!(a->opts & OPT_TARGET)) {
		want[cap] = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
	} else {
		revoked = uc_entry_revoke(&want[cap], &t, in_group);
		status = uc_still_held(cap, &want[cap], &t, in_group, revoked);
		if (!revoked && !status)
			uc_err(0, "%s is not granted to %s: nothing to revoke", uc_cap_name(cap),
			       uc_target_str(&t));
		if (!revoked)
			return status;
	}
	if (grant && cur->owner && t.class == UC_USER && cur->owner != t.id)
		uc_err(0, "%s: user %s replaces user %s", uc_cap_name(cap),
		       uc_user_name(t.id), uc_user_name(cur->owner));
	if (grant && (cur->mode & UC_GROUP_X) && t.class == UC_GROUP && cur->group != t.id)
		uc_err(0, "%s: group %s replaces group %s", uc_cap_name(cap),
		       uc_group_name(t.id), uc_group_name(cur->group));
	return uc_policy_commit(p, want) ?: status;
}

/* Print each capability whose entry differs, from -> to; return how many. */
static int uc_print_changes(const struct uc_policy *p, const struct uc_entry *from,
			    const struct uc_entry *to)
{
	int cap, n = 0;

	for (cap = 0; cap < UC_NCAPS; cap++) {
		if (!p->present[cap] || !memcmp(&from[cap], &to[cap], sizeof(to[cap])))
			continue;
		printf("%s: %s:%s %04o -> %s:%s %04o\n", uc_cap_name(cap),
		       uc_user_name(from[cap].owner), uc_group_name(from[cap].group),
		       from[cap].mode, uc_user_name(to[cap].owner), uc_group_name(to[cap].group),
		       to[cap].mode);
		n++;
	}
	return n;
}

static int uc_cmd_grant(struct uc_policy *p, const struct uc_args *a)
{
	return uc_cmd_change(p, a, true);
}

static int uc_cmd_revoke(struct uc_policy *p, const struct uc_args *a)
{
	return uc_cmd_change(p, a, false);
}

static int uc_cmd_list(struct uc_policy *p, const struct uc_args *a)
{
	if (a->opts & OPT_JSON)
		uc_list_json(p);
	else
		uc_list_table(p);
	return UC_EXIT_OK;
}

static int uc_cmd_check(struct uc_policy *p, const struct uc_args *a)
{
	int cap, status = uc_lookup_or_fail(p, a->operands[0], &cap);

	return status ? status : uc_check(p, cap, a->name);
}

static int uc_cmd_show_config(struct uc_policy *p, const struct uc_args *a)
{
	(void)a;
	return uc_config_write(p, stdout);
}

static int uc_cmd_save(struct uc_policy *p, const struct uc_args *a)
{
	const char *path = *a->operands;

	return uc_config_save(p, path ? path : uc_strdupf("%s/etc/usercaps.conf", uc_root()));
}

/* The policy that the command's FILEs, or the system configuration, say. */
static int uc_args_config(const struct uc_policy *p, const struct uc_args *a,
			  unsigned int flags, struct uc_config *c)
{
	struct uc_conf_file *files;
	int status = UC_EXIT_OK;

	if (a->opts & OPT_FORCE)
		flags |= UC_CONF_FORCE;
	if (a->opts & OPT_BOOT)
		flags |= UC_CONF_BOOT;
	if (*a->operands)
		files = uc_named_files(a->operands);
	else
		status = uc_system_files(&files);
	if (status) {
		c->unreadable = true;
		return status;
	}
	return uc_config_read(p, files, flags, c);
}

static int uc_cmd_lint(struct uc_policy *p, const struct uc_args *a)
{
	struct uc_config c;

	return uc_args_config(p, a, UC_CONF_LIST, &c);
}

static int uc_cmd_cat_config(struct uc_policy *p, const struct uc_args *a)
{
	struct uc_config c;
	int status = uc_args_config(p, a, UC_CONF_LIST, &c);

	if (!status)
		uc_config_cat(&c);
	return status;
}

/*
 * An interactive apply is all or nothing, and silent when it succeeds; at
 * boot (--boot) what the good lines say is applied all the same, the
 * status still tells of the bad ones, and what changed goes to stdout, for
 * the journal. A configuration that could not be read is never applied:
 * it would revoke what the missing part grants.
 */
static int uc_cmd_apply(struct uc_policy *p, const struct uc_args *a)
{
	struct uc_entry want[UC_NCAPS], before[UC_NCAPS];
	struct uc_config c;
	int status, applied;

	status = uc_args_config(p, a, 0, &c);
	if (status && (!(a->opts & OPT_BOOT) || c.unreadable))
		return uc_err(status, "nothing changed");
	uc_config_want(&c, want);
	if (a->opts & OPT_DRY_RUN) {
		uc_print_changes(p, p->entry, want);
		return status;
	}
	memcpy(before, p->entry, sizeof(before));
	applied = uc_policy_commit(p, want);
	if (!applied && (a->opts & OPT_BOOT) && !uc_print_changes(p, before, want))
		printf("no change: the policy already is what the files say\n");
	return applied ? applied : status;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct uc_policy *p, const struct uc_args *a);
		unsigned int opts;
		enum uc_operands operands;
		bool changes;
	} commands[] = {
		{ "list", uc_cmd_list, OPT_JSON, UC_NO_OPERAND, false },
		{ "grant", uc_cmd_grant, OPT_TARGET | OPT_FORCE | OPT_WAIT, UC_CAP, true },
		{ "revoke", uc_cmd_revoke, OPT_TARGET | OPT_WAIT, UC_CAP, true },
		{ "check", uc_cmd_check, OPT_USER, UC_CAP, false },
		{ "apply", uc_cmd_apply, OPT_FORCE | OPT_DRY_RUN | OPT_BOOT | OPT_WAIT, UC_FILES,
		  true },
		{ "lint", uc_cmd_lint, OPT_FORCE, UC_FILES, false },
		{ "cat-config", uc_cmd_cat_config, 0, UC_FILES, false },
		{ "show-config", uc_cmd_show_config, 0, UC_NO_OPERAND, false },
		{ "save", uc_cmd_save, OPT_WAIT, UC_FILE, true },
	};
	struct uc_args a = { .wait = UC_LOCK_WAIT };
	struct uc_policy p;
	size_t i;
	int status;

	atexit(uc_close_stdout);
	if (argc < 2)
		return uc_usage_error("missing COMMAND");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(uc_usage, stdout);
		return UC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("usercapsctl %s\n", UC_VERSION);
		return UC_EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		return uc_usage_error("unknown COMMAND");
	status = uc_parse(argc - 1, argv + 1, commands[i].opts, commands[i].operands, &a);
	if (!status && !strcmp(argv[1], "grant") && !(a.opts & OPT_TARGET))
		status = uc_usage_error("grant needs --user, --group or --other");
	if (status)
		return status;
	if (commands[i].run == uc_cmd_lint || commands[i].run == uc_cmd_cat_config)
		uc_policy_offline(&p);
	else
		status = uc_policy_open(&p, commands[i].changes && !(a.opts & OPT_DRY_RUN), a.wait);
	return status ? status : commands[i].run(&p, &a);
}
