#!/bin/sh
# eval_digits.sh - every digit --digits D prints is the exact value's:
# eval (ball and exact arithmetic) and whatif at 20 to 300 significant
# digits against the exact rational rounded by Python's fractions (ties
# to even, printed as %g prints).  Values of 128 bits printed to 40
# digits once showed three wrong last digits.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

cat >"$tmp/m.xml" <<'XML'
<model name="digits" version="1">
  <param name="a" min="0"/>
  <resource name="t"/>
  <graph name="main"><step cost="(a*a + a/7)*t"/></graph>
</model>
XML

# want A D: the total (a^2 + a/7)*t at the exact A and t = 1 to D
# digits, as %.Dg prints it.
want() {
	python3 - "$1" "$2" <<'PY'
import sys
from fractions import Fraction as F
a, d = F(sys.argv[1]), int(sys.argv[2])
x = a * a + a / 7
if x == 0:
    print("0"); sys.exit()
e = 0
while F(10) ** (e + 1) <= x:
    e += 1
while F(10) ** e > x:
    e -= 1
n = round(x / F(10) ** (e - d + 1))      # half to even
if n == 10 ** d:
    n, e = n // 10, e + 1
s = str(n)
if -4 <= e < d:
    if e >= 0:
        out = s[:e + 1] + "." + s[e + 1:]
    else:
        out = "0." + "0" * (-e - 1) + s
    out = out.rstrip("0").rstrip(".") if "." in out else out
else:
    m = (s[0] + "." + s[1:]).rstrip("0").rstrip(".")
    out = "%se%s%02d" % (m, "-" if e < 0 else "+", abs(e))
print(out)
PY
}

for a in 1/9 2/7 123456789/1000 1/3000 98765/3; do
	for d in 20 38 40 60 100 300; do
		w=$(want "$a" "$d")
		for arith in ball exact; do
			got=$("$SEGC" eval --arith "$arith" --digits "$d" \
				"$tmp/m.xml" "a=$a" t=1 2>&1 | awk 'NR == 2 { print $NF }')
			[ "$got" = "$w" ]
			ok $? "eval --arith $arith --digits $d at a=$a"
			[ "$got" = "$w" ] || diag "want $w" "got  $got"
		done
	done
done

# whatif: T_before at a=1/9 (the table's column after the point's).
for d in 40 60; do
	w=$(want 1/9 "$d")
	got=$("$SEGC" whatif --table --scale t=2 --digits "$d" "$tmp/m.xml" \
		a=1/9 t=1 2>&1 | awk '$1 == "1/9" { print $3 }')
	[ "$got" = "$w" ]
	ok $? "whatif --digits $d: T_before at a=1/9"
	[ "$got" = "$w" ] || diag "want $w" "got  $got"
done
done_testing
