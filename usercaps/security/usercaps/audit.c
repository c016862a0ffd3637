// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - audit of policy changes
 *
 * One AUDIT_MAC_CONFIG_CHANGE record per attempt to chmod or chown a
 * capability file, when audit is enabled: res=1 with the old and new
 * owner, group and mode for a change, res=0 with the reason and the
 * error for a change that was refused or failed. A setattr that changes
 * neither owner, group nor mode (utimensat(), a chmod to the same mode)
 * is no policy change and leaves no record.
 */

#include <linux/audit.h>
#include <linux/fs.h>
#include <linux/user_namespace.h>

#include "usercaps.h"

/* Starts a record about @cap, or returns NULL when audit is off. */
static struct audit_buffer *usercaps_audit_start(int cap)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return NULL;
	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_CONFIG_CHANGE);
	if (ab)
		audit_log_format(ab, "lsm=usercaps op=setattr cap=%s",
				 usercaps_cap_names[cap]);
	return ab;
}

/* Ends a record with who made the attempt, and its result. */
static void usercaps_audit_end(struct audit_buffer *ab, int res)
{
	audit_log_task_info(ab);
	audit_log_format(ab, " res=%d", res);
	audit_log_end(ab);
}

/**
 * usercaps_audit_change - Log one change of a capability file
 * @cap: The capability
 * @old: Its owner, group and mode before the change
 * @new: And after
 */
void usercaps_audit_change(int cap, const struct usercaps_entry *old,
			   const struct usercaps_entry *new)
{
	struct audit_buffer *ab = usercaps_audit_start(cap);

	if (!ab)
		return;
	audit_log_format(ab,
			 " old_owner=%u old_group=%u old_mode=%04o owner=%u group=%u mode=%04o",
			 from_kuid(&init_user_ns, old->owner),
			 from_kgid(&init_user_ns, old->group), old->mode,
			 from_kuid(&init_user_ns, new->owner),
			 from_kgid(&init_user_ns, new->group), new->mode);
	usercaps_audit_end(ab, 1);
}

/**
 * usercaps_audit_refusal - Log a change of a capability file that failed
 * @cap: The capability
 * @attr: The change asked for
 * @reason: Why it failed, one word: "gate" (the caller may not change
 *          the policy), "truncate", "setattr" (setattr_prepare() refused
 *          it) or "nomem"
 * @err: The error returned to the caller
 *
 * The record names the policy as it stays, which attributes the caller
 * asked to change, and the mode it asked for.
 */
void usercaps_audit_refusal(int cap, const struct iattr *attr,
			    const char *reason, int err)
{
	struct audit_buffer *ab = usercaps_audit_start(cap);
	struct usercaps_entry entry;

	if (!ab)
		return;
	usercaps_policy_get(cap, &entry);
	audit_log_format(ab,
			 " owner=%u group=%u mode=%04o req_owner=%d req_group=%d req_mode=",
			 from_kuid(&init_user_ns, entry.owner),
			 from_kgid(&init_user_ns, entry.group), entry.mode,
			 !!(attr->ia_valid & ATTR_UID),
			 !!(attr->ia_valid & ATTR_GID));
	if (attr->ia_valid & ATTR_MODE)
		audit_log_format(ab, "%04o", attr->ia_mode & S_IALLUGO);
	else
		audit_log_format(ab, "none");
	audit_log_format(ab, " reason=%s error=%d", reason, err);
	usercaps_audit_end(ab, 0);
}
