#!/bin/sh
# includes.sh - the stages of src/ depend one way (doc/design.md): a file
# may include headers of its own folder and of the folders below it, never
# of one above.  Public headers (<segc/...>) are open to every stage.
# The command (src/cli/) is a client of the library like any other: of
# the library it includes only the installed headers (<segc/...>), and
# its only quoted includes are its own ("cli/...").
# Prints TAP; one test per source file, then two that show it can fail.
#
# Usage: includes.sh [SRCDIR]   (default: $top_srcdir, else .)

srcdir=${1:-${top_srcdir:-.}}
STAGES="base expr algebra model xml graph output analysis pipeline cli"

# The quoted includes of a file of stage $1 it may not have: every one
# not of the stage for cli, else those of a stage above it.
refused() {
	me=$(rank "$1")
	while read -r h; do
		case $1:$h in
		cli:cli/*) continue ;;
		cli:*) echo "$h(not cli/: the command includes <segc/...>)"
			continue ;;
		esac
		case $h in
		*/*) other=$(rank "${h%%/*}") ;;
		*) other=-1 ;;
		esac
		if test "$other" -lt 0; then
			echo "$h(not a stage path)"
		elif test "$other" -gt "$me"; then
			echo "$h"
		fi
	done
}

# The quoted includes of the text on standard input, one a line.
quoted() {
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p'
}

rank() {
	r=0
	for s in $STAGES; do
		test "$s" = "$1" && { echo $r; return; }
		r=$((r + 1))
	done
	echo -1
}

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
files=$(sources src)
n=$(printf '%s\n' "$files" | grep -c .)
echo "1..$((n + 2))"
i=0
bad_total=0
for f in $files; do
	i=$((i + 1))
	stage=$(echo "$f" | cut -d/ -f2)
	me=$(rank "$stage")
	if test "$me" -lt 0; then
		echo "not ok $i - $f is in no stage of: $STAGES"
		bad_total=$((bad_total + 1))
		continue
	fi
	# Quoted includes name a private header as FOLDER/NAME.h.
	bad=$(quoted < "$srcdir/$f" | refused "$stage" | tr '\n' ' ')
	if test -n "$bad"; then
		echo "not ok $i - $f ($stage) includes what its stage may not: $bad"
		bad_total=$((bad_total + 1))
	else
		echo "ok $i - $f"
	fi
done
i=$((i + 1))
# The test must be able to fail: an include of cli/ from base/ is refused.
if test -n "$(printf '#include "cli/cli.h"\n' | quoted | refused base)"; then
	echo "ok $i - an include of cli/ from base/ would be refused"
else
	echo "not ok $i - the rule does not refuse cli/ from base/"
fi
i=$((i + 1))
# ... and a private header of the library in the command is refused.
if test -n "$(printf '#include "base/util.h"\n' | quoted | refused cli)"; then
	echo "ok $i - an include of base/ from cli/ would be refused"
else
	echo "not ok $i - the rule does not refuse base/ from cli/"
fi
