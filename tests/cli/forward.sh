#!/bin/sh
# forward.sh - loops whose iterations overlap through forward edges:
# 'segc eval' of the recurrence and 'segc derive' of the closed form (all
# costs numbers) equal a literal unrolling of the iterations, the longest
# path of the DAG of all n iterations computed here in Python with exact
# fractions; so does the C that 'emit' writes for the recurrence.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/tests/cli/models/forward_pipeline.xml

# unroll C N: the finish time of 'done' in iteration N, by relaxing every
# edge of the unrolled DAG until nothing changes.
unroll() {
	python3 - "$1" "$2" <<'PY'
import sys
from fractions import Fraction as F
c, n = F(sys.argv[1]), int(sys.argv[2])
cost = {"load": F(2), "work": c, "send": F(3, 2), "done": F(1, 2)}
edges = [("load", "work", 0, 0), ("load", "send", 0, 1),
         ("work", "done", 0, 0), ("send", "done", 0, 0),
         ("work", "work", 1, F(1, 4)), ("done", "load", 2, 0)]
fin = {(i, v): cost[v] for i in range(1, n + 1) for v in cost}
changed = True
while changed:
    changed = False
    for i in range(1, n + 1):
        for u, v, d, w in edges:
            if i - d >= 1:
                t = fin[(i - d, u)] + w + cost[v]
                if t > fin[(i, v)]:
                    fin[(i, v)], changed = t, True
print(fin[(n, "done")] if n else 0)
PY
}

for c in 0 3 7/2; do
	"$SEGC" eval --csv --digits 40 "$m" n=0..24 c="$c" > "$tmp/out"
	ok $? "eval the recurrence at c = $c"
	bad=0
	for n in $(seq 0 24); do
		got=$(awk -F, -v n="$n" 'NR > 1 && $1 == n { print $6 }' "$tmp/out")
		want=$(unroll "$c" "$n")
		if ! python3 -c "import sys; from fractions import Fraction as F; sys.exit(F('$got') != F('$want'))"; then
			echo "# c=$c n=$n: eval $got, unrolled $want"
			bad=1
		fi
	done
	[ $bad -eq 0 ]
	ok $? "eval equals the unrolling at c = $c, n = 0..24"
done

"$SEGC" derive -D c=3 "$m" > "$tmp/closed"
ok $? "derive a closed form when every cost is a number"
grep -q maxplus "$tmp/closed"
[ $? -ne 0 ]
ok $? "the closed form is no recurrence ($(cat "$tmp/closed"))"
"$SEGC" eval --csv --digits 40 -D c=3 "$m" n=0..40 > "$tmp/out"
bad=0
for n in $(seq 0 40); do
	got=$(awk -F, -v n="$n" 'NR > 1 && $1 == n { print $5 }' "$tmp/out")
	want=$(unroll 3 "$n")
	if ! python3 -c "import sys; from fractions import Fraction as F; sys.exit(F('$got') != F('$want'))"; then
		echo "# n=$n: closed form $got, unrolled $want"
		bad=1
	fi
done
[ $bad -eq 0 ]
ok $? "the closed form equals the unrolling"

"$SEGC" emit --main --keep n --keep c -o "$tmp/p" "$m"
ok $? "emit the recurrence as a loop"
${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -O2 -o "$tmp/p" \
	"$tmp/p.c" -lm
ok $? "the emitted C compiles in strict C99"
"$tmp/p" N=1 P=1 n=0..24 c=3.5 > "$tmp/out"
bad=0
for n in $(seq 0 24); do
	got=$(awk -v n="$n" 'NR > 1 && $3 == n { print $5 }' "$tmp/out")
	want=$(unroll 7/2 "$n")
	if ! python3 -c "import sys; from fractions import Fraction as F; sys.exit(F('$got') != F('$want'))"; then
		echo "# n=$n: the C $got, unrolled $want"
		bad=1
	fi
done
[ $bad -eq 0 ]
ok $? "the emitted C equals the unrolling at c = 7/2, n = 0..24"
"$SEGC" latex -D c=1/3 "$m" > "$tmp/tex"
ok $? "latex of the recurrence"
for line in 't_{4}\left(n\right)\ \text{where}' \
    't_{1}(i) &= 2 + \max\bigl(0,\ t_{4}(i - 2)\bigr)' \
    't_{2}(i) &= \frac{1}{3} + \max\bigl(0,\ t_{1}(i),\ t_{2}(i - 1) + \frac{1}{4}\bigr)' \
    't_{3}(i) &= \frac{3}{2} + \max\bigl(0,\ t_{1}(i) + 1\bigr)' \
    't_{4}(i) &= \frac{1}{2} + \max\bigl(0,\ t_{2}(i),\ t_{3}(i)\bigr)'; do
	grep -qF "$line" "$tmp/tex"
	ok $? "latex prints the recurrence: $line"
done
done_testing
