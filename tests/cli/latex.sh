#!/bin/sh
# latex.sh - 'segc latex': the LaTeX of every bundled model against its
# golden file; every standalone document of generated/MANIFEST compiled
# with pdflatex (skipped without it); one PDF page and one 'segc eval
# --svg' plot turned into PNG, so that a broken picture fails.
. "$top_srcdir/tests/cli/lib.sh"
golden=$top_srcdir/tests/cli/golden/latex
tab=$(printf '\t')

cd "$top_srcdir" || exit 1
for m in xml/*.xml xml/examples/*.xml; do
	name=$(basename "$m" .xml)
	{
		"$SEGC" latex "$m"
		"$SEGC" latex --form structural "$m"
		"$SEGC" latex --form canonical "$m"
		"$SEGC" latex --component comm "$m"
	} > "$tmp/$name.tex" 2>&1
	same_file "$golden/$name.tex" "$tmp/$name.tex" "latex of $name"
done
cd "$tmp" || exit 1

# Standalone documents.
grep -v '^#' "$top_srcdir/generated/MANIFEST" > "$tmp/manifest"
mkdir "$tmp/doc"
while IFS=$tab read -r name model machine binds keep outputs; do
	set --
	[ "$machine" = - ] || set -- -m "$top_srcdir/xml/machines/$machine"
	"$SEGC" latex --standalone "$@" "$top_srcdir/xml/$model" \
		> "$tmp/doc/$name.tex"
	ok $? "latex --standalone $name"
	if [ -z "${PDFLATEX:-}" ]; then
		skip "pdflatex $name" "no pdflatex"
		continue
	fi
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape "$name.tex" > "$name.out" 2>&1)
	st=$?
	ok $st "pdflatex compiles $name.tex"
	[ $st -eq 0 ] || diag "$(grep -A3 '^!' "$tmp/doc/$name.log" | head -20)"
done < "$tmp/manifest"

# Pictures: a page of a PDF and a plot, as PNG.
if [ -n "${PDFLATEX:-}" ] && command -v pdftoppm >/dev/null 2>&1 &&
   [ -f "$tmp/doc/cg_tree.pdf" ]; then
	pdftoppm -png -r 50 -f 1 -l 1 -singlefile "$tmp/doc/cg_tree.pdf" \
		"$tmp/page" && [ -s "$tmp/page.png" ] &&
		[ "$(head -c 4 "$tmp/page.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	ok $? "pdftoppm turns a page of cg_tree.pdf into PNG"
else
	skip "pdftoppm page" "no pdflatex or pdftoppm"
fi
"$SEGC" eval --svg "$tmp/plot.svg" -m "$top_srcdir/xml/machines/ncube2.xml" \
	"$top_srcdir/xml/cg_tree.xml" N=1000 P=1..1024*2 > "$tmp/table" &&
	grep -q '<polyline' "$tmp/plot.svg" && grep -q '</svg>' "$tmp/plot.svg"
ok $? "eval --svg writes a plot"
if [ -n "${XMLLINT:-}" ]; then
	"$XMLLINT" --noout --nonet "$tmp/plot.svg"
	ok $? "the plot is well-formed XML"
else
	skip "the plot is well-formed XML" "no xmllint"
fi
if command -v rsvg-convert >/dev/null 2>&1; then
	rsvg-convert -o "$tmp/plot.png" "$tmp/plot.svg" && [ -s "$tmp/plot.png" ]
	ok $? "rsvg-convert turns the plot into PNG"
else
	skip "rsvg-convert" "no rsvg-convert"
fi
"$SEGC" eval --svg "$tmp/plot2.svg" -m "$top_srcdir/xml/machines/ncube2.xml" \
	"$top_srcdir/xml/cg_tree.xml" N=1000 P=1..1024*2 > /dev/null &&
	cmp -s "$tmp/plot.svg" "$tmp/plot2.svg"
ok $? "the plot is deterministic"
done_testing
