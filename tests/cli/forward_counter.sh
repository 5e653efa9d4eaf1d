#!/bin/sh
# forward_counter.sh - loop arcs with a counter (var="i"): random task
# graphs of 2..6 nodes an iteration, and-splits and and-joins, 0..3
# forward edges of distance 1..3, whose node and arc costs are affine in
# the counter i and in a parameter a (bound at evaluation).  Overlapped
# loops, plain loops whose forward edges carry costs, and plain loops
# without forward edges (a sum over i).  'segc eval', the emitted C
# (compiled and run; with --accurate too) and the emitted Python equal a
# literal unrolling of the iterations with exact fractions at n = 0..30
# at two values of a; 'derive' with n and a bound gives the unrolling's
# number; the derived formula, given back to 'check --expect', parses and
# holds, and the same recurrence with one more iteration gets a witness.
# Then the errors: the counter used outside its loop's region, var on an
# arc that is no loop arc, the counter in the loop's own count.  SEED and
# MODELS may be set.
. "$top_srcdir/tests/cli/lib.sh"
seed=${SEED:-20261125}
models=${MODELS:-10}
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"

cat > "$tmp/check.py" <<'PY'
import os, random, subprocess, sys
from fractions import Fraction as F

segc, tmp, cc, cflags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
seed, count = int(sys.argv[5]), int(sys.argv[6])
rng = random.Random(seed)
sys.path.insert(0, tmp)

def result(good, name, why=""):
    print("RESULT %d %s" % (0 if good else 1, name))
    if not good:
        print("# " + why)
    sys.stdout.flush()

def small():
    return F(rng.randint(0, 8), rng.choice([1, 1, 2, 3, 4]))

def cost():
    """A cost affine in i and a: text for the model, function of (a, i)
    for the unrolling."""
    r = rng.random()
    c0, c1, c2 = small(), small(), small()
    if r < 0.2:
        return (str(c0), lambda a, i, c0=c0: c0)
    if r < 0.35:
        return ("(31 - i)/%d" % (int(c1.denominator) + 1),
                lambda a, i, d=int(c1.denominator) + 1: F(31 - i, d))
    if r < 0.5:
        return ("%s*i*a + %s" % (c1, c0),
                lambda a, i, c0=c0, c1=c1: c1 * i * a + c0)
    return ("%s + %s*i + %s*a" % (c0, c1, c2),
            lambda a, i, c0=c0, c1=c1, c2=c2: c0 + c1 * i + c2 * a)

def model(k):
    m = rng.randint(2, 6)
    arcs = set()
    for v in range(1, m):
        for u in rng.sample(range(v), rng.randint(1, min(v, 2))):
            arcs.add((u, v))
    for u in range(m - 1):
        if not any(a[0] == u for a in arcs):
            arcs.add((u, rng.randint(u + 1, m - 1)))
    arcs = sorted(arcs)
    ncost = [cost() for _ in range(m)]
    acost = {a: cost() for a in arcs if rng.random() < 0.4}
    kind = ("overlap", "forward", "sum")[k % 3]
    fwd = []
    for _ in range(0 if kind == "sum" else rng.randint(1, 3)):
        u, v, d = rng.randrange(m), rng.randrange(m), rng.randint(1, 3)
        if any(f[:3] == (u, v, d) for f in fwd):
            continue
        fwd.append((u, v, d, cost()))
    if kind == "forward" and all(f[3][0] == "0" for f in fwd):
        fwd[0] = fwd[0][:3] + (("1/2 + i/4", lambda a, i: F(1, 2) + F(i, 4)),)
    out = ['<model name="fc%d" version="1">' % k,
           '  <param name="n" min="0" integer="true"/>',
           '  <param name="a" min="0"/>',
           '  <graph name="main">']
    for v in range(m):
        attrs = ""
        if sum(1 for a in arcs if a[0] == v) > 1:
            attrs += ' split="and"'
        if sum(1 for a in arcs if a[1] == v) > 1:
            attrs += ' join="and"'
        out.append('    <node id="v%d" cost="%s"%s/>' % (v, ncost[v][0], attrs))
    for (u, v) in arcs:
        c = ' cost="%s"' % acost[(u, v)][0] if (u, v) in acost else ""
        out.append('    <arc from="v%d" to="v%d"%s/>' % (u, v, c))
    for (u, v, d, c) in fwd:
        out.append('    <arc from="v%d" to="v%d" forward="%d" cost="%s"/>'
                   % (u, v, d, c[0]))
    out.append('    <arc from="v%d" to="v0" loop="n" var="i"%s/>'
               % (m - 1, ' overlap="true"' if kind == "overlap" else ""))
    out += ['  </graph>', '</model>']
    edges = [(u, v, 0, acost[(u, v)][1] if (u, v) in acost else None)
             for (u, v) in arcs]
    edges += [(u, v, d, c[1]) for (u, v, d, c) in fwd]
    if kind != "overlap":
        edges.append((m - 1, 0, 1, None))
    return "\n".join(out) + "\n", m, ncost, edges, kind

