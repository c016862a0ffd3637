// SPDX-License-Identifier: GPL-2.0-only
/*
 * capcheck - a QEMU TCG plugin: where each instruction of a capability
 * check goes, per kernel function, in the style of cachegrind's table.
 *
 * A check is a window on one vCPU from the first instruction of the entry
 * function (security_capable) to the return that leaves it. The plugin
 * follows the call depth from the instruction bytes (call +1, ret -1;
 * the ret at depth 0 ends the window) and cross-checks that ret against
 * the call that entered: the slot it pops its return address from must
 * be the one the call pushed to (return_slot_mismatch counts those that
 * differ). Within a window it counts, per function of the kernel's
 * System.map (the last symbol at or below the address; QEMU sees virtual
 * addresses, so boot with nokaslr), the instructions executed, the loads
 * and stores, and the distinct 64-byte data lines and instruction lines
 * touched (the cold-cache bound; no cache model: one fed only the
 * checks' accesses would never see what evicts their lines). A window is
 * also counted in its slot: its ordinal among the windows since the
 * vCPU last entered the kernel by a system call (entry_SYSCALL_64), so
 * that the checks one call makes, each of its own capability, are told
 * apart (ioprio_set: slot 1 CAP_SYS_ADMIN, slot 2 CAP_SYS_NICE).
 * An interrupt or exception that lands inside a window (an
 * instruction at an IDT entry: the start of asm_exc_* or asm_sysvec_*,
 * a stub of irq_entries_start or spurious_entries_start) is left out up
 * to its matching iret, and counted. So is a preemption point taken in
 * a window: a decrement of the preemption count (preempt_enable()) that
 * finds a reschedule pending branches out of line to call the scheduler
 * (with PREEMPT_DYNAMIC and preempt=voluntary, a static call patched to
 * a nop, and a jump back: two instructions); the reschedule was asked for
 * by an interrupt or a wakeup outside the check, which would otherwise
 * add its instructions to the few checks that meet it. From the taken
 * branch to the return to the instruction after it, nothing counts.
 *
 * Hook windows (also=): each call of another function named is a window
 * of its own, counted per function (calls, instructions, loads, stores,
 * lines), so that what a kernel adds outside its checks is accounted
 * exactly too (Linux 6.12's LSM static calls give every LSM hook a slot per
 * LSM built in: usercaps adds a patched-out jump to each). A check nested
 * in a hook window is left out of it (the check's), a hook window nested
 * in a hook window is left out of the outer one, and a hook called within
 * a check is the check's (no window): every instruction counts once. A
 * hook window opens at any interrupt level (security_cred_free runs from
 * an RCU callback, in a softirq or ksoftirqd) and counts the instructions
 * of that level only (a deeper interrupt is left out), from the entry to
 * the ret at depth 0, whose slot is cross-checked as a check's. The call
 * depth of an outer window follows the instructions of what is nested in
 * it (their calls and rets), so that the final ret of a nested window,
 * which pops the outer window's call, is seen.
 *
 * Only windows inside a session count: a guest program opens and closes
 * one with the instructions of gate.h; each close writes the session's
 * report. Exact with one vCPU; with more, each vCPU's windows are counted
 * but the gate counters are shared.
 *
 * Arguments (-plugin capcheck.so,map=PATH[,entry=SYMBOL][,annotate=SYM:...]
 * [,also=SYM:...]):
 *   map=PATH      the booted kernel's System.map (required)
 *   entry=SYMBOL  the function whose calls are the checks (default
 *                 security_capable)
 *   annotate=SYMBOL[:SYMBOL...]  functions of the System.map whose every
 *                 instruction's executions in the checks are counted (the
 *                 insn records); may be given more than once
 *   also=SYMBOL[:SYMBOL...]  functions whose every call is a hook window
 *                 (the hook records); a name ending in '*' selects every
 *                 text symbol that begins so (also=security_*: every LSM
 *                 hook), the entry left out; may be given more than once
 *
 * Output (QEMU's plugin log: -d plugin -D FILE). Lines that start with
 * '#' are comments; the others are tab-separated, their first field the
 * record's kind, their second the session's name:
 *
 *   session NAME checks insns_min insns_max gate_user_insns gate_kernel_insns
 *           irqs_excluded irq_insns_excluded return_slot_mismatch
 *           entry_without_call nested_entries unattributed_insns
 *           unclosed_windows runaway_windows gate_irqs gate_irq_insns
 *           slot_overflow irq_accesses_excluded irq_accesses_unknown
 *           hook_calls hook_return_slot_mismatch hook_entry_without_call
 *           hook_unclosed hook_runaway hook_overflow
 *           resched_points resched_insns
 *   function NAME SYMBOL insns loads stores dlines ilines
 *   total NAME insns loads stores dlines ilines
 *   slot NAME K checks insns loads stores dlines ilines insns_min insns_max
 *   slotfunction NAME K SYMBOL insns loads stores dlines ilines
 *   hook NAME SYMBOL calls insns loads stores dlines ilines insns_min insns_max
 *   insn NAME ADDR SYMBOL OFFSET execs_per_check
 *
 * checks: windows completed in the session; insns_min/max: the fewest and
 * most instructions of one window; gate_user_insns and gate_kernel_insns:
 * every instruction executed strictly between the open and the close, in
 * user space and in the kernel (interrupts included, the gate's own
 * instructions not); irqs_excluded and irq_insns_excluded: the interrupts
 * and exceptions left out of windows, and their instructions;
 * return_slot_mismatch: windows whose final ret popped another slot than
 * the entering call pushed; entry_without_call: windows not entered by a
 * call (no slot to check); nested_entries: entries met inside a window
 * (counted as part of it); unattributed_insns: window instructions at an
 * address no text symbol covers (also a function row "(unattributed)");
 * unclosed_windows: windows still open at the close, dropped;
 * runaway_windows: windows dropped after RUNAWAY instructions;
 * gate_irqs, gate_irq_insns: the interrupts and exceptions taken between
 * the gates, in windows or not, and their instructions (part of
 * gate_kernel_insns); slot_overflow: windows past the last slot
 * (MAX_SLOTS), counted in the session and in slot MAX_SLOTS;
 * irq_accesses_excluded: the loads and stores of an interrupt's delivery
 * (QEMU reports them as the interrupted instruction's, after its own,
 * or as the last one's that accessed memory), left out: an instruction's
 * own accesses are those it made when no interrupt followed it, or, the
 * first time, those before the delivery's load from the IDT;
 * irq_accesses_unknown: interrupts after an instruction not seen alone
 * yet and no IDT load held, whose accesses were all counted;
 * hook_calls: hook windows completed; hook_return_slot_mismatch and
 * hook_entry_without_call: as for the checks (a hook entered by a jump, a
 * tail call, is counted the same: its ret at depth 0 ends it);
 * hook_unclosed: hook windows dropped, still open at the close, when
 * their interrupt returned, or at a system call's entry (their task slept
 * in them, and another ran); hook_runaway: dropped after RUNAWAY
 * instructions; hook_overflow: hook entries past MAX_HOOK_NEST open
 * windows, counted in the window they are nested in.
 * A hook row is one hook's calls in the session (an integer), one
 * call's average instructions, loads, stores and distinct lines, and the
 * fewest and most instructions of one call; only hooks called appear, by
 * name.
 * resched_points, resched_insns: preemption points taken in windows and
 * their instructions, left out.
 * A slot row is one check's average over the session's windows of slot
 * K (instructions, loads, stores, lines; checks, insns_min and insns_max
 * are whole), its slotfunction rows that slot's per-function averages.
 * A function row is one check's average: its sums over the session's
 * checks divided by checks, one row per function that ran, the most
 * instructions first. dlines and ilines count the distinct lines each
 * function touched in a check; the total row's count the distinct lines
 * of the whole check (a line two functions touch counts once there).
 * An insn row is one instruction of an annotate= function that ran in the
 * session's checks (interrupts left out as above), in address order: its
 * address (0x hex), its function and its offset in it (hex), and its
 * executions divided by the session's checks; the rows of a function add
 * up to its function row's insns (bench/report/annotate lists them with the
 * source lines and disassembly of the kernel's vmlinux).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#define CAPCHECK_PLUGIN
#include "gate.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* x86-64: the kernel's half of the address space. */
#define KERNEL_START 0xffff800000000000ULL
#define LINE_SHIFT 6
/* A window longer than this is a tracking failure, not a check. */
#define RUNAWAY 1000000
/* Slots told apart: the checks one system call makes. */
#define MAX_SLOTS 8
/* Accesses of one instruction held until the next (an interrupt's
 * delivery makes about ten). */
