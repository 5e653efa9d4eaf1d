#!/usr/bin/env python3
"""make_extrap.py - writes the Extra-P experiments of tests/cli/extrap.sh,
in Extra-P's text and JSON formats, from known constants:

  nlogn.txt, nlogn.json   time = 3 + x*log2(x)/2 at x = 4..128, five
                          repetitions each, offset by -2d, -d, 0, d, 2d
                          (d = 1/100 of the value), so that every mean is
                          exact; a second call path and a second metric.
  noisy.txt, noisy.json   the same shape with pseudo-random noise (a fixed
                          linear congruential sequence, 4 decimals): the
                          fit is checked against exact least squares in
                          Python fractions.
  noisy_ids.json          the same in Extra-P's older JSON format of
                          numbered ids (ids out of order on purpose).
  stencil.txt, stencil.json, stencil_ids.json
                          time = 1/4 + 2*n/procs + n^2/1000 over
                          procs in 1, 2, 4, 8 and n in 10, 20, 40.
Run from this folder; the files are committed (the test does not run
this)."""
import json
from fractions import Fraction as F

XS = [4, 8, 16, 32, 64, 128]


def log2(x):
    return x.bit_length() - 1


def dec(q):
    """The exact decimal text of a rational whose denominator divides a
    power of ten."""
    q = F(q)
    s = "-" if q < 0 else ""
    q = abs(q)
    n, d = q.numerator, q.denominator
    k = 0
    while d * (10 ** k) % q.denominator or (n * 10 ** k) % d:
        k += 1
    v = n * 10 ** k // d
    t = str(v).rjust(k + 1, "0")
    return s + (t[:-k] + "." + t[-k:] if k else t)


def nlogn(x):
    return 3 + F(x * log2(x), 2)


def reps_exact(v):
    d = v / 100
    return [v - 2 * d, v - d, v, v + d, v + 2 * d]


def lcg(seed):
    while True:
        seed = (seed * 1103515245 + 12345) % 2 ** 31
        yield seed


def reps_noisy(v, gen):
    out = []
    for _ in range(5):
        r = F(next(gen) % 20001 - 10000, 10000)     # -1 .. 1, 4 decimals
        out.append(v + v * r / 50)                  # within 2 %
    return [F(dec(round(x * 10000) / F(10000))) for x in out]


def write_text(path, params, points, blocks, comment):
    with open(path, "w") as f:
        f.write("# %s\n" % comment)
        for p in params:
            f.write("PARAMETER %s\n" % p)
        f.write("\n")
        for pt in points:
            if len(params) == 1:
                f.write("POINTS %s\n" % pt[0])
            else:
                f.write("POINTS ( %s )\n" % " ".join(str(c) for c in pt))
        for region, metric, rows in blocks:
            f.write("\nREGION %s\n" % region)
            if metric is not None:
                f.write("METRIC %s\n" % metric)
            for vals in rows:
                f.write("DATA %s\n" % " ".join(dec(v) for v in vals))


def write_json(path, params, points, blocks, as_strings=False):
    meas = {}
    for region, metric, rows in blocks:
        lst = meas.setdefault(region, {}).setdefault(metric, [])
        for pt, vals in zip(points, rows):
            vs = [dec(v) if as_strings and i % 2 else float(dec(v))
                  for i, v in enumerate(vals)]
            lst.append({"point": list(pt), "values": vs})
    with open(path, "w") as f:
        json.dump({"parameters": params, "measurements": meas}, f, indent=1)
        f.write("\n")


def write_json_ids(path, params, points, blocks):
    """Extra-P's older JSON format: every object numbered, the
    measurements referring to the ids; ids given in an order of their
    own (parameters from 1, call paths from 7, coordinates backwards)."""
    callpaths = sorted({b[0] for b in blocks})
    metrics = sorted({b[1] for b in blocks})
    cid = {c: 7 + i for i, c in enumerate(callpaths)}
    mid = {m: 3 + i for i, m in enumerate(metrics)}
    kid = {pt: 100 - i for i, pt in enumerate(points)}
    meas = []
    for region, metric, rows in blocks:
        for pt, vals in zip(points, rows):
            for v in vals:
                meas.append({"callpath_id": cid[region],
                             "coordinate_id": kid[pt], "id": len(meas) + 1,
                             "metric_id": mid[metric],
                             "value": float(dec(v))})
    doc = {
        "callpaths": [{"id": cid[c], "name": c} for c in callpaths],
        "coordinates": [{"id": kid[pt], "parameter_value_pairs": [
            {"parameter_id": j + 1, "parameter_value": c}
            for j, c in reversed(list(enumerate(pt)))]} for pt in points],
        "measurements": meas,
        "metrics": [{"id": mid[m], "name": m} for m in metrics],
        "parameters": [{"id": j + 1, "name": p} for j, p in enumerate(params)],
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    pts = [(x,) for x in XS]
    main_rows = [reps_exact(nlogn(x)) for x in XS]
    init_rows = [[F(1), F(1)] for x in XS]
    visit_rows = [[F(x)] for x in XS]
    blocks = [("main", "time", main_rows), ("main", "visits", visit_rows),
              ("main->init", "time", init_rows)]
    write_text("nlogn.txt", ["x"], pts, blocks,
               "time = 3 + x*log2(x)/2, five repetitions at +-1 %, +-2 %")
    write_json("nlogn.json", ["x"], pts, blocks, as_strings=True)

    gen = lcg(2026)
    noisy = [reps_noisy(nlogn(x), gen) for x in XS]
    write_text("noisy.txt", ["x"], pts, [("sort", "time", noisy)],
               "time = 3 + x*log2(x)/2 with noise within 2 %")
    write_json("noisy.json", ["x"], pts, [("sort", "time", noisy)])
    write_json_ids("noisy_ids.json", ["x"], pts, [("sort", "time", noisy)])

    spts = [(p, n) for p in (1, 2, 4, 8) for n in (10, 20, 40)]
    srows = [[F(1, 4) + F(2 * n, p) + F(n * n, 1000)] * 2 for p, n in spts]
    write_text("stencil.txt", ["procs", "n"], spts,
               [("sweep", "time", srows)],
               "time = 1/4 + 2*n/procs + n^2/1000, two repetitions")
    write_json("stencil.json", ["procs", "n"], spts,
               [("sweep", "time", srows)])
    write_json_ids("stencil_ids.json", ["procs", "n"], spts,
                   [("sweep", "time", srows)])


if __name__ == "__main__":
    main()
