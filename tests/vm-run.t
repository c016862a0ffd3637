#!/bin/bash
# vm/run from the host's side: options, output, exit status, user ids,
# shared directories, and the statuses for a kernel splat, a panic, a
# timeout and a guest that never reached the command. Each boot is about
# 5 s under TCG; the hung command's runs beside the others.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel
plan 33

# run_vm OUT_VAR ERR_VAR ARGS... - vm/run with stdin closed, as in CI.
run_vm() {
	local out_var=$1 err_var=$2 _out _err rc=0
	shift 2
	_out=$("$repo_dir/vm/run" "$@" 2>"$tmp/stderr" <&-) || rc=$?
	_err=$(cat "$tmp/stderr")
	printf -v "$out_var" '%s' "$_out"
	printf -v "$err_var" '%s' "$_err"
	return "$rc"
}

tmp=$(mktemp -d)
# Where the guest mounts tmpfs, under root's home, and a path with a space
# and a comma: shares and the current directory work at each.
odd=("$(mktemp -d /tmp/vm-run.XXXXXX)" "$(mktemp -d /root/.vm-run.XXXXXX)" "$tmp/a dir, odd")
trap 'rm -rf "$tmp" "${odd[0]}" "${odd[1]}"' EXIT

for bad in "--cpus x" "--accel warp" "--groups 1,,2" "--user root" "--mem 12" "--bogus" "--kernel /nonexistent" \
	"--install /" "--tcg-threads many"; do
	rc=0
	run_vm out err $bad -- true || rc=$?
	if [ "$rc" = 125 ] && printf '%s' "$err" | grep -q '^vm/run: '; then
		ok 0 "refuses '$bad' with status 125 and a message"
	else
		ok 1 "refuses '$bad' with status 125 and a message (got $rc: $err)"
	fi
done
rc=0
run_vm out err || rc=$?
is "$rc" 125 "refuses to run without a command"
rc=0
run_vm out err --qemu-arg || rc=$?
is "$rc:$err" "125:vm/run: --qemu-arg needs a value (see --help)" "refuses --qemu-arg without a value"

# A hung command, in the background while the other boots run: the
# timeout is wall time the guest idles through (after a boot of a few
# seconds), which need not hold make test's slot.
"$repo_dir/vm/run" --timeout 20 -- sleep 600 >/dev/null 2>"$tmp/hung.err" <&- &
hung=$!

mkdir -m 0777 "$tmp/share"
rc=0
run_vm out err --user 1000 --group 1001 --groups 2000,2001 --rw "$tmp/share" -- \
	sh -c 'echo hello from the guest; id -u; id -g; id -G; touch "$1/by-guest"; exit 7' sh "$tmp/share" || rc=$?
is "$rc" 7 "the command's exit status comes back"
contains "$out" '^hello from the guest$' "the command's output is streamed to stdout"
is "$(printf '%s\n' "$out" | sed -n '2,4p' | tr '\n' ' ')" "1000 1001 1001 2000 2001 " \
	"the command runs with the given uid, gid and groups (id -G lists the gid first)"
ok "$([ -e "$tmp/share/by-guest" ]; echo $?)" "a --rw directory is writable from the guest"
contains "$err" '^vm/run: qemu-system-x86_64 .* -kernel ' "the exact QEMU command is printed"

mkdir -p "${odd[2]}"
chmod 0777 "${odd[@]}"
cd "${odd[2]}"
# In the same boot, --qemu-arg reaches QEMU: an SMBIOS serial number the
# guest reads back (as root: the file is root's).
rc=0
run_vm out err --rw "${odd[0]}" --rw "${odd[1]}" --rw "${odd[2]}" --meta "$tmp/odd.meta" \
	--qemu-arg -smbios --qemu-arg type=1,serial=vm-run-t-probe -- \
	sh -c 'pwd; cat /sys/class/dmi/id/product_serial; for dir; do touch "$dir/by-guest"; done
		grep -m1 "^flags" /proc/cpuinfo' sh "${odd[@]}" || rc=$?
cd "$repo_dir"
ok "$([ "$rc" = 0 ] && [ -e "${odd[0]}/by-guest" ] && [ -e "${odd[1]}/by-guest" ] &&
	[ -e "${odd[2]}/by-guest" ]; echo $?)" \
	"--rw directories under /tmp, under /root and with a space and a comma are writable (status $rc)"
