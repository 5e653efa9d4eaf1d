"""eval_exact.py - the exact values of 'segc eval --json --arith exact'
(the evaluation plan) against an independent evaluation of the derived
formula's text in Python fractions: every bundled and test model, every
component, at points inside the declared domains (a point the command
refuses as outside them is skipped).  The loops of sums are run
literally; floor and ceil of log2, sqrt and rational powers are found by
integer arithmetic; any other irrational value skips the point.  Formulas
with atoms this file does not evaluate (maxplus, maxplusv, taskpath,
mva_mem, uninterpreted functions) are left to evalball.c.

    python3 eval_exact.py SEGC MODEL...

Prints "RESULT 0|1 NAME" lines for lib.sh's relay_results and a summary.
"""
import ast
import json
import math
import re
import subprocess
import sys
from fractions import Fraction


class Skip(Exception):
    """No rational value to compare (irrational, outside the domain)."""


class Unsupported(Exception):
    """An atom this evaluator does not know."""


class Root:
    """An irrational value: x^(1/k) (k >= 2) or log2(x) (k = 0), for
    floor and ceil only."""

    def __init__(self, x, k):
        self.x, self.k = x, k


def iroot(n, k):
    """The integer k-th root of n >= 0, rounded down."""
    if n < 2:
        return n
    r = int(round(n ** (1.0 / k))) if n.bit_length() < 1000 else \
        1 << (n.bit_length() // k)
    while r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


def exact_root(x, k):
    """x^(1/k) when rational, else a Root."""
    if x < 0:
        raise Skip()
    a, b = iroot(x.numerator, k), iroot(x.denominator, k)
    if a ** k == x.numerator and b ** k == x.denominator:
        return Fraction(a, b)
    return Root(x, k)


def exact_log2(x):
    """log2(x) when rational (a power of two), else a Root."""
    if x <= 0:
        raise Skip()
    n, d = x.numerator, x.denominator
    if n & (n - 1) == 0 and d & (d - 1) == 0:
        return Fraction(n.bit_length() - d.bit_length())
    return Root(x, 0)


def floor_root(r):
    """floor of the Root r, exactly."""
    x = r.x
    if r.k == 0:            # the k with 2^k <= x < 2^(k+1)
        k = x.numerator.bit_length() - x.denominator.bit_length()
        while Fraction(2) ** k > x:
            k -= 1
        while Fraction(2) ** (k + 1) <= x:
            k += 1
        return Fraction(k)
    # floor(x^(1/k)) = the largest m with m^k <= x
    m = iroot(x.numerator // x.denominator, r.k)
    while Fraction(m + 1) ** r.k <= x:
        m += 1
    return Fraction(m)


def rational(v):
    if isinstance(v, Root):
        raise Skip()
    return v


def power(x, y):
    x, y = rational(x), rational(y)
    if y.denominator == 1:
        if x == 0 and y < 0:
            raise Skip()
        return x ** int(y)
    if x < 0:
        raise Skip()
    r = exact_root(x, y.denominator)
    if isinstance(r, Root):
        if y.numerator == 1:
            return r
        raise Skip()
    return power(r, Fraction(y.numerator))


# The terms of sums one evaluation runs at most; a point past them is
# skipped (the sums of the plan are checked against the walk in
# evalball.c).
TERMS = 5000


class Evaluator:
    """The value of a formula's syntax tree at a point (names to
    Fractions)."""

    def __init__(self, text, point):
        self.text = text
        self.env = dict(point)
        self.terms = 0

    def num(self, node):
        return Fraction(ast.get_source_segment(self.text, node))

    def ev(self, node):
        t = type(node)
        if t is ast.Expression:
            return self.ev(node.body)
        if t is ast.Constant:
            return self.num(node)
        if t is ast.Name:
            if node.id not in self.env:
                raise Unsupported("name " + node.id)
            return self.env[node.id]
        if t is ast.UnaryOp:
            v = self.ev(node.operand)
            if isinstance(node.op, ast.USub):
                return -rational(v)
            if isinstance(node.op, ast.UAdd):
                return v
            if isinstance(node.op, ast.Not):
                return not v
        if t is ast.BinOp:
            a, b = self.ev(node.left), self.ev(node.right)
            op = type(node.op)
            if op is ast.Pow:
                return power(a, b)
            a, b = rational(a), rational(b)
            if op is ast.Add:
                return a + b
            if op is ast.Sub:
                return a - b
            if op is ast.Mult:
                return a * b
            if op is ast.Div:
                if b == 0:
                    raise Skip()
                return a / b
        if t is ast.BoolOp:
            vals = (self.ev(v) for v in node.values)
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if t is ast.Compare:
            left = rational(self.ev(node.left))
            for op, c in zip(node.ops, node.comparators):
                right = rational(self.ev(c))
                ok = {ast.Lt: left < right, ast.LtE: left <= right,
                      ast.Gt: left > right, ast.GtE: left >= right,
                      ast.Eq: left == right, ast.NotEq: left != right}[
                          type(op)]
                if not ok:
                    return False
                left = right
            return True
        if t is ast.Call and isinstance(node.func, ast.Name):
            return self.call(node.func.id, node.args)
        raise Unsupported(ast.dump(node)[:60])

    def call(self, f, args):
        if f == "sum":                  # sum(i, lo, hi, body): loops run
            i = args[0].id
            lo = math.ceil(rational(self.ev(args[1])))
            hi = math.floor(rational(self.ev(args[2])))
            self.terms += max(0, hi - lo + 1)
            if self.terms > TERMS:      # too long to run literally here
                raise Skip()
            saved = self.env.get(i)
            s = Fraction(0)
            for k in range(lo, hi + 1):
                self.env[i] = Fraction(k)
                s += rational(self.ev(args[3]))
            if saved is None:
                self.env.pop(i, None)
            else:
                self.env[i] = saved
            return s
        if f == "if_":
            return self.ev(args[1]) if self.ev(args[0]) else self.ev(args[2])
        v = [self.ev(a) for a in args]
        if f in ("floor", "ceil"):
            x = v[0]
            if isinstance(x, Root):
                fl = floor_root(x)
                if f == "floor":
                    return fl
                return fl + 1       # irrational: never an integer
            return Fraction(math.floor(x) if f == "floor" else math.ceil(x))
        if f == "max":
            return max(rational(x) for x in v)
        if f == "min":
            return min(rational(x) for x in v)
        if f == "log2":
            return exact_log2(rational(v[0]))
        if f == "sqrt":
            return exact_root(rational(v[0]), 2)
        if f == "abs":
            return abs(rational(v[0]))
        raise Unsupported("function " + f)


def parse(text):
    """The syntax tree of a formula of segc's syntax, and its source."""
    src = re.sub(r"\bif\(", "if_(", text).replace("^", "**")
    return ast.parse(src, mode="eval"), src


def free_names(tree):
    """The free names of the tree (the counters of sums left out)."""
    names, bound = set(), set()

    def walk(n):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and \
                n.func.id == "sum":
            bound.add(n.args[0].id)
            for a in n.args[1:]:
                walk(a)
            return
        if isinstance(n, ast.Name):
            names.add(n.id)
        for c in ast.iter_child_nodes(n):
            if not (isinstance(n, ast.Call) and c is n.func):
                walk(c)
    walk(tree)
    return sorted(names - bound)


INTS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 32, 64]
FRACS = ["1/2", "3/4", "7/3", "5/8", "1/1000", "9", "1/3"]


class Rand:
    """A fixed linear congruential generator."""

    def __init__(self, seed):
        self.s = seed

    def pick(self, seq):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % \
            2 ** 64
        return seq[(self.s >> 33) % len(seq)]


def value_in(dom, rnd):
    """A value inside the declared domain 'dom' of a name (its min, max
    and integrality from 'derive --json'), as text."""
    lo = Fraction(dom["min"]) if dom.get("min") is not None else None
    hi = Fraction(dom["max"]) if dom.get("max") is not None else None
    for _ in range(20):
        if dom.get("integer"):
            v = Fraction(rnd.pick(INTS))
            if lo is not None and rnd.pick([0, 0, 1]):
                v = lo + v - 1
        else:
            v = Fraction(rnd.pick(FRACS + [str(i) for i in INTS[:6]]))
            if lo is not None and hi is not None:
                v = lo + (hi - lo) * Fraction(rnd.pick([0, 1, 1, 2, 3, 4]),
                                              4)
        if (lo is None or v >= lo) and (hi is None or v <= hi):
            return str(v)
    return str(lo if lo is not None else 1)


def segc_rows(segc, model, grid):
    """The rows of 'segc eval --json --arith exact' over 'grid' (name to
    a list of values), or [] when the command refuses them."""
    args = [segc, "eval", "--json", "--arith", "exact", model] + \
        ["%s=%s" % (n, ",".join(v)) for n, v in sorted(grid.items())]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return json.loads(r.stdout)["rows"]


def main():
    segc, models = sys.argv[1], sys.argv[2:]
    compared = skipped = formulas = left = refused = 0
    wrong = []
    rnd = Rand(20261129)
    for model in models:
        r = subprocess.run([segc, "derive", "--json", "--form",
                            "structural", model], capture_output=True,
                           text=True)
        if r.returncode != 0:
            continue
        doc = json.loads(r.stdout)
        doms = {n["name"]: n for n in doc["names"]}
        usable = {}
        for c in ("total", "comp", "comm", "io"):
            if not doc.get(c):
                continue
            tree, src = parse(doc[c])
            try:
                Evaluator(src, {n: Fraction(1) for n in
                                free_names(tree)}).ev(tree)
                usable[c] = (tree, src)
            except Unsupported:
                left += 1
            except (Skip, ZeroDivisionError, ValueError, OverflowError):
                usable[c] = (tree, src)
        names = sorted(set(n for tr, _ in usable.values()
                           for n in free_names(tr)))
        if not usable or any(n not in doms for n in names):
            left += len(usable)
            continue
        formulas += len(usable)
        # two grids: three names with two values each, the others one
        for _ in range(2):
            grid = {}
            for k, n in enumerate(names):
                vals = {value_in(doms[n], rnd) for _ in range(
                    2 if k < 3 else 1)}
                grid[n] = sorted(vals)
            rows = segc_rows(segc, model, grid)
            if not rows:
                refused += 1
            for row in rows:
                pt = {n: Fraction(row[n]) for n in names}
                for c, (tree, src) in usable.items():
                    got = row.get(c)
                    try:
                        want = rational(Evaluator(src, pt).ev(tree))
                    except (Skip, ZeroDivisionError):
                        skipped += 1
                        continue
                    if got is None:     # irrational for segc
                        skipped += 1
                        continue
                    compared += 1
                    if Fraction(got) != want:
                        wrong.append("%s %s at %s: segc %s, Python %s" % (
                            model, c, {n: str(v) for n, v in pt.items()},
                            got, want))
    for w in wrong[:20]:
        print("# DIFFER: " + w)
    ok = not wrong and compared >= 200
    print("RESULT %d exact values of eval = Python fractions: %d compared, "
          "%d differ, %d skipped; %d formulas, %d grids refused, %d "
          "formulas left to evalball" % (0 if ok else 1, compared,
                                         len(wrong), skipped, formulas,
                                         refused, left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
