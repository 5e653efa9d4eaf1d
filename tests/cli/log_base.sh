#!/bin/sh
# log_base.sh - the logarithm to a base, log(b, x) = log2(x)/log2(b)
# (doc/format.md, 2.2): exact values where they are rational (log(8, 64)
# = 2 worked by hand), eval at 40 digits against Python's decimal, check
# proves the change of base and finds a witness against a wrong one, the
# LaTeX form, the emitted C against Python's decimal, and the errors (an
# arity, the base 1, a <function> of the name).  Before log was a
# built-in, every call below was refused as a slip for log2.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# total_at ARGS...: the exact total of $tmp/one.xml at the point ARGS
# (the string of eval --json: a fraction, never rounded).
total_at() {
	"$SEGC" eval --arith exact --json "$tmp/one.xml" "$@" 2>&1 |
		python3 -c 'import json, sys
print(json.load(sys.stdin)["rows"][0]["total"])'
}

# ------------------------------------------------------- exact values
b_x='<param name="b" min="2"/>'
one 'log(b, x)' "$b_x" '<param name="x" min="1"/>'
for case in "8 64 2" "4 8 3/2" "16 2 1/4" "1024 32 1/2" "2 1 0"; do
	set -- $case
	got=$(total_at b=$1 x=$2)
	[ "$got" = "$3" ]
	ok $? "log($1, $2) = $3 exactly (got $got)"
done
# Where log2 of the base or the value is irrational the quotient is not
# found rational (log2(81) is not rewritten as 4*log2(3)): eval gives the
# certified digits, which end where the value does.
for case in "10 1000 3" "3 81 4" "9 27 1.5" "100 10 0.5"; do
	set -- $case
	got=$("$SEGC" eval --digits 30 --csv "$tmp/one.xml" b=$1 x=$2 2>&1 |
		awk -F, 'NR == 2 { print $NF }')
	[ "$got" = "$3" ]
	ok $? "log($1, $2) = $3 in certified digits (got $got)"
done

# -------------------------------------------- eval against Python decimal
one 'log(10, N) + 3*log(b, P)' "$b_x"
"$SEGC" eval --digits 40 --csv "$tmp/one.xml" N=2,7,1000 P=5 b=3,10 \
	>"$tmp/eval.csv" 2>&1
ok $? "eval of log(10, N) + 3*log(b, P) at 40 digits"
python3 - "$tmp/eval.csv" >"$tmp/py.out" 2>&1 <<'EOF'
import csv, sys
from decimal import Decimal, getcontext
getcontext().prec = 80
def log(b, x):
    return Decimal(x).ln() / Decimal(b).ln()
rows = list(csv.DictReader(open(sys.argv[1])))
bad = 0
for r in rows:
    want = log(10, r["N"]) + 3 * log(r["b"], r["P"])
    got = Decimal(r["total"])
    if abs(got - want) > abs(want) * Decimal("1e-38"):
        bad += 1
        print("differs at", r, "want", want)
print(len(rows), "rows,", bad, "differ")
sys.exit(1 if bad or len(rows) != 6 else 0)
EOF
ok $? "eval agrees with Python's decimal to 38 digits"
diag "$(cat "$tmp/py.out")"

# ----------------------------------------------------------------- check
one 'log(4, N)'
"$SEGC" check --expect 'log2(N)/2' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves log(4, N) = log2(N)/2"
"$SEGC" check --expect 'log2(N)' "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'witness: N=2' "$tmp/out"
ok $? "check finds the witness N = 2 against log(4, N) = log2(N)"
one 'log(b, N)' "$b_x"
"$SEGC" check --expect 'log(b, 2)*log2(N)' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves the change of base log(b, N) = log(b, 2)*log2(N)"
"$SEGC" check --expect 'log(b, N^3)/3' "$tmp/one.xml" >"$tmp/out" 2>&1
ok $? "check proves log(b, N) = log(b, N^3)/3"
"$SEGC" check --expect 'log(N, b)' "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -ne 0 ] && ! grep -q '^ok' "$tmp/out"
ok $? "check does not prove log(b, N) = log(N, b)"

