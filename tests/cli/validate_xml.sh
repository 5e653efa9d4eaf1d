#!/bin/sh
# validate_xml.sh - every bundled document under xml/ is valid for
# 'segc validate', and xmllint with xml/seg.rng agrees; the schema also
# refuses the catalog's documents that break it.
. "$top_srcdir/tests/cli/lib.sh"

files=$(cd "$top_srcdir" && find xml -name '*.xml' | LC_ALL=C sort)
if [ -z "$files" ]; then
	skip "bundled documents" "xml/ holds no document yet"
fi
for f in $files; do
	(cd "$top_srcdir" && "$SEGC" validate "$f") >"$tmp/out" 2>"$tmp/err"
	code=$?
	[ "$code" -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ]
	ok $? "segc validate $f"
	[ "$code" -eq 0 ] || diag "$(cat "$tmp/err")"
	if [ -n "$XMLLINT" ]; then
		"$XMLLINT" --noout --nonet --relaxng \
			"$top_srcdir/xml/seg.rng" "$top_srcdir/$f" \
			>"$tmp/lint" 2>&1
		ok $? "xmllint agrees on $f"
	else
		skip "xmllint agrees on $f" "xmllint is not installed"
	fi
done

for f in "$top_srcdir"/tests/bad/schema_*.xml; do
	name=$(basename "$f")
	if [ -n "$XMLLINT" ]; then
		"$XMLLINT" --noout --nonet --relaxng \
			"$top_srcdir/xml/seg.rng" "$f" >"$tmp/lint" 2>&1
		[ $? -ne 0 ]
		ok $? "xmllint refuses $name too"
	else
		skip "xmllint refuses $name too" "xmllint is not installed"
	fi
done

done_testing
