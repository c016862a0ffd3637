#!/bin/bash
# usercapsctl on the host, no kernel needed: USERCAPS_SECURITYFS points it
# at a fake securityfs of ordinary files, one per capability of the
# kernel headers. Usage errors, name spellings, policy-file errors with
# their line numbers, the --force rule, inactive usercaps, apply and
# show-config, and the man page, unit and install target; then issue 28:
# never lose, widen or half-apply a grant.
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

# run_faulty FAULTS ARGS... - run, with USERCAPS_FAULT=FAULTS (tests/usercapsctl-fault.c).
# The signals it sends take their default action whatever this script
# inherited: a shell started in the background ignores SIGINT, and so
# would the tool (0, not 130, for a ^C mid-apply).
run_faulty() {
	local faults=$1
	shift
	rc=0
	out=$(env --default-signal=INT,TERM,HUP USERCAPS_FAULT="$faults" LD_PRELOAD="$usercapsctl_fault" \
		"$usercapsctl_test" "$@" 2>&1) || rc=$?
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
# shellcheck disable=SC2086 # one word per capability
reset_policy() {
	(cd "$dir" && rm -f $caps && touch $caps && chmod 0100 $caps)
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
contains "$out" '^sys_nice user nobody excluded$' "show-config: an owner without u+x is 'user NAME excluded'"
run list --json
python3 -m json.tool <<<"$out" >/dev/null
ok $? "list --json is valid JSON"

run list
contains "$out" '^sys_nice +nobody +audio +0010  group audio \(not user nobody\)$' "list: an excluded owner"
rc=0
out=$(as_nobody "$usercapsctl_test" grant sys_nice --other 2>&1) || rc=$?
status_is 5 "grant as uid 65534: exit 5"

# Finding 6: the system configuration, with drop-ins; at boot, bad lines
# are skipped; lint without the kernel.
etc=$USERCAPS_TEST_ROOT/etc
mkdir -p "$etc/usercaps.d"
printf 'sys_nice group audio\n' >"$etc/usercaps.conf"
printf 'sys_time group audio\n' >"$etc/usercaps.d/20-time.conf"
printf 'ipc_lock group audio\nsys_time other\n' >"$etc/usercaps.d/10-lock.conf"
for ignored in README .hidden.conf 10-lock.conf.dpkg-old; do
	printf 'this is not a policy line\n' >"$etc/usercaps.d/$ignored"
done
run apply
status_is 0 "apply without FILE: usercaps.conf and usercaps.d/*.conf, nothing else"
is "$(stat -c '%n %G %a' "$dir/ipc_lock" "$dir/sys_nice" "$dir/sys_time" | sed 's|.*/||')" "ipc_lock audio 110
sys_nice audio 110
sys_time audio 111" "... merged: every file's lines"
printf 'sys_nice group adm\n' >"$etc/usercaps.d/30-override.conf"
run apply
is "$rc:$(stat -c %G "$dir/sys_nice")" "0:adm" "a later drop-in's line for sys_nice's group overrides the earlier one, as in sysctl.d"
before=$(state)
printf 'sys_resource group no-such-group\nkill group audio force\n' >"$etc/usercaps.d/40-ldap.conf"
run apply
is "$rc:$(state)" "4:$before" "interactive apply with an unknown group: all or nothing"
run apply --boot
status_is 4 "apply --boot: the status of the first bad line"
contains "$out" '40-ldap.conf:1: unknown group .no-such-group.' "... reports it with file:line"
contains "$out" '1 bad line or file skipped; the rest is applied' "... says the rest is applied"
is "$(stat -c '%n %G %a' "$dir/kill" "$dir/sys_nice" "$dir/sys_resource" | sed 's|.*/||')" "kill audio 110
sys_nice adm 110
sys_resource root 100" "... and applies it: kill granted"

# Issue 31: run by systemd (JOURNAL_STREAM names standard error), each
# message starts with its journal priority; a boot's apply says what it
# changed, on standard output.
# journal_run ARGS... - run, with standard error a file that JOURNAL_STREAM
# names (or $stream when set): stdout in $out, stderr in $journal.
journal_run() {
	: >"$tmp/journal"
	rc=0
	out=$(JOURNAL_STREAM=${stream:-$(stat -c '%d:%i' "$tmp/journal")} \
		"$usercapsctl_test" "$@" 2>"$tmp/journal") || rc=$?
	journal=$(cat "$tmp/journal")
}
reset_policy
journal_run apply --boot
contains "$journal" '^<3>usercapsctl: .*40-ldap.conf:1: unknown group .no-such-group.' \
	"journal: a bad line at boot is an error, <3>"
contains "$journal" '^<4>usercapsctl: 1 bad line or file skipped; the rest is applied$' \
	"journal: the line that says the rest is applied is a warning, <4>"
is "$(grep -cv '^<[34]>' <<<"$journal")" 0 "journal: every message has a priority"
contains "$out" '^kill: root:root 0100 -> root:audio 0110$' "apply --boot prints what it changed"
printf '%s\n' 'sys_nice group audio' 'ipc_lock group audio' >"$tmp/boot.conf"
journal_run apply --boot "$tmp/boot.conf"
is "$rc:$out:$journal" "0:kill: root:audio 0110 -> root:root 0100
sys_nice: root:adm 0110 -> root:audio 0110
sys_time: root:audio 0111 -> root:root 0100:" "apply --boot of a good file: each change, nothing on stderr"
journal_run apply --boot "$tmp/boot.conf"
is "$rc:$out" "0:no change: the policy already is what the files say" "apply --boot again: no change, and says so"
journal_run apply "$etc/usercaps.d/40-ldap.conf"
contains "$journal" '^<3>usercapsctl: nothing changed$' "journal: an interactive apply's failure is an error too"
stream=0:0 journal_run apply "$etc/usercaps.d/40-ldap.conf"
contains "$journal" '^usercapsctl: nothing changed$' "a JOURNAL_STREAM that is not standard error's: no prefix"
reset_policy
run apply "$tmp/boot.conf"
is "$rc:$out" "0:" "an interactive apply that succeeds prints nothing"
reset_policy
chmod 0666 "$etc/usercaps.d/40-ldap.conf"
run apply --boot
status_is 8 "apply --boot with an unsafe drop-in: exit 8"
contains "$out" '40-ldap.conf: mode 0666, writable by others than its owner: refused' "... which is refused"
is "$(stat -c '%G %a' "$dir/kill" "$dir/sys_nice")" "root 100
adm 110" "... and its lines are not applied, the others are"
rm -r "$etc/usercaps.conf" "$etc/usercaps.d"
reset_policy
rc=0
out=$(USERCAPS_TEST_ROOT=$tmp/no-kernel "$usercapsctl_test" lint "$tmp/audio.conf" "$tmp/danger.conf" 2>&1) || rc=$?
status_is 7 "lint without the kernel: the status of the first error"
contains "$out" "danger.conf:1: refusing to grant sys_module" "... with file:line"
rc=0
printf 'sys_nice group audio\n' >"$tmp/good.conf"
out=$(USERCAPS_TEST_ROOT=$tmp/no-kernel "$usercapsctl_test" lint "$tmp/good.conf" 2>&1) || rc=$?
is "$rc:$out" "0:# read $tmp/good.conf" "lint of a good file without the kernel: exit 0, names the file"
install -m 0644 -o 65534 /dev/null "$tmp/nobodys.conf"
run lint "$tmp/nobodys.conf"
status_is 8 "lint refuses what apply would refuse"
run --version
contains "$rc:$out" '^0:usercapsctl [0-9]+\.[0-9]+' "--version"

# Finding 7: risk tiers: warnings for broad capabilities, for other and
# for root's group.
for cap in net_admin net_raw perfmon sys_resource ipc_owner syslog audit_read kill; do
	run grant "$cap" --group audio
	contains "$rc:$out" "^0:usercapsctl: warning: granting $cap to group audio: its holder can " "grant $cap: exit 0, with a warning"
done
run grant sys_nice --other
contains "$rc:$out" '^0:usercapsctl: warning: granting sys_nice to other: it reaches every user' "grant --other: a warning"
run grant sys_time --group root
contains "$rc:$out" "^0:usercapsctl: warning: granting sys_time to group root: root's group reaches" "grant --group root: a warning"
run grant ipc_lock --group audio
is "$rc:$out" "0:" "grant ipc_lock: silent"
printf '%s\n' 'net_raw group audio' 'syslog group audio force' 'sys_nice other' >"$tmp/broad.conf"
run lint "$tmp/broad.conf"
contains "$rc:$out" "^0:.*broad.conf:1: warning: granting net_raw to group audio: its holder can send and capture raw packets.*'force' at the end of the line acknowledges it" \
	"lint: a warning with file:line"
contains "$out" "broad.conf:3: warning: granting sys_nice to other" "lint: other, too"
ok "$(printf '%s\n' "$out" | grep -q 'broad.conf:2:'; [ $? = 1 ]; echo $?)" "lint: 'force' on the line silences it"
run grant fowner --user nobody
contains "$rc:$out" '^7:.*fowner without --force: its holder can chmod any file' "fowner: refused, it can chmod any file"
ok "$(printf '%s\n' "$out" | grep -q 'this policy'; [ $? = 1 ]; echo $?)" "... not 'rewrites this policy' (usercaps needs CAP_MAC_ADMIN)"
run grant mac_admin --user nobody
contains "$rc:$out" "^7:.*mac_admin without --force: its holder can load and change AppArmor's policy; usercaps' own files need it in the effective set, where no grant puts it" \
	"mac_admin: refused, it rewrites AppArmor's policy; usercaps' files need it in the effective set"
reset_policy

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
chmod 0110 "$dir/sys_nice"
run revoke sys_nice --user nobody
is "$rc:$(stat -c '%u %g %a' "$dir/sys_nice")" "0:0 29 110" \
	"revoke --user nobody of nobody+group audio (0110), nobody not in audio: root owns it again"
chown 65534:65534 "$dir/sys_nice"
run revoke sys_nice --user nobody
is "$rc:$(stat -c '%u %g %a' "$dir/sys_nice")" "0:65534 65534 10" \
	"revoke --user nobody of nobody+group nogroup (0110), nobody in nogroup: nobody left out (0010)"
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

# Finding 2: exit statuses that tell the truth (tests/usercapsctl-fault.c injects the failures).
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
contains "$rc:$out" '^8:.*group-writable.conf: mode 0664, writable by others than its owner: refused' "a group-writable policy file: exit 8"
install -m 0646 "$tmp/two.conf" "$tmp/world-writable.conf"
run apply --force "$tmp/world-writable.conf"
contains "$rc:$out" '^8:.*world-writable.conf: mode 0646, writable by others than its owner: refused' "a world-writable one, even with --force: exit 8"
printf 'sys_nice group audio\nipc_lock group audio\0 junk\n' >"$tmp/nul.conf"
run apply "$tmp/nul.conf"
contains "$rc:$out" '^8:.*nul.conf:2: a NUL byte' "a NUL byte: exit 8, with file:line"
printf '\xef\xbb\xbfsys_nice group audio\n' >"$tmp/bom.conf"
run apply "$tmp/bom.conf"
contains "$rc:$out" '^8:.*bom.conf:1: a UTF-8 byte order mark' "a UTF-8 BOM: exit 8, with file:line"
{ printf 'sys_nice group audio\nipc_lock user '; head -c 1000000 /dev/zero | tr '\0' a; echo; } >"$tmp/long.conf"
run apply "$tmp/long.conf"
contains "$rc:$out" '^8:.*long.conf:2: a user name of 1000000 bytes: longer than 256' "a 1 MB name: exit 8, with file:line"
{ printf 'sys_nice group audio\nipc_lock user '; head -c 10485760 /dev/zero | tr '\0' a; echo; } >"$tmp/huge.conf"
run apply "$tmp/huge.conf"
contains "$rc:$out" '^8:.*huge.conf: 10485796 bytes, more than the 1048576 of a policy file: refused' "a 10 MB file: exit 8, refused before it is read"
rc=0
out=$(timeout 5 "$usercapsctl_test" apply - </dev/zero 2>&1) || rc=$?
contains "$rc:$out" '^8:.*-: more than the 1048576 bytes of a policy file: refused' "endless standard input: exit 8, after 1 MiB"
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

echo capability,landlock >"$securityfs/lsm"
run list
status_is 6 "usercaps not in lsm: exit 6"
contains "$out" 'lsm lists only capability,landlock \(boot with usercaps in lsm=\)' "... and says what it lists"
echo capability,usercaps,apparmor >"$securityfs/lsm"

MANWIDTH=80 man -l tools/usercapsctl/usercapsctl.8 >/dev/null 2>"$tmp/man.err" &&
	groff -man -ww -z tools/usercapsctl/usercapsctl.8 2>>"$tmp/man.err"
is "$?:$(cat "$tmp/man.err")" "0:" "usercapsctl.8 renders without warnings"
make -s -C tools/usercapsctl install OUT="$usercapsctl_dir" DESTDIR="$tmp/dest" >/dev/null
(cd "$tmp/dest" && find . -type f | sort) >"$tmp/installed"
is "$(cat "$tmp/installed")" "./etc/systemd/system/usercaps.service
./usr/local/sbin/usercapsctl
./usr/local/share/bash-completion/completions/usercapsctl
./usr/local/share/man/man8/usercapsctl.8" "make install puts the binary, man page, completion and unit where the unit looks"
unit=$tmp/dest/etc/systemd/system/usercaps.service
sed "s|^ExecStart=/usr/local/sbin/usercapsctl |ExecStart=$usercapsctl |" "$unit" >"$tmp/usercaps.service"
systemd-analyze verify --man=no "$tmp/usercaps.service" >"$tmp/verify.out" 2>&1
is "$?:$(cat "$tmp/verify.out")" "0:" "systemd-analyze verify accepts usercaps.service"
contains "$(cat "$unit")" '^ConditionPathIsDirectory=/sys/kernel/security/usercaps$' \
	"the unit is skipped, not failed, on a kernel without usercaps"
contains "$(cat "$unit")" '^CapabilityBoundingSet=CAP_MAC_ADMIN CAP_CHOWN CAP_FOWNER$' \
	"the unit's bounding set: CAP_MAC_ADMIN, CAP_CHOWN, CAP_FOWNER"
contains "$(cat "$unit")" '^ExecStart=/usr/local/sbin/usercapsctl apply --boot$' "the unit runs apply --boot"
contains "$(cat "$unit")" '^TimeoutStartSec=90s$' "the unit gives up after 90 s, as systemd does for other units"
make -s -C tools/usercapsctl OUT="$tmp/out-usr" install DESTDIR="$tmp/dest-default" >/dev/null
make -s -C tools/usercapsctl install OUT="$tmp/out-usr" PREFIX=/usr DESTDIR="$tmp/dest-usr" >/dev/null
is "$(sed -n 's/^ExecStart=//p' "$tmp/dest-usr/etc/systemd/system/usercaps.service"):$(cd "$tmp/dest-usr" && ls usr/sbin)" \
	"/usr/sbin/usercapsctl apply --boot:usercapsctl" \
	"make install PREFIX=/usr after a default install: the unit runs /usr/sbin/usercapsctl, where it is"
rebuild=$(make -C tools/usercapsctl OUT="$tmp/out-usr" CFLAGS='-O1 -g' all)
contains "$rebuild" ' -O1 -g .*-o [^ ]*/out-usr/usercapsctl ' "changed CFLAGS rebuild the binary"
is "$(make -s -C tools/usercapsctl OUT="$tmp/out-usr" CFLAGS='-O1 -g' all)" "" "... once"
make -s -C tools/usercapsctl uninstall OUT="$tmp/out-usr" PREFIX=/usr DESTDIR="$tmp/dest-usr" >/dev/null
is "$(cd "$tmp/dest-usr" && find . -type f)" "" "make uninstall removes what make install put"
build=$(make -nB -C tools/usercapsctl OUT="$tmp/out-flags" CPPFLAGS=-D_FORTIFY_SOURCE=2 LDFLAGS=-Wl,-z,now "$tmp/out-flags/usercapsctl")
contains "$build" '-D_FORTIFY_SOURCE=2 .*-Wl,-z,now' "the Makefile honours CPPFLAGS and LDFLAGS"

# complete_words WORD... - what the bash completion offers for the last WORD.
complete_words() {
	# shellcheck disable=SC2016 # for the inner bash
	bash -c '. "$1" && shift && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) &&
		_usercapsctl && printf "%s\n" "${COMPREPLY[@]}"' \
		bash tools/usercapsctl/usercapsctl.bash-completion "$@"
}
is "$(complete_words usercapsctl gr)" grant "completion: commands"
is "$(complete_words "$usercapsctl_test" grant sys_ni)" sys_nice "completion: capabilities, from the policy"
is "$(complete_words usercapsctl grant sys_nice --group audi)" audio "completion: groups"
is "$(complete_words usercapsctl apply --d)" --dry-run "completion: options"
is "$(complete_words usercapsctl ca)" cat-config "completion: cat-config"
is "$(complete_words usercapsctl save --w)" --wait "completion: save --wait"

# Finding 9: waiting for the lock says so, and is bounded (--wait).
# The holder keeps the lock until $tmp/release exists, so that a loaded
# machine cannot let it go before the second grant starts to wait.
reset_policy
rm -f "$tmp/release" "$tmp/held"
# shellcheck disable=SC2016 # for the holder's sh
flock "$lock" sh -c 'touch "$1/held"; while [ ! -e "$1/release" ]; do sleep 0.05; done' sh "$tmp" &
holder=$!
while [ ! -e "$tmp/held" ]; do sleep 0.05; done
before=$(state)
start=$(date +%s%N)
run grant sys_nice --group audio --wait 1
took=$((($(date +%s%N) - start) / 1000000))
status_is 13 "grant --wait 1 while another holds the lock: exit 13"
contains "$out" '^usercapsctl: waiting for .*usercapsctl.lock: another usercapsctl is changing the policy \(at most 1 s, --wait\)$' "... says that it waits, and how long"
contains "$out" 'still held after 1 s; nothing changed' "... then that it gave up"
ok "$([ "$took" -ge 900 ] && [ "$took" -lt 2500 ]; echo $?)" "... after 1 s (took $took ms)"
is "$(state)" "$before" "... and changed nothing"
# Released 1 s after the grant has started.
(for _ in $(seq 200); do pgrep -f -- 'grant sys_nice --group audio --wait 10$' >/dev/null && break; sleep 0.05; done
	sleep 1; touch "$tmp/release") &
run grant sys_nice --group audio --wait 10
contains "$rc:$out" "^0:usercapsctl: waiting for " "grant --wait 10: waits for the holder, then grants"
wait "$holder"
run grant sys_nice --group audio --wait x
status_is 2 "--wait takes a number of seconds"
reset_policy

# Finding 6: apply is one transaction. A signal mid-apply takes effect
# after it, a closed stderr does not stop the rollback, and the rollback
# goes on past a step that fails.
reset_policy
run_faulty fchmodat:2:SIGINT apply "$tmp/two.conf"
is "$rc:$(stat -c '%G %a' "$dir/ipc_lock" "$dir/sys_nice" | tr '\n' ' ')" "130:audio 110 audio 110 " \
	"SIGINT mid-apply: the apply completes, then the signal ends it (130)"
reset_policy
run_faulty fchownat:2:SIGTERM,fchmodat:2:EIO apply "$tmp/two.conf"
is "$rc:$(state)" "143:$(reset_policy; state)" "SIGTERM, then a failure mid-apply: rolled back, then the signal ends it (143)"
reset_policy
rc=0
# shellcheck disable=SC2016 # for python
USERCAPS_FAULT=fchmodat:2:EIO LD_PRELOAD=$usercapsctl_fault python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stderr=w, stdout=subprocess.DEVNULL))' \
	"$usercapsctl_test" apply "$tmp/two.conf" || rc=$?