# ----------------------------------------------------------------- LaTeX
one 'log(10, N) + log(b, P)' "$b_x"
"$SEGC" latex "$tmp/one.xml" >"$tmp/tex" 2>&1
printf '%s\n' '\frac{\log_2 N}{\log_2 10} + \frac{\log_2 P}{\log_2 b}' \
	>"$tmp/want"
same_file "$tmp/want" "$tmp/tex" "LaTeX of log(10, N) + log(b, P)"

# -------------------------------------------------------- the emitted C
one 'log(10, N) + t*log(b, P)' "$b_x" '<param name="t" min="0"/>'
(cd "$tmp" && "$SEGC" emit --keep b --keep t -o lb one.xml) \
	>"$tmp/out" 2>&1
ok $? "emit of log(10, N) + t*log(b, P)"
cat >"$tmp/main.c" <<'EOF'
#include <stdio.h>
#include "lb.h"
int main(void)
{
	static const double pts[][4] = { { 1000, 8, 2, 1 }, { 7, 3, 3, 0.5 },
		{ 1e6, 1024, 10, 3 }, { 2, 2, 7, 1 } };
	unsigned i;

	for (i = 0; i < sizeof pts / sizeof pts[0]; i++)
		printf("%.17g %.17g %.17g %.17g %.17g\n", pts[i][0], pts[i][1],
			pts[i][2], pts[i][3],
			lb_total(pts[i][0], pts[i][1], pts[i][2], pts[i][3]));
	return 0;
}
EOF
${CC:-cc} -std=c99 -O2 -I"$tmp" -o "$tmp/lb" "$tmp/main.c" "$tmp/lb.c" -lm \
	>"$tmp/cc.out" 2>&1 && "$tmp/lb" >"$tmp/lb.out"
ok $? "the emitted C compiles and runs"
python3 - "$tmp/lb.out" >"$tmp/py.out" 2>&1 <<'EOF'
import sys
from decimal import Decimal, getcontext
getcontext().prec = 50
bad = n = 0
for line in open(sys.argv[1]):
    N, P, b, t, got = (Decimal(v) for v in line.split())
    want = N.ln() / Decimal(10).ln() + t * P.ln() / b.ln()
    n += 1
    if abs(Decimal(got) - want) > abs(want) * Decimal("1e-15"):
        bad += 1
        print("differs:", line.strip(), "want", want)
print(n, "points,", bad, "beyond 1e-15")
sys.exit(1 if bad or n != 4 else 0)
EOF
ok $? "the emitted C within 1e-15 of Python's decimal"
diag "$(cat "$tmp/py.out")"

# ---------------------------------------------------------------- errors
one 'log(P)'
"$SEGC" derive "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "one.xml:2:[0-9]*: error: .*log() takes 2 arguments, not 1" "$tmp/out"
ok $? "log(P) is an error with its place"
one 'log(2, N, P)'
"$SEGC" derive "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "log() takes 2 arguments, not 3" "$tmp/out"
ok $? "log(2, N, P) is an error"
one 'log(1, N)'
"$SEGC" derive "$tmp/one.xml" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "one.xml:2:[0-9]*: error: division by zero" "$tmp/out"
ok $? "log(1, N) is a division by zero (exit 2)"
one 'log(b, N)' '<param name="b"/>'
"$SEGC" eval "$tmp/one.xml" b=0 N=4 >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "log2 of a value that is not positive" "$tmp/out"
ok $? "eval of log(0, N) is refused"
cat >"$tmp/fn.xml" <<'EOF'
<model name="fn" version="1">
  <function name="log" args="a">a</function>
  <graph name="main"><step cost="log(N)"/></graph>
</model>
EOF
"$SEGC" derive "$tmp/fn.xml" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "'log': a built-in function has that name" "$tmp/out"
ok $? "a <function> named log is refused"

done_testing
