#!/bin/bash
# usercapsctl against the real kernel: one guest booted with usercaps runs
# tests/guest/usercapsctl-guest.sh (boot-time apply, every subcommand and
# error path, all-or-nothing apply); a second, booted without usercaps in
# lsm=, checks that usercapsctl says usercaps is not active.
set -eu
. "$(dirname "$0")/guest-lib.sh"
. "$(dirname "$0")/usercapsctl-lib.sh"
cd "$repo_dir"
require_kernel
build_usercapsctl

rc=0
out=$(run_in_guest usercapsctl "${share_usercapsctl[@]}" --append "lsm=$lsm_usercaps" -- \
	tests/guest/usercapsctl-guest.sh "$usercapsctl" tools/usercapsctl/usercaps.service.in \
	"$repo_dir/tools/usercapsctl/usercaps.conf") || rc=$?
relay_suite guest "the in-guest suite" "$rc" < <(printf '%s\n' "$out")

# shellcheck disable=SC2016 # $1 is for the guest's sh
guest_command='"$1" list; echo "list: $?"; "$1" grant sys_nice --group audio; echo "grant: $?"; ls /sys/kernel/security/usercaps'
rc=0
out=$(run_in_guest usercapsctl-stock "${share_usercapsctl[@]}" --append "lsm=$lsm_stock" -- \
	sh -c "$guest_command" sh "$usercapsctl" 2>&1) || rc=$?
contains "$out" '^list: 6$' "usercaps not in lsm=: list exits 6"
contains "$out" '^grant: 6$' "usercaps not in lsm=: grant exits 6"
contains "$out" 'usercaps is not active in this kernel: /sys/kernel/security/lsm lists only capability,landlock' \
	"usercaps not in lsm=: says so, with what lsm lists"
contains "$out" 'No such file or directory' "usercaps not in lsm=: there is no policy directory indeed"
plan "$tap_count"
[ "$tap_failed" = 0 ]
