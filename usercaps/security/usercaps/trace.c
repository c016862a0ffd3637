// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercaps LSM - tracepoints
 *
 * usercaps_allow() calls here only while the usercaps_grant tracepoint is
 * enabled, so that the check itself carries no tracing code.
 */

#include <linux/bitops.h>
#include <linux/cred.h>
#include <linux/usercaps.h>

#define CREATE_TRACE_POINTS
#include <trace/events/usercaps.h>

#include "usercaps.h"

/**
 * usercaps_trace_grant - Fire the usercaps_grant tracepoint
 * @cred: The credential granted @cap
 * @cap: The capability
 */
void usercaps_trace_grant(const struct cred *cred, int cap)
{
	struct usercaps_entry entry;
	unsigned int class;

	usercaps_policy_get(cap, &entry);
	class = usercaps_entry_class(&entry, cred->fsuid, cred->fsgid,
				     cred->group_info);
	trace_usercaps_grant(cap, usercaps_cap_names[cap], cred->fsuid,
			     cred->fsgid, usercaps_class_names[__ffs(class)],
			     entry.mode);
}
