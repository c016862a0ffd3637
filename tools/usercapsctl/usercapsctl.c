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
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usercapsctl.h"

const char *uc_prog = "usercapsctl";

/* Print "usercapsctl: MESSAGE" on stderr and return @status. */
int uc_err(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", uc_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static const char uc_usage[] =
	"Usage: usercapsctl COMMAND [OPTIONS]\n"
	"\n"
	"  list [--json]                          every capability, who holds it\n"
	"  grant CAP --user U|--group G|--other [--force]\n"
	"  revoke CAP [--user U|--group G|--other]  without a target: back to root:root 0100\n"
	"  check CAP [--user U]                   would U (default: you) hold CAP, and why\n"
	"  apply [--force] [--dry-run] FILE       make the policy what FILE says (- is stdin)\n"
	"  show-config                            the policy as a file for apply\n"
	"\n"
	"CAP: sys_nice, CAP_SYS_NICE or cap_sys_nice. Policy file lines:\n"
	"'CAP user NAME', 'CAP group NAME' or 'CAP other', optionally then 'force'.\n"
	"Exit: 0 ok, 1 check: not held, 2 usage, 3 unknown capability, 4 unknown\n"
	"user or group, 5 not root, 6 usercaps not active, 7 refused without\n"
	"--force, 8 bad policy file, 9 failed (rolled back). See usercapsctl(8).\n";

/* Options, as bits of the set each command accepts. */
enum {
	OPT_USER = 1 << 0,
	OPT_GROUP = 1 << 1,
	OPT_OTHER = 1 << 2,
	OPT_FORCE = 1 << 3,
	OPT_JSON = 1 << 4,
	OPT_DRY_RUN = 1 << 5,
	OPT_TARGET = OPT_USER | OPT_GROUP | OPT_OTHER,
};

struct uc_args {
	unsigned int opts;
	const char *name;	/* of --user or --group */
	const char *operand;	/* CAP or FILE */
};

static const struct option uc_options[] = {
	{ "user", required_argument, NULL, 'u' },
	{ "group", required_argument, NULL, 'g' },
	{ "other", no_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ }
};

static int uc_usage_error(const char *what)
{
	return uc_err(UC_EXIT_USAGE, "%s (usercapsctl --help shows the usage)", what);
}

/*
 * Parse the options after the command word into @a; @allowed is the set
 * the command takes, @operand whether it takes CAP or FILE.
 */
static int uc_parse(int argc, char **argv, unsigned int allowed, bool operand,
		    struct uc_args *a)
{
	int c, opt;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "u:g:ofjnh", uc_options, NULL)) != -1) {
		switch (c) {
		case 'u': opt = OPT_USER; a->name = optarg; break;
		case 'g': opt = OPT_GROUP; a->name = optarg; break;
		case 'o': opt = OPT_OTHER; break;
		case 'f': opt = OPT_FORCE; break;
		case 'j': opt = OPT_JSON; break;
		case 'n': opt = OPT_DRY_RUN; break;
		case 'h': fputs(uc_usage, stdout); exit(UC_EXIT_OK);
		default: return uc_usage_error("unknown option or missing argument");
		}
		if (!(allowed & opt))
			return uc_usage_error("an option that this command does not take");
		if ((opt & OPT_TARGET) && (a->opts & OPT_TARGET))
			return uc_usage_error("one of --user, --group, --other at most");
		a->opts |= opt;
	}
	if (operand && optind == argc)
		return uc_usage_error(allowed & OPT_DRY_RUN ? "missing FILE" : "missing CAP");
	if (operand)
		a->operand = argv[optind++];
	if (optind != argc)
		return uc_usage_error("too many arguments");
	return UC_EXIT_OK;
}

