#!/bin/sh
# eval_diff.sh - the evaluation plan of 'segc eval' against the exact walk
# it replaced (src/algebra/eval/evalq.c, kept as the reference): the total of
# every bundled and test model, derived with and without its machine's
# costs bound, evaluated by both at 40 points each (tests/cli/evaldiff).
# Wherever the walk has a rational value the plan must have the same.
: "${SEGC:?}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/cli/lib.sh"

: >"$tmp/formulas"
for m in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml \
	"$top_srcdir"/tests/cli/models/*.xml; do
	for c in total comp comm; do
		"$SEGC" derive --component $c "$m" 2>/dev/null
		echo
	done
done >>"$tmp/formulas"
n=$(grep -c . "$tmp/formulas")
[ "$n" -ge 50 ]
ok $? "formulas of the models derived ($n)"

"$top_builddir/tests/cli/evaldiff" "$tmp/formulas" 40 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ]
ok $? "plan and walk agree: $(tail -1 "$tmp/out")"
[ $rc -eq 0 ] || diag "$(head -30 "$tmp/out")"

# Formulas written for the plan's corners: hoisting out of sums and
# recurrences, shadowed names, conditions in loops, empty loops.
cat >"$tmp/corners" <<'EOM'
sum(i, 1, N, sum(j, 1, i, a*b*i + a*j + b))
sum(i, 1, N, sum(i, 1, M, i*a) + i)
N*i + sum(i, 1, 3, N*i)
sum(i, 1, N, if(i > M, a/i, b*i) + if(M > 2 and a > b, 1, 0))
sum(i, 1, N - 5, 1/(N - 5))
maxplusv(i, N, 2, a*i + b, sum(j, 1, i, a + j), 1, 1, 2, 1, b)
maxplusv(i, N, 1, maxplusv(j, M, 1, i*j + a, 1, 1, 1, 1, 0), 1, 1, 1, 1, 0)
sum(i, 1, N, max(i, M)*ceil(a*i/b) + floor(i/M))
EOM
"$top_builddir/tests/cli/evaldiff" "$tmp/corners" 200 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ]
ok $? "corners: $(tail -1 "$tmp/out")"
[ $rc -eq 0 ] || diag "$(head -30 "$tmp/out")"

done_testing
