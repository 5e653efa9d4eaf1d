#!/bin/sh
# forward_symbolic.sh - closed forms of overlapped loops whose costs are
# symbolic, proved on the declared domains.  'segc derive' (no value bound)
# of the pipeline of forward_symbolic.xml (a work stage c >= 3) and of
# forward_switch.xml (a pace that changes at x = 1) gives a closed form,
# the second one piecewise in x; random cyclic task graphs with forward
# edges whose costs are affine in one or two parameters of random domains
# then do the same where they can.  Every closed form, evaluated here with
# exact fractions at points of the domains (its bounds and points inside)
# for n = 0..40, equals a literal unrolling of the iterations (the longest
# path of the DAG of all n iterations, every node starting at 0 or when
# its predecessors finish); where derive keeps the recurrence, 'segc eval'
# of it equals the unrolling.  The share of random graphs with a closed
# form is printed.  SEED and MODELS may be set.
. "$top_srcdir/tests/cli/lib.sh"
seed=${SEED:-20261124}
models=${MODELS:-40}
dir=$top_srcdir/tests/cli/models

cat > "$tmp/check.py" <<'PY'
import os, random, re, subprocess, sys
from fractions import Fraction as F

segc, tmp, dir = sys.argv[1], sys.argv[2], sys.argv[3]
seed, count = int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
N = 40

def result(good, name, why=""):
    print("RESULT %d %s" % (0 if good else 1, name))
    if not good:
        print("# " + why)
    sys.stdout.flush()

def run(args):
    return subprocess.run(args, capture_output=True, text=True)

def unroll(m, ncost, edges, env):
    """T(0..N) for the nodes 0..m-1 (the last the exit, a topological
    order of an iteration's arcs): costs and edge costs are functions of
    the point 'env'; edges (u, v, d, w) with d iterations back."""
    cv = [c(env) for c in ncost]
    ins = [[(u, d, w(env) if w else F(0)) for (u, x, d, w) in edges if x == v]
           for v in range(m)]
    fin, T = [[F(0)] * m], [F(0)]
    for i in range(1, N + 1):
        row = [F(0)] * m
        for v in range(m):
            best = F(0)
            for (u, d, w) in ins[v]:
                if i - d >= 1:
                    best = max(best, (row[u] if d == 0 else fin[i - d][u]) + w)
            row[v] = best + cv[v]
        fin.append(row)
        T.append(row[m - 1])
    return T

def value(text, env, n):
    """The formula 'text' printed by derive at the point env and n."""
    e = re.sub(r"\bif\(", "IF(", text.strip())
    e = re.sub(r"(?<![\w.])(\d+)(?![\w.])", r"F(\1)", e)
    names = dict(env)
    names.update({"IF": lambda c, x, y: x if c else y, "F": F, "n": F(n)})
    return eval(e, names)

def derive(path):
    r = run([segc, "derive", path])
    return r.returncode, r.stdout.strip(), r.stderr[:300]

def eval_segc(path, env):
    r = run([segc, "eval", "--csv", "--digits", "40", path, "n=0..%d" % N]
            + ["%s=%s" % kv for kv in sorted(env.items())])
    if r.returncode:
        return None, r.stderr[:300]
    lines = r.stdout.strip().split("\n")
    head = lines[0].split(",")
    i, j = head.index("n"), head.index("total")
    return {int(float(l.split(",")[i])): F(l.split(",")[j])
            for l in lines[1:]}, ""

def close(x, want):
    return abs(x - want) <= F(1, 10 ** 30) * max(1, abs(want))

def check_closed(text, points, unrolled, tag):
    bad = []
    for env in points:
        T = unrolled(env)
        bad += [(env, n) for n in range(N + 1) if value(text, env, n) != T[n]]
    result(not bad, "the closed form equals the unrolling at %d points, "
           "n = 0..%d, %s" % (len(points), N, tag), "%s: %s" % (text, bad[:3]))

def check_eval(path, points, unrolled, tag):
    bad = []
    for env in points:
        T = unrolled(env)
        got, why = eval_segc(path, env)
        if got is None:
            bad.append((env, why))
            continue
        bad += [(env, n) for n in range(N + 1) if not close(got[n], T[n])]
    result(not bad, "eval equals the unrolling at %d points, n = 0..%d, %s"
           % (len(points), N, tag), str(bad[:3]))

# -- the hand-written models
K = lambda q: (lambda env: F(q))
pipe = (4, [K(2), lambda env: env["c"], K(F(3, 2)), K(F(1, 2))],
        [(0, 1, 0, None), (0, 2, 0, K(1)), (1, 3, 0, None), (2, 3, 0, None),
         (1, 1, 1, K(F(1, 4))), (3, 0, 2, None)])
switch = (2, [K(1), lambda env: env["x"]],
          [(0, 1, 0, None), (0, 0, 1, None), (1, 1, 1, None),
           (1, 0, 2, None)])
for name, sysm, pts, piecewise in (
        ("forward_symbolic", pipe,
         [{"c": F(q)} for q in ("3", "7/2", "4", "10", "101/7")], None),
        ("forward_switch", switch,
         [{"x": F(q)} for q in ("1/2", "3/4", "1", "5/4", "2", "4")], "x")):
    path = os.path.join(dir, name + ".xml")
    rc, text, err = derive(path)
    result(rc == 0 and "maxplus" not in text,
           "derive gives a closed form for %s: %s" % (name, text), err)
    if piecewise:
        result(re.search(r"\bif\(%s [<>]=? 1," % piecewise, text) is not None,
               "the closed form of %s is piecewise in %s" % (name, piecewise),
               text)
    unrolled = lambda env, s=sysm: unroll(s[0], s[1], s[2], env)
    if rc == 0 and "maxplus" not in text:
        check_closed(text, pts, unrolled, name)
    check_eval(path, pts, unrolled, name)

