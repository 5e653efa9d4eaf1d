#!/bin/sh
# caret.sh - SEGC_CARET=always prints after each diagnostic that has a
# line and a column the source line and a caret under the column, tabs
# kept so that it lines up (tests/bad/NAME.caret); SEGC_CARET=never and
# a standard error that is not a terminal print the diagnostics alone.
. "$top_srcdir/tests/cli/lib.sh"

bad="$top_srcdir/tests/bad"

for name in caret_tab undeclared_near expr_syntax schema_one_line \
	schema_unknown_element malformed_mismatch formula_division_by_zero; do
	(cd "$bad" && SEGC_CARET=always "$SEGC" validate "$name.xml") \
		>/dev/null 2>"$tmp/err"
	same_file "$bad/$name.caret" "$tmp/err" "$name: excerpts and carets"
	(cd "$bad" && SEGC_CARET=never "$SEGC" validate "$name.xml") \
		>/dev/null 2>"$tmp/err"
	same_file "$bad/$name.err" "$tmp/err" "$name: SEGC_CARET=never"
	(cd "$bad" && SEGC_CARET=auto "$SEGC" validate "$name.xml") \
		>/dev/null 2>"$tmp/err"
	same_file "$bad/$name.err" "$tmp/err" "$name: auto, not a terminal"
done

done_testing
