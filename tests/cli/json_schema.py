#!/usr/bin/env python3
"""json_schema.py - the --json documents of derive, fit, eval, optimize,
solve, whatif, sensitivity and check: each parsed with Python's json
module and its keys checked, in order, against the tables of doc/json.md
(read from the file); the values checked against the text output of the
same command and against exact values computed here with Python
fractions (least squares' residuals and R^2, brute-force optima, roots
put back into the equation, speedups, derivatives); the same bytes on
two runs; model text with quotes, backslashes and control characters
escaped.  Prints TAP."""
import json
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction as F

SEGC = os.environ["SEGC"]
TOP = os.environ["top_srcdir"]
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


def path(*p):
    return os.path.join(TOP, *p)


def run(*args):
    p = subprocess.run([SEGC] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def schema():
    """{command: {section: [keys in order]}} from doc/json.md: the first
    table of '## `segc CMD --json`' under '', each '### `NAME`' table
    under NAME; a table row's first cell lists one or more `keys`."""
    out, cmd, sub = {}, None, None
    for line in open(path("doc", "json.md")):
        m = re.match(r"## `segc (\w+) --json`", line)
        if m:
            cmd, sub = m.group(1), ""
            out[cmd] = {}
            continue
        m = re.match(r"### `([\w.]+)`", line)
        if m and cmd:
            sub = m.group(1)
            continue
        if cmd is None or not line.startswith("| `"):
            continue
        first = line.split("|")[1]
        out[cmd].setdefault(sub, []).extend(re.findall(r"`(\w+)`", first))
    return out


SCHEMA = schema()


def keys_ok(name, obj, keys):
    ok(isinstance(obj, dict) and list(obj) == keys,
       "%s: the keys of doc/json.md, in order" % name,
       "got %s\nwant %s" % (list(obj) if isinstance(obj, dict) else obj,
                            keys))


def document(name, args, cmd, raw=False):
    """The parsed document of 'segc CMD --json ARGS' (numbers kept as
    their text when 'raw'), its keys checked, and the same bytes on a
    second run; None when it failed."""
    rc, out, err = run(cmd, "--json", *args)
    rc2, out2, _ = run(cmd, "--json", *args)
    if rc > 1 or not out:
        ok(False, "%s: %s --json runs" % (name, cmd), err)
        return None
    try:
        doc = json.loads(out, parse_float=str if raw else float)
    except ValueError as e:
        ok(False, "%s: the output parses as JSON" % name, str(e))
        return None
    ok(out == out2 and rc == rc2, "%s: the same bytes on two runs" % name)
    keys_ok(name, doc, SCHEMA[cmd][""])
    return doc


def each_keys(name, items, keys):
    bad = [list(i) for i in items if list(i) != keys]
    ok(not bad, "%s: every element has the keys of doc/json.md" % name,
       "got %s\nwant %s" % (bad[:1], keys))


def exact_beside(name, obj, key):
    """'key' exact and 'key_decimal' within 1e-15 relative of it."""
    v, d = obj[key], obj[key + "_decimal"]
    return v is None and d is None or (
        v is not None and abs(float(F(v)) - d) <= 1e-15 * max(1, abs(d)))


# ---------------------------------------------------------------- checks

def check_derive():
    doc = document("derive", [path("xml", "find_max.xml")], "derive")
    if doc:
        each_keys("derive names", doc["names"], SCHEMA["derive"]["names"])
        rc, out, _ = run("derive", path("xml", "find_max.xml"))
        ok(doc["total"] == out.strip(), "derive: total as derive prints it")


def check_fit():
    model, data = path("data", "fit", "pingpong.xml"), path("data", "fit",
                                                           "pingpong.csv")
    doc = document("fit", ["--free", "lat,gap", model, data], "fit")
    if not doc:
        return
    sch = SCHEMA["fit"]
    each_keys("fit values", doc["values"], sch["values"])
    each_keys("fit equations", doc["equations"], sch["equations"])
    keys_ok("fit max_relative_error", doc["max_relative_error"],
            sch["max_relative_error"])
    keys_ok("fit r2", doc["r2"], sch["r2"])
    rc, text, _ = run("fit", "--free", "lat,gap", model, data)
    shown = dict(re.findall(r"^(\w+) = (\S+)", text, re.M))
    ok(all(F(shown[v["name"]]) == F(v["value"]) for v in doc["values"]),
       "fit: the values the text prints", text)
    eqs = doc["equations"]
    m = [F(e["measured"]) for e in eqs]
    f = [F(e["fitted"]) for e in eqs]
    ok(all(F(e["residual"]) == a - b for e, a, b in zip(eqs, m, f)) and
       all(F(e["relative"]) == (a - b) / a for e, a, b in zip(eqs, m, f)
           if a),
       "fit: residual = measured - fitted, relative = residual/measured, "
       "exactly")
    # the fitted values reproduce 'fitted': lat + bytes*gap at each row
    vals = {v["name"]: F(v["value"]) for v in doc["values"]}
    rows = [l.split(",") for l in open(data) if l[0].isdigit()]
    pred = [vals["lat"] + F(r[0]) * vals["gap"] for r in rows]
    ok(pred == f, "fit: every fitted value is lat + bytes*gap with the "
       "fitted values (Python fractions)")
    mean = sum(m) / len(m)
    r2 = 1 - sum((a - b) ** 2 for a, b in zip(m, f)) / \
        sum((a - mean) ** 2 for a in m)
    ok(F(doc["r2"]["value"]) == r2 and exact_beside("r2", doc["r2"],
                                                    "value"),
       "fit: R^2 = 1 - SS_res/SS_tot computed from the equations (%s)" %
       float(r2))
    rel = max(abs((a - b) / a) for a, b in zip(m, f) if a)
    ok(F(doc["max_relative_error"]["value"]) == rel,
       "fit: the largest relative error is the largest of the equations")
    ok(all(exact_beside("fit", e, k) for e in eqs
           for k in ("measured", "fitted", "residual", "relative")),
       "fit: every _decimal is its exact value to 17 digits")


def table_cells(text):
    lines = [l.split() for l in text.strip().splitlines()]
    return lines[0], lines[1:]


def check_eval():
    nc, m = path("xml", "machines", "ncube2.xml"), path("xml", "cg_tree.xml")
    args = ["-m", nc, m, "N=10,1000", "P=1,4,6"]
    doc = document("eval", args, "eval", raw=True)
    if not doc:
        return
    rc, text, _ = run("eval", *args)
    head, rows = table_cells(text)
    ok(doc["columns"] == head, "eval: the columns of the text table")
    ok(all(list(r) == [k for c in head for k in (c, c + "_decimal")]
           for r in doc["rows"]),
       "eval: each row has C and C_decimal for every column C, in order")
    ok(all(F(cell) == F(str(r[c + "_decimal"]))
           for r, t in zip(doc["rows"], rows) for c, cell in zip(head, t)),
       "eval: every _decimal is the number of the text table's cell")
    ok(all(abs(float(F(r[c])) / float(F(cell)) - 1) < 1e-5
           for r, t in zip(doc["rows"], rows) for c, cell in zip(head, t)
           if r[c] is not None and F(cell) != 0),
       "eval: every exact value rounds to the text's cell")
    good = True
    for r in doc["rows"]:
        t1 = [F(s["total"]) for s in doc["rows"]
              if s["N"] == r["N"] and s["P"] == "1"][0]
        sp = t1 / F(r["total"])
        good &= F(r["speedup"]) == sp and F(r["efficiency"]) == \
            sp / F(r["P"])
    ok(good, "eval: speedup = T(P=1)/T and efficiency = speedup/P, "
       "exactly from the totals")
    # a model with a log2: exact where log2 is, null elsewhere
    nl = path("tests", "cli", "extrap", "nlogn.xml")
    doc = document("eval log2", ["-D", "c0=3", "-D", "c1=1/2", nl,
                                 "x=1..8"], "eval")
    if doc:
        want = {1: F(3), 2: F(4), 4: F(7), 8: F(15)}
        got = {int(r["x"]): r["total"] for r in doc["rows"]}
        ok(all(got[x] is None if x not in want else F(got[x]) == want[x]
               for x in got),
           "eval: 3 + x*log2(x)/2 exact at x = 1, 2, 4, 8 and null (not "
           "rational) at 3, 5, 6, 7", got)


def T_block(B, t_work=F(3), t_msg=F(7), N=100):
    return B * t_work + F(N) * t_msg / B


def check_optimize():
    bs = path("tests", "cli", "models", "blocksize.xml")
    doc = document("optimize", ["--min", "total", "--over", "B=1..1000", bs,
                                "t_work=3", "t_msg=7", "N=100"], "optimize")
    if not doc:
        return
    best = min(range(1, 1001), key=lambda B: (T_block(B), B))
    ok(doc["best"] == str(best) and F(doc["value"]) == T_block(best),
       "optimize: B = %d, T = %s by brute force over 1..1000" %
       (best, T_block(best)), doc)
    rc, text, _ = run("optimize", "--min", "total", "--over", "B=1..1000",
                      bs, "t_work=3", "t_msg=7", "N=100")
    ok(text.startswith("B = %s\n" % doc["best"]) and
       ("candidates compared: " + ", ".join(doc["candidates"])) in text,
       "optimize: the best and the candidates of the text", text)
    sw = path("tests", "cli", "models", "blocked_sweep.xml")
    doc = document("optimize scan", ["--min", "total", "--over", "B=1..300",
                                     sw, "t_work=1", "t_chunk=5",
                                     "t_msg=40", "N=1000"], "optimize")
    if doc:
        def T(B):
            nb = 1000 // B
            return nb * (B + -(-B // 8) * 5 + 40) + (1000 - B * nb)
        best = min(range(1, 301), key=lambda B: (T(B), B))
        ok(doc["method"] == "scan" and doc["best"] == str(best) and
           F(doc["value"]) == T(best),
           "optimize: a scan, B = %d by brute force" % best, doc)


def check_solve():
    bs = path("tests", "cli", "models", "blocksize.xml")
    doc = document("solve", ["--for", "B", "--in", "1..100", "total = 100",
                             bs, "t_work=3", "t_msg=7", "N=100"], "solve")
    if doc:
        each_keys("solve roots", doc["roots"], SCHEMA["solve"]["roots"])
        roots = [F(r["value"]) for r in doc["roots"]]
        # 3B + 700/B = 100: 3B^2 - 100B + 700 = 0, B = 10 or 70/3
        ok(roots == [10, F(70, 3)] and all(T_block(r) == 100 for r in roots)
           and all(r["exact"] for r in doc["roots"]),
           "solve: the roots 10 and 70/3, each put back exactly", doc)
    doc = document("solve irrational", ["--for", "B", "--in", "1..100",
                                        "total = 93", bs, "t_work=3",
                                        "t_msg=7", "N=100"], "solve")
    if doc:
        # 3B^2 - 93B + 700 = 0
        d = 93 ** 2 - 12 * 700
        want = sorted([(93 - d ** 0.5) / 6, (93 + d ** 0.5) / 6])
        ok([r["exact"] for r in doc["roots"]] == [False, False] and
           all(abs(r["decimal"] - w) < 1e-12 * w
               for r, w in zip(doc["roots"], want)),
           "solve: irrational roots rounded, beside (93 -+ sqrt(249))/6")
    sw = path("tests", "cli", "models", "blocked_sweep.xml")
    doc = document("solve scan", ["--for", "B", "--in", "1..100",
                                  "total = 2045", sw, "t_work=1",
                                  "t_chunk=5", "t_msg=40", "N=1000"],
                   "solve")
    if doc:
        def T(B):
            nb = 1000 // B
            return nb * (B + -(-B // 8) * 5 + 40) + (1000 - B * nb)
        zeros = [str(B) for B in range(1, 101) if T(B) == 2045]
        cross = [{"from": str(B), "to": str(B + 1)} for B in range(1, 100)
                 if (T(B) - 2045) * (T(B + 1) - 2045) < 0]
        ok(doc["method"] == "scan" and
           [r["value"] for r in doc["roots"]] == zeros and
           doc["crossings"] == cross,
           "solve: a scan finds the %d integers and %d crossings of a "
           "brute force" % (len(zeros), len(cross)), doc)


def check_whatif():
    bs = path("tests", "cli", "models", "blocksize.xml")
    doc = document("whatif", ["--scale", "t_msg=1/2", "--scale",
                              "class:comp=2", bs, "N=100", "t_work=3",
                              "t_msg=7", "B=5,10"], "whatif")
    if not doc:
        return
    each_keys("whatif scenarios", doc["scenarios"],
              SCHEMA["whatif"]["scenarios"])
    good = len(doc["scenarios"]) == 2
    for sc, (fw, fm) in zip(doc["scenarios"], [(1, F(1, 2)), (2, 1)]):
        for row in sc["table"]:
            B = F(row["B"])
            before, after = T_block(B), B * 3 * fw + 700 * fm / B
            good &= F(row["T_before"]) == before and \
                F(row["T_after"]) == after and \
                F(row["speedup"]) == before / after and \
                list(row)[-6:] == [k for c in SCHEMA["whatif"]["table"]
                                   for k in [c]]
    ok(good, "whatif: T_before, T_after and the speedup of both scenarios "
       "at B = 5, 10, exactly", doc)


def check_sensitivity():
    bs = path("tests", "cli", "models", "blocksize.xml")
    doc = document("sensitivity", [bs, "B=10", "N=100", "t_work=3",
                                   "t_msg=7"], "sensitivity")
    if not doc:
        return
    sch = SCHEMA["sensitivity"]
    each_keys("sensitivity names", doc["names"], sch["names"])
    pt = doc["points"][0]
    keys_ok("sensitivity points", pt, ["at", "total", "total_decimal",
                                       "names"])
    each_keys("sensitivity points.names", pt["names"], sch["points.names"])
    B, Nn, tw, tm = F(10), F(100), F(3), F(7)
    T = B * tw + Nn * tm / B
    d = {"B": tw - Nn * tm / B ** 2, "N": tm / B, "t_msg": Nn / B,
         "t_work": B}
    x = {"B": B, "N": Nn, "t_msg": tm, "t_work": tw}
    got = {n["name"]: (F(n["derivative"]), F(n["elasticity"]))
           for n in pt["names"]}
    ok(F(pt["total"]) == T and
       got == {k: (d[k], x[k] * d[k] / T) for k in d},
       "sensitivity: derivatives and elasticities of B*t_work + N*t_msg/B "
       "at the point, by hand", got)


def check_check():
    fm = path("xml", "find_max.xml")
    doc = document("check", [fm], "check")
    if doc:
        ok(doc["results"] == [{"verdict": "ok", "component": "total",
                               "source": "Papaefstathiou et al. 1994, eq. "
                               "1"}] and doc["all_hold"],
           "check: ok with its source", doc)
    rc, out, err = run("check", "--json", "--expect", "N_element*t_if", fm)
    rc2, text, _ = run("check", "--expect", "N_element*t_if", fm)
    if rc != 1:
        ok(False, "check: a mismatch exits 1 with its document", err)
        return
    doc = json.loads(out)
    r = doc["results"][0]
    keys_ok("check results", r, SCHEMA["check"]["results"])
    keys_ok("check witness", r["witness"], SCHEMA["check"]["witness"])
    pt = {p["name"]: F(p["value"]) for p in r["witness"]["point"]}
    derived = pt["t_assign"] + pt["N_element"] * (
        pt["t_loop"] + pt["t_if"] + pt["P_max"] * pt["t_assign"])
    ok(rc2 == 1 and r["verdict"] == "MISMATCH" and not doc["all_hold"] and
       F(r["witness"]["derived_there"]) == derived and
       F(r["witness"]["expected_there"]) == pt["N_element"] * pt["t_if"] and
       ("derived:  " + r["derived"]) in text.replace("derived:   ",
                                                      "derived:  "),
       "check: MISMATCH, the witness values put back into both formulas",
       out + text)
    # escaping: a source with quotes, a backslash, a tab and a newline
    src = open(fm).read().replace(
        'source="Papaefstathiou et al. 1994, eq. 1"',
        'source="say &quot;hi&quot; \\ tab&#9;nl&#10;end &lt;&#1;&gt;"')
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "esc.xml")
        open(p, "w").write(src)
        rc, out, err = run("check", "--json", p)
    try:
        got = json.loads(out)["results"][0]["source"]
    except (ValueError, KeyError, IndexError):
        got = None
    if "&#1;" in src and rc == 2:
        # XML 1.0 refuses U+0001: then without it
        src = src.replace("&#1;", "")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "esc.xml")
            open(p, "w").write(src)
            rc, out, err = run("check", "--json", p)
        got = json.loads(out)["results"][0]["source"] if rc == 0 else None
        want = 'say "hi" \\ tab\tnl\nend <>'
    else:
        want = 'say "hi" \\ tab\tnl\nend <\x01>'
    ok(got == want and "\\u0009" in out and "\\u000a" in out,
       "check: a source with quotes, a backslash, a tab and a newline "
       "escaped and read back", "%r\n%s" % (got, err))


def main():
    for cmd in ("derive", "fit", "eval", "optimize", "solve", "whatif",
                "sensitivity", "check"):
        ok(cmd in SCHEMA and SCHEMA[cmd].get(""),
           "doc/json.md documents the keys of %s --json" % cmd)
    check_derive()
    check_fit()
    check_eval()
    check_optimize()
    check_solve()
    check_whatif()
    check_sensitivity()
    check_check()
    rc, out, err = run("eval", "--json", "--csv", path("xml", "find_max.xml"),
                       "N_element=1")
    ok(rc == 2 and not out and "--json" in err,
       "eval --json --csv: a usage error", err)
    print("1..%d" % N)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
