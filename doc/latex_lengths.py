#!/usr/bin/env python3
"""latex_lengths.py - the table of lengths of doc/latex.md: for every
<expect> from a paper of the bundled models (xml/*.xml,
xml/examples/*.xml: one whose source is not "derived by hand"), the
length in characters of the paper's formula as the model writes it, and
of the readable, structural and canonical forms of the same component
under the same machine ('segc derive', one line), and of the readable
form with its subexpressions named ('--where': the formula's line, then
the number of "where" lines).

Usage: doc/latex_lengths.py SEGC   (run from the top of the source tree;
prints the rows of the Markdown table)
"""
import glob
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def derive(segc, model, component, machine, *opts):
    cmd = [segc, 'derive', '--component', component] + list(opts)
    if machine:
        cmd += ['-m', os.path.join(os.path.dirname(model), machine)]
    out = subprocess.run(cmd + [model], capture_output=True, text=True,
                         check=True)
    return out.stdout.rstrip('\n').split('\n')


def main():
    segc = sys.argv[1]
    models = sorted(glob.glob('xml/*.xml')) + \
        sorted(glob.glob('xml/examples/*.xml'))
    for model in models:
        root = ET.parse(model).getroot()
        if root.tag != 'model':
            continue
        for x in root.findall('expect'):
            source = x.get('source', '')
            if not source or source.startswith(('derived', 'the same',
                                                'no ')):
                continue    # not from a paper
            comp = x.get('component', 'total')
            machine = x.get('machine', '')
            paper = ' '.join(x.text.split())
            row = [len(paper)]
            for form in ('readable', 'structural', 'canonical'):
                row.append(len(derive(segc, model, comp, machine,
                                      '--form', form)[0]))
            where = derive(segc, model, comp, machine, '--form',
                           'readable', '--where')
            name = model[len('xml/'):]
            mach = os.path.splitext(os.path.basename(machine))[0]
            print('| `%s` | %s | %s | %d | %d | %d | %d | %d (%d) |' % (
                name, comp, mach, row[0], row[1], row[2], row[3],
                len(where[0]), len(where) - 1))


if __name__ == '__main__':
    main()