def unroll(m, ncost, edges, a, N):
    """T(0..N): the exit's finish time in iteration n of the DAG of the
    first n iterations, every node of iteration i with the costs of i,
    starting at 0 or when its predecessors (d iterations back) finish."""
    fin = [[F(0)] * m]
    T = [F(0)]
    for i in range(1, N + 1):
        row = [F(0)] * m
        for v in range(m):
            best = F(0)
            for (u, x, d, w) in edges:
                if x != v or i - d < 1:
                    continue
                t = (row[u] if d == 0 else fin[i - d][u]) + \
                    (w(a, i) if w else F(0))
                best = max(best, t)
            row[v] = best + ncost[v][1](a, i)
        fin.append(row)
        T.append(row[m - 1])
    return T

def close(x, want, rel):
    return abs(x - want) <= rel * max(1, abs(want))

def run(args):
    return subprocess.run(args, capture_output=True, text=True)

def column(text, col, sep=","):
    lines = text.strip().split("\n")
    head = lines[0].split(sep)
    i, j = head.index("n"), head.index(col)
    return {int(float(r.split(sep)[i])): r.split(sep)[j] for r in lines[1:]}

for k in range(count):
    xml, m, ncost, edges, kind = model(k)
    path = os.path.join(tmp, "fc%d.xml" % k)
    with open(path, "w") as f:
        f.write(xml)
    avals = [F(rng.randint(0, 12), 4), F(rng.randint(0, 12), 3)]
    T = {a: unroll(m, ncost, edges, a, 30) for a in avals}
    tag = "model %d (%s, %d nodes)" % (k, kind, m)
    # eval
    bad = []
    for a in avals:
        r = run([segc, "eval", "--csv", "--digits", "40", path,
                 "n=0..30", "a=%s" % a])
        if r.returncode != 0:
            bad.append((str(a), r.stderr[:200]))
            continue
        got = column(r.stdout, "total")
        bad += [(str(a), n) for n in range(31)
                if not close(F(got[n]), T[a][n], F(1, 10 ** 30))]
    result(not bad, "eval equals the unrolling at n = 0..30, " + tag,
           str(bad[:4]))
    # derive, every name bound: the number
    a, n = avals[1], rng.randint(0, 30)
    r = run([segc, "derive", "-D", "a=%s" % a, "-D", "n=%d" % n, path])
    result(r.returncode == 0 and F(r.stdout.strip()) == T[a][n],
           "derive at n = %d gives the unrolling's number, %s" % (n, tag),
           r.stdout[:200] + r.stderr[:200])
    # the derived formula parses back and checks
    r = run([segc, "derive", "--form", "structural", path])
    f = r.stdout.strip()
    c = run([segc, "check", "--expect", f, path])
    result(r.returncode == 0 and c.returncode == 0 and "ok:" in c.stdout,
           "the derived formula checks against the model, " + tag,
           f[:200] + c.stdout[:300] + c.stderr[:300])
    if "maxplusv(" in f:
        g = f.replace("maxplusv(i, n, ", "maxplusv(i, n + 1, ", 1)
        c = run([segc, "check", "--expect", g, path])
        result(c.returncode == 1 and "MISMATCH" in c.stdout,
               "one more iteration gets a witness, " + tag,
               c.stdout[-300:] + c.stderr[:300])
    # the emitted C and Python
    base = os.path.join(tmp, "p%d" % k)
    r = run([segc, "emit", "--main", "--keep", "n", "--keep", "a",
             "--prefix", "p%d" % k, "-o", base, path])
    c = run(cc.split() + cflags.split() + ["-o", base, base + ".c", "-lm"]) \
        if r.returncode == 0 else r
    result(r.returncode == 0 and c.returncode == 0,
           "emit and compile the C, " + tag, r.stderr[:300] + c.stderr[:600])
    if r.returncode == 0 and c.returncode == 0:
        bad = []
        for a in avals:
            out = run([base, "N=1", "P=1", "n=0..30",
                       "a=%r" % float(a)]).stdout
            got = column(out, "total", "\t")
            bad += [(float(a), n, got[n], float(T[a][n])) for n in range(31)
                    if not close(F(got[n]), T[a][n], F(1, 10 ** 12))]
        result(not bad, "the C equals the unrolling at n = 0..30, " + tag,
               str(bad[:3]))
    if k < 3:
        r = run([segc, "emit", "--accurate", "--main", "--keep", "n",
                 "--keep", "a", "--prefix", "d%d" % k, "-o", base + "d", path])
        c = run(cc.split() + cflags.split() + ["-o", base + "d",
                base + "d.c", "-lm"]) if r.returncode == 0 else r
        ok = r.returncode == 0 and c.returncode == 0
        if ok:
            out = run([base + "d", "N=1", "P=1", "n=0..30",
                       "a=%r" % float(avals[0])]).stdout
            got = column(out, "total", "\t")
            ok = all(close(F(got[n]), T[avals[0]][n], F(1, 10 ** 12))
                     for n in range(31))
        result(ok, "the C of --accurate equals the unrolling, " + tag,
               r.stderr[:300] + c.stderr[:300])
    r = run([segc, "emit", "--lang", "python", "--keep", "n", "--keep", "a",
             "--prefix", "q%d" % k, "-o", os.path.join(tmp, "q%d" % k), path])
    ok = r.returncode == 0
    if ok:
        fn = getattr(__import__("q%d" % k), "q%d_total" % k)
        bad = [(a, n) for a in avals for n in range(31)
               if not close(F(fn(1, 1, n, float(a))), T[a][n], F(1, 10 ** 12))]
        ok = not bad
    result(ok, "the Python equals the unrolling at n = 0..30, " + tag,
           r.stderr[:300] + (str(bad[:3]) if r.returncode == 0 else ""))
