#!/bin/sh
# loop_counts.sh - a point where a symbolic loop count is negative lies
# outside the model's domain: eval over a grid and derive -D refuse it at
# the <loop> element (exit 2, nothing on standard output); points where
# the count is >= 0 keep their exact values (the loop run literally).
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

# refused NAME CMD...: exit 2, nothing on stdout, the error at the loop.
refused() {
	name=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ]
	ok $? "$name: exit 2, nothing written (got $rc)"
	grep -q 'm.xml:7:5: error: the loop count .*-2' "$tmp/err"
	ok $? "$name: the error names the loop, its count and value"
	[ $? -eq 0 ] || diag "$(head -3 "$tmp/err")"
}

refused "eval N=3" "$SEGC" eval "$tmp/m.xml" N=3 t=1
refused "eval N=3..8" "$SEGC" eval "$tmp/m.xml" N=3..8 t=1
refused "derive -D N=3" "$SEGC" derive -D N=3 "$tmp/m.xml"

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
