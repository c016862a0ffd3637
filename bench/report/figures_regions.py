"""What each region of bench/report/figures says, and from which file of
results/: one function per region NAME, given the marker's arguments, the
markup ('md', 'rst' or 'txt') and the results/ directory; each returns
the region's text, naming its source. Nothing here is typed by hand but
words: every figure is read from a results file."""
import csv
import io
import os
import re
import tarfile
import textwrap

REGIONS = {}
# The capable() workloads whose checks run the same instructions at every
# call; mlock's allocating calls move by tens of instructions between boots.
STEADY = ("kill", "ioprio", "setpriority")
ARCHIVE = "packed.tar.xz"


class RegionError(Exception):
    """A region that cannot be written from the results."""


def region(name):
    def register(function):
        REGIONS[name] = function
        return function
    return register


def write(name, args, style, results):
    if name not in REGIONS:
        raise RegionError("unknown (bench/report/figures_regions.py writes: %s)" % ", ".join(sorted(REGIONS)))
    text = REGIONS[name](args, style, results)
    # The regions write Markdown's `code` and **bold** (reST's ``code`` for
    # reST); plain text drops them.
    return text if style != "txt" else text.replace("`", "").replace("**", "")


# Reading results/.

class Record:
    """A results/ directory (a bench/drivers/run run, an A/B, a debug run): its
    meta and its files, loose or in its packed.tar.xz (bench/drivers/pack)."""

    def __init__(self, results, name):
        self.path = os.path.join(results, name)
        if not os.path.isdir(self.path):
            raise RegionError("no %s" % self.path)
        self.name = os.path.relpath(os.path.realpath(self.path), os.path.dirname(results))
        self.meta = {}
        if os.path.exists(os.path.join(self.path, "meta")):
            for line in self.text("meta").splitlines():
                key, _, value = line.partition("=")
                self.meta[key] = value

    def text(self, name):
        loose = os.path.join(self.path, name)
        if os.path.exists(loose):
            with open(loose) as f:
                return f.read()
        archive = os.path.join(self.path, ARCHIVE)
        if os.path.exists(archive):
            with tarfile.open(archive) as tar:
                try:
                    return tar.extractfile(name).read().decode()
                except KeyError:
                    pass
        raise RegionError("no %s in %s, loose or packed" % (name, self.name))

    def rows(self, name, sep=","):
        lines = [line for line in self.text(name).splitlines() if line and not line.startswith("#")]
        return list(csv.DictReader(io.StringIO("\n".join(lines)), delimiter=sep))

    def get(self, key):
        if key not in self.meta:
            raise RegionError("no %s= in %s/meta" % (key, self.name))
        return self.meta[key]


def latest_of(results, kind):
    """The newest record under results/KIND (run ids sort by time): a
    directory with a meta and a summary.md, not a loose investigation's."""
    folder = os.path.join(results, kind)
    names = sorted(n for n in os.listdir(folder)
                   if all(os.path.exists(os.path.join(folder, n, f)) for f in ("meta", "summary.md"))) \
        if os.path.isdir(folder) else []
    if not names:
        raise RegionError("no record under %s" % folder)
    return Record(results, os.path.join(kind, names[-1]))


def number(value):
    return float(value)


def profile_table(record, workload, config):
    """{function: insns per check} of one check (profile/*.tsv), and its
    total row."""
    rows = record.rows("profile/%s-%s.tsv" % (workload, config), sep="\t")
    table = {r["function"]: r for r in rows}
    if "total" not in table:
        raise RegionError("profile/%s-%s.tsv of %s has no total" % (workload, config, record.name))
    return table


def ab_tables(record):
    """An A/B's ab.md: its per-call and per-check rows, and its per-function
    tables ({'kill-cached-grant': {function: (a, b, b - a)}})."""
    rows, functions, section, exact, other = [], {}, None, False, False
    for line in record.text("ab.md").splitlines():
        heading = re.match(r"^### (\S+): instructions per check$", line)
        if heading:
            section, other = functions.setdefault(heading.group(1), {}), False
            continue
        if line.startswith("### "):
            other = True    # another section's tables (bench/report/ab-annotate's): not these
        if other:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == "workload":
            exact = cells[2] == "check"    # bench/report/ab-exact's table (ab_exact), not icount's
        if not line.startswith("|") or cells[0] in ("workload", "function") or cells[0].startswith("---"):
            continue
        if section is None and len(cells) == 10 and not exact:
            rows.append(dict(zip(("workload", "config", "checks", "call_a", "call_b", "call_delta",
                                  "check_a", "check_b", "check_delta", "noise"), cells)))
        elif section is not None and len(cells) == 4:
            section[cells[0]] = tuple(number(c) for c in cells[1:])
    if not rows and not functions:
        raise RegionError("no table in %s/ab.md" % record.name)
    return rows, functions