is "$(printf '%s\n' "$out" | sed -n 1p)" "${odd[2]}" "the command runs in a current directory with a space and a comma"
is "$(printf '%s\n' "$out" | sed -n 2p)" "vm-run-t-probe" \
	"--qemu-arg passes arguments to QEMU (the guest reads the SMBIOS serial it set)"
contains "$err" '^vm/run: qemu-system-x86_64 .* -smbios type=1,serial=vm-run-t-probe -append ' \
	"... and the printed QEMU command has them"
# Under TCG the guest's CPU has no fast strings: a rep stosb would run
# (and count) an iteration at a time.
flags=$(printf '%s\n' "$out" | sed -n 3p)
if [ "$(sed -n 's/^accel=//p' "$tmp/odd.meta")" = kvm ]; then
	ok 0 "TCG's guest CPU has neither ERMS nor FSRM # SKIP booted with KVM (-cpu host)"
else
	is "$(sed -n 's/^cpu=//p' "$tmp/odd.meta"):$(printf '%s\n' "$flags" | grep -ow -e erms -e fsrm | tr '\n' ' ')" \
		"max,-erms,-fsrm:" "TCG's guest CPU has neither ERMS nor FSRM (the meta says so too)"
	contains "$flags" ' rep_good( |$)' "... and rep stosq is good (REP_GOOD): the kernel clears pages with it"
fi

rc=0
run_vm out err -- sh -c 'echo c >/proc/sysrq-trigger' || rc=$?
is "$rc" 123 "a kernel panic gives status 123"

# The kernel log is the console: a line like a checker's report fails the
# run even though the command succeeded.
rc=0
run_vm out err -- sh -c 'echo "WARNING: vm-run.t splat probe" >/dev/kmsg' || rc=$?
is "$rc" 121 "a kernel warning while the command runs gives status 121"
contains "$err" 'WARNING: vm-run.t splat probe' "the report is shown"

rc=0
wait "$hung" || rc=$?
is "$rc" 124 "a hung command gives status 124 after the timeout"
contains "$(cat "$tmp/hung.err")" 'timeout' "the timeout is named"

rc=0
run_vm out err --append init=/bin/true -- true || rc=$?
is "$rc" 122 "a guest that never reaches the command gives status 122"

# --which-accel answers what --accel auto would use, and boots nothing else.
rc=0
out=$(vm/run --which-accel 2>&1 </dev/null) || rc=$?
ok "$([ "$rc" = 0 ] && { [ "$out" = kvm ] || [ "$out" = tcg ]; }; echo $?)" \
	"vm/run --which-accel prints kvm or tcg ($out)"
is "$([ -w /dev/kvm ] || echo tcg)" "$([ -w /dev/kvm ] || echo "$out")" \
	"... tcg without a writable /dev/kvm"
# Where /dev/kvm opens, the probe boot's answer (up to 30 s) is kept per
# image contents: a copy with another mtime, as make bench boots, is
# answered from it.
if [ -w /dev/kvm ]; then
	cp "$build_dir/arch/x86/boot/bzImage" "$tmp/bzImage.copy"
	touch -d 2001-01-01 "$tmp/bzImage.copy"
	start=$SECONDS
	copy=$(vm/run --which-accel --kernel "$tmp/bzImage.copy" 2>&1 </dev/null) || true
	ok "$([ "$copy" = "$out" ] && [ $((SECONDS - start)) -lt 10 ]; echo $?)" \
		"... and for a copy of the image, the same answer without another probe ($((SECONDS - start)) s)"
else
	ok 0 "... and for a copy of the image, the same answer without another probe # SKIP no writable /dev/kvm"
fi

# Static keys flipped while both vCPUs run the code they patch: under
# TCG, vm/run's default single thread keeps 6.12's text_poke_bp() from
# an int3 oops (under multi-threaded TCG, every such 6.12 boot died; 6.1
# hung now and then at the same int3: results/vm/20261207-int3-tcg-threads).
rc=0
run_vm out err --accel tcg --cpus 2 --meta "$tmp/threads.meta" -- tests/guest/static-key-flips.sh 100 || rc=$?
is "$(sed -n 's/^tcg_threads=//p' "$tmp/threads.meta")" single "TCG is single-threaded by default"
is "$rc:$out" "0:flipped 100" "200 static key flips with both vCPUs busy: no oops, no hang (status 0)"
