"""Every bundled model derived, printed and evaluated through the package
gives what the segc command prints."""

import math
from fractions import Fraction

import pytest

import segc
from conftest import bundled_models, path, point_of, run_segc

MODELS = bundled_models()


def test_models_found():
    assert len(MODELS) >= 30


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("form", ["canonical", "structural"])
def test_derive_equals_command(model, form):
    rc, out, err = run_segc("derive", "--form", form, model)
    m = segc.Model.from_file(path(model))
    if rc != 0:
        with pytest.raises(segc.SegcError):
            m.derive(form=form)
        return
    assert str(m.derive(form=form)) + "\n" == out


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("component", ["comp", "comm", "io"])
def test_components_equal_command(model, component):
    rc, out, err = run_segc("derive", "--component", component, model)
    assert rc == 0, err
    f = segc.Model.from_file(path(model)).derive(component=component)
    assert str(f) + "\n" == out


@pytest.mark.parametrize("model", MODELS)
def test_latex_equals_command(model):
    rc, out, err = run_segc("latex", model)
    assert rc == 0, err
    f = segc.Model.from_file(path(model)).derive(form="readable")
    assert f.latex() + "\n" == out


def _cli_value(text):
    """A cell of 'segc eval --csv' as a float."""
    return float(text)


@pytest.mark.parametrize("model", MODELS)
def test_eval_equals_command(model):
    m = segc.Model.from_file(path(model))
    f = m.derive()
    point = point_of(f)
    args = ["%s=%s" % (k, v) for k, v in point.items()]
    rc, out, err = run_segc("eval", "--csv", "--digits", "17", "--form",
                            "canonical", model, *args)
    if rc != 0:
        with pytest.raises(segc.SegcError):
            f.eval(**point)
        return
    header, row = out.strip().split("\n")[:2]
    cells = dict(zip(header.split(","), row.split(",")))
    got = f.eval(**point)
    want = _cli_value(cells["total"])
    assert math.isclose(float(got), want, rel_tol=1e-15, abs_tol=1e-300), \
        (point, got, want)
    if isinstance(got, Fraction):
        assert f.eval(**{k: str(v) if v.denominator == 1 else v
                         for k, v in point.items()}) == got
