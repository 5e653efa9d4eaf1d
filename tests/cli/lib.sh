# lib.sh - TAP helpers for the command tests; source it.
# Requires $SEGC (the command) and $top_srcdir from the test environment.
. "$top_srcdir/tests/cli/direct.sh"
tap_n=0
tap_failed=0

# ok COND-STATUS NAME: reports one test from the status of the last command.
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# skip NAME REASON: reports a skipped test.
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# diag TEXT: a TAP comment, line by line.
diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# same_file WANT GOT NAME: passes when the files are equal, else shows diff.
same_file() {
	if diff -u "$1" "$2" >"$tmp/diff" 2>&1; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "$(head -40 "$tmp/diff")"
	fi
}

# relay_results LOG STATUS: turns the lines "RESULT 0|1 NAME" a checker
# wrote to LOG into tests, passes other lines through as they are, and
# adds a test that the checker (its exit STATUS) ran to its end.
relay_results() {
	while IFS= read -r l; do
		case $l in
		"RESULT "*)
			ok "$(echo "$l" | cut -d' ' -f2)" \
				"$(echo "$l" | cut -d' ' -f3-)"
			;;
		*) echo "$l" ;;
		esac
	done < "$1"
	[ "$2" -eq 0 ]
	ok $? "the checker ran to its end"
}

# one COST [PARAM...]: a model of one step of cost COST in $tmp/one.xml.
one() {
	cost=$1
	shift
	{
		echo '<model name="one" version="1">'
		for p in "$@"; do echo "  $p"; done
		echo "  <graph name=\"main\"><step cost=\"$cost\"/></graph>"
		echo '</model>'
	} >"$tmp/one.xml"
}

# done_testing: prints the plan; exits non-zero when anything failed.
done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/segc-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
