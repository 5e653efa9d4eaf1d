#!/bin/sh
# indexed.sh - task graphs with indexed nodes (FORMAT.md, "Indexed
# nodes").  Random graphs of one or two families (one or two indices,
# ranges with parameters, triangular ranges, shift and floor/ceil maps in
# 'at', costs that use the indices) are evaluated by 'segc eval' over a
# grid of parameter points and compared with a literal unrolling of
# every instance and its longest path, computed here with exact
# fractions; where 'derive' gives a closed form (no taskpath atom), the
# closed form equals the same unrolling at every point.  Then each error
# of the reader and the checker, with its message.  SEED and MODELS may
# be set.
. "$top_srcdir/tests/cli/lib.sh"
seed=${SEED:-20261124}
models=${MODELS:-30}

cat > "$tmp/check.py" <<'PY'
import itertools, math, os, random, re, subprocess, sys
from fractions import Fraction as F

segc, tmp, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)

def result(good, name, why=""):
    print("RESULT %d %s" % (0 if good else 1, name))
    if not good:
        print("# " + why.replace("\n", "\n# "))
    sys.stdout.flush()

def floor(q):
    return F(math.floor(q))

def ceil(q):
    return F(math.ceil(q))

def value(text, env):
    """The value of a segc expression written in the subset used here."""
    e = re.sub(r"(?<![\w.])(\d+)(?![\w.])", r"F(\1)", text)
    e = e.replace("^", "**")
    env = dict(env)
    env.update({"F": F, "floor": floor, "ceil": ceil, "max": max, "min": min,
                "IF": lambda c, x, y: x if c else y})
    return eval(e, env)

def family(name, names, first):
    """Ranges of a family with indices 'names'."""
    r = []
    for k, x in enumerate(names):
        lo = rng.choice(["1", "1", "0", "2"])
        if k == 0:
            hi = rng.choice(["P", "Q", "P + 1", "ceil(P/2)", "3", "P - 1"])
        else:
            hi = rng.choice(["Q", names[0], "P - %s + 1" % names[0],
                             "floor((%s + Q)/2)" % names[0]])
        r.append((x, lo, hi))
    return r

def cost(names):
    c = ["a", "b/2", "1", "3/4", "0"]
    for x in names:
        c += ["%s" % x, "a*%s + 1/4" % x, "(%s + 1)/2" % x, "max(%s, 2)" % x,
              "floor(%s/2)*b" % x]
    return rng.choice(c)

def maps(ranges, target):
    """at values from a family with 'ranges' into family 'target' (or
    itself when target is None): each map advances the first index, or
    keeps it and advances the second, so the instances stay acyclic."""
    src = [r[0] for r in ranges]
    if target is None:
        out = []
        x = src[0]
        for _ in range(rng.randint(1, 2)):
            if len(src) == 1:
                out.append(rng.choice(["%s + 1" % x, "%s + 2" % x,
                                       "2*%s + 1" % x]))
            elif rng.random() < 0.5:
                out.append("%s + %d, %s" % (x, rng.randint(1, 2), rng.choice(
                    [src[1], "floor(%s/2) + 1" % src[1], "%s + 1" % src[1],
                     "ceil(%s/2)" % src[1]])))
            else:
                out.append("%s, %s + 1" % (x, src[1]))
        return sorted(set(out))
    vals = []
    for k in range(target):
        vals.append(rng.choice(["ceil(%s/2)" % src[0], src[0], "1",
                                "floor(%s/3) + 1" % src[-1], "%s - 1" % src[-1]]))
    return [", ".join(vals)]

