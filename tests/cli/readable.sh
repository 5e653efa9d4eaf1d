#!/bin/sh
# readable.sh - the readable form (derive --form readable, the default of
# latex): equal to the canonical form for every bundled and test model
# (segc check --expect proves it, or else both are compared at the
# sample points check evaluates exactly, and reported); sums of
# constants closed with the empty-range rule, remainder probabilities
# simplified, the conditions of indexed closed forms that the domains
# decide dropped, --collect coefficients merged, each checked against
# literal loops and longest paths in Python fractions (readable.py); the
# standalone documents of a stencil, master/worker retries, a wavefront
# and a pipeline compiled with pdflatex without an overfull box.
. "$top_srcdir/tests/cli/lib.sh"

cd "$top_srcdir" || exit 1
models=$top_srcdir/tests/cli/models
py=$top_srcdir/tests/cli/readable.py

# 1. Equal to the canonical form, every model and component.
proved=0 sampled=0 failed=0
for m in xml/*.xml xml/examples/*.xml tests/cli/models/*.xml; do
	for c in total comp comm io; do
		if ! r=$("$SEGC" derive --form readable --component $c "$m" \
				2>"$tmp/err"); then
			failed=$((failed + 1))
			diag "$m $c: derive --form readable failed: $(cat "$tmp/err")"
			continue
		fi
		"$SEGC" check --component $c --expect "$r" "$m" >"$tmp/chk" 2>&1
		case $(head -1 "$tmp/chk") in
		ok:*) proved=$((proved + 1)) ;;
		UNPROVEN:*)
			if grep -q 'they agree at \([0-9]*\) of \1 sample' "$tmp/chk"
			then
				sampled=$((sampled + 1))
				diag "$m $c: not proved; $(grep 'agree at' "$tmp/chk")"
			else
				failed=$((failed + 1))
				diag "$m $c: $(cat "$tmp/chk")"
			fi ;;
		*)	failed=$((failed + 1))
			diag "$m $c: $(head -8 "$tmp/chk")" ;;
		esac
	done
done
[ $failed -eq 0 ] && [ $proved -gt 150 ]
ok $? "the readable form equals the canonical one: $proved proved, $sampled equal at the sample points, $failed not"

# 2. Sums of constants closed, exactly; the empty range respected.
cat >"$tmp/sums.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<model name="sums" version="1">
  <param name="B" min="0" integer="true"/>
  <resource name="t_flop"/>
  <resource name="t"/>
  <graph name="main">
    <step><use resource="t_flop" count="2*N/P"/></step>
    <loop var="i" from="1" to="N"><step><use resource="t_flop" count="1/P"/></step></loop>
    <loop var="j" from="1" to="N - B"><step><use resource="t" count="2"/></step></loop>
  </graph>
</model>
XML
"$SEGC" derive --form readable "$tmp/sums.xml" >"$tmp/f"
[ "$(cat "$tmp/f")" = "3*N/P*t_flop + 2*max(0, N - B)*t" ]
ok $? "sums of constants closed, max(0, ...) where the range may be empty: $(cat "$tmp/f")"
python3 "$py" sums "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?

"$SEGC" derive --form readable "$models/readable_stencil.xml" >"$tmp/f"
! grep -q 'sum(\|max(' "$tmp/f"
ok $? "stencil: every sum closed, no max (P >= 1 decides the loop from 2 to P): $(cat "$tmp/f")"
python3 "$py" stencil "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?

"$SEGC" derive --form readable "$models/blocked_sweep.xml" >"$tmp/f"
grep -q 'floor(N/B)' "$tmp/f" && ! grep -q 'sum(' "$tmp/f"
ok $? "a sum to N/B counts floor(N/B) iterations: $(cat "$tmp/f")"
python3 "$py" sweep "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?

# 3. The remainder probability of a branch, and a geometric retry.
"$SEGC" derive --form structural "$models/readable_retry.xml" >"$tmp/s"
"$SEGC" derive --form readable "$models/readable_retry.xml" >"$tmp/f"
grep -q '(1 - h1 - (h2 - h1))\*t_l' "$tmp/s" &&
	grep -q '(1 - h2)\*t_l' "$tmp/f" && grep -q '(h2 - h1)\*t_m' "$tmp/f"
ok $? "retry: the remainder probability is 1 - h2: $(cat "$tmp/f")"
python3 "$py" retry "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?

# 4. The condition of an indexed closed form decided by the domains.
"$SEGC" derive --form structural "$models/readable_wavefront.xml" >"$tmp/s"
"$SEGC" derive --form readable "$models/readable_wavefront.xml" >"$tmp/f"
grep -q '^if(W >= 1 and D >= 1' "$tmp/s" && ! grep -q 'if(' "$tmp/f"
ok $? "wavefront: if(W >= 1 and D >= 1, ...) dropped: $(cat "$tmp/f")"
python3 "$py" wavefront "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?
"$SEGC" derive --form readable xml/examples/wavefront.xml >"$tmp/f"
[ "$(cat "$tmp/f")" = "c + (Px + Py - 2)*(c + m)" ]
ok $? "xml/examples/wavefront.xml: the paper's c + (Px + Py - 2)*(c + m)"

# 5. --collect merges the coefficients in the readable form.
"$SEGC" derive --form structural --collect t_flop "$tmp/sums.xml" >"$tmp/s"
"$SEGC" derive --form readable --collect t_flop "$tmp/sums.xml" >"$tmp/f"
grep -q '^t_flop\*(2\*N/P + sum(i, 1, N, 1/P))' "$tmp/s" &&
	grep -q '^3\*N/P\*t_flop + ' "$tmp/f"
ok $? "--collect t_flop: 3*N/P*t_flop: $(cat "$tmp/f")"
python3 "$py" sums "$tmp/f" >"$tmp/log" 2>&1; relay_results "$tmp/log" $?
"$SEGC" latex --collect t_flop "$tmp/sums.xml" >"$tmp/f"
grep -q '^\\frac{3 N\\,t_{\\mathrm{flop}}}{P} + ' "$tmp/f"
ok $? "latex --collect t_flop: the coefficient merged"

# 6. latex is readable by default, structural and canonical on demand.
"$SEGC" latex "$models/readable_wavefront.xml" >"$tmp/r"
"$SEGC" latex --form structural "$models/readable_wavefront.xml" >"$tmp/s"
! grep -q 'cases' "$tmp/r" && grep -q 'cases' "$tmp/s"
ok $? "latex: the readable form by default, --form structural keeps the if"
"$SEGC" latex --form bogus "$models/readable_wavefront.xml" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "latex --form bogus: a usage error"
"$SEGC" derive "$models/readable_wavefront.xml" >"$tmp/d"
"$SEGC" derive --form canonical "$models/readable_wavefront.xml" >"$tmp/c"
cmp -s "$tmp/d" "$tmp/c"
ok $? "derive: still the canonical form by default"

# 7. Standalone documents: no overfull box, a recurrence in an align.
"$SEGC" latex --standalone "$models/readable_pipeline.xml" >"$tmp/p.tex"
grep -q '^\\begin{align}$' "$tmp/p.tex" && grep -q 'notag' "$tmp/p.tex" &&
	grep -q '^\\allowdisplaybreaks$' "$tmp/p.tex"
ok $? "pipeline: the recurrence is an align that may break across pages"
sed 's/cost="c" index/cost="c + x" index/' "$models/readable_wavefront.xml" \
	>"$tmp/taskpath.xml"
mkdir "$tmp/doc"
"$SEGC" latex --standalone "$tmp/taskpath.xml" >"$tmp/doc/taskpath.tex"
grep -q '^T &= \\operatorname{longest}' "$tmp/doc/taskpath.tex" &&
	grep -q '^\\begin{align}$' "$tmp/doc/taskpath.tex"
ok $? "a longest path of indexed nodes: an align, a row a node or an arc"
for n in stencil retry wavefront pipeline; do
	"$SEGC" latex --standalone "$models/readable_$n.xml" \
		>"$tmp/doc/$n.tex"
	ok $? "latex --standalone readable_$n"
done
"$SEGC" latex --standalone -m xml/machines/parsytec_gc.xml \
	xml/lu_blocked.xml >"$tmp/doc/lu_blocked.tex"
ok $? "latex --standalone lu_blocked on the Parsytec GC"
for n in stencil retry wavefront pipeline lu_blocked taskpath; do
	if [ -z "${PDFLATEX:-}" ]; then
		skip "pdflatex $n" "no pdflatex"
		continue
	fi
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode \
		-halt-on-error -no-shell-escape "$n.tex" >"$n.out" 2>&1) &&
		! grep -q '^!' "$tmp/doc/$n.log" &&
		! grep -q 'Overfull \\[hv]box' "$tmp/doc/$n.log"
	ok $? "pdflatex $n: compiles, no overfull box"
	grep -q 'Overfull' "$tmp/doc/$n.log" &&
		diag "$(grep -A2 'Overfull' "$tmp/doc/$n.log" | head -12)"
done
done_testing