is "$rc:$(state)" "9:$(reset_policy; state)" "a failure mid-apply with stderr a closed pipe: exit 9, rolled back (no SIGPIPE before the rollback)"
printf '%s\n' 'ipc_lock group audio' 'sys_nice group audio' 'sys_time group audio' >"$tmp/three.conf"
run_faulty fchmodat:3:EIO,fchmodat:4:EIO apply "$tmp/three.conf"
status_is 11 "a failure whose rollback fails at one step: exit 11"
contains "$out" "sys_nice: cannot roll back: Input/output error" "... names the step that failed"
is "$(stat -c '%G %a' "$dir/ipc_lock" "$dir/sys_time" | tr '\n' ' ')" "root 100 root 100 " \
	"... and rolls back the others, before and after it"
contains "$(printf '%s\n' "$out" | sed -n 1p)" 'sys_time: Input/output error' "... the failure first, then the rollback's"
reset_policy

# Finding 10: capability names from libcap-ng; a failing user or group
# database is an error, never "unknown" nor a number.
contains "$(ldd "$usercapsctl")" 'libcap-ng\.so' "usercapsctl takes capability names from libcap-ng"
reset_policy
before=$(state)
run_faulty getpwnam_r:1:EIO grant sys_nice --user 4321
contains "$rc:$out" "^9:usercapsctl: looking up user '4321': Input/output error$" \
	"--user 4321 while the passwd database fails: exit 9, not uid 4321"
