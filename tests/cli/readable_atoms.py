# readable_atoms.py - the readable text of the graph atoms taskpath(...)
# and maxplusv(...) evaluated exactly in Python fractions (readable.py:
# every instance and arc, the longest path; every iteration of the
# recurrence), against the value segc gives the atom with every name
# bound ('derive -D ...').  Usage: python3 readable_atoms.py MODEL
# FORMULA-FILE NAME=V1,V2,... ...; prints one line "RESULT 0|1 ...".
import itertools, os, subprocess, sys
from fractions import Fraction as F
import readable


def main():
    model, formula = sys.argv[1], open(sys.argv[2]).read().split('\n')[0]
    grid = [(a.split('=')[0], a.split('=')[1].split(','))
            for a in sys.argv[3:]]
    bad, n = None, 0
    for vals in itertools.product(*(g[1] for g in grid)):
        v = {k: F(x) for (k, _), x in zip(grid, vals)}
        cmd = [os.environ['SEGC'], 'derive']
        for k, x in sorted(v.items()):
            cmd += ['-D', '%s=%s' % (k, x)]
        out = subprocess.run(cmd + [model], capture_output=True, text=True)
        want = F(out.stdout.strip()) if out.returncode == 0 else None
        try:
            got = readable.ev(formula, v)
        except ValueError as e:
            got = str(e)
        n += 1
        if got != want and bad is None:
            bad = 'at %s the text gives %s, segc %s' % (v, got, want)
    if bad:
        print('# ' + bad)
    print('RESULT %d %s: the text evaluated in Python equals segc at %d '
          'points' % (bad is not None, os.path.basename(model), n))


if __name__ == '__main__':
    main()
