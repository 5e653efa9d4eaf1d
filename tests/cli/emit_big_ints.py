#!/usr/bin/env python3
"""emit_big_ints.py - the relative error bound an emitted predictor
states where the integers it computes pass 2^53, against the exact value
computed here in Python fractions from the formula written out by hand
(not by segc).  Three models:

- tests/cli/models/long_let.xml: a sum of 40 quotients
  k*N^a*P^b/(P + k - 1), which the predictor computes as one quotient of
  products of the 40 factors P + k (40! already at P = 1);
- N^3*P + N*B + 1, all integers: N^3*P passes 2^53 from N = P = 2^14;
- ceil(N*P/B)*t: a ceiling of a quotient of integers, exact while
  N*P + B < 2^53, at quotients one off an integer with N*P near 2^52;
- 4*N^2/3 - 8*N*B/3 + N/7 and 4*N^2/3 - 8*N*B/3: rational coefficients
  whose terms cancel at N = 2*B (to N/7, and to 0), where the predictor
  must keep its stated bound, and give 0 for 0, not the 1e-13 that the
  coefficients rounded to doubles would leave.

Each function's comment states "Relative error at most K u" for integer
arguments below 2^k in magnitude (or for its whole domains): the test
requires that range to admit its points (each integer argument below
2^k), and at every point the predictor's result within K u (u = 2^-53)
of the exact value; K is a bound to first order, so the test allows K
plus 2^-20.  The points keep every value far from overflow.

Environment: SEGC, CC, top_srcdir.  Prints TAP."""
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal
from fractions import Fraction

SEGC = os.environ["SEGC"]
CC = os.environ.get("CC", "cc").split()
TOP = os.environ["top_srcdir"]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"]
U = Fraction(1, 2 ** 53)

tests = 0
failed = 0


def ok(cond, text):
    """One TAP line."""
    global tests, failed
    tests += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", tests, text))
    sys.stdout.flush()


def diag(text):
    for line in str(text).splitlines():
        print("# " + line)


