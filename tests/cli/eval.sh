#!/bin/sh
# eval.sh - 'segc eval': the table, CSV, exact ranges, correctly rounded
# digits, and the errors (unbound names, bad ranges) with exit 2.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/xml/cg_tree.xml
nc=$top_srcdir/xml/machines/ncube2.xml

"$SEGC" eval -m "$nc" "$m" N=1..3 P=1,2 > "$tmp/out"
ok $? "eval a grid"
cat > "$tmp/want" <<'TXT'
N  P         comp       comm  io        total    speedup  efficiency
1  1  3.25581e-05          0   0  3.25581e-05          1           1
1  2  2.32558e-05  0.0009198   0  0.000943056  0.0345241    0.017262
2  1  6.97674e-05          0   0  6.97674e-05          1           1
2  2  4.18605e-05  0.0009252   0   0.00096706  0.0721438   0.0360719
3  1  0.000116279          0   0  0.000116279          1           1
3  2  6.51163e-05  0.0009306   0  0.000995716   0.116779   0.0583897
TXT
same_file "$tmp/want" "$tmp/out" "the table of cg_tree on the nCUBE/2"

"$SEGC" eval --csv --digits 30 -m "$nc" "$m" N=2 P=3 > "$tmp/out"
printf '%s\n' 'N,P,comp,comm,io,total,speedup,efficiency' \
  '2,3,3.56589147286821705426356589147e-05,0.001848,0,0.00188365891472868217054263565891,0.0370382564035029959834068611312,0.0123460854678343319944689537104' \
  > "$tmp/want"
same_file "$tmp/want" "$tmp/out" "CSV with 30 correctly rounded digits"

"$SEGC" eval -m "$nc" "$m" N=1/2,0.25,1e3 P=1..16*4 > "$tmp/out"
[ $? -eq 0 ] && [ "$(wc -l < "$tmp/out")" -eq 10 ] &&
	grep -q '^ *1/2  *16 ' "$tmp/out" && grep -q '^ *1000  *4 ' "$tmp/out"
ok $? "exact values, lists and geometric ranges"

"$SEGC" eval "$m" N=1 > "$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "'P' has no value" "$tmp/err" &&
	grep -q "'t_stmt' has no value" "$tmp/err" &&
	grep -q "tree_bcast" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "unbound names and uninterpreted calls are named, exit 2"

for r in 'N=1..' 'N=3..1' 'N=1..10*1' 'N=a' 'N=1,,2' '=3' 'N=1.5..3'; do
	"$SEGC" eval -m "$nc" "$m" "$r" P=1 > /dev/null 2>"$tmp/err"
	[ $? -eq 2 ]
	ok $? "bad range '$r' is a usage error"
done

for x in "cg_tree.xml N=1..1000*10 P=1..64*2" \
	 "examples/lu_shrinking.xml N=1..100000*10 t_cmp=1 t_div=2 t_madd=1/3" \
	 "examples/mean_row_distance.xml Y=1..2000*3 eta_at=1/7"; do
	set -- $x
	f=$1
	shift
	"$SEGC" eval --digits 17 -m "$nc" "$top_srcdir/xml/$f" "$@" > "$tmp/s" &&
		"$SEGC" eval --digits 17 --form canonical -m "$nc" \
		"$top_srcdir/xml/$f" "$@" > "$tmp/c" && cmp -s "$tmp/s" "$tmp/c"
	ok $? "structural and canonical forms of $f evaluate alike"
done

# Sums whose upper bound falls below the lower one: every form follows the
# closed forms G(hi) - G(lo - 1), so sum(i, N, 1, i) at N = 4 is
# -(2 + 3) = -5, term by term as in closed form.
cat >"$tmp/rev.xml" <<'EOF'
<model name="rev" version="1">
  <graph name="main">
    <step cost="sum(i, N, 1, i)"/>
    <step cost="sum(i, N, 1, sqrt(i))" class="comm"/>
    <loop var="k" from="1" to="N"><step cost="sum(j, k, 2, j*k)" class="io"/></loop>
  </graph>
</model>
EOF
"$SEGC" eval --digits 17 "$tmp/rev.xml" N=1..9 > "$tmp/s" &&
	"$SEGC" eval --digits 17 --form canonical "$tmp/rev.xml" N=1..9 \
	> "$tmp/c" && cmp -s "$tmp/s" "$tmp/c"
ok $? "reversed sums: structural and canonical forms evaluate alike"
"$SEGC" eval --csv "$tmp/rev.xml" N=4 | sed -n 2p | cut -d, -f2 >"$tmp/v"
echo -5 >"$tmp/want"
same_file "$tmp/want" "$tmp/v" "reversed sums: sum(i, 4, 1, i) is -5"

"$SEGC" eval --precision 1 -m "$nc" "$m" N=1 P=1 > /dev/null 2>&1
[ $? -eq 2 ]
ok $? "a precision below the minimum is refused"
done_testing
