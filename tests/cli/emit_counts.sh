#!/bin/sh
# emit_counts.sh - a loop count that is negative at a point: 'segc eval'
# refuses the point; the emitted predictors (C, Python, Fortran) return NaN
# there, never a negative time, and the time counted by hand elsewhere.
# The model: a loop of count N - 5 around a step of cost t, and a loop of
# count n - 2 (a kept parameter without a minimum) around a step of cost
# 1.  By hand: T = (N - 5)*t + (n - 2) where both counts are >= 0; at N = 6,
# n = 2, t = 5/2: 2.5; at N = 5, n = 3: 1; at N = 3 (count -2) or n = 1
# (count -1): NaN.  A count the domains prove >= 0 (N - 1) adds no test.
. "$top_srcdir/tests/cli/lib.sh"
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"

cat > "$tmp/negcount.xml" <<'XML'
<model name="negcount" version="1">
  <param name="n"/>
  <resource name="t"/>
  <graph name="main">
    <loop count="N - 5">
      <step cost="t"/>
    </loop>
    <loop count="n - 2">
      <step cost="1"/>
    </loop>
  </graph>
</model>
XML

# The points (N, P, n, t) and their values by hand ("nan" for NaN).
cat > "$tmp/points" <<'EOF'
6 1 2 2.5 2.5
5 1 3 2.5 1
10 4 4 0.5 4.5
3 1 3 2.5 nan
6 1 1 2.5 nan
3 2 0 1 nan
EOF

"$SEGC" eval -D n=3 -D t=1 "$tmp/negcount.xml" N=3 P=1 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "loop count must be >= 0" "$tmp/err"
ok $? "eval refuses the point N = 3, where the count N - 5 is -2"

# C
"$SEGC" emit -q --keep n --keep t -o "$tmp/negcount" "$tmp/negcount.xml" \
	2>"$tmp/err"
ok $? "emit the C predictor"
grep -q 'if(N - 5 >= 0 and n - 2 >= 0, ' "$tmp/negcount.c"
ok $? "the formula in its comment tests both counts"
cat > "$tmp/main.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "negcount.h"
int main(void)
{
	double N, P, n, t;
	char want[32];
	int bad = 0;

	while (scanf("%lf %lf %lf %lf %31s", &N, &P, &n, &t, want) == 5) {
		double v = negcount_total(N, P, n, t);
		double w = want[0] == 'n' ? NAN : strtod(want, NULL);

		if (!(v <= w && v >= w) && !(isnan(v) && isnan(w))) {
			printf("N=%g n=%g: %.17g, want %s\n", N, n, v, want);
			bad++;
		}
	}
	printf("%d wrong\n", bad);
	return bad != 0;
}
EOF
(cd "$tmp" && $CC $CFLAGS_STRICT -o main main.c negcount.c -lm &&
	./main < points) > "$tmp/out" 2>&1
st=$?
ok $st "C: NaN where a count is negative, the hand-worked values elsewhere ($(tail -1 "$tmp/out"))"
[ $st -eq 0 ] || diag "$(cat "$tmp/out")"

# Python
if command -v python3 >/dev/null 2>&1; then
	"$SEGC" emit -q --lang python --keep n --keep t -o "$tmp/negcount" \
		"$tmp/negcount.xml" 2>"$tmp/err"
	python3 - "$tmp/negcount.py" "$tmp/points" > "$tmp/out" 2>&1 <<'PY'
import importlib.util, math, sys
spec = importlib.util.spec_from_file_location("negcount", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
bad = 0
for line in open(sys.argv[2]):
    N, P, n, t, want = line.split()
    v = mod.negcount_total(float(N), float(P), float(n), float(t))
    w = float(want)
    if not (v == w or (math.isnan(v) and math.isnan(w))):
        print("N=%s n=%s: %r, want %s" % (N, n, v, want))
        bad += 1
print("%d wrong" % bad)
sys.exit(bad != 0)
PY
	st=$?
	ok $st "Python: NaN where a count is negative ($(tail -1 "$tmp/out"))"
	[ $st -eq 0 ] || diag "$(cat "$tmp/out")"
else
	skip "Python: NaN where a count is negative" "python3 is not installed"
fi

# Fortran (through its bind(c) entry, with the C driver above)
FC=${FC_TEST:-gfortran}
if command -v "$FC" >/dev/null 2>&1; then
	mkdir -p "$tmp/f"
	"$SEGC" emit -q --lang fortran --keep n --keep t -o "$tmp/f/negcount" \
		"$tmp/negcount.xml" 2>"$tmp/err" &&
		cp "$tmp/main.c" "$tmp/negcount.h" "$tmp/f/" &&
		(cd "$tmp/f" && $FC -std=f2008 -Wall -Wextra -Werror -O2 -c \
		negcount.f90 && $CC $CFLAGS_STRICT -c main.c &&
		$CC -o main main.o negcount.o -lm && ./main < ../points) \
		> "$tmp/out" 2>&1
	st=$?
	ok $st "Fortran: NaN where a count is negative ($(tail -1 "$tmp/out"))"
	[ $st -eq 0 ] || diag "$(cat "$tmp/out")"
else
	skip "Fortran: NaN where a count is negative" "gfortran is not installed"
fi

# A count the domains prove >= 0 (N - 1, N >= 1) is not tested.
sed 's/N - 5/N - 1/; s/n - 2/N/' "$tmp/negcount.xml" > "$tmp/poscount.xml"
"$SEGC" emit -q --keep t -o "$tmp/poscount" "$tmp/poscount.xml" 2>"$tmp/err" &&
	! grep -q 'if(' "$tmp/poscount.c" && ! grep -q 'sqrt' "$tmp/poscount.c"
ok $? "counts proved >= 0 by the domains: no test, no sqrt"

done_testing
