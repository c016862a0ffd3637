// SPDX-License-Identifier: GPL-2.0-only
/*
 * capcheck-gate - open and close a session of the capcheck plugin
 * (bench/plugin/capcheck.c) from the guest's shell, run a command inside
 * one (bench/guest/realwork's workloads), or run a loop whose instruction
 * count is known inside one, to check the plugin's counts.
 *
 * Static, so that the loop session sees no dynamic loader. Without the
 * plugin the gate instructions do nothing.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../plugin/gate.h"

static const char *prog = "capcheck-gate";

#include "bench-util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: capcheck-gate open NAME | close | run NAME CMD [ARG...] | loop NAME N\n"
		"\n"
		"  open NAME    open a capcheck session named NAME (at most %d characters)\n"
		"  close        close the open session: the plugin writes its report\n"
		"  run NAME CMD [ARG...]\n"
		"               open NAME, run CMD (PATH searched) and wait for it, close;\n"
		"               print CMD's exit status and the guest ns (CLOCK_MONOTONIC)\n"
		"               from just before the open to just after the close; exit\n"
		"               with CMD's status (1 if it did not exit)\n"
		"  loop NAME N  open NAME, run N iterations of a two-instruction loop\n"
		"               (dec; jnz), close; print the instructions between the\n"
		"               gates (2N) and the guest ns (CLOCK_MONOTONIC) from just\n"
		"               before the open to just after the close\n",
		CAPCHECK_NAME_MAX);
}

/* The session NAME around exactly 2 * N user instructions: the open, the
 * loop and the close in one asm statement, so that no instruction of the
 * compiler's falls between them. */
static void loop(const char *name, unsigned long n)
{
	int64_t start = now_ns(), end;
	unsigned long left = n;

	capcheck_gate_name(name);
	__asm__ volatile(CAPCHECK_NOP_ASM(CAPCHECK_GATE_OPEN)
			 "1:\n\t"
			 "dec %0\n\t"
			 "jnz 1b\n\t"
			 CAPCHECK_NOP_ASM(CAPCHECK_GATE_CLOSE)
			 : "+r"(left) : : "cc", "memory");
	end = now_ns();
	printf("capcheck-gate: loop %s: %lu iterations, expected_user_insns %lu, guest_ns %lld\n",
	       name, n, 2 * n, (long long)(end - start));
}

/* The session NAME around CMD and all it runs until it exits: every
 * instruction of the guest between the gates, its start (fork, exec) and
 * its end (exit, wait) included. */
static int run(const char *name, char **cmd)
{
	int64_t start = now_ns(), end;
	int status;
	pid_t pid;

	capcheck_gate_open(name);
	pid = fork();
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		pid = -1;
	capcheck_gate_close();
	end = now_ns();
	if (pid < 0)
		die("run %s: cannot run or wait for %s", name, cmd[0]);
	printf("capcheck-gate: run %s: status %d, guest_ns %lld\n", name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1, (long long)(end - start));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static void check_name(const char *name)
{
	if (!*name || strlen(name) > CAPCHECK_NAME_MAX || strpbrk(name, "\t\n"))
		usage_error("NAME takes 1 to %d characters, no tab or newline: '%s'",
			    CAPCHECK_NAME_MAX, name);
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "open")) {
		check_name(argv[2]);
		capcheck_gate_open(argv[2]);
	} else if (argc == 2 && !strcmp(argv[1], "close")) {
		capcheck_gate_close();
	} else if (argc >= 4 && !strcmp(argv[1], "run")) {
		check_name(argv[2]);
		return run(argv[2], argv + 3);
	} else if (argc == 4 && !strcmp(argv[1], "loop")) {
		check_name(argv[2]);
		loop(argv[2], parse_count("N", argv[3], 1));
	} else {
		usage(stderr);
		return 2;
	}
	return 0;
}
