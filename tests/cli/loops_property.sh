#!/bin/sh
# loops_property.sh - random nests of counter loops (depth 1 to 3, bounds
# with divisions by a parameter, floor and ceil) against the same loops run
# literally in exact arithmetic: 'segc derive' with every name bound, the
# formula of 'segc derive' read back, 'segc eval' in both forms and the
# emitted C.  Also the two examples of the contract and the saved models
# tests/cli/models/loops_*.xml with their counts worked out by hand.  The
# models, the literal execution and the comparisons are in
# loops_property.py; LOOPS_PROPERTY_MODELS sets how many models it draws
# (40).  Skipped without python3.
script=loops_property.py
. "$top_srcdir/tests/cli/python_test.sh"
