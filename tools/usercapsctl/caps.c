// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - the capabilities it knows
 *
 * The capability files of Linux 6.1, the same 41 in 6.12, by name.
 * usercapsctl reads and changes only these: a file a later kernel adds
 * (a capability, or anything else) is left alone, so that it cannot break
 * an apply, and a policy file can be checked without the kernel (lint).
 */
#include <ctype.h>
#include <string.h>

#include "usercapsctl.h"

const char *const uc_cap_names[UC_NCAPS] = {
	"audit_control", "audit_read", "audit_write", "block_suspend", "bpf",
	"checkpoint_restore", "chown", "dac_override", "dac_read_search", "fowner",
	"fsetid", "ipc_lock", "ipc_owner", "kill", "lease", "linux_immutable",
	"mac_admin", "mac_override", "mknod", "net_admin", "net_bind_service",
	"net_broadcast", "net_raw", "perfmon", "setfcap", "setgid", "setpcap",
	"setuid", "sys_admin", "sys_boot", "sys_chroot", "sys_module", "sys_nice",
	"sys_pacct", "sys_ptrace", "sys_rawio", "sys_resource", "sys_time",
	"sys_tty_config", "syslog", "wake_alarm",
};

/**
 * uc_cap_lookup - Find a capability by any of its spellings
 * @name: sys_nice, CAP_SYS_NICE or cap_sys_nice, in any case
 * @cap: Where to store its index in uc_cap_names
 *
 * Return: UC_EXIT_OK, or UC_EXIT_UNKNOWN_CAP without a message.
 */
int uc_cap_lookup(const char *name, int *cap)
{
	char lower[UC_NAME_MAX + 4];
	const char *bare = lower;
	size_t i;

	if (strlen(name) >= sizeof(lower))
		return UC_EXIT_UNKNOWN_CAP;
	for (i = 0; name[i]; i++)
		lower[i] = tolower((unsigned char)name[i]);
	lower[i] = '\0';
	if (!strncmp(lower, "cap_", 4))
		bare = lower + 4;
	for (*cap = 0; *cap < UC_NCAPS; (*cap)++)
		if (!strcmp(uc_cap_names[*cap], bare))
			return UC_EXIT_OK;
	return UC_EXIT_UNKNOWN_CAP;
}
