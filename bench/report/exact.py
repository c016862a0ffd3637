"""exact - bench/report/summarize's headline: what one capability check costs,
per capability, from the capcheck plugin's exact counts (profile boots),
and the goals decided on those figures alone.

A call can make checks of different capabilities (ioprio_set: CAP_SYS_ADMIN,
refused, then CAP_SYS_NICE). The plugin counts each check in its slot, its
ordinal among the checks of one system call; the run's meta says which
capability each slot checks (workload_checks, from capbench --list). One
row per workload, capability and configuration: the instructions of one
such check (an integer when every slot of that capability agrees, as the
plugin's windows do), its loads, stores and distinct lines, and the same
check of the stock kernel in the same outcome (allowed, refused, root);
in a run without stock boots, commoncap's (the usercaps kernel with
usercaps left out of lsm=).

Writes, in the run directory:
  exact.csv  one row per workload, capability and configuration
  goals.csv  one row per goal: limit, verdict, the worst row and margin
"""
import csv
import os

COLUMNS = ["workload", "capability", "config", "case", "slots", "checks_per_call", "insns",
           "reference", "reference_insns", "added", "loads", "stores", "dlines", "ilines",
           "added_loads", "added_stores"]
GOAL_COLUMNS = ["goal", "limit", "verdict", "worst_row", "worst_added", "margin"]
KERNELS = ["naive", "cached", "percred"]
CONFIG_KERNELS = ["stock", "commoncap"] + KERNELS
CASES = ["allowed", "denied", "grant", "deny", "deny-group", "deny-owner", "root"]


# The per-check goals: (text, limit, kernels, cases, WHY's key, whether
# the limit bounds the absolute figure). bench/report/plot draws the same limits
# (exact.py --limits).
PER_CHECK_GOALS = [
    ("usercaps built in but disabled (commoncap) vs stock <= 1", 1, ["commoncap"], CASES,
     "disabled", False),
    ("root 0", 0, KERNELS, ["root"], "root", True),
    ("percred grant <= 10", 10, ["percred"], ["grant"], "percred-grant", False),
    ("percred deny-never (the default policy) <= 2", 2, ["percred"], ["deny"], "deny-never",
     False),
    ("percred deny-others (granted to a group the caller is not in, or to another owner) <= 10",
     10, ["percred"], ["deny-group", "deny-owner"], "deny-others", False),
    ("cached deny-never <= 3", 3, ["cached"], ["deny"], "deny-never", False),
    ("cached grant (one supplementary group, the granted one) <= 50", 50, ["cached"], ["grant"],
     "cached-grant", False),
]


def slot_capabilities(meta):
    """{workload: [capability of slot 1, of slot 2, ...]} from the meta's
    workload_checks ("ioprio:sys_admin,sys_nice kill:kill ...")."""
    out = {}
    for item in meta.get("workload_checks", "").split():
        workload, _, caps = item.partition(":")
        out[workload] = caps.split(",")
    return out


def granted_capability(meta, workload):
    """The capability a workload's grant is of: its last check's (the one
    capbench's grant file names)."""
    caps = slot_capabilities(meta).get(workload)
    return caps[-1] if caps else None


def case_of(config, capability, granted):
    """The outcome a check of CAPABILITY has in CONFIG: a capability other
    than the granted one is refused in every case but root (ioprio's
    CAP_SYS_ADMIN in a grant is a refusal that was never granted)."""
    kernel, case = config.split("-", 1)
    if capability == granted or case == "root":
        return case
    return "denied" if kernel in ("stock", "commoncap") else "deny"


def reference_case(case):
    """The stock case a usercaps case is compared with."""
    if case == "root":
        return "root"
    if case in ("allowed", "grant"):
        return "allowed"
    return "denied"


def fmt(value):
    """Whole numbers without decimals: the plugin's figures are exact."""
    return f"{value:.0f}" if abs(value - round(value)) < 5e-4 else f"{value:.3f}"


