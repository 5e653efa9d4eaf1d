#!/bin/sh
# eval_measured.sh - 'segc eval --measured DATA.csv': the rows of the file
# evaluated beside their measured times; the predicted values and the
# relative errors (predicted - measured)/measured against Python's exact
# fractions; the plot well-formed and deterministic; every refusal.
. "$top_srcdir/tests/cli/lib.sh"

# T = comp + comm with comp = N/P and comm = 5*P + 7/3: by hand, rational
# at every point, not a terminating decimal.
cat > "$tmp/m.xml" <<'XML'
<model name="scal" version="1">
  <param name="P" min="1" integer="true"/>
  <graph name="main">
    <step name="work" cost="N/P"/>
    <step name="talk" class="comm" cost="5*P + 7/3"/>
  </graph>
</model>
XML
cat > "$tmp/d.csv" <<'CSV'
# measured runs
P,N,time,comm
1,1000,1000,8
2,999,520.25,13.5
4,1000,0,24
8,1001,200.5,42.125
CSV

# The table as CSV to 12 digits, computed here with exact fractions and
# rounded once (the values are far from a tie).
python3 - "$tmp/d.csv" >"$tmp/want" <<'PY'
import sys
from fractions import Fraction as F
rows = [l.strip().split(',') for l in open(sys.argv[1])
        if l.strip() and not l.startswith('#')]
head, rows = rows[0], rows[1:]
def g(q):
    return '%.12g' % (q.numerator / q.denominator) if q.denominator != 1 \
        else str(q.numerator)
def r12(q):
    return '%.12g' % float(q)
print('P,N,comp,comm,io,total,speedup,efficiency,'
      'total_measured,total_relerr,comm_measured,comm_relerr')
for row in rows:
    P, N, t, c = (F(x) for x in row)
    comp, comm = N / P, 5 * P + F(7, 3)
    T = comp + comm
    T1 = N + 5 + F(7, 3)
    out = [row[0], row[1], r12(comp), r12(comm), '0', r12(T),
           r12(T1 / T), r12(T1 / T / P)]
    for m, p in ((t, T), (c, comm)):
        out.append(r12(m))
        out.append('-' if m == 0 else r12((p - m) / m))
    print(','.join(out))
PY
"$SEGC" eval --csv --digits 12 --measured "$tmp/d.csv" "$tmp/m.xml" \
	>"$tmp/got" 2>"$tmp/err"
ok $? "--measured: exit 0"
same_file "$tmp/want" "$tmp/got" "--measured: predictions and exact relative errors as Python's fractions"

# The relative error of row 2 by hand: T = 999/2 + 10 + 7/3 = 3071/6,
# (3071/6 - 2081/4)/(2081/4) = -101/6243 = -0.0161781194938...
grep -q '^2,999,.*,520.25,-0.0161781194938,' "$tmp/got"
ok $? "the relative error of a row by hand"
grep -q '^4,1000,.*,0,-,24,' "$tmp/got"
ok $? "a measured 0 gives '-', not a division by zero"

# Aligned output and --digits.
"$SEGC" eval --digits 3 --measured "$tmp/d.csv" "$tmp/m.xml" >"$tmp/got3"
head -1 "$tmp/got3" | grep -q 'total_measured  total_relerr  comm_measured  comm_relerr$' &&
	grep -q '^8  1001  .*  -0\.165  ' "$tmp/got3"
ok $? "--digits 3: the relative error -793/4812 = -0.16479... to 3 digits"

# The plot: measured markers over the predicted curve, the relative error
# below, against the one column that varies (P); well-formed, one marker
# per drawable point, the same bytes twice.
sed 's/^\([0-9]*\),[0-9]*,/\1,1000,/' "$tmp/d.csv" >"$tmp/d1.csv"
"$SEGC" eval --measured "$tmp/d1.csv" --svg "$tmp/a.svg" "$tmp/m.xml" \
	>/dev/null 2>&1 &&
	"$SEGC" eval --measured "$tmp/d1.csv" --svg "$tmp/b.svg" "$tmp/m.xml" \
	>/dev/null 2>&1
