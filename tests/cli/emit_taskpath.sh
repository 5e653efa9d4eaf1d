#!/bin/sh
# emit_taskpath.sh - predictors of task graphs with indexed nodes whose
# longest path derive keeps as the atom taskpath(...): the emitted C and
# Python walk the instances.  For each model (a wavefront with messages on
# its arcs, a task graph of parametric width with a triangular index
# range, a ternary reduction whose bounds divide by 3^l, the bundled
# binary reduction tree, the readable task graph, the panels of a tiled
# Cholesky factorization, two kinds that feed each other, and two
# graphs whose arcs go backward in the order of the indices (a chain and
# a wavefront), whose instances the predictors order at run time), the
# C predictor is
# compiled strictly (gcc, and clang -Weverything when configured), run
# over a grid and compared with 'segc eval --precision 256' (at most
# MAX_ULP, 2); the Fortran module (gfortran -std=f2008 -Wall -Wextra
# -Werror, its elemental function on the whole grid at once) and the
# Python predictor over the same grid, compared the same way (and the
# Fortran with the C: the same doubles).  Then hand-worked values of the binary reduction tree
# (t_leaf + ceil(log2 P)*(t_comb + m), Python fractions), NaN where eval
# refuses (P not an integer, instances in a cycle), and the backward
# chain's N*t.  Before this predictor, emit refused every one of them;
# before the instance order, it refused the Cholesky panels and the
# kinds that feed each other, and gave NaN for the backward arcs.
. "$top_srcdir/tests/cli/lib.sh"
MAX_ULP=${MAX_ULP:-2}
ulpdiff=$top_builddir/tests/cli/ulpdiff
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
CLANG_STRICT="-std=c99 -Weverything -Werror -Wno-unknown-warning-option
 -Wno-unsafe-buffer-usage -O2"
models=$top_srcdir/tests/cli/models
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1
FC=${FC_TEST:-gfortran}
have_fc=0
command -v "$FC" >/dev/null 2>&1 && have_fc=1
FFLAGS_STRICT="-std=f2008 -Wall -Wextra -Werror -O2 -ffp-contract=off"

# f_table NAME: compiles $tmp/NAME.f90 strictly and a program that calls
# its elemental total function once on the columns of the arguments of
# $tmp/NAME.tsv (the C predictor's table), printing the same table.
f_table() {
	f=$tmp/$1.f90
	mod=$(sed -n 's/^module \([A-Za-z0-9_]*\)$/\1/p' "$f")
	fn=$(sed -n 's/^  public :: \([A-Za-z0-9_]*_total\), .*/\1/p' "$f")
	na=$(head -1 "$tmp/$1.tsv" | tr '\t' '\n' |
		grep -cv '^\(total\|comp\|comm\|io\)$')
	np=$(($(wc -l < "$tmp/$1.tsv") - 1))
	cols=
	i=0
	while [ $i -lt $na ]; do
		i=$((i + 1))
		cols="$cols${cols:+, }a(:, $i)"
	done
	cat > "$tmp/$1-drv.f90" <<EOF
program drv
  use, intrinsic :: iso_c_binding, only: c_double
  use $mod
  implicit none
  real(c_double) :: a($np, $na), v($np)
  integer :: i
  do i = 1, $np
    read (*, *) a(i, :)
  end do
  v = $fn($cols)
  do i = 1, $np
    write (*, '(es26.17e3)') v(i)
  end do
end program drv
EOF
	(cd "$tmp" && $FC $FFLAGS_STRICT -c "$1.f90" &&
		$FC -O2 -ffp-contract=off -o "$1-drv" "$1-drv.f90" "$1.o") \
		> "$tmp/fc.err" 2>&1 || return 1
	sed 1d "$tmp/$1.tsv" | cut -f1-$na | tr '\t' ' ' | "$tmp/$1-drv" \
		> "$tmp/$1-fv" || return 1
	# the argument columns of the C table beside the Fortran values
	{
		head -1 "$tmp/$1.tsv" | cut -f1-$((na + 1))
		sed 1d "$tmp/$1.tsv" | cut -f1-$na | paste - "$tmp/$1-fv" |
			tr -d ' '
	} > "$tmp/$1-f.tsv"
}

