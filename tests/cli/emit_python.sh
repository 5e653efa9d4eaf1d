#!/bin/sh
# emit_python.sh - the Python predictors (segc emit --lang python): every C
# entry of generated/MANIFEST, and models whose canonical forms keep sums
# (loops) and max/min/floor, is emitted as a module, imported by python3,
# evaluated over a grid of N and P (and the kept names) and compared with
# 'segc eval --precision 256' of the same canonical formula, within
# MAX_ULP (2) units in the last place, as the C predictor is.  Then a model
# whose description and name try to break out of the comments: the module
# still imports and defines nothing but its functions.  Then the
# refusals.  Skipped without python3.
. "$top_srcdir/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
MAX_ULP=${MAX_ULP:-2}
tab=$(printf '\t')

# The comparer: MODULE PREFIX CSV; reads the table of segc eval and calls
# PREFIX_total, ... of MODULE with the row's argument columns (those
# before 'comp'), each component that has no function being 0.  Prints
# the largest error in ulp; exits 1 above MAX_ULP or on any failure.
cat > "$tmp/compare.py" <<'PY'
import csv, importlib.util, math, sys
path, prefix, table, max_ulp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
spec = importlib.util.spec_from_file_location("predictor", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
rows = list(csv.reader(open(table)))
head = rows[0]
nargs = head.index("comp")
worst = 0
for row in rows[1:]:
    args = [float(v) for v in row[:nargs]]
    for comp in ("total", "comp", "comm", "io"):
        want = float(row[head.index(comp)])
        f = getattr(mod, prefix + "_" + comp, None)
        got = f(*args) if f else 0.0
        if got == want:
            continue
        err = abs(got - want) / math.ulp(want) if want else math.inf
        if err > worst:
            worst = err
        if err > max_ulp:
            print("%s at %s: %r, want %r" % (comp, row[:nargs], got, want))
print("max_ulp %d" % math.ceil(worst))
sys.exit(worst > max_ulp)
PY

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

# check_model NAME MODEL MACHINE BINDINGS KEEP GRID: emits MODEL (a path)
# as $tmp/NAME.py and compares it with segc eval over GRID (to which the
# kept names are added).
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
	"$SEGC" emit -q --lang python $opts $kopts -o "$tmp/$name" "$model" \
		2>"$tmp/err"
	st=$?
	ok $st "emit --lang python $name"
	[ $st -eq 0 ] || { diag "$(cat "$tmp/err")"; return; }
	"$SEGC" eval --form canonical --csv --digits 40 --precision 256 $opts \
		"$model" $grid > "$tmp/$name.csv" 2>"$tmp/err"
	python3 "$tmp/compare.py" "$tmp/$name.py" "$name" "$tmp/$name.csv" \
		"$MAX_ULP" > "$tmp/$name.out" 2>&1
	st=$?
	ok $st "$name.py agrees with MPFR within $MAX_ULP ulp ($(tail -1 "$tmp/$name.out"))"
	[ $st -eq 0 ] || diag "$(head -20 "$tmp/$name.out")"
}

grep -v '^#' "$top_srcdir/generated/MANIFEST" > "$tmp/manifest"
while IFS=$tab read -r name model machine binds keep outputs; do
	case $outputs in *c*) ;; *) continue ;; esac
	check_model "$name" "$top_srcdir/xml/$model" "$machine" "$binds" \
		"$keep" "N=1..1000000*10 P=1..1024*2"
done < "$tmp/manifest"

# Loops (sums without a closed form), floor and max: the structural form
# with its sums as counts, regrouped closed forms or compensated loops
# keeps them within 2 ulp too (the expanded canonical form needed 64; the
# C predictor computes the same doubles).
MAX_ULP=2
for m in loops_blocked_lu loops_empty_tail loops_floor_body \
	loops_from2_n_over_b loops_pairs; do
	f=$top_srcdir/tests/cli/models/$m.xml
	keep=$(grep -o '<\(param\|resource\) name="[^"]*"' "$f" |
		sed 's/.*name="\([^"]*\)"/\1/' | grep -v '^[NP]$' | paste -sd, -)
	check_model "$m" "$f" - - "${keep:--}" "N=1..40*3 P=1..4*2"
done
check_model blocked_lu "$top_srcdir/xml/examples/blocked_lu.xml" - - \
	B,t_madd,t_pivot \
	"N=1..200*3 P=1..16*2"

# Arrays: with numpy (in python3, or the system's), each function given
# arrays (and lists) computes every point, vectorized, and gives the
# doubles of its scalar calls; numpy is imported only then.  Models: a
# straight-line plan (cg_simple), one with if/else and a recurrence
# (tests/cli/models/emit_if_recurrence.xml, point by point), one with a
# loop (loops_pairs), one with max and ceil (lu_send_row).
pynp=
for py in python3 /usr/bin/python3; do
	if command -v "$py" >/dev/null 2>&1 &&
	    "$py" -c 'import numpy' 2>/dev/null; then
		pynp=$py
		break
	fi
