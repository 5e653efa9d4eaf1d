#!/bin/sh
# check_corpus.sh - 'segc check' on the pairs of tests/cli/check_corpus.txt:
# identities must be ok, near-identities MISMATCH with a witness that
# tests/cli/evalpoint finds different again (exactly, or with MPFR at 4096
# bits where a value is irrational), equal pairs the canonical form does
# not identify never MISMATCH.
. "$top_srcdir/tests/cli/lib.sh"

evalpoint=$top_builddir/tests/cli/evalpoint
corpus=$top_srcdir/tests/cli/check_corpus.txt

# model DECLARATIONS COST: writes the model of one pair to $tmp/m.xml.
model() {
	{
		echo '<model name="pair" version="1">'
		for d in $1; do
			echo "$d" | awk -F: '{
				printf "  <param name=\"%s\"", $1
				if ($2 != "") printf " min=\"%s\"", $2
				if ($3 != "") printf " max=\"%s\"", $3
				if ($4 == "i") printf " integer=\"true\""
				print "/>" }'
		done
		printf '  <graph name="main"><step name="s" cost="%s"/></graph>\n' \
			"$(printf '%s' "$2" | sed 's/&/\&amp;/g; s/</\&lt;/g')"
		echo '</model>'
	} >"$tmp/m.xml"
}

# trim TEXT: TEXT without leading and trailing blanks.
trim() {
	printf '%s' "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}

# witness_args: the point of the witness in $tmp/out as NAME=VALUE words.
witness_args() {
	sed -n 's/^  witness: //p' "$tmp/out" | sed 's/, / /g'
}

n_ok=0 n_mm=0 n_un=0 n_known=0 line=0
while IFS='|' read -r kind decls lhs rhs; do
	line=$((line + 1))
	kind=$(trim "$kind")
	case $kind in ''|'#'*) continue ;; esac
	lhs=$(trim "$lhs")
	rhs=$(trim "$rhs")
	model "$decls" "$lhs"
	"$SEGC" check --expect "$rhs" "$tmp/m.xml" >"$tmp/out" 2>&1
	rc=$?
	first=$(head -1 "$tmp/out")
	name="line $line: $lhs vs $rhs"
	case $kind in
	ok)
		n_ok=$((n_ok + 1))
		[ $rc -eq 0 ] && [ "$first" = "ok: total (--expect)" ]
		ok $? "ok: $name"
		[ $rc -eq 0 ] || diag "$(cat "$tmp/out")"
		;;
	mismatch)
		n_mm=$((n_mm + 1))
		st=1
		if [ $rc -eq 1 ] && [ "$first" = "MISMATCH: total (--expect)" ]
		then
			# shellcheck disable=SC2046
			"$evalpoint" "$lhs" "$rhs" $(witness_args) \
				>"$tmp/vals" 2>&1
			st=$?
		fi
		ok $st "MISMATCH, witness differs again: $name"
		[ $st -eq 0 ] || diag "$(cat "$tmp/out" "$tmp/vals" 2>/dev/null)"
		;;
	unproven)
		n_un=$((n_un + 1))
		[ $rc -le 1 ] && [ "$first" != "MISMATCH: total (--expect)" ] &&
			grep -q '^ok\|^UNPROVEN' "$tmp/out"
		ok $? "never MISMATCH: $name"
		;;
	known)
		n_known=$((n_known + 1))
		tap_n=$((tap_n + 1))
		if [ $rc -eq 0 ]; then
			echo "ok $tap_n - known gap now closed: $name # TODO"
		else
			echo "not ok $tap_n - known gap: $name # TODO"
		fi
		;;
	*)
		ok 1 "line $line: unknown kind '$kind'"
		;;
	esac
done <"$corpus"
diag "identities $n_ok, near-identities $n_mm, unproven $n_un," \
	"known gaps $n_known"
[ "$n_ok" -ge 60 ] && [ "$n_mm" -ge 30 ]
ok $? "the corpus has at least 60 identities and 30 near-identities"

done_testing
