#!/bin/bash
# The stock kernel (USERCAPS_KERNEL=stock), configured but not built: its
# tree is the tarball alone, and its .config is the usercaps kernel's but
# for usercaps and the release suffix, so that the benchmark compares the
# series alone. About 10 s, 30 s with the tree out of the page cache, up to
# a minute on a fresh cache, which extracts the tarball first.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
usercaps_config=$build_dir/.config
stock_tree=$kernel_root/linux-stock
stock_config=$kernel_root/build-stock/.config
[ -r "$usercaps_config" ] ||
	bail_out "no $usercaps_config to compare the stock kernel's with: run 'make kernel' first"
plan 7

rc=0
out=$(USERCAPS_KERNEL=stock vm/build-kernel --config-only 2>&1) || rc=$?
is "$rc" 0 "USERCAPS_KERNEL=stock vm/build-kernel --config-only succeeds"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'

ok "$([ -f "$stock_tree/Makefile" ] && [ ! -e "$stock_tree/security/usercaps" ]; echo $?)" \
	"the stock tree is there and has no security/usercaps/"
# grep's errors too: a missing file must not pass for a clean one.
mentions=$(grep -rli usercaps "$stock_tree" 2>&1)
ok "$([ -z "$mentions" ]; echo $?)" \
	"no file of the stock tree mentions usercaps (no glue patch, no usercaps/ file)"
[ -z "$mentions" ] || printf '%s\n' "$mentions" | sed 's/^/#   /'

is "$(grep SECURITY_USERCAPS "$stock_config" 2>&1)" "" "the stock .config has no SECURITY_USERCAPS"
contains "$(cat "$stock_config")" '^CONFIG_BPF_LSM=y$' "the stock .config has CONFIG_BPF_LSM=y"
is "$(grep '^CONFIG_LOCALVERSION=' "$stock_config")" 'CONFIG_LOCALVERSION="-stock"' \
	"the stock kernel's release ends in -stock"

# Every other line the same: usercaps' options and the release suffix are
# all that the two kernels' fragments may give differently.
differences=$(diff <(grep -vE 'USERCAPS|LOCALVERSION' "$usercaps_config") \
	<(grep -vE 'USERCAPS|LOCALVERSION' "$stock_config" 2>&1))
ok "$([ -z "$differences" ]; echo $?)" \
	"the stock .config is $usercaps_config but for USERCAPS and LOCALVERSION lines"
[ -z "$differences" ] || printf '< usercaps kernel, > stock kernel\n%s\n' "$differences" | sed 's/^/#   /'

[ "$tap_failed" = 0 ]
