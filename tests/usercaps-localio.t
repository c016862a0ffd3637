#!/bin/bash
# The own-credential rule against NFS LOCALIO (tests/guest/usercaps-localio.sh):
# nfsd and a localhost NFSv3 mount in one guest, in each mode. Linux 6.12
# only (CONFIG_NFS_LOCALIO, vm/config/6.12/nfs.config).
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
if [ "$linux_version" != 6.12 ]; then
	echo "1..0 # SKIP LOCALIO is Linux 6.12's (CONFIG_NFS_LOCALIO): run with KERNEL=6.12"
	exit 0
fi
require_kernel
tools=$(vm/guest-nfs-tools) || fail_before_plan "vm/guest-nfs-tools: fetch Debian's NFS server programs"

for mode in naive cached percred; do
	rc=0
	out=$(run_in_guest "usercaps-localio-$mode" --rw "$tools" \
		--append "lsm=$lsm_usercaps usercaps.mode=$mode" -- \
		tests/guest/usercaps-localio.sh "$tools") || rc=$?
	relay_suite "$mode" "the in-guest script" "$rc" < <(printf '%s\n' "$out")
done
plan "$tap_count"
[ "$tap_failed" = 0 ]
