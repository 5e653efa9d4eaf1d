#!/bin/sh
# emit_fortran.sh - the Fortran predictors (segc emit --lang fortran): every
# C entry of generated/MANIFEST, and models whose forms keep loops (sums
# without a closed form), floor and max, is emitted as a module, compiled
# with gfortran -std=f2008 -Wall -Wextra -Werror, and evaluated by a
# Fortran program that calls its elemental functions on whole arrays
# (every point of the grid at once).  The values are compared with 'segc
# eval --precision 256' of the same formula (within MAX_ULP, 2, as the C
# predictor is) and with the C predictor's own table (the same doubles:
# 0 ulp).  Then the bind(c) entries: a C program calls them by the C
# predictor's names and gets the C predictor's doubles.  Then names that
# Fortran, which ignores case, would confuse; then the refusals.  Skipped
# without gfortran ($FC_TEST, found by configure, else gfortran).
. "$top_srcdir/tests/cli/lib.sh"
FC=${FC_TEST:-gfortran}
if ! command -v "$FC" >/dev/null 2>&1; then
	echo "1..0 # SKIP gfortran is not installed"
	exit 0
fi
MAX_ULP=${MAX_ULP:-2}
ulpdiff=$top_builddir/tests/cli/ulpdiff
FFLAGS_STRICT="-std=f2008 -Wall -Wextra -Werror -O2 -ffp-contract=off"
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
tab=$(printf '\t')

# values_in_domain MODEL NAME K: as in emit.sh, values of the kept NAME
# inside the domain the model declares for it.
values_in_domain() {
	decl=$(grep -o "<param name=\"$2\"[^>]*>" "$1" | head -1)
	case $decl in
	*integer=\"true\"*|*min=\"1\"*) v="2,3" one=3 ;;
	*max=*) v="0.125,0.25" one=0.25 ;;
	*) v="0.25,0.375" one=3 ;;
	esac
	if [ "$3" -le 2 ]; then echo "$v"; else echo "$one"; fi
}

# driver NAME NPOINTS: writes $tmp/NAME-drv.f90, a program that reads
# NPOINTS rows of the arguments from standard input, calls every function
# of the module $tmp/NAME.f90 once on the whole columns (elemental), and
# prints the table (a header of the components, one row per point).
driver() {
	f=$tmp/$1.f90
	mod=$(sed -n 's/^module \([A-Za-z0-9_]*\)$/\1/p' "$f")
	funcs=$(sed -n 's/^  public :: \([A-Za-z0-9_]*\), .*/\1/p' "$f")
	nf=$(echo "$funcs" | wc -l)
	# the arguments: those of the first function's bind(c) declaration
	args=$(awk '/^    real\(c_double\), value, intent\(in\) ::/ { sub(/.*:: /, ""); s = $0
		while (s ~ /&$/) { sub(/ *&$/, "", s); getline; sub(/^ */, ""); s = s " " $0 }
		print s; exit }' "$f")
	na=$(echo "$args" | tr ',' '\n' | wc -l)
	cols=
	i=0
	for a in $(echo "$args" | tr -d ' ' | tr ',' ' '); do
		i=$((i + 1))
		[ -n "$cols" ] && cols="$cols, &
      "
		cols="${cols}a(:, $i)"
	done
	{
		echo "program drv"
		echo "  use, intrinsic :: iso_c_binding, only: c_double"
		echo "  use $mod"
		echo "  implicit none"
		echo "  integer, parameter :: np = $2"
		echo "  real(c_double) :: a(np, $na), v(np, $nf)"
		echo "  integer :: i, j"
		echo "  do i = 1, np"
		echo "    read (*, *) a(i, :)"
		echo "  end do"
		j=0
		head=
		for fn in $funcs; do
			j=$((j + 1))
			echo "  v(:, $j) = $fn($cols)"
			head="$head${head:+//achar(9)//}'${fn##*_}'"
		done
		echo "  write (*, '(a)') $head"
		echo "  do i = 1, np"
		echo "    write (*, '(es26.17e3, *(a, es26.17e3))') v(i, 1), &"
		echo "      (achar(9), v(i, j), j = 2, $nf)"
		echo "  end do"
		echo "end program drv"
	} > "$tmp/$1-drv.f90"
}

