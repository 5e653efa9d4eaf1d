#!/bin/sh
# nest_counts.sh - nests of counter loops up to depth 150, each level's
# range bounded by the counter of the level around it: the formula derive
# gives, against the loops run literally in exact arithmetic and against
# the number of iterations worked out by hand (nest_counts.py).  Skipped
# without python3.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
: "${SEGC:?}" "${top_srcdir:?}"
export SEGC
exec python3 "$top_srcdir/tests/cli/nest_counts.py"
