#!/bin/sh
# emit_keep_names.sh - a kept name may be any name the emitter itself
# writes.  For models of every kind of plan (sums that are loops, if/else,
# an overlapped loop's recurrence, task graphs walked by kinds and in a
# run-time order), each predictor (C plain, C --accurate --main, Python,
# Fortran) is emitted once; every identifier of its code (functions,
# array forms, FMA copies, helpers, macros, locals, the template's own
# names; comments left out) is then declared as a parameter and kept, all
# at once and, for the generated functions and one local of each
# numbered kind, one at a time.  Each output must compile (gcc -std=c99
# -Wall -Wextra -Wshadow -pedantic -Werror; gfortran -std=f2008 -Wall
# -Wextra -Werror) and give the values of the predictor without the
# extra names (Python and Fortran called at one point, the C --main
# program's table).
. "$top_srcdir/tests/cli/lib.sh"
GCC_FLAGS="-std=c99 -Wall -Wextra -Wshadow -pedantic -Werror -O0"
FC=${FC_TEST:-gfortran}
command -v "$FC" >/dev/null 2>&1 || FC=
PY=${PYTHON:-python3}
command -v "$PY" >/dev/null 2>&1 || PY=
gcc_cmd=
case $($CC --version 2>/dev/null | head -1) in
*gcc*|*GCC*) gcc_cmd=$CC ;;
*) command -v gcc >/dev/null 2>&1 && gcc_cmd=gcc ;;
esac

# declared MODEL: the names MODEL declares but N and P.
declared() {
	grep -o '<\(param\|resource\) name="[^"]*"' "$1" |
		sed 's/.*name="\([^"]*\)"/\1/' | grep -v '^[NP]$' | sort -u
}

# with_params MODEL NAME...: MODEL with a parameter (>= 0) per NAME,
# declared before its first param, resource, let, function or graph.
with_params() {
	wm=$1
	shift
	awk -v names="$*" 'BEGIN { n = split(names, a, " ") }
	!done && /^[ \t]*<(param|resource|let|function|machine|graph)[ >\/]/ {
		for (i = 1; i <= n; i++)
			printf "  <param name=\"%s\" min=\"0\"/>\n", a[i]
		done = 1
	}
	{ print }' "$wm"
}

# identifiers LANG FILE...: the identifiers of the code of FILEs, comments
# left out, without N, P and the names in $tmp/decl.
identifiers() {
	il=$1
	shift
	case $il in
	c) cat "$@" | sed 's/#.*//' | $gcc_cmd -fpreprocessed -E -P - ;;
	python) sed 's/#.*//' "$@" ;;
	fortran) sed 's/!.*//' "$@" ;;
	esac | sed "s/'[^']*'//g; s/\"[^\"]*\"//g" |
		grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u |
		grep -vx -e N -e P -f "$tmp/decl"
}

# emit_lang LANG OUT MODEL OPTIONS...: emits MODEL in LANG to OUT.
emit_lang() {
	el=$1 eo=$2 em=$3
	shift 3
	case $el in
	c) "$SEGC" emit -q --prefix M "$@" -o "$eo" "$em" ;;
	c-accurate) "$SEGC" emit -q --prefix M --accurate --main "$@" \
		-o "$eo" "$em" ;;
	python|fortran) "$SEGC" emit -q --prefix M --lang "$el" "$@" \
		-o "$eo" "$em" ;;
	esac
}