# The models: NAME FILE KEPT-NAMES GRID.
cat > "$tmp/list" <<EOF
wave $models/emit_tp_wavefront.xml t,m N=1..24 P=1 t=0.125,3,0.3 m=0.25,1.75,0.7
width $models/emit_tp_width.xml W,t,m N=1 P=1 W=1..20 t=0.125,3,0.3 m=0.25,1.75,0.7
tern $models/emit_tp_ternary.xml L,t,m N=1 P=1..60 L=1..4 t=0.125,0.3 m=0.25,0.7
rtree $top_srcdir/xml/examples/reduction_tree.xml t_leaf,t_comb,m N=1 P=1..70 t_leaf=0.5,1.1 t_comb=2,0.3 m=0.7
rtask $models/readable_taskgraph.xml W,s,c,d,m,r,g N=1 P=1 W=1..17 s=0.1 c=1.5 d=0.3 m=0.25,0.7 r=2 g=0.2
chol $models/readable_longpath.xml nb,B,t_potrf,t_trsm,t_gemm,t_lat,t_msg,t_ld,t_st N=1 P=1..5 nb=1..9 B=1,3 t_potrf=0.3 t_trsm=1.25 t_gemm=0.7,0.1 t_lat=0.1 t_msg=0.01,2.5 t_ld=0.5 t_st=0.25
kcyc $models/emit_tp_kinds_cycle.xml s,u N=1..30 P=1 s=0.1,1.5 u=0.3,7
bw $models/emit_tp_backward.xml t N=1..30 P=1 t=0.125,3,0.3
bw2 $models/emit_tp_backward2.xml t,m N=1..12 P=1 t=0.125,3,0.3 m=0.25,0.7
EOF

