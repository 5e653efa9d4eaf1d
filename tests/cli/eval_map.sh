#!/bin/sh
# eval_map.sh - 'segc eval --map X Y': the total over the grid of two
# names as a matrix (rows Y, columns X) against Python's exact fractions,
# and the forecast map: well-formed SVG, one shaded cell per point, a
# colour bar labelled by decades, the same bytes twice; the refusals.
. "$top_srcdir/tests/cli/lib.sh"

# T(N, P) = N/P + 5*P + 7/3.
cat > "$tmp/m.xml" <<'XML'
<model name="scal" version="1">
  <param name="P" min="1" integer="true"/>
  <graph name="main">
    <step name="work" cost="N/P"/>
    <step name="talk" class="comm" cost="5*P + 7/3"/>
  </graph>
</model>
XML

python3 >"$tmp/want" <<'PY'
from fractions import Fraction as F
Ns = [10, 100, 1000, 10000, 100000]
print(','.join(['P\\N'] + [str(n) for n in Ns]))
for P in range(1, 7):
    print(','.join([str(P)] + ['%.10g' % float(F(n, P) + 5 * P + F(7, 3))
                               for n in Ns]))
PY
"$SEGC" eval --csv --digits 10 --map N P "$tmp/m.xml" N=10..100000*10 \
	P=1..6 >"$tmp/got" 2>"$tmp/err"
same_file "$tmp/want" "$tmp/got" "--map: the matrix of totals, rows P, columns N"

"$SEGC" eval --map N P --svg "$tmp/a.svg" "$tmp/m.xml" N=10..100000*10 \
	P=1..6 >"$tmp/out" 2>"$tmp/err" &&
	"$SEGC" eval --map N P --svg "$tmp/b.svg" "$tmp/m.xml" N=10..100000*10 \
	P=1..6 >/dev/null 2>&1
ok $? "--map --svg: exit 0"
cmp -s "$tmp/a.svg" "$tmp/b.svg"
ok $? "the map is the same bytes twice"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/a.svg"
	ok $? "the map is well-formed XML"
else
	skip "the map is well-formed XML" "no xmllint"
fi
[ "$(grep -c 'class="cell"' "$tmp/a.svg")" -eq 30 ]
ok $? "30 shaded cells for 5 x 6 points"
[ "$(grep -c 'class="bar"' "$tmp/a.svg")" -eq 48 ]
ok $? "a colour bar of 48 bands"
# The totals span 18.33... (N=10, P=1) to 100007.33... : decades 10^1 to
# 10^6, six labels on the bar.
[ "$(grep -c 'text-anchor="start">10<tspan' "$tmp/a.svg")" -eq 6 ] &&
	grep -q 'font-size="10">1</tspan>' "$tmp/a.svg" &&
	grep -q 'font-size="10">6</tspan>' "$tmp/a.svg"
ok $? "the legend labels the decades 10^1 to 10^6"
grep -q '>N</text>' "$tmp/a.svg" && grep -q '>P</text>' "$tmp/a.svg" &&
	grep -q '>1e5</text>' "$tmp/a.svg"
ok $? "axis labels and ticks, 100000 written exactly as 1e5"
# Every coordinate with two decimals.
! grep -o ' [xy][12]\{0,1\}="[^"]*"' "$tmp/a.svg" | grep -v '="-\{0,1\}[0-9]*\.[0-9][0-9]"' | grep -q .
ok $? "coordinates printed with fixed precision"

refuse() { # NAME PATTERN ARGS...
	name=$1 pat=$2
	shift 2
	"$SEGC" eval "$@" >"$tmp/out" 2>"$tmp/err"
	code=$?
	[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "$pat" "$tmp/err"
	ok $? "$name"
	[ "$code" -eq 2 ] || diag "exit $code" "$(cat "$tmp/err")"
}
refuse "--map with a name not swept" "'Q' is not a swept name: give Q=RANGE" \
	--map N Q "$tmp/m.xml" N=1,2 P=1,2
refuse "--map without Y's range" "'P' is not a swept name: give P=RANGE" \
	--map N P -D P=2 "$tmp/m.xml" N=1,2
refuse "--map with the same name twice" "the two names must differ" \
	--map N N "$tmp/m.xml" N=1,2 P=1,2
refuse "--map with one name" "--map needs two names" \
	"$tmp/m.xml" N=1,2 P=1,2 --map N
sed 's|<graph|<param name="w"/><graph|' "$tmp/m.xml" >"$tmp/w.xml"
refuse "--map with a third swept name" "give w one value" \
	--map N P "$tmp/w.xml" N=1,2 P=1,2 w=1,2
refuse "--map with --measured" "do not go together" \
	--map N P --measured "$tmp/d.csv" "$tmp/m.xml"

done_testing
