# bench/guest/profiling/report.awk - readable reports and machine-readable counts of
# the capable() checks that flatten.awk made of a capable-*.bt session, in
# one pass (under TCG every process costs).
#
# capable-workloads.bt, whose maps are keyed by pid first:
#   awk -v out=DIR -f report.awk capability.h unistd_64.h RUNS FLAT
#   RUNS: "pid config workload" a run. Writes DIR/capable-count-WORKLOAD-
#   CONFIG.txt, appends to DIR/capable-count.dat and DIR/capable-hist.dat, and
#   prints "config workload calls" a run: the calls hist() timed.
# capable-realistic.bt, whose maps have no pid:
#   awk -v out=DIR -v config=C -v title=T -f report.awk capability.h \
#       unistd_64.h FLAT
#   Writes DIR/capable-count-realistic.txt (T: its first comment lines) and
#   appends to DIR/capable-count.dat as workload "realistic".
# Capabilities and syscalls are named from the kernel's uapi headers.

BEGIN {
	FS = "\t"
	realistic = ARGC == 4
}

FILENAME == ARGV[1] {
	if ($0 ~ /^#define[ \t]+CAP_[A-Z_]+[ \t]+[0-9]+/) {
		split($0, f, /[ \t]+/)
		cap_name[f[3]] = f[2]
	}
	next
}

FILENAME == ARGV[2] {
	if ($0 ~ /^#define[ \t]+__NR_[a-z0-9_]+[ \t]+[0-9]+/) {
		split($0, f, /[ \t]+/)
		# The .bt scripts key syscalls by number plus one.
		syscall_name[f[3] + 1] = substr(f[2], 6)
	}
	next
}

!realistic && FILENAME == ARGV[3] {
	split($0, f, / /)
	runs[++nruns] = f[1]
	run_config[f[1]] = f[2]
	run_workload[f[1]] = f[3]
	next
}

function cap(n) {
	return (n in cap_name) ? cap_name[n] : "CAP_" n
}

function syscall(n) {
	if (n == 0)
		return "(no syscall)"
	return ((n in syscall_name) ? syscall_name[n] : "syscall_" (n - 1))
}

# add RUN SECTION LABEL N
function add(run, section, label, n) {
	if (!((run, section, label) in count))
		labels[run, section, ++nlabels[run, section]] = label
	count[run, section, label] += n
}

# The realistic session is one run, "realistic", with the maps' keys as they are.
{
	if (realistic) {
		run = "realistic"
		$0 = $1 "\t" run "\t" substr($0, length($1) + 2)
	}
	run = $2
}
$1 == "@cap" { add(run, "cap", cap($3), $4); total[run] += $4 }
$1 == "@comm" { add(run, "comm", $3 "\t" cap($4), $5) }
$1 == "@syscall" && realistic { add(run, "syscall", syscall($4) "\t" cap($3), $5) }
$1 == "@syscall" && !realistic { add(run, "syscall", syscall($3), $4) }
$1 == "@stack" && realistic { add(run, "stack", cap($3) "\t" $4, $5) }
$1 == "@stack" && !realistic { add(run, "stack", $3, $4) }
$1 == "@ns" {
	calls[run] += $5
	print run_config[run], run_workload[run], $3, $4, $5 >>(out "/capable-hist.dat")
}

# section FILE RUN SECTION TITLE COLUMNS - the section's labels, most
# counted first.
function section(file, run, name, title, columns,    n, i, j, key, order) {
	printf "\n# %s\n# %-10s %s\n", title, "checks", columns >file
	n = nlabels[run, name]
	for (i = 1; i <= n; i++) {
		key = labels[run, name, i]
		for (j = i - 1; j >= 1 && count[run, name, order[j]] < count[run, name, key]; j--)
			order[j + 1] = order[j]
		order[j + 1] = key
	}
	for (i = 1; i <= n; i++)
		printf "%12d\t%s\n", count[run, name, order[i]], order[i] >file
}

# report RUN CONFIG WORKLOAD FILE
function report(run, config, workload, file,    i, key) {
	if (title != "")
		print title >file
	printf "# %d capable() checks (security_capable calls), %s in %s%s\n", total[run],
		workload, config, realistic ? "" : " (pid " run ")" >file
	section(file, run, "cap", "by capability", "capability")
	if (realistic)
		section(file, run, "comm", "by comm", "comm\tcapability")
	section(file, run, "syscall", "by syscall", realistic ? "syscall\tcapability" : "syscall")
	section(file, run, "stack", "by kernel stack (innermost first, 6 frames)",
		realistic ? "capability\tstack" : "stack")
	close(file)
	for (i = 1; i <= nlabels[run, "cap"]; i++) {
		key = labels[run, "cap", i]
		print config, workload, key, count[run, "cap", key] >>(out "/capable-count.dat")
	}
}

END {
	if (realistic) {
		report("realistic", config, "realistic", out "/capable-count-realistic.txt")
		exit
	}
	for (i = 1; i <= nruns; i++) {
		run = runs[i]
		report(run, run_config[run], run_workload[run],
			out "/capable-count-" run_workload[run] "-" run_config[run] ".txt")
		print run_config[run], run_workload[run], calls[run] + 0
	}
}
