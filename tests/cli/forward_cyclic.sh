#!/bin/sh
# forward_cyclic.sh - overlapped loops whose schedule repeats only every
# c > 1 iterations (a critical cycle through forward edges of a total
# distance c): 'segc eval' jumps to large counts once the c-step
# periodicity is proved (doc/format.md), and its values equal a literal
# unrolling in Python with exact fractions, extended to large n by the
# period the unrolling itself shows.  n = 10^7 + k is past the million
# iterations eval would step through, so it passes only by the jump.
. "$top_srcdir/tests/cli/lib.sh"

# model NAME COSTS ARCS: writes $tmp/NAME.xml; COSTS "id:cost ...",
# ARCS "from:to:d:cost ..." (d = 0 inside an iteration); the loop arc
# closes from the last node to the first.
model() {
	{
		echo "<model name=\"$1\" version=\"1\">"
		echo '  <param name="n" min="0" integer="true"/>'
		echo '  <graph name="main">'
		first="" last=""
		for nc in $2; do
			echo "    <node id=\"${nc%%:*}\" cost=\"${nc#*:}\"/>"
			[ -n "$first" ] || first=${nc%%:*}
			last=${nc%%:*}
		done
		for a in $3; do
			IFS=: read -r f t d c <<-E
			$a
			E
			if [ "$d" = 0 ]; then
				echo "    <arc from=\"$f\" to=\"$t\" cost=\"$c\"/>"
			else
				echo "    <arc from=\"$f\" to=\"$t\" forward=\"$d\" cost=\"$c\"/>"
			fi
		done
		echo "    <arc from=\"$last\" to=\"$first\" loop=\"n\" overlap=\"true\"/>"
		echo '  </graph>'
		echo '</model>'
	} > "$tmp/$1.xml"
}

# unroll COSTS ARCS N...: fin(n, last) for each N, by literal propagation
# of 3000 iterations and, past them, the period c <= 12 and its increment
# that the last 1000 iterations show.
unroll() {
	python3 - "$@" <<'PY'
import sys
from fractions import Fraction as F
costs = [c.split(":") for c in sys.argv[1].split()]
order = [c[0] for c in costs]
cost = {c[0]: F(c[1]) for c in costs}
arcs = [a.split(":") for a in sys.argv[2].split()]
L = 3000
fin = [dict()]
for i in range(1, L + 1):
    f = {}
    for v in order:
        best = F(0)
        for u, t, d, c in arcs:
            d = int(d)
            if t != v or i - d < 1:
                continue
            best = max(best, (f if d == 0 else fin[i - d])[u] + F(c))
        f[v] = best + cost[v]
    fin.append(f)
T = [F(0)] + [fin[i][order[-1]] for i in range(1, L + 1)]
for c in range(1, 13):
    lam = T[L] - T[L - c]
    if all(T[j] - T[j - c] == lam for j in range(L - 1000, L + 1)):
        break
else:
    sys.exit("no period")
print(c)
for a in sys.argv[3:]:
    n = int(a)
    if n <= L:
        print(T[n])
    else:
        q, r = divmod(n - L, c)
        base = L - c + r if r else L
        print(T[base] + (q + (1 if r else 0)) * lam)
PY
}

check() { # NAME C COSTS ARCS: C the cyclicity the unrolling must show
	name=$1 cyc=$2
	shift 2
	model "$name" "$1" "$2"
	ns="1 2 3 4 5 6 7 8 9 10 11 12 13 100 999 10000000 10000001 10000002 10000003"
	unroll "$1" "$2" $ns > "$tmp/want" || { ok 1 "$name: the unrolling"; return; }
	test "$(head -1 "$tmp/want")" = "$cyc"
	ok $? "$name: the unrolling repeats every $cyc iterations, not fewer"
	sed -i 1d "$tmp/want"
	"$SEGC" eval --csv --digits 40 "$tmp/$name.xml" "n=$(echo $ns | tr ' ' ,)" \
		> "$tmp/out" 2>"$tmp/err"
	ok $? "$name: eval at n up to 10^7 + 3"
	awk -F, 'NR > 1 { print $5 }' "$tmp/out" > "$tmp/got"
	python3 - "$tmp/want" "$tmp/got" <<'PY'
import sys
from fractions import Fraction as F
w = [F(x) for x in open(sys.argv[1]).read().split()]
g = [F(x) for x in open(sys.argv[2]).read().split()]
ok = len(w) == len(g) and all(abs(a - b) <= F(1, 10**35) * max(1, abs(a))
                             for a, b in zip(w, g))
sys.exit(0 if ok else 1)
PY
	st=$?
	ok $st "$name: equals the unrolling at every n (to 35 digits)"
	[ $st -eq 0 ] || diag "want: $(cat "$tmp/want" | tr '\n' ' ')" \
		"got: $(cat "$tmp/got" | tr '\n' ' ')" "$(cat "$tmp/err")"
}

# Two chains, odd and even iterations: increments 3, 1, 3, 1, ...
check two 2 "a:1 b:3" "a:b:0:0 a:a:1:0 b:a:2:0"
# Three chains: a cycle of distance 3 (mean 2) over a self-loop (mean 1).
check three 3 "a:1 b:1 c:4" "a:b:0:0 b:c:0:0 c:a:3:0 a:a:1:0"
# Fractional costs and arc costs: a cycle of distance 2, mean 7/6, over
# a self-loop of mean 7/10.
check halves 2 "a:1/2 b:3/2" "a:b:0:0 b:a:2:1/3 a:a:1:1/5"
# A cycle of distance 1 (mean 2) beside one of distance 2 (mean 3/2):
# the schedule settles to the single chain, c = 1, through the same path.
check settles 1 "a:1 b:1" "a:b:0:0 b:a:1:0 b:b:2:2"
done_testing
