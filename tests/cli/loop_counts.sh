#!/bin/sh
# loop_counts.sh - a point where a symbolic loop count is negative lies
# outside the model's domain: every command that evaluates refuses it at
# the <loop> element (exit 2, nothing on standard output): eval over a
# grid or the rows of --measured, derive -D, optimize and solve over a
# range that reaches it, whatif and sensitivity at a grid point, fit at a
# row; check's sample points skip it.  Points where the count is >= 0 keep
# their exact values (the loop run literally).
. "$top_srcdir/tests/cli/lib.sh"

cat > "$tmp/m.xml" <<'XML'
<?xml version="1.0"?>
<model name="m" version="1">
  <param name="N" integer="true"/>
  <resource name="t"/>
  <graph name="main">
    <step name="a" cost="t"/>
    <loop count="N-5">
      <step name="b" cost="t"/>
    </loop>
  </graph>
</model>
XML

# refused NAME CMD...: exit 2, nothing on stdout, the error at the loop
# with the count's value ($val, -2 unless set).
refused() {
	name=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ]
	ok $? "$name: exit 2, nothing written (got $rc)"
	grep -q "m.xml:7:5: error: the loop count .*${val:--2}" "$tmp/err"
	ok $? "$name: the error names the loop, its count and value"
	[ $? -eq 0 ] || diag "$(head -3 "$tmp/err")"
	val=
}

refused "eval N=3" "$SEGC" eval "$tmp/m.xml" N=3 t=1
refused "eval N=3..8" "$SEGC" eval "$tmp/m.xml" N=3..8 t=1
refused "derive -D N=3" "$SEGC" derive -D N=3 "$tmp/m.xml"
val=-4; refused "optimize --over N=1..10" "$SEGC" optimize --min total \
	--over N=1..10 "$tmp/m.xml" t=1
refused "optimize --over N=3..4" "$SEGC" optimize --max total \
	--over N=3..4 "$tmp/m.xml" t=1
val=-5; refused "solve --in 0..100" "$SEGC" solve total=2 --for N --in 0..100 \
	"$tmp/m.xml" t=1
refused "whatif N=3" "$SEGC" whatif --scale t=2 "$tmp/m.xml" N=3 t=1
refused "whatif N=6,3" "$SEGC" whatif --scale t=2 "$tmp/m.xml" N=6,3 t=1
refused "sensitivity N=3" "$SEGC" sensitivity "$tmp/m.xml" N=3 t=1
printf 'N,time\n7,3\n3,-1\n8,4\n' >"$tmp/bad.csv"
refused "fit, a row at N=3" "$SEGC" fit --free t "$tmp/m.xml" "$tmp/bad.csv"
refused "eval --measured, a row at N=3" "$SEGC" eval -D t=1 \
	--measured "$tmp/bad.csv" "$tmp/m.xml"

# A long range is decided without trying its integers one by one: the
# end where the count is negative.
val=-4; refused "optimize --over N=1..10^50" "$SEGC" optimize --min total \
	--over "N=1..100000000000000000000000000000000000000000000000000" \
	"$tmp/m.xml" t=1

# Inside the domain the commands give the exact values: at N = 5 .. 10
# the total is (N - 4) t, least at N = 5, most at N = 10; total = 2 at
# N = 6; t = 1 fits the rows (N - 4) t exactly.
"$SEGC" optimize --min total --over N=5..10 "$tmp/m.xml" t=3 >"$tmp/out"
ok $? "optimize --over N=5..10 succeeds"
[ "$(sed -n '1p' "$tmp/out")" = "N = 5" ] &&
	[ "$(sed -n '2p' "$tmp/out")" = "total = 3" ]
ok $? "optimize --min over N=5..10: N = 5, total = 3"
"$SEGC" optimize --max total --over N=5..10 "$tmp/m.xml" t=3 >"$tmp/out"
[ "$(sed -n '1,2p' "$tmp/out" | tr '\n' ' ')" = "N = 10 total = 18 " ]
ok $? "optimize --max over N=5..10: N = 10, total = 18"
"$SEGC" solve total=2 --for N --in 5..100 "$tmp/m.xml" t=1 >"$tmp/out"
grep -qx 'N = 6 (exact)' "$tmp/out"
ok $? "solve total=2 in 5..100: N = 6"
"$SEGC" whatif --scale t=2 "$tmp/m.xml" N=6 t=1 >"$tmp/out"
grep -q '^6  *1  *2  *4  *0.5$' "$tmp/out"
ok $? "whatif at N=6: 2 before, 4 after"
printf 'N,time\n6,2\n7,3\n8,4\n' >"$tmp/good.csv"
"$SEGC" fit --free t "$tmp/m.xml" "$tmp/good.csv" >"$tmp/out"
grep -qx 't = 1' "$tmp/out"
ok $? "fit inside the domain: t = 1"

# check: max(N - 4, 1)*t equals (N - 4)*t wherever the loop runs (N >= 5)
# and differs only at N < 5, outside the domain: no witness may be
# reported there (before, N=1 was reported, a false MISMATCH).
"$SEGC" check --expect "max(N-4,1)*t" "$tmp/m.xml" >"$tmp/out" 2>&1
grep -q 'MISMATCH' "$tmp/out"
[ $? -ne 0 ]
ok $? "check: no witness outside the domain of the loop count"
[ $? -eq 0 ] || diag "$(head -8 "$tmp/out")"
# ... and a true difference inside the domain is still found.
"$SEGC" check --expect "(N-3)*t" "$tmp/m.xml" >"$tmp/out" 2>&1
grep -q 'MISMATCH' "$tmp/out" && ! grep -q 'witness: N=[0-4],' "$tmp/out"
ok $? "check: a true difference found at a point inside the domain"
[ $? -eq 0 ] || diag "$(head -8 "$tmp/out")"

# N >= 5: the loop runs N - 5 times, the step a once: (N - 4) t.
"$SEGC" eval --csv "$tmp/m.xml" N=5..8 t=3 >"$tmp/out" 2>"$tmp/err"
ok $? "eval N=5..8 succeeds"
want=""
for n in 5 6 7 8; do
	total=3
	i=0
	while [ $i -lt $((n - 5)) ]; do
		total=$((total + 3))
		i=$((i + 1))
	done
	want="$want $n:$total"
done
got=$(awk -F, 'NR > 1 { printf " %s:%s", $1, $NF }' "$tmp/out")
[ "$got" = "$want" ]
ok $? "eval N=5..8: exact totals (want$want, got$got)"

done_testing
