# bench/gnuplot/plot.gp - the plots of one mode of a summary.csv (run by bench/plot,
# which sets: dir, csv, mode, outbase, what, configs, workloads,
# ratio_configs).
#
# x positions: one group per workload, one slot per configuration in it.
set datafile separator ','
set datafile commentschars '#'

nconf = words(configs)
nwork = words(workloads)
slot(w, c, list) = (index_of(workloads, w) - 1) * (words(list) + 1) + index_of(list, c)

set xtics () nomirror
do for [i=1:nwork] {
	set xtics add (word(workloads, i) (i - 1) * (nconf + 1) + (nconf + 1) / 2.0)
}
set xrange [0:nwork * (nconf + 1)]
set key outside right top vertical
set grid ytics
set style fill solid 0.8 border -1
set boxwidth 0.8
# One colour per configuration, the same in both plots.
load dir . 'palette.gp'

# Only the plain rows of this mode (not the groups or storm variants);
# the others plot nothing.
of_mode(v) = (strcol(3) eq mode && strcol(14) eq "-") ? v : NaN

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10"
	} else {
		set terminal svg size 1400,700 font ",10" dynamic
	}
	set output outbase . "nsop-" . mode . "." . fmt
	set title "capable() on a syscall's path: ns/op, median with min-max bars\n" . what
	set ylabel "ns per operation (log scale)"
	set logscale y
	plot for [c=1:nconf] csv using \
		(strcol(2) eq word(configs, c) ? slot(strcol(1), strcol(2), configs) : NaN):(of_mode($8)) \
		with boxes lt config_lt(word(configs, c)) title word(configs, c), \
		csv using \
		(slot(strcol(1), strcol(2), configs)):(of_mode($8)):(of_mode($7)):(of_mode($9)) \
		with yerrorbars lc rgb "black" pt 0 notitle
	unset logscale y

	if (words(ratio_configs) > 0) {
		set output outbase . "ratio-" . mode . "." . fmt
		set title "capable() on a syscall's path: ratio of the median ns/op to commoncap's, as % above 1\n" . \
			"(to commoncap-allowed; to commoncap-denied for the deny rows)\n" . what
		set ylabel "(ratio - 1) x 100 %"
		set xrange [0:nwork * (words(ratio_configs) + 1)]
		set xtics ()
		do for [i=1:nwork] {
			set xtics add (word(workloads, i) (i - 1) * (words(ratio_configs) + 1) + (words(ratio_configs) + 1) / 2.0)
		}
		set xzeroaxis lt -1
		plot for [c=1:words(ratio_configs)] csv using \
			(strcol(2) eq word(ratio_configs, c) ? slot(strcol(1), strcol(2), ratio_configs) : NaN):(of_mode(($12 - 1) * 100)) \
			with boxes lt config_lt(word(ratio_configs, c)) title word(ratio_configs, c)
	}
	unset xzeroaxis
	set xrange [0:nwork * (nconf + 1)]
	set xtics ()
	do for [i=1:nwork] {
		set xtics add (word(workloads, i) (i - 1) * (nconf + 1) + (nconf + 1) / 2.0)
	}
}
