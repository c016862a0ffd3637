#!/bin/bash
# usercaps.service as the machine's systemd ran it at boot, in a vm/run
# --systemd guest whose root has "make install"'s files, the unit enabled
# and a policy (tests/usercaps-systemd.t stages them). Prints TAP; run as
# root, by usercaps-vm-command.service, once the boot is done.
#
# usercaps-systemd.sh good GRANTS - the boot applied the policy: GRANTS is
#   what the kernel's grants file must say; ordering, journal, then a
#   stuck run that TimeoutStartSec ends.
# usercaps-systemd.sh bad GRANTS BAD - a drop-in line was bad: the unit
#   failed with BAD (a regular expression) in the journal at error
#   priority, and the rest, GRANTS, was applied.
set -u
. "$(dirname "$0")/../lib.sh"
scenario=$1 want_grants=$2
unit=usercaps.service
policy=/sys/kernel/security/usercaps

# prop UNIT PROPERTY - one property of UNIT, as systemctl show gives it.
prop() {
	systemctl show -P "$2" "$1"
}

# journal PRIORITY - this boot's messages of the unit at exactly PRIORITY.
journal() {
	journalctl -b -q -u "$unit" -o cat -p "$1..$1"
}

is "$(cat "$policy/grants")" "$want_grants" "the kernel grants what the files say"
contains "$(prop "$unit" After)" '(^| )sys-kernel-security\.mount( |$)' \
	"the unit is ordered after sys-kernel-security.mount"
# systemd mounts securityfs itself, with /proc and /sys, before it loads
# any unit, so that sys-kernel-security.mount has no unit: After= orders
# the service only where an fstab line mounts it. That it came first
# shows in the mount ids, given in order: securityfs's is below
# debugfs's, which sys-kernel-debug.mount mounts, early in the boot.
mount_id() {
	awk -v at="$1" '$5 == at { print $1 }' /proc/self/mountinfo
}
security_id=$(mount_id /sys/kernel/security) debug_id=$(mount_id /sys/kernel/debug)
is "$(prop sys-kernel-security.mount LoadState):$(findmnt -n -o FSTYPE /sys/kernel/security)" \
	not-found:securityfs "securityfs is mounted, by systemd itself: no mount unit"
ok "$([ -n "$security_id" ] && [ -n "$debug_id" ] && [ "$security_id" -lt "$debug_id" ]; echo $?)" \
	"... before any unit ran (mount id $security_id, sys-kernel-debug.mount's $debug_id)"
exited=$(prop "$unit" ExecMainExitTimestampMonotonic)
ok "$([ "$exited" -gt 0 ] && [ "$exited" -le "$(prop sysinit.target ActiveEnterTimestampMonotonic)" ]; echo $?)" \
	"it was done before sysinit.target was reached"
is "$(prop "$unit" TimeoutStartUSec)" "1min 30s" "TimeoutStartSec is 90 s"

case "$scenario" in
good)
	is "$(prop "$unit" ActiveState):$(prop "$unit" Result)" active:success "the unit is active"
	changed=$(journal info)
	contains "$changed" '^sys_nice: root:root 0100 -> root:audio 0110$' \
		"the journal says what changed, at info priority"
	is "$(journal err)" "" "no error in the journal"

	# A run stuck on the lock, with a TimeoutStartSec shorter than the
	# lock's 30 s wait: systemd must end it, and the policy stays.
	flock /run/usercapsctl.lock sleep 300 &
	holder=$!
	mkdir -p /run/systemd/system/$unit.d
	printf '[Service]\nTimeoutStartSec=3s\n' >/run/systemd/system/$unit.d/stuck.conf
	systemctl daemon-reload
	start=$(date +%s)
	rc=0
	systemctl restart "$unit" 2>/dev/null || rc=$?
	took=$(($(date +%s) - start))
	kill "$holder"
	ok "$([ "$rc" != 0 ] && [ "$took" -lt 25 ]; echo $?)" \
		"stuck: systemctl restart fails after $took s, not the lock's 30 (status $rc)"
	is "$(prop "$unit" Result)" timeout "stuck: the unit's result is timeout"
	contains "$(journalctl -b -q -u "$unit" -o cat)" 'start operation timed out' \
		"stuck: the journal says systemd stopped it"
	is "$(cat "$policy/grants")" "$want_grants" "stuck: the policy is as the boot left it"
	;;
bad)
	bad=$3
	is "$(prop "$unit" ActiveState):$(prop "$unit" Result):$(prop "$unit" ExecMainStatus)" failed:exit-code:4 \
		"the unit failed, with usercapsctl's status 4 (an unknown group)"
	contains "$(journal err)" "$bad" "the journal has the bad line at error priority"
	contains "$(journal warning)" 'bad line or file skipped; the rest is applied' \
		"... and says at warning priority that the rest is applied"
	contains "$(journal info)" '^net_bind_service: root:root 0100 -> root:audio 0110$' \
		"... and what the rest changed, at info priority"
	contains "$(systemctl --failed --no-legend --plain)" "^$unit " "systemctl --failed lists it"
	;;
esac
plan "$tap_count"
