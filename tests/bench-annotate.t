#!/bin/bash
# bench/report/annotate, no kernel needed: a loop of known trip count, assembled
# by gcc -g into a stand-in vmlinux (one instruction per source line, so
# each line's executions are known), and capcheck plugin logs made up
# from the trip count: the listing joins each instruction's address, line,
# disassembly and executions per check; the table by line aligns two
# builds; a log of another build, records that do not add up and a
# vmlinux without debug info are said; bench/report/ab-annotate on two made-up
# runs.
# shellcheck disable=SC2016 # the backquotes are markdown's
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build DIR EXTRA [PAD] - DIR/vmlinux from DIR/loop.S: sum(n) adds n,
# n-1, ... 1 (the loop runs n times); EXTRA is more of the loop's add line
# (B's change), PAD bytes before sum move it. The ud2 after the ret never
# runs.
build() {
	mkdir -p "$1"
	cat >"$1/loop.S" <<EOF
	.text ${3:+; .skip $3}
	.globl	sum
	.type	sum, @function
sum:
	xor	%eax, %eax
	mov	%edi, %ecx
	test	%ecx, %ecx
	jz	2f
1:	add	%ecx, %eax $2
	dec	%ecx
	jnz	1b
2:	ret
	ud2
	.size	sum, .-sum
EOF
	gcc -g -c -o "$1/loop.o" "$1/loop.S"
	ld -e sum -o "$1/vmlinux" "$1/loop.o"
}
build "$tmp/a" ""
build "$tmp/b" "; inc %edx" 16

# made_up_log DIR SESSION CHECKS N [FUNCTION_INSNS] - DIR/capcheck.log:
# SESSION's CHECKS checks each call sum(N) once: lines 5-8 run once, the
# loop's 9-11 N times, line 12 once; 13 (ud2) never. The function record
# says FUNCTION_INSNS (default: the sum of the insn records).
made_up_log() {
	local dir=$1 session=$2 checks=$3 n=$4 want=${5:-} base line address total=0 execs
	base=$(nm "$dir/vmlinux" | awk '$3 == "sum" { print $1 }')
	{
		printf '# capcheck: map %s/System.map: 1 symbols; checks are windows of sum at 0x%s; 1 vCPU(s)\n' \
			"$dir" "$base"
		printf '# capcheck: annotate sum\n'
		printf 'session\t%s\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n' "$session" "$checks"
		while read -r address line; do
			case "$line" in
			9|10|11) execs=$n ;;
			13) continue ;;
			*) execs=1 ;;
			esac
			total=$((total + execs))
			printf 'insn\t%s\t0x%s\tsum\t0x%x\t%d.000\n' "$session" "$address" $((0x$address - 0x$base)) "$execs"
		done < <(objdump -d --no-show-raw-insn "$dir/vmlinux" | sed -n 's/^ *\([0-9a-f]*\):\t.*/\1/p' |
			while read -r address; do
				echo "$address $(addr2line -e "$dir/vmlinux" "0x$address" | sed 's/.*://')"
			done)
		printf 'function\t%s\tsum\t%s.000\t0.000\t0.000\t1.000\t1.000\t0.000\n' "$session" "${want:-$total}"
	} >"$dir/capcheck.log"
}
made_up_log "$tmp/a" loop/n10 4 10
made_up_log "$tmp/b" loop/n10 4 10

