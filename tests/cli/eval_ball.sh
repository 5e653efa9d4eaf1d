#!/bin/sh
# eval_ball.sh - the ball backend of 'segc eval' against exact rationals
# (tests/cli/evalball.c): the total, comp and comm of every bundled and
# test model, derived with and without their machine's costs, and
# formulas written for the corners of the backend, at many points each.
# A ball must hold the exact value (src/algebra/eval/evalq.c), the value
# printed must be the exact one correctly rounded, and an enclosure over
# an interval must hold the exact values inside it.
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

"$top_builddir/tests/cli/evalball" "$tmp/formulas" 24 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ]
ok $? "models: $(tail -1 "$tmp/out")"
[ $rc -eq 0 ] || diag "$(head -30 "$tmp/out")"

# Formulas for the corners of the backend: decisions the balls leave to
# exact rationals (ties in max, if, floor, ceil at integers, equal sides),
# bounds of sums, recurrences, mva_mem, log2 and sqrt, shared work.
cat >"$tmp/corners" <<'EOM'
sum(i, 1, N, max(i, M)*ceil(a*i/b) + floor(i/M))
sum(i, 1, N, if(i*a == M*b, 1/a, a/3) + if(i/3 >= M/7, i, 0))
floor(N/3)*3 + ceil(N/7) - floor(a*3/7)*7
sum(i, floor(N/2), ceil(N*a), 1/(i + a + 1))
sum(i, 1, N, sum(j, i, M, min(i/3, j/5) + 1/(i + j)))
maxplusv(i, N, 2, a*i/3 + b, sum(j, 1, i, a/7 + j), 1, 1, 2, 1, b/3)
mva_mem(N + 1, a + 1/3, b + 1/7) + mva_mem(2, a, b + 1)
log2(4*N + 4) + sqrt(9*N*N + 18*N + 9) + ceil(log2(N + 1))
(a + 1/3)^3 - (b + 1/7)^-2 + max(a, b)^2 - min(a*a, b*b)
if(a > b and N > 2 or M == 4, a - b, b - a) + if(not(a < 1/2), 1, 2)
EOM
"$top_builddir/tests/cli/evalball" "$tmp/corners" 200 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ]
ok $? "corners: $(tail -1 "$tmp/out")"
[ $rc -eq 0 ] || diag "$(head -30 "$tmp/out")"

done_testing
