#!/bin/sh
# readable_models.sh - the nine kinds of model a paper prints formulas
# of (tests/cli/models/readable_*.xml: resource usage equations, a
# MetaSim convolution, a stencil, a wavefront, master/worker retries, a
# blocked Cholesky, a task graph of parametric width, a pipeline with
# forward edges, the panels of a blocked LU): the readable form proved
# equal to the canonical one by 'check', both evaluated exactly at points
# against literal loops and longest paths in Python fractions
# (readable_models.py), 'latex --standalone' with and without --where
# compiled by pdflatex without an overfull box.  Then named
# subexpressions (--where): put back by text (readable_where.py), the
# formula is proved equal to the canonical one; and <let> with min, max,
# integer and latex: used by simplification, validated; recurrences
# equal up to the name of their counter; the node names of a task graph
# in its LaTeX.  The readable text of taskpath(...) and maxplusv(...)
# read back and evaluated from the text alone (readable_atoms.py); long
# recurrences and longest paths broken over lines; emit --where.
. "$top_srcdir/tests/cli/lib.sh"

cd "$top_srcdir" || exit 1
models=$top_srcdir/tests/cli/models
py=$top_srcdir/tests/cli/readable_models.py
wpy=$top_srcdir/tests/cli/readable_where.py
export SEGC
nine="resources convolution stencil wavefront retry cholesky taskgraph
pipeline lu_panel"

# proved MODEL COMPONENT FORMULA-FILE: 'check' proves the formula equal
# to the canonical form of the component.
proved() {
	"$SEGC" check --component "$2" --expect "$(head -1 "$3")" "$1" \
		>"$tmp/chk" 2>&1 && head -1 "$tmp/chk" | grep -q '^ok:'
}

# 1. The readable form equals the canonical one: proved, and at points.
for n in $nine; do
	m=$models/readable_$n.xml
	for c in total comp comm; do
		"$SEGC" derive --form readable --component $c "$m" >"$tmp/r" ||
			{ ok 1 "$n $c: derive --form readable"; continue; }
		if proved "$m" $c "$tmp/r"; then
			ok 0 "$n $c: readable = canonical, proved by check"
		elif [ $n = taskgraph ] || [ $n = pipeline ]; then
			# a longest path or a recurrence: check compares the
			# atoms at its sample points
			grep -q 'they agree at \([0-9]*\) of \1 sample' "$tmp/chk"
			ok $? "$n $c: readable = canonical at every sample point of check"
		else
			ok 1 "$n $c: readable = canonical"
			diag "$(cat "$tmp/chk")"
		fi
	done
done
for n in resources convolution cholesky lu_panel stencil retry wavefront; do
	m=$models/readable_$n.xml
	for f in readable canonical; do
		"$SEGC" derive --form $f "$m" >"$tmp/f"
		python3 "$py" text $n "$tmp/f" >"$tmp/log" 2>&1
		relay_results "$tmp/log" $?
	done
done
for n in taskgraph; do
	python3 "$py" points $n "$models/readable_$n.xml" readable canonical \
		>"$tmp/log" 2>&1
	relay_results "$tmp/log" $?
done
# the pipeline: a recurrence, evaluated by derive with every name bound
for p in "n=1 t_read=1 t_filter=3/2 t_write=2 t_hand=1/3" \
	 "n=5 t_read=1 t_filter=3/2 t_write=2 t_hand=1/3" \
	 "n=7 t_read=4 t_filter=1 t_write=1/2 t_hand=0"; do
	args=$(for a in $p; do printf ' -D %s' "$a"; done)
	# shellcheck disable=SC2086
	r=$("$SEGC" derive --form readable $args "$models/readable_pipeline.xml")
	# shellcheck disable=SC2086
	c=$("$SEGC" derive --form canonical $args "$models/readable_pipeline.xml")
	w=$(python3 - $p <<'PY'
import sys
from fractions import Fraction as F
v = {k: F(x) for k, x in (a.split('=') for a in sys.argv[1:])}
# t_v(i) = c_v + max(0, predecessors in iteration i with their arc's
# cost, the sources of forward edges d iterations back); T = the last
# finish time (doc/format.md section 5)
rd, fl, wr = {}, {}, {}
for i in range(1, int(v['n']) + 1):
    rd[i] = v['t_read'] + max(F(0), wr.get(i - 2, F(0)))
    fl[i] = v['t_filter'] + max(F(0), rd[i] + v['t_hand'], fl.get(i - 1, F(0)))
    wr[i] = v['t_write'] + max(F(0), fl[i] + v['t_hand'])
print(max(list(rd.values()) + list(fl.values()) + list(wr.values())))
PY
)
	[ "$r" = "$w" ] && [ "$c" = "$w" ]
	ok $? "pipeline at $p: readable $r, canonical $c, literal run $w"
