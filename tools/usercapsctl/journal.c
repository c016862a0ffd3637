// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - messages at journal priorities
 *
 * Run by systemd (usercaps.service), standard error is a stream to the
 * journal, and JOURNAL_STREAM holds its device and inode (systemd.exec(5)).
 * Each message then starts with its syslog priority, as sd-daemon(3)'s
 * "<3>": journald takes the prefix off and files the line at that
 * priority, so that "journalctl -p err" shows the bad lines of a boot's
 * apply and "-p warning" what it skipped. Anywhere else (a terminal, the
 * caller's pipe) a message has no prefix; an inherited JOURNAL_STREAM
 * whose stream is no longer standard error does not count.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usercapsctl.h"

static bool uc_stderr_is_journal(void)
{
	static int is_journal = -1;
	unsigned long long dev, ino;
	const char *stream;
	struct stat st;

	if (is_journal < 0) {
		stream = getenv("JOURNAL_STREAM");
		is_journal = stream && sscanf(stream, "%llu:%llu", &dev, &ino) == 2 &&
			     !fstat(STDERR_FILENO, &st) && st.st_dev == dev && st.st_ino == ino;
	}
	return is_journal;
}

/* "<@priority>" for a message on a journal stream, else "". */
const char *uc_journal_prefix(int priority)
{
	static char prefix[8];

	if (!uc_stderr_is_journal())
		return "";
	snprintf(prefix, sizeof(prefix), "<%d>", priority);
	return prefix;
}
