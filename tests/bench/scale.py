#!/usr/bin/env python3
"""scale.py - how segc's time and memory grow with the size of a graph.

Each family below is generated at three sizes a factor of 10 apart and run
once with segc (the command of the family) and with 'xmllint --noout' of the
same file; the table gives seconds and peak resident memory (getrusage of the
child) for both, and the growth exponent fitted by least squares to
log(time) against log(size).  Run by make bench, never by make check.

Usage: scale.py [--segc PATH] [--quick] [--timeout S] [FAMILY[=N1,N2,N3]]...
       scale.py --gen FAMILY N      (the document on standard output)
"""
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time


def head(out, params="", resources="t"):
    out.append('<model name="scale" version="1">')
    out.append(params)
    for r in resources.split():
        out.append('<resource name="%s"/>' % r)


def seq(n):
    """A graph of n steps in block form."""
    out = []
    head(out)
    out.append('<graph name="main">')
    out.extend('<step cost="%d*t"/>' % (i % 7 + 1) for i in range(n))
    out.append('</graph></model>')
    return out


def path(n):
    """A path of n nodes in arc form, numeric costs."""
    out = []
    head(out)
    out.append('<graph name="main">')
    out.extend('<node id="v%d" cost="%d"/>' % (i, i % 7 + 1) for i in range(n))
    out.extend('<arc from="v%d" to="v%d"/>' % (i, i + 1) for i in range(n - 1))
    out.append('</graph></model>')
    return out


