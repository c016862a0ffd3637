// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the capabilities it knows
 *
 * The capability files of Linux 6.1, the same 41 in 6.12: capabilities 0
 * (chown) to 40 (checkpoint_restore), named as libcap-ng names them,
 * which are the kernel's file names. usercapsctl reads and changes only
 * these: a file a later kernel adds (a capability, or anything else) is
 * left alone, so that it cannot break an apply, and a policy file can be
 * checked without the kernel (lint).
 */
#include <cap-ng.h>
#include <stdlib.h>
#include <strings.h>

#include "usercapsctl.h"

/* The name of capability @cap, 0 to UC_NCAPS - 1: its file's name. */
const char *uc_cap_name(int cap)
{
	const char *name = capng_capability_to_name(cap);

	if (!name)
		exit(uc_err(UC_EXIT_FAILED, "libcap-ng does not know capability %d: too old", cap));
	return name;
}

/**
 * uc_cap_lookup - Find a capability by any of its spellings
 * @name: sys_nice, CAP_SYS_NICE or cap_sys_nice, in any case
 * @cap: Where to store its number
 *
 * Return: UC_EXIT_OK, or UC_EXIT_UNKNOWN_CAP without a message.
 */
int uc_cap_lookup(const char *name, int *cap)
{
	if (!strncasecmp(name, "cap_", 4))
		name += 4;
	*cap = capng_name_to_capability(name);
	return *cap >= 0 && *cap < UC_NCAPS ? UC_EXIT_OK : UC_EXIT_UNKNOWN_CAP;
}
