// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the files of the system configuration
 *
 * As sysctl.d(5) has them: /etc/usercaps.conf, then the drop-ins *.conf
 * of /etc/usercaps.d, /run/usercaps.d and /usr/lib/usercaps.d, in that
 * precedence. A drop-in masks one of the same name in a later directory,
 * so that the administrator (/etc) overrides the vendor (/usr/lib); one
 * that is /dev/null (a symlink to it) disables it. The drop-ins left are
 * read in the lexical (byte) order of their names, whatever their
 * directory, so that a later line can override an earlier one.
 *
 * A directory that exists but cannot be listed, or that others could
 * have written, is an error: its files would otherwise be silently
 * missing, and the grants they make revoked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "usercapsctl.h"

static const char *const uc_dropin_dirs[] = {
	"/etc/usercaps.d", "/run/usercaps.d", "/usr/lib/usercaps.d",
};

struct uc_conf_list {
	struct uc_conf_file *files;
	unsigned int n;
};

static void uc_conf_init(struct uc_conf_list *l)
{
	l->n = 0;
	l->files = calloc(1, sizeof(*l->files));
	if (!l->files)
		exit(uc_err(UC_EXIT_FAILED, "out of memory"));
}

/* Add a file to @l, keeping it ended by a NULL path. */
static struct uc_conf_file *uc_conf_add(struct uc_conf_list *l, const char *path, int rank)
{
	struct uc_conf_file *f;

	l->files = reallocarray(l->files, l->n + 2, sizeof(*l->files));
	if (!l->files)
		exit(uc_err(UC_EXIT_FAILED, "out of memory"));
	f = &l->files[l->n++];
	*f = (struct uc_conf_file){ .path = path, .rank = rank };
	l->files[l->n].path = NULL;
	return f;
}

/* Whether @name in @dirfd is /dev/null, which masks it. */
static bool uc_is_dev_null(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, 0) && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(1, 3);
}

/* Why the entry @name of drop-in directory @rank is not read, or NULL. */
static const char *uc_dropin_skip(const struct uc_conf_list *l, int rank, int dirfd,
				  const char *name)
{
	size_t len = strlen(name);
	unsigned int i;

	if (name[0] == '.')
		return "a hidden file";
	if (len <= 5 || strcmp(name + len - 5, ".conf"))
		return "not named *.conf";
	for (i = 0; i < l->n; i++)
		if (l->files[i].rank < rank && l->files[i].name &&
		    !strcmp(l->files[i].name, name))
			return uc_strdupf("masked by %s", l->files[i].path);
	if (uc_is_dev_null(dirfd, name))
		return "a symlink to /dev/null: masked";
	return NULL;
}

static int uc_not_dot(const struct dirent *d)
{
	return strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

static int uc_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Add the entries of drop-in directory @rank to @l. */
static int uc_dropin_scan(struct uc_conf_list *l, int rank)
{
	char *dir = uc_strdupf("%s%s", uc_root(), uc_dropin_dirs[rank]);
	struct dirent **names;
	struct uc_conf_file *f;
	struct stat st;
	int fd, i, n, status;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && lstat(dir, &st) && errno == ENOENT)
		return UC_EXIT_OK;
	if (fd < 0 || fstat(fd, &st))
		return uc_err(UC_EXIT_BAD_FILE, "%s: cannot be read: %s", dir, strerror(errno));
	status = uc_owner_check(dir, &st);
	n = status ? 0 : scandirat(fd, ".", &names, uc_not_dot, uc_name_cmp);
	if (n < 0)
		status = uc_err(UC_EXIT_BAD_FILE, "%s: cannot be read: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		f = uc_conf_add(l, uc_strdupf("%s/%s", dir, names[i]->d_name), rank);
		f->name = f->path + strlen(dir) + 1;
		f->skip = uc_dropin_skip(l, rank, fd, f->name);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	close(fd);
	return status;
}

/* Drop-ins by name, then by the precedence of their directory. */
static int uc_conf_cmp(const void *a, const void *b)
{
	const struct uc_conf_file *x = a, *y = b;
	int by_name = strcmp(x->name, y->name);

	return by_name ? by_name : x->rank - y->rank;
}

/**
 * uc_system_files - The files of the system configuration, in order
 * @files: Where to store the array, ended by a NULL path: each file with
 *	why it is skipped (NULL: it is to be read)
 *
 * Return: UC_EXIT_OK; UC_EXIT_BAD_FILE after a message if a directory
 * cannot be read or is unsafe, when the configuration is not known.
 */
int uc_system_files(struct uc_conf_file **files)
{
	char *main_path = uc_strdupf("%s/etc/usercaps.conf", uc_root());
	struct uc_conf_list l;
	struct uc_conf_file *f;
	struct stat st;
	unsigned int first;
	int rank, status = UC_EXIT_OK;

	uc_conf_init(&l);
	if (!lstat(main_path, &st) || errno != ENOENT) {
		f = uc_conf_add(&l, main_path, -1);
		if (uc_is_dev_null(AT_FDCWD, main_path))
			f->skip = "a symlink to /dev/null: masked";
	}
	first = l.n;
	for (rank = 0; rank < (int)(sizeof(uc_dropin_dirs) / sizeof(uc_dropin_dirs[0])) && !status; rank++)
		status = uc_dropin_scan(&l, rank);
	if (l.n > first)
		qsort(l.files + first, l.n - first, sizeof(*l.files), uc_conf_cmp);
	*files = l.files;
	return status;
}

/* @paths, NULL-terminated, as a list of files to read. */
struct uc_conf_file *uc_named_files(char *const *paths)
{
	struct uc_conf_list l;

	uc_conf_init(&l);
	for (; *paths; paths++)
		uc_conf_add(&l, *paths, -1);
	return l.files;
}
