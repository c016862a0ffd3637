#!/bin/bash
# loop4.sh LABEL N THREADS FLIPS - N boots of the 6.12 kernel with a
# clone's vm/run (--tcg-threads THREADS), each flipping the keys FLIPS
# times (tests/guest/static-key-flips.sh); one line a boot: status,
# seconds, Oops: int3 lines on the console (kept gzipped when not 0).
label=$1 n=$2 threads=$3 flips=$4
repo=/root/final2
out=/work/int3/$label
mkdir -p "$out"
k=/root/.cache/usercaps/linux-6.12/build/arch/x86/boot/bzImage
for i in $(seq 1 "$n"); do
	s=$(date +%s)
	USERCAPS_LINUX=6.12 "$repo/vm/run" --accel tcg --tcg-threads "$threads" --timeout 300 \
		--kernel "$k" --console "$out/console-$i" -- "$repo/tests/guest/static-key-flips.sh" "$flips" \
		>"$out/out-$i" 2>"$out/err-$i"
	rc=$?
	oops=$(grep -c 'Oops: int3' "$out/console-$i")
	echo "$i rc=$rc secs=$(($(date +%s) - s)) oops=$oops" >>"$out/summary"
	if [ "$oops" = 0 ] && [ "$rc" = 0 ]; then rm -f "$out/console-$i" "$out/err-$i"; else gzip -f "$out/console-$i"; fi
done
