#!/bin/sh
# eval_bounds.sh - evaluations that used to crash or run without bound:
# each gives the right value (checked against Python's exact fractions)
# or exits 3 naming the limit, within seconds.
: "${SEGC:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/cli/lib.sh"

# model FILE COST: a model of one parameter N whose one step costs COST.
model() {
	cat >"$1" <<EOM
<model name="bounds" version="1">
  <param name="N"/>
  <graph name="main"><step cost="$2"/></graph>
</model>
EOM
}

# within SECONDS CMD...: runs CMD with a time limit; its status (124 when
# it ran too long).
within() {
	s=$1
	shift
	timeout "$s" "$@"
}

# exact FILE POINT WANT NAME: 'eval --digits 40' at POINT prints as total
# the fraction WANT to 40 digits (a relative difference below 10^-38).
exact() {
	within 20 "$SEGC" eval --digits 40 "$1" "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(awk 'NR == 2 { print $NF }' "$tmp/out")
	[ $rc -eq 0 ] && python3 -c '
import sys
from fractions import Fraction
want, got = Fraction(sys.argv[1]), Fraction(sys.argv[2])
sys.exit(0 if abs(got - want) <= abs(want) / 10**38 else 1)' "$3" "$got"
	ok $? "$4"
	[ $rc -eq 0 ] || diag "want $3, got '$got' (exit $rc)" \
		"$(head -3 "$tmp/err")"
}

# limit STATUS-FILE MESSAGE NAME: exit 3, MESSAGE on stderr, no output.
limit() {
	[ "$1" -eq 3 ] && grep -Eq "error: .*$2" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$3"
	[ "$1" -eq 3 ] || diag "exit $1" "$(head -3 "$tmp/err")"
}

# A sum of max(j, 3) over more than 1000 terms: its closed form holds a
# sum of max() again, whose closed form held another... (the stack ran
# out at 151 000 frames).
model "$tmp/summax.xml" "sum(j, 1, N, max(j, 3))"
want=$(python3 -c 'print(sum(max(j, 3) for j in range(1, 1051)))')
exact "$tmp/summax.xml" N=1050 "$want" "sum of max(j, 3) over 1050 terms: no crash, the value"
want=$(python3 -c 'print(sum(max(j, 3) for j in range(1, 20001)))')
exact "$tmp/summax.xml" N=20000 "$want" "the same over 20000 terms"

# Nested recurrences whose costs depend on their counters: the inner
# iterations count against max_eval_terms with the outer ones.
model "$tmp/nested.xml" "maxplusv(i, N, 1, maxplusv(j, N, 1, i + j, 1, 1, 1, 1, 0), 1, 1, 1, 1, 0)"
want=$(python3 -c '
N = 7
print(sum(sum(i + j for j in range(1, N + 1)) for i in range(1, N + 1)))')
exact "$tmp/nested.xml" N=7 "$want" "nested maxplusv: the value"
within 120 "$SEGC" eval "$tmp/nested.xml" N=100000 >"$tmp/out" 2>"$tmp/err"
limit $? "\(max_eval_terms\)" "nested maxplusv of 10^10 iterations: exit 3, max_eval_terms named"
within 20 "$SEGC" eval --limit max_eval_terms=1000 "$tmp/nested.xml" N=40 \
	>"$tmp/out" 2>"$tmp/err"
limit $? "\(max_eval_terms\)" "nested maxplusv past a small limit: exit 3"

# Costs 1/i: the exact finish times grow by a word every few dozen
# iterations; the work, not the iterations alone, is bounded.
model "$tmp/harm.xml" "maxplusv(i, N, 1, 1/i, 1, 1, 1, 1, 0)"
want=$(python3 -c '
from fractions import Fraction
print(sum(Fraction(1, i) for i in range(1, 31)))')
exact "$tmp/harm.xml" N=30 "$want" "costs 1/i: the harmonic number"
within 30 "$SEGC" eval --arith exact "$tmp/harm.xml" N=100000 >"$tmp/out" \
	2>"$tmp/err"
limit $? "\(max_eval_terms\)" "costs 1/i over 10^5 iterations, exactly: exit 3 within seconds"
# Over balls the finish times do not grow: the value within seconds,
# H(10^5) = ln n + gamma + 1/(2n) - 1/(12n^2) + 1/(120n^4) - ... to 12
# digits.
within 30 "$SEGC" eval --digits 12 "$tmp/harm.xml" N=100000 >"$tmp/out" \
	2>"$tmp/err"
rc=$?
want=$(python3 -c '
from decimal import Decimal as D, getcontext
getcontext().prec = 40
n = D(100000)
g = D("0.5772156649015328606065120900824024310422")
h = n.ln() + g + 1 / (2 * n) - 1 / (12 * n * n) + 1 / (120 * n ** 4)
print("%.11e" % h)')
got=$(awk 'NR == 2 { printf "%.11e", $NF }' "$tmp/out")
[ $rc -eq 0 ] && [ "$got" = "$want" ]
ok $? "costs 1/i over 10^5 iterations over balls: $got ($want)"

# A cost of indexed nodes whose power would need more than GMP holds: the
# size is bounded before the power (an abort inside GMP before).
cat >"$tmp/tp.xml" <<'EOM'
<model name="tp" version="1">
  <param name="K" min="1" integer="true"/>
  <graph name="main">
    <node id="start"/>
    <node id="cell" cost="(((x+2)^4096+1)^4096+1)^4096" index="x=1..K"/>
    <node id="end"/>
    <arc from="start" to="cell" at="1"/>
    <arc from="cell" to="cell" at="x+1"/>
    <arc from="cell" to="end"/>
  </graph>
</model>
EOM
within 20 "$SEGC" eval "$tmp/tp.xml" K=2 >"$tmp/out" 2>"$tmp/err"
limit $? "\(max_coeff_bits\)" "taskpath with a huge power: exit 3, max_coeff_bits named"
within 20 "$SEGC" eval -D K=2 "$tmp/tp.xml" >"$tmp/out" 2>"$tmp/err"
limit $? "\(max_coeff_bits\)" "the same atom given with -D: exit 3"
within 20 "$SEGC" optimize --min total --over K=1..3 "$tmp/tp.xml" \
	>"$tmp/out" 2>"$tmp/err"
limit $? "\(max_coeff_bits\)" "optimize over it: exit 3"

# Costs of indexed nodes that make large numbers for every instance:
# their words count as work (the run took more than a minute).
sed 's|(((x+2)^4096+1)^4096+1)^4096|(x+1)^4096*(x+2)^4096*(x+3)^4096*(x+4)^4096*(x+5)^4096|' \
	"$tmp/tp.xml" >"$tmp/tpwork.xml"
within 30 "$SEGC" eval "$tmp/tpwork.xml" K=10000 >"$tmp/out" 2>"$tmp/err"
limit $? "max_eval_terms" "indexed costs of 10^4 large instances: exit 3 within seconds"

done_testing
