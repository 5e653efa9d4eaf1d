#!/usr/bin/env python3
"""bench_emit_sympy.py - the emitted predictor against SymPy's horner()
printed by ccode(), on the dense polynomial of the bench anchors (degrees
0..9 in N, -2..6 in P, 0..1 in t: 180 terms, coefficients
(7i + 3j + 11k + 1)/(j + 5)), in one run: nanoseconds per call and the
largest error in ulp of each (against the exact value, computed with
fractions and rounded once), the segc scalar function, its array form
(NAME_total_n) per point, and SymPy's Horner form; then the checks of
doc/emit.md: plain at most 1.2x SymPy-Horner's time, the array form at
least 2x faster per point than the scalar function.

Usage: bench_emit_sympy.py SEGC CC WORKDIR.  Exit 0 when both hold, 1
when one does not, 77 when SymPy is missing."""
import os
import struct
import subprocess
import sys
from fractions import Fraction

NPTS = 1024
REPS = 2000


def terms():
    """The terms (coefficient, i, j, k) of the polynomial."""
    for i in range(10):
        for j in range(-2, 7):
            for k in range(2):
                yield Fraction(7 * i + 3 * j + 11 * k + 1, j + 5), i, j, k


def points():
    """The points (N, P, t): N up to 10^6, P up to 1024, t in [1/2, 2]."""
    pts = []
    for m in range(NPTS):
        n = float(1 + (m * 7919) % 1000000)
        p = float(1 + (m * 37) % 1024)
        t = 0.5 + (m % 97) / 64.0
        pts.append((n, p, t))
    return pts


def exact(n, p, t):
    """The value at (n, p, t) rounded once from its exact value."""
    n, p, t = Fraction(n), Fraction(p), Fraction(t)
    return float(sum(c * n ** i * p ** j * t ** k for c, i, j, k in terms()))


def ulps(a, b):
    """The distance of two positive doubles in units in the last place."""
    x = struct.unpack('<q', struct.pack('<d', a))[0]
    y = struct.unpack('<q', struct.pack('<d', b))[0]
    return abs(x - y)


def model_xml():
    """The polynomial as the cost of one step of a model."""
    poly = ' + '.join('%d/%d*N^%d*P^%d*t^%d' % (c.numerator, c.denominator,
                                               i, j, k)
                      for c, i, j, k in terms())
    return ('<model name="dense" version="1">\n  <param name="t"/>\n'
            '  <graph name="main">\n    <step cost="%s"/>\n'
            '  </graph>\n</model>\n' % poly)


def sympy_c():
    """SymPy's horner() of the polynomial, printed by ccode()."""
    import sympy
    N, P, t = sympy.symbols('N P t')
    e = sum(sympy.Rational(c.numerator, c.denominator) * N ** i * P ** (j + 2)
            * t ** k for c, i, j, k in terms())
    h = sympy.horner(sympy.expand(e), N, P, t)
    return ('#include <math.h>\ndouble sympy_total(double N, double P, '
            'double t);\ndouble sympy_total(double N, double P, double t)\n'
            '{\n\treturn (%s) / (P * P);\n}\n' % sympy.ccode(h))


