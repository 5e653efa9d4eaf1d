#!/usr/bin/env python3
"""make_data.py - writes the bundled measurements of doc/fit.md, computed
with exact fractions independently of segc, and prints the least-squares
solutions that the tests hold (tests/cli/fit.sh).

  seismic_phase2.csv        Armstrong & Eigenmann eqs. 2-4 with the phase-2
                            constants of Table 6, exactly, on a grid
  seismic_phase2_noisy.csv  the same times with deterministic noise of up
                            to 2 percent, rounded to 6 significant digits
  pingpong.csv              a ping-pong microbenchmark (Simon & Wierum
                            eq. 1, lat + bytes*gap, Parsytec GC Table 1:
                            lat = 16800 cycles, gap = 220/8 cycles a byte,
                            cycle = 12.5 ns) with up to 1 percent noise

Run it from this directory: python3 make_data.py
"""
from fractions import Fraction as F
from decimal import Decimal

TABLE6 = {"C_comm_start": F("3.18e-4"), "C_comm_trans": F("6.62e-7"),
          "C_rd_start": F("8.58e-5"), "C_wr_start": F("3.04e-3"),
          "C_mem_trans": F("4.40e-8")}
NAMES = list(TABLE6)

state = 20260101


def rnd():
    """A deterministic uniform number in [0, 1) (64-bit LCG)."""
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return F(state >> 11, 2**53)


def decimal_text(q):
    """The exact decimal of a fraction whose denominator divides 10^k."""
    k = 0
    while (q * 10**k).denominator != 1:
        k += 1
        assert k < 60
    d = Decimal((q * 10**k).numerator).scaleb(-k)
    return format(d, "f")


def round6(q):
    """q rounded to 6 significant digits (a measurement)."""
    return F(format(float(q), ".6g"))


def seismic_rows():
    """The grid: the parameter values of each row."""
    rows = []
    for P in (2, 4, 8, 16):
        for k in range(6):
            rows.append({"P": P, "Its": 10 + 5 * k,
                         "T_it_comp": F(12 + k, 10),
                         "X_msgs": 1 + (k * P) % 5,
                         "Sz_msgs": 4096 * (1 + k) // P,
                         "X_rds": 2 + k % 3, "Sz_rds": 1000 * (1 + (k + P) % 4),
                         "X_wrs": 1 + (k + 1) % 2,
                         "Sz_wrs": 2000 * (1 + (k * 3 + P) % 5)})
    return rows


def seismic_times(r, c):
    """comp, comm, io of eqs. 2-4 at row r with constants c."""
    comp = r["Its"] * r["T_it_comp"]
    comm = r["Its"] * (r["P"] - 1) * r["X_msgs"] * (
        c["C_comm_start"] + c["C_comm_trans"] * r["Sz_msgs"])
    io = r["Its"] * (r["X_rds"] * (c["C_rd_start"] + c["C_mem_trans"] * r["Sz_rds"])
                     + r["X_wrs"] * (c["C_wr_start"] + c["C_mem_trans"] * r["Sz_wrs"]))
    return comp, comm, io


def seismic_equations(r):
    """The coefficient rows of comm and io in the five constants."""
    comm = [r["Its"] * (r["P"] - 1) * r["X_msgs"],
            r["Its"] * (r["P"] - 1) * r["X_msgs"] * r["Sz_msgs"], 0, 0, 0]
    io = [0, 0, r["Its"] * r["X_rds"], r["Its"] * r["X_wrs"],
          r["Its"] * (r["X_rds"] * r["Sz_rds"] + r["X_wrs"] * r["Sz_wrs"])]
    return comm, io


def solve(rows):
    """Least squares over Q: the normal equations by Gauss-Jordan."""
    n = len(rows[0][0])
    g = [[sum(a[i] * a[j] for a, _ in rows) for j in range(n)]
         + [sum(a[i] * y for a, y in rows)] for i in range(n)]
    for k in range(n):
        p = next(i for i in range(k, n) if g[i][k] != 0)
        g[k], g[p] = g[p], g[k]
        for i in range(n):
            if i != k and g[i][k] != 0:
                f = g[i][k] / g[k][k]
                g[i] = [x - f * y for x, y in zip(g[i], g[k])]
    return [g[i][n] / g[i][i] for i in range(n)]


def write_seismic():
    cols = ["P", "Its", "T_it_comp", "X_msgs", "Sz_msgs", "X_rds",
            "Sz_rds", "X_wrs", "Sz_wrs"]
    rows = seismic_rows()
    exact, noisy, eqs = [], [], []
    for r in rows:
        t = seismic_times(r, TABLE6)
        cells = [decimal_text(F(r[c])) for c in cols]
        exact.append(cells + [decimal_text(x) for x in t])
        m = [round6(x * (1 + (rnd() - F(1, 2)) / 25)) for x in t]
        noisy.append(cells + [decimal_text(x) for x in m])
        a_comm, a_io = seismic_equations(r)
        eqs.append((a_comm, m[1]))
        eqs.append((a_io, m[2]))
    head = ",".join(cols + ["comp", "comm", "io"])
    with open("seismic_phase2.csv", "w") as f:
        f.write("# SPECseis96 phase 2 (xml/seismic.xml), times in seconds made\n"
                "# exactly from Armstrong & Eigenmann Table 6 (make_data.py)\n")
        f.write(head + "\n" + "".join(",".join(c) + "\n" for c in exact))
    with open("seismic_phase2_noisy.csv", "w") as f:
        f.write("# the times of seismic_phase2.csv, each times 1 + e with e\n"
                "# deterministic in [-2%, 2%), rounded to 6 digits (make_data.py)\n")
        f.write(head + "\n" + "".join(",".join(c) + "\n" for c in noisy))
    return solve(eqs)


def write_pingpong():
    cycle = F("12.5e-9")
    lat, gap = 16800 * cycle, F(220, 8) * cycle
    rows, eqs = [], []
    for k in range(13):
        b = 2**k if k else 0
        for _ in range(2):
            t = round6((lat + b * gap) * (1 + (rnd() - F(1, 2)) / 50))
            rows.append("%d,%s\n" % (b, decimal_text(t)))
            eqs.append(([1, b], t))
    with open("pingpong.csv", "w") as f:
        f.write("# ping-pong times (s) of messages of 'bytes' bytes, two runs\n"
                "# a size, up to 1% noise around 16800 + 27.5*bytes cycles of\n"
                "# 12.5 ns (Simon & Wierum Table 1; make_data.py)\n")
        f.write("bytes,time\n" + "".join(rows))
    return solve(eqs)


if __name__ == "__main__":
    for name, x in zip(NAMES, write_seismic()):
        print("seismic noisy %s = %s ~ %.15g" % (name, x, x))
    for name, x in zip(["lat", "gap"], write_pingpong()):
        print("pingpong %s = %s ~ %.15g" % (name, x, x))
