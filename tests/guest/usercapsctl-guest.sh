#!/bin/bash
# usercapsctl inside a guest booted with usercaps: the boot-time apply of
# usercaps.service first, then every subcommand and error path against the
# real /sys/kernel/security/usercaps. Prints TAP; run as root.
#
# usercapsctl-guest.sh USERCAPSCTL UNIT CONF
#   USERCAPSCTL  the built binary
#   UNIT         tools/usercapsctl/usercaps.service.in, whose ExecStart runs
#   CONF         the example /etc/usercaps.conf (audio example)
set -u
. "$(dirname "$0")/../lib.sh"
uc=$1 unit=$2 conf=$3
policy=/sys/kernel/security/usercaps

# The probe and the example file, where the test users can read them: the
# repository may be under /root (0700), where they cannot.
stage=$(mktemp -d)
chmod 0755 "$stage"
cp "$(dirname "$0")/usercapsctl-probe.py" "$conf" "$stage/"
probe=$stage/usercapsctl-probe.py conf=$stage/$(basename "$conf")

# "Boot": the unit's own ExecStart line, with the binary in place of the
# installed one and the example file named (the guest's /etc is the
# host's, read-only), within the unit's CapabilityBoundingSet, before
# anything else.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
boot_cmd="${exec_start/@SBINDIR@\/usercapsctl/$uc} $conf"
read -ra boot_argv <<<"$boot_cmd"
bounding_set=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")
# shellcheck disable=SC2086 # one word per capability
bounding_set=-all,$(printf '%s\n' $bounding_set | sed 's/^CAP_/+/' | tr 'A-Z\n' 'a-z,')
rc=0
boot_out=$(setpriv --bounding-set "${bounding_set%,}" "${boot_argv[@]}" 2>&1) || rc=$?
boot_grants=$(cat "$policy/grants")

# run ARGS... - run ARGS, leaving their stdout+stderr in $out, status in $rc.
run() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}

# as_user UID GID GROUPS CMD... - CMD as that identity (GROUPS: a comma
# list, or "-" for none), with the limits that make the probe need its
# capabilities.
as_user() {
	local uid=$1 gid=$2 groups=$3
	shift 3
	local group_opt=(--groups "$groups")
	[ "$groups" = - ] && group_opt=(--clear-groups)
	prlimit --memlock=0:0 --rtprio=0:0 --nofile=64:128 \
		setpriv --reuid "$uid" --regid "$gid" "${group_opt[@]}" "$@"
}

# cap_line CAP - the kernel's own line for CAP, read back.
cap_line() {
	cat "$policy/$1"
}

# expect STATUS REGEX DESCRIPTION CMD... - one test point: CMD exits
# STATUS and prints a line matching REGEX ('' matches anything).
expect() {
	local want=$1 regex=$2 desc=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -qE -- "$regex"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "#   exit $rc (want $want), no line matching /$regex/ in:"
		printf '%s\n' "$out" | sed 's/^/#     /'
	fi
}

as_uid_2001=(setpriv --reuid 2001 --regid 2001 --clear-groups)

is "$rc" 0 "boot: the unit's ExecStart ($exec_start) exits 0 within its bounding set (${bounding_set%,})"
[ "$rc" = 0 ] || printf '%s\n' "$boot_out" | sed 's/^/#     /'
ok "$([[ $boot_cmd == "$uc apply --boot $conf" ]]; echo $?)" \
	"boot: ExecStart is 'usercapsctl apply --boot'"
is "$boot_grants" "ipc_lock owner=0 group=29 mode=0110 granted=group
sys_nice owner=0 group=29 mode=0110 granted=group
sys_resource owner=0 group=29 mode=0110 granted=group" "boot: the kernel grants the audio example"
run as_user 2001 2001 29 "$probe"
is "$out" "nice=ok fifo=ok mlock=ok rlimit=ok" \
	"boot: uid 2001 in group audio: setpriority -1, SCHED_FIFO, mlock with RLIMIT_MEMLOCK 0, raise a hard limit"
run as_user 2001 2001 2000 "$probe"
is "$out" "nice=EACCES fifo=EPERM mlock=EPERM rlimit=EPERM" \
	"boot: uid 2001 in group 2000 only: none of them"

# Named users and groups for the rest: the guest's /etc is the host's,
# read-only, so bind-mount extended copies over passwd and group.
cp /etc/passwd /tmp/passwd && cp /etc/group /tmp/group
printf '%s\n' 'ucalice:x:2001:2001::/tmp:/bin/sh' 'ucbob:x:2002:2002::/tmp:/bin/sh' >>/tmp/passwd
printf '%s\n' 'ucalice:x:2001:' 'ucbob:x:2002:' 'ucaudio:x:2000:ucalice' >>/tmp/group
mount --bind /tmp/passwd /etc/passwd && mount --bind /tmp/group /etc/group
ok $? "set up users ucalice (in ucaudio) and ucbob"

