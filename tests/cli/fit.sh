#!/bin/sh
# fit.sh - segc fit: noise-free data made from known machines fitted back
# to exactly the same rationals (three components jointly, machine
# constants, a fitted machine read back with -m), noisy data against the
# least-squares solutions computed independently with Python's fractions
# (data/fit/make_data.py; the figures are held here), nonlinear fits
# against exact data and Python's Gauss-Newton (tests/cli/fit/make_nl.py),
# and every refusal with its located message, exit 2 and nothing written.
. "$top_srcdir/tests/cli/lib.sh"
d="$top_srcdir/data/fit"
t="$top_srcdir/tests/cli/fit"
seis="$top_srcdir/xml/seismic.xml"
table6="C_comm_start,C_comm_trans,C_rd_start,C_wr_start,C_mem_trans"

# has FILE LINE NAME: passes when FILE has the line LINE.
has() {
	if grep -qxF -- "$2" "$1"; then ok 0 "$3"; else
		ok 1 "$3"; diag "want: $2" "$(head -20 "$1")"; fi
}

# Table 6 back exactly from the noise-free times: comp, comm, io jointly.
"$SEGC" fit -q --free "$table6" "$seis" "$d/seismic_phase2.csv" \
	-o "$tmp/m.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "seismic phase 2: fit succeeds"
has "$tmp/out" "C_comm_start = 0.000318" "Table 6: C_comm_start exactly"
has "$tmp/out" "C_comm_trans = 0.000000662  (6.62e-07)" "Table 6: C_comm_trans"
has "$tmp/out" "C_rd_start = 0.0000858  (8.58e-05)" "Table 6: C_rd_start"
has "$tmp/out" "C_wr_start = 0.00304" "Table 6: C_wr_start"
has "$tmp/out" "C_mem_trans = 0.000000044  (4.4e-08)" "Table 6: C_mem_trans"
has "$tmp/out" "largest relative error: 0 (line 4, comp)" "no residual"
has "$tmp/out" "R^2: 1" "R^2 is 1"
has "$tmp/out" "# exact linear least squares over Q: 5 free names, 72 equations from 24 rows of $d/seismic_phase2.csv" "72 equations from 24 rows"
# The machine written reads back: every component as with Table 6.
for c in comm io total; do
	"$SEGC" derive --component $c -m "$top_srcdir/xml/machines/seismic_phase2.xml" \
		"$seis" >"$tmp/want" 2>&1
	"$SEGC" derive --component $c -m "$tmp/m.xml" "$seis" >"$tmp/got" 2>&1
	same_file "$tmp/want" "$tmp/got" "the fitted machine gives the $c of Table 6"
done
"$SEGC" validate "$tmp/m.xml"
ok $? "the fitted machine is a valid document"

# Machine constants: gap and ts of the Parsytec GC, through its costs,
# with a ceiling in the coefficient of gap; the rest of the machine kept.
pgc="$top_srcdir/xml/machines/parsytec_gc.xml"
lu="$top_srcdir/xml/lu_send_row.xml"
"$SEGC" fit -q -m "$pgc" --free gap ts "$lu" "$t/lu_send_row.csv" \
	-o "$tmp/pgc.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "lu_send_row: fit succeeds"
has "$tmp/out" "gap = 0.00000275  (2.75e-06)" "gap is 220 cycles exactly"
has "$tmp/out" "ts = 0.01" "ts is 800000 cycles exactly"
"$SEGC" derive -m "$pgc" "$lu" >"$tmp/want" 2>&1
"$SEGC" derive -m "$tmp/pgc.xml" "$lu" >"$tmp/got" 2>&1
same_file "$tmp/want" "$tmp/got" "the fitted Parsytec GC gives the same formula"

