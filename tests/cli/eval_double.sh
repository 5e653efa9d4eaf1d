#!/bin/sh
# eval_double.sh - the double backend of the evaluation plan, which
# 'segc eval' prints its rows from when both ends of each value print
# alike (tests/cli/evaldbl.c): the total, comp and comm of every bundled
# and test model, and formulas for the corners of the backend, at many
# points: each enclosure must hold the exact value of the walk of
# src/algebra/evalq.c, and 6 digits it certifies must be those of the
# exact value.  Then the rows of 'segc eval' on the blocked LU model and
# on the examples must be those of '--arith exact' byte for byte.
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

# run FILE NAME: evaldbl over FILE; fails when an enclosure misses, a
# certified digit is wrong, or fewer than half the points were enclosed.
run() {
	"$top_builddir/tests/cli/evaldbl" "$1" 40 >"$tmp/out" 2>&1
	rc=$?
	s=$(tail -1 "$tmp/out")
	enc=$(printf '%s\n' "$s" | sed -n 's/.*doubles \([0-9]*\) enclose.*/\1/p')
	dec=$(printf '%s\n' "$s" | sed -n 's/.*, \([0-9]*\) declined.*/\1/p')
	[ $rc -eq 0 ] && [ "${enc:-0}" -gt "${dec:-0}" ]
	ok $? "$2: $s"
	[ $rc -eq 0 ] || diag "$(head -30 "$tmp/out")"
}
run "$tmp/formulas" models

# Corners: fractions that are integers (floor, ceil, ties in max and
# comparisons decided exactly), values that are not doubles, large and
# small magnitudes, roots and logarithms, recurrences and mva_mem, and
# sums of max, min, floor and ceil of the counter, longer than 1000
# terms, that the doubles sum in closed form.
cat >"$tmp/corners" <<'EOM'
sum(i, 1, N, max(i, M)*ceil(a*i/b) + floor(i/M))
sum(i, 1, N, if(i*a == M*b, 1/a, a/3) + if(i/3 >= M/7, i, 0))
floor(N/3)*3 + ceil(N/7) - floor(a*3/7)*7
ceil(N/3 - 1/3 + M/3) - floor((N + M - 1)/3) + ceil(a/10 + 1/10)*10
sum(i, floor(N/2), ceil(N*a), 1/(i + a + 1))
sum(i, 1, N, sum(j, i, M, min(i/3, j/5) + 1/(i + j)))
maxplusv(i, N, 2, a*i/3 + b, sum(j, 1, i, a/7 + j), 1, 1, 2, 1, b/3)
mva_mem(N + 1, a + 1/3, b + 1/7) + mva_mem(2, a, b + 1)
log2(4*N + 4) + sqrt(9*N*N + 18*N + 9) + ceil(log2(N + 1))
sqrt(N) + log2(a + 1/3) + ceil(sqrt(4*N*N))
(a + 1/3)^3 - (b + 1/7)^-2 + max(a, b)^2 - min(a*a, b*b)
if(a > b and N > 2 or M == 4, a - b, b - a) + if(not(a < 1/2), 1, 2)
N^9*M^9/7 + 1/(N^9 + 3) - 20933*N/64000000000
(N/3 + 1/7)*(N/3 - 1/7) - N^2/9 + 1/49
max(N/3, M/3 + (N - M)/3) + min(N*1/10, N/10)
sum(i, 1, N*M, max(a*i - b, b*i/(a + 1) + 3))
sum(i, M - N, N*M, 3*min(i/a, N - i*b) - floor((a*i + b)/3) + ceil(i*b/7 - a))
sum(i, 1, N*M, a*floor(i*b/(a + 1)) + 2*i - 5 + N*max(i/7, M - i))
EOM
run "$tmp/corners" corners

# The rows of 'segc eval' against the exact plan, byte for byte.
M=$top_srcdir/xml/machines/parsytec_gc.xml
L=$top_srcdir/xml/lu_blocked.xml
for d in 6 12; do
	"$SEGC" eval --digits $d -m "$M" "$L" N=352,1408,26400 B=8,32 \
		X=1,12 Y=1,8 >"$tmp/ball" 2>&1
	"$SEGC" eval --arith exact --digits $d -m "$M" "$L" \
		N=352,1408,26400 B=8,32 X=1,12 Y=1,8 >"$tmp/exact" 2>&1
	same_file "$tmp/exact" "$tmp/ball" "LU rows at $d digits as exact"
done
"$SEGC" eval --csv --digits 15 -m "$M" "$L" N=1000,1001 B=7,13 X=3 \
	Y=5 >"$tmp/ball" 2>&1
"$SEGC" eval --csv --arith exact --digits 15 -m "$M" "$L" N=1000,1001 \
	B=7,13 X=3 Y=5 >"$tmp/exact" 2>&1
same_file "$tmp/exact" "$tmp/ball" "LU rows at 15 digits, csv, as exact"

done_testing
