# bench/report/gnuplot/profile.gp - instructions of one capability check per
# kernel function, a stacked bar per configuration (capcheck plugin; run by
# bench/report/plot, which sets: dir, outname, data: tab-separated blocks, one
# per panel (index 0, 1...), each a header row "config" + the functions,
# then a row per configuration, its label and instructions per function;
# panel1, panel2: the two panels' titles; what; colours: the functions'
# colours, bench/report/function_colours.py's, in the order of the columns).
set datafile separator "\t"
set datafile commentschars '#'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set key outside right top vertical noenhanced
set grid ytics
set ylabel "instructions per check"
set yrange [0:*]
# Room over the tallest bar.
set offsets 0, 0, graph 0.05, 0
set xtics nomirror noenhanced rotate by 30 right
ncols = int(system(sprintf("awk -F'\\t' '!/^#/ && NF { print NF; exit }' '%s'", data)))
# Column I's colour: its function's (colours' word I - 1), whatever its rank.
colour(i) = word(colours, i - 1)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10" noenhanced
	} else {
		set terminal svg size 1400,700 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set title "Instructions of one capability check per kernel function: security_capable() " . \
		"from entry to return (capcheck QEMU plugin)\n" . what
	plot newhistogram panel1 lt 1, \
		for [i=2:ncols] data index 0 using i:xtic(1) lc rgb colour(i) title columnheader(i), \
		newhistogram panel2 lt 1, \
		for [i=2:ncols] data index 1 using i:xtic(1) lc rgb colour(i) notitle
}
