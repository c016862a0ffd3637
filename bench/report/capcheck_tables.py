"""capcheck_tables - bench/report/summarize's part for the profile boots: the
capcheck plugin's session reports (raw/profile-*/capcheck.log, format in
bench/plugin/capcheck.c) as per-function tables of one capability check,
and the cross-check of their totals against icount's per-check figures.

Writes, in the run directory:
  profile/<workload>-<config>.tsv  function, insns, loads, stores, dlines,
                                   ilines per check, most
                                   instructions first, and a total row
  profile.csv                      one row per workload and configuration:
                                   the totals and the plugin's counters
"""
import csv
import os

SESSION_COLUMNS = ["checks", "insns_min", "insns_max", "gate_user_insns", "gate_kernel_insns",
                   "irqs_excluded", "irq_insns_excluded", "return_slot_mismatch",
                   "entry_without_call", "nested_entries", "unattributed_insns",
                   "unclosed_windows", "runaway_windows", "gate_irqs", "gate_irq_insns",
                   "slot_overflow", "irq_accesses_excluded", "irq_accesses_unknown", "hook_calls",
                   "hook_return_slot_mismatch", "hook_entry_without_call", "hook_unclosed",
                   "hook_runaway", "hook_overflow", "resched_points", "resched_insns"]
VALUE_COLUMNS = ["insns", "loads", "stores", "dlines", "ilines"]
SLOT_COLUMNS = ["checks", "insns", "loads", "stores", "dlines", "ilines", "insns_min",
                "insns_max"]
# The plugin's anomaly counters: each must be 0 for a profile to be exact.
EXACT = ["return_slot_mismatch", "entry_without_call", "nested_entries", "unattributed_insns",
         "unclosed_windows", "runaway_windows", "slot_overflow", "irq_accesses_unknown",
         "hook_return_slot_mismatch", "hook_unclosed", "hook_runaway", "hook_overflow"]


def parse_log(path):
    """{session name: {"session": {column: int}, "functions": [(symbol,
    {column: float})], "total": {column: float}, "slots": {K: {column:
    number}}, "slot_functions": {K: [(symbol, {column: float})]}, "hooks":
    {symbol: {"calls": int, column: float}}}} from a plugin log."""
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
                # A column an older plugin did not write is 0.
                counters = dict.fromkeys(SESSION_COLUMNS, 0)
                counters.update(zip(SESSION_COLUMNS, map(int, fields[2:])))
                sessions[name] = {"session": counters,
                                  "functions": [], "total": {}, "slots": {},
                                  "slot_functions": {}, "hooks": {}}
            elif kind == "function" and name in sessions:
                sessions[name]["functions"].append(
                    (fields[2], dict(zip(VALUE_COLUMNS, map(float, fields[3:])))))
            elif kind == "total" and name in sessions:
                sessions[name]["total"] = dict(zip(VALUE_COLUMNS, map(float, fields[2:])))
            elif kind == "slot" and name in sessions:
                sessions[name]["slots"][int(fields[2])] = dict(zip(SLOT_COLUMNS,
                                                                   map(float, fields[3:])))
            elif kind == "hook" and name in sessions:
                hook = dict(zip(VALUE_COLUMNS + ["insns_min", "insns_max"],
                                map(float, fields[4:])), calls=int(fields[3]))
                sessions[name]["hooks"][fields[2]] = hook
            elif kind == "slotfunction" and name in sessions:
                sessions[name]["slot_functions"].setdefault(int(fields[2]), []).append(
                    (fields[3], dict(zip(VALUE_COLUMNS, map(float, fields[4:])))))
    return sessions


INJECTED = "+irq"


