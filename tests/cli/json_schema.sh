#!/bin/sh
# json_schema.sh - the --json documents of every command against the keys
# doc/json.md lists and against exact values computed apart; the checks
# are in json_schema.py.  Skipped without python3.
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
. "$top_srcdir/tests/cli/direct.sh"
export SEGC
exec "$PY" "$top_srcdir/tests/cli/json_schema.py"
