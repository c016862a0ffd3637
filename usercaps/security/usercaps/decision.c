// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - decision
 *
 * Whether a capability file's owner, group and mode grant its capability
 * to a credential. Pure functions of their arguments, so that KUnit can
 * test them without processes or files; those a check calls are inline,
 * in usercaps.h.
 */

#include <linux/cred.h>
#include <linux/stat.h>

#include "usercaps.h"

/* Indexed by the bit number of USERCAPS_GRANTS_*. */
const char *const usercaps_class_names[3] = { "owner", "group", "other" };

/**
 * usercaps_grantees - Which classes of a capability file grant to someone
 * @entry: Owner, group and mode of the capability's file
 *
 * Return: USERCAPS_GRANTS_OWNER, _GROUP and _OTHER bits, or 0 if @entry
 * grants to nobody.
 */
unsigned int usercaps_grantees(const struct usercaps_entry *entry)
{
	unsigned int grantees = 0;

	if ((entry->mode & 0100) && !uid_eq(entry->owner, GLOBAL_ROOT_UID))
		grantees |= USERCAPS_GRANTS_OWNER;
	if (entry->mode & 0010)
		grantees |= USERCAPS_GRANTS_GROUP;
	if (entry->mode & 0001)
		grantees |= USERCAPS_GRANTS_OTHER;
	return grantees;
}

/**
 * usercaps_entry_is_default - Whether a capability file is as at boot
 * @entry: Owner, group and mode of the capability's file
 *
 * Return: true if @entry is owned by root:root with mode 0100.
 */
bool usercaps_entry_is_default(const struct usercaps_entry *entry)
{
	return uid_eq(entry->owner, GLOBAL_ROOT_UID) &&
	       gid_eq(entry->group, GLOBAL_ROOT_GID) &&
	       entry->mode == USERCAPS_DEFAULT_MODE;
}

/**
 * usercaps_cred_granted - Every capability a policy grants a credential
 * @caps: Owner, group and mode of every capability's file, by CAP_*
 * @cred: The credential
 *
 * What percred mode caches: for each capability, what a check of it by
 * usercaps_cred_eligible() and usercaps_entry_grants() would decide.
 *
 * Return: bit CAP_* set for each capability granted to @cred.
 */
u64 usercaps_cred_granted(const struct usercaps_entry *caps,
			  const struct cred *cred)
{
	u64 granted = 0;
	int cap;

	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		if (usercaps_grantees(&caps[cap]) &&
		    usercaps_cred_eligible(cred, cap) &&
		    usercaps_entry_grants(&caps[cap], cred->fsuid, cred->fsgid,
					  cred->group_info))
			granted |= BIT_ULL(cap);
	return granted;
}
