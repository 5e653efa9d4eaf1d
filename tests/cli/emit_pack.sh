#!/bin/sh
# emit_pack.sh - --accurate computes the independent compensated Horner
# chains of one shape side by side (src/output/emit_pack.c).  A dense
# polynomial in N and P (7 x 8 terms, chains in P of 7 steps), one whose
# chains are broken by a coefficient of either sign and share constants
# with other terms, and one with chains in two arguments: each predictor
# must hold its packs, compile under gcc's strict warnings, and give over
# a grid of N and P the doubles of 'segc eval --precision 256' correctly
# rounded (0 ulp), with the fused multiply-add and with Dekker's
# splitting (-DSEGC_NO_FMA) alike.
. "$top_srcdir/tests/cli/lib.sh"
ulpdiff=$top_builddir/tests/cli/ulpdiff
CFLAGS_STRICT="-std=c99 -Wall -Wextra -pedantic -Werror -O2"
grid="N=1..1000000*2 P=1..1024*2"

# model NAME COST: a model of one step of cost COST in $tmp/NAME.xml.
model() {
	printf '<model name="%s" version="1">\n  <param name="t" min="0"/>\n  <graph name="main">\n    <step cost="%s"/>\n  </graph>\n</model>\n' \
		"$1" "$2" > "$tmp/$1.xml"
}

# dense I J: the sum of (7i + 3j + 1)/(j + 5) N^i P^j, i = 0..I-1,
# j = -2..J-3.
dense() {
	awk -v ni="$1" -v nj="$2" 'BEGIN {
		for (i = 0; i < ni; i++)
			for (j = -2; j < nj - 2; j++) {
				sep = (i || j > -2) ? " + " : ""
				printf "%s%d/%d*N^%d*P^(%d)", sep,
					7 * i + 3 * j + 1, j + 5, i, j
			}
	}'
}

model dense "$(dense 7 8)"
# coefficients of either sign (a chain ends where a step subtracts), a
# constant shared with a term outside the chains
model signs "$(dense 5 6) - 3/7*N^2*P^2 + 3/7*N^5 - P^3*N/9 + 5/3*t"
# chains in N (the kept t as the outer argument) and in P
model two "$(dense 4 5)*t^2 + ($(dense 3 4))*t + N^3*P^2/7 + N*P/3"

for m in dense signs two; do
	set --
	[ "$m" = two ] && set -- --keep t
	[ "$m" = signs ] && set -- --keep t
	g=$grid
	[ "$m" = dense ] || g="$grid t=3"
	"$SEGC" emit -q --main --accurate "$@" -o "$tmp/$m" "$tmp/$m.xml" \
		2>"$tmp/err"
	ok $? "emit --accurate $m"
	n=$(grep -c '^SEGC_DD_FN const segc_dd \*segc_[a-z]*_g[0-9]*(' \
		"$tmp/$m.c")
	[ "$n" -ge 1 ]
	ok $? "$m: its chains are packed ($n packs)"
	$CC $CFLAGS_STRICT -o "$tmp/$m-fma" "$tmp/$m.c" -lm 2>"$tmp/cc.err" &&
		$CC $CFLAGS_STRICT -DSEGC_NO_FMA -o "$tmp/$m-dk" "$tmp/$m.c" \
		-lm 2>>"$tmp/cc.err"
	st=$?
	ok $st "$m compiles in strict C99, with and without the FMA copies"
	[ $st -eq 0 ] || { diag "$(head -10 "$tmp/cc.err")"; continue; }
	"$tmp/$m-fma" $g > "$tmp/$m.tsv" &&
		"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
		"$tmp/$m.xml" $g > "$tmp/$m.csv" 2>"$tmp/err" &&
		"$ulpdiff" "$tmp/$m.tsv" "$tmp/$m.csv" > "$tmp/$m.ulp"
	st=$?
	u=$(sed -n 's/^max_ulp //p' "$tmp/$m.ulp" 2>/dev/null)
	[ $st -eq 0 ] && [ "$u" = 0 ]
	ok $? "$m --accurate correctly rounded (max $u ulp over $(sed -n 's/^rows //p' "$tmp/$m.ulp" 2>/dev/null) points)"
	"$tmp/$m-dk" $g | cmp -s - "$tmp/$m.tsv"
	ok $? "$m: the same doubles by Dekker's splitting"
done
done_testing
