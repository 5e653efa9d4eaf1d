#!/usr/bin/env python3
"""pieces_property.py - loop bodies with min, max, if, floor and ceil of
the counters, executed literally.

Random loop nests of depth 1 to 3 whose step costs hold min, max, if,
floor and ceil of the counters against outer counters, the parameters N
and B and constants (max(0, N - i), min(j, 4), if(i <= B, 1, 2),
floor((i + j)/3), min(B, N - B*(i - 1)), ...), written in two forms:

  block form  nested <loop var from to> elements;
  arc form    the outermost loop a loop arc with a counter
              (<arc loop="COUNT" var="i">, i = 1 .. COUNT, COUNT an
              integer), its body a chain of nodes, an inner loop a
              sum(j, lo, hi, ...) in a node's cost.

Each model is run as C runs it (a counter takes every integer from
ceil(lo) to floor(hi)) in exact rational arithmetic at every point of a
grid of (N, B), and compared with derive -D (exact), the formula of
derive read back and evaluated exactly, eval and eval --form canonical,
and the emitted C, as loops_property.py does (whose reader and checks
this file uses).  Then the examples of the summation contract, each with
its value worked out by hand.

Usage: pieces_property.py [--models K] [--seed S] [--keep-dir DIR]
Environment: SEGC, CC, PIECES_PROPERTY_MODELS (default 40), TMPDIR.
"""

import os
import random
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loops_property as lp  # noqa: E402
from loops_property import (Const, Name, Sum, Product, Quotient, Call,  # noqa
                            Loop, Step, Model, linear, paren)

lp.N_VALUES = range(1, 10)
lp.B_VALUES = range(1, 4)
GRID = [(n, b) for n in lp.N_VALUES for b in lp.B_VALUES]
DERIVE_POINTS = [(1, 2), (1, 1), (2, 3), (3, 2), (4, 1), (5, 3), (7, 2),
                 (9, 3)]
MAX_ITERATIONS = 40000
# The draw that make check runs.
DEFAULT_SEED = 20241126
DEFAULT_MODELS = 40
WORK_LIMIT = 100000000
MEMORY_LIMIT = 100000000


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Extremum:
    """min(a, b, ...) or max(a, b, ...)."""
    prec = 4

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def text(self):
        return "%s(%s)" % (self.fn, ", ".join(a.text() for a in self.args))

    def value(self, env):
        vals = [a.value(env) for a in self.args]
        return min(vals) if self.fn == "min" else max(vals)


class If:
    """if(a OP b, x, y)."""
    prec = 4

    def __init__(self, op, a, b, x, y):
        self.op, self.a, self.b, self.x, self.y = op, a, b, x, y

    def text(self):
        return "if(%s %s %s, %s, %s)" % (self.a.text(), self.op,
                                         self.b.text(), self.x.text(),
                                         self.y.text())

    def value(self, env):
        a, b = self.a.value(env), self.b.value(env)
        holds = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
                 "==": a == b, "!=": a != b}[self.op]
        return (self.x if holds else self.y).value(env)


class SumExpr:
    """sum(v, lo, hi, body): an inner loop written in a cost (arc form)."""
    prec = 4

    def __init__(self, loop):
        self.loop = loop

    def text(self):
        body = [b.poly if isinstance(b, Step) else SumExpr(b)
                for b in self.loop.body]
        e = body[0] if len(body) == 1 else Sum([(1, x) for x in body])
        return "sum(%s, %s, %s, %s)" % (self.loop.var, self.loop.lo.text(),
                                        self.loop.hi.text(), e.text())

    def value(self, env):
        env = dict(env)
        return self.loop.run(env, [10**9, 0, 0])


class PieceStep(Step):
    """A step whose cost may hold relations (escaped in XML)."""

    def xml(self, indent):
        return ["%s<step cost=\"%s\"/>" % (
            indent, xml_escape("t*" + paren(self.poly, 3)))]