run_faulty getgrnam_r:1:EIO grant sys_nice --group audio
contains "$rc:$out" "^9:usercapsctl: looking up group 'audio': Input/output error$" "--group audio while the group database fails: exit 9"
run_faulty getpwnam_r:1:EIO lint "$tmp/audio.conf"
contains "$rc:$out" "audio.conf:2: looking up user 'nobody': Input/output error" "... in a file, with file:line"
run_faulty getpwnam_r:1:EIO check sys_nice --user nobody
contains "$rc:$out" "^9:usercapsctl: looking up user 'nobody'" "... and for check"
is "$(state)" "$before" "... and nothing changed"

# Finding 8: a revoke that leaves the target holding the capability
# through another class says so, and exits 12.
reset_policy
chgrp 65534 "$dir/sys_nice" && chmod 0110 "$dir/sys_nice"
run revoke sys_nice --user nobody
status_is 12 "revoke --user nobody, who holds sys_nice through its group: exit 12"
contains "$out" '^usercapsctl: sys_nice is not granted to user nobody, but nobody still holds it through group nogroup \(revoke --group nogroup\)$' "... says so, and how to revoke it"
run check sys_nice --user nobody
status_is 0 "... and check agrees: nobody holds it"
chgrp 0 "$dir/sys_nice" && chmod 0101 "$dir/sys_nice"
run revoke sys_nice --user nobody
contains "$rc:$out" '^12:usercapsctl: sys_nice is not granted to user nobody, but nobody still holds it through other \(revoke --other\)$' \
	"revoke --user nobody, who holds sys_nice as one of the others: exit 12"
