#!/bin/sh
# failmalloc.sh - running out of memory anywhere is exit 3 (doc/limits.md,
# Memory): a library preloaded into segc (failmalloc/failmalloc.c) makes
# the K-th allocation of segc's own code fail (the command's, the
# library's, and GMP's, MPFR's and libxml2's, which go through segc's
# allocator), for every command on three small models.  Each run must end
# with exit 0 or 3, with no signal (an abort() is a failure), a message on
# stderr when 3, nothing on stdout when 3 and no file written or left
# behind.  The leak checks are the sanitizer build's (LeakSanitizer) on
# the run of each command without a failure; the exit-3 path leaves at
# once by design (_exit, nothing freed), so LeakSanitizer, which checks
# at _exit too, is off for the runs with a failure.
#
# Every K from 1 to 12, then FAILMALLOC_SAMPLES (default 12) more spread
# over the rest of the run's allocations, one drawn at random in each of
# as many equal strata, so that one run of the test covers the whole
# range, then the last 6 (where a set of files is placed under its lock);
# FAILMALLOC_SEED fixes the draws (printed).
. "$top_srcdir/tests/cli/lib.sh"

so=$tmp/failmalloc.so
if ! ${CC:-cc} -shared -fPIC -o "$so" \
	"$top_srcdir/tests/cli/failmalloc/failmalloc.c" -ldl 2>"$tmp/cc.err"; then
	skip "allocation failures" "cannot build a preloaded library here"
	done_testing
	exit $?
fi
# Under AddressSanitizer the preloaded library comes before ASan's runtime
# and passes the allocations on to it.
asan=
if nm -D "$SEGC" 2>/dev/null | grep -q __asan_init ||
   { [ -x "$top_builddir/src/.libs/segc" ] &&
     nm -D "$top_builddir/src/.libs/segc" 2>/dev/null | grep -q __asan_init; }; then
	asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
fi

samples=${FAILMALLOC_SAMPLES:-12}
seed=${FAILMALLOC_SEED:-$(date +%s)}
diag "FAILMALLOC_SEED=$seed FAILMALLOC_SAMPLES=$samples"

top=$top_srcdir
dp=$top/xml/dot_product.xml
ct=$top/xml/machines/t800_ct.xml
bs=$top/tests/cli/models/blocksize.xml
lb=$top/tests/cli/fit/latbw.xml
out=$tmp/out.d

# The commands, one a line: the model's name, then the arguments; OUT
# stands for a directory that must stay empty when the run exits 3.
cat >"$tmp/commands" <<EOC
dot validate $dp
dot validate $ct
dot derive -m $ct $dp
dot derive --json $dp
dot latex --standalone $dp
dot emit --main -o OUT/pred --keep N_rows --keep N_cols -m $ct $dp
dot emit --lang python -o OUT/pred -D N_rows=3 -D N_cols=4 -D t_dtpr=2 $dp
dot check $dp
dot dot $dp
dot eval --svg OUT/t.svg -m $ct $dp N_rows=1..8*2 N_cols=3
dot eval --map N_rows N_cols --csv $dp t_dtpr=1/3 N_rows=1..4 N_cols=1..3
bs optimize --min total --over B=1..100 $bs t_work=3 t_msg=7 N=100
bs solve --for B --in 1..100 total=100 $bs t_work=3 t_msg=7 N=100
bs sensitivity $bs
bs whatif --scale t_work=1/2 $bs t_work=3 t_msg=7 N=100 B=1..4
bs derive --asymptotic B $bs
lb fit --free lat --free bw -o OUT/fitted.xml $lb $top/tests/cli/fit/latbw.csv
lb eval --measured $top/tests/cli/fit/latbw.csv -D lat=1/50000 -D bw=125000000 $lb
EOC

# run K ARGS...: one run with the K-th allocation failing (0: none);
# sets st, leaves stdout in $tmp/o and stderr in $tmp/e.
run() {
	k=$1
	shift
	rm -rf "$out" && mkdir "$out"
	set -- $(printf '%s\n' "$*" | sed "s|OUT|$out|g")
	if [ -n "$asan" ] && [ "$k" -eq 0 ]; then
		export ASAN_OPTIONS="$asan"
	elif [ -n "$asan" ]; then
		export ASAN_OPTIONS="$asan:detect_leaks=0"
	fi
	FAILMALLOC_AT=$k FAILMALLOC_COUNT=$tmp/count LD_PRELOAD=$so \
		"$SEGC" "$@" >"$tmp/o" 2>"$tmp/e"
	st=$?
}

# draw LO HI: a number in LO..HI from the seeded generator.
draw() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	echo $(( $1 + seed % ($2 - $1 + 1) ))
}

while read -r name args; do
	rm -f "$tmp/count"
	run 0 $args
	if [ $st -ne 0 ] || [ ! -s "$tmp/count" ]; then
		ok 1 "$name: segc $(printf '%s\n' "$args" | sed "s|$top/||g") runs (exit $st)"
		diag "$(head -5 "$tmp/e")"
		continue
	fi
	n=$(cat "$tmp/count")
	ks=$(seq 1 $(( n < 12 ? n : 12 )))
	if [ "$n" -gt 12 ]; then
		i=0
		while [ $i -lt "$samples" ]; do
			lo=$(( 13 + (n - 12) * i / samples ))
			hi=$(( 12 + (n - 12) * (i + 1) / samples ))
			[ $hi -ge $lo ] && ks="$ks $(draw $lo $hi)"
			i=$((i + 1))
		done
	fi
	# the last 6, where the outputs are placed under their lock
	[ "$n" -gt 24 ] && ks="$ks $(seq $((n - 5)) "$n")"
	bad=""
	for k in $ks; do
		run "$k" $args
		case $st in
		0) ;;
		3)	if [ -s "$tmp/o" ] || [ -n "$(ls -A "$out")" ] ||
			   ! grep -q 'out of memory' "$tmp/e"; then
				bad="$bad $k(exit 3: $(ls -A "$out" | tr '\n' ' ')$(head -c 200 "$tmp/e"))"
			fi ;;
		*) bad="$bad $k(exit $st: $(head -c 300 "$tmp/e"))" ;;
		esac
	done
	[ -z "$bad" ]
	ok $? "$name: segc $(printf '%s\n' "$args" | sed "s|$top/||g"): each of $(echo $ks | wc -w) of its $n allocations failing ends in exit 3, nothing written"
	[ -n "$bad" ] && diag "failed at K =$bad"
done <"$tmp/commands"

done_testing