class ArcModel(Model):
    """The outermost loop (from 1 to an integer count free of counters)
    as a loop arc with a counter; its blocks a chain of nodes."""

    def xml(self):
        loop = self.blocks[0]
        lines = ['<model name="%s" version="1">' % self.name]
        if self.note:
            lines.append("  <!-- %s -->" % self.note)
        lines += ['  <param name="B" min="1" integer="true"/>',
                  '  <resource name="t"/>',
                  '  <graph name="main">']
        ids = []
        for k, b in enumerate(loop.body):
            e = b.poly if isinstance(b, Step) else SumExpr(b)
            ids.append("v%d" % k)
            lines.append('    <node id="v%d" cost="%s"/>' % (
                k, xml_escape("t*" + paren(e, 3))))
        for u, v in zip(ids, ids[1:]):
            lines.append('    <arc from="%s" to="%s"/>' % (u, v))
        lines.append('    <arc from="%s" to="%s" loop="%s" var="%s"/>' % (
            ids[-1], ids[0], xml_escape(loop.hi.text()), loop.var))
        lines += ["  </graph>", "</model>"]
        return "\n".join(lines) + "\n"


class BlockModel(Model):
    """The block form: nested <loop> elements."""


# ---------------------------------------------------------------------------
# The generator.

def small(rng):
    return rng.choice([0, 1, 1, 2, 3, 4, -1, -2, 5, 6])


def gen_aff(rng, names, counter=None):
    """c0 + a*x + b*y: x the given counter (or one of 'names'), y an outer
    counter or a parameter, small integer coefficients."""
    x = counter or rng.choice(names)
    coeffs = [(rng.choice([1, 1, 1, 2, -1, Fraction(1, 2)]), x)]
    if rng.random() < 0.5:
        y = rng.choice([n for n in names + ["N", "B"] if n != x])
        coeffs.append((rng.choice([1, 1, -1, 2]), y))
    return linear(small(rng), coeffs)


def gen_other(rng, names):
    """What a counter is held against: a constant, a parameter, an outer
    counter or an affine mix."""
    k = rng.random()
    if k < 0.35:
        return Const(rng.choice([0, 1, 2, 3, 4, 5, 7]))
    if k < 0.6:
        return Name(rng.choice(["N", "B"]))
    if k < 0.8 and names:
        return Name(rng.choice(names))
    return linear(rng.choice([0, 1, 2, -1]),
                  [(rng.choice([1, 2, -1]), rng.choice(["N", "B"]))])


def gen_piece(rng, names, counter, depth=0):
    """A min, max, if, floor or ceil that holds 'counter'."""
    kind = rng.choice(["min", "max", "if", "floor", "ceil", "min", "max",
                       "if", "max0", "block"] + (["nest"] if depth == 0
                                                  else []))
    if kind in ("min", "max"):
        args = [gen_aff(rng, names, counter), gen_other(rng, names)]
        if rng.random() < 0.2:
            args.append(gen_other(rng, names))
        rng.shuffle(args)
        return Extremum(kind, args)
    if kind == "max0":
        return Extremum("max", [Const(0), linear(rng.choice([0, 1, 2]), [
            (1, rng.choice(["N", "B"] + [n for n in names
                                          if n != counter])),
            (-1, counter)])])
    if kind == "block":
        # min(B, N - B*(i - 1)): the size of the last, short block
        return Extremum("min", [Name("B"), linear(0, [(1, "N")]) if False
                                else Sum([(1, Name("N")), (-1, Product([
                                    Name("B"), paren_sum(counter)]))])])
    if kind == "if":
        op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
        a = gen_aff(rng, names, counter)
        b = gen_other(rng, names)
        x = rng.choice([Const(rng.choice([0, 1, 2, 3])), Name(counter),
                        gen_other(rng, names)])
        y = rng.choice([Const(rng.choice([0, 1, 2, 5])), Name(counter),
                        Name("N")])
        return If(op, a, b, x, y)
    if kind == "nest":
        inner = gen_piece(rng, names, counter, 1)
        return Extremum(rng.choice(["min", "max"]),
                        [inner, gen_other(rng, names)])
    den = rng.choice([Const(2), Const(3), Name("B")])
    return Call(kind, Quotient(gen_aff(rng, names, counter), den))


