#!/bin/bash
# bench/drivers/ab's driver, no kernel built: its options and refusals (unknown
# revision, a harness changed in the working tree, a kernel root in use,
# bad options) in a throwaway copy of this repository, through --plan;
# bench/report/ab-table on made-up runs, where A against itself gives 0; and
# bench/drivers/ab-prune on made-up kernel roots.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT

. "$(dirname "$0")/ab-lib.sh"

# kernel_of SIDE - the kernel id --plan printed for SIDE.
kernel_of() {
	echo "$out" | sed -n "s/^# bench\/drivers\/ab: $1=.*, kernel \([0-9a-f]*\) in .*/\1/p"
}
nothing_made() { # DESCRIPTION
	is "$(ls "$USERCAPS_CACHE" 2>/dev/null; ls "$repo/results" 2>/dev/null)" "" "$1"
}
# hold ROOT - hold ROOT's ab.lock in the background, as another bench/drivers/ab
# would, until release. The holder is the sleep itself, so that killing it
# frees the lock.
hold() {
	(exec 8>"$1/ab.lock" && flock 8 && exec sleep 60) >/dev/null 2>&1 &
	holder=$!
	for _ in $(seq 50); do
		flock -n "$1/ab.lock" true || break
		sleep 0.1
	done
}
release() {
	kill "$holder"
	wait "$holder" 2>/dev/null || true
	holder=
}

ab --help
is "$rc" 0 "--help exits 0"
contains "$out" '^Usage: bench/drivers/ab \[options\] A B' "--help shows the usage"
contains "$out" 'WORKTREE' "... and names the working tree as a side"

ab --frobnicate HEAD HEAD
is "$rc" 2 "a bad option exits 2"
is "$out" "bench/drivers/ab: unknown option '--frobnicate' (see --help)" "... with a one-line error"
ab --min-time soon HEAD HEAD
is "$out" "bench/drivers/ab: --min-time takes milliseconds, not 'soon' (see --help)" "a bad --min-time is refused"
ab --repeat 0 HEAD HEAD
contains "$out" "^bench/drivers/ab: --repeat takes a number, not '0'" "--repeat 0 is refused"
ab HEAD
is "$out" "bench/drivers/ab: takes two revisions, A and B, not 1 (see --help)" "one revision is refused"
ab "" HEAD
is "$rc" 2 "an empty revision (make bench-ab without A=) is refused"
USERCAPS_AB_KEEP=1 ab --plan HEAD HEAD
is "$out:$rc" "bench/drivers/ab: USERCAPS_AB_KEEP takes a number of kernel roots, 2 or more, not '1' (see --help):2" \
	"USERCAPS_AB_KEEP=1 is refused: a run keeps its own two roots"
USERCAPS_AB_KEEP=x ab --plan HEAD HEAD
is "$out:$rc" "bench/drivers/ab: USERCAPS_AB_KEEP takes a number of kernel roots, 2 or more, not 'x' (see --help):2" \
	"... and so is USERCAPS_AB_KEEP=x"
nothing_made "... before anything is made"

ab --plan HEAD no-such-rev
is "$rc" 1 "an unknown revision exits 1"
is "$out" "bench/drivers/ab: unknown revision 'no-such-rev'" "... with a one-line error naming it"
nothing_made "... having made nothing"

ab --plan HEAD HEAD
is "$rc" 0 "--plan HEAD HEAD"
is "$(kernel_of A)" "$(kernel_of B)" "A = B: one kernel, built once"
contains "$out" "kernel [0-9a-f]{12} in $ab_roots/[0-9a-f]{12} \(to build\)" \
	"... in a root of its own under the kernel's ab/, not built yet"
base=$(kernel_of A)
for v in 6.1 6.12; do
	USERCAPS_LINUX=$v ab --plan HEAD HEAD
	echo "$out" | sed -n "s/^# bench\/drivers\/ab: A=.*, kernel [0-9a-f]* in \(.*\) (to build)$/\1/p"
done >"$tmp/roots"
is "$(sed "s|^$USERCAPS_CACHE/||; s|/[0-9a-f]\{12\}$||" "$tmp/roots" | paste -sd' ' -)" "ab linux-6.12/ab" \
	"... 6.1's under the cache's ab/, 6.12's under linux-6.12/ab/: the same revision never shares a root"
