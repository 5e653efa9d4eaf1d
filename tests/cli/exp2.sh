#!/bin/sh
# exp2.sh - the built-in exp2(x) = 2^x (doc/format.md, 2.2), defined for
# every real x and exact where x is an integer: exact values against
# Python's fractions, eval in the double, ball and MPFR arithmetics
# against Python's decimal and math, derive's folding of a number, check's
# proof and witness, the LaTeX form, optimize against a search in
# fractions, the limit max_exponent, the refusal of sensitivity, and the
# predictors of emit (C, Python, Fortran) against decimal.
# Before exp2 was a built-in every call below was an uninterpreted call
# that eval refused.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

pa='<param name="a"/>'
pk='<param name="k" min="1"/>'

# ------------------------------------------------ exact at integer points
one 'exp2(a) + 3*exp2(k - 7)' "$pa" "$pk"
"$SEGC" eval --arith exact --json "$tmp/one.xml" a=-9,-1,0,1,5,62,63,200 \
	k=1,3,8,70 >"$tmp/exact.json" 2>&1
ok $? "exact eval of exp2(a) + 3*exp2(k - 7) at 32 integer points"
python3 - "$tmp/exact.json" >"$tmp/py.out" 2>&1 <<'EOF'
import json, sys
from fractions import Fraction as F
rows = json.load(open(sys.argv[1]))["rows"]
bad = 0
for r in rows:
    a, k = int(r["a"]), int(r["k"])
    want = F(2) ** a + 3 * F(2) ** (k - 7)
    if F(r["total"]) != want:
        bad += 1
        print("differs at", a, k, r["total"], want)
print(len(rows), "rows,", bad, "differ")
sys.exit(1 if bad or len(rows) != 32 else 0)
EOF
ok $? "exact values equal Python's fractions 2**a + 3*2**(k-7)"
diag "$(cat "$tmp/py.out")"

# ------------------------------ eval: doubles (6 digits), balls (30 digits)
one 'exp2(a)*k + exp2(a/3 - k)' "$pa" "$pk"
"$SEGC" eval --csv "$tmp/one.xml" a=-7.5,-1/4,0,0.1,1/2,3,10.25,700 \
	k=1,2,9 >"$tmp/d6.csv" 2>&1
ok $? "eval at 6 digits (the doubles path)"
"$SEGC" eval --digits 30 --csv "$tmp/one.xml" a=-7.5,-1/2,0,0.1,1/2,3,10.25 \
	k=1,2,9 >"$tmp/d30.csv" 2>&1
ok $? "eval at 30 digits (the ball path)"
"$SEGC" eval --digits 30 --arith exact --csv "$tmp/one.xml" a=-1/4,0.1,3 \
	k=1,9 >"$tmp/dx.csv" 2>&1
ok $? "eval at 30 digits, exact arithmetic (the MPFR walk where irrational)"
python3 - "$tmp/d6.csv" "$tmp/d30.csv" "$tmp/dx.csv" >"$tmp/py.out" 2>&1 <<'EOF'
import csv, math, sys
from decimal import Decimal, getcontext
from fractions import Fraction as F
getcontext().prec = 90
def num(s):
    return F(s)
def want_dec(a, k):
    a = Decimal(a.numerator) / Decimal(a.denominator)
    two = Decimal(2)
    return two ** a * k + two ** (a / 3 - k)
def want_float(a, k):
    a = float(a)
    return 2.0 ** a * k + 2.0 ** (a / 3 - k)
bad = n = 0
for path, digits in ((sys.argv[1], 6), (sys.argv[2], 30), (sys.argv[3], 30)):
    for r in csv.DictReader(open(path)):
        a, k = num(r["a"]), int(r["k"])
        got = Decimal(r["total"])
        n += 1
        if digits == 6:
            w = want_float(a, k)
            ok = abs(float(got) - w) <= abs(w) * 6e-6
        else:
            w = want_dec(a, k)
            ok = abs(got - w) <= abs(w) * Decimal("1e-29")
        if not ok:
            bad += 1
            print("differs:", path, r, "want", w)
print(n, "rows,", bad, "differ")
sys.exit(1 if bad or n != 24 + 21 + 6 else 0)
EOF
ok $? "eval agrees with Python (math at 6 digits, decimal at 30)"
diag "$(cat "$tmp/py.out")"

