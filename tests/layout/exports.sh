#!/bin/sh
# exports.sh - the shared library exports exactly what the installed
# headers declare: the functions include/segc/*.h mark SEGC_API against
# the symbols the built libsegc.so defines (nm -D --defined-only).  A name
# on one side only fails the test, named.  Prints TAP.
#
# Usage: exports.sh [SRCDIR [BUILDDIR]]   (defaults: $top_srcdir and
# $top_builddir, else .)

srcdir=${1:-${top_srcdir:-.}}
builddir=${2:-${top_builddir:-.}}
NM=${NM:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The functions the headers in $1 declare, one a line, sorted: each
# declaration starts with SEGC_API and names its function before the
# first parenthesis, perhaps on a later line.
declared() {
	cat "$1"/*.h | awk '
		/^SEGC_API/ { decl = ""; open = 1 }
		open { decl = decl " " $0 }
		open && /\(/ {
			sub(/\(.*/, "", decl)
			n = split(decl, w, /[ \t*]+/)
			print w[n]
			open = 0
		}' | LC_ALL=C sort -u
}

# The symbols library $1 defines, one a line, sorted (the linker's own
# _init and _fini left out).
exported() {
	$NM -D --defined-only "$1" | awk 'NF >= 3 { print $3 }' |
		grep -v -e '^_init$' -e '^_fini$' | LC_ALL=C sort -u
}

# Compares the sorted lists $1 (declared) and $2 (exported); prints what
# differs on one line, or nothing.
differ() {
	extra=$(LC_ALL=C comm -13 "$1" "$2" | tr '\n' ' ')
	missing=$(LC_ALL=C comm -23 "$1" "$2" | tr '\n' ' ')
	out=
	test -n "$extra" && out="exported but not declared: $extra"
	test -n "$missing" && out="$out${out:+; }declared but not exported: $missing"
	printf '%s' "$out"
}

echo "1..2"
so=$(ls "$builddir"/src/.libs/libsegc.so 2>/dev/null)
if test -z "$so"; then
	echo "ok 1 # SKIP no shared library built"
	echo "ok 2 # SKIP no shared library built"
	exit 0
fi
declared "$srcdir/include/segc" > "$tmp/declared"
exported "$so" > "$tmp/exported"
if ! test -s "$tmp/declared" || ! test -s "$tmp/exported"; then
	echo "not ok 1 - no declaration or no export found"
else
	bad=$(differ "$tmp/declared" "$tmp/exported")
	if test -n "$bad"; then
		echo "not ok 1 - libsegc.so and include/segc differ: $bad"
	else
		echo "ok 1 - libsegc.so exports the $(wc -l < "$tmp/declared" |
			tr -d ' ') functions include/segc declares, nothing else"
	fi
fi

# The test can fail: one more declaration than exports is seen (the
# declared list standing for the exports, so that this case does not
# depend on the first).
mkdir "$tmp/fake"
cp "$srcdir"/include/segc/*.h "$tmp/fake/"
printf 'SEGC_API int segc_not_exported(void);\n' > "$tmp/fake/zz_fake.h"
declared "$tmp/fake" > "$tmp/declared_fake"
bad=$(differ "$tmp/declared_fake" "$tmp/declared")
case $bad in
"declared but not exported: segc_not_exported ")
	echo "ok 2 - a declaration without an export is reported: $bad" ;;
*)
	echo "not ok 2 - a fake declaration is not reported as it should: '$bad'" ;;
esac