# py_table MODULE.py TSV: the Python predictor's table over the rows of
# the C predictor's TSV (its arguments), in the same form.
py_table() {
	python3 - "$1" "$2" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("pred", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
base = sys.argv[1].rsplit("/", 1)[-1][:-3]
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
head = rows[0]
funcs = [h for h in head if h in ("total", "comp", "comm", "io")]
nargs = len(head) - len(funcs)
fs = [getattr(mod, base + "_" + f) for f in funcs]
print("\t".join(head))
for r in rows[1:]:
    a = [float(x) for x in r[:nargs]]
    print("\t".join(r[:nargs] + [repr(g(*a)) for g in fs]))
PY
}

while read -r name file keep grid; do
	kopts=
	for k in $(echo "$keep" | tr ',' ' '); do kopts="$kopts --keep $k"; done
	"$SEGC" derive $kopts "$file" 2>/dev/null | grep -q '^taskpath('
	ok $? "$name: derive keeps the longest path as taskpath(...)"
	"$SEGC" emit -q --main $kopts -o "$tmp/$name" "$file" 2>"$tmp/err"
	st=$?
	ok $st "$name: emit the C predictor"
	[ $st -eq 0 ] || { diag "$(cat "$tmp/err")"; continue; }
	$CC $CFLAGS_STRICT -o "$tmp/$name-pred" "$tmp/$name.c" -lm \
		2>"$tmp/cc.err"
	st=$?
	ok $st "$name: compiles with $CC in strict C99"
	[ $st -eq 0 ] || { diag "$(head -20 "$tmp/cc.err")"; continue; }
	if [ -n "${CLANG:-}" ]; then
		$CLANG $CLANG_STRICT -c -o "$tmp/x.o" "$tmp/$name.c" \
			2>"$tmp/cc.err"
		st=$?
		ok $st "$name: compiles with clang -Weverything"
		[ $st -eq 0 ] || diag "$(head -20 "$tmp/cc.err")"
	fi
	"$tmp/$name-pred" $grid > "$tmp/$name.tsv"
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
		"$file" $grid > "$tmp/$name.csv" 2>"$tmp/err"
	"$ulpdiff" "$tmp/$name.tsv" "$tmp/$name.csv" > "$tmp/$name.ulp"
	st=$?
	u=$(sed -n 's/^max_ulp //p' "$tmp/$name.ulp")
	rows=$(sed -n 's/^rows //p' "$tmp/$name.ulp")
	[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ] &&
		[ "${rows:-0}" -gt 10 ]
	ok $? "$name: C within $MAX_ULP ulp of eval at 256 bits (max $u ulp over $rows points)"
	echo "$name C $u" >> "$tmp/summary"
	if [ $have_fc -eq 1 ]; then
		"$SEGC" emit -q --lang fortran $kopts -o "$tmp/$name" "$file" \
			2>"$tmp/err" && f_table "$name"
		st=$?
		ok $st "$name: the Fortran module compiles with $FFLAGS_STRICT and runs elementally"
		[ $st -eq 0 ] || diag "$(head -20 "$tmp/fc.err" "$tmp/err")"
		"$ulpdiff" "$tmp/$name-f.tsv" "$tmp/$name.csv" > "$tmp/$name-f.ulp"
		st=$?
		u=$(sed -n 's/^max_ulp //p' "$tmp/$name-f.ulp")
		[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ]
		ok $? "$name: Fortran within $MAX_ULP ulp of eval at 256 bits (max $u ulp)"
		"$ulpdiff" "$tmp/$name-f.tsv" "$tmp/$name.tsv" > "$tmp/$name-fc.ulp"
		st=$?
		uc=$(sed -n 's/^max_ulp //p' "$tmp/$name-fc.ulp")
		[ $st -eq 0 ] && [ "$uc" = 0 ]
		ok $? "$name: Fortran gives the C predictor's doubles (max $uc ulp apart)"
		echo "$name Fortran $u" >> "$tmp/summary"
	else
		skip "$name: Fortran" "$FC not found"
	fi
	if [ $have_py -eq 0 ]; then
		skip "$name: Python predictor" "python3 not found"
		continue
	fi
	"$SEGC" emit -q --lang python $kopts -o "$tmp/$name" "$file" \
		2>"$tmp/err" && py_table "$tmp/$name.py" "$tmp/$name.tsv" \
		> "$tmp/$name-py.tsv" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && "$ulpdiff" "$tmp/$name-py.tsv" "$tmp/$name.csv" \
		> "$tmp/$name-py.ulp"
	st=$?
	u=$(sed -n 's/^max_ulp //p' "$tmp/$name-py.ulp" 2>/dev/null)
	[ $st -eq 0 ] && [ -n "$u" ] && [ "$u" -le "$MAX_ULP" ]
	ok $? "$name: Python within $MAX_ULP ulp of eval at 256 bits (max $u ulp)"
	[ -n "$u" ] || diag "$(head -5 "$tmp/err")"
	echo "$name Python $u" >> "$tmp/summary"
done < "$tmp/list"
diag "largest error in ulp per model:" "$(cat "$tmp/summary" 2>/dev/null)"

# Hand-worked: the binary reduction tree takes t_leaf + ceil(log2 P)*(t_comb
# + m) (xml/examples/reduction_tree.xml); P not an integer: NaN (eval
# refuses it).
"$SEGC" emit -q --keep t_leaf --keep t_comb --keep m -o "$tmp/rt" \
	"$top_srcdir/xml/examples/reduction_tree.xml" 2>"$tmp/err"
cat > "$tmp/rtmain.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include "rt.h"
int main(void)
{
	double P, tl, tc, m, want;
	int bad = 0, n = 0;

	while (scanf("%lf %lf %lf %lf %lf", &P, &tl, &tc, &m, &want) == 5) {
		double v = rt_total(1.0, P, tl, tc, m);

		n++;
		if (!(v <= want && v >= want) && !(isnan(v) && isnan(want))) {
			printf("P=%g: %.17g, want %.17g\n", P, v, want);
			bad++;
		}
	}
	printf("%d of %d wrong\n", bad, n);
	return bad != 0 || n < 100;
}
EOF
if [ $have_py -eq 1 ]; then
	python3 - > "$tmp/rtpoints" <<'PY'
from fractions import Fraction as F
for P in range(1, 130):
    lv = 0
    while 2 ** lv < P:
        lv += 1
    for tl, tc, m in ((F(1), F(2), F(1, 2)), (F(3, 4), F(5, 8), F(1, 16))):
        print(P, float(tl), float(tc), float(m), float(tl + lv * (tc + m)))
print(2.5, 1.0, 2.0, 0.5, "nan")
PY
	(cd "$tmp" && $CC $CFLAGS_STRICT -o rtmain rtmain.c rt.c -lm &&
		./rtmain < rtpoints) > "$tmp/out" 2>&1
	st=$?
	ok $st "reduction tree: C equals t_leaf + ceil(log2 P)*(t_comb + m), NaN at P = 2.5 ($(tail -1 "$tmp/out"))"
	[ $st -eq 0 ] || diag "$(tail -5 "$tmp/out")"
	"$SEGC" eval -D t_leaf=1 -D t_comb=2 -D m=1/2 \
		"$top_srcdir/xml/examples/reduction_tree.xml" P=5/2 \
		>/dev/null 2>&1
	[ $? -ne 0 ]
	ok $? "reduction tree: eval refuses P = 5/2 too"
else
	skip "reduction tree: hand-worked values" "python3 not found"
	skip "reduction tree: eval refuses P = 5/2" "python3 not found"
fi

# Hand-worked: the tiled Cholesky factorization of readable_longpath.xml
# (its kinds feed each other), its task graph written out in Python
# fractions from the model's text (potrf(k); trsm(k, m) one after the
# other; update(k, m) after trsm(k, m); potrf(k + 1) after every update
# of step k), the longest path in the order k, then m: the C predictor
# within MAX_ULP of it at every point of its grid.
if [ $have_py -eq 1 ] && [ -s "$tmp/chol.tsv" ]; then
	python3 - "$tmp/chol.tsv" "$MAX_ULP" > "$tmp/out" 2>&1 <<'PY'
import struct, sys
from fractions import Fraction as F
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
head = rows[0]

def ceil(q):
    return -((-q.numerator) // q.denominator)

def clog2(p):
    l = 0
    while 2 ** l < p:
        l += 1
    return l

def longest(a):
    nb, B, P = int(a["nb"]), a["B"], int(a["P"])
    lg = clog2(P)
    pot = lambda k: B**3 * a["t_potrf"] / 3 + B**2 * a["t_msg"] * lg + a["t_lat"]
    trs = lambda k, m: B**3 * a["t_trsm"] + B**2 * a["t_msg"] + a["t_lat"] * (m - k)
    upd = lambda k, m: (B**3 * a["t_gemm"] * (nb - m + 1)
        + B**2 * a["t_msg"] * ceil(F(nb - k, P)) + a["t_lat"]
        + B**2 * a["t_ld"] * ceil(F(nb - m + 1, P))
        + B**2 * a["t_st"] * ceil(F(nb - k + 1, P))
        + a["t_lat"] * lg * (m - k))
    start = {("potrf", 1): F(0)}
    end = F(0)
    for k in range(1, nb + 1):
        f = start[("potrf", k)] + pot(k)
        end = max(end, f)
        if k < nb:
            start[("trsm", k, k + 1)] = f + a["t_msg"]
        for m in range(k + 1, nb + 1):
            g = start[("trsm", k, m)] + trs(k, m)
            if m < nb:
                start[("trsm", k, m + 1)] = g
            h = g + B**2 * a["t_msg"] + upd(k, m)
            end = max(end, h)
            if k < nb:
                q = ("potrf", k + 1)
                c = h + a["t_msg"] * ceil(B / P)
                start[q] = max(start.get(q, c), c)
    return end

def bits(x):
    return struct.unpack("<q", struct.pack("<d", x))[0]

worst = n = 0
for r in rows[1:]:
    a = {h: F(float(v)) for h, v in zip(head, r)}
    want = float(longest(a))
    got = float(r[head.index("total")])
    worst = max(worst, abs(bits(got) - bits(want)))
    n += 1
print("max %d ulp over %d points" % (worst, n))
sys.exit(not (n > 100 and worst <= int(sys.argv[2])))
PY
	st=$?
	ok $st "Cholesky: the C predictor equals its task graph in Python fractions ($(tail -1 "$tmp/out"))"
	[ $st -eq 0 ] || diag "$(tail -5 "$tmp/out")"
else
	skip "Cholesky: Python fractions" "python3 or the C table missing"
fi

# An arc backward in the order of the indices (c(i) -> c(i - 1)): eval
# gives N*t, and so do the predictors, which order such instances at run
# time (C, Python and Fortran); the wavefronts of the list above, bw and
# bw2, compare them with eval over a grid.  (The walk by kinds, which
# they had before, gave NaN.)
"$SEGC" eval -D t=3 "$models/emit_tp_backward.xml" N=4 P=1 --csv \
	> "$tmp/bw.csv" 2>&1
grep -q '^4,1,12,' "$tmp/bw.csv"
ok $? "backward arcs: eval gives N*t = 12 at N = 4, t = 3"
"$SEGC" emit -q --main -D t=3 -o "$tmp/bw" "$models/emit_tp_backward.xml" \
	2>"$tmp/err" && $CC $CFLAGS_STRICT -o "$tmp/bw" "$tmp/bw.c" -lm &&
	"$tmp/bw" N=1..40 P=1 > "$tmp/bw.tsv"
awk -F'\t' 'NR > 1 { n++; if ($3 != 3 * $1) bad++ }
	END { exit !(n == 40 && !bad) }' "$tmp/bw.tsv"
ok $? "backward arcs: the C predictor gives 3*N at N = 1..40"
if [ $have_py -eq 1 ]; then
	"$SEGC" emit -q --lang python -D t=3 -o "$tmp/bw" \
		"$models/emit_tp_backward.xml" 2>"$tmp/err" &&
		python3 -c "
import importlib.util, math, sys
spec = importlib.util.spec_from_file_location('bw', '$tmp/bw.py')
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
sys.exit(not all(m.bw_total(float(n), 1.0) == 3 * n for n in range(1, 41)))"
	ok $? "backward arcs: the Python predictor gives 3*N at N = 1..40"
else
	skip "backward arcs: Python" "python3 not found"
fi

# Kinds that feed each other: the predictors order the instances and
# give N*(s + u) (hand-worked); instances in a cycle: eval refuses, the
# C, Python and Fortran predictors give NaN.
"$SEGC" eval -D s=1 -D u=2 "$models/emit_tp_kinds_cycle.xml" N=4 P=1 --csv \
	2>&1 | grep -q '^4,1,12,'
ok $? "kinds that feed each other: eval gives N*(s + u) = 12"
"$SEGC" emit -q --main -D s=1 -D u=2 -o "$tmp/kc" \
	"$models/emit_tp_kinds_cycle.xml" 2>"$tmp/err" &&
	$CC $CFLAGS_STRICT -o "$tmp/kc" "$tmp/kc.c" -lm &&
	"$tmp/kc" N=1..40 P=1 > "$tmp/kc.tsv"
awk -F'\t' 'NR > 1 { n++; if ($3 != 3 * $1) bad++ }
	END { exit !(n == 40 && !bad) }' "$tmp/kc.tsv"
ok $? "kinds that feed each other: the C predictor gives 3*N at N = 1..40"
"$SEGC" eval -D s=1 -D u=2 "$models/emit_tp_instance_cycle.xml" N=4 P=1 \
	>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "make a cycle among the instances" "$tmp/err"
ok $? "instances in a cycle: eval refuses"
"$SEGC" emit -q --main -D s=1 -D u=2 -o "$tmp/ic" \
	"$models/emit_tp_instance_cycle.xml" 2>"$tmp/err" &&
	$CC $CFLAGS_STRICT -o "$tmp/ic" "$tmp/ic.c" -lm &&
	"$tmp/ic" N=4 P=1 > "$tmp/ic.tsv"
awk -F'\t' 'NR == 2 { exit !($3 == "nan" || $3 == "-nan") }' "$tmp/ic.tsv"
ok $? "instances in a cycle: the C predictor gives NaN"
if [ $have_py -eq 1 ]; then
	"$SEGC" emit -q --lang python -D s=1 -D u=2 -o "$tmp/ic" \
		"$models/emit_tp_instance_cycle.xml" 2>"$tmp/err" &&
		python3 -c "
import importlib.util, math, sys
spec = importlib.util.spec_from_file_location('ic', '$tmp/ic.py')
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
sys.exit(not math.isnan(m.ic_total(4.0, 1.0)))"
	ok $? "instances in a cycle: the Python predictor gives NaN"
else
	skip "instances in a cycle: Python" "python3 not found"
fi
if [ $have_fc -eq 1 ]; then
	printf 'N\tP\ttotal\n4\t1\t0\n' > "$tmp/ic.tsv"
	"$SEGC" emit -q --lang fortran -D s=1 -D u=2 -o "$tmp/ic" \
		"$models/emit_tp_instance_cycle.xml" 2>"$tmp/err" &&
		f_table ic && grep -qi nan "$tmp/ic-fv"
	ok $? "instances in a cycle: the Fortran predictor gives NaN"
else
	skip "instances in a cycle: Fortran" "$FC not found"
fi

echo "1..$tap_n"
[ $tap_failed -eq 0 ]
