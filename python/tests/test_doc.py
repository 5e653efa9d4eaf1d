"""The walk-through of doc/python.md runs as written: its python code
blocks executed in order in one namespace."""

import os
import re

import pytest

from conftest import TOP

pytest.importorskip("pandas")
pytest.importorskip("numpy")


def blocks():
    with open(os.path.join(TOP, "doc", "python.md"), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)


def test_walkthrough(capsys):
    code = blocks()
    assert len(code) >= 5
    scope = {"__name__": "walkthrough"}
    for k, block in enumerate(code):
        exec(compile(block, "doc/python.md block %d" % (k + 1), "exec"),
             scope)
    assert "fit" in scope and "times" in scope
