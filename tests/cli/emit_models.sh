#!/bin/sh
# emit_models.sh - the plain C predictor of every bundled and test model
# against 'segc eval --precision 256' over a grid of its domains: within
# 2 ulp where the value is not 0, 0 where it is, and within the bound each
# function states (emit_models.py says how).  Skipped without python3.
script=emit_models.py
. "$top_srcdir/tests/cli/python_test.sh"