# list
expect 0 '' "list exits 0" "$uc" list
is "$(printf '%s\n' "$out" | sed -n 1p)" "CAPABILITY           OWNER        GROUP        MODE  HELD BY" "list: header"
is "$(printf '%s\n' "$out" | sed 1d | wc -l)" 41 "list: one row per capability of Linux 6.1"
contains "$out" '^sys_nice +root +audio +0110  group audio$' "list: sys_nice is held by group audio"
contains "$out" '^chown +root +root +0100  -$' "list: chown is held by nobody"
list_out=$out
expect 0 '' "list --json exits 0" "$uc" list --json
run python3 -c 'import json, sys
d = json.load(sys.stdin)["capabilities"]
n = {c["name"]: c for c in d}
print(len(d), n["sys_nice"]["group_name"], n["sys_nice"]["granted"], n["chown"]["granted"], n["sys_nice"]["mode"])' <<<"$out"
is "$out" "41 audio ['group'] [] 0110" "list --json: valid JSON, 41 entries, sys_nice granted to group audio"
run "$uc" show-config
contains "$out" '^sys_nice group audio$' "show-config: sys_nice group audio"
is "$(printf '%s\n' "$out" | grep -vc '^#')" 3 "show-config: the three audio lines only"

# grant, check, revoke
expect 0 'group ucaudio replaces group audio' "grant sys_nice --group ucaudio" "$uc" grant sys_nice --group ucaudio
is "$(cap_line sys_nice)" "sys_nice owner=0 group=2000 mode=0110 granted=group" "grant: the kernel reads back group 2000, g+x"
expect 0 '^ucalice holds sys_nice through usercaps: .*group ucaudio \(a supplementary group\), so the group class decides' "check: ucalice holds sys_nice (exit 0)" "$uc" check sys_nice --user ucalice
expect 1 'the other class decides, and the mode has no o\+x' "check: ucbob does not hold sys_nice (exit 1)" "$uc" check sys_nice --user ucbob
expect 0 'root does not hold sys_nice through usercaps' "check: root holds it (exit 0)" "$uc" check sys_nice --user root
contains "$out" 'root holds sys_nice anyway' "check root: but through its own sets"
run prlimit --memlock=0:0 --rtprio=0:0 --nofile=64:128 setpriv --reuid ucalice --regid ucalice --init-groups "$probe"
contains "$out" '^nice=ok fifo=ok ' "check agrees with the kernel: ucalice (login groups) may nice and SCHED_FIFO"
run prlimit --memlock=0:0 --rtprio=0:0 --nofile=64:128 setpriv --reuid ucbob --regid ucbob --init-groups "$probe"
contains "$out" '^nice=EACCES fifo=EPERM ' "check agrees with the kernel: ucbob may not"

for spelling in CAP_IPC_LOCK cap_ipc_lock Ipc_Lock ipc_lock; do
	expect 0 '' "grant accepts the spelling $spelling" "$uc" grant "$spelling" --user ucbob
done
is "$(cap_line ipc_lock)" "ipc_lock owner=2002 group=29 mode=0110 granted=owner,group" "grant --user: ucbob owns ipc_lock"
run "$uc" check ipc_lock --user ucbob
contains "$out" '^ucbob holds ipc_lock through usercaps: ucbob owns the file, so the owner class decides' "check: the owner class"
expect 0 '' "grant sys_time --other" "$uc" grant sys_time --other
is "$(cap_line sys_time)" "sys_time owner=0 group=0 mode=0101 granted=other" "grant --other: o+x"
run "$uc" revoke sys_time --other
is "$rc:$(cap_line sys_time)" "0:sys_time owner=0 group=0 mode=0100 granted=none" "revoke --other"
run "$uc" revoke ipc_lock --user ucbob
is "$rc:$(cap_line ipc_lock)" "0:ipc_lock owner=0 group=29 mode=0110 granted=group" "revoke --user: owner back to root"
expect 0 'ipc_lock is not granted to group ucaudio: nothing to revoke' "revoke of what is not granted exits 0" "$uc" revoke ipc_lock --group ucaudio
run "$uc" revoke ipc_lock --group audio
is "$rc:$(cap_line ipc_lock)" "0:ipc_lock owner=0 group=0 mode=0100 granted=none" "revoke --group"
run "$uc" revoke sys_resource
is "$rc:$(cap_line sys_resource)" "0:sys_resource owner=0 group=0 mode=0100 granted=none" "revoke without a target: default"

