#!/bin/sh
# linear.sh - documents whose handling took time quadratic in their size
# now take linear time: lets (each name was looked up by a linear
# search) and chains of graph calls (the same, for graphs).  Each family runs at sizes n and 4n: the larger may take
# at most eight times as long, plus a second for noise (quadratic time
# would take sixteen).
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# lets K: K lets, each the cost of one step.
lets() {
	awk -v k="$1" 'BEGIN {
		print "<model name=\"lets\" version=\"1\">"
		for (i = 1; i <= k; i++)
			printf "<let name=\"l%d\" value=\"N + %d\"/>\n", i, i
		print "<graph name=\"main\">"
		for (i = 1; i <= k; i++) printf "<step cost=\"l%d\"/>\n", i
		print "</graph></model>"
	}'
}

# calls K: graphs g1 .. gK, each calling the next.
calls() {
	awk -v k="$1" 'BEGIN {
		print "<model name=\"calls\" version=\"1\"><resource name=\"t\"/>"
		print "<graph name=\"main\"><call graph=\"g1\"/></graph>"
		for (i = 1; i < k; i++)
			printf "<graph name=\"g%d\"><step cost=\"t\"/><call graph=\"g%d\"/></graph>\n", i, i + 1
		printf "<graph name=\"g%d\"><step cost=\"t\"/></graph>\n", k
		print "</model>"
	}'
}

# ms: the time in milliseconds.
ms() {
	date +%s%N | cut -c1-13
}

# timed CMD FILE: runs 'segc CMD FILE' (at most 120 s), every error
# reported; prints the milliseconds it took.
timed() {
	t0=$(ms)
	timeout 120 "$SEGC" "$1" --limit max_errors=0 "$2" >/dev/null 2>&1
	t1=$(ms)
	echo $((t1 - t0))
}

# linear FAMILY N CMD: FAMILY at sizes N and 4N scales linearly.
linear() {
	"$1" "$2" >"$tmp/small.xml"
	"$1" $(($2 * 4)) >"$tmp/big.xml"
	a=$(timed "$3" "$tmp/small.xml")
	b=$(timed "$3" "$tmp/big.xml")
	[ "$b" -le $((8 * a + 1000)) ]
	ok $? "$1: $3 of 4 times as much takes ${b} ms, against ${a} ms"
}

case $(date +%N) in
*N*|'') skip "linear time" "date cannot give nanoseconds"; done_testing
	exit ;;
esac
linear lets 25000 derive
linear calls 20000 derive
done_testing
