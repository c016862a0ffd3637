// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the policy as a policy file: show-config and save
 *
 * show-config | apply must be the identity or an error, never a widening:
 * every capability file is written as lines that make exactly its owner,
 * group and mode again (an owner or group without its execute bit as
 * "excluded", see config.c), and a file that no lines can make (other
 * mode bits, a root-owned file without u+x) is refused, with a line that
 * makes an apply of the output fail rather than reset the policy.
 *
 * save writes the file as visudo does: a temporary file in the same
 * directory, synced, renamed over the old one, and the directory synced,
 * so that a full disk or a crash leaves the old file or the new one,
 * never a part.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

/* Whether policy lines can make @e exactly; if not, say so. */
static int uc_entry_exact(int cap, const struct uc_entry *e)
{
	if (!(e->mode & ~(UC_OWNER_X | UC_GROUP_X | UC_OTHER_X)) &&
	    (e->owner || (e->mode & UC_OWNER_X)))
		return UC_EXIT_OK;
	return uc_err(UC_EXIT_INEXACT,
		      "%s is %s:%s %04o: a policy file cannot say it exactly (it says only the execute bits, and u+x of a root-owned file), and show-config will not write a file that changes it ('usercapsctl revoke %s' resets it)",
		      uc_cap_name(cap), uc_user_name(e->owner), uc_group_name(e->group), e->mode,
		      uc_cap_name(cap));
}

/* One line of @cap's entry, with "force" on a risky grant. */
static void uc_entry_line(FILE *out, int cap, const struct uc_target *t, bool excluded)
{
	const char *why;

	uc_config_print_line(out, cap, t, excluded ? "excluded" :
			     uc_grant_risk(cap, t, &why) != UC_TIER_NONE ? "force" : NULL);
	fputc('\n', out);
}

/* The lines that make @e, an exact entry, out of the default root:root 0100. */
static void uc_entry_lines(FILE *out, int cap, const struct uc_entry *e)
{
	if (e->owner)
		uc_entry_line(out, cap, &(struct uc_target){ UC_USER, e->owner },
			      !(e->mode & UC_OWNER_X));
	if (e->group || (e->mode & UC_GROUP_X))
		uc_entry_line(out, cap, &(struct uc_target){ UC_GROUP, e->group },
			      !(e->mode & UC_GROUP_X));
	if (e->mode & UC_OTHER_X)
		uc_entry_line(out, cap, &(struct uc_target){ UC_OTHER, 0 }, false);
}

/* UC_EXIT_OK if every capability file is exact, else UC_EXIT_INEXACT after saying which. */
static int uc_policy_exact(const struct uc_policy *p)
{
	int cap, status = UC_EXIT_OK;

	for (cap = 0; cap < UC_NCAPS; cap++)
		if (p->present[cap] && uc_entry_exact(cap, &p->entry[cap]))
			status = UC_EXIT_INEXACT;
	return status;
}

/**
 * uc_config_write - Print the policy as a policy file
 * @p: The policy
 * @out: Where
 *
 * Applying the output makes every capability file what it is now. If no
 * policy file can say that, the output is a line that apply refuses.
 *
 * Return: UC_EXIT_OK, or UC_EXIT_INEXACT after a message per file.
 */
int uc_config_write(const struct uc_policy *p, FILE *out)
{
	int cap;

	if (uc_policy_exact(p)) {
		fputs("# usercapsctl show-config refused: see its messages. The next line makes apply fail.\n"
		      "show-config-refused\n", out);
		return UC_EXIT_INEXACT;
	}
	fputs("# usercaps policy, written by usercapsctl show-config.\n"
	      "# CAP user|group NAME [force|excluded] | CAP other [force]; unlisted: default.\n",
	      out);
	for (cap = 0; cap < UC_NCAPS; cap++)
		if (p->present[cap])
			uc_entry_lines(out, cap, &p->entry[cap]);
	return UC_EXIT_OK;
}

/*
 * Write the policy to the new file @fd, @tmp, root's and mode 0644 (if we
 * are root: another owner would be refused by apply), synced.
 */
static int uc_save_tmp(const struct uc_policy *p, int fd)
{
	FILE *out = fdopen(fd, "w");
	int err;

	if (!out)
		return -1;
	uc_config_write(p, out);
	if (fchmod(fd, 0644) || (geteuid() == 0 && fchown(fd, 0, 0)) || fflush(out) ||
	    ferror(out) || fsync(fd)) {
		err = errno;
		fclose(out);
		errno = err;
		return -1;
	}
	return fclose(out);
}

/**
 * uc_config_save - Write the policy to a policy file, atomically
 * @p: The policy
 * @path: The file, e.g. /etc/usercaps.conf
 *
 * Return: UC_EXIT_OK; UC_EXIT_INEXACT, writing nothing; UC_EXIT_FAILED,
 * @path unchanged (or, if only the directory's sync failed, written
 * but maybe not on disk); each after a message.
 */
int uc_config_save(const struct uc_policy *p, const char *path)
{
	char *dir_copy = uc_strdupf("%s", path), *base_copy = uc_strdupf("%s", path);
	char *dir = dirname(dir_copy), *tmp;
	int fd, status = uc_policy_exact(p);

	if (status)
		return uc_err(status, "%s: nothing written", path);
	tmp = uc_strdupf("%s/.%s.XXXXXX", dir, basename(base_copy));
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return uc_err(UC_EXIT_FAILED, "%s: %s; %s is unchanged", tmp, strerror(errno), path);
	if (uc_save_tmp(p, fd) || rename(tmp, path)) {
		status = uc_err(UC_EXIT_FAILED, "%s: %s; %s is unchanged", tmp, strerror(errno),
				path);
		unlink(tmp);
		return status;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		status = uc_err(UC_EXIT_FAILED, "%s: %s; %s is written, but may not survive a crash",
				dir, strerror(errno), path);
	if (fd >= 0)
		close(fd);
	return status;
}
