#!/usr/bin/env python3
"""extrap.py - fit and eval --measured on Extra-P experiments (doc/fit.md),
written anew from known constants by extrap/make_extrap.py, in Extra-P's
text and JSON formats: the constants fitted back exactly; with noise, the
values of exact least squares computed here with Python fractions; the
call path and metric chosen; the same table from both formats; located
errors (exit 2) and the depth limit (exit 3); randomly edited files
(EXTRAP_MUTATIONS of them, default 100) never crash.  Prints TAP."""
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction as F

SEGC = os.environ["SEGC"]
HERE = os.path.join(os.environ["top_srcdir"], "tests", "cli", "extrap")
N = 0
FAILED = 0


def ok(cond, name, diag=""):
    global N, FAILED
    N += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", N, name))
    if not cond:
        FAILED += 1
        for line in str(diag).splitlines()[:30]:
            print("# " + line)


def run(*args, stdin=None):
    p = subprocess.run([SEGC] + list(args), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, cwd=HERE, timeout=120)
    return p.returncode, p.stdout, p.stderr


def fit_json(*args):
    rc, out, err = run("fit", "--json", *args)
    if rc:
        return None, err
    return json.loads(out), err


def values(doc):
    return {v["name"]: F(v["value"]) for v in doc["values"]}


def text_rows(path):
    """(x, value) of every DATA value of a one-parameter text file, block
    after block, in the order of the file."""
    xs, rows, k = [], [], 0
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "POINTS":
            xs.append(F(w[1]))
        elif w[0] == "REGION":
            k = 0
        elif w[0] == "DATA":
            rows += [(xs[k], F(v)) for v in w[1:]]
            k += 1
    return rows


def least_squares(rows):
    """Exact c0, c1 minimising sum (c0 + c1*x*log2(x) - t)^2."""
    g = [(F(1), x * (x.numerator.bit_length() - 1), t) for x, t in rows]
    s11 = sum(a * a for a, b, t in g)
    s12 = sum(a * b for a, b, t in g)
    s22 = sum(b * b for a, b, t in g)
    r1 = sum(a * t for a, b, t in g)
    r2 = sum(b * t for a, b, t in g)
    det = s11 * s22 - s12 * s12
    return (r1 * s22 - s12 * r2) / det, (s11 * r2 - s12 * r1) / det


