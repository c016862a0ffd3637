#!/bin/bash
# bench/report/plot's plots looked at through their SVG, no kernel needed: a
# made-up run whose numbers are synthetic (301, 302... instructions added,
# 1001... for stock) and plainly not measured. The per-check plot shows
# every row of exact.csv, a function has the colour of its name whatever
# its rank in the profile, and a run that is not complete is marked FAILED
# across every plot.
set -eu
. "$(dirname "$0")/bench-lib.sh"
cd "$repo_dir"

if ! command -v gnuplot >/dev/null; then
	ok 1 "bench/report/plot: gnuplot is missing (make deps installs it)"
	plan "$tap_count"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# made_up_run DIR FUNCTION INSNS... - a complete run of kill, ioprio and
# mlock with a synthetic exact.csv and the profile of kill in stock-allowed,
# percred-grant and stock-denied, each one FUNCTION INSNS pairs.
made_up_run() {
	local dir=$1 config
	shift
	made_up_meta "$dir" "workloads=kill ioprio mlock"
	echo workload,config,mode,accel,runs,samples,ns_per_op_min,ns_per_op_median,ns_per_op_max,spread_pct,reference,ratio,overhead_ns,variant,ratio_min,ratio_max \
		>"$dir/summary.csv"
	cat >"$dir/exact.csv" <<'CSV'
# SYNTHETIC: made up for tests/bench-plot.t, not measured
workload,capability,config,case,slots,checks_per_call,insns,reference,reference_insns,added,loads,stores,dlines,ilines,added_loads,added_stores
kill,kill,stock-allowed,allowed,1,1,1001,stock-allowed,1001,0,1,1,1,1,0,0
kill,kill,stock-denied,denied,1,1,1002,stock-denied,1002,0,1,1,1,1,0,0
kill,kill,commoncap-allowed,allowed,1,1,1302,stock-allowed,1001,301,1,1,1,1,0,0
kill,kill,naive-grant,grant,1,1,1303,stock-allowed,1001,302,1,1,1,1,0,0
kill,kill,cached-deny,deny,1,1,1305,stock-denied,1002,303,1,1,1,1,0,0
kill,kill,percred-deny-group,deny-group,1,1,1306,stock-denied,1002,304,1,1,1,1,0,0
ioprio,sys_admin,stock-allowed,denied,1,1,1011,stock-denied,1011,0,1,1,1,1,0,0
ioprio,sys_admin,percred-grant,deny,1,1,1316,stock-denied,1011,305,1,1,1,1,0,0
ioprio,sys_nice,stock-allowed,allowed,1,1,1021,stock-allowed,1021,0,1,1,1,1,0,0
ioprio,sys_nice,percred-grant,grant,1,1,1327,stock-allowed,1021,306,1,1,1,1,0,0
mlock,ipc_lock,stock-root,root,3,3,1033,stock-root,1033,0,1,1,1,1,0,0
mlock,ipc_lock,cached-root,root,3,3,1340.5,stock-root,1033,307.5,1,1,1,1,0,0
mlock,ipc_lock,percred-root,root,1,1,1024,stock-root,1033,-9,1,1,1,1,0,0
CSV
	mkdir -p "$dir/profile"
	for config in stock-allowed percred-grant stock-denied; do
		{
			echo "# SYNTHETIC: one check of kill in $config, made up"
			printf 'function\tinsns\tloads\tstores\tdlines\tilines\n'
			printf '%s\t%s\t1\t1\t1\t1\n' "$@"
			printf 'total\t100\t1\t1\t1\t1\n'
		} >"$dir/profile/kill-$config.tsv"
	done
}

# draw RUN - bench/report/plot RUN into $tmp/plots/RUN: output in $out, status
# in $rc.
draw() {
	rc=0
	out=$(bench/report/plot --run "$tmp/$1" --out "$tmp/plots/$1" 2>&1) || rc=$?
}

# titles SVG - each panel's title of SVG, its two lines on one.
titles() {
	awk '/<text>.*, CAP_[A-Z_]*: / { line = $0; n = NR } n && NR == n + 3 { print line $0; n = 0 }' "$1" |
		sed 's/ *<\/\?text>//g; s/^[[:space:]]*//'
}

# The per-check plot: a bar per row of exact.csv with its value, the
# reference's rows in their panel's title.
made_up_run "$tmp/first" security_capable 60 cap_capable 30 apparmor_capable 10
draw first
is "$rc" 0 "bench/report/plot draws a run with exact.csv"
svg=$(cat "$tmp/plots/first/per-check-icount.svg")
contains "$svg" "exact instructions \(exact.csv\)" "per-check-icount is drawn from exact.csv"
panel_titles=$(titles "$tmp/plots/first/per-check-icount.svg")
missing=
while IFS=, read -r workload capability config _ _ _ _ reference reference_insns added _; do
	case "$config" in
	stock-*) grep -q -- "^$workload, CAP_${capability^^}: .*stock: .*${reference#stock-} $reference_insns" \
		<<<"$panel_titles" ;;
	*) grep -q -- ">$added<" <<<"$svg" ;;
	esac || missing="$missing $workload/$capability/$config"
