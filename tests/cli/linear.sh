#!/bin/sh
# linear.sh - documents whose handling took time quadratic in their size
# now take linear time: lets (each name was looked up by a linear
# search), chains of graph calls (the same, for graphs), and many
# diagnostics on one long line (each column was counted from the start
# of the line).  An element of more than 1024 attributes, which libxml2
# would take quadratic time to read, is refused before it is parsed.  Each family runs at sizes n and 4n: the larger may take
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

# attrs K: one line of K steps, each with 1000 unknown attributes.
attrs() {
	awk -v k="$1" 'BEGIN {
		printf "<model name=\"attrs\" version=\"1\"><graph name=\"main\">"
		for (i = 0; i < k; i++) {
			printf "<step cost=\"N\""
			for (j = 0; j < 1000; j++) printf " a%d=\"\"", j
			printf "/>"
		}
		print "</graph></model>"
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
linear attrs 25 validate
"$SEGC" validate --limit max_errors=0 "$tmp/big.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c ':1:[0-9]*: error: <step>: unknown attribute' "$tmp/err")" -eq 100000 ]
ok $? "the 100000 unknown attributes are reported with their columns"
awk 'BEGIN {
	printf "<model name=\"a\" version=\"1\"><graph name=\"main\"><step cost=\"N\""
	for (i = 0; i < 100000; i++) printf " a%d=\"\"", i
	print "/></graph></model>"
}' >"$tmp/wide.xml"
timeout 20 "$SEGC" validate "$tmp/wide.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q ':1:48: error: an element has 100001 attributes, more than the fixed limit of 1024' "$tmp/err"
ok $? "an element of 100001 attributes is refused at once (exit 3)"
done_testing