done

# 2. latex --standalone compiles without an overfull box.
mkdir "$tmp/doc"
for n in $nine; do
	"$SEGC" latex --standalone "$models/readable_$n.xml" >"$tmp/doc/$n.tex" &&
	"$SEGC" latex --standalone --where "$models/readable_$n.xml" \
		>"$tmp/doc/${n}_where.tex"
	ok $? "latex --standalone $n, with and without --where"
done
"$SEGC" latex --standalone --where xml/lu_blocked.xml \
	>"$tmp/doc/lu_blocked_where.tex"
ok $? "latex --standalone --where lu_blocked"
for n in $nine; do
	for d in $n ${n}_where; do
		if [ -z "${PDFLATEX:-}" ]; then
			skip "pdflatex $d" "no pdflatex"
			continue
		fi
		(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode \
			-halt-on-error -no-shell-escape "$d.tex" >"$d.out" 2>&1) &&
			! grep -q '^!' "$tmp/doc/$d.log" &&
			! grep -q 'Overfull \\[hv]box' "$tmp/doc/$d.log"
		ok $? "pdflatex $d: compiles, no overfull box"
	done
done
if [ -n "${PDFLATEX:-}" ]; then
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape lu_blocked_where.tex >/dev/null 2>&1) &&
		! grep -q 'Overfull \\[hv]box' "$tmp/doc/lu_blocked_where.log"
	ok $? "pdflatex lu_blocked --where: the long definitions broken"
else
	skip "pdflatex lu_blocked_where" "no pdflatex"
fi

# 3. Named subexpressions: the paper's N_x, names from the lets, and the
# definitions put back give the canonical form.
"$SEGC" derive --form readable --where "$models/readable_lu_panel.xml" \
	>"$tmp/w"
grep -q '^N_x(i) = ceil((N + B - B\*i)/B/X)$' "$tmp/w" &&
	head -1 "$tmp/w" | grep -q 'N_x(i)' &&
	! head -1 "$tmp/w" | grep -q 'ceil((N'
ok $? "lu_panel --where: N_x(i) = ceil((N + B - B*i)/B/X), used in the sum"
"$SEGC" derive --form readable --where xml/lu_update_row.xml >"$tmp/w"
grep -q '^tau_proc = ' "$tmp/w" && [ "$(head -1 "$tmp/w")" = \
	"tau_proc + mva_mem(2, tau_proc, (mu_ld_m*tau_ld_m + mu_st_m*tau_st_m)/2)" ]
ok $? "lu_update_row --where: the part that occurs twice is the let tau_proc"
"$SEGC" latex --where "$models/readable_lu_panel.xml" >"$tmp/l"
grep -q '^{N_{x}}\\left(i\\right) &= \\left\\lceil' "$tmp/l" &&
	grep -q '^\\text{where }' "$tmp/l"
ok $? "latex --where: a where line {N_{x}}(i) &= ..."
for m in "$models/readable_lu_panel.xml" xml/lu_update_row.xml \
	 xml/lu_blocked.xml "$models/readable_resources.xml"; do
	for f in readable structural; do
		"$SEGC" derive --form $f --where "$m" >"$tmp/w"
		python3 "$wpy" expand "$tmp/w" >"$tmp/x"
		proved "$m" total "$tmp/x"
		ok $? "$(basename "$m") --form $f --where, names defined: $(($(wc -l <"$tmp/w") - 1)); put back, proved equal to the canonical form"
	done
