#!/bin/sh
# design.sh - doc/design.md names every folder and every source file of
# src/ and include/, so that the map of the code stays the code's map.
# Prints TAP: one test per file, and one that names the files the page
# lists but the tree no longer has.
#
# Usage: design.sh [SRCDIR]   (default: $top_srcdir, else .)

srcdir=${1:-${top_srcdir:-.}}
doc=$srcdir/doc/design.md
# The source files of the tree: hidden folders (.deps, .libs of a build
# in the source directory) left out, and so are the files the build
# generates (nodist_ sources and BUILT_SOURCES of the *.am fragments).
generated=$(cd "$srcdir" && find . -name '*.am' -exec sed -n \
	's/^\(nodist_[A-Za-z0-9_]*\|BUILT_SOURCES\)[[:space:]]*+*=//p' {} + |
	tr ' \t' '\n\n' | grep '\.[ch]$' | LC_ALL=C sort -u)
sources() {
	(cd "$srcdir" && find "$@" -name '.*' -prune -o -name '*.[ch]' -print) |
		sed 's|^\./||' | LC_ALL=C sort |
		grep -vxF "${generated:-/}"
}
files=$(sources src include)
dirs=$(cd "$srcdir" && find src include -mindepth 1 -name '.*' -prune -o \
	-type d -print | LC_ALL=C sort)
n=0
for f in $files $dirs; do n=$((n + 1)); done
echo "1..$((n + 1))"
i=0
for d in $dirs; do
	i=$((i + 1))
	if grep -q "\`$d/\`" "$doc"; then
		echo "ok $i - folder $d/ is in doc/design.md"
	else
		echo "not ok $i - folder $d/ is missing from doc/design.md (write \`$d/\`)"
	fi
done
for f in $files; do
	i=$((i + 1))
	b=${f##*/}
	if grep -q "\`$b\`" "$doc"; then
		echo "ok $i - $f is in doc/design.md"
	else
		echo "not ok $i - $f is missing from doc/design.md (write \`$b\`)"
	fi
done
i=$((i + 1))
# Names in backquotes that look like source files but exist nowhere.
stale=""
for b in $(grep -o '`[A-Za-z0-9_]*\.[ch]`' "$doc" | tr -d '`' | LC_ALL=C sort -u); do
	printf '%s\n' "$files" | grep -q "/$b\$" || stale="$stale $b"
done
if test -n "$stale"; then
	echo "not ok $i - doc/design.md names files that do not exist:$stale"
else
	echo "ok $i - every file doc/design.md names exists"
fi
