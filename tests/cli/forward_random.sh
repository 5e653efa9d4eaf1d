#!/bin/sh
# forward_random.sh - random cyclic task graphs with forward edges (an
# overlapped loop, or a plain one whose forward edges carry costs): a DAG
# of 2..7 nodes per iteration with and-splits and and-joins, 1..3 forward
# edges of distance 1..3, rational costs, some of them symbolic (a, b) and
# bound at evaluation.  'segc eval', the emitted C (compiled, run) and the
# emitted Python equal a literal unrolling of the iterations, the longest
# path of the DAG of all n iterations computed here with exact fractions:
# at n = 0..30, at n = 10^4 (unrolled directly) and, for eval and the C, at
# n = 10^6 (the unrolling's own periodic extrapolation, found on its last
# 5000 iterations).  Where 'derive' gives a closed form, it equals the
# unrolling for n = 0..200 and at 10^4.  SEED and MODELS may be set.
. "$top_srcdir/tests/cli/lib.sh"
seed=${SEED:-20261124}
models=${MODELS:-14}
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"

cat > "$tmp/check.py" <<'PY'
import os, random, re, subprocess, sys
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

def rational():
    return F(rng.randint(0, 12), rng.choice([1, 1, 2, 3, 4, 5, 8]))

SYMBOLIC = [("a", lambda a, b: a), ("2*a + 1/3", lambda a, b: 2 * a + F(1, 3)),
            ("b/2", lambda a, b: b / 2), ("a + b", lambda a, b: a + b)]

def cost():
    """A cost: text for the model, function of (a, b) for the unrolling."""
    if rng.random() < 0.25:
        return rng.choice(SYMBOLIC)
    q = rational()
    return (str(q), lambda a, b, q=q: q)

def model(k):
    m = rng.randint(2, 7)
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
    fwd = []
    for _ in range(rng.randint(1, 3)):
        u, v, d = rng.randrange(m), rng.randrange(m), rng.randint(1, 3)
        if any(f[:3] == (u, v, d) for f in fwd):
            continue
        fwd.append((u, v, d, cost()))
    overlap = rng.random() < 0.7
    if not overlap and all(f[3][0] == "0" for f in fwd):
        fwd[0] = fwd[0][:3] + (("1/2", lambda a, b: F(1, 2)),)
    name = "v"
    out = ['<model name="fr%d" version="1">' % k,
           '  <param name="n" min="0" integer="true"/>',
           '  <param name="a" min="0"/>', '  <param name="b" min="0"/>',
           '  <graph name="main">']
    for v in range(m):
        attrs = ""
        if sum(1 for a in arcs if a[0] == v) > 1:
            attrs += ' split="and"'
        if sum(1 for a in arcs if a[1] == v) > 1:
            attrs += ' join="and"'
        out.append('    <node id="%s%d" cost="%s"%s/>' % (name, v, ncost[v][0], attrs))
    for (u, v) in arcs:
        c = ' cost="%s"' % acost[(u, v)][0] if (u, v) in acost else ""
        out.append('    <arc from="%s%d" to="%s%d"%s/>' % (name, u, name, v, c))
    for (u, v, d, c) in fwd:
        out.append('    <arc from="%s%d" to="%s%d" forward="%d" cost="%s"/>'
                   % (name, u, name, v, d, c[0]))
    out.append('    <arc from="%s%d" to="%s0" loop="n"%s/>'
               % (name, m - 1, name, ' overlap="true"' if overlap else ""))
    out += ['  </graph>', '</model>']
    edges = [(u, v, 0, acost[(u, v)][1] if (u, v) in acost else None)
             for (u, v) in arcs]
    edges += [(u, v, d, c[1]) for (u, v, d, c) in fwd]
    if not overlap:
        edges.append((m - 1, 0, 1, None))
    return "\n".join(out) + "\n", m, ncost, edges

def unroll(m, ncost, edges, a, b, N):
    """T(0..N): the exit's finish time in iteration n, the longest path
    of the DAG of the first n iterations (every node starting at 0 or
    when its predecessors finish), nodes in a topological order of an
    iteration's arcs, iterations in order."""
    cv = [c[1](a, b) for c in ncost]
    ins = [[(u, d, (w(a, b) if w else F(0))) for (u, x, d, w) in edges if x == v]
           for v in range(m)]
    fin = [[F(0)] * m]
    T = [F(0)]
    for i in range(1, N + 1):
        row = [F(0)] * m
        for v in range(m):
            best = F(0)
            for (u, d, w) in ins[v]:
                if i - d >= 1:
                    t = (row[u] if d == 0 else fin[i - d][u]) + w
                    best = max(best, t)
            row[v] = best + cv[v]
        fin.append(row)
        T.append(row[m - 1])
    return T

def extrapolate(T, n):
    """T(n) from the period the unrolling shows on its last 5000
    iterations: the least c with T(j + c) - T(j) the same for all j."""
    N = len(T) - 1
    for c in range(1, 13):
        delta = T[N] - T[N - c]
        if all(T[j + c] - T[j] == delta for j in range(N - 5000, N - c + 1)):
            j = N - (N - n) % c
            return T[j] + (n - j) // c * delta
    return None

def close(x, want, rel):
    return abs(x - want) <= rel * max(1, abs(want))

