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

done_testing
