#!/bin/sh
# format_reference.sh - random models of every element of the format whose
# meaning is exact (steps, loops with counts and counters, branches, pars,
# calls of block- and arc-form graphs, parameters, lets, functions, a
# machine) against a reference interpreter written from the format's
# documents alone: eval, derive with every name bound, the derived formula
# read back, and check of the program written out as an expectation.  The
# models, the interpreter and the comparisons are in format_reference.py;
# SEED and MODELS choose the models.  Skipped without python3.
script=format_reference.py
. "$top_srcdir/tests/cli/python_test.sh"
