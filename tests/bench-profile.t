#!/bin/bash
# bench/report/summarize's profile part, no kernel needed: the capcheck plugin's
# session reports of a made-up run turned into per-function tables,
# profile.csv, the exact per-capability table (exact.csv), the goals
# decided on it (goals.csv), and the cross-check, which fails the summary
# (status 3) when a window is not exact, the windows (the checks' and the
# other hooks') differ from their whole calls at all, icount differs by
# more than its noise, or the plugin's checks per call are not the
# kprobe's.
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
	made_up_meta "$run_dir" workloads=kill workload_checks=kill:kill
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
			printf 'session\tkill/%s\t10\t%s\t%s\t100\t%s\t0\t0\t%s\t0\t0\t0\t0\t0\t%s\t%s\t0%s\n' \
				"$config" "$total" "$total" $((10 * total + 5000 + irq)) "$mismatch" $((irq > 0)) "$irq" \
				"$(printf '\t0%.0s' 1 2 3 4 5 6 7 8)"
			while [ $# -gt 0 ]; do
				printf 'function\tkill/%s\t%s\t%s.000\t10.000\t4.000\t3.000\t2.000\n' "$config" "$1" "$2"
				shift 2
			done
			printf 'total\tkill/%s\t%s.000\t20.000\t8.000\t5.000\t4.000\n' "$config" "$total"
			printf 'slot\tkill/%s\t1\t10\t%s.000\t20.000\t8.000\t5.000\t4.000\t%s\t%s\n' \
				"$config" "$total" "$total" "$total"
		} >"$run_dir/raw/$boot/capcheck.log"
		printf '# session workload config calls\nkill/%s kill %s 10\n' "$config" "$config" \
			>"$run_dir/raw/$boot/sessions.dat"
	}
	session_log profile-run1-stock stock-allowed 118 0 security_capable 60 cap_capable 58
	session_log profile-run1-percred percred-grant "$grant" "$irq" security_capable 60 cap_capable $((grant - 60))
}

# cross_check RUN - the cross-check row of RUN's summary.md: profile,
# hooks, calls, icount, noise, verdict.
cross_check() {
	table_row "$(cat "$tmp/$1/summary.md")" kill percred-grant stock-allowed
}

made_up_run "$tmp/agree" 133 0 0
rc=0
out=$(bench/report/summarize "$tmp/agree" 2>&1) || rc=$?
is "$rc" 0 "bench/report/summarize passes a profile 15 above stock where icount says 15"
tsv=$tmp/agree/profile/kill-percred-grant.tsv
ok "$([ -r "$tsv" ]; echo $?)" "profile/kill-percred-grant.tsv is written"
is "$(grep -v '^#' "$tsv" | cut -f1,2 | tr '\t\n' ': ')" \
	"function:insns cap_capable:73 security_capable:60 total:133 " \
	"... a row per function, the most instructions first, and the total"
contains "$(cat "$tmp/agree/profile.csv")" '^kill,percred-grant,percred,grant,10,10,1,133,20,8,5,4,133,133,' \
	"profile.csv: one row of totals per workload and configuration"
contains "$(cat "$tmp/agree/exact.csv")" '^kill,kill,percred-grant,grant,1,1,133,stock-allowed,118,15,20,8,5\.000,4\.000,0,0$' \
	"exact.csv: the check's instructions, over stock's same check, an integer"
contains "$(cat "$tmp/agree/goals.csv")" '^percred grant <= 10,10,missed,kill/kill/percred-grant,15,5$' \
	"goals.csv: percred grant <= 10 missed by the exact 5"
contains "$(cat "$tmp/agree/summary.md")" '^- percred grant <= 10: \*\*missed\*\* by 5 \(worst: kill/kill/percred-grant 15\)' \
	"summary.md: the goal's verdict and margin from the exact figure"
is "$(table_row "$(cat "$tmp/agree/summary.md")" percred-grant | sed -n 1p)" "15" "summary.md: the exact table's row, first"
is "$(cross_check agree)" "15.000 | 0.000 | 15.000 | 15.000 | 0.500 | ok" \
	"summary.md: the cross-check row, profile against its calls and icount"