def box_model(k):
    """A graph of separable boxes (the shape derive closes), with now and
    then one thing that breaks the shape."""
    nf = rng.randint(1, 2)
    nodes = [("s", [], rng.choice(["0", "a", "1/2"]))]
    arcs = []
    mids = []
    for f in range(nf):
        d = rng.randint(1, 2)
        names = (["x", "y"] if f == 0 else ["k", "l"])[:d]
        lo = [rng.choice(["1", "0", "2"]) for _ in names]
        hi = [rng.choice(["P", "Q", "P - 1", "ceil(Q/2)", "2"]) for _ in names]
        c = rng.choice(["a", "1/2", "b + 1", "0"])
        if rng.random() < 0.1:
            c = names[0]
        nodes.append(("f%d" % f, list(zip(names, lo, hi)), c))
        start = ", ".join(lo)
        if rng.random() < 0.1:
            start = ", ".join(["1"] * d)
        arcs.append(("s", "f%d" % f, start, rng.choice([None, "b"])))
        for j in range(d):
            for _ in range(rng.randint(1, 2)):
                at = ", ".join(n + (" + 1" if i == j else "") for i, n in enumerate(names))
                arcs.append(("f%d" % f, "f%d" % f, at, rng.choice([None, "a", "b/2", "1"])))
        mid = rng.random() < 0.4
        if mid:
            nodes.append(("g%d" % f, [], rng.choice(["1", "a"])))
            arcs.append(("f%d" % f, "g%d" % f, None, rng.choice([None, "b"])))
            mids.append("g%d" % f)
        else:
            mids.append("f%d" % f)
    nodes.append(("e", [], rng.choice(["0", "b", "1"])))
    for g in mids:
        arcs.append((g, "e", None, rng.choice([None, "a"])))
    if rng.random() < 0.4 or nf == 2:
        arcs.append(("s", "e", None, rng.choice([None, "2"])))
    return nodes, arcs

def model(k):
    if rng.random() < 0.5:
        nodes, arcs = box_model(k)
        return text(k, nodes, arcs), nodes, arcs
    nf = rng.randint(1, 2)
    fams = []
    for f in range(nf):
        d = rng.randint(1, 2)
        names = ["x", "y"][:d] if f == 0 else ["k", "l"][:d]
        fams.append(("f%d" % f, family("f%d" % f, names, f == 0), cost(names)))
    nodes = [("s", [], rng.choice(["0", "a", "1/2"]))]
    nodes += fams
    nodes.append(("e", [], rng.choice(["0", "b", "1"])))
    arcs = []
    f0 = fams[0]
    d0 = len(f0[1])
    if rng.random() < 0.5:
        arcs.append(("s", f0[0], ", ".join(rng.choice(["1", "0", "2", "ceil(Q/2)"])
                                            for _ in range(d0)), rng.choice([None, "b"])))
    else:
        arcs.append(("s", f0[0], None, rng.choice([None, "a"])))
    for f in fams:
        if rng.random() < 0.8:
            for m in maps(f[1], None):
                arcs.append((f[0], f[0], m, rng.choice([None, "b", cost([r[0] for r in f[1]])])))
    if nf == 2:
        f1 = fams[1]
        for m in maps(f0[1], len(f1[1])):
            arcs.append((f0[0], f1[0], m, rng.choice([None, "a", cost([r[0] for r in f0[1]])])))
        if rng.random() < 0.5:
            arcs.append(("s", f1[0], None, None))
    for f in fams:
        if f is f0 and nf == 2 and rng.random() < 0.5:
            continue
        arcs.append((f[0], "e", None, rng.choice([None, "b", cost([r[0] for r in f[1]])])))
    if rng.random() < 0.3:
        arcs.append(("s", "e", None, rng.choice(["a", "2"])))
    return text(k, nodes, arcs), nodes, arcs

def text(k, nodes, arcs):
    out = ['<model name="ix%d" version="1">' % k,
           '  <param name="P" min="0" integer="true"/>',
           '  <param name="Q" min="0" integer="true"/>',
           '  <param name="a" min="0"/>', '  <param name="b" min="0"/>',
           '  <graph name="main">']
    for (n, r, c) in nodes:
        ix = ' index="%s"' % ", ".join("%s=%s..%s" % t for t in r) if r else ""
        out.append('    <node id="%s" cost="%s"%s/>' % (n, c, ix))
    for (u, v, at, c) in arcs:
        out.append('    <arc from="%s" to="%s"%s%s/>' % (
            u, v, ' at="%s"' % at if at else "", ' cost="%s"' % c if c else ""))
    out += ['  </graph>', '</model>']
    return "\n".join(out) + "\n"