def per_capability(profiles, meta):
    """The exact.csv rows (dicts) from the profile sessions (bench/
    capcheck_tables.gather, with their slots)."""
    caps = slot_capabilities(meta)
    cells = {}
    for (workload, config), p in profiles.items():
        slot_caps = caps.get(workload)
        if not slot_caps or not p.get("slots"):
            continue
        granted = slot_caps[-1]
        for k, slot in sorted(p["slots"].items()):
            cap = slot_caps[min(k, len(slot_caps)) - 1]
            cell = cells.setdefault((workload, cap, config), {
                "workload": workload, "capability": cap, "config": config,
                "case": case_of(config, cap, granted), "slots": [], "checks": 0,
                "calls": p["calls"], "sums": dict.fromkeys(("insns", "loads", "stores",
                                                            "dlines", "ilines"), 0.0),
                "per_slot": []})
            cell["slots"].append(k)
            cell["checks"] += slot["checks"]
            cell["per_slot"].append(slot["insns"])
            for column in cell["sums"]:
                cell["sums"][column] += slot[column] * slot["checks"]
    rows = []
    for (workload, cap, config), cell in cells.items():
        n = cell["checks"]
        values = {c: v / n for c, v in cell["sums"].items()}
        rows.append(dict(cell, **values, checks_per_call=n / cell["calls"],
                         agree=max(cell["per_slot"]) == min(cell["per_slot"])))
    # The reference: stock, or commoncap in a run without stock boots.
    base = "stock" if any(r["config"].startswith("stock-") for r in rows) else "commoncap"
    stock = {(r["workload"], r["capability"], r["case"]): r for r in rows
             if r["config"].startswith(f"{base}-")}
    for r in rows:
        ref = stock.get((r["workload"], r["capability"], reference_case(r["case"])))
        if base == "commoncap" and r["config"].startswith("commoncap-"):
            ref = None
        r["reference"] = f"{base}-{reference_case(r['case'])}" if ref else ""
        r["reference_insns"] = ref["insns"] if ref else None
        for column in ("insns", "loads", "stores"):
            r[f"added_{column}" if column != "insns" else "added"] = \
                r[column] - ref[column] if ref else None
    rows.sort(key=sort_key)
    return rows


def sort_key(r):
    kernel, case = r["config"].split("-", 1)
    return (r["workload"], r["slots"][0], CONFIG_KERNELS.index(kernel)
            if kernel in CONFIG_KERNELS else 9, CASES.index(case) if case in CASES else 9)


def write_csv(run_dir, meta, rows):
    if not rows:
        return
    with open(os.path.join(run_dir, "exact.csv"), "w", newline="") as f:
        f.write(f"# the capcheck plugin's exact counts per capability check (run "
                f"{meta.get('run_id')}, commit {meta.get('git_commit')}): per workload, "
                f"capability and configuration, one check's instructions, loads, stores "
                f"and distinct data and instruction lines; added: over the same check of "
                f"the stock kernel in the same outcome (reference)\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([r["workload"], r["capability"], r["config"], r["case"],
                             " ".join(map(str, r["slots"])), f"{r['checks_per_call']:g}",
                             fmt(r["insns"]), r["reference"],
                             "" if r["reference_insns"] is None else fmt(r["reference_insns"]),
                             "" if r["added"] is None else fmt(r["added"]),
                             fmt(r["loads"]), fmt(r["stores"]), f"{r['dlines']:.3f}",
                             f"{r['ilines']:.3f}",
                             "" if r["added_loads"] is None else fmt(r["added_loads"]),
                             "" if r["added_stores"] is None else fmt(r["added_stores"])])


def row_name(r):
    return f"{r['workload']}/{r['capability']}/{r['config']}"


# Why a goal is missed: read off the per-function profile (make profile)
# and the disassembly of the 6.1 build measured.
MOV = ("GCC 12 keeps the credential in a second register across cap_capable()'s namespace "
       "loop: one mov at its entry, on every path")
DENY_NEVER = ("a bit chosen by a run-time capability costs a load, a bit test and a branch "
              "(the may-grant word) after the enabled key's jump; with the disabled goal's "
              "mov: 5. A static key per capability would need a jump table on cap")
