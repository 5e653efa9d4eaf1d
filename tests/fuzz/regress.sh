#!/bin/sh
# regress.sh - replays every saved input of tests/fuzz/regress/TARGET (the
# inputs that once crashed, hung or broke an invariant) and the seed
# corpora through the fuzz targets built without libFuzzer.  Under make
# check-valgrind, $SEGC_VALGRIND runs each replay under memcheck.  The
# inputs of bugs still open are in regress/open/TARGET and expected to
# fail.
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/cli/lib.sh"

regress=$top_srcdir/tests/fuzz/regress
for t in expr xml pipeline loops table; do
	sh "$top_srcdir/tests/fuzz/seeds.sh" "$t" "$top_srcdir" "$tmp/seeds-$t"
	${SEGC_VALGRIND:-} "$top_builddir/tests/fuzz/replay_$t" \
		"$regress/$t" "$tmp/seeds-$t" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	n=$(grep -c '^ok' "$tmp/out")
	ok $rc "replay_$t: $n inputs (saved regressions and seeds)"
	[ $rc -eq 0 ] || diag "$(tail -5 "$tmp/out")" "$(tail -20 "$tmp/err")"
	# regress/open/TARGET: inputs of bugs not fixed yet, expected to
	# fail (TODO); once one passes, move it to regress/TARGET.
	for f in "$regress/open/$t"/*; do
		[ -f "$f" ] || continue
		"$top_builddir/tests/fuzz/replay_$t" "$f" >/dev/null 2>&1
		rc=$?
		tap_n=$((tap_n + 1))
		if [ $rc -eq 0 ]; then
			echo "ok $tap_n - replay_$t: open/$t/${f##*/} # TODO passes now: move it to regress/$t"
		else
			echo "not ok $tap_n - replay_$t: open/$t/${f##*/} # TODO not fixed yet"
		fi
	done
done
done_testing
