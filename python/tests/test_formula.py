"""Formula: reading from strings, equality by canonical form, check and
its witness, free names, domains, exact evaluation, LaTeX."""

from fractions import Fraction

import pytest

import segc
from conftest import path

PAIRS = """<?xml version="1.0"?>
<model name="pairs" version="1">
  <param name="N" min="1" integer="true"/>
  <resource name="t_pair"/>
  <graph name="main">
    <loop var="i" from="1" to="N">
      <loop var="j" from="i + 2" to="N">
        <step name="pair" cost="t_pair"/>
      </loop>
    </loop>
  </graph>
</model>
"""


def pairs_literal(n):
    """The pairs the loops of PAIRS visit, counted by running them."""
    return sum(1 for i in range(1, n + 1) for j in range(i + 2, n + 1))


def test_from_string_equals_from_file():
    a = segc.Model.from_string(PAIRS, name="pairs.xml").derive()
    b = segc.Model.from_file(path("xml/examples/pairs.xml")).derive()
    assert a == b
    assert str(a) == str(b)


def test_eval_against_literal_loops():
    f = segc.Model.from_string(PAIRS).derive()
    for n in range(1, 12):
        assert f.eval(N=n, t_pair=Fraction(1, 3)) == \
            Fraction(pairs_literal(n), 3)


def test_eq_by_canonical_form():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    f = m.derive()
    assert f == m.derive(form="structural")
    assert f == "t_assign + N_element*(t_loop + t_if + P_max*t_assign)"
    assert f != "t_assign + N_element*(t_loop + t_if)"
    assert hash(f) == hash(m.derive(form="structural"))


def test_check_verdicts_and_witness():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    f = m.derive()
    assert f.check(m.derive(form="structural")).verdict == "ok"
    r = f.check("t_assign + N_element*(t_loop + t_if)")
    assert r.verdict == "MISMATCH" and not r
    w = r.witness
    assert set(w) == set(f.free_names)
    # The witness is a point where the two really differ.
    a, b = r.values
    assert a == f.eval(**w)
    assert b == m.formula("t_assign + N_element*(t_loop + t_if)").eval(**w)
    assert a != b


def test_free_names_and_domains():
    f = segc.Model.from_file(path("xml/find_max.xml")).derive()
    assert f.free_names == ["N_element", "P_max", "t_assign", "t_if",
                            "t_loop"]
    d = f.domains
    assert d["P_max"] == segc.Domain(0, 1, False)
    assert d["N_element"].integer and d["N_element"].min == 1


def test_eval_numbers_exact_and_irrational():
    f = segc.Formula.parse("N/3 + sqrt(N)")
    assert f.eval(N=4) == Fraction(4, 3) + 2
    v = f.eval(N=2)
    assert isinstance(v, float) and abs(v - (2 / 3 + 2 ** 0.5)) < 1e-15
    assert f.eval(N="0.25") == Fraction(1, 12) + Fraction(1, 2)
    assert f.eval({"N": Fraction(9, 4)}) == Fraction(3, 4) + Fraction(3, 2)


def test_bind_keep_machine():
    m = segc.Model.from_file(path("xml/cg_tree.xml"))
    f = m.derive(component="comp", machine=path("xml/machines/ncube2.xml"))
    assert "t_stmt" not in f.free_names
    g = m.derive(component="comp", bind={"N": 100})
    assert "N" not in g.free_names
    assert g == m.derive(component="comp").to_sympy().subs("N", 100) \
        .__str__().replace("**", "^")


def test_latex_and_repr_latex():
    f = segc.Model.from_file(path("xml/find_max.xml")).derive()
    assert f._repr_latex_() == "$" + f.latex() + "$"
    assert "N_{element}" in f.latex()
