#!/bin/bash
# vm/build-kernel's short way: a build from the same inputs as the last
# completed one (the tree, the files synced into it, the configuration's
# fragments, the script, the compiler, .config and the bzImage as it left
# them) neither configures nor makes again; anything else does, but the
# documentation synced into the tree, which builds nothing. About 15 s.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
[ -f "$build_dir/arch/x86/boot/bzImage" ] ||
	bail_out "no $build_dir/arch/x86/boot/bzImage: run 'make kernel' first"
plan 8

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

# The admin guide, which each published bench record's figures rewrite,
# builds nothing: a source whose guide differs is built as it was.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vm"
cp -a usercaps "$tmp/"
cp -a vm/config "$tmp/vm/"
echo "A line the figures might have written." >>"$tmp/usercaps/Documentation/admin-guide/LSM/usercaps.rst"
rc=0
out=$(USERCAPS_SOURCE=$tmp vm/build-kernel 2>&1) || rc=$?
contains "$out" '^  config, bzImage: as built last, from the same inputs$' \
	"with another admin guide, the same inputs: neither configures nor makes (status $rc)"
build
contains "$out" '^  config, bzImage: as built last, from the same inputs$' \
	"... nor with the guide back"
