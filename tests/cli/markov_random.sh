#!/bin/sh
# markov_random.sh - random or-graphs with probabilistic cycles (arcs
# back to any earlier node, skips ahead), rational probabilities and
# costs, some costs symbolic (a, bound with -D): 'segc derive' equals the
# expected time to absorption computed here with exact fractions (a
# cost-free entry before node 0, so that arcs may go back to it), the
# visit counts solved by Gaussian elimination of (I - Q^T) x = e_entry.
# Both the solver over numbers (every probability a number) and, with a
# symbolic probability p bound by -D, the general one are exercised.
# SEED and MODELS may be set.
. "$top_srcdir/tests/cli/lib.sh"
seed=${SEED:-20261126}
models=${MODELS:-24}

cat > "$tmp/check.py" <<'PY'
import random, subprocess, sys
from fractions import Fraction as F

segc, tmp, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
A = F(7, 3)
P = F(1, 5)

def result(good, name, why=""):
    print("RESULT %d %s" % (0 if good else 1, name))
    if not good:
        print("# " + why)
    sys.stdout.flush()

def cost():
    """Text and value (a = A) of a cost."""
    r = rng.random()
    if r < 0.2:
        return ("a", A)
    if r < 0.3:
        return ("2*a + 1/4", 2 * A + F(1, 4))
    q = F(rng.randint(0, 9), rng.choice([1, 2, 3, 7]))
    return (str(q), q)

def model(n, symbolic_prob):
    nodes = [cost() for _ in range(n)]
    arcs = []          # (from, to, prob text or None, prob value, cost)
    for u in range(n - 1):
        left = F(1)
        for _ in range(rng.randint(0, 2)):
            v = rng.randrange(0, u + 1) if rng.random() < 0.6 else \
                rng.randrange(u + 1, n)
            if symbolic_prob and rng.random() < 0.3:
                text, p = "p", P
            else:
                p = F(rng.randint(1, 3), rng.choice([5, 7, 10, 12]))
                text = str(p)
            if p >= left:
                continue
            left -= p
            c = cost() if rng.random() < 0.3 else ("0", F(0))
            arcs.append((u, v, text, p, c))
        c = cost() if rng.random() < 0.2 else ("0", F(0))
        arcs.append((u, u + 1, None, left, c))
    return nodes, arcs

def expected(n, nodes, arcs):
    # (I - Q^T) x = e_0, dense elimination with exact fractions
    M = [[F(int(i == j)) for j in range(n)] + [F(int(i == 0))]
         for i in range(n)]
    for u, v, _, p, _ in arcs:
        M[v][u] -= p
    for k in range(n):
        piv = next(i for i in range(k, n) if M[i][k] != 0)
        M[k], M[piv] = M[piv], M[k]
        for i in range(n):
            if i != k and M[i][k] != 0:
                f = M[i][k] / M[k][k]
                M[i] = [a - f * b for a, b in zip(M[i], M[k])]
    x = [M[i][n] / M[i][i] for i in range(n)]
    t = sum(x[v] * nodes[v][1] for v in range(n))
    t += sum(x[u] * p * c[1] for u, _, _, p, c in arcs)
    return t

def write(path, n, nodes, arcs):
    with open(path, "w") as f:
        f.write('<model name="m" version="1">\n<param name="a" min="0"/>\n'
                '<param name="p" min="0" max="1/4"/>\n<graph name="main">\n'
                '<node id="s"/>\n<arc from="s" to="v0"/>\n')
        for v, (text, _) in enumerate(nodes):
            f.write('<node id="v%d" cost="%s"/>\n' % (v, text))
        for u, v, text, _, c in arcs:
            f.write('<arc from="v%d" to="v%d"%s%s/>\n' % (
                u, v, ' prob="%s"' % text if text else "",
                ' cost="%s"' % c[0] if c[0] != "0" else ""))
        f.write('</graph>\n</model>\n')

for k in range(count):
    symbolic_prob = k % 3 == 2
    n = rng.choice([2, 3, 5, 8, 13, 21, 40])
    nodes, arcs = model(n, symbolic_prob)
    path = "%s/m%d.xml" % (tmp, k)
    write(path, n, nodes, arcs)
    want = expected(n, nodes, arcs)
    tag = "model %d (%d nodes, %d arcs%s)" % (
        k, n, len(arcs), ", symbolic p" if symbolic_prob else "")
    r = subprocess.run([segc, "derive", "-D", "a=7/3", "-D", "p=1/5", path],
                       capture_output=True, text=True)
    try:
        got = F(r.stdout.strip())
    except ValueError:
        got = None
    result(r.returncode == 0 and got == want, "derive equals the exact "
           "expected time, " + tag, "got %r (%s), want %s" % (
               r.stdout.strip()[:80], r.stderr.strip()[:200], want))
PY

python3 "$tmp/check.py" "$SEGC" "$tmp" "$seed" "$models" > "$tmp/log" 2>&1
relay_results "$tmp/log" $?
done_testing
