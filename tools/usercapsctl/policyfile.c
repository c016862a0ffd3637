// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - reading policy files safely
 *
 * A policy file grants privilege, so, as sudo does with sudoers, one that
 * someone else could have written is refused: it must belong to root (or
 * to the user who runs usercapsctl, who cannot apply it anyway) and be
 * writable by no group and no other user. Only a regular file is one: a
 * FIFO would hang the boot, a device would read without end, and neither
 * has an owner and mode that say who wrote what it gives; they are
 * refused before they are opened, and checked again once opened (with
 * O_NONBLOCK, so that a FIFO swapped in meanwhile cannot hang it). A
 * file is read whole, up to UC_FILE_MAX bytes, with read(2), whose every
 * error is an error: a file cut short by a failure is never taken for
 * the whole file. Its lines must be text: a NUL byte would end a line
 * early without a word, and a byte order mark would glue itself to the
 * first capability's name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

/* A file's type, as the refusal of one that is not regular says it. */
static const char *uc_file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFDIR: return "a directory";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symlink";
	}
	return "not a file";
}

/**
 * uc_owner_check - Refuse a policy file or directory that another user
 * could have written
 * @path: Its name, for the message
 * @st: Its status
 *
 * Return: UC_EXIT_OK, or UC_EXIT_BAD_FILE after a message.
 */
int uc_owner_check(const char *path, const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s: owned by uid %u, not root: refused, since that user could grant itself anything",
			      path, st->st_uid);
	if (st->st_mode & 0022)
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s: mode %04o, writable by others than its owner: refused (chmod go-w)",
			      path, st->st_mode & 07777);
	return UC_EXIT_OK;
}

/* Refuse what is not a regular file of root's, or is too large to be a policy. */
static int uc_file_check(const char *path, const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return uc_err(UC_EXIT_BAD_FILE, "%s: %s, not a regular file: refused", path,
			      uc_file_type(st->st_mode));
	if (st->st_size > UC_FILE_MAX)
		return uc_err(UC_EXIT_BAD_FILE,
			      "%s: %lld bytes, more than the %d of a policy file: refused", path,
			      (long long)st->st_size, UC_FILE_MAX);
	return uc_owner_check(path, st);
}

/* A file that cannot be read: never to be taken for an empty one. */
static int uc_file_unreadable(struct uc_file *f)
{
	f->unreadable = true;
	return uc_err(UC_EXIT_BAD_FILE, "%s: cannot be read: %s", f->path, strerror(errno));
}

/* Read all of @fd into f->text, at most UC_FILE_MAX bytes. */
static int uc_file_read(struct uc_file *f, int fd)
{
	size_t cap = 0;
	ssize_t n;

	do {
		if (f->size == cap) {
			cap = cap ? 2 * cap : 4096;
			f->text = realloc(f->text, cap + 1);
			if (!f->text)
				exit(uc_err(UC_EXIT_FAILED, "out of memory"));
		}
		n = read(fd, f->text + f->size, cap - f->size);
		if (n < 0 && errno != EINTR)
			return uc_file_unreadable(f);
		if (n > 0)
			f->size += n;
		if (f->size > UC_FILE_MAX)
			return uc_err(UC_EXIT_BAD_FILE,
				      "%s: more than the %d bytes of a policy file: refused", f->path,
				      UC_FILE_MAX);
	} while (n);
	f->text[f->size] = '\0';
	return UC_EXIT_OK;
}

/**
 * uc_file_open - Read a policy file for uc_file_line()
 * @f: The reader
 * @path: The file, or "-" for standard input (which may be a pipe)
 *
 * Return: UC_EXIT_OK, or UC_EXIT_BAD_FILE after a message; then
 * f->unreadable says whether the file could not be read at all, as
 * opposed to refused.
 */
int uc_file_open(struct uc_file *f, const char *path)
{
	struct stat st;
	int fd, status;

	*f = (struct uc_file){ .path = path };
	if (!strcmp(path, "-")) {
		if (fstat(STDIN_FILENO, &st))
			return uc_file_unreadable(f);
		status = S_ISREG(st.st_mode) ? uc_file_check(path, &st) : UC_EXIT_OK;
		return status ? status : uc_file_read(f, STDIN_FILENO);
	}
	if (stat(path, &st))
		return uc_file_unreadable(f);
	status = uc_file_check(path, &st);
	if (status)
		return status;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		status = uc_file_unreadable(f);
	else
		status = uc_file_check(path, &st);
	if (!status)
		status = uc_file_read(f, fd);
	if (fd >= 0)
		close(fd);
	return status;
}

/**
 * uc_file_line - The next line of a policy file
 * @f: The reader
 * @status: Set to UC_EXIT_OK, or to UC_EXIT_BAD_FILE after a message that
 *	names the file and line, for a line that is not text
 *
 * Return: the line, without its newline, valid until uc_file_close(), or
 * NULL at the end.
 */
char *uc_file_line(struct uc_file *f, int *status)
{
	char *line = f->text + f->next, *end;
	size_t len;

	*status = UC_EXIT_OK;
	if (f->next >= f->size)
		return NULL;
	end = memchr(line, '\n', f->size - f->next);
	len = end ? (size_t)(end - line) : f->size - f->next;
	f->next += len + 1;
	line[len] = '\0';
	f->lineno++;
	if (memchr(line, '\0', len))
		*status = uc_err(UC_EXIT_BAD_FILE, "%s:%u: a NUL byte: not a text file",
				 f->path, f->lineno);
	else if (f->lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
		*status = uc_err(UC_EXIT_BAD_FILE,
				 "%s:1: a UTF-8 byte order mark: save the file without it",
				 f->path);
	return line;
}

void uc_file_close(struct uc_file *f)
{
	free(f->text);
	f->text = NULL;
}
