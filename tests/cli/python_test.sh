# python_test.sh - source it with 'script' set to a file of tests/cli: runs
# that Python test (TAP on its standard output) with segc's program and the
# C compiler exported, or skips the whole test where python3 is missing.
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
CC=${CC:-cc}
. "$top_srcdir/tests/cli/direct.sh"
export SEGC CC
exec python3 "$top_srcdir/tests/cli/$script"
