#!/bin/sh
# pytest.sh - the tests of the Python package (python/tests/) run by
# pytest against the library just built, each reported as one TAP test
# (python/tests/tap_results.py writes them; lib.sh relays them).  Skipped
# as a whole when no Python has cffi, pytest and numpy, or when the
# library is built with the sanitizers (their runtime must be loaded
# before Python starts).
. "$top_srcdir/tests/cli/lib.sh"

# The Python of configure, else the first python3 that has what the
# tests need (the package is tested in the build tree, not installed).
lib=$top_builddir/src/.libs/libsegc.so
py=
for p in "$PYTHON" python3 /usr/bin/python3; do
	if [ -n "$p" ] && [ "$p" != ":" ] &&
	   "$p" -c 'import cffi, pytest, numpy' >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	skip "the Python package" "no Python with cffi, pytest and numpy (Debian: python3-cffi python3-pytest python3-numpy)"
elif [ ! -f "$lib" ]; then
	skip "the Python package" "no shared library $lib"
elif ldd "$lib" 2>/dev/null | grep -q 'libasan'; then
	skip "the Python package" "the library is built with the sanitizers"
else
	SEGC_LIBRARY=$lib SEGC_RESULTS=$tmp/results SEGC_TOP_SRCDIR=$top_srcdir \
	PYTHONPATH=$top_srcdir/python PYTHONDONTWRITEBYTECODE=1 \
		"$py" -m pytest -q -p no:cacheprovider \
		--rootdir="$top_srcdir/python/tests" \
		"$top_srcdir/python/tests" >"$tmp/out" 2>&1
	status=$?
	: >>"$tmp/results"
	relay_results "$tmp/results" "$status"
	[ "$status" -eq 0 ] || diag "$(tail -60 "$tmp/out")"
fi
done_testing
