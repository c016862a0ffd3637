#!/bin/bash
# The benchmark's host side, no kernel needed: capbench's workload list and
# its refusals, bench/drivers/run's option checks, and bench/report/summarize and
# bench/report/plot on a made-up run whose every figure is known, so that a ratio,
# a variant, the credential blob, the boot rows or a goal computed wrong
# shows here and not in a committed summary.
set -eu
# The made-up runs are 6.1's, at the top of results/, whichever kernel
# make test is for.
export USERCAPS_LINUX=6.1
. "$(dirname "$0")/bench-lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# capbench and exit0, built as bench/drivers/run builds them.
gcc -O2 -g -std=gnu11 -Wall -Wextra -Werror -o "$tmp/capbench" bench/guest/programs/capbench.c ||
	bail_out "capbench does not build"
gcc -O2 -static -nostdlib -Wall -Wextra -Werror -o "$tmp/exit0" bench/guest/programs/exit0.c ||
	bail_out "exit0 does not build"
rc=0
"$tmp/exit0" || rc=$?
is "$rc" 0 "exit0 exits 0"

list=$("$tmp/capbench" --list)
is "$(echo "$list" | awk '$3 == "capable" { printf "%s ", $1 }')" \
	"kill ioprio mlock setpriority getppid " "capbench --list: the capable workloads"
is "$(echo "$list" | awk '$3 == "churn" { printf "%s ", $1 }')" \
	"fork fork-kill fork-exec setresuid setresgid capset setgroups-1 setgroups-4096 " \
	"capbench --list: the churn workloads"
is "$(echo "$list" | awk '$1 == "setgroups-1" { print $2 }')" setgid \
	"setgroups is granted by the setgid file"

# run ARGS... - capbench ARGS: output in $out, status in $rc.
run() {
	rc=0
	out=$("$tmp/capbench" "$@" 2>&1) || rc=$?
}
run --format=simple -n 100 -r 2 fork-exec
is "$rc" 0 "fork-exec runs exit0 beside capbench"
is "$(echo "$out" | awk '!/^#/ { print $4 }' | paste -sd' ' -)" "2 2" \
	"a heavy workload makes 1/50 of -n's calls (rounded up)"
run --exec "$tmp/none" fork-exec
is "$rc" 1 "fork-exec with a missing program fails"
contains "$out" "fork-exec runs $tmp/none: No such file" "... and says which program"
run setresuid
is "$rc" 1 "setresuid with equal real and saved uids fails"
contains "$out" "both are [0-9]+: start it with two" "... and says how to start it"
if [ "$(id -u)" = 0 ]; then
	rc=0
	out=$(setpriv --ruid=0 --euid=65534 "$tmp/capbench" --format=simple -n 200 -r 1 setresuid 2>&1) || rc=$?
	is "$rc" 0 "setresuid flips between two uids"
else
	ok 0 "setresuid flips between two uids # SKIP needs root to start with two uids"
fi

# bench/drivers/run refuses bad options before it boots anything.
rc=0
out=$(bench/drivers/run --mode nonsense 2>&1) || rc=$?
is "$rc" 1 "bench/drivers/run --mode nonsense fails"
contains "$out" "--mode takes icount, wall, perf, profile, boot, realwork or all" "... and lists the modes"
rc=0
out=$(bench/drivers/run --mode realwork --realwork "audio mp3" 2>&1) || rc=$?
is "$rc" 1 "bench/drivers/run --realwork with an unknown workload fails"
contains "$out" "unknown workload 'mp3' \(known: audio container netadmin login build\)" "... and lists the workloads"
rc=0
out=$(bench/drivers/run --realwork-repeat 0 2>&1) || rc=$?
contains "$out" "--realwork-repeat takes a number, not '0'" "bench/drivers/run refuses --realwork-repeat 0"
rc=0
out=$(bench/drivers/run --kernels "percred selinux" 2>&1) || rc=$?
contains "$out" "unknown kernel configuration 'selinux'" "bench/drivers/run refuses an unknown kernel"
rc=0
out=$(bench/drivers/run --boots 0 2>&1) || rc=$?
contains "$out" "--boots takes a number" "bench/drivers/run refuses --boots 0"