# Noisy data: Python's exact least squares (make_data.py) to 12 digits.
# digits12 FILE NAME: the 12 significant digits of NAME's decimal.
digits12() {
	sed -n "s/^$2 = .*(\(.*\))\$/\1/p" "$1" | awk '{ printf "%.11e\n", $1 }'
}
check12() {
	got=$(digits12 "$tmp/out" "$1")
	want=$(echo "$2" | awk '{ printf "%.11e\n", $1 }')
	[ -n "$got" ] && [ "$got" = "$want" ]
	ok $? "$3: $1 = $2 to 12 digits (got $got)"
}
"$SEGC" fit --free "$table6" "$seis" "$d/seismic_phase2_noisy.csv" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "noisy seismic: fit succeeds"
check12 C_comm_start 0.00030730769156751 "noisy seismic"
check12 C_comm_trans 6.61890105953299e-07 "noisy seismic"
check12 C_rd_start 7.30754556604193e-05 "noisy seismic"
check12 C_wr_start 0.00305164920343504 "noisy seismic"
check12 C_mem_trans 4.65142646865246e-08 "noisy seismic"
has "$tmp/out" "C_comm_start = 4665594632695837/15182160293150000000  (0.000307307691568)" \
	"noisy seismic: the exact rational of C_comm_start"
"$SEGC" fit -q --free lat,gap "$d/pingpong.xml" "$d/pingpong.csv" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "ping-pong: fit succeeds"
check12 lat 0.000209780204546564 "ping-pong"
check12 gap 3.43044974468214e-07 "ping-pong"
has "$tmp/out" "R^2: 0.99990163134" "ping-pong: R^2"
"$SEGC" fit -q --weight relative --free lat,gap "$d/pingpong.xml" \
	"$d/pingpong.csv" >"$tmp/out" 2>"$tmp/err"
ok $? "ping-pong, relative weights: fit succeeds"
check12 lat 0.000209648023509891 "ping-pong, relative"
check12 gap 3.43256435532366e-07 "ping-pong, relative"

# -D fixes a name: gap fixed at 27.5 cycles, lat fitted alone.
"$SEGC" fit -q -D gap=3.4375e-7 --free lat "$d/pingpong.xml" \
	"$d/pingpong.csv" >"$tmp/out" 2>"$tmp/err"
ok $? "ping-pong with gap fixed: fit succeeds"
check12 lat 0.000209336038461538 "ping-pong, gap fixed"

# Nonlinear fits (Levenberg-Marquardt in MPFR): the data of
# tests/cli/fit/make_nl.py, exact times from known constants fitted back,
# noisy ones against its Gauss-Newton in 60-digit decimals, to 12 digits.
# sig12 NAME WANT TEXT: NAME's printed value equals WANT to 12 digits.
sig12() {
	got=$(sed -n "s/^$1 = \([^ ]*\)\$/\1/p" "$tmp/out" | awk '{ printf "%.11e\n", $1 }')
	want=$(echo "$2" | awk '{ printf "%.11e\n", $1 }')
	[ -n "$got" ] && [ "$got" = "$want" ]
	ok $? "$3: $1 = $2 to 12 digits (got $got)"
}
"$SEGC" fit --digits 15 --free lat,bw "$t/latbw.xml" "$t/latbw.csv" \
	-o "$tmp/lb.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "lat + bytes/bw: fit succeeds from the default start"
has "$tmp/out" "# nonlinear least squares (Levenberg-Marquardt, MPFR 128 bits): approximate: 2 free names, 9 equations from 9 rows of $t/latbw.csv" \
	"lat + bytes/bw: the nonlinear path, said to be approximate"
has "$tmp/out" "# the formula is not linear in the free names (nonlinear in bw)" \
	"lat + bytes/bw: nonlinear in bw"
