"""summary_markdown - bench/report/summarize's last part: summary.md, what
a reader opens first, from summary_rows' rows and the goals' sections
(summary_goals): the run, the headline (the exact cost per check and the
goals), icount's cross-check, then each mode's table and what the run
measured off the capable() path. table() writes a markdown table for
every part."""
import os
import statistics
from collections import defaultdict

from summary_rows import CONFIG_ORDER, KERNELS, MODE_ORDER, noise_floor


def table(header, rows, text_columns=2):
    """A markdown table: HEADER's cells, then each row's; numbers right of
    the first TEXT_COLUMNS."""
    align = ["---" if i < text_columns else "---:" for i in range(len(header))]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"] + \
        ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def offpath_goals(rows):
    """What icount alone measures of the goals that are no instruction
    count of a check (the groups, a process's birth): shown, never a
    verdict (bench/exact decides the goals)."""
    out = []
    med = {(r[0], r[1], r[13]): float(r[7]) for r in rows if r[2] == "icount"}
    counts = sorted({int(v.split("=")[1]) for (_, _, v) in med if v.startswith("groups=")})
    for config in ("percred-grant", "percred-deny-group"):
        keys = [("kill", config, f"groups={n}") for n in (counts[:1] + counts[-1:])]
        if counts and all(k in med for k in keys):
            out.append(f"- {config}, {counts[0]} to {counts[-1]} supplementary groups: "
                       f"{med[keys[0]]:.1f} -> {med[keys[1]]:.1f} ns/op of kill (icount, "
                       f"whole calls: not a verdict)")
    births = [(r[1], r[13].split("=")[1], float(r[11])) for r in rows
              if r[0] == "fork-exec" and r[2] == "icount" and r[11]
              and r[1].split("-")[0] in KERNELS]
    if births:
        out.append("- fork-exec against commoncap on the same stack (icount guest time, which "
                   "counts 9p I/O waits and skipped idle as well as instructions: not a "
                   "verdict): " + ", ".join(f"{c} ({st}) {v:.3f}x" for c, st, v in births))
    if out:
        out = ["", "## off the capable() path (icount, not verdicts)", ""] + out
    return out


