#!/bin/sh
# includes.sh - the stages of src/ depend one way (doc/design.md): a file
# may include headers of its own folder and of the folders below it, never
# of one above.  Public headers (<segc/...>) are open to every stage.
# Prints TAP; one test per source file.
#
# Usage: includes.sh [SRCDIR]   (default: $top_srcdir, else .)

srcdir=${1:-${top_srcdir:-.}}
STAGES="base expr algebra model xml graph output analysis pipeline cli"

rank() {
	r=0
	for s in $STAGES; do
		test "$s" = "$1" && { echo $r; return; }
		r=$((r + 1))
	done
	echo -1
}

files=$(cd "$srcdir" && find src -name '*.[ch]' | LC_ALL=C sort)
n=$(printf '%s\n' "$files" | grep -c .)
echo "1..$((n + 1))"
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
	bad=""
	# Quoted includes name a private header as FOLDER/NAME.h.
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$srcdir/$f"); do
		case $h in
		*/*) other=$(rank "${h%%/*}") ;;
		*) other=-1 ;;
		esac
		if test "$other" -lt 0; then
			bad="$bad $h(not a stage path)"
		elif test "$other" -gt "$me"; then
			bad="$bad $h"
		fi
	done
	if test -n "$bad"; then
		echo "not ok $i - $f ($stage) includes a stage above it:$bad"
		bad_total=$((bad_total + 1))
	else
		echo "ok $i - $f"
	fi
done
i=$((i + 1))
# The test must be able to fail: an include of cli/ from base/ is refused.
probe=$(printf '#include "cli/cli.h"\n')
h=$(printf '%s\n' "$probe" | sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p')
if test "$(rank "${h%%/*}")" -gt "$(rank base)"; then
	echo "ok $i - an include of cli/ from base/ would be refused"
else
	echo "not ok $i - the rule does not refuse cli/ from base/"
fi
