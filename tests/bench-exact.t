#!/bin/bash
# The exact figures, booted: two profile runs of one build (commoncap,
# the reference without a stock kernel, and percred; kill and ioprio; no
# churn: tests/plugin.t boots that) give the same exact.csv and the same goals,
# verdicts and margins; every check's figure is a whole number; and the
# sessions run again with timer interrupts count exactly what the plain
# ones did (bench/report/capcheck_tables.py fails a run otherwise).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in 1 2; do
	rc=0
	out=$(bench/drivers/run --mode profile --kernels "commoncap percred" --workloads "kill ioprio" \
		--churn "" --profile-calls 500 --results "$tmp/run$n" 2>&1 </dev/null) || rc=$?
	is "$rc" 0 "profile run $n of this build succeeds, its cross-check and injected interrupts exact"
	[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
done
# figures FILE - a run's FILE without its comment lines (the run id).
figures() {
	grep -v '^#' "$(ls -d "$tmp/run$2"/2*/ | sed -n 1p)/$1"
}
is "$(figures exact.csv 2)" "$(figures exact.csv 1)" "the two runs' exact.csv are the same"
is "$(figures goals.csv 2)" "$(figures goals.csv 1)" "... and so are their goals, verdicts and margins"
is "$(figures exact.csv 1 | cut -d, -f7,9,10 | grep -cv '^[0-9]*,[0-9]*,-\?[0-9]*$')" 1 \
	"every check's instructions, its reference's and the difference are whole numbers (header aside)"
is "$(figures exact.csv 1 | awk -F, '$1 == "ioprio" && $3 == "percred-grant" { printf "%s:%s ", $2, $4 }')" \
	"sys_admin:deny sys_nice:grant " "ioprio's two checks: CAP_SYS_ADMIN refused, CAP_SYS_NICE granted"
summary=$(cat "$(ls -d "$tmp/run1"/2*/ | sed -n 1p)/summary.md")
contains "$summary" '^\| kill \| percred-grant \| [1-9][0-9]* \| exact \|' \
	"interrupts landed in percred-grant's checks and were left out exactly"

plan "$tap_count"
[ "$tap_failed" = 0 ]