def gather(raw, data_rows):
    """The profile boots' sessions, as {(workload, config): row}, each row
    the session's report with its kernel and calls; a session with
    interrupts injected (config CONFIG+irq, bench/guest/capcheck
    --interrupts) is CONFIG's too, under "injected"."""
    profiles, injected = {}, {}
    names = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
    for name in (n for n in names if n.startswith("profile-") and not n.endswith("-failed")):
        boot_dir = os.path.join(raw, name)
        kernel = name.split("-", 2)[2]
        sessions = parse_log(os.path.join(boot_dir, "capcheck.log"))
        for session, workload, config, calls in data_rows(os.path.join(boot_dir, "sessions.dat")):
            if session not in sessions:
                continue
            row = dict(sessions[session], kernel=kernel, calls=int(calls))
            if config.endswith(INJECTED):
                injected[(workload, config[:-len(INJECTED)])] = row
            else:
                profiles[(workload, config)] = row
    for key, row in injected.items():
        if key in profiles:
            profiles[key]["injected"] = row
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
                f"totals per check (profile/*.tsv has the functions)\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["workload", "config", "kernel", "case", "calls", "checks",
                         "checks_per_call"] + VALUE_COLUMNS + SESSION_COLUMNS[1:])
        writer.writerows(rows)


def hook_insns(q):
    """A session's instructions per call in its hook windows (the LSM
    hooks the plugin's also= names: all but the checks)."""
    return sum(h["calls"] * h["insns"] for h in q.get("hooks", {}).values()) / q["calls"]


def rounding(q):
    """The most a session's window sums per call can be off from the
    plugin's per-window averages, printed to 3 decimals."""
    windows = q["session"]["checks"] + sum(h["calls"] for h in q.get("hooks", {}).values())
    return 5e-4 * windows / q["calls"]


def cross_check(profiles, check_rows, checks, reference_of):
    """[(workload, config, reference, profile, hooks, calls or None, icount
    or None, noise or None, verdict)], per check: profile, the plugin's
    instructions per call inside the checks above the reference's (stock,
    same outcome), over the checks one call makes; hooks, the same inside
    the hook windows (every other LSM hook the calls make: Linux 6.12
    gives each hook a slot per LSM built in); calls, the same from every
    instruction of the two sessions (the plugin's gate counters: the same
    code, counted without its windows), when neither session took an
    interrupt (a tick brings other work: softirqs, other tasks): it must
    be profile + hooks exactly (to the rounding of the plugin's averages);
    icount, checks.csv's median over the boots, whole calls, which must
    agree with profile + hooks within its noise: the range of the boots'
    figures or, when larger, the repeats' spread (checks.csv: a boot's
    repeats differ by what lands in the loop besides the calls, mlock's
    page work tens of instructions a check, which three boots may not
    show), and half an instruction (icount's whole calls carry the
    timer's share). The plugin's checks per call must be the kprobe's
    (checks.dat) in every boot."""
    icount = {(r[0], r[1]): r for r in check_rows}
    out = []
    for (workload, config), p in profiles.items():
        per_call = p["session"]["checks"] / p["calls"] if p["calls"] else 0
        counted = set(checks.get((workload, config), {}).values())
        if counted and counted != {per_call}:
            out.append((workload, config, "-", per_call, 0.0, None, None, None,
                        f"**checks per call: plugin {per_call:g}, kprobe "
                        f"{'/'.join(f'{c:g}' for c in sorted(counted))}**"))
        if config.startswith("stock-"):
            continue
        ref = reference_of(config, "-", "stock")
        r = profiles.get((workload, ref))
        if r is None or not p["session"]["checks"]:
            continue

        def window(q):
            return q["total"]["insns"] * q["session"]["checks"] / q["calls"]

        def calls(q):
            s = q["session"]
            return (s["gate_user_insns"] + s["gate_kernel_insns"]) / q["calls"]
        figure = (window(p) - window(r)) / per_call
        hooks = (hook_insns(p) - hook_insns(r)) / per_call
        whole = None
        if not p["session"]["gate_irqs"] and not r["session"]["gate_irqs"]:
            whole = (calls(p) - calls(r)) / per_call
        row = icount.get((workload, config))
        value = noise = None
        if row is not None:
            value = float(row[7])
            noise = max(float(row[9]) - float(row[8]), float(row[10])) + 0.5
        # The calls' instructions include the preemption points the
        # windows leave out.
        resched = (p["session"]["resched_insns"] / p["calls"]
                   - r["session"]["resched_insns"] / r["calls"]) / per_call
        exact = (rounding(p) + rounding(r)) / per_call + 1e-9
        if whole is not None and abs(figure + hooks + resched - whole) > exact:
            verdict = "**differs from its calls**"
        elif value is None:
            verdict = "no icount figure"
        elif abs(figure + hooks + resched - value) <= noise:
            verdict = "ok"
        else:
            verdict = "**differs**"
        out.append((workload, config, ref, figure, hooks, whole, value, noise, verdict))
    return out