# check_model NAME MODEL MACHINE BINDINGS KEEP GRID: emits MODEL (a path)
# as $tmp/NAME.f90 (and the C predictor with its table over GRID, to
# which the kept names are added), compiles it strictly, and compares its
# values at every point with segc eval and with the C.
check_model() {
	name=$1 model=$2 machine=$3 binds=$4 keep=$5 grid=$6
	opts=
	[ "$machine" = - ] || opts="-m $top_srcdir/xml/machines/$machine"
	if [ "$binds" != - ]; then
		for b in $(echo "$binds" | tr ',' ' '); do opts="$opts -D $b"; done
	fi
	kopts=
	nk=0
	if [ "$keep" != - ]; then
		for k in $(echo "$keep" | tr ',' ' '); do
			kopts="$kopts --keep $k"
			nk=$((nk + 1))
			grid="$grid $k=$(values_in_domain "$model" "$k" $nk)"
		done
	fi
	"$SEGC" emit -q --lang fortran $opts $kopts -o "$tmp/$name" "$model" \
		2>"$tmp/err"
	st=$?
	ok $st "emit --lang fortran $name"
	[ $st -eq 0 ] || { diag "$(cat "$tmp/err")"; return; }
	(cd "$tmp" && $FC $FFLAGS_STRICT -c "$name.f90") 2>"$tmp/fc.err"
	st=$?
	ok $st "$name.f90 compiles with $FC $FFLAGS_STRICT"
	[ $st -eq 0 ] || { diag "$(head -20 "$tmp/fc.err")"; return; }
	"$SEGC" emit -q --main $opts $kopts -o "$tmp/$name-c" "$model" \
		2>"$tmp/err" &&
		$CC $CFLAGS_STRICT -o "$tmp/$name-c" "$tmp/$name-c.c" -lm &&
		"$tmp/$name-c" $grid > "$tmp/$name-c.tsv"
	ok $? "$name: the C predictor's table"
	npts=$(($(wc -l < "$tmp/$name-c.tsv") - 1))
	driver "$name" "$npts"
	nfunc=$(head -1 "$tmp/$name-c.tsv" | tr '\t' '\n' |
		grep -c '^\(total\|comp\|comm\|io\)$')
	(cd "$tmp" && $FC -O2 -ffp-contract=off -o "$name-drv" \
		"$name-drv.f90" "$name.o") 2>"$tmp/fc.err" &&
		sed 1d "$tmp/$name-c.tsv" | cut -f1-$(($(head -1 \
		"$tmp/$name-c.tsv" | tr '\t' '\n' | wc -l) - nfunc)) |
		tr '\t' ' ' | "$tmp/$name-drv" > "$tmp/$name.tsv"
	st=$?
	ok $st "$name: the elemental functions on the $npts points at once"
	[ $st -eq 0 ] || { diag "$(head -20 "$tmp/fc.err")"; return; }
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 $opts \
		"$model" $grid > "$tmp/$name.csv" 2>"$tmp/err"
	"$ulpdiff" "$tmp/$name.tsv" "$tmp/$name.csv" > "$tmp/$name.ulp"
	st=$?
	u=$(sed -n 's/^max_ulp //p' "$tmp/$name.ulp")
	[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ]
	ok $? "$name.f90 agrees with MPFR within $MAX_ULP ulp (max $u ulp over $npts points)"
	"$ulpdiff" "$tmp/$name.tsv" "$tmp/$name-c.tsv" > "$tmp/$name-c.ulp"
	st=$?
	uc=$(sed -n 's/^max_ulp //p' "$tmp/$name-c.ulp")
	[ $st -eq 0 ] && [ "$uc" = 0 ]
	ok $? "$name.f90 gives the C predictor's doubles (max $uc ulp apart)"
	echo "$name $u" >> "$tmp/summary"
}

