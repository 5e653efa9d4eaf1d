#!/bin/sh
# eval_ball.sh - 'segc eval' on the blocked LU model (doc/lu.md) with the
# plan run over arb balls (the default) and over exact rationals
# (--arith exact): one point (N = 26400, B = 32, 12 x 8 nodes) and the
# 40-point table of doc/lu.md; the point and the five sizes of the table
# at 12 x 8 nodes with two machine costs given intervals of +-5%; beside
# the structural derivation of the model, which every eval run includes.
# CPU seconds, output discarded.
#   SEGC=segc top_srcdir=... sh eval_ball.sh
: "${SEGC:?}" "${top_srcdir:?}"
M=$top_srcdir/xml/machines/parsytec_gc.xml
L=$top_srcdir/xml/lu_blocked.xml

# secs CMD...: the CPU seconds (user and system) CMD takes.
secs() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
def cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
t = cpu()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print("%.3f" % (cpu() - t) if r.returncode == 0 else "failed")
PY
}

TABLE="N=352,1408,5280,13200,26400 B=32 X=1,2,4,12 Y=1,8"
row() {
	p=$(secs "$SEGC" eval --arith "$1" -m "$M" "$L" N=26400 B=32 X=12 Y=8)
	t=$(secs "$SEGC" eval --arith "$1" -m "$M" "$L" $TABLE)
	printf '%-22s %10s %10s\n' "eval --arith $1" "$p" "$t"
}

printf '%-22s %10s %10s\n' "CPU seconds" "LU point" "40 points"
row ball
row exact
printf '%-22s %10s\n' "derive (in each)" \
	"$(secs "$SEGC" derive --form structural -m "$M" "$L")"
printf '%-22s %10s %10s\n' "" "LU point" "5 sizes"
printf '%-22s %10s %10s\n' "intervals (+-5%)" \
	"$(secs "$SEGC" eval -m "$M" "$L" N=26400 B=32 X=12 Y=8 \
		'tau_madd=[19/800000000,21/800000000]' \
		'tau_ld_m=[19/640000000,21/640000000]')" \
	"$(secs "$SEGC" eval -m "$M" "$L" N=352,1408,5280,13200,26400 B=32 \
		X=12 Y=8 'tau_madd=[19/800000000,21/800000000]' \
		'tau_ld_m=[19/640000000,21/640000000]')"
exit 0