def paren_sum(counter):
    return Sum([(1, Name(counter)), (-1, Const(1))])


def gen_cost(rng, names):
    """1 or 2 terms, each a piece of a counter, times a counter or a
    constant now and then."""
    terms = []
    for _ in range(rng.choice([1, 1, 2])):
        c = rng.choice(names[-1:] * 3 + names)
        p = gen_piece(rng, names, c)
        if rng.random() < 0.2:
            p = Product([p, Name(rng.choice(names))])
        elif rng.random() < 0.2:
            p = Product([Const(rng.choice([2, 3, Fraction(1, 2)])), p])
        terms.append((1, p))
    if rng.random() < 0.2:
        terms.append((1, Const(1)))
    return terms[0][1] if len(terms) == 1 else Sum(terms)


def gen_bound(rng, outer, upper):
    """Small affine bounds: 1, 0, 2, an outer counter (+-1); N, N - 1,
    a constant, an outer counter, floor(N/2), ceil(N/B)."""
    if not upper:
        c = [Const(1), Const(1), Const(0), Const(2)]
        c += [linear(k, [(1, x)]) for x in outer for k in (0, 1)]
        return rng.choice(c)
    c = [Name("N"), Name("N"), linear(-1, [(1, "N")]), Const(5),
         Call("floor", Quotient(Name("N"), Const(2))),
         Call("ceil", Quotient(Name("N"), Name("B")))]
    c += [Name(x) for x in outer] + [linear(0, [(1, "N"), (-1, x)])
                                      for x in outer]
    return rng.choice(c)


def gen_nest(rng, depth, level, outer):
    var = lp.COUNTERS[level]
    lo = gen_bound(rng, outer, False)
    hi = gen_bound(rng, outer, True)
    names = outer + [var]
    if level + 1 == depth:
        body = [PieceStep(gen_cost(rng, names))]
    else:
        body = [gen_nest(rng, depth, level + 1, names)]
        if rng.random() < 0.4:
            body.insert(0, PieceStep(gen_cost(rng, names)))
    return Loop(var, lo, hi, body)


ARC_COUNTS = [Name("N"), linear(1, [(1, "N")]), Const(4),
              Call("floor", Quotient(Name("N"), Const(2))),
              Call("ceil", Quotient(Name("N"), Name("B")))]


def gen_model(rng, name, arc):
    while True:
        depth = rng.choice([1, 1, 2, 2, 3])
        nest = gen_nest(rng, depth, 0, [])
        if arc:
            nest.lo = Const(1)
            nest.hi = rng.choice(ARC_COUNTS)
            m = ArcModel(name, [nest])
        else:
            m = BlockModel(name, [nest])
        budget = [MAX_ITERATIONS, 0, 0]
        try:
            values = [m.value(n, b, budget) for n, b in GRID]
        except OverflowError:
            continue
        if any(v != 0 for v in values):
            m.note = "depth %d, %s form" % (depth, "arc" if arc else "block")
            return m


# ---------------------------------------------------------------------------
# The examples of the contract, with their values worked out by hand.

def fixed_models():
    """(model, [(N, B, value)]) worked out by hand."""
    t = []
    # min(j, 4) over j = 1..N: 1, 3, 6, 10, then 4 more per step
    m = BlockModel("pieces_min4", [Loop("j", Const(1), Name("N"), [
        PieceStep(Extremum("min", [Name("j"), Const(4)]))])],
        "sum of min(j, 4): if(N >= 4, 4*N - 6, N*(N + 1)/2)")
    t.append((m, [(1, 1, 1), (2, 1, 3), (3, 1, 6), (4, 1, 10),
                  (5, 1, 14), (9, 2, 30)]))
    # max(0, N - i) over i = 1..N+1: N*(N - 1)/2
    m = BlockModel("pieces_max0", [Loop("i", Const(1), linear(1, [(1, "N")]),
        [PieceStep(Extremum("max", [Const(0), linear(0, [(1, "N"),
                                                          (-1, "i")])]))])],
        "sum of max(0, N - i) to N + 1: N*(N - 1)/2")
    t.append((m, [(1, 1, 0), (2, 1, 1), (5, 1, 10), (9, 3, 36)]))
    # if(i <= 4, 1, 2) + max(B, i) over i = 1..8: 12 + sum max(B, i)
    m = BlockModel("pieces_if_max", [Loop("i", Const(1), Const(8), [
        PieceStep(Sum([(1, If("<=", Name("i"), Const(4), Const(1),
                              Const(2))),
                       (1, Extremum("max", [Name("B"), Name("i")]))]))])],
        "if(i <= 4, 1, 2) + max(B, i), i = 1..8: 12 + 36 at B = 1, 51 at 3")
    t.append((m, [(1, 1, 48), (1, 3, 51), (4, 2, 49)]))
    arc = ArcModel("pieces_if_max_arc", [Loop("i", Const(1), Const(8), [
        PieceStep(If("<=", Name("i"), Const(4), Const(1), Const(2))),
        PieceStep(Extremum("max", [Name("B"), Name("i")]))])],
        "the same as a loop arc with a counter")
    t.append((arc, [(1, 1, 48), (1, 3, 51), (5, 2, 49)]))
    return t