#define PENDING_MAX 64

enum insn_kind { K_OTHER, K_CALL, K_RET, K_IRET };

struct symbol {
	uint64_t addr;
	char *name;
	bool text;
	/* Its instructions are counted one by one (annotate=), at
	 * anno_base + offset of the per-byte counters. */
	bool annotated;
	size_t anno_base;
	/* An IDT entry: at the symbol's start, or at each stub of a table. */
	bool entry_at_start, entry_stubs;
	/* A function of also=: its calls are hook windows, of hook
	 * hook_index. */
	bool hook;
	uint32_t hook_index;
};

static struct symbol *syms;
static size_t nsyms;
/* Function index of unattributed instructions: one past the symbols. */
#define NO_FUNC ((uint32_t)nsyms)

/* What the plugin decoded of one kernel instruction, once per address. */
struct insn {
	uint64_t vaddr;
	uint32_t func;
	uint8_t size, kind;
	bool idt_entry, annotated;
	/* A decrement of the preemption count (decl %gs:preempt_count), a
	 * jz/je that may follow one. */
	bool preempt_dec, jz;
	/* The hook whose first instruction this is, or -1. */
	int32_t hook;
	/* Its memory accesses, as counted in a window where no interrupt
	 * followed it (-1: not seen yet). */
	int16_t own_accesses;
	uint8_t bytes[16];
	struct insn *next;	/* hash chain */
};

struct counts {
	uint64_t insns, loads, stores, dlines, ilines;
};

/* A set of (line, function, data or instruction) seen in one window:
 * open addressing, emptied by a new generation. */
struct line_slot {
	uint64_t line;
	uint32_t func, gen;
	uint8_t instr;
};

struct line_set {
	struct line_slot *slots;
	size_t size, used;
	uint32_t gen;
};

/* A hook window: one call of an also= function, counted at the interrupt
 * level it was entered at (deeper interrupts left out). */
struct hook_window {
	uint32_t hook, gen;
	int irq_level, depth;
	bool closing, slot_known;
	uint64_t entry_slot;
	struct counts c;
	struct line_set lines;
};

/* Hook windows open at once on a vCPU: nested calls, and interrupts. */
#define MAX_HOOK_NEST 8
/* Where an instruction's counts go: nowhere, the check, or a hook window
 * (its index in the vCPU's stack). */
#define TARGET_NONE -2
#define TARGET_CHECK -1

struct vcpu {
	/* Between windows: the last instruction, and the slot the last call
	 * pushed its return address to. */
	const struct insn *prev, *last_call;
	uint64_t last_call_slot;
	/* The window. */
	bool in_window, closing, cur_excluded, slot_known;
	int depth, irq_nest;
	uint64_t entry_slot, window_insns, window_dlines, window_ilines;
	uint32_t window_gen;
	struct counts *check;	/* per function, this window */
	uint32_t *touched;	/* functions with counts this window */
	size_t ntouched;
	struct line_set lines;
	/* The instruction after a preemption point's branch while its taken
	 * path is left out (0: none); the jz after a preemption count
	 * decrement, and the decrement before it. */
	uint64_t resched_return;
	const struct insn *resched_jz;
	bool after_preempt_dec;
	/* Windows since the last system call entry, and this window's slot. */
	uint32_t since_syscall, window_slot;
	/* The memory accesses of the window's last instruction, counted at
	 * the next one: QEMU delivers an interrupt's frame stores and
	 * descriptor loads through the callbacks of the instruction it
	 * interrupted, after that instruction's own. */
	const struct insn *pending_insn;
	struct access { uint64_t vaddr; uint8_t size; bool store; } pending[PENDING_MAX];
	int npending, pending_target;
	/* The hook windows open, innermost last, and where the current
	 * instruction's counts go. */
	struct hook_window hooks[MAX_HOOK_NEST];
	int nhooks, target;
	/* Executions of annotated instructions this window, per byte of
	 * the annotated functions, and the offsets counted. */
	uint64_t *anno_window;
	size_t *anno_touched, anno_ntouched;
	/* A name sent by the gate's loads, for the next open. */
	char name[CAPCHECK_NAME_MAX + 1];
	size_t name_len;
};

/* What a session counts besides its functions' counts, zeroed at open. */
struct session_counts {
	uint64_t checks;
	uint64_t user_start, kernel_start;
	uint64_t irqs, irq_insns, slot_mismatch, no_call, nested, unattributed, unclosed, runaway;
	uint64_t gate_irqs, gate_irq_insns, slot_overflow, irq_accesses, irq_accesses_unknown;
	uint64_t resched_points, resched_insns;
	uint64_t hook_calls, hook_slot_mismatch, hook_no_call, hook_unclosed, hook_runaway;
	uint64_t hook_overflow;
};

/* The calls of one hook in the session, and their sums. */
struct hook_sum {
	uint64_t calls, insns_min, insns_max;
	struct counts c;
};

/* The windows of one slot (slot 0: all of them), per function. */
struct slot {
	uint64_t checks, insns_min, insns_max, dlines, ilines;
	struct counts *funcs;
	uint32_t *touched;
	size_t ntouched;
};

struct session {
	bool open;
	uint32_t gen;
	char name[CAPCHECK_NAME_MAX + 1];
	struct session_counts c;
	struct slot slots[MAX_SLOTS + 1];
	uint64_t *anno_execs;	/* per byte of the annotated functions */
	struct hook_sum *hooks;	/* per hook */
};

static const char *entry_name = "security_capable";
/* The annotate= names, and the bytes of their functions in all. */
static char **anno_names;
static size_t anno_nnames, anno_bytes;
/* The also= names, and the hooks they select: their symbols, by name. */
static char **also_names;
static size_t also_nnames;
static uint32_t *hook_syms;
static size_t nhooks;
static uint64_t entry_addr, syscall_addr;
/* The per-CPU preemption count: __preempt_count (Linux 6.1), or the
 * preempt_count of pcpu_hot (6.2 on: its second 8 bytes; 6.12's System.map
 * names the address const_pcpu_hot too, and the plugin keeps one name of
 * an address); 0 if neither. */
static uint64_t preempt_count_addr;
static struct vcpu *vcpus;
static int nvcpus;
static struct session session;
static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t insn_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every instruction executed, user and kernel (inline counters). */
static uint64_t user_insns, kernel_insns;
static uint64_t sessions_reported, gate_errors;

#define INSN_BUCKETS (1 << 16)
static struct insn *insn_table[INSN_BUCKETS];