ok $? "--measured --svg: exit 0"
cmp -s "$tmp/a.svg" "$tmp/b.svg"
ok $? "the plot is the same bytes twice"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/a.svg"
	ok $? "the plot is well-formed XML"
else
	skip "the plot is well-formed XML" "no xmllint"
fi
# Top panel: 3 positive measured totals + 4 comm; bottom: 3 + 4 errors.
[ "$(grep -c 'class="marker"' "$tmp/a.svg")" -eq 14 ] &&
	[ "$(grep -c '<g transform="translate(0,' "$tmp/a.svg")" -eq 2 ] &&
	grep -q 'relative error' "$tmp/a.svg"
ok $? "two panels, 14 measured markers (the measured 0 left out)"

# Refusals: exit 2, nothing on standard output, the place named.
refuse() { # NAME PATTERN ARGS...
	name=$1 pat=$2
	shift 2
	"$SEGC" eval "$@" >"$tmp/out" 2>"$tmp/err"
	code=$?
	[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "$pat" "$tmp/err"
	ok $? "$name"
	[ "$code" -eq 2 ] || diag "exit $code" "$(cat "$tmp/err")"
}
printf 'P,N,time\n1,10,3\n2,1O,4\n' >"$tmp/bad.csv"
refuse "a cell that is not a number: FILE:LINE:COL" \
	"bad.csv:3:3: error: the cell of column 'N' is not a decimal number" \
	--measured "$tmp/bad.csv" "$tmp/m.xml"
refuse "a missing file" "nope.csv: error: cannot read the file" \
	--measured "$tmp/nope.csv" "$tmp/m.xml"
printf 'P,N\n1,2\n' >"$tmp/nt.csv"
refuse "no measured column" "nt.csv:1: error: no measured column" \
	--measured "$tmp/nt.csv" "$tmp/m.xml"
printf 'P,Nx,time\n1,2,3\n' >"$tmp/q.csv"
refuse "a column that is not a parameter, the nearest named" \
	"q.csv:1:3: error: the column 'Nx' is not a parameter of the model (did you mean 'N'?)" \
	--measured "$tmp/q.csv" "$tmp/m.xml"
printf 'P,time\n1,3\n' >"$tmp/p.csv"
refuse "a missing parameter column" "'N' has no value" \
	--measured "$tmp/p.csv" "$tmp/m.xml"
printf 'P,N,time\n1,2\n' >"$tmp/short.csv"
refuse "a short row" "short.csv:2: error: the row has 2 cells" \
	--measured "$tmp/short.csv" "$tmp/m.xml"
printf 'P,N,time,total\n1,2,3,4\n' >"$tmp/tt.csv"
refuse "time and total both" \
	"tt.csv:1:10: error: the column 'total' measures total a second time" \
	--measured "$tmp/tt.csv" "$tmp/m.xml"
printf 'P,N,time\n0,2,3\n' >"$tmp/dom.csv"
refuse "a value outside the declared domain, at its cell" \
	"dom.csv:2:1: error: the value of 'P' lies outside the domain" \
	--measured "$tmp/dom.csv" "$tmp/m.xml"
refuse "a column also bound by -D" "d.csv:2:3: error: the column 'N' is also bound by -D" \
	-D N=5 --measured "$tmp/d.csv" "$tmp/m.xml"
refuse "--measured with a grid" "no NAME=RANGE with it" \
	--measured "$tmp/d.csv" "$tmp/m.xml" P=1,2
printf 'P,N,time\n1,2,3\n' >"$tmp/one.csv"
refuse "--svg without a varying column" "--svg needs a parameter whose value varies" \
	--measured "$tmp/one.csv" --svg "$tmp/c.svg" "$tmp/m.xml"
[ ! -e "$tmp/c.svg" ]
ok $? "nothing written on refusal"
printf 'P,N,time\n1,2,3\n2,4,5\n' >"$tmp/two.csv"
refuse "--svg with two varying columns" "both 'P' and 'N' vary" \
	--measured "$tmp/two.csv" --svg "$tmp/c.svg" "$tmp/m.xml"

done_testing