def unroll(nodes, arcs, env):
    """The longest path from s to e over every instance: a node starts
    when every arc into it has arrived (at 0 when none), ends its cost
    later."""
    inst = {}
    order = []
    for (n, r, c) in nodes:
        pts = [()]
        for (x, lo, hi) in r:
            nxt = []
            for p in pts:
                e = dict(env)
                e.update(zip([t[0] for t in r], [F(v) for v in p]))
                l, h = value(lo, e), value(hi, e)
                nxt += [p + (v,) for v in range(int(l), int(h) + 1)]
            pts = nxt
        for p in pts:
            inst[(n, p)] = None
            order.append((n, p))
    names = {n: [t[0] for t in r] for (n, r, c) in nodes}
    costs = {n: c for (n, r, c) in nodes}
    succ = {i: [] for i in order}
    indeg = {i: 0 for i in order}
    for (u, v, at, c) in arcs:
        for (n, p) in order:
            if n != u:
                continue
            e = dict(env)
            e.update(zip(names[u], [F(x) for x in p]))
            w = value(c, e) if c else F(0)
            if at:
                q = tuple(int(value(t, e)) for t in split(at))
                targets = [(v, q)] if (v, q) in inst else []
            else:
                targets = [i for i in order if i[0] == v]
            for t in targets:
                succ[(n, p)].append((t, w))
                indeg[t] += 1
    arr = {i: None for i in order}
    fin = {}
    queue = [i for i in order if indeg[i] == 0]
    while queue:
        i = queue.pop()
        e = dict(env)
        e.update(zip(names[i[0]], [F(x) for x in i[1]]))
        fin[i] = (arr[i] or F(0)) + value(costs[i[0]], e)
        for (t, w) in succ[i]:
            if arr[t] is None or fin[i] + w > arr[t]:
                arr[t] = fin[i] + w
            indeg[t] -= 1
            if indeg[t] == 0:
                queue.append(t)
    assert len(fin) == len(order), "cycle"
    return fin[("e", ())]

def split(at):
    out, depth, cur = [], 0, ""
    for ch in at:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    return out + [cur]

def run(args):
    return subprocess.run(args, capture_output=True, text=True)

Ps, Qs = list(range(0, 7)), list(range(0, 5))
closed = 0
for k in range(count):
    xml, nodes, arcs = model(k)
    path = os.path.join(tmp, "ix%d.xml" % k)
    with open(path, "w") as f:
        f.write(xml)
    a, b = F(rng.randint(0, 12), 4), F(rng.randint(0, 12), 2)
    r = run([segc, "eval", "--csv", "--digits", "40", path,
             "P=" + ",".join(map(str, Ps)), "Q=" + ",".join(map(str, Qs)),
             "a=%s" % a, "b=%s" % b])
    if r.returncode != 0:
        result(False, "eval of model %d" % k, r.stderr[:400] + "\n" + xml)
        continue
    bad = []
    head = r.stdout.splitlines()[0].split(",")
    col = head.index("total")
    for line in r.stdout.splitlines()[1:]:
        cells = line.split(",")
        try:
            P, Q, total = int(cells[0]), int(cells[1]), F(cells[col])
        except ValueError:
            bad.append(line)
            continue
        want = unroll(nodes, arcs, {"P": F(P), "Q": F(Q), "a": a, "b": b})
        if want != total:
            bad.append((P, Q, str(total), str(want)))
    result(not bad and len(r.stdout.splitlines()) == 1 + len(Ps) * len(Qs),
           "eval equals the unrolling at %d points, model %d" % (len(Ps) * len(Qs), k),
           str(bad[:3]) + "\n" + xml)
    r = run([segc, "derive", path])
    if r.returncode != 0:
        result(False, "derive of model %d" % k, r.stderr[:400])
    elif "taskpath" not in r.stdout:
        closed += 1
        bad = []
        for P in Ps:
            for Q in Qs:
                env = {"P": F(P), "Q": F(Q), "a": a, "b": b}
                if value(re.sub(r"\bif\(", "IF(", r.stdout.strip()), env) != unroll(nodes, arcs, env):
                    bad.append((P, Q))
        result(not bad, "the closed form of model %d equals the unrolling" % k,
               r.stdout + str(bad[:3]) + "\n" + xml)
print("# %d of %d models derived to a closed form" % (closed, count))
PY

