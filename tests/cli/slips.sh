#!/bin/sh
# slips.sh - slips of the command line are refused with a message that
# names them (and the name meant, when one is near): exit 2, nothing
# written.
. "$top_srcdir/tests/cli/lib.sh"

xml="$top_srcdir/xml"

# refused NAME WANT ARGS...: runs segc ARGS, expects exit 2, no output and
# the first line of standard error WANT.
refused() {
	name=$1
	want=$2
	shift 2
	code=0
	"$SEGC" "$@" >"$tmp/out" 2>"$tmp/err" || code=$?
	[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ]
	ok $? "$name: exit code 2, nothing written"
	printf '%s\n' "$want" >"$tmp/want"
	head -1 "$tmp/err" >"$tmp/got"
	same_file "$tmp/want" "$tmp/got" "$name: message"
}

refused "-D of an undeclared name" \
	"segc: derive: -D 'iters': the model declares no such name (not a parameter, resource, let, machine const or cost, N or P)" \
	derive -D iters=5 "$xml/find_max.xml"
refused "-D of a misspelt name" \
	"segc: derive: -D 'N_elemnt': the model declares no such name (did you mean 'N_element'?)" \
	derive -D N_elemnt=5 "$xml/find_max.xml"
refused "-D of one name twice" \
	"segc: latex: -D N_element=6: 'N_element' is given twice" \
	latex -D N_element=5 -D N_element=6 "$xml/find_max.xml"
refused "--keep of an undeclared name" \
	"segc: emit: --keep 't_stmx': the model declares no such name (did you mean 't_stmt'?)" \
	emit -o "$tmp/p" --keep t_stmx "$xml/cg_tree.xml"
[ ! -e "$tmp/p.c" ]
ok $? "--keep of an undeclared name: no file written"
refused "a grid name that is not a parameter" \
	"segc: eval: grid name 'Q': the model declares no such name (not a parameter, resource, let, machine const or cost, N or P)" \
	eval -m "$xml/machines/ncube2.xml" "$xml/cg_tree.xml" Q=3 N=10
refused "a misspelt grid name" \
	"segc: eval: grid name 'N_elemnt': the model declares no such name (did you mean 'N_element'?)" \
	eval "$xml/find_max.xml" N_elemnt=3
refused "a grid name given twice" \
	"segc: eval: N=20: 'N' is given twice in the grid" \
	eval -m "$xml/machines/ncube2.xml" "$xml/cg_tree.xml" N=10 N=20
# A machine's names may be bound: they are declared by the machine.
"$SEGC" derive -m "$xml/machines/ncube2.xml" -D t_stmt=1 \
	"$xml/cg_tree.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "-D of a machine's cost is accepted"

refused "--keep of one name twice" \
	"segc: emit: --keep N_element: 'N_element' is given twice" \
	emit -o "$tmp/p" --keep N_element --keep N_element "$xml/find_max.xml"
[ ! -e "$tmp/p.c" ]
ok $? "--keep of one name twice: no file written"
bind="-D P_max=1 -D t_assign=1 -D t_if=1 -D t_loop=1"
refused "a name given by -D and in the grid (eval)" \
	"segc: eval: grid name 'N_element': also given by -D (give it once)" \
	eval $bind -D N_element=3 "$xml/find_max.xml" N_element=4 N=1 P=1
ncube=$xml/machines/ncube2.xml
refused "a name given by -D and in the grid (whatif)" \
	"segc: whatif: grid name 'N': also given by -D (give it once)" \
	whatif -m "$ncube" -D N=5 --scale t_stmt=2 "$xml/cg_tree.xml" N=3 P=2
refused "a misspelt grid name (whatif)" \
	"segc: whatif: grid name 'Nn': the model declares no such name (did you mean 'N'?)" \
	whatif -m "$ncube" --scale t_stmt=2 "$xml/cg_tree.xml" Nn=3 P=2
refused "a grid name that is not a parameter (sensitivity)" \
	"segc: sensitivity: grid name 'Q': the model declares no such name (not a parameter, resource, let, machine const or cost, N or P)" \
	sensitivity -m "$ncube" "$xml/cg_tree.xml" Q=3 N=2 P=2
refused "a name given by -D and in the grid (sensitivity)" \
	"segc: sensitivity: grid name 'P': also given by -D (give it once)" \
	sensitivity -m "$ncube" -D P=3 "$xml/cg_tree.xml" P=3 N=2

