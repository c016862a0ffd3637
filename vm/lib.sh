# vm/lib.sh - settings shared by the vm/ scripts (sourced, not run).
#
# USERCAPS_CACHE   where the kernel tree, its build and ccache live
#                  (default: ${XDG_CACHE_HOME:-~/.cache}/usercaps)
# LINUX_TARBALL    the source tarball (default: the linux-source-6.1 package's)
# USERCAPS_KERNEL  which kernel: empty for the benchmark kernel, "debug"
#                  (vm/config/debug/ added; its own build and logs) or
#                  "stock" (the tarball without usercaps, for the benchmark
#                  to compare with; its own tree, build and logs)
# USERCAPS_KERNEL_ROOT  where this kernel's tree, build, logs, stamps and
#                  lock go (default: USERCAPS_CACHE); ccache stays in
#                  USERCAPS_CACHE, shared by every root. bench/ab builds
#                  each side of an A/B in a root of its own.
# USERCAPS_SOURCE  the directory whose usercaps/ and vm/config/ the kernel
#                  is built from (default: this repository); bench/ab
#                  points it at a revision's extracted files.

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_dir=${USERCAPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/usercaps}
linux_tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
kernel_variant=${USERCAPS_KERNEL:-}
kernel_root=${USERCAPS_KERNEL_ROOT:-$cache_dir}
source_dir=${USERCAPS_SOURCE:-$repo_dir}
# The stock kernel's tree cannot be the one the others patch: what is kept
# per tree (the tree, its source stamp, its lock) carries this suffix.
case "$kernel_variant" in
''|debug) tree_suffix= ;;
stock) tree_suffix=-stock ;;
*) echo "USERCAPS_KERNEL is '$kernel_variant': it takes nothing, 'debug' or 'stock'" >&2; exit 2 ;;
esac
src_dir=$kernel_root/linux$tree_suffix
build_dir=$kernel_root/build${kernel_variant:+-$kernel_variant}
log_dir=$kernel_root/logs${kernel_variant:+-$kernel_variant}
bzimage=$build_dir/arch/x86/boot/bzImage
patch_dir=$source_dir/usercaps/patches

# The usercaps/ files that go into the tree, relative to usercaps/.
tree_files() {
	(cd "$source_dir/usercaps" && find . -type f ! -path './patches/*' | sed 's|^\./||' | LC_ALL=C sort)
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
