#!/bin/sh
# eval_exact.sh - the exact values of 'segc eval --arith exact' (the
# evaluation plan, as check, sensitivity and fit run it) against the
# derived formulas evaluated in Python fractions (tests/cli/eval_exact.py):
# every bundled and test model, every component, at points inside the
# declared domains.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

python3 "$top_srcdir/tests/cli/eval_exact.py" "$SEGC" \
	"$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml \
	"$top_srcdir"/tests/cli/models/*.xml >"$tmp/log" 2>&1
relay_results "$tmp/log" $?

done_testing
