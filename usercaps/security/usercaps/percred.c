// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - per-credential decision cache (percred mode)
 *
 * A credential never changes after it is committed, so what the policy
 * grants it depends only on the policy. Each credential's LSM blob keeps
 * the capabilities granted to it and the policy generation they were
 * computed for; every policy change moves the generation on, which makes
 * every cache stale at once without visiting any credential. A check is
 * then a load and a compare (see usercaps_percred_capable()), whatever the
 * number of supplementary groups.
 */

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/cred.h>
#include <linux/usercaps.h>
#include <trace/events/usercaps.h>

#include "usercaps.h"

/* Enabled, before usercaps_enabled, in percred mode only. */
DEFINE_STATIC_KEY_FALSE_RO(usercaps_percred);

/* Moved on by every policy change; 0 is never a valid generation. */
u64 usercaps_generation __read_mostly = 1;

/* Where struct usercaps_cred_cache is in the credential's blob. */
unsigned int usercaps_cred_offset __ro_after_init;

/**
 * usercaps_percred_fill - Decide from the policy and cache the decisions
 * @cred: The credential being checked
 *
 * Called when @cred's cache is stale or being filled. The generation is
 * read before the policy, so that the decisions are at least as new as
 * the generation they are stored with: a change that races with the fill
 * leaves a generation that no longer matches. Of concurrent fills of one
 * credential, one stores its decisions (claiming the cache by marking it
 * busy) and the others only answer. A fill claims only a cache whose
 * generation is older than the one it read, so a check that found the
 * cache current and then reads the decisions of this fill is concurrent
 * with the policy change the fill saw, and may return either answer.
 *
 * Each fill fires the usercaps_percred_fill tracepoint, which says
 * whether it stored its decisions.
 *
 * The generation and the decisions are 64-bit words read and exchanged
 * whole, which is why usercaps depends on 64BIT: a generation that
 * wrapped would let a stale decision pass for a current one.
 *
 * Return: bit CAP_* set for each capability the policy grants @cred.
 */
u64 usercaps_percred_fill(const struct cred *cred)
{
	struct usercaps_cred_cache *cache = cred->security + usercaps_cred_offset;
	u64 seen = READ_ONCE(cache->generation);
	u64 generation, granted;
	bool stored = false;

	BUILD_BUG_ON(BITS_PER_TYPE(granted) <= CAP_LAST_CAP);
	/* Pairs with the release in usercaps_percred_publish(). */
	generation = smp_load_acquire(&usercaps_generation);
	granted = usercaps_policy_granted(cred);

	/* Generations only grow, and a busy cache is above them all. */
	if (seen < generation &&
	    cmpxchg(&cache->generation, seen, USERCAPS_CACHE_BUSY) == seen) {
		WRITE_ONCE(cache->granted, granted);
		/* Pairs with the smp_rmb() in usercaps_percred_capable(). */
		smp_store_release(&cache->generation, generation);
		stored = true;
	}
	trace_usercaps_percred_fill(seen, generation, stored);
	return granted;
}

/**
 * usercaps_percred_refill - Check a capability against a stale cache
 * @cred: The credential being checked
 * @cap: The capability, which some file grants to someone
 *
 * usercaps_percred_capable() when @cred's cache is stale: fill it, then
 * decide as from a current cache.
 *
 * Return: 0 if usercaps grants @cap to @cred, -EPERM otherwise.
 */
int usercaps_percred_refill(const struct cred *cred, int cap)
{
	if (!(usercaps_percred_fill(cred) & BIT_ULL(cap)))
		return -EPERM;
	return usercaps_allow(cred, cap);
}

/**
 * usercaps_percred_publish - Make a policy change visible to the caches
 * @cap: The capability whose entry changed
 * @entry: Its new owner, group and mode, already published in the table
 *
 * Called with the policy's writer lock held, in every mode. A revocation
 * clears the capability's may-grant bit before the generation moves, so
 * a check that reads the bit after the change refuses without looking
 * further; a check that reads the bit before it still finds every cache
 * stale, or in cached mode reads the table. Only writers, under the lock,
 * change the word.
 */
void usercaps_percred_publish(int cap, const struct usercaps_entry *entry)
{
	u64 may_grant = usercaps_may_grant & ~BIT_ULL(cap);

	if (usercaps_mode == USERCAPS_MODE_NAIVE || usercaps_grantees(entry))
		may_grant |= BIT_ULL(cap);
	WRITE_ONCE(usercaps_may_grant, may_grant);
	/* Pairs with the acquire in usercaps_percred_fill(). */
	smp_store_release(&usercaps_generation, usercaps_generation + 1);
}
