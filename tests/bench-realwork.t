#!/bin/bash
# bench/realwork.py on made-up realwork boots (bench/report/summarize, no QEMU):
# a workload's instructions are the session's user and kernel ones, its
# checks' the plugin's total row times its checks; the share, what usercaps
# adds against stock's configuration of the same user, and whether that is
# within the whole workload's noise; the checks by capability and outcome
# as the kprobes counted them; and a session that is not exact, has no
# report or outlasts icount's clock fails the run (exit 3).
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# session NAME CHECKS USER KERNEL [IRQS_UNKNOWN] - a session row of the
# plugin's log (bench/plugin/capcheck.c) and its total row, each check
# PER_CHECK instructions.
session() {
	printf 'session\t%s\t%s\t100\t200\t%s\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t%s\n' \
		"$1" "$2" "$3" "$4" "${6:-0}"
	printf 'total\t%s\t%s\t30.000\t10.000\t8.000\t6.000\n' "$1" "$5"
}
# boot KERNEL CONFIG - a realwork boot's directory, with its guest-meta.
boot() {
	dir=$run/raw/realwork-run1-$1
	mkdir -p "$dir"
	printf 'kernel=%s\nguest_kernel_version=#1\nguest_kernel_config_sha256=%s\n' "$1" "$1" >"$dir/guest-meta"
	echo "# session workload config repeat guest_ns" >"$dir/sessions.dat"
	echo "# workload config capability outcome checks" >"$dir/checks-by-capability.dat"
}
# made_up_run DIR - two kernels, audio as the user and as root, two
# sessions each.
made_up_run() {
	run=$1
	mkdir -p "$run"
	printf 'run_id=made-up\nstatus=complete\nmode=realwork\nkernels=stock percred\n' >"$run/meta"
	boot stock
	{
		session 'audio/stock-allowed#1' 4 1000000 3000000 100.000
		session 'audio/stock-allowed#2' 4 1000000 3000100 100.000
		session 'audio/stock-root#1' 4 900000 3000000 90.000
		session 'audio/stock-root#2' 4 900000 3000000 90.000
	} >"$dir/capcheck.log"
	printf '%s\n' 'audio/stock-allowed#1 audio stock-allowed 1 5000000' \
		'audio/stock-allowed#2 audio stock-allowed 2 5000000' \
		'audio/stock-root#1 audio stock-root 1 5000000' 'audio/stock-root#2 audio stock-root 2 5000000' \
		>>"$dir/sessions.dat"
	printf '%s\n' 'audio stock-allowed sys_nice allowed 2' 'audio stock-allowed ipc_lock allowed 2' \
		'audio stock-root sys_nice allowed 2' 'audio stock-root ipc_lock allowed 2' >>"$dir/checks-by-capability.dat"
	boot percred
	{
		session 'audio/percred-grant#1' 4 1000000 3000500 150.000
		session 'audio/percred-grant#2' 4 1000000 3000700 150.000
		session 'audio/percred-root#1' 5 900000 3000050 95.000
		session 'audio/percred-root#2' 5 900000 3000050 95.000
	} >"$dir/capcheck.log"
	printf '%s\n' 'audio/percred-grant#1 audio percred-grant 1 5000000' \
		'audio/percred-grant#2 audio percred-grant 2 5000000' \
		'audio/percred-root#1 audio percred-root 1 5000000' 'audio/percred-root#2 audio percred-root 2 5000000' \
		>>"$dir/sessions.dat"
	printf '%s\n' 'audio percred-grant sys_nice allowed 2' 'audio percred-grant ipc_lock allowed 2' \
		'audio percred-root sys_nice allowed 2' 'audio percred-root ipc_lock allowed 2' \
		'audio percred-root setuid refused 1' >>"$dir/checks-by-capability.dat"
}
# row RUN CONFIG COLUMNS - those columns (cut -f) of audio's row in CONFIG.
row() {
	awk -F, -v c="$2" '$1 == "audio" && $2 == c' "$1/realwork.csv" | cut -d, -f"$3"
}

