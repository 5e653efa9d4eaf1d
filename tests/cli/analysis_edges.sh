#!/bin/sh
# analysis_edges.sh - the analysis commands at their edges: optimize's
# scan of exactly 10 000 integers (and not one more), solve over the
# integers of a formula that is not rational piece by piece (zeros and
# sign changes against Python's exact evaluation), and sensitivity of a
# name that acts only through a step function.
. "$top_srcdir/tests/cli/lib.sh"
bs=$top_srcdir/tests/cli/models/blocked_sweep.xml

# T(B) of blocked_sweep.xml, exactly (its comment gives the formula).
cat >"$tmp/T.py" <<'EOP'
from fractions import Fraction as F
def T(B, N=1000, tw=1, tc=5, tm=40):
    full = N // B
    return full * (B * tw + -(-B // 8) * tc + tm) + (N - B * full) * tw
EOP

# ------------------------------------------------ optimize: 10 000 integers
"$SEGC" optimize -q --min total --over B=1..10000 "$bs" t_work=1 t_chunk=5 \
	t_msg=40 N=1000 >"$tmp/out" 2>"$tmp/err"
st=$?
want=$(cd "$tmp" && python3 -c "
from T import T
print('B = %d' % min(range(1, 10001), key=lambda b: (T(b), b)))")
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ]
ok $? "optimize scans B=1..10000, exactly the limit of 10 000 integers ($want)"
[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
"$SEGC" optimize -q --min total --over B=1..10001 "$bs" t_work=1 t_chunk=5 \
	t_msg=40 N=1000 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "more than 10000 integers" "$tmp/err"
ok $? "optimize refuses B=1..10001, one more than the limit"

# --------------------------------------------------------- solve: a scan
for level in 1600 1700 1234; do
	"$SEGC" solve --for B --in 1..300 "total = $level" "$bs" t_work=1 \
		t_chunk=5 t_msg=40 N=1000 >"$tmp/out" 2>"$tmp/err"
	st=$?
	(cd "$tmp" && python3 - "$level" >"$tmp/want") <<'EOP'
import sys
from T import T
level = int(sys.argv[1])
out, prev = [], None
for b in range(1, 301):
    d = T(b) - level
    if d == 0:
        out.append('B = %d (exact)' % b)
    elif prev is not None and prev != 0 and (prev < 0) != (d < 0):
        out.append('B in %d..%d: the sides cross between these consecutive '
                   'integers (a root or a jump)' % (b - 1, b))
    prev = d
if not out:
    out.append('no root at the integers of 1..300, and no crossing between '
               'two of them')
out.append('not a rational function of B piece by piece: every integer of '
           '1..300 evaluated exactly')
print('\n'.join(out))
EOP
	[ $st -eq 0 ] && same_file "$tmp/want" "$tmp/out" "solve total = $level over B=1..300 by a scan: zeros and crossings as Python finds them"
	[ $st -eq 0 ] || { ok 1 "solve total = $level by a scan (exit $st)"; diag "$(cat "$tmp/err")"; }
done
"$SEGC" solve --for B --in 1..10001 "total = 1600" "$bs" t_work=1 \
	t_chunk=5 t_msg=40 N=1000 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "more than 10000 to evaluate" "$tmp/err"
ok $? "solve refuses a scan of 10 001 integers"

# ------------------------------------------ sensitivity of a step function
cat >"$tmp/st.xml" <<'EOX'
<?xml version="1.0"?>
<model name="st" version="1">
  <param name="P" min="1" integer="true"/>
  <param name="N" min="1"/>
  <param name="h" min="0"/>
  <resource name="tw"/>
  <resource name="tm"/>
  <graph name="main">
    <step name="w" cost="N*tw"/>
    <step name="m" class="comm" cost="ceil(log2(P))*tm + floor(h)*tm"/>
  </graph>
</model>
EOX
"$SEGC" sensitivity "$tmp/st.xml" N=100 tw=1 tm=10 P=5,8 h=2 \
	>"$tmp/out" 2>"$tmp/err"
ok $? "sensitivity of names that act only through ceil and floor"
# T = N*tw + (ceil(log2(P)) + floor(h))*tm; P moves to ceil(1.01*P) and
# floor(0.99*P) (it is an integer), h to h*1.01 and h*0.99.
python3 - >"$tmp/want" <<'EOP'
from fractions import Fraction as F
import math
def clog2(p):
    return (p - 1).bit_length() if p == int(p) else math.ceil(math.log2(p))
def T(P, h, N=100, tw=1, tm=10):
    return N * tw + (clog2(P) + math.floor(h)) * tm
def side(name, x, y, t0, t1):
    dx, dt = F(y - x) / x, F(t1 - t0) / t0
    return '     at %s=%s (relative change %+.6g): total changes by %+.6g ' \
        '(relative), arc elasticity %.6g' % (name, y, float(dx), float(dt),
                                             float(dt / dx))
for P in (5, 8):
    h = 2
    t0 = T(P, h)
    up, dn = -(-P * 101 // 100), P * 99 // 100
    print('P=%d' % P)
    print(side('P', P, up, t0, T(up, h)))
    print(side('P', P, dn, t0, T(dn, h)))
    hu, hd = F(h) * F(101, 100), F(h) * F(99, 100)
    print(side('h', h, hu, t0, T(P, hu)))
    print(side('h', h, hd, t0, T(P, hd)))
EOP
for P in 5 8; do
	sed -n "/^at .*P=$P,/,/^at /p" "$tmp/out" >"$tmp/block"
	grep -q "^  [0-9]\. P: elasticity 0, derivative 0 (a step function here" "$tmp/block" &&
	grep -q "^  [0-9]\. h: elasticity 0, derivative 0 (a step function here" "$tmp/block"
	ok $? "at P=$P: P and h are reported as step functions"
	sed -n "/^P=$P\$/,/^P=/p" "$tmp/want" | grep '^     at' >"$tmp/wlines"
	grep '^     at' "$tmp/block" | LC_ALL=C sort >"$tmp/glines"
	LC_ALL=C sort "$tmp/wlines" >"$tmp/wsorted"
	same_file "$tmp/wsorted" "$tmp/glines" "at P=$P: the one-sided effects of +/-1 %, exact against Python"
done
# At P=8, h=2, -1 % of h (to 1.98) drops floor(h) by one: a relative change
# of T of -10/160 for -1 %, arc elasticity 6.25, above N's 100/160.
sed -n '/^at .*P=8,/,$p' "$tmp/out" | grep '^  [0-9]\.' | head -1 | grep -q '^  1\. h: '
ok $? "at P=8, h (a step of floor) ranks first by its arc elasticity, not last"

done_testing
