#!/bin/bash
# usercaps-observe.sh - what a policy change and a grant leave behind, in a
# guest booted with usercaps in lsm= and audit=1 (TAP): one audit record per
# chmod or chown, res=1 for a change, res=0 with the reason for a refused
# or failed one, none for a setattr that changes no owner, group or mode;
# the usercaps_grant tracepoint; and a chmod that fails with ENOMEM
# (bpftrace's override() of usercaps_table_dup()) changing nothing.
set -u
# The guest sees the repository at the host's path: the TAP helpers are
# the host suites' own.
. "$(dirname "$0")/../lib.sh"
dir=/sys/kernel/security/usercaps
event=/sys/kernel/tracing/events/usercaps/usercaps_grant

# As uid 1000 in group 2000: kill(1, 0), which needs CAP_KILL.
member_kill() {
	setpriv --reuid 1000 --regid 1000 --groups 2000 -- sh -c 'kill -0 1' 2>&1
}

reset() {
	chown 0:0 "$dir/$1" && chmod 0100 "$dir/$1"
}

# audit_records - the usercaps records about sys_nice on the console.
audit_records() {
	dmesg | grep 'type=1405' | grep 'lsm=usercaps op=setattr cap=sys_nice '
}

# Audit: kauditd prints each record on the console without auditd, in
# order, so once chmod's record is there, every attempt before it has
# left its record. It prints under printk_ratelimit(), which the boot's
# own records (AppArmor's) may have used up on a slow host: no limit here.
echo 0 >/proc/sys/kernel/printk_ratelimit
setpriv --reuid 1000 --regid 1000 --clear-groups -- chmod 0111 "$dir/sys_nice" 2>/dev/null
touch "$dir/sys_nice"
chmod 0100 "$dir/sys_nice"
chgrp 2000 "$dir/sys_nice"
chmod 0110 "$dir/sys_nice"
for _ in $(seq 60); do
	audit_records | grep -q 'old_mode=0100 owner=0 group=2000 mode=0110' && break
	sleep 1
done
records=$(audit_records)
contains "$records" 'owner=0 group=0 mode=0100 req_owner=0 req_group=0 req_mode=0111 reason=gate error=-1 .* uid=1000 .*comm="chmod" .*res=0' \
	"audit: a user's refused chmod leaves a res=0 record with the policy as it stays, the mode asked and the reason"
contains "$records" 'old_owner=0 old_group=0 old_mode=0100 owner=0 group=2000 mode=0100 .* uid=0 .*comm="chgrp" .*res=1' \
	"audit: chgrp's record names the capability, the old and new group, and who"
contains "$records" 'old_owner=0 old_group=2000 old_mode=0100 owner=0 group=2000 mode=0110 .*comm="chmod" .*res=1' \
	"audit: chmod's record names the old and new mode"
is "$(printf '%s\n' "$records" | grep -c .)" 3 \
	"audit: one record for each change and for the refused chmod, none for touch or a chmod to the same mode"
printf '%s\n' "$records" | sed 's/^/# record: /'
reset sys_nice

# The tracepoint: off, a grant leaves nothing; on, one event per grant.
echo > /sys/kernel/tracing/trace
chgrp 2000 "$dir/kill" && chmod 0110 "$dir/kill"
member_kill
ok "$?" "a member of the granted group may kill(1, 0)"
ok "$([ -z "$(grep usercaps_grant /sys/kernel/tracing/trace)" ]; echo $?)" \
	"tracepoint off: no event"
echo 1 > "$event/enable"
member_kill
echo 0 > "$event/enable"
trace=$(grep usercaps_grant /sys/kernel/tracing/trace)
contains "$trace" 'usercaps_grant: cap=5 name=kill fsuid=1000 fsgid=1000 class=group mode=0110$' \
	"tracepoint on: the grant's event, with the class that decided"
is "$(printf '%s\n' "$trace" | grep -c .)" 1 "tracepoint on: one event for one grant"
printf '%s\n' "$trace" | sed 's/^/# event: /'

# ENOMEM: bpftrace makes the table copy fail for chmod; nothing changes.
log=/tmp/usercaps-observe.bpftrace
bpftrace --unsafe -e 'kprobe:usercaps_table_dup /comm == "chmod"/ { override(0); }' >"$log" 2>&1 &
bpf=$!
tries=0
while chmod 0110 "$dir/kill" 2>/dev/null && [ "$tries" -lt 120 ]; do
	sleep 1
	tries=$((tries + 1))
done
ok "$([ "$tries" -lt 120 ]; echo $?)" "bpftrace's override took effect within 120 s"
err=$(chmod 0100 "$dir/kill" 2>&1)
contains "$err" 'Cannot allocate memory' "ENOMEM: chmod g-x fails with ENOMEM"
for _ in $(seq 30); do
	dmesg | grep 'type=1405' | grep -q 'cap=kill .*req_mode=0100 reason=nomem' && break
	sleep 1
done
contains "$(dmesg | grep 'type=1405' | grep 'cap=kill .*reason=')" \
	'cap=kill owner=0 group=2000 mode=0110 req_owner=0 req_group=0 req_mode=0100 reason=nomem error=-12 .*comm="chmod" .*res=0' \
	"ENOMEM: a res=0 record says the chmod failed, and why"
contains "$(stat -c '%a %u %g' "$dir/kill")" '^110 0 2000$' "ENOMEM: the file keeps its mode"
contains "$(cat "$dir/kill")" '^kill owner=0 group=2000 mode=0110 granted=group$' \
	"ENOMEM: the policy keeps the grant"
member_kill
ok "$?" "ENOMEM: the grant still holds"
kill "$bpf"
wait "$bpf" 2>/dev/null
sed 's/^/# bpftrace: /' "$log"
chmod 0100 "$dir/kill"
ok "$?" "without the override, chmod g-x works"
member_kill >/dev/null
ok "$([ $? != 0 ]; echo $?)" "and the grant is gone"
reset kill

plan "$tap_count"
[ "$tap_failed" = 0 ]
