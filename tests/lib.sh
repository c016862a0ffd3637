# tests/lib.sh - TAP helpers for the tests/*.t scripts (sourced).
. "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"

tap_count=0
tap_failed=0

# plan N - announce N tests.
plan() {
	echo "1..$1"
}

# ok STATUS DESCRIPTION - one test point: passes when STATUS is 0.
ok() {
	tap_count=$((tap_count + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_count - $2"
	else
		echo "not ok $tap_count - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# diag LINE... - TAP comments on stderr, as Test::More's diag: prove
# shows them without -v too (a failure's why, in a log of many suites).
diag() {
	printf '#   %s\n' "$@" >&2
}

# is GOT WANT DESCRIPTION - passes when GOT equals WANT, else shows both.
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "$3" "got:  '$1'" "want: '$2'"
	fi
}

# contains TEXT PATTERN DESCRIPTION - passes when grep -E finds PATTERN.
contains() {
	if printf '%s\n' "$1" | grep -qE -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		local line lines=()
		while IFS= read -r line; do lines+=("  $line"); done <<<"$1"
		diag "$3" "no line matches /$2/ in:" "${lines[@]}"
	fi
}

# table_row TEXT CELL... - the rest of the markdown table row in TEXT
# that starts with the cells CELL..., as "cell | cell | cell".
table_row() {
	local text=$1 key
	shift
	key="| $(printf '%s | ' "$@")"
	printf '%s\n' "$text" |
		awk -v key="$key" 'index($0, key) == 1 { row = substr($0, length(key) + 1); sub(/ \|$/, "", row); print row }'
}

# bail_out REASON - stop the whole test run, prove reports it.
bail_out() {
	echo "Bail out! $*"
	exit 255
}

require_kernel() {
	[ -r "$bzimage" ] || bail_out "no kernel at $bzimage: run 'make kernel'"
}
