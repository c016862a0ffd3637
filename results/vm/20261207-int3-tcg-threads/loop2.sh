#!/bin/bash
# loop.sh LABEL N THREAD [TOGGLES] - N boots of the 6.12 kernel, each
# running stress.sh; per boot: exit status, seconds, int3 oops or not.
label=$1 n=$2 thread=$3 toggles=${4:-300}
out=/work/int3/$label
mkdir -p "$out"
k=${KIMAGE:-/root/.cache/usercaps/linux-6.12/build/arch/x86/boot/bzImage}
for i in $(seq 1 "$n"); do
	s=$(date +%s)
	VM_TCG_THREAD=$thread USERCAPS_LINUX=${KLINUX:-6.12} /work/wt-int3/vm/run --accel tcg --timeout 300 \
		--kernel "$k" --console "$out/console-$i" /work/int3/stress.sh "$toggles" >"$out/out-$i" 2>"$out/err-$i"
	rc=$?
	oops=$(grep -c 'Oops: int3' "$out/console-$i")
	echo "$i rc=$rc secs=$(($(date +%s) - s)) int3=$oops" | tee -a "$out/summary"
	[ "$oops" = 0 ] && rm -f "$out/console-$i" "$out/err-$i"
done
