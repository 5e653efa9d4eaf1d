"""optimize, solve, whatif, sensitivity and emit through the package,
against brute force, exact evaluation and the command's output."""

from fractions import Fraction
import os

import pytest

import segc
from conftest import path, run_segc

BLOCKSIZE = "tests/cli/models/blocksize.xml"
BIND = {"t_work": 3, "t_msg": 7, "N": 100}


def test_optimize_against_brute_force():
    m = segc.Model.from_file(path(BLOCKSIZE))
    o = m.optimize("total", over=("B", 1, 10 ** 9), bind=BIND)
    assert o.var == "B" and o.best == 15
    assert o.value == Fraction(275, 3)
    assert o.candidates == [1, 2, 15, 16, 999999999, 1000000000]
    # Brute force over a range that holds the optimum.
    f = m.derive(bind=BIND)
    values = {b: f.eval(B=b) for b in range(1, 400)}
    best = min(values, key=lambda b: (values[b], b))
    assert (best, values[best]) == (o.best, o.value)
    top = m.optimize("comm", over="B=1..50", maximize=True, bind=BIND)
    assert top.best == 1


def test_solve_crossing():
    m = segc.Model.from_file(path(BLOCKSIZE))
    s = m.solve("comp = comm", "B", within=(1, 1000), digits=30,
                bind=BIND)
    rc, out, err = run_segc("solve", "--for", "B", "--in", "1..1000",
                            "comp = comm", BLOCKSIZE, "t_work=3",
                            "t_msg=7", "N=100")
    assert rc == 0, err
    assert out == "B = %s (correctly rounded)\n" % s.roots[0]
    # 3*B = 700/B: B^2 = 700/3.
    r = Fraction(s.roots[0])
    assert abs(r * r - Fraction(700, 3)) < Fraction(1, 10 ** 25)
    exact = m.solve("comp - 30", "B", within=(1, 1000), bind=BIND)
    assert exact.roots == ["10"] and exact.exact == [True]


def test_whatif_speedup():
    m = segc.Model.from_file(path("xml/cg_tree.xml"))
    machine = path("xml/machines/ncube2.xml")
    w = m.whatif(Fraction(1, 2), cls="comm", machine=machine)
    for point in ({"N": 64, "P": 4}, {"N": 1000, "P": 32}):
        assert w.speedup.eval(**point) == \
            w.before.eval(**point) / w.after.eval(**point)
    rc, out, err = run_segc("whatif", "--scale", "class:comm=1/2",
                            "xml/cg_tree.xml", "-m",
                            "xml/machines/ncube2.xml")
    assert "speedup = T_before/T_after = %s\n" % w.speedup in out
    n = m.whatif(2, names=["t_stmt"], component="comp")
    assert n.speedup == Fraction(1, 2)


def test_sensitivity_against_difference_quotient():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    s = m.sensitivity()
    t = m.derive()
    assert sorted(s) == t.free_names
    point = {"N_element": 10, "P_max": Fraction(1, 3), "t_assign": 2,
             "t_if": 1, "t_loop": Fraction(1, 2)}
    for name, (d, e) in s.items():
        # The formula is linear in each name: the difference quotient is
        # the derivative exactly.
        up = dict(point, **{name: point[name] + 1})
        assert d.eval(**point) == t.eval(**up) - t.eval(**point)
        assert e.eval(**point) == \
            Fraction(point[name]) * d.eval(**point) / t.eval(**point)


@pytest.mark.parametrize("lang", ["c", "python"])
def test_emit_equals_command(lang, tmp_path):
    m = segc.Model.from_file(path("xml/cg_tree.xml"))
    files = m.emit(lang, base="cg", machine=path("xml/machines/ncube2.xml"))
    base = str(tmp_path / "cg")
    rc, out, err = run_segc("emit", "--lang", lang, "-q", "-m",
                            "xml/machines/ncube2.xml", "-o", base,
                            "xml/cg_tree.xml")
    assert rc == 0, err
    # the command also leaves its lock file, BASE.lock (doc/emit.md)
    written = [f for f in os.listdir(tmp_path) if not f.endswith(".lock")]
    assert sorted(files) == sorted(written)
    for name, text in files.items():
        with open(os.path.join(tmp_path, name), encoding="utf-8") as f:
            assert f.read() == text


def test_emitted_python_runs():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    keep = ["N_element", "P_max", "t_assign", "t_if", "t_loop"]
    (name, text), = m.emit("python", base="fm", keep=keep).items()
    scope = {}
    exec(compile(text, name, "exec"), scope)
    fn = [v for k, v in scope.items() if k.endswith("total")][0]
    want = m.derive().eval(N_element=10, P_max=Fraction(1, 2), t_assign=1,
                           t_if=2, t_loop=3)
    assert fn(1, 1, 10, 0.5, 1.0, 2.0, 3.0) == float(want)
