#!/bin/sh
# ratexp.sh - rational exponents x^(p/q): check proves the equal forms
# and finds a witness of a difference; derive gives exact numbers where
# the value is rational; eval, the emitted C and the emitted Python agree
# with an independent computation (Python's fractions and decimal at 80
# digits, roots by Newton's method on y^q = x); LaTeX compiles; bad
# exponents give FILE:LINE:COL errors (exit 2) or name max_exponent
# (exit 3).  The model is tests/cli/models/extrap_shapes.xml, Extra-P's
# shapes c*x^(p/q)*log2(x)^j.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

model=$top_srcdir/tests/cli/models/extrap_shapes.xml

# ------------------------------------------------ check: proofs, witness
one 'N*sqrt(N)'
"$SEGC" check --expect 'N^(3/2)' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves N*sqrt(N) = N^(3/2)"
one 'N^(2/3)*N^(1/3)'
"$SEGC" check --expect 'N' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves N^(2/3)*N^(1/3) = N"
one '(N^(1/2))^2' '<param name="N" min="0"/>'
"$SEGC" check --expect 'N' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves (N^(1/2))^2 = N for N >= 0"
one 'N^(1/2)*N^(1/3)*P^(-1/4)'
"$SEGC" check --expect 'N^(5/6)/P^(1/4)' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves N^(1/2)*N^(1/3)*P^(-1/4) = N^(5/6)/P^(1/4)"

one 'N^(3/2)'
code=0
"$SEGC" check --expect 'N^(5/3)' "$tmp/one.xml" >"$tmp/out" 2>&1 || code=$?
[ "$code" -eq 1 ] && grep -q '^MISMATCH' "$tmp/out"
ok $? "check: N^(3/2) and N^(5/3) differ (exit 1)"
w=$(sed -n 's/^  witness: N=//p' "$tmp/out")
# N^(3/2) = N^(5/3) exactly where N^9 = N^10 (both sides to the 6th)
python3 -c '
import sys
from fractions import Fraction as F
n = F(sys.argv[1])
sys.exit(0 if n >= 0 and n ** 9 != n ** 10 else 1)' "${w:-0}"
ok $? "the witness N=$w separates N^(3/2) from N^(5/3)"
[ "$code" -eq 1 ] || diag "$(cat "$tmp/out")"

# --------------------------------------------------- derive: exact values
# The canonical form parses back to itself.
"$SEGC" derive "$model" >"$tmp/canon" &&
	"$SEGC" check --expect "$(cat "$tmp/canon")" "$model" >/dev/null
ok $? "the canonical form of extrap_shapes parses back to an equal formula"
one "$(cat "$tmp/canon")"
"$SEGC" derive "$tmp/one.xml" | cmp -s - "$tmp/canon"
ok $? "the canonical form of extrap_shapes is a fixed point"

# exact N P: the total at rational N, P whose roots are rational, by
# Python's fractions (integer roots found by search, not by segc).
exact() {
	python3 - "$@" <<'PY'
import sys
from fractions import Fraction as F

def iroot(z, q):                 # the integer r with r^q = z, or None
    r = round(z ** (1.0 / q))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** q == z:
            return c
    return None

def rpow(x, p, q):               # x^(p/q) for a rational x with rational roots
    a, b = iroot(x.numerator, q), iroot(x.denominator, q)
    assert a is not None and b is not None
    return F(a, b) ** p

def log2(x):
    k = x.numerator.bit_length() - 1
    assert x.denominator == 1 and 2 ** k == x
    return F(k)

N, P = F(sys.argv[1]), F(sys.argv[2])
comp = 2 * rpow(N, 3, 2) + rpow(N, 2, 3) * log2(N) / 4 + \
    3 * rpow(N, 1, 3) * log2(N) ** 2
comm = 5 * rpow(P, 1, 2) * log2(P) + F(7, 10) * rpow(N / P, 2, 3)
io = N * rpow(P, -1, 2) / 3
t = comp + comm + io
print(t.numerator if t.denominator == 1 else "%d/%d" % (t.numerator,
                                                        t.denominator))
PY
}
for pt in "64 64" "4096 64" "1 1" "64 4096"; do
	set -- $pt
	want=$(exact "$1" "$2")
	got=$("$SEGC" derive -D N="$1" -D P="$2" "$model")
	[ "$got" = "$want" ]
	ok $? "derive -D N=$1 -D P=$2: the exact total $want"
	[ "$got" = "$want" ] || diag "got $got"
