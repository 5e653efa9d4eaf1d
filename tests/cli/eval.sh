#!/bin/sh
# eval.sh - 'segc eval': the table, CSV, exact ranges, correctly rounded
# digits, and the errors (unbound names, bad ranges) with exit 2; sums as
# C loops, if(), undecidable comparisons and the budget of sum terms.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/xml/cg_tree.xml
nc=$top_srcdir/xml/machines/ncube2.xml

"$SEGC" eval -m "$nc" "$m" N=1..3 P=1,2 > "$tmp/out"
ok $? "eval a grid"
cat > "$tmp/want" <<'TXT'
N  P         comp       comm  io        total    speedup  efficiency
1  1  3.25581e-05          0   0  3.25581e-05          1           1
1  2  2.32558e-05  0.0009198   0  0.000943056  0.0345241    0.017262
2  1  6.97674e-05          0   0  6.97674e-05          1           1
2  2  4.18605e-05  0.0009252   0   0.00096706  0.0721438   0.0360719
3  1  0.000116279          0   0  0.000116279          1           1
3  2  6.51163e-05  0.0009306   0  0.000995716   0.116779   0.0583897
TXT
same_file "$tmp/want" "$tmp/out" "the table of cg_tree on the nCUBE/2"

"$SEGC" eval --csv --digits 30 -m "$nc" "$m" N=2 P=3 > "$tmp/out"
printf '%s\n' 'N,P,comp,comm,io,total,speedup,efficiency' \
  '2,3,3.56589147286821705426356589147e-05,0.001848,0,0.00188365891472868217054263565891,0.0370382564035029959834068611312,0.0123460854678343319944689537104' \
  > "$tmp/want"
same_file "$tmp/want" "$tmp/out" "CSV with 30 correctly rounded digits"

"$SEGC" eval -m "$nc" "$m" N=2,0.4e1,1e3 P=1..16*4 > "$tmp/out"
[ $? -eq 0 ] && [ "$(wc -l < "$tmp/out")" -eq 10 ] &&
	grep -q '^ *2  *16 ' "$tmp/out" && grep -q '^ *4  *1 ' "$tmp/out" &&
	grep -q '^ *1000  *4 ' "$tmp/out"
ok $? "exact values, lists and geometric ranges"

# A point outside a declared domain is refused, naming the domain: there
# the two forms may rightly differ.
"$SEGC" eval -m "$nc" "$m" N=1/2 P=1 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "N=1/2 is below its minimum: the model declares N in \[1, +inf\], an integer" "$tmp/err"
ok $? "a point outside the declared domain is refused"
"$SEGC" eval -m "$nc" "$m" N=3/2 P=1 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "N=3/2 is not an integer" "$tmp/err"
ok $? "a fraction for an integer parameter is refused"

"$SEGC" eval "$m" N=1 > "$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "'P' has no value" "$tmp/err" &&
	grep -q "'t_stmt' has no value" "$tmp/err" &&
	grep -q "tree_bcast" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "unbound names and uninterpreted calls are named, exit 2"

for r in 'N=1..' 'N=3..1' 'N=1..10*1' 'N=a' 'N=1,,2' '=3' 'N=1.5..3'; do
	"$SEGC" eval -m "$nc" "$m" "$r" P=1 > /dev/null 2>"$tmp/err"
	[ $? -eq 2 ]
	ok $? "bad range '$r' is a usage error"
done

for x in "cg_tree.xml N=1..1000*10 P=1..64*2" \
	 "examples/lu_shrinking.xml N=1..100000*10 t_cmp=1 t_div=2 t_madd=1/3" \
	 "examples/mean_row_distance.xml Y=1..2000*3 eta_at=1/7"; do
	set -- $x
	f=$1
	shift
	"$SEGC" eval --digits 17 -m "$nc" "$top_srcdir/xml/$f" "$@" > "$tmp/s" &&
		"$SEGC" eval --digits 17 --form canonical -m "$nc" \
		"$top_srcdir/xml/$f" "$@" > "$tmp/c" && cmp -s "$tmp/s" "$tmp/c"
	ok $? "structural and canonical forms of $f evaluate alike"
done

