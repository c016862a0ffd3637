#!/usr/bin/env python3
# bench/report/summarize's parts, each on its own, no kernel needed: what
# summary_raw reads of made-up boot files, the rows summary_rows derives
# from made-up figures, what summary_goals keeps of made-up plugin
# sessions, and what summary_csv and summary_markdown write of made-up
# rows; every input small and chosen, so that a rule broken in one part
# shows here, by name. bench-host.t and the others run summarize whole.
import os
import shutil
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "bench", "report"))
import summary_csv  # noqa: E402
import summary_markdown  # noqa: E402
import summary_raw  # noqa: E402
import summary_rows  # noqa: E402
from summary_goals import Goals  # noqa: E402

TESTS = []


def test(function):
    TESTS.append(function)
    return function


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def boot(raw, name, image="usercaps", files=None):
    """raw/NAME: a boot under icount of IMAGE (guest-meta, vm-meta) with
    FILES ({name: text})."""
    write(os.path.join(raw, name, "guest-meta"),
          f"guest_kernel_version=#1 {image}\nguest_kernel_config_sha256={image}\n"
          "guest_lsm=capability,usercaps\n")
    write(os.path.join(raw, name, "vm-meta"), "accel=icount\n")
    for file, text in (files or {}).items():
        write(os.path.join(raw, name, file), text)


# summary_raw: reading ------------------------------------------------------

@test
def keyvalues_and_data_rows(tmp):
    """read_keyvalues keeps key=value lines only; data_rows skips '#' and blank lines"""
    write(f"{tmp}/meta", "a=1\nno equals sign\nb=x=y\n")
    assert summary_raw.read_keyvalues(f"{tmp}/meta") == {"a": "1", "b": "x=y"}
    assert summary_raw.read_keyvalues(f"{tmp}/missing") == {}
    write(f"{tmp}/x.dat", "# a b\n\n1 2\n 3 4 \n")
    assert summary_raw.data_rows(f"{tmp}/x.dat") == [["1", "2"], ["3", "4"]]
    assert summary_raw.data_rows(f"{tmp}/missing") == []


@test
def console_stamps(tmp):
    """the time to init, the initcall's usecs and the cred blob are read off the console and dmesg, None when absent"""
    write(f"{tmp}/console.log", "[    0.100000] LSM: cred blob size     = 24\n"
          "[    1.250000] Run /sbin/init as init process\n")
    write(f"{tmp}/dmesg.log", "initcall usercaps_init_securityfs+0x0/0x80 returned 0 after 37 usecs\n")
    assert summary_raw.init_time(f"{tmp}/console.log") == 1.25
    assert summary_raw.blob_size(f"{tmp}/console.log") == 24
    assert summary_raw.initcall_usecs(f"{tmp}/dmesg.log", "usercaps_init_securityfs") == 37
    assert summary_raw.initcall_usecs(f"{tmp}/dmesg.log", "other_initcall") is None
    assert summary_raw.init_time(f"{tmp}/dmesg.log") is None
    assert summary_raw.blob_size(f"{tmp}/missing") is None


@test
def read_boots(tmp):
    """read() keys each repeat by workload, config, mode and variant, per run; a -failed boot is left out"""
    raw = f"{tmp}/raw"
    nsop = ("# workload config repeat n total ns\n"
            "kill percred-grant 1 10 1500 150.0\nkill percred-grant 2 10 1600 160.0\n")
    boot(raw, "icount-run1-percred", files={"nsop.dat": nsop,
                                            "groups.dat": "32 kill percred-grant 1 10 1700 170.0\n",
                                            "churn.dat": "bare fork percred-grant 1 10 9000 900.0\n"})
    boot(raw, "icount-run2-percred", files={"nsop.dat": "kill percred-grant 1 10 1550 155.0\n"})
    boot(raw, "icount-run3-percred-failed", files={"nsop.dat": "kill percred-grant 1 10 1 999.0\n"})
    data = summary_raw.read(raw)
    assert {k: dict(v) for k, v in data.nsop.items()} == {
        ("kill", "percred-grant", "icount", "-"): {"run1": [150.0, 160.0], "run2": [155.0]},
        ("kill", "percred-grant", "icount", "groups=32"): {"run1": [170.0]},
        ("fork", "percred-grant", "icount", "stack=bare"): {"run1": [900.0]},
    }, dict(data.nsop)
    assert data.boots == ["icount-run1-percred", "icount-run2-percred"]
    assert data.repeat_totals[0] == (1500, "kill", "percred-grant", "icount-run1-percred")
    assert data.accel == {"icount": "icount"}
    assert data.active_lsms == {"percred": {"capability,usercaps"}}


