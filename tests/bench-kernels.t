#!/bin/bash
# bench/report/kernels, no kernel needed: two made-up bench/drivers/run directories, one
# on 6.1 and one on 6.12, whose every figure is chosen, so that a
# difference taken the wrong way round, a row of one run only, a wall-clock
# figure among icount's or a missing plot shows here; and its refusals.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# made_up_run DIR RELEASE COMMIT - a complete run on kernel RELEASE with
# checks.csv, summary.csv, profile.csv and kill's stock check by function.
made_up_run() {
	local dir=$1
	mkdir -p "$dir/profile"
	printf '%s\n' "run_id=$(basename "$dir")" status=complete quick=0 mode=icount,profile \
		"git_commit=$3" git_dirty=no "kernel_release=$2" "stock_kernel_release=${2%-usercaps}-stock" \
		"workloads=kill ioprio" date=2026-01-01T00:00:00Z >"$dir/meta"
	{
		echo "# instructions added per capability check (made up)"
		echo workload,config,kernel,case,reference,checks_per_call,added_ns_per_call,added_per_check,added_per_check_min,added_per_check_max,repeat_spread_per_check,boots
	} >"$dir/checks.csv"
	{
		echo "# bench/drivers/run (made up)"
		echo workload,config,mode,accel,runs,samples,ns_per_op_min,ns_per_op_median,ns_per_op_max,spread_pct,reference,ratio,overhead_ns,variant,ratio_min,ratio_max
	} >"$dir/summary.csv"
	{
		echo "# capcheck plugin (made up)"
		echo workload,config,kernel,case,calls,checks,checks_per_call,insns,loads,stores
	} >"$dir/profile.csv"
}
# check DIR WORKLOAD CONFIG ADDED MIN MAX - a checks.csv row, against stock.
check() {
	local kernel=${3%%-*} case=${3#*-} ref=stock-allowed
	case "$case" in deny*) ref=stock-denied ;; root) ref=stock-root ;; esac
	echo "$2,$3,$kernel,$case,$ref,1,$4,$4,$5,$6,0.100,2" >>"$1/checks.csv"
}
# per_call DIR WORKLOAD CONFIG MODE VARIANT NS - a summary.csv row.
per_call() {
	echo "$2,$3,$4,$4,2,6,$6,$6,$6,0.000,$3,1.000,0.0,$5,1.000,1.000" >>"$1/summary.csv"
}
# functions DIR NAME INSNS... - profile/kill-stock-allowed.tsv, NAME INSNS
# pairs, then their total.
functions() {
	local dir=$1 total=0
	shift
	{
		echo "# one capability check of kill in stock-allowed (made up)"
		printf 'function\tinsns\tloads\tstores\tdlines\tilines\n'
		while [ $# -gt 0 ]; do
			printf '%s\t%s\t1\t1\t1\t1\t0\n' "$1" "$2"
			total=$((total + $2))
			shift 2
		done
		printf 'total\t%s\t1\t1\t1\t1\t0\n' "$total"
	} >"$dir/profile/kill-stock-allowed.tsv"
}

old=$tmp/20260101-000000-old
new=$tmp/20260102-000000-new
made_up_run "$old" 6.1.1-usercaps 1111aaaa
made_up_run "$new" 6.12.1-usercaps 2222bbbb
# 6.12 takes 3.05 off percred's grant (whose boots disagree by 1: not
# exact), adds 0.5 to commoncap's and 1.25 to cached's refusal, nothing to
# ioprio's grant; naive-root is 6.1's only.
check "$old" kill commoncap-allowed 1.000 1.000 1.000
check "$old" kill cached-deny 5.000 5.000 5.000
check "$old" kill percred-grant 20.050 20.000 20.100
check "$old" kill naive-root 1.000 1.000 1.000
check "$old" ioprio percred-grant 12.500 12.500 12.500
check "$new" ioprio percred-grant 12.500 12.500 12.500
check "$new" kill percred-grant 17.000 16.500 17.500
check "$new" kill cached-deny 6.250 6.000 6.500
check "$new" kill commoncap-allowed 1.500 1.500 1.500
per_call "$old" kill stock-allowed icount - 1140.8
per_call "$old" kill stock-allowed wall - 999.9
per_call "$old" kill stock-denied icount - 766.5
per_call "$new" kill stock-allowed icount - 1100.3
per_call "$new" kill stock-allowed icount groups=16 1234.5
per_call "$new" kill stock-denied icount - 766.5
echo kill,stock-allowed,stock,allowed,1000,1000,1,118,32,20 >>"$old/profile.csv"
echo kill,stock-denied,stock,denied,1000,1000,1,45,13,8 >>"$old/profile.csv"
echo kill,stock-allowed,stock,allowed,1000,1000,1,96,30,18 >>"$new/profile.csv"
echo kill,stock-denied,stock,denied,1000,1000,1,40,12,8 >>"$new/profile.csv"
# 6.1 walks the hook list through a retpoline thunk, 6.12 has static calls.
functions "$old" security_capable 54 apparmor_capable 38 cap_capable 14 __x86_indirect_thunk_array 9 bpf_lsm_capable 3
functions "$new" security_capable 44 apparmor_capable 38 cap_capable 14

# kernels ARGS... - bench/report/kernels ARGS into $tmp/out: output in $out,
# status in $rc.
kernels() {
	rc=0
	out=$(bench/report/kernels --out-results "$tmp/out" --out-plots "$tmp/out" "$@" 2>&1) || rc=$?
}
kernels "$old" "$new"
is "$rc" 0 "bench/report/kernels compares a 6.1 run with a 6.12 run"
csv=$tmp/out/per-check.csv
is "$(grep -v '^#' "$csv" | head -1)" "workload,config,added_per_check_6.1,added_per_check_6.12,difference,exact" \
	"per-check.csv: the columns carry the kernels' major.minor"
is "$(grep -v '^#' "$csv" | tail -n +2 | paste -sd' ' -)" \
	"kill,commoncap-allowed,1.000,1.500,0.500,yes kill,cached-deny,5.000,6.250,1.250,yes kill,percred-grant,20.050,17.000,-3.050,no ioprio,percred-grant,12.500,12.500,0.000,yes" \
	"... a row per workload and configuration of both runs, in the first's order, 6.12 minus 6.1, exact unless a run's boots disagree"
comment=$(grep '^#' "$csv")
contains "$comment" "6.1: run 20260101-000000-old, kernel 6.1.1-usercaps, commit 1111aaaa" \
	"... its comment names the 6.1 run"
contains "$comment" "6.12: run 20260102-000000-new, kernel 6.12.1-usercaps, commit 2222bbbb" "... and the 6.12 run"

md=$(cat "$tmp/out/summary.md")
contains "$md" "one guest ns is one instruction" "summary.md says what icount's ns are"
# The kill table, then every workload's.
is "$(table_row "$md" percred-grant | head -1)" "20.050 | 17.000 | -3.050*" \
	"summary.md: kill's added instructions per check on each kernel and the change, * not exact"
is "$(table_row "$md" naive-root | head -1)" "1.000 | - | -" "... a configuration of one run only has no change"
is "$(table_row "$md" percred-grant | tail -1)" "20.050 -> 17.000* | 12.500 -> 12.500" \
	"... every workload's, as 6.1 -> 6.12"
is "$(table_row "$md" cached-deny | tail -1)" "5.000 -> 6.250 | -" "... a workload without the configuration: -"
is "$(table_row "$md" kill stock-allowed | head -1)" "118 | 96 | -22" \
	"... one stock check on each kernel (profile.csv)"
is "$(table_row "$md" __x86_indirect_thunk_array)" "9 | -" \
	"... kill's stock check by function, a function of one kernel only"
is "$(table_row "$md" total)" "118 | 96" "... and its total"
is "$(table_row "$md" kill stock-allowed | tail -1)" "1140.8 | 1100.3 | -40.5" \
	"... stock's whole-syscall instructions per call, icount's plain rows only"

for file in per-check-kernels.png per-check-kernels.svg; do
	[ -s "$tmp/out/$file" ]
	ok $? "bench/report/kernels draws $file"
done
svg=$(cat "$tmp/out/per-check-kernels.svg")
contains "$svg" '>\+0\.500<' "the plot writes each exact row's change on its bar"
is "$(grep -c '>not exact<' "$tmp/out/per-check-kernels.svg")" 1 "... and 'not exact' for the one that is not"
contains "$svg" 'linux 6\.12\.1-usercaps minus 6\.1\.1-usercaps' "... and says which kernels"
contains "$svg" 'commit 1111aaaa.*commit 2222bbbb' "... and which commits"
ok "$(grep -q '>FAILED<' "$tmp/out/per-check-kernels.svg"; echo $((! $?)))" "... and, both runs complete, no FAILED"

# Packed runs (bench/drivers/pack: profile/ in packed.tar.xz) compare the same.
cp "$tmp/out/summary.md" "$tmp/summary.md.loose"
cp "$tmp/out/per-check.csv" "$tmp/per-check.csv.loose"
bench/drivers/pack "$old"
bench/drivers/pack "$new"
is "$(ls "$new" | paste -sd' ' -)" "checks.csv meta packed.tar.xz profile.csv summary.csv" "the runs packed"
kernels "$old" "$new"
is "$rc" 0 "bench/report/kernels compares packed runs"
ok "$(cmp -s "$tmp/summary.md.loose" "$tmp/out/summary.md" && cmp -s "$tmp/per-check.csv.loose" "$csv"; echo $?)" \
	"... and writes the same summary.md and per-check.csv, kill's stock check by function included"

# exact.csv, when both runs have it: a row per workload, capability and
# configuration, exact unless a figure has decimals. Synthetic numbers.
# exact_rows DIR KILL SYS_ADMIN SYS_NICE IPC_LOCK - DIR/exact.csv, each
# capability's percred-grant row adding that many instructions.
exact_rows() {
	{
		echo workload,capability,config,case,slots,checks_per_call,insns,reference,reference_insns,added,loads,stores,dlines,ilines,added_loads,added_stores
		echo "kill,kill,percred-grant,grant,1,1,$((100 + $2)),stock-allowed,100,$2,1,1,1,1,0,0"
		echo "ioprio,sys_admin,percred-grant,deny,1,1,$((100 + $3)),stock-denied,100,$3,1,1,1,1,0,0"
		echo "ioprio,sys_nice,percred-grant,grant,2,1,$((100 + $4)),stock-allowed,100,$4,1,1,1,1,0,0"
		echo "mlock,ipc_lock,percred-grant,grant,1 2 3,3,$5,stock-allowed,100,$5,1,1,1,1,0,0"
	} >"$1/exact.csv"
}
exact_rows "$old" 1 2 3 4.5
kernels "$old" "$new"
is "$(grep -v '^#' "$csv" | head -1)" "workload,config,added_per_check_6.1,added_per_check_6.12,difference,exact" \
	"one run with exact.csv: checks.csv's figures"
exact_rows "$new" 4 2 5 6
kernels "$old" "$new"
is "$rc" 0 "two runs with exact.csv are compared"
is "$(grep -v '^#' "$csv" | paste -sd' ' -)" \
	"workload,capability,config,added_per_check_6.1,added_per_check_6.12,difference,exact kill,kill,percred-grant,1,4,3,yes ioprio,sys_admin,percred-grant,2,2,0,yes ioprio,sys_nice,percred-grant,3,5,2,yes mlock,ipc_lock,percred-grant,4.5,6,1.5,no" \
	"... by their exact.csv, a row per capability, one with decimals not exact"
svg=$(cat "$tmp/out/per-check-kernels.svg")
contains "$svg" '>ioprio/sys_nice<' "... a panel per workload and capability"
contains "$svg" '>\+2<' "... each exact row's change on its bar"
is "$(grep -c '>not exact<' "$tmp/out/per-check-kernels.svg")" 1 "... and 'not exact' for the other"
mv "$new/checks.csv" "$tmp/checks.csv.new"
kernels "$old" "$new"
is "$rc" 0 "... a run with exact.csv and no checks.csv (the profile mode alone) too"
rm "$old/exact.csv"
kernels "$old" "$new"
is "$rc:$out" "1:bench/report/kernels: $new: no checks.csv, and the other run has no exact.csv" \
	"... but not beside a run without exact.csv"
mv "$tmp/checks.csv.new" "$new/checks.csv"
rm "$new/exact.csv"

rm "$new/profile.csv"
kernels "$old" "$new"
is "$rc" 0 "a run without the profile mode is compared too"
contains "$(cat "$tmp/out/summary.md")" "No profile.csv in 20260102-000000-new \(6.12\)" \
	"... and summary.md says it has no baseline per check"

# refused WHAT PATTERN ARGS... - bench/report/kernels ARGS fails (status 1) with
# a message matching PATTERN.
refused() {
	local what=$1 pattern=$2
	shift 2
	kernels "$@"
	is "$rc" 1 "bench/report/kernels refuses $what"
	contains "$out" "$pattern" "... and says why"
}
refused "6.12 then 6.1" "first run must be on linux 6.1 and the second on 6.12" "$new" "$old"
refused "two 6.1 runs" "both runs are on linux 6.1 .*--allow-same-kernel" "$old" "$old"
kernels --allow-same-kernel "$old" "$old"
is "$rc" 0 "... but compares them with --allow-same-kernel"
is "$(grep -v '^#' "$csv" | head -1)" \
	"workload,config,added_per_check_6.1-first,added_per_check_6.1-second,difference,exact" \
	"... in columns told apart"
sed -i 's/^status=.*/status=running/' "$new/meta"
refused "a run that is not complete" "status is 'running', not complete" "$old" "$new"
sed -i 's/^status=.*/status=complete, profile cross-check failed/' "$new/meta"
kernels "$old" "$new"
is "$rc" 0 "a complete run whose profile cross-check failed is compared"
contains "$(cat "$tmp/out/summary.md")" '^\| status \| complete \| complete, profile cross-check failed \|$' \
	"... and summary.md shows its status"
contains "$(cat "$tmp/out/per-check-kernels.svg")" "run 20260102-000000-new, FAILED RUN: status 'complete, profile cross-check failed'" \
	"... and the plot's title marks it FAILED"
contains "$(cat "$tmp/out/per-check-kernels.svg")" '>FAILED<' "... and so does the big label across it"
sed -i 's/^status=.*/status=complete/' "$new/meta"
rm "$new/checks.csv"
refused "a run without checks.csv" "no checks.csv" "$old" "$new"

plan "$tap_count"
[ "$tap_failed" = 0 ]