def offpath_markdown(rows, memory, policy):
    """The sections on what usercaps costs off the capable() path."""
    lines = []
    updates = [r for r in rows if r[13] == "update"]
    if updates:
        lines += ["", "## policy updates", "",
                  "chmod and chown: one flip of the kill file (grant and back); apply-41: "
                  "every capability file's chown and chmod, 82 syscalls. visibility-*: ns "
                  "from chmod's return to the first kill() on the other CPU that sees the "
                  "change (wall mode, 2 CPUs; negative: seen before chmod returned), "
                  "one sample a boot.", ""]
        lines += table(["what", "config", "mode", "accel", "samples", "min ns", "median ns",
                        "max ns"],
                       [[r[0], r[1], r[2], r[3], r[5], r[6], r[7], r[8]] for r in updates])
    if policy:
        items = defaultdict(list)
        for kernel, mode, item, value, unit in policy:
            items[(kernel, mode, item, unit)].append(value)
        lines += ["", "RCU calls per update and the policy tables' slab use (policy.csv; "
                  "median over the boots):", ""]
        lines += table(["kernel", "mode", "item", "value", "unit"],
                       [[k, m, i, f"{statistics.median(v):.4g}", u]
                        for (k, m, i, u), v in items.items()])
    for mode in MODE_ORDER:
        churn = [r for r in rows if r[2] == mode and r[13].startswith("stack=")
                 and r[0] not in ("boot-to-init", "usercaps-initcall")]
        if not churn:
            continue
        lines += ["", f"## credential churn ({mode}, accel {churn[0][3]}: guest time)", "",
                  "Guest time, not instruction counts: icount's guest clock also runs "
                  "through 9p I/O waits and skips idle (sleep=off), so a fork and exec "
                  "moves by more than usercaps adds; no verdict rests on it. "
                  "Each call makes a credential (fork, exec, set*id, capset, setgroups). "
                  "Stack debian: the kernel's CONFIG_LSM, whose landlock and apparmor "
                  "already have a credential blob; bare: capability (and usercaps) alone. "
                  "The ratio is to commoncap on the same stack.", ""]
        lines += table(["workload", "stack", "config", "samples", "min ns/op", "median ns/op",
                        "max ns/op", "ratio", "ratio range", "overhead ns"],
                       [[r[0], r[13].split("=")[1], r[1], r[5], r[6], r[7], r[8],
                         r[11] or "-", f"{r[14]}-{r[15]}" if r[14] else "-", r[12] or "-"]
                        for r in churn])
        noise = noise_floor(churn)
        if noise:
            lines += ["", "Noise floor: the same work in the two non-root configurations of one "
                      "boot (a workload that needs no capability) differs by "
                      + ", ".join(f"{w} {pct:.1f} %" for w, pct in noise.items())
                      + " (largest over the kernels and stacks). A ratio to commoncap "
                      "closer to 1 than that is no measured difference."]
    boot = [r for r in rows if r[0] in ("boot-to-init", "usercaps-initcall")]
    if boot:
        lines += ["", "## boot (icount guest time, not instruction counts)", "",
                  "Guest time: icount skips idle (sleep=off) and counts 9p I/O waits, so "
                  "these are no instruction counts and decide nothing. "
                  "boot-to-init: from the kernel's start to running init (the printk stamp "
                  "of \"Run ... as init process\"); usercaps-initcall: usercaps' securityfs "
                  "initcall alone (initcall_debug). Times in us.", ""]
        lines += table(["what", "stack", "config", "boots", "min us", "median us", "max us",
                        "ratio", "overhead us"],
                       [[r[0], r[13].split("=")[1], r[1], r[5]]
                        + [f"{float(v) / 1e3:.0f}" for v in r[6:9]]
                        + [r[11] or "-", f"{float(r[12]) / 1e3:.0f}" if r[12] else "-"]
                        for r in boot])
    if memory:
        lines += ["", "## memory per credential (lsm.debug's cred blob size)", ""]
        lines += table(["kernel", "stack", "blob bytes", "kmalloc bytes", "added blob bytes",
                        "added kmalloc bytes"], memory)
    return lines


def reference_name(config):
    """What a reference configuration's kernel is, for the summary's prose."""
    if config.startswith("stock-"):
        return "stock (the kernel built without the usercaps series)"
    return "commoncap (usercaps built in, not in lsm=: this run has no stock boots)"


