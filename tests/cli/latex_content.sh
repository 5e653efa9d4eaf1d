#!/bin/sh
# latex_content.sh - what 'latex' and 'derive' write for a paper: lets
# kept as names and defined after the formula (--lets), values kept as
# names (--keep, --keep-all), terms collected by a name (--collect,
# --collect-resources).  Every rewritten formula is evaluated exactly
# (Python fractions, with the lets substituted back) at several points
# and compared with the model's time computed here by literal loops.
. "$top_srcdir/tests/cli/lib.sh"

m=$tmp/paper.xml
cat >"$m" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<model name="paper" version="1">
  <param name="B" min="1" integer="true"/>
  <param name="w" value="3/2"/>
  <resource name="t_flop"/>
  <resource name="t_comm"/>
  <let name="msgs" value="2*nb + w"/>
  <let name="nb" value="N/B"/>
  <let name="unused" value="7*N"/>
  <machine name="m" version="1">
    <const name="clk" value="1/4"/>
    <cost name="t_flop" value="2*clk"/>
    <cost name="t_comm" value="100*clk"/>
  </machine>
  <graph name="main">
    <loop count="nb">
      <step><use resource="t_flop" count="2*B^3/3"/></step>
      <loop var="i" from="1" to="B">
        <step><use resource="t_flop" count="i"/><use resource="t_comm"/></step>
      </loop>
    </loop>
    <step class="comm"><use resource="t_comm" count="msgs*P"/></step>
    <branch>
      <case prob="1/3"><step cost="t_flop^2*N + t_flop*t_comm"/></case>
      <case><step cost="if(N &lt; 8, t_flop*N, t_comm) + (t_flop + 2*t_comm)^2 + 1/(t_flop + 1)"/></case>
    </branch>
    <par>
      <step cost="t_flop*N"/>
      <step cost="t_comm*P"/>
    </par>
  </graph>
</model>
EOF

# check.py KEPT FILE: FILE is what 'derive' printed: the formula, then
# "NAME = VALUE" lines.  Evaluates it exactly at a grid of points, the
# lets defined in the order printed (a let before its use, or the lookup
# fails), the names in KEPT (a comma list of t_flop, t_comm, w) given
# values of their own, the others those of the model and machine; and
# compares with the time of the model summed by hand.
cat >"$tmp/check.py" <<'EOF'
import ast, math, re, sys
from fractions import Fraction as F

def ev(text, env):
    text = re.sub(r'\bif\(', 'if_(', text.replace('^', '**'))
    return E(ast.parse(text, mode='eval').body, env)

def E(n, env):
    if isinstance(n, ast.Constant) and isinstance(n.value, int):
        return F(n.value)
    if isinstance(n, ast.Name):
        return env[n.id]
    if isinstance(n, ast.UnaryOp):
        v = E(n.operand, env)
        return {ast.USub: lambda: -v, ast.UAdd: lambda: v,
                ast.Not: lambda: not v}[type(n.op)]()
    if isinstance(n, ast.BinOp):
        a, b = E(n.left, env), E(n.right, env)
        if isinstance(n.op, ast.Pow):
            assert b.denominator == 1
            return a ** int(b)
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(
            type(n.op)) if not isinstance(n.op, ast.Div) else a / b
    if isinstance(n, ast.BoolOp):
        vs = [E(x, env) for x in n.values]
        return all(vs) if isinstance(n.op, ast.And) else any(vs)
    if isinstance(n, ast.Compare):
        a, b = E(n.left, env), E(n.comparators[0], env)
        return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b,
                ast.GtE: a >= b, ast.Eq: a == b,
                ast.NotEq: a != b}[type(n.ops[0])]
    if isinstance(n, ast.Call):
        f, args = n.func.id, n.args
        if f == 'sum':
            lo, hi = E(args[1], env), E(args[2], env)
            t = F(0)
            for i in range(math.ceil(lo), math.floor(hi) + 1):
                t += E(args[3], dict(env, **{args[0].id: F(i)}))
            return t
        if f == 'if_':
            return E(args[1] if E(args[0], env) else args[2], env)
        v = [E(x, env) for x in args]
        return {'max': lambda: max(v), 'min': lambda: min(v),
                'ceil': lambda: F(math.ceil(v[0])),
                'floor': lambda: F(math.floor(v[0]))}[f]()
    raise ValueError(ast.dump(n))