done

# --------------------------------------------- eval against Python decimal
# ref N P: comp, comm, io, total at 80 digits (roots by Newton's method).
cat >"$tmp/ref.py" <<'PY'
import sys
from decimal import Decimal as D, getcontext
from fractions import Fraction as F
getcontext().prec = 80

def dec(x):
    return D(x.numerator) / D(x.denominator)

def root(x, q):                  # x^(1/q), x > 0, Newton on y^q = x
    y = D(float(x) ** (1.0 / q))
    for _ in range(200):
        y = y - (y ** q - x) / (q * y ** (q - 1))
    return y

def ln2():
    return D(2).ln()

def parts(N, P):
    n, p = dec(N), dec(P)
    l2n, l2p = n.ln() / ln2(), p.ln() / ln2()
    comp = 2 * root(n, 2) ** 3 + root(n, 3) ** 2 * l2n / 4 + \
        3 * root(n, 3) * l2n ** 2
    comm = 5 * root(p, 2) * l2p + D(7) / D(10) * root(n / p, 3) ** 2
    io = n / root(p, 2) / 3
    return comp, comm, io, comp + comm + io
PY
status=0
for pt in "10 3" "1000 7" "2 2" "123456 1024" "3 5"; do
	set -- $pt
	"$SEGC" eval --csv --precision 300 --digits 60 "$model" N="$1" P="$2" \
		>"$tmp/eval.csv" || status=1
	python3 - "$1" "$2" "$tmp/eval.csv" >"$tmp/cmp" 2>&1 <<PY || status=1
import sys
sys.path.insert(0, "$tmp")
from ref import parts, D, F
N, P = F(sys.argv[1]), F(sys.argv[2])
row = open(sys.argv[3]).read().splitlines()[1].split(",")
bad = 0
for name, got, want in zip(("comp", "comm", "io", "total"), row[2:6],
                           parts(N, P)):
    if abs(D(got) - want) > abs(want) * D(10) ** -55:
        print("%s at N=%s P=%s: %s, want %s" % (name, N, P, got, want))
        bad = 1
sys.exit(bad)
PY
	[ -s "$tmp/cmp" ] && diag "$(cat "$tmp/cmp")"
done
[ "$status" -eq 0 ]
ok $? "eval --precision 300 agrees with Python's decimal to 55 digits"

# --------------------------------------------- the emitted C and Python
"$SEGC" emit -q -o "$tmp/ex" "$model" 2>"$tmp/err"
ok $? "emit extrap_shapes (C)"
grep -q 'cbrt(' "$tmp/ex.c" && grep -q 'sqrt(' "$tmp/ex.c"
ok $? "the C computes the roots with cbrt and sqrt"
cat >"$tmp/main.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include "ex.h"
int main(int argc, char **argv)
{
	double N = strtod(argv[1], NULL), P = strtod(argv[2], NULL);

	(void)argc;
	printf("%.17g,%.17g,%.17g,%.17g\n", ex_comp(N, P), ex_comm(N, P),
		ex_io(N, P), ex_total(N, P));
	return 0;
}
EOC
if ${CC:-cc} -std=c99 -O2 -I"$tmp" -o "$tmp/ex" "$tmp/main.c" "$tmp/ex.c" \
	-lm 2>"$tmp/cc.err"; then
	ok 0 "the emitted C compiles"
	# the bound each function states, in units of 2^-53
	bounds=$(for f in comp comm io total; do
		awk -v f="double ex_$f(" '/Relative error at most/ { k = $0 }
			index($0, f) == 1 { print k; exit }' "$tmp/ex.c" |
			sed 's/.*at most \([0-9]*\) u.*/\1/'
	done)
	status=0
	for pt in "10 3" "1000 7" "2 2" "123456 1024" "1e9 65536"; do
		set -- $pt
		"$tmp/ex" "$1" "$2" >"$tmp/c.out"
		python3 - "$1" "$2" "$tmp/c.out" $bounds >"$tmp/cmp" 2>&1 <<PY ||