HARNESS = r'''
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include "seg.h"
double sympy_total(double N, double P, double t);
#define NPTS %d
#define REPS %d
static double now(void)
{
	struct timespec s;

	clock_gettime(CLOCK_MONOTONIC, &s);
	return s.tv_sec * 1e9 + s.tv_nsec;
}
int main(void)
{
	static double N[NPTS], P[NPTS], T[NPTS], out[NPTS];
	double acc = 0, t0, t1, t2, t3, best[3] = { 1e300, 1e300, 1e300 };
	volatile double sink;
	int i, r, round;

	for (i = 0; i < NPTS; i++)
		if (scanf("%%la %%la %%la", &N[i], &P[i], &T[i]) != 3)
			return 2;
	for (round = 0; round < 5; round++) {
		t0 = now();
		for (r = 0; r < REPS; r++)
			for (i = 0; i < NPTS; i++)
				acc += seg_total(N[i], P[i], T[i]);
		t1 = now();
		for (r = 0; r < REPS; r++) {
			seg_total_n(NPTS, N, P, T, out);
			acc += out[r %% NPTS];
		}
		t2 = now();
		for (r = 0; r < REPS; r++)
			for (i = 0; i < NPTS; i++)
				acc += sympy_total(N[i], P[i], T[i]);
		t3 = now();
		if (t1 - t0 < best[0]) best[0] = t1 - t0;
		if (t2 - t1 < best[1]) best[1] = t2 - t1;
		if (t3 - t2 < best[2]) best[2] = t3 - t2;
	}
	sink = acc;
	(void)sink;
	printf("ns %%.3f %%.3f %%.3f\n", best[0] / (REPS * (double)NPTS),
		best[1] / (REPS * (double)NPTS), best[2] / (REPS * (double)NPTS));
	seg_total_n(NPTS, N, P, T, out);
	for (i = 0; i < NPTS; i++)
		printf("%%a %%a %%a\n", seg_total(N[i], P[i], T[i]), out[i],
			sympy_total(N[i], P[i], T[i]));
	return 0;
}
''' % (NPTS, REPS)


def main():
    """Runs the benchmark; see the top of the file."""
    segc, cc, work = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        import sympy  # noqa: F401
    except ImportError:
        print('bench_emit_sympy: SymPy is not installed: skipped')
        return 77
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, 'dense.xml'), 'w') as f:
        f.write(model_xml())
    subprocess.run([segc, 'emit', '-q', '--keep', 't', '-o',
                    os.path.join(work, 'seg'), os.path.join(work, 'dense.xml')],
                   check=True)
    with open(os.path.join(work, 'sympy.c'), 'w') as f:
        f.write(sympy_c())
    with open(os.path.join(work, 'harness.c'), 'w') as f:
        f.write(HARNESS)
    flags = os.environ.get('BENCH_CFLAGS', '-O3 -march=native').split()
    subprocess.run(cc.split() + ['-std=c99', '-D_POSIX_C_SOURCE=200809L'] +
                   flags + ['-o', os.path.join(work, 'h'),
                            os.path.join(work, 'harness.c'),
                            os.path.join(work, 'seg.c'),
                            os.path.join(work, 'sympy.c'), '-lm'], check=True)
    pts = points()
    data = ''.join('%s %s %s\n' % (n.hex(), p.hex(), t.hex())
                   for n, p, t in pts)
    out = subprocess.run([os.path.join(work, 'h')], input=data,
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    ns = [float(x) for x in lines[0].split()[1:]]
    worst = [0, 0, 0]
    for (n, p, t), line in zip(pts, lines[1:]):
        want = exact(n, p, t)
        got = [float.fromhex(x) for x in line.split()]
        worst = [max(w, ulps(g, want)) for w, g in zip(worst, got)]
    print('dense polynomial, 180 terms, %d points (%s):' % (NPTS,
                                                          ' '.join(flags)))
    print('  segc plain       %7.2f ns/call  max %d ulp' % (ns[0], worst[0]))
    print('  segc array (_n)  %7.2f ns/point max %d ulp' % (ns[1], worst[1]))
    print('  SymPy horner()   %7.2f ns/call  max %d ulp' % (ns[2], worst[2]))
    ok = True
    if ns[0] > 1.2 * ns[2]:
        print('  FAIL: plain %.2f ns > 1.2 x SymPy-Horner %.2f ns'
              % (ns[0], ns[2]))
        ok = False
    else:
        print('  plain / SymPy-Horner = %.2f (at most 1.2)' % (ns[0] / ns[2]))
    if ns[1] * 2 > ns[0]:
        print('  FAIL: array %.2f ns/point is not 2x faster than %.2f ns'
              % (ns[1], ns[0]))
        ok = False
    else:
        print('  scalar / array = %.2f (at least 2)' % (ns[0] / ns[1]))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
