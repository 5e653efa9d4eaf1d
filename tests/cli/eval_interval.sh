#!/bin/sh
# eval_interval.sh - parameters with uncertainty in 'segc eval':
# NAME=[LO,HI] and -D NAME=[LO,HI].  Hand-worked enclosures (their ends
# rounded outward by at most a unit of the last digit printed), the
# dependency problem narrowed by splitting, the speedup of a total
# proportional to t_flop, the syntax and its errors (exit 2 with the
# message); then on every bundled model, the enclosure against exact
# values at random points inside the box (eval_interval.py).
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"
T=$top_srcdir/xml/examples/triangular.xml
V=$top_srcdir/xml/mva.xml
R=$top_srcdir/tests/cli/models/readable_stencil.xml

# ends LO HI FILE [TOL]: the total column of the one row of FILE (CSV) is
# an interval [lo, hi] with lo <= LO, hi >= HI, each within TOL (a
# fraction of the largest end; 2e-5 by default: a unit of the sixth
# digit).
ends() {
	python3 - "$1" "$2" "$3" "${4:-2/100000}" <<'PY'
import csv, sys
from fractions import Fraction as F
rows = list(csv.reader(open(sys.argv[3])))
lo, hi = rows[1][rows[0].index("total")].strip("[]").split(",")
lo, hi = F(lo), F(hi)
want_lo, want_hi = F(sys.argv[1]), F(sys.argv[2])
eps = F(sys.argv[4]) * max(abs(want_lo), abs(want_hi))
ok = lo <= want_lo and hi >= want_hi and want_lo - lo <= eps and hi - want_hi <= eps
print("[%s, %s]" % (lo, hi))
sys.exit(0 if ok else 1)
PY
}

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi

# triangular: total = N^3 t_op/2 + N^2 t_op + N t_op/2 + N t_row; at
# N = 2, t_row = 0 it is 9 t_op: [9, 18] over t_op in [1, 2].
"$SEGC" eval --csv "$T" N=2 't_op=[1,2]' t_row=0 >"$tmp/a" 2>"$tmp/e"
ok $? "interval operand: exit 0"
got=$(ends 9 18 "$tmp/a")
ok $? "9 t_op over [1, 2] is enclosed by $got"
"$SEGC" eval --csv -D 't_op=[1,2]' "$T" N=2 t_row=0 >"$tmp/b" 2>&1
[ "$(ends 9 18 "$tmp/b")" = "$got" ]
ok $? "-D t_op=[1,2] gives what t_op=[1,2] gives"
"$SEGC" eval --csv -Dt_op=[1,2] "$T" N=2 t_row=0 >"$tmp/b" 2>&1
[ "$(ends 9 18 "$tmp/b")" = "$got" ]
ok $? "-Dt_op=[1,2] too"
grep -q '^2,"\[1, 2\]",0,"\[' "$tmp/a"
ok $? "--csv: the interval cells quoted, [lo, hi]"

# Decimal ends stay exact: t_op in [9e-10, 1.1e-9] at N = 2, t_row = 0
# gives 9 t_op in [8.1e-9, 9.9e-9].
"$SEGC" eval --csv "$T" N=2 't_op=[9e-10,1.1e-9]' t_row=0 >"$tmp/a" 2>&1
got=$(ends 81/10000000000 99/10000000000 "$tmp/a")
ok $? "decimal ends: 9 t_op over [9e-10, 1.1e-9] in $got"
"$SEGC" eval "$T" N=2 't_op=[9e-10,1.1e-9]' t_row=0 >"$tmp/a" 2>&1
grep -q '\[9/10000000000, 11/10000000000\]' "$tmp/a"
ok $? "the text table shows the interval exactly"

# The dependency problem: mva_mem(2, a, b) = (a^2 + 4ab + 6b^2)/(a^2 +
# 2ab + 2b^2) at b = 1 decreases from 11/5 at a = 1 to 9/5 at a = 2; one
# interval evaluation gives [0.9, 4.4] or so, splitting [1.8, 2.2] to
# within a thousandth of its width at either end.
"$SEGC" eval --csv --digits 10 "$V" 'a=[1,2]' b=1 >"$tmp/a" 2>&1
got=$(ends 9/5 11/5 "$tmp/a" 1/2000)
ok $? "a rational function of a over [1, 2] (range [1.8, 2.2]) in $got"

# A total proportional to t_flop: the speedup T(1)/T(4) is 4 whatever
# t_flop is; the enclosure of the ratio (t_flop in both) is within 1%.
"$SEGC" eval --csv "$R" K=1 N=10 t_word=0 t_lat=0 t_sync=0 \
	't_flop=[1,2]' P=1,4 >"$tmp/a" 2>&1
ok $? "speedup over an interval: exit 0"
python3 - "$tmp/a" <<'PY'
import csv, sys
from fractions import Fraction as F
rows = list(csv.reader(open(sys.argv[1])))
s = rows[2][rows[0].index("speedup")].strip("[]").split(",")
lo, hi = F(s[0]), F(s[1])
sys.exit(0 if lo <= 4 <= hi and hi - lo < F(8, 100) else 1)
PY
ok $? "the speedup at P = 4 holds 4, within 1%: $(sed -n 3p "$tmp/a")"

# Errors: exit 2 and the message.
for bad in '[1,2' '[1,,2]' '[1,2,3]' '[]' '[x,2]' '[1;2]'; do
	"$SEGC" eval "$T" N=2 "t_op=$bad" t_row=0 >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc -eq 2 ] && grep -q "bad interval in 't_op=" "$tmp/e" && \
		[ ! -s "$tmp/o" ]
	ok $? "t_op=$bad: exit 2 ($rc), $(head -1 "$tmp/e")"
done
"$SEGC" eval "$T" N=2 't_op=[2,1]' t_row=0 >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "lower end exceeds its upper end" "$tmp/e"
ok $? "t_op=[2,1]: exit 2, $(head -1 "$tmp/e")"
"$SEGC" eval "$T" N=2 -D 't_op=[2,1]' t_row=0 >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "lower end exceeds its upper end" "$tmp/e"
ok $? "-D t_op=[2,1]: exit 2"
"$SEGC" eval "$T" 'N=[2,3]' t_op=1 t_row=0 >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "the number of terms of the sum" "$tmp/e" && \
	[ ! -s "$tmp/o" ]
ok $? "a loop count over an interval: exit 2, $(head -1 "$tmp/e")"
"$SEGC" eval "$top_srcdir/xml/examples/retry.xml" 'p=[1/2,2]' t_backoff=1 \
	t_close=1 >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "p=2 is above its maximum" "$tmp/e"
ok $? "an interval leaving the declared domain: exit 2"

python3 "$top_srcdir/tests/cli/eval_interval.py" >"$tmp/prop" 2>&1
rc=$?
while IFS= read -r l; do
	case $l in
	"ok "*) ok 0 "${l#ok * - }" ;;
	"not ok "*) ok 1 "${l#not ok * - }" ;;
	"1.."*) ;;
	*) diag "$l" ;;
	esac
done <"$tmp/prop"
[ $rc -eq 0 ]
ok $? "every bundled model: the enclosure holds the exact values"

done_testing
