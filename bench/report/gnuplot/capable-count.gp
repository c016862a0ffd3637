# bench/report/gnuplot/capable-count.gp - the capable() checks of a realistic
# unprivileged run, by capability, from bench/guest/perf's bpftrace counts
# (run by bench/report/plot, which sets: dir, outname, count: a capable-count.dat,
# "config workload capname count" rows, and what).
load dir . 'palette.gp'

# The configurations in the order of the file; the capabilities of the
# realistic runs, the most checked first.
count_configs = system(sprintf("awk '!/^#/ && $2 == \"realistic\" && !seen[$1]++ { printf \"%%s \", $1 }' '%s'", \
	count))
count_caps = system(sprintf("awk '!/^#/ && $2 == \"realistic\" { n[$3] += $4 } " . \
	"END { for (c in n) print n[c], c }' '%s' | sort -k1,1nr | awk '{ printf \"%%s \", $2 }'", count))
ncaps = words(count_caps)
nconf = words(count_configs)

positive(v) = v > 0 ? v : NaN
set key outside right top vertical
set grid ytics
set xlabel "capability"
set ylabel "checks (log scale)"
set logscale y
# A count of 1 shows as a short bar.
set yrange [0.7:*]
set xrange [0:ncaps * (nconf + 1)]
set xtics () rotate by 30 right nomirror
do for [i=1:ncaps] {
	set xtics add (word(count_caps, i) (i - 1) * (nconf + 1) + (nconf + 1) / 2.0)
}
set style fill solid 0.8 border -1
set boxwidth 0.8

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10" noenhanced
	} else {
		set terminal svg size 1400,700 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set title "capable() checks of an unprivileged user's build and shell session, by capability " . \
		"(bpftrace)\n" . what
	plot for [c=1:nconf] count using \
		(strcol(1) eq word(count_configs, c) && strcol(2) eq "realistic" ? \
			(index_of(count_caps, strcol(3)) - 1) * (nconf + 1) + c : NaN):(positive($4)) \
		with boxes lt config_lt(word(count_configs, c)) title word(count_configs, c)
}