# Packed (bench/drivers/pack), its profile/ in packed.tar.xz: bench/report/plot draws
# the profile from there (the profile alone: gnuplot 5.4 segfaults in cases.gp
# on a per-check table of one row).
if command -v gnuplot >/dev/null; then
	cp -r "$tmp/agree" "$tmp/agree-packed"
	bench/drivers/pack "$tmp/agree-packed"
	rm "$tmp/agree-packed/checks.csv"
	rc=0
	out=$(bench/report/plot --run "$tmp/agree-packed" --out "$tmp/plots" 2>&1) || rc=$?
	is "$rc" 0 "bench/report/plot draws a packed run"
	contains "$(cat "$tmp/plots/profile-kill.svg" 2>/dev/null)" '>percred-grant 133<' \
		"... its profile-kill from the packed profile/kill-*.tsv"
else
	ok 1 "bench/report/plot on a packed run: gnuplot is missing (make deps installs it)"
fi

# Two capabilities in one call (ioprio): a slot each, a row each.
made_up_run "$tmp/slots" 133 0 0
sed -i 's/^workload_checks=.*/workload_checks=kill:sys_admin,kill/' "$tmp/slots/meta"
for boot in profile-run1-stock profile-run1-percred; do
	log=$tmp/slots/raw/$boot/capcheck.log
	total=$(awk -F'\t' '$1 == "slot" { print $5 }' "$log")
	sed -i 's/^\(slot\t[^\t]*\t\)1\t/\12\t/' "$log"
	config=$(awk -F'\t' '$1 == "slot" { print $2 }' "$log")
	printf 'slot\t%s\t1\t10\t45.000\t12.000\t8.000\t5.000\t5.000\t45\t45\n' "$config" >>"$log"
	sed -i 's/^\(session\t[^\t]*\t\)10\t/\120\t/' "$log"
done
sed -i 's/ 1\.000$/ 2.000/' "$tmp/slots/raw/icount-run1-"*/checks.dat
bench/report/summarize "$tmp/slots" >/dev/null 2>&1 || true
is "$(grep -c '^kill,sys_admin,percred-grant,deny,1,1,45,stock-denied,' "$tmp/slots/exact.csv")" 1 \
	"slot 1 is the first capability (sys_admin), refused in a grant: deny"
is "$(grep -c '^kill,kill,percred-grant,grant,2,1,133,stock-allowed,118,15,' "$tmp/slots/exact.csv")" 1 \
	"slot 2 is the granted capability, compared with stock's same check"

made_up_run "$tmp/off" 136 0 0
rc=0
out=$(bench/report/summarize "$tmp/off" 2>&1) || rc=$?
is "$rc" 3 "a profile 3 instructions off icount fails the summary (status 3)"
contains "$out" 'kill percred-grant: differs: profile 18\.000, hooks 0\.000, calls 18\.000, icount 15\.000' \
	"... and names the row"
is "$(cross_check off)" "18.000 | 0.000 | 18.000 | 15.000 | 0.500 | **differs**" "... and summary.md shows it"
# The status is final before the summaries say it: bench/drivers/run then
# leaves the run out of results/latest (bench/drivers/publish refuses it).
is "$(sed -n 's/^status=//p' "$tmp/off/meta")" "complete, profile cross-check failed" \
	"... its meta's status says the cross-check failed"
contains "$(sed -n 3p "$tmp/off/summary.md")" '^- status: \*\*complete, profile cross-check failed\*\*' \
	"... and so does summary.md's"
contains "$(sed -n 1p "$tmp/off/summary.csv")" ', status complete, profile cross-check failed$' "... and summary.csv's"
rc=0
bench/drivers/publish "$tmp/off" >/dev/null 2>&1 || rc=$?
is "$rc:$(ls "$tmp" | grep -c '^latest$' || true)" "1:0" "... and bench/drivers/publish refuses it"
sed -i 's/^status=.*/status=failed at step 3\/4 (profile-run1-percred): kernel panic/' "$tmp/off/meta"
bench/report/summarize "$tmp/off" >/dev/null 2>&1 || true
contains "$(sed -n 3p "$tmp/off/summary.md")" '^- status: \*\*failed at step 3/4 \(profile-run1-percred\): kernel panic\*\*' \
	"a failed run's status is left as bench/drivers/run wrote it"

