#!/bin/sh
# emit_strict.sh - the emitted C is clean under the strictest warnings of
# both compilers: every model of generated/MANIFEST (with its machine and
# kept names), the bundled models the manifest leaves out and the models
# of tests/cli/models (sums and recurrences that are loops in C),
# each emitted plain, --accurate, --main and --main --accurate, compiled
# with gcc -std=c99 -Wall -Wextra -pedantic -Werror (at -O0 and -O2) and
# clang -std=c99 -Weverything -Werror less the warnings doc/emit.md lists
# as unavoidable in C99.  Then the --main program's command line: --help
# and unknown options.
#
# Only the warnings are wanted, not the objects.  clang warns from its
# front end, which -fsyntax-only runs alone in a tenth of the time of
# making the object; gcc at -O0 does the same for its front end's
# warnings, and at -O2 compiles in full, for the warnings of its middle
# end (-Wmaybe-uninitialized, -Wreturn-type and the like).
. "$top_srcdir/tests/cli/lib.sh"
tab=$(printf '\t')
GCC_STRICT="-std=c99 -Wall -Wextra -pedantic -Werror"
# The exceptions doc/emit.md gives, each with its reason (none of them
# fires with clang 14; the later ones are for newer versions of clang,
# which -Wno-unknown-warning-option lets older ones ignore).
CLANG_STRICT="-std=c99 -Weverything -Werror -Wno-unknown-warning-option
 -Wno-unsafe-buffer-usage"
gcc_cmd=
case $($CC --version 2>/dev/null | head -1) in
*gcc*|*GCC*) gcc_cmd=$CC ;;
*) command -v gcc >/dev/null 2>&1 && gcc_cmd=gcc ;;
esac

# strict NAME FILE.c: compiles FILE.c with every strict setting.
strict() {
	if [ -n "$gcc_cmd" ]; then
		for o in -O0 -O2; do
			case $o in
			-O0) out=-fsyntax-only ;;
			*) out="-c -o $tmp/x.o" ;;
			esac
			$gcc_cmd $GCC_STRICT $o $out "$2" 2>"$tmp/cc.err"
			st=$?
			ok $st "$1: gcc $o strict C99"
			[ $st -eq 0 ] || diag "$(head -12 "$tmp/cc.err")"
		done
	else
		skip "$1: gcc strict C99" "gcc not found"
	fi
	if [ -n "${CLANG:-}" ]; then
		$CLANG $CLANG_STRICT -O2 -fsyntax-only "$2" 2>"$tmp/cc.err"
		st=$?
		ok $st "$1: clang -Weverything"
		[ $st -eq 0 ] || diag "$(head -12 "$tmp/cc.err")"
	else
		skip "$1: clang -Weverything" "clang not found"
	fi
}

# every_variant NAME MODEL OPTIONS...: emits MODEL in the four variants
# and compiles each strictly.
every_variant() {
	vname=$1 vmodel=$2
	shift 2
	for v in plain accurate main main-accurate; do
		case $v in
		plain) vo= ;;
		accurate) vo=--accurate ;;
		main) vo=--main ;;
		main-accurate) vo="--main --accurate" ;;
		esac
		"$SEGC" emit -q $vo "$@" -o "$tmp/$vname-$v" "$vmodel" \
			2>"$tmp/err"
		st=$?
		ok $st "emit $vname ($v)"
		[ $st -eq 0 ] || { diag "$(head -5 "$tmp/err")"; continue; }
		strict "$vname ($v)" "$tmp/$vname-$v.c"
	done
}

# declared MODEL: the names MODEL declares but N and P, comma-separated.
declared() {
	grep -o '<\(param\|resource\) name="[^"]*"' "$1" |
		sed 's/.*name="\([^"]*\)"/\1/' | grep -v '^[NP]$' | sort -u
}

grep -v '^#' "$top_srcdir/generated/MANIFEST" > "$tmp/manifest"
while IFS=$tab read -r name model machine binds keep outputs; do
	# Every entry, also those whose C generated/ leaves out (their
	# predictors are slow to run, not to compile).
	set --
	[ "$machine" = - ] || set -- -m "$top_srcdir/xml/machines/$machine"
	for b in $(echo "$binds" | tr ',' ' '); do
		[ "$b" = - ] || set -- "$@" -D "$b"
	done
	for k in $(echo "$keep" | tr ',' ' '); do
		[ "$k" = - ] || set -- "$@" --keep "$k"
	done
	every_variant "$name" "$top_srcdir/xml/$model" "$@"
	echo "xml/$model" >> "$tmp/covered"
done < "$tmp/manifest"