python3 "$tmp/check.py" "$SEGC" "$tmp" "$seed" "$models" > "$tmp/log" 2>&1
relay_results "$tmp/log" $?

# The bundled examples: the wavefront's closed form, and the reduction
# tree's longest path against its hand derivation t_leaf +
# ceil(log2(P))*(t_comb + m) at P = 1..70 and 1000.
out=$("$SEGC" derive "$top_srcdir/xml/examples/wavefront.xml")
[ "$out" = "Px*c + Px*m + Py*c + Py*m - c - 2*m" ]
ok $? "the wavefront's closed form (got '$out')"
"$SEGC" check "$top_srcdir/xml/examples/wavefront.xml" >/dev/null 2>&1
ok $? "the wavefront meets its expectation"
"$SEGC" eval --csv --digits 30 "$top_srcdir/xml/examples/reduction_tree.xml" \
	P=1..70 t_leaf=3/2 t_comb=5 m=1/4 > "$tmp/tree" 2>&1
"$SEGC" eval --csv --digits 30 "$top_srcdir/xml/examples/reduction_tree.xml" \
	P=1000 t_leaf=3/2 t_comb=5 m=1/4 | tail -n +2 >> "$tmp/tree"
python3 - "$tmp/tree" <<'PY'
import sys
from fractions import Fraction as F
rows = open(sys.argv[1]).read().split("\n")
head = rows[0].split(",")
bad = []
n = 0
for r in rows[1:]:
    if not r:
        continue
    c = r.split(",")
    P = int(c[0])
    n += 1
    if F(c[head.index("total")]) != F(3, 2) + (P - 1).bit_length() * (5 + F(1, 4)):
        bad.append(P)
sys.exit(1 if bad or n != 71 else 0)
PY
ok $? "the reduction tree equals t_leaf + ceil(log2(P))*(t_comb + m)"

# emit: the wavefront's closed form is emitted; the tree's atom too, as
# loops over the instances, for C and for Python (their values:
# tests/cli/emit_taskpath.sh).
"$SEGC" emit -o "$tmp/w" --keep Px --keep Py --keep c --keep m \
	"$top_srcdir/xml/examples/wavefront.xml" >/dev/null 2>"$tmp/err" &&
	[ -s "$tmp/w.c" ]
ok $? "emit of the wavefront's closed form"
for lang in c python; do
	"$SEGC" emit -o "$tmp/t" --lang $lang --keep t_leaf --keep t_comb --keep m \
		"$top_srcdir/xml/examples/reduction_tree.xml" > "$tmp/t.out" \
		2>"$tmp/err"
	[ $? -eq 0 ] && [ -s "$tmp/t.$([ $lang = c ] && echo c || echo py)" ]
	ok $? "emit --lang $lang writes the atom's predictor"
done

# The errors of the reader and the checker: each mutant of a good model
# is refused (exit 2) with its message, at FILE:LINE:COL.
cat > "$tmp/good.xml" <<'XML'
<model name="wave" version="1">
  <param name="Px" min="0" integer="true"/>
  <param name="Py" min="0" integer="true"/>
  <param name="c"/>
  <param name="m"/>
  <graph name="main">
    <node id="start"/>
    <node id="cell" cost="c" index="x=1..Px, y=1..Py"/>
    <node id="end"/>
    <arc from="start" to="cell" at="1, 1"/>
    <arc from="cell" to="cell" at="x+1, y" cost="m"/>
    <arc from="cell" to="cell" at="x, y+1" cost="m"/>
    <arc from="cell" to="end"/>
  </graph>
</model>
XML
"$SEGC" validate "$tmp/good.xml" >"$tmp/out" 2>&1
ok $? "the wavefront model is valid"

# refused SED-SCRIPT MESSAGE NAME
refused() {
	sed "$1" "$tmp/good.xml" > "$tmp/bad.xml"
	"$SEGC" validate "$tmp/bad.xml" >"$tmp/out" 2>&1
	st=$?
	if [ $st -eq 2 ] && grep -E -q "bad.xml:[0-9]+:[0-9]+: error: .*$2" \
			"$tmp/out"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "exit $st" "$(cat "$tmp/out")"
	fi
}
refused 's/y=1..Py/y=1/' "'index': \"y=1\" is not a range NAME=LOW..HIGH" \
	"a range without .."
