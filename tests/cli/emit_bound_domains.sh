#!/bin/sh
# emit_bound_domains.sh - the relative error bound each emitted function
# states, where the proof needs the arguments' domains: 1 - p with p a
# probability (one rounding of two doubles, and not negative since p <= 1),
# a maximum of values of any sign, ceil of a quotient of integers, a
# difference that cancels written over a common integer denominator.  For
# each model the test first requires that a bound is stated (the
# predictors once said "No bound ... is proved" for all of them), then runs
# the predictor over a grid that reaches the ends of the domains (p at 0,
# 1 - 2^-40 and 1; quotients one off an integer with large divisors) and
# compares it with 'segc eval --precision 256': the largest relative error
# (against the reference rounded to double, so the bound plus 1) must not
# pass the bound, and no time may be negative.
. "$top_srcdir/tests/cli/lib.sh"
ulpdiff=$top_builddir/tests/cli/ulpdiff
CFLAGS_STRICT="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
x=$top_srcdir/xml

# case_of NAME MODEL MACHINE KEEP GRID...: emits MODEL (on the machine
# MACHINE of xml/machines, or - for none) keeping the comma-separated
# KEEP, checks the stated bounds over GRID (NAME=VALUES words).
case_of() {
	name=$1 model=$2 mopt= keep=$4
	[ "$3" = - ] || mopt="-m $x/machines/$3"
	shift 4
	kopts=
	for k in $(echo "$keep" | tr ',' ' '); do kopts="$kopts --keep $k"; done
	"$SEGC" emit -q --main $mopt $kopts -o "$tmp/$name" "$model" \
		2>"$tmp/err" &&
		$CC $CFLAGS_STRICT -o "$tmp/$name" "$tmp/$name.c" -lm \
		2>"$tmp/cc.err"
	ok $? "$name: emitted and compiled" || { diag "$(cat "$tmp/err" \
		"$tmp/cc.err")"; return; }
	n=$(grep -c 'No bound on its relative error' "$tmp/$name.c")
	[ "$n" -eq 0 ]
	ok $? "$name: every function states a bound ($n do not)"
	"$tmp/$name" "$@" > "$tmp/$name.tsv" &&
		"$SEGC" eval --form canonical --csv --digits 40 \
		--precision 256 $mopt "$model" "$@" > "$tmp/$name.csv" 2>"$tmp/err"
	ok $? "$name: predictor and eval ran over the grid" ||
		{ diag "$(head -5 "$tmp/err")"; return; }
	"$ulpdiff" "$tmp/$name.tsv" "$tmp/$name.csv" > "$tmp/$name.ulp"
	rows=$(sed -n 's/^rows //p' "$tmp/$name.ulp")
	awk '/Relative error at most/ { k = $6 }
		/No bound on its relative error/ { k = "none" }
		/^double [A-Za-z0-9_]*_(total|comp|comm|io)\(/ {
			f = $2; sub(/\(.*/, "", f); sub(/.*_/, "", f)
			print f, k; k = "" }' "$tmp/$name.c" |
	while read -r col k; do
		r=$(sed -n "s/^${col}_rel_u //p" "$tmp/$name.ulp")
		if [ "$k" = none ] || [ -z "$r" ]; then
			echo "FAIL $col: no bound or no error measured"
		elif awk -v r="$r" -v k="$k" 'BEGIN { exit !(r + 0 <= k + 1) }'
		then
			echo "$col: max $r u, bound $k u"
		else
			echo "FAIL $col: $r u beyond its bound $k u"
		fi
	done > "$tmp/$name.bound"
	! grep -q '^FAIL' "$tmp/$name.bound" && [ -s "$tmp/$name.bound" ]
	ok $? "$name: within the bound each function states ($rows points)"
	while read -r l; do diag "$name $l"; done < "$tmp/$name.bound"
	# no time below 0: every cell after the arguments' columns
	awk -F '\t' -v nk="$#" 'NR > 1 { for (i = nk + 1; i <= NF; i++)
		if ($i + 0 < 0) bad++ } END { exit bad > 0 }' "$tmp/$name.tsv"
	ok $? "$name: no negative time"
}

# exact decimals of doubles, so that eval and the predictor take the same
# arguments
r40=0.9999999999990905052982270717620849609375   # 1 - 2^-40
e10=0.0009765625   # 2^-10
e20=0.00000095367431640625   # 2^-20
e30=0.000000000931322574615478515625   # 2^-30
e60=0.000000000000000000867361737988403547205962240695953369140625   # 2^-60
# the doubles nearest 0.1, 0.3, 0.6, 0.7 and 3.7, written exactly
d1=0.1000000000000000055511151231257827021181583404541015625
d3=0.299999999999999988897769753748434595763683319091796875
d6=0.59999999999999997779553950749686919152736663818359375
d7=0.6999999999999999555910790149937383830547332763671875
d37=3.70000000000000017763568394002504646778106689453125
case_of fork_join_blocks "$x/examples/fork_join_blocks.xml" - \
	k,p,t_j,t_msg,t_reply,t_s,t_x,t_y,t_y1,t_y2,t_z \
	N=1 P=1 k=1,1000003 "p=0,$e60,$d3,$r40,1" t_j=0.125 t_msg=3,$e30 \
	t_reply=$e10 t_s=0 t_x=$e60,2.5 t_y=0,$d7 t_y1=1000000,3 \
	t_y2=$d1,$e20 t_z=$e20
case_of fork_join "$x/examples/fork_join.xml" - \
	k,p,t_j,t_msg,t_reply,t_s,t_x,t_y,t_y1,t_y2,t_z \
	N=1 P=1 k=3 "p=0,0.125,$r40,1" t_j=0,2 t_msg=$e30 t_reply=5 t_s=1 \
	t_x=$d3,400000 t_y=$e10 t_y1=1000000,$d1 t_y2=3,$e30 \
	t_z=0.5,$e20
case_of retry "$x/examples/retry.xml" - p,t_backoff,t_close,t_open,t_send \
	N=1 P=1 p=0,$d1,$d6,0.875 t_backoff=0,$e10,7 \
	t_close=0.25,100000 t_open=0,$e30 t_send=$e20,2
case_of surface_estimation "$x/surface_estimation.xml" t800_ct.xml \
	N_ivals,N_power,P_edge \
	N=1,1000 P=1,64 N_ivals=0,1,1000000000 N_power=0,$d37,1000000000000 \
	"P_edge=0,$e30,0.5,$r40,1"
# ceil(B*(i - 1)/X): quotients just off an integer (B*(i - 1) = kX +- 1)
# and divisible ones, with divisors up to 2^26 + 1 and B*(i - 1) up to
# 2^52 - 1 (the bound is stated for integer arguments below 2^26, which
# keeps B*(i - 1) + X below 2^53; the grid goes a little beyond)
case_of lu_send_row "$x/lu_send_row.xml" parsytec_gc.xml \
	B,X,Y,beta,eta_at,i \
	N=1 P=1 B=1,3,33554431,67108863 X=1,3,7,67108865 Y=1,2,9 \
	beta=0,$d6,1 eta_at=$e20,3 i=1,2,3,22369622,67108866
# eta_at*Y/3 - eta_at/Y/3 cancels (0 at Y = 1): computed as
# eta_at*(Y^2 - 1)/(3*Y), exact integers in the numerator
case_of mean_row_distance "$x/examples/mean_row_distance.xml" - Y,eta_at \
	N=1 P=1 Y=1,2,3,7,1000,67108864 eta_at=$e30,$d3,3,1000000
done_testing
