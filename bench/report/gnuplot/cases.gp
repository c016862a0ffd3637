# bench/report/gnuplot/cases.gp - what each kernel adds to a capable workload, by case:
# one panel per workload, a group of bars per case, a bar per kernel, its
# value written on it (run by bench/report/plot, which sets: dir, data, outname,
# what, heading, whiskers, notes, noise, ylabel, scale, panels,
# panel_titles, drawn_kernels, failed).
#
#   data           "PANEL KERNEL CASE VALUE LOW HIGH LABEL NOISE GOAL" rows
#                  (more columns are not read); a row of a kernel not in
#                  drawn_kernels is not drawn; GOAL: the row's goal, a
#                  limit, or "-"
#   whiskers       what the whiskers from LOW to HIGH and the grey boxes
#                  are; '': no whiskers
#   notes          more of what the bars are, for the heading
#   noise          1: draw VALUE +- NOISE as a grey box, 0: not
#   scale          "linear", or "symlog": the axis is log10(1 + |value|),
#                  signed, so that 1 and 3 stand apart as 100 and 80 do
#   panels         one panel per word, its rows those whose PANEL it is
#   panel_titles   one quoted title per word of panels, a | where its
#                  second line begins
#   drawn_kernels  the kernels of data, in the order of their bars
load dir . 'palette.gp'

cases = "grant deny deny-group deny-owner root"
nk = words(drawn_kernels)
nwork = words(panels)
# commoncap's allowed and denied stand with usercaps' grant and deny.
case_slot(c) = c eq "allowed" ? 1 : c eq "denied" ? 2 : index_of(cases, c)
xpos(k, c) = (case_slot(c) - 1) * (nk + 1) + index_of(drawn_kernels, k)
of_panel(w, k) = strcol(1) eq w && strcol(2) eq k && index_of(drawn_kernels, k) > 0 ? xpos(k, strcol(3)) : NaN

# Where a value stands on the axis.
symlog = scale eq "symlog"
sy(v) = !symlog ? v : v >= 0 ? log10(1 + v) : -log10(1 - v)
# A value's label goes past its whisker and its grey box.
top(dummy) = sy(noise eq "1" && $4 + $8 > $6 ? $4 + $8 : $6)
bottom(dummy) = sy(noise eq "1" && $4 - $8 < $5 ? $4 - $8 : $5)

with_commoncap = index_of(drawn_kernels, "commoncap") > 0
case_label(i) = !with_commoncap || i > 2 ? word(cases, i) : \
	word(cases, i) . (i == 1 ? "\n(allowed)" : "\n(denied)")
set xtics () nomirror scale 0
do for [i=1:words(cases)] {
	set xtics add (case_label(i) (i - 1) * (nk + 1) + (nk + 1) / 2.0)
}
# Room on the left for the first bar's goal label.
set xrange [-0.6:words(cases) * (nk + 1) - 0.2]
set grid ytics
set xzeroaxis lt -1
set style fill solid 0.85 border -1
set boxwidth 0.8
# Every bar stands on 0 (and a lone value makes no empty range, which
# gnuplot 5.4 crashes on).
set yrange [*<0:0<*]
set autoscale yfix
# Room for the upright labels over the bars and under the negative ones.
stats data using 4 nooutput
negative = STATS_min < 0
below = negative ? 0.14 : 0.04
set offsets 0, 0, graph 0.14, graph below
set ylabel ylabel
if (symlog) {
	set ytics ()
	do for [v in "-200 -100 -50 -20 -10 -5 -2 -1 0 1 2 5 10 20 50 100 200"] {
		set ytics add (v sy(real(v)))
	}
}