WHY = {
    "disabled": "the hook is one patched-out jump, on the refused path only; " + MOV +
    ". A refused check pays both (2), an allowed one the mov (1). With everything after the "
    "jump out of line, or the hook's arguments swapped, the mov stays",
    "root": "root's capability is in its effective set, a path on which usercaps runs "
    "nothing: what it pays is the disabled goal's mov, " + MOV,
    "percred-grant": "inline in cap_capable(), a grant takes the enabled key's jump (1), the "
    "may-grant word's load, bit test and branch (3), the percred key (1), the blob's offset "
    "(2), the generation's two loads, compare and branch (4), the granted word's load, bit "
    "test and branch (3), the kernel-thread rule (current, its flags' test, branch: 3), the "
    "own-credential rule (a compare with its real credential and a branch: 2), the "
    "tracepoint's patched-out jump (1), the disabled goal's mov (1) and the return path. The "
    "two rules and the tracepoint are the security issue's, the generation is what makes a "
    "revocation seen by the next check: 10 would need dropping one of them",
    "deny-never": DENY_NEVER,
    "deny-others": "the grant's path up to the granted word's test (enabled jump, may-grant "
    "word, percred key, blob offset, generation, granted bit: 14), the disabled goal's mov "
    "(1), then the refusal",
    "cached-grant": "what remains is groups_search() (the group search), "
    "usercaps_cred_capable() and cap_capable()'s way to it: the call's frame (four "
    "callee-saved registers kept across groups_search()), eligibility (the user namespace, "
    "and a bit of 6.1's bounding set, two u32 words), the entry's address, the owner's and "
    "group's compares, the class against the grantees, the preempt-disabled section, the "
    "kernel-thread and own-credential rules and the tracepoint, the naive key. 50 would take "
    "the decision inline in cap_capable(), as percred's, and a one-word bounding set "
    "(kernel_cap_t is one u64 since 6.3)",
}


def goals(rows, release):
    """[{goal, limit, verdict, worst_row, worst_added, margin, measured,
    why}] decided on the exact figures. A missed goal's "why" was read off
    the 6.1 build: given for a 6.1 RELEASE only."""
    analysed = release.startswith("6.1.")
    out = []

    def decide(goal, limit, selected, why_key, exact_zero=False):
        selected = [r for r in selected if r["added"] is not None]
        if not selected:
            return
        worst = max(selected, key=lambda r: abs(r["added"]) if exact_zero else r["added"])
        value = abs(worst["added"]) if exact_zero else worst["added"]
        missed = value > limit
        why = WHY.get(why_key) if missed else None
        if why and not analysed:
            why = f"not analysed on {release} (the reasons given were read off 6.1's build)"
        out.append({"goal": goal, "limit": limit, "verdict": "missed" if missed else "met",
                    "worst_row": row_name(worst), "worst_added": worst["added"],
                    "margin": value - limit, "why": why,
                    "measured": ", ".join(f"{row_name(r)} {fmt(r['added'])}" for r in selected)})

    def pick(kernels, cases):
        return [r for r in rows if r["config"].split("-", 1)[0] in kernels and r["case"] in cases]

    for goal, limit, kernels, cases, why_key, exact_zero in PER_CHECK_GOALS:
        decide(goal, limit, pick(kernels, cases), why_key, exact_zero)
    naive = {(r["workload"], r["capability"], r["case"]): r for r in pick(["naive"], CASES)}
    pairs = [(r, naive[(r["workload"], r["capability"], r["case"])])
             for r in pick(["cached"], CASES) if r["case"] != "root"
             and (r["workload"], r["capability"], r["case"]) in naive]
    if pairs:
        worst = max(pairs, key=lambda p: p[0]["insns"] - p[1]["insns"])
        margin = worst[0]["insns"] - worst[1]["insns"]
        out.append({"goal": "cached <= naive in every row", "limit": 0,
                    "verdict": "missed" if margin > 0 else "met",
                    "worst_row": row_name(worst[0]), "worst_added": worst[0]["added"],
                    "margin": margin, "why": None,
                    "measured": f"{len(pairs)} rows; closest: {row_name(worst[0])} "
                    f"{fmt(worst[0]['insns'])} against naive's {fmt(worst[1]['insns'])}"})
    return out