static int uc_lookup_or_fail(const struct uc_policy *p, const char *name, int *cap)
{
	if (uc_cap_lookup(p, name, cap))
		return uc_err(UC_EXIT_UNKNOWN_CAP,
			      "unknown capability '%s' ('usercapsctl list' shows them)", name);
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

/* grant and revoke: one capability, one target (or, for revoke, none). */
static int uc_cmd_change(struct uc_policy *p, const struct uc_args *a, bool grant)
{
	struct uc_entry want[UC_MAX_CAPS];
	const char *risk;
	struct uc_target t;
	int cap, status;
	size_t i;

	status = uc_lookup_or_fail(p, a->operand, &cap);
	if (!status && (a->opts & OPT_TARGET))
		status = uc_args_target(a, &t);
	if (status)
		return status;
	for (i = 0; i < p->ncaps; i++)
		want[i] = p->caps[i].entry;
	risk = uc_cap_risk(p->caps[cap].name);
	if (grant && risk && !(a->opts & OPT_FORCE))
		return uc_err(UC_EXIT_DANGEROUS, "refusing to grant %s without --force: its holder %s",
			      p->caps[cap].name, risk);
	if (grant && risk)
		uc_err(0, "warning: granting %s: its holder %s", p->caps[cap].name, risk);
	status = uc_require_root();
	if (status)
		return status;

	if (grant) {
		uc_entry_grant(&want[cap], &t);
	} else if (!(a->opts & OPT_TARGET)) {
		want[cap] = (struct uc_entry){ 0, 0, UC_DEFAULT_MODE };
	} else if (!uc_entry_revoke(&want[cap], &t)) {
		uc_err(0, "%s is not granted to %s: nothing to revoke",
		       p->caps[cap].name, uc_target_str(&t));
		return UC_EXIT_OK;
	}
	if (grant && p->caps[cap].entry.owner && t.class == UC_USER &&
	    p->caps[cap].entry.owner != t.id)
		uc_err(0, "%s: user %s replaces user %s", p->caps[cap].name,
		       uc_user_name(t.id), uc_user_name(p->caps[cap].entry.owner));
	if (grant && (p->caps[cap].entry.mode & UC_GROUP_X) && t.class == UC_GROUP &&
	    p->caps[cap].entry.group != t.id)
		uc_err(0, "%s: group %s replaces group %s", p->caps[cap].name,
		       uc_group_name(t.id), uc_group_name(p->caps[cap].entry.group));
	return uc_policy_commit(p, want);
}

static void uc_print_change(const char *name, const struct uc_entry *from,
			    const struct uc_entry *to)
{
	printf("%s: %s:%s %04o -> %s:%s %04o\n", name, uc_user_name(from->owner),
	       uc_group_name(from->group), from->mode, uc_user_name(to->owner),
	       uc_group_name(to->group), to->mode);
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
	int cap, status = uc_lookup_or_fail(p, a->operand, &cap);

	return status ? status : uc_check(p, cap, a->name);
}

static int uc_cmd_show_config(struct uc_policy *p, const struct uc_args *a)
{
	(void)a;
	uc_config_write(p);
	return UC_EXIT_OK;
}

static int uc_cmd_apply(struct uc_policy *p, const struct uc_args *a)
{
	struct uc_entry want[UC_MAX_CAPS];
	const struct uc_entry *cur;
	int status;
	size_t i;

	status = uc_config_read(p, a->operand, a->opts & OPT_FORCE, want);
	if (status)
		return uc_err(status, "%s: nothing changed", a->operand);
	if (a->opts & OPT_DRY_RUN) {
		for (i = 0; i < p->ncaps; i++) {
			cur = &p->caps[i].entry;
			if (cur->owner != want[i].owner || cur->group != want[i].group ||
			    cur->mode != want[i].mode)
				uc_print_change(p->caps[i].name, cur, &want[i]);
		}
		return UC_EXIT_OK;
	}
	status = uc_require_root();
	return status ? status : uc_policy_commit(p, want);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct uc_policy *p, const struct uc_args *a);
		unsigned int opts;
		bool operand;
		bool changes;
	} commands[] = {
		{ "list", uc_cmd_list, OPT_JSON, false, false },
		{ "grant", uc_cmd_grant, OPT_TARGET | OPT_FORCE, true, true },
		{ "revoke", uc_cmd_revoke, OPT_TARGET, true, true },
		{ "check", uc_cmd_check, OPT_USER, true, false },
		{ "apply", uc_cmd_apply, OPT_FORCE | OPT_DRY_RUN, true, true },
		{ "show-config", uc_cmd_show_config, 0, false, false },
	};
	struct uc_args a = { 0 };
	struct uc_policy p;
	size_t i;
	int status;

	if (argc < 2)
		return uc_usage_error("missing COMMAND");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(uc_usage, stdout);
		return UC_EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		return uc_usage_error("unknown COMMAND");
	status = uc_parse(argc - 1, argv + 1, commands[i].opts, commands[i].operand, &a);
	if (!status && !strcmp(argv[1], "grant") && !(a.opts & OPT_TARGET))
		status = uc_usage_error("grant needs --user, --group or --other");
	if (!status)
		status = uc_policy_open(&p, commands[i].changes && !(a.opts & OPT_DRY_RUN));
	return status ? status : commands[i].run(&p, &a);
}