done
cat > "$tmp/arrays.py" <<'PY'
import importlib.util, sys
path, prefix, nargs = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = importlib.util.spec_from_file_location("predictor", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
fns = [getattr(mod, n) for n in mod.__all__]
# scalar calls first: numpy must not be imported by them
pts = [[float(1 + (i * 7 + k * 3) % 50) * (1 if k < 2 else 0.25)
        for k in range(nargs)] for i in range(40)]
want = [[f(*p) for p in pts] for f in fns]
if "numpy" in sys.modules:
    sys.exit("numpy imported by scalar calls")
import numpy as np
cols = [np.array([p[k] for p in pts]) for k in range(nargs)]
for f, w in zip(fns, want):
    got = f(*cols)
    if not isinstance(got, np.ndarray) or got.shape != (40,):
        sys.exit("%s: not an array of 40 values" % f.__name__)
    for i in range(40):
        if not (got[i] == w[i] or (got[i] != got[i] and w[i] != w[i])):
            sys.exit("%s at %s: %r, scalar %r" % (f.__name__, pts[i],
                                                  got[i], w[i]))
    lst = f(*[list(c) for c in cols])
    if not np.array_equal(lst, got, equal_nan=True):
        sys.exit("%s: a list gives other values" % f.__name__)
    one = f(*([cols[0]] + [c[0] for c in cols[1:]]))
    if one.shape != (40,):
        sys.exit("%s: no broadcasting of numbers against an array" % f.__name__)
print("ok %d functions x 40 points" % len(fns))
PY
for spec in "cg_simple xml/cg_simple.xml -m xml/machines/ncube2.xml" \
    "eir tests/cli/models/emit_if_recurrence.xml --keep n --keep a --keep c" \
    "pairs tests/cli/models/loops_pairs.xml --keep t" \
    "lusr xml/lu_send_row.xml -m xml/machines/parsytec_gc.xml --keep B --keep X --keep Y --keep beta --keep eta_at --keep i"; do
	set -- $spec
	an=$1 am=$2
	shift 2
	ao=
	while [ $# -gt 0 ]; do
		case $1 in -m) ao="$ao -m $top_srcdir/$2"; shift ;;
		*) ao="$ao $1" ;; esac
		shift
	done
	if [ -z "$pynp" ]; then
		skip "$an.py on numpy arrays" "numpy is not installed"
		continue
	fi
	# shellcheck disable=SC2086
	"$SEGC" emit -q --lang python $ao -o "$tmp/arr_$an" "$top_srcdir/$am" \
		2>"$tmp/err"
	nargs=$(( $(echo "$ao" | grep -o -- '--keep' | wc -l) + 2 ))
	"$pynp" "$tmp/arrays.py" "$tmp/arr_$an.py" "arr_$an" "$nargs" \
		> "$tmp/arr.out" 2>&1
	st=$?
	ok $st "$an.py on numpy arrays: the doubles of its scalar calls ($(tail -1 "$tmp/arr.out"))"
done
if [ -n "$pynp" ]; then
	grep -q '_segc_np.broadcast_arrays' "$tmp/arr_cg_simple.py" &&
		! grep -q 'vectorize' "$tmp/arr_cg_simple.py" &&
		grep -q '_segc_np.vectorize(arr_eir_total' "$tmp/arr_eir.py"
	ok $? "a straight-line plan is numpy operations; a recurrence goes point by point"
fi

# Hostile text: a description with quotes, triple quotes, newlines and
# Python code stays in comments (names are identifiers in the model).
cat > "$tmp/hostile.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<model name="hostile" version="1">
  <description>"""
import os; os.system("touch pwned")
"""  \
''' #  \x00 é ∑ 漢字 */ ${x} &#13; raise SystemExit</description>
  <param name="lambda"/>
  <param name="print"/>
  <graph name="main">
    <loop count="N/P">
      <step cost="lambda*print + 1"/>
    </loop>
  </graph>
</model>
XML
"$SEGC" emit -q --lang python --keep lambda --keep print -o "$tmp/hostile" \
	"$tmp/hostile.xml" 2>"$tmp/err"
st=$?
ok $st "emit --lang python of a hostile model"
[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
(cd "$tmp" && python3 -c '
import importlib.util, math
spec = importlib.util.spec_from_file_location("h", "hostile.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
names = sorted(n for n in vars(m) if not n.startswith("_"))
assert names == ["hostile_comp", "hostile_total", "math"], names
assert m.__all__ == ["hostile_total", "hostile_comp"], m.__all__
assert m.hostile_total(8, 2, 0.5, 3) == 4 * (0.5 * 3 + 1)
import inspect
assert list(inspect.signature(m.hostile_total).parameters) == \
	["N", "P", "lambda_", "print_"]
' 2>"$tmp/err") && [ ! -e "$tmp/pwned" ]
st=$?
ok $st "the hostile module imports, defines only its functions, runs nothing"
[ $st -eq 0 ] || diag "$(cat "$tmp/err")"

# Refusals: exit 2, nothing written.
for bad in "--main" "--accurate" "--lang fortran"; do
	case $bad in --lang*) l= ;; *) l="--lang python" ;; esac
	"$SEGC" emit -q $l $bad -o "$tmp/refused" \
		"$top_srcdir/tests/cli/models/loops_pairs.xml" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -e "$tmp/refused.py" ] && [ -s "$tmp/err" ]
	ok $? "emit $l $bad is refused (exit 2, nothing written)"
done
"$SEGC" emit -q --lang python -o "$tmp/refused" \
	"$top_srcdir/xml/cg_simple.xml" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/refused.py" ] &&
	grep -q "cannot emit Python while 't_stmt' is unbound" "$tmp/err"
ok $? "an unbound name is refused by name"

done_testing
