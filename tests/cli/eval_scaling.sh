#!/bin/sh
# eval_scaling.sh - 'segc eval --scaling strong|weak' and '--plot': the
# speedup and efficiency of a strongly and of a weakly scaled run against
# values derived by hand (Python's exact fractions), the plots of speedup
# and efficiency, and the refusals.
. "$top_srcdir/tests/cli/lib.sh"

# T(N, P) = N/P + 5*P + 7/3.
cat > "$tmp/m.xml" <<'XML'
<model name="scal" version="1">
  <param name="P" min="1" integer="true"/>
  <graph name="main">
    <step name="work" cost="N/P"/>
    <step name="talk" class="comm" cost="5*P + 7/3"/>
  </graph>
</model>
XML

# Weak scaling, N = 1000*P: T(P) = 1000 + 5*P + 7/3, T(1) = 1000 + 5 + 7/3
# (N = 1000 at P = 1); speedup P*T(1)/T(P), efficiency T(1)/T(P).
python3 >"$tmp/want" <<'PY'
from fractions import Fraction as F
print('P,comp,comm,io,total,speedup,efficiency')
T1 = 1000 + 5 + F(7, 3)
for P in (1, 2, 4, 8, 16, 1024):
    comp, comm = F(1000), 5 * P + F(7, 3)
    T = comp + comm
    print(','.join([str(P)] + ['%.12g' % float(q) for q in
          (comp, comm, 0, T, P * T1 / T, T1 / T)]))
PY
"$SEGC" eval --csv --digits 12 -D N=1000*P --scaling weak "$tmp/m.xml" \
	P=1,2,4,8,16,1024 >"$tmp/got" 2>"$tmp/err"
same_file "$tmp/want" "$tmp/got" "weak scaling: P*T(1)/T(P) and T(1)/T(P) as by hand"
# By hand at P = 2: T(1) = 3022/3, T(2) = 3037/3: speedup 6044/3037 =
# 1.99012183075..., efficiency 3022/3037 = 0.995060915377...
grep -q '^2,.*,1.99012183075,0.995060915377$' "$tmp/got"
ok $? "weak scaling at P=2 by hand: 6044/3037 and 3022/3037"

# Strong scaling (the default), N = 1000 fixed: speedup T(1)/T(P),
# efficiency that over P.
python3 >"$tmp/want" <<'PY'
from fractions import Fraction as F
print('P,comp,comm,io,total,speedup,efficiency')
T1 = 1000 + 5 + F(7, 3)
for P in (1, 2, 4, 8, 16, 1024):
    comp, comm = F(1000, P), 5 * P + F(7, 3)
    T = comp + comm
    print(','.join([str(P)] + ['%.12g' % float(q) for q in
          (comp, comm, 0, T, T1 / T, T1 / T / P)]))
PY
"$SEGC" eval --csv --digits 12 -D N=1000 "$tmp/m.xml" P=1,2,4,8,16,1024 \
	>"$tmp/got" 2>"$tmp/err"
same_file "$tmp/want" "$tmp/got" "strong scaling: T(1)/T(P) and T(1)/(P*T(P)) as by hand"
"$SEGC" eval --csv --digits 12 -D N=1000 --scaling strong "$tmp/m.xml" \
	P=1,2,4,8,16,1024 >"$tmp/got2" 2>&1
cmp -s "$tmp/got" "$tmp/got2"
ok $? "--scaling strong is the default"

# The plots of speedup and efficiency: well-formed, the curve and the
# ideal, the same bytes twice.
for w in speedup efficiency; do
	"$SEGC" eval -D N=1000*P --scaling weak --svg "$tmp/$w.svg" \
		--plot $w "$tmp/m.xml" P=1..64*2 >/dev/null 2>&1 &&
		"$SEGC" eval -D N=1000*P --scaling weak --svg "$tmp/$w.2.svg" \
		--plot $w "$tmp/m.xml" P=1..64*2 >/dev/null 2>&1 &&
		cmp -s "$tmp/$w.svg" "$tmp/$w.2.svg" &&
		[ "$(grep -c '<polyline' "$tmp/$w.svg")" -eq 2 ] &&
		grep -q ">$w (weak)<" "$tmp/$w.svg" && grep -q '>ideal<' "$tmp/$w.svg"
	ok $? "--plot $w: the curve and the ideal, deterministic"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$tmp/$w.svg"
		ok $? "--plot $w: well-formed XML"
	else
		skip "--plot $w: well-formed XML" "no xmllint"
	fi
done
# The efficiency is drawn on a linear axis with its ticks 0 ... 1.
grep -q '>0.2</text>' "$tmp/efficiency.svg" && grep -q '>1.0</text>' "$tmp/efficiency.svg"
ok $? "--plot efficiency: a linear axis"

refuse() { # NAME PATTERN ARGS...
	name=$1 pat=$2
	shift 2
	"$SEGC" eval "$@" >"$tmp/out" 2>"$tmp/err"
	code=$?
	[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "$pat" "$tmp/err"
	ok $? "$name"
	[ "$code" -eq 2 ] || diag "exit $code" "$(cat "$tmp/err")"
}
refuse "--scaling weak without a binding that grows with P" \
	"needs a problem size that grows with P: bind it with -D" \
	--scaling weak -D N=1000 "$tmp/m.xml" P=1,2
refuse "--scaling weak without P in the grid" \
	"needs the processor count P among the swept names" \
	--scaling weak -D N=1000*P "$tmp/m.xml" -D P=2
refuse "--scaling with an unknown value" "unknown scaling 'medium'" \
	--scaling medium "$tmp/m.xml" N=1 P=1
refuse "--plot without --svg" "--plot draws into the file of --svg" \
	--plot speedup "$tmp/m.xml" N=1 P=1,2
refuse "--plot speedup against another name" \
	"--plot speedup draws against the processor count P" \
	--plot speedup --svg "$tmp/x.svg" "$tmp/m.xml" N=1,10 P=2
refuse "--plot with an unknown value" "unknown plot 'cost'" \
	--plot cost --svg "$tmp/x.svg" "$tmp/m.xml" N=1,10 P=2
[ ! -e "$tmp/x.svg" ]
ok $? "nothing written on refusal"

done_testing