# Sums run as C loops: body for every integer i with lo <= i <= hi, none
# when there is none, whatever the bounds.  The expected values come from
# the loops written out in awk.
cat >"$tmp/rev.xml" <<'EOF'
<model name="rev" version="1">
  <graph name="main">
    <step cost="sum(i, N, 1, i)"/>
    <step cost="sum(i, N, 1, sqrt(i))" class="comm"/>
    <loop var="k" from="1" to="N"><step cost="sum(j, k, 2, j*k)" class="io"/></loop>
    <loop var="k" from="1/2" to="N/3"><step cost="k" class="io"/></loop>
  </graph>
</model>
EOF
awk 'BEGIN {
	print "N,comp,comm,io,total"
	for (N = 1; N <= 9; N++) {
		c = 0; for (i = N; i <= 1; i++) c += i
		m = 0; for (i = N; i <= 1; i++) m += sqrt(i)
		o = 0; for (k = 1; k <= N; k++) for (j = k; j <= 2; j++) o += j*k
		for (k = 1; k <= N/3; k++) o += k
		print N "," c "," m "," o "," c + m + o
	}
}' >"$tmp/want"
"$SEGC" eval --csv --digits 17 "$tmp/rev.xml" N=1..9 | cut -d, -f1-5 >"$tmp/s"
same_file "$tmp/want" "$tmp/s" "empty and fractional ranges: the C loops' values"
"$SEGC" eval --csv --digits 17 --form canonical "$tmp/rev.xml" N=1..9 |
	cut -d, -f1-5 >"$tmp/c"
same_file "$tmp/want" "$tmp/c" "the canonical form evaluates alike"

# if(c, a, b) in a cost: the branch its condition picks, against awk.
cat >"$tmp/if.xml" <<'EOF'
<model name="if" version="1">
  <param name="l"/>
  <graph name="main">
    <step cost="if(l &lt;= P, 3 + l*(2 + l), 5 + 2*l)"/>
    <step cost="if(N >= 2 and not N == 5 or P != 1, N, 0)" class="comm"/>
    <loop var="k" from="1" to="N"><step cost="if(2*k > N, k, 0)" class="io"/></loop>
  </graph>
</model>
EOF
awk 'BEGIN {
	print "N,P,l,comp,comm,io"
	for (N = 1; N <= 6; N++) for (P = 1; P <= 2; P++) {
		l = 2
		c = l <= P ? 3 + l*(2 + l) : 5 + 2*l
		m = (N >= 2 && !(N == 5)) || P != 1 ? N : 0
		o = 0; for (k = 1; k <= N; k++) o += 2*k > N ? k : 0
		print N "," P "," l "," c "," m "," o
	}
}' >"$tmp/want"
"$SEGC" eval --csv "$tmp/if.xml" N=1..6 P=1,2 l=2 | cut -d, -f1-6 >"$tmp/s"
same_file "$tmp/want" "$tmp/s" "if: the branch its condition picks"

# A comparison whose sides agree to within rounding is never guessed.
cat >"$tmp/irr.xml" <<'EOF'
<model name="irr" version="1">
  <graph name="main">
    <step cost="if(sqrt(N)*sqrt(N) == N, 1, 0)"/>
    <step cost="if(sqrt(2)*sqrt(2) >= 2 - 1/10^40, 10, 0) + floor(sqrt(N + 1/10^30))" class="comm"/>
  </graph>
</model>
EOF
"$SEGC" eval --csv "$tmp/irr.xml" N=4 | sed -n 2p | cut -d, -f2,3 >"$tmp/s"
echo 1,12 >"$tmp/want"
same_file "$tmp/want" "$tmp/s" "comparisons of irrational values decided beyond their rounding"
"$SEGC" eval "$tmp/irr.xml" N=2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] &&
	grep -q "cannot decide the comparison .*sqrt(N)^2 == N.* at [0-9]* bits" "$tmp/err"
ok $? "a comparison equal to within rounding: exit 3, said so"

# All the terms of nested sums count against max_eval_terms: at N = 9,
# 9 + 81 + 729 = 819 terms.
cat >"$tmp/trip.xml" <<'EOF'
<model name="trip" version="1">
  <graph name="main">
    <step cost="sum(i, 1, N, sum(j, 1, N, sum(k, 1, N, sqrt(i + j + k))))"/>
  </graph>
</model>
EOF
"$SEGC" eval --limit max_eval_terms=819 "$tmp/trip.xml" N=9 >"$tmp/out"
ok $? "nested sums within max_eval_terms"
"$SEGC" eval --limit max_eval_terms=818 "$tmp/trip.xml" N=9 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] &&
	grep -q "more than 818 terms of sums (max_eval_terms)" "$tmp/err"