def main(argv):
    count = int(os.environ.get("PIECES_PROPERTY_MODELS",
                               str(DEFAULT_MODELS)))
    seed = DEFAULT_SEED
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
    tap = lp.Tap()
    print("# %d random models (half in arc form) from seed %d" % (count, seed))
    work = keep or tempfile.mkdtemp(prefix="segc-pieces.")
    os.makedirs(work, exist_ok=True)
    # every command under a work budget (about 3 s of algebra) and 100 MB,
    # so that a model whose pieces multiply reaches a limit rather than
    # the time of the test
    real = lp.SEGC
    wrapper = os.path.join(work, "segc_limited")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\ncmd=$1\nshift\nexec "%s" "$cmd" --limit '
                'max_work=%d --limit max_memory=%d "$@"\n'
                % (real, WORK_LIMIT, MEMORY_LIMIT))
    os.chmod(wrapper, 0o755)
    lp.SEGC = wrapper
    try:
        for model, counts in fixed_models():
            bad = [(n, b, c, model.value(n, b)) for n, b, c in counts
                   if model.value(n, b) != c]
            tap.ok(not bad, "%s: the literal loops give the hand values"
                   % model.name,
                   ["N=%d B=%d: by hand %s, literal %s" % x for x in bad])
            with open(os.path.join(work, model.name + ".xml"), "w") as f:
                f.write(model.xml())
            case = lp.Case(model.name, dict(((n, b), c) for n, b, c in counts),
                           ["model %s (%s):" % (model.name, model.note)]
                           + ["  " + line for line in model.c()])
            lp.check_case(tap, case, work, case.points())
        rng = random.Random(seed)
        limited = []
        for k in range(count):
            arc = k % 2 == 1
            model = gen_model(rng, "pieces_r%02d" % k, arc)
            with open(os.path.join(work, model.name + ".xml"), "w") as f:
                f.write(model.xml())
            case = lp.Case.of_model(model, GRID)
            st, out, err = lp.run([lp.SEGC, "derive", "-D", "t=1",
                                   model.name + ".xml"], cwd=work)
            if st != 3:
                # the symbolic formula, which the later checks read
                # back, may reach the limit where this one did not
                st, out, err = lp.run([lp.SEGC, "derive",
                                       model.name + ".xml"], cwd=work)
            if st == 3:
                # a limit reached is no wrong value, but these models are
                # small: each of the default draw derives within the
                # limits; with another seed or count it is shown only
                msg = "%s derives within the limits: %s" % (
                    model.name, " / ".join(lp.first_lines(err, 1)))
                if seed == DEFAULT_SEED and count <= DEFAULT_MODELS:
                    tap.ok(False, msg)
                else:
                    tap.n += 1
                    print("not ok %d - %s # TODO a limit is reached"
                          % (tap.n, msg))
                limited.append(model.name)
                continue
            lp.check_case(tap, case, work, DERIVE_POINTS)
        print("# %d of %d random models reach a limit (exit 3): %s"
              % (len(limited), count, " ".join(limited) or "none"))
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