contains "$out" "^# bench/drivers/ab: linux-source-6.12 \($LINUX_TARBALL\)$" "... and the plan names the kernel source"

contains "$out" '^# bench/drivers/ab: bench/drivers/run --quick --mode profile --workloads "kill ioprio setpriority getppid" --kernels "stock commoncap naive cached percred"$' \
	"... the profile alone by default, without mlock, whose page work moves from boot to boot"

# The kernel id is what the kernel is built from: usercaps/ and vm/config/.
echo "a README change" >>"$repo/README.md"
g commit -q -a -m readme
ab --plan HEAD~1 HEAD
is "$(kernel_of A) $(kernel_of B)" "$base $base" "a commit that changes no kernel source builds the same kernel"
echo "# a comment" >>"$repo/vm/config/guest.config"
g commit -q -a -m config
ab --plan HEAD~1 HEAD
[ "$(kernel_of B)" != "$base" ] && [ -n "$(kernel_of B)" ]
ok $? "a commit that changes vm/config/ builds another"

# The harness is this checkout's for both sides.
echo "# changed" >>"$repo/bench/drivers/run"
ab --plan HEAD~1 HEAD
is "$rc" 1 "a changed harness (bench/drivers/run) is refused"
is "$out" "bench/drivers/ab: the working tree changes the harness (bench/drivers/run): commit or stash it, or name WORKTREE as a side" \
	"... with a one-line error naming the file"
ab --plan HEAD WORKTREE
is "$rc" 0 "... and accepted when the working tree is a side"
contains "$out" "^# bench/drivers/ab: harness $(echo "$out" | sed -n 's/^# bench\/drivers\/ab: B=WORKTREE: commit \([0-9a-f]*\),.*/\1/p') \(the working tree's snapshot\)" \
	"... whose snapshot names the harness"
is "$(kernel_of B)" "$(kernel_of A)" "... a harness change builds no other kernel"
g checkout -q -- bench/drivers/run

touch "$repo/usercaps/untracked.c"
ab --plan HEAD HEAD
is "$rc" 0 "a change to usercaps/ alone is no harness change"
ab --plan HEAD WORKTREE
first=$out
[ "$(kernel_of B)" != "$(kernel_of A)" ]
ok $? "WORKTREE builds the working tree's usercaps/, untracked files included"
ab --plan HEAD WORKTREE
is "$out" "$first" "the same working tree is the same snapshot and kernel"
rm "$repo/usercaps/untracked.c"

# A kernel root in use by another bench/drivers/ab: refused at once.
ab --plan HEAD HEAD
root=$ab_roots/$(kernel_of A)
hold "$root"
ab --plan HEAD HEAD
is "$rc" 1 "a kernel root another bench/drivers/ab holds is refused"
is "$out" "bench/drivers/ab: $root is in use by another bench/drivers/ab: wait for it to end" "... with a one-line error"
release
ab --plan HEAD HEAD
is "$rc" 0 "... and free again once it ends"

# bench/report/ab-table on made-up runs: RUN NAME A B C [LO HI [BOOTS]] -
# summary.csv and checks.csv with kill's percred-grant at A ns/op
# (fewest) and B added per check, its boots' figures from LO to HI
# (default B), in BOOTS boots (default 3), and ioprio's at C ns/op, 2
# checks a call.
run() {
	mkdir -p "$tmp/$1"
	cat >"$tmp/$1/summary.csv" <<CSV
# made up
workload,config,mode,accel,runs,samples,ns_per_op_min,ns_per_op_median,ns_per_op_max,spread_pct,reference,ratio,overhead_ns,variant,ratio_min,ratio_max
kill,stock-allowed,icount,icount,1,3,1000.0,1000.0,1001.0,0.1,stock-allowed,1.000,0.0,-,1.000,1.000
kill,percred-grant,icount,icount,1,3,$2,$2,1030.0,0.1,stock-allowed,1.020,20.0,-,1.020,1.020
ioprio,stock-allowed,icount,icount,1,3,600.0,600.0,601.0,0.1,stock-allowed,1.000,0.0,-,1.000,1.000
ioprio,percred-grant,icount,icount,1,3,$4,$4,700.0,0.1,stock-allowed,1.020,20.0,-,1.020,1.020
kill,percred-grant,wall,tcg,1,3,5.0,5.0,5.0,0.1,stock-allowed,1.0,0.0,-,1.0,1.0
CSV
	cat >"$tmp/$1/checks.csv" <<CSV
# made up
workload,config,kernel,case,reference,checks_per_call,added_ns_per_call,added_per_check,added_per_check_min,added_per_check_max,repeat_spread_per_check,boots
kill,percred-grant,percred,grant,stock-allowed,1,20.00,$3,${5:-$3},${6:-$3},0.1,${7:-3}
ioprio,percred-grant,percred,grant,stock-allowed,2,26.00,13.000,13.000,13.000,0.1,3
CSV
}
run A 1020.0 20.000 626.0
run B 1013.0 13.000 626.0
rc=0
table=$(bench/report/ab-table "$tmp/A" "$tmp/A" 2>&1) || rc=$?
is "$rc" 0 "bench/report/ab-table A A"
is "$(echo "$table" | awk -F'|' 'NR > 2 { gsub(/ /, ""); print $7, $10 }' | sort -u | paste -sd' ' -)" "+0.00 +0.00 +0.00 -" \
	"A against itself: 0 per call and per check in every row (stock has no per-check figure)"
