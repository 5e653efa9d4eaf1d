"""What the tests of the Python package share: the source tree, the
segc command, the bundled models and a point of each model's domains."""

import glob
import os
import subprocess
import sys
from fractions import Fraction

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.environ.get("SEGC_TOP_SRCDIR") or os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
pytest_plugins = ["tap_results"]


def segc_command():
    """The segc command of the build (SEGC), or None."""
    return os.environ.get("SEGC")


def run_segc(*args, stdin=None):
    """Runs the command: (exit status, stdout, stderr)."""
    cmd = segc_command()
    if not cmd:
        pytest.skip("SEGC (the command) is not set")
    p = subprocess.run([cmd] + list(args), capture_output=True, text=True,
                       input=stdin, cwd=TOP)
    return p.returncode, p.stdout, p.stderr


def bundled_models():
    """Every bundled model: xml/*.xml and xml/examples/*.xml."""
    paths = sorted(glob.glob(os.path.join(TOP, "xml", "*.xml")) +
                   glob.glob(os.path.join(TOP, "xml", "examples", "*.xml")))
    return [os.path.relpath(p, TOP) for p in paths]


def path(rel):
    """The path of 'rel' in the source tree."""
    return os.path.join(TOP, rel)


def point_of(formula, seed=0):
    """A point inside the declared domains of the formula's free names:
    exact values, integers where declared so, away from the ends."""
    doms = formula.domains
    point = {}
    for k, name in enumerate(formula.free_names):
        d = doms.get(name)
        lo = d.min if d and d.min is not None else Fraction(0)
        hi = d.max if d and d.max is not None else None
        integer = d.integer if d else False
        step = Fraction(3 + (k + seed) % 5, 2 + (k + seed) % 3)
        v = lo + step
        if hi is not None:
            v = lo + (hi - lo) * Fraction(1 + (k + seed) % 3, 5)
        if integer:
            v = Fraction(int(v) + 1) if hi is None else \
                Fraction(max(int(lo), min(int(hi), int(v))))
        point[name] = v
    return point
