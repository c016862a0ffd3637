#!/bin/bash
# bench/report/summarize's goals, no kernel needed: decided on the capcheck
# plugin's exact instructions per capability check (bench/report/exact.py), on a
# made-up run whose every figure is chosen, so that a reference, a slot's
# capability or a verdict computed wrong shows here and not in a committed
# summary.
set -eu
. "$(dirname "$0")/bench-lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_dir=$tmp/20260101-000000-test
made_up_meta "$run_dir" "workloads=kill ioprio" "workload_checks=kill:kill ioprio:sys_admin,sys_nice"

# session KERNEL WORKLOAD CONFIG INSNS... - a plugin session of 10 calls
# in KERNEL's profile boot, a slot per INSNS (the checks of one call, in
# order), each check INSNS instructions.
session() {
	local kernel=$1 workload=$2 config=$3 boot k=0 insns sum=0
	shift 3
	boot=$run_dir/raw/profile-run1-$kernel
	[ -d "$boot" ] || made_up_boot "$run_dir" "profile-run1-$kernel"
	for insns in "$@"; do sum=$((sum + insns)); done
	{
		printf 'session\t%s/%s\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t100\t0\n' \
			"$workload" "$config" $((10 * $#))
		printf 'total\t%s/%s\t%s\t1\t1\t1\t1\n' "$workload" "$config" \
			"$(awk -v s="$sum" -v n=$# 'BEGIN { printf "%.3f", s / n }')"
		for insns in "$@"; do
			k=$((k + 1))
			printf 'slot\t%s/%s\t%s\t10\t%s.000\t1\t1\t1\t1\t%s\t%s\n' "$workload" "$config" \
				"$k" "$insns" "$insns" "$insns"
		done
	} >>"$boot/capcheck.log"
	echo "$workload/$config $workload $config 10" >>"$boot/sessions.dat"
}
for w in kill; do
	session stock $w stock-allowed 118
	session stock $w stock-denied 45
	session stock $w stock-root 118
	session commoncap $w commoncap-allowed 119
	session commoncap $w commoncap-denied 46
	session commoncap $w commoncap-root 119
	session percred $w percred-grant 140
	session percred $w percred-deny 47
	session percred $w percred-deny-group 55
	session percred $w percred-deny-owner 56
	session percred $w percred-root 118
	session cached $w cached-grant 168
	session cached $w cached-deny 48
	session cached $w cached-root 118
	session naive $w naive-grant 223
	session naive $w naive-root 118
done
# ioprio: CAP_SYS_ADMIN refused (slot 1), then CAP_SYS_NICE (slot 2).
session stock ioprio stock-allowed 45 118
session stock ioprio stock-denied 45 45
session percred ioprio percred-grant 47 128
session percred ioprio percred-deny 47 47

rc=0
out=$(bench/report/summarize "$run_dir" 2>&1) || rc=$?
is "$rc" 0 "bench/report/summarize reads the made-up run"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
# row WORKLOAD CAPABILITY CONFIG - exact.csv's case, reference, added.
row() {
	awk -F, -v w="$1" -v c="$2" -v k="$3" '$1 == w && $2 == c && $3 == k { print $4, $8, $10 }' \
		"$run_dir/exact.csv"
}
is "$(row kill kill percred-grant)" "grant stock-allowed 22" "a grant against stock-allowed's same check"
is "$(row ioprio sys_admin percred-grant)" "deny stock-denied 2" \
	"ioprio's slot 1 is CAP_SYS_ADMIN, refused in a grant: a deny-never check"
is "$(row ioprio sys_nice percred-grant)" "grant stock-allowed 10" \
	"... its slot 2 CAP_SYS_NICE, the grant"
# goal NAME - goals.csv's verdict, worst row, worst figure, margin.
goal() {
	python3 -c 'import csv, sys
for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    if r[0] == sys.argv[2]:
        print(*r[2:])' "$run_dir/goals.csv" "$1"
}
is "$(goal 'usercaps built in but disabled (commoncap) vs stock <= 1')" \
	"met kill/kill/commoncap-allowed 1 0" "disabled: +1 meets <= 1"
is "$(goal 'root 0')" "met kill/kill/naive-root 0 0" "root: 0 exactly"
is "$(goal 'percred grant <= 10')" "missed kill/kill/percred-grant 22 12" \
	"percred grant: kill's 22 misses by 12, ioprio's 10 meets"
is "$(goal 'percred deny-never (the default policy) <= 2')" "met ioprio/sys_admin/percred-grant 2 0" \
	"percred deny-never: ioprio's refused CAP_SYS_ADMIN counts, +2 meets"
is "$(goal 'percred deny-others (granted to a group the caller is not in, or to another owner) <= 10')" \
	"missed kill/kill/percred-deny-owner 11 1" "deny-others: the owner's 11 misses <= 10 by 1"
is "$(goal 'cached deny-never <= 3')" "met kill/kill/cached-deny 3 0" "cached deny-never: 3 meets"
is "$(goal 'cached grant (one supplementary group, the granted one) <= 50')" \
	"met kill/kill/cached-grant 50 0" "cached grant: 50 meets"
is "$(goal 'cached <= naive in every row')" "met kill/kill/cached-grant 50 -55" \
	"cached <= naive: the grant compared, root left out"
md=$(cat "$run_dir/summary.md")
contains "$md" '^- percred grant <= 10: \*\*missed\*\* by 12 \(worst: kill/kill/percred-grant 22\)' \
	"summary.md: the verdict and margin, integers"
contains "$md" '^- percred grant <= 10: .*\. Why: inline in cap_capable\(\)' \
	"a missed goal on 6.1 says why, as read off the 6.1 build"
contains "$md" '^\| percred-grant \| 2 \(deny\) \| 10 \| 22 \|' \
	"the exact table: a column per workload and capability, a check's outcome when not its config's"

# The reasons were read off the 6.1 build: another kernel's run does not get them.
sed -i 's/^kernel_release=.*/kernel_release=6.12.0-test/' "$run_dir/meta"
bench/report/summarize "$run_dir" >/dev/null 2>&1 || true
md612=$(cat "$run_dir/summary.md")
contains "$md612" '^- percred grant <= 10: .*\. Why: not analysed on 6\.12\.0-test' \
	"on 6.12 a missed goal says its reasons were not analysed there"
ok "$(! grep -q 'inline in cap_capable' <<<"$md612"; echo $?)" "... and gives none of 6.1's"

# Without profile boots icount decides nothing.
rm -r "$run_dir"/raw/profile-run1-* "$run_dir/exact.csv" "$run_dir/goals.csv"
bench/report/summarize "$run_dir" >/dev/null 2>&1 || true
contains "$(cat "$run_dir/summary.md")" 'No exact figures: .* icount alone decides no goal' \
	"a run without profile boots has no verdicts"
ok "$([ ! -e "$run_dir/goals.csv" ]; echo $?)" "... and no goals.csv"

plan "$tap_count"
[ "$tap_failed" = 0 ]