done
"$SEGC" derive --form readable --where xml/lu_blocked.xml >"$tmp/w1"
"$SEGC" derive --form readable --where xml/lu_blocked.xml >"$tmp/w2"
cmp -s "$tmp/w1" "$tmp/w2" && [ "$(python3 "$wpy" names "$tmp/w1" |
	sort | uniq -d)" = "" ]
ok $? "lu_blocked --where: deterministic, each name defined once"
if command -v setarch >/dev/null 2>&1 &&
	setarch -R true >/dev/null 2>&1; then
	MALLOC_PERTURB_=165 setarch -R "$SEGC" derive --form readable --where \
		xml/lu_blocked.xml >"$tmp/w3"
	cmp -s "$tmp/w1" "$tmp/w3"
	ok $? "lu_blocked --where: the same bytes without address randomization and with other heap contents"
else
	skip "lu_blocked --where under setarch -R" "no setarch -R"
fi
"$SEGC" derive --where --json xml/lu_blocked.xml >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--where --json: a usage error"

# 4. <let> with min, max, integer and latex.
"$SEGC" derive --form readable --lets "$models/readable_cholesky.xml" >"$tmp/f"
"$SEGC" derive --form canonical --lets "$models/readable_cholesky.xml" >"$tmp/c"
! grep -q 'floor\|if(' "$tmp/f" && ! grep -q 'floor\|if(' "$tmp/c" &&
	grep -q '^nb = N/B$' "$tmp/f"
ok $? "cholesky --lets: an integer let gives no floor(nb), no if: $(head -1 "$tmp/f")"
python3 "$py" text cholesky_lets "$tmp/f" >"$tmp/log" 2>&1
relay_results "$tmp/log" $?
sed 's/ min="1" integer="true" latex="n_b"//' \
	"$models/readable_cholesky.xml" >"$tmp/plain.xml"
"$SEGC" derive --form canonical --lets "$tmp/plain.xml" >"$tmp/c"
grep -q 'floor(nb)' "$tmp/c"
ok $? "the same let without a domain: floor(nb), as it may not be an integer"
"$SEGC" latex --lets "$models/readable_cholesky.xml" >"$tmp/l"
grep -q '^{n_b} &= \\frac{N}{B}$' "$tmp/l" && grep -q '{n_b}^{3}' "$tmp/l"
ok $? "latex --lets: the let typeset with its latex attribute"
"$SEGC" validate "$models/readable_cholesky.xml" >/dev/null
ok $? "validate: a let with min, integer and latex"
bad_let() {  # NAME SED-EXPR MESSAGE
	sed "$2" "$models/readable_cholesky.xml" >"$tmp/$1.xml"
	"$SEGC" derive "$tmp/$1.xml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		grep -q "^$tmp/$1.xml:[0-9]*:[0-9]*: error: .*$3" "$tmp/err"
	ok $? "$1: exit $rc, $(head -1 "$tmp/err" | sed "s|$tmp/||")"
}
bad_let let_min_max 's/value="N\/B" min="1"/value="N\/B" min="3" max="2"/' \
	"<let> 'nb': min is greater than max"
bad_let let_integer_value 's/value="N\/B"/value="5\/2"/' \
	"is not an integer, but the let is declared integer"
bad_let let_outside 's/value="N\/B" min="1"/value="7" min="1" max="3"/' \
	"lies outside \[min, max\]"
bad_let let_bad_integer '/<let /s/integer="true"/integer="yes"/' \
	"<let> attribute 'integer'"
bad_let let_bad_min '/<let /s/min="1"/min="1 +"/' "attribute 'min' of <let>"
bad_let let_bad_latex 's/latex="n_b"/latex="\\input{x}"/' \
	"command .input is not allowed"
bad_let let_unknown_attr 's/latex="n_b"/unit="s"/' "unit"

