# bench/report/gnuplot/kernels.gp - how the instructions added per capability check
# change from one kernel to the other: a panel per workload (or workload
# and capability), a bar per configuration in its colour, its change
# written on it; a row that is not exact has no bar, "not exact" in its
# place (run by bench/report/kernels, which sets: dir, data, outname, heading,
# ylabel, panels, configs, failed).
#
#   data     "PANEL CONFIG CHANGE EXACT LABEL" rows, EXACT 1 or 0
#   panels   one panel each, in this order
#   configs  the configurations, in the order of their bars
load dir . 'palette.gp'

nc = words(configs)
nwork = words(panels)
of_panel(p) = strcol(1) eq p ? index_of(configs, strcol(2)) : NaN
exact(dummy) = $4 == 1

set xtics () nomirror scale 0 rotate by 35 right noenhanced
do for [i=1:nc] {
	set xtics add (word(configs, i) i)
}
set xrange [0.3:nc + 0.7]
set grid ytics
set xzeroaxis lt -1
set boxwidth 0.8
set style fill solid 0.85 border lt -1
# One axis for every panel: the exact rows' changes, and at least -1 to
# 1, with room for the upright labels over the bars and under the
# negative ones.
stats data using (exact(0) ? $3 : NaN) nooutput
ylow = STATS_min < -1 ? STATS_min : -1
yhigh = STATS_max > 1 ? STATS_max : 1
set yrange [ylow - (yhigh - ylow) * 0.25:yhigh + (yhigh - ylow) * 0.25]
set ylabel ylabel noenhanced
unset key

# Panels of 1000 x 450 pixels; 120 left of each and 170 between rows for
# the slanted configurations (and the next row's title), 130 on top for
# the heading, 150 at the bottom for the configurations.
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
	load dir . 'failed.gp'
	set multiplot layout rows, cols margins 120.0 / width, 0.99, 150.0 / height, 1 - 130.0 / height \
		spacing 120.0 / width, 170.0 / height title heading
	do for [w=1:nwork] {
		panel = word(panels, w)
		set title panel
		plot data using (of_panel(panel)):(exact(0) ? $3 : NaN):(config_lt(strcol(2))) \
			with boxes lc variable notitle, \
			data using (of_panel(panel)):(exact(0) && $3 >= 0 ? $3 : NaN):5 \
			with labels rotate by 90 left offset 0, 0.4 font ",9" notitle, \
			data using (of_panel(panel)):(exact(0) && $3 < 0 ? $3 : NaN):5 \
			with labels rotate by 90 right offset 0, -0.4 font ",9" notitle, \
			data using (of_panel(panel)):(exact(0) ? NaN : 0):("not exact") \
			with labels rotate by 90 left offset 0, 0.4 font ",9" tc rgb "#7f7f7f" notitle,
		# The run's failure is marked once, not once per panel.
		unset label 99
	}
	unset multiplot
}
