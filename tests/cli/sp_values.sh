#!/bin/sh
# sp_values.sh - random series-parallel programs: the formula derive gives
# against the program's time worked out from the document in exact
# rationals at points of the domains (sp_values.py).  Skipped without
# python3.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
: "${SEGC:?}" "${top_srcdir:?}"
export SEGC
exec python3 "$top_srcdir/tests/cli/sp_values.py"
