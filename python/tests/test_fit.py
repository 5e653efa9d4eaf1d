"""fit from a pandas DataFrame or columns: exact recovery of the values
that made the data, and the same numbers as 'segc fit' on the CSV."""

from fractions import Fraction

import pytest

import segc
from conftest import path, run_segc

pd = pytest.importorskip("pandas")

TRUE = {"t_if": Fraction(3, 100000), "t_assign": Fraction(1, 20000)}


def rows():
    """Measured times of find_max made by the formula itself (exactly),
    with t_loop bound to 1/100000."""
    f = segc.Model.from_file(path("xml/find_max.xml")).derive()
    out = []
    for n, p in [(10, "0.5"), (20, "0.25"), (40, "0.125"), (80, "1")]:
        t = f.eval(N_element=n, P_max=p, t_loop=Fraction(1, 100000),
                   **TRUE)
        out.append((n, Fraction(p), t))
    return out


def test_fit_dataframe_exact():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    r = rows()
    df = pd.DataFrame({"N_element": [a for a, _, _ in r],
                       "P_max": [float(b) for _, b, _ in r],
                       "time": [c for _, _, c in r]})
    fit = m.fit(df, free=["t_if", "t_assign"],
                bind={"t_loop": Fraction(1, 100000)})
    assert fit.values == TRUE
    assert not fit.nonlinear
    assert fit.r2 == 1 and fit.max_relative == 0
    assert len(fit.equations) == 4
    assert all(e.measured == e.fitted for e in fit.equations)
    xml = fit.machine_xml("fm")
    assert '<cost name="t_if" value="0.00003"/>' in xml
    assert segc.Machine.from_string(xml) is not None


def test_fit_same_as_command(tmp_path):
    m = segc.Model.from_file(path("xml/find_max.xml"))
    df = pd.DataFrame({"N_element": [10, 20, 40, 80],
                       "P_max": [0.5, 0.25, 0.125, 1.0],
                       "time": [0.00031, 0.00059, 0.00123, 0.0041]})
    csv = tmp_path / "m.csv"
    df.to_csv(csv, index=False)
    fit = m.fit(df, free=["t_if", "t_assign"], bind={"t_loop": "0.00001"})
    rc, out, err = run_segc("fit", "--free", "t_if,t_assign", "-D",
                            "t_loop=0.00001", "-o", str(tmp_path / "f.xml"),
                            "xml/find_max.xml", str(csv))
    assert rc == 0, err
    with open(tmp_path / "f.xml", encoding="utf-8") as f:
        machine = f.read()
    assert fit.machine_xml(description="fitted by segc fit to %s" % csv) \
        == machine
    for name, value in fit.values.items():
        assert "%s = %s/%s" % (name, value.numerator, value.denominator) \
            in out


def test_fit_columns_dict_and_mapping():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    r = rows()
    cols = {"n": [a for a, _, _ in r],
            "prob": ["0.5", " 0.25", "0.125 ", "1"],
            "seconds": [c for _, _, c in r]}
    with pytest.raises(segc.InputError):
        m.fit(cols, free=["t_if", "t_assign"], bind={"t_loop": "0.00001"})
    fit = m.fit(cols, free=["t_if", "t_assign"], bind={"t_loop": "0.00001"},
                columns={"N_element": "n", "P_max": "prob",
                         "time": "seconds"})
    assert fit.values == TRUE


def test_fraction_without_decimal_refused():
    m = segc.Model.from_file(path("xml/find_max.xml"))
    with pytest.raises(ValueError):
        m.fit({"N_element": [1], "P_max": [Fraction(1, 3)], "time": [1]},
              free=["t_if"])