grep -v '^#' "$top_srcdir/generated/MANIFEST" > "$tmp/manifest"
while IFS=$tab read -r name model machine binds keep outputs; do
	case $outputs in *c*) ;; *) continue ;; esac
	check_model "$name" "$top_srcdir/xml/$model" "$machine" "$binds" \
		"$keep" "N=1..1000000*10 P=1..1024*2"
done < "$tmp/manifest"

# Loops (sums without a closed form: do while, with Neumaier's
# compensation), floor, max and if/else, as in emit_python.sh.
for m in loops_blocked_lu loops_empty_tail loops_floor_body \
	loops_from2_n_over_b loops_pairs; do
	f=$top_srcdir/tests/cli/models/$m.xml
	keep=$(grep -o '<\(param\|resource\) name="[^"]*"' "$f" |
		sed 's/.*name="\([^"]*\)"/\1/' | grep -v '^[NP]$' | paste -sd, -)
	check_model "$m" "$f" - - "${keep:--}" "N=1..40*3 P=1..4*2"
done
check_model blocked_lu "$top_srcdir/xml/examples/blocked_lu.xml" - - \
	B,t_madd,t_pivot "N=1..200*3 P=1..16*2"
# Rational powers: cbrt and pow through C, as the C predictor has them.
# The C library's cbrt and pow are not correctly rounded (glibc states a
# few ulp), so the distance to MPFR is held to the C predictor's own
# stated bound's order (tests/cli/ratexp.sh checks that bound), while the
# Fortran must still give the C predictor's doubles exactly.
saved_max_ulp=$MAX_ULP
MAX_ULP=8
check_model extrap_shapes "$top_srcdir/tests/cli/models/extrap_shapes.xml" \
	- - - "N=1..1000000*10 P=1..1024*2"
MAX_ULP=$saved_max_ulp
diag "largest error in ulp per model:" "$(cat "$tmp/summary" 2>/dev/null)"

# bind(c): a C program calls the Fortran's cg_simple_total (and comp,
# comm) by the C predictor's names and prototype, and compares them with
# the C predictor emitted under another prefix, bit for bit.
mkdir -p "$tmp/bc"
"$SEGC" emit -q --lang fortran -m "$top_srcdir/xml/machines/ncube2.xml" \
	-o "$tmp/bc/cg_simple" "$top_srcdir/xml/cg_simple.xml" 2>"$tmp/err" &&
	"$SEGC" emit -q --prefix cref -m "$top_srcdir/xml/machines/ncube2.xml" \
	-o "$tmp/bc/cref" "$top_srcdir/xml/cg_simple.xml" 2>>"$tmp/err"
ok $? "emit cg_simple in Fortran and in C (prefix cref)"
cat > "$tmp/bc/main.c" <<'EOF'
#include <stdio.h>
#include "cref.h"
/* the bind(c) entries of the Fortran module, as the C predictor's */
double cg_simple_total(double N, double P);
double cg_simple_comp(double N, double P);
double cg_simple_comm(double N, double P);
int main(void)
{
	int i, j, bad = 0;

	for (i = 0; i < 200; i++)
		for (j = 0; j < 11; j++) {
			double N = 1 + (i * 7919) % 1000003, P = 1 << j;

			bad += !(cg_simple_total(N, P) <= cref_total(N, P) &&
				cg_simple_total(N, P) >= cref_total(N, P));
			bad += !(cg_simple_comp(N, P) <= cref_comp(N, P) &&
				cg_simple_comp(N, P) >= cref_comp(N, P));
			bad += !(cg_simple_comm(N, P) <= cref_comm(N, P) &&
				cg_simple_comm(N, P) >= cref_comm(N, P));
		}
	printf("%d of 6600 differ\n", bad);
	return bad != 0;
}
EOF
(cd "$tmp/bc" && $FC $FFLAGS_STRICT -c cg_simple.f90 &&
	$CC $CFLAGS_STRICT -c main.c cref.c &&
	$CC -o main main.o cref.o cg_simple.o -lm && ./main) > "$tmp/bc.out" \
	2>&1
