#!/bin/bash
# bench/drivers/run end to end from where a new user puts the repository: a copy
# of this tree under /root, in a directory whose name has a space and a
# comma, with the results inside it. One short icount boot (commoncap,
# getppid), so that what is checked is the plumbing, not the figures.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel

top=$(mktemp -d /root/.bench-run.XXXXXX)
trap 'rm -rf "$top"' EXIT
clone="$top/a clone, here/usercaps"
mkdir -p "$clone"
tar -C "$repo_dir" --exclude=./.git --exclude=./results -cf - . | tar -C "$clone" -xf -

rc=0
out=$(cd "$clone" && bench/drivers/run --mode icount --kernels commoncap --workloads getppid \
	--churn "" --groups "" --iterations 200 --repeat 1 --results "$clone/results" 2>&1 </dev/null) || rc=$?
is "$rc" 0 "bench/drivers/run succeeds from a clone under /root at a path with a space and a comma"
[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
csv=$clone/results/summary.csv
ok "$([ -f "$csv" ] && grep -q '^getppid,commoncap-allowed,icount,' "$csv"; echo $?)" \
	"the run's summary has the getppid row, in the clone's results/"
ok "$(tar -tJf "$(ls "$clone"/results/*/packed.tar.xz | sed -n 1p)" | grep -qx raw/icount-run1-commoncap/nsop.dat
	echo $?)" "the guest wrote its raw data into the run directory, packed there by bench/drivers/pack"
# Wall-clock capable() rounds without KVM (here forced with --accel-wall
# tcg) are skipped, and both the console and the summary say why.
rc=0
out=$(bench/drivers/run --mode wall --accel-wall tcg --kernels commoncap --results "$top/wall" 2>&1 </dev/null) || rc=$?
is "$rc" 0 "bench/drivers/run --mode wall under TCG runs (nothing, for commoncap alone)"
contains "$out" "the wall-clock capable\(\) rounds are skipped, TCG's wall time being no hardware's" \
	"... and says it skipped the wall-clock rounds, and why"
contains "$(cat "$top"/wall/summary.md 2>/dev/null)" 'Wall-clock capable\(\) rounds: \*\*skipped\*\*: no KVM' \
	"... and so does summary.md"

# Every boot checks the LSMs it runs against lsm=: a guest asked for a stack
# it does not run fails before it measures anything.
rc=0
out=$(vm/run --accel icount --timeout 300 --append "lsm=capability,yama" -- \
	bench/guest/measure --out /tmp --capbench "$clone/bench/.build/capbench" --workloads getppid \
	--lsm capability,landlock,yama commoncap 2>&1 </dev/null) || rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "bench/guest/measure fails when the kernel runs other LSMs than asked"
contains "$out" "runs the LSMs 'capability,yama', not 'capability,landlock,yama' as asked" \
	"... and says which it runs"
plan "$tap_count"
[ "$tap_failed" = 0 ]
