#!/bin/sh
# eval_edges.sh - eval at the edges of its grids: weak scaling whose bound
# total does not depend on P (efficiency 1), a P sweep whose declared
# domain leaves out P = 1 (no speedup columns, a note), and --map of one
# component (--component).
. "$top_srcdir/tests/cli/lib.sh"

# ------------------------------------------------ perfect weak scaling
cat >"$tmp/ws.xml" <<'EOX'
<?xml version="1.0"?>
<model name="ws" version="1">
  <param name="P" min="1" integer="true"/>
  <param name="N" min="1"/>
  <resource name="t"/>
  <graph name="main">
    <step name="s" cost="N/P*t"/>
    <step name="r" class="comm" cost="N/100*t"/>
  </graph>
</model>
EOX
# N = 100*P: T(P) = 100*t + P*t; with the comm step removed T = 100*t for
# every P.  Weak speedup P*T(1)/T(P), efficiency T(1)/T(P).
sed '/class="comm"/d' "$tmp/ws.xml" >"$tmp/flat.xml"
"$SEGC" eval --csv --scaling weak -D N=100*P "$tmp/flat.xml" P=1..4 t=3 \
	>"$tmp/out" 2>"$tmp/err"
ok $? "weak scaling whose bound total does not depend on P is evaluated"
python3 - "$tmp/out" >"$tmp/check" <<'EOP'
import csv, sys
from fractions import Fraction as F
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) == 4
for r in rows:
    P = int(r['P'])
    T = F(100 * P, P) * 3
    ok = ok and F(r['total']) == T and F(r['speedup']) == P \
        and F(r['efficiency']) == 1
print('ok' if ok else 'bad %r' % rows)
EOP
[ "$(cat "$tmp/check")" = ok ]
ok $? "perfect weak scaling: speedup P, efficiency 1 (T = 300 at every P)"
[ "$(cat "$tmp/check")" = ok ] || diag "$(cat "$tmp/check" "$tmp/err")"
"$SEGC" eval --csv --scaling weak -D N=100*P "$tmp/ws.xml" P=1..4 t=3 \
	>"$tmp/out" 2>"$tmp/err"
python3 - "$tmp/out" >"$tmp/check" <<'EOP'
import csv, sys
from fractions import Fraction as F
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) == 4
for r in rows:
    P = int(r['P'])
    T = lambda p: (F(100) + p) * 3
    s, e = P * T(1) / T(P), T(1) / T(P)
    ok = ok and abs(F(r['speedup']) - s) < F(1, 10**4) * s \
        and abs(F(r['efficiency']) - e) < F(1, 10**4) * e
print('ok' if ok else 'bad %r' % rows)
EOP
[ "$(cat "$tmp/check")" = ok ]
ok $? "weak scaling with T(P) = 3*(100 + P): speedup and efficiency to 6 digits"

# ------------------------------------------ P's domain leaves out P = 1
cat >"$tmp/p2.xml" <<'EOX'
<model name="p2" version="1">
  <param name="P" min="2" integer="true"/>
  <param name="w"/>
  <graph name="main"><step cost="N/P + w"/></graph>
</model>
EOX
"$SEGC" eval --csv "$tmp/p2.xml" N=100 P=2,4,5 w=1 >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && [ "$(head -1 "$tmp/out")" = "N,P,w,comp,comm,io,total" ] &&
	[ "$(sed -n 4p "$tmp/out")" = "100,5,1,21,0,0,21" ] &&
	grep -q "^segc: eval: note: no speedup and efficiency columns: T(P=1) is undefined, P=1 being outside the domain the model declares for P$" "$tmp/err"
ok $? "a P sweep from P = 2 (domain min 2): the table without speedup, a note (exit $st)"
"$SEGC" eval -q --csv "$tmp/p2.xml" N=100 P=2,4 w=1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "-q: no note"

# ----------------------------------------------- --map --component NAME
cat >"$tmp/mp.xml" <<'EOX'
<?xml version="1.0"?>
<model name="mp" version="1">
  <param name="P" min="1" integer="true"/>
  <param name="N" min="1"/>
  <graph name="main">
    <step name="w" cost="N/P"/>
    <step name="m" class="comm" cost="2*P"/>
    <step name="d" class="io" cost="N/10"/>
  </graph>
</model>
EOX
for c in total comp comm io; do
	"$SEGC" eval --csv --map N P --component $c "$tmp/mp.xml" N=10,100 \
		P=1..3 >"$tmp/out" 2>"$tmp/err"
	st=$?
	python3 - "$c" >"$tmp/want" <<'EOP'
import sys
from fractions import Fraction as F
c = sys.argv[1]
f = {'comp': lambda N, P: F(N, P), 'comm': lambda N, P: 2 * P,
     'io': lambda N, P: F(N, 10)}
f['total'] = lambda N, P: sum(g(N, P) for k, g in f.items() if k != 'total')
def fmt(q):
    s = '%.6g' % float(q)
    return s
print('P\\N,10,100')
for P in (1, 2, 3):
    print(','.join([str(P)] + [fmt(f[c](N, P)) for N in (10, 100)]))
EOP
	[ $st -eq 0 ] && same_file "$tmp/want" "$tmp/out" "--map N P --component $c: the matrix of $c"
	[ $st -eq 0 ] || ok 1 "--map N P --component $c (exit $st)"
done
"$SEGC" eval --map N P --component comm --svg "$tmp/m.svg" "$tmp/mp.xml" \
	N=10,100 P=1..3 >"$tmp/out" 2>"$tmp/err" &&
	grep -q "mp: comm time" "$tmp/m.svg"
ok $? "--map --component comm --svg: the map is titled with the component"
"$SEGC" eval --component comm "$tmp/mp.xml" N=10 P=1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "--component chooses the component of --map" "$tmp/err"
ok $? "--component without --map: usage error"
"$SEGC" eval --map N P --component wall "$tmp/mp.xml" N=10 P=1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown component 'wall'" "$tmp/err"
ok $? "--component wall: usage error"

done_testing
