"""summary_goals - bench/report/summarize's third part: the capcheck
plugin's exact figures and the goals decided on them.

Goals(raw, meta, check_rows, checks, workloads) gathers the profile boots'
sessions (capcheck_tables), the realwork boots' (realwork), the exact cost
per capability (exact) and the other hooks' and the credential
operations' (hooks), and decides the goals (exact.goals, hooks.goals);
its failures say what is not exact or disagrees with icount's per-check
figures (check_rows). write() writes their CSVs and the profile tables;
profile_markdown() and headline_markdown() their sections of summary.md."""
import capcheck_tables
import exact
import hooks
import realwork
from summary_markdown import table
from summary_raw import data_rows
from summary_rows import order_key, reference_of


class Goals:
    """capchecks: (workload, config) -> the profile boots' session
    (capcheck_tables.gather), the churn workloads' left out
    failures: one line for each session not exact or off icount's figure
    profile_lines: the profile's sections of summary.md
    real_rows, real_checks: the realwork boots' (realwork.rows, .gather)
    exact_rows, hook_rows, credop_rows, goal_rows: exact.csv's, hooks.csv's,
        credops.csv's and goals.csv's rows
    """

    def __init__(self, raw, meta, check_rows, checks, workloads):
        self.workloads = workloads
        sessions = capcheck_tables.gather(raw, data_rows)
        # The churn workloads' sessions count the credential operations
        # (their hook windows), not the checks.
        churn = set(meta.get("churn", "").split())
        self.capchecks = {k: p for k, p in sessions.items() if k[0] not in churn}
        churn_sessions = {k: p for k, p in sessions.items() if k[0] in churn}
        crossed = capcheck_tables.cross_check(self.capchecks, check_rows, checks, reference_of)
        self.profile_lines, self.failures = capcheck_tables.markdown(self.capchecks, crossed, table,
                                                                     self.profile_order)
        self.failures += [f"{w} {c}: " + ", ".join(bad) for (w, c), p in sorted(
            churn_sessions.items()) for bad in [capcheck_tables.anomalies(p)] if bad]
        real_sessions, self.real_checks, real_failures = realwork.gather(raw, data_rows)
        self.real_rows = realwork.rows(real_sessions, self.real_checks)
        self.failures += real_failures
        self.exact_rows = exact.per_capability(self.capchecks, meta)
        self.hook_rows = hooks.rows(self.capchecks)
        self.credop_rows = hooks.rows(churn_sessions, hooks.OPERATIONS)
        self.goal_rows = (exact.goals(self.exact_rows, meta.get("kernel_release", ""))
                          + hooks.goals(self.credop_rows, self.hook_rows))

    def profile_order(self, key):
        """A profile's place: its (workload, config) KEY as a row's."""
        return order_key(self.workloads, (key[0], key[1], ""))

    def write(self, run_dir, meta):
        """exact.csv, goals.csv, hooks.csv, credops.csv, realwork*.csv (when
        the run has realwork boots), profile/*.tsv and profile.csv."""
        exact.write_csv(run_dir, meta, self.exact_rows)
        exact.write_goals(run_dir, self.goal_rows)
        hooks.write_csv(run_dir, meta, self.hook_rows, "hooks.csv", "hook")
        hooks.write_csv(run_dir, meta, self.credop_rows, "credops.csv", "operation")
        if self.real_rows:
            realwork.write(run_dir, self.real_rows, self.real_checks)
        capcheck_tables.write_tables(run_dir, meta, self.capchecks, self.profile_order)

    def profile_markdown(self):
        """What the profile and real work say (after the cross-check)."""
        return self.profile_lines + realwork.markdown(self.real_rows, self.real_checks, table)

    def headline_markdown(self):
        """The exact cost per capability with the goals, and the other
        hooks' (summary.md's headline)."""
        return (exact.markdown(self.exact_rows, self.goal_rows, table)
                + hooks.markdown(self.hook_rows, self.credop_rows, table))
