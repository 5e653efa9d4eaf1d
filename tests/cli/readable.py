# readable.py - exact evaluation of formulas in the expression language
# (Python fractions) for tests/cli/readable.sh, and the oracles of its
# models: literal loops and longest paths, written from the models'
# graphs.  Usage: python3 readable.py CASE FORMULA-FILE; prints one line
# "RESULT 0|1 NAME" per check.
import ast, itertools, math, re, sys
from fractions import Fraction as F


def ev(text, env):
    text = re.sub(r'\bif\(', 'if_(', text.replace('^', '**'))
    text = text.replace(' and ', ' & ').replace(' or ', ' | ')
    return E(ast.parse(text, mode='eval').body, env)


def E(n, env):
    if isinstance(n, ast.Constant):
        return F(n.value)
    if isinstance(n, ast.Name):
        return env[n.id]
    if isinstance(n, ast.UnaryOp):
        v = E(n.operand, env)
        return -v if isinstance(n.op, ast.USub) else v
    if isinstance(n, ast.BinOp):
        if isinstance(n.op, (ast.BitAnd, ast.BitOr)):
            a, b = E(n.left, env), E(n.right, env)
            return (a and b) if isinstance(n.op, ast.BitAnd) else (a or b)
        a, b = E(n.left, env), E(n.right, env)
        if isinstance(n.op, ast.Pow):
            assert b.denominator == 1
            return a ** int(b)
        return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b,
                ast.Mult: lambda: a * b, ast.Div: lambda: a / b}[
            type(n.op)]()
    if isinstance(n, ast.Compare):
        a, b = E(n.left, env), E(n.comparators[0], env)
        return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b,
                ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}[
            type(n.ops[0])]
    assert isinstance(n, ast.Call), ast.dump(n)
    f = n.func.id
    if f == 'sum':
        var = n.args[0].id
        lo, hi = E(n.args[1], env), E(n.args[2], env)
        total = F(0)
        for i in range(math.ceil(lo), math.floor(hi) + 1):
            total += E(n.args[3], dict(env, **{var: F(i)}))
        return total
    if f == 'if_':
        return E(n.args[1], env) if E(n.args[0], env) else E(n.args[2], env)
    if f == 'taskpath':
        return taskpath(n.args, env)
    if f == 'maxplusv':
        return maxplusv(n.args, env)
    a = [E(x, env) for x in n.args]
    if f == 'max':
        return max(a)
    if f == 'min':
        return min(a)
    if f == 'ceil':
        return F(math.ceil(a[0]))
    if f == 'floor':
        return F(math.floor(a[0]))
    if f == 'log2' and a[0].denominator == 1 and a[0] > 0 and \
            a[0] == 2 ** (int(a[0]).bit_length() - 1):
        return F(int(a[0]).bit_length() - 1)
    raise ValueError('no exact value for ' + f)


def head(n):
    """The name and the argument nodes of a node's head: v or v(a, ...)."""
    if isinstance(n, ast.Name):
        return n.id, []
    return n.func.id, n.args


def taskpath(args, env):
    """The readable text of a longest path (doc/format.md): every
    instance of every node, every arc between instances, and the longest
    path from the entry to the exit, costs of nodes and arcs included;
    an instance no arc leads to starts at 0."""
    nodes, arcs = {}, []
    for a in args[2:]:
        if a.func.id == 'node':
            nodes[a.args[0].id] = a.args[1:]
        else:
            arcs.append(a.args)
    inst = {}
    for name, na in nodes.items():
        tuples = [{}]
        for k in range(0, len(na) - 1, 3):
            idx = na[k].id
            tuples = [dict(t, **{idx: F(x)}) for t in tuples
                      for x in range(int(E(na[k + 1], dict(env, **t))),
                                     int(E(na[k + 2], dict(env, **t))) + 1)]
        inst[name] = {tuple(t[na[k].id] for k in range(0, len(na) - 1, 3)):
                      E(na[-1], dict(env, **t)) for t in tuples}
    into = {}
    for a in arcs:
        src, sidx = head(a[0])
        dst, at = head(a[1])
        for st in inst[src]:
            b = dict(env, **{x.id: st[k] for k, x in enumerate(sidx)})
            c = E(a[2], b) if len(a) > 2 else F(0)
            targets = [tuple(E(x, b) for x in at)] if at else list(inst[dst])
            for t in targets:
                if t in inst[dst]:
                    into.setdefault((dst, t), []).append(((src, st), c))
    fin = {}

    def finish(v):
        if fin.get(v, 0) is None:
            raise ValueError('the arcs make a cycle at %s' % (v,))
        if v not in fin:
            fin[v] = None
            fin[v] = inst[v[0]][v[1]] + max(
                [F(0)] + [finish(u) + c for u, c in into.get(v, [])])
        return fin[v]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    return finish((args[1].id, ()))


