#!/bin/sh
# extrap.sh - fit and eval --measured on Extra-P experiments in its text
# and JSON formats (doc/fit.md); the checks are in extrap.py, the data in
# extrap/ (written by extrap/make_extrap.py).  Skipped without python3.
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
. "$top_srcdir/tests/cli/direct.sh"
export SEGC
exec "$PY" "$top_srcdir/tests/cli/extrap.py"
