#!/bin/bash
# bench/drivers/ab's cache and its exact table, no kernel built and no boot: the
# cache key moves with each harness file and with the options, and with
# nothing else; store, lookup and compose on a made-up run; bench/drivers/ab
# --plan reuses a side whose boots are cached, and boots it again after a
# harness change, with other options or with --fresh; bench/report/ab-exact
# gives exactly 0 on a recorded A = B pair, and reads the plugin's slot
# records where a log has them.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/ab-lib.sh"

# key KERNEL OPTIONS - the copy's cache key.
key() {
	"$repo/bench/drivers/ab-cache" key "$@" | sed -n 1p
}
base=$(key kernel-1 "--mode profile")
contains "$base" '^[0-9a-f]{16}$' "bench/drivers/ab-cache key: 16 hex digits"
is "$(key kernel-1 "--mode profile")" "$base" "... the same for the same kernel, harness and options"
differs "$(key kernel-2 "--mode profile")" "$base" "... another for another kernel"
differs "$(key kernel-1 "--mode icount,profile")" "$base" "... another for another option"
contains "$("$repo/bench/drivers/ab-cache" key kernel-1 "--mode profile")" '^harness [0-9a-f]{64}$' \
	"... its lines name the harness id"

for f in bench/drivers/run bench/guest/measure bench/guest/programs/capbench.c bench/plugin/capcheck.c \
	vm/run vm/lib.sh vm/guest-init; do
	echo "# changed" >>"$repo/$f"
	differs "$(key kernel-1 "--mode profile")" "$base" "a change to the harness, $f: another key"
	g checkout -q -- "$f"
done
touch "$repo/bench/guest/programs/new.c"
differs "$(key kernel-1 "--mode profile")" "$base" "... a new file in it too"
rm "$repo/bench/guest/programs/new.c"
for f in README.md bench/report/summarize bench/report/plot usercaps/security/usercaps/lsm.c; do
	echo "# changed" >>"$repo/$f"
done
is "$(key kernel-1 "--mode profile")" "$base" \
	"what the boots do not run (README, bench/report/summarize, bench/report/plot; the kernel is KERNEL): the same key"
g checkout -q -- .

# made_up_run DIR CONFIG... - a bench/drivers/run directory, packed, with a
# profile boot of each CONFIG.
made_up_run() {
	local dir=$1 c
	shift
	mkdir -p "$dir/raw"
	printf 'run_id=made-up\nstatus=complete\nkernels=%s\nkernel_release=6.1-usercaps\nstock_kernel_release=6.1-stock\ndate=2026-01-02T03:04:05Z\n' \
		"$*" >"$dir/meta"
	for c in "$@"; do
		mkdir -p "$dir/raw/profile-run1-$c"
		echo "made up" >"$dir/raw/profile-run1-$c/capcheck.log"
	done
	bench/drivers/pack "$dir"
}
made_up_run "$tmp/run" percred stock
cache=$tmp/entries
echo "kernel k" | bench/drivers/ab-cache store "$cache" K1 "$tmp/run" percred
is "$(bench/drivers/ab-cache lookup "$cache" K1 percred)" "$cache/K1/percred" "store, then lookup: the entry"
is "$(ls "$cache/K1/percred/raw")" profile-run1-percred "... with that configuration's boots alone, from a packed run"
is "$(cat "$cache/K1/key")" "kernel k" "... and the key's lines"
rc=0
bench/drivers/ab-cache lookup "$cache" K1 naive || rc=$?
is "$rc" 1 "another configuration: no entry"
rc=0
bench/drivers/ab-cache lookup "$cache" K2 percred || rc=$?
is "$rc" 1 "another key: no entry"
echo "stock s" | bench/drivers/ab-cache store "$cache" S1 "$tmp/run" stock
bench/drivers/ab-cache compose "$tmp/composed" "$cache/K1/percred" "$cache/S1/stock"
is "$(ls "$tmp/composed/raw" | paste -sd' ' -)" "profile-run1-percred profile-run1-stock" \
	"compose: a run of the entries' boots"
is "$(grep -e '^kernels=' -e '^reused=' -e '^stock_' "$tmp/composed/meta" | paste -sd' ' -)" \
	"stock_kernel_release=6.1-stock kernels=percred stock reused=K1/percred@2026-01-02T03:04:05Z S1/stock@2026-01-02T03:04:05Z" \
	"... its meta: the configurations, stock's lines from stock's entry, and what it reused"

