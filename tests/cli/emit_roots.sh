#!/bin/sh
# emit_roots.sh - the odd roots of the predictors over the whole range of
# the doubles: within half an ulp of 'segc eval --precision 256', and the
# same doubles in C, Python (floats and numpy arrays) and Fortran
# (emit_roots.py says how).  Skipped without python3.
script=emit_roots.py
. "$top_srcdir/tests/cli/python_test.sh"
