"""The declarations the package gives cffi (segc/_native.py) agree with
the public headers: every function exists there, exported, with as many
parameters; every struct has the same fields in the same order, and the
C compiler lays them out at the same offsets and size."""

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


def _c_layouts(structs):
    """name -> (size, [offset of each field]) of 'structs' as the C
    compiler lays them out from the public headers, or None without a
    compiler."""
    import shutil
    import subprocess
    import tempfile
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += ['#include "segc/%s"' % os.path.basename(p) for p in sorted(
        glob.glob(os.path.join(TOP, "include", "segc", "*.h")))]
    lines.append("int main(void) {")
    for name, fields in sorted(structs.items()):
        lines.append('  printf("%s %%zu", sizeof(struct %s));' % (name, name))
        for f in fields:
            lines.append('  printf(" %%zu", offsetof(struct %s, %s));'
                         % (name, f))
        lines.append('  printf("\\n");')
    lines.append("  return 0;\n}")
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "layout.c"), os.path.join(d, "layout")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([cc, "-std=c99", "-I", os.path.join(TOP, "include"),
                            "-o", exe, src], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout
    layouts = {}
    for line in out.splitlines():
        words = line.split()
        layouts[words[0]] = (int(words[1]), [int(w) for w in words[2:]])
    return layouts


def test_struct_layouts_match_compiler():
    """The structs cffi copies are laid out as the C compiler lays out the
    headers' own: same size, every field at the same offset (a field
    missing, added or of another type shows here)."""
    from segc._native import ffi
    mine = {name: [f for f, _ in ffi.typeof("struct " + name).fields]
            for name in _structs(CDEF)}
    layouts = _c_layouts(mine)
    if layouts is None:
        pytest.skip("no C compiler to lay out the headers' structs")
    assert len(layouts) == len(mine) >= 10
    for name, fields in sorted(mine.items()):
        size, offsets = layouts[name]
        assert ffi.sizeof("struct " + name) == size, name
        assert [ffi.offsetof("struct " + name, f) for f in fields] == \
            offsets, name
