#!/bin/bash
# usercapsctl on the host, no kernel needed: USERCAPS_SECURITYFS points it
# at a fake securityfs of ordinary files, one per capability of the
# kernel headers. Usage errors, name spellings, policy-file errors with
# their line numbers, the --force rule, inactive usercaps, apply and
# show-config, and the man page, unit and install target.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/usercapsctl-lib.sh"
cd "$repo_dir"
build_usercapsctl
header=/usr/include/linux/capability.h
[ -r "$header" ] || bail_out "no $header: install linux-libc-dev"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"	# the not-root tests read it as nobody
# The test build finds securityfs, /run and /etc under USERCAPS_TEST_ROOT.
export USERCAPS_TEST_ROOT=$tmp/root
securityfs=$USERCAPS_TEST_ROOT/sys/kernel/security
dir=$securityfs/usercaps
mkdir -p "$dir" "$USERCAPS_TEST_ROOT/run" "$USERCAPS_TEST_ROOT/etc"
echo capability,usercaps,apparmor >"$securityfs/lsm"
caps=$(sed -nE 's/^#define CAP_([A-Z_]+)[[:space:]]+[0-9]+.*/\L\1/p' "$header")
for cap in $caps; do
	install -m 0100 /dev/null "$dir/$cap"
done
install -m 0444 /dev/null "$dir/grants"
install -m 0444 /dev/null "$dir/mode"

# run ARGS... - usercapsctl-test ARGS: stdout+stderr in $out, status in $rc.
run() {
	rc=0
	out=$("$usercapsctl_test" "$@" 2>&1) || rc=$?
}

# run_faulty FAULTS ARGS... - run, with USERCAPS_FAULT=FAULTS (fault.c).
run_faulty() {
	local faults=$1
	shift
	rc=0
	out=$(USERCAPS_FAULT=$faults LD_PRELOAD=$usercapsctl_fault "$usercapsctl_test" "$@" 2>&1) || rc=$?
}

# as_nobody CMD... - CMD as uid and gid 65534, without groups.
as_nobody() {
	setpriv --reuid 65534 --regid 65534 --clear-groups "$@"
}

