"""summary_rows - bench/report/summarize's second part: the rows derived
from the raw data (summary_raw.Raw), each a list of the cells its CSV
writes, in the order the summary shows them.

rows(): one row a workload, configuration, mode and variant (summary.csv,
COLUMNS); per_check_rows(): icount's instructions added per capability
check (checks.csv, CHECK_COLUMNS); latency_rows() (latency.csv,
LATENCY_COLUMNS), cdf_rows() (cdf.csv), memory_rows() (memory.csv);
noise_floor() the churn's noise. Their order: order_key()."""
import statistics

BOOT_CONFIGS = ["commoncap-boot", "naive-boot", "cached-boot", "percred-boot"]
UPDATE_CONFIGS = ["naive-update", "cached-update", "percred-update"]
# The churn workloads that need no capability (capbench --list: "-"): their
# grant and deny configurations do the same work, so their difference in
# one boot is the measurement's noise.
CAPLESS_CHURN = ["fork", "fork-exec", "setresuid", "setresgid", "capset"]
UPDATE_WORKLOADS = ["chmod", "chown", "apply-41", "visibility-p50", "visibility-p99",
                    "visibility-max"]
USERCAPS_CASES = ["grant", "deny", "deny-group", "deny-owner", "root"]
CONFIG_ORDER = (
    ["stock-allowed", "stock-denied", "stock-root",
     "commoncap-allowed", "commoncap-denied", "commoncap-root"]
    + [f"{k}-{c}" for k in ("naive", "cached", "percred") for c in USERCAPS_CASES]
    + ["stock-boot"] + BOOT_CONFIGS + UPDATE_CONFIGS)
MODE_ORDER = ["icount", "wall"]
STACK_ORDER = ["debian", "bare"]
KERNELS = ["naive", "cached", "percred"]
COLUMNS = [
    "workload", "config", "mode", "accel", "runs", "samples",
    "ns_per_op_min", "ns_per_op_median", "ns_per_op_max", "spread_pct",
    "reference", "ratio", "overhead_ns", "variant",
    "ratio_min", "ratio_max",
]
CHECK_COLUMNS = [
    "workload", "config", "kernel", "case", "reference", "checks_per_call",
    "added_ns_per_call", "added_per_check", "added_per_check_min", "added_per_check_max",
    "repeat_spread_per_check", "boots",
]
LATENCY_COLUMNS = [
    "workload", "config", "mode", "accel", "runs", "calls",
    "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns",
]
MEMORY_COLUMNS = ["kernel", "stack", "cred_blob_bytes", "kmalloc_bytes",
                  "added_blob_bytes", "added_kmalloc_bytes"]


def workloads(meta):
    """The run's workloads in the summary's order (meta's workloads and
    churn, then the boot's and the policy updates')."""
    return (meta.get("workloads", "").split() + meta.get("churn", "").split()
            + ["boot-to-init", "usercaps-initcall"] + UPDATE_WORKLOADS)


def base_of(nsop):
    """The kernel every configuration is compared with: stock (built
    without usercaps) when the run booted it, else commoncap."""
    return "stock" if any(k[1].startswith("stock-") for k in nsop) else "commoncap"


def reference_of(config, variant, base):
    """The configuration CONFIG's rows are compared with: BASE's (stock, the
    kernel built without usercaps, or commoncap when a run has no stock
    boots) in the same outcome: allowed, denied, root; for the credential
    churn, commoncap on the same stack (the bare stack has no stock boot)."""
    if variant.startswith("stack="):
        base = "commoncap"
    if config.endswith("-boot"):
        return f"{base}-boot"
    if config.endswith("-root"):
        return f"{base}-root"
    if config.endswith(("-deny", "-denied", "-deny-group", "-deny-owner")):
        return f"{base}-denied"
    return f"{base}-allowed"