static const uint8_t nop_bytes[] = { CAPCHECK_NOP_BYTES };
static const uint8_t name_bytes[] = { CAPCHECK_NAME_BYTES };

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "capcheck: out of memory\n");
		abort();
	}
	return p;
}

/* Output: a growing string, written with one qemu_plugin_outs(). */
struct buf {
	char *p;
	size_t len, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + n + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	b->len += n;
}

static void bflush(struct buf *b)
{
	if (b->len)
		qemu_plugin_outs(b->p);
	free(b->p);
	*b = (struct buf){ 0 };
}

/* --- symbols --- */

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Of several symbols at one address, the text one, then one that marks
 * no area (__indirect_thunk_start is __x86_indirect_thunk_rax too), then
 * the global one, then the first in the file. */
static int symbol_rank(const struct symbol *s, char type)
{
	bool marker = s->name[0] == '_' && (has_suffix(s->name, "_start") || has_suffix(s->name, "_end"));

	return (s->text ? 0 : 4) + (marker ? 2 : 0) + (type >= 'a' ? 1 : 0);
}

static int cmp_symbol(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], type;
	uint64_t addr;
	size_t cap = 0, n = 0;
	int *ranks = NULL;

	if (!f) {
		fprintf(stderr, "capcheck: map=%s: cannot open it\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct symbol s = { 0 };

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		s.addr = addr;
		s.name = name;
		s.text = type == 't' || type == 'T' || type == 'w' || type == 'W';
		s.entry_at_start = s.text && (has_prefix(name, "asm_exc_") || has_prefix(name, "asm_sysvec_"));
		s.entry_stubs = s.text && (!strcmp(name, "irq_entries_start") ||
					   !strcmp(name, "spurious_entries_start"));
		if (n && syms[n - 1].addr == addr) {
			/* An alias: keep the better name at this address, and
			 * what any of the names says of an IDT entry. */
			s.entry_at_start |= syms[n - 1].entry_at_start;
			s.entry_stubs |= syms[n - 1].entry_stubs;
			syms[n - 1].entry_at_start = s.entry_at_start;
			syms[n - 1].entry_stubs = s.entry_stubs;
			if (symbol_rank(&s, type) >= ranks[n - 1])
				continue;
			free(syms[--n].name);
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			ranks = realloc(ranks, cap * sizeof(*ranks));
			if (!syms || !ranks)
				abort();
		}
		ranks[n] = symbol_rank(&s, type);
		s.name = strdup(name);
		syms[n++] = s;
	}
	fclose(f);
	free(ranks);
	nsyms = n;
	/* System.map is sorted already; be sure (a stable order is not
	 * needed: aliases were merged above). */
	qsort(syms, nsyms, sizeof(*syms), cmp_symbol);
	if (!nsyms) {
		fprintf(stderr, "capcheck: map=%s: no symbols\n", path);
		return -1;
	}
	return 0;
}

/* The function covering ADDR: the last symbol at or below it, if text. */
static uint32_t func_of(uint64_t addr)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !syms[lo - 1].text)
		return NO_FUNC;
	return lo - 1;
}

static const char *func_name(uint32_t func)
{
	return func == NO_FUNC ? "(unattributed)" : syms[func].name;
}

/* --- decoding --- */

static enum insn_kind classify(const uint8_t *b, size_t n)
{
	size_t i = 0;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf0 || b[i] == 0xf2 ||
			 b[i] == 0xf3 || b[i] == 0x2e || b[i] == 0x36 || b[i] == 0x3e ||
			 b[i] == 0x26 || b[i] == 0x64 || b[i] == 0x65))
		i++;
	if (i < n && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i >= n)
		return K_OTHER;
	switch (b[i]) {
	case 0xe8:
		return K_CALL;
	case 0xff:
		/* ff /2: call near r/m; ff /3: call far. */
		if (i + 1 < n && (((b[i + 1] >> 3) & 7) == 2 || ((b[i + 1] >> 3) & 7) == 3))
			return K_CALL;
		return K_OTHER;
	case 0xc3:
	case 0xc2:
		return K_RET;
	case 0xcf:	/* iretq (48 cf), or iret */
		return K_IRET;
	default:
		return K_OTHER;
	}
}

static bool is_idt_entry(uint64_t vaddr, uint32_t func, const uint8_t *b, size_t n)
{
	const struct symbol *s;

	if (func == NO_FUNC)
		return false;
	s = &syms[func];
	if (s->entry_at_start)
		return vaddr == s->addr;
	/* A stub starts 8-aligned with endbr64 or a push of its vector. */
	if (s->entry_stubs && (vaddr - s->addr) % 8 == 0 && n >= 1)
		return b[0] == 0x6a || b[0] == 0x68 ||
		       (n >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa);
	return false;
}

/* decl %gs:disp32(%rip) of the preemption count. */
static bool is_preempt_dec(uint64_t vaddr, const uint8_t *b, size_t n)
{
	int32_t disp;

	if (!preempt_count_addr || n != 7 || b[0] != 0x65 || b[1] != 0xff || b[2] != 0x0d)
		return false;
	memcpy(&disp, b + 3, sizeof(disp));
	/* The %gs-relative offset is the per-CPU symbol's address. */
	return ((vaddr + n + (int64_t)disp) & 0xffffffffULL) == preempt_count_addr;
}

/* jz rel8 or jz rel32. */
static bool is_jz(const uint8_t *b, size_t n)
{
	return (n == 2 && b[0] == 0x74) || (n == 6 && b[0] == 0x0f && b[1] == 0x84);
}

/* The record of the kernel instruction at VADDR with these bytes: made
 * once, again only when the text at that address changed. */
static struct insn *insn_record(uint64_t vaddr, const uint8_t *data, size_t size)
{
	size_t h = (vaddr ^ (vaddr >> 16)) & (INSN_BUCKETS - 1);
	struct insn *r;

	if (size > sizeof(r->bytes))
		size = sizeof(r->bytes);
	pthread_mutex_lock(&insn_lock);
	for (r = insn_table[h]; r; r = r->next)
		if (r->vaddr == vaddr && r->size == size && !memcmp(r->bytes, data, size))
			break;
	if (!r) {
		/* A record replaced by patched text stays: an old translation
		 * may still point at it. */
		r = xcalloc(1, sizeof(*r));
		r->vaddr = vaddr;
		r->size = size;
		memcpy(r->bytes, data, size);
		r->func = func_of(vaddr);
		r->kind = classify(data, size);
		r->idt_entry = is_idt_entry(vaddr, r->func, data, size);
		r->own_accesses = -1;
		r->preempt_dec = is_preempt_dec(vaddr, data, size);
		r->jz = is_jz(data, size);
		r->annotated = r->func != NO_FUNC && syms[r->func].annotated;
		r->hook = r->func != NO_FUNC && syms[r->func].hook && syms[r->func].addr == vaddr ?
			  (int32_t)syms[r->func].hook_index : -1;
		r->next = insn_table[h];
		insn_table[h] = r;
	}
	pthread_mutex_unlock(&insn_lock);
	return r;
}

/* --- the window's sets of lines --- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static bool line_set_add(struct line_set *s, uint64_t line, uint32_t func, bool instr);

static void line_set_grow(struct line_set *s)
{
	struct line_set old = *s;

	s->size = old.size ? old.size * 2 : 4096;
	s->slots = xcalloc(s->size, sizeof(*s->slots));
	s->used = 0;
	s->gen = 1;
	for (size_t i = 0; i < old.size; i++)
		if (old.slots[i].gen == old.gen)
			line_set_add(s, old.slots[i].line, old.slots[i].func, old.slots[i].instr);
	free(old.slots);
}

/* Add (LINE, FUNC, INSTR); true when it was not there yet. */
static bool line_set_add(struct line_set *s, uint64_t line, uint32_t func, bool instr)
{
	size_t i;

	if (2 * (s->used + 1) > s->size)
		line_set_grow(s);
	for (i = mix(line ^ ((uint64_t)func << 40) ^ ((uint64_t)instr << 63)) & (s->size - 1);
	     s->slots[i].gen == s->gen; i = (i + 1) & (s->size - 1)) {
		if (s->slots[i].line == line && s->slots[i].func == func && s->slots[i].instr == instr)
			return false;
	}
	s->slots[i] = (struct line_slot){ line, func, s->gen, instr };
	s->used++;
	return true;
}