is "$(stat -c '%u %g %a' "$dir/sys_nice")" "0 0 101" "... and changes nothing"
chgrp 29 "$dir/sys_nice" && chmod 0111 "$dir/sys_nice"
run revoke sys_nice --group audio
contains "$rc:$out" '^12:usercapsctl: sys_nice: revoked from group audio, but its members still hold it through other \(revoke --other\)$' \
	"revoke --group audio of a capability that others hold too: revoked, exit 12"
is "$(stat -c '%u %g %a' "$dir/sys_nice")" "0 0 101" "... the group's grant is gone"
reset_policy

# Finding 3: only regular files are policy files: a FIFO, a device or a
# directory is refused with its name, before anything is read from it.
reset_policy
etc=$USERCAPS_TEST_ROOT/etc
mkdir -p "$etc/usercaps.d"
printf 'sys_nice group audio\n' >"$etc/usercaps.d/10-audio.conf"
mkfifo -m 0644 "$etc/usercaps.d/50-fifo.conf"
rc=0
out=$(timeout 5 "$usercapsctl_test" apply --boot 2>&1) || rc=$?
contains "$rc:$out" "^8:usercapsctl: $etc/usercaps.d/50-fifo.conf: a FIFO, not a regular file: refused" \
	"apply --boot with a FIFO drop-in: exit 8 at once, not a hang"
