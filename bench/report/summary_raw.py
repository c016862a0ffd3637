"""summary_raw - bench/report/summarize's first part: the raw data of a
bench/drivers/run directory (raw/<mode>-run<N>-<kernel>[@<stack>]/), read
as it is, before any figure is derived from it.

read(raw) walks every boot that did not fail and returns a Raw; the small
readers below it each read one kind of file, and return {} or [] (or None)
when it is missing. perf_profiles(raw) reads the perf boots'."""
import os
import re
from collections import defaultdict


class Raw:
    """What the boots of one run measured, keyed as the rows will be.

    nsop: (workload, config, mode, variant) -> {run: [ns/op of each repeat]}
    checks: (workload, config) -> {run: capability checks per call}
    repeat_totals: icount's plain rows: (total guest ns, workload, config,
        boot) of each repeat
    latency: (workload, config, mode) -> [(calls, [p50, p90, p99, p99.9,
        max ns])] of each repeat
    cdf: (workload, config, mode) -> {quantile: [ns of each repeat]}
    storm_rates: boot -> policy-storm's own report lines
    blobs: [(kernel, stack, mode, credential blob bytes)]
    policy: [(kernel, mode, item, value, unit)] (policy_rows)
    accel: mode -> the accelerator its boots ran under
    kernels_seen: "stock" or "usercaps" -> {(kernel version, .config sha256)}
    active_lsms: <kernel>[@<stack>] -> {the LSM list its boots ran}
    boots: the names of the boots that ran a workload
    """

    def __init__(self):
        self.nsop = defaultdict(lambda: defaultdict(list))
        self.checks = defaultdict(dict)
        self.repeat_totals = []
        self.latency = defaultdict(list)
        self.cdf = defaultdict(lambda: defaultdict(list))
        self.storm_rates = defaultdict(list)
        self.blobs = []
        self.policy = []
        self.accel = {}
        self.kernels_seen = defaultdict(set)
        self.active_lsms = {}
        self.boots = []

    def mixed_kernels(self):
        """{image: the kernels seen} of the images whose boots ran more
        than one kernel ({} when each ran one)."""
        return {image: seen for image, seen in self.kernels_seen.items() if len(seen) > 1}

    def guest_config_sha(self):
        """["<image> <sha256 of the booted kernel's .config>"]."""
        return [f"{image} {next(iter(seen))[1]}" for image, seen in sorted(self.kernels_seen.items())]


def read(raw):
    """The Raw of the directory RAW (a run's raw/; empty when missing)."""
    data = Raw()
    for name in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
        if name.endswith("-failed"):
            continue
        read_boot(data, name, os.path.join(raw, name))
    return data


