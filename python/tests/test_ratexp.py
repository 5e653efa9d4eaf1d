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


def _random_expr(rng, depth=0):
    """A random formula of rational powers of N and P."""
    def power():
        p, q = rng.randint(-7, 9), rng.choice([2, 3, 4, 6, 12])
        return rng.choice([
            "N^(%d/%d)" % (p, q), "P^(%d/%d)" % (p, q),
            "(N/P)^(%d/%d)" % (p, q), "(N^(1/%d))^(%d)" % (q, p),
            "(N^(1/3) + 1)^(%d)" % rng.randint(0, 3), "sqrt(N)", "3"])
    if depth > 2 or rng.random() < 0.3:
        return power()
    return "(%s %s %s)" % (_random_expr(rng, depth + 1),
                           rng.choice("+-**/"),
                           _random_expr(rng, depth + 1))


def test_random_canonical_forms():
    """The canonical form of random formulas of rational powers has the
    value of the formula at points where every root is rational (SymPy,
    exactly), and is its own canonical form."""
    import random
    sympy = pytest.importorskip("sympy")
    rng = random.Random(31)
    N, P = sympy.Symbol("N"), sympy.Symbol("P")

    def value(text, n, p):
        e = sympy.sympify(text.replace("^", "**"), rational=True,
                          locals={"N": N, "P": P, "sqrt": sympy.sqrt})
        return sympy.nsimplify(e.subs({N: n, P: p}))
    tried = 0
    for _ in range(60):
        text = _random_expr(rng)
        try:
            c = segc.Formula.parse(text).canonical()
        except segc.SegcError as e:
            assert "division by zero" in str(e)
            continue
        tried += 1
        for n, p in [(64, 729), (4096, 64)]:
            try:
                a, b = value(text, n, p), value(str(c), n, p)
            except ZeroDivisionError:
                continue
            assert sympy.simplify(a - b) == 0, (text, str(c), n, p)
        assert str(segc.Formula.parse(str(c)).canonical()) == str(c)
    assert tried >= 40
