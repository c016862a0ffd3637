#!/bin/bash
# The guest booted the kernel we built, on the host's root read-only, with
# the filesystems the tests and benchmarks need.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel
plan 9

release=$(cat "$build_dir/include/config/kernel.release")
rc=0 log=$log_dir/guest-boot.log
mkdir -p "$log_dir"
out=$(vm/run -- sh -c '
	uname -r
	cat /sys/kernel/security/lsm; echo
	touch /usr/.usercaps-rw-probe 2>/dev/null && echo root-writable || echo root-read-only
	touch /tmp/probe && echo tmp-writable
	grep -E " (securityfs|tracefs|debugfs) " /proc/mounts | cut -d" " -f3 | sort | tr "\n" " "; echo
	cat /proc/sys/kernel/perf_event_paranoid
	grep -qw la57 /proc/cpuinfo && echo paging-5-level || echo paging-4-level
	awk "{ printf \"%s:%s \", \$2, \$3 }" /proc/mounts; echo
	hostname
' <&- 2>"$log") || rc=$?

is "$rc" 0 "the guest command exits 0 (vm/run's messages: $log)"
is "$(echo "$out" | sed -n 1p)" "$release" "uname -r is the release just built"
contains "$(echo "$out" | sed -n 2p)" '^capability(,|$)' "/sys/kernel/security/lsm lists the LSMs, capability first"
is "$(echo "$out" | sed -n 3p)" root-read-only "the host's root is read-only in the guest"
is "$(echo "$out" | sed -n 4p)" tmp-writable "/tmp is writable"
is "$(echo "$out" | sed -n 5p)" "debugfs securityfs tracefs " "securityfs, tracefs and debugfs are mounted"
contains "$(echo "$out" | sed -n 6p)" '^-?[0-9]+$' "perf_event_paranoid is readable"
if [ "$kernel_variant" = debug ]; then
	is "$(echo "$out" | sed -n 7p)" paging-4-level "the debug kernel pages with 4 levels (no5lvl: see vm/run)"
else
	ok 0 "the debug kernel pages with 4 levels # skip not the debug kernel"
fi
# What vm/guest-init mounts (most of it from vm/guest-fstab, one mount(8)),
# in order, and the guest's hostname.
mounts="/:9p /dev:devtmpfs /proc:proc /sys:sysfs /tmp:tmpfs /run:tmpfs /var/tmp:tmpfs /var/log:tmpfs"
mounts+=" /sys/kernel/security:securityfs /sys/kernel/tracing:tracefs /sys/kernel/debug:debugfs"
mounts+=" /dev/pts:devpts /dev/shm:tmpfs /run/vm/ctl:9p $repo_dir:9p "
is "$(echo "$out" | sed -n 8p)$(echo "$out" | sed -n 9p)" "${mounts}usercaps-vm" \
	"the guest's mounts, in order, and its hostname"
