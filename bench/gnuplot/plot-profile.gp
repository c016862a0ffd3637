# bench/gnuplot/plot-profile.gp - the bpftrace plots of bench/guest/profile's data
# (run by bench/plot, which sets: dir, hist, count, outbase, title_suffix).
#
#   hist          capable-hist.dat: config workload lo_ns hi_ns count
#   count         capable-count.dat: config workload capname count
#   outbase       prefix of the outputs: OUTBASE{capable-hist-kill,
#                 capable-count-realistic}.{png,svg}
#   title_suffix  what, mode, kernel and commit, for the titles
#   workload      the workload of the histogram plot (default kill)
if (!exists("workload")) workload = "kill"

# Lists in the order of the files, as bench/plot passes them to plot.gp.
hist_configs = system(sprintf("awk -v w='%s' '!/^#/ && $2 == w && !seen[$1]++ { printf \"%%s \", $1 }' '%s'", \
	workload, hist))
count_configs = system(sprintf("awk '!/^#/ && $2 == \"realistic\" && !seen[$1]++ { printf \"%%s \", $1 }' '%s'", \
	count))
# The capabilities of the realistic runs, the most checked first.
count_caps = system(sprintf("awk '!/^#/ && $2 == \"realistic\" { n[$3] += $4 } " . \
	"END { for (c in n) print n[c], c }' '%s' | sort -k1,1nr | awk '{ printf \"%%s \", $2 }'", count))

positive(v) = v > 0 ? v : NaN
# One colour per configuration, as in plot.gp.
load dir . 'palette.gp'
set key outside right top vertical
set grid xtics ytics

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1400,700 font ",10" noenhanced
	} else {
		set terminal svg size 1400,700 font ",10" dynamic noenhanced
	}

	if (words(hist_configs) > 0) {
		set output outbase . "capable-hist-" . workload . "." . fmt
		set title "time inside security_capable() per call, " . workload . \
			" (bpftrace kprobe to kretprobe, probe overhead included)\n" . title_suffix
		set xlabel "ns per call (log2 buckets, plotted at their lower bound)"
		set ylabel "calls (log scale)"
		set logscale x 2
		set logscale y
		set format x "%.0s%c"
		set xtics auto
		set style data linespoints
		plot for [c=1:words(hist_configs)] hist using \
			(strcol(1) eq word(hist_configs, c) && strcol(2) eq workload ? $3 : NaN):(positive($5)) \
			lt config_lt(word(hist_configs, c)) title word(hist_configs, c)
		unset logscale x
		unset logscale y
		set format x "% h"
	}

	if (words(count_caps) > 0) {
		set output outbase . "capable-count-realistic." . fmt
		set title "capable() checks of an unprivileged user's build and shell session, by capability " . \
			"(bpftrace)\n" . title_suffix
		set xlabel "capability"
		set ylabel "checks (log scale)"
		set logscale y
		set yrange [1:*]
		ncaps = words(count_caps)
		nconf = words(count_configs)
		set xrange [0:ncaps * (nconf + 1)]
		set xtics () rotate by 30 right nomirror
		do for [i=1:ncaps] {
			set xtics add (word(count_caps, i) (i - 1) * (nconf + 1) + (nconf + 1) / 2.0)
		}
		set style fill solid 0.8 border -1
		set boxwidth 0.8
		plot for [c=1:nconf] count using \
			(strcol(1) eq word(count_configs, c) && strcol(2) eq "realistic" ? \
				(index_of(count_caps, strcol(3)) - 1) * (nconf + 1) + c : NaN):(positive($4)) \
			with boxes lt config_lt(word(count_configs, c)) title word(count_configs, c)
		unset logscale y
		set yrange [*:*]
		set xrange [*:*]
		set xtics auto norotate mirror
	}
}