# 5. Two recurrences that differ only in the name of their counter have
# one canonical form (the counter is renamed as a sum's variable is, and
# printed with a readable name again).
"$SEGC" derive --form structural xml/lu_blocked.xml >"$tmp/s"
sed 's/\bi\b/k/g' "$tmp/s" >"$tmp/k"
grep -q '^maxplusv(k, ceil(N/B), node(v1, ' "$tmp/k" &&
	grep -q 'arc(v2(k - 2), v1)' "$tmp/k" &&
	proved xml/lu_blocked.xml total "$tmp/k"
ok $? "maxplusv(k, ...) with the counter renamed: proved equal to maxplusv(i, ...)"
"$SEGC" derive xml/lu_blocked.xml >"$tmp/c"
grep -q '^maxplusv(i, ceil(N/B), node(v1, ' "$tmp/c" && ! grep -q '_s[0-9]' "$tmp/c"
ok $? "the canonical form prints the counter i, not its internal name"
"$SEGC" latex --standalone --form canonical xml/lu_blocked.xml >"$tmp/c.tex"
grep -q '^t_{2}(i) &= ' "$tmp/c.tex" && ! grep -q '_s[0-9]' "$tmp/c.tex"
ok $? "... and so do the rows of its recurrence in a standalone document"

# 6. The LaTeX of a task graph of parametric width keeps the node names.
"$SEGC" latex "$models/readable_taskgraph.xml" >"$tmp/t"
grep -q '^\\operatorname{longest}\\bigl(\\mathrm{scatter} \\to \\mathrm{gather}\\bigr)' "$tmp/t" &&
	grep -q '\\mathrm{worker}(i_{1}) &\\to \\mathrm{reduce}(\\left\\lceil \\frac{i_{1}}{2} \\right\\rceil): m' "$tmp/t"
ok $? "taskgraph: the nodes by their ids, scatter, worker, reduce, gather"
grep -q '^\\mathrm{worker}(i_{1}) &: c + i_{1}' "$tmp/doc/taskgraph.tex"
ok $? "taskgraph --standalone: a row a node, named"
# 7. The readable text of the graph atoms: named nodes, ranges and arcs;
# read back by check (proved equal: the same atom, not sample points),
# and evaluated exactly in Python from the text alone (readable.py: every
# instance and arc, every iteration) against segc with every name bound.
apy=$top_srcdir/tests/cli/readable_atoms.py
for m in "$models/readable_taskgraph.xml" xml/examples/reduction_tree.xml \
	 "$models/readable_longpath.xml" "$models/readable_recurrence.xml" \
	 xml/lu_blocked.xml tests/cli/models/emit_counter_forward.xml; do
	for f in canonical structural readable; do
		"$SEGC" derive --form $f "$m" >"$tmp/a"
		grep -q '^\(taskpath([a-z]*, [a-z]*\|maxplusv([a-z], [^,]*\), node([a-z0-9]*, ' "$tmp/a" &&
			grep -q 'arc([a-z]' "$tmp/a" && proved "$m" total "$tmp/a" &&
			! grep -q 'sample' "$tmp/chk"
		ok $? "$(basename "$m") --form $f: the text with node(...) and arc(...) read back, proved the same"
	done
done
"$SEGC" derive "$models/readable_taskgraph.xml" >"$tmp/a"
[ "$(cat "$tmp/a")" = "taskpath(scatter, gather, node(scatter, s), node(worker, i, 1, W, c + i*d), node(reduce, i, 1, ceil(W/2), r), node(gather, g), arc(scatter, worker), arc(worker(i), reduce(ceil(i/2)), m), arc(reduce(i), gather))" ]
ok $? "taskgraph: the longest path as written by hand from the model, the nodes by their ids"
sed 's/scatter/a/g; s/worker/b/g; s/reduce/c_/g; s/gather/d_/g; s/(i/(k/g; s/, i, 1/, k, 1/g; s/i\*d/k*d/; s/ceil(i\//ceil(k\//' \
	"$tmp/a" >"$tmp/b"
grep -q 'arc(b(k), c_(ceil(k/2)), m)' "$tmp/b" &&
	proved "$models/readable_taskgraph.xml" total "$tmp/b" &&
	! grep -q 'sample' "$tmp/chk"