def read_boot(data, name, boot_dir):
    """Add the boot NAME's files in BOOT_DIR to DATA."""
    mode, run, step_config = name.split("-", 2)
    kernel, _, stack = step_config.partition("@")
    stack = stack or "debian"
    console = os.path.join(boot_dir, "console.log")
    vm = read_keyvalues(os.path.join(boot_dir, "vm-meta"))
    nsop = data.nsop
    dmesg = os.path.join(boot_dir, "dmesg.log")
    # The boot boots (--mode boot) only time the boot; the first icount
    # round's boots on the kernel's own stack time it too when they saved
    # the ring buffer (initcall_debug) before their workloads.
    if mode == "boot" or (mode == "icount" and run == "run1" and stack == "debian"
                          and os.path.exists(dmesg)):
        seconds = init_time(console)
        if seconds is not None:
            data.accel["icount"] = vm.get("accel", "?")
            nsop[("boot-to-init", f"{kernel}-boot", "icount", f"stack={stack}")][run].append(
                seconds * 1e9)
        usecs = initcall_usecs(dmesg, "usercaps_init_securityfs")
        if usecs is not None:
            nsop[("usercaps-initcall", f"{kernel}-boot", "icount", f"stack={stack}")][run].append(
                usecs * 1e3)
        if mode == "boot":
            return
    guest = read_keyvalues(os.path.join(boot_dir, "guest-meta"))
    if not guest:
        return
    blob = blob_size(console)
    if blob is not None:
        data.blobs.append((kernel, stack, mode, blob))
    data.boots.append(name)
    data.active_lsms.setdefault(step_config, set()).add(guest.get("guest_lsm", "?"))
    data.accel[mode] = vm.get("accel", "?")
    data.kernels_seen["stock" if kernel == "stock" else "usercaps"].add(
        (guest.get("guest_kernel_version"), guest.get("guest_kernel_config_sha256")))
    for workload, config, _rep, _n, total, ns in data_rows(os.path.join(boot_dir, "nsop.dat")):
        nsop[(workload, config, mode, "-")][run].append(float(ns))
        if mode == "icount":
            data.repeat_totals.append((int(total), workload, config, name))
    for workload, config, _n, _a, _b, per_call in data_rows(os.path.join(boot_dir, "checks.dat")):
        # A whole number of checks per call, but for the odd check of
        # another process during the counted runs.
        value = float(per_call)
        data.checks[(workload, config)][run] = round(value) if abs(value - round(value)) < 0.05 \
            else value
    for groups, workload, config, _rep, _n, _total, ns in data_rows(
            os.path.join(boot_dir, "groups.dat")):
        nsop[(workload, config, mode, f"groups={groups}")][run].append(float(ns))
    for storm, workload, config, _rep, _n, _total, ns in data_rows(
            os.path.join(boot_dir, "storm.dat")):
        nsop[(workload, config, mode, f"storm={storm}")][run].append(float(ns))
    data.storm_rates[name] += storm_rate_lines(os.path.join(boot_dir, "storm.dat"))
    for stack_name, workload, config, _rep, _n, _total, ns in data_rows(
            os.path.join(boot_dir, "churn.dat")):
        nsop[(workload, config, mode, f"stack={stack_name}")][run].append(float(ns))
    for fields in data_rows(os.path.join(boot_dir, "updates.dat")):
        if len(fields) == 6:
            nsop[(fields[0], fields[1], mode, "update")][run].append(float(fields[5]))
        elif len(fields) == 9:
            data.latency[(fields[0], fields[1], mode)].append(
                (int(fields[3]), [int(p) for p in fields[4:]]))
    for what, config, _flips, p50, _p90, p99, most in data_rows(
            os.path.join(boot_dir, "visibility.dat")):
        if what == "visibility":
            for which, value in (("p50", p50), ("p99", p99), ("max", most)):
                nsop[(f"visibility-{which}", config, mode, "update")][run].append(float(value))
    data.policy += policy_rows(boot_dir, kernel, mode)
    for workload, config, _rep, n, *pct in data_rows(os.path.join(boot_dir, "latency.dat")):
        data.latency[(workload, config, mode)].append((int(n), [int(p) for p in pct]))
    for workload, config, _rep, quantile, ns in data_rows(os.path.join(boot_dir, "cdf.dat")):
        data.cdf[(workload, config, mode)][quantile].append(int(ns))


def read_keyvalues(path):
    """The key=value lines of PATH ({} when it is missing)."""
    values = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep:
                    values[key] = value
    return values


def data_rows(path):
    """The whitespace-separated rows of PATH that are not '#' comments."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def first_match(path, pattern):
    """The first match of PATTERN in a line of the text file PATH, or None
    (and None when PATH is missing)."""
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(pattern, line)
            if m:
                return m
    return None


def init_time(console):
    """Seconds from the kernel's start to running init, from the printk
    stamp of "Run ... as init process" (None when the boot never got there)."""
    m = first_match(console, r"\[\s*(\d+\.\d+)\] Run \S+ as init process")
    return float(m.group(1)) if m else None


def initcall_usecs(dmesg, function):
    """How long initcall FUNCTION took, in us (initcall_debug), or None."""
    m = first_match(dmesg, r"initcall " + function + r"\+\S+ returned -?\d+ after (\d+) usecs")
    return int(m.group(1)) if m else None


def blob_size(console):
    """The credential blob's size in bytes (lsm.debug), or None."""
    m = first_match(console, r"LSM: cred blob size\s*=\s*(\d+)")
    return int(m.group(1)) if m else None