def main():
    model = "nlogn.xml"
    sel = ["--callpath", "main", "--metric", "time"]
    for f in ("nlogn.txt", "nlogn.json"):
        doc, err = fit_json("--free", "c0,c1", *sel, model, f)
        ok(doc is not None and values(doc) == {"c0": 3, "c1": F(1, 2)},
           "%s: c0 = 3, c1 = 1/2 fitted back from the repetitions" % f, err)
        doc, err = fit_json("--free", "c0,c1", "--aggregate", "mean", *sel,
                            model, f)
        good = doc is not None and values(doc) == {"c0": 3, "c1": F(1, 2)}
        good = good and [e["runs"] for e in doc["equations"]] == [5] * 6
        good = good and all(F(e["residual"]) == 0 for e in doc["equations"])
        first = [v for x, v in text_rows(os.path.join(HERE, "nlogn.txt"))
                 if x == 4][:5]
        spread = (max(first) - min(first)) / (sum(first) / 5)
        good = good and F(doc["equations"][0]["spread"]) == spread
        ok(good, "%s: --aggregate mean: 6 configurations of 5 runs, exact, "
           "spread of the first (largest - smallest)/mean = %s" %
           (f, spread), err)

    # noisy data: against exact least squares computed here
    want = least_squares(text_rows(os.path.join(HERE, "noisy.txt")))
    got = {}
    for f in ("noisy.txt", "noisy.json", "noisy_ids.json"):
        doc, err = fit_json("--free", "c0,c1", model, f)
        got[f] = doc
        ok(doc is not None and values(doc) == {"c0": want[0], "c1": want[1]},
           "%s: the exact least-squares solution of Python fractions "
           "(c0 = %s, c1 = %s)" % (f, want[0], want[1]),
           err if doc is None else doc["values"])
    same = got["noisy.txt"] and got["noisy.json"] and \
        [e["measured"] for e in got["noisy.txt"]["equations"]] == \
        [e["measured"] for e in got["noisy.json"]["equations"]]
    same = same and got["noisy_ids.json"] and \
        [e["measured"] for e in got["noisy.txt"]["equations"]] == \
        [e["measured"] for e in got["noisy_ids.json"]["equations"]]
    ok(bool(same), "noisy: the text file and both JSON formats give the "
       "same 30 measured values in the same order")
    t = got["noisy.txt"]
    if t:
        c0, c1 = want
        fitted = [c0 + c1 * x * (x.numerator.bit_length() - 1)
                  for x, v in text_rows(os.path.join(HERE, "noisy.txt"))]
        ok([F(e["fitted"]) for e in t["equations"]] == fitted,
           "noisy: every fitted value is c0 + c1*x*log2(x) exactly")

    # two parameters, named procs and n in the file
    for f in ("stencil.txt", "stencil.json", "stencil_ids.json"):
        doc, err = fit_json("--free", "a,b,c", "--column", "P=procs",
                            "--column", "N=n", "stencil.xml", f)
        ok(doc is not None and
           values(doc) == {"a": F(1, 4), "b": 2, "c": F(1, 1000)},
           "%s: a = 1/4, b = 2, c = 1/1000 from two parameters mapped "
           "with --column" % f, err)

    # eval --measured against the file's values
    rc, out, err = run("eval", "--json", "--measured", "nlogn.txt", *sel,
                       "--aggregate", "mean", "-D", "c0=3", "-D", "c1=1/2",
                       model)
    good = rc == 0
    if good:
        doc = json.loads(out)
        good = [F(r["x"]) for r in doc["rows"]] == [4, 8, 16, 32, 64, 128]
        good = good and all(r["total_relerr"] == "0" and
                            F(r["total"]) == 3 + F(r["x"]) *
                            (int(r["x"]).bit_length() - 1) / 2
                            for r in doc["rows"])
    ok(good, "eval --measured on an Extra-P file: the mean of every point "
       "equals 3 + x*log2(x)/2", err)

    # choosing the call path and metric
    rc, out, err = run("fit", "--free", "c0,c1", model, "nlogn.txt")
    ok(rc == 2 and "the file has 2 call paths ('main', 'main->init'): "
       "choose one with --callpath" in err and not out,
       "several call paths and none chosen: exit 2 listing them", err)
    rc, out, err = run("fit", "--free", "c0,c1", "--callpath", "main", model,
                       "nlogn.json")
    ok(rc == 2 and "the call path 'main' has 2 metrics ('time', 'visits')"
       in err, "several metrics and none chosen: exit 2 listing them", err)
    rc, out, err = run("fit", "--free", "c0,c1", "--callpath", "main",
                       "--metric", "tme", model, "nlogn.txt")
    ok(rc == 2 and "no metric 'tme' in the call path 'main'" in err,
       "an unknown metric: exit 2", err)
    doc, err = fit_json("--free", "c0", "-D", "c1=0", "--callpath",
                        "main->init", model, "nlogn.txt")
    ok(doc is not None and values(doc) == {"c0": 1},
       "--callpath main->init (its only metric): c0 = 1", err)

    # standard input and a forced format
    text = open(os.path.join(HERE, "noisy.txt")).read()
    rc, out, err = run("fit", "--json", "--free", "c0,c1", model, "-",
                       stdin=text)
    ok(rc == 0 and values(json.loads(out)) == {"c0": want[0],
                                               "c1": want[1]},
       "an Extra-P text file on standard input", err)
    rc, out, err = run("fit", "--free", "c0,c1", "--data-format", "csv",
                       model, "noisy.txt")
    ok(rc == 2 and out == "", "--data-format csv reads the text format as "
       "CSV and refuses it", err)

    errors(model)
    mutations(model, int(os.environ.get("EXTRAP_MUTATIONS", "100")))
    print("1..%d" % N)
    return 1 if FAILED else 0