# state - every fake capability file's owner, group and mode.
state() {
	stat -c '%n %u %g %a' "$dir"/*
}

# reset_policy - every capability back to root:root 0100.
reset_policy() {
	for cap in $caps; do
		rm -f "$dir/$cap"
		install -m 0100 /dev/null "$dir/$cap"
	done
}

# status_is WANT DESCRIPTION - $rc is WANT; shows $out otherwise.
status_is() {
	is "$rc" "$1" "$2"
	[ "$rc" = "$1" ] || printf '%s\n' "$out" | sed 's/^/#     /'
}


run --help
status_is 0 "--help exits 0"
contains "$out" 'show-config' "--help lists the commands"
for bad in "" "frob" "list --bogus" "list --force" "check sys_nice --group audio" \
	"grant sys_nice" "grant sys_nice --user alice --group audio" "grant" \
	"revoke sys_nice extra" "lint --dry-run" "apply --json" "grant sys_nice --user"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run $bad
	status_is 2 "usage error exits 2: usercapsctl $bad"
done
contains "$out" 'usercapsctl --help shows the usage' "a usage error says where the usage is"

is "$(printf '%s\n' "$caps" | wc -w)" 41 "the fake tree has the 41 capabilities of Linux 6.1"
for spelling in sys_nice SYS_NICE CAP_SYS_NICE cap_sys_nice Cap_Sys_Nice; do
	run apply --dry-run - <<<"$spelling group 29"
	is "$rc:$out" "0:sys_nice: root:root 0100 -> root:audio 0110" "the spelling $spelling names sys_nice"
done
for unknown in sys_nicer cap_ mode grants CAP_CAP_SYS_NICE ""; do
	run check "$unknown"
	status_is 3 "'$unknown' is an unknown capability: exit 3"
done
run check sys_nice --user no-such-user
status_is 4 "unknown user: exit 4"

before=$(state)
cat >"$tmp/bad.conf" <<'CONF'
# comment, then a blank line

sys_nice group audio   # a trailing comment
ipc_lock grop audio
sys_resource
sys_nice other extra
sys_time user no-such-user
sys_nicer group audio
sys_rawio group audio
ipc_lock group 29 force extra
CONF
run apply "$tmp/bad.conf"
status_is 8 "apply: a bad file exits with its first error's status (syntax, 8)"
contains "$out" "bad.conf:4: expected 'CAP user NAME'" "line 4: unknown class"
contains "$out" "bad.conf:5: expected" "line 5: no class"
contains "$out" "bad.conf:6: 'sys_nice other' takes nothing" "line 6: extra word"
contains "$out" "bad.conf:7: unknown user 'no-such-user'" "line 7: unknown user"
contains "$out" "bad.conf:8: unknown capability 'sys_nicer'" "line 8: unknown capability"
contains "$out" "bad.conf:9: refusing to grant sys_rawio without 'force'.*root-equivalent" "line 9: dangerous, says why"
contains "$out" "bad.conf:10: 'ipc_lock group' takes one name or number" "line 10: a word after force"
ok "$(printf '%s\n' "$out" | grep -qE 'bad.conf:[123]:'; [ $? = 1 ]; echo $?)" "lines 1-3 (comments, blank, good) are fine"
contains "$out" "^usercapsctl: nothing changed$" "says nothing changed"
is "$(state)" "$before" "a bad file changes nothing"
run apply "$tmp/no-such.conf"
status_is 8 "a missing policy file: exit 8"

printf 'sys_module group audio\n' >"$tmp/danger.conf"
run apply "$tmp/danger.conf"
status_is 7 "apply: a dangerous line without force: exit 7"
run apply --force "$tmp/danger.conf"
status_is 0 "apply --force accepts it"
run grant sys_ptrace --user nobody
status_is 7 "grant sys_ptrace: exit 7"
run grant sys_ptrace --user nobody --force
status_is 0 "grant --force: exit 0"
contains "$out" '^usercapsctl: warning: granting sys_ptrace to user nobody: its holder can ptrace' "... with a warning"

printf '%s\n' 'sys_nice group audio' 'sys_nice user nobody' 'ipc_lock other' >"$tmp/audio.conf"
run apply "$tmp/audio.conf"
status_is 0 "apply a policy"
is "$(stat -c '%U %G %a' "$dir/sys_nice" "$dir/ipc_lock" "$dir/sys_module")" "nobody audio 110
root root 101
root root 100" "apply sets what it lists and resets what it does not"
run show-config
printf '%s\n' "$out" >"$tmp/shown.conf"
contains "$out" '^sys_nice user nobody$' "show-config: the user line"
before=$(state)
run apply "$tmp/shown.conf"
is "$rc:$(state)" "0:$before" "show-config's output applies, and changes nothing"
run show-config
is "$out" "$(cat "$tmp/shown.conf")" "show-config -> apply round-trips"
chmod 0010 "$dir/sys_nice"
run show-config
contains "$out" '^# note: sys_nice is owner=nobody group=audio mode=0010; the lines above make it owner=root group=audio mode=0110$' \
	"show-config notes what a policy file cannot say"
run list --json
python3 -m json.tool <<<"$out" >/dev/null
ok $? "list --json is valid JSON"

run list
contains "$out" '^sys_nice +nobody +audio +0010  group audio \(not user nobody\)$' "list: an excluded owner"
rc=0
out=$(as_nobody "$usercapsctl_test" grant sys_nice --other 2>&1) || rc=$?
status_is 5 "grant as uid 65534: exit 5"

# Finding 5: revoke never grants.
chown 65534:29 "$dir/sys_nice" && chmod 0011 "$dir/sys_nice"
run revoke sys_nice --user nobody
is "$rc:$(stat -c '%u %g %a' "$dir/sys_nice")" "0:65534 29 11" \
	"revoke --user nobody of 'everyone but nobody' (0011) changes nothing"
contains "$out" 'not granted to user nobody: nothing to revoke' "... and says nobody holds nothing to revoke"
chmod 0111 "$dir/sys_nice"
run revoke sys_nice --user nobody
is "$rc:$(stat -c '%u %g %a' "$dir/sys_nice")" "0:65534 29 11" \
	"revoke --user nobody of nobody+group+others (0111) leaves nobody out (0011), not root-owned 0111"
run check sys_nice --user nobody
status_is 1 "... and check says nobody does not hold it"
reset_policy

# Finding 1: a lock that only root can take.
# shellcheck disable=SC2016 # for the inner sh
as_nobody sh -c 'exec 9<"$1" && flock -s 9 && exec sleep 30' sh "$dir" >/dev/null 2>&1 &
holder=$!
sleep 0.3
rc=0
out=$(timeout 5 "$usercapsctl_test" grant sys_nice --group audio 2>&1) || rc=$?
status_is 0 "grant does not wait for nobody's flock on the policy directory"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || :
lock=$USERCAPS_TEST_ROOT/run/usercapsctl.lock
is "$(stat -c '%U %a %F' "$lock" 2>&1)" "root 600 regular empty file" "the lock is run/usercapsctl.lock, root's, mode 0600"
rc=0
as_nobody flock -n -s "$lock" true 2>/dev/null || rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "nobody cannot take the lock"
install -m 0644 /dev/null "$lock"
before=$(state)
run grant ipc_lock --group audio
status_is 9 "a lock file that others can open: exit 9"
contains "$out" "lock .*usercapsctl.lock: not a regular file of root's with mode 0600.*remove it" "... says why and what to do"
is "$(state)" "$before" "... and changes nothing"
rm -f "$lock" && ln -s "$tmp/elsewhere" "$lock"
run grant ipc_lock --group audio
status_is 9 "a symlink at the lock's path: exit 9"
ok "$([ ! -e "$tmp/elsewhere" ]; echo $?)" "... not followed"
rm -f "$lock"
reset_policy

# Finding 2: exit statuses that tell the truth (fault.c injects the failures).
run_faulty fchownat:1:fifo grant sys_nice --user nobody
status_is 11 "a capability file that stops being one after chown: exit 11, not 0"
contains "$out" 'sys_nice: no longer a regular file' "... says so"
reset_policy
printf '%s\n' 'ipc_lock group audio' 'sys_nice group audio' >"$tmp/two.conf"
run_faulty fchmodat:2:EIO apply "$tmp/two.conf"
status_is 9 "a chmod that fails part-way: exit 9"
contains "$out" 'rolled back: the policy is as it was before' "... rolled back"
is "$(state)" "$(reset_policy; state)" "... and it is"
run_faulty fchmodat:2:EIO,fchmodat:3:EIO apply "$tmp/two.conf"
status_is 11 "a failure whose rollback fails too: exit 11, not 9"
contains "$out" "ipc_lock: cannot roll back: Input/output error; the policy is now mixed" "... says the policy is mixed"
ok "$(printf '%s\n' "$out" | grep -q 'rolled back'; [ $? = 1 ]; echo $?)" "... and does not say 'rolled back'"
reset_policy
run_faulty fchownat:1:EPERM grant sys_nice --group audio
status_is 10 "the kernel refuses a change (EPERM) to root: exit 10, not 5 'not root'"
contains "$out" 'sys_nice: Operation not permitted: changing the usercaps policy needs CAP_MAC_ADMIN' "... says CAP_MAC_ADMIN is needed"

# Finding 4: hostile and sloppy files.
install -m 0600 /dev/null "$tmp/victim"
run_faulty fchmodat:1:symlink="$tmp/victim" grant sys_nice --group audio
is "$(stat -c %a "$tmp/victim")" 600 "chmod does not follow a symlink put in place of a capability file"
ok "$([ "$rc" != 0 ]; echo $?)" "... and fails (exit $rc)"
reset_policy
install -m 0444 -o 65534 /dev/null "$dir/frobnicate"
mkdir "$dir/newdir"
run apply "$tmp/two.conf"
status_is 0 "apply works beside a file and a directory it does not know"
is "$(stat -c '%u %a' "$dir/frobnicate")" "65534 444" "... and leaves the unknown file alone"
run list
ok "$(printf '%s\n' "$out" | grep -q frobnicate; [ $? = 1 ]; echo $?)" "list does not show it"
rm -r "$dir/frobnicate" "$dir/newdir"
reset_policy
before=$(state)
install -m 0644 -o 65534 "$tmp/two.conf" "$tmp/nobodys.conf"
run apply "$tmp/nobodys.conf"
status_is 8 "a policy file owned by nobody: exit 8"
contains "$out" 'nobodys.conf: owned by uid 65534, not root: refused' "... says whose it is"
install -m 0664 "$tmp/two.conf" "$tmp/group-writable.conf"
run apply "$tmp/group-writable.conf"
contains "$rc:$out" '^8:.*group-writable.conf: mode 0664, writable by its group: refused' "a group-writable policy file: exit 8"
install -m 0646 "$tmp/two.conf" "$tmp/world-writable.conf"
run apply --force "$tmp/world-writable.conf"
contains "$rc:$out" '^8:.*world-writable.conf: mode 0646, writable by every user: refused' "a world-writable one, even with --force: exit 8"
printf 'sys_nice group audio\nipc_lock group audio\0 junk\n' >"$tmp/nul.conf"
run apply "$tmp/nul.conf"
contains "$rc:$out" '^8:.*nul.conf:2: a NUL byte' "a NUL byte: exit 8, with file:line"
printf '\xef\xbb\xbfsys_nice group audio\n' >"$tmp/bom.conf"
run apply "$tmp/bom.conf"
contains "$rc:$out" '^8:.*bom.conf:1: a UTF-8 byte order mark' "a UTF-8 BOM: exit 8, with file:line"
{ printf 'sys_nice group audio\nipc_lock user '; head -c 10485760 /dev/zero | tr '\0' a; echo; } >"$tmp/huge.conf"
run apply "$tmp/huge.conf"
contains "$rc:$out" '^8:.*huge.conf:2: a user name of 10485760 bytes: longer than 256' "a 10 MB name: exit 8, with file:line"
run grant sys_nice --user "$(head -c 100000 /dev/zero | tr '\0' a)"
contains "$rc:$out" '^2:.*a user name of 100000 bytes' "a 100 kB --user: exit 2"
is "$(state)" "$before" "none of these changed anything"
rc=0
out=$(USERCAPS_SECURITYFS=$securityfs "$usercapsctl" list 2>&1) || rc=$?
contains "$rc:$out" '^6:.* /sys/kernel/security/lsm' "the production build ignores USERCAPS_SECURITYFS (reads /sys/kernel/security)"
rc=0
out=$("$usercapsctl" list 2>&1) || rc=$?
contains "$rc:$out" '^6:.* /sys/kernel/security/lsm' "... and USERCAPS_TEST_ROOT"

# Finding 3: names and ids round-trip exactly. A private mount namespace
# shows usercapsctl a passwd and group with awkward names.
long=$(printf 'l%.0s' $(seq 87)) prefix=$(printf 'l%.0s' $(seq 63))
cp /etc/passwd "$tmp/passwd" && cp /etc/group "$tmp/group"
for entry in "$long:3001" "$prefix:3002" "4321:3003" "a b:3004" "x#y:3005" "ümlaut:3006" \
	"dup:3007" "dup:3008" "+plus:3009"; do
	printf '%s:x:%s:65534::/:/bin/false\n' "${entry%:*}" "${entry##*:}" >>"$tmp/passwd"
done
for entry in "$long:3101" "$prefix:3102" "group with space:3103"; do
	printf '%s:x:%s:\n' "${entry%:*}" "${entry##*:}" >>"$tmp/group"
done
# with_ids CMD... - CMD, seeing the passwd and group above.
# shellcheck disable=SC2016 # for the inner sh
with_ids() {
	unshare --mount --propagation private sh -c \
		'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group && shift 2 && exec "$@"' \
		sh "$tmp/passwd" "$tmp/group" "$@"
}
set_owner() { chown "$2" "$dir/$1" && chmod "$3" "$dir/$1"; }
set_owner sys_nice 3001 0100; set_owner ipc_lock 4321 0100; set_owner sys_time 3003 0100
set_owner net_broadcast 3004 0100; set_owner lease 3005 0100; set_owner sys_chroot 3006 0100
set_owner sys_pacct 3008 0100; set_owner sys_tty_config 3009 0100
set_owner net_bind_service 0:3101 0110; set_owner wake_alarm 0:3103 0110
set_owner block_suspend 0:4321 0110; set_owner audit_write 3002:3102 0111
awkward=$(state)
rc=0
out=$(with_ids "$usercapsctl_test" show-config 2>&1) || rc=$?
printf '%s\n' "$out" >"$tmp/awkward.conf"
contains "$out" "^sys_nice user $long\$" "show-config: an 87-byte name in full"
contains "$out" '^ipc_lock user \+4321$' "show-config: +N for a uid without an entry"
contains "$out" '^sys_time user 4321$' "show-config: the user named 4321 by its name"
contains "$out" '^net_broadcast user \+3004$' "show-config: +N for a name with a blank"
contains "$out" '^lease user \+3005$' "show-config: +N for a name with #"
contains "$out" '^sys_chroot user ümlaut$' "show-config: a UTF-8 name"
contains "$out" '^sys_pacct user \+3008$' "show-config: +N for a name that looks up another uid"
contains "$out" '^sys_tty_config user \+3009$' "show-config: +N for a name that starts with +"
contains "$out" '^wake_alarm group \+3103$' "show-config: +N for a group name with blanks"
: >"$tmp/nothing.conf"
"$usercapsctl_test" apply "$tmp/nothing.conf" || :
rc=0
out=$(with_ids "$usercapsctl_test" apply "$tmp/awkward.conf" 2>&1) || rc=$?
is "$rc:$(state)" "0:$awkward" "show-config -> apply is the identity, awkward names and all"
contains "$out" "awkward.conf:[0-9]+: warning: user 4321 has no passwd entry" "... warning of the uid without an entry"
rc=0
out=$(with_ids "$usercapsctl_test" show-config 2>&1) || rc=$?
is "$out" "$(cat "$tmp/awkward.conf")" "... and show-config says the same again"
reset_policy
with_ids "$usercapsctl_test" grant sys_nice --user 4321 2>/dev/null || :
with_ids "$usercapsctl_test" grant ipc_lock --user +3003 2>/dev/null || :
with_ids "$usercapsctl_test" grant sys_time --user +3002 2>/dev/null || :
is "$(stat -c %u "$dir/sys_nice" "$dir/ipc_lock" "$dir/sys_time")" "3003
3003
3002" "--user 4321 is the user named 4321; +3003 is uid 3003; +N is never a name"
reset_policy

plan "$tap_count"
[ "$tap_failed" = 0 ]
