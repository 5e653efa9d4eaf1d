"""Errors are exceptions carrying file, line, column and message; limits
are keyword arguments."""

import pytest

import segc

BAD = """<?xml version="1.0"?>
<model name="bad" version="1">
  <resource name="t"/>
  <graph name="main">
    <step name="s" cost="t + + 1"/>
  </graph>
</model>
"""


def test_input_error_located():
    with pytest.raises(segc.InputError) as e:
        segc.Model.from_string(BAD, name="mine.xml")
    err = e.value
    assert err.file == "mine.xml"
    assert err.line == 5 and err.col > 0
    assert "cost" in err.message
    assert str(err).startswith("mine.xml:5:%d: error: " % err.col)


def test_not_xml():
    with pytest.raises(segc.InputError) as e:
        segc.Model.from_string("<model", name="x.xml")
    assert e.value.file == "x.xml" and e.value.line == 1


def test_missing_file():
    with pytest.raises(segc.InputError) as e:
        segc.Model.from_file("/nonexistent/m.xml")
    assert e.value.file == "/nonexistent/m.xml"


def test_limit_as_keyword():
    with pytest.raises(segc.LimitError) as e:
        segc.Model.from_string(BAD, max_file_bytes=10)
    assert "max_file_bytes" in e.value.message
    with pytest.raises(TypeError):
        segc.Model.from_string(BAD, max_bogus=10)


def test_limit_in_derive():
    m = segc.Model.from_string("""<?xml version="1.0"?>
<model name="p" version="1"><resource name="t"/>
<graph name="main"><step name="s" cost="(N + P + 1)^12*t"/></graph>
</model>""")
    with pytest.raises(segc.LimitError) as e:
        m.derive(max_terms=10)
    assert e.value.line == 3 and "limit 10" in e.value.message
    assert len(m.derive().free_names) == 3


def test_parse_error_position():
    with pytest.raises(segc.InputError) as e:
        segc.Formula.parse("N + * 2")
    assert "column" in e.value.message or e.value.col


def test_unknown_binding():
    m = segc.Model.from_string(BAD.replace("t + + 1", "t"))
    with pytest.raises(segc.InputError) as e:
        m.derive(bind={"tt": 1})
    assert "did you mean 't'" in e.value.message
