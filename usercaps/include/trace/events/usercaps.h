/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usercaps LSM - tracepoints of each grant and each percred fill
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM usercaps

#if !defined(_TRACE_USERCAPS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_USERCAPS_H

#include <linux/tracepoint.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

/**
 * usercaps_grant - usercaps granted a capability the effective set lacked
 * @cap: The capability, CAP_*
 * @name: Its file in /sys/kernel/security/usercaps
 * @fsuid: The filesystem uid of the credential granted it
 * @fsgid: Its filesystem gid
 * @class: The class of the file's mode that decided: owner, group, other
 * @mode: The file's mode
 *
 * Fired in the task that made the check, once per granted check. @class
 * and @mode are read from the policy again when the event fires, and may
 * already show a policy change that raced with the check.
 */
TRACE_EVENT(usercaps_grant,
	    TP_PROTO(int cap, const char *name, kuid_t fsuid, kgid_t fsgid,
		     const char *class, umode_t mode),
	    TP_ARGS(cap, name, fsuid, fsgid, class, mode),
	    TP_STRUCT__entry(__field(int, cap)
			     __string(name, name)
			     __field(uid_t, fsuid)
			     __field(gid_t, fsgid)
			     __string(class, class)
			     __field(umode_t, mode)),
	    TP_fast_assign(__entry->cap = cap;
			   __assign_str(name, name);
			   __entry->fsuid = from_kuid(&init_user_ns, fsuid);
			   __entry->fsgid = from_kgid(&init_user_ns, fsgid);
			   __assign_str(class, class);
			   __entry->mode = mode;),
	    TP_printk("cap=%d name=%s fsuid=%u fsgid=%u class=%s mode=%04o",
		      __entry->cap, __get_str(name), __entry->fsuid,
		      __entry->fsgid, __get_str(class), __entry->mode)
);

/**
 * usercaps_percred_fill - A check found its credential's cache stale
 * @seen: The generation the cache had: 0 before the first fill,
 *        USERCAPS_CACHE_BUSY while another fill stores its decisions
 * @generation: The policy generation this fill decided for
 * @stored: Whether this fill stored its decisions; false when another
 *          fill claimed the cache first or stored a newer generation
 *
 * Fired in percred mode only, once per fill: the checks racing for one
 * credential's cache after a policy change show as fills that did not
 * store.
 */
TRACE_EVENT(usercaps_percred_fill,
	    TP_PROTO(u64 seen, u64 generation, bool stored),
	    TP_ARGS(seen, generation, stored),
	    TP_STRUCT__entry(__field(u64, seen)
			     __field(u64, generation)
			     __field(bool, stored)),
	    TP_fast_assign(__entry->seen = seen;
			   __entry->generation = generation;
			   __entry->stored = stored;),
	    TP_printk("seen=%llu generation=%llu stored=%d",
		      __entry->seen, __entry->generation, __entry->stored)
);

#endif /* _TRACE_USERCAPS_H */

#include <trace/define_trace.h>