# A grid name that a machine (here inline) or a <param value> binds: the
# grid's values win, as -D's would: t*N + w at N=3 is 5*3 + 7 = 22 (the
# machine's t = 2 and w = 1 would give 7).
cat > "$tmp/over.xml" <<'EOF'
<model name="m" version="1">
  <param name="w" value="1"/>
  <resource name="t"/>
  <machine name="inline" version="1"><cost name="t" value="2"/></machine>
  <graph name="main"><step cost="t*N + w"/></graph>
</model>
EOF
"$SEGC" eval --csv "$tmp/over.xml" N=3 P=1 t=5 w=7 >"$tmp/out" 2>"$tmp/err" &&
	[ "$(sed -n 2p "$tmp/out")" = "3,1,5,7,22,0,0,22" ]
ok $? "the grid's values win over a machine's and a <param value> ($(sed -n 2p "$tmp/out"))"

"$SEGC" whatif --scale t=2 "$tmp/over.xml" N=3 t=5 w=7 >"$tmp/out" 2>"$tmp/err" &&
	tail -1 "$tmp/out" | grep -q '^3  5  7  *22  *37  '
ok $? "whatif: the grid's values win (T_before 5*3 + 7 = 22, T_after 10*3 + 7 = 37)"
"$SEGC" sensitivity "$tmp/over.xml" N=3 t=5 w=7 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^  3\. w: elasticity 0\.318182, derivative 1$' "$tmp/out"
ok $? "sensitivity: the grid's values win (elasticity of w 7/22)"

# In documents: a function of other languages, or another spelling of a
# built-in, is refused with the one meant (exp2 is a built-in); other unknown calls stay
# uninterpreted (doc/format.md, 2.4), and emit and eval name them.
cat > "$tmp/look.xml" <<'EOF'
<model name="m" version="1">
  <graph name="main">
    <step cost="Max(N, P) + ln(P)"/>
    <step cost="exp(2) + pow(N, 2)"/>
    <step cost="power(N, 2) + exp2(N) + sqr(N)"/>
  </graph>
</model>
EOF
cat > "$tmp/want" <<'EOF'
look.xml:3:17: error: call of 'Max' in attribute 'cost' of <step> at column 1 of the value: no such function (did you mean 'max'?)
look.xml:3:29: error: call of 'ln' in attribute 'cost' of <step> at column 13 of the value: not a built-in function: did you mean 'log2', or log(b, x) with a base b?
look.xml:4:17: error: call of 'exp' in attribute 'cost' of <step> at column 1 of the value: not a built-in function: the language has no natural exponential: did you mean exp2(x), 2^x?
look.xml:4:26: error: call of 'pow' in attribute 'cost' of <step> at column 10 of the value: not a built-in function: did you mean x^k? (k a whole number)
look.xml:5:17: error: call of 'power' in attribute 'cost' of <step> at column 1 of the value: not a built-in function: did you mean x^k? (k a whole number)
look.xml:5:41: error: call of 'sqr' in attribute 'cost' of <step> at column 25 of the value: not a built-in function: did you mean x^2 or 'sqrt'?
EOF
(cd "$tmp" && "$SEGC" validate look.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "calls that look like built-ins: exit 2, nothing written"
same_file "$tmp/want" "$tmp/err" "calls that look like built-ins: each named, with the one meant"
cat > "$tmp/unint.xml" <<'EOF'
<model name="m" version="1">
  <graph name="main">
    <step cost="log2x(N) + max2(N, P)"/>
  </graph>
</model>
EOF
"$SEGC" validate "$tmp/unint.xml" >"$tmp/out" 2>"$tmp/err" &&
	[ ! -s "$tmp/err" ] && [ "$("$SEGC" derive "$tmp/unint.xml")" = "log2x(N) + max2(N, P)" ]
ok $? "other unknown calls stay uninterpreted"
"$SEGC" eval "$tmp/unint.xml" N=1 P=1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "the function 'log2x' is not defined (an uninterpreted call)" "$tmp/err" &&
	grep -q "the function 'max2' is not defined" "$tmp/err"
ok $? "eval names each uninterpreted call"

# A loop counter used after its loop is named as the counter of that loop.
cat > "$tmp/scope.xml" <<'EOF'
<model name="m" version="1">
  <graph name="main">
    <loop var="i" from="1" to="N">
      <step cost="i"/>
    </loop>
    <step cost="N + i"/>
  </graph>
</model>
EOF
(cd "$tmp" && "$SEGC" validate scope.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "scope.xml:6:21: error: undeclared name 'i' in attribute 'cost' of <step> at column 5 of the value: 'i' is the counter of the loop at line 3 and is not defined here" ]
ok $? "a loop counter outside its loop is named as such"

done_testing
