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

# ----------------------------------------- the count of an overlapped loop
# overlapped COUNT [DECL]: a loop of two nodes (costs 2 and 1) whose
# iterations overlap, run COUNT times; k and r declared (k integer).
overlapped() {
	cat <<EOX
<?xml version="1.0"?>
<model name="m" version="1">
  <param name="k" min="0" integer="true"/>
  <param name="r" min="0"/>
  <graph name="main">
    <node id="a" cost="2"/>
    <node id="b" cost="1"/>
    <arc from="a" to="b"/>
    <arc from="b" to="a" forward="1"/>
    <arc from="b" to="a" loop="$1" overlap="true"$2/>
  </graph>
</model>
EOX
}
# The unrolled schedule: a(i) = 2 + b(i-1), b(i) = a(i) + 1, so T(n) = 3n.
overlapped 4 >"$tmp/o4.xml"
[ "$("$SEGC" derive "$tmp/o4.xml" 2>&1)" = 12 ]
ok $? "an overlapped loop run 4 times derives to 12, the unrolled schedule"
for c in "1/2:" '5/2: var="i"' "r:" "k/2:" "ceil(r)/2:"; do
	count=${c%%:*}
	overlapped "$count" "${c#*:}" >"$tmp/ov.xml"
	for cmd in derive emit; do
		rm -rf "$tmp/em" && mkdir "$tmp/em"
		if [ $cmd = derive ]; then
			"$SEGC" derive "$tmp/ov.xml" >"$tmp/out" 2>"$tmp/err"
		else
			"$SEGC" emit --keep k --keep r -o "$tmp/em/p" "$tmp/ov.xml" \
				>"$tmp/out" 2>"$tmp/err"
		fi
		st=$?
		[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls -A "$tmp/em")" ] &&
			grep -qF -e "$tmp/ov.xml:10:5: error: the count of a loop whose iterations overlap must be an integer, and '$count'" \
				-e "$tmp/ov.xml:10:5: error: the loop count $count is not an integer, and the loop has a counter" "$tmp/err"
		ok $? "$cmd: overlapped count $count${c#*:} refused at the arc, exit 2, nothing written (got $st)"
		[ $st -eq 2 ] || diag "$(cat "$tmp/out" "$tmp/err")"
	done
done
overlapped r >"$tmp/ov.xml"
"$SEGC" derive -D r=1/2 "$tmp/ov.xml" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "and '1/2' is not one" "$tmp/err"
ok $? "a count bound to 1/2 with -D is refused"
for c in k "ceil(r)" "2*k+1" "max(k, 3)"; do
	overlapped "$c" >"$tmp/ov.xml"
	"$SEGC" eval "$tmp/ov.xml" k=4 r=7/2 >"$tmp/out" 2>"$tmp/err"
	ok $? "an overlapped count $c that is an integer is accepted"
done

done_testing
