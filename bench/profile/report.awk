# bench/profile/report.awk - a readable report of the capable() checks that
# flatten.awk made of a capable-*.bt session, and their machine-readable
# counts.
#
# awk -v pid=P -v config=CONFIG -v workload=W -v dat=FILE -f report.awk \
#     capability.h unistd_64.h FLAT
#   pid       capable-workloads.bt: the pid whose checks to report; empty for
#             capable-realistic.bt, whose maps have no pid key
#   dat       append "config workload capname count" lines to this file
# Capabilities and syscalls are named from the kernel's uapi headers.

BEGIN { FS = "\t" }

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

function cap(n) {
	return (n in cap_name) ? cap_name[n] : "CAP_" n
}

function syscall(n) {
	if (n == 0)
		return "(no syscall)"
	return ((n in syscall_name) ? syscall_name[n] : "syscall_" (n - 1))
}

# Per-pid records carry the pid first: keep only ours, without it.
pid != "" {
	if ($2 != pid)
		next
	$0 = $1 "\t" substr($0, length($1) + length($2) + 3)
}

$1 == "@cap" { by_cap[cap($2)] += $3; total += $3 }
$1 == "@comm" { by_comm[$2 "\t" cap($3)] += $4 }
$1 == "@syscall" && pid != "" { by_syscall[syscall($2)] += $3 }
$1 == "@syscall" && pid == "" { by_syscall[syscall($2) "\t" cap($3)] += $4 }
$1 == "@stack" && pid != "" { by_stack[$2] += $3 }
$1 == "@stack" && pid == "" { by_stack[cap($2) "\t" $3] += $4 }

function section(title, counts, columns,    key, sorter) {
	printf "\n# %s\n# %-10s %s\n", title, "checks", columns
	sorter = "sort -t '\t' -k1,1nr -k2"
	for (key in counts)
		printf "%12d\t%s\n", counts[key], key | sorter
	close(sorter)
}

END {
	printf "# %d capable() checks (security_capable calls)%s\n", total,
		pid != "" ? " by pid " pid : ""
	section("by capability", by_cap, "capability")
	if (pid == "")
		section("by comm", by_comm, "comm\tcapability")
	section("by syscall", by_syscall, pid != "" ? "syscall" : "syscall\tcapability")
	section("by kernel stack (innermost first, 6 frames)", by_stack,
		pid != "" ? "stack" : "capability\tstack")
	if (dat != "")
		for (key in by_cap)
			print config, workload, key, by_cap[key] >>dat
}
