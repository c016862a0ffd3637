#!/bin/bash
# The realwork round, booted: the smallest workload (login: two setpriv
# switches of ids) in every mode of the usercaps kernel (commoncap, the
# reference when stock is not booted, naive, cached, percred), as the
# user granted CAP_SETUID and CAP_SETGID and as root, two plugin sessions
# each. Every session exact, the checks counted by capability and
# outcome, and the shares written. Four boots, two at a time.
set -u
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
out=$(bench/drivers/run --mode realwork --kernels "commoncap naive cached percred" --realwork login \
	--realwork-repeat 2 --results "$tmp" 2>&1 </dev/null) || rc=$?
is "$rc" 0 "bench/drivers/run --mode realwork runs login in every mode, its sessions exact"
[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
run=$(ls -d "$tmp"/2*/ 2>/dev/null | sed -n 1p)
csv=$run/realwork.csv
configs=$(awk -F, '!/^#/ && $1 == "login" { printf "%s:%s ", $2, $3 }' "$csv" 2>/dev/null)
is "$configs" "commoncap-allowed:2 commoncap-root:2 naive-grant:2 naive-root:2 cached-grant:2 cached-root:2 percred-grant:2 percred-root:2 " \
	"realwork.csv: each mode as the user and as root, two sessions each"
is "$(awk -F, '!/^#/ && $1 == "login" && !($8 > 0 && $9 > 0 && $10 > 0 && $4 > $9) { print $2 }' "$csv" 2>/dev/null)" "" \
	"every row has checks, their instructions, and a share of a larger whole"
is "$(awk -F, '!/^#/ && $1 == "login" && $2 !~ /^commoncap-/ && $11 $13 !~ /^commoncap-(allowed|root)-?[0-9]+$/ { print $2 }' "$csv" 2>/dev/null)" "" \
	"every usercaps mode's row is compared with commoncap's, the same user's"
checks=$(cat "$run/realwork-checks.csv" 2>/dev/null)
for config in naive-grant cached-grant percred-grant commoncap-allowed; do
	contains "$checks" "^login,$config,setuid,allowed,[1-9]" "$config: login's CAP_SETUID checks counted, allowed"
	contains "$checks" "^login,$config,setgid,allowed,[1-9]" "$config: ... and its CAP_SETGID ones"
done
contains "$(cat "$run/summary.md" 2>/dev/null)" '^\| login \| percred-grant \| [0-9]+ \| [0-9]+ \| [1-9]' \
	"summary.md has the real work table"

plan "$tap_count"
[ "$tap_failed" = 0 ]
