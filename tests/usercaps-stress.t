#!/bin/bash
# Capability checks racing chmod/chown of their file (tests/guest/
# usercaps_stress.c), one boot per mode. cached and percred must never tear
# a decision; naive may, and its count is reported, not failed. The
# "# stress MODE: ..." lines are also appended to $USERCAPS_STRESS_OUT when
# it is set. USERCAPS_STRESS_SECONDS: how long each boot flips (default 10).
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel
build_guest_tests

seconds=${USERCAPS_STRESS_SECONDS:-10}
for mode in naive cached percred; do
	rc=0
	out=$(run_in_guest "usercaps-stress-$mode" "${share_guest_tests[@]}" \
		--append "lsm=$lsm_usercaps usercaps.mode=$mode" -- \
		env USERCAPS_MODE="$mode" USERCAPS_STRESS_SECONDS="$seconds" \
		"$guest_tests_dir/usercaps_stress") || rc=$?
	relay_suite "$mode" "the in-guest suite" "$rc" < <(printf '%s\n' "$out")
	figures=$(printf '%s\n' "$out" | grep "^# stress $mode: " || true)
	ok "$([ -n "$figures" ]; echo $?)" "$mode: the suite printed its figures"
	if [ -n "${USERCAPS_STRESS_OUT:-}" ] && [ -n "$figures" ]; then
		printf '%s\n' "$figures" >>"$USERCAPS_STRESS_OUT"
	fi
done
plan "$tap_count"
[ "$tap_failed" = 0 ]
