#!/bin/bash
# The figures the documentation quotes (README.md, the guides, usercaps.rst,
# the cover letter's costs.txt: bench/report/figures --list) are what bench/report/figures
# writes from the committed results/; a figure changed by hand, a region that lost its closing
# marker or its results, and a bad option are refused. No kernel needed.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
out=$(bench/report/figures --check 2>&1) || rc=$?
is "$rc" 0 "the committed figures are what results/ gives (bench/report/figures --check)"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
files=$(bench/report/figures --list)
contains "$files" '^README\.md$' "bench/report/figures --list names the README"
for file in $files; do
	contains "$(cat "$file")" '^(<!-- |\.\. )figures:' "$file has generated regions"
done

# A copy of the tree whose README has one figure changed by hand.
copy() {
	rm -rf "$tmp/repo"
	for file in $files; do
		mkdir -p "$tmp/repo/$(dirname "$file")"
		cp "$file" "$tmp/repo/$file"
	done
	cp -r results "$tmp/repo/"
}
copy
# The first figure of the results at a glance's percred row, one more.
row=$(grep -m1 '^| percred | ' README.md)
first=$(printf '%s\n' "$row" | cut -d'|' -f3 | awk '{print $1}')
changed=$(printf '%s\n' "$row" | sed "s/| $first /| $(awk -v x="$first" 'BEGIN {printf "%.2f", x + 1}') /")
python3 - "$tmp/repo/README.md" "$row" "$changed" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
open(path, "w").write(text.replace(old, new, 1))
PY
rc=0
out=$(bench/report/figures --check --root "$tmp/repo" 2>&1) || rc=$?
is "$rc" 1 "a figure typed by hand makes --check fail"
contains "$out" "^-\\$(printf '%s' "$changed" | sed 's/[][\.*^$|()+?{}]/\\&/g')\$" "... and its diff shows the hand-typed line"
contains "$out" "^\\+\\$(printf '%s' "$row" | sed 's/[][\.*^$|()+?{}]/\\&/g')\$" "... and the line results/ gives"
out=$(bench/report/figures --root "$tmp/repo" 2>&1)
is "$(cmp -s README.md "$tmp/repo/README.md"; echo $?)" 0 "bench/report/figures writes the figure back"

copy
sed -i '0,/^<!-- \/figures:glance -->$/{/^<!-- \/figures:glance -->$/d}' "$tmp/repo/README.md"
rc=0
out=$(bench/report/figures --check --root "$tmp/repo" 2>&1) || rc=$?
is "$rc" 1 "a region without its closing marker fails"
contains "$out" "README.md:[0-9]+: region glance has no '<!-- /figures:glance -->'" "... and says where"

copy
rm "$tmp/repo/results/latest/exact.csv"
rc=0
out=$(bench/report/figures --check --root "$tmp/repo" 2>&1) || rc=$?
is "$rc" 1 "a region whose results are missing fails"
contains "$out" "region glance: no exact.csv in results/[^ ]+, loose or packed" "... and names the file"

rc=0
out=$(bench/report/figures --nonsense 2>&1) || rc=$?
is "$rc:$out" "2:bench/report/figures: unknown option '--nonsense' (see --help)" "an unknown option is refused"

# The cover letter's costs: the regions written, the markers left out.
out=$(bench/report/figures --print usercaps/patches/messages/costs.txt)
is "$(printf '%s\n' "$out" | grep -c 'figures:' || true)" 0 "--print leaves the markers out"
contains "$out" "results/ab/[0-9a-f]+-vs-" "... and names the A/B runs its figures come from"
is "$(printf '%s\n' "$out" | awk 'length > 75' | wc -l)" 0 "... in lines a mail keeps (75 columns)"

plan "$tap_count"
[ "$tap_failed" = 0 ]