def per_check_markdown(check_rows, checks, workloads, repeat_totals, meta):
    """The headline section: instructions added per check, every
    configuration against the kernel built without usercaps."""
    if not check_rows:
        return []
    cols = [w for w in workloads if any(r[0] == w for r in check_rows)]
    configs = sorted({r[1] for r in check_rows},
                     key=lambda c: CONFIG_ORDER.index(c) if c in CONFIG_ORDER else 99)
    cell = {(r[0], r[1]): r for r in check_rows}

    def added(r):
        text = f"{float(r[7]):.2f}"
        if r[8] != r[9]:
            text += f" ({float(r[8]):.2f} to {float(r[9]):.2f})"
        return text

    lines = ["", "## cross-check: instructions added per capability check (icount, whole calls)", "",
             f"In each boot, the fewest ns/op of the repeats minus the reference's in the "
             f"boot of the same round (icount: one guest ns is one instruction; what varies "
             f"between repeats is what lands in the loop besides the calls, which only adds), "
             f"over the capability checks one call makes; the median of the boots' figures. "
             f"The reference is {reference_name(check_rows[0][4])} in the same outcome: "
             f"allowed for allowed and grant, denied for every refusal, root for root. "
             f"In brackets, when the "
             f"{meta.get('icount_runs', '?')} boots differ: the range of the boots' figures. "
             f"checks.csv has every figure with the repeats' spread.", ""]
    lines += table(["config"] + cols,
                   [[c] + [added(cell[(w, c)]) if (w, c) in cell else "-" for w in cols]
                    for c in configs], 1)
    lines += ["", "Capability checks per call (cap_capable() calls, counted by a kprobe over "
              f"{meta.get('count_checks', '?')} and twice as many calls in each boot of the first icount "
              "round, whose counts the later rounds' figures divide by; "
              "whole when within 0.05 of a whole number: the odd check of another process "
              "fell into one of the two counts):", ""]
    per_config = {}
    for (w, c), runs in checks.items():
        values = sorted(set(runs.values()))
        per_config.setdefault(c, {})[w] = "/".join(f"{v:g}" for v in values)
    all_configs = sorted(per_config, key=lambda c: CONFIG_ORDER.index(c) if c in CONFIG_ORDER else 99)
    lines += table(["config"] + cols, [[c] + [per_config[c].get(w, "-") for w in cols]
                                       for c in all_configs], 1)
    min_ms = int(meta.get("icount_min_time_ms", "0") or 0)
    if repeat_totals:
        shortest = min(repeat_totals)
        short = [t for t in repeat_totals if t[0] < min_ms * 1e6]
        lines += ["", f"Each timed repeat was to last at least {min_ms} ms of guest time: "
                  + ("every one did" if not short else
                     f"**{len(short)} of {len(repeat_totals)} did not**")
                  + f" (shortest: {shortest[1]} in {shortest[2]}, {shortest[3]}, "
                  f"{shortest[0] / 1e6:.1f} ms)."]
    return lines


def time_by_round(meta):
    """The boots' wall seconds summed per round (meta's step_seconds:
    NAME:SECONDS, NAME's round before its first '-'), as a list item; none
    for a run that did not record them. The rounds overlap when bench/drivers/run
    runs boots at once, so the sums can exceed the run's time."""
    rounds = {}
    for item in meta.get("step_seconds", "").split():
        name, _, seconds = item.rpartition(":")
        key = name.split("-", 1)[0]
        rounds[key] = rounds.get(key, 0) + int(seconds)
    if not rounds:
        return []
    return ["- boots' wall seconds by round (overlapping when boots run at once): "
            + ", ".join(f"{k} {v}" for k, v in rounds.items())]


