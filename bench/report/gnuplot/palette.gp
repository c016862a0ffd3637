# bench/report/gnuplot/palette.gp - one colour per kernel, the same in every plot, dark
# for what is granted and light for what is refused (loaded by the other
# bench/report/gnuplot/*.gp).
kernels = "stock commoncap naive cached percred"
array dark[5] = ["#252525", "#7f7f7f", "#ff7f0e", "#1f77b4", "#2ca02c"]
array light[5] = ["#969696", "#c7c7c7", "#ffbb78", "#aec7e8", "#98df8a"]
# Line types 1-5: the kernels' dark colours; 6-10: their light ones;
# 11: anything else.
do for [i=1:5] {
	set linetype i lc rgb dark[i] lw 1.5 pt 7 ps 0.8
	set linetype i + 5 lc rgb light[i] lw 1.5 pt 7 ps 0.8
}
set linetype 11 lc rgb "black" lw 1.5 pt 7 ps 0.8
index_of(list, s) = sum [i=1:words(list)] (word(list, i) eq s ? i : 0)
# A configuration is KERNEL-CASE (percred-deny-group, commoncap-allowed).
config_kernel(c) = c[1:strstrt(c . "-", "-") - 1]
config_case(c) = c[strstrt(c . "-", "-") + 1:]
kernel_lt(k) = index_of(kernels, k) > 0 ? index_of(kernels, k) : 11
config_lt(c) = kernel_lt(config_kernel(c)) + \
	(kernel_lt(config_kernel(c)) < 11 && config_case(c)[1:3] eq "den" ? 5 : 0)
# Dashes tell apart the cases that share a colour: grant, allowed, deny
# and denied solid, deny-group dashed, deny-owner dotted, root dash-dotted.
config_dt(c) = config_case(c) eq "deny-group" ? 2 : config_case(c) eq "deny-owner" ? 3 : \
	config_case(c) eq "root" ? 4 : 1
