#!/bin/sh
# chains.sh - a graph that is one chain (each node one arc in and one
# out, no loop) is reduced to the sum of its costs without the graph
# being reduced rule by rule: random chains, in arc form with their arcs
# written in random order and in block form inside a counted loop, with
# rational costs on nodes and arcs, zero costs and the three classes, give
# for each component the sum that Python's exact fractions give.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/segc-chains.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
	skip "chains" "python3 not found"
	done_testing
	exit $?
fi

# gen SEED FORM N: writes $tmp/m.xml (a chain of N nodes, FORM arc or
# block) and $tmp/want (the total, comp, comm and io at n = 3, one a line).
gen() {
	python3 - "$1" "$2" "$3" "$tmp" <<'PY'
import random, sys
from fractions import Fraction as F
seed, form, n, tmp = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
r = random.Random(seed)
cls = ["comp", "comm", "io"]
want = {c: F(0) for c in cls}
N = 3
def cost():
    k = r.randrange(5)
    if k == 0:
        return "0", F(0)
    a, b = r.randrange(0, 9), r.randrange(1, 6)
    if k == 1:
        return "%d/%d*n" % (a, b), F(a, b) * N
    return "%d/%d" % (a, b), F(a, b)
out = ['<model name="chain" version="1"><param name="n" min="0"/>',
       '<graph name="main">']
if form == "arc":
    arcs = []
    for i in range(n):
        c, v = cost(); k = r.choice(cls); want[k] += v
        out.append('<node id="v%d" cost="%s" class="%s"/>' % (i, c, k))
        if i:
            c, v = cost(); k = r.choice(cls); want[k] += v
            arcs.append('<arc from="v%d" to="v%d" cost="%s" class="%s"/>'
                        % (i - 1, i, c, k))
    r.shuffle(arcs)
    out += arcs
else:
    out.append('<step cost="1"/><loop count="n">')
    want["comp"] += 1
    inner = {c: F(0) for c in cls}
    for i in range(n):
        c, v = cost(); k = r.choice(cls); inner[k] += v
        out.append('<step cost="%s" class="%s"/>' % (c, k))
    out.append('</loop>')
    for k in cls:
        want[k] += N * inner[k]
out.append('</graph></model>')
open(tmp + "/m.xml", "w").write("\n".join(out) + "\n")
with open(tmp + "/want", "w") as f:
    f.write("%s\n" % sum(want.values()))
    for k in cls:
        f.write("%s\n" % want[k])
PY
}

for form in arc block; do
	for seed in 1 2 3 4 5 6; do
		n=$((seed * seed * 7))
		gen "$seed" "$form" "$n"
		: > "$tmp/got"
		for c in total comp comm io; do
			"$SEGC" derive -D n=3 --component "$c" "$tmp/m.xml" \
				>> "$tmp/got" 2>&1
		done
		cmp -s "$tmp/want" "$tmp/got"
		st=$?
		ok $st "$form chain of $n nodes (seed $seed): every component is the exact sum"
		[ $st -eq 0 ] || diag "$(paste "$tmp/want" "$tmp/got")"
	done
done

done_testing
