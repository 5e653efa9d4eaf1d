#!/usr/bin/env python3
"""loops_property.py - random nests of counter loops, executed literally.

Generates loop nests of depth 1 to 3 as SEG models (FORMAT.md 3.1): bounds
made of small constants, outer counters and the parameters N and B with
small (negative, fractional) coefficients, divisions by B bare or under
floor/ceil; step costs polynomial in the counters and parameters, some
with floor/ceil of the counters, times the resource t.  Each model's value
at a grid of (N, B) is computed by running the loops as C runs them (a
counter takes every integer from ceil(lo) to floor(hi), none when that is
empty) in exact rational arithmetic, and compared with

  derive   segc derive -D N= -D B= -D t=1: an exact number, compared exactly;
  eval     segc eval --csv --digits 30 -D t=1 N=.. B=..: relative 1e-12;
  canon    the same with --form canonical;
  emit     segc emit -D t=1 --keep B, compiled with $CC and run: 1e-13.

Prints TAP, one line per model and kind of comparison; a failure shows the
loop nest, the first point where segc disagrees and both values.

Usage: loops_property.py [--models K] [--seed S] [--keep-dir DIR]
Environment: SEGC, CC (default cc), LOOPS_PROPERTY_MODELS, TMPDIR.
"""

import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

SEGC = os.environ.get("SEGC", "segc")
CC = os.environ.get("CC") or "cc"
COUNTERS = ["i", "j", "k"]
N_VALUES = range(1, 13)
B_VALUES = range(1, 5)
# The derive comparison runs segc once per point: a subset of the grid.
DERIVE_POINTS = [(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (4, 4), (5, 2),
                 (6, 4), (7, 3), (9, 2), (10, 3), (12, 4)]
# Models whose literal execution over the whole grid takes more
# iterations than this are drawn again, so the test stays fast.
MAX_ITERATIONS = 60000
EVAL_RTOL = Fraction(1, 10**12)
EMIT_RTOL = Fraction(1, 10**13)


# ---------------------------------------------------------------------------
# Expressions: each renders to the expression language of FORMAT.md 2 and
# evaluates exactly.  'env' maps names to Fractions.

class Const:
    """A rational constant."""
    prec = 3

    def __init__(self, v):
        self.v = Fraction(v)

    def text(self):
        v = self.v
        if v.denominator == 1:
            return str(v.numerator)
        return "%d/%d" % (v.numerator, v.denominator)

    def value(self, env):
        return self.v


class Name:
    """A parameter, resource or counter."""
    prec = 4

    def __init__(self, name):
        self.name = name

    def text(self):
        return self.name

    def value(self, env):
        return env[self.name]


class Sum:
    """a + b + ... with signs: terms is a list of (sign, expr)."""
    prec = 1

    def __init__(self, terms):
        self.terms = terms

    def text(self):
        out = ""
        for n, (sign, e) in enumerate(self.terms):
            s = paren(e, 2)
            if n == 0:
                out = ("-" + s) if sign < 0 else s
            else:
                out += (" - " if sign < 0 else " + ") + s
        return out

    def value(self, env):
        return sum((sign * e.value(env) for sign, e in self.terms),
                   Fraction(0))


class Product:
    """a*b*..."""
    prec = 2

    def __init__(self, factors):
        self.factors = factors

    def text(self):
        return "*".join(paren(f, 3) for f in self.factors)

    def value(self, env):
        v = Fraction(1)
        for f in self.factors:
            v *= f.value(env)
        return v


class Quotient:
    """a/b."""
    prec = 2

    def __init__(self, num, den):
        self.num, self.den = num, den

    def text(self):
        return paren(self.num, 2) + "/" + paren(self.den, 3)

    def value(self, env):
        return self.num.value(env) / self.den.value(env)


class Call:
    """floor(x) or ceil(x)."""
    prec = 4

    def __init__(self, fn, arg):
        self.fn, self.arg = fn, arg

    def text(self):
        return "%s(%s)" % (self.fn, self.arg.text())

    def value(self, env):
        v = self.arg.value(env)
        return Fraction(math.floor(v) if self.fn == "floor" else math.ceil(v))


def paren(e, prec):
    """The text of 'e', parenthesized where it binds looser than 'prec'
    (a negative constant counts as a sum, since '-' is an operator)."""
    p = e.prec
    if isinstance(e, Const) and e.v < 0:
        p = 1
    if isinstance(e, Const) and e.v.denominator != 1:
        p = 2
    return e.text() if p >= prec else "(" + e.text() + ")"


def linear(const, coeffs):
    """const + sum c*name over 'coeffs' (a list of (c, name)), with the
    zero terms left out and the coefficients written as people do."""
    terms = []
    for c, name in coeffs:
        c = Fraction(c)
        if c == 0:
            continue
        mag = abs(c)
        if mag == 1:
            e = Name(name)
        elif mag.numerator == 1:
            e = Quotient(Name(name), Const(mag.denominator))
        else:
            e = Product([Const(mag), Name(name)])
        terms.append((1 if c > 0 else -1, e))
    const = Fraction(const)
    if const != 0 or not terms:
        terms.append((1 if const >= 0 else -1, Const(abs(const))))
    if terms[0][0] < 0 and len(terms) > 1:
        # Lead with a positive term where there is one: "N - i", not "-i + N".
        for n, t in enumerate(terms):
            if t[0] > 0:
                terms.insert(0, terms.pop(n))
                break
    if len(terms) == 1 and terms[0][0] > 0:
        return terms[0][1]
    return Sum(terms)


# ---------------------------------------------------------------------------
# Models.

class Step:
    """<step cost="t*(poly)"/>; 'poly' is an expression."""

    def __init__(self, poly):
        self.poly = poly

    def xml(self, indent):
        return ["%s<step cost=\"t*%s\"/>" % (indent, paren(self.poly, 3))]

    def c(self, indent):
        return ["%stotal += %s;" % (indent, self.poly.text())]

    def run(self, env, budget):
        budget[0] -= 1
        return self.poly.value(env)


class Loop:
    """<loop var from to> around a list of blocks."""

    def __init__(self, var, lo, hi, body):
        self.var, self.lo, self.hi, self.body = var, lo, hi, body

    def xml(self, indent):
        out = ["%s<loop var=\"%s\" from=\"%s\" to=\"%s\">"
               % (indent, self.var, self.lo.text(), self.hi.text())]
        for b in self.body:
            out += b.xml(indent + "  ")
        return out + [indent + "</loop>"]

    def c(self, indent):
        v = self.var
        lo = self.lo.text()
        if not (isinstance(self.lo, Call) or (isinstance(self.lo, Const)
                                              and self.lo.v.denominator == 1)):
            lo = "ceil(%s)" % lo
        out = ["%sfor (%s = %s; %s <= %s; %s++)"
               % (indent, v, lo, v, self.hi.text(), v)]
        for b in self.body:
            out += b.c(indent + "  ")
        return out

    def run(self, env, budget):
        """The sum of the body over the integers of [lo, hi], literally."""
        total = Fraction(0)
        i = math.ceil(self.lo.value(env))
        hi = self.hi.value(env)
        while i <= hi:
            env[self.var] = Fraction(i)
            for b in self.body:
                total += b.run(env, budget)
            budget[0] -= 1
            if budget[0] < 0:
                raise OverflowError
            i += 1
        env.pop(self.var, None)
        return total


class Model:
    """A named graph of blocks, with its literal value."""

    def __init__(self, name, blocks, note=""):
        self.name, self.blocks, self.note = name, blocks, note

    def xml(self):
        lines = ['<model name="%s" version="1">' % self.name]
        if self.note:
            lines.append("  <!-- %s -->" % self.note)
        lines += ['  <param name="B" min="1" integer="true"/>',
                  '  <resource name="t"/>',
                  '  <graph name="main">']
        for b in self.blocks:
            lines += b.xml("    ")
        lines += ["  </graph>", "</model>"]
        return "\n".join(lines) + "\n"

    def c(self):
        out = []
        for b in self.blocks:
            out += b.c("")
        return out

    def value(self, n, b, budget=None):
        budget = budget if budget is not None else [10**9]
        env = {"N": Fraction(n), "B": Fraction(b), "t": Fraction(1)}
        return sum((blk.run(env, budget) for blk in self.blocks), Fraction(0))


# ---------------------------------------------------------------------------
# The generator.

HALF = Fraction(1, 2)


def gen_affine(rng, outer, upper):
    """c0 + a*N + sum b*x over the outer counters x: an upper bound leans
    to N, a lower one to 1 or an outer counter."""
    if upper:
        a = rng.choice([1, 1, 1, 1, 1, HALF, 2, 0, -1])
        c0 = rng.choice([0, 0, 0, -1, -2, 1, 2, HALF, -HALF])
        if a == 0:
            c0 = rng.choice([3, 4, 5])
        if a == -1:
            c0 = rng.choice([6, 8, 10])
    else:
        a = rng.choice([0, 0, 0, 0, 0, HALF, -1])
        c0 = rng.choice([1, 1, 1, 0, 2, -1, HALF, Fraction(3, 2)])
        if a == -1:
            c0 = rng.choice([4, 6])
    coeffs = [(a, "N")]
    for x in outer:
        if upper:
            bx = rng.choice([0, 0, 0, -1, -1, 1, HALF, -HALF, -2])
        else:
            bx = rng.choice([0, 0, 1, 1, 1, 2, HALF, -1])
        coeffs.append((bx, x))
    return linear(c0, coeffs)


def gen_bound(rng, outer, upper):
    """A loop bound: affine, or affine divided by B or 2, bare or under
    floor or ceil."""
    e = gen_affine(rng, outer, upper)
    kind = rng.choice(["affine"] * 5 + ["divB", "floorB", "ceilB",
                                         "div2", "floor2", "ceil2"])
    if kind == "affine":
        return e
    den = Name("B") if kind.endswith("B") else Const(2)
    q = Quotient(e, den)
    if kind.startswith("floor"):
        return Call("floor", q)
    if kind.startswith("ceil"):
        return Call("ceil", q)
    return q


def gen_factor(rng, names, with_floor):
    """A factor of a monomial: a counter or parameter, or with 'with_floor'
    a floor or ceil of a counter's division."""
    if with_floor and names and rng.random() < 0.4:
        x = rng.choice(names)
        form = rng.choice(["x/2", "x/B", "(N - x)/B", "(x + 1)/2"])
        if form == "x/2":
            arg = Quotient(Name(x), Const(2))
        elif form == "x/B":
            arg = Quotient(Name(x), Name("B"))
        elif form == "(N - x)/B":
            arg = Quotient(linear(0, [(1, "N"), (-1, x)]), Name("B"))
        else:
            arg = Quotient(linear(1, [(1, x)]), Const(2))
        return Call(rng.choice(["floor", "ceil"]), arg)
    pool = names * 3 + ["N", "B"]
    return Name(rng.choice(pool))


def gen_poly(rng, names, with_floor):
    """1 to 3 monomials of degree 0 to 2 with small coefficients."""
    terms = []
    for _ in range(rng.randint(1, 3)):
        deg = rng.choice([0, 1, 1, 1, 2])
        coef = Fraction(rng.choice([1, 1, 1, 2, 3])) / rng.choice([1, 1, 1, 2, 3])
        sign = rng.choice([1, 1, 1, -1]) if terms else 1
        factors = [gen_factor(rng, names, with_floor) for _ in range(deg)]
        if coef != 1 or not factors:
            factors.insert(0, Const(coef))
        e = factors[0] if len(factors) == 1 else Product(factors)
        terms.append((sign, e))
    return terms[0][1] if len(terms) == 1 else Sum(terms)


def gen_nest(rng, depth, level, outer, with_floor):
    """A loop at 'level' of a nest 'depth' deep, optionally with steps
    beside its inner loop."""
    var = COUNTERS[level]
    lo = gen_bound(rng, outer, False)
    hi = gen_bound(rng, outer, True)
    names = outer + [var]
    if level + 1 == depth:
        body = [Step(gen_poly(rng, names, with_floor))]
    else:
        body = [gen_nest(rng, depth, level + 1, names, with_floor)]
        if rng.random() < 0.3:
            body.insert(0, Step(gen_poly(rng, names, with_floor)))
        if rng.random() < 0.2:
            body.append(Step(gen_poly(rng, names, with_floor)))
    return Loop(var, lo, hi, body)


def gen_model(rng, name):
    """A random model whose literal execution over the grid stays within
    MAX_ITERATIONS and is not empty everywhere."""
    while True:
        depth = rng.choice([1, 2, 2, 3, 3])
        with_floor = rng.random() < 0.3
        blocks = [gen_nest(rng, depth, 0, [], with_floor)]
        if rng.random() < 0.15:
            blocks.insert(0, Step(gen_poly(rng, [], False)))
        m = Model(name, blocks)
        budget = [MAX_ITERATIONS]
        try:
            values = [m.value(n, b, budget) for n in N_VALUES for b in B_VALUES]
        except OverflowError:
            continue
        if any(v != 0 for v in values):
            m.note = "depth %d%s" % (depth, ", floor/ceil in costs"
                                     if with_floor else "")
            return m


# ---------------------------------------------------------------------------
# Fixed cases, with the counts worked out by hand.

def fixed_models():
    """The two examples of the contract, as (model, [(N, B, count)])."""
    pairs = Model("loops_pairs", [
        Loop("i", Const(1), Name("N"), [
            Loop("j", linear(2, [(1, "i")]), Name("N"), [Step(Const(1))])])],
        "pairs i < j - 1: 0 at N = 2, 36 at N = 10")
    nb = Model("loops_n_over_b", [
        Loop("i", Const(1), Quotient(Name("N"), Name("B")), [Step(Const(1))])],
        "to=N/B: floor(10/3) = 3 iterations at N = 10, B = 3")
    return [(pairs, [(2, 1, 0), (10, 1, 36), (10, 3, 36), (1, 1, 0)]),
            (nb, [(10, 3, 3), (10, 1, 10), (2, 3, 0), (12, 4, 3)])]


# ---------------------------------------------------------------------------
# Running segc.

class Tap:
    """TAP output."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, good, name, diag=()):
        self.n += 1
        print("%s %d - %s" % ("ok" if good else "not ok", self.n, name))
        if not good:
            self.failed += 1
            for line in diag:
                for part in str(line).splitlines():
                    print("#   " + part)
        sys.stdout.flush()

    def skip(self, name, reason):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, name, reason))

    def done(self):
        print("1..%d" % self.n)
        return 0 if self.failed == 0 else 1


def run(args, cwd=None, timeout=60):
    """(exit status, stdout, stderr) of a command run in 'cwd'."""
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout
    return p.returncode, p.stdout, p.stderr


def first_lines(text, k=6):
    lines = text.strip().splitlines()
    more = ["... (%d more lines)" % (len(lines) - k)] if len(lines) > k else []
    return lines[:k] + more


def describe(model):
    """The diagnostic lines that show a model: its loops as C."""
    return ["model %s (%s):" % (model.name, model.note)] + \
        ["  " + line for line in model.c()]


def exact(text):
    """A number segc printed exactly (an integer or p/q), or None."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def close(got, want, rtol):
    return abs(got - want) <= rtol * max(abs(want), 1)


def report(tap, model, kind, npoints, bad, extra=()):
    """One TAP line for 'kind' on 'model': 'bad' lists the disagreements
    as (N, B, literal value, what segc gave)."""
    if not bad:
        tap.ok(True, "%s %s (%d points)" % (model.name, kind, npoints))
        return
    n, b, want, got = bad[0]
    lines = ["%d of %d points disagree; the first: N=%d B=%d" % (
        len(bad), npoints, n, b),
        "  loops run literally: %s (%.17g)" % (want, float(want)),
        "  %s gives:%s%s" % (kind, " " if len(got) < 60 else "\n    ",
                             got[:400])]
    tap.ok(False, "%s %s" % (model.name, kind),
           lines + list(extra) + describe(model))


def check_derive(tap, model, work, points):
    """segc derive with every name bound: the exact value at each point."""
    bad = []
    errs = []
    for n, b in points:
        want = model.value(n, b)
        st, out, err = run([SEGC, "derive", "-D", "N=%d" % n, "-D", "B=%d" % b,
                            "-D", "t=1", model.name + ".xml"], cwd=work)
        got = exact(out) if st == 0 else None
        if got == want:
            continue
        if st != 0:
            text = "exit %d: %s" % (st, " / ".join(first_lines(err, 2)))
        elif got is None:
            text = "not a number: " + out.strip()
        else:
            text = str(got)
        bad.append((n, b, want, text))
        if not errs:
            errs = first_lines(err, 4)
    report(tap, model, "derive", len(points), bad, errs)


def parse_csv(out):
    """The rows of 'segc eval --csv' as dicts of exact values."""
    lines = out.strip().splitlines()
    if not lines:
        return None
    head = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        cells = line.split(",")
        if len(cells) != len(head):
            return None
        rows.append(dict(zip(head, cells)))
    return rows


def check_eval(tap, model, work, form):
    """segc eval over the whole grid: 'total' against the literal value."""
    kind = "eval" if form is None else "eval --form " + form
    args = [SEGC, "eval", "--csv", "--digits", "30", "-D", "t=1"]
    if form is not None:
        args += ["--form", form]
    args += [model.name + ".xml", "N=%d..%d" % (N_VALUES[0], N_VALUES[-1]),
             "B=%d..%d" % (B_VALUES[0], B_VALUES[-1])]
    npoints = len(N_VALUES) * len(B_VALUES)
    st, out, err = run(args, cwd=work)
    rows = parse_csv(out) if st == 0 else None
    if rows is None or len(rows) != npoints:
        tap.ok(False, "%s %s" % (model.name, kind),
               ["segc %s failed (exit %d):" % (kind, st)] + first_lines(err)
               + first_lines(out, 3) + describe(model))
        return
    bad = []
    for row in rows:
        try:
            n, b = int(row["N"]), int(row["B"])
            got = Fraction(row["total"])
        except (KeyError, ValueError):
            tap.ok(False, "%s %s" % (model.name, kind),
                   ["unreadable row: %s" % row] + describe(model))
            return
        want = model.value(n, b)
        if not close(got, want, EVAL_RTOL):
            bad.append((n, b, want, row["total"]))
    report(tap, model, kind, npoints, bad)


DRIVER = """#include <stdio.h>
#include "%(name)s.h"
int main(void)
{
\tint n, b;
\tfor (n = %(n0)d; n <= %(n1)d; n++)
\t\tfor (b = %(b0)d; b <= %(b1)d; b++)
\t\t\tprintf("%%d %%d %%.17g\\n", n, b, %(name)s_total(n, 1, b));
\treturn 0;
}
"""


def check_emit(tap, model, work):
    """The emitted C, compiled and run over the grid."""
    base = os.path.join(work, model.name)
    name = "%s emit" % model.name
    st, out, err = run([SEGC, "emit", "-q", "-D", "t=1", "--keep", "B",
                        "-o", model.name, model.name + ".xml"], cwd=work)
    if st != 0:
        tap.ok(False, name, ["segc emit failed (exit %d):" % st]
               + first_lines(err) + describe(model))
        return
    driver = base + "_driver.c"
    with open(driver, "w") as f:
        f.write(DRIVER % {"name": model.name, "n0": N_VALUES[0],
                          "n1": N_VALUES[-1], "b0": B_VALUES[0],
                          "b1": B_VALUES[-1]})
    exe = base + "_run"
    st, out, err = run(CC.split() + ["-std=c99", "-O1", "-I", work, "-o", exe,
                                     driver, base + ".c", "-lm"])
    if st != 0:
        tap.ok(False, name, ["the emitted C does not compile with %s:" % CC]
               + first_lines(err, 10) + describe(model))
        return
    st, out, err = run([exe])
    lines = out.split("\n")[:-1] if st == 0 else []
    if len(lines) != len(N_VALUES) * len(B_VALUES):
        tap.ok(False, name, ["the predictor failed (exit %d)" % st]
               + first_lines(err) + describe(model))
        return
    bad = []
    for line in lines:
        n, b, v = line.split()
        n, b = int(n), int(b)
        want = model.value(n, b)
        try:
            good = close(Fraction(v), want, EMIT_RTOL)
        except ValueError:
            good = False
        if not good:
            bad.append((n, b, want, v))
    report(tap, model, "emit", len(lines), bad)


def check_model(tap, model, work):
    with open(os.path.join(work, model.name + ".xml"), "w") as f:
        f.write(model.xml())
    check_derive(tap, model, work, DERIVE_POINTS)
    check_eval(tap, model, work, None)
    check_eval(tap, model, work, "canonical")
    check_emit(tap, model, work)


def main(argv):
    count = int(os.environ.get("LOOPS_PROPERTY_MODELS", "40"))
    seed = 20240611
    keep = None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--models":
            count = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        elif a == "--keep-dir":
            keep = args.pop(0)
        else:
            sys.stderr.write(__doc__)
            return 2
    tap = Tap()
    print("# %d random models from seed %d; to keep them (and the emitted C):"
          % (count, seed))
    print("#   SEGC=... python3 tests/cli/loops_property.py --keep-dir DIR")
    work = keep or tempfile.mkdtemp(prefix="segc-loops.")
    os.makedirs(work, exist_ok=True)
    try:
        # The reference itself first: the literal executor on hand counts.
        fixed = fixed_models()
        for model, counts in fixed:
            bad = [(n, b, c, model.value(n, b)) for n, b, c in counts
                   if model.value(n, b) != c]
            tap.ok(not bad, "%s: the literal loops give the hand counts"
                   % model.name,
                   ["N=%d B=%d: hand count %s, literal %s" % x for x in bad])
        for model, counts in fixed:
            check_model(tap, model, work)
        rng = random.Random(seed)
        for k in range(count):
            check_model(tap, gen_model(rng, "loops_r%02d" % k), work)
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
