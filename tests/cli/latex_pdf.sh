#!/bin/sh
# latex_pdf.sh - standalone documents of long formulas compiled with
# pdflatex: the blocked LU models, the stencil, and models whose formulas
# need several lines (one with cases too wide for a line), at the default
# width and at narrower text widths set in the document; pdflatex's log
# must have no error and no "Overfull \hbox".  Skipped without pdflatex.
. "$top_srcdir/tests/cli/lib.sh"

x=$top_srcdir/xml
mach=$x/machines

# One case a line: NAME WIDTH (or - for the default) FORM MACHINE MODEL,
# then options of latex, if any.
cat > "$tmp/cases" <<EOF
lu_blocked - structural $mach/parsytec_gc.xml $x/lu_blocked.xml
lu_blocked_c - canonical - $x/lu_blocked.xml
blocked_lu - structural - $x/examples/blocked_lu.xml
blocked_lu_c - canonical - $x/examples/blocked_lu.xml
loops_blocked_lu - structural - $top_srcdir/tests/cli/models/loops_blocked_lu.xml
loops_blocked_lu_c - canonical - $top_srcdir/tests/cli/models/loops_blocked_lu.xml
lu_shrinking - structural $mach/parsytec_gc.xml $x/examples/lu_shrinking.xml
lu_shrinking_c - canonical $mach/parsytec_gc.xml $x/examples/lu_shrinking.xml
stencil - structural - $x/examples/stencil_inline.xml
stencil_c - canonical - $x/examples/stencil_inline.xml
lu_update_row_c - canonical $mach/parsytec_gc.xml $x/lu_update_row.xml
protocol_c - canonical - $x/examples/protocol.xml
cg_simple - structural $mach/ncube2.xml $x/cg_simple.xml
floor_body_c - canonical - $top_srcdir/tests/cli/models/loops_floor_body.xml
cg_tree - structural $mach/ncube2.xml $x/cg_tree.xml
seismic - structural $mach/seismic_phase2.xml $x/seismic.xml
blocked_lu_c_250 250 canonical - $x/examples/blocked_lu.xml
lu_update_row_c_250 250 canonical $mach/parsytec_gc.xml $x/lu_update_row.xml
lu_update_row_c_200 200 canonical $mach/parsytec_gc.xml $x/lu_update_row.xml
protocol_c_200 200 canonical - $x/examples/protocol.xml
cg_simple_200 200 structural $mach/ncube2.xml $x/cg_simple.xml
long_let - structural - $top_srcdir/tests/cli/models/long_let.xml --lets
EOF

mkdir "$tmp/doc"
split=0
while read -r name width form machine model options; do
	set -- --form "$form"
	[ "$machine" = - ] || set -- "$@" -m "$machine"
	[ "$width" = - ] || set -- "$@" --width "$width"
	# shellcheck disable=SC2086
	[ -z "$options" ] || set -- "$@" $options
	"$SEGC" latex --standalone "$@" "$model" > "$tmp/doc/$name.tex"
	ok $? "latex --standalone $name"
	grep -q 'begin{split}' "$tmp/doc/$name.tex" && split=$((split + 1))
	if [ "$width" != - ]; then
		# The text of the document as wide as the formulas were set for.
		set_width="\\\\setlength{\\\\textwidth}{${width}pt}"
		sed "s/^\\\\usepackage{amsmath}\$/&$set_width/" \
			"$tmp/doc/$name.tex" > "$tmp/doc/$name.t" &&
			mv "$tmp/doc/$name.t" "$tmp/doc/$name.tex"
		grep -q "textwidth}{${width}pt}" "$tmp/doc/$name.tex"
		ok $? "$name: text width set to ${width}pt"
	fi
	if [ -z "${PDFLATEX:-}" ]; then
		skip "pdflatex $name" "no pdflatex"
		skip "no overfull line in $name" "no pdflatex"
		continue
	fi
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape "$name.tex" > "$name.out" 2>&1)
	st=$?
	[ $st -eq 0 ] && ! grep -q '^!' "$tmp/doc/$name.log"
	ok $? "pdflatex compiles $name.tex"
	[ $st -eq 0 ] || diag "$(grep -A3 '^!' "$tmp/doc/$name.log" | head -20)"
	! grep -q 'Overfull \\hbox' "$tmp/doc/$name.log"
	ok $? "no overfull line in $name"
	grep -q 'Overfull \\hbox' "$tmp/doc/$name.log" &&
		diag "$(grep -A2 'Overfull \\hbox' "$tmp/doc/$name.log" | head -12)"
done < "$tmp/cases"

# The cases are long enough to be broken: at least eight of them.
[ "$split" -ge 8 ]
ok $? "$split of the documents have formulas on several lines"
done_testing
