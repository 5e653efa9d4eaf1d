#!/bin/sh
# pieces_property.sh - random loop nests whose bodies hold min, max, if,
# floor and ceil of the counters (against outer counters, parameters and
# constants), in block form and as loop arcs with a counter, against the
# same loops run literally in exact arithmetic: derive -D, the formula of
# derive read back, eval in both forms and the emitted C; and the
# examples of the summation contract with their values worked out by
# hand.  The models and checks are in pieces_property.py (which uses the
# reader and checks of loops_property.py); PIECES_PROPERTY_MODELS sets how
# many models it draws (40).  Skipped without python3.
script=pieces_property.py
. "$top_srcdir/tests/cli/python_test.sh"
