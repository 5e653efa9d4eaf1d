#!/bin/sh
# seeds.sh TARGET SRCDIR OUTDIR - fills OUTDIR with the seed corpus of the
# fuzz target TARGET (expr, xml, pipeline, table), taken from the bundled models,
# machines and bad inputs, so that no seed is kept twice in the sources.
# The inputs of loops are bytes, not documents: its seeds are its saved
# inputs in tests/fuzz/regress/loops alone.
set -eu
target=$1 src=$2 out=$3
mkdir -p "$out"
models="$src/xml/*.xml $src/xml/examples/*.xml"
case $target in
xml)
	for f in $models $src/xml/machines/*.xml $src/tests/bad/*.xml \
		 $src/tests/dot/*.xml; do
		[ -f "$f" ] && cp "$f" "$out/$(basename "$(dirname "$f")")_$(basename "$f")"
	done ;;
pipeline)
	# lu_blocked.xml is left out here (the xml target still reads it):
	# the pipeline driver evaluates both forms at sample points, and its
	# nested sums over blocks and columns take minutes under the fuzzing
	# sanitizers, past the 25 s timeout of one input.
	for f in $models $src/tests/bad/*.xml; do
		case $f in */lu_blocked.xml) continue ;; esac
		[ -f "$f" ] && cp "$f" "$out/$(basename "$(dirname "$f")")_$(basename "$f")"
	done ;;
expr)
	# Every expression written in an attribute or as element text.
	n=0
	{ cat $models $src/xml/machines/*.xml |
	  grep -oE '(cost|count|value|prob|from|to|min|max)="[^"]*"' |
	  sed -e 's/^[a-z]*="//' -e 's/"$//'
	  cat $models $src/xml/machines/*.xml |
	  sed -n -e 's/.*<\(expect\|function\)[^>]*>\([^<]*\)<.*/\2/p'
	} |
	sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' |
	sort -u | while IFS= read -r e; do
		n=$((n + 1))
		printf '%s' "$e" > "$out/expr_$n"
	done ;;
loops)
	;;
table)
	# The measurement files of the tests: CSV, Extra-P text and JSON.
	for f in $src/tests/cli/extrap/*.txt $src/tests/cli/extrap/*.json \
		 $src/data/fit/*.csv $src/tests/cli/fit/*.csv; do
		[ -f "$f" ] && cp "$f" "$out/$(basename "$f")"
	done ;;
*)
	echo "seeds.sh: unknown target '$target'" >&2
	exit 2 ;;
esac
