"""fit from an Extra-P experiment (text and JSON formats) through the
package: the constants that made the data fitted back exactly, the same
values as 'segc fit' on the file, the call path and metric chosen by
keyword, errors located."""

from fractions import Fraction
import pathlib

import pytest

import segc
from conftest import path, run_segc

MODEL = "tests/cli/extrap/nlogn.xml"


@pytest.mark.parametrize("name", ["nlogn.txt", "nlogn.json"])
def test_extrap_constants(name):
    m = segc.Model.from_file(path(MODEL))
    data = pathlib.Path(path("tests/cli/extrap/" + name))
    fit = m.fit(data, free=["c0", "c1"], callpath="main", metric="time",
                aggregate="mean")
    assert fit.values == {"c0": 3, "c1": Fraction(1, 2)}
    assert [e.runs for e in fit.equations] == [5] * 6


@pytest.mark.parametrize("name", ["noisy.txt", "noisy.json"])
def test_extrap_same_as_command(name):
    m = segc.Model.from_file(path(MODEL))
    rel = "tests/cli/extrap/" + name
    fit = m.fit(pathlib.Path(path(rel)), free=["c0", "c1"])
    rc, out, err = run_segc("fit", "-q", "--free", "c0,c1", MODEL, rel)
    assert rc == 0, err
    for n, v in fit.values.items():
        assert "%s = %s/%s" % (n, v.numerator, v.denominator) in out


def test_extrap_choice_required():
    m = segc.Model.from_file(path(MODEL))
    with pytest.raises(segc.InputError) as e:
        m.fit(pathlib.Path(path("tests/cli/extrap/nlogn.txt")),
              free=["c0", "c1"])
    assert "choose one with --callpath" in str(e.value)


def test_extrap_located_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"parameters": ["x"],\n "measurements": [}')
    m = segc.Model.from_file(path(MODEL))
    with pytest.raises(segc.InputError) as e:
        m.fit(bad, free=["c0", "c1"])
    assert (e.value.file, e.value.line, e.value.col) == (str(bad), 2, 19)
