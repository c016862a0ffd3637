#!/bin/bash
# ab2.sh FIRST LAST - ab.sh's rounds FIRST..LAST without la57off.
cd /tmp/kasan-repro
for r in $(seq "$1" "$2"); do
	[ -e STOP ] && break
	./early.sh ab-max 1 max "" >/dev/null 2>&1; mv ab-max/console-1.log ab-max/c-$r.log
	./early.sh ab-no5lvl 1 max no5lvl >/dev/null 2>&1; mv ab-no5lvl/console-1.log ab-no5lvl/c-$r.log
done