# icount's noise is the range of its boots: a second boot 3 apart makes
# the same profile agree.
made_up_run "$tmp/noise" 136 0 0
made_up_boot "$tmp/noise" icount-run2-stock
made_up_boot "$tmp/noise" icount-run2-percred
cp "$tmp/noise/raw/icount-run1-stock/"*.dat "$tmp/noise/raw/icount-run2-stock/"
echo "kill percred-grant 1 1000000 1018000000 1018.0" >"$tmp/noise/raw/icount-run2-percred/nsop.dat"
cp "$tmp/noise/raw/icount-run1-percred/checks.dat" "$tmp/noise/raw/icount-run2-percred/"
rc=0
out=$(bench/report/summarize "$tmp/noise" 2>&1) || rc=$?
is "$rc" 0 "a profile within the range of icount's boots agrees"
# ... or its repeats' spread, when larger: one boot whose repeats are 6
# apart (half of it, 3, a check) makes the same profile agree; 4 apart, not.
for spread in 6 4; do
	made_up_run "$tmp/repeats$spread" 136 0 0
	echo "kill percred-grant 2 1000000 $((1015 + spread))000000 $((1015 + spread)).0" \
		>>"$tmp/repeats$spread/raw/icount-run1-percred/nsop.dat"
done
rc=0
bench/report/summarize "$tmp/repeats6" >/dev/null 2>&1 || rc=$?
is "$rc" 0 "a profile within the spread of icount's repeats agrees"
rc=0
bench/report/summarize "$tmp/repeats4" >/dev/null 2>&1 || rc=$?
is "$rc" 3 "... and one beyond it does not"

# The windows against the calls they lie in: exact, whatever icount says.
made_up_run "$tmp/calls" 133 0 0
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6330/\16331/' \
	"$tmp/calls/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/calls" 2>&1) || rc=$?
is "$rc" 3 "a profile that differs from its whole calls by 0.1 a check fails the summary"
contains "$out" 'kill percred-grant: differs from its calls: profile 15\.000, hooks 0\.000, calls 15\.100' "... and names both"
# The preemption points the windows leave out are part of the calls:
# 2 instructions more in the session, counted as left out, agree.
made_up_run "$tmp/resched" 133 0 0
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6330\(.*\)$/\16332\3\t1\t2/' \
	"$tmp/resched/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/resched" 2>&1) || rc=$?
is "$rc" 0 "a session whose windows left out a preemption point agrees with its calls"
sed -i 's/\t1\t2$//' "$tmp/resched/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/resched" 2>&1) || rc=$?
is "$rc" 3 "... and the same 2 instructions not counted as one fail it"
# ... unless a session took an interrupt, which brings other work.
made_up_run "$tmp/irq" 133 0 600
sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6930/\16900/' \
	"$tmp/irq/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/irq" 2>&1) || rc=$?
is "$rc" 0 "the calls of a session that took an interrupt are not compared with its windows"
is "$(cross_check irq)" "15.000 | 0.000 | - | 15.000 | 0.500 | ok" "... and summary.md shows no calls figure"

# Linux 6.12: every other LSM hook call is an instruction longer with
# usercaps built in (a static call slot per LSM). hook_run RUN PERCRED -
# the whole calls and icount 16 a check above stock's, the checks 15,
# and kill's security_task_kill PERCRED instructions a call in percred's
# hook windows against stock's 100 (101: the +1 is accounted).
hook_run() {
	local run=$tmp/$1 boot
	made_up_run "$run" 133 0 0
	echo "kill percred-grant 1 1000000 1016000000 1016.0" >"$run/raw/icount-run1-percred/nsop.dat"
	sed -i 's/^\(session\tkill\/percred-grant\t\([^\t]*\t\)\{4\}\)6330/\16340/' \
		"$run/raw/profile-run1-percred/capcheck.log"
	for boot in stock:stock-allowed:100 percred:percred-grant:"$2"; do
		IFS=: read -r kernel config insns <<<"$boot"
		printf 'hook\tkill/%s\tsecurity_task_kill\t10\t%s.000\t20.000\t10.000\t6.000\t7.000\t%s\t%s\n' \
			"$config" "$insns" "$insns" "$insns" >>"$run/raw/profile-run1-$kernel/capcheck.log"
	done
}
hook_run hook 101
rc=0
out=$(bench/report/summarize "$tmp/hook" 2>&1) || rc=$?
is "$rc" 0 "whole calls 1 a call above the checks' windows pass where a hook window has the 1"
is "$(cross_check hook)" "15.000 | 1.000 | 16.000 | 16.000 | 0.500 | ok" \
	"... summary.md: profile + hooks = calls, and icount agrees with them"
contains "$(cat "$tmp/hook/hooks.csv")" '^kill,security_task_kill,percred-grant,1\.000,101,stock-allowed,100,1,101,100,1,20,10,6\.000,7\.000,0,0,' \
	"hooks.csv: the hook's calls per call of kill, its instructions over stock's"
contains "$(cat "$tmp/hook/summary.md")" '^\| percred-grant \| 1: kill/security_task_kill \|$' \
	"summary.md: what each other hook call adds, per configuration"
