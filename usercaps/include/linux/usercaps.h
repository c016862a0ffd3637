/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usercaps LSM - hook called by commoncap
 *
 * cap_capable() calls usercaps_capable() for a capability that is not in
 * the effective set of a credential in the target namespace. A stacked LSM
 * cannot grant a capability that commoncap refused, so this is the one
 * place where usercaps can say yes.
 */
#ifndef _LINUX_USERCAPS_H
#define _LINUX_USERCAPS_H

#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/compiler.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/sched.h>
#include <linux/tracepoint-defs.h>
#include <linux/types.h>

#ifdef CONFIG_SECURITY_USERCAPS

/**
 * struct usercaps_cred_cache - What the policy grants one credential
 * @generation: The policy generation @granted was computed for; 0 before
 *              the first check, USERCAPS_CACHE_BUSY while being filled
 * @granted: Bit CAP_* set if the policy grants that capability
 *
 * Lives in the credential's LSM blob, in percred mode only. A credential
 * never changes, so its decisions change only with the policy: one load
 * of the generation tells whether they still hold.
 */
struct usercaps_cred_cache {
	u64 generation;
	u64 granted;
};

#define USERCAPS_CACHE_BUSY	U64_MAX

DECLARE_STATIC_KEY_FALSE(usercaps_enabled);
DECLARE_STATIC_KEY_FALSE(usercaps_percred);
DECLARE_TRACEPOINT(usercaps_grant);

extern u64 usercaps_may_grant;
extern u64 usercaps_generation;
extern unsigned int usercaps_cred_offset;

int usercaps_cred_capable(const struct cred *cred, int cap);
int usercaps_percred_refill(const struct cred *cred, int cap);
void usercaps_trace_grant(const struct cred *cred, int cap);
int usercaps_allow_override(const struct cred *cred, int cap);

/**
 * usercaps_allow - Grant a capability that the policy gives a credential
 * @cred: The credential being checked
 * @cap: The capability the policy grants @cred
 *
 * Grants follow a task's own credentials. usercaps grants nothing while
 * the caller is a kernel thread: nfsd and ksmbd build each request's
 * credential from the ids a client claims, and kworkers run for anyone.
 * Nor does it grant to a credential the kernel substituted for the
 * caller's own (override_creds(): nfsd's LOCALIO path, overlayfs'
 * mounter, cachefiles) or to another task's or an open file's
 * credential (has_capability(), file_ns_capable()), unless it carries
 * the caller's own identity (see usercaps_allow_override()).
 * io_uring's io-wq workers are not kernel threads (PF_IO_WORKER, not
 * PF_KTHREAD): they run the submitting process's requests with its
 * credential, and keep its grants as the process itself would.
 *
 * Decided here, at each grant, and never stored in percred's cache: a
 * credential a kernel thread checks may also be a user process's own.
 * The common case, a task checking its own real credential, costs a
 * load and a compare; when the usercaps_grant tracepoint is off, it
 * costs a patched-out jump.
 *
 * Return: 0, or -EPERM in a kernel thread or for a substituted credential.
 */
static __always_inline int usercaps_allow(const struct cred *cred, int cap)
{
	if (unlikely(current->flags & PF_KTHREAD))
		return -EPERM;
	/* A tail call, so that the common case keeps no frame for it. */
	if (unlikely(cred != current_real_cred()))
		return usercaps_allow_override(cred, cap);
	if (tracepoint_enabled(usercaps_grant))
		usercaps_trace_grant(cred, cap);
	return 0;
}

/**
 * usercaps_percred_capable - Ask the credential's decision cache
 * @cred: The credential being checked
 * @cap: The capability, not in @cred's effective set, which the policy
 *       grants to someone
 *
 * The decisions cached for the current policy generation answer; a stale
 * cache is filled by usercaps_percred_refill(). A fill that races with
 * this read stores the decisions of a newer generation (see
 * usercaps_percred_fill()), which a check concurrent with that policy
 * change may return as well: a cached decision is never older than its
 * generation.
 *
 * Return: 0 if usercaps grants @cap to @cred, -EPERM otherwise.
 */
static __always_inline int usercaps_percred_capable(const struct cred *cred,
						    int cap)
{
	const struct usercaps_cred_cache *cache;

	cache = cred->security + usercaps_cred_offset;
	/* A tail call, so that cap_capable() keeps no frame for it. */
	if (unlikely(READ_ONCE(cache->generation) !=
		     READ_ONCE(usercaps_generation)))
		return usercaps_percred_refill(cred, cap);
	/* Pairs with the release of the generation in the fill. */
	smp_rmb();
	if (!(READ_ONCE(cache->granted) & BIT_ULL(cap)))
		return -EPERM;
	return usercaps_allow(cred, cap);
}

/**
 * usercaps_capable - Ask usercaps for a capability commoncap refused
 * @cred: The credential being checked (not necessarily current's)
 * @cap: The capability, not in @cred's effective set
 *
 * Costs one patched-out jump unless usercaps is enabled with lsm=. Once
 * enabled, a capability that nobody holds through usercaps is refused at
 * the next test, before any call or RCU read section: its bit in
 * usercaps_may_grant is clear (naive mode, which reads the inode at every
 * check, keeps every bit set). Then percred mode's test of
 * usercaps_percred is a no-op and its decision is inline; the naive and
 * cached modes jump past it and call out of line.
 *
 * Return: 0 if usercaps grants @cap to @cred, -EPERM otherwise.
 */
static __always_inline int usercaps_capable(const struct cred *cred, int cap)
{
	if (!static_branch_unlikely(&usercaps_enabled))
		return -EPERM;
	if (likely(!(READ_ONCE(usercaps_may_grant) & BIT_ULL(cap))))
		return -EPERM;
	if (static_branch_likely(&usercaps_percred))
		return usercaps_percred_capable(cred, cap);
	return usercaps_cred_capable(cred, cap);
}

#else

static inline int usercaps_capable(const struct cred *cred, int cap)
{
	return -EPERM;
}

#endif /* CONFIG_SECURITY_USERCAPS */

#endif /* _LINUX_USERCAPS_H */