# Errors
before=$(cat "$policy/grants")
expect 3 "unknown capability 'sys_nicer'" "unknown capability: exit 3" "$uc" grant sys_nicer --group audio
expect 3 "unknown capability 'cap_cap_sys_nice'" "cap_cap_sys_nice is unknown" "$uc" check cap_cap_sys_nice
expect 4 "unknown user 'no-such-user'" "unknown user: exit 4" "$uc" grant sys_nice --user no-such-user
expect 4 "unknown group 'no-such-group'" "unknown group: exit 4" "$uc" grant sys_nice --group no-such-group
expect 4 "unknown user 'no-such-user'" "check: unknown user: exit 4" "$uc" check sys_nice --user no-such-user
expect 2 'grant needs --user, --group or --other' "grant without a target: exit 2" "$uc" grant sys_nice
expect 2 "user root: .*owner bit of a root-owned file never grants" "grant to user root: exit 2" "$uc" grant sys_nice --user root
expect 2 'one of --user, --group, --other at most' "two targets: exit 2" "$uc" revoke sys_nice --user ucbob --group audio
expect 2 'unknown COMMAND' "unknown command: exit 2" "$uc" frobnicate
expect 5 'changing the policy needs root' "grant as uid 2001: exit 5" "${as_uid_2001[@]}" "$uc" grant ipc_lock --group audio
expect 5 'changing the policy needs root' "apply as uid 2001: exit 5" "${as_uid_2001[@]}" "$uc" apply "$conf"
expect 0 '' "list as uid 2001 works" "${as_uid_2001[@]}" "$uc" list
expect 0 '^ipc_lock: root:root 0100 -> root:audio 0110$' "apply --dry-run as uid 2001 works" "${as_uid_2001[@]}" "$uc" apply --dry-run "$conf"
expect 7 'refusing to grant sys_admin without --force: its holder .*root-equivalent' "grant sys_admin without --force: exit 7" "$uc" grant sys_admin --group ucaudio
run "$uc" grant CAP_FOWNER --user ucbob
contains "$rc:$out" '^7:.*fowner.*can chmod any file' "grant fowner: refused, it can chmod any file"
expect 10 'ipc_lock: Operation not permitted: changing the usercaps policy needs CAP_MAC_ADMIN' \
	"root without CAP_MAC_ADMIN (nor CAP_FOWNER): the kernel refuses, exit 10" \
	setpriv --bounding-set -mac_admin,-fowner "$uc" grant ipc_lock --group audio
is "$(cat "$policy/grants")" "$before" "refused and failed commands changed nothing"
expect 0 'warning: granting sys_admin' "grant sys_admin --force: exit 0" "$uc" grant sys_admin --group ucaudio --force
is "$(cap_line sys_admin)" "sys_admin owner=0 group=2000 mode=0110 granted=group" "... and granted"
expect 0 '' "revoke sys_admin" "$uc" revoke sys_admin

# apply: all or nothing
run "$uc" show-config
saved=$out
before=$(cat "$policy/grants")
printf '%s\n' '# good lines first' 'ipc_lock group ucaudio' 'sys_time user ucbob' 'sys_nice grup audio' >/tmp/bad-last.conf
expect 8 '^usercapsctl: /tmp/bad-last.conf:4: expected' "apply: a bad last line: exit 8" "$uc" apply /tmp/bad-last.conf
is "$(cat "$policy/grants")" "$before" "apply: a bad last line leaves the policy exactly as before"
printf '%s\n' 'ipc_lock group nosuchgroup' 'bogus_cap user ucbob' 'sys_nice group audio extra' 'sys_nice group ucaudio' 'sys_nice group audio' 'sys_admin group audio' 'sys_module group audio force' >/tmp/many-bad.conf
expect 4 'many-bad.conf:1: unknown group' "apply: exit status of the first error (unknown group)" "$uc" apply /tmp/many-bad.conf
contains "$out" "many-bad.conf:2: unknown capability 'bogus_cap'" "apply: line 2, unknown capability"
contains "$out" "many-bad.conf:3: 'sys_nice group' takes one name" "apply: line 3, extra word"
ok "$(printf '%s\n' "$out" | grep -q 'many-bad.conf:5:'; [ $? = 1 ]; echo $?)" "apply: line 5, a second group, overrides line 4 without an error"
contains "$out" "many-bad.conf:6: refusing to grant sys_admin without 'force'" "apply: line 6, dangerous without force"
ok "$(printf '%s\n' "$out" | grep -q 'many-bad.conf:7:'; [ $? = 1 ]; echo $?)" "apply: line 7 (with force) is fine"
is "$(cat "$policy/grants")" "$before" "apply: many bad lines change nothing"

# A failure part-way: sys_time, after sys_nice, is a read-only file.
: >/tmp/ro && chmod 0100 /tmp/ro && mount --bind /tmp/ro "$policy/sys_time" &&
	mount -o remount,bind,ro "$policy/sys_time"
