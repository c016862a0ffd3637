#!/bin/sh
# Guest side: toggle the sched_schedstats static key N times (each toggle
# text_poke_bp()s every schedstat_enabled() site in the scheduler) while
# both vCPUs context-switch through those sites.
n=${1:-300}
yes | cat >/dev/null &
yes | cat >/dev/null &
i=0
while [ $i -lt $n ]; do
	echo 1 >/proc/sys/kernel/sched_schedstats
	echo 0 >/proc/sys/kernel/sched_schedstats
	i=$((i + 1))
done
kill %1 %2 2>/dev/null
pkill yes
echo "toggled $n"
dmesg | grep -c 'Oops: int3'
exit 0