ok $? "nested sums past max_eval_terms: exit 3, the limit named"

"$SEGC" eval --precision 1 -m "$nc" "$m" N=1 P=1 > /dev/null 2>&1
[ $? -eq 2 ]
ok $? "a precision below the minimum is refused"
# --csv prints the parameters as decimals, correctly rounded from their
# exact values; no speedup columns without the processor count in the grid.
cat > "$tmp/csv.want" <<'EOF2'
N_element,P_max,t_if,t_loop,t_assign,comp,comm,io,total
1,0.333333,0.142857,1,1,2.47619,0,0,2.47619
1,0.1,0.142857,1,1,2.24286,0,0,2.24286
1,1,0.142857,1,1,3.14286,0,0,3.14286
1,0.0000000125,0.142857,1,1,2.14286,0,0,2.14286
EOF2
"$SEGC" eval --csv "$top_srcdir/xml/find_max.xml" N_element=1 \
	P_max=1/3,0.1,99999999/100000000,1/80000000 t_if=1/7 t_loop=1 \
	t_assign=1 >"$tmp/csv.got" 2>&1
same_file "$tmp/csv.want" "$tmp/csv.got" "--csv: decimal parameters, no speedup"

# T(P=1) outside P's declared domain: no speedup columns, a note says why.
cat > "$tmp/p2.xml" <<'EOF2'
<model name="p2" version="1">
  <param name="P" min="2" integer="true"/>
  <param name="w"/>
  <graph name="main"><step cost="N/P + w"/></graph>
</model>
EOF2
code=0
"$SEGC" eval "$tmp/p2.xml" N=100 P=2,4 w=1 >"$tmp/out" 2>"$tmp/err" ||
	code=$?
[ "$code" -eq 0 ] && head -1 "$tmp/out" | grep -q " total$" &&
	grep -q "note: no speedup and efficiency columns: T(P=1) is undefined" "$tmp/err"
ok $? "no speedup columns where T(P=1) is outside P's domain, with a note"
"$SEGC" eval --svg "$tmp/p2.svg" --plot speedup "$tmp/p2.xml" N=100 P=2,4 w=1 \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/p2.svg" ] &&
	grep -q "the speedup T(P=1)/T is undefined: P=1 is outside the domain" "$tmp/err"
ok $? "--plot speedup refused where T(P=1) is outside P's domain"
"$SEGC" eval --procs w "$tmp/p2.xml" N=100 P=2 w=1,2 >"$tmp/out" 2>&1 &&
	head -1 "$tmp/out" | grep -q "speedup  efficiency$"
ok $? "--procs names the processor count"

# A long sum whose closed form keeps the sum (a max of polynomials in the
# counter, symbolic where it crosses): summed by the plan's loop, to the
# value of the literal loop in Python fractions, in balls and exactly.
if command -v python3 >/dev/null 2>&1; then
	cat > "$tmp/long.xml" <<'EOF2'
<model name="long" version="1">
  <param name="N" min="1" integer="true"/>
  <param name="a" min="0"/>
  <param name="b" min="0"/>
  <graph name="main">
    <loop var="j" from="1" to="N">
      <step cost="max(3*j*a + 5*j^2*b + a*b + j*b, 7*j*a + 1)"/>
    </loop>
  </graph>
</model>
EOF2
	want=$(python3 -c "
from fractions import Fraction as F
a, b = F(1, 3), F(2, 7)
s = sum(max(3*j*a + 5*j*j*b + a*b + j*b, 7*j*a + 1) for j in range(1, 4001))
print(s)")
	for arith in ball exact; do
		"$SEGC" eval --csv --digits 40 --arith $arith "$tmp/long.xml" \
			N=4000 a=1/3 b=2/7 >"$tmp/out" 2>&1
		got=$(sed -n 2p "$tmp/out" | cut -d, -f4)
		python3 -c "
from fractions import Fraction as F
import sys
w, g = F(sys.argv[1]), F(sys.argv[2])
sys.exit(0 if abs(g - w) <= abs(w) * F(1, 10**38) else 1)" "$want" "$got"
		ok $? "a long sum left open by its closed form, --arith $arith: the literal loop's value"
	done
else
	skip "python3 is not available" 2
fi

done_testing
