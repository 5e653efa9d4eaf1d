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
# unrolled FILE FS KEY COL C NMAX LABEL: for n = 0..NMAX, the row of FILE
# (fields split at FS; the first line a header) whose field KEY is n
# holds in field COL the recurrence unrolled literally at c = C, n (in
# Python fractions); prints "# LABEL n=N: GOT, unrolled WANT" for each
# that does not, exits 1 if any.  One Python process for every n.
unrolled() {
	python3 - "$@" <<'PY'
import sys
from fractions import Fraction as F
path, fs, key, col, c, nmax, label = sys.argv[1:]
key, col, c, nmax = int(key) - 1, int(col) - 1, F(c), int(nmax)
def unroll(n):
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
    return fin[(n, "done")] if n else 0
rows = [l.split(fs) if fs != " " else l.split()
        for l in open(path).read().splitlines()[1:]]
bad = 0
for n in range(nmax + 1):
    got = [r[col] for r in rows if len(r) > max(key, col) and r[key] == str(n)]
    got = got[-1] if got else ""
    want = unroll(n)
    try:
        good = F(got) == F(want)
    except (ValueError, ZeroDivisionError):
        good = False
    if not good:
        print("# %s n=%d: %s, unrolled %s" % (label, n, got, want))
        bad = 1
sys.exit(bad)
PY
}

for c in 0 3 7/2; do
	"$SEGC" eval --csv --digits 40 "$m" n=0..24 c="$c" > "$tmp/out"
	ok $? "eval the recurrence at c = $c"
	unrolled "$tmp/out" , 1 6 "$c" 24 "c=$c eval"
	ok $? "eval equals the unrolling at c = $c, n = 0..24"
done

"$SEGC" derive -D c=3 "$m" > "$tmp/closed"
ok $? "derive a closed form when every cost is a number"
grep -q maxplus "$tmp/closed"
[ $? -ne 0 ]
ok $? "the closed form is no recurrence ($(cat "$tmp/closed"))"
"$SEGC" eval --csv --digits 40 -D c=3 "$m" n=0..40 > "$tmp/out"
unrolled "$tmp/out" , 1 5 3 40 "closed form"
ok $? "the closed form equals the unrolling"

"$SEGC" emit --main --keep n --keep c -o "$tmp/p" "$m"
ok $? "emit the recurrence as a loop"
${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -O2 -o "$tmp/p" \
	"$tmp/p.c" -lm
ok $? "the emitted C compiles in strict C99"
"$tmp/p" N=1 P=1 n=0..24 c=3.5 > "$tmp/out"
unrolled "$tmp/out" " " 3 5 7/2 24 "the C"
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
