#!/usr/bin/env python3
"""format_reference.py - random models against a reference interpreter of
the format.

The models are drawn at random (a fixed seed) from as many elements of the
format as have an exact meaning: steps with a cost and <use> children of
every class, <seq>, <loop count> with symbolic counts, counter loops whose
bounds use N, P, parameters and outer counters and whose bodies use the
counter under min, max, if, floor, ceil and sum, branches with numeric,
symbolic and remainder probabilities, <par>, <call> of block-form and
arc-form sub-graphs (or-graphs with probabilistic cycles, task graphs with
and-splits and and-joins, loop arcs with and without a counter,
overlapped loops with forward edges, and loops with forward edges but
without overlap), parameters with and without a
value, lets, functions, a machine (in a file or inline) that binds
resources and parameters and overrides a function, and expectations.

The meaning of each model is worked out here from the format's
documents alone (FORMAT.md and doc/format.md), not from segc: the model
is executed literally in exact rationals at each point (a counter loop
runs iteration by iteration over the integers from ceil(from) to
floor(to), a <loop count> is count times its body, a branch the sum of
its cases weighted by their probabilities, a <par> the largest of its
children, an or-graph the expected cost to absorption of its Markov
chain, a task graph its longest path, an overlapped loop the propagation
of its time stamps; a component is the program with the costs of the
other classes set to zero).  Each model must pass 'segc validate', and
is compared exactly with

  eval      segc eval --json --arith exact, structural and canonical
            forms, every component, over a grid of points;
  derive -D segc derive with every name bound: an exact number;
  derive    the canonical formula read back (loops_property.py's reader)
            and evaluated at every point; also with --lets, the lets
            kept names (some declared integers with a lower bound, a
            promise they keep) and given their values at each point;
  check     the program written literally as an <expect> (sum() for a
            counter loop, max() for a par, ...): never MISMATCH.

Prints TAP.  Environment: SEGC, SEED (default 20261129), MODELS (default
20), TMPDIR; FORMAT_REFERENCE_KEEP=DIR keeps the models;
FORMAT_REFERENCE_BLOCKS (default 9) the most blocks of a main graph;
FORMAT_REFERENCE_WIDE=0 draws only the first shapes of loop bounds and
costs (without the bounds in q, s, max, min and floor and the costs with
two pieces, equalities of counters and fractions of counters).
"""

import math
import os
import random
import shutil
import sys
import tempfile
import json
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loops_property as lp  # noqa: E402

SEGC = os.environ.get("SEGC", "segc")
SEED = int(os.environ.get("SEED", "20261129"))
MODELS = int(os.environ.get("MODELS", "20"))
CLASSES = ("comp", "comm", "io")
FORMS = ("canonical", "structural", "readable")
# Draw the wider shapes of bounds and costs (FORMAT_REFERENCE_WIDE=0: only
# the first ones).
WIDE = os.environ.get("FORMAT_REFERENCE_WIDE", "1") != "0"
# The most blocks of the main graph (FORMAT_REFERENCE_BLOCKS).
BLOCKS = max(3, int(os.environ.get("FORMAT_REFERENCE_BLOCKS", "9")))
# The generator of the model being drawn, for the spelling of numbers.
RNG = [None]
BUILTINS = ("min", "max", "floor", "ceil", "exp2", "sqrt", "log2", "log",
            "mva_mem")


class Unsupported(Exception):
    """A call this reference has no value for (an atom of segc's)."""


class Undefined(Exception):
    """A point where the model has no value (a division by zero)."""


# ---------------------------------------------------------------------------
# Expressions: a tree that prints in the expression language (with as few
# parentheses as the grammar allows) and evaluates exactly.

PREC = {"num": 9, "name": 9, "call": 9, "pow": 7, "neg": 6, "mul": 5,
        "div": 5, "add": 4, "sub": 4}


