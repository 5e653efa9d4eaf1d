#!/bin/sh
# emit_python.sh - the Python predictors (segc emit --lang python): every C
# entry of generated/MANIFEST, and models whose canonical forms keep sums
# (loops) and max/min/floor, is emitted as a module, imported by python3,
# evaluated over a grid of N and P (and the kept names) and compared with
# 'segc eval --precision 256' of the same canonical formula, within
# MAX_ULP units in the last place, as the C predictor is.  Then a model
# whose description and name try to break out of the comments: the module
# still imports and defines nothing but its functions.  Then the
# refusals.  Skipped without python3.
. "$top_srcdir/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
MAX_ULP=${MAX_ULP:-6}
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

# Loops (sums without a closed form), floor and max in the canonical form;
# a loop's body in expanded form cancels (the C predictor gives the same
# doubles), so these get 64 ulp, about the 1e-13 emit.sh allows them.
MAX_ULP=64
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
