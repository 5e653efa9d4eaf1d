#!/bin/sh
# bound_values.sh - numbers given with -D: one outside the domain the
# model declares (below its minimum, above its maximum, a fraction for an
# integer) is refused by every command, as eval refuses such a grid
# value, since a formula simplified on the domain need not hold there;
# inside it, ceil and floor of log2 of the number come out exact (the
# k with 2^k <= q < 2^(k+1), found here with Python's fractions).
. "$top_srcdir/tests/cli/lib.sh"
cat > "$tmp/m.xml" <<'XML'
<model name="m" version="1">
  <param name="Y" min="1" max="1000" integer="true"/>
  <param name="q" min="1/4"/>
  <graph name="main">
    <step name="s" cost="ceil(log2(Y)) + 100*floor(log2(q)) + 10000*ceil(log2(q))"/>
  </graph>
</model>
XML
for cmd in derive latex "eval" emit; do
	for bad in "Y=0:below its minimum" "Y=1001:above its maximum" \
		"Y=5/2:not an integer" "q=1/5:below its minimum"; do
		v=${bad%%:*}
		other="q=1"
		[ "${v%%=*}" = q ] && other="Y=1"
		(cd "$tmp" && "$SEGC" $cmd -D "$v" -D "$other" m.xml) > "$tmp/out" 2> "$tmp/err"
		st=$?
		grep -q "^segc: $cmd: -D $v is ${bad#*:}: the model declares ${v%%=*} in \[" "$tmp/err"
		ok $(( $? + (st != 2) )) "$cmd -D $v: refused with exit 2 and the domain"
	done
done
# ceil(log2(Y)) + 100 floor(log2(q)) + 10000 ceil(log2(q)).
expect() {
	python3 - "$1" "$2" <<'PY'
import sys
from fractions import Fraction as F
def fl(x):
    k = 0
    while F(2) ** (k + 1) <= x:
        k += 1
    while F(2) ** k > x:
        k -= 1
    return k
def ce(x):
    return fl(x) if F(2) ** fl(x) == x else fl(x) + 1
y, q = F(sys.argv[1]), F(sys.argv[2])
print(ce(y) + 100 * fl(q) + 10000 * ce(q))
PY
}
for case in "1 1" "3 1" "4 1" "5 3/8" "1000 5/2" "7 1/4" "2 1/3" "8 7" \
	"999 1000001/1000" "513 1024"; do
	set -- $case
	want=$(expect $1 $2)
	got=$("$SEGC" derive -D Y=$1 -D q=$2 "$tmp/m.xml" 2>&1)
	test "$got" = "$want"
	ok $? "Y=$1, q=$2: derive gives the number $want (got $got)"
done
done_testing