# values LANG OUT NARGS NEXTRA: the values of every function of the
# predictor OUT at one point (its first NARGS arguments 2, 3, 4, ...,
# then NEXTRA zeros), one line each.
values() {
	vl=$1 vo=$2 vn=$3 vx=$4
	case $vl in
	c)
		$gcc_cmd $GCC_FLAGS -c -o "$vo.o" "$vo.c" 2>"$tmp/cc.err" ||
			return 1
		echo compiled
		;;
	c-accurate)
		$gcc_cmd $GCC_FLAGS -o "$vo.bin" "$vo.c" -lm 2>"$tmp/cc.err" ||
			return 1
		set --
		i=0
		for a in $(sed -n 's/.*arg_names\[NARGS\] = { \(.*\) };/\1/p' \
		    "$vo.c" | tr -d '",'); do
			i=$((i + 1))
			if [ $i -le "$vn" ]; then
				set -- "$@" "$a=$((i + 1))"
			else
				set -- "$@" "$a=0"
			fi
		done
		"$vo.bin" "$@" | tail -1 | awk -v n="$vn" -v x="$vx" \
			'{ for (i = n + x + 1; i <= NF; i++) print $i }'
		;;
	python)
		"$PY" - "$vo.py" "$vn" "$vx" <<'EOF' 2>"$tmp/cc.err"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("pred", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
n, x = int(sys.argv[2]), int(sys.argv[3])
point = [float(i + 2) for i in range(n)] + [0.0] * x
for f in m.__all__:
    print(f, repr(getattr(m, f)(*point)))
EOF
		;;
	fortran)
		$FC -std=f2008 -Wall -Wextra -Werror -ffp-contract=off -c \
			-J "$tmp" -o "$vo.o" "$vo.f90" 2>"$tmp/cc.err" || return 1
		# a C program calls every bind(c) entry at the point
		{
			echo '#include <stdio.h>'
			echo '#include "'"$vo"'.h"'
			echo 'int main(void) {'
			sed -n 's/^double \(M_[a-z]*\)(.*/\1/p' "$vo.h" |
			while read -r f; do
				printf '\tprintf("%%.17g\\n", %s(' "$f"
				i=0
				while [ $i -lt $((vn + vx)) ]; do
					[ $i -eq 0 ] || printf ', '
					if [ $i -lt "$vn" ]; then
						printf '%d.0' $((i + 2))
					else
						printf '0.0'
					fi
					i=$((i + 1))
				done
				printf '));\n'
			done
			echo '	return 0; }'
		} > "$vo-drv.c"
		$gcc_cmd -std=c99 -o "$vo.bin" "$vo-drv.c" "$vo.o" -lgfortran \
			-lm 2>"$tmp/cc.err" || return 1
		"$vo.bin"
		;;
	esac
}

# check_keep TAG LANG MODEL NAMES: declares and keeps NAMES beside MODEL's
# own names and checks the predictor in LANG against $tmp/base-LANG.
check_keep() {
	ct=$1 cl=$2 cm=$3 cn=$4
	with_params "$cm" $cn > "$tmp/kept.xml"
	set --
	for k in $(cat "$tmp/decl") $cn; do set -- "$@" --keep "$k"; done
	# Fortran's bind(c) entries are declared by the C header
	if [ "$cl" = fortran ]; then
		emit_lang c "$tmp/kept" "$tmp/kept.xml" "$@" 2>"$tmp/err" || {
			ok 1 "$ct: emit the header"; diag "$(head -5 "$tmp/err")"
			return; }
	fi
	emit_lang "$cl" "$tmp/kept" "$tmp/kept.xml" "$@" 2>"$tmp/err"
	st=$?
	if [ $st -ne 0 ]; then
		ok $st "$ct"
		diag "$(head -5 "$tmp/err")"
		return
	fi
	nx=$(echo $cn | wc -w)
	values "$cl" "$tmp/kept" "$nargs" "$nx" > "$tmp/got" 2>>"$tmp/cc.err"
	st=$?
	[ $st -eq 0 ] && cmp -s "$tmp/got" "$tmp/base-$cl"
	st=$?
	ok $st "$ct"
	if [ $st -ne 0 ]; then
		diag "$(head -8 "$tmp/cc.err")"
		diag "$(diff "$tmp/base-$cl" "$tmp/got" | head -6)"
	fi
}

