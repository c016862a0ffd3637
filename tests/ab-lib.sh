# shellcheck shell=bash
# tests/ab-lib.sh - for the bench-ab*.t scripts (sourced after lib.sh,
# with $tmp set): a repository of the working tree's files that bench/drivers/ab
# reads, committed, so that the copy can be made dirty and its history
# grown at will; g, git in it; ab, its bench/drivers/ab; ab_roots, where that
# puts the kernel roots and the cache of boots.
repo=$tmp/repo
mkdir -p "$repo"
git -C "$repo_dir" ls-files -co --exclude-standard -- Makefile README.md bench usercaps vm |
	(cd "$repo_dir" && tar -cf - -T -) | tar -xf - -C "$repo"
g() {
	git -C "$repo" -c user.name=test -c user.email=test@localhost "$@"
}
g init -q
g add -A
g commit -q -m base
export USERCAPS_CACHE=$tmp/cache
# No kernel is built here: a refusal that let a run through fails at once.
export LINUX_TARBALL=$tmp/no-tarball

# ab ARGS... - the copy's bench/drivers/ab: output in $out, status in $rc.
ab() {
	rc=0
	out=$(timeout 60 "$repo/bench/drivers/ab" "$@" 2>&1) || rc=$?
}
# The kernel under test's A/B roots: 6.1's at the cache's top level,
# another kernel's beside its own tree.
ab_roots=$USERCAPS_CACHE/ab
[ "${USERCAPS_LINUX:-6.1}" = 6.1 ] || ab_roots=$USERCAPS_CACHE/linux-$USERCAPS_LINUX/ab

# differs GOT OTHER DESCRIPTION - passes when GOT is not OTHER.
differs() {
	if [ "$1" != "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   both: '$1'"
	fi
}
