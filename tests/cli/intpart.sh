#!/bin/sh
# intpart.sh - floor and ceil of irrational values have their exact
# numbers: derive with every name bound prints floor(c*sqrt(y) + d),
# ceil(c*sqrt(y) + d), floor(c*log2(x) + d) and ceil(c*log2(x) + d) at
# rational points, and sum(i, 1, N, floor(sqrt(i))) added up.  The oracle
# here finds each integer part by comparisons of exact fractions (k is
# the floor of v when k <= v < k + 1; k - d <= c*sqrt(y) by squares,
# 2^(p/q) <= x by 2^p <= x^q), never by the integer roots segc uses.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

cat >"$tmp/ip.xml" <<'EOM'
<model name="ip" version="1">
  <param name="c"/> <param name="y" min="0"/> <param name="d"/>
  <param name="x" min="1/1000000"/>
  <graph name="main">
    <step name="a" cost="floor(c*sqrt(y) + d)"/>
    <step name="b" cost="1000*ceil(c*sqrt(y) + d)"/>
    <step name="e" cost="10^6*floor(c*log2(x) + d)"/>
    <step name="f" cost="10^9*ceil(c*log2(x) + d)"/>
  </graph>
</model>
EOM

# oracle C Y D X: the total of ip.xml.
oracle() {
	python3 - "$@" <<'PY'
import sys, math
from fractions import Fraction as F
c, y, d, x = (F(a) for a in sys.argv[1:])

def le_sqrt(r):             # r <= c*sqrt(y)
    if c >= 0:
        return r <= 0 or r * r <= c * c * y
    return r <= 0 and r * r >= c * c * y

def le_log(r):              # r <= c*log2(x)
    if c == 0:
        return r <= 0
    t = r / c               # r <= c*L  <=>  t <= L (c > 0), t >= L (c < 0)
    p, q = t.numerator, t.denominator
    two = F(2) ** p
    xq = x ** q
    return two <= xq if c > 0 else two >= xq

def floor_of(le, guess):    # the largest k with k - d <= the value
    k = math.floor(guess) + 2
    while not le(k - d):
        k -= 1
    while le(k + 1 - d):
        k += 1
    return k

def eq_sqrt(r):             # r == c*sqrt(y)
    if c == 0 or y == 0:
        return r == 0
    return (r > 0) == (c > 0) and r * r == c * c * y

def eq_log(r):              # r == c*log2(x)
    if c == 0:
        return r == 0
    t = r / c
    return F(2) ** t.numerator == x ** t.denominator

sq = float(c) * math.sqrt(float(y)) + float(d)
lg = float(c) * math.log2(float(x)) + float(d)
a = floor_of(le_sqrt, sq)
b = a if eq_sqrt(a - d) else a + 1
e = floor_of(le_log, lg)
f = e if eq_log(e - d) else e + 1
print(a + 1000 * b + 10**6 * e + 10**9 * f)
PY
}

for pt in "1 2 0 3" "-3/7 8 5/3 1/3" "2/3 9/4 1/2 1024" "7 10^20+1 -1/9 10^30+7" \
	"5 1/3 -2 3/1024" "-1 49 0 1/8" "13/11 1000003 7/5 999999" \
	"0 5 -5/2 7" "1/1000 2 1/1000 2/3" "-22/7 10^12-1 1/3 5/4"; do
	set -- $pt
	# shell arithmetic for the large points
	yy=$(python3 -c "print($2)")
	xx=$(python3 -c "print($4)")
	got=$("$SEGC" derive -D c=$1 -D y=$yy -D d=$3 -D x=$xx "$tmp/ip.xml" \
		2>"$tmp/err")
	want=$(oracle "$1" "$yy" "$3" "$xx")
	[ "$got" = "$want" ]
	ok $? "c=$1 y=$2 d=$3 x=$4: $want (got $got)"
done

# random points
i=0
python3 - <<'PY' >"$tmp/points"
import random
from fractions import Fraction as F
random.seed(7)
for _ in range(25):
    c = F(random.randint(-40, 40), random.randint(1, 9))
    y = F(random.randint(0, 10**6), random.randint(1, 50))
    d = F(random.randint(-50, 50), random.randint(1, 12))
    x = F(random.randint(1, 10**5), random.randint(1, 300))
    print(c, y, d, x)
PY
while read -r c y d x; do
	i=$((i + 1))
	got=$("$SEGC" derive -D c=$c -D y=$y -D d=$d -D x=$x "$tmp/ip.xml" \
		2>"$tmp/err")
	want=$(oracle "$c" "$y" "$d" "$x")
	[ "$got" = "$want" ]
	ok $? "random point $i (c=$c y=$y d=$d x=$x): $want (got $got)"
done <"$tmp/points"

# the sum of the integer parts of square roots, added up
cat >"$tmp/fs.xml" <<'EOM'
<model name="fs" version="1">
  <param name="N" min="1" integer="true"/>
  <graph name="main"><step name="s" cost="sum(i, 1, N, floor(sqrt(i)))"/></graph>
</model>
EOM
for n in 1 3 4 10 1000 5000; do
	got=$("$SEGC" derive -D N=$n "$tmp/fs.xml" 2>"$tmp/err")
	want=$(python3 -c "
k = 0
t = 0
for i in range(1, $n + 1):
    while (k + 1) * (k + 1) <= i:
        k += 1
    t += k
print(t)")
	[ "$got" = "$want" ]
	ok $? "sum(i, 1, $n, floor(sqrt(i))) = $want (got $(echo "$got" | cut -c1-40))"
done
done_testing