is "$(stat -c %G "$dir/sys_nice")" audio "... and the other drop-ins applied"
rc=0
out=$(timeout 5 "$usercapsctl_test" lint 2>&1) || rc=$?
contains "$rc:$out" "^8:.*50-fifo.conf: a FIFO, not a regular file: refused" "lint with a FIFO drop-in: exit 8 at once"
rm -r "$etc/usercaps.d"
reset_policy
mkfifo -m 0666 "$tmp/nobodys.fifo" && chown 65534 "$tmp/nobodys.fifo"
# shellcheck disable=SC2016 # for the inner sh
timeout 5 sh -c 'printf "sys_nice other\n" >"$1"' sh "$tmp/nobodys.fifo" 2>/dev/null &
writer=$!
rc=0
out=$(timeout 5 "$usercapsctl_test" apply "$tmp/nobodys.fifo" 2>&1) || rc=$?
contains "$rc:$out" "^8:.*nobodys.fifo: a FIFO, not a regular file: refused" "a world-writable FIFO of nobody's: refused, exit 8"
is "$(stat -c %a "$dir/sys_nice")" 100 "... and not applied"
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null || :
for special in /dev/zero /dev/null "$tmp"; do
	rc=0
	out=$(timeout 5 "$usercapsctl_test" lint "$special" 2>&1) || rc=$?
	contains "$rc:$out" "^8:usercapsctl: $special: a (character device|directory), not a regular file: refused" "lint $special: refused, exit 8"
