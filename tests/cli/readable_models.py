# readable_models.py - oracles for the models of tests/cli/readable_models.sh
# (tests/cli/models/readable_*.xml), written from their graphs as literal
# loops and longest paths in Python fractions, never from segc's formulas.
#   python3 readable_models.py text CASE FILE
#       evaluates the formula on the first line of FILE (the expression
#       language, readable.py's evaluator) at the points of CASE;
#   python3 readable_models.py points CASE MODEL FORM...
#       runs '$SEGC derive --form FORM -D ...' at the points of CASE (every
#       name bound, so segc prints the exact number) for each FORM.
# Each prints "RESULT 0|1 NAME" lines for relay_results.
import itertools, math, os, subprocess, sys
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readable  # noqa: E402  (its evaluator and the first oracles)


def log2(x):
    k = int(x).bit_length() - 1
    assert x == 2 ** k, 'log2 of a non-power in a test point'
    return F(k)


def resources(v):
    t = F(0)
    for _ in range(int(v['It'])):
        t += 2 * v['nz'] * v['t_flop'] + 3 * v['nz'] * v['t_ld']
        for _ in range(2):
            t += 2 * v['N'] / v['P'] * v['t_flop']
            t += log2(v['P']) * (v['t_lat'] + v['t_word'])
        for _ in range(3):
            t += 2 * v['N'] / v['P'] * v['t_flop']
    return t


def convolution(v):
    t = F(0)
    load = v['h'] * v['t_hit'] + (1 - v['h']) * v['t_miss']
    for _ in range(1, math.floor(v['N'] / v['P']) + 1):
        for _ in range(1, int(v['N']) + 1):
            for _ in range(int(v['K'] * v['K'])):
                t += v['t_madd'] + load
    for _ in range(2):
        t += v['t_lat'] + (v['K'] - 1) / 2 * v['N'] * v['t_word']
    return t


def cholesky_nb(v, nb):
    t = F(0)
    b3 = v['B'] ** 3 * v['t']
    for k in range(1, nb + 1):
        t += b3 / 3
        for _ in range(k + 1, nb + 1):
            t += b3
        for j in range(k + 1, nb + 1):
            for _ in range(j, nb + 1):
                t += 2 * b3
    return t


def cholesky(v):
    return cholesky_nb(v, math.floor(v['N'] / v['B']))


def cholesky_lets(v):
    return cholesky_nb(v, int(v['nb']))


def lu_panel(v):
    t = F(0)
    N, B, X = v['N'], v['B'], v['X']
    for i in range(1, math.ceil(N / B) + 1):
        nx = math.ceil((N - B * (i - 1)) / (X * B))
        t += nx * B ** 2 * v['t_madd'] + B * v['t_msg']
        t += nx * (N - B * i) * B ** 2 * v['t_madd']
    return t


def taskgraph(v):
    W = int(v['W'])
    worker = {x: v['s'] + v['c'] + x * v['d'] for x in range(1, W + 1)}
    reduce_ = {}
    for x, f in worker.items():
        y = math.ceil(F(x, 2))
        reduce_[y] = max(reduce_.get(y, F(0)), f + v['m'])
    reduce_ = {y: s + v['r'] for y, s in reduce_.items()}
    return max(reduce_.values()) + v['g']


CASES = {
    'resources': (resources, dict(N=[1, 6, 10], P=[1, 2, 8], It=[1, 3],
                                  nz=[F(0), F(7, 2)], t_flop=[F(1, 3)],
                                  t_ld=[F(2)], t_lat=[F(5)],
                                  t_word=[F(1, 8)])),
    'convolution': (convolution, dict(N=[1, 5, 8], P=[1, 2, 3],
                                      K=[1, 3], h=[F(0), F(9, 10)],
                                      t_madd=[F(1, 2)], t_hit=[F(1)],
                                      t_miss=[F(20)], t_lat=[F(3)],
                                      t_word=[F(1, 4)])),
    'cholesky': (cholesky, dict(N=[1, 4, 7, 12], B=[1, 2, 5],
                                t=[F(1, 7)])),
    'cholesky_lets': (cholesky_lets, dict(nb=[1, 2, 5], B=[1, 3],
                                          t=[F(1, 7)])),
    'lu_panel': (lu_panel, dict(N=[1, 7, 16, 23], B=[1, 2, 5], X=[1, 2, 3],
                                t_madd=[F(1, 3)], t_msg=[F(4)])),
    'taskgraph': (taskgraph, dict(W=[1, 2, 5, 8], s=[F(1)], c=[F(2)],
                                  d=[F(0), F(1, 3)], m=[F(3, 2)],
                                  r=[F(1)], g=[F(5)])),
}
CASES.update(readable.CASES)


def points(case):
    oracle, grid = CASES[case]
    keys = sorted(grid)
    for vals in itertools.product(*(grid[k] for k in keys)):
        yield oracle, {k: F(x) for k, x in zip(keys, vals)}


def text(case, path):
    formula = open(path).read().split('\n')[0]
    bad, n = None, 0
    for oracle, v in points(case):
        n += 1
        got, want = readable.ev(formula, v), oracle(v)
        if got != want and bad is None:
            bad = '%s: at %s the formula gives %s, the oracle %s' % (
                case, v, got, want)
    if bad:
        print('# ' + bad)
    print('RESULT %d %s: the formula equals the oracle at %d points'
          % (bad is not None, case, n))


def derived(model, form, v):
    cmd = [os.environ['SEGC'], 'derive', '--form', form]
    for k, x in sorted(v.items()):
        cmd += ['-D', '%s=%s' % (k, x)]
    out = subprocess.run(cmd + [model], capture_output=True, text=True)
    if out.returncode:
        return 'exit %d: %s' % (out.returncode, out.stderr.strip())
    try:
        return F(out.stdout.strip())
    except ValueError:
        return 'not a number: ' + out.stdout.strip()


def derive_points(case, model, forms):
    for form in forms:
        bad, n = None, 0
        for oracle, v in points(case):
            n += 1
            got, want = derived(model, form, v), oracle(v)
            if got != want and bad is None:
                bad = '%s %s: at %s derive gives %s, the oracle %s' % (
                    case, form, v, got, want)
        if bad:
            print('# ' + bad)
        print('RESULT %d %s: derive --form %s equals the oracle at %d '
              'points' % (bad is not None, case, form, n))


if __name__ == '__main__':
    if sys.argv[1] == 'text':
        text(sys.argv[2], sys.argv[3])
    else:
        derive_points(sys.argv[2], sys.argv[3], sys.argv[4:])