def variant_key(variant):
    """Plain runs first, then groups by count, then storms."""
    kind, _, value = variant.partition("=")
    if kind == "groups":
        return (1, int(value), "")
    if kind == "storm":
        return (2, 0, value)
    if kind == "stack":
        return (3, STACK_ORDER.index(value) if value in STACK_ORDER else 9, value)
    if kind == "update":
        return (4, 0, "")
    return (0, 0, variant)


def order_key(workloads, row, variant_column=None):
    """A row's place: by mode, variant, workload (in WORKLOADS' order),
    then configuration."""
    workload, config, mode = row[:3]
    return (
        MODE_ORDER.index(mode) if mode in MODE_ORDER else 99,
        variant_key(row[variant_column]) if variant_column is not None else (0, 0, ""),
        workloads.index(workload) if workload in workloads else 99,
        CONFIG_ORDER.index(config) if config in CONFIG_ORDER else 99,
    )


def fmt(value, digits=1):
    return f"{value:.{digits}f}"


def rows(nsop, accel, workloads):
    """summary.csv's rows (COLUMNS) of NSOP (summary_raw.Raw.nsop): over
    every repeat of every boot, the min, median and max ns/op, and the
    ratio of the median to the reference's (reference_of), taken within
    each run, with its range."""
    medians = {key: statistics.median([v for vs in runs.values() for v in vs])
               for key, runs in nsop.items()}
    base = base_of(nsop)
    out = []
    for key, runs in nsop.items():
        workload, config, mode, variant = key
        values = [v for vs in runs.values() for v in vs]
        lo, med, hi = min(values), medians[key], max(values)
        ref = reference_of(config, variant, base)
        # Only usercaps reads the groups: the reference's plain run is the
        # reference of every group count.
        ref_key = (workload, ref, mode, variant)
        if ref_key not in nsop:
            ref_key = (workload, ref, mode, "-")
        ref_med = medians.get(ref_key)
        # Within each run: this configuration's median over the reference's.
        ref_runs = nsop.get(ref_key, {})
        ratios = sorted(statistics.median(vs) / statistics.median(ref_runs[run])
                        for run, vs in runs.items()
                        if ref_runs.get(run) and statistics.median(ref_runs[run]) > 0)
        out.append([
            workload, config, mode, accel.get(mode, "?"), len(runs), len(values),
            fmt(lo), fmt(med), fmt(hi), fmt((hi - lo) / med * 100, 3) if med else "",
            ref, fmt(statistics.median(ratios), 3) if ratios else "",
            fmt(med - ref_med) if ref_med is not None else "", variant,
            fmt(ratios[0], 3) if ratios else "", fmt(ratios[-1], 3) if ratios else "",
        ])
    out.sort(key=lambda r: order_key(workloads, r, COLUMNS.index("variant")))
    return out


def per_check_rows(nsop, checks, base):
    """The icount plain rows as instructions added per capability check,
    against BASE, for every configuration whose calls make a check."""
    out = []
    for (workload, config, mode, variant), runs in nsop.items():
        if mode != "icount" or variant != "-" or config.startswith(f"{base}-"):
            continue
        counts = checks.get((workload, config), {})
        if not counts or statistics.median(counts.values()) <= 0:
            continue
        ref = reference_of(config, variant, base)
        ref_runs = nsop.get((workload, ref, mode, variant), {})
        # Each boot against the reference's boot of the same round, by the
        # fewest instructions of their repeats: under icount what differs
        # between repeats is what lands in the timed loop besides the calls
        # (timer interrupts, deferred work), and it only ever adds. A boot
        # whose checks were not counted (the rounds after the first) takes
        # the counted boots' checks per call.
        n = statistics.median(counts.values())
        per_boot, per_call = [], []
        for run, values in runs.items():
            if run in ref_runs:
                per_call.append(min(values) - min(ref_runs[run]))
                per_boot.append(per_call[-1] / counts.get(run, n))
        if not per_boot:
            continue
        all_values = [v for vs in runs.values() for v in vs]
        ref_values = [v for vs in ref_runs.values() for v in vs]
        added = statistics.median(per_call)
        spread = ((max(all_values) - min(all_values)) + (max(ref_values) - min(ref_values))) / 2 / n
        kernel, case = config.split("-", 1)
        out.append([workload, config, kernel, case, ref, f"{n:g}", f"{added:.2f}",
                    f"{statistics.median(per_boot):.3f}", f"{min(per_boot):.3f}",
                    f"{max(per_boot):.3f}", f"{spread:.3f}", len(per_boot)])
    kernels = ["commoncap"] + KERNELS
    out.sort(key=lambda r: (r[0], kernels.index(r[2]) if r[2] in kernels else 9,
                            CONFIG_ORDER.index(r[1]) if r[1] in CONFIG_ORDER else 99))
    return out


