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
  derive formula
           segc derive -D t=1: the formula, read back by this script as
           FORMAT.md 2 defines the language, evaluated exactly;
  eval     segc eval --csv --digits 30 -D t=1 N=.. B=..: relative 1e-12;
  eval --form canonical
           the same with the canonical form;
  emit     segc emit -D t=1 --keep B, compiled with $CC and run: 1e-13.

First the two examples of the contract (pairs i, j >= i + 2 up to N: 0 at
N = 2, 36 at N = 10; to="N/B": 3 iterations at N = 10, B = 3), then the
saved models tests/cli/models/loops_*.xml at the points their comment
gives ("N=.. B=.. total=.."), then the random models.  Prints TAP, one
line per model and kind of comparison; a failure shows the loop nest, how
many points disagree, the first of them and both values.

Usage: loops_property.py [--models K] [--seed S] [--keep-dir DIR]
Environment: SEGC, CC (default cc), LOOPS_PROPERTY_MODELS, TMPDIR.
"""

import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from fractions import Fraction

SEGC = os.environ.get("SEGC", "segc")
CC = os.environ.get("CC") or "cc"
# The size of emitted C above which check_emit compiles it without
# optimisation.
BIG_C = 1000000
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
        """The sum of the body over the integers of [lo, hi], literally;
        counts in budget[1] (budget[2]) the ranges found empty in an inner
        (the outermost) loop."""
        total = Fraction(0)
        i = math.ceil(self.lo.value(env))
        hi = self.hi.value(env)
        if i > hi:
            budget[1 if COUNTERS.index(self.var) > 0 else 2] += 1
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
        budget = budget if budget is not None else [10**9, 0, 0]
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
        budget = [MAX_ITERATIONS, 0, 0]
        try:
            values = [m.value(n, b, budget) for n in N_VALUES for b in B_VALUES]
        except OverflowError:
            continue
        if any(v != 0 for v in values):
            m.features = [("depth %d" % depth, True),
                          ("floor/ceil in costs", with_floor),
                          ("an empty inner range", budget[1] > 0),
                          ("the outer range empty", budget[2] > 0)]
            m.note = ", ".join(f for f, on in m.features if on)
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
# Reading back what 'segc derive' prints: the expression language of
# FORMAT.md 2, evaluated exactly with the semantics the contract gives it
# (sum over the integers from ceil(lo) to hi, nothing when there are none).

class Unreadable(Exception):
    """A formula outside the expression language, or one this test cannot
    evaluate exactly (log2, sqrt, an unknown call)."""


def tokens(text):
    """The tokens of 'text': numbers, names, operators, punctuation."""
    out = []
    pos = 0
    two = ("<=", ">=", "==", "!=")
    while pos < len(text):
        c = text[pos]
        if c.isspace():
            pos += 1
        elif c.isdigit() or (c == "." and text[pos + 1:pos + 2].isdigit()):
            end = pos
            while end < len(text) and (text[end].isdigit() or text[end] == "."):
                end += 1
            if end < len(text) and text[end] in "eE":
                e = end + 1
                if e < len(text) and text[e] in "+-":
                    e += 1
                if e < len(text) and text[e].isdigit():
                    end = e
                    while end < len(text) and text[end].isdigit():
                        end += 1
            out.append(("num", text[pos:end]))
            pos = end
        elif c.isalpha() or c == "_":
            end = pos
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            out.append(("name", text[pos:end]))
            pos = end
        elif text[pos:pos + 2] in two:
            out.append(("op", text[pos:pos + 2]))
            pos += 2
        elif c in "+-*/^(),<>":
            out.append(("op", c))
            pos += 1
        else:
            raise Unreadable("unexpected character %r at %d" % (c, pos))
    return out


class Formula:
    """A parsed formula as nested tuples; 'value' evaluates it."""

    RELATIONS = ("<", "<=", ">", ">=", "==", "!=")

    def __init__(self, text):
        self.toks = tokens(text)
        self.pos = 0
        self.tree = self.expr()
        if self.pos != len(self.toks):
            raise Unreadable("unexpected %r after the formula"
                             % self.toks[self.pos][1])

    def peek(self, k=0):
        n = self.pos + k
        return self.toks[n][1] if n < len(self.toks) else None

    def take(self, want=None):
        if self.pos >= len(self.toks):
            raise Unreadable("the formula ends too early")
        tok = self.toks[self.pos]
        if want is not None and tok[1] != want:
            raise Unreadable("expected %r, found %r" % (want, tok[1]))
        self.pos += 1
        return tok

    def expr(self):
        e = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            e = (op, e, self.term())
        return e

    def term(self):
        e = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()[1]
            e = (op, e, self.unary())
        return e

    def unary(self):
        if self.peek() == "-":
            self.take()
            return ("neg", self.unary())
        return self.power()

    def power(self):
        e = self.primary()
        if self.peek() == "^":
            self.take()
            e = ("^", e, self.unary())
        return e

    def primary(self):
        kind, text = self.take()
        if kind == "num":
            return ("num", Fraction(text))
        if text == "(":
            e = self.expr()
            self.take(")")
            return e
        if kind != "name" or text in ("and", "or", "not"):
            raise Unreadable("unexpected %r" % text)
        if self.peek() != "(":
            return ("name", text)
        self.take("(")
        if text == "if":
            c = self.cond()
            self.take(",")
            a = self.expr()
            self.take(",")
            b = self.expr()
            self.take(")")
            return ("if", c, a, b)
        args = [self.expr()]
        while self.peek() == ",":
            self.take()
            args.append(self.expr())
        self.take(")")
        return ("call", text, args)

    def cond(self):
        e = self.conj()
        while self.peek() == "or":
            self.take()
            e = ("or", e, self.conj())
        return e

    def conj(self):
        e = self.rel()
        while self.peek() == "and":
            self.take()
            e = ("and", e, self.rel())
        return e

    def rel(self):
        if self.peek() == "not":
            self.take()
            return ("not", self.rel())
        if self.peek() == "(":
            save = self.pos
            try:
                return self.comparison()
            except Unreadable:
                self.pos = save
            self.take("(")
            c = self.cond()
            self.take(")")
            return c
        return self.comparison()

    def comparison(self):
        a = self.expr()
        op = self.peek()
        if op not in self.RELATIONS:
            raise Unreadable("expected a comparison, found %r" % op)
        self.take()
        return ("rel", op, a, self.expr())

    def value(self, env):
        return evaluate(self.tree, dict(env))


def evaluate(e, env):
    """The exact value of the tree 'e' where 'env' binds its names."""
    op = e[0]
    if op == "num":
        return e[1]
    if op == "name":
        if e[1] not in env:
            raise Unreadable("the name %r is not bound" % e[1])
        return env[e[1]]
    if op == "neg":
        return -evaluate(e[1], env)
    if op in ("+", "-", "*", "/"):
        a, b = evaluate(e[1], env), evaluate(e[2], env)
        if op == "/" and b == 0:
            raise Unreadable("a division by zero")
        return {"+": a + b, "-": a - b, "*": a * b,
                "/": a / b if b else 0}[op]
    if op == "^":
        a, b = evaluate(e[1], env), evaluate(e[2], env)
        if b.denominator != 1 or (a == 0 and b < 0):
            raise Unreadable("the power %s^%s" % (a, b))
        return a ** int(b)
    if op == "if":
        return evaluate(e[2] if holds(e[1], env) else e[3], env)
    return call(e[1], e[2], env)


def holds(c, env):
    """Whether the condition 'c' holds under 'env'."""
    if c[0] == "not":
        return not holds(c[1], env)
    if c[0] == "and":
        return holds(c[1], env) and holds(c[2], env)
    if c[0] == "or":
        return holds(c[1], env) or holds(c[2], env)
    a, b = evaluate(c[2], env), evaluate(c[3], env)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
            "==": a == b, "!=": a != b}[c[1]]


def call(fn, args, env):
    """A built-in function of FORMAT.md 2 that has an exact value."""
    if fn == "sum" and len(args) == 4 and args[0][0] == "name":
        var = args[0][1]
        lo, hi = evaluate(args[1], env), evaluate(args[2], env)
        total = Fraction(0)
        i = math.ceil(lo)
        inner = dict(env)
        while i <= hi:
            inner[var] = Fraction(i)
            total += evaluate(args[3], inner)
            i += 1
        return total
    vals = [evaluate(a, env) for a in args]
    if fn == "floor" and len(vals) == 1:
        return Fraction(math.floor(vals[0]))
    if fn == "ceil" and len(vals) == 1:
        return Fraction(math.ceil(vals[0]))
    if fn == "max" and vals:
        return max(vals)
    if fn == "min" and vals:
        return min(vals)
    raise Unreadable("the call %s(...) has no exact value here" % fn)


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

    def done(self):
        print("1..%d" % self.n)
        return 0 if self.failed == 0 else 1


# The guard against a hang: seconds of CPU a command may use (user and
# system), and a wall-clock bound far above it for a command that waits
# on nothing.  CPU time, unlike wall-clock time, does not grow with the
# load of the machine: under the sanitizers on a busy machine the
# slowest command here (the canonical form of pieces_r27, about 5 s of
# CPU, 50 s under AddressSanitizer) took over 10 minutes of wall clock.
CPU_LIMIT = 600
WALL_LIMIT = 3600


def limit_cpu():
    """In the child before exec: at most CPU_LIMIT seconds of CPU."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))


