"""capcheck_tables - bench/summarize's part for the profile boots: the
capcheck plugin's session reports (raw/profile-*/capcheck.log, format in
bench/plugin/capcheck.c) as per-function tables of one capability check,
and the cross-check of their totals against icount's per-check figures.

Writes, in the run directory:
  profile/<workload>-<config>.tsv  function, insns, loads, stores, dlines,
                                   ilines, l1d_misses per check, most
                                   instructions first, and a total row
  profile.csv                      one row per workload and configuration:
                                   the totals and the plugin's counters
"""
import csv
import os

SESSION_COLUMNS = ["checks", "insns_min", "insns_max", "gate_user_insns", "gate_kernel_insns",
                   "irqs_excluded", "irq_insns_excluded", "return_slot_mismatch",
                   "entry_without_call", "nested_entries", "unattributed_insns",
                   "unclosed_windows", "runaway_windows", "gate_irqs", "gate_irq_insns"]
VALUE_COLUMNS = ["insns", "loads", "stores", "dlines", "ilines", "l1d_misses"]
# The counters that must be 0 for a profile to be exact.
EXACT = ["return_slot_mismatch", "unattributed_insns", "unclosed_windows", "runaway_windows"]
# Profile and icount may differ by this many instructions per check.
TOLERANCE = 2
L1D_MODEL = ("L1D misses: a model of 32 KiB, 8 ways, 64-byte lines, LRU, fed only the "
             "checks' own data accesses and warm across the checks of one session (what "
             "runs between checks evicts nothing): a lower bound")


def parse_log(path):
    """{session name: {"session": {column: int}, "functions": [(symbol,
    {column: float})], "total": {column: float}}} from a plugin log."""
    sessions = {}
    if not os.path.exists(path):
        return sessions
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            kind, name = fields[0], fields[1] if len(fields) > 1 else ""
            if kind == "session":
                sessions[name] = {"session": dict(zip(SESSION_COLUMNS, map(int, fields[2:]))),
                                  "functions": [], "total": {}}
            elif kind == "function" and name in sessions:
                sessions[name]["functions"].append(
                    (fields[2], dict(zip(VALUE_COLUMNS, map(float, fields[3:])))))
            elif kind == "total" and name in sessions:
                sessions[name]["total"] = dict(zip(VALUE_COLUMNS, map(float, fields[2:])))
    return sessions


def gather(raw, data_rows):
    """The profile boots' sessions, as {(workload, config): row}, each row
    the session's report with its kernel and calls."""
    profiles = {}
    names = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
    for name in (n for n in names if n.startswith("profile-") and not n.endswith("-failed")):
        boot_dir = os.path.join(raw, name)
        kernel = name.split("-", 2)[2]
        sessions = parse_log(os.path.join(boot_dir, "capcheck.log"))
        for session, workload, config, calls in data_rows(os.path.join(boot_dir, "sessions.dat")):
            if session in sessions:
                profiles[(workload, config)] = dict(sessions[session], kernel=kernel,
                                                    calls=int(calls))
    return profiles


