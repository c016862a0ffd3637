// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - audit of policy changes
 */

#include <linux/audit.h>
#include <linux/user_namespace.h>

#include "usercaps.h"

/**
 * usercaps_audit_change - Log one change of a capability file
 * @cap: The capability
 * @old: Its owner, group and mode before the change
 * @new: And after
 *
 * One AUDIT_MAC_CONFIG_CHANGE record per chmod or chown, when audit is
 * enabled: which capability, its old and new owner, group and mode, and
 * who changed it (audit_log_task_info()).
 */
void usercaps_audit_change(int cap, const struct usercaps_entry *old,
			   const struct usercaps_entry *new)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;
	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_CONFIG_CHANGE);
	if (!ab)
		return;
	audit_log_format(ab,
			 "lsm=usercaps op=setattr cap=%s old_owner=%u old_group=%u old_mode=%04o owner=%u group=%u mode=%04o",
			 usercaps_cap_names[cap],
			 from_kuid(&init_user_ns, old->owner),
			 from_kgid(&init_user_ns, old->group), old->mode,
			 from_kuid(&init_user_ns, new->owner),
			 from_kgid(&init_user_ns, new->group), new->mode);
	audit_log_task_info(ab);
	audit_log_format(ab, " res=1");
	audit_log_end(ab);
}
