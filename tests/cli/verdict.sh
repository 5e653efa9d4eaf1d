#!/bin/sh
# verdict.sh - 'check' compares the atoms of overlapped loops (maxplus,
# maxplusv) and of indexed nodes (taskpath) by their meaning, and 'derive'
# with every name bound prints their number.  The oracles are computed
# here in Python with exact fractions: the literal unrolling of the
# iterations of an overlapped loop (the longest path of the DAG of all
# iterations), the longest path of the instances of a reduction tree, a
# sum added up term by term.  A MISMATCH must come with a point where the
# oracle's value differs from the expected formula's; a right formula
# must never get one.
. "$top_srcdir/tests/cli/lib.sh"
pipeline=$top_srcdir/tests/cli/models/forward_pipeline.xml
tree=$top_srcdir/xml/examples/reduction_tree.xml

# unroll_pipeline C N: the time of forward_pipeline.xml at c = C, n = N.
unroll_pipeline() {
	python3 - "$1" "$2" <<'PY'
import sys
from fractions import Fraction as F
c, n = F(sys.argv[1]), int(sys.argv[2])
cost = {"load": F(2), "work": c, "send": F(3, 2), "done": F(1, 2)}
order = ["load", "work", "send", "done"]
edges = [("load", "work", 0, 0), ("load", "send", 0, 1),
         ("work", "done", 0, 0), ("send", "done", 0, 0),
         ("work", "work", 1, F(1, 4)), ("done", "load", 2, 0)]
fin = {}
for i in range(1, n + 1):
    for v in order:
        best = F(0)
        for u, t, d, w in edges:
            if t == v and i - d >= 1:
                best = max(best, fin[(i - d, u)] + w)
        fin[(i, v)] = best + cost[v]
print(fin[(n, "done")] if n else 0)
PY
}

