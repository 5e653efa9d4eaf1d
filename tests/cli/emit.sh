#!/bin/sh
# emit.sh - the emitted predictors: every C entry of generated/MANIFEST is
# emitted (with --main), compiled with gcc and clang in strict C99, run over
# a grid of N and P, and compared with 'segc eval --precision 256' of the
# same (canonical) formula: the largest error in units in the last place is
# reported per model and must not exceed MAX_ULP (cancellation in an
# expanded form, as in cg_simple, costs a few ulp more than the 1 or 2 of
# most models); with --accurate it must not exceed 1.  Each function of
# the plain predictor states a bound on its relative error in its comment:
# the largest relative error seen (against the reference rounded to
# double, so the bound plus 1) must not exceed it.  A value that is 0
# exactly must be 0 (ulpdiff counts any other value as infinitely far).  Then formulas with
# sums that have no closed form (loops in C) and piecewise ones (if), whose
# predictors are compared with the same computation done literally by an
# independent C program in long double.  Then the refusals: unbound names
# and uninterpreted calls are named, exit 2, nothing written.  Then
# --accurate's two TwoProds (the fused multiply-add chosen at run time,
# Dekker's splitting with -DSEGC_NO_FMA): the same doubles (for every
# model above too), correctly rounded up to 2^1015, +inf beyond the
# doubles.
. "$top_srcdir/tests/cli/lib.sh"
MAX_ULP=${MAX_ULP:-2}
ulpdiff=$top_builddir/tests/cli/ulpdiff
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
tab=$(printf '\t')
# Each compiler is one word of 'compilers' ($CC may be "ccache gcc": its
# blanks are kept as ':' and restored where it runs).
compilers=$(echo "$CC" | tr ' ' ':')
[ -n "${CLANG:-}" ] && compilers="$compilers $(echo "$CLANG" | tr ' ' ':')"

