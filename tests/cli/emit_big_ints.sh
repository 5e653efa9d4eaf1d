#!/bin/sh
# emit_big_ints.sh - the error bound emitted predictors state where the
# integers they compute pass 2^53, against exact values computed in
# Python fractions (emit_big_ints.py says how).  Skipped without python3.
script=emit_big_ints.py
. "$top_srcdir/tests/cli/python_test.sh"