made_up_run "$tmp/good"
rc=0
bench/report/summarize "$tmp/good" >"$tmp/good.out" 2>&1 || rc=$?
is "$rc" 0 "bench/report/summarize reads the made-up realwork boots"
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/good.out"
is "$(awk -F, '!/^#/ && $1 == "audio" { printf "%s ", $2 }' "$tmp/good/realwork.csv")" \
	"stock-allowed stock-root percred-grant percred-root " \
	"realwork.csv's rows: stock first, the user before root (the boots' directories sort the other way)"
# insns, spread, checks, capable_insns, capable_share
is "$(row "$tmp/good" stock-allowed 4,7,8,9,10)" "4000050,100,4,400,0.01000" \
	"stock-allowed: the whole workload (user + kernel, median), its spread, checks x per-check instructions, their share"
is "$(row "$tmp/good" percred-grant 11,12,13,14)" "stock-allowed,400,200,0.00500" \
	"percred-grant against stock-allowed: 600 - 400 = 200 instructions added, 0.00500 % of 4000600"
is "$(row "$tmp/good" percred-root 11,13,15)" "stock-root,115,50" \
	"percred-root against stock-root: 5 x 95 - 4 x 90 added in the checks, 50 on the whole workload"
is "$(row "$tmp/good" percred-grant 16,17)" "200,noise-level" \
	"200 added within percred-grant's spread of 200: noise-level"
is "$(row "$tmp/good" percred-root 16,17)" "0,above noise" "115 added where the sessions do not vary: above noise"
is "$(row "$tmp/good" stock-allowed 11,13,17)" ",," "stock is the reference: nothing added"
is "$(grep -c '^audio,percred-root,' "$tmp/good/realwork-checks.csv")" 3 \
	"realwork-checks.csv: percred-root's checks by capability and outcome"
is "$(grep '^audio,percred-root,setuid' "$tmp/good/realwork-checks.csv")" "audio,percred-root,setuid,refused,1" \
	"... a refused one among them"
summary=$(cat "$tmp/good/summary.md")
is "$(table_row "$summary" audio percred-grant | sed -n 1p)" "4000600 | 200 | 4 | 600 | 0.0150 | 200 | 0.00500 | noise-level" \
	"summary.md's real work table"
is "$(table_row "$summary" audio percred-root | sed -n 2p)" "ipc_lock 2, sys_nice 2; refused: setuid 1" \
	"... and its checks by capability, the refused apart"

contains "$summary" '^Noise-level: 1 of the 2 rows compared with stock; above the noise: audio/percred-root \(\+115 against a spread of 0\)\.$' \
	"summary.md says which rows are noise-level and which are not"

contains "$summary" "^The kprobes' run made as many checks as the sessions' median in 4 of 4 rows\.$" \
	"... and that the kprobes' run made as many checks as the sessions"
is "$(row "$tmp/good" percred-root 19)" 5 "realwork.csv's counted_checks: percred-root's 2 + 2 + 1"

# bench/report/plot draws realwork-share from realwork.csv: the user's
# configurations, the noise beside them.
if command -v gnuplot >/dev/null; then
	rc=0
	bench/report/plot --run "$tmp/good" --out "$tmp/plots" >"$tmp/plot.out" 2>&1 || rc=$?
	is "$rc" 0 "bench/report/plot draws the made-up run"
	svg=$(cat "$tmp/plots/realwork-share.svg" 2>/dev/null)
	contains "$svg" '>percred-grant<' "realwork-share's key names percred-grant"
	contains "$svg" '>noise \(spread\)<' "... and the noise mark"
	ok "$(printf '%s' "$svg" | grep -q '>stock-root<\|>percred-root<' && echo 1 || echo 0)" \
		"... and no root configuration: the plot is of the user holding what it needs"
