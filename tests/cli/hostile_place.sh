#!/bin/sh
# hostile_place.sh - hostile documents that must be refused with an error
# at a place of the document (FILE:LINE), the right exit code and nothing
# written, never with a crash, an abort or a diagnostic without a place.
. "$top_srcdir/tests/cli/lib.sh"

bad="$top_srcdir/tests/bad"

# refused CODE WANT NAME CMD...: runs CMD (in $tmp) and passes when it exits
# with CODE, writes nothing on standard output and its standard error is
# exactly the line WANT.
refused() {
	want_code=$1 want=$2 name=$3
	shift 3
	code=0
	(cd "$tmp" && "$@") >"$tmp/out" 2>"$tmp/err" || code=$?
	[ "$code" -eq "$want_code" ] && [ ! -s "$tmp/out" ]
	ok $? "$name: exit code $want_code, nothing written"
	[ "$code" -eq "$want_code" ] || diag "got exit code $code"
	printf '%s\n' "$want" >"$tmp/want"
	same_file "$tmp/want" "$tmp/err" "$name: diagnostics"
}

# A self loop of probability 1 leaves its node with probability 0: the
# node cannot reach the exit, said at the node by every command.
cp "$bad/arc_self_loop_prob_one.xml" "$bad/arc_cycle_prob_one.xml" "$tmp/"
want=$(cat "$bad/arc_self_loop_prob_one.err")
for cmd in "derive" "derive --form structural" "latex" "eval N=1..3" \
	"check --expect N"; do
	# shellcheck disable=SC2086 # $cmd is words on purpose
	refused 2 "$want" "self loop of probability 1: $cmd" \
		"$SEGC" $cmd arc_self_loop_prob_one.xml
done
cat >"$tmp/self_p.xml" <<'EOF1'
<model name="m" version="1">
  <param name="p" min="0" max="1"/>
  <graph name="main">
    <node id="a" cost="N"/>
    <node id="b" cost="N"/>
    <node id="e"/>
    <arc from="a" to="b"/>
    <arc from="b" to="b" prob="p"/>
    <arc from="b" to="e"/>
  </graph>
</model>
EOF1
refused 2 "self_p.xml:5:5: error: <node> 'b' cannot reach the exit 'e': the <arc> at line 9, which leads there, has probability 0" \
	"-D p=1 makes a self loop certain" "$SEGC" derive -D p=1 self_p.xml

# A limit reached in the formula names the element that reaches it alone,
# else the graph.
cat >"$tmp/terms.xml" <<'EOF1'
<model name="m" version="1">
  <resource name="a"/>
  <resource name="b"/>
  <graph name="main">
    <step cost="a"/>
    <step cost="(a+b)^30"/>
  </graph>
</model>
EOF1
for cmd in "derive" "check --expect a"; do
	# shellcheck disable=SC2086 # $cmd is words on purpose
	refused 3 "terms.xml:6:5: error: number of terms of a polynomial exceeds the limit 10 (max_terms)" \
		"a step too large alone: $cmd" "$SEGC" $cmd --limit max_terms=10 \
		terms.xml
done
# emit computes the structural form, which it never expands: the limit
# is not reached, (a+b)^30 is a power of a sum in the C.
(cd "$tmp" && "$SEGC" emit -q --limit max_terms=10 --keep a --keep b \
	-o pred terms.xml) 2>"$tmp/err" && [ -f "$tmp/pred.c" ] &&
	[ ! -s "$tmp/err" ]
ok $? "emit of a step too large to expand: the structural form, unexpanded"
cat >"$tmp/terms_nest.xml" <<'EOF1'
<model name="m" version="1">
  <resource name="a"/>
  <resource name="b"/>
  <resource name="c"/>
  <graph name="main">
    <loop count="a+b+c">
      <loop count="a+b+c">
        <loop count="a+b+c">
          <step cost="a+b+c"/>
        </loop>
      </loop>
    </loop>
  </graph>
</model>
EOF1
refused 3 "terms_nest.xml:5:3: error: number of terms of a polynomial exceeds the limit 10 (max_terms)" \
	"a limit only the whole formula reaches" "$SEGC" derive \
	--limit max_terms=10 terms_nest.xml
