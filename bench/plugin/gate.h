/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gate.h - the instructions that open and close a capcheck session.
 *
 * The capcheck plugin (capcheck.c) profiles capability checks only inside
 * a session, which a guest program opens and closes by executing these
 * instructions. They do nothing to the guest; the plugin recognises them
 * by their bytes when it translates them:
 *
 *   open   nopw OPEN(%rax,%rax,1)   66 0f 1f 84 00 <OPEN, 32-bit>
 *   close  nopw CLOSE(%rax,%rax,1)  66 0f 1f 84 00 <CLOSE, 32-bit>
 *   name   movzbl NAME(%rdi),%eax   0f b6 87 <NAME, 32-bit>
 *
 * A long NOP with a 32-bit displacement is a real, harmless instruction
 * that no compiler emits with these values. The plugin API of QEMU 7.2
 * reads neither registers nor guest memory, so a session's name travels
 * in the addresses of loads: each name instruction, just before the open,
 * loads the byte at alphabet[c] of a 256-byte aligned array, and the
 * plugin reads c from the low byte of the address it sees.
 */
#ifndef CAPCHECK_GATE_H
#define CAPCHECK_GATE_H

#define CAPCHECK_GATE_OPEN 0x43434f31	/* "1OCC": open a session */
#define CAPCHECK_GATE_CLOSE 0x43434f30	/* "0OCC": close it, write its report */
#define CAPCHECK_GATE_NAME 0x43434e00	/* the next character of the name */

/* The bytes before the 32-bit value, for the plugin and for .byte. */
#define CAPCHECK_NOP_BYTES 0x66, 0x0f, 0x1f, 0x84, 0x00
#define CAPCHECK_NAME_BYTES 0x0f, 0xb6, 0x87

/* The longest name the plugin keeps; a longer one is cut there. */
#define CAPCHECK_NAME_MAX 127

#ifndef CAPCHECK_PLUGIN
#include <stdint.h>

#define CAPCHECK_STR_(...) #__VA_ARGS__
#define CAPCHECK_STR(...) CAPCHECK_STR_(__VA_ARGS__)
#define CAPCHECK_NOP_ASM(value) ".byte " CAPCHECK_STR(CAPCHECK_NOP_BYTES) "\n\t.long " CAPCHECK_STR(value) "\n\t"

static inline void capcheck_gate_name(const char *name)
{
	static const volatile unsigned char alphabet[256] __attribute__((aligned(256)));

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		__asm__ volatile(".byte " CAPCHECK_STR(CAPCHECK_NAME_BYTES) "\n\t.long %c1"
				 : : "D"((uintptr_t)&alphabet[*c] - CAPCHECK_GATE_NAME),
				   "i"(CAPCHECK_GATE_NAME) : "eax", "memory");
}

/* capcheck_gate_open() - open a session named NAME. */
static inline void capcheck_gate_open(const char *name)
{
	capcheck_gate_name(name);
	__asm__ volatile(CAPCHECK_NOP_ASM(CAPCHECK_GATE_OPEN) : : : "memory");
}

/* capcheck_gate_close() - close the open session: the plugin reports it. */
static inline void capcheck_gate_close(void)
{
	__asm__ volatile(CAPCHECK_NOP_ASM(CAPCHECK_GATE_CLOSE) : : : "memory");
}
#endif /* CAPCHECK_PLUGIN */

#endif /* CAPCHECK_GATE_H */
