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

#include <linux/errno.h>
#include <linux/jump_label.h>

struct cred;

#ifdef CONFIG_SECURITY_USERCAPS

DECLARE_STATIC_KEY_FALSE(usercaps_enabled);

int usercaps_cred_capable(const struct cred *cred, int cap);

/**
 * usercaps_capable - Ask usercaps for a capability commoncap refused
 * @cred: The credential being checked (not necessarily current's)
 * @cap: The capability, not in @cred's effective set
 *
 * Costs a patched-out jump unless usercaps is enabled with lsm=.
 *
 * Return: 0 if usercaps grants @cap to @cred, -EPERM otherwise.
 */
static inline int usercaps_capable(const struct cred *cred, int cap)
{
	if (static_branch_unlikely(&usercaps_enabled))
		return usercaps_cred_capable(cred, cap);
	return -EPERM;
}

#else

static inline int usercaps_capable(const struct cred *cred, int cap)
{
	return -EPERM;
}

#endif /* CONFIG_SECURITY_USERCAPS */

#endif /* _LINUX_USERCAPS_H */
