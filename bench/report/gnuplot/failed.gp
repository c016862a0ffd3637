# bench/report/gnuplot/failed.gp - a run that is not complete marked across the
# whole plot: failed, the word bench/report/plot or bench/report/kernels sets (FAILED,
# INCOMPLETE; '' for a complete run), big and red (label 99; loaded by the
# other bench/report/gnuplot/*.gp before their plot, which a multiplot unsets
# after its first panel).
if (failed ne "") {
	set label 99 failed at screen 0.5, screen 0.5 center front font ",96" tc rgb "#b0ff0000"
}