def run(args):
    return subprocess.run(args, capture_output=True, text=True)

def column(text, col, sep=","):
    lines = text.strip().split("\n")
    head = lines[0].split(sep)
    i, j = head.index("n"), head.index(col)
    return {int(float(r.split(sep)[i])): r.split(sep)[j] for r in lines[1:]}

def closed_value(text, n):
    e = re.sub(r"\bif\(", "IF(", text.strip())
    e = re.sub(r"(?<![\w.])(\d+)(?![\w.])", r"F(\1)", e)
    return eval(e, {"IF": lambda c, x, y: x if c else y, "F": F,
                    "max": max, "min": min, "n": F(n)})

for k in range(count):
    xml, m, ncost, edges = model(k)
    path = os.path.join(tmp, "fr%d.xml" % k)
    with open(path, "w") as f:
        f.write(xml)
    a, b = F(rng.randint(0, 12), 4), F(rng.randint(0, 12), 4)
    bind = ["a=%s" % a, "b=%s" % b]
    dec = ["a=%s" % float(a), "b=%s" % float(b)]
    T = unroll(m, ncost, edges, a, b, 10000)
    big = extrapolate(T, 10 ** 6)
    tag = "model %d (%d nodes, a=%s, b=%s)" % (k, m, a, b)
    # eval
    r = run([segc, "eval", "--csv", "--digits", "40", path,
             "n=0..30"] + bind)
    bad = r.returncode != 0
    if not bad:
        got = column(r.stdout, "total")
        bad = [n for n in range(31) if not close(F(got[n]), T[n], F(1, 10 ** 30))]
    result(not bad, "eval equals the unrolling at n = 0..30, " + tag,
           "%s %s" % (bad, r.stderr[:300]))
    for n, want in ((10000, T[10000]), (10 ** 6, big)):
        if want is None:
            print("# no period within 5000 iterations: %s" % tag)
            continue
        r = run([segc, "eval", "--csv", "--digits", "40", path,
                 "n=%d" % n] + bind)
        ok = r.returncode == 0 and close(F(column(r.stdout, "total")[n]),
                                         want, F(1, 10 ** 30))
        result(ok, "eval at n = %d, %s" % (n, tag),
               "want %s: %s %s" % (want, r.stdout[-200:], r.stderr[:300]))
    # the emitted C and Python
    base = os.path.join(tmp, "p%d" % k)
    r = run([segc, "emit", "--main", "--keep", "n", "--keep", "a", "--keep",
             "b", "--prefix", "p%d" % k, "-o", base, path])
    c = run(cc.split() + cflags.split() + ["-o", base, base + ".c", "-lm"]) \
        if r.returncode == 0 else r
    result(r.returncode == 0 and c.returncode == 0,
           "emit and compile the C, " + tag, r.stderr[:300] + c.stderr[:600])
    if r.returncode == 0 and c.returncode == 0:
        out = run([base, "N=1", "P=1", "n=0..30"] + dec).stdout
        got = column(out, "total", "\t")
        bad = [n for n in range(31) if not close(F(got[n]), T[n], F(1, 10 ** 12))]
        result(not bad, "the C equals the unrolling at n = 0..30, " + tag,
               "%s %s" % (bad, [(got[n], float(T[n])) for n in bad][:3]))
        for n, want in ((10000, T[10000]), (10 ** 6, big)):
            if want is None:
                continue
            got = column(run([base, "N=1", "P=1", "n=%d" % n] + dec).stdout,
                         "total", "\t")[n]
            result(close(F(got), want, F(1, 10 ** 9)),
                   "the C at n = %d, %s" % (n, tag),
                   "got %s, want %s" % (got, float(want)))
    r = run([segc, "emit", "--lang", "python", "--keep", "n", "--keep", "a",
             "--keep", "b", "--prefix", "q%d" % k, "-o",
             os.path.join(tmp, "q%d" % k), path])
    ok = r.returncode == 0
    if ok:
        mod = __import__("q%d" % k)
        fn = getattr(mod, "q%d_total" % k)
        bad = [n for n in list(range(31)) + [10000]
               if not close(F(fn(1, 1, n, float(a), float(b))), T[n],
                            F(1, 10 ** 12))]
        ok = not bad
    result(ok, "the Python equals the unrolling at n = 0..30, 10^4, " + tag,
           r.stderr[:300] + (str(bad) if r.returncode == 0 else ""))
    # derive
    r = run([segc, "derive", "-D", bind[0], "-D", bind[1], path])
    if r.returncode != 0:
        result(False, "derive, " + tag, r.stderr[:300])
    elif "maxplus" in r.stdout:
        print("# derive keeps the recurrence: %s" % tag)
    else:
        bad = [n for n in list(range(201)) + [10000]
               if closed_value(r.stdout, n) != T[n]]
        result(not bad, "the closed form %s equals the unrolling at n = "
               "0..200, 10^4, %s" % (r.stdout.strip()[:60], tag), str(bad[:5]))
PY

python3 "$tmp/check.py" "$SEGC" "$tmp" "${CC:-cc}" "$CFLAGS_STRICT" \
	"$seed" "$models" > "$tmp/log" 2>&1
relay_results "$tmp/log" $?
done_testing