done < <(grep -v -e '^#' -e '^workload,' "$tmp/first/exact.csv")
is "$missing" "" "... with every row of exact.csv: a bar and its value, or stock's in the panel's title"
is "$(echo "$panel_titles" | cut -d: -f1 | paste -sd' ' -)" \
	"kill, CAP_KILL ioprio, CAP_SYS_ADMIN ioprio, CAP_SYS_NICE mlock, CAP_IPC_LOCK" \
	"... a panel per workload and capability, in the run's order"
contains "$panel_titles" '^ioprio, CAP_SYS_ADMIN: .*; refused in allowed, grant$' \
	"... whose title says where the check is refused though its configuration allows or grants"
contains "$svg" '>≤ 2<' "... and each row's goal by its outcome (ioprio's refused CAP_SYS_ADMIN in percred's grant: ≤ 2)"
sed -i 's/^\(kill,kill,naive-grant,grant,1,1,1303,stock-allowed,1001,302\),/\1x,/' "$tmp/first/exact.csv"
draw first
is "$rc" 1 "bench/report/plot refuses an exact.csv whose added is not a number"
contains "$out" "$tmp/first/exact.csv, line 6: added is \"302x\", not a number" "... and says where"
sed -i 's/,302x,/,302,/' "$tmp/first/exact.csv"
# One row (gnuplot 5.4 crashed on a labels element without a point then).
cp -r "$tmp/first" "$tmp/one-row"
sed -i '3,4d;6,$d' "$tmp/one-row/exact.csv"
draw one-row
is "$rc" 0 "bench/report/plot draws an exact.csv of one row"
contains "$(titles "$tmp/plots/one-row/per-check-icount.svg")" '^kill, CAP_KILL: .*stock: allowed 1001' "... in its panel"
sed -i '3d' "$tmp/one-row/exact.csv"
draw one-row
is "$rc" 1 "bench/report/plot refuses an exact.csv without a row of a kernel with usercaps"
contains "$out" 'exact.csv has no row of a kernel with usercaps built in' "... and says so"
draw first

# A function's colour in the key: the fill of the box after its name.
# key_colour SVG FUNCTION
key_colour() {
	awk -v f="$2" 'index($0, "<title>" f "</title>") { found = 1 }
		found && /polygon fill/ { sub(/.*fill = \x27/, ""); sub(/\x27.*/, ""); print; exit }' "$1"
}
made_up_run "$tmp/second" cap_capable 60 usercaps_cred_capable 25 apparmor_capable 10 security_capable 5
draw second
is "$rc" 0 "bench/report/plot draws a second run, its functions in another order"
first_svg=$tmp/plots/first/profile-kill.svg
second_svg=$tmp/plots/second/profile-kill.svg
for f in security_capable cap_capable apparmor_capable; do
	colour=$(key_colour "$first_svg" "$f")
	ok "$([ -n "$colour" ] && [ "$colour" = "$(key_colour "$second_svg" "$f")" ]; echo $?)" \
		"profile-kill: $f has one colour ($colour) in both runs, whatever its rank"
done
is "$(key_colour "$first_svg" security_capable)" "rgb(148, 103, 189)" \
	"... security_capable's, bench/report/function_colours.py's"
# The kernels' colours (bench/report/gnuplot/palette.gp), as the SVG writes them.
kernel_colours=$(sed -n 's/^array \(dark\|light\)\[5\] = \[\(.*\)\]$/\2/p' bench/report/gnuplot/palette.gp |
	grep -o '#[0-9a-f]\{6\}' | while read -r hex; do
		printf 'rgb(%3d, %3d, %3d)\n' "0x${hex:1:2}" "0x${hex:3:2}" "0x${hex:5:2}"
	done)
is "$(echo "$kernel_colours" | wc -l)" 10 "palette.gp has the ten colours of the kernels"
clashes=
for f in security_capable cap_capable apparmor_capable usercaps_cred_capable; do
	! grep -qxF "$(key_colour "$second_svg" "$f")" <<<"$kernel_colours" || clashes="$clashes $f"
done
is "$clashes" "" "... and no function takes one of them"

# Complete, no plot says FAILED; failed, every one does, big.
ok "$(cat "$tmp"/plots/first/*.svg | grep -q '>FAILED<'; echo $((! $?)))" "a complete run's plots say nothing of FAILED"
sed -i 's/^status=.*/status=failed at step 2\/3: made up/' "$tmp/first/meta"
draw first
is "$rc" 0 "bench/report/plot draws a failed run"
for svg in "$tmp"/plots/first/*.svg; do
	ok "$(grep -q '>FAILED<' "$svg"; echo $?)" "$(basename "$svg" .svg): FAILED across it"
done
is "$(ls "$tmp"/plots/first/*.svg | wc -l)" 2 "... both of its plots"

plan "$tap_count"
[ "$tap_failed" = 0 ]
