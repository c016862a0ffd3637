#!/bin/bash
# Hostile input to /sys/kernel/security/usercaps (tests/guest/
# usercaps_hostile.c): in percred mode (the default), cached and naive; then
# a boot with usercaps.mode=bogus, which must say so and keep the default.
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel
build_guest_tests

for boot in percred cached naive; do
	append="lsm=$lsm_usercaps"
	[ "$boot" = percred ] || append="$append usercaps.mode=$boot"
	rc=0
	out=$(run_in_guest "usercaps-hostile-$boot" "${share_guest_tests[@]}" --append "$append" -- \
		"$guest_tests_dir/usercaps_hostile") || rc=$?
	relay_suite "$boot" "the in-guest suite" "$rc" < <(printf '%s\n' "$out")
	contains "$out" '^# hostile: [1-9][0-9]* cases tried$' "$boot: the suite counted the cases it tried"
done

# shellcheck disable=SC2016 # for the guest's sh
out=$(run_in_guest usercaps-hostile-bogus-mode --append "lsm=$lsm_usercaps usercaps.mode=bogus" -- \
	sh -c 'dmesg | grep -i usercaps; echo "mode file: $(cat /sys/kernel/security/usercaps/mode)"' 2>&1) || true
contains "$out" "usercaps: invalid mode 'bogus': .*; using percred\$" "usercaps.mode=bogus: the kernel says it is invalid"
contains "$out" 'usercaps: initialized, percred mode$' "usercaps.mode=bogus: usercaps starts in percred mode"
contains "$out" '^mode file: naive cached \[percred\]$' "usercaps.mode=bogus: the mode file shows percred active"
contains "$out" "invalid mode 'bogus': valid modes are naive, cached and percred;" \
	"usercaps.mode=bogus: the message lists every valid mode"

plan "$tap_count"
[ "$tap_failed" = 0 ]
