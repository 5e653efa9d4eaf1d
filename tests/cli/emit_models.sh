#!/bin/sh
# emit_models.sh - the plain C predictor of every bundled and test model
# against 'segc eval --precision 256' over a grid of its domains: within
# 2 ulp where the value is not 0, 0 where it is, and within the bound each
# function states (emit_models.py says how).  Skipped without python3.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
CC=${CC:-cc}
. "$top_srcdir/tests/cli/direct.sh"
export SEGC CC
exec python3 "$top_srcdir/tests/cli/emit_models.py"