ok $? "taskgraph: other names of the nodes and indices, the same atom"
"$SEGC" derive tests/cli/models/emit_counter_forward.xml >"$tmp/a"
[ "$(cat "$tmp/a")" = "maxplusv(i, n, node(v1, i*c), arc(v1(i - 1), v1))" ]
ok $? "emit_counter_forward: the recurrence as written by hand from the model"
for f in canonical readable; do
	"$SEGC" derive --form $f "$models/readable_taskgraph.xml" >"$tmp/a"
	python3 "$apy" "$models/readable_taskgraph.xml" "$tmp/a" W=1,2,5,8 \
		s=1 c=2 d=0,1/3 m=3/2 r=1 g=5 >"$tmp/log" 2>&1
	relay_results "$tmp/log" $?
	"$SEGC" derive --form $f "$models/readable_longpath.xml" >"$tmp/a"
	python3 "$apy" "$models/readable_longpath.xml" "$tmp/a" nb=1,2,3,5 \
		B=1,3 P=1,2,4 t_potrf=1 t_trsm=1/2 t_gemm=1/3 t_lat=0,5 \
		t_msg=1/4 t_ld=2 t_st=1/5 >"$tmp/log" 2>&1
	relay_results "$tmp/log" $?
	"$SEGC" derive --form $f "$models/readable_recurrence.xml" >"$tmp/a"
	python3 "$apy" "$models/readable_recurrence.xml" "$tmp/a" N=1,5,11 \
		B=1,2,4 P=1,3 t_ld=1/3 t_st=2 t_fft=1/5 t_sc=1 t_lat=3/2 \
		t_msg=0,1/7 >"$tmp/log" 2>&1
	relay_results "$tmp/log" $?
done
# the hand formula of the task graph (the model's comment) at the points
# of the Python oracle, from the text
"$SEGC" derive --form readable "$models/readable_taskgraph.xml" >"$tmp/a"
python3 "$py" text taskgraph "$tmp/a" >"$tmp/log" 2>&1
relay_results "$tmp/log" $?
# the old positional form still reads, as the same atom
"$SEGC" derive "$models/readable_recurrence.xml" >"$tmp/a"
"$SEGC" check --expect "maxplusv(i, ceil(N/B), 1, i*t_lat, 1, 1, 1, 1, 0)" \
	"$models/readable_recurrence.xml" >"$tmp/chk" 2>&1
grep -q "expected: maxplusv(i, ceil(N/B), node(v1, i\*t_lat), arc(v1(i - 1), v1))" "$tmp/chk"
ok $? "the positional maxplusv(i, n, 1, ...) is read and printed readable"
# a readable text that is wrong: located error, exit 2
"$SEGC" check --expect "maxplusv(i, n, node(v1, 1), arc(v1, v2))" \
	"$models/readable_recurrence.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "error: .*an arc names no node 'v2'" "$tmp/err"
ok $? "an arc to an unknown node: $(head -1 "$tmp/err")"

# 8. Long recurrences and longest paths: the rows break over lines in a
# standalone document, without an overfull box.
for n in recurrence longpath; do
	"$SEGC" latex --standalone "$models/readable_$n.xml" \
		>"$tmp/doc/$n.tex" &&
		"$SEGC" latex --standalone --where "$models/readable_$n.xml" \
		>"$tmp/doc/${n}_where.tex"
	ok $? "latex --standalone $n, with and without --where"
	for d in $n ${n}_where; do
		if [ -z "${PDFLATEX:-}" ]; then
			skip "pdflatex $d" "no pdflatex"
			continue
		fi
		(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode \
			-halt-on-error -no-shell-escape "$d.tex" >"$d.out" 2>&1) &&
			! grep -q '^!' "$tmp/doc/$d.log" &&
			! grep -q 'Overfull \\[hv]box' "$tmp/doc/$d.log"
		ok $? "pdflatex $d: compiles, no overfull box"
	done
done
grep -A1 '^\\mathrm{update}(i_{1}, i_{2}) &: ' "$tmp/doc/longpath.tex" |
	tail -1 | grep -q '^&\\quad + '