PY

python3 "$tmp/check.py" "$SEGC" "$tmp" "${CC:-cc}" "$CFLAGS_STRICT" \
	"$seed" "$models" > "$tmp/log" 2>&1
relay_results "$tmp/log" $?

# The counter outside its loop's region: the first node, before the loop
# arc's target, is outside; an error as for an unknown name, at its place.
cat > "$tmp/out.xml" <<'XML'
<model name="outside" version="1">
  <param name="n" min="0" integer="true"/>
  <graph name="main">
    <node id="start" cost="2*i"/>
    <node id="work" cost="i"/>
    <node id="done"/>
    <arc from="start" to="work"/>
    <arc from="work" to="done"/>
    <arc from="work" to="work" forward="1"/>
    <arc from="done" to="work" loop="n" overlap="true" var="i"/>
  </graph>
</model>
XML
"$SEGC" validate "$tmp/out.xml" > "$tmp/err" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "out.xml:4:.*undeclared name 'i'.*counter of the loop at line 10" "$tmp/err"
ok $? "the counter used outside its region: exit 2, the place and the loop"
[ $rc -eq 2 ] || diag "$(cat "$tmp/err")"
sed 's/cost="2\*i"/cost="2"/' "$tmp/out.xml" > "$tmp/in.xml"
"$SEGC" validate "$tmp/in.xml" > "$tmp/err" 2>&1
ok $? "inside its region the counter is bound"
sed 's/<arc from="start" to="work"\/>/<arc from="start" to="work" var="i"\/>/' \
	"$tmp/in.xml" > "$tmp/bad.xml"
"$SEGC" validate "$tmp/bad.xml" > "$tmp/err" 2>&1
[ $? -eq 2 ] && grep -q "'var'.*goes on a loop arc" "$tmp/err"
ok $? "var on an arc that is no loop arc: exit 2"
# The loop arc's count is outside the region too.
sed 's/loop="n" overlap/loop="i" overlap/' "$tmp/in.xml" > "$tmp/bad.xml"
"$SEGC" validate "$tmp/bad.xml" > "$tmp/err" 2>&1
[ $? -eq 2 ] && grep -q "undeclared name 'i'" "$tmp/err"
ok $? "the count of the loop cannot use its own counter"
done_testing