def storm_rate_lines(path):
    """policy-storm's own reports, kept as comments in storm.dat."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line[2:].strip() for line in f if line.startswith("# policy-storm:")]


def policy_rows(boot_dir, kernel, mode):
    """bench/guest/updates' rcu.dat and memory.dat of one boot, as
    (kernel, mode, item, value, unit) rows."""
    rows = []
    for config, updates, sync, sync_exp, kvfree, call in data_rows(
            os.path.join(boot_dir, "rcu.dat")):
        n = int(updates)
        rows += [(kernel, mode, "updates-traced", n, "chmods"),
                 (kernel, mode, "synchronize_rcu-per-update", int(sync) / n, "calls"),
                 (kernel, mode, "synchronize_rcu_expedited-per-update", int(sync_exp) / n, "calls"),
                 (kernel, mode, "kvfree_call_rcu-per-update", int(kvfree) / n, "calls"),
                 (kernel, mode, "call_rcu-per-update", int(call) / n, "calls")]
    phases = {}
    for config, phase, sunreclaim, cache, objs, size in data_rows(
            os.path.join(boot_dir, "memory.dat")):
        phases[phase] = (int(sunreclaim), cache, int(objs), int(size))
    for phase, (sunreclaim, cache, objs, size) in phases.items():
        rows += [(kernel, mode, f"{cache}-objects-{phase}", objs, "objects"),
                 (kernel, mode, f"{cache}-bytes-{phase}", objs * size, "bytes"),
                 (kernel, mode, f"sunreclaim-{phase}", sunreclaim, "kB")]
    if "before" in phases and "after" in phases:
        cache = phases["before"][1]
        rows.append((kernel, mode, f"{cache}-objects-after-minus-before",
                     phases["after"][2] - phases["before"][2], "objects"))
    return rows


def perf_profiles(raw):
    """The perf boots of RAW: ({"perf": {config: {symbol: (children %,
    self %)}}, "samples": {config: n}, "realistic": [(count, capname)] of
    the realistic workload's checks, most first}, {dat: its lines}), each
    dat (capable-hist.dat, capable-count.dat) every boot's rows after the
    first boot's '#' comments."""
    perf, samples, realistic = {}, {}, defaultdict(int)
    dats = {"capable-hist.dat": [], "capable-count.dat": []}
    names = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
    # A failed attempt that bench/drivers/run retried is kept as <step>-failed.
    for name in (n for n in names if n.startswith("perf-") and not n.endswith("-failed")):
        boot_dir = os.path.join(raw, name)
        for dat, lines in dats.items():
            path = os.path.join(boot_dir, dat)
            if os.path.exists(path):
                with open(path) as f:
                    for line in f:
                        if line.startswith("#"):
                            if not lines:
                                lines.append(line)
                        else:
                            lines.append(line)
        for config, workload, capname, count in data_rows(os.path.join(boot_dir, "capable-count.dat")):
            if workload == "realistic":
                realistic[capname] += int(count)
        for entry in sorted(os.listdir(boot_dir)):
            m = re.match(r"perf-capable-(.+)\.txt$", entry)
            if not m:
                continue
            config = m.group(1)
            with open(os.path.join(boot_dir, entry)) as f:
                for line in f:
                    head = re.match(r"# \S+ in \S+: (\d+) cpu-clock samples", line)
                    if head:
                        samples[config] = int(head.group(1))
                    row = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\d+\s+\[k\] (\S+)", line)
                    if row:
                        perf.setdefault(config, {})[row.group(3)] = (float(row.group(1)),
                                                                     float(row.group(2)))
    return {"perf": perf, "samples": samples,
            "realistic": sorted(((n, c) for c, n in realistic.items()), reverse=True)}, dats