table=$(bench/report/ab-table "$tmp/A" "$tmp/B")
is "$(table_row "$table" kill percred-grant)" "1 | 1020.00 | 1013.00 | -7.00 | 20.00 | 13.00 | **-7.00** | 0.00" \
	"A against B: kill's fewest per call and added per check, B - A, in bold past the boots' spread"
is "$(table_row "$table" ioprio percred-grant)" "2 | 626.00 | 626.00 | +0.00 | 13.00 | 13.00 | +0.00 | 0.00" \
	"... and the unchanged row 0"
run C 1020.0 20.150 626.0
is "$(table_row "$(bench/report/ab-table "$tmp/A" "$tmp/C")" kill percred-grant)" \
	"1 | 1020.00 | 1020.00 | +0.00 | 20.00 | 20.15 | +0.15 | 0.00" "... not in bold under one instruction per call"
run D 1013.0 13.000 626.0 12.000 20.000
is "$(table_row "$(bench/report/ab-table "$tmp/A" "$tmp/D")" kill percred-grant)" \
	"1 | 1020.00 | 1013.00 | -7.00 | 20.00 | 13.00 | -7.00 | 8.00" \
	"... nor within the noise: how far B's boots' figures spread"
run E 1013.0 13.000 626.0 13.000 13.000 1
is "$(table_row "$(bench/report/ab-table "$tmp/A" "$tmp/E")" kill percred-grant)" \
	"1 | 1020.00 | 1013.00 | -7.00 | 20.00 | 13.00 | -7.00 | -" \
	"... nor with one boot a side: no noise from within-boot repeats alone"
is "$(echo "$table" | grep -c '| kill |')" 2 "... icount rows only, in bench/drivers/run's order"
contains "$(echo "$table" | sed -n 3p)" '^\| kill \| stock-allowed' "... stock first"

# bench/report/ab-profile on made-up profiles: PROFILE RUN INSNS - kill's
# percred-grant check with INSNS in usercaps_percred_capable.
profile() {
	mkdir -p "$tmp/$1/profile"
	printf '# made up\nfunction\tinsns\tloads\tstores\tdlines\tilines\n%s\n%s\n%s\n' \
		"cap_capable	12.00	3.00	0.00	2.00	1.00	0.00" \
		"usercaps_percred_capable	$2	4.00	0.00	2.00	1.00	0.00" \
		"total	$(awk -v x="$2" 'BEGIN { printf "%.2f", 12 + x }')	7.00	0.00	4.00	2.00	0.00" >"$tmp/$1/profile/kill-percred-grant.tsv"
}
profile A 8.00
profile B 5.00
rc=0
table=$(bench/report/ab-profile "$tmp/A" "$tmp/A" 2>&1) || rc=$?
is "$rc" 0 "bench/report/ab-profile A A"
is "$(echo "$table" | awk -F'|' '/^\| [a-z]/ && !/function/ { gsub(/ /, ""); print $5 }' | sort -u)" "+0.00" \
	"A against itself: 0 in every function and the total"
