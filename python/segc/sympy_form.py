"""A Formula as a SymPy expression.  A sum is written as the loop means
it: over the integers from ceil(lo) to floor(hi), and 0 when there is
none (SymPy's Sum over a backwards range follows the convention of
indefinite summation instead, -1 for sum(i, 5, 3, 1)); so each sum is
Piecewise((Sum(...), floor(hi) >= ceil(lo)), (0, True)).  Uninterpreted
functions, mva_mem and the recurrences become SymPy Functions of their
name."""

import sympy

from segc import _core

_BINARY = {
    "<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge,
    "==": sympy.Eq, "!=": sympy.Ne,
}


def _call(name, args):
    """A call of a built-in (or another function) of SymPy values."""
    if name == "max":
        return sympy.Max(*args)
    if name == "min":
        return sympy.Min(*args)
    if name == "ceil":
        return sympy.ceiling(args[0])
    if name == "floor":
        return sympy.floor(args[0])
    if name == "log2":
        return sympy.log(args[0], 2)
    if name == "sqrt":
        return sympy.sqrt(args[0])
    if name == "exp2":
        return sympy.Integer(2) ** args[0]
    if name == "if":
        return sympy.Piecewise((args[1], args[0]), (args[2], True))
    if name in _BINARY:
        return _BINARY[name](*args)
    if name == "and":
        return sympy.And(*args)
    if name == "or":
        return sympy.Or(*args)
    if name == "not":
        return sympy.Not(args[0])
    return sympy.Function(name)(*args)


def _sum(var, lo, hi, body):
    """The loop sum: 0 when no integer lies in [lo, hi]."""
    a, b = sympy.ceiling(lo), sympy.floor(hi)
    return sympy.Piecewise((sympy.Sum(body, (var, a, b)), b >= a),
                           (0, True))


class _Converter:
    """One conversion: symbols by name, bound variables by scope."""

    def __init__(self):
        self.symbols = {}
        self.memo = {}

    def symbol(self, name, scope):
        if name in scope:
            return scope[name]
        s = self.symbols.get(name)
        if s is None:
            s = self.symbols[name] = sympy.Symbol(name)
        return s

    def convert(self, node, scope):
        key = (node.key, frozenset(scope))
        done = self.memo.get(key)
        if done is None:
            done = self.memo[key] = self.make(node, scope)
        return done

    def make(self, node, scope):
        kind = node.kind
        if kind == "NUM":
            v = node.value
            return sympy.Rational(v.numerator, v.denominator)
        if kind == "SYM":
            return self.symbol(node.name, scope)
        if kind == "SUM":
            lo, hi, body = node.args
            k = sympy.Symbol(node.name, integer=True)
            inner = dict(scope, **{node.name: k})
            return _sum(k, self.convert(lo, scope), self.convert(hi, scope),
                        self.convert(body, inner))
        args = [self.convert(a, scope) for a in node.args]
        if kind == "ADD":
            return sympy.Add(*args)
        if kind == "MUL":
            return sympy.Mul(*args)
        if kind == "POW":
            return sympy.Pow(*args)
        return _call(node.name, args)


def convert(formula):
    """The SymPy expression of 'formula' (its free names plain
    Symbols)."""
    return _Converter().convert(_core.Node(formula._ptr), {})
