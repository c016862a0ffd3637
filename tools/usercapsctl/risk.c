// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercapsctl - grants that give more than they say
 *
 * Two tiers. Granting a capability of the first is refused without
 * --force: the capability alone gives a known way to full root, or lets
 * its holder rewrite a security policy. Granting one of the second, or
 * granting anything to every user (other) or to root's group, is done
 * with a warning: it is broad, but no known way to root. usercaps.rst
 * says why.
 */
#include <stddef.h>
#include <string.h>

#include "usercapsctl.h"

static const struct {
	const char *name;
	enum uc_tier tier;
	const char *why;
} uc_risks[] = {
	{ "audit_control", UC_TIER_FORCE, "its holder can disable auditing and rewrite the audit rules that watch privileged actions" },
	{ "audit_read", UC_TIER_WARN, "its holder can read the audit log of every user through the audit netlink socket" },
	{ "bpf", UC_TIER_FORCE, "its holder can load BPF programs, which with perfmon read kernel memory, through a verifier that is a frequent exploit target" },
	{ "chown", UC_TIER_FORCE, "its holder can chown any file, e.g. /etc/shadow or a setuid binary, to itself: root-equivalent" },
	{ "dac_override", UC_TIER_FORCE, "its holder can write any file, e.g. /etc/shadow or /etc/sudoers: root-equivalent" },
	{ "dac_read_search", UC_TIER_FORCE, "its holder can read any file (/etc/shadow, private keys) and open files by handle past chroots" },
	{ "fowner", UC_TIER_FORCE, "its holder can chmod any file, e.g. make /etc/shadow world-writable or a binary of root's setuid: root-equivalent" },
	{ "ipc_owner", UC_TIER_WARN, "its holder can read and write every user's System V shared memory, semaphores and message queues" },
	{ "kill", UC_TIER_WARN, "its holder can signal any process, root's daemons included" },
	{ "mac_admin", UC_TIER_FORCE, "its holder can load and change AppArmor's policy; usercaps' own files need it in the effective set, where no grant puts it" },
	{ "mac_override", UC_TIER_FORCE, "its holder can bypass the MAC policy" },
	{ "mknod", UC_TIER_FORCE, "its holder can create a device node for the root disk or /dev/mem that it owns: root-equivalent" },
	{ "net_admin", UC_TIER_WARN, "its holder can reconfigure every interface, route and firewall rule, and capture traffic" },
	{ "net_raw", UC_TIER_WARN, "its holder can send and capture raw packets: spoof and sniff local traffic" },
	{ "perfmon", UC_TIER_WARN, "its holder can profile every process and the kernel, reading their data and addresses" },
	{ "setfcap", UC_TIER_FORCE, "its holder can put any capability on a file it owns and execute it: root-equivalent" },
	{ "setgid", UC_TIER_FORCE, "its holder can become any group (shadow, disk, ...): root-equivalent" },
	{ "setpcap", UC_TIER_FORCE, "its holder can raise any bounding-set capability into its inheritable set, which files with inheritable capabilities turn into permitted ones" },
	{ "setuid", UC_TIER_FORCE, "its holder can become any user, root included" },
	{ "sys_admin", UC_TIER_FORCE, "its holder can mount over /etc and much else: the catch-all, root-equivalent" },
	{ "sys_boot", UC_TIER_FORCE, "its holder can kexec a kernel of its choice" },
	{ "sys_module", UC_TIER_FORCE, "its holder can load code into the kernel" },
	{ "sys_ptrace", UC_TIER_FORCE, "its holder can ptrace root's processes and inject code into them" },
	{ "sys_rawio", UC_TIER_FORCE, "its holder can reach I/O ports, /dev/mem and raw disk commands: root-equivalent" },
	{ "sys_resource", UC_TIER_WARN, "its holder can go past every resource limit and quota, and fill the reserved space of file systems" },
	{ "syslog", UC_TIER_WARN, "its holder can read and clear the kernel log, with the kernel addresses it shows" },
};

/**
 * uc_grant_risk - What is risky about granting a capability to someone
 * @cap: The capability
 * @t: To whom
 * @why: Where to store the reason, a clause ("its holder can ..."), or
 *	NULL if there is no risk
 *
 * Return: UC_TIER_NONE, UC_TIER_WARN or UC_TIER_FORCE.
 */
enum uc_tier uc_grant_risk(int cap, const struct uc_target *t, const char **why)
{
	size_t i;

	for (i = 0; i < sizeof(uc_risks) / sizeof(uc_risks[0]); i++) {
		if (!strcmp(uc_risks[i].name, uc_cap_name(cap))) {
			*why = uc_risks[i].why;
			return uc_risks[i].tier;
		}
	}
	*why = NULL;
	if (t->class == UC_OTHER)
		*why = "it reaches every user, nobody and service accounts included";
	else if (t->class == UC_GROUP && t->id == 0)
		*why = "root's group reaches every process with gid 0, which many services keep after giving up uid 0";
	return *why ? UC_TIER_WARN : UC_TIER_NONE;
}
