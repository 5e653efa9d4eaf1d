#!/bin/sh
# validate_all.sh - 'segc validate' reports the errors of every stage in
# one run: an unknown attribute (the structure), an undeclared name (the
# declarations), a probability out of range (the meaning) and a node that
# cannot reach the exit (the graph), each FILE:LINE:COL, in stage order;
# an element that fails the structure is taken out and the rest checked,
# unless it is a declaration (its uses would look undeclared); the
# formulas are checked with the blocks and graphs in error taken out,
# unless an error lies elsewhere.
. "$top_srcdir/tests/cli/lib.sh"

# expect NAME WANT: validate $tmp/NAME.xml exits 2, prints nothing on
# stdout and exactly the lines WANT (FILE stands for the document) on
# stderr.
expect() {
	(cd "$tmp" && "$SEGC" validate "$1.xml") >"$tmp/out" 2>"$tmp/err"
	st=$?
	printf '%s\n' "$2" | sed "s|^|$1.xml:|" > "$tmp/want"
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && diff -u "$tmp/want" "$tmp/err" \
		>"$tmp/diff"
	r=$?
	[ $r -eq 0 ] || diag "exit $st" "$(cat "$tmp/diff" "$tmp/err")"
	return $r
}

cat > "$tmp/four.xml" <<'EOF'
<model name="m" version="1">
  <param name="B"/>
  <resource name="t"/>
  <graph name="main">
    <step cost="t" colour="red"/>
    <step cost="q*N"/>
    <branch>
      <case prob="-1/2"><step cost="t"/></case>
      <case prob="3/2"><step cost="B"/></case>
    </branch>
    <call graph="side"/>
    <loop count="-N"><step cost="t"/></loop>
  </graph>
  <graph name="side">
    <node id="a" cost="t"/>
    <node id="c" cost="t"/>
    <node id="e"/>
    <arc from="a" to="c" prob="1/2"/>
    <arc from="a" to="e"/>
    <arc from="c" to="c" prob="1"/>
  </graph>
</model>
EOF
expect four "5:20: error: <step>: unknown attribute 'colour'
6:17: error: undeclared name 'q' in attribute 'cost' of <step> at column 1 of the value
8:19: error: <branch>: probability -1/2 is not in [0, 1]
9:19: error: <branch>: probability 3/2 is not in [0, 1]
16:5: error: <node> 'c' of graph 'side' cannot reach the exit 'e'
12:5: error: the loop count -N is negative on the declared domains"
ok $? "one run reports the errors of every stage, in stage order"

# An unknown element and a loop without a count are taken out: the
# undeclared name after them is still found.
cat > "$tmp/blocks.xml" <<'EOF'
<model name="m" version="1">
  <resource name="t"/>
  <graph name="main">
    <stepp cost="t"/>
    <step cost="t*z"/>
    <loop><step cost="t"/></loop>
  </graph>
</model>
EOF
expect blocks "4:5: error: <graph>: unknown element <stepp> (did you mean <step>?)
6:5: error: <loop> needs either count or var/from/to
5:19: error: undeclared name 'z' in attribute 'cost' of <step> at column 3 of the value"
ok $? "blocks that fail the structure are skipped, the rest is checked"

# A declaration that fails the structure stops there: taking it out would
# make every use of its name an error of its own.
cat > "$tmp/decl.xml" <<'EOF'
<model name="m" version="1">
  <param nam="B"/>
  <graph name="main">
    <step cost="z"/>
  </graph>
</model>
EOF
expect decl "2:10: error: <param>: unknown attribute 'nam' (did you mean 'name'?)
2:3: error: <param> lacks the attribute 'name'"
ok $? "a declaration that fails the structure stops at the structure"

# A function's body or an expectation's formula written as an unknown
# attribute stops at the structure: the later stages would call it empty.
cat > "$tmp/text.xml" <<'EOF'
<model name="m" version="1">
  <function name="f" args="x" value="x + 1"/>
  <graph name="main">
    <step cost="f(N) + z"/>
  </graph>
</model>
EOF
expect text "2:31: error: <function>: unknown attribute 'value'"
ok $? "an element of text with an unknown attribute stops at the structure"

# The formulas of a model whose unknown attribute was taken out.
cat > "$tmp/formula.xml" <<'EOF'
<model name="m" version="1">
  <param name="B"/>
  <let name="none" value="B - B"/>
  <graph name="main">
    <step cost="N/none" weight="2"/>
  </graph>
</model>
EOF
expect formula "5:25: error: <step>: unknown attribute 'weight'
5:5: error: division by zero"
ok $? "the formulas are checked after a structural error"

# An error in a declaration keeps the formulas from being checked (the
# loop's count is not reported); one in the program's own arc-form graph
# too.
cat > "$tmp/declared.xml" <<'EOF'
<model name="m" version="1">
  <let name="w" value="z + 1"/>
  <graph name="main">
    <loop count="-N"><step cost="w"/></loop>
  </graph>
</model>
EOF
expect declared "2:24: error: undeclared name 'z' in attribute 'value' of <let> at column 1 of the value"
ok $? "an error in a declaration: the formulas are not checked"
cat > "$tmp/arcmain.xml" <<'EOF'
<model name="m" version="1">
  <graph name="main">
    <node id="a" cost="N/(N - N)"/>
    <node id="c"/>
    <node id="e"/>
    <arc from="a" to="c" prob="1/2"/>
    <arc from="a" to="e"/>
    <arc from="c" to="c" prob="1"/>
  </graph>
</model>
EOF
expect arcmain "4:5: error: <node> 'c' of graph 'main' cannot reach the exit 'e'"
ok $? "an error in the program's arc-form graph: the formulas are not checked"

# Blocks in error inside a loop and a case are taken out, the rest of
# them checked: the division by zero beside them is found.
cat > "$tmp/inner.xml" <<'EOF'
<model name="m" version="1">
  <param name="B"/>
  <graph name="main">
    <loop var="i" from="1" to="N">
      <step cost="i*y"/>
      <step cost="N/(B - B)"/>
    </loop>
    <branch>
      <case prob="1/2"><step cost="sqrt(N, P)"/></case>
      <case><step cost="B"/></case>
    </branch>
  </graph>
</model>
EOF
expect inner "5:21: error: undeclared name 'y' in attribute 'cost' of <step> at column 3 of the value
9:36: error: attribute 'cost' of <step>: sqrt() takes 1 argument, not 2
6:7: error: division by zero"
ok $? "the formulas of the blocks beside those in error are checked"

# --limit max_errors still bounds the count.
(cd "$tmp" && "$SEGC" validate --limit max_errors=2 four.xml) \
	>"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ "$(grep -c ': error: ' "$tmp/err")" -eq 2 ]
ok $? "the error limit still holds (exit $st, $(grep -c ': error: ' "$tmp/err") errors)"

done_testing
