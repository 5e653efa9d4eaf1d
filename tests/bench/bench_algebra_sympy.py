#!/usr/bin/env python3
"""The four algebra workloads of tests/bench/bench_algebra.c done with
SymPy, for comparison: expand, gcd, canonical form of a long sum, closed
form of a sum.  Prints the time of each and the peak resident size."""
import resource
import sys
import time

import sympy as sp


def report(name, seconds, extra=""):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print("%-44s %9.4f s  peak RSS %d kB  %s" % (name, seconds, peak, extra))
    sys.stdout.flush()


def main():
    x = sp.symbols("x1:9")
    t = time.perf_counter()
    e = sp.expand((sum(x) + 1) ** 8)
    report("expand (x1+...+x8+1)^8", time.perf_counter() - t,
           "%d terms" % len(e.args))

    g = sp.expand((x[0] + x[1] + x[2] + x[3] + 1) ** 4)
    a = sp.expand((x[0] * x[1] + x[2] + x[3] ** 2 + x[4] + x[5] + 2) ** 3)
    b = sp.expand((x[0] + x[4] * x[5] + 3 * x[6] + x[7] + x[1] ** 2 + 5) ** 3)
    ag, bg = sp.expand(a * g), sp.expand(b * g)
    t = time.perf_counter()
    r = sp.gcd(ag, bg)
    report("gcd(A*G, B*G)", time.perf_counter() - t,
           "%d terms" % len(sp.Add.make_args(r)))

    x1, x2, x3 = x[0], x[1], x[2]
    terms = [sp.Rational(i % 97 + 1, i % 13 + 1) * x1 ** (i % 50)
             * x2 ** ((i // 50) % 40) * x3 ** ((i // 2000) % 7)
             for i in range(100000)]
    t = time.perf_counter()
    s = sp.Add(*terms)
    report("canonical form of the 10^5-term sum", time.perf_counter() - t,
           "%d terms" % len(s.args))

    k, n = sp.symbols("k N")
    body = sum(sp.Rational(j + 1, 3) * k ** j for j in range(11))
    t = time.perf_counter()
    c = sp.expand(sp.summation(body, (k, 1, n)))
    report("closed form of sum(k,1,N, sum_j (j+1)/3 k^j)",
           time.perf_counter() - t, "%d terms" % len(c.args))


if __name__ == "__main__":
    main()
