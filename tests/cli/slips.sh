#!/bin/sh
# slips.sh - slips of the command line are refused with a message that
# names them (and the name meant, when one is near): exit 2, nothing
# written.
. "$top_srcdir/tests/cli/lib.sh"

xml="$top_srcdir/xml"

# refused NAME WANT ARGS...: runs segc ARGS, expects exit 2, no output and
# the first line of standard error WANT.
refused() {
	name=$1
	want=$2
	shift 2
	code=0
	"$SEGC" "$@" >"$tmp/out" 2>"$tmp/err" || code=$?
	[ "$code" -eq 2 ] && [ ! -s "$tmp/out" ]
	ok $? "$name: exit code 2, nothing written"
	printf '%s\n' "$want" >"$tmp/want"
	head -1 "$tmp/err" >"$tmp/got"
	same_file "$tmp/want" "$tmp/got" "$name: message"
}

refused "-D of an undeclared name" \
	"segc: derive: -D 'iters': the model declares no such name (not a parameter, resource, let, machine const or cost, N or P)" \
	derive -D iters=5 "$xml/find_max.xml"
refused "-D of a misspelt name" \
	"segc: derive: -D 'N_elemnt': the model declares no such name (did you mean 'N_element'?)" \
	derive -D N_elemnt=5 "$xml/find_max.xml"
refused "-D of one name twice" \
	"segc: latex: -D N_element=6: 'N_element' is given twice" \
	latex -D N_element=5 -D N_element=6 "$xml/find_max.xml"
refused "--keep of an undeclared name" \
	"segc: emit: --keep 't_stmx': the model declares no such name (did you mean 't_stmt'?)" \
	emit -o "$tmp/p" --keep t_stmx "$xml/cg_tree.xml"
[ ! -e "$tmp/p.c" ]
ok $? "--keep of an undeclared name: no file written"
refused "a grid name that is not a parameter" \
	"segc: eval: grid name 'Q': the model declares no such name (not a parameter, resource, let, machine const or cost, N or P)" \
	eval -m "$xml/machines/ncube2.xml" "$xml/cg_tree.xml" Q=3 N=10
refused "a misspelt grid name" \
	"segc: eval: grid name 'N_elemnt': the model declares no such name (did you mean 'N_element'?)" \
	eval "$xml/find_max.xml" N_elemnt=3
refused "a grid name given twice" \
	"segc: eval: N=20: 'N' is given twice in the grid" \
	eval -m "$xml/machines/ncube2.xml" "$xml/cg_tree.xml" N=10 N=20
# A machine's names may be bound: they are declared by the machine.
"$SEGC" derive -m "$xml/machines/ncube2.xml" -D t_stmt=1 \
	"$xml/cg_tree.xml" >"$tmp/out" 2>"$tmp/err"
ok $? "-D of a machine's cost is accepted"

done_testing
