# bench/gnuplot/kernels.gp - instructions added per capability check on two
# kernels: a panel per workload, a pair of bars per configuration in its
# colour, the first kernel's solid and the second's hatched, each bar's
# value written on it (run by bench/kernels, which sets: dir, data,
# outname, heading, labels, workloads, configs).
#
#   data       "WORKLOAD CONFIG VALUE LOW HIGH VALUE LOW HIGH" rows: the
#              first kernel's figures, then the second's; whiskers from
#              LOW to HIGH
#   labels     the two kernels, for the key
#   workloads  one panel each, in this order
#   configs    the configurations, in the order of their pairs
load dir . 'palette.gp'

nc = words(configs)
nwork = words(workloads)
# Kernel K's bar (1 or 2) of configuration C; a gap after each pair.
xpos(c, k) = (index_of(configs, c) - 1) * 3 + k
of_panel(w, k) = strcol(1) eq w ? xpos(strcol(2), k) : NaN
bar(k) = column(3 * k)
bar_low(k) = column(3 * k + 1)
bar_high(k) = column(3 * k + 2)

set xtics () nomirror scale 0 rotate by 35 right noenhanced
do for [i=1:nc] {
	set xtics add (word(configs, i) (i - 1) * 3 + 1.5)
}
set xrange [0:nc * 3]
set grid ytics
set xzeroaxis lt -1
set boxwidth 0.9
# Every bar stands on 0.
set yrange [*<0:0<*]
set autoscale yfix
# Room for the upright labels over the bars and under the negative ones.
set offsets 0, 0, graph 0.16, graph 0.08
set ylabel "instructions added per check"

# Panels of 1000 x 450 pixels; 120 left of each and 170 between rows for
# the slanted configurations (and the next row's title), 130 on top for
# the heading, 150 at the bottom for the configurations and the key.
rows = nwork > 2 ? 2 : 1
cols = (nwork + rows - 1) / rows
width = 1120 * cols
height = 450 * rows + 280 + (rows - 1) * 170
do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size width, height font ",10" noenhanced
	} else {
		set terminal svg size width, height font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	set multiplot layout rows, cols margins 120.0 / width, 0.99, 150.0 / height, 1 - 130.0 / height \
		spacing 120.0 / width, 170.0 / height title heading
	do for [w=1:nwork] {
		workload = word(workloads, w)
		set title workload
		if (w == 1) {
			set key at screen 0.5, screen 0.005 center bottom horizontal box width 2
		} else {
			unset key
		}
		plot data using (of_panel(workload, 1)):(bar(1)):(config_lt(strcol(2))) \
			with boxes fs solid 0.85 border lt -1 lc variable notitle, \
			data using (of_panel(workload, 2)):(bar(2)):(config_lt(strcol(2))) \
			with boxes fs pattern 4 border lt -1 lc variable notitle, \
			for [k=1:2] data using (of_panel(workload, k)):(bar_low(k)):(0):(bar_high(k) - bar_low(k)) \
			with vectors heads size 0.15, 90 lc rgb "black" notitle, \
			for [k=1:2] data using (of_panel(workload, k)):(bar(k) >= 0 ? bar_high(k) : NaN):(sprintf("%.1f", bar(k))) \
			with labels rotate by 90 left offset 0, 0.4 font ",8" notitle, \
			for [k=1:2] data using (of_panel(workload, k)):(bar(k) < 0 ? bar_low(k) : NaN):(sprintf("%.1f", bar(k))) \
			with labels rotate by 90 right offset 0, -0.4 font ",8" notitle, \
			keyentry with boxes fs solid 0.85 border lt -1 lc rgb "#7f7f7f" title word(labels, 1), \
			keyentry with boxes fs pattern 4 border lt -1 lc rgb "#7f7f7f" title word(labels, 2)
	}
	unset multiplot
}
