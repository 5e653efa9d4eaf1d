#!/bin/sh
# tests/timing.sh - where the time of `make check` goes.  Runs each test
# of TESTS (or the tests named as arguments) one at a time through the
# suite's own driver (make's rule for its .log file, so the same
# environment and TAP driver as `make check`) and prints, slowest first,
# the wall-clock and CPU seconds (user + system, the test's children
# included) and the result line of its .trs file.  CPU seconds are the
# figure to compare on a loaded machine.  Run from a build directory in
# which `make check TESTS=` has built everything:
#     sh ../tests/timing.sh [TEST...] > times.txt
set -u
if [ ! -f Makefile ]; then
	echo "timing.sh: run it from a build directory" >&2
	exit 2
fi
if [ "$#" -gt 0 ]; then
	tests="$*"
else
	tests=$(printf 'print-tests:\n\t@echo $(TESTS)\n' |
		make -s -f Makefile -f - print-tests)
fi
out=$(mktemp) || exit 2
trap 'rm -f "$out" "$out.t"' EXIT
for t in $tests; do
	b=${t%.sh}
	b=${b%.py}
	rm -f "$b.log" "$b.trs"
	/usr/bin/time -f '%e %U %S' -o "$out.t" \
		make -s "$b.log" >/dev/null 2>&1
	read -r wall user sys < "$out.t"
	res=$(grep -c '^:test-result: PASS' "$b.trs" 2>/dev/null)
	bad=$(grep -c '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$b.trs" 2>/dev/null)
	printf '%8.1f %8.1f %6s %4s %s\n' "$wall" \
		"$(echo "$user + $sys" | bc)" "${res:-0}" "${bad:-?}" "$t" >> "$out"
	tail -n 1 "$out" >&2
done
echo "    wall      cpu   pass fail test"
sort -k2,2nr "$out"
awk '{ w += $1; c += $2 } END { printf "%8.1f %8.1f total of %d tests\n", w, c, NR }' "$out"
