#!/bin/sh
# injection.sh - hostile text in models and machines (names, descriptions,
# 'latex' attributes, expectation sources): the command either refuses it
# (exit 2, one clean line per error) or writes output in which the text
# stays text: the emitted C compiles warning-free and defines nothing the
# text spelled, the LaTeX compiles with pdflatex (no shell escape) without
# reading or writing a file the text named.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

GCC=${GCC:-gcc}
command -v "$GCC" >/dev/null 2>&1 || GCC=${CC:-cc}
marker=$tmp/pwned

# Hostile free text (descriptions, step names, sources): comment and string terminators, preprocessor lines,
# trigraphs, TeX primitives that read, write or run files, TeX specials,
# quotes, backslashes, newlines, unicode (accents, CJK, bidi override).
hostile="*/ int injected_symbol = 1; /* // ??/
#include \"/etc/passwd\"
#error injected
\\input{/etc/passwd} \\include{/etc/passwd} \\openin5=/etc/passwd
\\immediate\\write18{touch $marker} \\write18{touch $marker}
\\catcode\`\\@=0 @input /etc/passwd \\def\\x{y} \\end{document}
} { % \$ &amp; # ^^5c ^ _ ~ \"q\" 'q' \\\\ ??= ??( ??' ??! ??- ??&gt;
&#xe9; &#x65e5;&#x672c; &#x202e;txet &#x200b; &#x7f; &#x9b;31m"

# The same text as an attribute value.
hostile_attr=$(printf '%s' "$hostile" | sed 's/"/\&quot;/g')

# clean_errors FILE: every line is a GNU-style error or a hint, and no
# byte is a control character.
clean_errors() {
	! LC_ALL=C grep -q '[[:cntrl:]]' "$1" &&
	! grep -Ev '^[^ ]*(:[0-9]+){0,2}: error: |^segc: |^Try ' "$1" | grep -q .
}

# The model: hostile description and expectation source, a machine with
# a hostile description, parameters named like C keywords and macros.
cat >"$tmp/m.xml" <<EOM
<model name="hostile" version="1">
  <description>$hostile</description>
  <param name="int"/><param name="NAN"/><param name="sqrt"/><param name="t0"/>
  <resource name="r" latex="r_{\\mathrm{x}}"/>
  <machine name="mach" version="1">
    <description>$hostile</description>
    <cost name="r" value="3"/>
  </machine>
  <graph name="main">
    <step name="$hostile_attr" cost="r*sqrt(N)*int + NAN/P + t0"/>
  </graph>
  <expect source="$hostile_attr">3*sqrt(N)*int + NAN/P + t0</expect>
</model>
EOM
cat >"$tmp/mach.xml" <<EOM
<machine name="ext" version="1">
  <description>$hostile</description>
  <cost name="r" value="5"/>
</machine>
EOM
"$SEGC" validate "$tmp/m.xml" 2>"$tmp/err"
ok $? "the hostile model is valid (free text is allowed)"
[ -s "$tmp/err" ] && diag "$(head -5 "$tmp/err")"
"$SEGC" validate "$tmp/mach.xml" 2>/dev/null
ok $? "the hostile machine is valid"

# ---------------------------------------------------------------- C
mkdir -p "$tmp/c"
for m in "" "$tmp/mach.xml"; do
	label=${m:+" -m machine"}
	(cd "$tmp/c" && "$SEGC" emit ${m:+-m "$m"} --main -o pred \
		--keep int --keep NAN --keep sqrt --keep t0 "$tmp/m.xml") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q 'not built yet' "$tmp/err"; then
		skip "emit$label" "not built yet"
		continue
	fi
	ok $rc "emit$label: writes the predictor"
	[ $rc -eq 0 ] || { diag "$(head -5 "$tmp/err")"; continue; }
	(cd "$tmp/c" && "$GCC" -std=c99 -Wall -Wextra -Werror -pedantic \
		-c pred.c -o pred.o) >"$tmp/cc" 2>&1
	rc=$?
	ok $rc "emit$label: the C compiles with -std=c99 -Wall -Wextra -Werror -pedantic"
	[ $rc -eq 0 ] || diag "$(head -20 "$tmp/cc")"
	! nm "$tmp/c/pred.o" 2>/dev/null | grep -q injected
	ok $? "emit$label: the text defined no symbol"
	! "$GCC" -std=c99 -E -P "$tmp/c/pred.c" -I"$tmp/c" 2>/dev/null |
		grep -q 'injected_symbol\|passwd'
	ok $? "emit$label: the text is in no line the compiler reads"
	(cd "$tmp/c" && "$GCC" -std=c99 -Wall -Wextra -Werror -pedantic \
		-Wtrigraphs -trigraphs -c pred.c -o pred2.o) >"$tmp/cc" 2>&1
	ok $? "emit$label: no trigraph in the C"
done

# ------------------------------------------------------------- LaTeX
mkdir -p "$tmp/tex"
for m in "" "$tmp/mach.xml"; do
	label=${m:+" -m machine"}
	"$SEGC" latex ${m:+-m "$m"} --standalone "$tmp/m.xml" \
		>"$tmp/tex/doc.tex" 2>"$tmp/err"
	rc=$?
	if grep -q 'not built yet' "$tmp/err"; then
		skip "latex$label" "not built yet"
		continue
	fi
	ok $rc "latex --standalone$label: writes the document"
	[ $rc -eq 0 ] || { diag "$(head -5 "$tmp/err")"; continue; }
	! grep -q '\\input{/etc\|\\write18\|\\immediate\|\\openin\|\\catcode\|\\def\\x\|\\include{' \
		"$tmp/tex/doc.tex"
	ok $? "latex$label: no TeX primitive of the text survives"
	[ "$(grep -c '\\end{document}' "$tmp/tex/doc.tex")" -eq 1 ]
	ok $? "latex$label: the document ends once"
	if [ -z "${PDFLATEX:-}" ]; then
		skip "latex$label: pdflatex" "no pdflatex"
		continue
	fi
	rm -f "$marker"
	(cd "$tmp/tex" && HOME=$tmp/tex openout_any=p openin_any=p \
		"$PDFLATEX" -no-shell-escape -interaction=nonstopmode \
		-halt-on-error doc.tex) >"$tmp/tex/out" 2>&1
	rc=$?
	ok $rc "latex$label: pdflatex compiles the document"
	[ $rc -eq 0 ] || diag "$(grep -A3 '^!' "$tmp/tex/out" | head -10)"
	[ ! -e "$marker" ] && ! grep -q '(/etc/passwd' "$tmp/tex/doc.log"
	ok $? "latex$label: no file read, written or run"
done

# ----------------------------------------------- refused: exit 2, clean
# refused CMD NAME XML: CMD refuses the model with exit 2 and clean
# errors.  (Backslashes are shown as '|' in test names.)
refused() {
	printf '%s\n' "$3" >"$tmp/r.xml"
	"$SEGC" $1 "$tmp/r.xml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && clean_errors "$tmp/err"
	ok $? "refused by $1: $(printf '%s' "$2" | tr '\\' '|') (exit $rc)"
	[ $rc -eq 2 ] || diag "$(head -3 "$tmp/out")"
	clean_errors "$tmp/err" || diag "$(head -5 "$tmp/err" | od -c | head -8)"
}
step='<graph name="main"><step cost="a"/></graph>'
for name in '*/x' 'a b' 'x&#10;y' 'x&#x7f;' '&#xe9;t&#xe9;' '??/' \
	'a\b' 'a}b' 'a%b' 'a&quot;b' '1a' ''; do
	refused derive "model name '$name'" "<model name=\"$name\" version=\"1\">
<param name=\"a\"/>$step</model>"
	refused derive "parameter name '$name'" "<model name=\"m\" version=\"1\">
<param name=\"a\"/><param name=\"$name\"/>$step</model>"
	refused derive "graph name '$name'" "<model name=\"m\" version=\"1\">
<param name=\"a\"/><graph name=\"$name\"><step cost=\"a\"/></graph></model>"
	refused derive "node id '$name'" "<model name=\"m\" version=\"1\">
<param name=\"a\"/><graph name=\"main\"><node id=\"$name\" cost=\"a\"/></graph></model>"
done
for l in '\input{/etc/passwd}' '\write18{ls}' 'x}\def\y{' '%' '#' \
	'a^^5cinput' '\csname input\endcsname' '\catcode' '\immediate' \
	'x&#10;y' '$' '&amp;' '~' '\\' '\char92' '\openout' \
	'\mathrm{\input{x}}' '\begin{document}' '\end{equation}' \
	'\makeatletter' '\usepackage{x}' '\newcommand{\x}{y}' '\let\a\b' \
	'\verb|x|' '\expandafter' '\string' '\lowercase{x}' '&#x7f;'; do
	refused latex "latex attribute '$l' of a parameter" "<model name=\"m\" version=\"1\">
<param name=\"a\" latex=\"$l\"/>$step</model>"
	refused latex "latex attribute '$l' of a resource" "<model name=\"m\" version=\"1\">
<param name=\"a\"/><resource name=\"r\" latex=\"$l\"/>$step</model>"
done

# ------------------------------------------ other outputs of free text
"$SEGC" dot "$tmp/m.xml" >"$tmp/g.dot" 2>"$tmp/err"
rc=$?
ok $rc "dot: draws the hostile model"
if [ $rc -eq 0 ] && [ -n "${DOT:-}" ]; then
	"$DOT" -Tcanon "$tmp/g.dot" >"$tmp/g2.dot" 2>"$tmp/err"
	ok $? "dot: Graphviz reads the output"
	! grep -q 'injected_symbol = 1; /\* // ??/"' "$tmp/g2.dot" &&
	[ "$(grep -c -- '->' "$tmp/g.dot")" -eq "$(grep -c -- '->' "$tmp/g2.dot")" ]
	ok $? "dot: the step name stays inside its label"
fi
"$SEGC" check "$tmp/m.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if grep -q 'not built yet' "$tmp/err"; then
	skip "check" "not built yet"
else
	[ $rc -eq 0 ] || [ $rc -eq 1 ]
	ok $? "check: runs on the hostile model (exit $rc)"
	! LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/out" &&
		[ "$(grep -c . "$tmp/out")" -eq 1 ]
	ok $? "check: the source is printed on one line of printable text"
fi
done_testing