done

# Finding 5: a configuration that cannot be read is an error, never an
# empty policy: nothing changes, at boot either.
reset_policy
"$usercapsctl_test" grant sys_nice --group audio
before=$(state)
# config_fails DESCRIPTION REGEX [FAULTS] - apply and apply --boot both
# exit 8 with a line matching REGEX, and change nothing.
config_fails() {
	local mode
	for mode in "" --boot; do
		# shellcheck disable=SC2086 # no word, or one
		run_faulty "${3-}" apply $mode
		contains "$rc:$out" "^8:(.|\n)*$2" "$1: apply $mode exits 8, says why"
		is "$(state)" "$before" "... and changes nothing"
	done
}
ln -s "$tmp/no-such-file" "$etc/usercaps.conf"
config_fails "a dangling /etc/usercaps.conf" "usercaps.conf: cannot be read: No such file or directory"
rm "$etc/usercaps.conf"
printf 'sys_nice group audio\n' >"$etc/usercaps.conf"
: >"$etc/usercaps.d"
config_fails "usercaps.d a plain file" "usercaps.d: cannot be read: Not a directory"
rm "$etc/usercaps.d" && mkdir -m 0755 "$etc/usercaps.d"
config_fails "scandir failing on usercaps.d" "usercaps.d: cannot be read: Input/output error" scandirat:1:EIO
# (The first read is libcap-ng's, of /proc/sys/kernel/cap_last_cap.)
config_fails "a read failing with ENOMEM" "usercaps.conf: cannot be read: Cannot allocate memory" read:2:ENOMEM
chmod 0700 "$etc/usercaps.d"
rc=0
out=$(as_nobody "$usercapsctl_test" lint 2>&1) || rc=$?
contains "$rc:$out" "^8:.*usercaps.d: cannot be read: Permission denied" "an unreadable usercaps.d: lint exits 8"
for mode in 0777 0775; do
	chmod "$mode" "$etc/usercaps.d"
	config_fails "a usercaps.d of mode $mode" "usercaps.d: mode $mode, writable by others than its owner: refused"
