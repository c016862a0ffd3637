#!/bin/bash
# The kernel's own tools/testing/selftests/capabilities (test_execve and
# validate_cap) in four boots: usercaps naive, cached and percred, and usercaps
# left out of lsm=. It must pass in each.
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel
build_guest_tests

# test_execve mounts a tmpfs over its working directory and copies
# validate_cap there from its own directory: run it from a copy in /tmp.
# The first line says whether usercaps is on in this boot. One line: vm/run
# quotes the command for the guest's sh with bash's printf %q.
# shellcheck disable=SC2016 # $1 is for the guest's sh
guest_command='if [ -d /sys/kernel/security/usercaps ]; then echo "usercaps: on"; else echo "usercaps: off"; fi; cp -r "$1" /tmp/capabilities && cd /tmp/capabilities && exec ./test_execve'

for boot in naive cached percred stock; do
	case "$boot" in
	stock) append="lsm=$lsm_stock" want=off ;;
	*) append="lsm=$lsm_usercaps usercaps.mode=$boot" want=on ;;
	esac
	rc=0
	out=$(run_in_guest "capabilities-$boot" "${share_guest_tests[@]}" --append "$append" -- \
		sh -c "$guest_command" sh "$guest_tests_dir/capabilities") || rc=$?
	is "$(printf '%s\n' "$out" | sed -n 1p)" "usercaps: $want" "$boot: usercaps is $want in this boot"
	relay_suite "$boot" "test_execve" "$rc" < <(printf '%s\n' "$out" | sed 1d)
done
plan "$tap_count"
[ "$tap_failed" = 0 ]
