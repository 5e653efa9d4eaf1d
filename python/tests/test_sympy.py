"""to_sympy: the SymPy expression evaluates to what eval gives, sums over
empty ranges included (0, as the loops run, not SymPy's -1)."""

from fractions import Fraction
import itertools

import pytest
sympy = pytest.importorskip("sympy")

import segc
from conftest import bundled_models, path, point_of

# Kernels SymPy gets as undefined functions: no value to compare.
OPAQUE = ("maxplus", "taskpath", "mva_mem")


def sympy_value(expr, point):
    """The exact value SymPy gives at 'point', as a Fraction (None when it
    is not rational)."""
    v = expr.subs({sympy.Symbol(k): sympy.Rational(q.numerator,
                                                    q.denominator)
                   for k, q in point.items()}).doit()
    v = sympy.nsimplify(v) if not v.is_Rational else v
    if not v.is_Rational:
        return None
    return Fraction(int(v.p), int(v.q))


def literal_sum(lo, hi, body):
    """sum(i, lo, hi, body) as the C loop runs it."""
    import math
    return sum((body(i) for i in range(math.ceil(lo), math.floor(hi) + 1)),
               Fraction(0))


@pytest.mark.parametrize("model", bundled_models())
@pytest.mark.parametrize("form", ["canonical", "structural"])
def test_bundled_models(model, form):
    f = segc.Model.from_file(path(model)).derive(form=form)
    text = str(f)
    if any(k + "(" in text for k in OPAQUE):
        pytest.skip("a recurrence or mva_mem: no SymPy value")
    s = f.to_sympy()
    if s.atoms(sympy.core.function.AppliedUndef):
        pytest.skip("uninterpreted functions")
    for seed in range(3):
        point = point_of(f, seed)
        try:
            want = f.eval(**point)
        except segc.SegcError:
            continue
        if not isinstance(want, Fraction):
            continue
        assert sympy_value(s, point) == want, point


@pytest.mark.parametrize("lo,hi", list(itertools.product(range(-2, 5),
                                                         range(-2, 5))))
def test_empty_and_backwards_ranges(lo, hi):
    f = segc.Formula.parse("sum(i, a, b, i^2 + 1)")
    s = f.to_sympy()
    want = literal_sum(lo, hi, lambda i: Fraction(i * i + 1))
    point = {"a": Fraction(lo), "b": Fraction(hi)}
    assert f.eval(**point) == want
    assert sympy_value(s, point) == want


def test_fractional_bounds():
    f = segc.Formula.parse("sum(i, a, b, i)")
    s = f.to_sympy()
    for lo, hi in [(Fraction(1, 2), Fraction(7, 2)), (Fraction(7, 2), 3),
                   (Fraction(-5, 3), Fraction(1, 3))]:
        want = literal_sum(lo, hi, lambda i: Fraction(i))
        point = {"a": Fraction(lo), "b": Fraction(hi)}
        assert f.eval(**point) == want
        assert sympy_value(s, point) == want


def test_pairs_structural_runs_out():
    # The inner loop of pairs runs no iteration for the last i: a sum
    # SymPy would make -1 there.
    f = segc.Model.from_file(path("xml/examples/pairs.xml")).derive(
        form="structural")
    s = f.to_sympy()
    for n in range(1, 8):
        want = sum(1 for i in range(1, n + 1) for j in range(i + 2, n + 1))
        assert sympy_value(s, {"N": Fraction(n), "t_pair": Fraction(1)}) \
            == want


def test_if_and_kernels():
    f = segc.Formula.parse("if(N >= 4 and not P == 2, ceil(log2(N)), "
                           "max(N, P) + floor(N/P) + sqrt(4*N))")
    s = f.to_sympy()
    for n in range(1, 9):
        for p in (1, 2, 3):
            point = {"N": Fraction(n), "P": Fraction(p)}
            want = f.eval(**point)
            if isinstance(want, Fraction):
                assert sympy_value(s, point) == want
