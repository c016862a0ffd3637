# bench/gnuplot/offpath.gp - what usercaps costs off the capable() path: each
# credential churn workload and the boot, as % above commoncap on the same
# LSM stack (run by bench/plot, which sets: dir, outname, csv, mode, what,
# series: "CONFIG@STACK ...", workloads).
set datafile separator ','
set datafile commentschars '#'

nser = words(series)
nwork = words(workloads)
load dir . 'palette.gp'

series_config(s) = s[1:strstrt(s, "@") - 1]
series_stack(s) = s[strstrt(s, "@") + 1:]
slot(w, s) = (index_of(workloads, w) - 1) * (nser + 1) + index_of(series, s)
# A boot row (configuration KERNEL-boot) stands in KERNEL-grant's series.
is_boot(c) = strlen(c) > 5 && c[strlen(c) - 4:] eq "-boot"
row_config(dummy) = is_boot(strcol(2)) ? strcol(2)[1:strlen(strcol(2)) - 5] . "-grant" : strcol(2)
# The rows of series S in this mode; commoncap's median on the same stack
# is the median less the overhead.
is_series(s) = row_config(0) eq series_config(s) && strcol(3) eq mode && \
	strcol(14) eq "stack=" . series_stack(s)
pct(v) = (v / ($8 - $13) - 1) * 100

set xtics () nomirror rotate by -20
do for [i=1:nwork] {
	set xtics add (word(workloads, i) (i - 1) * (nser + 1) + (nser + 1) / 2.0)
}
set xrange [0:nwork * (nser + 1)]
set key outside right top vertical
set grid ytics
set xzeroaxis lt -1
set style fill solid 0.8 border -1
set boxwidth 0.8
set ylabel "% above commoncap (median; bars: min-max of the repeats)"
# A boot whose time is far off (one of the boots took 4 s) would squash
# every other bar: the axis stops at 60 %, and the bars run off it.
set yrange [-10:60]

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10" noenhanced
	} else {
		set terminal svg size 1400,700 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	set title "Off the capable() path: credential churn and boot, against commoncap on the same LSM stack\n" . \
		"(stack debian: the kernel's CONFIG_LSM; bare: capability, and usercaps; boot in the grant colour)\n" . what
	# Solid for the debian stack, hatched for the bare one.
	plot for [i=1:nser] csv using \
		(is_series(word(series, i)) && series_stack(word(series, i)) eq "debian" ? \
		 slot(strcol(1), word(series, i)) : NaN):(pct($8)) \
		with boxes lt config_lt(series_config(word(series, i))) fs solid 0.8 \
		title (series_stack(word(series, i)) eq "debian" ? word(series, i) : ""), \
		for [i=1:nser] csv using \
		(is_series(word(series, i)) && series_stack(word(series, i)) eq "bare" ? \
		 slot(strcol(1), word(series, i)) : NaN):(pct($8)) \
		with boxes lt config_lt(series_config(word(series, i))) fs pattern 4 \
		title (series_stack(word(series, i)) eq "bare" ? word(series, i) : ""), \
		for [i=1:nser] csv using \
		(is_series(word(series, i)) ? slot(strcol(1), word(series, i)) : NaN):(pct($8)):(pct($7)):(pct($9)) \
		with yerrorbars lc rgb "black" pt 0 notitle
}