done
chmod 0755 "$etc/usercaps.d"
run apply
is "$rc:$(state)" "0:$before" "... a readable one applies"
rm -r "$etc/usercaps.conf" "$etc/usercaps.d"
reset_policy

# Finding 7: drop-ins as sysctl.d has them: /etc, /run and /usr/lib, the
# same name in an earlier directory masks a later one, /dev/null disables,
# all read in the lexical order of their names, a later line for the same
# capability and class overriding an earlier one.
mkdir -p "$etc/usercaps.d" "$USERCAPS_TEST_ROOT/run/usercaps.d" "$USERCAPS_TEST_ROOT/usr/lib/usercaps.d"
run_d=$USERCAPS_TEST_ROOT/run/usercaps.d lib_d=$USERCAPS_TEST_ROOT/usr/lib/usercaps.d
printf 'sys_nice group audio\n' >"$etc/usercaps.conf"
printf 'sys_time group audio\nipc_lock other\n' >"$lib_d/10-vendor.conf"
printf 'sys_time group adm\n' >"$etc/usercaps.d/10-vendor.conf"
printf 'kill group audio force\nipc_lock group audio\n' >"$lib_d/20-masked.conf"
ln -s /dev/null "$run_d/20-masked.conf"
printf 'sys_nice group adm\nsys_nice group audio\nsys_nice user daemon\n' >"$run_d/30-run.conf"
printf 'sys_nice user nobody\n' >"$lib_d/40-last.conf"
printf 'not a policy line\n' >"$lib_d/README"
run apply
status_is 0 "apply reads /etc, /run and /usr/lib/usercaps.d"
is "$(stat -c '%n %u %G %a' "$dir/sys_nice" "$dir/sys_time" "$dir/ipc_lock" "$dir/kill" | sed 's|.*/||')" "sys_nice 65534 audio 110
sys_time 0 adm 110
ipc_lock 0 root 100
kill 0 root 100" "... /etc masks /usr/lib, /dev/null masks, later lines override earlier ones"
run lint
is "$rc:$out" "0:# read $etc/usercaps.conf
# read $etc/usercaps.d/10-vendor.conf
# skipped $lib_d/10-vendor.conf: masked by $etc/usercaps.d/10-vendor.conf
# skipped $run_d/20-masked.conf: a symlink to /dev/null: masked
# skipped $lib_d/20-masked.conf: masked by $run_d/20-masked.conf
# read $run_d/30-run.conf
# read $lib_d/40-last.conf
# skipped $lib_d/README: not named *.conf" "lint names every file read and every one skipped, and why"
run cat-config
is "$rc:$(printf '%s\n' "$out" | grep -v '^# [rs]')" "0:sys_nice user nobody	# $lib_d/40-last.conf:1
sys_nice group audio	# $run_d/30-run.conf:2
sys_time group adm	# $etc/usercaps.d/10-vendor.conf:1" "cat-config prints the merged policy, each line with its file:line"
printf '%s\n' "$out" >"$tmp/merged.conf"
before=$(state)
run apply "$tmp/merged.conf"
is "$rc:$(state)" "0:$before" "... which applies as the same policy"
rm -r "$etc/usercaps.conf" "$etc/usercaps.d" "$run_d" "$lib_d"
reset_policy

