// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - registration and boot parameter
 *
 * usercaps registers no security hook: a stacked LSM can only refuse, and
 * usercaps grants, through usercaps_capable() in cap_capable(). Being an
 * LSM gives it what it needs besides: enabling with lsm=, a place in
 * /sys/kernel/security/lsm, an init that runs before any policy file
 * exists, and a blob in every credential for percred mode's cache.
 */

#define pr_fmt(fmt) "usercaps: " fmt

#include <linux/align.h>
#include <linux/build_bug.h>
#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/usercaps.h>

#include "usercaps.h"

/* Turned on once the capability files exist; see usercaps_init_securityfs. */
DEFINE_STATIC_KEY_FALSE_RO(usercaps_enabled);

/* Turned on with usercaps_enabled in naive mode: checks read the inode. */
DEFINE_STATIC_KEY_FALSE_RO(usercaps_naive);

bool usercaps_initialized __ro_after_init;

const char *const usercaps_mode_names[USERCAPS_MODE_COUNT] = {
	[USERCAPS_MODE_NAIVE] = "naive",
	[USERCAPS_MODE_CACHED] = "cached",
	[USERCAPS_MODE_PERCRED] = "percred",
};

enum usercaps_mode usercaps_mode __ro_after_init = USERCAPS_MODE_PERCRED;

/*
 * Only percred mode keeps anything in a credential: the other modes add
 * no blob, and so no allocation to each new credential. usercaps.mode= is
 * parsed before the LSMs' blobs are sized.
 */
static struct lsm_blob_sizes usercaps_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct usercaps_cred_cache),
};

/**
 * usercaps_mode_set - Parse usercaps.mode=
 * @val: The value given on the command line
 * @kp: The parameter
 *
 * Return: 0, or -EINVAL for an unknown mode, which keeps the default.
 */
static int usercaps_mode_set(const char *val, const struct kernel_param *kp)
{
	int mode = val ? sysfs_match_string(usercaps_mode_names, val) : -EINVAL;

	if (mode < 0) {
		pr_err("invalid mode '%s': valid modes are naive, cached and percred; using %s\n",
		       val ?: "", usercaps_mode_names[usercaps_mode]);
		return -EINVAL;
	}
	*(enum usercaps_mode *)kp->arg = mode;
	usercaps_blob_sizes.lbs_cred = mode == USERCAPS_MODE_PERCRED ?
				       sizeof(struct usercaps_cred_cache) : 0;
	return 0;
}

static const struct kernel_param_ops usercaps_mode_ops = {
	.set = usercaps_mode_set,
};

/*
 * Boot only, not in sysfs: the mode is read at every check without any
 * ordering against a change, and /sys/kernel/security/usercaps/mode shows
 * it.
 */
module_param_cb(mode, &usercaps_mode_ops, &usercaps_mode, 0);
MODULE_PARM_DESC(mode, "where checks read the policy: naive, cached or percred (default)");

/**
 * usercaps_enable - Let capability checks ask usercaps
 *
 * Called once the policy files exist. Enabling a static key patches every
 * CPU's text, which orders everything set up before it before any check;
 * the mode's own key goes first, so that no check sees the policy
 * through another mode's path.
 */
void __init usercaps_enable(void)
{
	if (usercaps_mode == USERCAPS_MODE_PERCRED)
		static_branch_enable(&usercaps_percred);
	if (usercaps_mode == USERCAPS_MODE_NAIVE)
		static_branch_enable(&usercaps_naive);
	static_branch_enable(&usercaps_enabled);
}

/**
 * usercaps_init - Set up the policy of an LSM enabled with lsm=
 *
 * The policy starts in its default state, which grants nothing; checks
 * stay off until the securityfs files exist.
 *
 * Percred's cache, read and compared-and-exchanged as u64, needs an
 * aligned offset in a blob that kmalloc() aligns. Linux 6.12 aligns each
 * LSM's part of the credential blob to a pointer; Linux 6.1 packs them one
 * after the other, and every LSM of 6.1 asks for a multiple of 8 bytes.
 * Should the offset still be unaligned, percred mode falls back to cached
 * mode, which keeps nothing in the credential.
 *
 * Return: 0, or -ENOMEM.
 */
static int __init usercaps_init(void)
{
	const size_t align = __alignof__(struct usercaps_cred_cache);
	int err;

	BUILD_BUG_ON(align > ARCH_KMALLOC_MINALIGN);
	BUILD_BUG_ON(!IS_ALIGNED(sizeof(struct usercaps_cred_cache), align));
	err = usercaps_policy_init();
	if (err)
		return err;
	/* No hooks, but this lists usercaps in /sys/kernel/security/lsm. */
	security_add_hooks(NULL, 0, "usercaps");
	usercaps_cred_offset = usercaps_blob_sizes.lbs_cred;
	if (usercaps_mode == USERCAPS_MODE_PERCRED &&
	    !IS_ALIGNED(usercaps_cred_offset, align)) {
		pr_err("credential blob offset %u is not %zu-byte aligned: using cached mode\n",
		       usercaps_cred_offset, align);
		usercaps_mode = USERCAPS_MODE_CACHED;
	}
	usercaps_initialized = true;
	pr_info("initialized, %s mode\n", usercaps_mode_names[usercaps_mode]);
	return 0;
}

DEFINE_LSM(usercaps) = {
	.name = "usercaps",
	.init = usercaps_init,
	.blobs = &usercaps_blob_sizes,
};
