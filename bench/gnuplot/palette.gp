# bench/gnuplot/palette.gp - one colour per configuration, the same in every plot
# (loaded by the other bench/*.gp).
all_configs = "commoncap-allowed commoncap-denied commoncap-root " . \
	"naive-grant naive-deny naive-root cached-grant cached-deny cached-root " . \
	"percred-grant percred-deny percred-root"
array colours[12] = ["#7f7f7f", "#bdbdbd", "#393b79", \
	"#ff7f0e", "#ffbb78", "#8c564b", "#1f77b4", "#aec7e8", "#17becf", \
	"#2ca02c", "#98df8a", "#bcbd22"]
do for [i=1:12] { set linetype i lc rgb colours[i] lw 1.5 pt 7 ps 0.8 }
index_of(list, s) = sum [i=1:words(list)] (word(list, i) eq s ? i : 0)
config_lt(c) = index_of(all_configs, c) > 0 ? index_of(all_configs, c) : 12
