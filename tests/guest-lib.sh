# shellcheck shell=bash
# tests/guest-lib.sh - for the tests/*.t scripts that run a suite inside a
# booted guest: build the in-guest programs, boot, relay their TAP (sourced).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# tests/guest/Makefile puts the programs in guest_tests_dir (vm/lib.sh).
# The guest sees the host's root, but with a tmpfs on /root, which hides
# the default cache (~/.cache/usercaps): share the directory explicitly, at
# the same path.
share_guest_tests=(--rw "$guest_tests_dir")

# The LSM stack of vm/config/security.config, with usercaps and without
# (used by the .t scripts).
# shellcheck disable=SC2034
readonly lsm_usercaps=capability,usercaps,landlock,lockdown,yama,apparmor,bpf \
	lsm_stock=capability,landlock,lockdown,yama,apparmor,bpf

# fail_before_plan DESCRIPTION - report a failure that leaves nothing to
# run: a one-test plan, one "not ok", exit 1.
fail_before_plan() {
	echo "1..1"
	echo "not ok 1 - $1"
	exit 1
}

# build_guest_tests - build the in-guest programs (incremental), one suite
# at a time: prove -j runs several, and a guest may be running them.
build_guest_tests() {
	local log=$log_dir/guest-tests-build.log
	mkdir -p "$log_dir"
	if ! flock "$guest_tests_dir.lock" \
		make -C "$repo_dir/tests/guest" OUT="$guest_tests_dir" LINUX_TREE="$src_dir" >"$log" 2>&1; then
		sed 's/^/# /' "$log"
		fail_before_plan "build the in-guest test programs (log: $log)"
	fi
}

# run_in_guest NAME VM_RUN_OPTION... -- COMMAND... - boot, run COMMAND,
# with its output on stdout, vm/run's messages in $log_dir/NAME.log and
# the guest's whole console in $log_dir/NAME.console. Returns COMMAND's
# status; when vm/run itself failed (121-125), says why in TAP comments
# first.
run_in_guest() {
	local name=$1 log rc=0
	shift
	log=$log_dir/$name.log
	mkdir -p "$log_dir"
	"$repo_dir/vm/run" --console "$log_dir/$name.console" "$@" 2>"$log" </dev/null || rc=$?
	case "$rc" in
	121|122|123|124|125)
		echo "# vm/run failed with status $rc (121 kernel splat, 122 no command, 123 panic," \
			"124 timeout, 125 runner); log: $log, console: $log_dir/$name.console" | tee /dev/stderr
		tail -n 30 "$log" | sed 's/^/#   /'
		;;
	esac
	return "$rc"
}

# relay_tap LABEL - copy the TAP read on stdin into this script's stream,
# renumbered (see ok in lib.sh), each description prefixed with LABEL.
# Sets relay_results and relay_planned (the sum of every 1..N seen), so
# that the caller can check that nothing went missing.
relay_tap() {
	local label=$1 line
	relay_results=0 relay_planned=0
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]+\ *(-\ )?(.*)$ ]]; then
			relay_results=$((relay_results + 1))
			if [ -z "${BASH_REMATCH[1]}" ]; then
				ok 0 "$label: ${BASH_REMATCH[3]}"
			else
				ok 1 "$label: ${BASH_REMATCH[3]}"
			fi
		elif [[ $line =~ ^1\.\.([0-9]+) ]]; then
			relay_planned=$((relay_planned + BASH_REMATCH[1]))
		elif [[ $line =~ ^TAP\ version ]]; then
			:
		elif [[ $line =~ ^# ]]; then
			printf '%s\n' "$line"
		else
			printf '# %s\n' "$line"
		fi
	done
}

# relay_suite LABEL WHAT RC - relay_tap LABEL of the TAP on stdin, then
# two results of its own: the in-guest WHAT exited RC 0, and reported
# every result it planned (none lost to a crash or a truncated console).
relay_suite() {
	local label=$1 what=$2 rc=$3
	relay_tap "$label"
	is "$rc" 0 "$label: $what exits 0"
	ok "$([ "$relay_planned" -gt 0 ] && [ "$relay_results" = "$relay_planned" ]; echo $?)" \
		"$label: $what reports all $relay_planned planned results (got $relay_results)"
}

# run_usercaps_suite MODE - the usercaps kselftest suite, in a guest booted
# with usercaps.mode=MODE; its TAP is this script's.
run_usercaps_suite() {
	local mode=$1 rc=0
	cd "$repo_dir"
	require_kernel
	build_guest_tests
	run_in_guest "usercaps-$mode" "${share_guest_tests[@]}" --append "lsm=$lsm_usercaps usercaps.mode=$mode" -- \
		env USERCAPS_MODE="$mode" "$guest_tests_dir/usercaps_test" || rc=$?
	exit "$rc"
}