def run(args, cwd=None, timeout=WALL_LIMIT):
    """(exit status, stdout, stderr) of a command run in 'cwd'.  The
    limits only guard against a hang: the commands run under work and
    memory limits, and the slowest takes about 7 s of CPU (five to ten
    times as much under the sanitizers)."""
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout, cwd=cwd,
                           preexec_fn=limit_cpu)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout
    except OSError as e:
        return 127, "", "cannot run %s: %s" % (args[0], e)
    if p.returncode == -signal.SIGXCPU:
        return 124, p.stdout, "stopped after %d s of CPU (signal %d)" % (
            CPU_LIMIT, -p.returncode)
    return p.returncode, p.stdout, p.stderr


def first_lines(text, k=6):
    lines = text.strip().splitlines()
    more = ["... (%d more lines)" % (len(lines) - k)] if len(lines) > k else []
    return lines[:k] + more


class Case:
    """What the checks need of a model: its name (the file is NAME.xml in
    the work directory), its points (N, B) with their literal values, and
    the lines that show it in a diagnostic."""

    def __init__(self, name, values, shown):
        self.name, self.values, self.shown = name, values, shown

    @staticmethod
    def of_model(model, points):
        return Case(model.name, dict(((n, b), model.value(n, b))
                                     for n, b in points),
                    ["model %s (%s):" % (model.name, model.note)]
                    + ["  " + line for line in model.c()])

    def points(self):
        return sorted(self.values)


