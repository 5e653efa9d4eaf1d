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
refused 2 "self_p.xml:5: error: <node> 'b' cannot reach the exit 'e': the <arc> at line 9, which leads there, has probability 0" \
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
for cmd in "derive" "check --expect a" "emit -o pred"; do
	# shellcheck disable=SC2086 # $cmd is words on purpose
	refused 3 "terms.xml:6: error: number of terms of a polynomial exceeds the limit 10" \
		"a step too large alone: $cmd" "$SEGC" $cmd --limit max_terms=10 \
		terms.xml
done
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
refused 3 "terms_nest.xml:5: error: number of terms of a polynomial exceeds the limit 10" \
	"a limit only the whole formula reaches" "$SEGC" derive \
	--limit max_terms=10 terms_nest.xml
refused 3 "terms_nest.xml:5: error: simplifying this formula takes more than 100 units of polynomial arithmetic (max_work)" \
	"max_work reached by the whole formula" "$SEGC" derive \
	--limit max_work=100 terms_nest.xml

done_testing