import sys
sys.path.insert(0, "$tmp")
from ref import parts, D, F
N, P = F(D(sys.argv[1])), F(D(sys.argv[2]))
got = open(sys.argv[3]).read().strip().split(",")
bounds = [int(b) for b in sys.argv[4:8]]
bad = 0
for name, g, want, k in zip(("comp", "comm", "io", "total"), got,
                            parts(N, P), bounds):
    err = abs(D(g) - want) / abs(want) / (D(2) ** -53)
    print("%s at N=%s P=%s: %.2f u, bound %d u" % (name, N, P, err, k))
    if err > k + 1:
        print("%s at N=%s P=%s: %.2f u > %d u" % (name, N, P, err, k))
        bad = 1
sys.exit(bad)
PY
			status=1
		[ -s "$tmp/cmp" ] && diag "$(cat "$tmp/cmp")"
	done
	[ "$status" -eq 0 ] && [ -n "$bounds" ]
	ok $? "the emitted C is within the bound each function states"
else
	ok 1 "the emitted C compiles"
	diag "$(head -20 "$tmp/cc.err")"
fi

"$SEGC" emit -q --lang python -o "$tmp/expy" "$model" 2>"$tmp/err"
ok $? "emit extrap_shapes (Python)"
status=0
for pt in "10 3" "1000 7" "123456 1024"; do
	set -- $pt
	python3 - "$1" "$2" >"$tmp/cmp" 2>&1 <<PY || status=1
import sys
sys.path.insert(0, "$tmp")
import expy
from ref import parts, D, F
N, P = F(sys.argv[1]), F(sys.argv[2])
bad = 0
for name, want in zip(("comp", "comm", "io", "total"), parts(N, P)):
    got = getattr(expy, "expy_" + name)(float(N), float(P))
    if abs(D(got) - want) > abs(want) * D(2) ** -45:
        print("%s at N=%s P=%s: %r, want %s" % (name, N, P, got, want))
        bad = 1
sys.exit(bad)
PY
	[ -s "$tmp/cmp" ] && diag "$(cat "$tmp/cmp")"
done
[ "$status" -eq 0 ]
ok $? "the emitted Python agrees with Python's decimal"

# ----------------------------------------------------------------- LaTeX
"$SEGC" latex --form structural "$model" >"$tmp/tex" &&
	grep -q 'N^{3/2}' "$tmp/tex" && grep -q 'N^{1/3}' "$tmp/tex"
ok $? "LaTeX writes rational exponents as N^{3/2}, N^{1/3}"
"$SEGC" latex --standalone "$model" >"$tmp/ex.tex"
ok $? "latex --standalone extrap_shapes"
if [ -n "${PDFLATEX:-}" ]; then
	(cd "$tmp" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape ex.tex >ex.out 2>&1)
	ok $? "pdflatex compiles the rational exponents"
else
	skip "pdflatex compiles the rational exponents" "no pdflatex"
fi

# ------------------------------------------------------------- bad input
# bad COST CODE WANT [PARAM]: derive of a step of cost COST exits CODE
# with the message WANT (for exit 2 as FILE:LINE:COL: error: ...).
bad() {
	if [ -n "${4:-}" ]; then one "$1" "$4"; else one "$1"; fi
	code=0
	(cd "$tmp" && "$SEGC" derive one.xml) >"$tmp/out" 2>"$tmp/err" ||
		code=$?
	[ "$code" -eq "$2" ] && [ ! -s "$tmp/out" ] &&
		grep -qF "$3" "$tmp/err" && { [ "$2" -ne 2 ] ||
		grep -qE '^one\.xml:[0-9]+:[0-9]+: error: ' "$tmp/err"; }
	ok $? "$1: exit $2, $3"
	[ "$code" -eq "$2" ] || diag "exit $code: $(cat "$tmp/err")"
}
bad 'N^(1/0)' 2 'error: division by zero'
bad 'N^(k/2)' 2 'error: the exponent k/2 is not a rational constant' \
	'<param name="k"/>'
bad '(-8)^(1/3)' 2 'error: a rational power of -8, which is negative'
bad 'N^(1/200000)' 3 'exponent exceeds the limit 100000 (max_exponent)'
bad 'N^(300001/3)' 3 '(max_exponent)'
one 'N^(1/5)'
"$SEGC" derive --limit max_exponent=4 "$tmp/one.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q 'max_exponent' "$tmp/err"
ok $? "a root of index 5 over max_exponent=4: exit 3 naming the limit"

done_testing
