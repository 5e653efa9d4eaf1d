"""Rational exponents through the package: equal formulas compare equal,
eval is exact where the value is rational and close to an independent
high-precision value otherwise (Python's decimal, 60 digits), and
to_sympy gives SymPy's rational powers with the same values."""

from decimal import Decimal, getcontext
from fractions import Fraction

import pytest

import segc

getcontext().prec = 60


def dec_root_pow(x, p, q):
    """x^(p/q) for a rational x > 0 in Decimal at 60 digits, by Newton's
    method on y^q = x (independent of segc and of MPFR)."""
    d = Decimal(x.numerator) / Decimal(x.denominator)
    y = Decimal(float(d) ** (1.0 / q))
    for _ in range(100):
        y = y - (y ** q - d) / (q * y ** (q - 1))
    return y ** p


@pytest.mark.parametrize("a,b", [
    ("N*sqrt(N)", "N^(3/2)"),
    ("N^(2/3)*N^(1/3)", "N"),
    ("N^(1/2)*N^(1/3)", "N^(5/6)"),
    ("(N^(1/6))^3", "sqrt(N)"),
    ("P^(-1/2)", "sqrt(P)/P"),
    ("(N^(1/3) + 1)^3", "N + 3*N^(2/3) + 3*N^(1/3) + 1"),
])
def test_equal_forms(a, b):
    fa, fb = segc.Formula.parse(a), segc.Formula.parse(b)
    assert fa == fb
    assert str(fa.canonical()) == str(fb.canonical())


def test_witness_of_a_difference():
    r = segc.Formula.parse("N^(3/2)").check(segc.Formula.parse("N^(5/3)"))
    assert not r
    assert r.witness


@pytest.mark.parametrize("text,point,want", [
    ("N^(3/2)", {"N": 4}, Fraction(8)),
    ("N^(2/3)*P^(-1/3)", {"N": 27, "P": 8}, Fraction(9, 2)),
    ("(N/P)^(2/3)", {"N": 8, "P": 27}, Fraction(4, 9)),
    ("N^(5/6)", {"N": Fraction(1, 64)}, Fraction(1, 32)),
])
def test_exact_values(text, point, want):
    assert segc.Formula.parse(text).eval(**point) == want


@pytest.mark.parametrize("p,q,x", [
    (3, 2, Fraction(10)), (2, 3, Fraction(7, 3)), (-1, 3, Fraction(5)),
    (5, 6, Fraction(123, 7)), (7, 5, Fraction(2)),
])
def test_irrational_values(p, q, x):
    got = segc.Formula.parse("N^(%d/%d)" % (p, q)).eval(N=x)
    want = dec_root_pow(x, p, q)
    assert abs(Decimal(repr(float(got))) - want) <= abs(want) * \
        Decimal(2) ** -50


def test_to_sympy():
    sympy = pytest.importorskip("sympy")
    f = segc.Formula.parse("3*N^(3/2)*log2(N)^2 + (N/P)^(2/3) + P^(-1/2)")
    s = f.to_sympy()
    N, P = sympy.Symbol("N"), sympy.Symbol("P")
    for n, p in [(16, 2), (64, 8), (10, 3)]:
        want = (3 * sympy.Integer(n) ** sympy.Rational(3, 2) *
                sympy.log(n, 2) ** 2 +
                (sympy.Rational(n, p)) ** sympy.Rational(2, 3) +
                sympy.Integer(p) ** sympy.Rational(-1, 2))
        got = s.subs({N: n, P: p})
        assert abs(sympy.N(got - want, 50)) < sympy.Float(10) ** -40
        assert abs(float(sympy.N(got, 30)) - float(f.eval(N=n, P=p))) <= \
            abs(float(sympy.N(got, 30))) * 2 ** -50