# ------------------------------------------------- derive and the algebra
one 'exp2(a) + exp2(k)^2' "$pa" "$pk"
got=$("$SEGC" derive -D a=-3 -D k=5 "$tmp/one.xml" 2>&1)
[ "$got" = "8193/8" ]
ok $? "derive folds exp2(-3) + exp2(5)^2 to 8193/8 (got $got)"
"$SEGC" check --expect 'exp2(k)*exp2(k) + exp2(a)' "$tmp/one.xml" \
	>"$tmp/out" 2>&1
ok $? "check proves exp2(k)^2 + exp2(a) = exp2(k)*exp2(k) + exp2(a)"
"$SEGC" check --expect 'exp2(k)^2 + exp2(a) + 1/4' "$tmp/one.xml" \
	>"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'MISMATCH' "$tmp/out" && grep -q 'witness' "$tmp/out"
ok $? "check finds a witness against a formula 1/4 off"

# ----------------------------------------------------------------- LaTeX
"$SEGC" latex "$tmp/one.xml" >"$tmp/tex" 2>&1
printf '%s\n' '2^{a} + \left(2^{k}\right)^{2}' >"$tmp/want"
same_file "$tmp/want" "$tmp/tex" "LaTeX of exp2(a) + exp2(k)^2"

# -------------------------------------------------------------- optimize
one 'exp2(k)/8 + 1000/k' "$pk"
"$SEGC" optimize --min total --over k=1..40 "$tmp/one.xml" >"$tmp/opt" 2>&1
ok $? "optimize exp2(k)/8 + 1000/k over k = 1..40"
python3 - "$tmp/opt" >"$tmp/py.out" 2>&1 <<'EOF'
import sys
from fractions import Fraction as F
vals = {k: F(2) ** k / 8 + F(1000, k) for k in range(1, 41)}
k = min(vals, key=vals.get)
lines = open(sys.argv[1]).read().split("\n")
print("want k =", k, "total =", vals[k], "got", lines[:2])
sys.exit(0 if lines[0] == "k = %d" % k and
         lines[1] == "total = %s" % vals[k] else 1)
EOF
ok $? "the optimum is Python's: the least of 40 exact values"
diag "$(cat "$tmp/py.out")"

# ------------------------------------------------------ limits, refusals
one 'exp2(a)' "$pa"
"$SEGC" eval "$tmp/one.xml" a=1000000 >"$tmp/out" 2>&1
[ $? -eq 3 ] && grep -q 'max_exponent' "$tmp/out"
ok $? "exp2 of an exponent beyond max_exponent: exit 3 naming it"
"$SEGC" eval --arith exact "$tmp/one.xml" a=-200000 >"$tmp/out" 2>&1
[ $? -eq 3 ] && grep -q 'max_exponent' "$tmp/out"
ok $? "the same below -max_exponent, exact arithmetic"
"$SEGC" sensitivity "$tmp/one.xml" a=1 >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q 'exp2 needs ln 2' "$tmp/out"
ok $? "sensitivity refuses the derivative of exp2 (ln 2 is irrational)"
# ------------------------------------------------ emit: C, Python, Fortran
# The predictors call C's exp2 (Fortran through bind(c), Python
# math.pow(2.0, x), numpy.exp2): their values at points against Python's
# decimal at 90 digits, at the double arguments they are given.
one 'exp2(a)*k + exp2(a/3 - k) + a' "$pa" "$pk"
(cd "$tmp" && "$SEGC" emit -q --keep a --keep k -o ex2 one.xml &&
	"$SEGC" emit -q --accurate --keep a --keep k -o exa one.xml &&
	"$SEGC" emit -q --lang python --keep a --keep k -o expy one.xml) \
	>"$tmp/out" 2>&1
ok $? "emit of exp2 of free names: C, C --accurate, Python"
cat >"$tmp/main2.c" <<'EOF'
#include <stdio.h>
#include "ex2.h"
#include "exa.h"
int main(void)
{
	double a, k;

	while (scanf("%lf %lf", &a, &k) == 2)
		printf("%.17g %.17g\n", ex2_total(1, 1, a, k),
			exa_total(1, 1, a, k));
	return 0;
}
EOF
printf '%s\n' -7.5 -0.25 0 0.1 0.5 3 10.25 60 -1000 600 >"$tmp/as"
for k in 1 2 9; do sed "s/\$/ $k/" "$tmp/as"; done >"$tmp/pts"
${CC:-cc} -std=c99 -Wall -Wextra -pedantic -Werror -O2 -I"$tmp" \
	-o "$tmp/ex2" "$tmp/main2.c" "$tmp/ex2.c" "$tmp/exa.c" -lm \
	>"$tmp/cc.out" 2>&1 && "$tmp/ex2" <"$tmp/pts" >"$tmp/c.out"
