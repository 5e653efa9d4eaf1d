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
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
CC=${CC:-cc}
. "$top_srcdir/tests/cli/direct.sh"
export SEGC CC
exec python3 "$top_srcdir/tests/cli/pieces_property.py"
