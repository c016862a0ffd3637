#!/bin/bash
# Audit records of policy changes, the usercaps_grant tracepoint and a
# chmod failing with ENOMEM (tests/guest/usercaps-observe.sh), in a guest
# booted with audit=1, in each mode.
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel

for mode in naive cached percred; do
	rc=0
	out=$(run_in_guest "usercaps-observe-$mode" \
		--append "lsm=$lsm_usercaps usercaps.mode=$mode audit=1" -- \
		tests/guest/usercaps-observe.sh) || rc=$?
	relay_suite "$mode" "the in-guest script" "$rc" < <(printf '%s\n' "$out")
done
plan "$tap_count"
[ "$tap_failed" = 0 ]