# A made-up run: every number below is chosen, so every result is known.
run_dir=$tmp/results/20260101-000000-test
made_up_meta "$run_dir" workloads=kill "churn=fork-exec setgroups-1"
# boot BOOT BLOB - a made-up boot whose console shows a credential blob
# of BLOB bytes.
boot() {
	made_up_boot "$run_dir" "$1"
	echo "[    0.136287] LSM: cred blob size       = $2" >"$run_dir/raw/$1/console.log"
}
boot icount-run1-commoncap 16
cat >"$run_dir/raw/icount-run1-commoncap/nsop.dat" <<'DAT'
# workload config repeat iterations total_ns ns_per_op
kill commoncap-allowed 1 10 10000 1000.0
kill commoncap-allowed 2 10 10000 1000.0
kill commoncap-denied 1 10 8000 800.0
DAT
cat >"$run_dir/raw/icount-run1-commoncap/churn.dat" <<'DAT'
debian fork-exec commoncap-allowed 1 2 1000000 500000.0
debian fork-exec commoncap-allowed 2 2 1000000 500000.0
debian setgroups-1 commoncap-allowed 1 10 16000 1600.0
DAT
# One capability check per kill: the per-check figures are percred's ns
# above commoncap's, 15.0 granted (the fewest of its repeats, 1015.0 and
# 1017.0) and 4.0 refused.
cat >"$run_dir/raw/icount-run1-commoncap/checks.dat" <<'DAT'
# workload config calls checks_n checks_2n checks_per_call
kill commoncap-allowed 1000 1002 2002 1.000
kill commoncap-denied 1000 1002 2002 1.000
DAT
boot icount-run1-percred 32
cat >"$run_dir/raw/icount-run1-percred/nsop.dat" <<'DAT'
kill percred-grant 1 10 10150 1015.0
kill percred-grant 2 10 10170 1017.0
kill percred-deny 1 10 8040 804.0
DAT
cat >"$run_dir/raw/icount-run1-percred/checks.dat" <<'DAT'
kill percred-grant 1000 1002 2002 1.000
kill percred-deny 1000 1002 2002 1.000
DAT
cat >"$run_dir/raw/icount-run1-percred/churn.dat" <<'DAT'
debian fork-exec percred-grant 1 2 1020000 510000.0
debian setgroups-1 percred-grant 1 10 24000 2400.0
DAT
boot icount-run1-commoncap@bare 0
echo "bare fork-exec commoncap-allowed 1 2 1000000 500000.0" >"$run_dir/raw/icount-run1-commoncap@bare/churn.dat"
boot icount-run1-percred@bare 16
echo "bare fork-exec percred-grant 1 2 1004000 502000.0" >"$run_dir/raw/icount-run1-percred@bare/churn.dat"
# The first icount round's boots time the boot (initcall_debug, their
# dmesg.log saved before the workloads).
echo "[    0.700000] Run /sbin/init as init process" >>"$run_dir/raw/icount-run1-commoncap/console.log"
echo "[    0.707000] Run /sbin/init as init process" >>"$run_dir/raw/icount-run1-percred/console.log"
: >"$run_dir/raw/icount-run1-commoncap/dmesg.log"
echo "[    0.4] initcall usercaps_init_securityfs+0x0/0x144 returned 0 after 140 usecs" \
	>"$run_dir/raw/icount-run1-percred/dmesg.log"

rc=0
out=$(bench/report/summarize "$run_dir" 2>&1) || rc=$?
is "$rc" 0 "bench/report/summarize reads the made-up run"
csv=$run_dir/summary.csv
# row WORKLOAD CONFIG VARIANT - the csv row's median, ratio, overhead.
row() {
	awk -F, -v w="$1" -v c="$2" -v v="$3" '$1 == w && $2 == c && $14 == v { print $8, $12, $13 }' "$csv"
}
is "$(row kill percred-grant -)" "1016.0 1.016 16.0" "capable rows: median, ratio and overhead"
is "$(row kill percred-deny -)" "804.0 1.005 4.0" "a deny row is compared with commoncap-denied"
is "$(row fork-exec percred-grant stack=debian)" "510000.0 1.020 10000.0" \
	"churn rows: against commoncap on the same stack (debian)"
is "$(row fork-exec percred-grant stack=bare)" "502000.0 1.004 2000.0" \
	"... and on the bare stack"
is "$(row setgroups-1 percred-grant stack=debian)" "2400.0 1.500 800.0" "setgroups-1's refill shows"
is "$(row boot-to-init percred-boot stack=debian)" "707000000.0 1.010 7000000.0" \
	"boot-to-init: the init line's stamp, against commoncap's"
is "$(row usercaps-initcall percred-boot stack=debian | cut -d' ' -f1)" "140000.0" \
	"usercaps-initcall: initcall_debug's time"
