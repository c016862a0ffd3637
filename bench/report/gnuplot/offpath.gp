# bench/report/gnuplot/offpath.gp - what usercaps costs off the capable() path: each
# credential churn workload and the boot, as % above commoncap on the same
# LSM stack (run by bench/report/plot, which sets: dir, outname, csv, mode, what,
# series: "CONFIG@STACK ...", workloads, noise: the noise floor in %, or
# '' when the run has no workload to measure it by).
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

# An x position of series S in this row's workload group, or NaN.
x_of(s) = is_series(s) ? slot(strcol(1), s) : NaN

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
set ylabel "% above commoncap (median; whiskers: min-max of the repeats)"
# A boot whose time is far off (one of the boots took 4 s) would squash
# every other bar: the axis stops at 60 % (and below the noise floor),
# and a bar that runs off it has its value written at the edge.
ymax = 60
ymin = noise ne "" && real(noise) > 8 ? -real(noise) - 2 : -10
set yrange [ymin:ymax]
noise_title = ""
noise_text = "no workload of this run measures the noise floor"
if (noise ne "") {
	noise_text = "noise floor: the largest gap between grant and deny of one kernel and stack in " . \
		"fork, fork-exec, setresuid, setresgid, capset, which check no capability"
	set object 1 rectangle from graph 0, first -real(noise) to graph 1, first real(noise) \
		behind fillcolor rgb "#d9d9d9" fillstyle solid 1.0 noborder
	noise_title = sprintf("noise floor: +-%s %%", noise)
}

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10" noenhanced
	} else {
		set terminal svg size 1400,700 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set title "Off the capable() path: credential churn and boot, against commoncap on the same LSM stack\n" . \
		"(stack debian: the kernel's CONFIG_LSM; bare: capability, and usercaps; boot in the grant colour;\n" . \
		noise_text . ")\n" . what
	# Solid for the debian stack, hatched for the bare one.
	plot for [i=1:nser] csv using \
		(series_stack(word(series, i)) eq "debian" ? x_of(word(series, i)) : NaN):(pct($8)) \
		with boxes lt config_lt(series_config(word(series, i))) fs solid 0.8 \
		title (series_stack(word(series, i)) eq "debian" ? word(series, i) : ""), \
		for [i=1:nser] csv using \
		(series_stack(word(series, i)) eq "bare" ? x_of(word(series, i)) : NaN):(pct($8)) \
		with boxes lt config_lt(series_config(word(series, i))) fs pattern 4 \
		title (series_stack(word(series, i)) eq "bare" ? word(series, i) : ""), \
		for [i=1:nser] csv using (x_of(word(series, i))):(pct($7)):(0):(pct($9) - pct($7)) \
		with vectors heads size 0.1, 90 lc rgb "black" notitle, \
		for [i=1:nser] csv using (x_of(word(series, i))):(pct($8) > ymax ? ymax : NaN):(sprintf("%+.0f", pct($8))) \
		with labels rotate by 90 right offset 0, -0.5 font ",8" notitle, \
		for [i=1:nser] csv using (x_of(word(series, i))):(pct($8) < ymin ? ymin : NaN):(sprintf("%+.0f", pct($8))) \
		with labels rotate by 90 left offset 0, 0.5 font ",8" notitle, \
		(noise ne "" ? NaN : 1/0) with boxes fillcolor rgb "#d9d9d9" fillstyle solid 1.0 noborder \
		title noise_title
}
