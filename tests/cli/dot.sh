#!/bin/sh
# dot.sh - 'segc dot' writes DOT that Graphviz renders, the same on every
# run, with every label escaped.
. "$top_srcdir/tests/cli/lib.sh"

models="$top_srcdir/tests/dot/blocks.xml $top_srcdir/tests/dot/arcs.xml"
models="$models $(find "$top_srcdir/xml" -maxdepth 1 -name '*.xml' |
	LC_ALL=C sort)"
for f in $models; do
	name=$(basename "$f")
	"$SEGC" dot "$f" >"$tmp/a.dot" 2>"$tmp/err"
	ok $? "segc dot $name"
	"$SEGC" dot "$f" >"$tmp/b.dot" 2>&1
	cmp -s "$tmp/a.dot" "$tmp/b.dot"
	ok $? "segc dot $name: the same output twice"
	if [ -n "$DOT" ]; then
		"$DOT" -Tsvg "$tmp/a.dot" >"$tmp/a.svg" 2>"$tmp/dot.err"
		ok $? "dot -Tsvg renders $name"
		[ -s "$tmp/dot.err" ] && diag "$(cat "$tmp/dot.err")"
	else
		skip "dot -Tsvg renders $name" "Graphviz is not installed"
	fi
done

"$SEGC" dot "$top_srcdir/tests/dot/blocks.xml" >"$tmp/blocks.dot"
same_file "$top_srcdir/tests/dot/blocks.dot" "$tmp/blocks.dot" \
	"blocks.xml: the expected DOT"
"$SEGC" dot "$top_srcdir/tests/dot/arcs.xml" >"$tmp/arcs.dot"
same_file "$top_srcdir/tests/dot/arcs.dot" "$tmp/arcs.dot" \
	"arcs.xml: the expected DOT"

done_testing
