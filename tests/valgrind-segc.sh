#!/bin/sh
# valgrind-segc.sh - runs a program of the build under valgrind memcheck,
# for make check-valgrind.  "valgrind-segc.sh ARGS..." runs the segc
# command ($SEGC_REAL) with ARGS; "valgrind-segc.sh --run PROGRAM ARGS..."
# runs PROGRAM (a unit test, a replay driver).  Libtool's wrapper scripts
# are seen through with libtool --mode=execute.  Each process writes its
# report to $VALGRIND_LOGDIR/NAME.PID.log, empty when memcheck found
# nothing; the exit status is 1 on an error, else the program's own.
: "${top_builddir:?}" "${VALGRIND_LOGDIR:?}"
if [ "${1:-}" = --run ]; then
	shift
	prog=$1
	shift
else
	prog=${SEGC_REAL:?}
fi
name=$(basename "$prog")
exec "${SHELL:-/bin/sh}" "$top_builddir/libtool" --mode=execute \
	"${VALGRIND:-valgrind}" -q --error-exitcode=1 --leak-check=full \
	--show-leak-kinds=definite,possible --errors-for-leak-kinds=definite,possible \
	--track-origins=yes --log-file="$VALGRIND_LOGDIR/$name.%p.log" \
	"$prog" "$@"
