#!/bin/bash
# ab.sh ROUNDS - interleave early boots of three conditions, one each per
# round, so that host load falls on them alike:
#   max      -cpu max (vm/run's TCG CPU), as vm/run booted the debug kernel
#   no5lvl   -cpu max, kernel command line no5lvl (the fix)
#   la57off  -cpu max,la57=off (the CPU without 5-level paging)
cd /tmp/kasan-repro
for r in $(seq 1 "$1"); do
	[ -e STOP ] && break
	./early.sh ab-max 1 max "" >/dev/null 2>&1; mv ab-max/console-1.log ab-max/c-$r.log
	./early.sh ab-no5lvl 1 max no5lvl >/dev/null 2>&1; mv ab-no5lvl/console-1.log ab-no5lvl/c-$r.log
	./early.sh ab-la57off 1 max,la57=off "" >/dev/null 2>&1; mv ab-la57off/console-1.log ab-la57off/c-$r.log
done
