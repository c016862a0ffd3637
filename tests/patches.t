#!/bin/bash
# The format-patch series of this kernel (make patches, KERNEL=6.12 for
# 6.12's): vm/export-series writes it, checkpatch --strict reports nothing,
# it applies to a fresh extraction with patch and git apply, and the
# kernel's base and API changes are in it. No boot; about 40 s.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
require_kernel
[ -r "$linux_tarball" ] || bail_out "no $linux_tarball: run '${USERCAPS_LINUX:+KERNEL=$linux_version }make deps'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A clean clone in CI has no git identity: the Signed-off-by's is made up.
printf '[user]\n\tname = usercaps test\n\temail = test@usercaps.invalid\n' >"$tmp/gitconfig"

rc=0
out=$(GIT_CONFIG_GLOBAL=$tmp/gitconfig vm/export-series "$tmp/series" 2>&1) || rc=$?
is "$rc" 0 "vm/export-series succeeds for $linux_package"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
contains "$out" '^checkpatch --strict: nothing to report on 3 patches$' "checkpatch --strict is clean"
contains "$out" '^applies to a fresh extraction with patch -p1 and git apply$' \
	"the series applies to a fresh extraction"
# The base, from the kernel make test built (6.1.192-usercaps: 6.1.192).
release=$(cat "$build_dir/include/config/kernel.release")
version=${release%%-*}
cover=$(cat "$tmp/series/0000-cover-letter.patch" 2>/dev/null || true)
contains "$cover" "^Based on Debian's $linux_package \\($version\\)\\.$" "the cover letter names its base"
contains "$cover" '^What a check costs' "... and says what a check costs"
is "$(cat "$tmp/series/"*.patch | grep -c 'figures:' || true)" 0 \
	"the figures of the cover letter and usercaps.rst written from results/, their markers left out"
lsm=$(cat "$tmp/series/0001-"*.patch 2>/dev/null || true)
case "$linux_version" in
6.1)
	contains "$cover" '^What a check costs, step by step$' "6.1: the cover letter's costs are 6.1's"
	contains "$lsm" '^\+	security_add_hooks\(NULL, 0, "usercaps"\);$' "6.1: usercaps registers by name"
	contains "$lsm" '^\+static int usercaps_cap_setattr\(struct user_namespace \*mnt_userns,$' \
		"6.1: setattr takes the mount's user namespace"
	;;
6.12)
	contains "$cover" '^What a check costs on 6\.12$' "6.12: the cover letter's costs are 6.12's"
	contains "$lsm" '^\+/\* A placeholder: the number is for the LSM maintainers to assign\. \*/$' \
		"6.12: the LSM ID is a placeholder, said so where it is defined"
	contains "$lsm" '^\+#define LSM_ID_USERCAPS		114$' "6.12: an LSM ID for usercaps"
	is "$(cat "$tmp/series/"*.patch | grep -v '^\(@@\|index \)' | grep -c '\b114\b')" 1 \
		"6.12: the placeholder number appears in the series once"
	contains "$lsm" '^\+		USERCAPS_ENABLED\)$' "6.12: MAX_LSM_COUNT counts usercaps"
	contains "$lsm" '^\+	security_add_hooks\(NULL, 0, &usercaps_lsmid\);$' "6.12: usercaps registers its lsm_id"
	contains "$lsm" '^\+static int usercaps_cap_setattr\(struct mnt_idmap \*idmap,$' \
		"6.12: setattr takes the mount's idmap"
	;;
esac
plan "$tap_count"
[ "$tap_failed" = 0 ]
