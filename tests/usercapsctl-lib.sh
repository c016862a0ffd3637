# shellcheck shell=bash
# tests/usercapsctl-lib.sh - build usercapsctl for the usercapsctl*.t
# scripts (sourced after lib.sh or guest-lib.sh, which set cache_dir,
# log_dir and repo_dir).
# shellcheck disable=SC2154

# Out of the repository, as the top-level Makefile builds it; the guest
# sees /root as a tmpfs, so the directory is shared at the same path.
# usercapsctl-test is the test build, which looks for every file under
# $USERCAPS_TEST_ROOT; usercapsctl-fault.so makes system calls fail, or
# signals come, on demand (tests/usercapsctl-fault.c).
usercapsctl_dir=$cache_dir/tools
# shellcheck disable=SC2034 # for the .t scripts
usercapsctl=$usercapsctl_dir/usercapsctl \
	usercapsctl_test=$usercapsctl_dir/usercapsctl-test \
	usercapsctl_fault=$usercapsctl_dir/usercapsctl-fault.so \
	share_usercapsctl=(--rw "$usercapsctl_dir")

# build_usercapsctl - build it and its test build (incremental), or fail
# with the log; one suite at a time (prove -j runs several).
build_usercapsctl() {
	local log=$log_dir/usercapsctl-build.log
	mkdir -p "$log_dir" "$usercapsctl_dir"
	if ! flock "$usercapsctl_dir.lock" \
		make -C "$repo_dir/tools/usercapsctl" OUT="$usercapsctl_dir" all test >"$log" 2>&1; then
		sed 's/^/# /' "$log"
		echo "1..1"
		echo "not ok 1 - build usercapsctl with -Wall -Wextra -Werror (log: $log)"
		exit 1
	fi
}
