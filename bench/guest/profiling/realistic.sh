#!/bin/bash
# bench/guest/profiling/realistic.sh - what an unprivileged user does for the
# realistic run of bench/guest/perf, in a loop until the caller's timeout
# ends it: a look around the system, a small build, a larger compile. $1: a
# directory of the user's own, holding capbench.c.
# what: ls/ps/find/cat/stat over /proc, /etc, /root, nice and renice,
# what: make -j2 of a 5-file tree, gcc -O2 of capbench.c, in a loop
set -eu
cd "$1"
mkdir -p tree
for n in 1 2 3 4; do
	printf '#include <stdio.h>\nint f%s(void) { return printf("%s\\n"); }\n' "$n" "$n" >"tree/f$n.c"
done
printf 'int f1(void), f2(void), f3(void), f4(void);\nint main(void) { return f1() + f2() + f3() + f4() < 0; }\n' \
	>tree/main.c
printf 'prog: main.o f1.o f2.o f3.o f4.o\n\t$(CC) -o $@ $^\n%%.o: %%.c\n\t$(CC) -O1 -c $<\nclean:\n\trm -f prog *.o\n' \
	>tree/Makefile
while :; do
	ls -la /proc /etc /root /var/log >/dev/null 2>&1 || true
	ps aux >/dev/null
	find /etc /proc/1 -maxdepth 2 -name '*.conf' >/dev/null 2>&1 || true
	cat /proc/self/status /etc/passwd /proc/1/environ >/dev/null 2>&1 || true
	stat /etc/shadow /proc/1/exe >/dev/null 2>&1 || true
	nice -n 5 true
	renice -n -1 -p $$ >/dev/null 2>&1 || true
	touch file
	chgrp 2000 file
	chmod g+s file
	make -s -C tree clean
	make -s -j2 -C tree
	./tree/prog >/dev/null
	gcc -O2 -o capbench capbench.c
done