table=$(bench/report/ab-profile "$tmp/A" "$tmp/B")
contains "$table" '^### kill-percred-grant: instructions per check' "A against B: a table per workload and configuration"
is "$(echo "$table" | grep '^| [a-z]' | grep -v function | paste -sd' ' -)" \
	"| usercaps_percred_capable | 8.00 | 5.00 | -3.00 | | cap_capable | 12.00 | 12.00 | +0.00 | | total | 20.00 | 17.00 | -3.00 |" \
	"... the function that changed first, B - A, the total last"
# An A/B directory as bench/drivers/ab leaves it: ab.md, meta, a README, and the
# two runs, each packed, packed in turn; the tables read them there.
ab_dir=$tmp/results/ab/aaaaaaa-vs-bbbbbbb-20260101-000000
mkdir -p "$ab_dir"
cp -r "$tmp/A" "$tmp/B" "$ab_dir/"
printf 'A_rev=aaaaaaa\nB_rev=bbbbbbb\nrun_options=--quick\n' >"$ab_dir/meta"
echo "# made up" >"$ab_dir/ab.md"
bench/report/ab-readme "$ab_dir"
bench/drivers/pack "$ab_dir/A"
bench/drivers/pack "$ab_dir/B"
bench/drivers/pack "$ab_dir"
is "$(ls "$ab_dir" | paste -sd' ' -)" "README ab.md meta packed.tar.xz" "bench/drivers/pack keeps an A/B's ab.md, meta and README loose"
contains "$(cat "$ab_dir/README")" "^      bench/report/ab-table $ab_dir/A $ab_dir/B\$" "... and its README says how to read the runs packed"
is "$(bench/report/ab-table "$ab_dir/A" "$ab_dir/B")" "$(bench/report/ab-table "$tmp/A" "$tmp/B")" \
	"bench/report/ab-table reads the runs packed in an A/B directory"
is "$(bench/report/ab-profile "$ab_dir/A" "$ab_dir/B")" "$(bench/report/ab-profile "$tmp/A" "$tmp/B")" "... and so does bench/report/ab-profile"
is "$(bench/report/ab-table "$ab_dir/A/summary.csv" "$ab_dir/B/summary.csv")" "$(bench/report/ab-table "$tmp/A" "$tmp/B")" \
	"... a run's summary.csv too, checks.csv read beside it"
rc=0
bench/report/unpacked.py "$ab_dir/B" "$tmp/B-unpacked" || rc=$?
is "$rc:$(ls "$tmp/B-unpacked" "$tmp/B-unpacked/profile" | paste -sd' ' -)" \
	"0:$tmp/B-unpacked: checks.csv profile summary.csv  $tmp/B-unpacked/profile: kill-percred-grant.tsv" \
	"bench/report/unpacked.py unpacks a run packed inside an A/B directory"
bench/report/unpacked.py "$tmp/results" "$tmp/results-copy"
is "$(ls "$tmp/results-copy/ab/$(basename "$ab_dir")" | paste -sd' ' -)" "README ab.md meta packed.tar.xz" \
	"... and a directory above it as it is, the A/B's own archive kept"
ab --plan --icount --kernels "stock percred" HEAD HEAD
contains "$out" '^# bench/drivers/ab: bench/drivers/run --quick --mode icount,profile --workloads "kill ioprio setpriority getppid" --icount-runs 3 --kernels "stock percred"$' \
	"--icount: the icount round too, 3 boots a side, and only the configurations asked for"
ab --plan --icount-runs 2 HEAD HEAD
is "$out:$rc" "bench/drivers/ab: --icount-runs takes 3 boots or more (the noise is their spread), not '2' (see --help):2" \
	"--icount-runs 2 is refused: the noise is the boots' spread"
ab --plan --kernels "stock nokernel" HEAD HEAD
is "$out:$rc" "bench/drivers/ab: --kernels: unknown configuration 'nokernel' (stock, commoncap, naive, cached, percred) (see --help):2" \
	"an unknown configuration is refused"
ab --plan --annotate "cap_capable security_capable" HEAD HEAD
contains "$out" '^# bench/drivers/ab: bench/drivers/run --quick --mode profile .* --annotate "cap_capable security_capable" --kernels ' \
	"--annotate: the profile, with the functions' instructions counted"

