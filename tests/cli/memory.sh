#!/bin/sh
# memory.sh - the memory policy (doc/limits.md, "Memory"): a document
# whose polynomials outgrow half of max_memory is refused with a message
# that names the limit; running out of memory anywhere else (the XML
# reader here) is reported as "out of memory", exit 3, never an abort;
# nothing is written on standard output either way.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# atoms K: a model whose one cost is the sum of K distinct resources: its
# polynomial has K terms over K atoms.
atoms() {
	awk -v k="$1" 'BEGIN {
		print "<model name=\"atoms\" version=\"1\">"
		for (i = 1; i <= k; i++) printf "<resource name=\"r%d\"/>\n", i
		printf "<graph name=\"main\"><step cost=\""
		for (i = 1; i <= k; i++) printf "%sr%d", (i > 1 ? "+" : ""), i
		print "\"/></graph></model>"
	}'
}

# sqrt_lets K: four chains of K lets l_i = sqrt(l_(i-1) + 1).
sqrt_lets() {
	awk -v k="$1" 'BEGIN {
		print "<model name=\"lets\" version=\"1\">"
		for (c = 0; c < 4; c++) {
			printf "<let name=\"l%d_0\" value=\"N\"/>\n", c
			for (i = 1; i <= k; i++)
				printf "<let name=\"l%d_%d\" value=\"sqrt(l%d_%d + 1)\"/>\n", c, i, c, i - 1
		}
		print "<graph name=\"main\">"
		for (c = 0; c < 4; c++) printf "<step cost=\"l%d_%d\"/>\n", c, k
		print "</graph></model>"
	}'
}

# flat K: a model of K steps.
flat() {
	awk -v k="$1" 'BEGIN {
		print "<model name=\"flat\" version=\"1\"><resource name=\"t\"/>"
		print "<graph name=\"main\">"
		for (i = 0; i < k; i++) printf "<step cost=\"%d*t\"/>\n", i % 7 + 1
		print "</graph></model>"
	}'
}

# refused WHAT PATTERN: the last run (status in $rc) exited 3 with an
# error matching PATTERN and wrote nothing on standard output.
refused() {
	[ "$rc" -eq 3 ] && grep -Eq "error: .*$2" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$1: exit 3 (got $rc), says '$2', writes nothing"
	[ "$rc" -eq 3 ] || diag "$(head -3 "$tmp/err")"
}

atoms 2000 >"$tmp/atoms.xml"
"$SEGC" derive "$tmp/atoms.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "2000 atoms in one cost: derive within the default budget"
for cmd in derive latex; do
	"$SEGC" $cmd --form canonical --limit max_memory=20000000 "$tmp/atoms.xml" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	refused "2000 atoms, max_memory=20000000: $cmd" \
		"polynomials .* more than 10000000 bytes.*max_memory"
done

sqrt_lets 300 >"$tmp/lets.xml"
"$SEGC" derive --limit max_memory=1000000 "$tmp/lets.xml" >"$tmp/out" \
	2>"$tmp/err"
rc=$?
refused "chains of nested sqrt lets, max_memory=1000000" "max_memory"
"$SEGC" derive "$tmp/lets.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "chains of nested sqrt lets: derive within the default budget"

"$SEGC" derive --limit memory=0 "$tmp/lets.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "max_memory=0 is the default budget"

# The address space is not limited under AddressSanitizer, nor under
# valgrind (which counts its own memory in it).
real=${SEGC_REAL:-$SEGC}
if [ -n "${SEGC_REAL:-}" ] || cat "$(dirname "$real")"/.libs/* "$real" \
		2>/dev/null | grep -aq __asan_init; then
	skip "out of memory while reading" "address space not limited here"
	skip "out of memory: message" "address space not limited here"
else
	# well past the 16 MB the guard leaves above the start: validate
	# frees the document before its checks
	flat 200000 >"$tmp/flat.xml"
	"$SEGC" validate --limit max_memory=1000 "$tmp/flat.xml" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	refused "200000 steps, max_memory=1000: validate" \
		"out of memory.*1000 bytes \\(max_memory\\)"
	"$SEGC" validate "$tmp/flat.xml" >"$tmp/out" 2>"$tmp/err"
	ok $? "200000 steps: validate within the default budget"
fi
done_testing
