#!/bin/sh
# loops_property.sh - random nests of counter loops (depth 1 to 3, bounds
# with divisions by a parameter, floor and ceil) against the loops run
# literally in exact arithmetic: 'segc derive' with every name bound, 'segc
# eval' in both forms and the emitted C.  The models, the literal execution
# and the comparisons are in loops_property.py; LOOPS_PROPERTY_MODELS sets
# how many models it draws (40).  Then the saved models of
# tests/cli/models/loops_*.xml, each with its count worked out by hand.
. "$top_srcdir/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
CC=${CC:-cc}
export SEGC CC
exec python3 "$top_srcdir/tests/cli/loops_property.py"
