// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - decision
 *
 * Whether a capability file's owner, group and mode grant its capability
 * to a credential. Pure functions of their arguments, so that KUnit can
 * test them without processes or files.
 */

#include <linux/cred.h>
#include <linux/stat.h>
#include <linux/user_namespace.h>

#include "usercaps.h"

/**
 * usercaps_cred_eligible - Whether usercaps may grant a capability at all
 * @cred: The credential being checked
 * @cap: The capability
 *
 * Only a credential of the initial user namespace is eligible. The files
 * in securityfs name users and groups of the initial namespace and say
 * what they may do there; a process that entered a user namespace has
 * the capabilities that namespace gave it, and a sandbox that created one
 * to shed its privileges must not get them back from a host-wide policy.
 * A grant still reaches child namespaces: cap_capable() walks from the
 * target namespace up to the credential's own before asking usercaps.
 *
 * The bounding set limits usercaps as it limits file capabilities: a
 * capability dropped from it is gone for good, whatever the policy.
 *
 * Return: true if @cred may be granted @cap by the policy.
 */
bool usercaps_cred_eligible(const struct cred *cred, int cap)
{
	return cred->user_ns == &init_user_ns && cap_raised(cred->cap_bset, cap);
}

/* Indexed by the bit number of USERCAPS_GRANTS_*. */
const char *const usercaps_class_names[3] = { "owner", "group", "other" };

/**
 * usercaps_entry_grants - Whether a capability file grants to a credential
 * @entry: Owner, group and mode of the capability's file
 * @fsuid: The credential's filesystem uid
 * @fsgid: The credential's filesystem gid
 * @groups: The credential's supplementary groups
 *
 * The execute bit of the class that applies (usercaps_entry_class())
 * decides, even when another class would grant.
 *
 * The owner bits of a file owned by root never grant: root's capabilities
 * are those of its capability sets, so that a root process that dropped
 * them does not regain them through the default policy. Root is in the
 * group and other classes like anyone: a file whose group or other bits
 * grant gives its capability to a root process that dropped it too.
 *
 * Return: true if @entry grants its capability.
 */
bool usercaps_entry_grants(const struct usercaps_entry *entry, kuid_t fsuid,
			   kgid_t fsgid, const struct group_info *groups)
{
	/* usercaps_entry_class() written out: the checks of naive mode. */
	if (uid_eq(fsuid, entry->owner))
		return !uid_eq(entry->owner, GLOBAL_ROOT_UID) &&
		       (entry->mode & 0100);
	if (gid_eq(fsgid, entry->group) || groups_search(groups, entry->group))
		return entry->mode & 0010;
	return entry->mode & 0001;
}

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