is "$(grep -c '^fork-exec,.*,stack=debian,' "$csv")" 2 "no churn row leaks into the plain rows"
memory=$(grep -v '^#' "$run_dir/memory.csv")
contains "$memory" '^percred,debian,32,32,16,16$' "memory.csv: percred adds 16 bytes to the debian stack's blob"
contains "$memory" '^percred,bare,16,16,16,16$' "memory.csv: ... and allocates a 16-byte blob on the bare stack"
md=$(cat "$run_dir/summary.md")
contains "$md" 'fork-exec against commoncap .*not a verdict.*: percred-grant \(debian\) 1.020x' \
	"fork-exec's ratio is shown as icount guest time, not a verdict"
contains "$md" '^## credential churn \(icount' "summary.md has the churn section"
contains "$md" '^## memory per credential' "summary.md has the memory section"

if command -v gnuplot >/dev/null; then
	# A plot of an earlier run that this one does not draw goes.
	mkdir -p "$tmp/plots"
	touch "$tmp/plots/latency-wall.png"
	rc=0
	out=$(bench/report/plot --run "$run_dir" --out "$tmp/plots" 2>&1) || rc=$?
	is "$rc" 0 "bench/report/plot draws the made-up run"
	is "$(ls "$tmp/plots" | paste -sd' ' -)" \
		"offpath-icount.png offpath-icount.svg per-check-icount.png per-check-icount.svg" \
		"... per-check-icount and offpath-icount, as PNG and SVG, and nothing else"
	svg=$(cat "$tmp/plots/per-check-icount.svg")
	contains "$svg" '>15\.0<' "per-check-icount: percred's grant adds 15.0 instructions per check (its fewest)"
	contains "$svg" '>4\.0<' "... and its refusal 4.0"
	contains "$svg" '>≤ 10<' "... and the goals (percred grant ≤ 10)"
	contains "$svg" 'against commoncap \(usercaps built in but not in lsm=' \
		"... against commoncap when the run has no stock kernel"
else
	ok 1 "bench/report/plot: gnuplot is missing (make deps installs it)"
fi

# Packed (bench/drivers/pack): the summaries and per-check tables loose, the rest
# in one archive, from which bench/report/summarize writes the same summary.
bench/drivers/pack "$run_dir"
is "$(ls "$run_dir" | paste -sd' ' -)" "checks.csv meta packed.tar.xz summary.csv summary.md" \
	"bench/drivers/pack keeps a run's meta, summaries and checks.csv loose, the rest in packed.tar.xz"
cp "$run_dir/summary.md" "$tmp/summary.md.before"
rc=0
out=$(bench/report/summarize "$run_dir" 2>&1) || rc=$?
is "$rc" 0 "bench/report/summarize reads the packed run"
ok "$(cmp -s "$tmp/summary.md.before" "$run_dir/summary.md"; echo $?)" "... and writes the same summary.md"
bench/drivers/pack "$run_dir"
is "$(ls "$run_dir" | paste -sd' ' -)" "checks.csv meta packed.tar.xz summary.csv summary.md" \
	"... and what it writes again packs again"
# What bench/report/summarize writes again is newer than what was packed.
echo "# written again" >"$run_dir/memory.csv"
bench/drivers/pack "$run_dir"
bench/report/unpacked.py "$run_dir" "$tmp/repacked"
is "$(cat "$tmp/repacked/memory.csv")" "# written again" "... the loose file replacing the packed one"
rm -rf "$tmp/repacked"
bench/report/summarize "$run_dir" >/dev/null
bench/drivers/pack "$run_dir"