else
	ok 0 "bench/report/plot # SKIP no gnuplot"
fi

# realwork_line DESCRIPTION - the realwork region of a README in
# $tmp/repo written by bench/report/figures from its results/, as one line.
realwork_line() {
	printf '%s\n' '<!-- figures:realwork -->' '<!-- /figures:realwork -->' >"$tmp/repo/README.md"
	local rc=0
	bench/report/figures --root "$tmp/repo" "$tmp/repo/README.md" >/dev/null 2>&1 || rc=$?
	is "$rc" 0 "bench/report/figures writes the realwork region $1"
	line=$(tr '\n' ' ' <"$tmp/repo/README.md")
}

# The README's line (bench/report/figures' realwork region) from the record's
# realwork.csv: the audio user, the container start left out when the
# record did not run it.
mkdir -p "$tmp/repo/results"
cp -r "$tmp/good" "$tmp/repo/results/made-up"
ln -s made-up "$tmp/repo/results/latest"
realwork_line "from the record's realwork.csv"
contains "$line" 'audio user.s start .*: 600 of its 4,000,600 instructions are in `capable\(\)` \(0.0150 %\), and percred adds 200 of them \(0.00500 % of the whole, noise-level\)' \
	"... the audio user's share and what percred adds, from realwork.csv"
ok "$(grep -q container "$tmp/repo/README.md" && echo 1 || echo 0)" \
	"... and no container start, which the record did not run"

# A record without a realwork round: the line is the latest realwork run's,
# one run alone and kept in results/realwork/.
mkdir -p "$tmp/repo/results/record" "$tmp/repo/results/realwork"
cp "$tmp/good/meta" "$tmp/good/summary.md" "$tmp/repo/results/record/"
ln -sfn record "$tmp/repo/results/latest"
mv "$tmp/repo/results/made-up" "$tmp/repo/results/realwork/made-up"
realwork_line "from results/realwork/ when the record has no realwork.csv"
contains "$line" 'Real work \(run `results/realwork/made-up`\), `realwork.csv`: the audio user.s start .*percred adds 200 of them' \
	"... naming that run"

# A session whose plugin counters say it is not exact fails the run.
made_up_run "$tmp/inexact"
sed -i 's/^\(session\taudio\/percred-grant#2\t.*\t\)0$/\11/' "$tmp/inexact/raw/realwork-run1-percred/capcheck.log"
rc=0
err=$(bench/report/summarize "$tmp/inexact" 2>&1) || rc=$?
is "$rc" 3 "a realwork session that is not exact: exit 3"
contains "$err" 'audio/percred-grant#2 is not exact: irq_accesses_unknown 1' "... naming the session and its counter"
contains "$(sed -n 's/^status=//p' "$tmp/inexact/meta")" 'cross-check failed' "... and the run's status says so"

# A session with no report in the log.
made_up_run "$tmp/missing"
sed -i '/audio\/stock-root#2/d' "$tmp/missing/raw/realwork-run1-stock/capcheck.log"
rc=0
err=$(bench/report/summarize "$tmp/missing" 2>&1) || rc=$?
is "$rc" 3 "a session with no report: exit 3"
contains "$err" 'session audio/stock-root#2 has no report' "... naming it"

# icount's clock: a session cannot last fewer guest ns than it ran instructions.
made_up_run "$tmp/clock"
sed -i 's/^audio\/percred-root#1 audio percred-root 1 5000000$/audio\/percred-root#1 audio percred-root 1 3900049/' \
	"$tmp/clock/raw/realwork-run1-percred/sessions.dat"
rc=0
err=$(bench/report/summarize "$tmp/clock" 2>&1) || rc=$?
is "$rc" 3 "a session shorter under icount than its instructions: exit 3"
contains "$err" 'percred-root#1 lasted 3900049 guest ns under icount, fewer than its 3900050' "... saying by how much"

plan "$tap_count"
[ "$tap_failed" = 0 ]