def exact(text):
    """A number segc printed exactly (an integer or p/q), or None."""
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def close(got, want, rtol):
    return abs(got - want) <= rtol * max(abs(want), 1)


def report(tap, case, kind, bad, extra=()):
    """One TAP line for 'kind' on 'case': 'bad' lists the disagreements
    as (N, B, literal value, what segc gave)."""
    npoints = len(case.values)
    if not bad:
        tap.ok(True, "%s %s (%d points)" % (case.name, kind, npoints))
        return
    n, b, want, got = bad[0]
    lines = ["%d of %d points disagree; the first: N=%d B=%d" % (
        len(bad), npoints, n, b),
        "  loops run literally: %s (%.17g)" % (want, float(want)),
        "  %s gives:%s%s" % (kind, " " if len(got) < 60 else "\n    ",
                             got[:400])]
    tap.ok(False, "%s %s" % (case.name, kind),
           lines + list(extra) + case.shown)


def fail(tap, case, kind, lines):
    tap.ok(False, "%s %s" % (case.name, kind), list(lines) + case.shown)


def check_derive(tap, case, work, points):
    """segc derive with every name bound: the exact value at each of
    'points' (a subset of the case's)."""
    bad = []
    errs = []
    for n, b in points:
        want = case.values[(n, b)]
        st, out, err = run([SEGC, "derive", "-D", "N=%d" % n, "-D", "B=%d" % b,
                            "-D", "t=1", case.name + ".xml"], cwd=work)
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
    sub = Case(case.name, dict((p, case.values[p]) for p in points),
               case.shown)
    report(tap, sub, "derive", bad, errs)