# The bundled models the manifest leaves out, every declared name kept
# (t800_comm's t_com is a function of the supercluster machine), and the
# models of the command tests (loops, an overlapped loop's recurrence).
for f in "$top_srcdir"/xml/*.xml "$top_srcdir"/xml/examples/*.xml \
    "$top_srcdir"/tests/cli/models/*.xml; do
	rel=${f#"$top_srcdir"/}
	case $rel in xml/seg.rng) continue ;; esac
	grep -qx "$rel" "$tmp/covered" && continue
	set --
	case $rel in
	xml/t800_comm.xml)
		set -- -m "$top_srcdir/xml/machines/t800_supercluster.xml" ;;
	esac
	for k in $(declared "$f"); do set -- "$@" --keep "$k"; done
	every_variant "$(basename "$f" .xml)" "$f" "$@"
done

# Sums with no closed form (loops in C, nested, their values after an if
# of their own), piecewise formulas with code on either side, and
# conditions joined with and/or: the C has statements between values,
# which must not put a declaration after a statement, nor compare doubles
# with ==, nor promote NAN (a float) implicitly.
cat > "$tmp/loops.xml" <<'EOF'
<model name="loops" version="1">
  <param name="a"/>
  <resource name="t"/>
  <graph name="main">
    <loop var="i" from="1" to="N">
      <step cost="sqrt(i)*t"/>
      <loop var="j" from="i" to="N/2">
        <step cost="floor(N/j) + a"/>
      </loop>
    </loop>
    <loop var="k" from="P/3" to="N - P">
      <step cost="log2(k + P)"/>
    </loop>
    <loop var="i" from="1" to="N - 2*P">
      <step cost="i*t"/>
    </loop>
    <step cost="if(N &gt;= 2*P and (a &lt; 1 or P == 4), sum(i, 1, N, sqrt(i)), max(N, a*P))"/>
    <step cost="if(not (N != P), ceil(N/3), floor(sum(j, P, N, log2(j))))"/>
  </graph>
</model>
EOF
every_variant loops "$tmp/loops.xml" --keep a --keep t
grep -q 'for (' "$tmp/loops-plain.c" && grep -q 'if (' "$tmp/loops-plain.c" &&
	grep -q '&&\|||' "$tmp/loops-plain.c"
ok $? "the loop model has loops, conditionals and joined conditions in C"

# The --main program's command line: --help (and -h) prints the grid
# arguments it needs and the columns, exit 0, no table; an unknown option
# is named on stderr, exit 2, nothing on stdout; the grid still works.
for v in main main-accurate; do
	c=$tmp/find_max-$v.c
	if ! $CC -std=c99 -o "$tmp/fm" "$c" -lm 2>"$tmp/cc.err"; then
		ok 1 "find_max ($v) links"
		diag "$(head -5 "$tmp/cc.err")"
		continue
	fi
	for h in --help -h; do
		"$tmp/fm" N=1 $h > "$tmp/out" 2>"$tmp/err"
		st=$?
		[ $st -eq 0 ] && [ ! -s "$tmp/err" ] &&
			grep -q "^Usage: .*fm N=RANGE P=RANGE N_element=RANGE P_max=RANGE t_assign=RANGE t_if=RANGE t_loop=RANGE\$" "$tmp/out" &&
			grep -q '^then total comp, tab-separated\.$' "$tmp/out" &&
			grep -q '^  A\.\.B\*K  ' "$tmp/out" &&
			grep -q '^  -h, --help  show this help and exit$' "$tmp/out" &&
			! grep -q '^N' "$tmp/out"
		ok $? "find_max ($v) $h: the usage, exit 0 (exit $st)"
	done
	for bad in --bogus -x; do
		"$tmp/fm" N=1 P=2 N_element=3 P_max=1 t_assign=1 t_if=1 t_loop=1 \
			$bad > "$tmp/out" 2>"$tmp/err"
		st=$?
		[ $st -eq 2 ] && [ ! -s "$tmp/out" ] &&
			grep -q "fm: unknown option '$bad'\$" "$tmp/err" &&
			grep -q "^Try '.*fm --help' for more information\.\$" "$tmp/err"
		ok $? "find_max ($v) $bad: unknown option, exit 2 (exit $st)"
	done
	# total = N_element*P_max*t_assign + N_element*(t_if + t_loop) + t_assign
	"$tmp/fm" N=1 P=2 N_element=3 P_max=2 t_assign=5 t_if=7 t_loop=11 \
		> "$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && [ "$(sed -n 2p "$tmp/out" | cut -f8)" = 89 ]
	ok $? "find_max ($v) prints the grid: 3*2*5 + 3*(7 + 11) + 5 = 89"
done

done_testing
