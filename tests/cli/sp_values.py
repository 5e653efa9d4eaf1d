#!/usr/bin/env python3
"""sp_values.py - random series-parallel programs against their meaning.

Each program nests sequences, pars and branches at random (the family
"sp" of tests/bench/scale.py, made here by its own generator), a step
costing one of the resources a..f (>= 0).  Its time is worked out from
the document directly, in exact rationals: a step is its resource's
value, a sequence the sum of its parts, a par the largest of its parts,
a branch the sum of its cases weighted by their probabilities (the case
without one takes what is left).  'segc derive' gives the formula, read
back with the reader of loops_property.py and evaluated exactly at points
of the domains: corners, one resource alone, random rationals.  A max
alternative dropped as dominated when it is not shows as a point where
the formula is below the program's time.  The text is also required
to have no max as a direct argument of a max (the canonical form
flattens them).

Prints TAP.  Environment: SEGC, TMPDIR.
"""

import os
import random
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loops_property as lp  # noqa: E402

SEGC = os.environ.get("SEGC", "segc")
RES = "a b c d e f".split()
# (seed, steps) of the programs
CASES = [(1, 5), (2, 12), (3, 30), (4, 60), (5, 120), (6, 250), (7, 500),
         (8, 1000), (9, 2000)]


def program(seed, n):
    """The tree of a random program of about n steps: ('step', r),
    ('seq', parts), ('par', parts), ('branch', [(prob or None, part)])."""
    rnd = random.Random(seed)
    budget = [n]

    def block(depth):
        k = 0 if budget[0] <= 1 or depth > 12 else rnd.randrange(4)
        if k == 0:
            budget[0] = max(0, budget[0] - 1)
            return ("step", rnd.choice(RES))
        m = 2 + rnd.randrange(3)
        parts = []
        while len(parts) < m and budget[0]:
            parts.append(block(depth + 1))
        if k < 3:
            return (("seq", "par")[k - 1], parts)
        cases = [(Fraction(1, m), p) for p in parts[:m - 1]]
        if len(parts) == m:
            cases.append((None, parts[-1]))
        else:
            cases.append((None, ("seq", [])))
        return ("branch", cases)

    parts = []
    while budget[0]:
        parts.append(block(0))
    return ("seq", parts)


def xml(node, out):
    """Appends the elements of 'node' to 'out'."""
    kind, body = node
    if kind == "step":
        out.append('<step cost="%s"/>' % body)
    elif kind == "seq" and not body:
        return      # an empty case
    elif kind == "branch":
        out.append("<branch>")
        for p, part in body:
            out.append('<case prob="%s">' % p if p is not None else
                       "<case>")
            xml(part, out)
            out.append("</case>")
        out.append("</branch>")
    else:
        out.append("<%s>" % kind)
        for part in body:
            xml(part, out)
        out.append("</%s>" % kind)


def document(tree):
    out = ['<model name="sp" version="1">']
    out.extend('<resource name="%s"/>' % r for r in RES)
    out.append('<graph name="main">')
    xml(tree, out)
    out.append("</graph></model>")
    return "\n".join(out) + "\n"


def time_of(node, env):
    """The time of 'node' with the resources at 'env', exactly."""
    kind, body = node
    if kind == "step":
        return env[body]
    if kind == "seq":
        return sum((time_of(p, env) for p in body), Fraction(0))
    if kind == "par":
        return max(time_of(p, env) for p in body)
    left = 1 - sum(p for p, _ in body if p is not None)
    return sum(((p if p is not None else left) * time_of(part, env)
                for p, part in body), Fraction(0))


def points(seed):
    """Points of the domains (every resource >= 0)."""
    rnd = random.Random(1000 + seed)
    pts = [dict((r, Fraction(0)) for r in RES),
           dict((r, Fraction(1)) for r in RES)]
    for r in RES:
        pts.append(dict((s, Fraction(int(s == r))) for s in RES))
        pts.append(dict((s, Fraction(1 if s == r else 0, 1000))
                        for s in RES))
    for _ in range(12):
        pts.append(dict((r, Fraction(rnd.randrange(0, 50),
                                     rnd.randrange(1, 9))) for r in RES))
    return pts


def nested_max(text):
    """Non-zero when a whole argument of a max is itself a max."""
    stack = []      # for each open parenthesis: whether it is a max's
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(text[max(0, i - 3):i] == "max")
        elif ch == ")":
            stack.pop()
        if ch != "(" or not text[max(0, i - 3):i] == "max" or \
                len(stack) < 2 or not stack[-2]:
            continue
        before = text[:i - 3].rstrip()[-1:]
        # the argument starts here; it is the max alone when the
        # parenthesis closing this max ends the argument
        depth, j = 0, i
        while True:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        after = text[j + 1:].lstrip()[:1]
        if before in ("(", ",") and after in (",", ")"):
            return True
    return False


def check(tap, seed, n, work):
    name = "series-parallel program %d of %d steps" % (seed, n)
    tree = program(seed, n)
    path = os.path.join(work, "sp%d.xml" % seed)
    with open(path, "w") as f:
        f.write(document(tree))
    st, out, err = lp.run([SEGC, "derive", path])
    try:
        if st != 0:
            raise lp.Unreadable("exit %d: %s" % (st, err.strip()[:300]))
        formula = lp.Formula(out.strip())
        bad = []
        for env in points(seed):
            got, want = formula.value(env), time_of(tree, env)
            if got != want:
                bad.append((env, want, got))
    except lp.Unreadable as e:
        tap.ok(False, "%s: derive gives a formula read back" % name,
               [str(e), out.strip()[:300]])
        return
    tap.ok(not bad, "%s: the formula is the program's time at %d points"
           % (name, len(points(seed))),
           ["at %s: program %s, formula %s" % (
               ", ".join("%s=%s" % kv for kv in sorted(b[0].items())),
               b[1], b[2]) for b in bad[:3]])
    tap.ok(not nested_max(out), "%s: no max directly inside a max" % name,
           [out.strip()[:300]])


def main():
    tap = lp.Tap()
    # the meaning worked out by hand on one small program
    tree = ("par", [("seq", [("step", "a"), ("step", "a")]),
                    ("branch", [(Fraction(1, 3), ("step", "b")),
                                (Fraction(1, 3), ("par", [("step", "a"),
                                                          ("step", "b")])),
                                (None, ("seq", []))])])
    env = {"a": Fraction(1), "b": Fraction(5)}
    tap.ok(time_of(tree, env) == Fraction(10, 3),
           "the time of max(2*a, b/3 + max(a, b)/3) at a=1, b=5 is 10/3")
    tap.ok(nested_max("max(a, max(b, c))") and
           nested_max("2*max(max(b, c) , a)") and
           not nested_max("max(a, 2*max(b, c))") and
           not nested_max("max(c, max(b, f) + max(e, f))") and
           not nested_max("max(a, b) + max(c, d)"),
           "the check for a max directly inside a max")
    with tempfile.TemporaryDirectory() as work:
        for seed, n in CASES:
            check(tap, seed, n, work)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