@test
def checks_per_call(tmp):
    """checks per call are whole within 0.05 of a whole number (another process's odd check), else kept as they are"""
    raw = f"{tmp}/raw"
    boot(raw, "icount-run1-percred", files={"checks.dat": "kill percred-grant 200 0 0 2.96\n"
                                                          "ioprio percred-grant 200 0 0 2.9\n"})
    data = summary_raw.read(raw)
    assert data.checks[("kill", "percred-grant")] == {"run1": 3}, data.checks
    assert data.checks[("ioprio", "percred-grant")] == {"run1": 2.9}, data.checks


@test
def boot_boots(tmp):
    """a boot boot is the time to init (ns) and the initcall's (ns), on its stack; nothing else of it is read"""
    raw = f"{tmp}/raw"
    boot(raw, "boot-run1-percred@bare", files={
        "console.log": "[    2.000000] Run /init as init process\n",
        "dmesg.log": "initcall usercaps_init_securityfs+0x0/0x1 returned 0 after 5 usecs\n",
        "nsop.dat": "kill percred-grant 1 10 1 1.0\n"})
    data = summary_raw.read(raw)
    assert {k: dict(v) for k, v in data.nsop.items()} == {
        ("boot-to-init", "percred-boot", "icount", "stack=bare"): {"run1": [2e9]},
        ("usercaps-initcall", "percred-boot", "icount", "stack=bare"): {"run1": [5000.0]},
    }, dict(data.nsop)
    assert data.boots == []


@test
def first_icount_round_times_the_boot(tmp):
    """the first icount round's boots on the kernel's own stack that saved dmesg.log time the boot besides their workloads; later rounds, the bare stack and boots with no dmesg.log do not"""
    raw = f"{tmp}/raw"
    timed = {"console.log": "[    0.700000] Run /init as init process\n",
             "dmesg.log": "initcall usercaps_init_securityfs+0x0/0x1 returned 0 after 7 usecs\n",
             "nsop.dat": "kill percred-grant 1 10 10 1.0\n"}
    boot(raw, "icount-run1-percred", files=timed)
    boot(raw, "icount-run2-percred", files=timed)
    boot(raw, "icount-run1-percred@bare", files={k: timed[k] for k in ("console.log", "dmesg.log")})
    boot(raw, "icount-run1-cached", files={"console.log": timed["console.log"]})
    data = summary_raw.read(raw)
    boot_rows = {k: dict(v) for k, v in data.nsop.items() if k[0] != "kill"}
    assert boot_rows == {
        ("boot-to-init", "percred-boot", "icount", "stack=debian"): {"run1": [7e8]},
        ("usercaps-initcall", "percred-boot", "icount", "stack=debian"): {"run1": [7000.0]},
    }, boot_rows
    assert dict(data.nsop[("kill", "percred-grant", "icount", "-")]) == {
        "run1": [1.0], "run2": [1.0]}, dict(data.nsop[("kill", "percred-grant", "icount", "-")])
    assert "icount-run1-percred" in data.boots


@test
def mixed_kernels(tmp):
    """two boots of one image that ran different kernels are found; stock and usercaps differing is no mix"""
    raw = f"{tmp}/raw"
    boot(raw, "icount-run1-stock", image="stock")
    boot(raw, "icount-run1-percred")
    assert summary_raw.read(raw).mixed_kernels() == {}
    boot(raw, "icount-run2-percred", image="other")
    assert list(summary_raw.read(raw).mixed_kernels()) == ["usercaps"]


@test
def policy_rows(tmp):
    """rcu.dat's calls are per update; memory.dat's objects, bytes and their growth from before to after"""
    write(f"{tmp}/b/rcu.dat", "percred-update 100 50 0 200 0\n")
    write(f"{tmp}/b/memory.dat", "percred-update before 10 kmalloc-64 4 64\n"
          "percred-update after 12 kmalloc-64 7 64\n")
    rows = summary_raw.policy_rows(f"{tmp}/b", "percred", "icount")
    assert ("percred", "icount", "synchronize_rcu-per-update", 0.5, "calls") in rows, rows
    assert ("percred", "icount", "kvfree_call_rcu-per-update", 2.0, "calls") in rows, rows
    assert ("percred", "icount", "kmalloc-64-bytes-after", 448, "bytes") in rows, rows
    assert rows[-1] == ("percred", "icount", "kmalloc-64-objects-after-minus-before", 3, "objects"), rows