def check_formula(tap, case, work):
    """segc derive with N and B free: its formula, read back by this test
    and evaluated exactly at every point."""
    kind = "derive formula"
    st, out, err = run([SEGC, "derive", "-D", "t=1", case.name + ".xml"],
                       cwd=work)
    try:
        if st != 0:
            raise Unreadable("exit %d: %s"
                             % (st, " / ".join(first_lines(err, 2))))
        formula = Formula(out.strip())
    except Unreadable as e:
        fail(tap, case, kind, ["cannot read the formula back: %s" % e,
                               "  derive gives: " + out.strip()[:400]])
        return
    bad = []
    for (n, b), want in sorted(case.values.items()):
        try:
            got = formula.value({"N": Fraction(n), "B": Fraction(b)})
        except Unreadable as e:
            got = str(e)
        if got != want:
            bad.append((n, b, want, str(got)))
    report(tap, case, kind, bad,
           ["  the formula: " + out.strip()[:400]] if bad else [])


def parse_csv(out):
    """The rows of 'segc eval --csv' as dicts of the printed cells."""
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


def grid_args(values):
    """NAME=RANGE arguments of segc eval for a set of values."""
    values = sorted(set(values))
    if values == list(range(values[0], values[-1] + 1)) and len(values) > 1:
        return "%d..%d" % (values[0], values[-1])
    return ",".join(str(v) for v in values)


def check_eval(tap, case, work, form):
    """segc eval over the grid of the case's N and B: 'total' against the
    literal value at each of its points."""
    kind = "eval" if form is None else "eval --form " + form
    args = [SEGC, "eval", "--csv", "--digits", "30", "-D", "t=1"]
    if form is not None:
        args += ["--form", form]
    pts = case.points()
    args += [case.name + ".xml", "N=" + grid_args(n for n, b in pts),
             "B=" + grid_args(b for n, b in pts)]
    st, out, err = run(args, cwd=work)
    rows = parse_csv(out) if st == 0 else None
    if rows is None:
        fail(tap, case, kind, ["segc %s failed (exit %d):" % (kind, st)]
             + first_lines(err) + first_lines(out, 3))
        return
    got = {}
    for row in rows:
        try:
            got[(int(row["N"]), int(row["B"]))] = row["total"]
        except (KeyError, ValueError):
            fail(tap, case, kind, ["unreadable row: %s" % row])
            return
    bad = []
    for (n, b), want in sorted(case.values.items()):
        text = got.get((n, b), "no row")
        try:
            good = close(Fraction(text), want, EVAL_RTOL)
        except ValueError:
            good = False
        if not good:
            bad.append((n, b, want, text))
    report(tap, case, kind, bad)


DRIVER = """#include <stdio.h>
#include "%(name)s.h"
static const int points[][2] = {
%(points)s
};
int main(void)
{
\tsize_t k;
\tfor (k = 0; k < sizeof points / sizeof points[0]; k++)
\t\tprintf("%%d %%d %%.17g\\n", points[k][0], points[k][1],
\t\t       %(name)s_total(points[k][0], 1, points[k][1]));
\treturn 0;
}
"""


def check_emit(tap, case, work):
    """The emitted C (B kept as an argument), compiled and run at every
    point."""
    base = os.path.join(work, case.name)
    st, out, err = run([SEGC, "emit", "-q", "-D", "t=1", "--keep", "B",
                        "-o", case.name, case.name + ".xml"], cwd=work)
    if st != 0:
        fail(tap, case, "emit",
             ["segc emit failed (exit %d):" % st] + first_lines(err))
        return
    driver = base + "_driver.c"
    with open(driver, "w") as f:
        f.write(DRIVER % {"name": case.name, "points": ",\n".join(
            "\t{%d, %d}" % p for p in case.points())})
    exe = base + "_run"
    # -O1, but -O0 for a file of megabytes (a random model whose pieces
    # multiply), which -O1 takes three times as long to compile: the
    # values checked are the same
    opt = "-O0" if os.path.getsize(base + ".c") > BIG_C else "-O1"
    st, out, err = run(CC.split() + ["-std=c99", opt, "-I", work, "-o", exe,
                                     driver, base + ".c", "-lm"])
    if st != 0:
        fail(tap, case, "emit", ["the emitted C does not compile with %s:"
                                 % CC] + first_lines(err, 10))
        return
    st, out, err = run([exe])
    lines = out.split("\n")[:-1] if st == 0 else []
    if len(lines) != len(case.values):
        fail(tap, case, "emit", ["the predictor failed (exit %d)" % st]
             + first_lines(err))
        return
    bad = []
    for line in lines:
        n, b, v = line.split()
        n, b = int(n), int(b)
        want = case.values[(n, b)]
        try:
            good = close(Fraction(v), want, EMIT_RTOL)
        except ValueError:
            good = False
        if not good:
            bad.append((n, b, want, v))
    report(tap, case, "emit", bad)