refused 3 "terms_nest.xml:5:3: error: simplifying this formula takes more than 100 units of polynomial arithmetic (max_work)" \
	"max_work reached by the whole formula" "$SEGC" derive \
	--limit max_work=100 terms_nest.xml

# Recursion through a machine's functions is recursion (exit 2), named
# at the function where the cycle starts, also when the machine comes
# from -m.
cat >"$tmp/rec_machine.xml" <<'EOF1'
<machine name="mm" version="1">
  <function name="f" args="x">g(x) + 1</function>
</machine>
EOF1
cat >"$tmp/rec_model.xml" <<'EOF1'
<model name="m" version="1">
  <function name="g" args="x">f(x) * 2</function>
  <graph name="main"><step cost="g(N)"/></graph>
</model>
EOF1
for cmd in "derive" "latex" "eval N=1" "check --expect N"; do
	# shellcheck disable=SC2086 # $cmd is words on purpose
	refused 2 "rec_model.xml:2:3: error: <function>: recursion is not allowed: 'g' -> 'f' -> 'g'" \
		"model and -m machine functions calling each other: $cmd" \
		"$SEGC" $cmd -m rec_machine.xml rec_model.xml
done
cat >"$tmp/rec_self.xml" <<'EOF1'
<machine name="mm" version="1">
  <function name="f" args="x">f(x) + 1</function>
</machine>
EOF1
cat >"$tmp/rec_call.xml" <<'EOF1'
<model name="m" version="1">
  <graph name="main"><step cost="f(N)"/></graph>
</model>
EOF1
refused 2 "rec_self.xml:2:3: error: <function>: recursion is not allowed: 'f' -> 'f'" \
	"a -m machine function calling itself" "$SEGC" derive \
	-m rec_self.xml rec_call.xml

# max_depth and max_literal_digits cannot be raised past what the stack
# and GMP take: a usage error that names the most.
refused 2 "segc: derive: --limit max_depth: the value is not a number from 0 to 20000 (the most this limit can be)
Try 'segc derive --help' for more information." \
	"--limit max_depth=60000" "$SEGC" derive --limit max_depth=60000 \
	-m rec_self.xml rec_call.xml
refused 2 "segc: derive: --limit max_literal_digits: the value is not a number from 0 to 1000000 (the most this limit can be)
Try 'segc derive --help' for more information." \
	"--limit max_literal_digits=2^64-1" "$SEGC" derive \
	--limit max_literal_digits=18446744073709551615 rec_call.xml
cat >"$tmp/literal.xml" <<'EOF1'
<model name="m" version="1">
  <graph name="main"><step cost="1e99999999999999*N"/></graph>
</model>
EOF1
refused 3 "literal.xml:2:34: error: attribute 'cost' of <step>: exponent of number literal too large (more than 10000000) at column 1 of the value" \
	"1e99999999999999 at the largest max_literal_digits" "$SEGC" derive \
	--limit max_literal_digits=1000000 --limit max_coeff_bits=0 literal.xml

# A formula nested deeper than max_depth (20,000 nested loops, each
# adding a level of sum and one of product) is refused before the
# recursive walks over it could overflow the stack.
awk 'BEGIN { n = 19990
	print "<model name=\"deep\" version=\"1\"><resource name=\"a\"/>"
	print "<graph name=\"main\">"
	for (i = 0; i < n; i++) print "<loop count=\"N\"><step cost=\"a\"/>"
	print "<step cost=\"a\"/>"
	for (i = 0; i < n; i++) print "</loop>"
	print "</graph>"
	print "</model>" }' >"$tmp/deep_formula.xml"
for cmd in "derive" "latex" "eval N=2"; do
	# shellcheck disable=SC2086 # $cmd is words on purpose
	refused 3 "deep_formula.xml:2:1: error: the formula of the program nests more than 20064 levels deep (max_depth)" \
		"a formula 40,000 levels deep: $cmd" "$SEGC" $cmd \
		deep_formula.xml
done

done_testing