def maxplusv(args, env):
    """The readable text of a recurrence (doc/format.md): in iteration
    i = 1 .. n every node finishes at its cost plus the latest of 0 and
    of the finish times of its sources (d iterations back for v(i - d))
    plus the arc's cost; the value is the last node's finish in
    iteration n (0 for n = 0)."""
    it, n = args[0].id, int(E(args[1], env))
    nodes = [a.args for a in args[2:] if a.func.id == 'node']
    arcs = [a.args for a in args[2:] if a.func.id == 'arc']
    fin = {}
    for i in range(1, n + 1):
        b = dict(env, **{it: F(i)})
        for name, cost in nodes:
            t = F(0)
            for a in arcs:
                if a[1].id != name.id:
                    continue
                src, back = head(a[0])
                d = i - int(E(back[0], b)) if back else 0
                if i - d >= 1:
                    t = max(t, fin[src, i - d] +
                            (E(a[2], b) if len(a) > 2 else F(0)))
            fin[name.id, i] = E(cost, b) + t
    return fin[nodes[-1][0].id, n] if n else F(0)


def stencil(v):
    # K sweeps: N*N updates of 5/P flops, a halo, a loop from 2 to P.
    t = F(0)
    for _ in range(int(v['K'])):
        for _ in range(int(v['N'])):
            for _ in range(int(v['N'])):
                t += F(5) / v['P'] * v['t_flop']
        t += 2 * v['t_lat'] + 2 * v['N'] * v['t_word']
        for _ in range(2, int(v['P']) + 1):
            t += v['t_sync']
    return t


def retry(v):
    # expected sends of a geometric retry: sum over k of f^k, closed.
    sends = 1 / (1 - v['f'])
    task = (v['t_hand'] + sends * v['t_send'] + (sends - 1) * v['t_back']
            + v['h1'] * v['t_s'] + (v['h2'] - v['h1']) * v['t_m']
            + (1 - v['h2']) * v['t_l'])
    return v['T'] * task + v['t_collect']


def wavefront(v):
    # the longest path through the W x D grid, cell by cell.
    W, D = int(v['W']), int(v['D'])
    fin = {}
    for x in range(1, W + 1):
        for y in range(1, D + 1):
            start = v['s'] if (x, y) == (1, 1) else F(0)
            if x > 1:
                start = max(start, fin[x - 1, y] + v['mx'])
            if y > 1:
                start = max(start, fin[x, y - 1] + v['my'])
            fin[x, y] = start + v['c']
    return max(fin.values())


def sums(v):
    # 2*N/P flops, a loop of N of 1/P, a loop from 1 to N - B of 2*t.
    t = 2 * v['N'] / v['P'] * v['t_flop']
    for _ in range(1, int(v['N']) + 1):
        t += v['t_flop'] / v['P']
    for _ in range(1, int(v['N'] - v['B']) + 1):
        t += 2 * v['t']
    return t


def sweep(v):
    # blocked_sweep.xml: k from 1 to N/B (not an integer in general).
    t = F(0)
    for _ in range(1, math.floor(v['N'] / v['B']) + 1):
        t += (v['B'] * v['t_work'] + math.ceil(v['B'] / F(8)) * v['t_chunk']
              + v['t_msg'])
    return t + (v['N'] - v['B'] * math.floor(v['N'] / v['B'])) * v['t_work']


CASES = {
    'stencil': (stencil, dict(N=[1, 3, 4], P=[1, 2, 5], K=[1, 2],
                              t_flop=[F(1, 3)], t_lat=[F(2)],
                              t_word=[F(1, 7)], t_sync=[F(5, 2)])),
    'retry': (retry, dict(T=[1, 4], f=[F(0), F(1, 3)], h1=[F(1, 5)],
                          h2=[F(1, 2), F(9, 10)], t_hand=[F(1)],
                          t_send=[F(3)], t_back=[F(1, 2)], t_s=[F(2)],
                          t_m=[F(7)], t_l=[F(11)], t_collect=[F(5)])),
    'wavefront': (wavefront, dict(W=[1, 2, 5], D=[1, 3], s=[F(4)],
                                  c=[F(1, 2)], mx=[F(0), F(3)],
                                  my=[F(5, 4)])),
    'sums': (sums, dict(N=[1, 4, 9], P=[1, 3], B=[0, 2, 7, 12],
                        t_flop=[F(1, 3)], t=[F(5)])),
    'sweep': (sweep, dict(N=[1, 7, 16], B=[1, 2, 3, 5], t_work=[F(1, 3)],
                          t_chunk=[F(2)], t_msg=[F(5, 7)])),
}

def main():
    name = sys.argv[1]
    formula = open(sys.argv[2]).read().split('\n')[0]
    oracle, grid = CASES[name]
    keys = sorted(grid)
    bad = None
    n = 0
    for vals in itertools.product(*(grid[k] for k in keys)):
        v = {k: F(x) for k, x in zip(keys, vals)}
        n += 1
        got, want = ev(formula, v), oracle(v)
        if got != want and bad is None:
            bad = '%s: %s gives %s, the oracle %s' % (name, v, got, want)
    if bad:
        print('# ' + bad)
    print('RESULT %d %s: the readable form equals the oracle at %d points'
          % (bad is not None, name, n))


if __name__ == '__main__':
    main()
