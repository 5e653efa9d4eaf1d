#!/bin/sh
# intree.sh - the layout tests hold for a build in the source directory:
# the folders such a build leaves in src/ (.deps, .libs) and the sources
# it generates there (nodist_ sources, BUILT_SOURCES) are not part of
# the map of the code (doc/design.md), which the layout tests check.
. "$top_srcdir/tests/cli/lib.sh"

# A copy of the tree as the layout tests see it, with what './configure
# && make' in the source directory adds.
copy=$tmp/tree
mkdir "$copy"
(cd "$top_srcdir" && cp -R src include doc "$copy/" &&
	find . -name '*.am' ! -path './_build/*' | while read -r f; do
		mkdir -p "$copy/${f%/*}" && cp "$f" "$copy/$f"
	done)
chmod -R u+w "$copy"
mkdir -p "$copy/src/.libs" "$copy/src/base/.deps" "$copy/src/cli/.libs"
printf 'int x;\n' >"$copy/src/.libs/lt-main.c"
printf '# dummy\n' >"$copy/src/base/.deps/util.Plo"
printf 'int y;\n' >"$copy/src/base/.deps/stray.h"
printf '/* generated */\n' >"$copy/src/output/templates_builtin.c"

for t in design includes; do
	sh "$top_srcdir/tests/layout/$t.sh" "$copy" >"$tmp/$t.tap" 2>&1
	st=$?
	! grep -q '^not ok' "$tmp/$t.tap" && [ $st -eq 0 ] &&
		grep -q '^ok' "$tmp/$t.tap"
	ok $? "$t.sh passes with .deps, .libs and generated sources in src/"
	grep '^not ok' "$tmp/$t.tap" | head -5 | while read -r l; do diag "$l"; done
done

# It still sees a source file the page misses, and one that is misplaced.
printf 'int z;\n' >"$copy/src/base/unlisted.c"
sh "$top_srcdir/tests/layout/design.sh" "$copy" >"$tmp/d.tap" 2>&1
grep -q '^not ok.*src/base/unlisted.c' "$tmp/d.tap"
ok $? "design.sh still finds a source file doc/design.md does not name"
printf '#include "cli/cli.h"\n' >"$copy/src/base/unlisted.c"
sh "$top_srcdir/tests/layout/includes.sh" "$copy" >"$tmp/i.tap" 2>&1
grep -q '^not ok.*unlisted.c' "$tmp/i.tap"
ok $? "includes.sh still finds an include from a stage above"

done_testing
