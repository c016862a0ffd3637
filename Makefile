# usercaps - top-level targets. 'make help' lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Where the kernel tree, its build, ccache and test binaries live (outside
# the repository); vm/lib.sh reads the same variable.
USERCAPS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/usercaps
export USERCAPS_CACHE

# Which Debian kernel every target works on: 6.1 (the default) or 6.12,
# each in a root of its own in the cache (vm/lib.sh's USERCAPS_LINUX).
KERNEL ?= 6.1
export USERCAPS_LINUX := $(KERNEL)

# Test scripts run by prove, TEST_JOBS at once (default: one per CPU):
# the suites that take over 30 s (warm, 2 CPUs), longest first, so that
# the short ones fill the end; then the rest in name order.
TEST_JOBS ?= $(shell nproc)
SLOW_TESTS := tests/vm-run.t tests/bench-exact.t tests/usercaps-stress.t tests/bench-realwork-boot.t \
	tests/capabilities-selftest.t tests/usercaps-observe.t tests/usercapsctl.t tests/plugin.t \
	tests/bench-run.t tests/usercaps-hostile.t tests/usercaps-systemd.t tests/kernel-deb.t
TESTS ?= $(filter $(wildcard tests/*.t),$(SLOW_TESTS)) \
	$(filter-out $(SLOW_TESTS),$(sort $(wildcard tests/*.t)))

# usercapsctl (tools/usercapsctl/), built out of the repository too; the
# usercapsctl*.t tests build it themselves.
USERCAPSCTL_DIR := $(USERCAPS_CACHE)/tools

.PHONY: help deps kernel kernel-stock test test-debug bench bench-kernels bench-ab plugin profile patches clean usercapsctl \
	deb deb-usercapsctl deb-kernel

help:
	@echo 'usercaps - user based capabilities for Linux 6.1 (and 6.12), and what they cost'
	@echo
	@echo '  make deps     install the Debian packages that are missing (root)'
	@echo '  make kernel   extract linux-source-$(KERNEL), add usercaps, build bzImage'
	@echo '  make kernel-stock  the same kernel without usercaps, for the benchmark'
	@echo '  make test     deps + kernel + every test suite, booted in QEMU'
	@echo '  make test-debug  the booted suites on a KASAN/lockdep/PROVE_RCU kernel'
	@echo '  make bench    deps + both kernels + benchmarks + plots (QUICK=1: minutes, in results/quick/)'
	@echo '  make bench-kernels  the latest 6.1 and 6.12 runs side by side (per check)'
	@echo '  make bench-ab A=REV B=REV  build both revisions, compare each capability check (plugin; boots cached)'
	@echo '  make plugin   the capcheck QEMU plugin and its guest helper, into the cache'
	@echo '  make profile  per-function profile of one capable() check in every'
	@echo '                configuration (plugin), checked against icount;'
	@echo '                ANNOTATE="cap_capable ..." adds each instruction of these'
	@echo '                functions, per check (annotate.md, bench/report/annotate)'
	@echo '  make patches  export usercaps as a checked format-patch series'
	@echo '  make usercapsctl  build the admin tool into $$USERCAPS_CACHE/tools'
	@echo '  make deb      Debian packages into $$USERCAPS_CACHE/deb: usercapsctl'
	@echo '                (make deb-usercapsctl, a minute) and linux-image with usercaps'
	@echo '                (make deb-kernel: Debian'"'"'s configuration, every module: a long build;'
	@echo '                DEB_CONFIG=guest: the guest'"'"'s kernel, minutes)'
	@echo '  make clean    remove the test binaries and logs (keeps the kernel build)'
	@echo
	@echo '  KERNEL=6.12 does any of these on linux-source-6.12 (default: 6.1)'
	@echo '  USERCAPS_CACHE=$(USERCAPS_CACHE)'
	@echo '  TESTS="tests/x.t ..." runs only those suites, TEST_JOBS=N of them at once (default: CPUs)'
	@echo '  BENCH_FLAGS="--runs 7 ..." passes options to bench/drivers/run'
	@echo '  AB_FLAGS="--kernels ..." passes options to bench/drivers/ab (REV may be WORKTREE)'

deps:
	@vm/deps

kernel: deps
	@vm/build-kernel

# The tarball without the usercaps series, in $(USERCAPS_CACHE)/build-stock,
# for the benchmark to compare with.
kernel-stock: deps
	@USERCAPS_KERNEL=stock vm/build-kernel

test: kernel
	@prove --exec '' --timer -j$(TEST_JOBS) $(PROVE_FLAGS) $(addprefix ./,$(TESTS))

# The booted suites again on the debug kernel (vm/config/debug/: KASAN,
# KFENCE, lockdep, PROVE_RCU...), built in $(USERCAPS_CACHE)/build-debug;
# vm/run fails every boot whose kernel reports a problem (status 121).
# The record, with its figures, goes to results/debug/<run-id>/. Left out:
# the host-only suites, and those whose profile boots reproduce the exact
# figures (bench-exact, bench-annotate): a KASAN kernel's figures are not
# the record's, and under the plugin its boots outlast their timeout.
DEBUG_TESTS ?= $(filter-out tests/vm-run.t tests/usercapsctl-host.t tests/usercapsctl-deb.t tests/bench-host.t tests/bench-run.t \
	tests/kernel-stock.t tests/build-kernel.t tests/kernel-deb.t tests/bench-exact.t tests/bench-annotate.t,$(TESTS))
test-debug: deps
	@USERCAPS_KERNEL=debug vm/build-kernel
	@USERCAPS_KERNEL=debug PROVE_FLAGS='-j$(TEST_JOBS) $(PROVE_FLAGS)' vm/test-debug $(addprefix ./,$(DEBUG_TESTS))

# QUICK=1: icount and profile, one boot per kernel configuration (a few minutes),
# into results/quick/ and plots/quick/: never the record, results/latest;
# BENCH_FLAGS: more bench/drivers/run options (bench/drivers/run --help).
bench: kernel kernel-stock
	@bench/drivers/run $(if $(QUICK),--quick) $(BENCH_FLAGS)
	@bench/report/plot $(if $(QUICK),--quick)
	@if [ -z "$(QUICK)" ] && [ "$(KERNEL)" != 6.1 ] && [ -e results/latest ]; then $(MAKE) --no-print-directory bench-kernels; fi

# The latest 6.1 and 6.12 runs side by side: results/kernels/, plots/
# per-check-kernels.*; then the figures that quote them (bench/report/figures).
bench-kernels:
	@bench/report/kernels results/latest results/linux-6.12/latest
	@bench/report/figures

# A/B of two revisions (or WORKTREE), each built in its own root under
# $(USERCAPS_CACHE)/ab/; bench/drivers/ab builds the stock reference if missing.
bench-ab: deps
	@bench/drivers/ab $(AB_FLAGS) -- '$(A)' '$(B)'
# The QEMU plugin that profiles each capability check (bench/plugin/),
# built with the header of Debian's qemu source package, fetched into the
# cache.
plugin: deps
	@bench/plugin/build

# Every kernel configuration and case once with the plugin, and once in
# icount mode (QUICK's short repeats) for the per-check figures its totals
# must match; bench/drivers/run fails when they do not. A quick run: results/quick/.
# ANNOTATE: kernel functions whose instructions are counted one by one.
profile: plugin kernel kernel-stock
	@bench/drivers/run --quick --mode icount,profile $(if $(ANNOTATE),--annotate '$(ANNOTATE)') $(BENCH_FLAGS)
	@bench/report/plot --quick

patches:
	@vm/export-series

usercapsctl:
	@$(MAKE) -C tools/usercapsctl OUT='$(USERCAPSCTL_DIR)'

# Debian packages, into $(USERCAPS_CACHE)/deb: usercapsctl with
# dpkg-buildpackage and lintian (tools/usercapsctl/debian/), and the
# kernel with usercaps as a linux-image package (vm/build-kernel with
# USERCAPS_KERNEL=deb: Debian's own configuration, packaged by bindeb-pkg),
# built in a root of its own, deb/kernel/, where its .deb lands.
deb: deb-usercapsctl deb-kernel

deb-usercapsctl: deps
	@$(MAKE) -C tools/usercapsctl deb OUT='$(USERCAPSCTL_DIR)' DEBDIR='$(USERCAPS_CACHE)/deb'

# DEB_CONFIG=guest packages the guest's kernel instead (the benchmark
# kernel's configuration: minutes, for a virtual machine), in deb/kernel-guest/.
DEB_CONFIG ?= debian
DEB_KERNEL_ROOT = $(USERCAPS_CACHE)/deb/$(if $(filter-out 6.1,$(KERNEL)),linux-$(KERNEL)/)kernel$(if $(filter guest,$(DEB_CONFIG)),-guest)
deb-kernel: deps
	@USERCAPS_KERNEL=deb USERCAPS_DEB_CONFIG='$(DEB_CONFIG)' USERCAPS_KERNEL_ROOT='$(DEB_KERNEL_ROOT)' vm/build-kernel

clean:
	rm -rf '$(USERCAPS_CACHE)/tests' '$(USERCAPS_CACHE)/logs' '$(USERCAPSCTL_DIR)'