static void line_set_clear(struct line_set *s)
{
	s->used = 0;
	if (++s->gen == 0) {
		memset(s->slots, 0, s->size * sizeof(*s->slots));
		s->gen = 1;
	}
}

/* --- annotated functions: executions per instruction --- */

/* Most bytes of annotated functions: a name whose symbol spans more is
 * not a function (the last of a section, or a typo for a table). */
#define ANNOTATE_MAX_BYTES (1 << 20)

/* Add the names of ARG=LIST (SYMBOL[:SYMBOL...]) to NAMES. */
static int parse_names(const char *arg, const char *list, char ***names, size_t *n)
{
	char *copy = strdup(list), *save = NULL;
	size_t before = *n;

	if (!copy)
		abort();
	for (char *name = strtok_r(copy, ":", &save); name; name = strtok_r(NULL, ":", &save)) {
		*names = realloc(*names, (*n + 1) * sizeof(**names));
		if (!*names)
			abort();
		(*names)[(*n)++] = name;
	}
	if (*n == before) {
		fprintf(stderr, "capcheck: %s= names no function (%s=SYMBOL[:SYMBOL...])\n", arg, arg);
		return -1;
	}
	return 0;
}

/* Mark the text symbols of the annotate= names; a function spans from its
 * symbol to the next (func_of()'s attribution). */
static int annotate_setup(const char *map)
{
	for (size_t n = 0; n < anno_nnames; n++) {
		bool found = false;

		for (size_t i = 0; i < nsyms; i++) {
			if (!syms[i].text || strcmp(syms[i].name, anno_names[n]))
				continue;
			found = true;
			if (syms[i].annotated)	/* named twice */
				continue;
			if (i + 1 == nsyms || syms[i + 1].addr - syms[i].addr > ANNOTATE_MAX_BYTES - anno_bytes) {
				fprintf(stderr, "capcheck: annotate=%s: with it the annotated functions span more "
					"than %d bytes of %s (a symbol to the next)\n", anno_names[n],
					ANNOTATE_MAX_BYTES, map);
				return -1;
			}
			syms[i].annotated = true;
			syms[i].anno_base = anno_bytes;
			anno_bytes += syms[i + 1].addr - syms[i].addr;
		}
		if (!found) {
			fprintf(stderr, "capcheck: annotate=%s: %s has no text symbol of that name (of "
				"the names at one address, name the one the function rows show)\n",
				anno_names[n], map);
			return -1;
		}
	}
	if (anno_bytes)
		session.anno_execs = xcalloc(anno_bytes, sizeof(*session.anno_execs));
	return 0;
}

/* An instruction of a window: counted if its function is annotated. */
static void annotate_count(struct vcpu *v, const struct insn *r)
{
	size_t at;

	if (!r->annotated)
		return;
	if (!v->anno_window) {
		v->anno_window = xcalloc(anno_bytes, sizeof(*v->anno_window));
		v->anno_touched = xcalloc(anno_bytes, sizeof(*v->anno_touched));
	}
	at = syms[r->func].anno_base + (r->vaddr - syms[r->func].addr);
	if (!v->anno_window[at]++)
		v->anno_touched[v->anno_ntouched++] = at;
}

/* The window's counts into the session's (under session_lock). */
static void annotate_add(const struct vcpu *v)
{
	for (size_t i = 0; i < v->anno_ntouched; i++)
		session.anno_execs[v->anno_touched[i]] += v->anno_window[v->anno_touched[i]];
}

static void annotate_clear(struct vcpu *v)
{
	for (size_t i = 0; i < v->anno_ntouched; i++)
		v->anno_window[v->anno_touched[i]] = 0;
	v->anno_ntouched = 0;
}

/* The insn rows of the session, in address order, after its other
 * records (under session_lock). */
static void annotate_report(void)
{
	struct buf b = { 0 };
	double n = session.c.checks ? (double)session.c.checks : 1.0;

	if (!anno_bytes)
		return;
	bprintf(&b, "# insn\tname\taddr\tsymbol\toffset\texecs_per_check\n");
	for (size_t i = 0; i < nsyms; i++) {
		const struct symbol *s = &syms[i];

		if (!s->annotated)
			continue;
		for (uint64_t off = 0; off < syms[i + 1].addr - s->addr; off++) {
			uint64_t execs = session.anno_execs[s->anno_base + off];

			if (execs)
				bprintf(&b, "insn\t%s\t0x%" PRIx64 "\t%s\t0x%" PRIx64 "\t%.3f\n", session.name,
					s->addr + off, s->name, off, execs / n);
		}
	}
	bflush(&b);
}

/* --- windows --- */

static struct counts *check_counts(struct vcpu *v, uint32_t func)
{
	if (!v->check[func].insns && !v->check[func].loads && !v->check[func].stores)
		v->touched[v->ntouched++] = func;
	return &v->check[func];
}

static void window_start(struct vcpu *v)
{
	if (!v->check) {
		v->check = xcalloc(nsyms + 1, sizeof(*v->check));
		v->touched = xcalloc(nsyms + 1, sizeof(*v->touched));
	}
	v->in_window = true;
	v->closing = false;
	v->depth = 0;
	v->window_insns = v->window_dlines = v->window_ilines = 0;
	v->window_gen = session.gen;
	v->window_slot = ++v->since_syscall;
	v->resched_return = 0;
	v->resched_jz = NULL;
	v->after_preempt_dec = false;
	line_set_clear(&v->lines);
	v->slot_known = v->prev && v->prev == v->last_call;
	v->entry_slot = v->last_call_slot;
}

/* Add this window's counts to SLOT of the session. */
static void slot_add(struct slot *slot, const struct vcpu *v)
{
	for (size_t i = 0; i < v->ntouched; i++) {
		uint32_t f = v->touched[i];
		const struct counts *c = &v->check[f];
		struct counts *s = &slot->funcs[f];

		if (!s->insns && !s->loads && !s->stores)
			slot->touched[slot->ntouched++] = f;
		s->insns += c->insns;
		s->loads += c->loads;
		s->stores += c->stores;
		s->dlines += c->dlines;
		s->ilines += c->ilines;
	}
	if (!slot->checks || v->window_insns < slot->insns_min)
		slot->insns_min = v->window_insns;
	if (v->window_insns > slot->insns_max)
		slot->insns_max = v->window_insns;
	slot->checks++;
	slot->dlines += v->window_dlines;
	slot->ilines += v->window_ilines;
}

