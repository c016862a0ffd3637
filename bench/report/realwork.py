"""realwork - bench/report/summarize's part for the realwork boots: what share of
a real workload capability checking is, and what usercaps adds to it.

Each realwork boot (raw/realwork-run<N>-<kernel>/, bench/guest/realwork)
ran each workload as the user holding what it needs (KERNEL-allowed on
stock and commoncap, KERNEL-grant on the usercaps modes) and as root
(KERNEL-root), --repeat times each inside a capcheck plugin session
(capcheck.log: the whole guest's user and kernel instructions between
the gates, and the instructions of every capable() window), then once
counted by capability and outcome with kprobes (checks-by-capability.dat).

Per workload and configuration, over its sessions (medians):
  insns           every instruction of the workload: user + kernel
  spread          the largest minus the fewest of its sessions
  checks          the capable() windows of a session
  capable_insns   their instructions (the plugin's total row times checks)
  capable_share   capable_insns / insns
  reference       stock's configuration of the same user (stock-allowed,
                  stock-root; commoncap's in a run without stock)
  added           capable_insns minus the reference's: what usercaps (or
                  commoncap's build) adds in the checks, exactly
  added_share     added / insns
  whole_added     insns minus the reference's: the same, measured on the
                  whole workload, with its run-to-run noise
  noise           the larger spread of the two: added within it is
                  noise-level
  guest_ns        icount's guest time around the session (instructions,
                  and the idle time icount's clock skips ahead over)
  counted_checks  the checks the kprobes counted in the run before the
                  sessions: the cross-check of checks (a workload may
                  make another number of checks in another run)

Writes, in the run directory:
  realwork.csv         one row per workload and configuration
  realwork-checks.csv  workload, config, capability, outcome, checks
"""
import csv
import math
import os
import statistics

import capcheck_tables

COLUMNS = ["workload", "config", "sessions", "insns", "user_insns", "kernel_insns", "spread",
           "checks", "capable_insns", "capable_share", "reference", "reference_capable_insns",
           "added", "added_share", "whole_added", "noise", "verdict", "guest_ns", "counted_checks"]
CHECK_COLUMNS = ["workload", "config", "capability", "outcome", "checks"]


def gather(raw, data_rows):
    """({(workload, config): [session figures, one dict per repeat]},
    {(workload, config): [(capability, outcome, checks)]}, [failures])
    from the realwork boots under RAW. A failure is a session with no
    report, one whose plugin counters say it is not exact, or one whose
    icount time is shorter than its instructions."""
    sessions, checks, failures = {}, {}, []
    names = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
    for name in (n for n in names if n.startswith("realwork-") and not n.endswith("-failed")):
        boot_dir = os.path.join(raw, name)
        log = capcheck_tables.parse_log(os.path.join(boot_dir, "capcheck.log"))
        for session, workload, config, _repeat, guest_ns in data_rows(
                os.path.join(boot_dir, "sessions.dat")):
            report = log.get(session)
            if report is None:
                failures.append(f"{name}: session {session} has no report in capcheck.log")
                continue
            counters = report["session"]
            bad = [c for c in capcheck_tables.EXACT if counters[c]]
            if bad:
                failures.append(f"{name}: session {session} is not exact: "
                                + ", ".join(f"{c} {counters[c]}" for c in bad))
            insns = counters["gate_user_insns"] + counters["gate_kernel_insns"]
            if int(guest_ns) < insns:
                failures.append(f"{name}: session {session} lasted {guest_ns} guest ns under "
                                f"icount, fewer than its {insns} instructions")
            sessions.setdefault((workload, config), []).append({
                "insns": insns, "user_insns": counters["gate_user_insns"],
                "kernel_insns": counters["gate_kernel_insns"], "checks": counters["checks"],
                "capable_insns": round(report["total"].get("insns", 0) * counters["checks"]),
                "guest_ns": int(guest_ns)})
        for workload, config, capability, outcome, count in data_rows(
                os.path.join(boot_dir, "checks-by-capability.dat")):
            checks.setdefault((workload, config), []).append((capability, outcome, int(count)))
    return sessions, checks, failures


def reference_of(config, base):
    """The stock configuration of the same user: BASE-allowed for a user
    holding its capabilities, BASE-root for root."""
    return f"{base}-root" if config.endswith("-root") else f"{base}-allowed"


def pct(part, whole):
    """PART as % of WHOLE, to three significant digits, without an
    exponent: a check's share of a build is a few millionths of a %."""
    if not whole:
        return ""
    value = 100 * part / whole
    if value == 0:
        return "0"
    return f"{value:.{max(0, 2 - math.floor(math.log10(abs(value))))}f}"


KERNEL_ORDER = ["stock", "commoncap", "naive", "cached", "percred"]


def order(sessions):
    """The (workload, config) keys of SESSIONS: workloads in the order
    they first ran, then kernels from stock to percred, the user before
    root."""
    first = {}
    for workload, _ in sessions:
        first.setdefault(workload, len(first))

    def key(item):
        workload, config = item
        kernel = config.split("-", 1)[0]
        return (first[workload], KERNEL_ORDER.index(kernel) if kernel in KERNEL_ORDER else 99,
                config.endswith("-root"), config)
    return sorted(sessions, key=key)