def write(run_dir, meta, raw, rows, lat_rows, check_rows, memory, profile, goals):
    """RUN_DIR/summary.md: the run (META, RAW: summary_raw.Raw), the goals'
    headline (GOALS: summary_goals.Goals), icount's cross-check
    (CHECK_ROWS), what the profile says, each mode's ROWS, then what is off
    the capable() path (MEMORY: memory.csv's rows), the groups, the storm,
    the latency (LAT_ROWS) and perf's PROFILE (summary_raw.perf_profiles)."""
    lines = run_lines(meta, raw)
    lines += goals.headline_markdown() + offpath_goals(rows)
    lines += per_check_markdown(check_rows, raw.checks, [w for w in meta.get("workloads", "").split()],
                                raw.repeat_totals, meta)
    lines += goals.profile_markdown()
    lines += mode_markdown(rows)
    lines += offpath_markdown(rows, memory, raw.policy)
    lines += groups_markdown(rows)
    lines += storm_markdown(rows, raw.storm_rates)
    if lat_rows:
        lines += ["", "## per-call latency (ns; percentiles: median over the boots)", ""]
        lines += table(["workload", "config", "mode", "accel", "calls", "p50", "p90", "p99",
                        "p99.9", "max"], [[r[0], r[1], r[2], r[3], r[5]] + r[6:11] for r in lat_rows])
    lines += perf_markdown(profile)
    with open(os.path.join(run_dir, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def run_lines(meta, raw):
    """The title and what was run: status, commit, kernels, QEMU, LSMs,
    boots, iterations, date; what the ratio is."""
    lines = [
        f"# capable() benchmark: run {meta.get('run_id')}",
        "",
        f"- status: **{meta.get('status')}**"
        + (f", {meta['elapsed_seconds']} s" if "elapsed_seconds" in meta else "")
        + (f" (host load average {meta['load_average']})" if "load_average" in meta else ""),
        *time_by_round(meta),
        f"- commit {meta.get('git_commit')}"
        + (" (with uncommitted changes)" if meta.get("git_dirty") == "yes" else ""),
        f"- kernel {meta.get('kernel_release')}, .config sha256 {meta.get('kernel_config_sha256')}",
        f"- stock kernel (built without the usercaps series) {meta.get('stock_kernel_release', 'none')}"
        + (f", .config sha256 {meta['stock_kernel_config_sha256']}; its .config differs in: "
           f"{meta.get('stock_config_diff') or 'nothing'}" if "stock_kernel_config_sha256" in meta else ""),
        f"- booted kernels' /proc/config.gz sha256 {', '.join(raw.guest_config_sha()) or 'unknown'}",
        f"- {meta.get('qemu')}; host CPU {meta.get('host_cpu')} ({meta.get('host_cpus')} CPUs); "
        f"{meta.get('jobs', '1')} QEMU(s) at once for the 1-vCPU boots",
        "- LSMs the boots ran (/sys/kernel/security/lsm, checked against lsm= in every boot): "
        + "; ".join(f"{k}: {', '.join(sorted(v))}" for k, v in raw.active_lsms.items()),
        f"- boots: {len(raw.boots)} ({', '.join(raw.boots)})",
        f"- iterations per repeat: icount at least {meta.get('icount_iterations')} and "
        f"{meta.get('icount_min_time_ms', '?')} ms of guest time, "
        f"wall {meta.get('wall_iterations')}; {meta.get('repeat')} repeats per boot",
        f"- date {meta.get('date')}",
        "",
        "ns/op over every repeat of every boot. The ratio (secondary) is the median's "
        "over the reference's (stock-allowed's, stock-denied's for every refusal, "
        "stock-root's for root; commoncap's on the same stack for the churn), of the "
        "same workload and mode, taken within each run (the boots of one round of "
        "interleaved kernels): the median of those ratios, and their range.",
    ]
    if meta.get("wall_scope") == "smp":
        lines += ["", "Wall-clock capable() rounds: **skipped**: no KVM (none, its probe boot "
                  "failed, or --accel-wall tcg), and TCG's wall time is no hardware's "
                  "(bench/drivers/run --wall runs them anyway). One 2-vCPU TCG round ran what "
                  "needs two CPUs: the policy storm and the visibility of a change; their "
                  "tables say accel tcg."]
    return lines


def mode_markdown(rows):
    """Each mode's plain rows; for icount, whether its repeats agreed."""
    lines = []
    for mode in MODE_ORDER:
        mode_rows = [r for r in rows if r[2] == mode and r[13] == "-"]
        if not mode_rows:
            continue
        accel = mode_rows[0][3]
        lines += ["", f"## {mode} (accel {accel}, {mode_rows[0][4]} boot(s) per kernel)", ""]
        lines += table(["workload", "config", "samples", "min ns/op", "median ns/op",
                        "max ns/op", "ratio", "ratio range", "overhead ns"],
                       [[r[0], r[1], r[5], r[6], r[7], r[8], r[11] or "-",
                         f"{r[14]}-{r[15]}" if r[14] else "-", r[12] or "-"]
                        for r in mode_rows])
        if mode == "icount":
            icount_rows = [r for r in rows if r[2] == mode]
            same = [r for r in icount_rows if r[6] == r[8]]
            lines.append("")
            if len(same) == len(icount_rows):
                lines.append(f"icount: every repeat of every boot gave the same ns/op "
                             f"(to 0.1 ns) in all {len(icount_rows)} rows.")
            else:
                worst = max(icount_rows, key=lambda r: float(r[9] or 0))
                lines.append(
                    f"icount: {len(same)} of {len(icount_rows)} rows (groups included) "
                    f"identical in every repeat (to 0.1 ns); the others differ by up to "
                    f"{worst[9]} % ({worst[0]} in {worst[1]}"
                    f"{'' if worst[13] == '-' else ', ' + worst[13]}: "
                    f"{worst[6]} to {worst[8]} ns/op).")
    return lines


def groups_markdown(rows):
    """kill against the number of supplementary groups."""
    group_rows = [r for r in rows if r[13].startswith("groups=")]
    if not group_rows:
        return []
    base = {(r[1], r[2]): float(r[7]) for r in group_rows
            if r[13] == min((g[13] for g in group_rows if g[1] == r[1]),
                            key=lambda v: int(v.split("=")[1]))}
    lines = ["", "## kill against the number of supplementary groups", ""]
    lines += table(["groups", "config", "mode", "min ns/op", "median ns/op", "max ns/op",
                    "vs fewest groups", "ratio vs commoncap"],
                   [[r[13].split("=")[1], r[1], r[2], r[6], r[7], r[8],
                     f"{float(r[7]) / base[(r[1], r[2])]:.3f}", r[11] or "-"]
                    for r in group_rows])
    return lines


def storm_markdown(rows, storm_rates):
    """kill while another CPU rewrites the policy, and the writer's rates
    (STORM_RATES: summary_raw.Raw.storm_rates)."""
    storm_rows = [r for r in rows if r[13].startswith("storm=")]
    if not storm_rows:
        return []
    alone = {(r[1], r[2]): float(r[7]) for r in storm_rows if r[13] == "storm=none"}
    lines = ["", "## kill on CPU 0 while CPU 1 rewrites the policy", ""]
    lines += table(["config", "storm", "mode", "accel", "samples", "min ns/op",
                    "median ns/op", "max ns/op", "vs alone"],
                   [[r[1], r[13].split("=")[1], r[2], r[3], r[5], r[6], r[7], r[8],
                     f"{float(r[7]) / alone[(r[1], r[2])]:.3f}"
                     if (r[1], r[2]) in alone else "-"] for r in storm_rows])
    rates = [line for boot in sorted(storm_rates) for line in storm_rates[boot]]
    if rates:
        lines += ["", "The writer: " + "; ".join(rates) + "."]
    return lines


def perf_markdown(profile):
    """Where kill's time goes (perf) and the realistic run's checks
    (bpftrace), of PROFILE (summary_raw.perf_profiles)."""
    lines = []
    if profile["perf"]:
        lines += ["", "## where kill's time goes (perf record -e cpu-clock -g, TCG)", "",
                  "Share of the samples, with children, in the capable path; usercaps is "
                  "the sum of the usercaps_* symbols' own samples (percred's check is "
                  "inline in cap_capable). Raw reports: raw/profile-*/perf-report-*.txt; "
                  "bpftrace histograms and counts: raw/profile-*/capable-*.txt.", ""]
        configs = sorted(profile["perf"], key=lambda c: CONFIG_ORDER.index(c)
                         if c in CONFIG_ORDER else 99)
        lines += table(["config", "samples", "ns_capable %", "security_capable %",
                        "cap_capable %", "usercaps self %", "groups_search self %"],
                       [[c, profile["samples"].get(c, "?")]
                        + [f"{profile['perf'][c].get(sym, (0.0, 0.0))[0]:.2f}"
                           for sym in ("ns_capable", "security_capable", "cap_capable")]
                        + [f"{sum(v[1] for k, v in profile['perf'][c].items() if k.startswith('usercaps_')):.2f}",
                           f"{profile['perf'][c].get('groups_search', (0.0, 0.0))[1]:.2f}"]
                        for c in configs])
    if profile["realistic"]:
        total = sum(n for n, _ in profile["realistic"])
        lines += ["", "## capable() checks of an unprivileged user's realistic run (bpftrace)", "",
                  f"{total} checks over the profile boots, by capability: "
                  + ", ".join(f"{c} {n}" for n, c in profile["realistic"]) + "."]
    return lines