# Finding 2: show-config | apply is the identity or an error, never a
# widening. Owners and groups without their execute bit are written as
# 'excluded'; what no line can say is refused.
# set_states SPEC... - reset, then each "CAP OWNER:GROUP MODE".
set_states() {
	local spec
	reset_policy
	for spec in "$@"; do
		read -r cap_ ids_ mode_ <<<"$spec"
		chown "$ids_" "$dir/$cap_" && chmod "$mode_" "$dir/$cap_"
	done
}
n_state=0
for states in "" "sys_nice 0:29 0110|ipc_lock 65534:0 0100|sys_time 0:0 0101" \
	"sys_nice 65534:0 0001" "sys_nice 65534:29 0011|kill 65534:65534 0010" \
	"sys_nice 0:29 0101|sys_admin 65534:29 0110|net_raw 0:0 0111" "sys_nice 65534:29 0000"; do
	n_state=$((n_state + 1))
	IFS='|' read -ra specs <<<"$states"
	set_states "${specs[@]}"
	want=$(state)
	rc=0
	"$usercapsctl_test" show-config >"$tmp/identity.conf" 2>/dev/null || rc=$?
	reset_policy
	run apply "$tmp/identity.conf"
	is "$rc:$(state)" "0:$want" "show-config -> apply is the identity, state $n_state: ${states:-default}"
done
reset_policy
"$usercapsctl_test" grant sys_nice --user nobody
"$usercapsctl_test" grant sys_nice --other 2>/dev/null
"$usercapsctl_test" revoke sys_nice --user nobody
run show-config
contains "$rc:$out" '^0:' "the issue's case (nobody left out of other): show-config exits 0"
contains "$out" '^sys_nice user nobody excluded$' "... with nobody excluded"
contains "$out" '^sys_nice other force$' "... and other"
before=$(state)
"$usercapsctl_test" show-config | "$usercapsctl_test" apply - 2>/dev/null
is "$(state)" "$before" "... and show-config | apply - changes nothing: nobody does not hold it"
run check sys_nice --user nobody
status_is 1 "... check says so"
for refused in "sys_nice 0:0 0755" "sys_nice 0:0 0001" "sys_nice 0:0 4100"; do
	set_states "$refused"
	before=$(state)
	run show-config
	contains "$rc:$out" "^14:usercapsctl: sys_nice is root:root 0?[0-9]{3,4}: a policy file cannot say it exactly" "show-config refuses $refused: exit 14"
	"$usercapsctl_test" show-config 2>/dev/null | "$usercapsctl_test" apply - >/dev/null 2>&1 || :
	is "$(state)" "$before" "... and show-config | apply - fails, changing nothing"
done
reset_policy

# Atomic configuration writes: save writes a temporary file, syncs it and
# renames it over the configuration.
"$usercapsctl_test" grant sys_nice --group audio
"$usercapsctl_test" grant ipc_lock --user nobody
run save
is "$rc:$out" "0:" "save: exit 0, silent"
is "$(cat "$etc/usercaps.conf")" "$("$usercapsctl_test" show-config)" "... /etc/usercaps.conf is what show-config says"
is "$(stat -c '%U:%G %a' "$etc/usercaps.conf")" "root:root 644" "... root's, mode 0644"
is "$(find "$etc" -name '.usercaps.conf.*')" "" "... no temporary file left"
good=$(cat "$etc/usercaps.conf")
"$usercapsctl_test" grant sys_time --group audio
run_faulty fsync:1:EIO save
contains "$rc:$out" "^9:usercapsctl: .*\.usercaps\.conf\.[A-Za-z0-9]+: Input/output error; .*usercaps.conf is unchanged$" "save with fsync failing: exit 9"
is "$(cat "$etc/usercaps.conf"):$(find "$etc" -name '.usercaps.conf.*')" "$good:" "... the old file is whole, no temporary file left"
chmod 0755 "$dir/sys_time"
run save "$tmp/saved.conf"
contains "$rc:$out" '^14:usercapsctl: sys_time is root:audio 0755' "save of a state no file can say: exit 14"
ok "$([ ! -e "$tmp/saved.conf" ]; echo $?)" "... and writes nothing"
run save "$tmp/no-such-dir/usercaps.conf"
reset_policy
"$usercapsctl_test" grant sys_nice --group audio
run save "$tmp/no-such-dir/usercaps.conf"
contains "$rc:$out" '^9:usercapsctl: .*no-such-dir.*No such file or directory' "save into a missing directory: exit 9"
rm -f "$etc/usercaps.conf"
reset_policy

# Issue 28, finding 1: a write error on stdout is an error, never exit 0.
printf '%s\n' 'sys_nice group audio' >"$tmp/one.conf"
for words in "show-config" "list" "list --json" "apply --dry-run $tmp/one.conf" "check sys_nice --user nobody" "--help"; do
	rc=0
	# shellcheck disable=SC2086 # the words are the arguments
	out=$("$usercapsctl_test" $words 2>&1 >/dev/full) || rc=$?
	contains "$rc:$out" '^9:usercapsctl: standard output: No space left on device$' "$words >/dev/full: exit 9, says why"
done
plan "$tap_count"
[ "$tap_failed" = 0 ]
