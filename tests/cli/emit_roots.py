#!/usr/bin/env python3
"""emit_roots.py - the odd roots of the emitted predictors (segc_root,
src/output/emit_root.c) over the whole range of the doubles: the model
tests/cli/models/emit_roots.xml has x^(1/3) as its computation, x^(2/5) as
its communication and x^(1/7) as its input and output.  At about 400
doubles x (0, the subnormals, the ends of the range, perfect powers and
doubles drawn across every binade), each written exactly so that eval
takes the same point:

- the C predictor's x^(1/3) and x^(1/7) are within 0.501 ulp of 'segc eval
  --precision 256' (C's cbrt alone is over 3 ulp off somewhere in this
  range; a root rounded once is within 0.5 ulp), every column within 2;
- the Python predictor, for one float at a time and for a numpy array of
  all the points, and the Fortran module through its bind(c) entries give
  the C predictor's doubles, bit for bit.

Environment: SEGC, CC, top_srcdir, FC_TEST (gfortran; that part is skipped
without it).  Prints TAP."""
import importlib.util
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal
from fractions import Fraction

SEGC = os.environ["SEGC"]
CC = os.environ.get("CC", "cc").split()
TOP = os.environ["top_srcdir"]
FC = os.environ.get("FC_TEST") or "gfortran"
MODEL = os.path.join(TOP, "tests", "cli", "models", "emit_roots.xml")
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"]
COLS = ["total", "comp", "comm", "io"]

tests = 0
failed = 0


def ok(cond, text):
    global tests, failed
    tests += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", tests, text))
    sys.stdout.flush()


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def points():
    """The doubles x, in increasing order, without repeats."""
    xs = {0.0, 5e-324, 2.0 ** -1074 * 3, 2.0 ** -1022, 2.0 ** -1022 * 0.75,
          1e-300, 0.001, 0.125, 0.5, 1.0, 2.0, 3.0, 8.0, 27.0, 1e5,
          2.0 ** 600, 3.0 ** 300, 1e300, 1.7976931348623157e308}
    for k in range(1, 40):
        xs.add(float(k ** 3))
        xs.add(float(k ** 7))
        xs.add(float(k ** 5) ** 2)
    rng = random.Random(20261129)
    while len(xs) < 400:
        x = math.ldexp(rng.uniform(0.5, 1.0), rng.randint(-1074, 1024))
        if 0 < x < math.inf:
            xs.add(x)
    return sorted(xs)


