#!/bin/sh
# bad_inputs.sh - the catalog of bad inputs (tests/bad/catalog.tsv): each
# document must be refused by 'segc validate' with exactly the diagnostics
# of its .err file and the exit code of the catalog.  Inputs too large to
# keep in the tree (deep nests, a huge file) are made here, under $tmp.
. "$top_srcdir/tests/cli/lib.sh"

bad="$top_srcdir/tests/bad"

# check_case NAME CODE: runs validate on NAME.xml in the catalog.
check_case() {
	code=0
	(cd "$bad" && "$SEGC" validate "$1.xml") >"$tmp/out" 2>"$tmp/err" ||
		code=$?
	[ "$code" -eq "$2" ]
	ok $? "$1: exit code $2"
	if [ "$code" -ne "$2" ]; then
		diag "got exit code $code"
	fi
	same_file "$bad/$1.err" "$tmp/err" "$1: diagnostics"
	[ ! -s "$tmp/out" ]
	ok $? "$1: nothing on standard output"
}

while IFS='	' read -r name code what; do
	case $name in
	'#'* | '') continue ;;
	esac
	check_case "$name" "$code"
done <"$bad/catalog.tsv"

# The local file an external entity names is never read.
(cd "$bad" && "$SEGC" validate external_entity_local.xml) 2>&1 |
	grep SECRET >/dev/null
[ $? -ne 0 ]
ok $? "external entity: the named file's content appears nowhere"

# nest N FILE: a model whose graph nests N loops, one a line.
nest() {
	awk -v n="$1" 'BEGIN {
		print "<model name=\"deep\" version=\"1\">"
		print "<graph name=\"main\">"
		for (i = 0; i < n; i++) print "<loop count=\"2\">"
		print "<step cost=\"1\"/>"
		for (i = 0; i < n; i++) print "</loop>"
		print "</graph>"
		print "</model>"
	}' >"$2"
}

# A nest of 10,000 loops is a valid model.
nest 10000 "$tmp/deep10k.xml"
(cd "$tmp" && "$SEGC" validate deep10k.xml) >"$tmp/out" 2>"$tmp/err"
ok $? "10,000 nested loops: valid"
[ ! -s "$tmp/err" ]
ok $? "10,000 nested loops: no diagnostics"

# 100,000 nested elements: a clean limit error, exit 3.
nest 100000 "$tmp/deep100k.xml"
code=0
(cd "$tmp" && "$SEGC" validate deep100k.xml) >"$tmp/out" 2>"$tmp/err" ||
	code=$?
[ "$code" -eq 3 ]
ok $? "100,000 nested elements: exit code 3"
echo "deep100k.xml:20001:16: error: element <loop> is nested deeper than the limit of 20000 elements (max_depth)" >"$tmp/want"
same_file "$tmp/want" "$tmp/err" "100,000 nested elements: diagnostics"

# A 100 MB document (sparse: made at once) is refused by its size, unread.
if truncate -s 100M "$tmp/huge.xml" 2>/dev/null; then
	code=0
	(cd "$tmp" && "$SEGC" validate huge.xml) >"$tmp/out" 2>"$tmp/err" ||
		code=$?
	[ "$code" -eq 3 ]
	ok $? "100 MB document: exit code 3"
	echo "huge.xml: error: the document is 104857600 bytes, larger than the limit of 67108864 bytes (max_file_bytes)" >"$tmp/want"
	same_file "$tmp/want" "$tmp/err" "100 MB document: diagnostics"
else
	skip "100 MB document" "truncate is not available"
fi

# A file that does not exist.
code=0
(cd "$tmp" && "$SEGC" validate missing.xml) >"$tmp/out" 2>"$tmp/err" ||
	code=$?
[ "$code" -eq 2 ]
ok $? "missing file: exit code 2"
echo "missing.xml: error: cannot open: No such file or directory" >"$tmp/want"
same_file "$tmp/want" "$tmp/err" "missing file: diagnostics"

# Errors the algebra finds (formula_*, prob_symbolic_*, count_* in the
# catalog) are refused by every command that derives a formula, with the
# diagnostics validate gives, at the element concerned, and with nothing
# written.
for name in formula_division_by_zero formula_exponent_symbolic \
	formula_every_error formula_mva_mem_symbolic formula_log2_not_positive \
	formula_in_loop_run_zero_times prob_symbolic_out_of_range \
	count_negative loop_arc_cost_zero; do
	for cmd in "derive" "derive --form structural" "latex" \
		"latex --standalone" "emit -o $tmp/pred" "eval N=1..3" \
		"check --expect N"; do
		rm -f "$tmp/pred.c" "$tmp/pred.h"
		code=0
		# shellcheck disable=SC2086 # $cmd is words on purpose
		(cd "$bad" && "$SEGC" $cmd "$name.xml") >"$tmp/out" \
			2>"$tmp/err" || code=$?
		[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ] &&
			[ ! -e "$tmp/pred.c" ] && [ ! -e "$tmp/pred.h" ]
		ok $? "$name: $cmd: exit code 2, nothing written"
		[ "$code" -eq 2 ] || diag "got exit code $code"
		same_file "$bad/$name.err" "$tmp/err" "$name: $cmd: diagnostics"
	done
done
code=0
(cd "$bad" && "$SEGC" check formula_expect_fractional_power.xml) \
	>"$tmp/out" 2>"$tmp/err" || code=$?
[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "formula_expect_fractional_power: check: exit code 2"
same_file "$bad/formula_expect_fractional_power.err" "$tmp/err" \
	"formula_expect_fractional_power: check: diagnostics"
echo "segc: error: the formula of --expect: division by zero" >"$tmp/want"
(cd "$bad" && "$SEGC" check --expect "N/(P - P)" \
	formula_expect_fractional_power.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "--expect dividing by zero: exit code 2"
same_file "$tmp/want" "$tmp/err" "--expect dividing by zero: diagnostics"

done_testing
