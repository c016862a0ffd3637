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
chmod 0755 "$tmp"	# the not-root test reads it as nobody
export USERCAPS_SECURITYFS=$tmp/securityfs
dir=$USERCAPS_SECURITYFS/usercaps
mkdir -p "$dir"
echo capability,usercaps,apparmor >"$USERCAPS_SECURITYFS/lsm"
caps=$(sed -nE 's/^#define CAP_([A-Z_]+)[[:space:]]+[0-9]+.*/\L\1/p' "$header")
for cap in $caps; do
	install -m 0100 /dev/null "$dir/$cap"
done
install -m 0444 /dev/null "$dir/grants"
install -m 0444 /dev/null "$dir/mode"

# run ARGS... - usercapsctl ARGS: stdout+stderr in $out, status in $rc.
run() {
	rc=0
	out=$("$usercapsctl" "$@" 2>&1) || rc=$?
}

# state - every fake capability file's owner, group and mode.
state() {
	stat -c '%n %u %g %a' "$dir"/*
}

# status_is WANT DESCRIPTION - $rc is WANT; shows $out otherwise.
status_is() {
	is "$rc" "$1" "$2"
	[ "$rc" = "$1" ] || printf '%s\n' "$out" | sed 's/^/#     /'
}

plan 58

run --help
status_is 0 "--help exits 0"
contains "$out" 'show-config' "--help lists the commands"
for bad in "" "frob" "list --bogus" "list --force" "check sys_nice --group audio" \
	"grant sys_nice" "grant sys_nice --user alice --group audio" "grant" \
	"revoke sys_nice extra" "apply" "grant sys_nice --user"; do
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
contains "$out" "bad.conf: nothing changed" "says nothing changed"
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
contains "$out" '^usercapsctl: warning: granting sys_ptrace: its holder can ptrace' "... with a warning"

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
out=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$usercapsctl" grant sys_nice --other 2>&1) || rc=$?
status_is 5 "grant as uid 65534: exit 5"

echo capability,landlock >"$USERCAPS_SECURITYFS/lsm"
run list
status_is 6 "usercaps not in lsm: exit 6"
contains "$out" 'lsm lists only capability,landlock \(boot with usercaps in lsm=\)' "... and says what it lists"

MANWIDTH=80 man -l tools/usercapsctl/usercapsctl.8 >/dev/null 2>"$tmp/man.err" &&
	groff -man -ww -z tools/usercapsctl/usercapsctl.8 2>>"$tmp/man.err"
is "$?:$(cat "$tmp/man.err")" "0:" "usercapsctl.8 renders without warnings"
sed "s|^ExecStart=/usr/local/sbin/usercapsctl |ExecStart=$usercapsctl |" \
	tools/usercapsctl/usercaps.service >"$tmp/usercaps.service"
systemd-analyze verify --man=no "$tmp/usercaps.service" >"$tmp/verify.out" 2>&1
is "$?:$(cat "$tmp/verify.out")" "0:" "systemd-analyze verify accepts usercaps.service"
make -s -C tools/usercapsctl install OUT="$usercapsctl_dir" DESTDIR="$tmp/dest" >/dev/null
(cd "$tmp/dest" && find . -type f | sort) >"$tmp/installed"
is "$(cat "$tmp/installed")" "./etc/systemd/system/usercaps.service
./usr/local/sbin/usercapsctl
./usr/local/share/man/man8/usercapsctl.8" "make install puts the binary, man page and unit where the unit looks"
[ "$tap_failed" = 0 ]
