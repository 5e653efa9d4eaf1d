#!/bin/sh
# analysis.sh - the analysis commands: optimize (the best block size
# against exact brute force in Python, the processor count of PerPreT's
# CG over 10^9 values), solve (exact rational roots, irrational ones to
# 30 digits against Python's decimal, a crossing at a jump), and the
# errors of bad specifications, each with exit 2 and nothing written.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/xml/cg_tree.xml
nc=$top_srcdir/xml/machines/ncube2.xml
bs=$top_srcdir/tests/cli/models/blocksize.xml

# usage CMD... : exit 2, nothing on stdout, a "segc: CMD:" or located
# message on stderr.
fails() {
	"$SEGC" "$@" > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ]
}

# ------------------------------------------------------------ optimize

# T = a*B + b*N/B: the best integer B is the floor or the ceil of
# sqrt(b*N/a), whichever gives the smaller exact T (ties: the smaller B);
# compared with every B of the range in exact rational arithmetic.
for c in "3 7 100 1 1000" "1 1 90 1 50" "2 5 1000 1 200" "5 1 7 1 9" \
	 "3 7 100 20 30" "1/3 5/2 1000 1 100" "7 3 100 2 2"; do
	set -- $c
	"$SEGC" optimize -q --min total --over "B=$4..$5" "$bs" "t_work=$1" \
		"t_msg=$2" "N=$3" > "$tmp/out"
	got=$(cat "$tmp/out")
	want=$(python3 -c "
from fractions import Fraction as F
a, b, N = F('$1'), F('$2'), F('$3')
print('B = %d' % min(range($4, $5 + 1), key=lambda B: (a*B + b*N/B, B)))")
	[ "$got" = "$want" ]
	ok $? "optimize a*B + b*N/B for a, b, N, range = $c: $want"
done

"$SEGC" optimize --min total --over B=1..1000 "$bs" t_work=3 t_msg=7 N=100 \
	> "$tmp/out"
cat > "$tmp/want" <<'TXT'
B = 15
total = 275/3 (about 91.6666666667)
the minimum of total over B=1..1000, certified exactly:
  pieces: 3 (a rational function of B on each)
  stationary points: 15.2752523165
  candidates compared: 1, 2, 15, 16, 999, 1000
TXT
same_file "$tmp/want" "$tmp/out" "optimize prints the value and its certificate"

"$SEGC" optimize --max "comm - comp" --over B=1..50 "$bs" t_work=1 \
	t_msg=1 N=100 > "$tmp/out"
head -2 "$tmp/out" | tr '\n' ' ' | grep -q '^B = 1 comm - comp = 99 $'
ok $? "optimize --max of an expression of the components"

# B in the bounds of a loop and inside ceil(B/8): not rational piece by
# piece, so every integer of the range is compared; against a brute
# force over the same range in Python.
sw=$top_srcdir/tests/cli/models/blocked_sweep.xml
for c in "1 5 40 1000 1 300" "3 1 7 777 2 150" "1 9 100 5000 40 400" \
	"2 0 1 64 1 64"; do
	set -- $c
	got=$("$SEGC" optimize --min total --over B=$5..$6 "$sw" t_work=$1 \
		t_chunk=$2 t_msg=$3 N=$4 | head -1)
	want=$(python3 -c "
from fractions import Fraction as F
w, ch, m, N = F('$1'), F('$2'), F('$3'), $4
def T(B):
    nb = N // B
    return nb*(B*w + -(-B // 8)*ch + m) + (N - B*nb)*w
print('B = %d' % min(range($5, $6 + 1), key=lambda B: (T(B), B)))")
	[ "$got" = "$want" ]
	ok $? "optimize by a scan of every integer, $c: $want"
done
"$SEGC" optimize --max total --over B=1..100 "$sw" t_work=1 t_chunk=5 \
	t_msg=40 N=1000 > "$tmp/out"
sed -n 4p "$tmp/out" | grep -q "every integer of 1..100 compared, exactly where certified doubles do not separate them"
ok $? "optimize says the scan is its certificate"
fails optimize --min total --over B=1..20000 "$sw" t_work=1 t_chunk=5 \
	t_msg=40 N=1000 &&
	grep -q "ceil(B/8).*more than 10000 integers to compare" "$tmp/err"
ok $? "optimize: a range too large to scan is refused, saying why"

# PerPreT's CG with tree communication on the nCUBE/2, N = 1000: the
# processor count of least time over 1..10^9, from the paper's formula
# (cg_tree.xml's <expect>) and the machine's constants, by exhaustive
# exact evaluation over 1..5000 in Python.
want=$(python3 -c "
from fractions import Fraction as F
N, t = 1000, F(1, 430000)
def msg(b): return F(100, 10**6) + b*F(45, 10**8) + F(50, 10**6)
def T(P):
    L = (P - 1).bit_length()
    return (F(10*N + 2*N*N, P) + 2*P)*t + L*(msg(8*N) + 2*msg(8) + msg(F(8*N, P)) + 2*msg(8))
B = min(range(1, 5001), key=lambda P: (T(P), P))
print('P = %d' % B); print('total = %s' % T(B))")
start=$(date +%s%N)
"$SEGC" optimize --min total --over P=1..10^9 -m "$nc" "$m" N=1000 > "$tmp/out"
rc=$?
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
[ $rc -eq 0 ] && [ "$(head -1 "$tmp/out")" = "$(echo "$want" | head -1)" ] &&
	head -2 "$tmp/out" | tail -1 | grep -q "^$(echo "$want" | tail -1) "
ok $? "optimize P over 1..10^9 on cg_tree/ncube2 = exhaustive 1..5000"
diag "optimize over 10^9 values took ${ms} ms"
[ "$ms" -lt 5000 ]
ok $? "optimize over 10^9 values is fast (never enumerates)"
"$SEGC" optimize -q --min total --over P=1..5000 -m "$nc" "$m" N=1000 \
	> "$tmp/out2"
[ "$(head -1 "$tmp/out")" = "$(cat "$tmp/out2")" ]
ok $? "the same optimum over 1..5000"

# max, min and if() of rational functions of B: the range is cut where
# they switch (irrational points too); every answer against Python's
# exact brute force over 1..200.
for q in "max(B^2, 30*B+1) - 20*B" "min(B^2 - 50*B, -3*B) + 100/B" \
	 "if(B^2 <= 30*B + 1, 1000/B, B)" "max(B, 1000/B, 7*B - 300)" \
	 "min(3*B + 500/B, 2*B+700/B)"; do
	for mode in min max; do
		got=$("$SEGC" optimize -q --$mode "$q" --over B=1..200 "$bs")
		want=$(python3 -c "
from fractions import Fraction as F
def mx(*a): return max(a)
def mn(*a): return min(a)
def iff(c, a, b): return a if c else b
e = '$q'.replace('^', '**').replace('max', 'mx').replace('min', 'mn')
e = e.replace('if(B**2 <= 30*B + 1,', 'iff(B**2 <= 30*B + 1,')
f = lambda B: eval(e, {'mx': mx, 'mn': mn, 'iff': iff}, {'B': F(B)})
s = 1 if '$mode' == 'min' else -1
print('B = %d' % min(range(1, 201), key=lambda B: (s*f(B), B)))")
		[ "$got" = "$want" ]
		ok $? "optimize --$mode $q over 1..200: $want"
	done
done

# ------------------------------------------------------------- solve

"$SEGC" solve --for B --in 1..100 "total = 100" "$bs" t_work=3 t_msg=7 \
	N=100 > "$tmp/out"
printf '%s\n' 'B = 10 (exact)' 'B = 70/3 (exact)' > "$tmp/want"
same_file "$tmp/want" "$tmp/out" "solve: 3B + 700/B = 100 has the rational roots 10 and 70/3"

want=$(python3 -c "
from decimal import Decimal as D, getcontext
getcontext().prec = 60
r = D(249).sqrt(); a, b = (93 - r)/6, (93 + r)/6
getcontext().prec = 30
print('B = %s (correctly rounded)' % (+a)); print('B = %s (correctly rounded)' % (+b))")
"$SEGC" solve --for B --in 1..100 "total = 93" "$bs" t_work=3 t_msg=7 \
	N=100 > "$tmp/out"
[ "$(cat "$tmp/out")" = "$want" ]
ok $? "solve: (93 +- sqrt(249))/6 to 30 digits, as Python's decimal"

want=$(python3 -c "
from decimal import Decimal as D, getcontext
getcontext().prec = 80
r = (D(700)/3).sqrt()
getcontext().prec = 40
print('B = %s (correctly rounded)' % (+r))")
"$SEGC" solve --digits 40 --for B --in 1..100 "comp = comm" "$bs" \
	t_work=3 t_msg=7 N=100 > "$tmp/out"
[ "$(cat "$tmp/out")" = "$want" ]
ok $? "solve: comp = comm at sqrt(700/3), 40 digits"

"$SEGC" solve --for B --in 1..100 "total = 90" "$bs" t_work=3 t_msg=7 \
	N=100 > "$tmp/out"
[ "$(cat "$tmp/out")" = "no root in 1..100" ]
ok $? "solve: no root"

# The efficiency of CG on the nCUBE/2 (N = 1000) is above 1/2 up to P =
# 128 and below from 129 on: the tree depth ceil(log2(P)) jumps there.
"$SEGC" solve --for P --in 1..10^9 "efficiency = 1/2" -m "$nc" "$m" \
	N=1000 > "$tmp/out"
grep -q '^P = 128 (no root: the two sides cross there at a jump)$' "$tmp/out"
ok $? "solve: efficiency = 1/2 crosses at the jump after P = 128"

# Where max(B^2, 30B + 1) switches, at 15 + sqrt(226), the equation
# max(B^2, 30B + 1) = 30B + 1 stops holding; if() jumps across zero there.
want=$(python3 -c "
from decimal import Decimal as D, getcontext
getcontext().prec = 60
r = 15 + D(226).sqrt()
getcontext().prec = 30
print(+r)")
"$SEGC" solve --for B --in 1..100 "max(B^2, 30*B + 1) = 30*B + 1" "$bs" \
	> "$tmp/out"
printf '%s\n' 'B = 1 (exact)' "B = $want (correctly rounded)" \
	'the equation holds for every B in the open interval 1..7681/256' \
	> "$tmp/want"
same_file "$tmp/want" "$tmp/out" "solve: a max holds up to its switch 15 + sqrt(226)"
want=$(python3 -c "
from decimal import Decimal as D, getcontext
getcontext().prec = 60
r = 15 + D(227).sqrt()
getcontext().prec = 30
print(+r)")
"$SEGC" solve --for B --in 1..100 "if(B^2 <= 30*B + 1, B, 100 - B) = 40" \
	"$bs" > "$tmp/out"
printf '%s\n' 'B = 60 (exact)' \
	"B = $want (no root: the two sides cross there at a jump)" > "$tmp/want"
same_file "$tmp/want" "$tmp/out" "solve: an if() (B integer: B^2 - 30B >= 2) jumps across the value at 15 + sqrt(227)"

# ------------------------------------------------------------ errors

fails optimize --min total --over Q=1..5 "$bs" &&
	grep -q "optimize: unknown name 'Q'" "$tmp/err"
ok $? "optimize: an unknown name"
fails optimize --min total --over B=5..1 "$bs" &&
	grep -q "optimize: the range '5..1' in --over is empty" "$tmp/err"
ok $? "optimize: an empty range"
fails optimize --min total --over B=1..5 "$bs" B=3 &&
	grep -q "'B' is both bound and varied" "$tmp/err"
ok $? "optimize: a name both bound and varied"
fails optimize --min total --over B=1..5 "$bs" &&
	grep -q "'t_work' has no value" "$tmp/err"
ok $? "optimize: a name left without value"
fails optimize --min total --over B=0..5 "$bs" t_work=1 t_msg=1 &&
	grep -q "range 0..5 of 'B' leaves its declared domain" "$tmp/err"
ok $? "optimize: a range outside the declared domain"
fails optimize --min total --max comp --over B=1..5 "$bs"
ok $? "optimize: --min and --max together"
fails optimize --min total "$bs"
ok $? "optimize: no --over"
fails optimize --min "total +" --over B=1..5 "$bs" t_work=1 t_msg=1
ok $? "optimize: a quantity that does not parse"
fails optimize --min "sqrt(B)*total" --over B=1..5 "$bs" t_work=1 t_msg=1 \
	N=3 && grep -q "no exact rational value at B=2" "$tmp/err"
ok $? "optimize: sqrt(B), irrational at B = 2, is refused, not rounded"
fails optimize --min "sqrt(B)*total" --over B=1..50000 "$bs" t_work=1 \
	t_msg=1 N=3 && grep -q "'B' occurs inside 'sqrt(B)'" "$tmp/err"
ok $? "optimize: the name inside sqrt() over a range too large to scan"
"$SEGC" optimize --min "max(ceil(N/B), 3)" --over B=1..5 "$bs" N=10 \
	> "$tmp/out" && [ "$(head -1 "$tmp/out")" = "B = 4" ]
ok $? "optimize: max(ceil(10/B), 3) is least first at B = 4 (a scan)"
"$SEGC" optimize -q --min total --over P=1..10^30000 -m "$nc" "$m" N=1000 \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "more than 20000 pieces" "$tmp/err"
ok $? "optimize: a range of 10^30000 values with log2 is refused as a limit"
"$SEGC" optimize -q --min "(B^2 - B/3 + 1/7)^40" --over B=1..9 "$bs" \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "degree more than 64" "$tmp/err"
ok $? "optimize: a formula of degree 80 is refused as a limit (exit 3)"
fails optimize --min "total*sqrt(2)" --over B=1..9 "$bs" t_work=1 t_msg=1 \
	N=4 && grep -q "no exact rational value at B=1" "$tmp/err"
ok $? "optimize: an irrational constant is refused, not rounded"
"$SEGC" optimize -q --min "total*sqrt(4)" --over B=1..9 "$bs" t_work=1 \
	t_msg=1 N=4 > "$tmp/out" && [ "$(cat "$tmp/out")" = "B = 2" ]
ok $? "optimize: sqrt(4) is the rational 2"
fails solve --for B --in 1..100 "N = 3" "$bs" t_work=3 t_msg=7 N=100 &&
	grep -q "the equation does not involve 'B'" "$tmp/err"
ok $? "solve: an equation without the variable"
fails solve --for B --in 1..100 "total" "$bs" t_work=3 t_msg=7 N=100 &&
	grep -q "is not an equation" "$tmp/err"
ok $? "solve: not an equation"
# Without --in: B >= 1 (declared), and below Cauchy's bound 1 + 93/3 +
# 700/3 on the roots of 3B^2 - 93B + 700.
"$SEGC" solve --for B "total = 93" "$bs" t_work=3 t_msg=7 N=100 \
	> "$tmp/out2" &&
	"$SEGC" solve --for B --in 1..100 "total = 93" "$bs" t_work=3 \
	t_msg=7 N=100 > "$tmp/out" && cmp -s "$tmp/out" "$tmp/out2"
ok $? "solve: without --in, the declared domain bounded by Cauchy's bound"
"$SEGC" solve --for B "total = 1" "$bs" t_work=3 t_msg=7 N=100 > "$tmp/out"
[ "$(cat "$tmp/out")" = "no root in 1..703/3" ]
ok $? "solve: without --in, the range searched is said"
fails solve --for P "efficiency = 1/2" -m "$nc" "$m" N=1000 &&
	grep -q "give --in A..B" "$tmp/err"
ok $? "solve: without --in, an unbounded name under log2 is refused"
fails solve --for B --in 3..1 "total = 3" "$bs" t_work=3 t_msg=7 N=100
ok $? "solve: an empty range"

# ------------------------------------------------------- sensitivity

"$SEGC" sensitivity "$bs" > "$tmp/out"
cat > "$tmp/want" <<'TXT'
total = B*t_work + N*t_msg/B
dtotal/dB = t_work - N*t_msg/B^2
elasticity of B = (B^2*t_work - N*t_msg)/(B^2*t_work + N*t_msg)
dtotal/dN = t_msg/B
elasticity of N = N*t_msg/(B^2*t_work + N*t_msg)
dtotal/dt_msg = N/B
elasticity of t_msg = N*t_msg/(B^2*t_work + N*t_msg)
dtotal/dt_work = B
elasticity of t_work = B^2*t_work/(B^2*t_work + N*t_msg)
TXT
same_file "$tmp/want" "$tmp/out" "sensitivity: the derivatives and elasticities of a*B + b*N/B"

# comm = N*t_msg/B is homogeneous of degree 1 in (N, t_msg, B): its
# elasticities add up to 1 (Euler); total is homogeneous of degree 1 in
# the costs (t_work, t_msg): theirs add up to 1 at every point.
"$SEGC" sensitivity --component comm "$bs" > "$tmp/out"
sum=$(sed -n 's/^elasticity of [a-zA-Z_]* = //p' "$tmp/out" | python3 -c "
import sys
from fractions import Fraction as F
print(sum(F(l.strip()) for l in sys.stdin))")
[ "$sum" = 1 ]
ok $? "sensitivity: the elasticities of a homogeneous formula of degree 1 add up to 1"
"$SEGC" sensitivity "$bs" > "$tmp/out"
python3 - "$tmp/out" <<'PY'
import sys
from fractions import Fraction as F
e = {}
for l in open(sys.argv[1]):
    if l.startswith('elasticity of '):
        k, v = l[len('elasticity of '):].split(' = ')
        e[k] = v.strip().replace('^', '**')
for B, N, tw, tm in [(1, 1, 1, 1), (10, 100, 3, 7), (7, 3, F(1, 3), F(5, 2))]:
    env = dict(B=F(B), N=F(N), t_work=F(tw), t_msg=F(tm))
    assert eval(e['t_work'], {}, env) + eval(e['t_msg'], {}, env) == 1
    assert eval(e['B'], {}, env) == (B*B*tw - N*tm) / F(B*B*tw + N*tm)
PY
ok $? "sensitivity: the elasticities of the costs add up to 1 at every point"

"$SEGC" sensitivity "$bs" B=10 N=100 t_work=3 t_msg=7 | tail -5 > "$tmp/out"
cat > "$tmp/want" <<'TXT'
at B=10, N=100, t_work=3, t_msg=7:
  1. N: elasticity 0.7, derivative 0.7
  2. t_msg: elasticity 0.7, derivative 10
  3. B: elasticity -0.4, derivative -4
  4. t_work: elasticity 0.3, derivative 10
TXT
same_file "$tmp/want" "$tmp/out" "sensitivity: a point, the names ranked by elasticity"

# CG on the nCUBE/2: between the jumps of L = ceil(log2(P)), by hand,
# dT/dP = -N^2/(215000 P^2) - 9 N L/(2500000 P^2) - N/(43000 P^2)
# + 1/215000, and the output says L is held constant.
"$SEGC" sensitivity -m "$nc" "$m" > "$tmp/out"
grep -A1 '^dtotal/dP = ' "$tmp/out" > "$tmp/got"
printf '%s\n' 'dtotal/dP = -N^2/P^2/215000 - 9*N*ceil(log2(P))/P^2/2500000 - N/P^2/43000 + 1/215000' \
	'  (between the jumps of ceil and floor of P, taken there as constants)' \
	> "$tmp/want"
same_file "$tmp/want" "$tmp/got" "sensitivity: dT/dP of CG between the jumps of ceil(log2(P))"

fails sensitivity "$bs" B=10 N=100 t_work=3 &&
	grep -q "t_msg" "$tmp/err"
ok $? "sensitivity: a grid without a value of a free name"
fails sensitivity "$bs" B=5..1
ok $? "sensitivity: an empty range"
fails sensitivity --component cpu "$bs"
ok $? "sensitivity: an unknown component"

# ------------------------------------------------------------ whatif

# The T800 communication model (Papaefstathiou et al., eq. 5) is pure
# communication: halving its costs, as a class or by name, halves it.
sc=$top_srcdir/xml/machines/t800_supercluster.xml
"$SEGC" whatif -m "$sc" --scale class:comm=1/2 \
	--scale alpha,alpha_2,beta,tau=1/2 "$top_srcdir/xml/t800_comm.xml" \
	> "$tmp/out"
printf '%s\n' 'scenario class:comm=1/2:' '  speedup = T_before/T_after = 2' \
	'scenario alpha,alpha_2,beta,tau=1/2:' \
	'  speedup = T_before/T_after = 2' > "$tmp/want"
same_file "$tmp/want" "$tmp/out" "whatif: halving the costs of a pure-comm model gives exactly 2"

# T = t_work*B + t_msg*N/B with t_msg halved: by hand
# (B*t_work + N*t_msg/B)/(B*t_work + N*t_msg/(2*B)); at B=10, N=100,
# t_work=3, t_msg=7: 100/65.
"$SEGC" whatif --scale t_msg=1/2 "$bs" B=10 N=100 t_work=3 t_msg=7 \
	> "$tmp/out"
cat > "$tmp/want" <<'TXT'
scenario t_msg=1/2:
  speedup = T_before/T_after = (2*B^2*t_work + 2*N*t_msg)/(2*B^2*t_work + N*t_msg)
 B    N  t_work  t_msg  T_before  T_after  speedup
10  100       3      7       100       65  1.53846
TXT
same_file "$tmp/want" "$tmp/out" "whatif: a named cost halved, exact and over a grid"
"$SEGC" whatif --table --scale t_msg=1/2 "$bs" B=10 N=100 t_work=3 \
	t_msg=7 > "$tmp/out"
sed '2d' "$tmp/want" > "$tmp/want2"
same_file "$tmp/want2" "$tmp/out" "whatif --table: the same table, no closed form"
fails whatif --table --scale t_msg=1/2 "$bs" &&
	grep -q -- "--table needs a grid" "$tmp/err"
ok $? "whatif --table without a grid"

# On the nCUBE/2 every communication cost is a machine constant of
# message(): scaling the class or those constants is the same scenario.
"$SEGC" whatif -m "$nc" --scale class:comm=1/2 \
	--scale t_send_setup,t_recv_setup,t_byte=1/2 "$m" > "$tmp/out"
[ "$(sed -n 2p "$tmp/out")" = "$(sed -n 4p "$tmp/out")" ] &&
	[ "$(wc -l < "$tmp/out")" -eq 4 ]
ok $? "whatif: class:comm equals scaling every communication constant"

# The nCUBE/2's t_stmt is 1/(mflops*10^6): doubling the constant mflops
# is halving the cost t_stmt, inside the machine's definitions too.
"$SEGC" whatif -m "$nc" --scale mflops=2 --scale t_stmt=1/2 "$m" > "$tmp/out"
[ "$(sed -n 2p "$tmp/out")" = "$(sed -n 4p "$tmp/out")" ]
ok $? "whatif: doubling mflops is halving t_stmt = 1/(mflops*10^6)"

fails whatif --scale t_msg,t_msg=2 "$bs" &&
	grep -q "'t_msg' is named twice" "$tmp/err"
ok $? "whatif: a cost named twice in one scenario"
fails whatif --scale B=2 "$bs" && grep -q "'B' is not a cost" "$tmp/err"
ok $? "whatif: a scale of a name that is not a cost"
fails whatif --scale t_foo=2 "$bs" && grep -q "'t_foo' is not a cost" "$tmp/err"
ok $? "whatif: a scale of an unknown name"
fails whatif --scale t_mgs=2 "$bs" &&
	grep -q "'t_mgs' is not a cost (did you mean 't_msg'?)" "$tmp/err"
ok $? "whatif: a misspelt cost gets the nearest one"
fails whatif --scale class:cpu=2 "$bs" && grep -q "unknown class" "$tmp/err"
ok $? "whatif: an unknown class"
fails whatif --scale t_msg=0 "$bs" && grep -q "not a positive exact number" "$tmp/err"
ok $? "whatif: a factor that is not positive"
fails whatif --scale t_msg "$bs"
ok $? "whatif: a SPEC without a factor"
fails whatif "$bs"
ok $? "whatif: no --scale"
fails whatif --scale class:comm=2 "$top_srcdir/xml/examples/fork_join.xml" &&
	grep -q "the total is not the sum comp + comm + io" "$tmp/err"
ok $? "whatif: a class of a total with concurrent regions is refused"
fails whatif --scale t_msg=1/2 "$bs" B=3..1
ok $? "whatif: an empty range"

# ------------------------------------------------ derive --asymptotic

# CG on the nCUBE/2: T = N^2/(215000 P) + 9 N L/2500000 + 9 N L/(2500000 P)
# + N/(43000 P) + P/215000 + 1143 L/1250000 with L = ceil(log2(P)), by
# hand from cg_tree.xml's <expect> and the machine (t_stmt = 1/430000, a
# message of b bytes 150e-6 + 0.45e-6 b): as P grows, P/215000 leads (the
# 2P statements of the reduction); as N grows, N^2/(215000 P); the
# communication grows as log2(P) with the coefficient 9N/2500000 +
# 1143/1250000.
"$SEGC" derive --asymptotic P -m "$nc" "$m" > "$tmp/out" &&
	[ "$(cat "$tmp/out")" = "P/215000" ]
ok $? "derive --asymptotic P: P/215000"
"$SEGC" derive --asymptotic N -m "$nc" "$m" > "$tmp/out" &&
	[ "$(cat "$tmp/out")" = "N^2/P/215000" ]
ok $? "derive --asymptotic N: N^2/P/215000"
"$SEGC" derive --asymptotic P --component comm -m "$nc" "$m" > "$tmp/out" &&
	[ "$(cat "$tmp/out")" = "9*N*log2(P)/2500000 + 1143*log2(P)/1250000" ]
ok $? "derive --asymptotic P of comm: the log2(P) term with its exact coefficient"
"$SEGC" derive --asymptotic B "$bs" > "$tmp/out" &&
	[ "$(cat "$tmp/out")" = "B*t_work" ]
ok $? "derive --asymptotic B of t_work*B + t_msg*N/B: B*t_work"
fails derive --asymptotic Q "$bs" && grep -q "unknown name 'Q'" "$tmp/err"
ok $? "derive --asymptotic: an unknown name"
fails derive --asymptotic k "$top_srcdir/xml/examples/fork_join.xml" &&
	grep -q "the growth of 'max(" "$tmp/err"
ok $? "derive --asymptotic: a max of the name is refused"
fails derive --asymptotic N -D N=4 "$bs"
ok $? "derive --asymptotic: a bound name"

for c in optimize solve sensitivity whatif; do
	"$SEGC" $c --help > "$tmp/out" && grep -q '^Options:' "$tmp/out"
	ok $? "$c --help lists its options"
done

done_testing