def fmt(value):
    return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def write_tables(run_dir, meta, profiles, order):
    """profile/<workload>-<config>.tsv and profile.csv."""
    if not profiles:
        return
    os.makedirs(os.path.join(run_dir, "profile"), exist_ok=True)
    rows = []
    for (workload, config), p in sorted(profiles.items(), key=lambda kv: order(kv[0])):
        s, total = p["session"], p["total"]
        per_call = s["checks"] / p["calls"] if p["calls"] else 0
        with open(os.path.join(run_dir, "profile", f"{workload}-{config}.tsv"), "w") as f:
            f.write(f"# one capability check of {workload} in {config}: security_capable() from "
                    f"entry to return, per kernel function (capcheck QEMU plugin, icount, "
                    f"nokaslr); run {meta.get('run_id')}, commit {meta.get('git_commit')}\n")
            f.write(f"# {s['checks']} checks in {p['calls']} calls ({per_call:g} per call); "
                    f"averages per check; {s['insns_min']} to {s['insns_max']} instructions "
                    f"a check; dlines, ilines: distinct 64-byte data and instruction lines "
                    f"(the total's: of the whole check)\n")
            f.write(f"# {L1D_MODEL}\n")
            f.write("\t".join(["function"] + VALUE_COLUMNS) + "\n")
            for symbol, values in sorted(p["functions"], key=lambda fv: -fv[1]["insns"]):
                f.write("\t".join([symbol] + [fmt(values[c]) for c in VALUE_COLUMNS]) + "\n")
            f.write("\t".join(["total"] + [fmt(total[c]) for c in VALUE_COLUMNS]) + "\n")
        kernel, case = config.split("-", 1)
        rows.append([workload, config, kernel, case, p["calls"], s["checks"], f"{per_call:g}"]
                    + [fmt(total[c]) for c in VALUE_COLUMNS]
                    + [s[c] for c in SESSION_COLUMNS[1:]])
    with open(os.path.join(run_dir, "profile.csv"), "w", newline="") as f:
        f.write(f"# capcheck plugin: one capability check per workload and configuration, "
                f"totals per check (profile/*.tsv has the functions); {L1D_MODEL}\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["workload", "config", "kernel", "case", "calls", "checks",
                         "checks_per_call"] + VALUE_COLUMNS + SESSION_COLUMNS[1:])
        writer.writerows(rows)


def cross_check(profiles, check_rows, reference_of):
    """[(workload, config, reference, profile, calls or None, icount or
    None, other work, verdict)], per check: profile, the plugin's instructions per
    call inside the checks above the reference's (stock, same outcome),
    over the checks one call makes; calls, the same from every instruction
    of the two sessions (the plugin's gate counters: the same code,
    counted without its windows), when neither session took an interrupt
    (a tick brings other work: softirqs, other tasks); icount, checks.csv's
    figure; other work, by how much the two sessions' instructions outside
    the checks and their interrupts differ."""
    icount = {(r[0], r[1]): float(r[7]) for r in check_rows}
    out = []
    for (workload, config), p in profiles.items():
        if config.startswith("stock-"):
            continue
        ref = reference_of(config, "-", "stock")
        r = profiles.get((workload, ref))
        if r is None or not p["session"]["checks"]:
            continue
        per_call = p["session"]["checks"] / p["calls"]

        def window(q):
            return q["total"]["insns"] * q["session"]["checks"] / q["calls"]

        def calls(q, interrupts=True):
            s = q["session"]
            return (s["gate_user_insns"] + s["gate_kernel_insns"]
                    - (0 if interrupts else s["gate_irq_insns"])) / q["calls"]
        figure = (window(p) - window(r)) / per_call
        whole = None
        if not p["session"]["gate_irqs"] and not r["session"]["gate_irqs"]:
            whole = (calls(p) - calls(r)) / per_call
        other = abs((calls(p, False) - calls(r, False)) / per_call - figure)
        value = icount.get((workload, config))
        if whole is not None and abs(figure - whole) > TOLERANCE:
            verdict = "**differs from its calls**"
        elif value is None:
            verdict = "no icount figure"
        elif abs(figure - value) <= TOLERANCE:
            verdict = "ok"
        elif other > TOLERANCE:
            verdict = "icount cannot tell"
        else:
            verdict = "**differs**"
        out.append((workload, config, ref, figure, whole, value, other, verdict))
    return out


