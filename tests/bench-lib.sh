# shellcheck shell=bash
# tests/bench-lib.sh - made-up bench/drivers/run run directories, for the bench-*.t
# scripts that test bench/report/summarize and bench/report/plot without a kernel
# (sourced).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# made_up_meta RUN_DIR KEY=VALUE... - RUN_DIR/meta of a made-up complete
# run: the run id, commit and kernel that bench/report/summarize and bench/report/plot
# label it with, then KEY=VALUE (workloads= and churn= say which rows
# are the run's).
made_up_meta() {
	local run_dir=$1
	shift
	mkdir -p "$run_dir"
	printf '%s\n' run_id=20260101-000000-test status=complete git_commit=test kernel_release=6.1.0-test "$@" \
		>"$run_dir/meta"
}

# made_up_boot RUN_DIR BOOT - RUN_DIR/raw/BOOT, a boot under icount that
# ran one of two kernel images, stock's or usercaps', by the kernel in
# BOOT (<mode>-run<N>-<kernel>[@<stack>]): bench/report/summarize refuses a run
# whose boots of one image ran different kernels.
made_up_boot() {
	local boot_dir=$1/raw/$2 kernel=${2#*-*-} image=usercaps
	[ "${kernel%@*}" != stock ] || image=stock
	mkdir -p "$boot_dir"
	printf 'guest_kernel_version=#1 %s\nguest_kernel_config_sha256=%s\n' "$image" "$image" >"$boot_dir/guest-meta"
	echo accel=icount >"$boot_dir/vm-meta"
}
