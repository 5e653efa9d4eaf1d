#!/bin/sh
# schema_agree.sh - the schema has one source of truth at run time, the
# element table of src/xml/xmlcheck.c; this test holds it against the
# published xml/seg.rng.  Every bundled model and machine, every
# well-formed document of tests/bad and a set of mutants of the bundled
# models must get the same verdict (structurally valid or not) from
# 'xmllint --relaxng xml/seg.rng' and from 'segc validate'.
#
# How a structural refusal is told from a semantic one: segc checks the
# structure of the whole document first and stops there when it finds a
# problem, so a refused document fails on structure exactly when its
# first diagnostic is one of the messages of the structural check (the
# closed list below, the fixed words of each message of xmlcheck.c and of
# the root check of the reader).  The documents of tests/bad, some
# refused on structure and the rest on meaning, keep the list honest in
# both directions: a message missing from it, or one too broad, makes a
# verdict disagree with the schema's.
. "$top_srcdir/tests/cli/lib.sh"

if [ -z "$XMLLINT" ] || ! command -v "$XMLLINT" >/dev/null 2>&1; then
	skip "schema agreement" "xmllint not found"
	done_testing
	exit $?
fi

rng="$top_srcdir/xml/seg.rng"

# The fixed words of the messages of the structural check (grep -E).
cat >"$tmp/struct" <<'EOF'
unknown attribute '
lacks the attribute '
attribute '[a-z]+': ".*" is not (one of )?[a-z]+(, [a-z]+)* or [a-z]+$
<arc> attribute 'forward': ".*" is not a positive integer constant
unknown element <
cannot contain <
must be empty, but contains <
holds text only, not <
may contain only <case>, not
cannot contain text \(found
needs either count or
cannot be used with 'count'
go together; '
is in a namespace: SEG
must come before <
needs at least one <
cannot stand beside
may stand only directly inside
root element <
only version "1" is known
a forward edge \(forward\) cannot also be a loop arc
a forward edge is always a dependency and takes no 'prob'
a loop arc with overlapping iterations takes no 'cost'
'overlap' goes on a loop arc
EOF

# rng_verdict FILE: "valid" or "invalid" by the schema.
rng_verdict() {
	if "$XMLLINT" --noout --nonet --relaxng "$rng" "$1" >/dev/null 2>&1
	then echo valid; else echo invalid; fi
}

# segc_verdict FILE: "valid" unless segc refuses FILE on its structure.
segc_verdict() {
	if "$SEGC" validate "$1" >/dev/null 2>"$tmp/segc.err"; then
		echo valid
		return
	fi
	if head -n 1 "$tmp/segc.err" | grep -E -f "$tmp/struct" >/dev/null
	then echo invalid; else echo valid; fi
}

# agree FILE NAME: one test, the two verdicts on FILE are the same.
agree() {
	r=$(rng_verdict "$1")
	s=$(segc_verdict "$1")
	[ "$r" = "$s" ]
	ok $? "$2: $r for both"
	if [ "$r" != "$s" ]; then
		diag "xml/seg.rng says $r, segc says $s"
		diag "$(head -n 3 "$tmp/segc.err")"
	fi
}

for f in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/*/*.xml; do
	agree "$f" "${f#"$top_srcdir"/}"
done

# The well-formed documents of tests/bad; a DOCTYPE is refused while
# parsing, before any schema, so those are out of scope.
for f in "$top_srcdir"/tests/bad/*.xml; do
	"$XMLLINT" --noout --nonet "$f" >/dev/null 2>&1 || continue
	grep -i '<!DOCTYPE' "$f" >/dev/null && continue
	agree "$f" "${f#"$top_srcdir"/}"
done

# Mutants: each sed script changes the first match in a bundled model.
# NAME<TAB>MODEL<TAB>SED
cat >"$tmp/mutants" <<'EOF'
no_version	xml/merge.xml	1,/<model /s/ version="1"//
no_graph_name	xml/merge.xml	0,/<graph name="[^"]*"/s/<graph name="[^"]*"/<graph/
no_use_resource	xml/cg_simple.xml	0,/<use resource="[^"]*"/s/<use resource="[^"]*"/<use/
no_call_graph	xml/cg_simple.xml	0,/<call graph="[^"]*"/s/<call graph="[^"]*"/<call/
no_arc_from	xml/examples/task_dag.xml	0,/<arc from="[^"]*"/s/<arc from="[^"]*"/<arc/
no_param_name	xml/merge.xml	0,/<param name="[^"]*"/s/<param name="[^"]*"/<param/
no_let_value	xml/cg_simple.xml	0,/<let \([^>]*\) value="[^"]*"/s/<let \([^>]*\) value="[^"]*"/<let \1/
unknown_attr_step	xml/merge.xml	0,/<step /s/<step /<step colour="red" /
unknown_attr_model	xml/merge.xml	0,/<model /s/<model /<model author="me" /
unknown_attr_param	xml/merge.xml	0,/<param /s/<param /<param unit="s" /
unknown_attr_loop	xml/merge.xml	0,/<loop /s/<loop /<loop step="2" /
unknown_attr_arc	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc weight="1" /
misspelled_param	xml/merge.xml	0,/<param /s/<param /<parm /
misspelled_call	xml/cg_simple.xml	0,/<call /s/<call /<cal /
misspelled_use	xml/cg_simple.xml	0,/<use /s/<use /<uses /
misspelled_node	xml/examples/task_dag.xml	0,/<node /s/<node /<nod /
use_in_graph	xml/merge.xml	0,/<graph [^>]*>/s/\(<graph [^>]*>\)/\1<use resource="x"\/>/
param_in_graph	xml/merge.xml	0,/<graph [^>]*>/s/\(<graph [^>]*>\)/\1<param name="zz"\/>/
case_in_graph	xml/merge.xml	0,/<graph [^>]*>/s/\(<graph [^>]*>\)/\1<case><step cost="1"\/><\/case>/
graph_in_graph	xml/merge.xml	0,/<graph [^>]*>/s/\(<graph [^>]*>\)/\1<graph name="g"><step\/><\/graph>/
node_in_seq	xml/lu_transition_e.xml	0,/<seq>/s/<seq>/<seq><node id="q"\/>/
text_in_loop	xml/merge.xml	0,/<loop [^>]*>/s/\(<loop [^>]*>\)/\1 words /
step_in_branch	xml/find_max.xml	0,/<branch>/s/<branch>/<branch><step\/>/
expect_first	xml/merge.xml	0,/<param /s/<param /<expect>1<\/expect><param /
bad_class	xml/merge.xml	0,/<step /s/<step /<step class="gpu" /
bad_version	xml/merge.xml	0,/version="1"/s/version="1"/version="2"/
bad_split	xml/examples/task_dag.xml	0,/split="and"/s/split="and"/split="xor"/
forward_and_loop	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="1" loop="2" /
forward_and_prob	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="1" prob="1" /
forward_big	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="100001" /
forward_long	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="0000001" /
forward_plus	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="+1" /
overlap_no_loop	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc overlap="false" /
bad_integer	xml/merge.xml	0,/<param /s/<param /<param integer="maybe" /
bad_component	xml/cg_simple.xml	0,/<use /s/<use /<use component="disk" /
bad_overlap	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc overlap="yes" /
forward_zero	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="0" /
forward_word	xml/examples/task_dag.xml	0,/<arc /s/<arc /<arc forward="one" /
EOF
while IFS='	' read -r name model script; do
	out="$tmp/mutant_$name.xml"
	sed -e "$script" "$top_srcdir/$model" >"$out"
	if cmp -s "$out" "$top_srcdir/$model"; then
		ok 1 "mutant $name: the script changes $model"
		continue
	fi
	agree "$out" "mutant $name"
	[ "$r" = invalid ]
	ok $? "mutant $name: the schema refuses it"
done <"$tmp/mutants"

done_testing
