#!/bin/sh
# sum_number.sh - a sum whose first term is a number followed by more than
# sixteen distinct terms (where the structural form switches from a linear
# search of like terms to a hash index): every command works on it, in a
# cost written as one sum and in a series of steps.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# One cost: 1 + N^1 + ... + N^17, and its expectation.
cost="1 + N^1" want="N + 1"
i=2
while [ $i -le 17 ]; do
	cost="$cost + N^$i" want="N^$i + $want"
	i=$((i + 1))
done
cat >"$tmp/one.xml" <<EOM
<model name="one" version="1">
  <graph name="main"><step cost="$cost"/></graph>
  <expect>$cost</expect>
</model>
EOM

# Steps: cost 2, then 17 resources.
{
	echo '<model name="steps" version="1">'
	i=1
	while [ $i -le 17 ]; do echo "<resource name=\"r$i\"/>"; i=$((i + 1)); done
	echo '<graph name="main"><step cost="2"/>'
	i=1
	while [ $i -le 17 ]; do echo "<step cost=\"r$i\"/>"; i=$((i + 1)); done
	echo '</graph></model>'
} >"$tmp/steps.xml"
binds=
i=2
while [ $i -le 17 ]; do binds="$binds -D r$i=1"; i=$((i + 1)); done

for f in one steps; do
	for form in canonical structural; do
		"$SEGC" derive --form $form "$tmp/$f.xml" >"$tmp/out" 2>"$tmp/err"
		ok $? "$f: derive --form $form"
	done
	"$SEGC" latex "$tmp/$f.xml" >"$tmp/out" 2>"$tmp/err"
	ok $? "$f: latex"
done
"$SEGC" eval "$tmp/one.xml" N=2 >"$tmp/out" 2>"$tmp/err"
ok $? "one: eval"
grep -q 262143 "$tmp/out"
ok $? "one: eval at N=2 gives 2^18 - 1"
"$SEGC" eval $binds "$tmp/steps.xml" r1=1 >"$tmp/out" 2>"$tmp/err"
ok $? "steps: eval"
grep -q '\b19\b' "$tmp/out"
ok $? "steps: eval with every resource 1 gives 19"

"$SEGC" derive "$tmp/one.xml" >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = "$want" ]
ok $? "one: the canonical form keeps every term"
"$SEGC" derive --form structural "$tmp/steps.xml" >"$tmp/out" 2>"$tmp/err"
grep -q '^2 + r1 + r2 + .* + r17$' "$tmp/out"
ok $? "steps: the structural form keeps the number first"
"$SEGC" check "$tmp/one.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "one: check"
done_testing
