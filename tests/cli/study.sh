#!/bin/sh
# study.sh - doc/study.md stays true: every command block of the page
# ("$ segc ..." followed by its output) is run from the top of the source
# tree and its output compared with the page.  The CG figures are also
# recomputed here from PerPreT's formulas (eq. 4, Section 5.1) and the
# nCUBE/2 constants, with exact fractions, independently of segc.
. "$top_srcdir/tests/cli/lib.sh"
page=$top_srcdir/doc/study.md

# Split the page into one command file and one output file per block.
awk -v dir="$tmp" '
	/^```/ { if (inblock) { inblock = 0; next } inblock = 1; cmd = ""; next }
	inblock && cmd == "" && /^\$ segc / {
		n++; cmd = substr($0, 3)
		print cmd > (dir "/cmd" n); close(dir "/cmd" n)
		printf "" > (dir "/want" n); next
	}
	inblock && cmd != "" { print >> (dir "/want" n); close(dir "/want" n) }
' "$page"
blocks=$(ls "$tmp"/cmd* 2>/dev/null | wc -l)
test "$blocks" -ge 5
ok $? "doc/study.md has its command blocks ($blocks)"
for f in "$tmp"/cmd*; do
	n=${f##*/cmd}
	cmd=$(cat "$f")
	(cd "$top_srcdir" && eval "\"\$SEGC\" ${cmd#segc }") > "$tmp/got$n" 2>&1
	ok $? "runs: $cmd"
	same_file "$tmp/want$n" "$tmp/got$n" "the page shows its output: $cmd"
done

# PerPreT's CG-Simple on the nCUBE/2 at N = 512, from the paper:
# comp = ((10N + 2N^2)/P + 2P) t_stmt, comm = (P - 1)(message(8N/P) +
# message(8N) + 4 message(8)), message(b) = 150e-6 + 0.45e-6 b.
python3 - > "$tmp/cg" <<'PY'
from fractions import Fraction as F
ts, setup, tb = F(1, 430000), F("150e-6"), F("0.45e-6")
msg = lambda b: setup + b * tb
def parts(n, p):
    return (((10 * n + 2 * n * n) / F(p) + 2 * p) * ts,
            (p - 1) * (msg(F(8 * n, p)) + msg(8 * n) + 4 * msg(8)))
n = 512
tot = {p: sum(parts(n, p)) for p in range(1, 129)}
best = min(tot, key=lambda p: tot[p])
eff = [p for p in tot if tot[1] / (p * tot[p]) >= F(1, 2)]
cross = [p for p in tot if parts(n, p)[0] >= parts(n, p)[1]]
print(best, tot[best], max(eff), max(cross))
PY
read best tbest eff cross < "$tmp/cg"
(cd "$top_srcdir" && "$SEGC" optimize --min total --over P=1..128 \
	-m xml/machines/ncube2.xml xml/cg_simple.xml N=512) > "$tmp/opt"
has() { grep -qF -- "$2" "$1"; }
has "$tmp/opt" "P = $best" && has "$tmp/opt" "total = $tbest"
ok $? "the optimum is the one of the paper's formulas: P = $best, total = $tbest"
for eq in "efficiency = 1/2:$eff" "comp = comm:$cross"; do
	(cd "$top_srcdir" && "$SEGC" solve --for P --in 1..128 "${eq%:*}" \
		-m xml/machines/ncube2.xml xml/cg_simple.xml N=512) > "$tmp/root"
	root=$(sed -n 's/^P = \([0-9]*\)\..*/\1/p' "$tmp/root")
	test "$root" = "${eq#*:}"
	ok $? "${eq%:*}: the root lies between ${eq#*:} and the next integer (got $root)"
done
# The forecast diagram of the page is the one segc draws today.
(cd "$top_srcdir" && "$SEGC" eval --map D P --digits 2 \
	--svg "$tmp/map.svg" -m xml/machines/seismic_phase2.xml \
	xml/examples/seismic_forecast.xml D=1e7..1e13*10 P=1..2048*2) >/dev/null
ok $? "the forecast diagram is drawn"
cmp -s "$top_srcdir/doc/images/seismic_forecast.svg" "$tmp/map.svg"
ok $? "doc/images/seismic_forecast.svg is up to date"
done_testing
