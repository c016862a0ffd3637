# bench/report/gnuplot/groups.gp - kill's instructions per call against the number of
# supplementary groups (run by bench/report/plot, which sets: dir, outname, csv,
# what, configs, references: "CONFIG MEDIAN ...", the reference kernel's
# plain runs of kill, which read no groups, as horizontal lines).
set datafile separator ','
set datafile commentschars '#'

set logscale x 2
set xlabel "supplementary groups of the caller"
set ylabel "instructions per kill(2) (median, min-max bars)"
set key outside right top vertical width -8
set grid xtics ytics
set format x "%.0f"
set xtics (1, 16, 256, 4096, 65536)
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
load dir . 'palette.gp'

# The icount rows of one configuration's "groups=N" variants, as
# "N,median,min,max": only those, so that the points join up.
rows_of(c) = sprintf("< awk -F, '$2 == \"%s\" && $3 == \"icount\" && $14 ~ /^groups=/ " . \
	"{ sub(/groups=/, \"\", $14); print $14 \",\" $8 \",\" $7 \",\" $9 }' '%s'", c, csv)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1300,650 font ",10" noenhanced
	} else {
		set terminal svg size 1300,650 font ",10" dynamic noenhanced
	}
	set output outname . "." . fmt
	load dir . 'failed.gp'
	set title "kill(2) needing CAP_KILL, against the caller's supplementary groups\n" . what
	plot for [i=1:words(configs)] rows_of(word(configs, i)) using 1:2:3:4 \
		with yerrorlines lt config_lt(word(configs, i)) dt config_dt(word(configs, i)) \
		title word(configs, i), \
		for [i=1:words(references):2] real(word(references, i + 1)) with lines \
		lt config_lt(word(references, i)) dt 5 title word(references, i) . " (no groups read)"
}
