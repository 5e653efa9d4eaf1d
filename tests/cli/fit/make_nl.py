#!/usr/bin/env python3
"""make_nl.py - the data of the nonlinear fits of tests/cli/fit.sh,
computed with exact fractions independently of segc, and the reference
least-squares solutions of the noisy data by Gauss-Newton in Python's
decimal arithmetic (60 digits), which the test holds to 12 digits.

  latbw.csv        lat + bytes/bw, lat = 0.00002, bw = 125000000, exact
  latbw_noisy.csv  the same times with deterministic noise of up to 1
                   percent, rounded to 6 significant digits
  maxab.csv        max(a*N, b*P), a = 0.003, b = 0.5, exact; rows where
                   each part is the larger

Run it from this directory: python3 make_nl.py
"""
from fractions import Fraction as F
from decimal import Decimal as D, getcontext

getcontext().prec = 60
LAT, BW = F("0.00002"), F(125000000)
SIZES = [0, 64, 512, 1024, 4096, 8192, 65536, 262144, 1048576]
state = 20261124


def rnd():
    """A deterministic uniform number in [0, 1) (64-bit LCG)."""
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return F(state >> 11, 2**53)


def dec(q):
    """The exact decimal text of a fraction whose denominator divides 10^k."""
    k = 0
    while (q * 10**k).denominator != 1:
        k += 1
    return format(D((q * 10**k).numerator).scaleb(-k), "f")


def gauss_newton(rows, f, grad, x, relative):
    """Least squares of sum w^2 (y - f)^2 (w = 1 or 1/y) by Gauss-Newton
    in decimal, until the step is below 1e-45 relative."""
    for _ in range(100):
        A = [[D(0)] * 2 for _ in range(2)]
        g = [D(0)] * 2
        for p, y in rows:
            w = 1 / y if relative else D(1)
            r = w * (y - f(p, x))
            j = [w * d for d in grad(p, x)]
            for a in range(2):
                g[a] += j[a] * r
                for b in range(2):
                    A[a][b] += j[a] * j[b]
        det = A[0][0] * A[1][1] - A[0][1] * A[1][0]
        d = [(A[1][1] * g[0] - A[0][1] * g[1]) / det,
             (A[0][0] * g[1] - A[1][0] * g[0]) / det]
        x = [x[0] + d[0], x[1] + d[1]]
        if all(abs(d[k]) <= abs(x[k]) * D("1e-45") for k in range(2)):
            return x
    raise SystemExit("no convergence")


def latbw(p, x):
    return x[0] + p / x[1]


def latbw_grad(p, x):
    return [D(1), -p / (x[1] * x[1])]


def main():
    with open("latbw.csv", "w") as out:
        out.write("# lat + bytes/bw, lat = 0.00002 s, bw = 125000000 B/s\n")
        out.write("bytes,time\n")
        for b in SIZES:
            out.write("%d,%s\n" % (b, dec(LAT + b / BW)))
    rows = []
    with open("latbw_noisy.csv", "w") as out:
        out.write("# the times of latbw.csv with up to 1% noise, 6 digits\n")
        out.write("bytes,time\n")
        for b in SIZES:
            for _ in range(2):
                t = (LAT + b / BW) * (1 + (rnd() - F(1, 2)) / 50)
                t = D(format(float(t), ".6g"))
                rows.append((D(b), t))
                out.write("%d,%s\n" % (b, format(t, "f")))
    with open("maxab.csv", "w") as out:
        out.write("# max(a*N, b*P), a = 0.003, b = 0.5\n")
        out.write("N,P,time\n")
        for N, P in [(100, 1), (1000, 2), (4000, 4), (10, 8), (50, 16),
                     (2000, 32), (300, 2)]:
            out.write("%d,%d,%s\n" % (N, P, dec(max(F("0.003") * N,
                                                    F("0.5") * P))))
    for rel in (False, True):
        x = gauss_newton(rows, latbw, latbw_grad, [D("2e-5"), D("1.2e8")],
                         rel)
        print("relative" if rel else "absolute", "lat = %.20e" % x[0],
              "bw = %.20e" % x[1])


main()