grep -q '^# converged after [0-9]* iterations: relative step below 2^-64$' "$tmp/out"
ok $? "lat + bytes/bw: the criterion met"
sig12 lat 0.00002 "lat + bytes/bw, exact data"
sig12 bw 125000000 "lat + bytes/bw, exact data"
grep -q '^R^2: 1$' "$tmp/out"
ok $? "lat + bytes/bw: R^2 1"
grep -q '<cost name="bw" value="125000000"/>' "$tmp/lb.xml"
ok $? "lat + bytes/bw: -o writes bw in decimal"
"$SEGC" eval -m "$tmp/lb.xml" "$t/latbw.xml" bytes=1024 >"$tmp/ev" 2>&1
grep -q ' 2.8192e-05 *$' "$tmp/ev"
ok $? "the fitted machine read back with -m: 20e-6 + 1024/125e6 = 0.000028192"
"$SEGC" fit -q --digits 15 --free a,b "$t/maxab.xml" "$t/maxab.csv" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "max(a*N, b*P): fit succeeds"
sig12 a 0.003 "max(a*N, b*P), exact data"
sig12 b 0.5 "max(a*N, b*P), exact data"
"$SEGC" fit -q --digits 15 --free lat,bw --start bw=1e8 "$t/latbw.xml" \
	"$t/latbw_noisy.csv" >"$tmp/out" 2>"$tmp/err"
ok $? "lat + bytes/bw, noisy: fit succeeds"
sig12 lat 1.93095466438460277854e-05 "lat + bytes/bw, noisy"
sig12 bw 1.24321327509505674243e+08 "lat + bytes/bw, noisy"
"$SEGC" fit -q --digits 15 --weight relative --free lat,bw \
	--start lat=1e-5,bw=1e8 "$t/latbw.xml" "$t/latbw_noisy.csv" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "lat + bytes/bw, noisy, relative: fit succeeds"
sig12 lat 1.99289537702962039488e-05 "lat + bytes/bw, noisy, relative"
sig12 bw 1.24742109023721352220e+08 "lat + bytes/bw, noisy, relative"
# A linear formula keeps the exact path.
"$SEGC" fit -q --free lat,gap "$d/pingpong.xml" "$d/pingpong.csv" >"$tmp/out" 2>&1
grep -q '^# exact linear least squares over Q' "$tmp/out"
ok $? "a linear formula takes the exact path"

# Refusals: exit 2, the message, nothing on standard output or written.
# refuse NAME MESSAGE ARGS...: segc fit ARGS must fail with MESSAGE.
refuse() {
	name=$1 msg=$2
	shift 2
	rm -f "$tmp/never.xml"
	"$SEGC" fit -o "$tmp/never.xml" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/never.xml" ] &&
	    grep -qF -- "$msg" "$tmp/err"; then
		ok 0 "$name"
	else
		ok 1 "$name"
		diag "rc=$rc want: $msg" "$(cat "$tmp/err" "$tmp/out")"
	fi
}
pp="$d/pingpong.xml"
printf 'bytes,time\n1,2\n16,x7\n' >"$tmp/bad.csv"
refuse "a non-numeric cell" "$tmp/bad.csv:3:4: error: the cell of column 'time' is not a decimal number" \
	--free lat,gap "$pp" "$tmp/bad.csv"
printf 'bytes,time\n1,2\n16\n' >"$tmp/short.csv"
refuse "a short row" "$tmp/short.csv:3: error: the row has 1 cells, the header 2" \
	--free lat,gap "$pp" "$tmp/short.csv"
printf 'time\n1\n2\n' >"$tmp/nobytes.csv"
refuse "a missing parameter column" "$tmp/nobytes.csv:1: error: 'bytes' (in the formula of total) has no value: give a column bytes" \
	--free lat,gap "$pp" "$tmp/nobytes.csv"
printf 'bytes\n1\n2\n' >"$tmp/notime.csv"
refuse "no measured column" "$tmp/notime.csv:1: error: no measured column: give a column time (or total), comp, comm or io" \
	--free lat,gap "$pp" "$tmp/notime.csv"
printf 'bytes,byts,time\n1,1,2\n' >"$tmp/run.csv"
refuse "a column close to a name of the model" "$tmp/run.csv:1:7: error: the column 'byts' is neither a name of the model nor a measurement" \
	--free lat,gap "$pp" "$tmp/run.csv"
printf 'bytes,time,total\n1,2,2\n' >"$tmp/twice.csv"
refuse "time and total both" "$tmp/twice.csv:1:12: error: the column 'total' measures total again" \
	--free lat,gap "$pp" "$tmp/twice.csv"
refuse "a free name that is nothing" "segc: error: --free foo: not a resource, machine constant or parameter of the model" \
	--free lat,foo "$pp" "$d/pingpong.csv"
