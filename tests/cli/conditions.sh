#!/bin/sh
# conditions.sh - piecewise formulas in models: if(c, a, b), comparisons,
# and, or, not.  Reserved words refused as names, with exit 2; the
# structural formula printed and typeset (eval.sh evaluates it).
. "$top_srcdir/tests/cli/lib.sh"

cat >"$tmp/reserved.xml" <<'XML'
<model name="reserved" version="1">
  <param name="if" min="0"/>
  <resource name="and"/>
  <let name="not" value="1"/>
  <function name="or" args="x">x</function>
  <function name="g" args="if, y">y</function>
  <graph name="main">
    <loop var="not" from="1" to="N"><step cost="1"/></loop>
  </graph>
</model>
XML
cat >"$tmp/want" <<'TXT'
reserved.xml:2:3: error: <param> 'if': the name is a reserved word of the expression language (if, and, or, not)
reserved.xml:3:3: error: <resource> 'and': the name is a reserved word of the expression language (if, and, or, not)
reserved.xml:4:3: error: <let> 'not': the name is a reserved word of the expression language (if, and, or, not)
reserved.xml:5:3: error: <function> 'or': the name is a reserved word of the expression language (if, and, or, not)
reserved.xml:6:3: error: <function>: argument 'if': the name is a reserved word of the expression language (if, and, or, not)
reserved.xml:8:5: error: <loop>: variable 'not': the name is a reserved word of the expression language (if, and, or, not)
TXT
(cd "$tmp" && "$SEGC" validate reserved.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "reserved words as names: exit 2, nothing written"
same_file "$tmp/want" "$tmp/err" "reserved words as names: the diagnostics"

cat >"$tmp/misplaced.xml" <<'XML'
<model name="misplaced" version="1">
  <graph name="main">
    <step cost="N &lt; 3"/>
    <step cost="if(N = 1, 2, 3)"/>
    <step cost="if(N > 1, 2)"/>
  </graph>
</model>
XML
cat >"$tmp/want" <<'TXT'
misplaced.xml:3:19: error: attribute 'cost' of <step>: a comparison ('<') may stand only in the condition of 'if' (its first argument) at column 3 of the value
misplaced.xml:4:22: error: attribute 'cost' of <step>: '=' is not a comparison: write '==' to test equality at column 6 of the value
misplaced.xml:5:28: error: attribute 'cost' of <step>: 'if' takes 3 arguments (condition, value where it holds, value elsewhere), found 2 at column 12 of the value
TXT
(cd "$tmp" && "$SEGC" validate misplaced.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "misplaced conditions: exit 2, nothing written"
same_file "$tmp/want" "$tmp/err" "misplaced conditions: the diagnostics"

cat >"$tmp/if.xml" <<'XML'
<model name="if" version="1">
  <param name="l" min="0" integer="true"/>
  <param name="p" min="1" integer="true"/>
  <resource name="alpha"/> <resource name="beta"/>
  <graph name="main">
    <step cost="if(l &lt;= p, alpha + l*beta, 2*alpha + l*beta)"/>
    <step cost="if(N >= 2 and not N == 5 or P != 1, N, 0)" class="comm"/>
  </graph>
</model>
XML
"$SEGC" validate "$tmp/if.xml"
ok $? "a model with conditions validates"
"$SEGC" derive --form structural "$tmp/if.xml" >"$tmp/out"
echo 'if(l <= p, alpha + l*beta, 2*alpha + l*beta) + if(N >= 2 and not N == 5 or P != 1, N, 0)' >"$tmp/want"
same_file "$tmp/want" "$tmp/out" "the structural formula keeps its conditions"

printf '%s\n' '\begin{cases} \alpha + l \beta & \text{if } l \le p,\\ 2 \alpha + l \beta & \text{otherwise} \end{cases} + \begin{cases} N & \text{if } \left(N \ge 2 \wedge \neg \left(N = 5\right)\right) \vee P \ne 1,\\ 0 & \text{otherwise} \end{cases}' >"$tmp/want"
"$SEGC" latex "$tmp/if.xml" >"$tmp/out"
same_file "$tmp/want" "$tmp/out" "conditions typeset as cases"

mkdir "$tmp/doc"
"$SEGC" latex --standalone "$tmp/if.xml" >"$tmp/doc/if.tex"
ok $? "latex --standalone of a model with conditions"
if [ -n "${PDFLATEX:-}" ]; then
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape if.tex >if.out 2>&1)
	ok $? "pdflatex compiles the cases"
else
	skip "pdflatex compiles the cases" "no pdflatex"
fi

done_testing