def ab_exact(record):
    """An A/B's bench/report/ab-exact rows (ab.md): [{workload, config, check, a,
    b, delta}]."""
    rows, inside = [], False
    for line in record.text("ab.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == "workload":
            inside = cells[2] == "check"
        elif inside and line.startswith("|") and not cells[0].startswith("---"):
            rows.append(dict(zip(("workload", "config", "check", "a", "b", "delta"), cells)))
        elif not line.startswith("|"):
            inside = False
    return rows


def ab_check(rows, workload, config, side):
    for r in rows:
        if r["workload"] == workload and r["config"] == config:
            return number(r["check_" + side])
    raise RegionError("no %s %s row in ab.md" % (workload, config))


# Writing.

def steady():
    return ", ".join("`%s`" % w for w in STEADY[:-1]) + " and `%s`" % STEADY[-1]


def fmt(value, places=2):
    return "%.*f" % (places, value)


def span(values, places=2, sign=False):
    """'a to b' of VALUES, or the one value they all are; PLACES None:
    whole numbers without decimals (the plugin's exact counts)."""
    pattern = ("%+" if sign else "%") + ("g" if places is None else ".%df" % places)
    low, high = pattern % min(values), pattern % max(values)
    return low if low == high else "%s to %s" % (low, high)


def count(value):
    return "{:,.0f}".format(value)


def table(style, header, rows, right=()):
    """A Markdown table, or one in fixed-width columns for plain text,
    whose header cells may take two lines (a newline in the cell)."""
    if style == "md":
        out = ["| " + " | ".join(h.replace("\n", " ") for h in header) + " |",
               "| " + " | ".join("---:" if i in right else "---" for i in range(len(header))) + " |"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)
    height = max(h.count("\n") + 1 for h in header)
    heads = [[""] * (height - h.count("\n") - 1) + h.split("\n") for h in header]
    head_rows = [[h[k] for h in heads] for k in range(height)]
    widths = [max(len(r[i]) for r in head_rows + rows) for i in range(len(header))]

    def line(r):
        return "  " + "  ".join(c.rjust(w) if i in right else c.ljust(w)
                                for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join(line(r) for r in head_rows + rows)


def paragraph(style, text, hang=0):
    """TEXT wrapped at 72 columns, HANG columns in after its first line;
    plain text (a mail) without Markdown's marks."""
    if style == "txt":
        text = text.replace("`", "").replace("**", "")
    return textwrap.fill(text, 72, subsequent_indent=" " * hang, break_on_hyphens=False,
                         break_long_words=False)


def source(record, what="run"):
    return "(%s `%s`)" % (what, record.name)


# The regions.

@region("record")
def record_run(args, style, results):
    """The record: which run results/latest is, and how it ran."""
    run = Record(results, "latest")
    kvm = "with KVM" if run.get("kvm") == "yes" else "without KVM"
    return paragraph(style, "The record is the full run %s, which `results/latest` points at: "
            "commit %s of %s, `bench/drivers/run --mode %s`, status %s, %s s of bench/drivers/run "
            "(%d min %d s) on %s CPUs (%s) %s." % (
                "`%s`" % run.name, run.get("git_commit"), run.get("date"), run.get("mode"),
                run.get("status"), run.get("elapsed_seconds"), int(run.get("elapsed_seconds")) // 60,
                int(run.get("elapsed_seconds")) % 60, run.get("host_cpus"), run.get("host_cpu"), kvm))


CASES = (("grant / allowed", ("grant", "allowed")), ("deny (never granted)", ("deny", "denied")),
         ("deny-group, deny-owner", ("deny-group", "deny-owner")), ("root", ("root",)))
KERNELS = (("commoncap (built in, disabled)", "commoncap"), ("naive", "naive"), ("cached", "cached"),
           ("percred", "percred"))


def added_by_mode(style, exact):
    """The table of instructions added per check, a row per mode and a
    column per case, over the rows of exact.csv given."""
    rows = []
    for label, kernel in KERNELS:
        cells = [label]
        for _, cases in CASES:
            values = [number(r["added"]) for r in exact
                      if r["config"].split("-")[0] == kernel and r["case"] in cases and r["added"]]
            cells.append(span(values, places=None) if values else "")
        rows.append(cells)
    return table(style, [""] + [c for c, _ in CASES], rows, right=(1, 2, 3, 4))


@region("glance")
def glance(args, style, results):
    """The results at a glance: what each mode adds to one check of kill,
    exactly (exact.csv)."""
    run = Record(results, "latest")
    kill = [r for r in run.rows("exact.csv") if r["workload"] == "kill"]
    if not kill:
        raise RegionError("no kill row in %s/exact.csv" % run.name)
    stock = {r["case"]: number(r["insns"]) for r in kill if r["config"].startswith("stock-")}
    return added_by_mode(style, kill) + "\n\n" + paragraph(style, (
        "Instructions that each mode adds to one capability check of `kill(2)` (CAP_KILL), over "
        "the same check of the kernel built without usercaps in the same outcome %s, `exact.csv`: "
        "the capcheck plugin's exact count. The stock check itself is %g instructions allowed "
        "and %g refused." % (source(run), stock["allowed"], stock["denied"])))


@region("headline")
def headline(args, style, results):
    """Instructions added per check, by mode and case: exact.csv (the
    capcheck plugin's counts)."""
    run = Record(results, "latest")
    exact = run.rows("exact.csv")
    stock = [number(r["insns"]) for r in exact if r["config"].startswith("stock-")]
    checks = sorted({"%s %s" % (r["workload"], r["capability"]) for r in exact})
    return added_by_mode(style, exact) + "\n\n" + paragraph(style, (
        "Every check of %s %s, `exact.csv`: the capcheck plugin's instructions of one check, from "
        "`security_capable()`'s entry to its return, minus stock's same check in the same outcome "
        "(a check's own outcome: `ioprio`'s CAP_SYS_ADMIN is refused, never granted, in every case "
        "but root). A stock check itself is %s instructions." % (
            ", ".join("`%s`" % c for c in checks), source(run), span(stock, places=None))))


@region("goals")
def goals(args, style, results):
    """The goals' verdicts (goals.csv), and kill against the number of
    groups (summary.csv)."""
    run = Record(results, "latest")
    try:
        verdicts = run.rows("goals.csv")
    except RegionError:
        verdicts = None
    if verdicts:
        text = table(style, ["goal", "limit", "verdict", "worst row", "worst added", "margin"],
                     [[g["goal"], g["limit"], g["verdict"], g["worst_row"], g["worst_added"], g["margin"]]
                      for g in verdicts], right=(1, 4, 5))
        text += "\n\n" + paragraph(style, "The goals %s, `goals.csv`; `summary.md` says why each "
                                  "missed one is missed." % source(run))
    else:
        # A run made before goals.csv: the verdicts of its summary.md.
        verdicts = re.findall(r"^- (.+?): (?:\*\*(missed)\*\*(?: by ([-\d.]+))?|(met)\b)",
                              run.text("summary.md"), re.M)
        if not verdicts:
            raise RegionError("no goals.csv nor goals in %s/summary.md" % run.name)
        text = table(style, ["goal", "verdict", "missed by"],
                     [[goal, missed or met, by] for goal, missed, by, met in verdicts], right=(2,))
        text += "\n\n" + paragraph(style, "The goals %s, `summary.md`, which says why each missed one "
                                  "is missed." % source(run))
    per_call = run.rows("summary.csv")
    flat = []
    for config in ("percred-grant", "cached-grant"):
        by_groups = {int(r["variant"].split("=")[1]): number(r["ns_per_op_min"]) for r in per_call
                     if r["workload"] == "kill" and r["config"] == config and r["mode"] == "icount"
                     and r["variant"].startswith("groups=")}
        if by_groups:
            low, high = min(by_groups), max(by_groups)
            flat.append("%s %s with %d group%s, %s with %d" % (
                config, fmt(by_groups[low], 1), low, "" if low == 1 else "s", fmt(by_groups[high], 1), high))
    if flat:
        text += "\n\n" + paragraph(style, "`kill`'s fewest instructions per call against the number "
                                  "of supplementary groups (`summary.csv`): %s." % "; ".join(flat))
    return text


@region("offpath")
def offpath(args, style, results):
    """Off the capable() path: churn, policy updates, memory (summary.csv,
    policy.csv, memory.csv)."""
    run = Record(results, "latest")
    rows = run.rows("summary.csv")
    usercaps = ("naive", "cached", "percred")

    def select(workload, stack=None, kernels=usercaps, case=None):
        return [r for r in rows if r["workload"] == workload and r["mode"] == "icount"
                and r["config"].split("-")[0] in kernels
                and (stack is None or r["variant"] == "stack=" + stack)
                and (case is None or r["config"].endswith("-" + case))]

    def ratios(selected):
        return span([number(r["ratio"]) for r in selected], places=3)

    def medians(workload):
        return [number(r["ns_per_op_median"]) for r in rows
                if r["workload"] == workload and r["mode"] == "icount"]

    policy = run.rows("policy.csv")

    def items(item):
        return sorted({number(r["value"]) for r in policy if r["item"] == item})

    memory = {(r["kernel"], r["stack"]): r for r in run.rows("memory.csv")}
    setgroups = select("setgroups-1", "debian", ("percred",), "grant")
    if not setgroups:
        raise RegionError("no setgroups-1 percred-grant row in %s/summary.csv" % run.name)
    chmod, apply = medians("chmod"), medians("apply-41")
    return paragraph(style,
        "Off the `capable()` path %s: `fork-exec` is %sx commoncap's on the same stack in the "
        "usercaps configurations (Debian's stack and `lsm=capability` alone; `plots/offpath-icount` "
        "draws the noise floor); a policy change costs about the same in every mode (icount, "
        "median: `chmod` %s to %s instructions, an `apply` of 41 files %s to %s), makes %s "
        "`kvfree_rcu` and %s `synchronize_rcu` per change, and leaves %s kmalloc-512 objects of "
        "its tables behind after %s changes. percred adds %s bytes to every credential (a "
        "%s-byte blob instead of %s with Debian's stack; with `lsm=capability` alone, a new "
        "%s-byte allocation: `setresuid` %sx and `setresgid` %sx commoncap's) and refills its "
        "decisions at the first granted check of each new credential (`setgroups` of one group, "
        "then `CAP_SETGID`: %+.0f instructions, %sx)." % (
            source(run), ratios(select("fork-exec")), count(min(chmod)), count(max(chmod)),
            count(min(apply)), count(max(apply)), span(items("kvfree_call_rcu-per-update"), 0),
            span(items("synchronize_rcu-per-update"), 0),
            span(items("kmalloc-512-objects-after-minus-before"), 0),
            count(max(items("updates-traced"))), memory[("percred", "debian")]["added_blob_bytes"],
            memory[("percred", "debian")]["cred_blob_bytes"],
            memory[("commoncap", "debian")]["cred_blob_bytes"],
            memory[("percred", "bare")]["added_kmalloc_bytes"],
            ratios(select("setresuid", "bare", ("percred",))),
            ratios(select("setresgid", "bare", ("percred",))),
            number(setgroups[0]["overhead_ns"]), fmt(number(setgroups[0]["ratio"]), 3)))


@region("profile-record")
def profile_record(args, style, results):
    """How exact the record's profile was (profile.csv)."""
    run = Record(results, "latest")
    sessions = run.rows("profile.csv")
    varying = sorted({r["workload"] for r in sessions if r["insns_min"] != r["insns_max"]})

    def total(column):
        return sum(int(r[column]) for r in sessions)

    return paragraph(style, "The record's profile %s: %d sessions of %s calls each; every check ran the same "
            "instructions at every call in %d of them (%s), %d instructions unattributed, %d "
            "windows ended by a return other than their call's, %d interrupts left out." % (
                source(run), len(sessions), "/".join(sorted({r["calls"] for r in sessions})),
                sum(r["insns_min"] == r["insns_max"] for r in sessions),
                "the others: %s, where one call makes different checks" % ", ".join(varying)
                if varying else "all", total("unattributed_insns"), total("return_slot_mismatch"),
                total("irqs_excluded")))


@region("profile-kill")
def profile_kill(args, style, results):
    """One check of kill, granted, per function (profile/*.tsv)."""
    run = Record(results, "latest")
    configs = ("stock-allowed", "naive-grant", "cached-grant", "percred-grant")
    tables = [profile_table(run, "kill", c) for c in configs]
    names = sorted({f for t in tables for f in t if f != "total"},
                   key=lambda f: (-max(number(t[f]["insns"]) for t in tables if f in t), f))

    def cell(t, f, column="insns"):
        return ("%g" % number(t[f][column])) if f in t else ""

    rows = [["`%s`" % f] + [cell(t, f) for t in tables] for f in names]
    bold = "**%s**" if style == "md" else "%s"  # plain text: the table's columns
    rows.append([bold % "total"] + [bold % cell(t, "total") for t in tables])
    rows.append(["loads / stores"] + ["%s / %s" % (cell(t, "total", "loads"), cell(t, "total", "stores"))
                                      for t in tables])
    rows.append(["data / instruction lines"] + ["%.1f / %s" % (number(t["total"]["dlines"]), cell(t, "total", "ilines"))
                                                for t in tables])
    stock, percred = tables[0]["total"], tables[3]["total"]
    return (table(style, ["function", "stock", "naive", "cached", "percred"], rows, right=(1, 2, 3, 4))
            + "\n\n" + paragraph(style, (
                "One check of `kill`, granted (allowed in stock) %s, `profile/kill-*.tsv`: percred's is %g "
                "instructions and %g data lines above stock's." % (
                    source(run), number(percred["insns"]) - number(stock["insns"]),
                    round(number(percred["dlines"]) - number(stock["dlines"]), 1)))))


@region("cross-check")
def cross_check(args, style, results):
    """The profile's cross-check against icount (summary.md)."""
    run = Record(results, "latest")
    text = run.text("summary.md")
    part = text.split("## cross-check: the exact figures", 1)
    if len(part) < 2:
        part = text.split("## cross-check", 1)
    if len(part) < 2:
        raise RegionError("no cross-check in %s/summary.md" % run.name)
    verdict = [line for line in part[1].splitlines()
               if re.match(r"^\d+ of \d+ (with an icount figure )?agree", line)]
    apart, header = [], None
    for line in part[1].split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "workload":
            header = cells
        elif header and len(cells) == len(header) and cells[0] in STEADY:
            row = dict(zip(header, cells))
            if row["icount"] != "-":
                # The whole call's exact figure: the checks and the other hooks.
                exact = number(row["profile"]) + number(row.get("hooks", "0"))
                apart.append(abs(number(row["icount"]) - exact))
    if not verdict or not apart:
        raise RegionError("no cross-check verdict in %s/summary.md" % run.name)
    return paragraph(style, "The cross-check %s, `summary.md`: %s; %s: icount and the profile at "
                     "most %s apart per check." % (source(run), verdict[0].rstrip("."), steady(),
                                                   fmt(max(apart))))


# kill's configurations in the steps' table; a mail's narrower table leaves
# out the refusals by group.
STEP_COLUMNS = ("commoncap-denied", "naive-grant", "cached-grant", "cached-deny", "cached-deny-group",
                "percred-grant", "percred-deny", "percred-deny-group")
NARROW_STEP_COLUMNS = ("commoncap-denied", "naive-grant", "cached-grant", "cached-deny", "percred-grant",
                       "percred-deny")


def column_label(config):
    """'cached\ngrant'; commoncap's refusal is the disabled one's."""
    kernel, case = config.split("-", 1)
    return "disabled\nrefused" if config == "commoncap-denied" else "%s\n%s" % (kernel, case)


@region("steps")
def steps(args, style, results):
    """The hot path's steps, each an A/B of the one before (ab.md): kill's
    instructions added per check, and what changed per function."""
    if not args:
        raise RegionError("names no A/B directory")
    records = [Record(results, a) for a in args]
    tables = [ab_tables(r) for r in records]
    for before, after in zip(records, records[1:]):
        if before.get("B_commit") != after.get("A_commit"):
            raise RegionError("%s's A is not %s's B" % (after.name, before.name))
    columns = STEP_COLUMNS if style == "md" else NARROW_STEP_COLUMNS
    header = ["step", "commit"] + [column_label(c) for c in columns]
    rows = [["as before", records[0].get("A_rev")] +
            [fmt(ab_check(tables[0][0], "kill", c, "a"), 1) for c in columns]]
    for i, (record, (rows_ab, _)) in enumerate(zip(records, tables)):
        rows.append([str(i + 1), record.get("B_rev")] +
                    [fmt(ab_check(rows_ab, "kill", c, "b"), 1) for c in columns])
    text = table(style, header, rows, right=tuple(range(2, len(header))))
    text += "\n\n" + paragraph(style, "Per function, B - A of one check of `kill` (the capcheck "
                                "profile of each A/B):") + "\n"
    for i, (record, (_, functions)) in enumerate(zip(records, tables)):
        changes = []
        for config in STEP_COLUMNS:
            moved = ["%s %+g" % (f, d) for f, (_, _, d) in
                     sorted(functions.get("kill-" + config, {}).items(), key=lambda x: x[1][2])
                     if f != "total" and abs(d) >= 0.5]
            if moved:
                changes.append("%s %+g (%s)" % (config, functions["kill-" + config]["total"][2],
                                                ", ".join(moved)))
        text += "\n" + paragraph(style, "- step %d, `%s`: %s." % (i + 1, record.name,
                                                                 "; ".join(changes) or "no change"), hang=2)
    first, last = tables[0][0], tables[-1][0]
    text += "\n\n" + paragraph(style, (
        "From %s to %s: cached's grant went from %s to %s per check and naive's from %s to %s; a "
        "cached check of a capability nobody holds from %s to %s." % (
            records[0].get("A_rev"), records[-1].get("B_rev"),
            fmt(ab_check(first, "kill", "cached-grant", "a"), 1),
            fmt(ab_check(last, "kill", "cached-grant", "b"), 1),
            fmt(ab_check(first, "kill", "naive-grant", "a"), 1),
            fmt(ab_check(last, "kill", "naive-grant", "b"), 1),
            fmt(ab_check(first, "kill", "cached-deny", "a"), 1),
            fmt(ab_check(last, "kill", "cached-deny", "b"), 1))))
    return text


KERNEL_ROWS = ("commoncap-allowed", "commoncap-denied", "naive-grant", "naive-deny", "cached-grant",
               "cached-deny", "cached-deny-group", "percred-grant", "percred-deny", "percred-deny-group")


def kill_profile(run, config):
    """{function: instructions} of one check of kill in CONFIG."""
    return {f: number(r["insns"]) for f, r in profile_table(run, "kill", config).items()}


def added_by_function(run, config):
    """What CONFIG adds to each function of a check of kill over stock's
    same outcome."""
    check = kill_profile(run, config)
    reference = kill_profile(run, "stock-denied" if "-den" in config else "stock-allowed")
    return {f: check.get(f, 0) - reference.get(f, 0) for f in set(check) | set(reference)}


def moved_functions(before, after):
    """'f +1, g -4': the functions whose instructions differ."""
    return ", ".join("%s %+g" % (f, after.get(f, 0) - before.get(f, 0)) for f in sorted(set(before) | set(after))
                     if f != "total" and abs(after.get(f, 0) - before.get(f, 0)) >= 0.5)


def fewest_per_call(run, workload, config):
    for r in run.rows("summary.csv"):
        if (r["workload"], r["config"], r["mode"]) == (workload, config, "icount") and r["variant"] in ("-", ""):
            return number(r["ns_per_op_min"])
    raise RegionError("no %s %s in %s/summary.csv" % (workload, config, run.name))


@region("kernels")
def kernels(args, style, results):
    """6.1 and 6.12 side by side (results/kernels/, bench/report/kernels), with
    each run's stock check per function."""
    side = Record(results, "kernels")
    found = {}
    for version, run_id in re.findall(r"(6\.1|6\.12): run (\S+?),", side.text("per-check.csv")):
        for folder in ("", "linux-6.12"):
            if os.path.isdir(os.path.join(results, folder, run_id)):
                found[version] = Record(results, os.path.join(folder, run_id))
    if set(found) != {"6.1", "6.12"}:
        raise RegionError("the 6.1 and 6.12 runs that results/kernels/per-check.csv names are not under results/")
    old, new = found["6.1"], found["6.12"]
    kill = {r["config"]: r for r in side.rows("per-check.csv") if r["workload"] == "kill"}
    text = table(style, ["config", "6.1", "6.12"],
                 [[c, fmt(number(kill[c]["added_per_check_6.1"])), fmt(number(kill[c]["added_per_check_6.12"]))]
                  for c in KERNEL_ROWS if c in kill], right=(1, 2))
    allowed = [kill_profile(run, "stock-allowed") for run in (old, new)]
    refused = [kill_profile(run, "stock-denied") for run in (old, new)]
    changes = ["%s %s" % (c, moved_functions(added_by_function(old, c), added_by_function(new, c)) or "none")
               for c in ("commoncap-allowed", "cached-deny-group", "percred-grant")]
    return text + "\n\n" + paragraph(style, (
        "`kill`, icount: instructions added per check over each kernel's own stock build "
        "(`results/kernels/per-check.csv`, of runs `%s` and `%s`). One stock check of `kill` (capcheck "
        "profile): %g instructions on 6.1, %g on 6.12 (%s); a refused one %g and %g; the whole `kill` "
        "call, stock, allowed: %s and %s instructions. What usercaps adds, per function, 6.12 minus "
        "6.1: %s." % (old.name, new.name, allowed[0]["total"], allowed[1]["total"],
                      moved_functions(*allowed), refused[0]["total"], refused[1]["total"],
                      count(fewest_per_call(old, "kill", "stock-allowed")),
                      count(fewest_per_call(new, "kill", "stock-allowed")), "; ".join(changes))))


def revision(record, side):
    """An A/B side's revision, with its commit when it was named otherwise
    (HEAD, WORKTREE)."""
    rev, commit = record.get(side + "_rev"), record.get(side + "_commit")
    return rev if commit.startswith(rev) else "%s (%s)" % (rev, commit[:7])


@region("ab-runs")
def ab_runs(args, style, results):
    """A/B runs (ab.md, meta): what ran, how long, and B - A."""
    if not args:
        raise RegionError("names no A/B directory")
    items = []
    for name in args:
        record = Record(results, name)
        rows, functions = ab_tables(record)
        elapsed = int(record.get("elapsed_seconds"))
        builds = "; ".join("%s %s" % (side, record.meta.get(side + "_build", "?")) for side in ("A", "B"))
        rounds = " and ".join("%s s" % record.meta[s + "_icount"].split()[0] for s in ("A", "B")
                              if s + "_icount" in record.meta)
        phases = ", ".join("%s %s s" % (k[len("time_"):].replace("_", " "), v)
                           for k, v in record.meta.items() if k.startswith("time_"))
        if "load_average_start" in record.meta:
            phases += "; load average %s at the start, %s at the end" % (
                record.get("load_average_start"), record.get("load_average_end"))
        bold = [r for r in rows if r["check_delta"].startswith("**")]
        quiet = [abs(number(r["check_delta"])) for r in rows if r["check_delta"] not in ("-", "")
                 and not r["check_delta"].startswith("**")]
        per_call = {}
        for r in rows:
            per_call[r["workload"]] = max(per_call.get(r["workload"], 0), abs(number(r["call_delta"])))
        exact = ab_exact(record)
        moved_exact = [number(r["delta"]) for r in exact if number(r["delta"])]
        item = "%s (A=%s, B=%s; %s): %d min %d s in all%s; builds: %s" % (
            "`%s`" % record.name, revision(record, "A"), revision(record, "B"),
            "`bench/drivers/run %s`" % record.get("run_options").strip(), elapsed // 60, elapsed % 60,
            " (%s)" % phases if phases else "", builds)
        if not rows:    # the profile alone: bench/report/ab-exact's table
            item += ". Exact, per check: B - A %s instructions in %d of %d rows, 0 in the others." % (
                span(moved_exact, places=None, sign=True) if moved_exact else "0",
                len(moved_exact), len(exact))
        else:
            item += ("; bench/drivers/run rounds %s. Per check, B - A past the noise in %d of %d rows%s; the "
                     "others within %s. Per call, at most %s." % (
                         rounds or "-", len(bold), len(rows),
                         " (%s: %s)" % (span([number(r["check_delta"].strip("*")) for r in bold], sign=True),
                                        ", ".join(sorted({r["config"].split("-")[0] for r in bold})))
                         if bold else "", fmt(max(quiet)) if quiet else "-",
                         ", ".join("%s %s" % (w, fmt(d)) for w, d in per_call.items())))
        if functions:
            deltas = [d for table_ in functions.values() for f, (_, _, d) in table_.items() if f != "total"]
            totals = {}
            for table_ in functions.values():
                if "total" in table_:
                    totals.setdefault("%+.2f" % table_["total"][2], []).append(1)
            moved = sorted({c.split("-", 1)[1] for c, t in functions.items()
                            if any(abs(d) >= 0.005 for f, (_, _, d) in t.items() if f != "total")})
            item += " Profile: %d function rows, B - A %s%s; a whole check, B - A: %s." % (
                len(deltas), span(deltas, sign=True),
                " (configurations that moved: %s)" % ", ".join(moved) if moved else "",
                ", ".join("%s in %d" % (d, len(n)) for d, n in
                          sorted(totals.items(), key=lambda x: -len(x[1]))))
        items.append(paragraph(style, "- " + item, hang=2))
    return "\n".join(items)


def annotation(record, config, session, function):
    """The by-line table of one function in one session of an A/B's
    bench/report/ab-annotate section of CONFIG (ab.md): [(line, a, b, b - a)]."""
    part, rows = None, []
    for line in record.text("ab.md").splitlines():
        if line.startswith("### "):
            # bench/annotate, as it was called before bench/report/
            part = "config" if line in ("### %s: instructions per check (bench/%s)" % (config, tool)
                                        for tool in ("report/annotate", "annotate")) else None
        elif line.startswith("## ") and part:
            part = "function" if line == "## %s: %s" % (session, function) else "config"
        elif part == "function" and line.startswith("| source line |"):
            part = "lines"
        elif part == "lines" and line.startswith("| ") and not line.startswith("| ---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif part == "lines" and not line.startswith("|"):
            break
    if not rows:
        raise RegionError("no by-line table of %s in %s in %s/ab.md" % (function, session, record.name))
    return rows


@region("annotate")
def annotate(args, style, results):
    """One function's executions per check by source line, A and B, from
    an A/B with --annotate (ab.md)."""
    if len(args) != 4:
        raise RegionError("takes an A/B directory, a configuration, a session and a function")
    record = Record(results, args[0])
    # The lines that ran, on either side.
    rows = [r for r in annotation(record, *args[1:]) if any(number(v) for v in r[1:3])]
    text = table(style, ["source line", "A", "B", "B - A"],
                 [["`%s`" % r[0] if r[0] != "total" else r[0]] + r[1:] for r in rows], right=(1, 2, 3))
    return text + "\n\n" + paragraph(style, (
        "`%s`'s instructions executed per check of %s by source line (the lines that ran), "
        "A=%s and B=%s %s; its `ab.md` lists each instruction with its line, disassembly and "
        "executions." % (
            args[3], args[2], record.get("A_rev"), record.get("B_rev"), source(record, "A/B"))))


@region("debug-record")
def debug_record(args, style, results):
    """The latest make test-debug record of each kernel (results/debug/,
    results/debug/linux-6.12/)."""
    sentences = []
    for kernel, kind in (("6.1", "debug"), ("6.12", os.path.join("debug", "linux-6.12"))):
        run = latest_of(results, kind)
        summary = run.text("summary.md")
        prove = re.search(r"prove: Result: (\w+) \(Files=(\d+), Tests=(\d+)", summary)
        boots = re.search(r"boots: (\d+), of which (\d+) ran .*: \*\*(\d+)\*\*", summary)
        if not prove or not boots:
            raise RegionError("no prove result or boots in %s/summary.md" % run.name)
        elapsed = int(run.get("elapsed_seconds"))
        sentences.append(
            "On %s, the latest record, %s (commit %s, %s): prove's result %s, %s tests in %s "
            "suites in %d min %d s; %s boots, %s of which ran their command to the end and %s "
            "reported a problem." % (
                kernel, "`%s`" % run.name, run.get("git_commit"), run.get("date"), prove.group(1),
                prove.group(3), prove.group(2), elapsed // 60, elapsed % 60, boots.group(1),
                boots.group(2), boots.group(3)))
    return paragraph(style, " ".join(sentences))


@region("percred-memory")
def percred_memory(args, style, results):
    """What percred adds to a credential (memory.csv)."""
    run = Record(results, "latest")
    memory = {(r["kernel"], r["stack"]): r for r in run.rows("memory.csv")}
    debian, bare = memory[("percred", "debian")], memory[("percred", "bare")]
    # The source in a comment: the kernel's documentation has no results/.
    return (".. From %s/memory.csv (bench/report/figures).\n\n" % run.name + paragraph(
        style, "percred adds %s bytes to every credential: with Debian's LSMs a %s-byte blob "
        "instead of %s, with ``lsm=capability,usercaps`` a %s-byte allocation of its own." % (
            debian["added_blob_bytes"], debian["cred_blob_bytes"],
            memory[("commoncap", "debian")]["cred_blob_bytes"], bare["added_kmalloc_bytes"])))


def realwork_rows(run):
    """{(workload, config): row} of RUN's realwork.csv, or {} without one."""
    try:
        return {(r["workload"], r["config"]): r for r in run.rows("realwork.csv")}
    except RegionError:
        return {}


@region("realwork")
def realwork(args, style, results):
    """What percred adds to real work: the audio user's and the container
    start's whole workload (realwork.csv), those of them the record ran;
    a record without a realwork round, the latest realwork run's."""
    run = Record(results, "latest")
    rows = realwork_rows(run)
    if not rows and os.path.isdir(os.path.join(results, "realwork")):
        run = latest_of(results, "realwork")
        rows = realwork_rows(run)
    said = []
    for workload, text in (("audio", "the audio user's start (SCHED_FIFO, mlockall, nice)"),
                           ("container", "a rootless container start")):
        row = rows.get((workload, "percred-grant"))
        if row is None or not row["added"]:
            continue
        said.append("%s: %s of its %s instructions are in `capable()` (%s %%), and percred "
                    "adds %s of them (%s %% of the whole, %s)" % (
                        text, count(number(row["capable_insns"])), count(number(row["insns"])),
                        row["capable_share"], count(number(row["added"])), row["added_share"],
                        row["verdict"]))
    if not said:
        return paragraph(style, "Real work (`bench/drivers/run --mode realwork`): neither the audio user "
                         "nor the container start against stock in the record %s yet." % source(run))
    return paragraph(style, "Real work %s, `realwork.csv`: %s." % (source(run), "; ".join(said)))