@test
def perf_profiles(tmp):
    """the perf boots' .dat files are joined under the first one's comment; perf's shares and realistic checks are read"""
    raw = f"{tmp}/raw"
    for run, count in (("run1", 3), ("run2", 4)):
        boot(raw, f"perf-{run}-percred", files={
            "capable-count.dat": f"# config workload cap count\npercred-grant realistic CAP_KILL {count}\n",
            "perf-capable-percred-grant.txt": "# kill in percred-grant: 1000 cpu-clock samples\n"
                                              "    12.50%     1.25%  0  [k] cap_capable\n"})
    profile, dats = summary_raw.perf_profiles(raw)
    assert dats["capable-count.dat"] == ["# config workload cap count\n",
                                         "percred-grant realistic CAP_KILL 3\n",
                                         "percred-grant realistic CAP_KILL 4\n"], dats
    assert dats["capable-hist.dat"] == []
    assert profile == {"perf": {"percred-grant": {"cap_capable": (12.5, 1.25)}},
                       "samples": {"percred-grant": 1000},
                       "realistic": [(7, "CAP_KILL")]}, profile


# summary_rows: the arithmetic ---------------------------------------------

@test
def references(tmp):
    """each configuration's reference: the base kernel in the same outcome; the churn's is commoncap"""
    ref = summary_rows.reference_of
    assert ref("percred-grant", "-", "stock") == "stock-allowed"
    assert ref("percred-deny-group", "-", "stock") == "stock-denied"
    assert ref("commoncap-denied", "-", "stock") == "stock-denied"
    assert ref("percred-root", "groups=8", "stock") == "stock-root"
    assert ref("percred-boot", "stack=bare", "stock") == "commoncap-boot"
    assert ref("percred-grant", "-", "commoncap") == "commoncap-allowed"
    assert summary_rows.base_of({("kill", "stock-allowed", "icount", "-"): {}}) == "stock"
    assert summary_rows.base_of({("kill", "commoncap-allowed", "icount", "-"): {}}) == "commoncap"


@test
def summary_rows_ratio(tmp):
    """summary.csv's row: min, median, max and spread over every repeat; the ratio taken within each run, its median and range"""
    nsop = {("kill", "stock-allowed", "icount", "-"): {"run1": [100.0, 100.0], "run2": [110.0]},
            ("kill", "percred-grant", "icount", "-"): {"run1": [150.0], "run2": [176.0]},
            ("kill", "percred-grant", "icount", "groups=32"): {"run1": [200.0]}}
    rows = summary_rows.rows(nsop, {"icount": "icount"}, ["kill"])
    row = dict(zip(summary_rows.COLUMNS, rows[1]))
    assert row == {"workload": "kill", "config": "percred-grant", "mode": "icount", "accel": "icount",
                   "runs": 2, "samples": 2, "ns_per_op_min": "150.0", "ns_per_op_median": "163.0",
                   "ns_per_op_max": "176.0", "spread_pct": "15.951", "reference": "stock-allowed",
                   "ratio": "1.550", "overhead_ns": "63.0", "variant": "-",
                   "ratio_min": "1.500", "ratio_max": "1.600"}, row
    groups = dict(zip(summary_rows.COLUMNS, rows[2]))
    # The groups' reference is the stock kernel's plain run.
    assert (groups["variant"], groups["ratio"], groups["overhead_ns"]) == \
        ("groups=32", "2.000", "100.0"), groups
    assert [r[1] for r in rows] == ["stock-allowed", "percred-grant", "percred-grant"]


@test
def per_check(tmp):
    """added per check: each boot's fewest repeat minus the reference's in the same run, over that boot's checks per call"""
    nsop = {("kill", "stock-allowed", "icount", "-"): {"run1": [100.0, 104.0], "run2": [101.0]},
            ("kill", "percred-grant", "icount", "-"): {"run1": [130.0, 160.0], "run2": [131.0]},
            ("kill", "percred-grant", "wall", "-"): {"run1": [1.0]},
            ("kill", "naive-grant", "icount", "-"): {"run1": [500.0]}}
    checks = {("kill", "percred-grant"): {"run1": 3, "run2": 3}, ("kill", "naive-grant"): {"run1": 0}}
    rows = summary_rows.per_check_rows(nsop, checks, "stock")
    assert rows == [["kill", "percred-grant", "percred", "grant", "stock-allowed", "3", "30.00",
                     "10.000", "10.000", "10.000", "5.667", 2]], rows


