#!/bin/bash
# The usercapsctl Debian package (issue 31): "make deb"'s recipe builds it
# with dpkg-buildpackage and passes lintian, then dpkg -x unpacks it into a
# scratch root: its files, the unit where Debian keeps packaged units and
# enabled by the postinst, the man page, and the binary itself. About a
# minute, most of it lintian.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$repo_dir"
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || bail_out "no $tool: run 'make deps'"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
deb_dir=$cache_dir/deb
mkdir -p "$log_dir"
log=$log_dir/usercapsctl-deb.log
version=$(make -s -C tools/usercapsctl --eval 'print-version: ; @echo $(VERSION)' print-version)
rc=0
make -C tools/usercapsctl deb OUT="$tmp/out" DEBDIR="$deb_dir" >"$log" 2>&1 || rc=$?
is "$rc" 0 "dpkg-buildpackage builds the package and lintian finds no warning or error (log: $log)"
[ "$rc" = 0 ] || { tail -n 30 "$log" | sed 's/^/#   /'; plan "$tap_count"; exit 1; }
contains "$(grep -A1000 '^lintian ' "$log")" '^I: usercapsctl: package-supports-alternative-init-but-no-init.d-script' \
	"lintian's one remaining tag is the info about no init.d script"
deb=$deb_dir/usercapsctl_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
root=$tmp/root
dpkg -x "$deb" "$root"
dpkg-deb -e "$deb" "$tmp/control"

is "$(cd "$root" && find . -type f -printf '%M %u %p\n' | LC_ALL=C sort -k3)" "-rw-r--r-- root ./lib/systemd/system/usercaps.service
-rwxr-xr-x root ./usr/sbin/usercapsctl
-rw-r--r-- root ./usr/share/bash-completion/completions/usercapsctl
-rw-r--r-- root ./usr/share/doc/usercapsctl/changelog.gz
-rw-r--r-- root ./usr/share/doc/usercapsctl/copyright
-rw-r--r-- root ./usr/share/doc/usercapsctl/examples/usercaps.conf
-rw-r--r-- root ./usr/share/man/man8/usercapsctl.8.gz" "the package's files, modes and owner"
contains "$(dpkg-deb -f "$deb" Depends)" 'libcap-ng0' "it depends on libcap-ng0, as the binary links it"
is "$("$root/usr/sbin/usercapsctl" --version)" "usercapsctl $version" "the packaged binary runs, and says its version"
"$root/usr/sbin/usercapsctl" lint "$root/usr/share/doc/usercapsctl/examples/usercaps.conf" >/dev/null 2>&1
ok $? "the example policy passes the packaged binary's lint"

unit=$root/lib/systemd/system/usercaps.service
contains "$(cat "$unit")" '^ExecStart=/usr/sbin/usercapsctl apply --boot$' "the unit runs the packaged binary"
contains "$(cat "$unit")" '^WantedBy=sysinit.target$' "the unit is wanted by sysinit.target"
sed "s|^ExecStart=/usr/sbin/usercapsctl |ExecStart=$root/usr/sbin/usercapsctl |" "$unit" >"$tmp/usercaps.service"
systemd-analyze verify --man=no "$tmp/usercaps.service" >"$tmp/verify.out" 2>&1
is "$?:$(cat "$tmp/verify.out")" "0:" "systemd-analyze verify accepts the packaged unit"
contains "$(cat "$tmp/control/postinst")" "deb-systemd-helper enable 'usercaps.service'" \
	"the postinst enables usercaps.service (dh_installsystemd)"
contains "$(cat "$tmp/control/postrm")" "deb-systemd-helper purge 'usercaps.service'" \
	"the postrm forgets it on purge"

man=$root/usr/share/man/man8/usercapsctl.8.gz
rc=0
rendered=$(MANWIDTH=80 man --warnings -l "$man" 2>"$tmp/man.err") || rc=$?
is "$rc:$(cat "$tmp/man.err")" "0:" "the man page renders without a groff warning"
contains "$rendered" '^ +usercapsctl +- +show' "... with its NAME line"
contains "$rendered" 'LDAP, NIS, SSSD' "... and the +ID advice for names a network directory knows"
plan "$tap_count"
[ "$tap_failed" = 0 ]