def check_case(tap, case, work, derive_points):
    """Every comparison on a case whose file is in 'work'."""
    check_derive(tap, case, work, derive_points)
    check_formula(tap, case, work)
    check_eval(tap, case, work, None)
    check_eval(tap, case, work, "canonical")
    check_emit(tap, case, work)


def check_model(tap, model, work):
    """Every comparison on a generated model over the grid."""
    with open(os.path.join(work, model.name + ".xml"), "w") as f:
        f.write(model.xml())
    grid = [(n, b) for n in N_VALUES for b in B_VALUES]
    check_case(tap, Case.of_model(model, grid), work, DERIVE_POINTS)


def saved_case(path, work):
    """A saved model and the values its comment gives, one per line
    'N=.. B=.. total=..'; copied into 'work'."""
    with open(path) as f:
        text = f.read()
    values = {}
    for line in text.splitlines():
        words = dict(w.split("=", 1) for w in line.split() if "=" in w)
        if set(words) == {"N", "B", "total"}:
            values[(int(words["N"]), int(words["B"]))] = Fraction(
                words["total"])
    name = os.path.basename(path)[:-len(".xml")]
    with open(os.path.join(work, name + ".xml"), "w") as f:
        f.write(text)
    graph = text[text.index("<graph"):text.index("</graph>")]
    body = textwrap.dedent("\n".join(graph.splitlines()[1:]))
    return Case(name, values, ["model tests/cli/models/%s.xml:" % name]
                + ["  " + line for line in body.splitlines() if line.strip()])


def check_reader(tap):
    """The formula reader on formulas worked out by hand."""
    cases = [("-N^2 + 2^-1", {"N": 3}, Fraction(-17, 2)),
             ("a/b/c", {"a": 12, "b": 2, "c": 3}, 2),
             ("sum(i, 5, 3, 1) + sum(i, 1/2, N/2, i)", {"N": 7}, 6),
             ("if(N >= 2 and not (N > 3 or N == 1), 1, 0)", {"N": 3}, 1),
             ("if((N - 1)*2 > 3 or N < 2, floor(-N/2), ceil(N/2))",
              {"N": 3}, -2),
             ("max(N, 2*N - 5, 1.5e1)/min(3, N)", {"N": 11}, Fraction(17, 3))]
    bad = []
    for text, env, want in cases:
        try:
            got = Formula(text).value(dict((k, Fraction(v))
                                           for k, v in env.items()))
        except Unreadable as e:
            got = str(e)
        if got != want:
            bad.append("%s at %s: want %s, got %s" % (text, env, want, got))
    tap.ok(not bad, "the formula reader gives the hand values", bad)


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
        check_reader(tap)
        for model, counts in fixed:
            check_model(tap, model, work)
        saved = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "models")
        for name in sorted(os.listdir(saved)):
            if name.startswith("loops_") and name.endswith(".xml"):
                case = saved_case(os.path.join(saved, name), work)
                check_case(tap, case, work, case.points())
        rng = random.Random(seed)
        seen = {}
        for k in range(count):
            model = gen_model(rng, "loops_r%02d" % k)
            for feature, on in model.features:
                seen[feature] = seen.get(feature, 0) + (1 if on else 0)
            check_model(tap, model, work)
        print("# of the %d random models, how many have (at some point of"
              " the grid):" % count)
        for feature in sorted(seen):
            print("#   %s: %d" % (feature, seen[feature]))
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