# Sums that are loops (nested, after an if), if/else, and/or.
cat > "$tmp/loops.xml" <<'EOF'
<model name="loops" version="1">
  <param name="a" min="0"/>
  <resource name="t"/>
  <graph name="main">
    <loop var="i" from="1" to="N">
      <step cost="sqrt(i)*t"/>
      <loop var="j" from="i" to="N/2">
        <step cost="floor(N/j) + a"/>
      </loop>
    </loop>
    <step cost="if(N &gt;= 2*P and (a &lt; 1 or P == 4), sum(i, 1, N, sqrt(i)), max(N, a*P))"/>
    <step cost="N*P*t/3 + N^2*a/7"/>
  </graph>
</model>
EOF

if [ -z "$gcc_cmd" ]; then
	echo "1..0 # SKIP gcc not found"
	exit 0
fi
models="$tmp/loops.xml
$top_srcdir/tests/cli/models/emit_if_recurrence.xml
$top_srcdir/tests/cli/models/emit_tp_width.xml
$top_srcdir/tests/cli/models/emit_tp_instance_cycle.xml"
for m in $models; do
	mn=$(basename "$m" .xml)
	declared "$m" > "$tmp/decl"
	ndecl=$(wc -l < "$tmp/decl")
	nargs=$((ndecl + 2))
	for l in c c-accurate python fortran; do
		case $l in
		python) [ -n "$PY" ] || { skip "$mn $l" "no python3"; continue; } ;;
		fortran) [ -n "$FC" ] || { skip "$mn $l" "no gfortran"; continue; } ;;
		esac
		set --
		for k in $(cat "$tmp/decl"); do set -- "$@" --keep "$k"; done
		emit_lang "$l" "$tmp/base" "$m" "$@" 2>"$tmp/err" || {
			ok 1 "$mn $l: emit"; diag "$(head -3 "$tmp/err")"
			continue; }
		[ "$l" = fortran ] && emit_lang c "$tmp/base" "$m" "$@"
		values "$l" "$tmp/base" "$nargs" 0 > "$tmp/base-$l" 2>>"$tmp/cc.err"
		ok $? "$mn $l: the predictor without extra names"
		case $l in
		c|c-accurate) files="$tmp/base.c $tmp/base.h" ;;
		python) files=$tmp/base.py ;;
		fortran) files=$tmp/base.f90 ;;
		esac
		identifiers "${l%-accurate}" $files > "$tmp/names"
		# format words and the model's counters cannot be parameters
		{
			grep -o 'var="[^"]*"' "$m" | sed 's/var="\(.*\)"/\1/'
			grep -o 'index="[^"]*"' "$m" | sed 's/index="\(.*\)"/\1/' |
				tr ',' '\n' | sed 's/=.*//; s/ //g'
		} > "$tmp/counters"
		grep -vx -e if -e max -e min -e sum -e sqrt -e log2 -e exp2 \
			-e ceil -e floor -e and -e or -e not -e prod \
			-f "$tmp/counters" "$tmp/names" > "$tmp/names2"
		# all at once, in groups within the 64 --keep names allowed
		split -l $((60 - ndecl)) "$tmp/names2" "$tmp/group."
		for g in "$tmp"/group.*; do
			check_keep "$mn $l: $(wc -l < "$g") names kept at once" \
				"$l" "$m" "$(cat "$g")"
			rm -f "$g"
		done
		# one at a time: the generated functions, one local of each
		# kind (not again for a second walk in a run-time order)
		case $mn in emit_tp_instance_cycle) continue ;; esac
		{
			grep -x 'M_.*\|_M_.*' "$tmp/names2"
			grep -x '[a-z]*[0-9][0-9]*' "$tmp/names2" |
				sed 's/[0-9]*$/ &/' | sort -u -k1,1 | tr -d ' '
		} | sort -u > "$tmp/solo"
		for n in $(cat "$tmp/solo"); do
			check_keep "$mn $l: --keep $n" "$l" "$m" "$n"
		done
	done
done
done_testing
