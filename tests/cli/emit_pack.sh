#!/bin/sh
# emit_pack.sh - --accurate computes the independent compensated Horner
# chains of one shape side by side (src/output/emit_pack.c).  A dense
# polynomial in N and P (7 x 8 terms, chains in P of 7 steps), one whose
# chains are broken by a coefficient of either sign and share constants
# with other terms, and one with chains in two arguments: each predictor
# must hold its packs, compile under gcc's strict warnings, and give over
# a grid of N and P the doubles of 'segc eval --precision 256' correctly
# rounded (0 ulp), with the fused multiply-add and with Dekker's
# splitting (-DSEGC_NO_FMA) alike.  Then nested packs, chains in P whose
# coefficients are chains in t: a dense polynomial in N, P and t (like
# the bench's 180 terms, smaller), and one whose coefficients are
# quadratic in t, with signs of both kinds, products of t by a constant
# shared between coefficients and chains that cannot be nested beside
# them; the same checks over a grid of N, P and t, clang -Weverything
# too, and, at a point where the inner chains are not exact, the
# predictor with one nested pack's compensations left out must fail the
# check.
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

# dense3 I J K: the sum of (7i + 3j + 11k + 1)/(j + 5) N^i P^j t^k,
# i = 0..I-1, j = -2..J-3, k = 0..K-1.
dense3() {
	awk -v ni="$1" -v nj="$2" -v nk="$3" 'BEGIN {
		for (i = 0; i < ni; i++)
			for (j = -2; j < nj - 2; j++)
				for (k = 0; k < nk; k++) {
					sep = (i || j > -2 || k) ? " + " : ""
					printf "%s%d/%d*N^%d*P^(%d)*t^%d", sep,
						7 * i + 3 * j + 11 * k + 1, j + 5, i, j, k
				}
	}'
}

model nest "$(dense3 5 8 2)"
# coefficients quadratic in t, of either sign (9/4 - 7/3 t and the like),
# 3*t in several of them, and a chain in P with a coefficient free of t
# (not nested, computed as before)
model nest2 "$(dense3 3 5 3) - 7/3*N^3*t + 3*N^3*P*t + 3*N^3*P^2*t
 - 5/7*N^3*P^3 + 3*N^3*P^4*t^2 + 3*P^3 + 2/9*N^4*P^2 + 3*N^4*P*t + N^4"

# broken NAME: the predictor NAME.c with the compensations of the
# steps of its first nested pack left out (their low parts kept as they
# are), into NAME-broken.c.
broken() {
	awk '/^SEGC_DD_FN const segc_dd \*segc_[a-z]*_g[0-9]*\(double x, double y,/ { g++ }
		g == 1 && /t\.lo \+= al\[/ { sub(/\+= .*;/, "+= 0;") }
		{ print }' "$tmp/$1.c" > "$tmp/$1-broken.c"
	! cmp -s "$tmp/$1.c" "$tmp/$1-broken.c"
}

# Where the broken predictor is checked: t = 1 + 2^-52, exact in double
# and in decimal.  At integer points a polynomial of rational
# coefficients (computed as one of integers over their common
# denominator) keeps its inner chains exact, nothing for a low part to
# carry, and no check could catch a lost one.
gbroken="$grid t=1.0000000000000002220446049250313080847263336181640625"

for m in dense signs two nest nest2; do
	set --
	[ "$m" = dense ] || set -- --keep t
	g=$grid
	[ "$m" = dense ] || g="$grid t=3"
	case $m in nest*) g="$grid t=1..4096*8" ;; esac
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
	case $m in nest*) ;; *) continue ;; esac
	n=$(grep -c '^SEGC_DD_FN const segc_dd \*segc_[a-z]*_g[0-9]*(double x, double y,' \
		"$tmp/$m.c")
	[ "$n" -ge 1 ]
	ok $? "$m: its chains are packed nested ($n nested packs)"
	if [ -n "${CLANG:-}" ]; then
		$CLANG -std=c99 -Weverything -Werror -Wno-unknown-warning-option \
			-Wno-unsafe-buffer-usage -O2 -o "$tmp/$m-cl" "$tmp/$m.c" \
			-lm 2>"$tmp/cc.err" &&
			"$tmp/$m-cl" $g | cmp -s - "$tmp/$m.tsv"
		st=$?
		ok $st "$m: clang -Weverything, the same doubles"
		[ $st -eq 0 ] || diag "$(head -10 "$tmp/cc.err")"
	else
		skip "$m: clang -Weverything" "clang not found"
	fi
	# the check can fail: a nested pack without its compensations
	"$tmp/$m-fma" $gbroken > "$tmp/$m-b.tsv" &&
		"$SEGC" eval --form canonical --csv --digits 40 --precision 256 \
		"$tmp/$m.xml" $gbroken > "$tmp/$m-b.csv" 2>"$tmp/err" &&
		"$ulpdiff" "$tmp/$m-b.tsv" "$tmp/$m-b.csv" > "$tmp/$m-b.ulp" &&
		[ "$(sed -n 's/^max_ulp //p' "$tmp/$m-b.ulp")" = 0 ] &&
		broken "$m" &&
		$CC $CFLAGS_STRICT -o "$tmp/$m-bad" "$tmp/$m-broken.c" -lm \
		2>"$tmp/cc.err" &&
		"$tmp/$m-bad" $gbroken > "$tmp/$m-bad.tsv" &&
		{ "$ulpdiff" "$tmp/$m-bad.tsv" "$tmp/$m-b.csv" > "$tmp/$m-bad.ulp"
		u=$(sed -n 's/^max_ulp //p' "$tmp/$m-bad.ulp" 2>/dev/null)
		[ -n "$u" ] && [ "$u" != 0 ]; }
	ok $? "$m: correctly rounded at t = 1 + 2^-52, and caught broken there (max $u ulp)"
done
done_testing
