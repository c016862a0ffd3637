// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - reading policy files safely
 *
 * A policy file grants privilege, so, as sudo does with sudoers, one that
 * someone else could have written is refused: it must belong to root (or
 * to the user who runs usercapsctl, who cannot apply it anyway) and be
 * writable by no group and no other user. Its lines must be text: a NUL
 * byte would end a line early without a word, and a byte order mark
 * would glue itself to the first capability's name.
 *
 * The system configuration is /etc/usercaps.conf, then the drop-ins
 * /etc/usercaps.d/ *.conf in lexical (byte) order, as sysctl.d has them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

/* Refuse a regular file that another user could have written. */
static int uc_file_check(const char *path, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return uc_err(UC_EXIT_BAD_FILE, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return UC_EXIT_OK;	/* a pipe or terminal of the caller's own */
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s: owned by uid %u, not root: refused, since that user could grant itself anything",
			      path, st.st_uid);
	if (st.st_mode & 0022)
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s: mode %04o, writable by others than its owner: refused (chmod go-w)",
			      path, st.st_mode & 07777);
	return UC_EXIT_OK;
}

/**
 * uc_file_open - Open a policy file for uc_file_line()
 * @f: The reader
 * @path: The file, or "-" for standard input
 *
 * Return: UC_EXIT_OK, or UC_EXIT_BAD_FILE after a message.
 */
int uc_file_open(struct uc_file *f, const char *path)
{
	int status;

	*f = (struct uc_file){ .path = path };
	f->f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f->f)
		return uc_err(UC_EXIT_BAD_FILE, "%s: %s", path, strerror(errno));
	status = uc_file_check(path, fileno(f->f));
	if (status)
		uc_file_close(f);
	return status;
}

/**
 * uc_file_line - The next line of a policy file
 * @f: The reader
 * @status: Set to UC_EXIT_OK, or to UC_EXIT_BAD_FILE after a message that
 *	names the file and line, for a line that is not text
 *
 * Return: the line, valid until the next call, or NULL at the end.
 */
char *uc_file_line(struct uc_file *f, int *status)
{
	ssize_t len = getline(&f->line, &f->size, f->f);

	*status = UC_EXIT_OK;
	if (len < 0)
		return NULL;
	f->lineno++;
	if (memchr(f->line, '\0', len))
		*status = uc_err(UC_EXIT_BAD_FILE, "%s:%u: a NUL byte: not a text file",
				 f->path, f->lineno);
	else if (f->lineno == 1 && !strncmp(f->line, "\xef\xbb\xbf", 3))
		*status = uc_err(UC_EXIT_BAD_FILE,
				 "%s:1: a UTF-8 byte order mark: save the file without it",
				 f->path);
	return f->line;
}

/* Close @f; UC_EXIT_BAD_FILE after a message if reading it failed. */
int uc_file_close(struct uc_file *f)
{
	int status = UC_EXIT_OK;

	if (ferror(f->f))
		status = uc_err(UC_EXIT_BAD_FILE, "%s: %s", f->path, strerror(errno));
	free(f->line);
	if (f->f != stdin)
		fclose(f->f);
	return status;
}

static int uc_dropin_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 && !strcmp(d->d_name + len - 5, ".conf");
}

static int uc_dropin_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/**
 * uc_system_files - The files of the system configuration that exist
 * @paths: Where to store a NULL-terminated array of paths
 *
 * Return: the number of files.
 */
int uc_system_files(char ***paths)
{
	char *dir = uc_strdupf("%s/etc/usercaps.d", uc_root());
	struct dirent **names;
	int i, n = 0, ndropins = scandir(dir, &names, uc_dropin_filter, uc_dropin_cmp);
	char **list;

	if (ndropins < 0)
		ndropins = 0;
	list = calloc(ndropins + 2, sizeof(*list));
	if (!list)
		exit(uc_err(UC_EXIT_FAILED, "out of memory"));
	list[n] = uc_strdupf("%s/etc/usercaps.conf", uc_root());
	if (!access(list[n], F_OK))
		n++;
	for (i = 0; i < ndropins; i++) {
		list[n++] = uc_strdupf("%s/%s", dir, names[i]->d_name);
		free(names[i]);
	}
	if (ndropins)
		free(names);
	free(dir);
	list[n] = NULL;
	*paths = list;
	return n;
}