def write_goals(run_dir, goal_rows):
    if not goal_rows:
        return
    with open(os.path.join(run_dir, "goals.csv"), "w", newline="") as f:
        f.write("# the goals, decided on the capcheck plugin's exact instructions added per "
                "capability check (exact.csv); margin: the worst row's figure minus the limit\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(GOAL_COLUMNS)
        for g in goal_rows:
            writer.writerow([g["goal"], g["limit"], g["verdict"], g["worst_row"],
                             "" if g["worst_added"] is None else fmt(g["worst_added"]),
                             fmt(g["margin"])])


def markdown(rows, goal_rows, table):
    """summary.md's headline sections: the goals (the checks' and the
    credential operations', bench/report/hooks.py) and the exact table."""
    if not rows and not goal_rows:
        return ["", "## goals", "", "No exact figures: this run had no profile boots "
                "(bench/drivers/run --mode profile), and icount alone decides no goal."]
    lines = ["", "## goals (instructions added per capability check and per credential "
             "operation, exact: capcheck plugin)", ""]
    for g in goal_rows:
        verdict = "met" if g["verdict"] == "met" else \
            f"**missed** by {fmt(g['margin'])} (worst: {g['worst_row']} {fmt(g['worst_added'])})"
        lines.append(f"- {g['goal']}: {verdict} ({g['measured']})"
                     + (f". Why: {g['why']}" if g["why"] else ""))
    if not rows:
        return lines
    columns = []
    for r in rows:
        if (r["workload"], r["capability"]) not in columns:
            columns.append((r["workload"], r["capability"]))
    configs = sorted({r["config"] for r in rows if not r["config"].startswith("stock-")},
                     key=lambda c: (CONFIG_KERNELS.index(c.split("-")[0]),
                                    CASES.index(c.split("-", 1)[1])
                                    if c.split("-", 1)[1] in CASES else 9))
    cell = {(r["workload"], r["capability"], r["config"]): r for r in rows}

    def text(r):
        if r is None or r["added"] is None:
            return "-"
        out = fmt(r["added"])
        if not r["agree"]:
            out += " (slots differ)"
        if r["case"] != r["config"].split("-", 1)[1]:
            out += f" ({r['case']})"
        return out

    lines += ["", "## instructions added per capability check (exact: capcheck plugin)", "",
              "One check of each capability a call makes (ioprio_set checks CAP_SYS_ADMIN, "
              "refused but for root, then CAP_SYS_NICE), from security_capable()'s entry to "
              "its return, counted by the capcheck QEMU plugin in every profile session "
              "(interrupts left out), minus the same check of the stock kernel (built "
              "without the usercaps series) in the same outcome: allowed for allowed and "
              "grant, refused for every refusal, root for root. In brackets, a check whose "
              "outcome is not its configuration's. The stock kernel's own instructions per "
              "check are in the last rows; loads, stores and lines per row in exact.csv.", ""]
    header = ["config"] + [f"{w} {c}" for w, c in columns]
    body = [[c] + [text(cell.get((w, cap, c))) for w, cap in columns] for c in configs]
    body += [[c] + [fmt(cell[(w, cap, c)]["insns"]) if (w, cap, c) in cell else "-"
                    for w, cap in columns]
             for c in ("stock-allowed", "stock-denied", "stock-root")]
    lines += table(header, body, 1)
    return lines


def print_limits():
    """Each per-check goal's limit, a line "KERNEL CASE LIMIT" per kernel
    and outcome it bounds (bench/report/plot's goal marks)."""
    for _, limit, kernels, cases, _, _ in PER_CHECK_GOALS:
        for kernel in kernels:
            for case in cases:
                print(kernel, case, limit)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--limits"]:
        sys.exit("usage: bench/report/exact.py --limits")
    print_limits()