ok $? "longpath: the long cost of the update broken over rows"
[ "$(grep -c '^t_{[1-6]}(i) &= ' "$tmp/doc/recurrence.tex")" -eq 12 ]
ok $? "recurrence: one row a node, in each of its two components"

# 9. emit --where: the named parts and their definitions in the comment
# of each function that uses them, in C, Python and Fortran; the code
# itself unchanged.
keep="--keep B --keep X --keep t_madd --keep t_msg"
mkdir "$tmp/emit" "$tmp/emit/w" "$tmp/emit/p"
for lang in c python fortran; do
	# shellcheck disable=SC2086
	"$SEGC" emit --lang $lang $keep -o "$tmp/emit/w/m" --where \
		"$models/readable_lu_panel.xml" >/dev/null &&
	# shellcheck disable=SC2086
	"$SEGC" emit --lang $lang $keep -o "$tmp/emit/p/m" \
		"$models/readable_lu_panel.xml" >/dev/null
	ok $? "emit --lang $lang with and without --where"
done
for f in "$tmp"/emit/w/m.c "$tmp"/emit/w/m.py "$tmp"/emit/w/m.f90; do
	python3 - "$f" "$wpy" "$tmp/emit/def" <<'PY'
import re, sys
# the comment of the total: the formula, then the "where" lines, each
# continued on the lines of the same lead
text = open(sys.argv[1]).read()
lead = {'.c': r' \*   ', '.py': r'#   ', '.f90': r'  !   '}[
    sys.argv[1][sys.argv[1].rindex('.'):]]
m = re.search(r'The total time of the model.*\n((?:%s.*\n)+)' % lead, text)
items = []
for line in m.group(1).splitlines():
    body = re.sub('^' + lead, '', line)
    if body.startswith('where ') or not items:
        items.append(body[6:] if body.startswith('where ') else body)
    else:
        items[-1] += ' ' + body
open(sys.argv[3], 'w').write('\n'.join(items) + '\n')
PY
	head -1 "$tmp/emit/def" | grep -q 'N_x(i)' &&
		grep -q '^N_x(i) = ceil((N - B\*(i - 1))/(X\*B))$' "$tmp/emit/def" &&
		python3 "$wpy" expand "$tmp/emit/def" >"$tmp/x" &&
		proved "$models/readable_lu_panel.xml" total "$tmp/x"
	ok $? "$(basename "$f"): the total uses N_x(i), defined on a where line; put back, proved equal to the canonical form"
done
grep -A3 'The communication time' "$tmp/emit/w/m.c" | grep -q 'where'
[ $? -ne 0 ]
ok $? "the communication time, which has no N_x, has no where line"
strip_comments() {  # FILE: the code without its comments
	case $1 in
	*.c) sed 's|/\*.*\*/||; /\/\*/,/\*\//d' "$1" ;;
	*.py) grep -v '^ *#' "$1" ;;
	*.f90) grep -v '^ *!' "$1" ;;
	esac
}
for x in c h py f90; do
	strip_comments "$tmp/emit/w/m.$x" >"$tmp/emit/a"
	strip_comments "$tmp/emit/p/m.$x" >"$tmp/emit/b"
	cmp -s "$tmp/emit/a" "$tmp/emit/b" && { [ $x = h ] ||
		! cmp -s "$tmp/emit/w/m.$x" "$tmp/emit/p/m.$x"; }
	ok $? "emit m.$x: the code without comments is the same with --where"
done
if command -v gcc >/dev/null 2>&1; then
	(cd "$tmp/emit/w" && gcc -std=c99 -Wall -Wextra -Werror -c m.c)
	ok $? "the C file with where lines compiles (gcc -Wall -Wextra -Werror)"
else
	skip "gcc" "no gcc"
fi
python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" \
	"$tmp/emit/w/m.py"
ok $? "the Python module with where lines parses"
if command -v gfortran >/dev/null 2>&1; then
	(cd "$tmp/emit/w" && gfortran -std=f2008 -Wall -Werror -c m.f90)
	ok $? "the Fortran module with where lines compiles (gfortran -std=f2008)"
else
	skip "gfortran" "no gfortran"
fi
done_testing