refused 's/x=1..Px/x=1..(Px/' "expected '\\)'" "a bound that does not parse"
refused 's/x=1..Px, y=1..Py/x=1..Px, x=1..Py/' "index 'x' is named twice" \
	"an index named twice"
refused 's/x=1..Px, y=1..Py/x=1..y, y=1..Py/' "undeclared name 'y' in attribute 'index'" \
	"a bound that uses a later index"
refused 's/x=1..Px/c=1..Px/' "index 'c' hides the <param> of that name" \
	"an index named as a parameter"
refused 's/at="x+1, y"/at="z+1, y"/' "undeclared name 'z' in attribute 'at'" \
	"an unknown index name in at"
refused 's/at="x+1, y"/at="x+1"/' "'at' gives 1 value, but 'cell' has 2 indices" \
	"too few at values"
refused 's/at="1, 1"/at="1, 1, 1"/' "'at' gives 3 values, but 'cell' has 2 indices" \
	"too many at values"
refused 's/ at="x+1, y"//' "an arc between two indexed nodes needs 'at'" \
	"a missing at between families"
refused 's/to="end"\/>/to="end" at="x"\/>/' "'end' has no 'index'" \
	"at on an arc into a plain node"
refused 's/to="end"\/>/to="end" loop="3"\/>/' "may not stand in a loop region" \
	"a family in a loop region"
refused 's/to="end"\/>/to="end" forward="1"\/>/' "may not stand in a loop region" \
	"a forward edge beside a family"
refused 's/<node id="start"\/>/<node id="start" split="or"\/>/' \
	"its nodes split and join with 'and', not 'or'" "a family in an or-graph"
refused 's/to="end"\/>/to="end" prob="1"\/>/' "its arcs take no 'prob'" \
	"a probability beside a family"
refused 's/at="x+1, y" cost="m"/at="x+1, y" cost="m" class="comm"/' \
	"its arcs take no 'class'" "a class beside a family"
refused 's/cost="c" index/cost="sum(i, 1, x, i)" index/' \
	"an expression of the indices may use" "a sum over an index"
refused 's/at="x+1, y"/at="x+1, "/' "" "an empty at value"

# At evaluation: a cycle made by the at values, and the limit.
sed 's/at="x+1, y"/at="x+1, y-1"/; s/at="x, y+1"/at="x-1, y+1"/' \
	"$tmp/good.xml" > "$tmp/cycle.xml"
"$SEGC" eval "$tmp/cycle.xml" Px=3 Py=3 c=1 m=1 >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "the at values make a cycle" "$tmp/out"
ok $? "a cycle of the at values is reported at evaluation"
sed 's/cost="c" index/cost="c + x" index/' "$tmp/good.xml" > "$tmp/atom.xml"
"$SEGC" derive "$tmp/atom.xml" | grep -q '^taskpath('
ok $? "a cost of the indices keeps the atom"
"$SEGC" eval "$tmp/atom.xml" Px=4000 Py=4000 c=1 m=1 >"$tmp/out" 2>&1
[ $? -eq 3 ] && grep -q "(max_eval_terms)" "$tmp/out"
ok $? "too many instances is a limit error"
"$SEGC" eval --limit max_eval_terms=100 "$tmp/atom.xml" Px=10 Py=10 c=1 \
	m=1 >"$tmp/out" 2>&1
[ $? -eq 3 ] && grep -q "more than 100 instances" "$tmp/out"
ok $? "the limit follows --limit max_eval_terms"
sed 's/y=1..Py/y=1..0/' "$tmp/atom.xml" > "$tmp/empty.xml"
"$SEGC" eval "$tmp/empty.xml" Px=1000000000000 Py=1 c=1 m=1 >"$tmp/out" 2>&1
[ $? -eq 3 ] && grep -q "(max_eval_terms)" "$tmp/out"
ok $? "a long range over an empty one ends at the limit"
"$SEGC" eval "$tmp/good.xml" Px=5/2 Py=3 c=1 m=1 >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "is not an integer" "$tmp/out"
ok $? "a bound that is not an integer is reported"

done_testing
