#!/bin/sh
# tests/guest/static-key-flips.sh [N] - in a vm/run guest as root: flip
# the sched_schedstats static key N times (default 100; each flip
# text_poke_bp()s every schedstat site of the scheduler) while both vCPUs
# context-switch through those sites (two pipes of yes into cat).
n=${1:-100}
yes | cat >/dev/null &
yes | cat >/dev/null &
i=0
while [ "$i" -lt "$n" ]; do
	echo 1 >/proc/sys/kernel/sched_schedstats || exit 1
	echo 0 >/proc/sys/kernel/sched_schedstats || exit 1
	i=$((i + 1))
done
pkill -x yes
echo "flipped $n"
