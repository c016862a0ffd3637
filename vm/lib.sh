# vm/lib.sh - settings shared by the vm/ scripts (sourced, not run).
#
# USERCAPS_CACHE   where the kernel tree, its build and ccache live
#                  (default: ${XDG_CACHE_HOME:-~/.cache}/usercaps)
# USERCAPS_LINUX   which Debian kernel: 6.1 (default) or 6.12; make's
#                  KERNEL= sets it. 6.12 has its own root, glue patches
#                  (usercaps/patches/6.12/) and config fragments
#                  (vm/config/6.12/ replaces fragments of the same name)
# LINUX_TARBALL    the source tarball (default: the linux-source-$USERCAPS_LINUX
#                  package's)
# USERCAPS_KERNEL  which kernel: empty for the benchmark kernel, "debug"
#                  (vm/config/debug/ added; its own build and logs) or
#                  "stock" (the tarball without usercaps, for the benchmark
#                  to compare with; its own tree, build and logs) or "deb"
#                  (Debian's own configuration with vm/config/deb/ instead
#                  of the guest's fragments, packaged by bindeb-pkg for real
#                  machines: make deb, in a root of its own)
# USERCAPS_KERNEL_ROOT  where this kernel's tree, build, logs, stamps and
#                  lock go (default: USERCAPS_CACHE); ccache stays in
#                  USERCAPS_CACHE, shared by every root. bench/drivers/ab builds
#                  each side of an A/B in a root of its own.
# USERCAPS_SOURCE  the directory whose usercaps/ and vm/config/ the kernel
#                  is built from (default: this repository); bench/drivers/ab
#                  points it at a revision's extracted files.

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_dir=${USERCAPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/usercaps}
linux_version=${USERCAPS_LINUX:-6.1}
case "$linux_version" in
6.1|6.12) ;;
*) echo "USERCAPS_LINUX (make's KERNEL) is '$linux_version': it takes 6.1 or 6.12" >&2; exit 2 ;;
esac
linux_package=linux-source-$linux_version
linux_tarball=${LINUX_TARBALL:-/usr/src/$linux_package.tar.xz}
kernel_variant=${USERCAPS_KERNEL:-}
# 6.1 keeps the cache's top level, where it always was; 6.12 a root of its own.
default_root=$cache_dir
[ "$linux_version" = 6.1 ] || default_root=$cache_dir/linux-$linux_version
kernel_root=${USERCAPS_KERNEL_ROOT:-$default_root}
source_dir=${USERCAPS_SOURCE:-$repo_dir}
# The stock kernel's tree cannot be the one the others patch: what is kept
# per tree (the tree, its source stamp, its lock) carries this suffix.
case "$kernel_variant" in
''|debug|deb) tree_suffix= ;;
stock) tree_suffix=-stock ;;
*) echo "USERCAPS_KERNEL is '$kernel_variant': it takes nothing, 'debug', 'stock' or 'deb'" >&2; exit 2 ;;
esac
src_dir=$kernel_root/linux$tree_suffix
build_dir=$kernel_root/build${kernel_variant:+-$kernel_variant}
log_dir=$kernel_root/logs${kernel_variant:+-$kernel_variant}
bzimage=$build_dir/arch/x86/boot/bzImage
# The glue patches of 6.1 are usercaps/patches/ itself; another kernel's
# are in usercaps/patches/VERSION/, with its module.patch if the usercaps/
# files need changes for that kernel's APIs.
patch_dir=$source_dir/usercaps/patches
[ "$linux_version" = 6.1 ] || patch_dir=$patch_dir/$linux_version
module_patch=$patch_dir/module.patch
# The guest test programs, built against this kernel's selftest headers.
guest_tests_dir=$kernel_root/tests
# The CPU TCG emulates: QEMU's max without ERMS and FSRM. TCG runs a rep
# string instruction an iteration at a time, one translated block each
# (and icount counts each as an instruction): with ERMS the kernel clears
# a page with 4096 iterations of rep stosb, half of a boot's kernel
# instructions and of a plugin boot's callbacks; without, with 512 of rep
# stosq (memset, copies likewise), and a plugin boot of a workload takes a
# third less time. KVM boots the host's CPU (-cpu host) as it is.
tcg_cpu=max,-erms,-fsrm
# Where bench/drivers/run and bench/report/plot keep this kernel's runs and pictures,
# under results/ and plots/: 6.1's at the top, another kernel's in
# linux-VERSION/.
results_subdir=
[ "$linux_version" = 6.1 ] || results_subdir=linux-$linux_version

# The usercaps/ files that go into the tree, relative to usercaps/.
tree_files() {
	(cd "$source_dir/usercaps" && find . -type f ! -path './patches/*' | sed 's|^\./||' | LC_ALL=C sort)
}

# stage_module DIR - the usercaps/ files as this kernel takes them, in DIR:
# copied, then changed by module.patch if the kernel has one.
stage_module() {
	local dir=$1 f
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$source_dir/usercaps" && tar -cf - $(tree_files)) | tar -xf - -C "$dir"
	if [ -f "$module_patch" ]; then
		patch -d "$dir" -p1 --batch --quiet --no-backup-if-mismatch <"$module_patch" ||
			{ echo "${module_patch#"$source_dir"/} does not apply to usercaps/" >&2; return 1; }
	fi
}

# The config fragments for this kernel: vm/config/*.config, a fragment in
# vm/config/VERSION/ replacing the one of the same name or adding to them.
config_fragments() {
	local frag name
	for frag in "$source_dir"/vm/config/*.config "$source_dir/vm/config/$linux_version"/*.config; do
		[ -f "$frag" ] || continue
		name=${frag##*/}
		case "$frag" in
		"$source_dir/vm/config/$linux_version/"*) ;;
		*) [ -f "$source_dir/vm/config/$linux_version/$name" ] && continue ;;
		esac
		echo "$frag"
	done
}

# The glue patches, in order, from usercaps/patches/series.
series() {
	[ -f "$patch_dir/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patch_dir/series"
}

# step NAME CMD... - run CMD with its output in the step's log, print how
# long it took, and on failure the log's tail.
step() {
	local name=$1 log start rc
	shift
	log=$log_dir/$name.log
	mkdir -p "$log_dir"
	start=$(date +%s)
	printf '  %-10s ' "$name"
	rc=0
	# In the background so that set -e stays in force inside "$@".
	"$@" >"$log" 2>&1 &
	wait $! || rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAILED after $(($(date +%s) - start)) s (exit $rc); log: $log"
		tail -n 40 "$log" | sed 's/^/    | /'
		return "$rc"
	fi
	echo "$(($(date +%s) - start)) s"
}
