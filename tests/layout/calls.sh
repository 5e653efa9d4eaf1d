#!/bin/sh
# calls.sh - the stages of the library depend one way also through calls:
# an object of src/STAGE/ uses only symbols defined in its own stage or in
# the stages below it.  A call through a public header's declaration, which
# the include test cannot see, shows here.  Prints TAP; one test per stage.
#
# Usage: calls.sh [BUILDDIR]   (default: $top_builddir, else .)

builddir=${1:-${top_builddir:-.}}
NM=${NM:-nm}
STAGES="base expr algebra model xml graph output analysis pipeline"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The objects of stage $1, in its folder and the folders under it; with
# $top_srcdir known, only those whose source file is still there (a build
# directory keeps the objects of files since moved or removed).
objects() {
	test -d "$builddir/src/$1" &&
		find "$builddir/src/$1" -name .libs -prune -o -name '*.o' -print |
		LC_ALL=C sort | while read -r o; do
			rel=${o#"$builddir"/}
			c=$(dirname "$rel")/$(basename "$rel" .o | sed 's/.*-//').c
			if [ -z "$top_srcdir" ] || [ -f "$top_srcdir/$c" ]; then
				echo "$o"
			fi
		done
}

n=0
for s in $STAGES; do n=$((n + 1)); done
echo "1..$((n + 1))"

# SYMBOL STAGE for every global symbol a library object defines.
r=0
for s in $STAGES; do
	for o in $(objects $s); do
		$NM -g --defined-only "$o" | awk -v r=$r -v s=$s \
			'NF >= 3 { print $3, r, s }'
	done
	r=$((r + 1))
done | LC_ALL=C sort > "$tmp/defs"

if ! test -s "$tmp/defs"; then
	echo "not ok 1 - no objects under $builddir/src: build the library first"
	exit 0
fi

i=0
r=0
for s in $STAGES; do
	i=$((i + 1))
	for o in $(objects $s); do
		$NM -u "$o" | awk -v f="${o##*/}" '{ print $NF, f }'
	done | LC_ALL=C sort > "$tmp/uses"
	bad=$(LC_ALL=C join "$tmp/uses" "$tmp/defs" |
		awk -v r=$r '$3 > r { print $2 " -> " $1 " (" $4 ")" }' |
		LC_ALL=C sort -u | head -20 | tr '\n' ';')
	if test -n "$bad"; then
		echo "not ok $i - src/$s/ calls up: $bad"
	else
		echo "ok $i - src/$s/ calls only its own stage and those below"
	fi
	r=$((r + 1))
done
i=$((i + 1))
# The check can fail: a use of a pipeline symbol from base is seen as one.
printf 'segc_x 8 pipeline\n' > "$tmp/d1"
printf 'segc_x util.o\n' > "$tmp/u1"
if test -n "$(join "$tmp/u1" "$tmp/d1" | awk '$3 > 0')"; then
	echo "ok $i - a call from base/ to pipeline/ would be seen"
else
	echo "not ok $i - the check misses a call from base/ to pipeline/"
fi
