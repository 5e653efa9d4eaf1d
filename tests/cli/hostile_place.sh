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

done_testing
