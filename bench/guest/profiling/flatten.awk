# bench/guest/profiling/flatten.awk - bpftrace's text output of maps, one record a
# line, tab-separated, for report.awk:
#   MAP KEY... VALUE          a count (a kernel stack key: its frames without
#                             offsets, innermost first, joined by " < ")
#   MAP KEY... LO HI COUNT    a hist() bucket, LO inclusive, HI exclusive
# Any other line (bpftrace's own messages) is dropped.

# 512, 1K, 2M ... as a number.
function value(s) {
	if (s ~ /K$/) return substr(s, 1, length(s) - 1) * 1024
	if (s ~ /M$/) return substr(s, 1, length(s) - 1) * 1048576
	if (s ~ /G$/) return substr(s, 1, length(s) - 1) * 1073741824
	return s + 0
}

# "@name[a, b" (the key's opening part) as "@name<TAB>a<TAB>b".
function head(s,    name, n, parts, i, out) {
	name = substr(s, 1, index(s, "[") - 1)
	s = substr(s, index(s, "[") + 1)
	sub(/,[ \t]*$/, "", s)
	out = name
	n = split(s, parts, /, /)
	for (i = 1; i <= n; i++)
		if (parts[i] != "")
			out = out "\t" parts[i]
	return out
}

BEGIN { OFS = "\t" }

# A kernel stack key spans lines, from "@map[a, " to "]: N".
stack_head != "" {
	if ($0 ~ /^\]: [0-9]+$/) {
		sub(/^\]: /, "")
		print stack_head, stack, $0
		stack_head = ""
	} else if (NF > 0) {
		frame = $1
		sub(/\+[0-9]+$/, "", frame)
		stack = stack == "" ? frame : stack " < " frame
	}
	next
}

/^@[A-Za-z_]+\[.*\]: [0-9]+$/ {
	count = $NF
	key = $0
	sub(/\]: [0-9]+$/, "", key)
	print head(key), count
	next
}

/^@[A-Za-z_]+\[.*\]: *$/ {
	hist_head = $0
	sub(/\]: *$/, "", hist_head)
	hist_head = head(hist_head)
	next
}

/^@[A-Za-z_]+\[/ {
	stack_head = head($0)
	stack = ""
	next
}

hist_head != "" && /^\[/ {
	# [lo, hi) or [n]
	range = $0
	sub(/\).*|\].*/, "", range)
	sub(/^\[/, "", range)
	count = $0
	sub(/^[^)\]]*[)\]][ \t]*/, "", count)
	sub(/[ \t].*/, "", count)
	if (range ~ /, /) {
		split(range, bounds, /, /)
		print hist_head, value(bounds[1]), value(bounds[2]), count
	} else {
		print hist_head, value(range), value(range) + 1, count
	}
	next
}

NF == 0 { hist_head = "" }
