#!/bin/bash
# The kernel as a Debian package (issue 31): make deb-kernel DEB_CONFIG=guest
# packages the guest's kernel with bindeb-pkg, the path Debian's own
# configuration takes too (make deb-kernel: hours on 2 CPUs, minutes here);
# dpkg -x unpacks it into a scratch root: the image, its configuration with
# usercaps built in, its System.map and modules; then the packaged image
# boots and usercaps runs in it. Then make deb-kernel's own configuration,
# Debian's, configured and checked (not built). From a warm cache about 35
# s (the package is built again only when the kernel changed); the first
# time a few minutes (two trees, objects from ccache).
set -eu
. "$(dirname "$0")/guest-lib.sh"
cd "$repo_dir"
require_kernel
if [ "$linux_version" != 6.1 ]; then
	echo "1..0 # SKIP the package is Debian 12's kernel, 6.1 (bindeb-pkg packs $linux_version the same way)"
	exit 0
fi
command -v dpkg-deb >/dev/null || bail_out "no dpkg-deb: run 'make deps'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# deb_root CONFIG - where make deb-kernel DEB_CONFIG=CONFIG builds (the Makefile's DEB_KERNEL_ROOT).
deb_root() {
	make -s --no-print-directory DEB_CONFIG="$1" --eval 'print-deb-root: ; @echo $(DEB_KERNEL_ROOT)' print-deb-root
}
deb_root=$(deb_root guest)
mkdir -p "$log_dir"
log=$log_dir/kernel-deb.log
rc=0
make deb-kernel DEB_CONFIG=guest >"$log" 2>&1 || rc=$?
is "$rc" 0 "make deb-kernel DEB_CONFIG=guest packages the kernel (log: $log)"
[ "$rc" = 0 ] || { tail -n 30 "$log" | sed 's/^/#   /'; plan "$tap_count"; exit 1; }

mapfile -t debs < <(ls "$deb_root"/linux-image-*.deb | grep -v -- '-dbg_')
is "${#debs[@]}" 1 "one linux-image package in $deb_root"
deb=${debs[0]}
release=$(cat "$deb_root/build-deb/include/config/kernel.release")
is "$(dpkg-deb -f "$deb" Package)" "linux-image-$release" "named for its release, $release"
is "$(dpkg-deb -f "$deb" Architecture)" amd64 "... for amd64"
root=$tmp/root
dpkg -x "$deb" "$root"
for file in "boot/vmlinuz-$release" "boot/config-$release" "boot/System.map-$release"; do
	ok "$([ -s "$root/$file" ]; echo $?)" "it installs /$file"
done
ok "$([ -d "$root/lib/modules/$release/kernel" ]; echo $?)" "... and its modules under /lib/modules/$release"
contains "$(cat "$root/boot/config-$release")" '^CONFIG_SECURITY_USERCAPS=y$' \
	"its configuration builds usercaps in"

# The packaged image boots; usercaps runs in it and takes a grant.
rc=0
out=$(vm/run --kernel "$root/boot/vmlinuz-$release" --append "lsm=$lsm_usercaps usercaps.mode=cached" -- \
	sh -c 'uname -r; cat /sys/kernel/security/lsm; echo;
		chgrp 2000 /sys/kernel/security/usercaps/sys_nice && chmod 0010 /sys/kernel/security/usercaps/sys_nice &&
		setpriv --reuid=1000 --regid=1000 --groups=2000 --inh-caps=-all nice -n -5 nice' \
	2>"$tmp/boot.err" </dev/null) || rc=$?
is "$rc" 0 "the packaged image boots and runs a command"
[ "$rc" = 0 ] || tail -n 20 "$tmp/boot.err" | sed 's/^/#   /'
is "$(printf '%s\n' "$out" | sed -n 1p)" "$release" "... as $release"
is "$(printf '%s\n' "$out" | sed -n 2p)" "$lsm_usercaps" "... with usercaps among its LSMs"
is "$(printf '%s\n' "$out" | sed -n 3p)" "-5" \
	"... granting CAP_SYS_NICE to a group with chgrp and chmod: its member lowers its nice level"

# make deb-kernel's own package, Debian's configuration with every module,
# takes hours to build on 2 CPUs: here it is configured with the series,
# and vm/build-kernel checks each option vm/config/deb/ asks for.
rc=0
debian_root=$(deb_root debian)
out=$(USERCAPS_KERNEL=deb USERCAPS_KERNEL_ROOT="$debian_root" vm/build-kernel --config-only 2>&1) || rc=$?
is "$rc" 0 "make deb-kernel's configuration: Debian's with vm/config/deb/, each option as asked"
[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
config=$(cat "$debian_root/build-deb/.config" 2>&1)
contains "$config" '^CONFIG_SECURITY_USERCAPS=y$' "... usercaps built in"
contains "$config" '^CONFIG_LSM="usercaps,' "... first in CONFIG_LSM (capability always before it): no lsm= needed"
modules=$(printf '%s\n' "$config" | grep -c '=m$' || true)
ok "$([ "$modules" -gt 3000 ]; echo $?)" "... with Debian's modules ($modules)"
plan "$tap_count"
