#!/bin/bash
# usercaps-localio.sh NFS_TOOLS - the own-credential rule against NFS
# LOCALIO (Linux 6.12), in a guest booted with usercaps in lsm= (TAP).
#
# nfsd exports a tmpfs on /srv to 127.0.0.1 with all_squash,anonuid=1000
# and the guest mounts it over NFSv3, where LOCALIO makes the client's own
# task open the file through nfsd_open_local_fh(), under the export's
# mapped identity (fsuid 1000) installed with override_creds(). uid 1000
# is granted dac_read_search; uid 2000 must still not read a 0600 file of
# root's through the mount.
#
# The client first asks nfsd's kernel threads (ACCESS), which usercaps
# grants nothing. So uid 2000 opens the file while it is 0644, which
# ACCESS allows, and reads it only after root made it 0600: then the one
# check that a grant can answer is LOCALIO's, in the reading task. If
# LOCALIO's open is refused, the client falls back to a READ call, which
# nfsd's threads refuse as well.
#
# NFS_TOOLS is vm/guest-nfs-tools' directory (rpcbind, rpc.nfsd,
# rpc.mountd, exportfs, unpacked from Debian's packages).
set -u
# The guest sees the repository at the host's path: the TAP helpers are
# the host suites' own.
. "$(dirname "$0")/../lib.sh"
tools=${1:?usage: usercaps-localio.sh NFS_TOOLS}
policy=/sys/kernel/security/usercaps
events=/sys/kernel/tracing/events
mnt=/tmp/nfs
export PATH=$tools/sbin:$tools/usr/sbin:$tools/usr/bin:$PATH
LD_LIBRARY_PATH=$(dirname "$(find "$tools/usr/lib" -name 'libwrap.so.0' -print -quit)")
export LD_LIBRARY_PATH

# step DESCRIPTION COMMAND... - run a setup step; stop the script with a
# failure and its output if it fails.
step() {
	local what=$1 out
	shift
	if ! out=$("$@" 2>&1); then
		ok 1 "setup: $what"
		printf '%s\n' "$out" | sed 's/^/#   /'
		plan "$tap_count"
		exit 1
	fi
}

# as UID COMMAND... - run COMMAND as UID, with gid UID and no groups.
as() {
	local uid=$1
	shift
	setpriv --reuid="$uid" --regid="$uid" --clear-groups -- "$@"
}

# server_reads - READ calls nfsd has served (the proc3 line's READ).
server_reads() {
	awk '$1 == "proc3" { print $9 }' /proc/net/rpc/nfsd
}

trace_events() {
	grep -E 'nfs_local_|usercaps_grant' /sys/kernel/tracing/trace
}

# The server: the state directory of exportfs and rpc.mountd, which the
# read-only root lacks, and a tmpfs to export (9p cannot be exported).
step "bring up lo" ip link set lo up
step "tmpfs on /var/lib" mount -t tmpfs -o mode=0755 tmpfs /var/lib
mkdir -p /var/lib/nfs
: >/var/lib/nfs/etab
: >/var/lib/nfs/rmtab
step "mount the nfsd filesystem" mount -t nfsd nfsd /proc/fs/nfsd
step "tmpfs on /srv" mount -t tmpfs -o mode=0755 tmpfs /srv
printf 'secret\n' >/srv/secret
printf 'public\n' >/srv/public
chmod 0644 /srv/secret /srv/public
step "rpcbind" rpcbind
step "exportfs" exportfs -i \
	-o rw,fsid=1,all_squash,anonuid=1000,anongid=1000,no_subtree_check,insecure 127.0.0.1:/srv
step "rpc.mountd" rpc.mountd -N 4
step "rpc.nfsd" rpc.nfsd -N 4 2

for e in nfs/nfs_local_enable nfs/nfs_local_disable nfs/nfs_local_open_fh usercaps/usercaps_grant; do
	echo 1 >"$events/$e/enable"
done
echo >/sys/kernel/tracing/trace

mkdir -p "$mnt"
# -i: the kernel's own mount, whether or not the host has mount.nfs.
step "mount 127.0.0.1:/srv over NFSv3" \
	mount -i -t nfs -o vers=3,proto=tcp,nolock,addr=127.0.0.1 127.0.0.1:/srv "$mnt"
contains "$(trace_events)" 'nfs_local_enable:' "the mount enables LOCALIO (nfs_local_enable)"

reads=$(server_reads)
is "$(as 2000 cat "$mnt/public" 2>&1)" public "uid 2000 reads a 0644 file through the mount"
is "$(server_reads)" "$reads" "... through LOCALIO: nfsd served no READ call"

# The grant, and that it holds for uid 1000's own credential.
chmod 0600 /srv/secret
chown 1000 "$policy/dac_read_search"
is "$(cat "$policy/dac_read_search")" "dac_read_search owner=1000 group=0 mode=0100 granted=owner" \
	"dac_read_search is granted to uid 1000"
is "$(as 1000 cat /srv/secret 2>&1)" secret "uid 1000 reads root's 0600 file in /srv with the grant"
is "$(as 2000 cat /srv/secret 2>&1)" "cat: /srv/secret: Permission denied" "uid 2000 does not"

# uid 2000 opens the file while ACCESS allows it, and reads once it is
# 0600: the fifos order the steps, and the shell holds both open so that
# nothing blocks on a reader that died.
chmod 0644 /srv/secret
mkfifo /tmp/opened /tmp/go
chmod 0666 /tmp/opened /tmp/go
exec 5<>/tmp/opened 6<>/tmp/go
# shellcheck disable=SC2016 # the reader's shell expands "$1"
as 2000 sh -c 'exec 3<"$1" && echo >/tmp/opened && read -r _ </tmp/go && exec cat <&3' \
	sh "$mnt/secret" >/tmp/reader.out 2>&1 &
reader=$!
read -r -t 60 _ <&5
ok "$?" "uid 2000 opens the file over NFS while it is 0644"
chmod 0600 /srv/secret
echo >/sys/kernel/tracing/trace
reads=$(server_reads)
echo >&6
wait "$reader"
rc=$?
trace=$(trace_events)
out=$(cat /tmp/reader.out)
ok "$([ "$rc" != 0 ]; echo $?)" "uid 2000 cannot read it once it is 0600 (cat exits $rc)"
contains "$out" 'Permission denied' "... the read fails with EACCES"
ok "$(! printf '%s\n' "$out" | grep -q secret; echo $?)" "... and returns none of the file"
contains "$trace" 'nfs_local_open_fh: error=-13 ' \
	"LOCALIO's open, under the export's identity in the reading task, is refused (EACCES)"
ok "$(! printf '%s\n' "$trace" | grep -q usercaps_grant; echo $?)" \
	"usercaps grants nothing while uid 2000 reads"
ok "$([ "$(server_reads)" -gt "$reads" ]; echo $?)" \
	"the client falls back to READ calls, which nfsd's threads refuse ($reads before, $(server_reads) after)"
printf '%s\n' "$out" | sed 's/^/# reader: /'
printf '%s\n' "$trace" | sed 's/^/# trace: /'

umount "$mnt"
plan "$tap_count"
[ "$tap_failed" = 0 ]