@test
def order(tmp):
    """rows go by mode (icount first), variant (plain, groups by count, storm, stack, update), workload, then configuration"""
    key = summary_rows.order_key
    w = ["kill", "ioprio"]
    rows = [["kill", "percred-grant", "wall", "-"], ["ioprio", "stock-allowed", "icount", "-"],
            ["kill", "percred-grant", "icount", "groups=32"], ["kill", "percred-grant", "icount", "groups=4"],
            ["kill", "percred-grant", "icount", "-"], ["kill", "stock-allowed", "icount", "-"]]
    rows.sort(key=lambda r: key(w, r, 3))
    assert rows == [["kill", "stock-allowed", "icount", "-"], ["kill", "percred-grant", "icount", "-"],
                    ["ioprio", "stock-allowed", "icount", "-"],
                    ["kill", "percred-grant", "icount", "groups=4"],
                    ["kill", "percred-grant", "icount", "groups=32"],
                    ["kill", "percred-grant", "wall", "-"]], rows


@test
def latency_and_cdf(tmp):
    """latency: each percentile the median over the repeats, max the largest; cdf: the median ns per quantile"""
    latency = {("kill", "percred-grant", "wall"): [(10, [1, 2, 3, 4, 50]), (20, [3, 4, 5, 6, 70]),
                                                   (30, [5, 6, 7, 8, 60])]}
    assert summary_rows.latency_rows(latency, {"wall": "kvm"}, ["kill"]) == [
        ["kill", "percred-grant", "wall", "kvm", 3, 60, 3, 4, 5, 6, 70]]
    cdf = {("kill", "percred-grant", "wall"): {"0.5": [10, 30], "0.25": [5]}}
    assert summary_rows.cdf_rows(cdf, ["kill"]) == [["kill", "percred-grant", "wall", "0.25", 5],
                                                    ["kill", "percred-grant", "wall", "0.5", 20]]


@test
def memory(tmp):
    """a kzalloc's kmalloc cache, and what a blob adds over commoncap's on the same stack"""
    assert [summary_rows.kmalloc_class(n) for n in (0, 8, 9, 65, 96, 97, 193, 257)] == \
        [0, 8, 16, 96, 96, 128, 256, 512]
    rows = summary_rows.memory_rows([("percred", "debian", "icount", 200),
                                     ("commoncap", "debian", "icount", 184),
                                     ("percred", "bare", "icount", 16)])
    assert rows == [["commoncap", "debian", 184, 192, 0, 0], ["percred", "debian", 200, 256, 16, 64],
                    ["percred", "bare", 16, 16, "", ""]], rows


@test
def noise_floor(tmp):
    """the noise floor: grant against deny of one kernel and stack, for the churn that needs no capability"""
    row = ["fork", "", "icount", "", "", "", "", "", "", "", "", "", "", "stack=bare"]
    churn = []
    for config, median in (("percred-grant", "102"), ("percred-deny", "100"),
                           ("commoncap-allowed", "99"), ("commoncap-denied", "100")):
        churn.append(row[:1] + [config] + row[2:7] + [median] + row[8:])
    churn.append(["capset"] + churn[0][1:7] + ["500"] + churn[0][8:])
    noise = {w: round(pct, 9) for w, pct in summary_rows.noise_floor(churn).items()}
    assert noise == {"fork": 2.0}, noise


# summary_goals: the plugin's sessions -------------------------------------

def session(name, checks, slot_mismatch=0):
    counters = [checks, 10, 10, 0, 0, 0, 0, slot_mismatch] + [0] * 18
    return (f"session\t{name}\t" + "\t".join(map(str, counters)) + "\n"
            f"total\t{name}\t10.000\t1\t1\t1\t1\n")


@test
def goals_churn_apart(tmp):
    """the churn workloads' sessions count no check: kept out of the per-check tables; any plugin anomaly of theirs fails the run"""
    raw = f"{tmp}/raw"
    boot(raw, "profile-run1-stock", image="stock", files={
        "capcheck.log": session("kill/stock-allowed", 10) + session("fork/stock-allowed", 0, slot_mismatch=1),
        "sessions.dat": "kill/stock-allowed kill stock-allowed 10\n"
                        "fork/stock-allowed fork stock-allowed 10\n"})
    goals = Goals(raw, {"workloads": "kill", "churn": "fork"}, [], {}, ["kill", "fork"])
    assert list(goals.capchecks) == [("kill", "stock-allowed")], goals.capchecks
    assert goals.failures == ["fork stock-allowed: return_slot_mismatch 1"], goals.failures
    assert goals.profile_order(("kill", "stock-allowed")) < goals.profile_order(("fork", "stock-allowed"))