ok $? "the C predictors compile with -std=c99 -Wall -Wextra -pedantic -Werror"
diag "$(head -5 "$tmp/cc.out")"
FC=${FC_TEST:-gfortran}
: >"$tmp/f.out"
if command -v "$FC" >/dev/null 2>&1; then
	cat >"$tmp/drv.f90" <<'EOF'
program drv
  use, intrinsic :: iso_c_binding, only: c_double
  use exf, only: exf_total
  implicit none
  real(c_double) :: a, k
  integer :: st
  do
    read (*, *, iostat=st) a, k
    if (st /= 0) exit
    write (*, '(es26.17e3)') exf_total(1.0_c_double, 1.0_c_double, a, k)
  end do
end program drv
EOF
	(cd "$tmp" && "$SEGC" emit -q --lang fortran --keep a --keep k \
		-o exf one.xml && $FC -std=f2008 -Wall -Wextra -Werror -O2 \
		-ffp-contract=off -c exf.f90 &&
		$FC -O2 -o fdrv drv.f90 exf.o) >"$tmp/fc.out" 2>&1 &&
		"$tmp/fdrv" <"$tmp/pts" >"$tmp/f.out"
	ok $? "the Fortran predictor compiles with -std=f2008 -Wall -Wextra -Werror"
	diag "$(head -5 "$tmp/fc.out")"
else
	skip "the Fortran predictor compiles" "gfortran is not installed"
fi
python3 - "$tmp" >"$tmp/py.out" 2>&1 <<'EOF'
import math, sys
from decimal import Decimal, getcontext
from fractions import Fraction as F
sys.path.insert(0, sys.argv[1])
import expy
getcontext().prec = 90
def want(a, k):
    # the exact value at the doubles a, k (a / 3 not rounded)
    q = F(a)
    a = Decimal(q.numerator) / Decimal(q.denominator)
    two, k = Decimal(2), Decimal(k)
    return two ** a * k + two ** (a / 3 - k) + a
def close(got, w, rel):
    if w > Decimal("1.7976931348623157e308"):
        return math.isinf(got) and got > 0
    return abs(Decimal(got) - w) <= abs(w) * Decimal(rel)
d = sys.argv[1]
pts = [tuple(map(float, l.split())) for l in open(d + "/pts")]
c = [tuple(map(float, l.split())) for l in open(d + "/c.out")]
f = [float(l) for l in open(d + "/f.out")]
bad = n = 0
for i, (a, k) in enumerate(pts):
    w = want(a, k)
    # a / 3 is rounded before exp2: 2^-53 |a / 3| ln 2 relative in the
    # second term, besides a few roundings: 2^-44 covers |a| <= 1000
    got = [("C", c[i][0]), ("C accurate", c[i][1]),
           ("Python", expy.expy_total(1.0, 1.0, a, k))]
    if f:
        got.append(("Fortran", f[i]))
    for name, v in got:
        n += 1
        if not close(v, w, 2.0 ** -44):
            bad += 1
            print("differs:", name, a, k, repr(v), w)
    if f and f[i] != c[i][0]:
        bad += 1
        print("Fortran is not C's double:", a, k, f[i], c[i][0])
print(n, "values at", len(pts), "points,", bad, "wrong")
sys.exit(1 if bad or len(c) != len(pts) or len(pts) != 30 else 0)
EOF
ok $? "exp2 in C, C --accurate, Python and Fortran against decimal"
diag "$(tail -3 "$tmp/py.out")"
one 'exp2(a) + a' "$pa"
(cd "$tmp" && "$SEGC" emit -D a=3 -o ex one.xml) >"$tmp/out" 2>&1
ok $? "emit of exp2(3) + 3 (folded to 11)"
cat >"$tmp/main.c" <<'EOF'
#include <stdio.h>
#include "ex.h"
int main(void)
{
	printf("%.17g\n", ex_total(1, 1));
	return 0;
}
EOF
${CC:-cc} -std=c99 -I"$tmp" -o "$tmp/ex" "$tmp/main.c" "$tmp/ex.c" -lm \
	>"$tmp/cc.out" 2>&1 && [ "$("$tmp/ex")" = 11 ]
ok $? "the predictor compiles and returns 2^3 + 3 = 11"
"$SEGC" validate "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "validate accepts exp2"
one 'exp2(a, 2)' "$pa"
"$SEGC" derive "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -eq 2 ]
ok $? "exp2 of two arguments is refused"

done_testing
