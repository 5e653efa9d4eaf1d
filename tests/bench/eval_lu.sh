#!/bin/sh
# eval_lu.sh - the time of 'segc eval' on the blocked LU model
# (doc/lu.md): one point (N = 26400, B = 32, 12 x 8 nodes), the 40-point
# table of doc/lu.md, and the block-size optimum over B = 8..64; beside
# the emitted C predictor, the emitted Python module (floats) and a plain
# simulation of the task graph in Python floats (lu_float.py) for the
# same three, with the ratios segc / simulation, all from one run (and
# the point's without the start of segc, which the simulation's time
# does not count for Python either).  With SEGC_OLD set to another segc,
# its times too.  Each time is the least of REPEAT batches (default 5)
# of BATCH runs (default 10), the mean of a batch.
#   SEGC=segc [SEGC_OLD=old-segc] [REPEAT=5] [BATCH=10] sh eval_lu.sh
: "${SEGC:?}" "${top_srcdir:?}"
M=$top_srcdir/xml/machines/parsytec_gc.xml
L=$top_srcdir/xml/lu_blocked.xml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/segc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# unwrap SEGC: "PROGRAM LIBDIR", the program itself and the folder of its
# libraries: in a build tree src/segc is libtool's wrapper script, a bash
# that sets the library path and starts .libs/segc, and costs more than
# the program's own start (an installed segc has no wrapper).  Any other
# program as it is, with no LIBDIR.
unwrap() {
	d=$(dirname "$1")
	if sed -n 3p "$1" 2>/dev/null | grep -q 'temporary wrapper script' &&
	   [ -x "$d/.libs/$(basename "$1")" ]; then
		echo "$d/.libs/$(basename "$1") $d/.libs"
	else
		echo "$1"
	fi
}

# secs CMD...: the CPU seconds (user and system) CMD takes, its output
# discarded: on a shared machine the wall clock says more about the
# others' work than about this one; the least of REPEAT batches (default
# 5), since the others' work also slows a run down through the caches.
# A batch runs CMD BATCH times (default 10) and counts their mean: the
# kernel charges CPU time by the clock tick (4 ms here), too coarse for
# one run of 20 ms.  With SEGC_LIBDIR set, CMD finds its libraries there
# first.
REPEAT=${REPEAT:-5}
BATCH=${BATCH:-10}
export REPEAT BATCH
secs() {
	python3 - "$@" <<'PY'
import os, resource, subprocess, sys
def cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
env = dict(os.environ)
lib = env.pop("SEGC_LIBDIR", "")
if lib:
    old = env.get("LD_LIBRARY_PATH")
    env["LD_LIBRARY_PATH"] = lib + (":" + old if old else "")
best = None
batch = max(1, int(os.environ.get("BATCH", "10")))
for _ in range(max(1, int(os.environ.get("REPEAT", "5")))):
    t = cpu()
    for _ in range(batch):
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, env=env)
        if r.returncode:
            print("failed")
            sys.exit(0)
    t = (cpu() - t) / batch
    best = t if best is None else min(best, t)
print("%.4f" % best)
PY
}

# row NAME SEGC: the three timings of one segc, the program itself (see
# unwrap; the last row's in $p, $t and $o).
row() {
	set -- "$1" $(unwrap "$2")
	SEGC_LIBDIR=${3:-}
	export SEGC_LIBDIR
	s=$(secs "$2" --version)
	p=$(secs "$2" eval -m "$M" "$L" N=26400 B=32 X=12 Y=8)
	t=$(secs "$2" eval -m "$M" "$L" N=352,1408,5280,13200,26400 B=32 \
		X=1,2,4,12 Y=1,8 2>/dev/null)
	o=$(secs "$2" optimize -m "$M" --min total --over B=8..64 "$L" \
		N=1408 X=1 Y=1)
	unset SEGC_LIBDIR
	printf '%-22s %10s %10s %10s\n' "$1" "$p" "$t" "$o"
	printf '%-22s %10s\n' "  its start alone" "$s"
}