# -- random models
def domain():
    lo = rng.choice([F(0), F(0), F(1, 2), F(1), F(2)])
    hi = lo + rng.choice([F(1), F(2), F(4), F(8)]) if rng.random() < 0.7 \
        else None
    return lo, hi

def cost(params, dom):
    """A cost: text for the model and a function of the point; affine in
    the parameters and >= 0 on their domains."""
    r = rng.random()
    q = F(rng.randint(0, 12), rng.choice([1, 1, 2, 4]))
    if r < 0.45:
        return str(q), (lambda env, q=q: q)
    p = rng.choice(params)
    k = rng.choice([F(1), F(1), F(2), F(1, 2)])
    if r < 0.55 and dom[p][1] is not None:
        # decreasing in p: k*(hi - p) + q
        hi = dom[p][1]
        return ("%s*(%s - %s) + %s" % (k, hi, p, q),
                lambda env, k=k, hi=hi, p=p, q=q: k * (hi - env[p]) + q)
    if r < 0.7 and len(params) > 1:
        return ("%s + %s + %s" % (params[0], params[1], q),
                lambda env, q=q: env["a"] + env["b"] + q)
    return ("%s*%s + %s" % (k, p, q),
            lambda env, k=k, p=p, q=q: k * env[p] + q)

def model(k):
    params = ["a", "b"] if rng.random() < 0.4 else ["a"]
    dom = {p: domain() for p in params}
    m = rng.randint(2, 6)
    arcs = set()
    for v in range(1, m):
        for u in rng.sample(range(v), rng.randint(1, min(v, 2))):
            arcs.add((u, v))
    for u in range(m - 1):
        if not any(a[0] == u for a in arcs):
            arcs.add((u, rng.randint(u + 1, m - 1)))
    arcs = sorted(arcs)
    ncost = [cost(params, dom) for _ in range(m)]
    acost = {a: cost(params, dom) for a in arcs if rng.random() < 0.3}
    fwd = []
    if rng.random() < 0.8:
        # the next iterations wait for this one's exit, as in a pipeline
        fwd.append((m - 1, 0, rng.choice([1, 1, 2]),
                    cost(params, dom) if rng.random() < 0.3
                    else ("0", lambda env: F(0))))
    for _ in range(rng.randint(0 if fwd else 1, 2)):
        u, v, d = rng.randrange(m), rng.randrange(m), rng.randint(1, 2)
        if any(f[:3] == (u, v, d) for f in fwd):
            continue
        fwd.append((u, v, d, cost(params, dom) if rng.random() < 0.4
                    else ("0", lambda env: F(0))))
    out = ['<model name="fs%d" version="1">' % k,
           '  <param name="n" min="0" integer="true"/>']
    for p in params:
        lo, hi = dom[p]
        out.append('  <param name="%s" min="%s"%s/>'
                   % (p, lo, ' max="%s"' % hi if hi is not None else ""))
    out.append('  <graph name="main">')
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
    out.append('    <arc from="v%d" to="v0" loop="n" overlap="true"/>'
               % (m - 1))
    out += ['  </graph>', '</model>']
    edges = [(u, v, 0, acost[(u, v)][1] if (u, v) in acost else None)
             for (u, v) in arcs]
    edges += [(u, v, d, c[1]) for (u, v, d, c) in fwd]
    # Points: the bounds of each domain and two points inside.
    values = {}
    for p in params:
        lo, hi = dom[p]
        top = hi if hi is not None else lo + 10
        values[p] = [lo, top] + [lo + (top - lo) * F(rng.randint(1, 15), 16)
                                 for _ in range(2)]
    points = [{p: values[p][j] for p in params} for j in range(4)]
    if len(params) > 1:
        points += [{"a": values["a"][0], "b": values["b"][1]},
                   {"a": values["a"][1], "b": values["b"][0]}]
    return "\n".join(out) + "\n", m, ncost, edges, points

closed = 0
for k in range(count):
    xml, m, ncost, edges, points = model(k)
    path = os.path.join(tmp, "fs%d.xml" % k)
    with open(path, "w") as f:
        f.write(xml)
    unrolled = lambda env: unroll(m, [c[1] for c in ncost], edges, env)
    tag = "model %d (%d nodes)" % (k, m)
    rc, text, err = derive(path)
    if rc != 0:
        result(False, "derive, " + tag, err)
        continue
    if "maxplus" in text:
        print("# derive keeps the recurrence: %s" % tag)
    else:
        closed += 1
        check_closed(text, points, unrolled, tag)
    check_eval(path, points, unrolled, tag)
print("# %d of %d random graphs got a closed form" % (closed, count))
result(closed * 5 >= count * 2, "at least 2 in 5 random graphs get a closed form "
       "(%d of %d)" % (closed, count))
PY

python3 "$tmp/check.py" "$SEGC" "$tmp" "$dir" "$seed" "$models" \
	> "$tmp/log" 2>&1
relay_results "$tmp/log" $?
done_testing