/* Drop the window, or with KEEP add it to the session. */
static void window_end(struct vcpu *v, bool keep, bool slot_mismatch)
{
	pthread_mutex_lock(&session_lock);
	if (session.open && session.gen == v->window_gen) {
		if (keep) {
			uint32_t k = v->window_slot;

			if (k > MAX_SLOTS) {
				session.c.slot_overflow++;
				k = MAX_SLOTS;
			}
			slot_add(&session.slots[0], v);
			slot_add(&session.slots[k], v);
			session.c.checks++;
			session.c.no_call += !v->slot_known;
			session.c.slot_mismatch += slot_mismatch;
			session.c.unattributed += v->check[NO_FUNC].insns;
			annotate_add(v);
		} else {
			session.c.runaway++;
		}
	}
	pthread_mutex_unlock(&session_lock);
	for (size_t i = 0; i < v->ntouched; i++)
		v->check[v->touched[i]] = (struct counts){ 0 };
	v->ntouched = 0;
	v->npending = 0;
	v->pending_insn = NULL;
	annotate_clear(v);
	v->in_window = false;
	v->closing = false;
}

static void add_lines(struct vcpu *v, struct counts *c, uint32_t func, uint64_t addr,
		      unsigned int size, bool instr)
{
	for (uint64_t line = addr >> LINE_SHIFT; line <= (addr + size - 1) >> LINE_SHIFT; line++) {
		if (line_set_add(&v->lines, line, func, instr)) {
			if (instr)
				c->ilines++;
			else
				c->dlines++;
		}
		if (line_set_add(&v->lines, line, NO_FUNC + 1, instr)) {
			if (instr)
				v->window_ilines++;
			else
				v->window_dlines++;
		}
	}
}

/* --- hook windows (also=) --- */

static int cmp_hook_name(const void *a, const void *b)
{
	return strcmp(syms[*(const uint32_t *)a].name, syms[*(const uint32_t *)b].name);
}

/* Mark the text symbols the also= names select: a name, or with a final
 * '*' every name that begins so; never the entry (its calls are the
 * checks). */
static int hooks_setup(const char *map)
{
	for (size_t n = 0; n < also_nnames; n++) {
		const char *want = also_names[n];
		size_t len = strlen(want);
		bool prefix = len && want[len - 1] == '*', found = false;

		for (size_t i = 0; i < nsyms; i++) {
			if (!syms[i].text || (prefix ? strncmp(syms[i].name, want, len - 1) :
					      strcmp(syms[i].name, want)))
				continue;
			if (syms[i].addr == entry_addr) {
				if (prefix)
					continue;
				fprintf(stderr, "capcheck: also=%s: that is entry=, whose calls are the "
					"checks\n", want);
				return -1;
			}
			found = true;
			if (syms[i].hook)	/* named twice */
				continue;
			syms[i].hook = true;
			hook_syms = realloc(hook_syms, (nhooks + 1) * sizeof(*hook_syms));
			if (!hook_syms)
				abort();
			hook_syms[nhooks++] = i;
		}
		if (!found) {
			fprintf(stderr, "capcheck: also=%s: %s has no text symbol %s (of the names at "
				"one address, name the one the function rows show)\n", want, map,
				prefix ? "that begins so" : "of that name");
			return -1;
		}
	}
	qsort(hook_syms, nhooks, sizeof(*hook_syms), cmp_hook_name);
	for (size_t k = 0; k < nhooks; k++)
		syms[hook_syms[k]].hook_index = k;
	session.hooks = xcalloc(nhooks ? nhooks : 1, sizeof(*session.hooks));
	return 0;
}

static void hook_add_lines(struct hook_window *w, uint64_t addr, unsigned int size, bool instr)
{
	for (uint64_t line = addr >> LINE_SHIFT; line <= (addr + size - 1) >> LINE_SHIFT; line++) {
		if (!line_set_add(&w->lines, line, 0, instr))
			continue;
		if (instr)
			w->c.ilines++;
		else
			w->c.dlines++;
	}
}

/* How a hook window ends: by its return, after RUNAWAY instructions, or
 * lost (its interrupt returned, or its session closed, without it). */
enum hook_end_kind { HOOK_RETURNED, HOOK_RUNAWAY, HOOK_LOST };

/* End the innermost hook window; one that RETURNED counts in its hook. */
static void hook_end(struct vcpu *v, enum hook_end_kind how, bool slot_mismatch)
{
	struct hook_window *w = &v->hooks[--v->nhooks];

	if (v->pending_insn && v->pending_target == v->nhooks) {
		v->npending = 0;
		v->pending_insn = NULL;
	}
	pthread_mutex_lock(&session_lock);
	if (session.open && session.gen == w->gen) {
		struct hook_sum *h = &session.hooks[w->hook];

		switch (how) {
		case HOOK_RETURNED:
			if (!h->calls || w->c.insns < h->insns_min)
				h->insns_min = w->c.insns;
			if (w->c.insns > h->insns_max)
				h->insns_max = w->c.insns;
			h->calls++;
			h->c.insns += w->c.insns;
			h->c.loads += w->c.loads;
			h->c.stores += w->c.stores;
			h->c.dlines += w->c.dlines;
			h->c.ilines += w->c.ilines;
			session.c.hook_calls++;
			session.c.hook_no_call += !w->slot_known;
			session.c.hook_slot_mismatch += slot_mismatch;
			break;
		case HOOK_RUNAWAY:
			session.c.hook_runaway++;
			break;
		case HOOK_LOST:
			session.c.hook_unclosed++;
			break;
		}
	}
	pthread_mutex_unlock(&session_lock);
}

/* Drop the hook windows entered at a deeper interrupt level than LEVEL:
 * their interrupt returned without them. */
static void hooks_drop_stale(struct vcpu *v, int level)
{
	while (v->nhooks && v->hooks[v->nhooks - 1].irq_level > level)
		hook_end(v, HOOK_LOST, false);
}

/* End the hook windows whose final return ran; LOAD the address it popped
 * its return address from (0: its load never came, a mismatch). */
static void hooks_close(struct vcpu *v, uint64_t load)
{
	while (v->nhooks && v->hooks[v->nhooks - 1].closing) {
		const struct hook_window *w = &v->hooks[v->nhooks - 1];

		hook_end(v, HOOK_RETURNED, w->slot_known && (!load || load != w->entry_slot));
	}
}

static void hook_start(struct vcpu *v, uint32_t hook)
{
	struct hook_window *w;

	hooks_drop_stale(v, v->irq_nest);
	if (v->nhooks == MAX_HOOK_NEST) {
		/* Counted in the window it is nested in. */
		__atomic_add_fetch(&session.c.hook_overflow, 1, __ATOMIC_RELAXED);
		return;
	}
	w = &v->hooks[v->nhooks++];
	w->hook = hook;
	w->gen = session.gen;
	w->irq_level = v->irq_nest;
	w->depth = 0;
	w->closing = false;
	w->c = (struct counts){ 0 };
	line_set_clear(&w->lines);
	w->slot_known = v->prev && v->prev == v->last_call;
	w->entry_slot = v->last_call_slot;
}

/* Follow the call depth of the hook windows at LEVEL: the instructions of
 * a check or of an inner hook window count there, but their calls and
 * returns are the enclosing windows' too (the final return pops the
 * enclosing window's call). */
static void hooks_track(struct vcpu *v, const struct insn *r, int level)
{
	for (int i = v->nhooks - 1; i >= 0 && v->hooks[i].irq_level == level; i--) {
		struct hook_window *w = &v->hooks[i];

		if (r->kind == K_CALL)
			w->depth++;
		else if (r->kind == K_RET && w->depth == 0)
			w->closing = true;	/* its load of the slot ends the window */
		else if (r->kind == K_RET)
			w->depth--;
	}
}

/* An instruction of the innermost hook window. */
static void hook_insn(struct vcpu *v, const struct insn *r)
{
	struct hook_window *w = &v->hooks[v->nhooks - 1];

	w->c.insns++;
	v->pending_insn = r;	/* its accesses, none or more, follow */
	v->pending_target = v->nhooks - 1;
	hook_add_lines(w, r->vaddr, r->size, true);
	if (w->c.insns > RUNAWAY)
		hook_end(v, HOOK_RUNAWAY, false);
}

