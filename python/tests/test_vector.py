"""Vectorized evaluation over numpy arrays: equal to the scalar eval, and
at least 50 times faster than a Python loop of it."""

import time
from fractions import Fraction

import pytest
np = pytest.importorskip("numpy")

import segc
from conftest import bundled_models, path, point_of


def close(a, b, rel=1e-12):
    """Equal to a few units in the last place (a sum of rounded terms
    against the correctly rounded exact value)."""
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def test_equal_and_fast():
    f = segc.Model.from_file(path("xml/examples/blocked_lu.xml")).derive()
    n = 10 ** 5
    rng = np.random.default_rng(7)
    N = rng.integers(1, 2000, n)
    B = rng.integers(1, 64, n)
    t_madd = rng.random(n)
    values = dict(N=N, B=B, t_madd=t_madd, t_pivot=0.25)
    f.eval(**{k: v[:10] if hasattr(v, "shape") else v
              for k, v in values.items()})      # compiled once
    t0 = time.perf_counter()
    got = f.eval(**values)
    vector_time = time.perf_counter() - t0
    assert got.shape == (n,)
    t0 = time.perf_counter()
    scalar = [float(f.eval(N=int(N[i]), B=int(B[i]),
                           t_madd=float(t_madd[i]), t_pivot=0.25))
              for i in range(n)]
    loop_time = time.perf_counter() - t0
    # The canonical form of the blocked LU adds terms of the size of
    # N^3*t_madd that cancel down to the result: float64 keeps it to
    # about 1e-16 of those terms, hence the tolerance.
    bad = [i for i in range(n) if not close(got[i], scalar[i], 1e-9)]
    assert not bad, (bad[:5], got[bad[0]], scalar[bad[0]])
    assert loop_time >= 50 * vector_time, (loop_time, vector_time)


@pytest.mark.parametrize("model", bundled_models())
def test_bundled_models(model):
    f = segc.Model.from_file(path(model)).derive()
    points = [point_of(f, seed) for seed in range(4)]
    try:
        want = [float(f.eval(**p)) for p in points]
    except segc.SegcError:
        pytest.skip("no value at these points")
    arrays = {k: np.array([float(p[k]) for p in points])
              for k in f.free_names}
    got = f.eval(**arrays)
    for a, b in zip(got, want):
        assert close(a, b), (model, got, want)


def test_sums_over_array_ranges():
    f = segc.Formula.parse("sum(i, a, b, sum(j, i, b, i*j) + 1/2)")
    a = np.array([1, 3, 5, -2, 0.5])
    b = np.array([4, 3, 2, 1, 3.5])
    got = f.eval(a=a, b=b)
    for k in range(len(a)):
        want = f.eval(a=float(a[k]), b=float(b[k]))
        assert close(got[k], float(want))


def test_broadcast_and_fraction_scalars():
    f = segc.Formula.parse("N^2/P + if(P >= 4, 1, 0)")
    got = f.eval(N=np.arange(1, 4), P=np.array([[2], [4]]))
    assert got.shape == (2, 3)
    assert got[1, 2] == 9 / 4 + 1
    assert f.eval(N=[1, 2], P=Fraction(1, 2)).tolist() == [2.0, 8.0]
