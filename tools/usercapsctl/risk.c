// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - capabilities that grant more than they say
 *
 * Granting one of these is refused without --force. The rule for the list:
 * the capability alone gives a known way to full root, or lets its holder
 * rewrite a security policy (this one included). Broad capabilities that
 * do neither (net_admin, sys_resource, kill, ipc_owner, perfmon, ...) are
 * left to the administrator's judgement; usercaps.rst says why.
 */
#include <stddef.h>
#include <string.h>

#include "usercapsctl.h"

static const struct {
	const char *name;
	const char *why;
} uc_risks[] = {
	{ "audit_control", "can disable auditing and rewrite the audit rules that watch privileged actions" },
	{ "bpf", "can load BPF programs, which with perfmon read kernel memory, through a verifier that is a frequent exploit target" },
	{ "chown", "can chown any file, e.g. /etc/shadow or a setuid binary, to itself: root-equivalent" },
	{ "dac_override", "can write any file, e.g. /etc/shadow or /etc/sudoers: root-equivalent" },
	{ "dac_read_search", "can read any file (/etc/shadow, private keys) and open files by handle past chroots" },
	{ "fowner", "can chmod any file, the usercaps policy files included: rewrites this policy" },
	{ "mac_admin", "can load and change the MAC policy (AppArmor profiles): rewrites a security policy" },
	{ "mac_override", "can bypass the MAC policy" },
	{ "mknod", "can create a device node for the root disk or /dev/mem that it owns: root-equivalent" },
	{ "setfcap", "can put any capability on a file it owns and execute it: root-equivalent" },
	{ "setgid", "can become any group (shadow, disk, ...): root-equivalent" },
	{ "setpcap", "can raise any bounding-set capability into its inheritable set, which files with inheritable capabilities turn into permitted ones" },
	{ "setuid", "can become any user, root included" },
	{ "sys_admin", "can mount over /etc and much else: the catch-all, root-equivalent" },
	{ "sys_boot", "can kexec a kernel of its choice" },
	{ "sys_module", "can load code into the kernel" },
	{ "sys_ptrace", "can ptrace root's processes and inject code into them" },
	{ "sys_rawio", "can reach I/O ports, /dev/mem and raw disk commands: root-equivalent" },
};

/* Why granting @name is dangerous, or NULL if it is not on the list. */
const char *uc_cap_risk(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(uc_risks) / sizeof(uc_risks[0]); i++)
		if (!strcmp(uc_risks[i].name, name))
			return uc_risks[i].why;
	return NULL;
}