printf 'Its,comm\n16,1\n' >"$tmp/comm.csv"
refuse "a free name that does not occur" "segc: error: --free C_rd_start: 'C_rd_start' does not occur in the formula of the measured component" \
	--free C_comm_start,C_rd_start -D P=2 -D X_msgs=1 -D Sz_msgs=1 "$seis" "$tmp/comm.csv"
printf 'bytes,time\n16,1\n16,1.5\n16,2\n' >"$tmp/onesize.csv"
refuse "rows that cannot tell lat from gap" "$tmp/onesize.csv: error: the equations cannot tell apart lat and gap: only a combination of them is determined (rank 1 of 2 free names, 3 equations)" \
	--free lat,gap "$pp" "$tmp/onesize.csv"
printf 'bytes,time\n0,1\n0,2\n' >"$tmp/zero.csv"
refuse "a free name the rows do not see" "$tmp/zero.csv: error: the free name 'gap' has the coefficient 0 in every equation" \
	--free lat,gap "$pp" "$tmp/zero.csv"
printf 'Its,X_msgs,Sz_msgs,comm\n1,1,1,1\n' >"$tmp/s.csv"
refuse "a product of free names from one row" "$tmp/s.csv: error: the equations cannot tell apart P and C_comm_start at the fitted values: only a combination of them is determined (the Jacobian has rank 1 of 2 free names, 1 equations)" \
	-D C_comm_trans=0 --free P,C_comm_start "$seis" "$tmp/s.csv"
printf 'N,P,time\n1,2,3\n4,8,5\n3,4,5\n16,2,7\n' >"$tmp/a3.csv"
refuse "b and c only as their product (nonlinear)" "$tmp/a3.csv: error: the equations cannot tell apart b and c at the fitted values: only a combination of them is determined (the Jacobian has rank 2 of 3 free names, 4 equations)" \
	--free a,b,c "$t/amdahl3.xml" "$tmp/a3.csv"
printf 'N,time\n1,0.75\n2,1\n4,1.5\n8,2.5\n' >"$tmp/inv.csv"
refuse "a nonlinear fit that does not converge" "$tmp/inv.csv: error: the nonlinear fit did not converge in 3 iterations of Levenberg-Marquardt" \
	--free rate,t0 --start rate=1e8 --max-iterations 3 "$t/inverse.xml" "$tmp/inv.csv"
refuse "a starting value of a name not free" "segc: error: --start N: 'N' is not one of the --free names" \
	--free rate,t0 --start N=2 "$t/inverse.xml" "$tmp/inv.csv"
refuse "a starting value that is not a number" "--start rate: 'x' is not a number" \
	--free rate,t0 --start rate=x "$t/inverse.xml" "$tmp/inv.csv"
printf 'N,time\n1,1\n2,2\n' >"$tmp/inv0.csv"
refuse "a nonlinear fit that cannot start" "inverse.xml: error: the formula cannot be evaluated at the starting values of the free names" \
	--free rate,t0 --start rate=0 "$t/inverse.xml" "$tmp/inv0.csv"
printf 'bytes,time\n-1,1\n' >"$tmp/neg.csv"
refuse "a value outside the declared domain" "$tmp/neg.csv:2:1: error: the value of 'bytes' lies outside the domain the model declares for it" \
	--free lat,gap "$pp" "$tmp/neg.csv"
printf 'bytes,time\n1,0\n2,0\n' >"$tmp/z.csv"
refuse "only zero measurements with relative weights" "$tmp/z.csv: error: every measured value is 0, and a 0 has no relative error (--weight relative): nothing is left to fit" \
	--weight relative --free lat,gap "$pp" "$tmp/z.csv"
refuse "a free name fixed with -D" "segc: error: --free gap: also fixed with -D gap" \
	-D gap=1 --free lat,gap "$pp" "$d/pingpong.csv"
refuse "no free name" "give the names to fit with --free NAME" "$pp" "$d/pingpong.csv"
refuse "no data file" "a model and a data file are required" --free lat "$pp"

done_testing
