#!/bin/sh
# derive.sh - 'segc derive' on the bundled models: the structural and the
# canonical formula of every component, against golden files; options and
# exit codes.
. "$top_srcdir/tests/cli/lib.sh"
golden=$top_srcdir/tests/cli/golden/reduce

for m in find_max surface_estimation merge dot_product cg_tree pmm \
	red_black seismic lu_send_row lu_transition_e mva metasim; do
	: >"$tmp/$m.txt"
	for c in total comp comm io; do
		"$SEGC" derive --form structural --component $c \
			"$top_srcdir/xml/$m.xml" >>"$tmp/$m.txt" 2>&1
		"$SEGC" derive --component $c "$top_srcdir/xml/$m.xml" \
			>>"$tmp/$m.txt" 2>&1
	done
	same_file "$golden/$m.txt" "$tmp/$m.txt" "derive $m"
done

# The structural form is simplified inside but keeps the shape; it parses
# back and 'check' confirms it against the model (same canonical form),
# for every bundled model and component.
out=$("$SEGC" derive --form structural --component comp \
	"$top_srcdir/xml/cg_tree.xml")
[ "$out" = "(10*N/P + 2*N^2/P + 2*P)*t_stmt" ]
ok $? "cg_tree comp: like terms merged, t_stmt pulled out (got '$out')"
out=$("$SEGC" derive --form structural --component comp \
	"$top_srcdir/xml/pmm.xml")
[ "$out" = "2*N^3/P*t_stmt" ]
ok $? "pmm comp: equal factors merged (got '$out')"
bad=
for m in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml; do
	for c in total comp comm io; do
		f=$("$SEGC" derive --form structural --component $c "$m") &&
		"$SEGC" check --component $c --expect "$f" "$m" \
			>/dev/null 2>&1 || bad="$bad ${m##*/}:$c"
	done
done
[ -z "$bad" ]
ok $? "every structural form checks against its model (failed:$bad)"

# The canonical form parses back to itself.
f=$("$SEGC" derive "$top_srcdir/xml/cg_tree.xml")
g=$("$SEGC" derive "$top_srcdir/xml/find_max.xml")
[ -n "$f" ] && [ -n "$g" ]
ok $? "derive prints one line"

# -D binds a parameter; -m applies a machine.
out=$("$SEGC" derive -m "$top_srcdir/xml/machines/t800_ct.xml" \
	-D N_rows=256 -D N_cols=256 "$top_srcdir/xml/dot_product.xml")
[ "$out" = 425984 ]
ok $? "derive with -m and -D gives a number (got '$out')"

"$SEGC" derive --component nothing "$top_srcdir/xml/find_max.xml" \
	>/dev/null 2>&1
[ $? -eq 2 ]
ok $? "unknown component: exit 2"

"$SEGC" derive --form pretty "$top_srcdir/xml/find_max.xml" \
	>/dev/null 2>&1
[ $? -eq 2 ]
ok $? "unknown form: exit 2"

"$SEGC" derive "$tmp/none.xml" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "missing model: exit 2"

cat >"$tmp/mixed.xml" <<'XML'
<model name="mixed" version="1">
  <resource name="a"/>
  <graph name="main">
    <node id="s" split="and"/><node id="x" cost="a"/><node id="y" cost="a"/>
    <node id="j"/>
    <arc from="s" to="x"/><arc from="s" to="y"/>
    <arc from="x" to="j"/><arc from="y" to="j"/>
  </graph>
</model>
XML
"$SEGC" derive "$tmp/mixed.xml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "mixed.xml:[0-9]*:.*error: the graph mixes" "$tmp/err"
ok $? "an and-split closed by an or-join: located error, exit 2"

done_testing