def injected_check(profiles):
    """[(workload, config, interrupts in windows, verdict)]: each session
    run again with timer interrupts must count the same per check (every
    total to the last decimal) but the distinct data lines: the second
    session is another process, whose credential's groups and task come
    from other allocations, which can straddle one line more or less. Interrupts land where TCG ends a
    translation block and icount's deadline falls: in some checks never
    (a refusal's 45 instructions, in 5,000 calls); one session in which
    some landed is required, or the run tested nothing."""
    out = []
    for (workload, config), p in profiles.items():
        q = p.get("injected")
        if q is None:
            continue
        irqs = q["session"]["irqs_excluded"]
        differ = [c for c in VALUE_COLUMNS
                  if c != "dlines" and q["total"].get(c) != p["total"].get(c)]
        if differ:
            verdict = "**differs: " + ", ".join(
                f"{c} {fmt(q['total'][c])} against {fmt(p['total'][c])}" for c in differ) + "**"
        elif not irqs:
            verdict = "not tested: no interrupt landed in a check"
        else:
            verdict = "exact"
        out.append((workload, config, irqs, verdict))
    if out and not any(irqs for _, _, irqs, _ in out):
        out = [(w, c, n, "**no interrupt landed in any check**") for w, c, n, _ in out]
    return out


def anomalies(p):
    """The plugin's anomaly counters of session P that are not 0. A hook
    window dropped because its task slept in it and another task ran
    (hook_unclosed) is one only in a session that took no interrupt: an
    interrupt (the tick) is what asks a task to reschedule at a
    might_sleep() inside a hook, and such a session is left out of the
    whole-session check; the hook's other calls are whole."""
    s = p["session"]
    return [f"{c} {s[c]}" for c in EXACT
            if s.get(c) and not (c == "hook_unclosed" and s.get("gate_irqs"))]