@test
def goals_exact(tmp):
    """an exact session of every configuration without icount rows fails nothing"""
    raw = f"{tmp}/raw"
    boot(raw, "profile-run1-stock", image="stock", files={
        "capcheck.log": session("kill/stock-allowed", 10),
        "sessions.dat": "kill/stock-allowed kill stock-allowed 10\n"})
    goals = Goals(raw, {"workloads": "kill"}, [], {}, ["kill"])
    assert goals.failures == [], goals.failures


# summary_csv and summary_markdown: what is written -------------------------

@test
def csv_files(tmp):
    """each CSV opens with its '#' line and its header; a table without rows writes no file; policy's fractions in 4 digits"""
    meta = {"run_id": "R", "kernel_release": "K", "git_commit": "C", "status": "complete"}
    summary_csv.write_summary(tmp, meta, [])
    assert read(f"{tmp}/summary.csv") == ("# bench/drivers/run R: kernel K, commit C, status complete\n"
                                          + ",".join(summary_rows.COLUMNS) + "\n")
    summary_csv.write_tables(tmp, [], [], [], [], [("percred", "icount", "calls-per-update", 1 / 3, "calls"),
                                                   ("percred", "icount", "updates", 3, "chmods")])
    assert sorted(os.listdir(tmp)) == ["policy.csv", "summary.csv"], os.listdir(tmp)
    assert read(f"{tmp}/policy.csv").splitlines()[1:] == ["kernel,mode,item,value,unit",
                                                          "percred,icount,calls-per-update,0.3333,calls",
                                                          "percred,icount,updates,3,chmods"]
    summary_csv.write_dats(tmp, {"a.dat": ["# comment only\n"], "b.dat": ["# c\n", "1\n"]})
    assert not os.path.exists(f"{tmp}/a.dat") and read(f"{tmp}/b.dat") == "# c\n1\n"


@test
def markdown_table(tmp):
    """a markdown table: the first columns text, left; the others numbers, right"""
    assert summary_markdown.table(["a", "b", "n"], [["x", "y", 1]]) == \
        ["| a | b | n |", "| --- | --- | ---: |", "| x | y | 1 |"]
    assert summary_markdown.table(["a", "n"], [], 1)[1] == "| --- | ---: |"


@test
def markdown_sections(tmp):
    """icount's repeats agree or by how much not; groups against the fewest; the boots' seconds by round"""
    def row(config, variant, lo, med, hi, spread):
        return ["kill", config, "icount", "icount", 1, 2, lo, med, hi, spread, "", "", "", variant, "", ""]
    rows = [row("percred-grant", "-", "150.0", "150.0", "150.0", "0.000"),
            row("percred-grant", "groups=4", "150.0", "150.0", "150.0", "0.000"),
            row("percred-grant", "groups=32", "160.0", "165.0", "170.0", "6.250")]
    lines = summary_markdown.mode_markdown(rows)
    assert lines[-1] == ("icount: 2 of 3 rows (groups included) identical in every repeat (to 0.1 ns); the "
                         "others differ by up to 6.250 % (kill in percred-grant, groups=32: 160.0 to 170.0 ns/op)."), lines
    assert summary_markdown.mode_markdown(rows[:2])[-1] == \
        "icount: every repeat of every boot gave the same ns/op (to 0.1 ns) in all 2 rows."
    groups = summary_markdown.groups_markdown(rows)
    assert groups[-1] == "| 32 | percred-grant | icount | 160.0 | 165.0 | 170.0 | 1.100 | - |", groups
    steps = {"step_seconds": "icount-run1-stock:10 icount-run2-stock:5 profile-run1:7"}
    assert summary_markdown.time_by_round(steps) == \
        ["- boots' wall seconds by round (overlapping when boots run at once): icount 15, profile 7"]
    assert summary_markdown.time_by_round({}) == []


def main():
    print(f"1..{len(TESTS)}")
    failed = 0
    for n, function in enumerate(TESTS, 1):
        tmp = tempfile.mkdtemp()
        try:
            function(tmp)
            print(f"ok {n} - {function.__doc__}")
        except Exception:
            failed += 1
            print(f"not ok {n} - {function.__doc__}")
            for line in traceback.format_exc().splitlines():
                print(f"#   {line}")
        finally:
            shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
