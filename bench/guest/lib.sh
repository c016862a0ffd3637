# shellcheck shell=bash
# bench/guest/lib.sh - sourced by bench/guest/measure, bench/guest/perf and
# bench/guest/capcheck:
# the benchmark's configurations (users, policy and capabilities), so that
# what perf and bpftrace profile is what capbench measured. Uses the
# caller's fail().

readonly policy_dir=/sys/kernel/security/usercaps
readonly bench_uid=1000 bench_gid=1000 grant_gid=2000 other_gid=2001 target_uid=1001 alt_id=1002

# kernel_configs KERNEL - print KERNEL's configurations, after checking that
# the guest was booted as KERNEL says.
kernel_configs() {
	local lsms active
	lsms=$(cat /sys/kernel/security/lsm)
	case "$1" in
	stock|commoncap)
		case ",$lsms," in
		*,usercaps,*) fail "kernel $1, but usercaps is active (lsm: $lsms): check the boot's lsm=" ;;
		esac
		if [ "$1" = stock ] && [ -d "$policy_dir" ]; then
			fail "kernel stock, but usercaps is built in ($policy_dir exists): boot the kernel built without the series ('make kernel-stock')"
		fi
		echo "$1-allowed $1-denied $1-root" ;;
	naive|cached|percred)
		[ -d "$policy_dir" ] || fail "usercaps is not in this kernel: no $policy_dir (lsm: $lsms)." \
			"Build a kernel with CONFIG_SECURITY_USERCAPS=y ('make kernel')."
		case ",$lsms," in
		*,usercaps,*) ;;
		*) fail "usercaps is built but not active (lsm: $lsms): check the boot's lsm=" ;;
		esac
		active=$(grep -o '\[[a-z]*\]' "$policy_dir/mode" | tr -d '[]') ||
			fail "cannot read usercaps' mode from $policy_dir/mode"
		[ "$active" = "$1" ] || fail "usercaps runs in mode '$active', not '$1'"
		echo "$1-grant $1-deny $1-deny-group $1-deny-owner $1-root" ;;
	*) fail "unknown KERNEL '$1' (see --help)" ;;
	esac
}

# check_lsm LIST - fail unless the LSMs this kernel runs, in order, are LIST
# (what the boot's lsm= asked for): a benchmark of another stack than the
# one named is worse than none.
check_lsm() {
	local lsms
	lsms=$(cat /sys/kernel/security/lsm)
	[ "$lsms" = "$1" ] ||
		fail "this kernel runs the LSMs '$lsms', not '$1' as asked: check the kernel's config (CONFIG_BPF_LSM...) and the boot's lsm="
}

# deny_config KERNEL - the configuration in which the benchmark's user holds
# no capability.
deny_config() {
	case "$1" in
	stock|commoncap) echo "$1-denied" ;;
	*) echo "$1-deny" ;;
	esac
}

# start_target - a sleeping process of another user for kill() to signal:
# kill() needs CAP_KILL only for a target that shares no uid with the caller,
# root included. Sets target.
start_target() {
	setpriv --reuid="$target_uid" --regid="$target_uid" --clear-groups sleep 100000 &
	target=$!
	trap 'kill "$target" 2>/dev/null || true' EXIT
}

# set_policy CAP grant|deny-group|deny-owner|default - set the capability
# file's owner, group and mode, and check that the LSM reads back what was
# set. grant: to the benchmark's user's group; deny-group: to a group the
# user is not in; deny-owner: to the file's owner, another user; default:
# to root alone.
set_policy() {
	local file=$policy_dir/$1 want
	[ -e "$file" ] || fail "no capability file $file"
	case "$2" in
	grant) chown "0:$grant_gid" "$file"; chmod 0110 "$file"; want="0:$grant_gid:110" ;;
	deny-group) chown "0:$other_gid" "$file"; chmod 0110 "$file"; want="0:$other_gid:110" ;;
	deny-owner) chown "$target_uid:0" "$file"; chmod 0100 "$file"; want="$target_uid:0:100" ;;
	default) chown 0:0 "$file"; chmod 0100 "$file"; want="0:0:100" ;;
	esac
	[ "$(stat -c '%u:%g:%a' "$file")" = "$want" ] ||
		fail "$file is $(stat -c '%u:%g:%a' "$file") after setting it to $want"
}

# config_enter CONFIG CAP - set the policy CONFIG means for capability CAP
# (its file's name, or - for none) and set as_user (the command prefix that
# runs as CONFIG's user), expect and effective (capbench's --expect and
# --effective; effective empty: no check). With split_ids=1 the user's
# effective and saved uid and gid are alt_id, its real ones bench_uid and
# bench_gid, so that setresuid and setresgid have two ids to flip between.
config_enter() {
	local user=(setpriv --reuid="$bench_uid" --regid="$bench_gid" --groups="$grant_gid")
	[ "${split_ids:-0}" = 0 ] ||
		user=(setpriv --ruid="$bench_uid" --euid="$alt_id" --rgid="$bench_gid" --egid="$alt_id"
			--groups="$grant_gid")
	as_user=()
	case "$1" in
	*-root) expect=allow effective=yes ;;
	*-allowed)
		expect=allow effective=yes
		as_user=("${user[@]}")
		[ "$2" = - ] || as_user+=(--inh-caps="+$2" --ambient-caps="+$2") ;;
	*-grant) expect=allow effective=no as_user=("${user[@]}" --inh-caps=-all) ;;
	*-denied|*-deny|*-deny-group|*-deny-owner)
		expect=deny effective=no as_user=("${user[@]}" --inh-caps=-all) ;;
	*) fail "unknown configuration '$1'" ;;
	esac
	[ "$2" != - ] || effective=
	case "$1" in
	stock-*|commoncap-*) ;;
	*-grant) [ "$2" = - ] || set_policy "$2" grant ;;
	*-deny-group) [ "$2" = - ] || set_policy "$2" deny-group ;;
	*-deny-owner) [ "$2" = - ] || set_policy "$2" deny-owner ;;
	*) [ "$2" = - ] || set_policy "$2" default ;;
	esac
}

# config_leave CONFIG CAP - put back the default policy after config_enter.
config_leave() {
	case "$1" in
	*-grant|*-deny-group|*-deny-owner) [ "$2" = - ] || set_policy "$2" default ;;
	esac
}