# tree_path P T_LEAF T_COMB M: the longest path of reduction_tree.xml.
tree_path() {
	python3 - "$@" <<'PY'
import sys, math
from fractions import Fraction as F
P, tl, tc, m = int(sys.argv[1]), F(sys.argv[2]), F(sys.argv[3]), F(sys.argv[4])
L = (P - 1).bit_length()          # ceil(log2(P))
fin = {("leaf", k): tl for k in range(1, P + 1)}
for l in range(1, L + 1):
    for k in range(1, -(-P // 2 ** l) + 1):
        srcs = ([("leaf", j) for j in range(1, P + 1) if -(-j // 2) == k]
                if l == 1 else
                [("comb", l - 1, j) for j in range(1, -(-P // 2 ** (l - 1)) + 1)
                 if -(-j // 2) == k])
        fin[("comb", l, k)] = tc + max([F(0)] + [fin[s] + m for s in srcs])
print(max(fin.values()))
PY
}

# witness_value NAME: the value of NAME at the witness in $tmp/out.
witness_value() {
	sed -n 's/^  witness: //p' "$tmp/out" | tr ',' '\n' |
		sed -n "s/^ *$1=//p"
}

# --- maxplus: a wrong formula, a witness where the values differ --------
"$SEGC" check --expect "if(n >= 1, c*n + n/4 + 9/4, 0)" "$pipeline" \
	>"$tmp/out" 2>&1
rc=$?
grep -q '^MISMATCH' "$tmp/out" && [ $rc -eq 1 ]
ok $? "maxplus: a formula wrong for c < 9/4 gets a MISMATCH"
! grep -q '^  where maxplus' "$tmp/out"
ok $? "maxplus: the recurrence is no uninterpreted function"
c=$(witness_value c)
n=$(witness_value n)
got=$(sed -n 's/^  derived there: *//p' "$tmp/out")
want=$(unroll_pipeline "$c" "$n")
python3 -c "from fractions import Fraction as F
import sys
c, n = F('$c'), int('$n')
e = c*n + n/F(4) + F(9, 4) if n >= 1 else F(0)
sys.exit(not (F('$got') == F('$want') and e != F('$want')))"
ok $? "maxplus: at the witness c=$c, n=$n the unrolling gives $want, the derived side $got, and the formula differs"

# the right formula, with c bound: ok, and the unrolling agrees
"$SEGC" check -D c=3 --expect "if(n >= 1, 13*n/4 + 9/4, 0)" "$pipeline" \
	>"$tmp/out" 2>&1
st=$?
for n in 0 1 2 5 17; do
	python3 -c "from fractions import Fraction as F; import sys
n = $n; e = F(13 * n, 4) + F(9, 4) if n else F(0)
sys.exit(e != F('$(unroll_pipeline 3 $n)'))" || st=1
done
ok $st "maxplus: the right closed form at c = 3 checks ok ($(head -1 "$tmp/out"))"

# --- overlapped loops whose numeric schedule has a node of constant time
# (no forward arc reaches it): derive proves the closed form, check ok
cat >"$tmp/const.xml" <<'EOF'
<model name="const" version="1">
  <param name="n" min="1" integer="true"/>
  <graph name="main">
    <node id="a" cost="1"/> <node id="b" cost="3"/> <node id="c" cost="6"/>
    <arc from="a" to="b"/> <arc from="b" to="c"/>
    <arc from="a" to="b" forward="1"/>
    <arc from="c" to="b" forward="2"/> <arc from="c" to="b" forward="1"/>
    <arc from="c" to="a" loop="n" overlap="true"/>
  </graph>
</model>
EOF
"$SEGC" check --expect "9*n + 1" "$tmp/const.xml" >"$tmp/out" 2>&1
ok $? "maxplus: 9*n + 1 for a node of constant time ($(head -1 "$tmp/out"))"
"$SEGC" eval --csv "$tmp/const.xml" n=1..40 >"$tmp/ev" 2>&1
awk -F, 'NR > 1 && $5 != 9 * $1 + 1 { bad = 1 } END { exit bad }' "$tmp/ev"
ok $? "maxplus: eval agrees with 9*n + 1 at n = 1..40"
"$SEGC" check --expect "9*n + 1 + 1/1000" "$tmp/const.xml" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q '^MISMATCH' "$tmp/out"
ok $? "maxplus: 9*n + 1 + 1/1000 gets a MISMATCH"

# --- taskpath: evaluated at every sample point ------------------------
"$SEGC" check --expect "t_leaf + ceil(log2(P))*(t_comb + m)" "$tree" \
	>"$tmp/out" 2>&1
rc=$?
[ $rc -le 1 ] && ! grep -q '^MISMATCH' "$tmp/out" &&
	! grep -q 'agree at 0 of' "$tmp/out"
ok $? "taskpath: the hand formula is never a MISMATCH and is evaluated ($(sed -n 's/^  not proved.*: //p' "$tmp/out"))"
"$SEGC" check --expect "t_leaf + ceil(log2(P))*(t_comb + m) + 1/1000" \
	"$tree" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q '^MISMATCH' "$tmp/out"
ok $? "taskpath: the formula plus 1/1000 gets a MISMATCH"
"$SEGC" check --expect "t_leaf + log2(P)*(t_comb + m)" "$tree" >"$tmp/out" 2>&1
P=$(witness_value P)
tl=$(witness_value t_leaf)
tc=$(witness_value t_comb)
m=$(witness_value m)
got=$(sed -n 's/^  derived there: *//p' "$tmp/out")
[ -n "$P" ] && [ "$got" = "$(tree_path "$P" "$tl" "$tc" "$m")" ]
ok $? "taskpath: log2 instead of ceil(log2): witness P=$P where the tree gives $got"

# --- derive with every name bound prints a number ---------------------
for p in 1 2 5 8 13; do
	got=$("$SEGC" derive -D P=$p -D t_leaf=3/2 -D t_comb=2 -D m=1/3 "$tree")
	want=$(tree_path $p 3/2 2 1/3)
	[ "$got" = "$want" ]
	ok $? "taskpath: derive at P = $p prints $want (got $got)"
done
for n in 0 1 7 30; do
	got=$("$SEGC" derive -D c=1/3 -D n=$n "$pipeline")
	want=$(unroll_pipeline 1/3 $n)
	[ "$got" = "$want" ]
	ok $? "maxplus: derive at c = 1/3, n = $n prints $want (got $got)"
done
cat >"$tmp/mpv.xml" <<'EOF'
<model name="mpv" version="1">
  <param name="n" min="0" integer="true"/>
  <param name="a" min="0"/>
  <graph name="main">
    <node id="x" cost="i*a + 1"/> <node id="y" cost="(31 - i)/2"/>
    <arc from="x" to="y"/> <arc from="y" to="y" forward="1"/>
    <arc from="x" to="x" forward="2"/>
    <arc from="y" to="x" loop="n" overlap="true" var="i"/>
  </graph>
</model>
EOF
got=$("$SEGC" derive -D a=1/2 -D n=9 "$tmp/mpv.xml")
want=$(python3 - <<'PY'
from fractions import Fraction as F
a, n = F(1, 2), 9
fx, fy = {}, {}
for i in range(1, n + 1):
    sx = max([F(0)] + ([fx[i - 2]] if i > 2 else []))
    fx[i] = sx + i * a + 1
    sy = max([fx[i]] + ([fy[i - 1]] if i > 1 else []))
    fy[i] = sy + F(31 - i, 2)
print(fy[n])
PY
)
[ "$got" = "$want" ]
ok $? "maxplusv: derive at a = 1/2, n = 9 prints $want (got $got)"
cat >"$tmp/sum.xml" <<'EOF'
<model name="sum" version="1">
  <param name="N" min="1" integer="true"/>
  <param name="a" min="0"/>
  <graph name="main"><step name="s" cost="sum(i, 1, N, max(i, a*i^2/(i + 3)))"/></graph>
</model>
EOF
got=$("$SEGC" derive -D N=2000 -D a=1/2 "$tmp/sum.xml")
want=$(python3 -c "from fractions import Fraction as F
print(sum(max(F(i), F(1, 2) * i * i / (i + 3)) for i in range(1, 2001)))")
[ "$got" = "$want" ]
ok $? "sum: derive at N = 2000 prints the sum added up ($want, got $(echo "$got" | cut -c1-60))"
# At a = 3 the max is the rational function from i = 2 on, whose sum has
# no closed form: it is added term by term, past the limit.  (At a = 1/2
# the max is i throughout, a sum in closed form.)
"$SEGC" derive -D N=100000000 -D a=3 "$tmp/sum.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q 'max_eval_terms' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "sum: 10^8 terms: exit 3 naming max_eval_terms, nothing printed"
"$SEGC" derive -D P=100000000 -D t_leaf=1 -D t_comb=1 -D m=1 "$tree" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q 'max_eval_terms' "$tmp/err"
ok $? "taskpath: 10^8 leaves: exit 3 naming max_eval_terms"
# --form structural and --json print the numbers too
for p in 3 6; do
	want=$(tree_path $p 3/2 2 1/3)
	got=$("$SEGC" derive --form structural -D P=$p -D t_leaf=3/2 \
		-D t_comb=2 -D m=1/3 "$tree")
	[ "$got" = "$want" ]
	ok $? "taskpath: derive --form structural at P = $p prints $want (got $got)"
	for form in canonical structural; do
		"$SEGC" derive --json --form $form -D P=$p -D t_leaf=3/2 \
			-D t_comb=2 -D m=1/3 "$tree" >"$tmp/out" 2>"$tmp/err"
		python3 -c "import json, sys
d = json.load(open('$tmp/out'))
sys.exit(not (d['total'] == d['comp'] == '$want' and d['names'] == []
	and d['conditions'] == []))"
		ok $? "taskpath: derive --json --form $form at P = $p: total $want"
	done
done
want=$(unroll_pipeline 1/3 7)
got=$("$SEGC" derive --form structural -D c=1/3 -D n=7 "$pipeline")
[ "$got" = "$want" ]
ok $? "maxplus: derive --form structural at c = 1/3, n = 7 prints $want (got $got)"
got=$("$SEGC" derive --form structural -D n=7 "$pipeline")
case $got in maxplus\(7,*) st=0 ;; *) st=1 ;; esac
ok $st "maxplus: the structural form with c free keeps the recurrence"
"$SEGC" derive --form structural -D N=100000000 -D a=3 "$tmp/sum.xml" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q 'max_eval_terms' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "sum: --form structural, 10^8 terms: exit 3 naming max_eval_terms"
"$SEGC" derive --json -D N=100000000 -D a=3 "$tmp/sum.xml" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q 'max_eval_terms' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "sum: --json, 10^8 terms: exit 3 naming max_eval_terms, nothing printed"

"$SEGC" check -D P=5 -D t_leaf=1 -D t_comb=2 -D m=1 --expect 10 "$tree" \
	>"$tmp/out" 2>&1
ok $? "taskpath: check with every name bound proves the number ($(head -1 "$tmp/out"))"
done_testing
