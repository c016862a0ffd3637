#!/bin/bash
# early.sh LABEL N CPU APPEND - boot the debug kernel N times under TCG as
# vm/run does (q35, tcg multi-threaded, -smp 2, -m 1024), watch the console
# and stop QEMU once boot is past identify_boot_cpu() ("Spectre V1 :" is
# printed by cpu_select_mitigations() right after it); count KASAN reports.
label=$1 n=$2 cpu=$3 append=$4
out=/tmp/kasan-repro/$label; mkdir -p "$out"
kernel=/root/.cache/usercaps/build-debug/arch/x86/boot/bzImage
for i in $(seq 1 "$n"); do
	[ -e /tmp/kasan-repro/STOP ] && break
	con=$out/console-$i.log; : >"$con"
	nice -n 10 qemu-system-x86_64 -nodefaults -nographic -no-reboot -no-user-config \
		-machine q35 -accel tcg,thread=multi -cpu "$cpu" -smp 2 -m 1024 -kernel "$kernel" \
		-chardev "file,id=console,path=$con" -serial chardev:console \
		-append "console=ttyS0 panic=-1 $append" </dev/null >/dev/null 2>&1 &
	q=$!
	t0=$(date +%s.%N) end=
	for _ in $(seq 1 600); do
		sleep 0.2
		if grep -q 'Spectre V1 :' "$con"; then end=marker; break; fi
		kill -0 $q 2>/dev/null || { end=exited; break; }
	done
	# a report prints its stack before the marker; give the line buffer a moment
	sleep 0.5
	kill $q 2>/dev/null; wait $q 2>/dev/null
	k=$(grep -c 'BUG: KASAN' "$con")
	echo "$i end=${end:-timeout} kasan=$k secs=$(echo "$(date +%s.%N) - $t0" | bc) $(date +%T)" >>"$out/tally"
done
echo done >>"$out/tally"