rc=0
out=$(bench/report/annotate "$tmp/a/capcheck.log" "$tmp/a/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "bench/report/annotate reads a log and its vmlinux"
is "$(table_row "$out" 0x0)" 'loop.S:5 | `xor %eax,%eax` | 1.000' \
	"the first instruction: offset, line, disassembly, once per check"
add=$(printf '%s\n' "$out" | awk -F' [|] ' '$3 ~ /^`add/ { print $1 }' | tr -d '| ')
is "$(table_row "$out" "$add")" 'loop.S:9 | `add %ecx,%eax` | 10.000' \
	"the loop's add: its line, and the trip count's 10 executions per check"
contains "$out" '^\| 0x[0-9a-f]+ \| loop\.S:13 \| `ud2` \| 0\.000 \|$' \
	"an instruction that never ran is listed, with 0"
is "$(table_row "$out" loop.S:11)" '10.000' "by line: the loop's jnz, 10 per check"
is "$(table_row "$out" total)" '35.000' "by line: the total is the function's 4 + 3 x 10 + 1"
contains "$out" "innermost frame" "the listing says which frame of an inlined line it shows"
# A kernel build directory: its Makefile names the source tree.
mkdir -p "$tmp/build"
cp "$tmp/a/vmlinux" "$tmp/build/"
echo "include $tmp/a/Makefile" >"$tmp/build/Makefile"
out=$(bench/report/annotate "$tmp/a/capcheck.log" "$tmp/build/vmlinux" 2>&1) || rc=$?
is "$(table_row "$out" loop.S:11)" '10.000' "source lines relative to the tree a build directory's Makefile includes"

# Two builds: B's loop adds an instruction on line 9.
out=$(bench/report/annotate "$tmp/a/capcheck.log" "$tmp/a/vmlinux" "$tmp/b/capcheck.log" "$tmp/b/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "bench/report/annotate compares two builds"
is "$(table_row "$out" loop.S:9)" '10.000 | 20.000 | +10.000' \
	"by line, aligned across the builds: B's extra loop instruction is 10 more per check"
is "$(table_row "$out" loop.S:12)" '1.000 | 1.000 | +0.000' "... and the ret, once in both"
is "$(table_row "$out" total)" '35.000 | 45.000 | +10.000' "... and the total"
contains "$out" '^A \(' "other instructions: A's listing ..."
contains "$out" '^B \(' "... then B's"
contains "$out" '^\| 0x[0-9a-f]+ \| loop\.S:9 \| `inc %edx` \| 10\.000 \|$' "... where B's inc runs 10 times a check"

# The same build twice, another trip count: one listing, side by side.
cp "$tmp/a/capcheck.log" "$tmp/n10.log"
made_up_log "$tmp/a" loop/n10 4 20
out=$(bench/report/annotate "$tmp/n10.log" "$tmp/a/vmlinux" "$tmp/a/capcheck.log" "$tmp/a/vmlinux" 2>&1) || rc=$?
is "$(table_row "$out" "$add")" 'loop.S:9 | `add %ecx,%eax` | 10.000 | 20.000 | +10.000' \
	"the same instructions: one listing with A, B and B - A by offset"

# A log of another build than the vmlinux.
rc=0
err=$(bench/report/annotate "$tmp/b/capcheck.log" "$tmp/a/vmlinux" 2>&1) || rc=$?
ok "$([ "$rc" = 1 ]; echo $?)" "a log of B with A's vmlinux is refused (status $rc)"
contains "$err" 'sum is at 0x[0-9a-f]+ in the booted kernel, not in .*: not its vmlinux' "... saying where the function was"

# Text the boot patched: an instruction that starts inside the
# vmlinux's second one (mov, 2 bytes at 0x2).
base=$(nm "$tmp/a/vmlinux" | awk '$3 == "sum" { print $1 }')
{
	grep -v '^function' "$tmp/n10.log"
	printf 'insn\tloop/n10\t0x%x\tsum\t0x3\t1.000\n' $((0x$base + 3))
	printf 'function\tloop/n10\tsum\t36.000\t0.000\t0.000\t1.000\t1.000\t0.000\n'
} >"$tmp/patched.log"
rc=0
out=$(bench/report/annotate "$tmp/patched.log" "$tmp/a/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "an instruction of text patched at boot is no refusal"
is "$(table_row "$out" 0x3)" 'loop.S:6 | `(patched at boot: +0x1 into 0x2)` | 1.000' \
	"... it is listed after the instruction it lies in, with that one's line"
is "$(table_row "$out" total)" '36.000' "... and counted in the total"

# Insn records that do not add up to the function record.
mkdir -p "$tmp/bad"
cp "$tmp/a/vmlinux" "$tmp/bad/vmlinux"
made_up_log "$tmp/bad" loop/n10 4 10 36
rc=0
err=$(bench/report/annotate "$tmp/bad/capcheck.log" "$tmp/bad/vmlinux" 2>&1 >/dev/null) || rc=$?
is "$rc" 3 "records that do not add up to the function record: status 3"
contains "$err" 'add up to 35\.000, the function record says 36\.000' "... and both figures said"

# No debug info: the instructions, no lines.
mkdir -p "$tmp/nodebug"
objcopy --strip-debug "$tmp/a/vmlinux" "$tmp/nodebug/vmlinux"
cp "$tmp/n10.log" "$tmp/nodebug/capcheck.log"
rc=0
out=$(bench/report/annotate "$tmp/nodebug/capcheck.log" "$tmp/nodebug/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "a vmlinux without debug info is annotated"
is "$(table_row "$out" "$add")" '- | `add %ecx,%eax` | 10.000' "... without source lines"
contains "$out" 'no \.debug_line.*CONFIG_DEBUG_INFO_DWARF5=y' "... and says what the kernel build needs"

# A kbuild directory of a kernel without debug info: sum's object built
# by the command kbuild saved, in a thin vmlinux.a, the vmlinux linked
# without -g; the source file beside a Makefile the build's includes.
mkdir -p "$tmp/src" "$tmp/kbuild"
cp "$tmp/a/loop.S" "$tmp/src/"
: >"$tmp/src/Makefile"
echo "include $tmp/src/Makefile" >"$tmp/kbuild/Makefile"
printf 'cmd_loop.o := gcc -Wp,-MMD,./.loop.o.d -c -o loop.o %s ; true loop.o\n\nsource_loop.o := %s\n' \
	"$tmp/src/loop.S" "$tmp/src/loop.S" >"$tmp/kbuild/.loop.o.cmd"
(cd "$tmp/kbuild" && gcc -c -o loop.o "$tmp/src/loop.S" && ar rcsT vmlinux.a loop.o && ld -e sum -o vmlinux loop.o)
rc=0
out=$(bench/report/annotate "$tmp/n10.log" "$tmp/kbuild/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "a kbuild directory's vmlinux without debug info is annotated"
is "$(table_row "$out" "$add")" 'loop.S:9 | `add %ecx,%eax` | 10.000' \
	"... with the source lines of its object compiled again with -g"
is "$(table_row "$out" total)" '35.000' "... and the table by line"
contains "$out" "compiled again with -g in $tmp/kbuild-lines/" "... saying where the twin is"
# A copy of the vmlinux beside a link to its build (bench/drivers/run's snapshot).
mkdir -p "$tmp/copy"
cp "$tmp/kbuild/vmlinux" "$tmp/kbuild/Makefile" "$tmp/copy/"
ln -s "$tmp/kbuild" "$tmp/copy/kbuild"
out=$(bench/report/annotate "$tmp/n10.log" "$tmp/copy/vmlinux" 2>&1) || rc=$?
is "$(table_row "$out" "$add")" 'loop.S:9 | `add %ecx,%eax` | 10.000' "... and a copy of it beside a link named kbuild to its build"
touch -d @0 "$tmp/kbuild-lines/loop.o"
bench/report/annotate "$tmp/n10.log" "$tmp/kbuild/vmlinux" >/dev/null 2>&1
is "$(stat -c %Y "$tmp/kbuild-lines/loop.o")" 0 "... not compiled again while its object and source are unchanged"
# The source changed since the build (same size: xor -> sub): the twin's
# bytes are not the booted ones.
sed -i 's/xor\t%eax, %eax/sub\t%eax, %eax/' "$tmp/src/loop.S"
rc=0
err=$(bench/report/annotate "$tmp/n10.log" "$tmp/kbuild/vmlinux" 2>&1) || rc=$?
ok "$([ "$rc" = 1 ]; echo $?)" "a twin whose bytes are not the vmlinux's is refused (status $rc)"
contains "$err" 'no source lines from a twin object: sum: not the booted bytes: sum in .*/loop\.o differs at \+0x0 \(0x29, booted 0x31\)' \
	"... saying where they differ"
cp "$tmp/a/loop.S" "$tmp/src/"
rc=0
out=$(bench/report/annotate "$tmp/n10.log" "$tmp/kbuild/vmlinux" 2>&1) || rc=$?
is "$(table_row "$out" "$add")" 'loop.S:9 | `add %ecx,%eax` | 10.000' "... and compiled again once the source is the build's"

# bench/report/ab-annotate: two runs, percred on each side's build, stock's
# the same kernel in both; bench/drivers/run packed them.
for side in A B; do
	mkdir -p "$tmp/$side/raw/profile-run1-percred" "$tmp/$side/raw/profile-run1-stock"
	printf 'kernels=stock percred\nprofile_annotate=sum\n' >"$tmp/$side/meta"
	cp "$tmp/n10.log" "$tmp/$side/raw/profile-run1-stock/capcheck.log"
done
cp "$tmp/n10.log" "$tmp/A/raw/profile-run1-percred/capcheck.log"
cp "$tmp/b/capcheck.log" "$tmp/B/raw/profile-run1-percred/capcheck.log"
bench/drivers/pack "$tmp/A"
bench/drivers/pack "$tmp/B"
rc=0
out=$(bench/report/ab-annotate "$tmp/A" "$tmp/B" "$tmp/a/vmlinux" "$tmp/b/vmlinux" "$tmp/a/vmlinux" 2>&1) || rc=$?
is "$rc" 0 "bench/report/ab-annotate reads two packed runs"
is "$(printf '%s\n' "$out" | grep '^### ' | paste -sd' ' -)" \
	"### stock: instructions per check (bench/report/annotate) ### percred: instructions per check (bench/report/annotate)" \
	"... one section per configuration both booted"
is "$(printf '%s\n' "$out" | awk '/^### percred/ { p = 1 } p' | grep '^| loop.S:9 |')" \
	'| loop.S:9 | 10.000 | 20.000 | +10.000 |' "... percred with each side's vmlinux"
is "$(printf '%s\n' "$out" | awk '/^### stock/ { p = 1 } /^### percred/ { p = 0 } p' | grep '^| total |')" \
	'| total | 35.000 | 35.000 | +0.000 |' "... stock with the stock vmlinux on both sides"
sed -i '/^profile_annotate=/d' "$tmp/B/meta"
rc=0
err=$(bench/report/ab-annotate "$tmp/A" "$tmp/B" "$tmp/a/vmlinux" "$tmp/b/vmlinux" "$tmp/a/vmlinux" 2>&1) || rc=$?
ok "$([ "$rc" = 1 ]; echo $?)" "a run without --annotate is refused (status $rc)"
contains "$err" "B ran no --annotate profile" "... by name"

# Bad usage.
rc=0
err=$(bench/report/annotate --functions nosuch "$tmp/n10.log" "$tmp/a/vmlinux" 2>&1) || rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "a function the log has no counts of is refused"
contains "$err" 'not booted with annotate= of nosuch' "... by name"
rc=0
err=$(bench/report/annotate "$tmp/n10.log" 2>&1) || rc=$?
is "$rc" 2 "a log without its vmlinux: usage error"

plan "$tap_count"
[ "$tap_failed" = 0 ]