def markdown(profiles, crossed, table, order):
    """summary.md's profile sections, and the list of what failed."""
    if not profiles:
        return [], []
    failures = []
    lines = ["", "## one capability check, per function (capcheck QEMU plugin, icount)", "",
             "From security_capable()'s entry to its return, every instruction attributed to "
             "a kernel function of the build's System.map; interrupts that land in a check "
             "are left out. Per check: instructions, loads, stores, distinct data and "
             "instruction lines (the cold-cache miss bound). " + L1D_MODEL + ". The tables "
             "per function: profile/<workload>-<config>.tsv.", ""]
    rows = []
    for (workload, config), p in sorted(profiles.items(), key=lambda kv: order(kv[0])):
        s, t = p["session"], p["total"]
        bad = [f"{c} {s[c]}" for c in EXACT if s[c]]
        if not s["checks"]:
            bad.append("no check")
        if bad:
            failures.append(f"{workload} {config}: " + ", ".join(bad))
        top = max(p["functions"], key=lambda fv: fv[1]["insns"])[0] if p["functions"] else "-"
        rows.append([workload, config, f"{s['checks'] / p['calls']:g}", fmt(t["insns"]),
                     f"{s['insns_min']}-{s['insns_max']}", fmt(t["loads"]), fmt(t["stores"]),
                     fmt(t["dlines"]), fmt(t["ilines"]), fmt(t["l1d_misses"]),
                     s["irqs_excluded"], s["return_slot_mismatch"], s["unattributed_insns"],
                     len(p["functions"]), top])
    lines += table(["workload", "config", "checks/call", "insns", "insns range", "loads",
                    "stores", "dlines", "ilines", "L1D misses", "irqs left out",
                    "return slot mismatch", "unattributed", "functions", "most insns"], rows)
    if crossed:
        lines += ["", "## cross-check: profile against icount (instructions per check)", "",
                  "profile: the plugin's instructions per call inside the checks minus "
                  "stock's (the same workload and outcome), over the checks one call makes. "
                  "calls: the same from every instruction of the two sessions, user and "
                  "kernel (the plugin's gate counters, which count without its windows), "
                  "where neither session took an interrupt: a timer tick brings other work "
                  "(softirqs, a switch to another task), which the windows leave out; it "
                  f"must agree within +-{TOLERANCE}, or the windows missed work that differs "
                  "between the kernels. icount: checks.csv's figure, from whole calls in "
                  f"the icount boots; it must agree within +-{TOLERANCE}. Where it does not, "
                  "and the plugin saw the two sessions' other work (outside the checks, "
                  "interrupts left out) differ by more than that per check, icount's whole "
                  "calls cannot tell the checks' difference from the rest (\"icount cannot "
                  "tell\"; other work: by how much), and the row does not fail: a "
                  "successful mlock and munlock cost about 19,500 instructions, most of them "
                  "outside the checks and the same code in every kernel, yet they move by "
                  "tens to hundreds of instructions from one session, repeat or boot to the "
                  "next, while the checks of those calls run the same instructions every "
                  "time (insns range above).", ""]
        rows = []
        for workload, config, ref, figure, whole, value, other, verdict in sorted(
                crossed, key=lambda c: order((c[0], c[1]))):
            whole_text = "-" if whole is None else f"{whole:.2f}"
            value_text = "-" if value is None else f"{value:.2f}"
            rows.append([workload, config, ref, f"{figure:.2f}", whole_text, value_text,
                         "-" if value is None else f"{value - figure:+.2f}", f"{other:.2f}",
                         verdict])
            if verdict.startswith("**"):
                failures.append(f"{workload} {config}: profile {figure:.2f}, calls {whole_text}, "
                                f"icount {value_text}")
        lines += table(["workload", "config", "reference", "profile", "calls", "icount",
                        "icount - profile", "other work", "verdict"], rows)
        compared = [c for c in crossed if c[4] is not None]
        lines += ["", f"{sum(1 for c in crossed if c[7] == 'ok')} of {len(crossed)} agree with "
                  f"icount within +-{TOLERANCE}, "
                  f"{sum(1 for c in crossed if c[7] == 'icount cannot tell')} where icount cannot "
                  "tell (the calls' other work differs); the calls without an interrupt "
                  f"({len(compared)}) agree with their windows within +-{TOLERANCE} in "
                  f"{sum(1 for c in compared if abs(c[3] - c[4]) <= TOLERANCE)}."]
    if failures:
        lines += ["", "**The profile is not exact or disagrees with icount:** "
                  + "; ".join(failures) + "."]
    return lines, failures
