#!/bin/bash
# loop.sh LABEL N [vm/run options...] - boot the debug kernel N times running 'true'
label=$1 n=$2; shift 2
out=/tmp/kasan-repro/$label; mkdir -p "$out"
cd /work/wt-kasan
for i in $(seq 1 "$n"); do
	[ -e /tmp/kasan-repro/STOP ] && break
	USERCAPS_KERNEL=debug nice -n 10 vm/run --timeout 300 --console "$out/console-$i.log" "$@" true >"$out/run-$i.log" 2>&1
	rc=$?
	k=$(grep -c 'BUG: KASAN' "$out/console-$i.log")
	echo "$i rc=$rc kasan=$k $(date +%T)" >>"$out/tally"
done
echo done >>"$out/tally"