# bench/drivers/ab --plan in the copy.
ab --plan --kernels percred HEAD HEAD
first=$(echo "$out" | sed -n 's/^A: \([0-9a-f]\{16\}\) to boot: percred$/\1/p')
contains "$first" '^[0-9a-f]{16}$' "bench/drivers/ab --plan: a side with nothing cached is to boot"
contains "$out" "^B: $first, A's boots$" "... and B of the same kernel boots once, with A"
echo "kernel k" | bench/drivers/ab-cache store "$ab_roots/results" "$first" "$tmp/run" percred
ab --plan --kernels percred HEAD HEAD
contains "$out" "^A: reused $first \(measured 2026-01-02T03:04:05Z\)$" "a side whose boots are cached is reused"
contains "$out" "^B: reused $first \(measured 2026-01-02T03:04:05Z\)$" "... B of the same kernel too"
ab --plan --fresh --kernels percred HEAD HEAD
contains "$out" "^A: $first to boot: percred$" "... not with --fresh"
ab --plan --kernels "percred naive" HEAD HEAD
contains "$out" "^A: $first to boot: naive$" "a configuration not cached is booted, the cached one not"
ab --plan --kernels percred --workloads kill HEAD HEAD
contains "$out" '^A: [0-9a-f]{16} to boot: percred$' "other options: booted again"
is "$(echo "$out" | grep "^A: $first ")" "" "... under another key"
echo "# changed" >>"$repo/bench/guest/measure"
g commit -q -a -m harness
ab --plan --kernels percred HEAD HEAD
contains "$out" '^A: [0-9a-f]{16} to boot: percred$' "a changed harness (bench/guest/measure): booted again"
is "$(echo "$out" | grep "^A: $first ")" "" "... under another key"

# bench/report/ab-exact on a recorded A = B pair: two boots of one kernel.
recorded=results/ab/483b536-vs-483b536-20261205-073618
rc=0
table=$(bench/report/ab-exact "$recorded/A" "$recorded/B" 2>&1) || rc=$?
is "$rc" 0 "bench/report/ab-exact on $recorded"
body=$(echo "$table" | grep '^| [a-z]' | grep -v '^| workload')
is "$(echo "$body" | wc -l)" 63 "... a row per workload and configuration: 3 workloads, 21 configurations"
is "$(echo "$body" | awk -F'|' '{ gsub(/ /, ""); print $7, $8, $9, $10 }' | sort -u)" "0 0 0 0" \
	"A = B: exactly 0 instructions, loads, stores and instruction lines in every row"
differs "$(echo "$body" | awk -F'|' '{ gsub(/ /, ""); print $11 }' | sort -u)" 0 \
	"... while the data lines move from one boot to the next (two boots, not one read twice)"

# made_up_profile RUN INSNS - a run whose plugin log has ioprio's two
# slots in percred-grant (K=2's instructions INSNS), and kill's total
# alone, as a log made before the slots; its meta names the slots'
# capabilities.
made_up_profile() {
	local boot=$tmp/$1/raw/profile-run1-percred
	mkdir -p "$boot"
	echo "workload_checks=kill:kill ioprio:sys_admin,sys_nice" >"$tmp/$1/meta"
	printf '%s\n' "ioprio/percred-grant ioprio percred-grant 1000" "kill/percred-grant kill percred-grant 1000" >"$boot/sessions.dat"
	{
		printf 'session\tioprio/percred-grant\t2000\t51\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n' "$2"
		printf 'total\tioprio/percred-grant\t94.500\t26.500\t14.000\t13.000\t8.500\n'
		printf 'slot\tioprio/percred-grant\t1\t1000\t51.000\t13.000\t8.000\t6.900\t6.000\t51\t51\n'
		printf 'slot\tioprio/percred-grant\t2\t1000\t%s.000\t40.000\t20.000\t19.200\t11.000\t%s\t%s\n' "$2" "$2" "$2"
		printf 'session\tkill/percred-grant\t1000\t138\t138\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n'
		printf 'total\tkill/percred-grant\t138.000\t40.000\t20.000\t19.200\t11.000\n'
	} >"$boot/capcheck.log"
}
made_up_profile SA 138
made_up_profile SB 141
table=$(bench/report/ab-exact "$tmp/SA" "$tmp/SB")
is "$(table_row "$table" ioprio percred-grant "K=1 sys_admin")" "51 | 51 | 0 | 0 | 0 | 0 | 0" \
	"slot records: a row per check, K=1 CAP_SYS_ADMIN unchanged"
is "$(table_row "$table" ioprio percred-grant "K=2 sys_nice")" "138 | 141 | +3 | 0 | 0 | 0 | 0" \
	"... K=2 CAP_SYS_NICE's 3 instructions more"
is "$(table_row "$table" ioprio percred-grant all)" "" "... and no session total beside them"
is "$(table_row "$table" kill percred-grant all)" "138 | 138 | 0 | 0 | 0 | 0 | 0" \
	"a session without slot records: its total, for all its checks"

plan "$tap_count"
[ "$tap_failed" = 0 ]