static void count_access(struct vcpu *v, const struct insn *r, const struct access *a)
{
	struct counts *c;

	if (v->pending_target >= 0) {
		struct hook_window *w = &v->hooks[v->pending_target];

		if (a->store)
			w->c.stores++;
		else
			w->c.loads++;
		hook_add_lines(w, a->vaddr, a->size, false);
		return;
	}
	c = check_counts(v, r->func);

	if (a->store)
		c->stores++;
	else
		c->loads++;
	add_lines(v, c, r->func, a->vaddr, a->size, false);
}

/* The accesses of the window's last instruction before QEMU's delivery
 * of an interrupt or exception began: the delivery's first access is a
 * 4-byte load of the gate descriptor from the IDT, which Linux (6.1 and
 * 6.12, x86_64) maps read-only at the start of the CPU entry area. -1
 * when no such load is held. */
#define IDT_BASE 0xfffffe0000000000ULL
#define IDT_SIZE (256 * 16)
static int accesses_before_idt(const struct vcpu *v)
{
	for (int i = 0; i < v->npending; i++) {
		const struct access *a = &v->pending[i];

		if (!a->store && a->size == 4 && a->vaddr >= IDT_BASE && a->vaddr < IDT_BASE + IDT_SIZE)
			return i;
	}
	return -1;
}

/* Count the held accesses of the window's last instruction; when the
 * next instruction is an interrupt's entry (INTERRUPTED), only as many
 * as that instruction makes alone: as it made when no interrupt followed
 * it, or, the first time it runs in a window, those before the delivery's
 * load from the IDT. */
static void settle_accesses(struct vcpu *v, bool interrupted)
{
	struct insn *r = (struct insn *)v->pending_insn;
	int keep = v->npending;

	if (interrupted) {
		int own = r->own_accesses >= 0 ? r->own_accesses : accesses_before_idt(v);

		if (own < 0) {
			__atomic_add_fetch(&session.c.irq_accesses_unknown, 1, __ATOMIC_RELAXED);
		} else if (own < keep) {
			__atomic_add_fetch(&session.c.irq_accesses, keep - own, __ATOMIC_RELAXED);
			keep = own;
		}
	} else {
		r->own_accesses = (int16_t)v->npending;
	}
	for (int i = 0; i < keep; i++)
		count_access(v, r, &v->pending[i]);
	v->npending = 0;
	v->pending_insn = NULL;
}

/* An instruction of a window (not of an interrupt in it). */
static void window_insn(struct vcpu *v, const struct insn *r)
{
	struct counts *c = check_counts(v, r->func);

	c->insns++;
	v->window_insns++;
	v->pending_insn = r;	/* its accesses, none or more, follow */
	v->pending_target = TARGET_CHECK;
	annotate_count(v, r);
	add_lines(v, c, r->func, r->vaddr, r->size, true);
	switch (r->kind) {
	case K_CALL:
		v->depth++;
		break;
	case K_RET:
		if (v->depth == 0)
			v->closing = true;	/* its load of the slot ends the window */
		else
			v->depth--;
		break;
	}
	if (v->window_insns > RUNAWAY)
		window_end(v, false, false);
}

/* Whether R, a window's instruction, is on a preemption point's taken
 * path: from the target of a jz that follows a preemption count
 * decrement, when the jz is taken, to the jz's next instruction. */
static bool resched_excluded(struct vcpu *v, const struct insn *r)
{
	const struct insn *jz = v->resched_jz;

	if (v->resched_return) {
		if (r->vaddr != v->resched_return)
			return true;
		v->resched_return = 0;
	}
	v->resched_jz = v->after_preempt_dec && r->jz ? r : NULL;
	v->after_preempt_dec = r->preempt_dec;
	if (jz && r->vaddr != jz->vaddr + jz->size) {
		v->resched_return = jz->vaddr + jz->size;
		v->resched_jz = NULL;
		v->after_preempt_dec = false;
		__atomic_add_fetch(&session.c.resched_points, 1, __ATOMIC_RELAXED);
		return true;
	}
	return false;
}

static void insn_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct insn *r = udata;
	bool resched;
	int level;

	if (v->pending_insn)
		settle_accesses(v, r->idt_entry);
	if (v->in_window) {
		if (v->closing)	/* a ret whose load never came */
			window_end(v, true, true);
	}
	hooks_close(v, 0);	/* likewise */
	/* Interrupts and exceptions, inside a window or not, while a
	 * session is open: an IDT entry to its matching iret. LEVEL: the
	 * interrupt level this instruction runs at. */
	v->cur_excluded = false;
	level = v->irq_nest;
	if (v->in_window || v->nhooks || __atomic_load_n(&session.open, __ATOMIC_RELAXED)) {
		v->cur_excluded = v->irq_nest > 0 || r->idt_entry;
		if (r->idt_entry) {
			if (!v->irq_nest) {
				__atomic_add_fetch(&session.c.gate_irqs, 1, __ATOMIC_RELAXED);
				if (v->in_window)
					__atomic_add_fetch(&session.c.irqs, 1, __ATOMIC_RELAXED);
			}
			level = ++v->irq_nest;
		} else if (v->irq_nest && r->kind == K_IRET) {
			v->irq_nest--;
		}
		if (v->cur_excluded) {
			__atomic_add_fetch(&session.c.gate_irq_insns, 1, __ATOMIC_RELAXED);
			if (v->in_window)
				__atomic_add_fetch(&session.c.irq_insns, 1, __ATOMIC_RELAXED);
		}
	}
	/* A preemption point's path is nobody's: neither the check's nor a
	 * hook window's. */
	resched = v->in_window && !v->cur_excluded && resched_excluded(v, r);
	if (resched) {
		v->cur_excluded = true;
		__atomic_add_fetch(&session.c.resched_insns, 1, __ATOMIC_RELAXED);
	}
	/* A check's instructions are its own, even in a hook window; a hook
	 * window takes those of its interrupt level when no inner one is
	 * open. */
	v->target = TARGET_NONE;
	if (v->nhooks) {
		hooks_drop_stale(v, level);
		hooks_track(v, r, level);
	}
	if (v->in_window && !v->cur_excluded) {
		v->target = TARGET_CHECK;
		window_insn(v, r);
	} else if (!resched && v->nhooks && v->hooks[v->nhooks - 1].irq_level == level) {
		v->target = v->nhooks - 1;
		hook_insn(v, r);
	}
	v->prev = r;
}

/* A system call's entry: the checks that follow are its own. */
static void syscall_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];

	v->since_syscall = 0;
	/* A hook window open here went to user space and back: its task
	 * slept in it, and another ran (its counts are not the call's). */
	while (v->nhooks)
		hook_end(v, HOOK_LOST, false);
	insn_exec(vcpu_index, udata);
}

static void entry_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];

	/* A check made in an interrupt (a softirq) is no call's: left out
	 * with its interrupt. */
	if (!v->in_window && !v->irq_nest && __atomic_load_n(&session.open, __ATOMIC_RELAXED)) {
		window_start(v);
	} else if (v->in_window && !v->irq_nest && !v->closing) {
		__atomic_add_fetch(&session.c.nested, 1, __ATOMIC_RELAXED);
	}
	insn_exec(vcpu_index, udata);
}

/* The first instruction of a hook (also=): a hook window opens, at any
 * interrupt level (security_cred_free runs from an RCU callback, maybe in
 * a softirq), but not inside a check, whose instructions stay its own. */
