"""eval_interval.py - parameters with uncertainty in 'segc eval': on every
bundled model, the cost names (t_..., tau_..., mu_..., C_..., rate_...,
and the like) are given intervals [v, v + v/10] (v a random fraction),
the other names small integers, and the enclosure printed for each
component must hold the exact values at random rational points inside
the box, each computed by 'segc eval --arith exact' at that point and
compared as Python Fractions.  A model whose enclosure is refused must
be refused with a message and exit 2 or 3, never a wrong interval.
Prints TAP."""
import os
import random
import re
import subprocess
import sys
from fractions import Fraction

SEGC = os.environ["SEGC"]
TOP = os.environ["top_srcdir"]
COST = re.compile(r"^(t_|tau_|mu_|C_|rate|eta|alpha|beta|lat|gap|t$|a$|b$|d$|l$)")
POINTS = 4
rng = random.Random(20261128)
n_tests = 0
failed = 0


def ok(cond, name):
    global n_tests, failed
    n_tests += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n_tests, name))


def run(args):
    return subprocess.run([SEGC] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=120)


def free_names(model, machine):
    r = run(["eval"] + machine + [model])
    return sorted(set(re.findall(r"'([A-Za-z_][A-Za-z_0-9]*)' has no value",
                                 r.stderr))), "is not defined" in r.stderr


def machine_for(model):
    """No machine, or the first bundled one that defines every call."""
    d = os.path.join(TOP, "xml", "machines")
    for m in [[]] + [["-m", os.path.join(d, f)] for f in sorted(os.listdir(d))]:
        names, undefined = free_names(model, m)
        if not undefined:
            return m, names
    return [], names


DOMAIN = re.compile(r"(\w+)=\S+ is (?:above|below) its (?:maximum|minimum): "
                    r"the model declares \w+ in \[([^,]+), ([^\]]+)\](, an integer)?")


INTEGER = re.compile(r"(\w+)=\S+ is not an integer: "
                     r"the model declares \w+ in \[([^,]+), ([^\]]+)\]")


def domains(model, machine, args):
    """The declared domains the values 'args' fall outside of."""
    r = run(["eval"] + machine + [model] + args)
    out = {}
    for name, lo, hi, integer in DOMAIN.findall(r.stderr):
        out[name] = (None if lo == "-inf" else Fraction(lo),
                     None if hi == "+inf" else Fraction(hi), bool(integer))
    for name, lo, hi in INTEGER.findall(r.stderr):
        out[name] = (None if lo == "-inf" else Fraction(lo),
                     None if hi == "+inf" else Fraction(hi), True)
    return out


def frac_str(q):
    return "%d/%d" % (q.numerator, q.denominator) if q.denominator != 1 \
        else str(q.numerator)


def csv_rows(text):
    """The header and rows of segc's CSV, quoted cells kept whole."""
    lines = text.strip().split("\n")
    out = []
    for line in lines:
        out.append(re.findall(r'"[^"]*"|[^,]+', line))
    return out[0], out[1:]


def interval(cell):
    lo, hi = cell.strip('"[]').split(",")
    return Fraction(lo.strip()), Fraction(hi.strip())


def draw(names, costs, dom):
    """Values of the names: intervals for the costs, integers else, inside
    the declared domains 'dom'."""
    point, box = {}, {}
    for n in names:
        lo, hi, integer = dom.get(n, (None, None, False))
        if n in costs and not integer:
            v = Fraction(rng.randint(1, 400), rng.choice([7, 100, 1000]))
            if hi is not None:
                lo = lo if lo is not None else Fraction(0)
                v = lo + (hi - lo) * Fraction(rng.randint(1, 80), 100)
                box[n] = (v, v + (hi - v) / 10)
            else:
                v = max(v, lo + 1) if lo is not None else v
                box[n] = (v, v + v / 10)
        else:
            v = Fraction(rng.randint(2, 9))
            if hi is not None and lo is not None:
                v = lo + (hi - lo) * Fraction(rng.randint(1, 9), 10)
                if integer:
                    v = Fraction(int(v))
            elif lo is not None:
                v = max(v, lo)
            point[n] = v
    return point, box


def args_of(point, box):
    fixed = ["%s=%s" % (n, frac_str(v)) for n, v in sorted(point.items())]
    ivals = ["%s=[%s,%s]" % (n, frac_str(a), frac_str(b))
             for n, (a, b) in sorted(box.items())]
    return fixed, ivals


def check_model(model):
    machine, names = machine_for(model)
    costs = [n for n in names if COST.match(n) or n in ("p", "q")]
    if not names or not costs:
        return
    base = ["eval", "--csv"] + machine + [model]
    dom = {}
    for _ in range(3):
        point, box = draw(names, costs, dom)
        fixed, ivals = args_of(point, box)
        more = domains(model, machine, fixed + ["%s=%s,%s" % (
            n, frac_str(a), frac_str(b)) for n, (a, b) in box.items()])
        if not more:
            break
        dom.update(more)
    if not box:
        return
    tag = os.path.basename(model)
    r = run(base + fixed + ivals)
    if r.returncode != 0:
        ok(r.returncode in (2, 3) and "error" in r.stderr,
           "%s: refused with a message (%s)" % (tag, r.stderr.strip()[:120]))
        return
    head, rows = csv_rows(r.stdout)
    encl = {c: interval(rows[0][head.index(c)])
            for c in ("comp", "comm", "io", "total")}
    bad = []
    for _ in range(POINTS):
        at = ["%s=%s" % (n, frac_str(a + (b - a) * Fraction(rng.randint(0, 60), 60)))
              for n, (a, b) in sorted(box.items())]
        p = run(["eval", "--arith", "exact", "--csv", "--digits", "40"] +
                machine + [model] + fixed + at)
        if p.returncode != 0:
            bad.append("point failed: " + p.stderr.strip()[:100])
            continue
        h, rs = csv_rows(p.stdout)
        for c, (lo, hi) in encl.items():
            v = Fraction(rs[0][h.index(c)])
            if not lo <= v <= hi:
                bad.append("%s = %s outside [%s, %s] at %s" %
                           (c, v, float(lo), float(hi), " ".join(at)))
    ok(not bad, "%s: %d costs in intervals, enclosure holds %d points%s"
       % (tag, len(box), POINTS, ("; " + bad[0]) if bad else ""))


models = sorted(
    [os.path.join(TOP, "xml", f) for f in os.listdir(os.path.join(TOP, "xml"))
     if f.endswith(".xml")] +
    [os.path.join(TOP, "xml", "examples", f)
     for f in os.listdir(os.path.join(TOP, "xml", "examples"))
     if f.endswith(".xml")])
for m in models:
    check_model(m)
ok(n_tests >= 15, "models checked: %d" % n_tests)
print("1..%d" % n_tests)
sys.exit(1 if failed else 0)
