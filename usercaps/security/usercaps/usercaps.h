/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usercaps LSM - internal interfaces
 */
#ifndef _SECURITY_USERCAPS_USERCAPS_H
#define _SECURITY_USERCAPS_USERCAPS_H

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

/**
 * enum usercaps_mode - Where a capability check reads the policy from
 * @USERCAPS_MODE_NAIVE: The capability file's inode, at every check
 * @USERCAPS_MODE_CACHED: An RCU-protected copy, refreshed on chmod/chown
 * @USERCAPS_MODE_PERCRED: The decisions cached in each credential, computed
 *                         from that copy once per policy change
 * @USERCAPS_MODE_COUNT: Number of modes
 */
enum usercaps_mode {
	USERCAPS_MODE_NAIVE,
	USERCAPS_MODE_CACHED,
	USERCAPS_MODE_PERCRED,
	USERCAPS_MODE_COUNT,
};

extern enum usercaps_mode usercaps_mode;
DECLARE_STATIC_KEY_FALSE(usercaps_naive);
extern const char *const usercaps_mode_names[USERCAPS_MODE_COUNT];
extern bool usercaps_initialized;

/**
 * struct usercaps_entry - Who holds one capability
 * @mode: Permission bits (S_IALLUGO) of the capability's file
 * @owner: Owner of the file
 * @group: Group of the file
 */
struct usercaps_entry {
	umode_t mode;
	kuid_t owner;
	kgid_t group;
};

/* Owner root, group root, mode 0100: grants nothing. */
#define USERCAPS_DEFAULT_MODE 0100

/*
 * The classes of a file's mode, as returned by usercaps_entry_class() and,
 * for those whose execute bit grants, usercaps_grantees().
 */
#define USERCAPS_GRANTS_OWNER	BIT(0)
#define USERCAPS_GRANTS_GROUP	BIT(1)
#define USERCAPS_GRANTS_OTHER	BIT(2)

/**
 * usercaps_entry_class - Which class of a capability file's mode applies
 * @entry: Owner, group and mode of the capability's file
 * @fsuid: The credential's filesystem uid
 * @fsgid: The credential's filesystem gid
 * @groups: The credential's supplementary groups
 *
 * The precedence of a file's permission check: the owner's class if
 * @fsuid owns the file, else the group's if @fsgid or a supplementary
 * group is the file's, else the others'.
 *
 * Return: USERCAPS_GRANTS_OWNER, USERCAPS_GRANTS_GROUP or
 * USERCAPS_GRANTS_OTHER.
 */
static inline unsigned int usercaps_entry_class(const struct usercaps_entry *entry,
						kuid_t fsuid, kgid_t fsgid,
						const struct group_info *groups)
{
	if (uid_eq(fsuid, entry->owner))
		return USERCAPS_GRANTS_OWNER;
	if (gid_eq(fsgid, entry->group) || groups_search(groups, entry->group))
		return USERCAPS_GRANTS_GROUP;
	return USERCAPS_GRANTS_OTHER;
}

/* The decision of a check in naive and cached modes (decision.c). */

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
static inline bool usercaps_cred_eligible(const struct cred *cred, int cap)
{
	return cred->user_ns == &init_user_ns && cap_raised(cred->cap_bset, cap);
}

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
static inline bool usercaps_entry_grants(const struct usercaps_entry *entry,
					 kuid_t fsuid, kgid_t fsgid,
					 const struct group_info *groups)
{
	/* usercaps_entry_class() written out: the checks of naive mode. */
	if (uid_eq(fsuid, entry->owner))
		return !uid_eq(entry->owner, GLOBAL_ROOT_UID) &&
		       (entry->mode & 0100);
	if (gid_eq(fsgid, entry->group) || groups_search(groups, entry->group))
		return entry->mode & 0010;
	return entry->mode & 0001;
}

/* audit.c */
void usercaps_audit_change(int cap, const struct usercaps_entry *old,
			   const struct usercaps_entry *new);
void usercaps_audit_refusal(int cap, const struct iattr *attr,
			    const char *reason, int err);

/* lsm.c */
void __init usercaps_enable(void);

/* cred.c */
bool usercaps_cred_substituted(const struct cred *cred);

/* decision.c */
extern const char *const usercaps_class_names[3];
unsigned int usercaps_grantees(const struct usercaps_entry *entry);
bool usercaps_entry_is_default(const struct usercaps_entry *entry);
u64 usercaps_cred_granted(const struct usercaps_entry *caps,
			  const struct cred *cred);

/* percred.c */
u64 usercaps_percred_fill(const struct cred *cred);
void usercaps_percred_publish(int cap, const struct usercaps_entry *entry);

/* policy.c */
int __init usercaps_policy_init(void);
void __init usercaps_policy_set_inode(int cap, struct inode *inode);
void __init usercaps_policy_forget_inodes(void);
struct inode *usercaps_policy_inode(int cap);
void usercaps_policy_get(int cap, struct usercaps_entry *entry);
u64 usercaps_policy_granted(const struct cred *cred);
int usercaps_policy_setattr(struct user_namespace *mnt_userns, int cap,
			    struct inode *inode, struct iattr *attr);

/* securityfs.c */
extern const char *const usercaps_cap_names[];
bool usercaps_may_change_policy(void);

#endif /* _SECURITY_USERCAPS_USERCAPS_H */
