#!/bin/sh
# fit_edges.sh - segc fit at the edges: coefficients that are integers of
# irrational arguments (ceil(log2(P)) at P not a power of two), a row whose
# exact value is too large (a fixed limit, exit 3), rows measured as 0
# under relative weights, a nonlinear fit held to the domains of the
# resources, and nonlinear fits that start without --start.
. "$top_srcdir/tests/cli/lib.sh"

# has FILE LINE NAME: passes when FILE has the line LINE.
has() {
	if grep -qxF -- "$2" "$1"; then ok 0 "$3"; else
		ok 1 "$3"; diag "want: $2" "$(head -20 "$1")"; fi
}

# ------------------------------------------ ceil(log2(P)) as a coefficient
cat >"$tmp/lg.xml" <<'EOX'
<?xml version="1.0"?>
<model name="lg" version="1">
  <param name="P" min="1" integer="true"/>
  <param name="N" min="1"/>
  <resource name="tw"/>
  <resource name="tm"/>
  <graph name="main">
    <step name="w" cost="N/P*tw"/>
    <step name="m" class="comm" cost="ceil(log2(P))*tm + floor(sqrt(P))*tm"/>
  </graph>
</model>
EOX
# Exact times with tw = 1/100 and tm = 3/10; ceil(log2(P)) is the bit
# length of P - 1, floor(sqrt(P)) Python's isqrt.
python3 - >"$tmp/lg.csv" <<'EOP'
from fractions import Fraction as F
from math import isqrt
print('P,N,time')
for P in (1, 2, 3, 4, 5, 6, 8, 10, 12):
    t = F(1200, P) * F(1, 100) + ((P - 1).bit_length() + isqrt(P)) * F(3, 10)
    assert (t * 10).denominator == 1
    print('%d,1200,%d.%d' % (P, t * 10 // 10, t * 10 % 10))
EOP
"$SEGC" fit --free tw --free tm "$tmp/lg.xml" "$tmp/lg.csv" >"$tmp/out" 2>"$tmp/err"
ok $? "fit with ceil(log2(P)) and floor(sqrt(P)) at P = 3, 5, 6, 10, 12"
[ -s "$tmp/err" ] && diag "$(head -3 "$tmp/err")"
has "$tmp/out" "tw = 0.01" "ceil(log2(P)): tw exactly 1/100"
has "$tmp/out" "tm = 0.3" "ceil(log2(P)): tm exactly 3/10"
# eval agrees at P = 5: 1200/5/100 + (3 + 2)*3/10 = 2.4 + 1.5.
"$SEGC" eval --csv "$tmp/lg.xml" P=5 N=1200 tw=1/100 tm=3/10 >"$tmp/out" 2>&1
grep -q "^5,1200,0.01,0.3,2.4,1.5,0,3.9," "$tmp/out"
ok $? "eval at P = 5 gives 39/10"

# ----------------------------------- a row too large to evaluate exactly
cat >"$tmp/big.xml" <<'EOX'
<?xml version="1.0"?>
<model name="big" version="1">
  <param name="N" min="1"/>
  <resource name="t"/>
  <graph name="main">
    <step name="s" cost="N^100*t"/>
  </graph>
</model>
EOX
printf 'N,time\n2,3\n1e100000,1\n' >"$tmp/big.csv"
"$SEGC" fit --free t -o "$tmp/fitted.xml" "$tmp/big.xml" "$tmp/big.csv" \
	>"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 3 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/fitted.xml" ] &&
	grep -q "^$tmp/big.csv:3: error: .*too large.*fixed limits of exact evaluation" "$tmp/err"
ok $? "N^100 at N = 1e100000: exit 3 naming the limit, at its row (got $st)"

# ------------------------------------- a fit held to the declared domains
lb=$top_srcdir/tests/cli/fit/latbw.xml
cat >"$tmp/lin.xml" <<'EOX'
<?xml version="1.0"?>
<model name="lin" version="1">
  <param name="bytes" min="0" integer="true"/>
  <resource name="lat"/>
  <resource name="gap"/>
  <graph name="main">
    <step name="start" class="comm"><use resource="lat"/></step>
    <step name="transfer" class="comm" cost="bytes*gap"/>
  </graph>
</model>
EOX
# Times whose least-squares line has a negative intercept: the latency of
# the unconstrained fit would be -6e-06.  Within lat >= 0 the best fit has
# lat = 0 and gap = sum(b*t)/sum(b^2) (1/bw for latbw).
printf 'bytes,time\n1000,0.000004\n2000,0.000016\n4000,0.000038\n8000,0.00008\n' \
	>"$tmp/neg.csv"
gap=$(python3 -c "
from fractions import Fraction as F
rows = [(1000, F('0.000004')), (2000, F('0.000016')), (4000, F('0.000038')),
        (8000, F('0.00008'))]
g = sum(b * t for b, t in rows) / sum(b * b for b, t in rows)
print('%.12g %.12g' % (g, 1 / g))")
for m in "$lb:bw:${gap#* }" "$tmp/lin.xml:gap:${gap% *}"; do
	model=${m%%:*} rest=${m#*:}
	name=${rest%%:*} want=${rest#*:}
	"$SEGC" fit -q --free lat,$name -o "$tmp/fm.xml" "$model" "$tmp/neg.csv" \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && grep -qx "lat = 0" "$tmp/out" &&
		grep -qx "$name = $want" "$tmp/out" &&
		grep -qx "# constrained: lat >= 0 holds at the solution (the declared domain; the sum of squares falls beyond it)" "$tmp/out"
	ok $? "${model##*/}: the fit stays in lat >= 0, says the bound holds, $name = $want (exit $st)"
	[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
	"$SEGC" validate "$tmp/fm.xml" && ! grep -q 'value="-' "$tmp/fm.xml"
	ok $? "${model##*/}: the machine written has no negative value"
done
grep -q "^# the exact linear least-squares solution lies outside the declared domains (lat = -3/500000)" "$tmp/out"
ok $? "a linear fit outside the domains says where the exact solution was"
"$SEGC" fit -q --free lat,bw "$lb" "$top_srcdir/tests/cli/fit/latbw.csv" \
	>"$tmp/out" 2>&1 && ! grep -q "constrained" "$tmp/out"
ok $? "no bound is reported where the solution lies inside the domains"

# ------------------------------------- relative weights and rows of 0
printf 'bytes,time\n0,0\n1000,0.00003\n2000,0.00004\n0,0\n' >"$tmp/z.csv"
for m in "$lb:bw:bw = 100000000" "$tmp/lin.xml:gap:gap = 0.00000001  (1e-08)"; do
	model=${m%%:*} rest=${m#*:}
	name=${rest%%:*} want=${rest#*:}
	"$SEGC" fit --weight relative --free lat,$name "$model" "$tmp/z.csv" \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && grep -qx "$want" "$tmp/out" &&
		grep -qx "# left out: 2 equations measured as 0, which have no relative error (--weight relative): lines 2, 5" "$tmp/out" &&
		[ "$(grep -c '^ *[0-9]*  total' "$tmp/out")" -eq 2 ]
	ok $? "${model##*/}, --weight relative: the rows measured as 0 left out, counted and named (exit $st)"
	[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
done

# ------------------------------------- starting values without --start
# lat + bytes/bw with lat = 1e-6 and bw = 1e11: eleven orders of magnitude
# apart; the reciprocal 1/bw makes the formula linear, and its exact
# least-squares fit is the start (here the solution itself).
printf 'bytes,time\n0,0.000001\n1000000,0.000011\n10000000,0.000101\n100000000,0.001001\n1000000000,0.010001\n' \
	>"$tmp/bw.csv"
"$SEGC" fit -q --free lat,bw "$lb" "$tmp/bw.csv" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && grep -qx "lat = 1e-06" "$tmp/out" &&
	grep -qx "bw = 100000000000" "$tmp/out" &&
	grep -qx "# started from the exact least-squares fit of the formula made linear in 1/bw" "$tmp/out"
ok $? "lat and bw eleven orders apart fitted without --start (exit $st)"
[ $st -eq 0 ] || diag "$(cat "$tmp/err" "$tmp/out")"
printf 'N,time\n1,0.75\n2,1\n4,1.5\n8,2.5\n' >"$tmp/inv.csv"
"$SEGC" fit -q --free rate,t0 "$top_srcdir/tests/cli/fit/inverse.xml" \
	"$tmp/inv.csv" >"$tmp/out" 2>&1 && grep -qx "rate = 4" "$tmp/out" &&
	grep -qx "t0 = 0.5" "$tmp/out"
ok $? "N/rate + t0 fitted exactly from its linearised start"

done_testing