def latency_rows(latency, accel, workloads):
    """latency.csv's rows (LATENCY_COLUMNS): each percentile the median
    over the repeats, max the largest."""
    out = []
    for (workload, config, mode), samples in latency.items():
        percentiles = list(zip(*(p for _, p in samples)))
        out.append([workload, config, mode, accel.get(mode, "?"), len(samples),
                    sum(n for n, _ in samples)]
                   + [int(statistics.median(p)) for p in percentiles[:4]]
                   + [max(percentiles[4])])
    out.sort(key=lambda r: order_key(workloads, r))
    return out


def cdf_rows(cdf, workloads):
    """cdf.csv's rows: workload, config, mode, quantile and the median ns
    at that quantile."""
    return [list(key) + [quantile, int(statistics.median(cdf[key][quantile]))]
            for key in sorted(cdf, key=lambda k: order_key(workloads, k))
            for quantile in sorted(cdf[key], key=float)]


def kmalloc_class(size):
    """The kmalloc cache a kzalloc of SIZE bytes lands in (0: none made),
    for SLUB's general caches of x86_64: 8, 16, 32, 64, 96, 128, 192, 256..."""
    if size == 0:
        return 0
    for cache in (8, 16, 32, 64, 96, 128, 192):
        if size <= cache:
            return cache
    cache = 256
    while cache < size:
        cache *= 2
    return cache


def memory_rows(blobs):
    """memory.csv's rows (MEMORY_COLUMNS): each kernel configuration's
    credential blob, and what usercaps adds to every credential over
    commoncap on the same stack."""
    sizes = {}
    for kernel, stack, _mode, blob in blobs:
        sizes.setdefault((kernel, stack), set()).add(blob)
    out = []
    for (kernel, stack), seen in sorted(sizes.items(), key=lambda kv: (
            STACK_ORDER.index(kv[0][1]) if kv[0][1] in STACK_ORDER else 9,
            (["commoncap"] + KERNELS).index(kv[0][0]) if kv[0][0] in ["commoncap"] + KERNELS else 9)):
        blob = max(seen)
        base = max(sizes.get(("commoncap", stack), {None}) - {None}, default=None)
        out.append([kernel, stack, blob, kmalloc_class(blob),
                    "" if base is None else blob - base,
                    "" if base is None else kmalloc_class(blob) - kmalloc_class(base)])
    return out


def noise_floor(churn):
    """{workload: largest % difference of the medians of two configurations
    of one kernel and stack that do the same work}, of the churn rows
    CHURN."""
    median = {(r[0], r[1], r[13]): float(r[7]) for r in churn}
    noise = {}
    for (workload, config, variant), value in median.items():
        if workload not in CAPLESS_CHURN or not config.endswith(("-grant", "-allowed")):
            continue
        kernel = config.rsplit("-", 1)[0]
        other = median.get((workload, kernel + ("-denied" if kernel == "commoncap" else "-deny"),
                            variant))
        if other:
            pct = abs(value / other - 1) * 100
            noise[workload] = max(noise.get(workload, 0.0), pct)
    return noise
