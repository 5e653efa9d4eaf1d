#!/bin/sh
# generated.sh - generated/ is up to date: every output listed in
# generated/MANIFEST is regenerated into a temporary directory and compared
# with the committed one (diff -u); 'make generated' refreshes them.
. "$top_srcdir/tests/cli/lib.sh"
sh "$top_srcdir/generated/regenerate.sh" "$SEGC" "$top_srcdir" "$tmp/gen" \
	2>"$tmp/err"
st=$?
ok $st "regenerate every output of generated/MANIFEST"
[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
for f in "$tmp"/gen/*; do
	name=$(basename "$f")
	same_file "$top_srcdir/generated/$name" "$f" "generated/$name is up to date"
done
for f in "$top_srcdir"/generated/*.c "$top_srcdir"/generated/*.h \
	 "$top_srcdir"/generated/*.tex; do
	[ -e "$f" ] || continue
	[ -e "$tmp/gen/$(basename "$f")" ]
	ok $? "generated/$(basename "$f") is still listed in the manifest"
done
done_testing
