"""The declarations the package gives cffi (segc/_native.py) agree with
the public headers: every function exists there, exported, with as many
parameters; every struct has the same fields in the same order."""

import glob
import os
import re

import pytest

from conftest import TOP


def _read(p):
    with open(p, encoding="utf-8") as f:
        return f.read()


HEADERS = "\n".join(_read(p) for p in sorted(glob.glob(
    os.path.join(TOP, "include", "segc", "*.h"))))
NATIVE = _read(os.path.join(TOP, "python", "segc", "_native.py"))
CDEF = NATIVE[NATIVE.index('ffi.cdef("""') + 11:NATIVE.index('""")')]


def _strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def _params(decl):
    """The number of parameters of a prototype's text."""
    inner = decl[decl.index("(") + 1:decl.rindex(")")].strip()
    if inner in ("", "void"):
        return 0
    depth, n = 0, 1
    for ch in inner:
        depth += ch == "("
        depth -= ch == ")"
        n += ch == "," and depth == 0
    return n


def _functions(text, exported):
    """name -> parameter count of the function prototypes of 'text'."""
    out = {}
    for decl in _strip_comments(text).split(";"):
        decl = " ".join(decl.split())
        if exported:
            if "SEGC_API" not in decl:
                continue
            decl = decl[decl.index("SEGC_API"):]
        m = re.search(r"\b(segc_\w+)\s*\(", decl)
        if m and "typedef" not in decl:
            out[m.group(1)] = _params(decl[m.start():].split(
                "__attribute__")[0])
    return out


def _structs(text):
    """name -> field names of the typedef'd structs of 'text'."""
    out = {}
    for m in re.finditer(r"typedef struct (segc_\w+) \{(.*?)\}\s*\w+;",
                         _strip_comments(text), re.S):
        fields = []
        for decl in m.group(2).split(";"):
            decl = re.sub(r"\[\d*\]", "", decl.strip())
            if decl:
                names = re.findall(r"(\w+)\s*(?:,|$)", decl)
                fields.extend(names)
        out[m.group(1)] = fields
    return out


def test_functions_match_headers():
    mine = _functions(CDEF, False)
    theirs = _functions(HEADERS, True)
    assert len(mine) > 80
    for name, n in sorted(mine.items()):
        assert name in theirs, name + " is not exported by the headers"
        assert theirs[name] == n, name


def test_structs_match_headers():
    mine = _structs(CDEF)
    theirs = _structs(HEADERS)
    assert len(mine) >= 10
    for name, fields in sorted(mine.items()):
        assert theirs.get(name) == fields, name