def exact(x):
    """The double x written exactly in decimal."""
    s = format(Decimal(x), "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def ulps(v, ref):
    """|v - ref| in ulps of the double nearest ref."""
    if ref == 0:
        return 0.0 if v == 0 else math.inf
    return float(abs(Fraction(v) - ref) / Fraction(math.ulp(float(ref))))


DRIVER = r"""
#include <stdio.h>
#include "er.h"
int main(void)
{
	double x;

	while (scanf("%la", &x) == 1)
		printf("%a %a %a %a\n", er_total(1, 1, x), er_comp(1, 1, x),
			er_comm(1, 1, x), er_io(1, 1, x));
	return 0;
}
"""


def c_values(work, xs, objs, extra):
    """The four functions at every x, by a C program linked with 'objs'."""
    drv = os.path.join(work, "drv.c")
    with open(drv, "w") as f:
        f.write(DRIVER)
    exe = os.path.join(work, "drv" + extra)
    r = run(CC + ["-O2", "-I", work, "-o", exe, drv] + objs + ["-lm"])
    if r.returncode:
        return None, r.stderr
    r = run([exe], input="".join(x.hex() + "\n" for x in xs))
    rows = [[float.fromhex(t) for t in line.split()]
            for line in r.stdout.splitlines()]
    return rows, r.stderr


def main():
    xs = points()
    work = tempfile.mkdtemp()
    try:
        base = os.path.join(work, "er")
        r = run([SEGC, "emit", "-q", "--keep", "x", "--prefix", "er",
                 "-o", base, MODEL])
        ok(r.returncode == 0, "emit C")
        r = run(CC + CFLAGS + ["-c", "-o", base + ".o", base + ".c"])
        ok(r.returncode == 0, "the C predictor compiles strictly")
        cv, err = c_values(work, xs, [base + ".o"], "c")
        ok(cv is not None and len(cv) == len(xs), "the C predictor runs")
        if cv is None or len(cv) != len(xs):
            print("# " + str(err)[:500])
            return
        ev = run([SEGC, "eval", "--csv", "--digits", "40", "--precision",
                  "256", MODEL, "N=1", "P=1",
                  "x=" + ",".join(exact(x) for x in xs)], timeout=300)
        ok(ev.returncode == 0, "eval at every x")
        lines = ev.stdout.splitlines()
        head = lines[0].split(",")
        rows = [dict(zip(head, line.split(","))) for line in lines[1:]]
        ok(len(rows) == len(xs), "eval gives a row per x (%d of %d), in "
           "their order" % (len(rows), len(xs)))
        worst = {c: (0.0, None) for c in COLS}
        for x, vals, row in zip(xs, cv, rows):
            for c, v in zip(COLS, vals):
                e = ulps(v, Fraction(Decimal(row[c])))
                if e > worst[c][0]:
                    worst[c] = (e, x)
        for c in ("comp", "io"):
            ok(worst[c][0] <= 0.501, "C %s, a root alone: within 0.501 ulp "
               "of eval (max %.4f at x = %r)" % (c, worst[c][0], worst[c][1]))
        for c in ("comm", "total"):
            ok(worst[c][0] <= 2, "C %s: within 2 ulp of eval (max %.4f at "
               "x = %r)" % (c, worst[c][0], worst[c][1]))
        # Python, one float at a time and over a numpy array
        r = run([SEGC, "emit", "-q", "--lang", "python", "--keep", "x",
                 "--prefix", "er", "-o", base, MODEL])
        ok(r.returncode == 0, "emit Python")
        spec = importlib.util.spec_from_file_location("er", base + ".py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        fns = [getattr(mod, "er_" + c) for c in COLS]
        bad = [(x, c) for x, vals in zip(xs, cv)
               for c, f, v in zip(COLS, fns, vals)
               if f(1.0, 1.0, x).hex() != v.hex()]
        ok(not bad, "Python, one float at a time: the C doubles (%d differ%s)"
           % (len(bad), ", first at x = %r, %s" % bad[0] if bad else ""))
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is None:
            print("# numpy is not installed: arrays not checked")
        else:
            arr = numpy.array(xs)
            bad = []
            for k, (c, f) in enumerate(zip(COLS, fns)):
                got = f(1.0, 1.0, arr)
                bad += [(x, c) for x, g, vals in zip(xs, got, cv)
                        if float(g).hex() != vals[k].hex()]
            ok(not bad, "Python over a numpy array: the C doubles (%d "
               "differ%s)" % (len(bad), ", first at x = %r, %s" % bad[0]
                              if bad else ""))
        # Fortran through its bind(c) entries
        if not shutil.which(FC):
            print("# %s is not installed: Fortran not checked" % FC)
        else:
            r = run([SEGC, "emit", "-q", "--lang", "fortran", "--keep", "x",
                     "--prefix", "er", "-o", base, MODEL])
            ok(r.returncode == 0, "emit Fortran")
            r = run([FC, "-std=f2008", "-Wall", "-Wextra", "-Werror", "-O2",
                     "-ffp-contract=off", "-c", "-J", work, "-o",
                     base + "_f.o", base + ".f90"])
            ok(r.returncode == 0, "the Fortran module compiles strictly")
            if r.returncode:
                print("# " + r.stderr[:800].replace("\n", "\n# "))
            else:
                fv, err = c_values(work, xs, [base + "_f.o", "-lgfortran"],
                                   "f")
                same = fv is not None and len(fv) == len(xs) and all(
                    a.hex() == b.hex() for ra, rb in zip(fv, cv)
                    for a, b in zip(ra, rb))
                ok(same, "Fortran, called from C by the C names: the C "
                   "doubles")
                if fv is None:
                    print("# " + str(err)[:500])
    finally:
        shutil.rmtree(work)
    print("1..%d" % tests)


if __name__ == "__main__":
    main()
    sys.exit(0)
