#!/bin/bash
# vm/build-kernel's short way: a build from the same inputs as the last
# completed one (the tree, the files synced into it, the configuration's
# fragments, the script, the compiler, .config and the bzImage as it left
# them) neither configures nor makes again; anything else does. About 15 s.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
[ -f "$build_dir/arch/x86/boot/bzImage" ] ||
	bail_out "no $build_dir/arch/x86/boot/bzImage: run 'make kernel' first"
plan 6

# build - vm/build-kernel's output in $out, its status in $rc.
build() {
	rc=0
	out=$(vm/build-kernel 2>&1) || rc=$?
	[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
}

build
is "$rc" 0 "vm/build-kernel succeeds"
build
contains "$out" '^  config, bzImage: as built last, from the same inputs$' \
	"... and again, from the same inputs, neither configures nor makes"
# A bzImage written since (another checkout's build, a hand-made one) is
# not the recorded build's.
touch "$build_dir/arch/x86/boot/bzImage"
build
is "$rc" 0 "with the bzImage touched since, it builds"
contains "$out" '^  config +[0-9]+ s$' "... configuring again"
contains "$out" '^  bzImage +[0-9]+ s$' "... and making the bzImage"
build
contains "$out" '^  config, bzImage: as built last, from the same inputs$' \
	"... which it records: the next is short again"
