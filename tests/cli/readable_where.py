"""readable_where.py - puts the "where" definitions that 'segc derive
--where' prints under a formula back in place of their names, by text
(each use NAME(a, b) or NAME replaced by its definition in parentheses,
the counters of the definition renamed to the arguments of the use),
until no name is left; prints the formula so expanded.  Written apart
from segc, so that 'segc check --expect' can judge the result.

Usage: readable_where.py expand FILE    (the output of derive --where)
       readable_where.py names FILE     (the names defined, one a line)
"""
import re
import sys


def read_defs(lines):
    """The formula (first line) and the definitions (name, args, body)."""
    formula = lines[0]
    defs = []
    for line in lines[1:]:
        if not line.strip():
            continue
        lhs, body = line.split(" = ", 1)
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:\((.*)\))?", lhs)
        if not m:
            raise SystemExit("bad definition: " + line)
        args = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
        defs.append((m.group(1), args, body))
    return formula, defs


def rename(body, formal, actual):
    """'body' with the names 'formal' replaced at once by 'actual'."""
    if formal == actual:
        return body
    table = dict(zip(formal, actual))
    return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b",
                  lambda m: table.get(m.group(0), m.group(0)), body)


def expand(formula, defs):
    """'formula' with every defined name replaced, repeatedly."""
    for _ in range(100):
        before = formula
        for name, args, body in defs:
            if args:
                pat = re.compile(r"\b" + re.escape(name) + r"\(([^()]*)\)")
                formula = pat.sub(
                    lambda m: "(" + rename(body, args, [a.strip() for a in
                                           m.group(1).split(",")]) + ")",
                    formula)
            else:
                pat = re.compile(r"\b" + re.escape(name) + r"\b(?!\()")
                formula = pat.sub("(" + body + ")", formula)
        if formula == before:
            return formula
    raise SystemExit("the definitions do not end")


def main():
    what, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        formula, defs = read_defs(f.read().splitlines())
    if what == "expand":
        print(expand(formula, defs))
    else:
        for name, _, _ in defs:
            print(name)


if __name__ == "__main__":
    main()
