#!/bin/sh
# columns.sh - a diagnostic's LINE:COL points at its fault: for each case
# below, the text of the bad document at the line and column of the first
# diagnostic of 'segc validate' starts with the expected token (an
# attribute's value, a name inside an expression, the '<' of an element).
. "$top_srcdir/tests/cli/lib.sh"

bad="$top_srcdir/tests/bad"

# NAME<TAB>TEXT the first diagnostic's column must show
cat >"$tmp/cases" <<'CASES'
undeclared_near	t_c + t_a
undeclared_column	nn*max
call_lookalike	Max(
machine_function_scope	gap<
machine_const_uses_model_name	N_lat
expr_syntax	(N + 1
arity_builtin	ceil(
arc_unknown_node	bb"
bad_identifier	2x"
use_unknown_resource	t_c"
loop_var_shadows	i"
function_arg_scope	x"
duplicate_argument	x">
schema_attribute_typo	cots=
schema_bad_class	class="gpu"
schema_unknown_element	<stepx
arc_duplicate_id	<node id="a"
formula_division_by_zero	<step
bad_version	2"
wrong_root	<graph
no_version	<model
prob_out_of_range	3/2"
arc_and_split_prob	1/2"
CASES

while IFS='	' read -r name want; do
	(cd "$bad" && "$SEGC" validate "$name.xml") >/dev/null 2>"$tmp/err"
	pos=$(head -n 1 "$tmp/err" | cut -d: -f2,3)
	line=${pos%:*}
	col=${pos#*:}
	# the column counts characters; the bad documents are ASCII
	got=$(sed -n "${line}p" "$bad/$name.xml" |
		cut -c "$col-$((col + ${#want} - 1))")
	[ "$got" = "$want" ]
	ok $? "$name: column $pos shows '$want'"
	[ "$got" = "$want" ] || diag "got '$got' from: $(head -n 1 "$tmp/err")"
done <"$tmp/cases"

done_testing