ok $? "make sys_time read-only with a bind mount"
printf '%s\n' 'sys_nice group ucbob' 'sys_time group ucbob' >/tmp/partway.conf
expect 9 'sys_time: Read-only file system' "apply: a change that fails part-way: exit 9" "$uc" apply /tmp/partway.conf
contains "$out" 'rolled back: the policy is as it was before' "... and rolls back"
umount "$policy/sys_time"
is "$(cat "$policy/grants")" "$before" "apply: after the failure the policy is exactly as before"

# apply: the whole policy, and the show-config round trip
printf '# nothing\n' >/tmp/empty.conf
run "$uc" apply /tmp/empty.conf
is "$rc:$(cat "$policy/grants")" "0:" "apply of a file with no grants resets everything"
printf '%s\n' "$saved" >/tmp/saved.conf
expect 0 '' "apply of show-config's output" "$uc" apply /tmp/saved.conf
is "$(cat "$policy/grants")" "$before" "show-config -> apply round-trips the kernel's state"
run "$uc" show-config
is "$out" "$saved" "show-config after apply is the same file"
printf '%s\n' 'sys_module group ucaudio force  # acknowledged' | "$uc" apply -
is "$?:$(cap_line sys_module)" "0:sys_module owner=0 group=2000 mode=0110 granted=group" "apply - reads stdin; 'force' on the line acknowledges"
run "$uc" show-config
contains "$out" '^sys_module group ucaudio force$' "show-config writes 'force' for dangerous grants"

# Issue 28 on the real kernel: a revoke that leaves the user holding the
# capability says so (12), and the probe agrees; show-config | apply - is
# the identity where revoke left a user out ('excluded'), and save
# writes what apply takes back.
"$uc" grant sys_nice --group ucaudio 2>/dev/null
expect 12 'sys_nice is not granted to user ucalice, but ucalice still holds it through group ucaudio' \
	"revoke --user ucalice, who holds sys_nice through group ucaudio: exit 12" "$uc" revoke sys_nice --user ucalice
run as_user 2001 2001 2000 "$probe"
contains "$out" '^nice=ok ' "... and ucalice, in group ucaudio, may nice indeed"
"$uc" grant sys_nice --user ucbob 2>/dev/null && "$uc" grant sys_nice --other 2>/dev/null &&
	"$uc" revoke sys_nice --user ucbob
is "$?:$(cap_line sys_nice)" "0:sys_nice owner=2002 group=2000 mode=0011 granted=group,other" \
	"grant ucbob, grant other, revoke ucbob: ucbob owns sys_nice without u+x"
run as_user 2002 2002 - "$probe"
contains "$out" '^nice=EACCES ' "... so ucbob may not nice"
run "$uc" show-config
contains "$rc:$out" '^0:' "show-config of that state: exit 0"
contains "$out" '^sys_nice user ucbob excluded$' "... ucbob excluded"
before=$(cat "$policy/grants")
"$uc" show-config | "$uc" apply - 2>/dev/null
is "$?:$(cat "$policy/grants")" "0:$before" "show-config | apply - is the identity"
run as_user 2002 2002 - "$probe"
contains "$out" '^nice=EACCES ' "... and ucbob still may not nice"
expect 0 '' "save /tmp/saved-by-save.conf" "$uc" save /tmp/saved-by-save.conf
is "$(stat -c '%U %a' /tmp/saved-by-save.conf)" "root 644" "... root's, mode 0644"
"$uc" apply /tmp/empty.conf && "$uc" apply /tmp/saved-by-save.conf 2>/dev/null
is "$?:$(cat "$policy/grants")" "0:$before" "... and apply of it restores the policy"
"$uc" apply /tmp/saved.conf 2>/dev/null

# The zero-code alternative of usercaps.rst: systemd-tmpfiles z lines.
printf 'z %s/sys_time 0110 root ucaudio -\n' "$policy" >/tmp/usercaps-tmpfiles.conf
run systemd-tmpfiles --create /tmp/usercaps-tmpfiles.conf
is "$rc:$(cap_line sys_time)" "0:sys_time owner=0 group=2000 mode=0110 granted=group" \
	"systemd-tmpfiles: a z line sets a capability file's group and mode"
"$uc" apply "$conf" 2>/dev/null
is "$?" 0 "apply the audio example again"
echo "# usercapsctl list, audio example applied:"
"$uc" list | sed 's/^/#   /'
echo "# list before the commands above, after the boot-time apply:"
printf '%s\n' "$list_out" | grep -v ' -$' | sed 's/^/#   /'
plan "$tap_count"
[ "$tap_failed" = 0 ]
