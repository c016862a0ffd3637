# bench/report/gnuplot/realwork.gp - real work: what share of each workload's
# instructions its capability checks are (top), and what usercaps adds
# to them as a share of the whole workload, with the whole workload's
# run-to-run noise beside it (bottom); from realwork.csv (run by
# bench/report/plot, which sets: dir, outname, csv, what, workloads, configs:
# the user configurations drawn, as palette.gp names them). realwork.csv's
# columns by number (bench/report/realwork.py's COLUMNS): 4 insns, 8 checks,
# 10 capable_share, 14 added_share, 16 noise.
set datafile separator ','
set datafile commentschars '#'
load dir . 'palette.gp'

nwork = words(workloads)
nconf = words(configs)
slot(w, c) = (index_of(workloads, w) - 1) * (nconf + 1) + index_of(configs, c)
x_of(c) = strcol(2) eq c && index_of(workloads, strcol(1)) > 0 ? slot(strcol(1), c) : NaN
positive(v) = v > 0 ? v : NaN

set xrange [0:nwork * (nconf + 1)]
set xtics () nomirror
do for [i=1:nwork] {
	set xtics add (word(workloads, i) (i - 1) * (nconf + 1) + (nconf + 1) / 2.0)
}
set key outside right top vertical
set grid ytics
set logscale y
set format y "%g"
set style fill solid 0.8 border -1
set boxwidth 0.8

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,900 font ",10" noenhanced
	} else {
		set terminal svg size 1400,900 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set multiplot layout 2, 1 title "Real work: the share of capability checks in each workload, " . \
		"as the user holding what it needs\n" . what
	set title "instructions inside capable() as % of the whole workload\n" . \
		"(each bar's label: its checks; a workload with no check has no bar)"
	set ylabel "% of the workload (log scale)"
	plot for [c=1:nconf] csv using (x_of(word(configs, c))):(positive($10)) \
		with boxes lt config_lt(word(configs, c)) title word(configs, c), \
		for [c=1:nconf] csv using (x_of(word(configs, c))):(positive($10)): \
		(strcol(8)) with labels offset 0, 0.6 font ",8" notitle
	set title "instructions usercaps adds in capable(), against stock, as % of the whole workload (bar),\n" . \
		"and the whole workload's noise, the spread of its sessions (black mark): a bar below its mark is noise-level"
	set ylabel "% of the workload (log scale)"
	plot for [c=1:nconf] csv using (x_of(word(configs, c))):(positive($14)) \
		with boxes lt config_lt(word(configs, c)) \
		title (config_kernel(word(configs, c)) eq "stock" ? "" : word(configs, c)), \
		for [c=1:nconf] csv using (x_of(word(configs, c))):(positive(100.0 * $16 / $4)) \
		with points pt 5 ps 1.2 lc rgb "black" title (c == 1 ? "noise (spread)" : "")
	unset multiplot
}
