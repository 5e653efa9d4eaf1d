"""Vectorized evaluation of a Formula over numpy arrays: the expression
is compiled once into a tree of numpy operations (each shared
subexpression computed once per evaluation) and run over whole arrays in
float64.  Sums over ranges that depend on the arrays run once for each
integer of the widest range, masked where a point's range ends; a kernel
numpy cannot express (mva_mem, the recurrences of overlapped loops and
task graphs, uninterpreted functions) makes the formula evaluate point by
point through the library instead."""

import functools

import numpy as np

from segc import _core
from segc.errors import Diagnostic, InputError, LimitError

# The most body evaluations (iterations times points) of one sum.
MAX_SUM_WORK = 10 ** 9


class _Unsupported(Exception):
    """A node numpy cannot evaluate."""


def _reduce(op):
    """An n-ary numpy operation from a binary one."""
    return lambda *xs: functools.reduce(op, xs)


_CALLS = {
    "max": _reduce(np.maximum), "min": _reduce(np.minimum),
    "ceil": np.ceil, "floor": np.floor, "log2": np.log2, "sqrt": np.sqrt,
    "exp2": np.exp2,
    "if": np.where,
    "<": np.less, "<=": np.less_equal, ">": np.greater,
    ">=": np.greater_equal, "==": np.equal, "!=": np.not_equal,
    "and": _reduce(np.logical_and), "or": _reduce(np.logical_or),
    "not": np.logical_not,
}


def _cached(key, impl):
    """'impl' (env -> array) computed once per environment."""
    def run(env):
        cache = env[1]
        r = cache.get(key)
        if r is None:
            r = cache[key] = impl(env)
        return r
    return run


def _name(name):
    """The value of a name in the environment."""
    return lambda env: env[0][name]


def _nary(op, parts):
    """An operation of the values of 'parts'."""
    return lambda env: op(*[p(env) for p in parts])


def _power(base, exponent):
    """base ^ exponent in float."""
    return lambda env: np.power(base(env), exponent(env))


def _sum(var, lo, hi, body):
    """sum(var, lo, hi, body): every integer of [ceil(lo), floor(hi)],
    masked per point; 0 over an empty range."""
    def run(env):
        a = np.ceil(lo(env))
        b = np.floor(hi(env))
        a, b = np.broadcast_arrays(a, b)
        ok = np.isfinite(a) & np.isfinite(b) & (b >= a)
        if not ok.any():
            return np.zeros(a.shape)
        kmin, kmax = int(a[ok].min()), int(b[ok].max())
        if (kmax - kmin + 1) * max(a.size, 1) > MAX_SUM_WORK:
            raise LimitError([Diagnostic(3, None, 0, 0, "a sum over "
                "%d integers is too long to evaluate over arrays"
                % (kmax - kmin + 1))])
        total = np.zeros(a.shape)
        for k in range(kmin, kmax + 1):
            inner = (dict(env[0], **{var: float(k)}), {})
            total = total + np.where(ok & (a <= k) & (k <= b),
                                     body(inner), 0.0)
        return total
    return run


def _compile(node, memo):
    """The function env -> array of 'node' (memoised by node)."""
    f = memo.get(node.key)
    if f is not None:
        return f
    kind = node.kind
    if kind == "NUM":
        c = float(node.value)
        impl = lambda env: c
    elif kind == "SYM":
        impl = _name(node.name)
    elif kind in ("ADD", "MUL"):
        op = _reduce(np.add if kind == "ADD" else np.multiply)
        impl = _nary(op, [_compile(a, memo) for a in node.args])
    elif kind == "POW":
        b, e = node.args
        impl = _power(_compile(b, memo), _compile(e, memo))
    elif kind == "SUM":
        lo, hi, body = node.args
        impl = _sum(node.name, _compile(lo, memo), _compile(hi, memo),
                    _compile(body, memo))
    elif node.name in _CALLS:
        impl = _nary(_CALLS[node.name],
                     [_compile(a, memo) for a in node.args])
    else:
        raise _Unsupported(node.name)
    f = memo[node.key] = _cached(node.key, impl)
    return f


def _arrays(formula, values):
    """The values as float64 arrays broadcast to one shape, and it."""
    missing = [n for n in formula.free_names if n not in values]
    if missing:
        raise InputError([Diagnostic(2, None, 0, 0, "no value for '%s'"
                                     % missing[0])])
    floats = {}
    for name, v in values.items():
        if isinstance(v, (list, tuple)) or hasattr(v, "__array__"):
            arr = np.asarray(v)
            if arr.dtype == object:
                arr = np.vectorize(lambda x: float(_core.exact(x, name)),
                                   otypes=[float])(arr)
            floats[name] = arr.astype(float)
        else:
            floats[name] = float(_core.exact(v, name))
    shape = np.broadcast_shapes(*[np.shape(a) for a in floats.values()])
    return floats, shape


def compile_formula(formula):
    """A function of a dict of values (arrays and numbers) giving the
    formula's float64 array over their broadcast shape."""
    try:
        root = _compile(_core.Node(formula._ptr), {})
    except _Unsupported:
        root = None

    def run(values):
        floats, shape = _arrays(formula, values)
        if root is None:
            return _pointwise(formula, floats, shape)
        with np.errstate(all="ignore"):
            r = root((floats, {}))
        return np.array(np.broadcast_to(r, shape), dtype=float)
    return run


def _pointwise(formula, floats, shape):
    """The formula evaluated point by point through the library."""
    out = np.empty(shape)
    full = {k: np.broadcast_to(v, shape) for k, v in floats.items()}
    for idx in np.ndindex(*shape) if shape else [()]:
        point = {k: float(v[idx]) for k, v in full.items()}
        out[idx] = float(formula._eval_point(point))
    return out
