#!/bin/sh
# long_ranges.sh - ranges and distances whose size is in their digits end
# quickly: optimize over P=1..10^100000 stops at the limit on pieces
# (exit 3) or refuses (exit 2) within seconds, the optimum over a range of
# 3000 digits is the one a direct search finds, and check and eval of a
# 12-node overlapped loop with forward edges of distance 10^5 agree with
# its time stamps computed in Python.  Each run under a timeout of 60 s,
# so a hang fails rather than stalls the suite.
. "$top_srcdir/tests/cli/lib.sh"

cat > "$tmp/lg.xml" <<'XML'
<?xml version="1.0"?>
<model name="lg" version="1">
  <param name="N"/>
  <param name="P" integer="true" min="1"/>
  <resource name="t"/>
  <graph name="main">
    <step name="a" cost="N/P*t + ceil(log2(P))*t"/>
  </graph>
</model>
XML

timeout 60 "$SEGC" optimize --min total --over "P=1..10^100000" \
	"$tmp/lg.xml" N=1000 t=1 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && [ ! -s "$tmp/out" ] &&
	grep -q "more than 20000 pieces" "$tmp/err"
ok $? "optimize over P=1..10^100000: exit 3 at the limit on pieces (got $rc)"

# N/P + ceil(log2(P)) at N = 1000: beyond P = 4096 it is above 12, so a
# direct search of 1..4096 in exact fractions finds the optimum.
want=$(python3 -c '
from fractions import Fraction as F
best = min((F(1000, p) + (p - 1).bit_length(), p) for p in range(1, 4097))
print("P = %d total = %s" % (best[1], best[0]))')
timeout 60 "$SEGC" optimize --min total --over "P=1..10^3000" "$tmp/lg.xml" \
	N=1000 t=1 >"$tmp/out" 2>"$tmp/err"
ok $? "optimize over P=1..10^3000 succeeds"
got=$(sed -n '1p' "$tmp/out")" "$(sed -n '2p' "$tmp/out" | cut -d' ' -f1-3)
[ "$got" = "$want" ]
ok $? "optimize over P=1..10^3000: $want (got $got)"

# The blocked LU model over B=1..10^100000: refused at once (its formula
# is no rational function of B, and the range too long to scan).
M=$top_srcdir/xml/machines/parsytec_gc.xml
timeout 60 "$SEGC" optimize -m "$M" --min total --over "B=1..10^100000" \
	"$top_srcdir/xml/lu_blocked.xml" N=1408 X=1 Y=1 >"$tmp/out" \
	2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "more than 10000 integers" "$tmp/err"
ok $? "optimize of lu_blocked over B=1..10^100000: exit 2 (got $rc)"

# Twelve nodes in an overlapped loop, forward edges of distance 100000
# and 99999.
python3 - "$tmp/fwd.xml" <<'PY'
import sys
l = ['<model name="fwd" version="1">',
     '  <param name="n" min="0" integer="true"/>', '  <graph name="main">']
for i in range(12):
    x = ' split="and"' if i == 0 else ' join="and"' if i == 11 else ''
    l.append('    <node id="v%d" cost="%d"%s/>' % (i, i + 1, x))
for i in range(11):
    l.append('    <arc from="v%d" to="v%d"/>' % (i, i + 1))
l.append('    <arc from="v11" to="v0" forward="100000"/>')
l.append('    <arc from="v5" to="v3" forward="99999"/>')
l.append('    <arc from="v11" to="v0" loop="n" overlap="true"/>')
l += ['  </graph>', '</model>']
open(sys.argv[1], 'w').write('\n'.join(l) + '\n')
PY
want=$(python3 - <<'PY'
# the time stamps of the unrolled iterations
def total(n):
    fin, best = [], 0
    for k in range(n):
        f = [0] * 12
        for i in range(12):
            s = f[i - 1] if i else 0
            if i == 0 and k >= 100000:
                s = max(s, fin[k - 100000][11])
            if i == 3 and k >= 99999:
                s = max(s, fin[k - 99999][5])
            f[i] = s + i + 1
        fin.append(f)
        best = max(best, f[11])
    return best
print(" ".join("%d:%d" % (n, total(n)) for n in (1, 99999, 100000, 100001)))
PY
)
timeout 60 "$SEGC" eval --csv "$tmp/fwd.xml" n=1,99999,100000,100001 \
	>"$tmp/out" 2>"$tmp/err"
ok $? "eval of the distance-10^5 loop succeeds"
got=$(awk -F, 'NR > 1 { printf "%s%s:%s", (NR > 2 ? " " : ""), $1, $NF }' \
	"$tmp/out")
[ "$got" = "$want" ]
ok $? "eval of the distance-10^5 loop: the time stamps ($want, got $got)"
timeout 60 "$SEGC" check --expect "78*n" "$tmp/fwd.xml" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^MISMATCH' "$tmp/out"
ok $? "check of the distance-10^5 loop against 78*n: MISMATCH (got $rc)"
timeout 60 "$SEGC" check --expect "78" -D n=99999 "$tmp/fwd.xml" \
	>"$tmp/out" 2>&1
ok $? "check of the distance-10^5 loop at n=99999 against 78: ok"
[ $? -eq 0 ] || diag "$(head -5 "$tmp/out")"

done_testing
