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
# A predictor runs at most 5 minutes (a recurrence whose period check
# should jump and does not would run for days).
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 300"

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
# which the kept names GRID does not give are added), compiles it
# strictly, and compares its values at every point with segc eval and
# with the C.
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
			case " $grid" in *" $k="*) continue ;; esac
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
		tr '\t' ' ' | $limit "$tmp/$name-drv" > "$tmp/$name.tsv"
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

# The recurrences of overlapped loops (maxplus: constant costs, with the
# period check; maxplusv: costs of the counter, computed each iteration):
# the loop of the C, its locals in a block construct.  Where the work
# node is critical (c >= 2.5) at costs of a few binary digits, the doubles
# are exact and the period check jumps to n: n = 10^15 then ends at once
# (without the jump it would run for days); at costs such as 0.1, or
# where the period spans two iterations (c < 2.5), it runs all n.
m=$top_srcdir/tests/cli/models
check_model eir "$m/emit_if_recurrence.xml" - - n,a,c \
	"N=1 P=1 n=0,1,2,3,5,40,1000,100000 a=0.5,2.7 c=0,0.1,1,3"
check_model eir_period "$m/emit_if_recurrence.xml" - - n,a,c \
	"N=1 P=1 n=1000..1000000000000000*1000 a=0.5,3 c=2.5,3,1000.25"
check_model fwd "$m/forward_pipeline.xml" - - n,c \
	"N=1 P=1 n=0,1,2,3,10,1000,100000 c=0.1,1,2.5,7"
check_model fwd_period "$m/forward_pipeline.xml" - - n,c \
	"N=1 P=1 n=1000000..1000000000000000*1000 c=2.5,4.5,7"
check_model ecf "$m/emit_counter_forward.xml" - - n,c \
	"N=1 P=1 n=0,1,2,7,100,10000 c=0.1,0.75"
check_model ecu "$m/emit_counter_unused.xml" - - n,c \
	"N=1 P=1 n=0,1,2,7,100,10000 c=0.1,0.75"
check_model rpipe "$m/readable_pipeline.xml" - - \
	n,t_read,t_filter,t_write,t_hand \
	"N=1 P=1 n=1..100000*10 t_read=1,0.3 t_filter=2 t_write=0.5,0.7 t_hand=0.25"
check_model rrec "$m/readable_recurrence.xml" - - \
	B,t_ld,t_st,t_fft,t_sc,t_lat,t_msg \
	"N=1..10000*10 P=1..16*4 B=1,7 t_ld=1 t_st=0.3 t_fft=2.5 t_sc=0.1 t_lat=3 t_msg=0.2"
check_model lu_blocked "$top_srcdir/xml/lu_blocked.xml" parsytec_gc.xml - \
	B,X,Y "N=64..4096*4 P=1..16*4 B=8,32 X=1,2 Y=2"
# An argument M3 is the local m3 to Fortran, which ignores case: the
# locals take the prefix mm, and the cost read in the loop is M3's.
sed 's/"c"/"M3"/; s/cost="c"/cost="M3"/' "$m/forward_pipeline.xml" \
	> "$tmp/case_rec.xml"
check_model case_rec "$tmp/case_rec.xml" - - n,M3 \
	"N=1 P=1 n=0,1,5,1000 M3=0.1,3"
grep -q '^      real(c_double) :: mm0(0:2, 0:3), ' "$tmp/case_rec.f90"
ok $? "an argument M3: the recurrence's locals are mm0, mm1..."
grep -q '^    block$' "$tmp/eir.f90" &&
	grep -q '^  pure subroutine segc_acc(hi, lo, c)$' "$tmp/eir.f90" &&
	grep -q 'call segc_acc(' "$tmp/lu_blocked.f90"
ok $? "the recurrences' locals are in a block; segc_acc is a pure subroutine"
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

# Refusals: --main and --accurate are for C; nothing is written.
for o in --main --accurate; do
	"$SEGC" emit -q --lang fortran $o -m "$top_srcdir/xml/machines/ncube2.xml" \
		-o "$tmp/refused" "$top_srcdir/xml/cg_simple.xml" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -e "$tmp/refused.f90" ] &&
		grep -q "is for C only" "$tmp/err"
	ok $? "--lang fortran $o: refused, exit 2, nothing written"
done

done_testing
