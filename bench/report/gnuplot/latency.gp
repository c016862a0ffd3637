# bench/report/gnuplot/latency.gp - per-call latency percentiles of each workload (run by
# bench/report/plot, which sets: dir, outname, csv (a cdf.csv), what, configs,
# workloads, failed).
#
# x: the quantile as "nines", -log10(1 - q), so that p50, p90, p99, p99.9
# and p99.99 are evenly spaced; the maximum (q = 1) is drawn at 4.5.
set datafile separator ','
set datafile commentschars '#'

nines(q) = q >= 1 ? 4.5 : -log10(1 - q)
set xrange [0:4.6]
set xtics ("p0" 0, "p90" 1, "p99" 2, "p99.9" 3, "p99.99" 4, "max" 4.5)
set logscale y
set grid xtics ytics
set key top left
load dir . 'palette.gp'
of(w, c) = (strcol(1) eq w && strcol(2) eq c) ? nines($4) : NaN

nwork = words(workloads)
rows = nwork > 3 ? 2 : 1
cols = (nwork + rows - 1) / rows
do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1500,800 font ",9"
	} else {
		set terminal svg size 1500,800 font ",9" dynamic
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set multiplot layout rows, cols title "per-call latency percentiles, ns (log scale)\n" . what
	do for [w=1:nwork] {
		set title word(workloads, w)
		plot for [c=1:words(configs)] csv using (of(word(workloads, w), word(configs, c))):5 \
			with lines lt config_lt(word(configs, c)) dt config_dt(word(configs, c)) \
			title word(configs, c)
		# The run's failure is marked once, not once per panel.
		unset label 99
	}
	unset multiplot
}
