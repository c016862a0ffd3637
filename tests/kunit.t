#!/bin/bash
# The KUnit suites of usercaps, run by the kernel at boot in each mode:
# their results in /sys/kernel/debug/kunit/usercaps*/results (KTAP), as
# flat TAP. prove
# ignores indented lines, so each test case becomes a top-level result, and
# each suite adds one for its own verdict and one for a complete log.
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel

# ktap_suite_end NAME VERDICT_OK - the checks made when a suite's own
# verdict line is read.
ktap_suite_end() {
	ok "$([ "$cases_planned" -gt 0 ] && [ "$cases_seen" = "$cases_planned" ]; echo $?)" \
		"$1: $cases_seen of $cases_planned case results in the log (a case's log keeps 512 bytes)"
	ok "$2" "$1: suite verdict"
	suites=$((suites + 1))
}

# The live suite runs against the policy as each mode reads it.
for mode in naive cached percred; do
	rc=0
	out=$(run_in_guest "kunit-$mode" --append "lsm=$lsm_usercaps usercaps.mode=$mode" -- \
		sh -c 'cat /sys/kernel/debug/kunit/usercaps*/results') || rc=$?
	suites=0 suite='' cases_planned=0 cases_seen=0
	while IFS= read -r line; do
		if [[ $line =~ ^KTAP\ version ]] || [[ $line =~ ^1\.\.1$ ]]; then
			suite='' cases_planned=0 cases_seen=0
		elif [[ $line =~ ^\ {4}#\ Subtest:\ (.*)$ ]]; then
			suite="$mode: ${BASH_REMATCH[1]}"
		elif [[ $line =~ ^\ {4}1\.\.([0-9]+)$ ]]; then
			cases_planned=${BASH_REMATCH[1]}
		elif [[ $line =~ ^\ {4}(not\ )?ok\ [0-9]+\ (.*)$ ]]; then
			cases_seen=$((cases_seen + 1))
			ok "$([ -z "${BASH_REMATCH[1]}" ]; echo $?)" "$suite: ${BASH_REMATCH[2]}"
		elif [[ $line =~ ^(not\ )?ok\ [0-9]+\ ([^ ]+) ]]; then
			ktap_suite_end "$mode: ${BASH_REMATCH[2]}" "$([ -z "${BASH_REMATCH[1]}" ]; echo $?)"
		else
			printf '# %s\n' "$line"
		fi
	done <<<"$out"
	is "$suites" 2 "$mode: both usercaps KUnit suites in /sys/kernel/debug/kunit"
	is "$rc" 0 "$mode: the guest read every results file"
done
# Without usercaps in lsm=, the live suite skips every case, and the boot
# goes on.
rc=0
out=$(run_in_guest kunit-stock --append "lsm=$lsm_stock" -- \
	sh -c 'cat /sys/kernel/debug/kunit/usercaps_live/results') || rc=$?
is "$rc" 0 "usercaps not in lsm=: the guest boots and reads the live suite's results"
contains "$out" '^# usercaps_live: pass:0 fail:0 skip:4 total:4$' \
	"usercaps not in lsm=: every live case is skipped"
contains "$(tr -d "\r" <"$log_dir/kunit-stock.console")" "Kernel command line: .* lsm=$lsm_stock\$" \
	"the boot's whole console is kept beside its log, for a failure to be read in full"
plan "$tap_count"
[ "$tap_failed" = 0 ]