st=$?
ok $st "C calls the Fortran through bind(c): the C predictor's values ($(tail -1 "$tmp/bc.out"))"
[ $st -eq 0 ] || diag "$(head -20 "$tmp/bc.out")"

# Names Fortran would confuse: it ignores case (P and p, the model's own
# 'p' kept beside the processor count), and an argument named as an
# intrinsic the module calls (abs) or as its result.
cat > "$tmp/names.xml" <<'XML'
<model name="names" version="1">
  <param name="p" min="1"/>
  <param name="abs" min="0"/>
  <param name="segc_r" min="0"/>
  <param name="T0" min="0"/>
  <graph name="main">
    <step cost="N*p + abs/P + segc_r + T0"/>
  </graph>
</model>
XML
"$SEGC" emit -q --lang fortran --keep p --keep abs --keep segc_r --keep T0 \
	-o "$tmp/names" "$tmp/names.xml" 2>"$tmp/err" &&
	(cd "$tmp" && $FC $FFLAGS_STRICT -c names.f90) 2>>"$tmp/err"
st=$?
ok $st "arguments P and p, abs, segc_r and T0: distinct names, compiles"
[ $st -eq 0 ] || diag "$(head -20 "$tmp/err")"
grep -q 'intent(in) :: N, P, p_, abs_, segc_r_, T0$' "$tmp/names.f90"
ok $? "p becomes p_, abs abs_, segc_r segc_r_ (T0 stays: the temporaries are tt0...)"
grep -q '^    real(c_double) :: tt0$' "$tmp/names.f90"
ok $? "the temporaries' prefix meets no argument, whatever its case"
cat > "$tmp/names.f90.drv" <<'EOF'
program drv
  use, intrinsic :: iso_c_binding, only: c_double
  use names
  implicit none
  real(c_double) :: N(3) = [1.0_c_double, 10.0_c_double, 100.0_c_double]
  ! N*p + abs/P + segc_r + T0 at P = 2, p = 3, abs = 4, segc_r = 1/2,
  ! T0 = 1/4: 3*N + 2.75
  write (*, '(3f12.4)') names_total(N, 2.0_c_double, 3.0_c_double, &
    4.0_c_double, 0.5_c_double, 0.25_c_double)
end program drv
EOF
cp "$tmp/names.f90.drv" "$tmp/names_drv.f90"
(cd "$tmp" && $FC -o names_drv names_drv.f90 names.o && ./names_drv) \
	> "$tmp/names.out" 2>&1
[ "$(tr -s ' ' < "$tmp/names.out")" = " 5.7500 32.7500 302.7500" ]
ok $? "the renamed arguments keep their places (3*N + 2.75: $(cat "$tmp/names.out"))"

# Refusals: --main and --accurate are for C; an overlapped loop's
# recurrence is not printed in Fortran; nothing is written.
for o in --main --accurate; do
	"$SEGC" emit -q --lang fortran $o -m "$top_srcdir/xml/machines/ncube2.xml" \
		-o "$tmp/refused" "$top_srcdir/xml/cg_simple.xml" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -e "$tmp/refused.f90" ] &&
		grep -q "is for C only" "$tmp/err"
	ok $? "--lang fortran $o: refused, exit 2, nothing written"
done
"$SEGC" emit -q --lang fortran --keep n --keep a --keep c -o "$tmp/refused" \
	"$top_srcdir/tests/cli/models/emit_if_recurrence.xml" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/refused.f90" ] &&
	grep -q "overlapped loop" "$tmp/err"
ok $? "an overlapped loop's recurrence: refused, exit 2, nothing written"

done_testing
