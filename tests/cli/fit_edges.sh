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

done_testing