def frac_text(v, rng=None):
    """A number literal (or quotient of two) whose value is v >= 0."""
    v = Fraction(v)
    d = v.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    forms = []
    if v.denominator == 1:
        forms.append(str(v.numerator))
        if rng is not None and v.numerator % 10 == 0 and v:
            forms.append("%de1" % (v.numerator // 10))
    if d == 1 and v.denominator != 1:
        # an exact decimal: 0.25, .25, 25e-2
        k = 0
        while (v * 10 ** k).denominator != 1:
            k += 1
        digits = str((v * 10 ** k).numerator)
        if len(digits) <= k:
            digits = "0" * (k - len(digits) + 1) + digits
        dec = digits[:-k] + "." + digits[-k:]
        forms.append(dec)
        if dec.startswith("0."):
            forms.append(dec[1:])
        forms.append("%de-%d" % ((v * 10 ** k).numerator, k))
    if v.denominator != 1:
        forms.append("%d/%d" % (v.numerator, v.denominator))
    if rng is None:
        return forms[-1]
    return rng.choice(forms)


class E:
    """An expression node: kind, children, payload."""

    def __init__(self, kind, *args, **kw):
        self.kind = kind
        self.args = list(args)
        self.text_ = kw.get("text")

    # -- printing
    def prec(self):
        if self.kind == "num" and ("/" in self.text_):
            return PREC["div"]
        return PREC.get(self.kind, 9)

    def text(self):
        k, a = self.kind, self.args
        if k == "num":
            return self.text_
        if k == "name":
            return a[0]
        if k in ("add", "sub", "mul", "div"):
            op = {"add": " + ", "sub": " - ", "mul": "*", "div": "/"}[k]
            p = PREC[k]
            left = wrap(a[0], p)
            right = wrap(a[1], p + 1)
            return left + op + right
        if k == "neg":
            return "-" + wrap(a[0], PREC["neg"])
        if k == "pow":
            # the base a primary; the exponent a unary
            return wrap(a[0], PREC["call"]) + "^" + wrap(a[1], PREC["neg"])
        if k == "call":
            return a[0] + "(" + ", ".join(x.text() for x in a[1:]) + ")"
        if k == "sum":
            return "sum(%s, %s, %s, %s)" % (a[0], a[1].text(), a[2].text(),
                                             a[3].text())
        if k == "if":
            return "if(%s, %s, %s)" % (a[0].text(), a[1].text(),
                                       a[2].text())
        raise AssertionError(k)

    # -- evaluation; 'ctx' gives names, lets and functions
    def value(self, env, ctx):
        k, a = self.kind, self.args
        if k == "num":
            return a[0]
        if k == "name":
            return ctx.name(a[0], env)
        if k in ("add", "sub", "mul", "div"):
            x, y = a[0].value(env, ctx), a[1].value(env, ctx)
            if k == "div" and y == 0:
                raise Undefined("a division by zero in %s" % self.text())
            return {"add": lambda: x + y, "sub": lambda: x - y,
                    "mul": lambda: x * y, "div": lambda: x / y}[k]()
        if k == "neg":
            return -a[0].value(env, ctx)
        if k == "pow":
            x, y = a[0].value(env, ctx), a[1].value(env, ctx)
            return rational_power(x, y)
        if k == "sum":
            var, lo, hi, body = a
            lo, hi = lo.value(env, ctx), hi.value(env, ctx)
            total = Fraction(0)
            i = math.ceil(lo)
            while i <= hi:
                inner = dict(env)
                inner[var] = Fraction(i)
                total += body.value(inner, ctx)
                i += 1
            return total
        if k == "if":
            c = a[0].holds(env, ctx)
            return (a[1] if c else a[2]).value(env, ctx)
        if k == "call":
            return ctx.call(a[0], a[1:], env)
        raise AssertionError(k)


def wrap(e, need):
    t = e.text()
    return "(" + t + ")" if e.prec() < need else t


def iroot(n, q):
    """The exact integer q-th root of n >= 0, or None."""
    r = int(round(n ** (1.0 / q))) if n else 0
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** q == n:
            return c
    return None


def rational_power(x, y):
    """x^y for rational y, where the result is rational (doc/format.md 2:
    x^(p/q) is the non-negative q-th root raised to p)."""
    p, q = y.numerator, y.denominator
    if q != 1:
        if x < 0:
            raise Undefined("a rational power of a negative number")
        a, b = iroot(x.numerator, q), iroot(x.denominator, q)
        if a is None or b is None:
            raise Undefined("an irrational power")
        x = Fraction(a, b)
    if x == 0 and p < 0:
        raise Undefined("a division by zero")
    return x ** p


class Cond:
    """A condition: ('rel', op, a, b), ('and'|'or', c, d), ('not', c)."""

    def __init__(self, kind, *args):
        self.kind, self.args = kind, list(args)

    def text(self, top=True):
        k, a = self.kind, self.args
        if k == "rel":
            return "%s %s %s" % (a[1].text(), a[0], a[2].text())
        if k == "not":
            inner = a[0].text(False)
            return "not " + (inner if a[0].kind == "rel" else
                             "(" + inner + ")")
        if k == "and":
            parts = [c.text(False) if c.kind in ("rel", "not", "and")
                     else "(" + c.text(False) + ")" for c in a]
            return " and ".join(parts)
        return " or ".join(c.text(False) for c in a)

    def holds(self, env, ctx):
        k, a = self.kind, self.args
        if k == "rel":
            x, y = a[1].value(env, ctx), a[2].value(env, ctx)
            return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y,
                    "==": x == y, "!=": x != y}[a[0]]
        if k == "not":
            return not a[0].holds(env, ctx)
        if k == "and":
            return all(c.holds(env, ctx) for c in a)
        return any(c.holds(env, ctx) for c in a)


def num(v, rng=None):
    v = Fraction(v)
    if v < 0:
        return E("neg", num(-v, rng))
    return E("num", v, text=frac_text(v, rng))


def nm(n):
    return E("name", n)


def add(*xs):
    e = xs[0]
    for x in xs[1:]:
        e = E("add", e, x)
    return e


def mul(*xs):
    e = xs[0]
    for x in xs[1:]:
        e = E("mul", e, x)
    return e


def call(f, *xs):
    return E("call", f, *xs)


def parse(text):
    """An expression tree of our own from a text in the language (for the
    few fixed expressions written as text below)."""
    f = lp.Formula(text)

    def conv(t):
        op = t[0]
        if op == "num":
            return E("num", t[1], text=frac_text(t[1], RNG[0]))
        if op == "name":
            return nm(t[1])
        if op == "neg":
            return E("neg", conv(t[1]))
        if op in ("+", "-", "*", "/", "^"):
            return E({"+": "add", "-": "sub", "*": "mul", "/": "div",
                      "^": "pow"}[op], conv(t[1]), conv(t[2]))
        if op == "if":
            return E("if", convc(t[1]), conv(t[2]), conv(t[3]))
        if t[1] == "sum":
            return E("sum", t[2][0][1], conv(t[2][1]), conv(t[2][2]),
                     conv(t[2][3]))
        return E("call", t[1], *[conv(x) for x in t[2]])

    def convc(c):
        if c[0] == "rel":
            return Cond("rel", c[1], conv(c[2]), conv(c[3]))
        if c[0] == "not":
            return Cond("not", convc(c[1]))
        return Cond(c[0], convc(c[1]), convc(c[2]))
    return conv(f.tree)


# ---------------------------------------------------------------------------
# The context of evaluation: parameters, resources, lets, functions, the
# machine, at one point.

def mva(p, tp, tm):
    """mva_mem(p, t_proc, t_mem) by its recurrence (format.md 2.2)."""
    r = tm
    for j in range(1, p):
        if tp + r == 0:
            raise Undefined("mva_mem divides by zero")
        r = (1 + j * r / (tp + r)) * tm
    return r


class Ctx:
    """What a name means at a point: 'values' binds parameters, resources
    and machine constants (after the binding order), 'lets' and 'funcs'
    are the model's (the machine's functions already put over them)."""

    def __init__(self, values, lets, funcs):
        self.values, self.lets, self.funcs = values, lets, funcs
        self.cache = {}

    def name(self, n, env):
        if n in env:
            return env[n]
        if n in self.values:
            return self.values[n]
        if n in self.lets:
            if n not in self.cache:
                self.cache[n] = self.lets[n].value({}, self)
            return self.cache[n]
        raise AssertionError("unbound name %s" % n)

    def call(self, f, args, env):
        if f == "sum":
            raise AssertionError("sum is a node")
        if f not in self.funcs and f not in BUILTINS:
            raise Unsupported(f)
        vals = [x.value(env, self) for x in args]
        if f == "min":
            return min(vals)
        if f == "max":
            return max(vals)
        if f == "floor":
            return Fraction(math.floor(vals[0]))
        if f == "ceil":
            return Fraction(math.ceil(vals[0]))
        if f == "exp2":
            return rational_power(Fraction(2), vals[0])
        if f == "sqrt":
            return rational_power(vals[0], Fraction(1, 2))
        if f == "log2":
            x = vals[0]
            if x > 0 and x.numerator & (x.numerator - 1) == 0 and \
                    x.denominator & (x.denominator - 1) == 0:
                return Fraction(x.numerator.bit_length() -
                                x.denominator.bit_length())
            raise Undefined("an irrational log2")
        if f == "log":
            return self.call("log2", args[1:], env) / \
                self.call("log2", args[:1], env)
        if f == "mva_mem":
            return mva(int(vals[0]), vals[1], vals[2])
        if f not in self.funcs:
            raise Unsupported(f)
        argn, body, scope = self.funcs[f]
        inner = dict(zip(argn, vals))
        # the body sees its arguments and the names of the model (or of
        # the machine: its constants, N and P), no loop counter
        ctx = self if scope is None else Ctx(dict(self.values, **scope),
                                             self.lets, self.funcs)
        return body.value(inner, ctx)


# ---------------------------------------------------------------------------
# Blocks of the block form, and arc-form graphs.

class Step:
    def __init__(self, cost, uses, cls):
        self.cost, self.uses, self.cls = cost, uses, cls

    def xml(self, out, ind):
        attrs = ""
        if self.cost is not None:
            attrs += ' cost="%s"' % esc(self.cost.text())
        if self.cls != "comp":
            attrs += ' class="%s"' % self.cls
        if not self.uses:
            out.append(ind + "<step%s/>" % attrs)
            return
        out.append(ind + "<step%s>" % attrs)
        for r, c in self.uses:
            out.append(ind + '  <use resource="%s"%s/>' % (
                r, "" if c is None else ' count="%s"' % esc(c.text())))
        out.append(ind + "</step>")

    def time(self, env, ctx, cls):
        if cls not in ("total", self.cls):
            return Fraction(0)
        t = self.cost.value(env, ctx) if self.cost is not None else \
            Fraction(0)
        for r, c in self.uses:
            t += (c.value(env, ctx) if c is not None else 1) * \
                ctx.name(r, env)
        return t

    def formula(self, cls):
        if cls not in ("total", self.cls):
            return "0"
        parts = []
        if self.cost is not None:
            parts.append("(" + self.cost.text() + ")")
        for r, c in self.uses:
            parts.append(r if c is None else "(%s)*%s" % (c.text(), r))
        return " + ".join(parts) or "0"


class Seq:
    def __init__(self, parts, tag="seq"):
        self.parts, self.tag = parts, tag

    def xml(self, out, ind):
        out.append(ind + "<%s>" % self.tag)
        for p in self.parts:
            p.xml(out, ind + "  ")
        out.append(ind + "</%s>" % self.tag)

    def time(self, env, ctx, cls):
        ts = [p.time(env, ctx, cls) for p in self.parts]
        if self.tag == "par":
            return max(ts) if ts else Fraction(0)
        return sum(ts, Fraction(0))

    def formula(self, cls):
        fs = [p.formula(cls) for p in self.parts]
        if not fs:
            return "0"
        if self.tag == "par":
            return fs[0] if len(fs) == 1 else "max(%s)" % ", ".join(fs)
        return " + ".join("(%s)" % f for f in fs)


class Loop:
    def __init__(self, count, body):
        self.count, self.body = count, body

    def xml(self, out, ind):
        out.append(ind + '<loop count="%s">' % esc(self.count.text()))
        for p in self.body:
            p.xml(out, ind + "  ")
        out.append(ind + "</loop>")

    def time(self, env, ctx, cls):
        n = self.count.value(env, ctx)
        assert n >= 0, "a negative count %s" % self.count.text()
        return n * sum((p.time(env, ctx, cls) for p in self.body),
                       Fraction(0))

    def formula(self, cls):
        return "(%s)*(%s)" % (self.count.text(), Seq(self.body).formula(cls))


class For:
    def __init__(self, var, lo, hi, body):
        self.var, self.lo, self.hi, self.body = var, lo, hi, body

    def xml(self, out, ind):
        out.append(ind + '<loop var="%s" from="%s" to="%s">' % (
            self.var, esc(self.lo.text()), esc(self.hi.text())))
        for p in self.body:
            p.xml(out, ind + "  ")
        out.append(ind + "</loop>")

    def time(self, env, ctx, cls):
        lo, hi = self.lo.value(env, ctx), self.hi.value(env, ctx)
        t = Fraction(0)
        i = math.ceil(lo)
        while i <= hi:
            inner = dict(env)
            inner[self.var] = Fraction(i)
            for p in self.body:
                t += p.time(inner, ctx, cls)
            i += 1
        return t

    def formula(self, cls):
        return "sum(%s, %s, %s, %s)" % (self.var, self.lo.text(),
                                         self.hi.text(),
                                         Seq(self.body).formula(cls))


class Branch:
    def __init__(self, cases):
        self.cases = cases      # [(prob E or None, [blocks])]

    def xml(self, out, ind):
        out.append(ind + "<branch>")
        for p, body in self.cases:
            attr = "" if p is None else ' prob="%s"' % esc(p.text())
            if not body:
                out.append(ind + "  <case%s/>" % attr)
                continue
            out.append(ind + "  <case%s>" % attr)
            for b in body:
                b.xml(out, ind + "    ")
            out.append(ind + "  </case>")
        out.append(ind + "</branch>")

    def probs(self, env, ctx):
        ps = [p.value(env, ctx) if p is not None else None
              for p, _ in self.cases]
        rest = 1 - sum(p for p in ps if p is not None)
        return [rest if p is None else p for p in ps]

    def time(self, env, ctx, cls):
        t = Fraction(0)
        for pr, (_, body) in zip(self.probs(env, ctx), self.cases):
            t += pr * sum((b.time(env, ctx, cls) for b in body),
                          Fraction(0))
        return t

    def formula(self, cls):
        given = [p.text() for p, _ in self.cases if p is not None]
        terms = []
        for p, body in self.cases:
            pt = p.text() if p is not None else \
                "(1 - (%s))" % (" + ".join(given) or "0")
            terms.append("(%s)*(%s)" % (pt, Seq(body).formula(cls)))
        return " + ".join(terms)


class Call:
    def __init__(self, graph):
        self.graph = graph

    def xml(self, out, ind):
        out.append(ind + '<call graph="%s"/>' % self.graph.name)

    def time(self, env, ctx, cls):
        # graphs take no arguments: the counters of the caller are not seen
        return self.graph.time({}, ctx, cls)

    def formula(self, cls):
        return "(%s)" % self.graph.formula(cls)


class Graph:
    """A graph in block form."""

    def __init__(self, name, blocks):
        self.name, self.blocks = name, blocks

    def xml(self, out):
        out.append('  <graph name="%s">' % self.name)
        for b in self.blocks:
            b.xml(out, "    ")
        out.append("  </graph>")

    def time(self, env, ctx, cls):
        return sum((b.time(env, ctx, cls) for b in self.blocks),
                   Fraction(0))

    def formula(self, cls):
        return Seq(self.blocks).formula(cls)


def esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace('"',
                                                                "&quot;")


def solve(a, b):
    """The solution of the square system a x = b over the rationals."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


class Family:
    """A graph of indexed nodes (format.md 5, indexed nodes): a start, a
    family cell over x = 1 .. X, y = 1 .. Y (X, Y >= 1) entered at its
    first corner, arcs to the next instance along x, along y and maybe
    along the diagonal, every instance to the end.  A task graph: the
    longest path over the instances, counted as computation."""

    def __init__(self, name, hx, hy, start, cost, end, mx, my, md, out):
        self.name, self.hx, self.hy = name, hx, hy
        self.start, self.cost, self.end = start, cost, end
        self.mx, self.my, self.md, self.out = mx, my, md, out

    def xml(self, out):
        out.append('  <graph name="%s">' % self.name)
        out.append('    <node id="start" cost="%s"/>' % esc(
            self.start.text()))
        out.append('    <node id="cell" cost="%s" index="x=1..%s, '
                   'y=1..%s"/>' % (esc(self.cost.text()),
                                   esc(self.hx.text()),
                                   esc(self.hy.text())))
        out.append('    <node id="end" cost="%s"/>' % esc(self.end.text()))
        out.append('    <arc from="start" to="cell" at="1, 1"/>')
        for at, c in (("x+1, y", self.mx), ("x, y+1", self.my),
                      ("x+1, y+1", self.md)):
            if c is False:
                continue
            out.append('    <arc from="cell" to="cell" at="%s"%s/>' % (
                at, "" if c is None else ' cost="%s"' % esc(c.text())))
        out.append('    <arc from="cell" to="end"%s/>' % (
            "" if self.out is None else ' cost="%s"' % esc(
                self.out.text())))
        out.append("  </graph>")

    def time(self, env, ctx, cls):
        if cls not in ("total", "comp"):
            return Fraction(0)
        val = lambda e, x, y: Fraction(0) if e is None else e.value(
            dict(env, x=Fraction(x), y=Fraction(y)), ctx)
        X = math.floor(self.hx.value(env, ctx))
        Y = math.floor(self.hy.value(env, ctx))
        assert X >= 1 and Y >= 1
        t0 = self.start.value(env, ctx)
        fin = {}
        for x in range(1, X + 1):
            for y in range(1, Y + 1):
                ins = [t0] if (x, y) == (1, 1) else []
                for dx, dy, c in ((1, 0, self.mx), (0, 1, self.my),
                                  (1, 1, self.md)):
                    if c is not False and (x - dx, y - dy) in fin:
                        ins.append(fin[(x - dx, y - dy)] +
                                   val(c, x - dx, y - dy))
                fin[(x, y)] = (max(ins) if ins else Fraction(0)) + \
                    val(self.cost, x, y)
        last = max(f + val(self.out, x, y) for (x, y), f in fin.items())
        return last + self.end.value(env, ctx)


class ArcGraph:
    """A graph in arc form, of one of the kinds whose meaning format.md 5
    states: 'markov' (or-splits with probabilities, cycles allowed: the
    expected cost to absorption), 'dag' (and-splits and and-joins: the
    longest path), 'loop' (a chain whose middle runs n times through a
    loop arc, with or without its counter), 'overlap' (a loop region
    whose iterations overlap through forward edges: the propagation of
    time stamps)."""

    def __init__(self, name, kind, nodes, arcs, loop=None, overlap=True):
        # nodes: [(id, cost E or None, cls, split, join)]
        # arcs: [(from, to, prob E or None, cost E or None, cls, extra)]
        self.name, self.kind = name, kind
        self.nodes, self.arcs, self.loop = nodes, arcs, loop
        self.overlap = overlap

    def xml(self, out):
        out.append('  <graph name="%s">' % self.name)
        for i, c, cls, split, join in self.nodes:
            a = ' id="%s"' % i
            if c is not None:
                a += ' cost="%s"' % esc(c.text())
            if cls != "comp":
                a += ' class="%s"' % cls
            if split:
                a += ' split="%s"' % split
            if join:
                a += ' join="%s"' % join
            out.append("    <node%s/>" % a)
        for f, t, p, c, cls, extra in self.arcs:
            a = ' from="%s" to="%s"' % (f, t)
            if p is not None:
                a += ' prob="%s"' % esc(p.text())
            if c is not None:
                a += ' cost="%s"' % esc(c.text())
            if cls != "comp":
                a += ' class="%s"' % cls
            for k, v in extra:
                a += ' %s="%s"' % (k, esc(v))
            out.append("    <arc%s/>" % a)
        out.append("  </graph>")

    def cost(self, c, cls, ccls, env, ctx):
        if c is None or cls not in ("total", ccls):
            return Fraction(0)
        return c.value(env, ctx)

    def time(self, env, ctx, cls):
        return getattr(self, "time_" + self.kind)(env, ctx, cls)

    def node_cost(self, env, ctx, cls):
        return dict((i, self.cost(c, cls, ccls, env, ctx))
                    for i, c, ccls, _, _ in self.nodes)

    def time_markov(self, env, ctx, cls, ids=None, entry=None, exit=None):
        """The expected time from 'entry' (the first node) to 'exit'
        over the or-arcs among 'ids' (every node): each node's cost
        times its expected visits, each arc's cost times its expected
        traversals."""
        ids = ids or [n[0] for n in self.nodes]
        entry = entry or ids[0]
        exit = exit or ids[-1]
        ids = [entry] + [i for i in ids if i != entry]
        cost = self.node_cost(env, ctx, cls)
        outs = dict((i, [a for a in self.arcs if a[0] == i and a[1] in ids
                         and not a[5]] if i != exit else [])
                    for i in ids)
        # T(v) = c(v) + sum_arcs p (c_arc + T(to)); T(exit) = c(exit)
        ix = dict((v, k) for k, v in enumerate(ids))
        a = [[Fraction(int(r == c)) for c in range(len(ids))]
             for r in range(len(ids))]
        b = [cost[v] for v in ids]
        for v in ids:
            arcs = outs[v]
            given = [x[2].value(env, ctx) for x in arcs if x[2] is not None]
            rest = 1 - sum(given)
            for f, t, p, c, ccls, _ in arcs:
                pr = p.value(env, ctx) if p is not None else (
                    Fraction(1) if len(arcs) == 1 else rest)
                b[ix[v]] += pr * self.cost(c, cls, ccls, env, ctx)
                a[ix[v]][ix[t]] -= pr
        return solve(a, b)[0]

    def time_dag(self, env, ctx, cls):
        # the longest path from the entry (which starts at 0), node and
        # arc costs included, whatever their signs
        cost = self.node_cost(env, ctx, cls)
        fin = {}
        for i, _, _, _, _ in self.nodes:      # written in topological order
            ins = [fin[f] + self.cost(c, cls, ccls, env, ctx)
                   for f, t, p, c, ccls, _ in self.arcs if t == i]
            fin[i] = (max(ins) if ins else Fraction(0)) + cost[i]
        return fin[self.nodes[-1][0]]

    def time_loop(self, env, ctx, cls):
        # nodes: pre, the region r1..rk (a chain), post; the loop arc from
        # rk to r1 with count n, optional cost and counter
        n_expr, var, lcost, lcls = self.loop
        n = n_expr.value(env, ctx)
        pre, post = self.nodes[0], self.nodes[-1]
        region = self.nodes[1:-1]

        def once(e):
            # the region's expected time (a chain, or an or-split inside)
            return self.time_markov(e, ctx, cls, [r[0] for r in region],
                                    region[0][0], region[-1][0])
        t = self.cost(pre[1], cls, pre[2], env, ctx) + \
            self.cost(post[1], cls, post[2], env, ctx)
        t += sum((self.cost(a[3], cls, a[4], env, ctx) for a in self.arcs
                  if a[0] == pre[0] or a[1] == post[0]), Fraction(0))
        if var is None:
            t += n * once(env)
            t += (n - 1) * self.cost(lcost, cls, lcls, env, ctx)
        else:
            # iterations i = 1 .. floor(n), each with its own costs
            reps = math.floor(n)
            for i in range(1, reps + 1):
                e = dict(env)
                e[var] = Fraction(i)
                t += once(e)
            t += (reps - 1) * self.cost(lcost, cls, lcls, env, ctx) \
                if reps else 0
        return t

    def time_forkor(self, env, ctx, cls):
        # s forks (and) into x and the or-region o .. m; e joins (and)
        c = self.node_cost(env, ctx, cls)
        arc = dict(((a[0], a[1]), self.cost(a[3], cls, a[4], env, ctx))
                   for a in self.arcs)
        ta = arc[("s", "x")] + c["x"] + arc[("x", "e")]
        tb = arc[("s", "o")] + self.time_markov(
            env, ctx, cls, ["o", "o1", "o2", "m"], "o", "m") + arc[("m", "e")]
        return c["s"] + max(ta, tb) + c["e"]

    def time_overlap(self, env, ctx, cls):
        # the whole graph is the region: nodes in topological order, the
        # first the entry, the last the exit; arcs inside an iteration and
        # forward edges (distance d)
        n_expr, var, lcost, lcls = self.loop
        n = n_expr.value(env, ctx)
        assert n.denominator == 1 and n >= 0
        arcs = self.arcs
        if not self.overlap and not any(
                a[3] is not None and cls in ("total", a[4]) and
                "forward" in dict(a[5]) for a in self.arcs):
            # forward edges without a cost (in this component: the costs
            # of the other classes are zero) change nothing: each
            # iteration is the region's longest path, and the loop arc's
            # cost is spent n - 1 times (format.md 5)
            # (the longest path of a task graph, whatever the signs of
            # its costs: no start is raised to 0)
            plain = ArcGraph(self.name, "dag", self.nodes, [
                a for a in self.arcs if not dict(a[5])])
            t = Fraction(0)
            for i in range(1, int(n) + 1):
                e = dict(env)
                if var is not None:
                    e[var] = Fraction(i)
                t += plain.time_dag(e, ctx, cls)
            return t + (n - 1) * self.cost(lcost, cls, lcls, env, ctx) \
                if n else t
        if not self.overlap:
            # iteration i + 1 starts when iteration i has finished, plus
            # the loop arc's cost: a forward edge of distance 1 from the
            # exit to the entry with that cost (format.md 5)
            arcs = arcs + [(self.nodes[-1][0], self.nodes[0][0], None,
                            lcost, lcls, [("forward", "1")])]
        fin = {}
        for i in range(1, int(n) + 1):
            e = dict(env)
            if var is not None:
                e[var] = Fraction(i)
            for v, c, ccls, _, _ in self.nodes:
                start = Fraction(0)
                for f, t, p, ac, acls, extra in arcs:
                    ex = dict(extra)
                    if t != v or "loop" in ex:
                        continue
                    d = int(ex.get("forward", "0"))
                    if i - d < 1:
                        continue
                    start = max(start, fin[(f, i - d)] +
                                self.cost(ac, cls, acls, e, ctx))
                fin[(v, i)] = start + self.cost(c, cls, ccls, e, ctx)
        return fin[(self.nodes[-1][0], int(n))] if n else Fraction(0)

    def formula(self, cls):
        return None


# ---------------------------------------------------------------------------
# The generator.

class Model:
    pass


class Gen:
    """Draws one model."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seed = seed
        RNG[0] = self.rng

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    # -- declarations
    def declare(self):
        r = self.rng
        m = Model()
        m.params = []       # (name, attrs dict)
        m.free = {}         # name -> kind of value drawn: int, prob, rat
        m.domains = {"N": (1, None, True), "P": (1, None, True)}
        if self.chance(0.3):
            m.params.append(("N", {"min": "1", "max": "12",
                                   "integer": "true"}))
            m.domains["N"] = (1, 12, True)
        if self.chance(0.3):
            m.params.append(("P", {"min": "1", "integer": "true"}))
        m.params.append(("k", {"min": "0", "max": "4", "integer": "true"}))
        m.domains["k"] = (0, 4, True)
        m.params.append(("q", {"min": "0", "max": "1"}))
        m.domains["q"] = (0, 1, False)
        m.has_s = self.chance(0.5)
        if m.has_s:
            m.params.append(("s", {"min": "1/2", "max": "3"}))
            m.domains["s"] = (Fraction(1, 2), 3, False)
        m.w = self.pick([Fraction(3, 2), Fraction(2), Fraction(1, 4)])
        m.params.append(("w", {"value": frac_text(m.w, r), "min": "0"}))
        m.domains["w"] = (0, None, False)
        m.resources = ["a", "b", "c"] + (["d"] if self.chance(0.6) else [])
        for x in m.resources:
            m.domains[x] = (0, None, False)
        # lets
        m.lets = []
        if self.chance(0.6):
            m.lets.append(("L1", self.pick([
                "a + k/2", "2*b - a/3", "(a + b)*w", "max(a, b) + q",
                "min(a, 2*c)", "if(N > 2, a, b)"])))
        m.let_attrs = {}
        if self.chance(0.3):
            m.lets.append(("nb", self.pick(["ceil(N/2)", "floor(N/P)",
                                            "N - 1", "min(N, P + 1)"])))
            if WIDE and self.chance(0.6):
                # a domain it keeps (format.md 3.3): a promise that holds
                m.let_attrs["nb"] = {
                    "min": "1" if m.lets[-1][1] in ("ceil(N/2)",
                                                    "min(N, P + 1)")
                    else "0", "integer": "true"}
        if m.lets and m.lets[0][0] == "L1" and self.chance(0.4):
            m.lets.append(("L2", self.pick(["L1*2 + c", "L1 - a/2",
                                            "floor(N/2)*L1"])))
        # functions of the model
        m.funcs = []
        if self.chance(0.5):
            m.funcs.append(("f", ["x"], self.pick([
                "x*a + 1", "max(x, 1)*b", "x^2*c/2", "(x + w)*a"])))
        if self.chance(0.3):
            m.funcs.append(("g", ["x", "y"], self.pick([
                "min(x, y)*a + y*b", "x*y*c", "if(x >= y, x*a, y*b)"])))
        # the machine
        m.machine = None
        if self.chance(0.6):
            mach = {"consts": [], "costs": [], "funcs": []}
            cyc = self.pick([Fraction(1, 2), Fraction(5, 4), Fraction(3)])
            mach["consts"].append(("cy", frac_text(cyc, r)))
            bound = [x for x in m.resources if self.chance(0.5)]
            if "d" in m.resources and "d" not in bound:
                bound.append("d")
            for x in bound:
                mach["costs"].append((x, self.pick([
                    "2*cy", "cy/4 + 1", "0.5*cy", "3", "cy^2"])))
            if m.has_s and self.chance(0.5):
                mach["consts"].append(("s", "cy/2 + 1/4"))
            # a const the model does not declare, and one for a valued
            # parameter (the parameter's value wins)
            mach["consts"].append(("unused", "7"))
            if self.chance(0.4):
                mach["consts"].append(("w", "100"))
            if m.funcs and m.funcs[0][0] == "f" and self.chance(0.6):
                mach["funcs"].append(("f", ["x"], self.pick([
                    "x*cy + N", "lat + x*cy", "max(x, P)*cy"])))
                if "lat" in mach["funcs"][-1][2]:
                    mach["consts"].append(("lat", "3*cy"))
            mach["inline"] = self.chance(0.4)
            m.machine = mach
        return m

    # -- expressions
    def counter_atom(self, v, scope):
        """An expression of the counter v for a cost."""
        outer = [x for x in scope if x != v]
        o = self.pick(outer) if outer else "N"
        return parse(self.pick([
            v, "min(%s, 3)" % v, "max(%s, P)" % v, "floor(%s/2)" % v,
            "ceil((%s + 1)/3)" % v, "(N - %s)^2" % v,
            "if(%s <= 2, 1, 3)" % v, "if(%s > P and N >= 3, %s, 1/2)" % (v, v),
            "min(%s, N - %s)" % (v, v), "max(%s, %s)" % (v, o),
            "min(%s, N/2)" % v, "floor((%s + %s)/3)" % (v, o),
            "sum(r1, 1, %s, r1)" % v, "if(not (%s == 1), 2, 0)" % v,
            "%s*%s" % (v, o), "ceil(%s/P)" % v, "max(%s - 2, 0)" % v,
            "floor(min(%s, 4)/2)" % v, "if(%s < k or %s == N, %s, 0)"
            % (v, v, v), "max(%s, s)" % v if self.m.has_s else v,
            "-%s^2 + 2*N*%s" % (v, v), "exp2(%s)/4" % v,
        ] + ([
            "min(%s, %s)" % (v, o), "max(2*%s - N, 0)" % v,
            "if(%s >= %s, 1, 0)" % (v, o), "%s^2*min(%s, 3)" % (v, v),
            "ceil(%s/2)*floor(%s/3)" % (v, v), "min(max(%s, 2), N - 1)" % v,
            "max(%s, %s, 3)" % (v, o), "if(%s == %s, 2, 1/2)" % (v, o),
            "floor(N/(%s^2 + 1))" % v, "1/(%s^2 + 1)" % v,
            "max(%s, N - %s)*min(%s, 2)" % (v, v, o),
            "if(%s <= N/2 and %s > 1, %s*%s, 1)" % (v, v, v, o),
            "floor((%s + 2*%s)/4)" % (v, o), "(%s - %s)^2" % (v, o),
        ] if WIDE else []) + ["%s(%s)" % (f, v) if len(args) == 1 else
             "%s(%s, %s)" % (f, v, o) for f, args, _ in self.m.funcs]))

    def plain_atom(self):
        m = self.m
        opts = ["N", "P", "k", "q", "w", "N/P", "(N + 1)/2", "ceil(N/3)",
                "floor(N/P)", "max(N, P)", "min(N, 2*P)", "exp2(k)",
                "if(N >= P, N - P, 1)", "sqrt(4*N^2)", "log2(8)",
                "log(4, 8)", "(9/4)^(1/2)", "N^-1", "2^-1", "(N^2)^(3/2)",
                "sum(r2, 1, N, r2^2)", "sum(r2, P, N, 1)", "mva_mem(2, a + 1, b)",
                "-N^2 + 3*N*P", "k*q + 1", "1.25", ".5", "3e-1"]
        if m.has_s:
            opts += ["s", "ceil(s)", "max(s, 1)"]
        opts += [x for x, _ in m.lets]
        for f, args, _ in m.funcs:
            if len(args) == 1:
                opts.append("%s(%s)" % (f, self.pick(["N", "k + 1", "2"])))
            else:
                opts.append("%s(N, P)" % f)
        return parse(self.pick(opts))

    def cost(self, scope):
        """A cost: a sum of products, mostly with a resource."""
        terms = []
        for _ in range(self.rng.randint(1, 2)):
            fs = []
            if self.chance(0.8):
                fs.append(nm(self.pick(self.m.resources)))
            if scope and self.chance(0.7):
                fs.append(self.counter_atom(self.pick(scope), scope))
            if self.chance(0.4) or not fs:
                fs.append(self.plain_atom())
            if self.chance(0.3):
                fs.insert(0, num(Fraction(self.rng.randint(1, 9),
                                          self.pick([1, 1, 2, 4, 10])),
                                 self.rng))
            terms.append(mul(*fs) if len(fs) > 1 else fs[0])
        e = terms[0]
        for t in terms[1:]:
            e = E("sub", e, t) if self.chance(0.15) else E("add", e, t)
        return e

    def count(self, scope):
        opts = ["N", "N - 1", "P", "k", "N/2", "2*q*N", "ceil(N/3)",
                "floor((N + P)/2)", "max(N - P, 0)", "if(N > 2, 2, 1/2)",
                "3", "0", "1.5", "w", "k + q", "min(N, P)"]
        if self.m.has_s:
            opts.append("s")
        if scope:
            v = self.pick(scope)
            opts += ["max(%s, 0)" % v, "max(%s, 0)/2" % v, "%s^2/2" % v]
            if self.bound_le_n(v):
                opts.append("N - %s" % v)
        return parse(self.pick(opts))

    def bound_le_n(self, v):
        return self.n_bounded.get(v, False)

    # -- blocks
    def block(self, depth, scope, budget):
        r = self.rng
        kinds = ["step"] * 3
        if depth < 3:
            kinds += ["seq", "loop", "for", "for", "branch", "par"]
            if self.callable_graphs:
                kinds += ["call"]
        k = self.pick(kinds) if budget[0] > 1 else "step"
        budget[0] -= 1
        if self.chance(0.03):
            return self.pick([Seq([], "seq"), Seq([], "par"),
                              Loop(self.count(scope), []),
                              Step(None, [], "comp")])
        if k == "step":
            uses = []
            for _ in range(self.pick([0, 0, 1, 2])):
                uses.append((self.pick(self.m.resources),
                             None if self.chance(0.3) else
                             self.count(scope) if self.chance(0.5) else
                             self.cost_count(scope)))
            cost = None if uses and self.chance(0.4) else self.cost(scope)
            if not uses and self.chance(0.05):
                cost = None
            return Step(cost, uses, self.pick(
                ["comp", "comp", "comm", "io"]))
        if k == "call":
            return Call(self.pick(self.callable_graphs))
        if k == "loop":
            return Loop(self.count(scope), self.blocks(depth, scope, budget))
        if k == "for":
            v = "ijl"[len(scope)] if len(scope) < 3 else None
            if v is None:
                return self.block(depth, scope, budget)
            lo, hi, le_n, lb = self.range(scope)
            self.n_bounded[v] = le_n
            self.lower[v] = lb
            return For(v, lo, hi, self.blocks(depth, scope + [v], budget))
        if k == "branch":
            return Branch(self.cases(depth, scope, budget))
        parts = [self.block(depth + 1, scope, budget)
                 for _ in range(r.randint(1 if k == "seq" else 2, 3))]
        return Seq(parts, k)

    def cost_count(self, scope):
        if scope:
            return self.counter_atom(self.pick(scope), scope)
        return self.plain_atom()

    def blocks(self, depth, scope, budget):
        return [self.block(depth + 1, scope, budget)
                for _ in range(self.rng.randint(1, 2))]

    def range(self, scope):
        """(from, to, whether to <= N) of a counter loop."""
        o = self.pick(scope) if scope else None
        los = [("1", 1), ("0", 0), ("1/2", 1), ("2", 2), ("P", 1),
               ("-1", -1)]
        his = [("N", True), ("N - 1", True), ("N/2", True), ("P", False),
               ("k", False), ("3", False), ("floor(N/3)", True),
               ("ceil(N/2)", True), ("2*N/3", True), ("N/P", True),
               ("min(N, 4)", True), ("N - k", True)]
        if WIDE:
            los += [("k", 0), ("N/2", 1), ("3 - N", -9), ("q", 0),
                    ("2*q - 1", -1)]
            his += [("max(N - 3, 1)", True), ("2*N", False),
                    ("N^2/4", False), ("k + P", False), ("q*N", True)]
            if self.m.has_s:
                los += [("s", 1), ("N/s", 1)]
                his += [("s*N", False), ("s + 1", False),
                        ("floor(N/s)", False)]
        if o:
            lb = self.lower[o]
            los += [(o, lb), ("%s + 1" % o, lb + 1),
                    ("%s/2" % o, -((-lb) // 2)), ("2*%s - 3" % o, 2 * lb - 3)]
            his += [(o, self.bound_le_n(o)), ("%s + 2" % o, False),
                    ("N - %s" % o, True), ("2*%s" % o, False)]
            if WIDE:
                los += [("max(1, %s - 2)" % o, max(1, lb - 2)),
                        ("ceil(%s/3)" % o, -((-lb) // 3)),
                        ("min(%s, 2)" % o, min(lb, 2))]
                if self.bound_le_n(o):
                    los.append(("N - %s" % o, 0))
                his += [("min(%s + 3, N)" % o, True),
                        ("floor((N + %s)/2)" % o, self.bound_le_n(o)),
                        ("N - 2*%s" % o, lb >= 0), ("max(%s, 3)" % o, False),
                        ("ceil(%s/2) + 1" % o, False)]
        if "nb" in [x for x, _ in self.m.lets]:
            his.append(("nb", True))
        hi, le = self.pick(his)
        lo, lb = self.pick(los)
        return parse(lo), parse(hi), le, lb

    def cases(self, depth, scope, budget):
        m = self.m
        shape = self.pick(["num3", "q", "qq", "one", "dec", "half", "np",
                           "ctr" if [v for v in scope if self.lower[v] >= 0]
                           else "q", "w"])
        body = lambda: [] if self.chance(0.25) else \
            self.blocks(depth, scope, budget)
        if shape == "num3":
            ps = [num(Fraction(1, 3), self.rng), num(Fraction(1, 4),
                                                     self.rng), None]
        elif shape == "q":
            ps = [nm("q"), None]
        elif shape == "qq":
            ps = [nm("q"), parse("1 - q")]
        elif shape == "one":
            ps = [None]
        elif shape == "dec":
            ps = [parse("0.246"), parse("0.197"), parse("0.148"), None]
        elif shape == "half":
            ps = [parse("q/2"), parse("q/2"), None]
        elif shape == "np":
            ps = [parse(self.pick(["1/N", "1/(P + 1)", "(N - 1)/N"])), None]
        elif shape == "w":
            ps = [parse("1/(w + 1)"), None] if m.w > 0 else [None]
        else:
            v = self.pick([v for v in scope if self.lower[v] >= 0])
            ps = [parse(self.pick(["1/(%s + 2)" % v, "1/exp2(%s + 1)" % v]))
                  if not self.n_bounded.get(v) else
                  parse("%s/(N + 1)" % v), None]
        if len(ps) > 1:
            self.rng.shuffle(ps)
        return [(p, body()) for p in ps]

    # -- sub-graphs in arc form
    def arc_graph(self, name):
        kind = self.pick(["markov", "dag", "loop", "overlap", "family",
                          "forkor"])
        if kind == "family":
            idx = lambda: self.pick([parse("N"), parse("k + 1"),
                                     parse("P"), parse("2"),
                                     parse("ceil(N/2)")])
            icost = lambda: parse(self.pick([
                "c*x + y", "max(x, y)*a", "a*floor((x + y)/2)", "b",
                "min(x, 2)*c + 1/2", "x^2/4", "3"]))
            opt = lambda: None if self.chance(0.3) else self.cost([])
            return Family(name, idx(), idx(), self.cost([]), icost(),
                          self.cost([]), opt(),
                          opt() if self.chance(0.8) else False,
                          opt() if self.chance(0.3) else False,
                          None if self.chance(0.5) else self.cost([]))
        nc = lambda: self.cost([]) if self.chance(0.8) else None
        cl = lambda: self.pick(["comp", "comp", "comm", "io"])
        if kind == "markov":
            nodes = [("s", None, "comp", None, None)] + \
                [(x, nc(), cl(), None, None) for x in ("a1", "a2", "a3")] + \
                [("e", nc(), cl(), None, None)]
            arcs = [("s", "a1", None, None, "comp", [])]
            p1 = self.pick([parse("q"), parse("1/3"), parse("0.5")])
            arcs.append(("a1", "a2", p1, nc(), cl(), []))
            arcs.append(("a1", "a3", None, None, "comp", []))
            # a retry: a2 back to a1 or to itself, with a cost
            back = self.pick(["a1", "a2"])
            arcs.append(("a2", back, parse(self.pick(["1/4", "q/2", "0.1"])),
                         nc(), cl(), []))
            arcs.append(("a2", "e", None, None, "comp", []))
            arcs.append(("a3", "e", None, nc(), cl(), []))
            return ArcGraph(name, kind, nodes, arcs)
        if kind == "dag":
            nodes = [("s", nc(), cl(), "and", None),
                     ("x", nc(), cl(), "and", None),
                     ("y", nc(), cl(), None, None),
                     ("z", nc(), cl(), None, "and"),
                     ("e", nc(), cl(), None, "and")]
            arcs = [("s", "x", None, nc(), cl(), []),
                    ("s", "y", None, None, "comp", []),
                    ("x", "z", None, nc(), cl(), []),
                    ("x", "e", None, None, "comp", []),
                    ("y", "z", None, None, "comp", []),
                    ("z", "e", None, nc(), cl(), [])]
            if self.chance(0.5):
                # a fork that closes at a join: y and z parallel only
                nodes = [("s", nc(), cl(), "and", None),
                         ("x", nc(), cl(), None, None),
                         ("y", nc(), cl(), None, None),
                         ("e", nc(), cl(), None, "and")]
                arcs = [("s", "x", None, nc(), cl(), []),
                        ("s", "y", None, None, "comp", []),
                        ("x", "e", None, nc(), cl(), []),
                        ("y", "e", None, None, "comp", [])]
            return ArcGraph(name, kind, nodes, arcs)
        if kind == "forkor":
            p = self.pick([parse("q"), parse("1/3"), parse("1/N")])
            nodes = [("s", nc(), cl(), "and", None), ("x", nc(), cl(),
                                                      None, None),
                     ("o", nc(), cl(), None, None),
                     ("o1", nc(), cl(), None, None),
                     ("o2", nc(), cl(), None, None),
                     ("m", nc(), cl(), None, None),
                     ("e", nc(), cl(), None, "and")]
            arcs = [("s", "x", None, nc(), cl(), []),
                    ("s", "o", None, nc(), cl(), []),
                    ("x", "e", None, nc(), cl(), []),
                    ("o", "o1", p, nc(), cl(), []),
                    ("o", "o2", None, nc(), cl(), []),
                    ("o1", "m", None, nc(), cl(), []),
                    ("o2", "m", None, nc(), cl(), []),
                    ("m", "e", None, nc(), cl(), [])]
            self.rng.shuffle(arcs)
            return ArcGraph(name, kind, nodes, arcs)
        if kind == "loop":
            var = "v" if self.chance(0.5) else None
            scope = [var] if var else []
            n = parse(self.pick(["N", "k", "3", "P + 1"] +
                                ([] if var else ["5/2", "w + 1"])))
            lcost = nc() if self.chance(0.5) else None
            if lcost is not None and n.text() == "k":
                n = parse("k + 1")      # a back arc of a cost needs n >= 1
            detour = self.chance(0.5)
            nodes = [("pre", nc(), cl(), None, None),
                     ("r1", self.cost(scope), cl(), None, None)] + \
                ([("r3", self.cost(scope), cl(), None, None)]
                 if detour else []) + \
                [("r2", self.cost(scope), cl(), None, None),
                 ("post", nc(), cl(), None, None)]
            extra = [("loop", n.text())] + ([("var", var)] if var else [])
            lcls = cl()
            arcs = [("pre", "r1", None, nc(), cl(), []),
                    ("r1", "r2", None, self.cost(scope) if self.chance(0.5)
                     else None, cl(), []),
                    ("r2", "post", None, nc(), cl(), []),
                    ("r2", "r1", None, lcost, lcls, extra)]
            if detour:
                # an or-split inside the region: r1 to r2 directly or
                # through r3
                arcs += [("r1", "r3", parse(self.pick(["q", "1/4",
                                                       "1/(N + 1)"])),
                          nc(), cl(), []),
                         ("r3", "r2", None, nc(), cl(), [])]
            return ArcGraph(name, kind, nodes, arcs, (n, var, lcost, lcls))
        # overlap: a region of three nodes, a fork and a join, with forward
        # edges
        var = "v" if self.chance(0.4) else None
        scope = [var] if var else []
        n = parse(self.pick(["N", "k", "3", "P + 1", "ceil(N/2)"]))
        nodes = [("ld", self.cost(scope), cl(), "and", None),
                 ("wk", self.cost(scope), cl(), None, None),
                 ("sd", self.cost(scope) if self.chance(0.7) else None,
                  cl(), None, None),
                 ("dn", self.cost(scope), cl(), None, "and")]
        arcs = [("ld", "wk", None, None, "comp", []),
                ("ld", "sd", None, self.cost(scope) if self.chance(0.5)
                 else None, cl(), []),
                ("wk", "dn", None, None, "comp", []),
                ("sd", "dn", None, None, "comp", [])]
        fwd = [("wk", "wk", "1"), ("dn", "ld", self.pick(["1", "2"])),
               ("sd", "wk", "2"), ("wk", "sd", "1")]
        for f, t, d in self.rng.sample(fwd, self.rng.randint(1, 3)):
            arcs.append((f, t, None, self.cost([]) if self.chance(0.5)
                         else None, cl(), [("forward", d)]))
        if WIDE and self.chance(0.35):
            # without overlap (format.md 5): iteration i + 1 waits for
            # iteration i and the loop arc's cost; forward edges of a
            # cost may delay it more
            lcost = parse(self.pick(["d", "2*a", "b/2 + c", "3*c",
                                     "a + 1/4"]).replace(
                "d", self.m.resources[-1])) if n.text() != "k" and \
                self.chance(0.5) else None
            lcls = cl()
            extra = [("loop", n.text())] + ([("var", var)] if var else [])
            arcs.append(("dn", "ld", None, lcost, lcls, extra))
            return ArcGraph(name, "overlap", nodes, arcs,
                            (n, var, lcost, lcls), overlap=False)
        extra = [("loop", n.text()), ("overlap", "true")] + \
            ([("var", var)] if var else [])
        arcs.append(("dn", "ld", None, None, "comp", extra))
        return ArcGraph(name, "overlap", nodes, arcs, (n, var, None, None))

    def model(self):
        m = self.m = self.declare()
        self.n_bounded = {}
        self.lower = {}
        self.callable_graphs = []
        graphs = []
        for gi in range(self.pick([0, 0, 1, 2])):
            name = "g%d" % (gi + 1)
            if self.chance(0.4):
                g = self.arc_graph(name)
            else:
                g = Graph(name, self.blocks(1, [], [3]))
            graphs.append(g)
            self.callable_graphs.append(g)
        budget = [self.rng.randint(3, BLOCKS)]
        main = Graph("main", [self.block(0, [], budget)
                              for _ in range(self.rng.randint(1, 3))])
        if graphs and not any(self.uses_call(b) for b in main.blocks):
            main.blocks.append(Call(graphs[-1]))
        m.main = main
        m.graphs = [main] + graphs[::-1]
        return m

    def uses_call(self, b):
        if isinstance(b, Call):
            return True
        for attr in ("parts", "body", "blocks"):
            for x in getattr(b, attr, []) or []:
                if self.uses_call(x):
                    return True
        for _, body in getattr(b, "cases", []) or []:
            if any(self.uses_call(x) for x in body):
                return True
        return False


# ---------------------------------------------------------------------------
# Documents.

def machine_xml(mach, inline):
    out = ["  <machine>" if inline else
           '<machine name="mach" version="1">']
    for n, v in mach["consts"]:
        out.append('    <const name="%s" value="%s"/>' % (n, esc(v)))
    for n, v in mach["costs"]:
        out.append('    <cost name="%s" value="%s"/>' % (n, esc(v)))
    for n, args, body in mach["funcs"]:
        out.append('    <function name="%s" args="%s">%s</function>'
                   % (n, ", ".join(args), esc(body)))
    out.append("  </machine>")
    return out


def document(m, expects):
    out = ['<model name="ref" version="1">',
           "  <description>random model</description>"]
    for n, attrs in m.params:
        out.append("  <param name=\"%s\"%s/>" % (n, "".join(
            ' %s="%s"' % kv for kv in attrs.items())))
    for x in m.resources:
        out.append('  <resource name="%s"/>' % x)
    for n, v in m.lets:
        out.append('  <let name="%s" value="%s"%s/>' % (n, esc(v), "".join(
            ' %s="%s"' % kv for kv in sorted(
                getattr(m, "let_attrs", {}).get(n, {}).items()))))
    for n, args, body in m.funcs:
        out.append('  <function name="%s" args="%s">%s</function>'
                   % (n, ", ".join(args), esc(body)))
    if m.machine and m.machine["inline"]:
        out += machine_xml(m.machine, True)
    for g in m.graphs:
        g.xml(out)
    for comp, text, mach in expects:
        attr = "" if comp == "total" else ' component="%s"' % comp
        if mach:
            attr += ' machine="%s"' % mach
        out.append("  <expect%s>%s</expect>" % (attr, esc(text)))
    out.append("</model>")
    return "\n".join(out) + "\n"


def bindings(m, point):
    """The values of the names at 'point' after the binding order:
    the point (as -D), the parameters' values, the machine."""
    vals = {}
    mconst = {}
    lets, funcs = {}, {}
    for n, args, body in m.funcs:
        funcs[n] = (args, parse(body), None)
    if m.machine:
        # machine constants in order of use: evaluate lazily
        # every value uses cy alone, the first constant
        for n, v in m.machine["consts"] + m.machine["costs"]:
            mconst[n] = parse(v).value({}, Ctx(dict(mconst), {}, {}))
        for n, args, body in m.machine["funcs"]:
            funcs[n] = (args, parse(body), dict(mconst))
    declared = set(["N", "P"] + [n for n, _ in m.params] + m.resources)
    for n in declared:
        if n in point:
            vals[n] = point[n]
        elif n == "w":
            vals[n] = m.w
        elif n in mconst:
            vals[n] = mconst[n]
    for n, v in m.lets:
        lets[n] = parse(v)
    # machine function bodies see N and P of the point
    for f in list(funcs):
        a, b, scope = funcs[f]
        if scope is not None:
            scope["N"], scope["P"] = vals.get("N"), vals.get("P")
    return Ctx(vals, lets, funcs)


def free_names(m):
    """The names a point must give: declared, without a value, not bound
    by the machine."""
    bound = set()
    if m.machine:
        bound = set(n for n, _ in m.machine["consts"]) | \
            set(n for n, _ in m.machine["costs"])
    names = ["N", "P", "k", "q"] + (["s"] if m.has_s else []) + m.resources
    return [n for n in names if n not in bound]


def draw_values(rng, m, name):
    lo, hi, integer = m.domains.get(name, (0, None, False))
    if name == "N":
        return [1, 2, 3, 5, 7] if hi is None else [1, 2, 4, 7, 12]
    if name == "P":
        return [1, 2, 3]
    if name == "k":
        return [0, 1, 2, 4]
    if name == "q":
        return [0, 1, Fraction(1, 3), Fraction(1, 2), Fraction(3, 4)]
    if name == "s":
        return [Fraction(1, 2), 1, Fraction(7, 3), 3]
    if name == "w":
        return [0, Fraction(5, 2), 3]
    return [0, 1, Fraction(2, 3), Fraction(5, 2), 3, Fraction(1, 7)]


def grids(rng, m):
    """Two grids: N and P with two or three values, every other name one
    (a corner or a middle value); the second sometimes overrides w or a
    name the machine binds."""
    out = []
    names = free_names(m)
    for gi in range(2):
        g = {}
        for n in names:
            vs = draw_values(rng, m, n)
            if n in ("N", "P"):
                k = 3 if n == "N" else 2
                g[n] = sorted(set(rng.sample(vs, k)))
            else:
                g[n] = [rng.choice(vs)]
        if gi == 1 and rng.random() < 0.5:
            g["w"] = [rng.choice(draw_values(rng, m, "w"))]
        if gi == 1 and m.machine and m.machine["costs"] and \
                rng.random() < 0.5:
            # a value given for a resource the machine binds wins
            x = rng.choice(m.machine["costs"])[0]
            g[x] = [rng.choice(draw_values(rng, m, x))]
        out.append(g)
    return out


def extra_points(rng, m, count=24):
    """More points of the domains for the formulas read back (no run of
    segc each): the free names at random values of theirs."""
    pts = []
    for _ in range(count):
        p = {}
        for n in free_names(m):
            vs = draw_values(rng, m, n)
            if n == "N":
                hi = m.domains["N"][1] or 9
                vs = list(range(1, hi + 1))
            elif n == "P":
                vs = [1, 2, 3, 4, 6]
            p[n] = Fraction(rng.choice(vs))
        pts.append(p)
    return pts


def grid_points(g):
    pts = [{}]
    for n in sorted(g):
        pts = [dict(p, **{n: Fraction(v)}) for p in pts for v in g[n]]
    return pts


def reference(m, point):
    """The four components at 'point', or None where undefined."""
    ctx = bindings(m, point)
    out = {}
    try:
        for cls in ("total",) + CLASSES:
            out[cls] = m.main.time({}, ctx, cls)
    except Undefined:
        return None
    return out


def pt_text(p):
    return ", ".join("%s=%s" % (n, p[n]) for n in sorted(p))


class Run:
    """Counts and findings of the whole run."""

    def __init__(self):
        self.models = self.points = self.compared = 0
        self.findings = []


def compare_model(tap, run, idx, seed, work):
    g = Gen(seed)
    m = g.model()
    total_f = m.main.formula("total") if all(
        isinstance(x, Graph) for x in m.graphs) else None
    expects = []
    external = m.machine and not m.machine["inline"]
    mname = "m%d_machine.xml" % idx
    if total_f is not None:
        # checked without -m: a machine file only where an expectation
        # names it
        expects.append(("total", total_f, None))
        c = g.pick(CLASSES)
        expects.append((c, m.main.formula(c), None))
        if external:
            expects.append((g.pick(("total",) + CLASSES),
                            None, mname))
            expects[-1] = (expects[-1][0], m.main.formula(expects[-1][0]),
                           mname)
    path = os.path.join(work, "m%d.xml" % idx)
    with open(path, "w") as f:
        f.write(document(m, expects))
    margs = []
    if external:
        mpath = os.path.join(work, mname)
        with open(mpath, "w") as f:
            f.write("\n".join(machine_xml(m.machine, False)) + "\n")
        margs = ["-m", mpath]
    name = "model %d (seed %d)" % (idx, seed)
    run.models += 1
    problems = []

    st, out, err = lp.run([SEGC, "validate"] + margs + [path])
    if st != 0 or out.strip():
        tap.ok(False, "%s: segc validate accepts it" % name,
               [path, err.strip()[:600]])
        return
    gr = grids(g.rng, m)
    # eval, both forms, every component
    for gi, grid in enumerate(gr):
        pts = grid_points(grid)
        want = dict((pt_text(p), reference(m, p)) for p in pts)
        for form in ("structural", "canonical"):
            args = [SEGC, "eval", "--json", "--arith", "exact", "--form",
                    form] + margs + [path] + \
                ["%s=%s" % (n, ",".join(str(v) for v in vs))
                 for n, vs in sorted(grid.items())]
            st, out, err = lp.run(args)
            if st != 0:
                if all(w is None for w in want.values()):
                    continue
                problems.append("eval --form %s refuses grid %s: %s" % (
                    form, grid, err.strip()[:400]))
                continue
            rows = json.loads(out)["rows"]
            for row in rows:
                p = dict((n, Fraction(row[n])) for n in grid)
                w = want[pt_text(p)]
                if w is None:
                    problems.append("eval gives a value at %s where the "
                                    "model has none" % pt_text(p))
                    continue
                run.compared += 1
                for cls in ("total",) + CLASSES:
                    got = row.get(cls)
                    if got is None or Fraction(got) != w[cls]:
                        problems.append(
                            "eval --form %s %s at %s: segc %s, reference %s"
                            % (form, cls, pt_text(p), got, w[cls]))
        run.points += len(pts)
    # derive with every name bound, at one point of each grid
    for grid in gr:
        p = grid_points(grid)[-1]
        w = reference(m, p)
        if w is None:
            continue
        args = [SEGC, "derive"] + margs + \
            sum((["-D", "%s=%s" % (n, v)] for n, v in sorted(p.items())),
                []) + [path]
        st, out, err = lp.run(args)
        run.compared += 1
        try:
            got = Fraction(out.strip()) if st == 0 else None
        except ValueError:
            got = None
        if got != w["total"]:
            problems.append("derive -D at %s: segc %s, reference %s" % (
                pt_text(p), out.strip()[:200] or err.strip()[:300],
                w["total"]))
    # the formula of each form, read back and evaluated by the
    # reference's own evaluator (sum, min, max, if, floor, ceil, exp2, ...)
    # at the points of the grids and at more points of the domains
    more = [p for p in extra_points(g.rng, m)
            if reference(m, p) is not None]
    keeps = [(form, []) for form in FORMS]
    if WIDE and getattr(m, "let_attrs", None):
        # where a let declares a domain: the lets kept names
        # (doc/latex.md), their domains assumed; the formula, its first
        # line, takes the lets' values at each point
        keeps.append(("canonical", ["--lets"]))
    for form, keep in keeps:
        st, out, err = lp.run([SEGC, "derive", "--form", form] + keep +
                              margs + [path])
        form = " ".join([form] + keep)
        out = out.split("\n")[0] if keep else out
        if st != 0:
            problems.append("derive --form %s refuses: %s" % (
                form, err.strip()[:300]))
            continue
        try:
            f = parse(out.strip())
            pts = more + [p for grid in gr
                          if not set(grid) - set(free_names(m))
                          for p in grid_points(grid)]
            for p in pts:
                w = reference(m, p)
                if w is None:
                    continue
                try:
                    got = f.value({}, bindings(m, p))
                except Undefined as e:
                    got = "undefined (%s)" % e
                run.compared += 1
                if got != w["total"]:
                    problems.append(
                        "derive --form %s at %s: segc %s, reference %s"
                        % (form, pt_text(p), got, w["total"]))
        except Unsupported:
            pass        # an atom of segc's (maxplus, taskpath, ...)
        except lp.Unreadable as e:
            problems.append("derive --form %s unreadable: %s: %s" % (
                form, e, out.strip()[:200]))
    # the expectations: the program written literally
    if expects:
        st, out, err = lp.run([SEGC, "check", path])
        if "MISMATCH" in out or st not in (0, 1):
            problems.append("check: exit %d: %s %s" % (
                st, out.strip()[:1500], err.strip()[:300]))
    tap.ok(not problems, "%s: segc agrees with the reference" % name,
           [path] + problems[:6])
    if problems:
        run.findings.append((idx, seed, path, problems))


def fixed(tap):
    """The reference itself on models worked out by hand."""
    ctx = Ctx({"N": Fraction(5), "a": Fraction(1)}, {}, {})
    f = For("i", parse("1"), parse("N"),
            [Step(parse("min(i, 4)*a"), [], "comp")])
    tap.ok(f.time({}, ctx, "total") == 14,
           "reference: min(j, 4) summed over j = 1 .. 5 is 14")
    nest = For("i", parse("1"), parse("N"),
               [For("j", parse("i + 2"), parse("N"),
                    [Step(parse("a"), [], "comp")])])
    ctx10 = Ctx({"N": Fraction(10), "a": Fraction(1)}, {}, {})
    ctx2 = Ctx({"N": Fraction(2), "a": Fraction(1)}, {}, {})
    tap.ok(nest.time({}, ctx10, "total") == 36 and
           nest.time({}, ctx2, "total") == 0,
           "reference: pairs at distance two or more: 36 at N = 10, "
           "0 at N = 2")
    tap.ok(parse("sum(i, 1/2, 7/2, i)").value({}, ctx) == 6 and
           parse("sum(i, 5, 3, 1)").value({}, ctx) == 0,
           "reference: sum over 1/2 .. 7/2 is 6, over 5 .. 3 is 0")
    tap.ok(mva(2, Fraction(1), Fraction(2)) == (1 + Fraction(2, 3)) * 2,
           "reference: mva_mem(2, a, b) = (1 + b/(a + b))*b")
    # the retry of format.md 11.11: t_open + (t_send + p*t_backoff)/(1 - p)
    g = ArcGraph("r", "markov",
                 [("o", parse("1"), "comp", None, None),
                  ("s", parse("2"), "comp", None, None),
                  ("c", parse("3"), "comp", None, None)],
                 [("o", "s", None, None, "comp", []),
                  ("s", "s", parse("1/4"), parse("5"), "comp", []),
                  ("s", "c", None, None, "comp", [])])
    tap.ok(g.time({}, ctx, "total") == 1 + (2 + Fraction(5, 4)) /
           Fraction(3, 4) + 3, "reference: the retry of format.md 11.11")
    # the pipeline of format.md 5 with c = 3 at n: 13*n/4 + 9/4
    pipe = ArcGraph("p", "overlap",
                    [("load", parse("2"), "comp", "and", None),
                     ("work", parse("3"), "comp", None, None),
                     ("send", parse("3/2"), "comp", None, None),
                     ("done", parse("1/2"), "comp", None, "and")],
                    [("load", "work", None, None, "comp", []),
                     ("load", "send", None, parse("1"), "comp", []),
                     ("work", "done", None, None, "comp", []),
                     ("send", "done", None, None, "comp", []),
                     ("work", "work", None, parse("1/4"), "comp",
                      [("forward", "1")]),
                     ("done", "load", None, None, "comp",
                      [("forward", "2")])],
                    (nm("N"), None, None, None))
    tap.ok(all(pipe.time({}, Ctx({"N": Fraction(n)}, {}, {}), "total") ==
               Fraction(13 * n + 9, 4) for n in range(1, 9)),
           "reference: the pipeline of format.md 5 takes 13*n/4 + 9/4")


def saved(tap):
    """The saved models of tests/cli/models against the reference: a loop
    arc with a counter in an if and a max (format.md 5, var)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "models", "ref_counter_if_bounds.xml")
    g = ArcGraph("g2", "loop",
                 [("pre", None, "comp", None, None),
                  ("r1", None, "comp", None, None),
                  ("r2", parse("a*if(v > P and N >= 3, v, 1/2)"), "comp",
                   None, None),
                  ("post", None, "comp", None, None)],
                 [("pre", "r1", None, None, "comp", []),
                  ("r1", "r2", None, parse("b*max(v - 2, 0)"), "comp", []),
                  ("r2", "post", None, None, "comp", []),
                  ("r2", "r1", None, None, "comp", [("loop", "k"),
                                                    ("var", "v")])],
                 (nm("k"), "v", None, "comp"))
    ctx = Ctx({"N": Fraction(3), "P": Fraction(1), "k": Fraction(4),
               "a": Fraction(1), "b": Fraction(2)}, {}, {})
    tap.ok(g.time({}, ctx, "total") == Fraction(31, 2),
           "reference: the loop arc of ref_counter_if_bounds.xml is 31/2 "
           "at N = 3, P = 1, k = 4, a = 1, b = 2")
    st, out, err = lp.run([SEGC, "derive", path])
    bad = []
    if st == 0:
        f = parse(out.strip())
        for n in (1, 2, 3, 5):
            for p in (1, 2, 4):
                for k in range(5):
                    ctx = Ctx({"N": Fraction(n), "P": Fraction(p),
                               "k": Fraction(k), "a": Fraction(1),
                               "b": Fraction(2, 3)}, {}, {})
                    want, got = g.time({}, ctx, "total"), f.value({}, ctx)
                    if want != got:
                        bad.append("N=%d P=%d k=%d: segc %s, reference %s"
                                   % (n, p, k, got, want))
    tap.ok(st == 0 and not bad, "ref_counter_if_bounds.xml: derive gives "
           "the reference's values", ["exit %d: %s" % (st, err.strip())]
           + bad[:3])


def saved_overlap(tap):
    """Counted loops around calls of overlapped loops (format.md 4.6 and
    5): ref_overlap_in_loop.xml at n = 0 .. 6 against the reference."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "models", "ref_overlap_in_loop.xml")
    node = lambda i, c, split=None, join=None: (
        i, parse(c) if c else None, "comp", split, join)
    arc = lambda f, t, c=None, extra=(): (f, t, None, parse(c) if c else
                                           None, "comp", list(extra))
    pipe = ArcGraph("pipe", "overlap",
                    [node("ld", "1", "and"), node("wk", "2"),
                     node("sd", "1/2"), node("dn", None, None, "and")],
                    [arc("ld", "wk"), arc("ld", "sd"), arc("wk", "dn"),
                     arc("sd", "dn"), arc("wk", "wk", None,
                                          [("forward", "1")])],
                    (nm("n"), None, None, None))
    # without overlap, iteration i + 1 starts when iteration i has
    # finished: a forward edge of distance 1 from the exit to the entry
    gap = ArcGraph("gap", "overlap", [node("x", "1"), node("y", "1")],
                   [arc("x", "y"), arc("y", "x", "3", [("forward", "1")]),
                    arc("y", "x", None, [("forward", "1")])],
                   (nm("n"), None, None, None))
    main = Graph("main", [Loop(parse("3/2"), [Call(pipe)]),
                          Loop(parse("2"), [Call(gap)])])
    bad = []
    for n in range(7):
        want = main.time({}, Ctx({"n": Fraction(n)}, {}, {}), "total")
        st, out, err = lp.run([SEGC, "derive", "-D", "n=%d" % n, path])
        if st != 0 or out.strip() != str(want):
            bad.append("n=%d: segc %s, reference %s" % (
                n, out.strip() or err.strip(), want))
    tap.ok(not bad and main.time({}, Ctx({"n": Fraction(4)}, {}, {}),
                                 "total") == Fraction(95, 2),
           "ref_overlap_in_loop.xml: derive -D gives the reference's "
           "values (95/2 at n = 4)", bad[:3])


def saved_ranges(tap):
    """One counter name over two ranges (format.md 4.3 and 10.9):
    ref_counter_two_ranges.xml, every form read back and eval's
    structural form, against the reference."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "models", "ref_counter_two_ranges.xml")
    g1 = Graph("g1", [For("i", parse("2"), parse("N"),
                          [Step(parse("min(i, 3)*c"), [], "comp")])])
    main = Graph("main", [For("i", parse("0"), parse("3"), []), Call(g1)])
    ctx = lambda n: Ctx({"N": Fraction(n), "c": Fraction(1)}, {}, {})
    bad = []
    for form in FORMS:
        st, out, err = lp.run([SEGC, "derive", "--form", form, path])
        if st != 0:
            bad.append("derive --form %s: %s" % (form, err.strip()))
            continue
        f = parse(out.strip())
        for n in range(1, 9):
            want, got = main.time({}, ctx(n), "total"), f.value({}, ctx(n))
            if want != got:
                bad.append("derive --form %s at N=%d: segc %s, reference "
                           "%s" % (form, n, got, want))
    st, out, err = lp.run([SEGC, "eval", "--json", "--arith", "exact",
                           path, "N=1..8", "c=1"])
    rows = json.loads(out)["rows"] if st == 0 else []
    for row in rows:
        n = int(row["N"])
        if Fraction(row["total"]) != main.time({}, ctx(n), "total"):
            bad.append("eval at N=%d: segc %s, reference %s" % (
                n, row["total"], main.time({}, ctx(n), "total")))
    tap.ok(len(rows) == 8 and not bad and
           main.time({}, ctx(5), "total") == 11,
           "ref_counter_two_ranges.xml: every form and eval give the "
           "reference's values (11 at N = 5, c = 1)", bad[:3] + [
               err.strip()])


def saved_pieces(tap):
    """Terms with different pieces of the counters in one nest (format.md
    4.3): ref_nest_two_pieces.xml, the canonical form within a small
    budget of work (it stopped at max_memory when every term was split at
    the breakpoints of all), read back at every point of a grid."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "models", "ref_nest_two_pieces.xml")
    main = Graph("main", [For("i", parse("P"), parse("ceil(N/2)"),
                              [For("j", parse("i/2"), parse("min(N, 4)"),
                                   [Step(parse("max(i, j)*a + "
                                               "min(j, 3)*(N/P)"),
                                         [], "comp")])])])
    ctx = lambda n, p, a: Ctx({"N": Fraction(n), "P": Fraction(p),
                               "a": Fraction(a)}, {}, {})
    bad = []
    st, out, err = lp.run([SEGC, "derive", "--limit", "max_work=50000000",
                           path])
    if st == 0:
        f = parse(out.strip())
        for n in range(0, 11):
            for p in (1, 2, 3, 5):
                for a in (1, Fraction(2, 3)):
                    want = main.time({}, ctx(n, p, a), "total")
                    got = f.value({}, ctx(n, p, a))
                    if want != got:
                        bad.append("N=%d P=%d a=%s: segc %s, reference %s"
                                   % (n, p, a, got, want))
    tap.ok(st == 0 and not bad and main.time({}, ctx(6, 2, 1), "total")
           == 72, "ref_nest_two_pieces.xml: derive within 5e7 units of "
           "work gives the reference's values (72 at N = 6, P = 2, a = 1)",
           ["exit %d: %s" % (st, err.strip())] + bad[:3])


def saved_names(tap):
    """An overlapped loop with a counter beside a counter loop that keeps
    a sum (format.md 4.3 and 5): ref_recurrence_sum_names.xml, eval of
    the canonical form against the reference (the recurrence's counter
    once shared its name and domain with the sum's variable)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "models", "ref_recurrence_sum_names.xml")
    g1 = ArcGraph("g1", "overlap",
                  [("x", parse("c*if(v == N, 2, 1/2)"), "comp", None, None),
                   ("y", parse("a"), "comp", None, None)],
                  [("x", "y", None, None, "comp", []),
                   ("x", "x", None, None, "comp", [("forward", "1")]),
                   ("y", "x", None, None, "comp",
                    [("loop", "N"), ("overlap", "true"), ("var", "v")])],
                  (nm("N"), "v", None, None))
    main = Graph("main", [Seq([Call(g1), For(
        "i", parse("-N"), parse("P"),
        [Step(parse("a*if(i > P - 2 and N >= 3, i, 1/2)"), [], "comp")])],
        "par")])
    ctx = lambda n, p, a, c: Ctx({"N": Fraction(n), "P": Fraction(p),
                                  "a": Fraction(a), "c": Fraction(c)},
                                 {}, {})
    bad = []
    st, out, err = lp.run([SEGC, "eval", "--json", "--arith", "exact",
                           "--form", "canonical", path, "N=1,2,3,4,6",
                           "P=1,2,3", "a=1,3/2", "c=0,2"])
    rows = json.loads(out)["rows"] if st == 0 else []
    for row in rows:
        want = main.time({}, ctx(row["N"], row["P"], Fraction(row["a"]),
                                 Fraction(row["c"])), "total")
        if Fraction(row["total"]) != want:
            bad.append("N=%s P=%s a=%s c=%s: segc %s, reference %s" % (
                row["N"], row["P"], row["a"], row["c"], row["total"], want))
    tap.ok(len(rows) == 60 and not bad and
           main.time({}, ctx(3, 1, 1, 0), "total") == Fraction(5, 2),
           "ref_recurrence_sum_names.xml: eval of the canonical form gives "
           "the reference's values (5/2 at N = 3, P = 1, a = 1, c = 0)",
           bad[:3] + [err.strip()])


def main():
    tap = lp.Tap()
    fixed(tap)
    saved(tap)
    saved_overlap(tap)
    saved_ranges(tap)
    saved_pieces(tap)
    saved_names(tap)
    keep = os.environ.get("FORMAT_REFERENCE_KEEP")
    work = keep or tempfile.mkdtemp(prefix="format_reference.")
    if keep:
        os.makedirs(keep, exist_ok=True)
    run = Run()
    try:
        for idx in range(MODELS):
            compare_model(tap, run, idx, SEED * 1000 + idx, work)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    print("# %d models, %d points, %d comparisons, %d models disagree" % (
        run.models, run.points, run.compared, len(run.findings)))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