def exact(x):
    """The double x written exactly in decimal."""
    s = format(Decimal(x), "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def long_let(a):
    """The value of tests/cli/models/long_let.xml: its let, term k (from
    0) (k + 1)*N^(k mod 5)*P^(k mod 3)/(P + k), plus N*P, times t."""
    N, P, t = a["N"], a["P"], a["t"]
    s = sum(Fraction(k + 1) * N ** (k % 5) * P ** (k % 3) / (P + k)
            for k in range(40))
    return (s + N * P) * t


def cube(a):
    N, P, B = a["N"], a["P"], a["B"]
    return N ** 3 * P + N * B + 1


def cancel(a):
    N, B = a["N"], a["B"]
    return Fraction(4, 3) * N ** 2 - Fraction(8, 3) * N * B + N / 7


def cancel0(a):
    N, B = a["N"], a["B"]
    return Fraction(4, 3) * N ** 2 - Fraction(8, 3) * N * B


def ceil_quot(a):
    N, P, B, t = a["N"], a["P"], a["B"], a["t"]
    return -((-N * P) // B) * t


# ONE_STEP % (NAME, COST): a model of one step, with an integer B >= 1.
ONE_STEP = """<model name="%s" version="1">
  <param name="B" min="1" integer="true"/>
  <graph name="main">
    <step cost="%s"/>
  </graph>
</model>
"""

CUBE = ONE_STEP % ("cube", "N^3*P + N*B + 1")

CEIL = """<model name="ceilq" version="1">
  <param name="B" min="1" integer="true"/>
  <resource name="t"/>
  <graph name="main">
    <step cost="ceil(N*P/B)*t"/>
  </graph>
</model>
"""

T = ["1", exact(0.1), exact(3.7e-9)]


def points_long_let():
    for n in (1, 3, 1000, 8193):
        for p in (1, 2, 7, 1000, 65537, 4194301):
            for t in T[:2]:
                yield {"N": n, "P": p, "t": t}


def points_cube():
    for n in (1, 8192, 1000003, 67108863):
        for p in (1, 8193, 1048573, 67108863):
            for b in (1, 3, 67108863):
                yield {"N": n, "P": p, "B": b}


def points_ceil():
    # N*P up to (2^26 - 1)*(2^26 - 3) = 2^52 - 2^28 + 3, with divisors
    # that divide it (2^26 - 1), leave it one below a multiple
    # (2^26 - 2) or a little above one
    for n, p in ((67108863, 67108861), (67108863, 1), (3, 5),
                 (46341, 46341)):
        for b in (1, 2, 7, 67108859, 67108862, 67108863, 33554433):
            for t in T[:2]:
                yield {"N": n, "P": p, "B": b, "t": t}


def points_cancel():
    # N = 2*B (the terms of N^2 and N*B cancel), one off it, and apart
    for b in (1, 3, 500, 524287, 8388608, 16777213):
        for n in (2 * b, 2 * b + 1, 2 * b - 1, 1, 33554431):
            yield {"N": n, "P": 1, "B": b}


def stated(csource):
    """function name -> (K, k or None) of the comment before it; K is
    None where no bound is stated."""
    out, text = {}, ""
    for line in csource.splitlines():
        if line.startswith(" * ") or line.startswith("/* "):
            text += " " + line[3:]
            continue
        if line == " */":
            continue
        m = re.match(r"double (\w+)\(", line)
        if m:
            k = re.search(r"Relative error at most (\d+) u", text)
            r = re.search(r"integer ones below 2\^(\d+) in magnitude", text)
            out[m.group(1)] = (int(k.group(1)) if k else None,
                               int(r.group(1)) if r else None)
        text = ""
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def check(name, model, keep, points, value, work):
    base = os.path.join(work, name)
    r = run([SEGC, "emit", "-q", "--main", "--prefix", name] +
            sum([["--keep", k] for k in keep], []) + ["-o", base, model])
    ok(r.returncode == 0, "%s: emitted" % name)
    if r.returncode:
        diag(r.stderr)
        return
    r = run(CC + CFLAGS + ["-o", base, base + ".c", "-lm"])
    ok(r.returncode == 0, "%s: compiles" % name)
    if r.returncode:
        diag(r.stderr[:2000])
        return
    with open(base + ".c") as f:
        bound = stated(f.read()).get(name + "_total", (None, None))
    ok(bound[0] is not None, "%s: the total states a bound (%s u)"
       % (name, bound[0]))
    if bound[0] is None:
        return
    pts = list(points)
    ints = [n for n in pts[0] if n != "t"]   # the integer arguments
    big = max(max(int(p[n]) for n in ints) for p in pts)
    ok(bound[1] is None or big < 2 ** bound[1],
       "%s: the stated range (integers below 2^%s) admits every point "
       "(the largest %d)" % (name, bound[1], big))
    worst, bad = Fraction(0), []
    for p in pts:
        args = ["%s=%s" % (n, v) for n, v in p.items()]
        r = run([base] + args)
        if r.returncode:
            bad.append("%s: the predictor fails: %s" % (args, r.stderr))
            continue
        head, row = [l.split("\t") for l in r.stdout.splitlines()[:2]]
        got = Fraction(float(row[head.index("total")]))
        want = value({n: Fraction(Decimal(str(v))) for n, v in p.items()})
        if want == 0:
            # a value of 0 has no relative error to spare
            err = Fraction(0) if got == 0 else Fraction(2 ** 60)
        else:
            err = abs(got - want) / abs(want) / U
        worst = max(worst, err)
        if err > bound[0] + Fraction(1, 2 ** 20):
            bad.append("%s: %.3f u beyond %d u" % (args, float(err),
                                                   bound[0]))
    ok(not bad, "%s: within its stated %d u at %d points (the largest "
       "error %.3f u)" % (name, bound[0], len(pts), float(worst)))
    for b in bad[:10]:
        diag(b)


def main():
    with tempfile.TemporaryDirectory() as work:
        for name, text in (("cube", CUBE), ("ceilq", CEIL),
                           ("cancel", ONE_STEP % ("cancel",
                                                  "4*N^2/3 - 8*N*B/3 + N/7")),
                           ("cancel0", ONE_STEP % ("cancel0",
                                                   "4*N^2/3 - 8*N*B/3"))):
            with open(os.path.join(work, name + ".xml"), "w") as f:
                f.write(text)
        check("long_let", os.path.join(TOP, "tests", "cli", "models",
                                       "long_let.xml"),
              ["t"], points_long_let(), long_let, work)
        check("cube", os.path.join(work, "cube.xml"), ["B"],
              points_cube(), cube, work)
        check("ceilq", os.path.join(work, "ceilq.xml"), ["B", "t"],
              points_ceil(), ceil_quot, work)
        for name, value in (("cancel", cancel), ("cancel0", cancel0)):
            check(name, os.path.join(work, name + ".xml"), ["B"],
                  points_cancel(), value, work)
    print("1..%d" % tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