def task(n, symbolic=False):
    """A layered task graph of about n nodes, layers of 8, each node feeding
    the node below it and one other node of the next layer, with a message
    cost on that arc; numeric costs, with 'symbolic' one node costs x."""
    rnd = random.Random(42)
    w = 8
    layers = max(1, (n - 2) // w)
    total = layers * w + 2
    out = []
    head(out, '<param name="x" min="0" max="10"/>' if symbolic else "")
    out.append('<graph name="main">')
    for i in range(total):
        cost = "x" if symbolic and i == total // 2 else str(rnd.randrange(1, 7))
        out.append('<node id="v%d" cost="%s" split="and" join="and"/>'
                   % (i, cost))
    out.extend('<arc from="v0" to="v%d"/>' % (1 + k) for k in range(w))
    for l in range(layers - 1):
        for k in range(w):
            u = 1 + l * w + k
            v1 = 1 + (l + 1) * w + k
            v2 = 1 + (l + 1) * w + (k + 1 + rnd.randrange(w - 1)) % w
            out.append('<arc from="v%d" to="v%d"/>' % (u, v1))
            out.append('<arc from="v%d" to="v%d" cost="%d"/>'
                       % (u, v2, rnd.randrange(1, 4)))
    out.extend('<arc from="v%d" to="v%d"/>' % (1 + (layers - 1) * w + k,
                                                total - 1) for k in range(w))
    out.append('</graph></model>')
    return out


def tasksym(n):
    return task(n, True)


def markov(n):
    """A chain of n or-nodes; every node but the first few goes back far
    (to its half) with probability 1/10."""
    out = []
    head(out)
    out.append('<graph name="main">')
    out.extend('<node id="v%d" cost="%d"/>' % (i, i % 7 + 1) for i in range(n))
    for i in range(n - 1):
        if i >= 4 and i % 2 == 0:
            out.append('<arc from="v%d" to="v%d" prob="1/10"/>' % (i, i // 2))
        out.append('<arc from="v%d" to="v%d"/>' % (i, i + 1))
    out.append('</graph></model>')
    return out


def nest(n):
    """n nested loops with counters, each from 1 to the enclosing counter
    (a triangular nest), a step at every level."""
    out = []
    head(out, '<param name="N" min="1"/>')
    out.append('<graph name="main">')
    out.extend('<loop var="i%d" from="1" to="%s"><step cost="t"/>'
               % (i, "N" if i == 0 else "i%d" % (i - 1)) for i in range(n))
    out.extend('</loop>' for i in range(n))
    out.append('</graph></model>')
    return out


def sp(n):
    """A random series-parallel program of about n steps: sequences,
    pars and branches nested at random, a random resource per step."""
    rnd = random.Random(42)
    res = "a b c d e f".split()
    out = []
    head(out, '<param name="n" min="0"/>', " ".join(res))
    out.append('<graph name="main">')
    budget = [n]

    def block(depth):
        k = 0 if budget[0] <= 1 or depth > 40 else rnd.randrange(4)
        if k == 0:
            budget[0] = max(0, budget[0] - 1)
            out.append('<step cost="%s"/>' % rnd.choice(res))
            return
        m = 2 + rnd.randrange(3)
        tag = ("seq", "par", "branch")[k - 1]
        out.append('<%s>' % tag)
        i = 0
        while i < m and budget[0]:
            if k == 3:
                out.append('<case prob="1/%d">' % m if i + 1 < m else '<case>')
            block(depth + 1)
            if k == 3:
                out.append('</case>')
            i += 1
        if k == 3 and i < m:
            out.append('<case></case>')
        out.append('</%s>' % tag)

    while budget[0]:
        block(0)
    out.append('</graph></model>')
    return out


def overlap(n):
    """An overlapped loop of n iterations over a path of n nodes, each of
    its own symbolic cost and waiting for itself one iteration back (a
    pipeline)."""
    out = []
    head(out, '<param name="x" min="1" max="2"/>')
    out.append('<graph name="main">')
    out.extend('<node id="v%d" cost="%d*x + %d" join="and"/>'
               % (i, i % 3 + 1, i % 5) for i in range(n))
    out.extend('<arc from="v%d" to="v%d"/>' % (i, i + 1) for i in range(n - 1))
    out.extend('<arc from="v%d" to="v%d" forward="1"/>' % (i, i)
               for i in range(n))
    out.append('<arc from="v%d" to="v0" loop="%d" overlap="true"/>'
               % (n - 1, n))
    out.append('</graph></model>')
    return out


def indexed(n):
    """An indexed family of n instances (P, bound by -D) between plain
    nodes, evaluated."""
    out = []
    head(out, '<param name="P" min="1"/>')
    out.append('<graph name="main">')
    out.append('<node id="s" cost="1"/><node id="u" cost="2"/>')
    out.append('<node id="cell" cost="1 + x - 2*floor(x/2)" index="x=1..P"/>')
    out.append('<node id="w" cost="3"/><node id="e" cost="1"/>')
    out.append('<arc from="s" to="u"/><arc from="u" to="cell" at="1"/>')
    out.append('<arc from="cell" to="cell" at="x+1" cost="1"/>')
    out.append('<arc from="cell" to="w"/><arc from="w" to="e"/>')
    out.append('</graph></model>')
    return out


def wide(n):
    """A model of one step; its measurements (wide_csv) have n columns."""
    out = []
    head(out, '<param name="n" min="1"/>')
    out.append('<graph name="main"><step cost="n*t"/></graph></model>')
    return out


TMP = [tempfile.gettempdir()]


def wide_csv(n):
    """A CSV of n columns (n, time and n - 2 others, all named) and
    three rows, written beside the model; the arguments that read it."""
    f = os.path.join(TMP[0], "wide.csv")
    names = ["n", "time"] + ["c%d" % i for i in range(n - 2)]
    with open(f, "w") as fp:
        fp.write(",".join(names) + "\n")
        for r in range(1, 4):
            fp.write(",".join([str(r), str(r)] + ["0"] * (n - 2)) + "\n")
    return ["--measured", f, "-D", "t=1"]


# family: (generator, segc arguments, sizes, extra arguments given n)
FAMILIES = {
    "seq": (seq, ["derive"], [10**4, 10**5, 10**6], None),
    # the same checked only: its peak is the lowering of the checks
    "seq-validate": (seq, ["validate"], [10**4, 10**5, 10**6], None),
    # the same up to 10^7 steps (190 MB), past the default max_file_bytes
    # and max_nodes
    "seq-huge": (seq, ["derive"], [10**5, 10**6, 10**7],
                 lambda n: ["--limit", "max_file_bytes=%d" % (20 * n + 4096),
                            "--limit", "max_nodes=%d" % (2 * n + 16)]),
    "path": (path, ["validate"], [10**3, 10**4, 10**5], None),
    "path-derive": (path, ["derive"], [10**3, 10**4, 10**5], None),
    # path and task graph up to 10^6 nodes (past the default max_nodes)
    "path-big": (path, ["derive"], [10**4, 10**5, 10**6],
                 lambda n: ["--limit", "max_nodes=%d" % (2 * n + 16)]),
    "task-big": (task, ["derive"], [10**4, 10**5, 10**6],
                 lambda n: ["--limit", "max_file_bytes=%d" % (200 * n),
                            "--limit", "max_nodes=%d" % (2 * n + 16)]),
    "task": (task, ["derive"], [10**3, 10**4, 10**5], None),
    "tasksym": (tasksym, ["derive"], [10**3, 10**4, 10**5], None),
    "markov": (markov, ["derive"], [10**2, 10**3, 10**4], None),
    "nest": (nest, ["derive"], [15, 50, 150], None),
    # deeper, up to the degree max_sum_degree allows, where the start of
    # the process no longer hides the growth
    "nest-deep": (nest, ["derive"], [50, 100, 200], None),
    "sp": (sp, ["derive"], [10**3, 10**4, 10**5], None),
    "overlap": (overlap, ["derive"], [10, 100, 1000], None),
    "indexed": (indexed, ["eval"], [10**3, 10**4, 10**5],
                lambda n: ["-D", "P=%d" % n]),
    # a CSV header of n columns read by eval --measured
    "csv": (wide, ["eval"], [3 * 10**3, 3 * 10**4, 3 * 10**5], wide_csv),
}


def measured(cmd, timeout):
    """Runs cmd in a fresh Python child that reports its own child's peak."""
    code = ("import resource,subprocess,sys,time\n"
            "t=time.monotonic()\n"
            "try:\n"
            " p=subprocess.run(sys.argv[2:],stdout=subprocess.DEVNULL,"
            "stderr=subprocess.DEVNULL,timeout=float(sys.argv[1]))\n"
            " rc=p.returncode\n"
            "except subprocess.TimeoutExpired:\n"
            " rc='t/o'\n"
            "d=time.monotonic()-t\n"
            "u=resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(d,u.ru_maxrss/1024.0,rc,u.ru_utime+u.ru_stime)\n")
    try:
        p = subprocess.run([sys.executable, "-c", code, str(timeout)] + cmd,
                           stdout=subprocess.PIPE, timeout=timeout + 5)
    except subprocess.TimeoutExpired:
        return timeout, float("nan"), "t/o", timeout
    if p.returncode != 0:
        return timeout, float("nan"), "t/o", timeout
    d, mb, rc, cpu = p.stdout.decode().split()
    return float(d), float(mb), rc, float(cpu)


def slope(xs, ys):
    """The least-squares slope of log y against log x."""
    pts = [(math.log(x), math.log(max(y, 1e-3))) for x, y in zip(xs, ys)]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else 0.0


def main(argv):
    segc = os.environ.get("SEGC", "segc")
    timeout = 120.0
    todo = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--segc":
            segc = argv[i + 1]
            i += 1
        elif a == "--timeout":
            timeout = float(argv[i + 1])
            i += 1
        elif a == "--quick":
            timeout = 30.0
        elif a == "--gen":
            sys.stdout.write("\n".join(FAMILIES[argv[i + 1]][0](
                int(argv[i + 2]))) + "\n")
            return 0
        else:
            todo.append(a)
        i += 1
    if not todo:
        todo = list(FAMILIES)
    print("%-12s %8s %10s %4s %8s %8s %8s %8s %8s %8s" % (
        "family", "size", "bytes", "rc", "wall s", "cpu s", "MB",
        "xml wall", "xml cpu", "xml MB"))
    with tempfile.TemporaryDirectory() as tmp:
        TMP[0] = tmp
        for spec in todo:
            name, _, sizes = spec.partition("=")
            gen, args, default, extra = FAMILIES[name]
            sizes = [int(s) for s in sizes.split(",")] if sizes else default
            ns, ts = [], []
            for n in sizes:
                f = os.path.join(tmp, "m.xml")
                with open(f, "w") as fp:
                    fp.write("\n".join(gen(n)) + "\n")
                cmd = [segc] + args + (extra(n) if extra else []) + [f]
                d, mb, rc, cpu = measured(cmd, timeout)
                xd, xmb, _, xcpu = measured(["xmllint", "--noout", f],
                                            timeout)
                print("%-12s %8d %10d %4s %8.3f %8.3f %8.1f %8.3f %8.3f %8.1f"
                      % (name, n, os.path.getsize(f), rc, d, cpu, mb, xd,
                         xcpu, xmb), flush=True)
                if rc == "0":
                    ns.append(n)
                    ts.append(cpu)
            if len(ns) >= 2:
                print("%-12s growth exponent (cpu) %.2f"
                      % (name, slope(ns, ts)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