def hand(N, P, B, a, c, w):
    # the graph of paper.xml, loop by loop
    nb = N / B
    body = 2 * B**3 / F(3) * a
    for i in range(1, B + 1):
        body += i * a + c
    t = nb * body + (2 * nb + w) * P * c
    t += F(1, 3) * (a * a * N + a * c)
    t += F(2, 3) * ((a * N if N < 8 else c) + (a + 2 * c)**2 + 1 / (a + 1))
    return t + max(a * N, c * P)

kept = [k for k in sys.argv[1].split(',') if k]
lines = open(sys.argv[2]).read().splitlines()
own = {'t_flop': F(3, 7), 't_comm': F(5, 11), 'w': F(2, 9)}
model = {'t_flop': F(1, 2), 't_comm': F(25), 'w': F(3, 2)}
n = 0
for N in (3, 8, 12):
    for P in (1, 4):
        for B in (1, 2, 5):
            env = {'N': F(N), 'P': F(P), 'B': F(B)}
            val = dict(model)
            for k in kept:
                env[k] = val[k] = own[k]
            for l in lines[1:]:
                name, value = l.split(' = ', 1)
                env[name] = ev(value, env)
            got = ev(lines[0], env)
            want = hand(F(N), F(P), B, val['t_flop'], val['t_comm'], val['w'])
            if got != want:
                print('N=%d P=%d B=%d: %s, want %s' % (N, P, B, got, want))
                sys.exit(1)
            n += 1
print(n)
EOF

# derive_ok KEPT NAME ARGS...: 'derive ARGS' succeeds and equals the hand
# sum at the 18 points.
derive_ok() {
	kept=$1 name=$2
	shift 2
	"$SEGC" derive "$@" "$m" >"$tmp/out" 2>"$tmp/err"
	ok $? "$name: exits 0"
	r=$(python3 "$tmp/check.py" "$kept" "$tmp/out" 2>&1)
	[ "$r" = 18 ]
	ok $? "$name: equal to the hand sum at 18 points"
	[ "$r" = 18 ] || diag "$r" "$(cat "$tmp/out")"
}

derive_ok "" "structural" --form structural
derive_ok "" "canonical" --form canonical
derive_ok "" "--lets" --form structural --lets
sed -n '2,$p' "$tmp/out" >"$tmp/lets"
printf 'nb = N/B\nmsgs = 2*nb + 3/2\n' >"$tmp/want"
same_file "$tmp/want" "$tmp/lets" "--lets: the lets used, each after those it uses, not the unused one"
head -1 "$tmp/out" | grep -q 'nb\*' && head -1 "$tmp/out" | grep -q 'msgs\*'
ok $? "--lets: the formula names nb and msgs"
derive_ok "" "--lets --form canonical" --lets
derive_ok "w" "--keep w" --form structural --keep w
grep -q '(2\*N/B + w)\*P' "$tmp/out"
ok $? "--keep w: w stays a name"
derive_ok "w" "--keep w --lets" --form structural --keep w --lets
grep -qx 'msgs = 2\*nb + w' "$tmp/out"
ok $? "--keep w --lets: msgs is defined with w"
derive_ok "t_flop,t_comm,w" "--keep-all" --form structural --keep-all
! grep -q clk "$tmp/out"
ok $? "--keep-all: the costs kept whole (no clk)"
derive_ok "t_flop" "--collect t_flop" --form structural --collect t_flop
grep -q '^t_flop\*(' "$tmp/out"
ok $? "--collect t_flop: t_flop*(...) first"
derive_ok "t_flop,t_comm" "--collect t_flop --collect t_comm" \
	--form structural --collect t_flop --collect t_comm
grep -q '^t_flop\*(.*) + t_comm\*(' "$tmp/out"
ok $? "--collect t_flop --collect t_comm: t_flop*(...) + t_comm*(...)"
cp "$tmp/out" "$tmp/two"
derive_ok "t_flop,t_comm" "--collect-resources --lets" --form structural \
	--collect-resources --lets
head -1 "$tmp/out" | grep -q '^t_flop\*(.*) + t_comm\*('
ok $? "--collect-resources: by t_flop, then t_comm"
derive_ok "t_flop,t_comm" "--collect t_comm --collect t_flop" \
	--form structural --collect t_comm --collect t_flop
grep -q '^t_comm\*(.*) + t_flop\*(' "$tmp/out"
ok $? "--collect: in the order given"
# What is not a factor stays in the rest: the maximum and 1/(t_flop + 1).
"$SEGC" derive --form structural --collect t_flop "$m" >"$tmp/out"
grep -q ' + max(t_flop\*N, 25\*P)$' "$tmp/out" &&
	grep -q '/(t_flop + 1)' "$tmp/out"
