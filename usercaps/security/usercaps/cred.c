// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - whose credentials receive grants
 *
 * Grants follow a task's own credentials. The kernel checks capabilities
 * against credentials it substituted for the running task's own
 * (override_creds()): nfsd's LOCALIO path checks an export's mapped
 * identity in the NFS client's task, overlayfs acts with its mounter's
 * credential, cachefiles with its daemon's; has_capability() and
 * file_ns_capable() ask about another task's or an opener's. A policy
 * that names users must not follow such a credential into whatever task
 * carries it. The one substitution that keeps the task's identity is
 * access(2)'s, which asks with the task's real ids.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/uidgid.h>
#include <linux/usercaps.h>

#include "usercaps.h"

/**
 * usercaps_cred_substituted - Whether a credential is not current's own
 * @cred: A credential checked in current, other than its real credential
 *
 * access(2), and faccessat(2) without AT_EACCESS, check under an override
 * credential that copies the real one with the real ids as filesystem
 * ids. A user granted a capability must get the same answer there as
 * from open(), so that credential counts as current's own: current's
 * subjective credential, with every id, the groups, the user namespace
 * of its real credential, and no wider a bounding set. Any other
 * credential is a substitute.
 *
 * Return: false for current's own identity as access(2) sets it, true
 * for a substituted credential.
 */
bool usercaps_cred_substituted(const struct cred *cred)
{
	const struct cred *real = current_real_cred();

	if (cred != current_cred())
		return true;
	return !uid_eq(cred->uid, real->uid) || !gid_eq(cred->gid, real->gid) ||
	       !uid_eq(cred->euid, real->euid) ||
	       !gid_eq(cred->egid, real->egid) ||
	       !uid_eq(cred->suid, real->suid) ||
	       !gid_eq(cred->sgid, real->sgid) ||
	       !uid_eq(cred->fsuid, real->uid) ||
	       !gid_eq(cred->fsgid, real->gid) ||
	       cred->group_info != real->group_info ||
	       cred->user_ns != real->user_ns ||
	       !cap_issubset(cred->cap_bset, real->cap_bset);
}

/**
 * usercaps_allow_override - usercaps_allow() for another credential
 * @cred: The credential being checked, not current's real credential
 * @cap: The capability the policy grants @cred
 *
 * Out of line, so that a task checking its own real credential pays a
 * load and a compare for the rule.
 *
 * Return: 0, or -EPERM for a substituted credential.
 */
int usercaps_allow_override(const struct cred *cred, int cap)
{
	if (usercaps_cred_substituted(cred))
		return -EPERM;
	if (tracepoint_enabled(usercaps_grant))
		usercaps_trace_grant(cred, cap);
	return 0;
}