# A quick run never replaces the record, nor does a run that did not
# complete: in a copy of the harness, the made-up run above is the record
# (results/latest, results/summary.*, plots/), then a quick run and a
# failed one are published and plotted beside it.
repo=$tmp/repo
mkdir -p "$repo/vm" "$repo/results"
cp -r bench "$repo/"
cp vm/lib.sh "$repo/vm/"
cp -r "$run_dir" "$repo/results/"
full=$repo/results/$(basename "$run_dir")
# made_up_quick ID KEY=VALUE... - a quick run of kill alone in
# results/quick/ID, of the made-up run's icount boots, summarized.
made_up_quick() {
	local quick_dir=$repo/results/quick/$1
	shift
	made_up_meta "$quick_dir" workloads=kill quick=1 "$@"
	sed -i "s/^run_id=.*/run_id=$(basename "$quick_dir")/" "$quick_dir/meta"
	bench/report/unpacked.py "$full" "$tmp/full-unpacked"
	mkdir -p "$quick_dir/raw"
	cp -r "$tmp/full-unpacked/raw/icount-run1-commoncap" "$tmp/full-unpacked/raw/icount-run1-percred" "$quick_dir/raw/"
	# A quick run has no churn, and its boots do not time the boot.
	rm -rf "$tmp/full-unpacked" "$quick_dir"/raw/*/churn.dat "$quick_dir"/raw/*/dmesg.log
	"$repo/bench/report/summarize" "$quick_dir" >/dev/null
	"$repo/bench/drivers/pack" "$quick_dir"
}
# record - every file of the record, with its checksum.
record() {
	(cd "$repo" && readlink results/latest && find results/latest/ results/summary.* plots -maxdepth 1 -type f \
		! -path 'plots/quick*' | LC_ALL=C sort | xargs sha256sum)
}
rc=0
out=$("$repo/bench/drivers/publish" "$full" 2>&1) || rc=$?
is "$rc:$(readlink "$repo/results/latest")" "0:$(basename "$run_dir")" "bench/drivers/publish makes a complete full run results/latest"
ok "$(cmp -s "$full/summary.md" "$repo/results/summary.md"; echo $?)" "... and copies its summary.md to results/"
if command -v gnuplot >/dev/null; then
	"$repo/bench/report/plot" >/dev/null
	before=$(record)
	contains "$before" 'plots/per-check-icount.svg' "the record: its plots drawn into plots/"
	made_up_quick 20260102-000000-quick
	rc=0
	out=$("$repo/bench/drivers/publish" "$repo/results/quick/20260102-000000-quick" 2>&1) || rc=$?
	is "$rc:$(readlink "$repo/results/quick/latest")" "0:20260102-000000-quick" \
		"a quick run is published as results/quick/latest"
	rc=0
	out=$("$repo/bench/report/plot" --quick 2>&1) || rc=$?
	is "$rc" 0 "bench/report/plot --quick draws it"
	is "$(ls "$repo/plots/quick" | paste -sd' ' -)" "per-check-icount.png per-check-icount.svg" "... into plots/quick/"
	contains "$(cat "$repo/plots/quick/per-check-icount.svg")" 'run 20260102-000000-quick, QUICK RUN' \
		"... titled as a quick run"
	is "$(record)" "$before" "... and the record's latest, summary and plots are byte-identical"
	rc=0
	out=$("$repo/bench/report/plot" --run "$repo/results/quick/latest" --out "$repo/plots" 2>&1) || rc=$?
	is "$rc" 1 "bench/report/plot refuses to draw a quick run where the full run's plots are"
	contains "$out" "plots/per-check-icount.svg is a full run's" "... and says whose they are"
	is "$(record)" "$before" "... and leaves them byte-identical"
	rc=0
	out=$("$repo/bench/report/plot" --run "$full" --out "$repo/plots/quick" 2>&1) || rc=$?
	is "$rc" 1 "... nor a full run's where a quick run's are"
	ok "$(grep -q 'QUICK RUN' "$repo/plots/quick/per-check-icount.svg"; echo $?)" "... and leaves those"
	# A failed quick run: not published, and its plots say FAILED.
	made_up_quick 20260103-000000-failed
	sed -i 's/^status=.*/status=failed at step 2\/3 (icount-run1-percred): timeout after 900s/' \
		"$repo/results/quick/20260103-000000-failed/meta"
	rc=0
	out=$("$repo/bench/drivers/publish" "$repo/results/quick/20260103-000000-failed" 2>&1) || rc=$?
	is "$rc:$(readlink "$repo/results/quick/latest")" "1:20260102-000000-quick" \
		"bench/drivers/publish refuses a failed run: latest stays"
	contains "$out" "status is 'failed at step 2/3 .*', not complete" "... and says why"
	"$repo/bench/report/plot" --run "$repo/results/quick/20260103-000000-failed" >/dev/null
	contains "$(cat "$repo/plots/quick/per-check-icount.svg")" "FAILED RUN: status 'failed at step 2/3" \
		"a failed run's plots carry FAILED and its status in the title"
	is "$(record)" "$before" "the record is byte-identical after all of it"
else
	ok 1 "a quick run leaves the record alone: gnuplot is missing (make deps installs it)"
fi
made_up_meta "$tmp/quick-outside/20260104-000000-quick" quick=1
rc=0
out=$("$repo/bench/drivers/publish" "$tmp/quick-outside/20260104-000000-quick" 2>&1) || rc=$?
is "$rc:$(ls "$tmp/quick-outside")" "1:20260104-000000-quick" "bench/drivers/publish refuses a quick run outside a quick/ directory"
rc=0
sed -i 's/^status=.*/status=complete, profile cross-check failed/' "$full/meta"
out=$("$repo/bench/drivers/publish" "$full" 2>&1) || rc=$?
is "$rc" 1 "... and a full run whose profile cross-check failed"

plan "$tap_count"
[ "$tap_failed" = 0 ]
