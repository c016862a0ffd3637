#!/bin/bash
# usercaps.service run by the machine's systemd (issue 31): two guests
# booted with vm/run --systemd, each with what "make install" puts, the
# unit enabled as "systemctl enable" does, /etc/usercaps.conf (the
# example) and drop-ins in /etc and /run, one named by gid (+29). In the
# first the boot applies them; tests/guest/usercaps-systemd.sh checks the
# grants, that securityfs came first, the journal, and that
# TimeoutStartSec ends a run stuck on the lock. In the second a drop-in
# has a bad line: the unit fails, with the line at error priority, and the
# rest is applied. Two boots of about 170 s each under TCG on a loaded
# host (load 12 to 15 on two CPUs: 407 s in all; a boot of a trivial
# command took 67 s at load 11).
set -eu
. "$(dirname "$0")/guest-lib.sh"
. "$(dirname "$0")/usercapsctl-lib.sh"
cd "$repo_dir"
require_kernel
build_usercapsctl
command -v systemctl >/dev/null || bail_out "no systemctl: this suite boots the host's systemd"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stage DIR - the guest's additions to its root, in DIR.
stage() {
	local dir=$1
	make -s -C tools/usercapsctl install OUT="$usercapsctl_dir" DESTDIR="$dir" >/dev/null
	systemctl --root="$dir" enable usercaps.service 2>/dev/null
	install -D -m 0644 tools/usercapsctl/usercaps.conf "$dir/etc/usercaps.conf"
	install -d -m 0755 "$dir/etc/usercaps.d" "$dir/run/usercaps.d"
	printf 'sys_time group +29\t# audio, by its gid\n' >"$dir/etc/usercaps.d/10-time.conf"
	printf 'kill group audio force\n' >"$dir/run/usercaps.d/20-kill.conf"
}

# boot NAME SCENARIO ARG... - the guest suite of SCENARIO in a guest with
# the tree staged in $tmp/NAME, its TAP relayed.
boot() {
	local name=$1 rc=0 out
	shift
	out=$(run_in_guest "systemd-$name" --systemd --install "$tmp/$name" --append "lsm=$lsm_usercaps" -- \
		tests/guest/usercaps-systemd.sh "$@") || rc=$?
	relay_suite "$name" "the in-guest suite" "$rc" < <(printf '%s\n' "$out")
}

grants="kill owner=0 group=29 mode=0110 granted=group
ipc_lock owner=0 group=29 mode=0110 granted=group
sys_nice owner=0 group=29 mode=0110 granted=group
sys_resource owner=0 group=29 mode=0110 granted=group
sys_time owner=0 group=29 mode=0110 granted=group"

stage "$tmp/good"
ok "$([ -L "$tmp/good/etc/systemd/system/sysinit.target.wants/usercaps.service" ]; echo $?)" \
	"systemctl enable links the unit into sysinit.target.wants"
boot good good "$grants"

stage "$tmp/bad"
printf 'net_raw group no-such-group\nnet_bind_service group audio\n' >"$tmp/bad/etc/usercaps.d/30-ldap.conf"
boot bad bad "kill owner=0 group=29 mode=0110 granted=group
net_bind_service owner=0 group=29 mode=0110 granted=group
${grants#*$'\n'}" "/etc/usercaps.d/30-ldap.conf:1: unknown group 'no-such-group'"
plan "$tap_count"
[ "$tap_failed" = 0 ]
