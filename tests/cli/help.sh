#!/bin/sh
# help.sh - the help of every command, its option parser and the man page
# agree: each option a command's --help lists is in doc/segc.1 and is
# accepted by the command (never "unknown option"), and each option the
# command's source parses is in its --help.
. "$top_srcdir/tests/cli/lib.sh"

man=$top_srcdir/doc/segc.1
commands=$("$SEGC" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$commands" ]
ok $? "segc --help lists the commands"

# The long and short options in help text on standard input, one a line.
options_of_help() {
	sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\1\2/p' |
		tr ',' '\n' | sed 's/^ *//; /^$/d'
}

for c in $commands; do
	"$SEGC" "$c" --help >"$tmp/help" 2>&1
	ok $? "$c --help exits 0"
	options_of_help <"$tmp/help" >"$tmp/opts"
	for o in $(cat "$tmp/opts"); do
		m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$m" "$man"
		ok $? "$c: $o of --help is in the man page"
		"$SEGC" "$c" "$o" x /nonexistent/model.xml >"$tmp/out" \
			2>"$tmp/err"
		! grep -q "unknown option" "$tmp/err"
		ok $? "$c: $o of --help is accepted by the parser"
	done
	src=$top_srcdir/src/cli/cmd_$c.c
	[ -f "$src" ] || continue
	parsed=$( { sed -n 's/.*cli_option_value(c, argc, argv, i, "\([a-z-]*\)".*/--\1/p' "$src"
		sed -n 's/.*strcmp(argv\[\*i\], "\(--[a-z-]*\)").*/\1/p' "$src"
		sed -n 's/.*cli_digits_option(.*/--digits/p' "$src"; } |
		sort -u)
	for o in $parsed; do
		grep -q -- "^ *\(-[a-zA-Z], \)\{0,1\}$o\b" "$tmp/help"
		ok $? "$c: $o, which the parser takes, is in --help"
	done
done

done_testing
