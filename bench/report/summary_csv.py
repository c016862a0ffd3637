"""summary_csv - bench/report/summarize's CSVs (and the perf boots' .dat
files), written into the run directory from summary_rows' rows: each
opens with a '#' line that says what its figures are. A table without
rows writes no file, but summary.csv, which is always written."""
import csv
import os

from summary_rows import CHECK_COLUMNS, COLUMNS, LATENCY_COLUMNS, MEMORY_COLUMNS

CHECKS_COMMENT = (
    "instructions added per capability check (icount: guest ns are instructions): in each "
    "boot, the fewest ns/op of the repeats minus the reference's in the boot of the same round "
    "(the kernel built without usercaps, same outcome), over the checks one call makes (a "
    "kprobe on cap_capable counted them); the median of the boots' figures, their range, and "
    "half the repeats' spread (this row's and the reference's) per check")


def write_csv(path, comment, header, rows):
    """PATH: '# COMMENT', then HEADER and ROWS as CSV."""
    with open(path, "w", newline="") as f:
        f.write(f"# {comment}\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_summary(run_dir, meta, rows):
    """summary.csv: the run's id, kernel, commit and status, then ROWS."""
    write_csv(os.path.join(run_dir, "summary.csv"),
              f"bench/drivers/run {meta.get('run_id')}: kernel {meta.get('kernel_release')}, "
              f"commit {meta.get('git_commit')}, status {meta.get('status')}", COLUMNS, rows)


def write_tables(run_dir, lat_rows, cdf_rows, check_rows, memory_rows, policy):
    """latency.csv, cdf.csv, checks.csv, memory.csv and policy.csv, of
    those that have rows."""
    tables = [
        ("latency.csv", "per-call latency: percentiles are the median over the boots, max the "
         "largest of any boot", LATENCY_COLUMNS, lat_rows),
        ("cdf.csv", "per-call latency distribution: ns at each quantile, median over the boots",
         ["workload", "config", "mode", "quantile", "ns"], cdf_rows),
        ("checks.csv", CHECKS_COMMENT, CHECK_COLUMNS, check_rows),
        ("memory.csv", "credential blob of each kernel configuration (lsm.debug), and what "
         "usercaps adds to every credential over commoncap on the same stack", MEMORY_COLUMNS,
         memory_rows),
        ("policy.csv", "RCU calls per policy update and the policy tables' slab use around an "
         "update storm (bench/guest/updates), one row per boot and item",
         ["kernel", "mode", "item", "value", "unit"],
         [[kernel, mode, item, f"{value:.4f}" if isinstance(value, float) else value, unit]
          for kernel, mode, item, value, unit in policy]),
    ]
    for name, comment, header, rows in tables:
        if rows:
            write_csv(os.path.join(run_dir, name), comment, header, rows)


def write_dats(run_dir, dats):
    """Each of DATS ({name: lines}) with a row besides its comment."""
    for dat, lines in dats.items():
        if len(lines) > 1:
            with open(os.path.join(run_dir, dat), "w") as f:
                f.writelines(lines)