static void hook_entry_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct insn *r = udata;

	if (__atomic_load_n(&session.open, __ATOMIC_RELAXED) && !(v->in_window && !v->irq_nest))
		hook_start(v, (uint32_t)r->hook);
	insn_exec(vcpu_index, udata);
}

static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		       void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct insn *r = udata;
	bool store = qemu_plugin_mem_is_store(info);
	struct access a = { vaddr, 1u << qemu_plugin_mem_size_shift(info), store };

	if (r->kind == K_CALL && store) {
		v->last_call = r;
		v->last_call_slot = vaddr;
	}
	if (v->target == TARGET_NONE)
		return;
	/* Not the last instruction's: an interrupt's delivery through the
	 * callbacks of an earlier instruction (QEMU keeps the last ones
	 * set across instructions that access no memory). */
	if (r != v->prev) {
		__atomic_add_fetch(&session.c.irq_accesses, 1, __ATOMIC_RELAXED);
		return;
	}
	if (v->pending_insn != r || v->npending == PENDING_MAX) {
		if (v->pending_insn)
			settle_accesses(v, false);
		v->pending_insn = r;
		v->pending_target = v->target;
	}
	v->pending[v->npending++] = a;
	if (r->kind == K_RET && !store) {
		bool check_ends = v->in_window && v->closing;
		bool hook_ends = v->nhooks && v->hooks[v->nhooks - 1].closing;

		if (check_ends || hook_ends)
			settle_accesses(v, false);
		if (check_ends)
			window_end(v, true, v->slot_known && vaddr != v->entry_slot);
		if (hook_ends)
			hooks_close(v, vaddr);
	}
}

/* --- sessions --- */

static const struct slot *sorting;

static int cmp_func(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t ix = sorting->funcs[x].insns, iy = sorting->funcs[y].insns;

	if (ix != iy)
		return ix > iy ? -1 : 1;
	return strcmp(func_name(x), func_name(y));
}

/* SLOT's functions, the most instructions first, as KIND rows (with
 * PREFIX before the symbol); returns their sum. */
static struct counts report_functions(struct buf *b, struct slot *slot, const char *kind,
				      const char *prefix)
{
	struct counts total = { 0 };
	double n = (double)slot->checks;

	sorting = slot;
	qsort(slot->touched, slot->ntouched, sizeof(*slot->touched), cmp_func);
	for (size_t i = 0; i < slot->ntouched; i++) {
		const struct counts *c = &slot->funcs[slot->touched[i]];

		bprintf(b, "%s\t%s\t%s%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", kind, session.name, prefix,
			func_name(slot->touched[i]), c->insns / n, c->loads / n, c->stores / n,
			c->dlines / n, c->ilines / n);
		total.insns += c->insns;
		total.loads += c->loads;
		total.stores += c->stores;
	}
	return total;
}

static void session_report(void)
{
	struct buf b = { 0 };
	struct slot *all = &session.slots[0];
	struct counts total;
	double n = all->checks ? (double)all->checks : 1.0;
	int unclosed = 0;

	for (int i = 0; i < nvcpus; i++) {
		unclosed += vcpus[i].in_window && vcpus[i].window_gen == session.gen;
		for (int k = 0; k < vcpus[i].nhooks; k++)
			session.c.hook_unclosed += vcpus[i].hooks[k].gen == session.gen;
	}
	session.c.unclosed = unclosed;
	bprintf(&b, "# capcheck session %s: %" PRIu64 " checks (windows of %s)\n", session.name,
		session.c.checks, entry_name);
	bprintf(&b, "# session\tname\tchecks\tinsns_min\tinsns_max\tgate_user_insns\t"
		"gate_kernel_insns\tirqs_excluded\tirq_insns_excluded\treturn_slot_mismatch\t"
		"entry_without_call\tnested_entries\tunattributed_insns\tunclosed_windows\t"
		"runaway_windows\tgate_irqs\tgate_irq_insns\tslot_overflow\tirq_accesses_excluded\t"
		"irq_accesses_unknown\thook_calls\thook_return_slot_mismatch\thook_entry_without_call\t"
		"hook_unclosed\thook_runaway\thook_overflow\tresched_points\tresched_insns\n");
	bprintf(&b, "session\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", session.name,
		session.c.checks, all->insns_min, all->insns_max, user_insns - session.c.user_start,
		kernel_insns - session.c.kernel_start, session.c.irqs, session.c.irq_insns,
		session.c.slot_mismatch, session.c.no_call, session.c.nested, session.c.unattributed,
		session.c.unclosed, session.c.runaway, session.c.gate_irqs, session.c.gate_irq_insns,
		session.c.slot_overflow, session.c.irq_accesses, session.c.irq_accesses_unknown,
		session.c.hook_calls, session.c.hook_slot_mismatch, session.c.hook_no_call,
		session.c.hook_unclosed, session.c.hook_runaway, session.c.hook_overflow,
		session.c.resched_points, session.c.resched_insns);
	bprintf(&b, "# per check (sums over the checks / checks)\n");
	bprintf(&b, "# function\tname\tsymbol\tinsns\tloads\tstores\tdlines\tilines\n");
	total = report_functions(&b, all, "function", "");
	bprintf(&b, "# total\tname\tinsns\tloads\tstores\tdlines\tilines\n");
	bprintf(&b, "total\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", session.name, total.insns / n,
		total.loads / n, total.stores / n, all->dlines / n, all->ilines / n);
	bprintf(&b, "# slot\tname\tK\tchecks\tinsns\tloads\tstores\tdlines\tilines\tinsns_min\tinsns_max\n");
	bprintf(&b, "# slotfunction\tname\tK\tsymbol\tinsns\tloads\tstores\tdlines\tilines\n");
	for (int k = 1; k <= MAX_SLOTS; k++) {
		struct slot *slot = &session.slots[k];
		char prefix[16];

		if (!slot->checks)
			continue;
		n = (double)slot->checks;
		snprintf(prefix, sizeof(prefix), "%d\t", k);
		bprintf(&b, "slot\t%s\t%d\t%" PRIu64 "\t", session.name, k, slot->checks);
		total = (struct counts){ 0 };
		for (size_t i = 0; i < slot->ntouched; i++) {
			total.insns += slot->funcs[slot->touched[i]].insns;
			total.loads += slot->funcs[slot->touched[i]].loads;
			total.stores += slot->funcs[slot->touched[i]].stores;
		}
		bprintf(&b, "%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%" PRIu64 "\t%" PRIu64 "\n", total.insns / n,
			total.loads / n, total.stores / n, slot->dlines / n, slot->ilines / n,
			slot->insns_min, slot->insns_max);
		report_functions(&b, slot, "slotfunction", prefix);
	}
	if (nhooks)
		bprintf(&b, "# hook\tname\tsymbol\tcalls\tinsns\tloads\tstores\tdlines\tilines\t"
			"insns_min\tinsns_max\n");
	for (size_t k = 0; k < nhooks; k++) {
		const struct hook_sum *h = &session.hooks[k];

		if (!h->calls)
			continue;
		n = (double)h->calls;
		bprintf(&b, "hook\t%s\t%s\t%" PRIu64 "\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%" PRIu64 "\t%"
			PRIu64 "\n", session.name, syms[hook_syms[k]].name, h->calls, h->c.insns / n,
			h->c.loads / n, h->c.stores / n, h->c.dlines / n, h->c.ilines / n, h->insns_min,
			h->insns_max);
	}
	bflush(&b);
	sessions_reported++;
}

