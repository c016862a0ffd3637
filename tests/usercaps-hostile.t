#!/bin/bash
# Hostile input to /sys/kernel/security/usercaps (tests/guest/
# usercaps_hostile.c): in percred mode (the default) and in naive mode; then
# a boot with usercaps.mode=bogus, which must say so and keep the default.
#
# Known defects are TAP TODO tests, reported but not failed:
# TODO_TESTS names the in-guest tests that fail on the kernel as it is.
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel
build_guest_tests

readonly TODO_TESTS='root_without_capabilities_cannot_chmod_the_view|root_of_user_namespace_cannot_chmod_the_view|read_only_files_refuse_writing_by_root'
readonly TODO_REASON='known defect: the directory, grants and mode have no setattr or open check of their own'
todo_failed=0

for boot in percred naive; do
	append="lsm=$lsm_usercaps"
	[ "$boot" = percred ] || append="$append usercaps.mode=$boot"
	rc=0
	out=$(run_in_guest "usercaps-hostile-$boot" "${share_guest_tests[@]}" --append "$append" -- \
		"$guest_tests_dir/usercaps_hostile") || rc=$?
	out=$(printf '%s\n' "$out" | sed -E "s/^((not )?ok [0-9]+ hostile\.($TODO_TESTS))\$/\1 # TODO $TODO_REASON/")
	relay_tap "$boot" < <(printf '%s\n' "$out")
	todos=$(printf '%s\n' "$out" | grep -cE '^not ok .* # TODO ' || true)
	others=$(printf '%s\n' "$out" | grep -E '^not ok ' | grep -cv ' # TODO ' || true)
	todo_failed=$((todo_failed + todos))
	ok "$([ "$rc" = 0 ] || { [ "$rc" = 1 ] && [ "$others" = 0 ] && [ "$todos" -gt 0 ]; }; echo $?)" \
		"$boot: the in-guest suite exits 0, or 1 for TODO tests only (exit $rc, $todos TODO failures)"
	ok "$([ "$relay_planned" -gt 0 ] && [ "$relay_results" = "$relay_planned" ]; echo $?)" \
		"$boot: the in-guest suite reports all $relay_planned planned results (got $relay_results)"
	contains "$out" '^# hostile: [1-9][0-9]* cases tried$' "$boot: the suite counted the cases it tried"
done

# shellcheck disable=SC2016 # for the guest's sh
out=$(run_in_guest usercaps-hostile-bogus-mode --append "lsm=$lsm_usercaps usercaps.mode=bogus" -- \
	sh -c 'dmesg | grep -i usercaps; echo "mode file: $(cat /sys/kernel/security/usercaps/mode)"' 2>&1) || true
contains "$out" "usercaps: invalid mode 'bogus': .*; using percred\$" "usercaps.mode=bogus: the kernel says it is invalid"
contains "$out" 'usercaps: initialized, percred mode$' "usercaps.mode=bogus: usercaps starts in percred mode"
contains "$out" '^mode file: naive cached \[percred\]$' "usercaps.mode=bogus: the mode file shows percred active"
status=$(printf '%s\n' "$out" | grep -q "invalid mode 'bogus': valid modes are naive, cached and percred" && echo 0 || echo 1)
todo_failed=$((todo_failed + status))
ok "$status" "usercaps.mode=bogus: the message lists every valid mode # TODO known defect: it says 'valid modes are naive and cached'"

plan "$tap_count"
[ "$tap_failed" = "$todo_failed" ]