hook_run hook-lost 100
rc=0
out=$(bench/report/summarize "$tmp/hook-lost" 2>&1) || rc=$?
is "$rc" 3 "... and fail where no window has it"
contains "$out" 'kill percred-grant: differs from its calls: profile 15\.000, hooks 0\.000, calls 16\.000' \
	"... naming the row"
# 3 off where a session took an interrupt: icount still decides.
made_up_run "$tmp/other" 136 0 600
rc=0
out=$(bench/report/summarize "$tmp/other" 2>&1) || rc=$?
is "$rc" 3 "3 off fails, interrupt or not: no row is exempt"

# The plugin's checks per call are the kprobe's.
made_up_run "$tmp/count" 133 0 0
sed -i 's/^\(session\tkill\/percred-grant\t\)10\t/\111\t/' "$tmp/count/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/count" 2>&1) || rc=$?
is "$rc" 3 "11 checks in 10 calls where the kprobe counted 1 a call fails the summary"
contains "$out" 'checks per call: plugin 1\.1, kprobe 1' "... and says so"

# Every anomaly counter of the plugin fails the run.
for counter in 10:return_slot_mismatch 11:entry_without_call 12:nested_entries 18:slot_overflow \
	22:hook_return_slot_mismatch 24:hook_unclosed 25:hook_runaway 26:hook_overflow; do
	made_up_run "$tmp/${counter#*:}" 133 0 0
	sed -i "/^session\tkill\/percred-grant/s/^\(\([^\t]*\t\)\{$((${counter%%:*} - 1))\}\)0/\12/" \
		"$tmp/${counter#*:}/raw/profile-run1-percred/capcheck.log"
	rc=0
	out=$(bench/report/summarize "$tmp/${counter#*:}" 2>&1) || rc=$?
	is "$rc" 3 "${counter#*:} 2 fails the summary"
	contains "$out" "${counter#*:} 2" "... and says which counter"
done

# A session again with interrupts injected (bench/guest/capcheck
# --interrupts): the same per check, exactly, with interrupts left out.
# inject RUN IRQS LOADS - percred-grant's session again as its +irq
# session, IRQS interrupts left out, LOADS loads per check.
inject() {
	local log=$tmp/$1/raw/profile-run1-percred/capcheck.log
	grep -P '^[a-z]+\tkill/percred-grant\t' "$log" |
		sed -e 's|kill/percred-grant|kill/percred-grant+irq|' \
			-e "/^session/s/^\(\([^\t]*\t\)\{7\}\)0/\1$2/" \
			-e "/^total/s/^\(\([^\t]*\t\)\{3\}\)20\.000/\1$3/" >>"$log"
	echo "kill/percred-grant+irq kill percred-grant+irq 50" >>"$tmp/$1/raw/profile-run1-percred/sessions.dat"
}
made_up_run "$tmp/inject" 133 0 0
inject inject 3 20.000
rc=0
out=$(bench/report/summarize "$tmp/inject" 2>&1) || rc=$?
is "$rc" 0 "a session with interrupts injected that counts the same passes"
is "$(table_row "$(cat "$tmp/inject/summary.md")" kill percred-grant 3)" "exact" "... and summary.md says exact"
made_up_run "$tmp/inject-leak" 133 0 0
inject inject-leak 3 20.100
rc=0
out=$(bench/report/summarize "$tmp/inject-leak" 2>&1) || rc=$?
is "$rc" 3 "one load in ten checks more with interrupts fails the summary"
contains "$out" 'kill percred-grant with interrupts: differs: loads 20\.1 against 20' "... and says what differs"
# Data lines: the +irq session is another process, whose allocations
# may straddle a line more; not compared.
made_up_run "$tmp/inject-dlines" 133 0 0
inject inject-dlines 3 20.000
sed -i '/^total\tkill\/percred-grant+irq/s/\t5\.000\t4\.000$/\t6.000\t4.000/' \
	"$tmp/inject-dlines/raw/profile-run1-percred/capcheck.log"
rc=0
out=$(bench/report/summarize "$tmp/inject-dlines" 2>&1) || rc=$?
is "$rc" 0 "a data line more per check with interrupts (another process's allocations) passes"
made_up_run "$tmp/inject-none" 133 0 0
inject inject-none 0 20.000
rc=0
out=$(bench/report/summarize "$tmp/inject-none" 2>&1) || rc=$?
is "$rc" 3 "no interrupt landed in any check: nothing was tested, the summary fails"

plan "$tap_count"
[ "$tap_failed" = 0 ]