static void gate_open(struct vcpu *v)
{
	pthread_mutex_lock(&session_lock);
	if (session.open) {
		struct buf b = { 0 };

		bprintf(&b, "# capcheck: session %s opened while %s was open: %s dropped\n",
			v->name, session.name, session.name);
		bflush(&b);
		gate_errors++;
	}
	for (int k = 0; k <= MAX_SLOTS; k++) {
		struct slot *slot = &session.slots[k];

		for (size_t i = 0; i < slot->ntouched; i++)
			slot->funcs[slot->touched[i]] = (struct counts){ 0 };
		*slot = (struct slot){ .funcs = slot->funcs, .touched = slot->touched };
	}
	session.c = (struct session_counts){ 0 };
	memset(session.hooks, 0, (nhooks ? nhooks : 1) * sizeof(*session.hooks));
	/* The open runs in user space: no hook window under way. */
	while (v->nhooks)
		hook_end(v, HOOK_LOST, false);
	if (anno_bytes)
		memset(session.anno_execs, 0, anno_bytes * sizeof(*session.anno_execs));
	snprintf(session.name, sizeof(session.name), "%s", v->name_len ? v->name : "unnamed");
	session.gen++;
	session.c.user_start = user_insns;
	session.c.kernel_start = kernel_insns;
	v->irq_nest = 0;	/* the open runs in user space: no interrupt under way */
	__atomic_store_n(&session.open, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&session_lock);
	v->name_len = 0;
	v->name[0] = '\0';
}

static void gate_close(void)
{
	pthread_mutex_lock(&session_lock);
	if (session.open) {
		session_report();
		annotate_report();
		__atomic_store_n(&session.open, false, __ATOMIC_RELEASE);
	} else {
		qemu_plugin_outs("# capcheck: a close without an open session\n");
		gate_errors++;
	}
	pthread_mutex_unlock(&session_lock);
}

static void gate_exec(unsigned int vcpu_index, void *udata)
{
	if ((uintptr_t)udata == CAPCHECK_GATE_OPEN)
		gate_open(&vcpus[vcpu_index]);
	else
		gate_close();
}

static void gate_name(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		      void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];

	(void)info;
	(void)udata;
	if (v->name_len < CAPCHECK_NAME_MAX) {
		v->name[v->name_len++] = (char)(vaddr & 0xff);
		v->name[v->name_len] = '\0';
	}
}

/* The gate instruction these bytes are (its 32-bit value), or 0. */
static uint32_t gate_kind(const uint8_t *b, size_t n)
{
	uint32_t value;

	if (n == sizeof(nop_bytes) + 4 && !memcmp(b, nop_bytes, sizeof(nop_bytes))) {
		memcpy(&value, b + sizeof(nop_bytes), 4);
		if (value == CAPCHECK_GATE_OPEN || value == CAPCHECK_GATE_CLOSE)
			return value;
	}
	if (n == sizeof(name_bytes) + 4 && !memcmp(b, name_bytes, sizeof(name_bytes))) {
		memcpy(&value, b + sizeof(name_bytes), 4);
		if (value == CAPCHECK_GATE_NAME)
			return value;
	}
	return 0;
}

/* --- translation --- */

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
		const uint8_t *data = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);

		if (vaddr >= KERNEL_START) {
			struct insn *r = insn_record(vaddr, data, size);

			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &kernel_insns, 1);
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vaddr == entry_addr ? entry_exec :
							       vaddr == syscall_addr ? syscall_exec :
							       r->hook >= 0 ? hook_entry_exec :
							       insn_exec, QEMU_PLUGIN_CB_NO_REGS, r);
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, r);
			continue;
		}
		switch (gate_kind(data, size)) {
		case CAPCHECK_GATE_OPEN:
		case CAPCHECK_GATE_CLOSE:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, gate_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)gate_kind(data, size));
			break;
		case CAPCHECK_GATE_NAME:
			/* QEMU 7.2 calls no callback registered for
			 * QEMU_PLUGIN_MEM_R alone: RW, and the store-less
			 * instruction makes it a load. */
			qemu_plugin_register_vcpu_mem_cb(insn, gate_name, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, NULL);
			break;
		default:
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &user_insns, 1);
		}
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	struct buf b = { 0 };

	(void)id;
	(void)udata;
	if (session.open) {
		bprintf(&b, "# capcheck: session %s still open at exit: not reported\n", session.name);
		gate_errors++;
	}
	bprintf(&b, "# capcheck: exit: %" PRIu64 " sessions reported, %" PRIu64 " gate errors, %"
		PRIu64 " user and %" PRIu64 " kernel instructions executed in all\n",
		sessions_reported, gate_errors, user_insns, kernel_insns);
	bflush(&b);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *map = NULL;
	struct buf b = { 0 };

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "map=", 4)) {
			map = argv[i] + 4;
		} else if (!strncmp(argv[i], "entry=", 6)) {
			entry_name = argv[i] + 6;
		} else if (!strncmp(argv[i], "annotate=", 9)) {
			if (parse_names("annotate", argv[i] + 9, &anno_names, &anno_nnames))
				return -1;
		} else if (!strncmp(argv[i], "also=", 5)) {
			if (parse_names("also", argv[i] + 5, &also_names, &also_nnames))
				return -1;
		} else {
			fprintf(stderr, "capcheck: unknown argument '%s' (map=PATH, entry=SYMBOL, "
				"annotate=SYMBOL[:SYMBOL...], also=SYMBOL[:SYMBOL...])\n", argv[i]);
			return -1;
		}
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "capcheck: needs qemu-system-x86_64, not %s\n", info->target_name);
		return -1;
	}
	if (!map) {
		fprintf(stderr, "capcheck: no map=PATH (the booted kernel's System.map)\n");
		return -1;
	}
	if (load_map(map) || annotate_setup(map))
		return -1;
	for (size_t i = 0; i < nsyms; i++) {
		if (syms[i].text && !strcmp(syms[i].name, entry_name))
			entry_addr = syms[i].addr;
		if (syms[i].text && !strcmp(syms[i].name, "entry_SYSCALL_64"))
			syscall_addr = syms[i].addr;
		if (!strcmp(syms[i].name, "__preempt_count"))
			preempt_count_addr = syms[i].addr;
		else if ((!strcmp(syms[i].name, "pcpu_hot") ||
			  !strcmp(syms[i].name, "const_pcpu_hot")) && !preempt_count_addr)
			preempt_count_addr = syms[i].addr + 8;
	}
	if (!entry_addr || !syscall_addr) {
		fprintf(stderr, "capcheck: %s has no text symbol %s\n", map,
			entry_addr ? "entry_SYSCALL_64" : entry_name);
		return -1;
	}
	if (hooks_setup(map))
		return -1;
	nvcpus = info->system.max_vcpus;
	vcpus = xcalloc(nvcpus, sizeof(*vcpus));
	for (int i = 0; i < nvcpus; i++)
		vcpus[i].target = vcpus[i].pending_target = TARGET_NONE;
	for (int k = 0; k <= MAX_SLOTS; k++) {
		session.slots[k].funcs = xcalloc(nsyms + 1, sizeof(*session.slots[k].funcs));
		session.slots[k].touched = xcalloc(nsyms + 1, sizeof(*session.slots[k].touched));
	}
	bprintf(&b, "# capcheck: map %s: %zu symbols; checks are windows of %s at 0x%" PRIx64
		"; %d vCPU(s)\n", map, nsyms, entry_name, entry_addr, nvcpus);
	for (size_t n = 0; n < anno_nnames; n++)
		bprintf(&b, "# capcheck: annotate %s\n", anno_names[n]);
	if (nhooks)
		bprintf(&b, "# capcheck: %zu hooks (also=): each call a window of its own\n", nhooks);
	bflush(&b);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
