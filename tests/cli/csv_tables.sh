#!/bin/sh
# csv_tables.sh - fit and eval --measured on tables as pandas and Caliper
# write them (doc/fit.md): the index column and columns that name nothing
# left out, quoted fields, --column NAME=COLUMN, '-' for standard input,
# repeated configurations aggregated (mean, median, min) with their
# spread.  tests/cli/fit/pandas_runs.csv was written by pandas'
# DataFrame.to_csv (with its index) from three runs of each size of the
# ping-pong model, lat + bytes*gap - d, + 0, + d, with lat = 0.00002,
# gap = 0.00000001, d = 0.000001: the mean and the median give back lat
# and gap exactly, the minimum lat - d.
. "$top_srcdir/tests/cli/lib.sh"

pp=$top_srcdir/data/fit/pingpong.xml
runs=$top_srcdir/tests/cli/fit/pandas_runs.csv
col="time=time (s), avg"

# fit_has NAME WANT ARGS...: segc fit ARGS succeeds and prints each line
# of WANT.
fit_has() {
	name=$1 want=$2
	shift 2
	"$SEGC" fit "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bad=0
	printf '%s\n' "$want" >"$tmp/want"
	while IFS= read -r l; do
		grep -qxF -- "$l" "$tmp/out" || bad=1
	done <"$tmp/want"
	[ $rc -eq 0 ] && [ $bad -eq 0 ]
	ok $? "$name"
	[ $rc -eq 0 ] && [ $bad -eq 0 ] || diag "rc=$rc" "$(cat "$tmp/err" "$tmp/out")"
}

fit_has "pandas: mean of the runs, index and extra columns left out" \
"lat = 0.00002  (2e-05)
gap = 0.00000001  (1e-08)
# columns left out: run, host
# 12 rows aggregated into 4 configurations (--aggregate mean); spread: (largest - smallest)/measured
largest relative error: 0 (line 2, total)
R^2: 1" \
	--free lat,gap --column "$col" --aggregate mean "$pp" "$runs"
line=$(grep '^ *2  total' "$tmp/out")
set -- $line
[ "$7" = 3 ] && [ "$8" = 0.1 ]
ok $? "the first size: 3 runs, spread (2.1e-05 - 1.9e-05)/2e-05 = 0.1"
[ "$#" -eq 8 ] || diag "$line"

fit_has "pandas: median of the runs" "lat = 0.00002  (2e-05)
gap = 0.00000001  (1e-08)" \
	-q --free lat,gap --column "$col" --aggregate median "$pp" "$runs"
fit_has "pandas: minimum of the runs" "lat = 0.000019  (1.9e-05)
gap = 0.00000001  (1e-08)" \
	-q --free lat,gap --column "$col" --aggregate min "$pp" "$runs"
fit_has "pandas: every run an equation" "# exact linear least squares over Q: 2 free names, 12 equations from 12 rows of $runs
lat = 0.00002  (2e-05)
gap = 0.00000001  (1e-08)" \
	-q --free lat,gap --column "$col" "$pp" "$runs"
"$SEGC" fit -q --free lat,gap --column "$col" --aggregate mean "$pp" \
	"$runs" >"$tmp/file.out" 2>&1
"$SEGC" fit -q --free lat,gap --column "$col" --aggregate mean "$pp" - \
	<"$runs" >"$tmp/stdin.out" 2>&1
sed 's| of -$| of FILE|' "$tmp/stdin.out" >"$tmp/a"
sed "s| of $runs\$| of FILE|" "$tmp/file.out" >"$tmp/b"
same_file "$tmp/b" "$tmp/a" "'-' reads the table from standard input"

# A Caliper-like export: quoted headers, a "" inside one, quoted numbers,
# a text column.
printf '%s\n' '"path","Avg time/rank","Max ""time""/rank","msg_size"' \
	'"main/send","0.00002","1","0"' '"main/send","0.00003","1","1000"' \
	>"$tmp/cali.csv"
fit_has "Caliper: quoted fields, columns mapped by their header" \
"lat = 0.00002  (2e-05)
gap = 0.00000001  (1e-08)
# columns left out: path, Max \"time\"/rank" \
	--free lat,gap --column "time=Avg time/rank" --column bytes=msg_size \
	"$pp" "$tmp/cali.csv"

# Names of columns left out come from the file: a control byte is shown
# as \xHH, never sent to the terminal, and a long name is cut after 40
# bytes, not inside a UTF-8 character (here the 2-byte e-acute that
# would straddle the cut).
long=$(printf 'a%.0s' $(seq 39))
printf '%s\n' "$(printf 'bytes,time,x\033[31m,%s\303\251tail' "$long")" \
	'0,0.00002,1,2' '1000,0.00003,1,2' >"$tmp/ctl.csv"
fit_has "left-out names: control bytes escaped, long names cut" \
"# columns left out: x\\x1b[31m, $long..." \
	--free lat,gap "$pp" "$tmp/ctl.csv"

# refused WANT ARGS...: segc ARGS exits 2 with WANT on stderr.
refused() {
	name=$1 want=$2
	shift 2
	"$SEGC" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$name"
	[ $rc -eq 2 ] || diag "rc=$rc" "$(cat "$tmp/err")"
}
printf 'bytes,time\n1,"2\n' >"$tmp/open.csv"
refused "a quote left open" "$tmp/open.csv:2:3: error: the cell of column 'time' is a quoted field that does not end on its line" \
	fit --free lat,gap "$pp" "$tmp/open.csv"
refused "--column of a column the header lacks" "$runs:1: error: no column 'avg' in the header (to read as 'time')" \
	fit --free lat,gap --column time=avg "$pp" "$runs"
printf 'bytes,time,"byts"\n1,2,3\n' >"$tmp/near.csv"
refused "a quoted column close to a parameter's name" "$tmp/near.csv:1:12: error: the column 'byts' is neither a name of the model" \
	fit --free lat,gap "$pp" "$tmp/near.csv"
printf 'bytes,bytes,time\n1,1,2\n' >"$tmp/twice.csv"
refused "a column named twice" "$tmp/twice.csv:1:7: error: the column 'bytes' is named twice" \
	fit --free lat,gap "$pp" "$tmp/twice.csv"
refused "--aggregate of another kind" "--aggregate is mean, median or min, not 'max'" \
	fit --free lat,gap --aggregate max "$pp" "$runs"
refused "--column without a name" "--column time: not NAME=COLUMN" \
	fit --free lat,gap --column time "$pp" "$runs"
refused "--column without --measured" "--column and --aggregate read the table of --measured" \
	eval --column "$col" "$pp" bytes=1

# eval --measured reads the same table the same way.
"$SEGC" eval --measured "$runs" --column "$col" --aggregate median \
	-D lat=0.00002 -D gap=1e-8 "$pp" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 5 ] &&
	[ "$(awk 'NR > 1 { print $7 }' "$tmp/out" | sort -u)" = 0 ]
ok $? "eval --measured: the median of each size's runs, no error"
diag "$(cat "$tmp/out" "$tmp/err")"

done_testing