# bench/drivers/ab-seed on a made-up built root: its paths rewritten, mtimes kept.
from=$tmp/seed/aaaaaaaaaaaa to=$tmp/seed/bbbbbbbbbbbb
mkdir -p "$from/linux/security" "$from/build/arch/x86/boot" "$from/build/security"
echo obj-y += commoncap.o >"$from/linux/Makefile"
echo 'int x;' >"$from/linux/security/commoncap.c"
echo bzImage >"$from/build/arch/x86/boot/bzImage"
printf 'source_security/commoncap.o := %s\ndeps_security/commoncap.o := %s\n' \
	"$from/linux/security/commoncap.c" "$from/linux/include/linux/usercaps.h" >"$from/build/security/.commoncap.o.cmd"
printf '\177ELF %s\0' "$from" >"$from/build/security/commoncap.o"
ln -s "$from/linux" "$from/build/source"
echo stamp >"$from/source-stamp"
touch -d 2001-01-01 "$from/linux/security/commoncap.c"
rc=0
out=$(bench/drivers/ab-seed "$from" "$to" 2>&1) || rc=$?
is "$rc" 0 "bench/drivers/ab-seed copies a built root"
is "$(grep -rlF "$from" "$to/build/security/.commoncap.o.cmd")" "" "... its dependency lists name the copy's sources, not the original's"
contains "$(cat "$to/build/security/.commoncap.o.cmd")" "^deps_security/commoncap.o := $to/linux/include/linux/usercaps.h\$" "... every line of them"
is "$(readlink "$to/build/source")" "$to/linux" "... build/source points at the copy's tree"
is "$(stat -c %Y "$to/linux/security/commoncap.c")" "$(stat -c %Y "$from/linux/security/commoncap.c")" \
	"... mtimes kept, so that make rebuilds only what the side changes"
is "$(cat "$to/source-stamp")" stamp "... with the tree's stamp"
rc=0
out=$(bench/drivers/ab-seed "$from" "$to" 2>&1) || rc=$?
is "$out:$rc" "bench/drivers/ab-seed: $to already has a tree:1" "a root with a tree of its own is not overwritten"
rm -rf "$to"
# A sed that rewrites nothing stands for any path the copy misses.
mkdir -p "$tmp/nosed"
printf '#!/bin/sh\nexit 0\n' >"$tmp/nosed/sed"
chmod +x "$tmp/nosed/sed"
rc=0
out=$(PATH=$tmp/nosed:$PATH bench/drivers/ab-seed "$from" "$to" 2>&1) || rc=$?
contains "$out" "^bench/drivers/ab-seed: $from's paths are left in " "a copy that cannot rewrite every path is refused"
ok "$([ "$rc" = 1 ] && [ ! -e "$to/build" ] && [ ! -e "$to/linux" ] && [ ! -e "$to/build.seed" ]; echo $?)" \
	"... and nothing of it is left"
rc=0
out=$(bench/drivers/ab-seed "$tmp/seed/none" "$to" 2>&1) || rc=$?
is "$out:$rc" "bench/drivers/ab-seed: no root at '$tmp/seed/none':1" "no root to copy: refused"

# bench/drivers/ab-prune on made-up roots: 00000000000N's kernel built N days
# ago, the 4th in use, the 5th the run's own; the 7th without a kernel
# for 2 days, the 8th without one made now; logs/ is no root.
roots=$tmp/prune
for n in 1 2 3 4 5 6; do
	mkdir -p "$roots/00000000000$n/build/arch/x86/boot"
	touch -d "$n days ago" "$roots/00000000000$n/build/arch/x86/boot/bzImage"
done
mkdir -p "$roots/000000000007/source" "$roots/000000000008/source" "$roots/logs"
touch -d "2 days ago" "$roots/000000000007/source" "$roots/000000000007" "$roots/logs"
hold "$roots/000000000004"
rc=0
out=$(bench/drivers/ab-prune "$roots" 3 "$roots/000000000005" 2>&1) || rc=$?
release
is "$out:$rc" "  pruned $roots/000000000003
  pruned $roots/000000000006
  pruned $roots/000000000007:0" \
	"bench/drivers/ab-prune ROOTS 3 ROOT: a line per root removed, past the 3 built ones kept (the ROOT first)"
is "$(ls "$roots" | paste -sd' ' -)" "000000000001 000000000002 000000000004 000000000005 000000000008 logs" \
	"... the ROOT, the 2 newest others, the one in use, the one without a kernel made now, and logs/ remain"

plan "$tap_count"
[ "$tap_failed" = 0 ]