# values_in_domain MODEL NAME K: a grid of values for the kept NAME inside
# the domain MODEL declares for it (eval refuses points outside it): two
# integers >= 1 for an integer or a name whose minimum is 1, two small
# fractions for a name with a maximum (the bundled ones are at least 1/4),
# else 0.25 and 0.375; one value for the third name on.
values_in_domain() {
	decl=$(grep -o "<param name=\"$2\"[^>]*>" "$1" | head -1)
	case $decl in
	*integer=\"true\"*|*min=\"1\"*) v="2,3" one=3 ;;
	*max=*) v="0.125,0.25" one=0.25 ;;
	*) v="0.25,0.375" one=3 ;;
	esac
	if [ "$3" -le 2 ]; then echo "$v"; else echo "$one"; fi
}

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
			grid="$grid $k=$(values_in_domain "$top_srcdir/xml/$model" "$k" $nk)"
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
		cc=$(echo "$cc" | tr : " ")
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
	# bound FUNCTION: the bound its comment states (in u), or "none".
	bounds=$(awk '/Relative error at most/ { k = $6 }
		/No bound on its relative error/ { k = "none" }
		/^double [A-Za-z0-9_]*_(total|comp|comm|io)\(/ {
			f = $2; sub(/\(.*/, "", f); sub(/.*_/, "", f)
			print f, k; k = "" }' "$tmp/$name.c")
	echo "$bounds" | while read -r col k; do
		r=$(sed -n "s/^${col}_rel_u //p" "$tmp/$name.ulp")
		[ "$k" = none ] && { echo "$name $col: no bound, max $r u"; continue; }
		awk -v r="$r" -v k="$k" 'BEGIN { exit !(r + 0 <= k + 1) }' ||
			echo "FAIL $name $col: $r u beyond its bound $k u"
		echo "$name $col: max $r u, bound $k u"
	done > "$tmp/$name.bound"
	! grep -q '^FAIL' "$tmp/$name.bound"
	ok $? "$name: within the relative error bound each function states"
	grep '^FAIL' "$tmp/$name.bound" | while read -r l; do diag "$l"; done
	cat "$tmp/$name.bound" >> "$tmp/bounds"
	# The same in compensated arithmetic (--accurate): at most 1 ulp.
	"$SEGC" emit -q --main --accurate $opts $kopts -o "$tmp/$name-dd" \
		"$top_srcdir/xml/$model" 2>"$tmp/err" &&
		$CC $CFLAGS_STRICT -o "$tmp/$name-dd" "$tmp/$name-dd.c" -lm \
		2>"$tmp/cc.err" && "$tmp/$name-dd" $grid > "$tmp/$name-dd.tsv" &&
		"$ulpdiff" "$tmp/$name-dd.tsv" "$tmp/$name.csv" > "$tmp/$name-dd.ulp"
	st=$?
	ud=$(sed -n 's/^max_ulp //p' "$tmp/$name-dd.ulp" 2>/dev/null)
	[ $st -eq 0 ] && [ -n "$ud" ] && [ "$ud" -le 1 ]
	ok $? "$name --accurate agrees with MPFR within 1 ulp (max $ud ulp)"
	# TwoProd by Dekker's splitting: the same doubles
	$CC $CFLAGS_STRICT -DSEGC_NO_FMA -o "$tmp/$name-dk" "$tmp/$name-dd.c" \
		-lm 2>"$tmp/cc.err" && "$tmp/$name-dk" $grid |
		cmp -s - "$tmp/$name-dd.tsv"
	ok $? "$name --accurate: the same doubles with -DSEGC_NO_FMA"
	echo "$name $u (--accurate: $ud)" >> "$tmp/summary"
done < "$tmp/manifest"
diag "largest error in ulp per model:" "$(cat "$tmp/summary" 2>/dev/null)"
diag "largest relative error per function beside its stated bound:" \
	"$(cat "$tmp/bounds" 2>/dev/null)"

# The array form NAME_total_n: the values of NAME_total at every point,
# compiled with the vectorizer on (-O3), for a plan without branches
# (cg_simple) and one with if/else and a recurrence (a test model).
cat > "$tmp/arrmain.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include "arr.h"
int main(void)
{
	double N[300], P[300], X[300], out[300];
	int i, bad = 0;

	for (i = 0; i < 300; i++) {
		N[i] = 1 + (i * 7919) % 100000;
		P[i] = 1 + (i * 37) % 1024;
		X[i] = (i % 9) * 0.5;
	}
	ARR_N(300, N, P ARGS_N, out);
	for (i = 0; i < 300; i++)
		if (!(out[i] <= ARR_1(N[i], P[i] ARGS_1) &&
		      out[i] >= ARR_1(N[i], P[i] ARGS_1)) &&
		    !(isnan(out[i]) && isnan(ARR_1(N[i], P[i] ARGS_1))))
			bad++;
	printf("%d of 300 differ\n", bad);
	return bad != 0;
}
EOF
for spec in "cg_simple:xml/cg_simple.xml:-m $top_srcdir/xml/machines/ncube2.xml::" \
    "eir:tests/cli/models/emit_if_recurrence.xml:--keep n --keep a --keep c:, X, X, X:, X[i], X[i], X[i]"; do
	an=$(echo "$spec" | cut -d: -f1)
	am=$(echo "$spec" | cut -d: -f2)
	ao=$(echo "$spec" | cut -d: -f3)
	an_n=$(echo "$spec" | cut -d: -f4)
	an_1=$(echo "$spec" | cut -d: -f5)
	# shellcheck disable=SC2086
	"$SEGC" emit -q $ao -o "$tmp/arr" "$top_srcdir/$am" 2>"$tmp/err" &&
		$CC -std=c99 -O3 -DARR_N=arr_total_n -DARR_1=arr_total \
		"-DARGS_N=$an_n" "-DARGS_1=$an_1" -o "$tmp/arrx" \
		"$tmp/arrmain.c" "$tmp/arr.c" -lm 2>"$tmp/cc.err" &&
		"$tmp/arrx" > "$tmp/arr.out"
	st=$?
	ok $st "$an: the array form gives the scalar function's values ($(cat "$tmp/arr.out" 2>/dev/null))"
	[ $st -eq 0 ] || diag "$(head -5 "$tmp/err" "$tmp/cc.err")"
done

# literal_check NAME KEEP...: emits $tmp/NAME.xml (plain and --accurate)
# and compiles it with $tmp/NAME_ref.c, an independent program that runs
# the model's loops literally in long double and exits 0 when the
# predictor agrees at every point, with each compiler in C99 and gnu17.
literal_check() {
	name=$1
	shift
	kopts=
	for k in "$@"; do kopts="$kopts --keep $k"; done
	for mode in plain accurate; do
		aopt=
		[ $mode = accurate ] && aopt=--accurate
		d=$tmp/$name-$mode
		mkdir -p "$d"
		"$SEGC" emit -q $aopt $kopts -o "$d/$name" "$tmp/$name.xml" \
			2>"$tmp/err"
		st=$?
		ok $st "emit $name $aopt"
		[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
		cp "$tmp/${name}_ref.c" "$d/"
		for cc in $compilers; do
			cc=$(echo "$cc" | tr : " ")
			for std in "$CFLAGS_STRICT" "-std=gnu17 -Wall -Wextra -Werror -O2"; do
				$cc $std -o "$d/ref" "$d/${name}_ref.c" "$d/$name.c" \
					-lm 2>"$tmp/cc.err" && "$d/ref" > "$tmp/out"
				st=$?
				ok $st "$name ($mode) agrees with its loops run literally ($cc $std)"
				[ $st -eq 0 ] || diag "$(head -20 "$tmp/cc.err" "$tmp/out")"
			done
		done
	done
}

# The driver of a reference program: REFERENCE(n, p) against NAME_total at
# N in 1..70, P in 1..6, a = 0.375, t = 0.75.
ref_main='
int main(void)
{
	long n, p, bad = 0;

	for (n = 1; n <= 70; n++)
		for (p = 1; p <= 6; p++) {
			long double want = reference(n, p, 0.375L, 0.75L);
			double got = TOTAL(n, p, 0.375, 0.75);

			if (!(fabsl(got - want) <= 1e-13L * (1 + fabsl(want)))) {
				printf("N=%ld P=%ld: %.17g, want %.17Lg\n", n, p,
					got, want);
				bad++;
			}
		}
	return bad != 0;
}'

# Sums with no closed form: the body's sqrt, floor and log2 keep them as
# sums, which emit writes as loops (nested, the inner one using the outer
# counter, ranges empty for some N and P, bounds that are not integers).
cat > "$tmp/loops.xml" <<'EOF'
<model name="loops" version="1">
  <param name="a"/>
  <resource name="t"/>
  <graph name="main">
    <loop var="i" from="1" to="N">
      <step cost="sqrt(i)*t"/>
      <loop var="j" from="i" to="N/2">
        <step cost="floor(N/j) + a"/>
      </loop>
    </loop>
    <loop var="k" from="P/3" to="N - P">
      <step cost="log2(k + P)"/>
    </loop>
  </graph>
</model>
EOF
cat > "$tmp/loops_ref.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include "loops.h"
#define TOTAL loops_total

/* The model's total time, its loops run literally. */
static long double reference(long n, long p, long double a, long double t)
{
	long double s = 0;
	long i, j, k;

	for (i = 1; i <= n; i++) {
		s += sqrtl((long double)i) * t;
		for (j = i; j <= n / 2; j++)
			s += (long double)(n / j) + a;
	}
	for (k = (p + 2) / 3; k <= n - p; k++)
		s += log2l((long double)(k + p));
	return s;
}
EOF
printf "%s\n" "$ref_main" >> "$tmp/loops_ref.c"
literal_check loops a t
grep -q 'for (' "$tmp/loops-plain/loops.c"
ok $? "sums with no closed form are loops in C"

# Piecewise formulas: a loop empty when N < 2*P, whose closed form holds
# only where it is not, and a loop inside a loop whose range is empty for
# some values of the outer counter.  Checked when this segc's canonical
# form says so with if.
cat > "$tmp/pieces.xml" <<'EOF'
<model name="pieces" version="1">
  <param name="a"/>
  <resource name="t"/>
  <graph name="main">
    <loop var="i" from="1" to="N - 2*P">
      <step cost="i*t"/>
    </loop>
    <loop var="i" from="1" to="N/3">
      <loop var="j" from="2*i" to="N - P">
        <step cost="a*j + t"/>
      </loop>
    </loop>
  </graph>
</model>
EOF
cat > "$tmp/pieces_ref.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include "pieces.h"
#define TOTAL pieces_total

/* The model's total time, its loops run literally. */
static long double reference(long n, long p, long double a, long double t)
{
	long double s = 0;
	long i, j;

	for (i = 1; i <= n - 2 * p; i++)
		s += i * t;
	for (i = 1; i <= n / 3; i++)
		for (j = 2 * i; j <= n - p; j++)
			s += a * j + t;
	return s;
}
EOF
printf "%s\n" "$ref_main" >> "$tmp/pieces_ref.c"
if "$SEGC" derive "$tmp/pieces.xml" 2>/dev/null | grep -q 'if('; then
	literal_check pieces a t
	grep -q 'if (\| ? ' "$tmp/pieces-plain/pieces.c"
	ok $? "a piecewise formula is a conditional in C"
else
	skip "piecewise formulas in C" "this segc writes no if for them yet"
fi

# Names that C, the standard headers or the compilers define are renamed
# (a trailing '_'), whatever their class: predefined macros of the GNU
# dialects, macros and typedefs of <stdio.h>, <stdlib.h>, <math.h>,
# <limits.h>, <float.h>, <stdint.h>, <inttypes.h>, <errno.h>,
# <signal.h>, <complex.h> and their POSIX extensions, the emitted code's
# own helpers and locals.  The predictor (plain, --accurate, --main) must
# compile in C99 and gnu17 alone, and included after all those headers.
names="linux unix i386 i686 sun BUFSIZ NULL EOF FILE stdin stderr SEEK_SET
TMP_MAX FILENAME_MAX EXIT_SUCCESS RAND_MAX MB_CUR_MAX div_t size_t M_PI NAN
INFINITY HUGE_VAL FP_NAN float_t INT_MAX CHAR_BIT DBL_EPSILON ERANGE int32_t
BIG_ENDIAN WNOHANG u_int uint SIGINT PRId64 I complex dd_add two_sum segc_dd
t0 c0 k0 fmax main"
{
	echo '<model name="names" version="1">'
	for n in $names; do echo "  <resource name=\"$n\"/>"; done
	echo '  <graph name="main">'
	printf '    <step cost="%s"/>\n' "$(echo $names | sed 's/ / + /g')"
	echo '    <loop var="i" from="1" to="N"><step cost="sqrt(i)*k0"/></loop>'
	echo '  </graph>'
	echo '</model>'
} > "$tmp/names.xml"
kopts=
for n in $names; do kopts="$kopts --keep $n"; done
{
	for h in stdio stdlib math limits float stdint inttypes errno signal \
	    complex; do
		echo "#include <$h.h>"
	done
	echo '#include "names.c"'
} > "$tmp/names_all.c"
for aopt in "" --accurate --main; do
	"$SEGC" emit -q $aopt $kopts -o "$tmp/names" "$tmp/names.xml" \
		2>"$tmp/err"
	ok $? "emit $aopt keeps names that C or its headers define"
	for cc in $compilers; do
		cc=$(echo "$cc" | tr : " ")
		for std in "$CFLAGS_STRICT" "-std=gnu17 -Wall -Wextra -Werror"; do
			for f in names.c names_all.c; do
				$cc $std -c -o "$tmp/names.o" "$tmp/$f" 2>"$tmp/cc.err"
				st=$?
				ok $st "$f $aopt compiles with $cc $std"
				[ $st -eq 0 ] || diag "$(head -10 "$tmp/cc.err")"
			done
		done
	done
done
grep -q 'double linux_, double unix_, double i386_' "$tmp/names.h"
ok $? "predefined macros are renamed with a trailing _"

# --keep wins over every value of the name: a machine's cost (t_stmt) and
# constant (t_byte, in the bodies of its functions) become arguments the
# functions use, checked against segc eval with those values given by -D;
# a model's <param value> likewise.  A name both kept and bound by -D is
# refused.
m=$top_srcdir/xml/cg_tree.xml
ncube=$top_srcdir/xml/machines/ncube2.xml
"$SEGC" emit -q --main -m "$ncube" --keep t_stmt --keep t_byte \
	-o "$tmp/kept" "$m" 2>"$tmp/err" &&
	$CC $CFLAGS_STRICT -o "$tmp/kept" "$tmp/kept.c" -lm 2>"$tmp/cc.err" &&
	! sed -n '/^double kept_total/,/^}/p' "$tmp/kept.c" | grep -q '(void)t_'
ok $? "--keep names that a machine binds makes arguments the function uses"
kgrid="N=1..100000*10 P=1..64*2 t_stmt=1/4 t_byte=3/8"
"$tmp/kept" N=1..100000*10 P=1..64*2 t_stmt=0.25 t_byte=0.375 \
	> "$tmp/kept.tsv" &&
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
	-m "$ncube" "$m" $kgrid > "$tmp/kept.csv" &&
	"$ulpdiff" "$tmp/kept.tsv" "$tmp/kept.csv" > "$tmp/kept.ulp"
st=$?
u=$(sed -n 's/^max_ulp //p' "$tmp/kept.ulp")
[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ]
ok $? "the kept machine values are the arguments' (max $u ulp)"
cat > "$tmp/kparam.xml" <<'EOF'
<model name="kparam" version="1">
  <param name="w" value="3"/>
  <resource name="t"/>
  <machine name="m" version="1"><cost name="t" value="2"/></machine>
  <graph name="main"><step cost="w*N + t*P"/></graph>
</model>
EOF
cat > "$tmp/kparam_ref.c" <<'EOF'
#include "kparam.h"
int main(void)
{
	return !(kparam_total(10, 3, 0.5, 7) == 0.5 * 10 + 7 * 3 &&
		kparam_total(4, 5, 2, 0.25) == 2 * 4 + 0.25 * 5);
}
EOF
"$SEGC" emit -q --keep w --keep t -o "$tmp/kparam" "$tmp/kparam.xml" \
	2>"$tmp/err" && $CC $CFLAGS_STRICT -o "$tmp/kparam_ref" \
	"$tmp/kparam_ref.c" "$tmp/kparam.c" -lm 2>"$tmp/cc.err" &&
	"$tmp/kparam_ref"
ok $? "--keep wins over a <param value> and an inline machine's cost"
"$SEGC" emit -D t_stmt=1 --keep t_stmt -m "$ncube" -o "$tmp/kboth" "$m" \
	2>"$tmp/err"
[ $? -eq 2 ] && grep -q "'t_stmt' is both kept" "$tmp/err" &&
	[ ! -e "$tmp/kboth.c" ]
ok $? "a name both kept and bound by -D is refused"

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
# The functions are named after -o's last component (or --prefix), so two
# predictors of one model link into one program.
mach=$top_srcdir/xml/machines/ncube2.xml
"$SEGC" emit -q -m "$mach" -o "$tmp/slow" "$top_srcdir/xml/cg_tree.xml" &&
	"$SEGC" emit -q -m "$mach" -D mflops=1 -o "$tmp/fast" \
	"$top_srcdir/xml/cg_tree.xml" &&
	"$SEGC" emit -q -m "$mach" --prefix other -o "$tmp/third" \
	"$top_srcdir/xml/cg_tree.xml"
ok $? "emit with -o slow, -o fast and --prefix other"
cat > "$tmp/both.c" <<'EOF2'
#include <stdio.h>
#include "fast.h"
#include "slow.h"
#include "third.h"
int main(void)
{
	return !(fast_total(1000, 4) < slow_total(1000, 4) &&
		other_total(1000, 4) == slow_total(1000, 4));
}
EOF2
for cc in $compilers; do
	cc=$(echo "$cc" | tr : " ")
	(cd "$tmp" && $cc $CFLAGS_STRICT -o both both.c fast.c slow.c third.c \
		-lm 2>"$tmp/cc.err" && ./both)
	ok $? "two predictors of one model link into one program ($cc)"
done
code=0
"$SEGC" emit --prefix 9x -o "$tmp/bad" "$top_srcdir/xml/find_max.xml" \
	>"$tmp/out" 2>"$tmp/err" || code=$?
[ "$code" -eq 2 ] && [ ! -e "$tmp/bad.c" ] &&
	grep -q "^segc: emit: --prefix 9x: not a name" "$tmp/err"
ok $? "--prefix that is not a C name is refused"

# --accurate keeps as doubles the values computed exactly (ceil, floor,
# max, min, -x and if of exact values, constants that are doubles, log2
# and roots of doubles) and as pairs the others; the result stays
# correctly rounded (against eval at 256 bits) over a grid, each kind of
# value on either side of the border.
cat > "$tmp/exact.xml" <<'EOF2'
<model name="exact" version="1">
  <graph name="main">
    <step cost="ceil(log2(P))*(N/3 + 1/7) + max(N, 2*P)/10 + floor(N/P)*(P - 1/2)"/>
    <step cost="if(N &gt; P, min(N, 4*P), -P + 3)/7 + (N*P)^(1/3)/11 + 0.5*N*N"/>
  </graph>
</model>
EOF2
xgrid="N=1..1000000*7 P=1..1024*3"
"$SEGC" emit -q --main --accurate -o "$tmp/exact-dd" "$tmp/exact.xml" \
	2>"$tmp/err" &&
	$CC $CFLAGS_STRICT -o "$tmp/exact-dd" "$tmp/exact-dd.c" -lm \
	2>"$tmp/cc.err" && "$tmp/exact-dd" $xgrid > "$tmp/exact-dd.tsv" &&
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
	"$tmp/exact.xml" $xgrid > "$tmp/exact.csv" 2>>"$tmp/err" &&
	"$ulpdiff" "$tmp/exact-dd.tsv" "$tmp/exact.csv" > "$tmp/exact-dd.ulp"
st=$?
ud=$(sed -n 's/^max_ulp //p' "$tmp/exact-dd.ulp" 2>/dev/null)
[ $st -eq 0 ] && [ "$ud" = 0 ]
ok $? "exact values as doubles: --accurate correctly rounded (max $ud ulp over $(sed -n 's/^rows //p' "$tmp/exact-dd.ulp" 2>/dev/null) points)"
[ $st -eq 0 ] || diag "$(head -5 "$tmp/err" "$tmp/cc.err")"
body=$(awk '/^SEGC_BODY exact_dd_total_k/,/^}/' "$tmp/exact-dd.c")
echo "$body" | grep -q 'const double t[0-9]* = ceil(log2(P));\|const double t[0-9]* = log2(P);' &&
	echo "$body" | grep -q 'const double t[0-9]* = ceil(t[0-9]*);' &&
	echo "$body" | grep -q 'const segc_dd t[0-9]* = dd_max(dd_d(N), t[0-9]*);' &&
	echo "$body" | grep -q 'const double c[0-9]* = 0.5; /\* 1/2 \*/' &&
	echo "$body" | grep -q '^	double t[0-9]*;' &&
	echo "$body" | grep -q '	t[0-9]* = segc_root(t[0-9]*\.hi, 3);' &&
	echo "$body" | grep -q 'const segc_dd c[0-9]* = { 0.3333333333333333, '
st=$?
ok $st "--accurate: exact values are doubles, the others pairs"
[ $st -eq 0 ] || diag "$(echo "$body" | head -30)"

# --accurate's TwoProd: by a fused multiply-add where the processor has
# one (on x86-64 with gcc or clang, a copy of each function compiled for
# it, chosen at run time), else by Dekker's splitting (-DSEGC_NO_FMA
# forces it).  Both give the same doubles, correctly rounded, up to the
# top of the range of doubles: Dekker's splitting multiplies by 2^27 + 1,
# which overflowed for values above about 2^996 (NaN at N = 10^300), and
# a product or sum that overflows gives the infinity the plain predictor
# gives, not NaN.
cat > "$tmp/big.xml" <<'EOF2'
<model name="big" version="1">
  <graph name="main">
    <step cost="N*P/10 + N/3 + sqrt(N)*7/11"/>
  </graph>
</model>
EOF2
# N exact doubles from 1 to 2^1015 (eval prints them as integers, which
# the predictor reads exactly), N*P up to 10^307.
"$SEGC" emit -q --main --accurate -o "$tmp/big-dd" "$tmp/big.xml" \
	2>"$tmp/err" &&
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
	"$tmp/big.xml" N=1,3,2^990,3*2^997,2^1000+2^948,5*2^1000,2^1015 \
	P=1,7,100 > "$tmp/big.csv" 2>>"$tmp/err"
st=$?
ok $st "emit and eval the model of large values"
bgrid="N=$(sed 1d "$tmp/big.csv" | cut -d, -f1 | awk '!s[$0]++' |
	paste -sd, -) P=1,7,100"
for cc in $compilers; do
	cc=$(echo "$cc" | tr : " ")
	for fma in "" -DSEGC_NO_FMA; do
		$cc $CFLAGS_STRICT $fma -o "$tmp/big-dd" "$tmp/big-dd.c" -lm \
			2>"$tmp/cc.err" && "$tmp/big-dd" $bgrid \
			> "$tmp/big-dd$fma.tsv" &&
			"$ulpdiff" "$tmp/big-dd$fma.tsv" "$tmp/big.csv" \
			> "$tmp/big-dd.ulp"
		st=$?
		ud=$(sed -n 's/^max_ulp //p' "$tmp/big-dd.ulp" 2>/dev/null)
		[ $st -eq 0 ] && [ "$ud" = 0 ]
		ok $? "--accurate up to N = 2^1015 ($cc ${fma:-dispatched}): correctly rounded (max $ud ulp over $(sed -n 's/^rows //p' "$tmp/big-dd.ulp" 2>/dev/null) points)"
		[ $st -eq 0 ] || diag "$(head -5 "$tmp/err" "$tmp/cc.err")"
	done
	cmp -s "$tmp/big-dd.tsv" "$tmp/big-dd-DSEGC_NO_FMA.tsv"
	ok $? "--accurate ($cc): the same doubles by fused multiply-add and by Dekker's splitting"
done
"$tmp/big-dd" N=1e308 P=1000 > "$tmp/big-inf.tsv" 2>&1
awk -F'\t' 'NR == 2 { inf = $3 == "inf" } END { exit !inf }' \
	"$tmp/big-inf.tsv"
ok $? "--accurate: a total beyond the doubles is +inf, as in the plain predictor"
grep -q '^SEGC_FMA_COPY double big_dd_total_f(double N, double P)$' \
	"$tmp/big-dd.c" &&
	grep -q '^SEGC_FMA_COPY void big_dd_total_nf(size_t segc_n' \
	"$tmp/big-dd.c"
ok $? "--accurate: each function and array form has its copy for the fused multiply-add"

done_testing