def errors(model):
    """Hostile or broken files: exit 2 with FILE:LINE:COL, or 3 naming
    the limit, nothing on standard output."""
    cases = [
        ("bad.txt", "PARAMETER x\nPOINTS 1 2\nREGION r\nDATA 1\n",
         2, "bad.txt:4:1: error: 1 DATA line for the 2 points"),
        ("bad.txt", "PARAMETER x y\nPOINTS (1 2) (3)\nREGION r\nDATA 1\n",
         2, "bad.txt:2:16: error: fewer coordinates than parameters"),
        ("bad.txt", "PARAMETER x\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2 x\n",
         2, "bad.txt:5:8: error: the value 'x' is not a decimal number"),
        ("bad.txt", "PARAMETER x\nPOINTS 1\nRESULT 2\n",
         2, "bad.txt:3:1: error: expected PARAMETER, POINTS"),
        ("bad.txt", "PARAMETER x\nPOINTS 1\nREGION r\nDATA 1\nPARAMETER y\n",
         2, "bad.txt:5:1: error: PARAMETER after POINTS"),
        ("bad.txt", "PARAMETER x x\nPOINTS 1\n",
         2, "bad.txt:1:13: error: the parameter 'x' is named twice"),
        ("bad.json", '{"parameters": ["x"],\n "measurements": {"r": {"t": '
         '[{"point": [1], "values": [1,]}]}}}', 2,
         "bad.json:2:59: error: expected a value, found ']'"),
        ("bad.json", '{"parameters": ["x"], "parameters": ["y"]}', 2,
         "bad.json:1:1: error: the object has the key \"parameters\" twice"),
        ("bad.json", '{"parameters": ["x"], "measurements": {"r": {"t": '
         '[{"point": [1, 2], "values": [1]}]}}}', 2,
         "bad.json:1:62: error: \"point\" should be an array of 1 "
         "coordinate"),
        ("bad.json", '{"parameters": ["x"], "measurements": {"r": {"t": '
         '[{"point": ["1e"], "values": [1]}]}}}', 2,
         "bad.json:1:63: error: the coordinate '1e' is not a decimal number"),
        ("bad.json", '{"parameters": ["x"], "measurements": {"r\\ud800": 1}}',
         2, "bad.json:1:42: error: a high surrogate without its low one"),
        ("bad.json", '{"parameters": ["x"], "measurements": 1}', 2,
         "bad.json:1:39: error: \"measurements\" should be an object"),
        ("bad.json", '{"parameters": ["x"], "measurements": [1]}', 2,
         "bad.json:1:1: error: no \"callpaths\" here"),
        ("bad.json", '{"parameters": ["x"]} x', 2,
         "bad.json:1:23: error: more after the end of the document"),
        ("bad.json", '{"parameters": ["x\x01"]}', 2,
         "bad.json:1:19: error: a control character inside a string"),
        ("bad.json", '{"parameters": [{"id": 1, "name": "x"}], '
         '"callpaths": [{"id": 1, "name": "r"}], "metrics": [{"id": 1, '
         '"name": "t"}], "coordinates": [{"id": 1, '
         '"parameter_value_pairs": [{"parameter_id": 1, '
         '"parameter_value": 4}]}], "measurements": [{"callpath_id": 1, '
         '"coordinate_id": 2, "metric_id": 1, "value": 7}]}', 2,
         "bad.json:1:269: error: no object has this id (coordinate_id)"),
        ("bad.json", '{"parameters": [{"id": 1, "name": "x"}, {"id": 1, '
         '"name": "y"}], "callpaths": [], "metrics": [], "coordinates": '
         '[], "measurements": []}', 2,
         "bad.json:1:48: error: this id is given twice"),
        ("bad.json", "[" * 600 + "]" * 600, 3,
         "bad.json:1:513: error: arrays and objects nested deeper than 512 "
         "(max_depth)"),
        ("bad.json", '{"parameters": ["x"], "measurements": {"r": {"t": '
         '[{"point": [1], "values": [NaN]}]}}}', 2,
         "bad.json:1:78: error: expected a value, found 'N'"),
    ]
    with tempfile.TemporaryDirectory() as d:
        for name, text, code, want in cases:
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            p = subprocess.run([SEGC, "fit", "--free", "c0,c1",
                                os.path.join(HERE, model), name],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, cwd=d, timeout=60)
            ok(p.returncode == code and want in p.stderr and not p.stdout,
               "%s (exit %d): %s" % (name, code, want.split("error: ")[1]),
               "exit %d\n%s" % (p.returncode, p.stderr))


def mutations(model, count):
    """'count' files made from the test data by random edits (a fixed
    seed): bytes changed, cut or inserted, JSON and text tokens thrown
    in.  Each must end in exit 0, or 2 or 3 with a diagnostic and nothing
    on standard output: never a crash or a hang."""
    import random
    rnd = random.Random(2026)
    seeds = [open(os.path.join(HERE, f), "rb").read() for f in
             ("nlogn.txt", "nlogn.json", "stencil.txt", "stencil.json")]
    toks = [b"{", b"}", b"[", b"]", b'"', b"\\", b",", b":", b"\\u",
            b"\\ud800", b"1e99999999", b"-", b"(", b")", b"\n", b"\x00",
            b"\xff", b"PARAMETER x", b"POINTS", b"DATA", b"REGION",
            b"METRIC", b"9" * 60, b"[" * 700]
    bad = []
    with tempfile.TemporaryDirectory() as d:
        for i in range(count):
            b = bytearray(rnd.choice(seeds))
            for _ in range(rnd.randint(1, 6)):
                k, op = rnd.randrange(len(b) + 1), rnd.random()
                if op < 0.3 and len(b) > 1:
                    del b[k:k + rnd.randint(1, 20)]
                elif op < 0.6:
                    b[k:k] = rnd.choice(toks)
                elif k < len(b):
                    b[k] = rnd.randrange(256)
            f = os.path.join(d, "m%d" % i)
            with open(f, "wb") as out:
                out.write(b)
            try:
                p = subprocess.run([SEGC, "fit", "-q", "--free", "c0,c1",
                                    "--callpath", "main", "--metric",
                                    "time", os.path.join(HERE, model), f],
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=60)
                rc, out, err = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired:
                rc, out, err = "timeout", b"", b""
            if rc not in (0, 2, 3) or (rc != 0 and (out or
                                                   b"error:" not in err)):
                bad.append("%d: exit %s %s" % (i, rc, err[:120]))
    ok(not bad, "%d randomly edited experiments: exit 0, 2 or 3 with a "
       "diagnostic, never a crash" % count, "\n".join(bad[:10]))


if __name__ == "__main__":
    sys.exit(main())
