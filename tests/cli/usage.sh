#!/bin/sh
# usage.sh - the command's help, version and usage errors (GNU style).
. "$top_srcdir/tests/cli/lib.sh"

"$SEGC" --help >"$tmp/out" 2>&1
ok $? "--help exits 0"
grep -q '^Usage: segc COMMAND' "$tmp/out"
ok $? "--help starts with a usage line"
for c in derive latex emit check eval validate dot; do
	grep -q "^  $c " "$tmp/out"
	ok $? "--help lists $c"
	"$SEGC" "$c" --help >"$tmp/c" 2>&1
	ok $? "$c --help exits 0"
done
"$SEGC" --version >"$tmp/out" 2>&1
ok $? "--version exits 0"
head -1 "$tmp/out" | grep -q '^segc (segc) [0-9]'
ok $? "--version names the program and version"

"$SEGC" frobnicate >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ]
ok $? "an unknown command exits 2"
[ ! -s "$tmp/out" ] && grep -q "unknown command 'frobnicate'" "$tmp/err" &&
	grep -q "Try 'segc --help'" "$tmp/err"
ok $? "an unknown command gets a one-line hint"

"$SEGC" --frob >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unrecognized option '--frob'" "$tmp/err"
ok $? "an unknown option exits 2 with a hint"

"$SEGC" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "missing command" "$tmp/err"
ok $? "no command exits 2"

done_testing