def markdown(profiles, crossed, table, order):
    """summary.md's profile sections, and the list of what failed."""
    if not profiles:
        return [], []
    failures = []
    lines = ["", "## one capability check, per function (capcheck QEMU plugin, icount)", "",
             "From security_capable()'s entry to its return, every instruction attributed to "
             "a kernel function of the build's System.map; interrupts that land in a check "
             "are left out, and so are preemption points taken in one (preempt_enable() "
             "finding a reschedule pending, which an interrupt or wakeup outside the check "
             "asked for: its branch to the scheduler, two instructions under "
             "preempt=voluntary). Per check: instructions, loads, stores, distinct data and "
             "instruction lines (the cold-cache miss bound; no cache model: one fed only "
             "the checks' accesses would never see what evicts their lines). The tables "
             "per function: profile/<workload>-<config>.tsv.", ""]
    rows = []
    for (workload, config), p in sorted(profiles.items(), key=lambda kv: order(kv[0])):
        s, t = p["session"], p["total"]
        bad = anomalies(p)
        if not s["checks"]:
            bad.append("no check")
        if bad:
            failures.append(f"{workload} {config}: " + ", ".join(bad))
        top = max(p["functions"], key=lambda fv: fv[1]["insns"])[0] if p["functions"] else "-"
        rows.append([workload, config, f"{s['checks'] / p['calls']:g}", fmt(t["insns"]),
                     f"{s['insns_min']}-{s['insns_max']}", fmt(t["loads"]), fmt(t["stores"]),
                     fmt(t["dlines"]), fmt(t["ilines"]),
                     s["irqs_excluded"], s["resched_points"], s["return_slot_mismatch"],
                     s["unattributed_insns"],
                     len(p["functions"]), top])
    lines += table(["workload", "config", "checks/call", "insns", "insns range", "loads",
                    "stores", "dlines", "ilines", "irqs left out", "preemption points left out",
                    "return slot mismatch", "unattributed", "functions", "most insns"], rows)
    if crossed:
        lines += ["", "## cross-check: the exact figures against whole sessions and icount", "",
                  "profile: the plugin's instructions per call inside the checks minus "
                  "stock's (the same workload and outcome), over the checks one call makes. "
                  "hooks: the same inside the hook windows, every other LSM hook the calls "
                  "make (each security_* function a window of its own: Linux 6.12 gives "
                  "every hook a slot per LSM built in, one more with usercaps). "
                  "calls: the same from every instruction of the two sessions, user and "
                  "kernel (the plugin's gate counters, which count without its windows), "
                  "where neither session took an interrupt (a timer tick brings other work "
                  "that the windows leave out; the preemption points they leave out are added "
                  "back): it must be profile + hooks exactly, or the "
                  "windows missed work that differs between the kernels. icount: "
                  "checks.csv's median over the icount boots, from whole calls; it must "
                  "agree with profile + hooks within its noise: the range of the boots' "
                  "figures or, when larger, the repeats' spread (checks.csv), and half an "
                  "instruction (the timer's share of a whole call). The plugin's checks per "
                  "call must be what the kprobe counted in the first icount round.", ""]
        rows = []
        for workload, config, ref, figure, hooks, whole, value, noise, verdict in sorted(
                crossed, key=lambda c: order((c[0], c[1]))):
            whole_text = "-" if whole is None else f"{whole:.3f}"
            value_text = "-" if value is None else f"{value:.3f}"
            rows.append([workload, config, ref, f"{figure:.3f}", f"{hooks:.3f}", whole_text,
                         value_text, "-" if noise is None else f"{noise:.3f}", verdict])
            if verdict.startswith("**"):
                failures.append(f"{workload} {config}: {verdict.strip('*')}: profile "
                                f"{figure:.3f}, hooks {hooks:.3f}, calls {whole_text}, "
                                f"icount {value_text}")
        lines += table(["workload", "config", "reference", "profile", "hooks", "calls",
                        "icount", "noise", "verdict"], rows)
        compared = [c for c in crossed if c[5] is not None]
        figures = [c for c in crossed if c[2] != "-" and c[6] is not None]
        lines += ["", f"{sum(1 for c in figures if c[8] == 'ok')} of {len(figures)} with an "
                  "icount figure agree with it within its noise; the sessions without an "
                  "interrupt "
                  f"({len(compared)}) agree with their windows (profile + hooks) exactly in "
                  f"{sum(1 for c in compared if not c[8].startswith('**differs from'))}."]
    injected = injected_check(profiles)
    if injected:
        lines += ["", "## interrupts injected: the exclusion checked", "",
                  "Each configuration's first workload ran a second session with a timer "
                  "interrupt every few microseconds of guest time (bench/guest/capcheck "
                  "--interrupts): its checks must count exactly what the session without "
                  "them counted (instructions, loads, stores, instruction lines per check), "
                  "with interrupts left out of its windows. Data lines are not compared: "
                  "the second session is another process, whose groups and task come from "
                  "other allocations, which can straddle a line more or less.", ""]
        lines += table(["workload", "config", "interrupts left out of checks", "verdict"],
                       [[w, c, n, v] for w, c, n, v in sorted(injected,
                                                              key=lambda i: order(i[:2]))])
        failures += [f"{w} {c} with interrupts: {v.strip('*')}" for w, c, _, v in injected
                     if v.startswith("**")]
    if failures:
        lines += ["", "**The profile is not exact or disagrees with icount:** "
                  + "; ".join(failures) + "."]
    return lines, failures
