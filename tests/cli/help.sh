#!/bin/sh
# help.sh - the help of every command, its option parser and the man page
# agree: each option a command's --help lists is in doc/segc.1 and is
# accepted by the command (never "unknown option"), and each option the
# command's source and the common options parse is in its --help (with
# its short form), as are segc's own.
. "$top_srcdir/tests/cli/lib.sh"

man=$top_srcdir/doc/segc.1
# The common options: what cli_common_option() parses (src/cli/common.c).
common=$tmp/common.c
sed -n '/^int cli_common_option(/,/^}/p' "$top_srcdir/src/cli/common.c" \
	>"$common"
[ -s "$common" ]
ok $? "the parser of the common options is found"
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
	# The options its source parses, and the common ones every command
	# takes (src/cli/common.c): each long name of cli_option_value
	# (both of "k ? "max" : "min""), each --name compared with argv.
	parsed=$( { for f in "$src" "$common"; do
			grep 'cli_option_value(c, argc, argv, i,' "$f" |
				sed 's/.*argv, i, //' | grep -o '"[a-z][a-z-]*"' |
				sed 's/"\(.*\)"/--\1/'
			grep -o 'strcmp(argv\[\*i\], "--[a-z-]*")' "$f" |
				sed 's/.*"\(--[a-z-]*\)").*/\1/'
		done
		sed -n 's/.*cli_digits_option(.*/--digits/p' "$src"
		sed -n 's/.*cli_limit_option(.*/--limit/p' "$common"; } |
		sort -u)
	for o in $parsed; do
		grep -Eq -- "(^ *|, )(-[a-zA-Z], )?$o\b" "$tmp/help"
		ok $? "$c: $o, which the parser takes, is in --help"
	done
	# Short options: "-o, --output" in --help for 'o' and "output".
	shorts=$(cat "$src" "$common" |
		sed -n "s/.*cli_option_value(c, argc, argv, i, \"\([a-z-]*\)\", '\(.\)'.*/-\2, --\1/p" |
		sort -u)
	old=$IFS
	IFS='
'
	for o in $shorts; do
		grep -q -- "^ *$o\b" "$tmp/help"
		ok $? "$c: $o, which the parser takes, is in --help"
	done
	IFS=$old
done

# segc's own options: --help, -h and --version are in its help and the
# man page.
"$SEGC" --help >"$tmp/help" 2>&1
for o in --help -h --version; do
	grep -q -- "$o\b" "$tmp/help"
	ok $? "segc: $o, which main takes, is in segc --help"
	m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$m" "$man"
	ok $? "segc: $o is in the man page"
done

done_testing