ok $? "--collect: max() and a negative power kept whole"

# LaTeX.  The formula, then the definitions as an aligned block.
"$SEGC" latex --lets "$m" >"$tmp/out" 2>"$tmp/err"
ok $? "latex --lets: exits 0"
cat >"$tmp/want" <<'EOF'
\text{where }\begin{aligned}[t]
\mathit{nb} &= \frac{N}{B} \\
\mathit{msgs} &= 2 \mathit{nb} + \frac{3}{2}
\end{aligned}
EOF
sed -n '2,$p' "$tmp/out" >"$tmp/got"
same_file "$tmp/want" "$tmp/got" "latex --lets: where nb = N/B, msgs = 2 nb + 3/2"
head -1 "$tmp/out" | grep -q '^\\mathit{nb}\\,\\left(' &&
	head -1 "$tmp/out" | grep -q 'P\\,\\mathit{msgs}'
ok $? "latex --lets: the formula names nb and msgs"
"$SEGC" latex "$m" >"$tmp/out"
[ "$(wc -l <"$tmp/out")" -eq 1 ] && ! grep -q mathit "$tmp/out"
ok $? "latex: without --lets one line, the lets expanded"
"$SEGC" latex --keep w --lets "$m" >"$tmp/out"
grep -qx '\\mathit{msgs} &= 2 \\mathit{nb} + w' "$tmp/out"
ok $? "latex --keep w --lets: msgs = 2 nb + w"
"$SEGC" latex --collect t_flop --collect t_comm "$m" >"$tmp/out"
grep -q '^t_{\\mathrm{flop}}\\,\\left(.*\\right) + t_{\\mathrm{comm}}\\,\\left(' \
	"$tmp/out"
ok $? "latex --collect: t_flop (...) + t_comm (...)"
"$SEGC" latex --standalone --lets --collect-resources "$m" >"$tmp/doc.tex"
ok $? "latex --standalone --lets: exits 0"
sed -n '/\\end{equation}/,$p' "$tmp/doc.tex" | tr '\n' '|' |
	grep -q 'where|\\begin{align\*}|\\mathit{nb} &= \\frac{N}{B} \\\\|\\mathit{msgs} &= 2 \\mathit{nb} + \\frac{3}{2}|\\end{align\*}|\\end{document}|$'
ok $? "latex --standalone --lets: the definitions after the equations"
if command -v pdflatex >/dev/null 2>&1; then
	(cd "$tmp" && pdflatex -no-shell-escape -interaction=nonstopmode \
		-halt-on-error doc.tex >pdflatex.log 2>&1)
	ok $? "latex --standalone --lets --collect-resources: pdflatex compiles it"
else
	skip "pdflatex compiles the document" "no pdflatex"
fi

# Errors: exit 2, a message, nothing on standard output.
fails() {
	name=$1 pattern=$2
	shift 2
	"$SEGC" "$@" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$pattern" "$tmp/err"
	ok $? "$name"
	grep -qF -- "$pattern" "$tmp/err" || diag "$(cat "$tmp/err")"
}
fails "--keep of an unknown name: did you mean" \
	"--keep 'msg': the model declares no such name (did you mean 'msgs'?)" \
	latex --keep msg "$m"
fails "--collect of an unknown name: did you mean" \
	"--collect 't_flops': the model declares no such name (did you mean 't_flop'?)" \
	derive --form structural --collect t_flops "$m"
fails "--keep of a name bound with -D" "'w' is both kept (--keep) and bound (-D)" \
	latex --keep w -D w=2 "$m"
fails "--collect of a name bound with -D" \
	"'t_flop' is both collected (--collect) and bound (-D)" \
	latex --collect t_flop -D t_flop=2 "$m"
fails "--keep of something not a name" "--keep 2x: not a name" \
	latex --keep 2x "$m"
fails "derive --collect needs the structural form" "add --form structural" \
	derive --collect t_flop "$m"
fails "latex --collect refuses --form canonical" "not --form canonical" \
	latex --form canonical --collect t_flop "$m"
fails "derive --json --lets is refused" "take neither --json" \
	derive --json --lets "$m"
# A declared name that no term has as a factor: a warning, the formula.
"$SEGC" derive --form structural --collect unused "$m" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "warning: --collect unused: no term" "$tmp/err" &&
	[ "$(cat "$tmp/out")" = "$("$SEGC" derive --form structural "$m")" ]
ok $? "--collect of a name no term has: a warning, the formula unchanged"

done_testing
