#!/bin/sh
# outputs.sh - the outputs of every bundled and test model stay byte for
# byte what they were: for each xml/*.xml, xml/examples/*.xml and
# tests/cli/models/*.xml, 'derive' in the three forms (canonical,
# structural, readable), 'latex' and 'emit' (C, its .c and .h) are run and
# compared with tests/cli/golden/outputs/NAME.txt, written once by an
# earlier binary.  A change that is meant to change an output rewrites the
# files with 'make golden-outputs' (or 'sh outputs.sh --write' with SEGC
# and top_srcdir set) and shows the new bytes in its diff.
#
# emit gets the machine generated/MANIFEST names for the model (if any) and
# keeps as arguments the names it reports unbound; where it still refuses
# (an uninterpreted call), its message and exit status are what is compared.
# Every command runs from the source tree on relative paths, so that the
# paths in messages do not depend on where the tree is.
. "$top_srcdir/tests/cli/lib.sh"
golden=tests/cli/golden/outputs
write=no
[ "${1:-}" = --write ] && write=yes
cd "$top_srcdir" || exit 1

# section TITLE COMMAND...: prints a header, the command's stdout and
# stderr and its exit status.
section() {
	title=$1
	shift
	echo "=== $title"
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	cat "$tmp/out"
	if [ -s "$tmp/err" ]; then
		echo "--- stderr"
		cat "$tmp/err"
	fi
	echo "--- exit $st"
}

# manifest_machine MODEL: the machine generated/MANIFEST gives MODEL (a
# path under xml/), or nothing.
manifest_machine() {
	rel=${1#xml/}
	awk -F'\t' -v m="$rel" '$1 !~ /^#/ && $2 == m && $3 != "-" \
		{ print $3; exit }' generated/MANIFEST
}

# emit_section MODEL MACHINE: emit with the names emit reports unbound
# kept as arguments (at most three rounds), then the .c and .h written.
emit_section() {
	model=$1
	mopt=
	[ -n "$2" ] && mopt="-m xml/machines/$2"
	keeps=
	round=0
	rm -f "$tmp/e.c" "$tmp/e.h"
	while :; do
		# shellcheck disable=SC2086
		$SEGC emit $mopt $keeps -o "$tmp/e" "$model" \
			>"$tmp/out" 2>"$tmp/err"
		st=$?
		more=$(sed -n "s/.*while '\([^']*\)' is unbound.*/\1/p" \
			"$tmp/err" | sort -u)
		[ "$st" -ne 0 ] && [ -n "$more" ] && [ "$round" -lt 3 ] || break
		for k in $more; do keeps="$keeps --keep $k"; done
		round=$((round + 1))
	done
	echo "=== emit${mopt:+ $mopt}${keeps}"
	sed "s|$tmp/||g" "$tmp/out"
	if [ -s "$tmp/err" ]; then
		echo "--- stderr"
		sed "s|$tmp/||g" "$tmp/err"
	fi
	echo "--- exit $st"
	for f in e.c e.h; do
		[ -f "$tmp/$f" ] || continue
		echo "=== $f"
		cat "$tmp/$f"
	done
}

# capture MODEL: every output of MODEL, in one text.
capture() {
	for form in canonical structural readable; do
		section "derive --form $form" $SEGC derive --form $form "$1"
	done
	section "latex" $SEGC latex "$1"
	case $1 in
	xml/*) emit_section "$1" "$(manifest_machine "$1")" ;;
	*) emit_section "$1" "" ;;
	esac
}

for m in xml/*.xml xml/examples/*.xml tests/cli/models/*.xml; do
	name=$(echo "${m%.xml}" | sed 's|^xml/||; s|^tests/cli/models/|test_|; s|/|_|g')
	if [ $write = yes ]; then
		capture "$m" >"$golden/$name.txt"
		continue
	fi
	capture "$m" >"$tmp/$name.txt"
	if [ -f "$golden/$name.txt" ]; then
		same_file "$golden/$name.txt" "$tmp/$name.txt" "outputs of $m"
	else
		ok 1 "outputs of $m: $golden/$name.txt is missing"
	fi
done
[ $write = yes ] && exit 0
# A golden file whose model is gone is stale.
for g in "$golden"/*.txt; do
	name=$(basename "$g" .txt)
	case $name in
	test_*) m=tests/cli/models/${name#test_}.xml ;;
	examples_*) m=xml/examples/${name#examples_}.xml ;;
	*) m=xml/$name.xml ;;
	esac
	[ -f "$m" ]
	ok $? "golden $name.txt has its model $m"
done
done_testing
