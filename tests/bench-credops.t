#!/bin/bash
# bench/report/summarize's credential operations, no kernel needed: the churn
# workloads' plugin sessions of a made-up run, their hook windows of
# security_prepare_creds and security_cred_free turned into credops.csv
# (calls per iteration, instructions over stock's same operation, on
# average and in the fastest call) and the off-path goals decided on them:
# commoncap, naive and cached add 0 to an operation's fastest call;
# percred's additions per fork-exec at most 1 % of a fork-exec's whole
# instructions; a hook window that is not exact fails the run.
set -eu
. "$(dirname "$0")/bench-lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# session RUN KERNEL WORKLOAD CONFIG PREPARE FREE [UNCLOSED] - a churn
# session of 10 iterations, 300000 instructions each (3000 in user
# space), in KERNEL's profile boot: 20 credentials prepared, PREPARE
# (AVERAGE or AVERAGE:FASTEST) instructions each, 18 freed (a free's RCU
# callback ran after the close), FREE each; UNCLOSED hook windows dropped.
session() {
	local run=$1 kernel=$2 workload=$3 config=$4 prepare=${5%:*} fastest=${5#*:} free=$6
	local unclosed=${7:-0} boot
	boot=$run/raw/profile-run1-$kernel
	[ -d "$boot" ] || made_up_boot "$run" "profile-run1-$kernel"
	{
		printf 'session\t%s/%s\t0\t0\t0\t30000\t2970000\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0' \
			"$workload" "$config"
		printf '\t38\t0\t0\t%s\t0\t0\n' "$unclosed"
		printf 'total\t%s/%s\t0.000\t0.000\t0.000\t0.000\t0.000\n' "$workload" "$config"
		printf 'hook\t%s/%s\tsecurity_cred_free\t18\t%s.000\t12.000\t6.000\t5.000\t4.000\t%s\t%s\n' \
			"$workload" "$config" "$free" "$free" "$free"
		printf 'hook\t%s/%s\tsecurity_prepare_creds\t20\t%s\t30.000\t20.000\t9.000\t8.000\t%s\t%s\n' \
			"$workload" "$config" "$prepare" "$fastest" $((fastest + 40))
	} >>"$boot/capcheck.log"
	echo "$workload/$config $workload $config 10" >>"$boot/sessions.dat"
}
# made_up_run RUN COMMONCAP PERCRED - fork-exec's sessions: stock and
# naive prepare in 150 and free in 60; commoncap prepares in COMMONCAP,
# percred in PERCRED and frees in 95. setresuid: stock 140, percred
# PERCRED - 10.
made_up_run() {
	local run=$tmp/$1
	made_up_meta "$run" workloads= workload_checks= "churn=fork-exec setresuid"
	session "$run" stock fork-exec stock-allowed 150 60
	session "$run" stock fork-exec stock-denied 150 60
	session "$run" commoncap fork-exec commoncap-allowed "$2" 60
	session "$run" naive fork-exec naive-grant 150 60
	session "$run" naive fork-exec naive-deny 150 60
	session "$run" percred fork-exec percred-grant "$3" 95
	session "$run" percred fork-exec percred-deny "$3" 95
	session "$run" stock setresuid stock-allowed 140 60
	session "$run" percred setresuid percred-grant $(($3 - 10)) 95
}
# row RUN WORKLOAD OPERATION CONFIG - credops.csv's calls per iteration,
# instructions, reference, its instructions, added, the fastest call's
# instructions and added, and the iteration's.
row() {
	awk -F, -v w="$2" -v o="$3" -v c="$4" '$1 == w && $2 == o && $3 == c { print $4, $5, $6, $7, $8, $9, $11, $18 }' \
		"$tmp/$1/credops.csv"
}
# goal RUN NAME - goals.csv's verdict, worst row, worst figure, margin.
goal() {
	python3 -c 'import csv, sys
for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    if r[0].startswith(sys.argv[2]):
        print(*r[2:])' "$tmp/$1/goals.csv" "$2"
}
ZERO="credential operations: commoncap, naive and cached add 0 instructions to an operation's fastest"
BIRTH="percred: the credential operations' instructions added per fork-exec <= 1 %"

made_up_run base 151.500:150 210
rc=0
out=$(bench/report/summarize "$tmp/base" 2>&1) || rc=$?
is "$rc" 0 "bench/report/summarize reads the churn workloads' sessions"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
is "$(row base fork-exec security_prepare_creds percred-grant)" "2.000 210 stock-allowed 150 60 210 60 300000.0" \
	"credops.csv: a credential prepared, 2 an iteration, 60 over stock's, on average and in the fastest call"
is "$(row base fork-exec security_cred_free percred-grant)" "1.800 95 stock-allowed 60 35 95 35 300000.0" \
	"... one freed, 1.8 an iteration in the session, 35 over stock's"
is "$(row base fork-exec security_prepare_creds percred-deny)" "2.000 210 stock-denied 150 60 210 60 300000.0" \
	"... a refusal's against stock-denied"
is "$(row base setresuid security_prepare_creds percred-grant)" "2.000 200 stock-allowed 140 60 200 60 300000.0" \
	"... each workload against stock's same workload"
is "$(row base fork-exec security_prepare_creds stock-allowed)" "2.000 150    150  300000.0" \
	"... stock's own rows without a reference"
is "$(row base fork-exec security_prepare_creds commoncap-allowed)" "2.000 151.500 stock-allowed 150 1.500 150 0 300000.0" \
	"... commoncap's prepare 1.5 slower on average (the allocator's slow path), its fastest call the same"
is "$(goal base "$ZERO")" "met security_cred_free/commoncap-allowed 0 0" \
	"goals.csv: commoncap, naive and cached add 0 to an operation's fastest call: met"
# 2 credentials an iteration, each made (+60) and freed once (+35): 190
# of 300000, 0.063 %.
is "$(goal base "$BIRTH")" "met fork-exec/percred-grant 0.063 -0.937" \
	"goals.csv: percred adds 190 of a fork-exec's 300000 instructions, 0.063 % <= 1 %"
md=$(cat "$tmp/base/summary.md")
contains "$md" '^\| fork-exec \| security_prepare_creds \| percred-grant \| 2\.000 \| 210 \| 210 \| stock-allowed \| 60 \| 60 \|$' \
	"summary.md: the operations' table"
contains "$md" "^- $BIRTH.*: met \\(fork-exec/percred-grant \\+190 of 300000 \\(0\\.063 %\\)" \
	"summary.md: the goal and its figures"

made_up_run zero 151:151 210
bench/report/summarize "$tmp/zero" >/dev/null 2>&1 || true
is "$(goal zero "$ZERO")" "missed security_prepare_creds/commoncap-allowed 1 1" \
	"one instruction more in commoncap's prepare misses the goal of 0 by 1"
ok "$(! grep -q "^- $ZERO.*Why:" "$tmp/zero/summary.md"; echo $?)" "... and gives no reason of its own"

# kill_session RUN KERNEL CONFIG CHECK HOOK - kill's session of 10 calls,
# each a check of CHECK instructions and a call of security_task_kill of
# HOOK, and 500 more: the whole session is exactly the windows.
kill_session() {
	local boot=$1/raw/profile-run1-$2
	printf 'session\tkill/%s\t10\t%s\t%s\t100\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t10\t0\t10\t0\t0\t0\n' \
		"$3" "$4" "$4" $((10 * ($4 + $5) + 5000)) >>"$boot/capcheck.log"
	printf 'total\tkill/%s\t%s.000\t30.000\t20.000\t14.000\t9.000\n' "$3" "$4" >>"$boot/capcheck.log"
	printf 'hook\tkill/%s\tsecurity_task_kill\t10\t%s.000\t80.000\t80.000\t24.000\t21.000\t%s\t%s\n' \
		"$3" "$5" "$5" "$5" >>"$boot/capcheck.log"
	echo "kill/$3 kill $3 10" >>"$boot/sessions.dat"
}
# ... as every other hook call does in that configuration: say so.
made_up_run slot 151:151 210
sed -i 's/^workloads=$/workloads=kill/' "$tmp/slot/meta"
kill_session "$tmp/slot" stock stock-allowed 118 307
kill_session "$tmp/slot" commoncap commoncap-allowed 119 308
rc=0
out=$(bench/report/summarize "$tmp/slot" 2>&1) || rc=$?
is "$rc" 0 "kill's whole calls 2 above stock's, its check 1 and security_task_kill 1, pass"
contains "$(cat "$tmp/slot/summary.md")" "^- $ZERO.*\*\*missed\*\* by 1 .*Why: every other LSM hook call adds the same in commoncap-allowed \(hooks\.csv: 1\)" \
	"a miss of 1 where every other hook call adds 1 says why: each hook's slot per LSM"

# 2 x (1600 + 35) = 3270 of 300000: 1.090 %.
made_up_run birth 150 1750
bench/report/summarize "$tmp/birth" >/dev/null 2>&1 || true
is "$(goal birth "$BIRTH")" "missed fork-exec/percred-grant 1.090 0.090" \
	"percred adding 3270 of 300000 a fork-exec misses <= 1 % by 0.090"

made_up_run lost 150 210
session "$tmp/lost" percred fork-exec percred-grant 210 95 1
rc=0
out=$(bench/report/summarize "$tmp/lost" 2>&1) || rc=$?
is "$rc" 3 "a churn session with a hook window dropped fails the summary (status 3)"
contains "$out" 'fork-exec percred-grant: hook_unclosed 1' "... and says which counter"

# The same with interrupts in the session: the tick asked the hook's
# task to reschedule; the other calls are whole and the run passes.
made_up_run slept 150 210
session "$tmp/slept" percred fork-exec percred-grant 210 95 1
sed -i '/^session\tfork-exec\/percred-grant/s/^\(\([^\t]*\t\)\{15\}\)0/\13/' \
	"$tmp/slept/raw/profile-run1-percred/capcheck.log"
rc=0
bench/report/summarize "$tmp/slept" >/dev/null 2>&1 || rc=$?
is "$rc" 0 "a hook window dropped in a session with 3 interrupts passes"

plan "$tap_count"
[ "$tap_failed" = 0 ]