printf '%-22s %10s %10s %10s\n' "CPU seconds" "LU point" "40 points" "optimum"
[ -z "$SEGC_OLD" ] || row "segc eval (old)" "$SEGC_OLD"
row "segc eval" "$SEGC"
# The point through libtool's wrapper too, when SEGC is one: what this
# bench timed before it unwrapped the program.
[ "$(unwrap "$SEGC")" = "$SEGC" ] ||
	printf '%-22s %10s\n' "segc eval, wrapper" \
		"$(secs "$SEGC" eval -m "$M" "$L" N=26400 B=32 X=12 Y=8)"

# The emitted predictors at the same point (B, X, Y kept as arguments).
K="--keep B --keep X --keep Y"
if "$SEGC" emit -m "$M" $K --main -o "$tmp/lu" "$L" >/dev/null 2>&1 &&
   ( cd "$tmp" && ${CC:-cc} -O2 -o lu lu.c -lm 2>/dev/null ); then
	printf '%-22s %10s\n' "emitted C (process)" \
		"$(secs "$tmp/lu" N=26400 P=192 B=32 X=12 Y=8)"
fi
# The plain float simulation: CPU seconds of the simulation alone (the
# interpreter started), for the point, the 40 points and B = 8..64; and
# segc's printed total at the point beside the simulation's.
sim=$(python3 - "$top_srcdir/tests/bench" <<'PY'
import os, sys, time
sys.path.insert(0, sys.argv[1])
from lu_float import simulate
def cpu(f):
    # the least of REPEAT runs, as secs() does for the programs
    best = None
    for _ in range(max(1, int(os.environ.get("REPEAT", "5")))):
        t = time.process_time()
        v = f()
        t = time.process_time() - t
        best = t if best is None else min(best, t)
    return v, best
v, p = cpu(lambda: simulate(26400, 32, 12, 8))
_, t = cpu(lambda: [simulate(n, 32, x, y) for n in (352, 1408, 5280, 13200,
    26400) for x in (1, 2, 4, 12) for y in (1, 8)])
o, b = cpu(lambda: min((simulate(1408, b, 1, 1), b) for b in range(8, 65)))
print("%.3f %.3f %.3f %.12g %d" % (p, t, b, v, o[1]))
PY
)
set -- $sim
printf '%-22s %10s %10s %10s\n' "Python float sim" "$1" "$2" "$3"
got=$("$SEGC" eval --csv --digits 12 -m "$M" "$L" N=26400 B=32 X=12 Y=8 |
	awk -F, 'NR == 2 { print $NF }')
best=$("$SEGC" optimize -q -m "$M" --min total --over B=8..64 "$L" \
	N=1408 X=1 Y=1 | sed -n '1s/^B = //p')
printf 'ratio segc / sim       %10s %10s %10s\n' \
	"$(python3 -c "print('%.2f' % ($p / max($1, 1e-6)))")" \
	"$(python3 -c "print('%.2f' % ($t / max($2, 1e-6)))")" \
	"$(python3 -c "print('%.2f' % ($o / max($3, 1e-6)))")"
# The simulation's times leave out the start of Python (about 0.09 s);
# segc's include the start of the program and its libraries, which the
# row "its start alone" measures: the point's ratio without it too.
printf 'ratio, starts left out %10s\n' \
	"$(python3 -c "print('%.2f' % (($p - $s) / max($1, 1e-6)))")"
printf 'LU point: segc %s, float sim %s; best B: segc %s, float sim %s\n' \
	"$got" "$4" "$best" "$5"

if "$SEGC" emit --lang python -m "$M" $K -o "$tmp/lupy" "$L" \
		>/dev/null 2>&1; then
	printf '%-22s %10s\n' "emitted Python (floats)" "$(cd "$tmp" &&
		secs python3 -c 'import lupy; lupy.lupy_total(26400, 192, 32, 12, 8)')"
fi
exit 0