def rows(sessions, counted):
    """The realwork.csv rows (dicts), in order(); COUNTED: the kprobes'
    (capability, outcome, checks) per workload and configuration."""
    base = "stock" if any(c.startswith("stock-") for _, c in sessions) else "commoncap"
    med = {key: {k: statistics.median(s[k] for s in runs) for k in runs[0]}
           for key, runs in sessions.items()}
    spread = {key: max(s["insns"] for s in runs) - min(s["insns"] for s in runs)
              for key, runs in sessions.items()}
    out = []
    for workload, config in order(sessions):
        runs = sessions[(workload, config)]
        m = med[(workload, config)]
        ref = (workload, reference_of(config, base))
        row = {"workload": workload, "config": config, "sessions": len(runs),
               "insns": f"{m['insns']:.0f}", "user_insns": f"{m['user_insns']:.0f}",
               "kernel_insns": f"{m['kernel_insns']:.0f}", "spread": spread[(workload, config)],
               "checks": f"{m['checks']:.0f}", "capable_insns": f"{m['capable_insns']:.0f}",
               "capable_share": pct(m["capable_insns"], m["insns"]),
               "reference": "", "reference_capable_insns": "", "added": "",
               "added_share": "", "whole_added": "", "noise": "", "verdict": "",
               "guest_ns": f"{m['guest_ns']:.0f}",
               "counted_checks": sum(n for _, _, n in counted.get((workload, config), []))}
        if ref in med and ref[1] != config:
            r = med[ref]
            added = m["capable_insns"] - r["capable_insns"]
            noise = max(spread[(workload, config)], spread[ref])
            row.update(reference=ref[1], reference_capable_insns=f"{r['capable_insns']:.0f}",
                       added=f"{added:.0f}", added_share=pct(added, m["insns"]),
                       whole_added=f"{m['insns'] - r['insns']:.0f}", noise=noise,
                       verdict="noise-level" if abs(added) <= noise else "above noise")
        out.append(row)
    return out


def check_rows(checks):
    """The realwork-checks.csv rows: per workload, configuration,
    capability and outcome."""
    return [[workload, config, capability, outcome, count]
            for workload, config in order(checks)
            for capability, outcome, count in sorted(checks[(workload, config)])]


def write(run_dir, table_rows, counted):
    with open(os.path.join(run_dir, "realwork.csv"), "w", newline="") as f:
        f.write("# real workloads (bench/guest/realwork): exact instructions of the whole "
                "workload and of its capable() windows (capcheck plugin), medians of the "
                "sessions; added: the windows' instructions minus the stock reference's\n")
        writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(table_rows)
    with open(os.path.join(run_dir, "realwork-checks.csv"), "w", newline="") as f:
        f.write("# the capability checks of one run of each workload (kprobes on "
                "security_capable's entry and return), by capability and outcome\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(CHECK_COLUMNS)
        writer.writerows(check_rows(counted))


def checks_cell(counted):
    """'sys_nice 2, ipc_lock 2; refused: setuid 1' from (capability,
    outcome, checks) triples."""
    by = {"allowed": [], "refused": []}
    for capability, outcome, count in sorted(counted, key=lambda c: (-c[2], c[0])):
        by.setdefault(outcome, []).append(f"{capability} {count}")
    if not counted:
        return "none"
    cell = ", ".join(by["allowed"]) or "none allowed"
    return cell + (f"; refused: {', '.join(by['refused'])}" if by["refused"] else "")


def markdown(table_rows, counted, table):
    """summary.md's realwork section (TABLE: bench/report/summarize's markdown
    table)."""
    if not table_rows:
        return []
    lines = ["", "## Real work: the share of capability checks (exact, capcheck plugin)", "",
             "Each workload (bench/guest/realwork-workloads) inside plugin sessions: every "
             "instruction of the guest from its start to its end, and those of its capable() "
             "windows; medians of the sessions. *added*: the windows' instructions minus "
             "stock's for the same user, exactly; *noise*: the whole workload's spread over "
             "the sessions (this row's or the reference's, the larger); an *added* within "
             "it is noise-level: no measurement of the whole workload could see it.", ""]
    lines += table(["workload", "config", "instructions", "spread", "checks", "in capable()",
                    "share %", "added", "added %", "verdict"],
                   [[r["workload"], r["config"], r["insns"], r["spread"], r["checks"],
                     r["capable_insns"], r["capable_share"], r["added"], r["added_share"],
                     r["verdict"]] for r in table_rows])
    above = [f"{r['workload']}/{r['config']} (+{r['added']} against a spread of {r['noise']})"
             for r in table_rows if r["verdict"] == "above noise"]
    compared = [r for r in table_rows if r["verdict"]]
    if compared:
        lines += ["", (f"Noise-level: {len(compared) - len(above)} of the {len(compared)} rows "
                       "compared with stock; above the noise: "
                       + (", ".join(above) if above else "none") + ".")]
    differ = [f"{r['workload']}/{r['config']} ({r['checks']} in the sessions, "
              f"{r['counted_checks']} counted)" for r in table_rows
              if str(r["counted_checks"]) != r["checks"]]
    lines += ["", "The kprobes' run made as many checks as the sessions' median in "
              f"{len(table_rows) - len(differ)} of {len(table_rows)} rows"
              + (f"; not in {', '.join(differ)}." if differ else ".")]
    lines += ["", "The checks of one run, by capability (kprobes on security_capable):", ""]
    lines += table(["workload", "config", "checks by capability"],
                   [[r["workload"], r["config"], checks_cell(counted.get((r["workload"], r["config"]), []))]
                    for r in table_rows], 3)
    return lines
