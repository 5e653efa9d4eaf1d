#!/bin/sh
# graph_errors.sh - every way the reduction of a graph can fail reaches
# the user: the command exits 2 with an error that names the file and the
# line, and writes nothing on standard output (CLI.md, "Exit codes").
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# A fork whose branches an or-split also enters: neither structured nor
# a pure task graph nor a pure Markov chain.
cat >"$tmp/mixed.xml" <<'EOM'
<model name="mixed" version="1">
  <param name="p" min="0" max="1"/>
  <resource name="a"/>
  <graph name="main">
    <node id="s" cost="a"/>
    <node id="x" cost="a" split="and"/>
    <node id="y" cost="a"/>
    <node id="z" cost="a"/>
    <node id="t" cost="a" join="and"/>
    <arc from="s" to="x"/>
    <arc from="s" to="y" prob="p"/>
    <arc from="x" to="y"/>
    <arc from="x" to="z"/>
    <arc from="y" to="t"/>
    <arc from="z" to="t"/>
  </graph>
</model>
EOM

# A task graph with a cycle: it has no longest path.
cat >"$tmp/cycle.xml" <<'EOM'
<model name="cycle" version="1">
  <resource name="a"/>
  <graph name="main">
    <node id="s" cost="a" split="and"/>
    <node id="x" cost="a" split="and" join="and"/>
    <node id="y" cost="a" split="and" join="and"/>
    <node id="t" cost="a" join="and"/>
    <arc from="s" to="x"/>
    <arc from="s" to="y"/>
    <arc from="x" to="y"/>
    <arc from="y" to="x"/>
    <arc from="x" to="t"/>
    <arc from="y" to="t"/>
  </graph>
</model>
EOM

# A loop whose region is entered at a node other than the arc's target.
cat >"$tmp/twoentry.xml" <<'EOM'
<model name="twoentry" version="1">
  <param name="n" min="1"/>
  <param name="p" min="0" max="1"/>
  <resource name="a"/>
  <graph name="main">
    <node id="s" cost="a"/>
    <node id="x" cost="a"/>
    <node id="y" cost="a"/>
    <node id="t" cost="a"/>
    <arc from="s" to="x" prob="p"/>
    <arc from="s" to="y"/>
    <arc from="x" to="y"/>
    <arc from="y" to="t"/>
    <arc from="y" to="x" loop="n"/>
  </graph>
</model>
EOM

# refused NAME FILE PATTERN CMD...: exit 2, an error at a line and column of FILE
# matching PATTERN, nothing on standard output.
refused() {
	name=$1 file=$2 pattern=$3
	shift 3
	"$SEGC" "$@" "$tmp/$file" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] &&
		grep -Eq "^$tmp/$file:[0-9]+:[0-9]+: error: .*$pattern" "$tmp/err" &&
		[ ! -s "$tmp/out" ]
	ok $? "$name: $*: exit 2 (got $rc), located error, no output"
	[ "$rc" -eq 2 ] || diag "$(head -3 "$tmp/err")"
}

for cmd in "derive" "derive --form structural" "latex --standalone"; do
	# shellcheck disable=SC2086
	refused "mixed and/or graph" mixed.xml "mixes or-splits" $cmd
	# shellcheck disable=SC2086
	refused "task graph with a cycle" cycle.xml "has a cycle" $cmd
	# shellcheck disable=SC2086
	refused "loop region with two entries" twoentry.xml \
		"does not reduce to one node" $cmd
done
done_testing
