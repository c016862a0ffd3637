// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit0 - the smallest program capbench's fork-exec can run: static, no
 * C library, one system call. What fork-exec then measures is the
 * kernel's exec (and its credential), not a dynamic loader.
 *
 * Build: gcc -O2 -static -nostdlib -o exit0 exit0.c (x86_64).
 */
void _start(void)
{
	/* exit_group(0) */
	__asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory");
	__builtin_unreachable();
}
