"""lu_float.py - a plain simulation in floats of the blocked LU model
(xml/lu_blocked.xml on xml/machines/parsytec_gc.xml): the time stamps of
its task graph propagated block step by block step and column by column,
as one would write it by hand in Python; the anchor 'segc eval' is timed
against in tests/bench/eval_lu.sh.  The same formulas as the exact
simulation of tests/cli/lu_blocked.sh (eqs. 3-8, Tables 1 and 2), in
floats.  Prints the total time and the CPU seconds of the simulation
alone (after the interpreter has started).
    python3 lu_float.py N B X Y [REPEAT]"""
import sys
import time

def simulate(N, B, X, Y, beta=1.0):
    alpha, p = 0.5, 2
    cyc = 12.5e-9
    add, madd, ld_c, st_c = cyc, 2 * cyc, 0.46 * cyc, 3 * cyc
    ld_m, st_m = 2.5 * cyc, 8.5 * cyc
    gap, lat, ts = 220 * cyc, 16800 * cyc, 800000 * cyc
    eta = lat

    def cdiv(a, b):
        return -((-a) // b)

    def blk(nx, ny):
        tp = (B**3 * ny * nx * madd
              + B**2 * ny * (cdiv(B, 2) * nx - 1 + (cdiv(B, 12) - 1) * nx)
              * ld_c + B**2 * ny * (cdiv(B, 12) - 1) * nx * st_c) / p
        tm = (B**2 * ny * nx * ld_m + B**2 * ny * nx * st_m) / p
        r = tm
        for q in range(1, p):
            r = (1 + q * r / (tp + r)) * tm
        return tp + r

    nb = cdiv(N, B)
    dist = (Y * Y - 1) / (3 * Y)
    clog2 = (Y - 1).bit_length()
    pg = 2 * clog2 * (lat + 2 * gap)
    panel_end = 0.0
    upd = [0.0] * (nb + 1)      # finish of the elimination block k started
    total = 0.0
    for i in range(1, nb + 1):
        rem = N - B * (i - 1)
        nx = cdiv(rem, X * B)
        update_row = alpha * blk(nx, 1)
        cx = cdiv(B * (i - 1), X)
        c1 = cx * (ld_c + st_c)
        sr = gap * cx + eta * dist + beta * ts / 3
        rx = cdiv(rem, X)
        c2 = rx * (ld_c + st_c)
        exch = (1 - 1 / Y) * (lat + gap * rx) + eta * dist
        t = max(panel_end, upd[i - 2] if i > 2 else 0.0)
        for j in range(1, min(B, rem) + 1):
            g = t + cdiv(rem - j + 1, Y) * (ld_m + add) + pg
            u = g + update_row + c2 + (j - 1) * rx * madd
            s = g + c1 + sr
            t = (u if u > s else s) + exch
        panel_end = t
        rem1 = N - B * i
        cost = blk(cdiv(rem1, X * B), cdiv(rem1, Y * B)) if rem1 > 0 else 0.0
        upd[i] = max(panel_end, upd[i - 1] if i > 1 else 0.0) + cost
        total = max(total, panel_end, upd[i])
    return total

if __name__ == "__main__":
    N, B, X, Y = (int(a) for a in sys.argv[1:5])
    repeat = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    t0 = time.process_time()
    for _ in range(repeat):
        v = simulate(N, B, X, Y)
    print("%.12g %.6f" % (v, (time.process_time() - t0) / repeat))
