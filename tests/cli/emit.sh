#!/bin/sh
# emit.sh - the emitted predictors: every C entry of generated/MANIFEST is
# emitted (with --main), compiled with gcc and clang in strict C99, run over
# a grid of N and P, and compared with 'segc eval --precision 256' of the
# same (canonical) formula: the largest error in units in the last place is
# reported per model and must not exceed MAX_ULP (cancellation in an
# expanded form, as in cg_simple, costs a few ulp more than the 1 or 2 of
# most models); with --accurate it must not exceed 1.  Then the refusals:
# unbound names and uninterpreted calls are named, exit 2, nothing written.
. "$top_srcdir/tests/cli/lib.sh"
MAX_ULP=${MAX_ULP:-6}
ulpdiff=$top_builddir/tests/cli/ulpdiff
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
tab=$(printf '\t')
compilers=$CC
[ -n "${CLANG:-}" ] && compilers="$compilers $CLANG"

# emit_one NAME MODEL MACHINE BINDINGS KEEP: emits NAME with --main into
# $tmp; sets 'args' to the grid for the predictor and for segc eval.
emit_one() {
	set -- "$1" "$2" "$3" "$4" "$5"
	name=$1 model=$2 machine=$3 binds=$4 keep=$5
	opts=
	[ "$machine" = - ] || opts="-m $top_srcdir/xml/machines/$machine"
	if [ "$binds" != - ]; then
		for b in $(echo "$binds" | tr ',' ' '); do opts="$opts -D $b"; done
	fi
	grid="N=1..1000000*10 P=1..1024*2"
	kopts=
	nk=0
	if [ "$keep" != - ]; then
		for k in $(echo "$keep" | tr ',' ' '); do
			kopts="$kopts --keep $k"
			nk=$((nk + 1))
			if [ $nk -le 2 ]; then grid="$grid $k=0.25,0.375"; else grid="$grid $k=3"; fi
		done
	fi
	"$SEGC" emit -q --main $opts $kopts -o "$tmp/$name" \
		"$top_srcdir/xml/$model" 2>"$tmp/err"
}

worst=0
grep -v '^#' "$top_srcdir/generated/MANIFEST" > "$tmp/manifest"
while IFS=$tab read -r name model machine binds keep outputs; do
	case $outputs in *c*) ;; *) continue ;; esac
	emit_one "$name" "$model" "$machine" "$binds" "$keep"
	ok $? "emit $name"
	for cc in $compilers; do
		$cc $CFLAGS_STRICT -o "$tmp/$name-pred" "$tmp/$name.c" -lm \
			2>"$tmp/cc.err"
		st=$?
		ok $st "$name compiles with $cc in strict C99"
		[ $st -eq 0 ] || diag "$(head -20 "$tmp/cc.err")"
	done
	[ -x "$tmp/$name-pred" ] || continue
	"$tmp/$name-pred" $grid > "$tmp/$name.tsv"
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 $opts \
		"$top_srcdir/xml/$model" $grid > "$tmp/$name.csv" 2>"$tmp/err"
	"$ulpdiff" "$tmp/$name.tsv" "$tmp/$name.csv" > "$tmp/$name.ulp"
	st=$?
	u=$(sed -n 's/^max_ulp //p' "$tmp/$name.ulp")
	[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ]
	ok $? "$name agrees with MPFR within $MAX_ULP ulp (max $u ulp over $(sed -n 's/^rows //p' "$tmp/$name.ulp") points)"
	# The same in double-double arithmetic (--accurate): at most 1 ulp.
	"$SEGC" emit -q --main --accurate $opts $kopts -o "$tmp/$name-dd" \
		"$top_srcdir/xml/$model" 2>"$tmp/err" &&
		$CC $CFLAGS_STRICT -o "$tmp/$name-dd" "$tmp/$name-dd.c" -lm \
		2>"$tmp/cc.err" && "$tmp/$name-dd" $grid > "$tmp/$name-dd.tsv" &&
		"$ulpdiff" "$tmp/$name-dd.tsv" "$tmp/$name.csv" > "$tmp/$name-dd.ulp"
	st=$?
	ud=$(sed -n 's/^max_ulp //p' "$tmp/$name-dd.ulp" 2>/dev/null)
	[ $st -eq 0 ] && [ -n "$ud" ] && [ "$ud" -le 1 ]
	ok $? "$name --accurate agrees with MPFR within 1 ulp (max $ud ulp)"
	echo "$name $u (--accurate: $ud)" >> "$tmp/summary"
done < "$tmp/manifest"
diag "largest error in ulp per model:" "$(cat "$tmp/summary" 2>/dev/null)"

# Refusals.
m=$top_srcdir/xml/cg_tree.xml
"$SEGC" emit -o "$tmp/refused" "$m" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "uninterpreted call 'tree_bcast'" "$tmp/err" &&
	grep -q "uninterpreted call 'tree_collect'" "$tmp/err" &&
	grep -q "'t_stmt' is unbound" "$tmp/err" && [ ! -e "$tmp/refused.c" ] &&
	[ ! -e "$tmp/refused.h" ]
ok $? "emit refuses unbound names and uninterpreted calls, naming each"
"$SEGC" emit -o "$tmp/bad\"name" -m "$top_srcdir/xml/machines/ncube2.xml" \
	"$m" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/bad\"name.c" ]
ok $? "emit refuses a file name that cannot stand in #include"
# User templates (--template DIR), and an unknown placeholder.
mkdir "$tmp/tpl"
cp "$top_srcdir"/templates/*.in "$tmp/tpl/"
sed 's|^#include <math.h>|/* my template */\n#include <math.h>|' \
	"$top_srcdir/templates/predictor.c.in" > "$tmp/tpl/predictor.c.in"
"$SEGC" emit -o "$tmp/mine" --template "$tmp/tpl" \
	-m "$top_srcdir/xml/machines/ncube2.xml" "$m" > "$tmp/out" &&
	grep -q 'my template' "$tmp/mine.c" &&
	[ "$(cat "$tmp/out")" = "$(printf '%s\n%s' "$tmp/mine.c" "$tmp/mine.h")" ]
ok $? "emit --template DIR uses the user's templates and prints the paths"
echo '@NO_SUCH_KEY@' >> "$tmp/tpl/predictor.h.in"
"$SEGC" emit -o "$tmp/mine2" --template "$tmp/tpl" \
	-m "$top_srcdir/xml/machines/ncube2.xml" "$m" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown placeholder '@NO_SUCH_KEY@'" "$tmp/err" &&
	[ ! -e "$tmp/mine2.c" ]
ok $? "an unknown placeholder is an error and nothing is written"
rm "$tmp/tpl/dd.c.in"
"$SEGC" emit -o "$tmp/mine3" --template "$tmp/tpl" \
	-m "$top_srcdir/xml/machines/ncube2.xml" "$m" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "dd.c.in" "$tmp/err"
ok $? "a missing template is named"

ls "$tmp" | grep -q 'tmp-' && st=1 || st=0
ok $st "no temporary files left behind"
done_testing
