#!/bin/bash
# bench/summarize's profile part, no kernel needed: the capcheck plugin's
# session reports of a made-up run turned into per-function tables,
# profile.csv and the cross-check against icount's per-check figures,
# which fails the summary (status 3) when they differ by more than 2
# instructions or a window was not exact.
set -eu
. "$(dirname "$0")/bench-lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# made_up_run DIR GRANT_TOTAL MISMATCH IRQ - a run with icount and
# profile boots of stock and percred, kill only: percred-grant's icount
# figure is +15 per check; its profile total is GRANT_TOTAL against
# stock's 118, and its session's interrupts took IRQ instructions.
made_up_run() {
	local run_dir=$1 grant=$2 mismatch=$3 irq=$4 boot
	made_up_meta "$run_dir" workloads=kill
	for boot in icount-run1-stock icount-run1-percred profile-run1-stock profile-run1-percred; do
		made_up_boot "$run_dir" "$boot"
	done
	echo "kill stock-allowed 1 1000000 1000000000 1000.0" >"$run_dir/raw/icount-run1-stock/nsop.dat"
	echo "kill stock-allowed 1000 2001 3002 1.000" >"$run_dir/raw/icount-run1-stock/checks.dat"
	echo "kill percred-grant 1 1000000 1015000000 1015.0" >"$run_dir/raw/icount-run1-percred/nsop.dat"
	echo "kill percred-grant 1000 2001 3002 1.000" >"$run_dir/raw/icount-run1-percred/checks.dat"
	# session_log NAME CONFIG TOTAL IRQ FUNCTIONS... - a plugin log of one
	# session of 10 checks in 10 calls, each call 500 kernel instructions
	# besides its check, interrupts IRQ; FUNCTIONS "symbol insns" pairs.
	session_log() {
		local boot=$1 config=$2 total=$3 irq=$4
		shift 4
		{
			echo "# capcheck: map System.map: 3 symbols"
			printf '# session\tname\tchecks\n'
			printf 'session\tkill/%s\t10\t%s\t%s\t100\t%s\t0\t0\t%s\t0\t0\t0\t0\t0\t%s\t%s\n' \
				"$config" "$total" "$total" $((10 * total + 5000 + irq)) "$mismatch" $((irq > 0)) "$irq"
			while [ $# -gt 0 ]; do
				printf 'function\tkill/%s\t%s\t%s.000\t10.000\t4.000\t3.000\t2.000\t0.100\n' "$config" "$1" "$2"
				shift 2
			done
			printf 'total\tkill/%s\t%s.000\t20.000\t8.000\t5.000\t4.000\t0.200\n' "$config" "$total"
		} >"$run_dir/raw/$boot/capcheck.log"
		printf '# session workload config calls\nkill/%s kill %s 10\n' "$config" "$config" \
			>"$run_dir/raw/$boot/sessions.dat"
	}
	session_log profile-run1-stock stock-allowed 118 0 security_capable 60 cap_capable 58
	session_log profile-run1-percred percred-grant "$grant" "$irq" security_capable 60 cap_capable $((grant - 60))
}

# cross_check RUN - the cross-check row of RUN's summary.md: profile,
# calls, icount, icount - profile, other work, verdict.
cross_check() {
	table_row "$(cat "$tmp/$1/summary.md")" kill percred-grant stock-allowed
}

made_up_run "$tmp/agree" 133 0 0
rc=0
out=$(bench/summarize "$tmp/agree" 2>&1) || rc=$?
is "$rc" 0 "bench/summarize passes a profile 15 above stock where icount says 15"
tsv=$tmp/agree/profile/kill-percred-grant.tsv
ok "$([ -r "$tsv" ]; echo $?)" "profile/kill-percred-grant.tsv is written"
is "$(grep -v '^#' "$tsv" | cut -f1,2 | tr '\t\n' ': ')" \
	"function:insns cap_capable:73 security_capable:60 total:133 " \
	"... a row per function, the most instructions first, and the total"
contains "$(cat "$tsv")" '^# .*L1D misses: a model of 32 KiB, 8 ways' "... and says what the L1D model is"
contains "$(cat "$tmp/agree/profile.csv")" '^kill,percred-grant,percred,grant,10,10,1,133,20,8,5,4,0\.2,133,133,' \
	"profile.csv: one row of totals per workload and configuration"
is "$(cross_check agree)" "15.00 | 15.00 | 15.00 | +0.00 | 0.00 | ok" \
	"summary.md: the cross-check row, profile against icount"

# Packed (bench/pack), its profile/ in packed.tar.xz: bench/plot draws
# the profile from there (the profile alone: gnuplot 5.4 segfaults in cases.gp
# on a per-check table of one row).
if command -v gnuplot >/dev/null; then
	cp -r "$tmp/agree" "$tmp/agree-packed"
	bench/pack "$tmp/agree-packed"
	rm "$tmp/agree-packed/checks.csv"
	rc=0
	out=$(bench/plot --run "$tmp/agree-packed" --out "$tmp/plots" 2>&1) || rc=$?
	is "$rc" 0 "bench/plot draws a packed run"
	contains "$(cat "$tmp/plots/profile-kill.svg" 2>/dev/null)" '>percred-grant 133<' \
		"... its profile-kill from the packed profile/kill-*.tsv"
else
	ok 1 "bench/plot on a packed run: gnuplot is missing (make deps installs it)"
fi

made_up_run "$tmp/off" 136 0 0
rc=0
out=$(bench/summarize "$tmp/off" 2>&1) || rc=$?
is "$rc" 3 "a profile 3 instructions off icount fails the summary (status 3)"
contains "$out" 'kill percred-grant: profile 18\.00, calls 18\.00, icount 15\.00' \
	"... and names the row"
is "$(cross_check off)" "18.00 | 18.00 | 15.00 | -3.00 | 0.00 | **differs**" "... and summary.md shows it"
# The status is final before the summaries say it: bench/run then
# leaves the run out of results/latest (bench/publish refuses it).
is "$(sed -n 's/^status=//p' "$tmp/off/meta")" "complete, profile cross-check failed" \
	"... its meta's status says the cross-check failed"
contains "$(sed -n 3p "$tmp/off/summary.md")" '^- status: \*\*complete, profile cross-check failed\*\*' \
	"... and so does summary.md's"
contains "$(sed -n 1p "$tmp/off/summary.csv")" ', status complete, profile cross-check failed$' "... and summary.csv's"
rc=0
bench/publish "$tmp/off" >/dev/null 2>&1 || rc=$?
is "$rc:$(ls "$tmp" | grep -c '^latest$' || true)" "1:0" "... and bench/publish refuses it"
sed -i 's/^status=.*/status=failed at step 3\/4 (profile-run1-percred): kernel panic/' "$tmp/off/meta"
bench/summarize "$tmp/off" >/dev/null 2>&1 || true
contains "$(sed -n 3p "$tmp/off/summary.md")" '^- status: \*\*failed at step 3/4 \(profile-run1-percred\): kernel panic\*\*' \
	"a failed run's status is left as bench/run wrote it"

# The windows against the calls they lie in: a profile 3 above what
# the whole calls say fails, whatever icount says.
made_up_run "$tmp/calls" 133 0 0
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6330/\16300/' \
	"$tmp/calls/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/summarize "$tmp/calls" 2>&1) || rc=$?
is "$rc" 3 "a profile that differs from its whole calls by 3 fails the summary"
contains "$out" 'kill percred-grant: profile 15\.00, calls 12\.00' "... and names both"
# ... unless a session took an interrupt, which brings other work.
made_up_run "$tmp/irq" 133 0 600
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6930/\16900/' \
	"$tmp/irq/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/summarize "$tmp/irq" 2>&1) || rc=$?
is "$rc" 0 "the calls of a session that took an interrupt are not compared with its windows"
is "$(cross_check irq)" "15.00 | - | 15.00 | +0.00 | 3.00 | ok" "... and summary.md shows no calls figure"

# 3 off, where a session took an interrupt (its calls are not compared):
# still a failure when the two sessions' other work is the same ...
made_up_run "$tmp/other" 136 0 600
rc=0
out=$(bench/summarize "$tmp/other" 2>&1) || rc=$?
is "$rc" 3 "3 off fails where both sessions did the same work besides the checks"
# ... and "icount cannot tell" when it differs by 3 a check (30 more
# instructions in 10 calls, 1 check each).
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6960/\16990/' \
	"$tmp/other/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/summarize "$tmp/other" 2>&1) || rc=$?
is "$rc" 0 "3 off passes where the sessions' other work differs by 3 a check"
is "$(cross_check other)" "18.00 | - | 15.00 | -3.00 | 3.00 | icount cannot tell" \
	"... and summary.md says icount cannot tell"

made_up_run "$tmp/slot" 133 2 0
rc=0
out=$(bench/summarize "$tmp/slot" 2>&1) || rc=$?
is "$rc" 3 "a window whose return slot did not match fails the summary"
contains "$out" 'return_slot_mismatch 2' "... and says which counter"

plan "$tap_count"
[ "$tap_failed" = 0 ]