# The plot elements of the goals, the whiskers, the grey boxes and the
# labels, as macros: none when there are none, and no warning of an empty
# plot (nor gnuplot 5.4's crash on a labels element without a point when
# the table has one row).
whisker_marks = ""
noise_boxes = ""
if (whiskers ne "") {
	whisker_marks = ', data using (of_panel(workload, strcol(2))):(sy($5)):(0):(sy($6) - sy($5)) ' . \
		'with vectors heads size 0.1, 90 lc rgb "black" notitle'
}
if (noise eq "1") {
	noise_boxes = ', data using (of_panel(workload, strcol(2))):(sy($4)):' . \
		'(of_panel(workload, strcol(2)) - 0.3):(of_panel(workload, strcol(2)) + 0.3):(sy($4 - $8)):(sy($4 + $8)) ' . \
		'with boxxyerror fillcolor rgb "#80000000" fillstyle transparent solid 0.35 noborder notitle'
}
# A goal: a short red line over its row's bar, its limit written left of
# it. On a linear axis, the axis then stops at 2.5 times the largest, and
# the bars above it are cut.
stats data using (valid(9) ? 1 : 0) nooutput
goal_marks = STATS_sum == 0 ? "" : ', data using (of_panel(workload, strcol(2)) - 0.5):(sy($9)):(1):(0) ' . \
	'with vectors nohead lc rgb "red" lw 2 title "goal", ' . \
	'data using (of_panel(workload, strcol(2)) - 0.5):(sy($9)):(sprintf($9 == 0 ? "%g" : "≤ %g", $9)) ' . \
	'with labels right offset -0.2, 0 boxed tc rgb "red" font ",8" notitle'
cut = 1e308
if (goal_marks ne "" && !symlog) {
	stats data using (valid(9) ? $9 : 0) nooutput
	cut = 2.5 * STATS_max
	set yrange [*<0:cut]
	set offsets 0, 0, 0, graph below
	whiskers = whiskers . sprintf("; bars above %g are cut, their value written in them", cut)
}
# A value's label: over its bar, at the edge when the bar is cut, under it
# when it is negative; over the goals' lines, on white.
stats data using ($4 >= 0 && $6 < cut ? 1 : 0) nooutput
labels_over = STATS_sum == 0 ? "" : ', data using (of_panel(workload, strcol(2))):' . \
	'($4 >= 0 && $6 < cut ? top(4) : NaN):7 with labels rotate by 90 left offset 0, 0.5 font ",8" boxed notitle'
stats data using ($6 >= cut ? 1 : 0) nooutput
labels_cut = STATS_sum == 0 ? "" : ', data using (of_panel(workload, strcol(2))):' . \
	'($6 >= cut ? cut : NaN):7 with labels rotate by 90 right offset 0, -0.5 font ",8" boxed notitle'
labels_under = !negative ? "" : ', data using (of_panel(workload, strcol(2))):' . \
	'($4 < 0 ? bottom(0) : NaN):7 with labels rotate by 90 right offset 0, -0.5 font ",8" boxed notitle'
legend_text = whiskers . (whiskers ne "" && notes ne "" ? "; " : "") . notes
set style textbox opaque noborder margins 1, 1

# Panels of 800 x 480 pixels, 80 apart (for a title of two lines), 140
# more on top for the heading (four lines) and 80 at the bottom for the
# key.
rows = nwork > 2 ? 2 : 1
cols = (nwork + rows - 1) / rows
width = cols > 1 ? 800 * cols : 1200
height = 480 * rows + 220 + (rows - 1) * 80
do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size width, height font ",10" noenhanced
	} else {
		set terminal svg size width, height font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set multiplot layout rows, cols margins 60.0 / width, 0.99, 80.0 / height, 1 - 140.0 / height \
		spacing 70.0 / width, 80.0 / height title heading . "\n" . legend_text . "\n" . what
	do for [w=1:nwork] {
		title = word(panel_titles, w)
		bar = strstrt(title, "|")
		set title (bar ? title[1:bar - 1] . "\n" . title[bar + 1:] : title)
		if (w == 1) {
			set key at screen 0.5, screen 0.005 center bottom horizontal box width 2
		} else {
			unset key
		}
		workload = word(panels, w)
		plot for [k=1:nk] data using (of_panel(workload, word(drawn_kernels, k))):(sy($4)) \
			with boxes lt kernel_lt(word(drawn_kernels, k)) title word(drawn_kernels, k) \
			@noise_boxes @whisker_marks @goal_marks @labels_over @labels_cut @labels_under
		# The run's failure is marked once, not once per panel.
		unset label 99
	}
	unset multiplot
}
