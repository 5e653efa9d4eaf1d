#!/usr/bin/env python3
"""nest_counts.py - deep nests of counter loops against their literal run.

Three families of nests of depth D, a step of cost t at every level:

  down      i0 from 1 to N, i(k) from 1 to i(k-1) (the nest of
            tests/bench/scale.py);
  up        i0 from 1 to N, i(k) from i(k-1) to N;
  weighted  as down, the step of level k costing i(k)*t.

For each depth, 'segc derive -D t=1' gives the formula in N, read back with
the reader of loops_property.py and evaluated exactly at every N whose
literal run (the loops executed one iteration at a time, the costs added
in exact rationals) stays under MAX_ITERATIONS; 'segc derive -D t=1 -D N=n'
at two of those points gives a number, compared exactly.  For down and up,
the formula is also compared, at N far beyond any literal run, with the
number of iterations worked out by hand: level k runs C(N + k - 1, k)
times (the non-decreasing k-tuples of 1..N), so the total is the sum of
those binomials over k = 1..D.

Prints TAP.  Environment: SEGC, TMPDIR.
"""

import math
import os
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loops_property as lp  # noqa: E402

SEGC = os.environ.get("SEGC", "segc")
# The literal runs of one nest take at most this many iterations.
MAX_ITERATIONS = 30000
DEPTHS = {"down": [1, 2, 3, 5, 8, 13, 40, 150],
          "up": [1, 2, 4, 7, 12, 30],
          "weighted": [1, 2, 3, 6, 10, 20]}
# Points far past the literal runs, for the count worked out by hand.
FAR = [97, 1000, 123457, 10**12 + 39]


def model(family, depth):
    """The SEG model of the nest."""
    out = ['<model name="nest" version="1">', '<param name="N" min="1"/>',
           '<resource name="t"/>', '<graph name="main">']
    for k in range(depth):
        prev = "i%d" % (k - 1)
        lo, hi = "1", "N" if k == 0 else prev
        if family == "up":
            lo, hi = ("1" if k == 0 else prev), "N"
        cost = "i%d*t" % k if family == "weighted" else "t"
        out.append('<loop var="i%d" from="%s" to="%s"><step cost="%s"/>'
                   % (k, lo, hi, cost))
    out.append("</loop>" * depth)
    out.append("</graph></model>")
    return "\n".join(out) + "\n"


def literal(family, depth, n):
    """(total cost with t = 1, iterations): the nest run loop by loop."""
    iterations = 0

    def level(k, prev):
        nonlocal iterations
        if k == depth:
            return Fraction(0)
        total = Fraction(0)
        lo, hi = 1, (n if k == 0 else prev)
        if family == "up":
            lo, hi = (1 if k == 0 else prev), n
        i = lo
        while i <= hi:
            iterations += 1
            total += i if family == "weighted" else 1
            total += level(k + 1, i)
            i += 1
        return total

    return level(0, None), iterations


def by_hand(depth, n):
    """The total of down and up: sum over k of C(n + k - 1, k)."""
    return sum(math.comb(n + k - 1, k) for k in range(1, depth + 1))


def literal_points(family, depth):
    """{N: literal total} for N = 1, 2, ... while the runs stay small."""
    values, spent, n = {}, 0, 1
    while n <= 12:
        value, it = literal(family, depth, n)
        spent += it
        if spent > MAX_ITERATIONS and values:
            break
        values[n] = value
        n += 1
    return values


def check(tap, family, depth, work):
    name = "%s depth %d" % (family, depth)
    path = os.path.join(work, "%s%d.xml" % (family, depth))
    with open(path, "w") as f:
        f.write(model(family, depth))
    values = literal_points(family, depth)
    st, out, err = lp.run([SEGC, "derive", "-D", "t=1", path])
    try:
        if st != 0:
            raise lp.Unreadable("exit %d: %s" % (st, err.strip()[:300]))
        formula = lp.Formula(out.strip())
        got = dict((n, formula.value({"N": Fraction(n)})) for n in values)
    except lp.Unreadable as e:
        tap.ok(False, "%s: derive gives a formula read back" % name,
               [str(e), out.strip()[:300]])
        return
    bad = [(n, values[n], got[n]) for n in sorted(values)
           if got[n] != values[n]]
    tap.ok(not bad, "%s: the formula is the literal run at N = 1..%d"
           % (name, max(values)),
           ["N = %d: literal %s, formula %s" % b for b in bad[:3]])
    for n in sorted(values)[:: max(1, len(values) - 1)][:2]:
        st, out, err = lp.run([SEGC, "derive", "-D", "t=1", "-D",
                               "N=%d" % n, path])
        num = lp.exact(out) if st == 0 else None
        tap.ok(num == values[n], "%s: derive -D N=%d gives %s"
               % (name, n, values[n]),
               ["exit %d, got %r %s" % (st, out.strip()[:200],
                                        err.strip()[:200])])
    if family == "weighted":
        return
    bad = [(n, by_hand(depth, n), formula.value({"N": Fraction(n)}))
           for n in FAR]
    bad = [b for b in bad if b[1] != b[2]]
    tap.ok(not bad, "%s: the formula is the sum of C(N + k - 1, k) at N "
           "up to 10^12" % name,
           ["N = %d: by hand %s, formula %s" % b for b in bad[:2]])


def main():
    tap = lp.Tap()
    # the counts worked out by hand, against the literal run itself
    good = all(literal(f, d, n)[0] == by_hand(d, n)
               for f in ("down", "up") for d in (1, 3, 6) for n in (1, 4, 7))
    tap.ok(good, "the literal runs count sums of binomials")
    with tempfile.TemporaryDirectory() as work:
        for family, depths in DEPTHS.items():
            for depth in depths:
                check(tap, family, depth, work)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
