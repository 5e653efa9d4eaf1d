#!/bin/sh
# emit_templates.sh - the contract of the templates of 'segc emit
# --template DIR' (doc/emit.md, Templates): each names its version in a
# first line that segc removes; a dd.c.in of another version, or (under
# --accurate, where it is used) of none, is refused (exit 2, located at
# the file, nothing written), as is a template without the placeholders
# where the code goes.  The dd.c.in of the release before the helpers took
# the flag of TwoProd (templates/dd_v1.c.in, from the history) shows why:
# declared as the current version, it gives C that gcc rejects.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/xml/cg_simple.xml
mach=$top_srcdir/xml/machines/ncube2.xml
old=$top_srcdir/tests/cli/templates/dd_v1.c.in
gcc_cmd=
case $($CC --version 2>/dev/null | head -1) in
*gcc*|*GCC*) gcc_cmd=$CC ;;
*) command -v gcc >/dev/null 2>&1 && gcc_cmd=gcc ;;
esac

# fresh: $tmp/tpl holds a copy of the installed templates; $tmp/out is
# empty.
fresh() {
	rm -rf "$tmp/tpl" "$tmp/out"
	mkdir "$tmp/tpl" "$tmp/out"
	cp "$top_srcdir"/templates/*.in "$tmp/tpl/"
}

# refused NAME WHAT...: the last emit exited 2, wrote nothing, and its
# error names each WHAT.
refused() {
	st=$?
	rn=$1
	shift
	[ $st -eq 2 ] && [ -z "$(ls "$tmp/out")" ]
	st=$?
	for w in "$@"; do
		grep -qF -- "$w" "$tmp/err" || st=1
	done
	ok $st "$rn"
	[ $st -eq 0 ] || diag "$(cat "$tmp/err")"
}

# without FILE PLACEHOLDER OPTIONS...: emit with FILE lacking the line of
# PLACEHOLDER is refused at FILE:1:1, naming it.
without() {
	f=$1 ph=$2
	shift 2
	fresh
	grep -v "$ph" "$top_srcdir/templates/$f" > "$tmp/tpl/$f"
	"$SEGC" emit -q "$@" -m "$mach" -o "$tmp/out/p" \
		--template "$tmp/tpl" "$m" 2>"$tmp/err"
	refused "$f without $ph: refused" "$tmp/tpl/$f:1:1: error:" "$ph"
}

# compiles NAME FILE.c: gcc compiles FILE.c (skipped without gcc).
compiles() {
	if [ -z "$gcc_cmd" ]; then
		skip "$1" "gcc not found"
		return
	fi
	$gcc_cmd -std=c99 -Wall -Wextra -Werror -c -o "$tmp/x.o" "$2" \
		2>"$tmp/cc.err"
	st=$?
	ok $st "$1"
	[ $st -eq 0 ] || diag "$(head -5 "$tmp/cc.err")"
}

# The installed templates give the compiled-in output, the version lines
# left out of it.
for a in "" --accurate; do
	fresh
	"$SEGC" emit -q $a -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" \
		"$m" && mkdir "$tmp/ref" &&
		"$SEGC" emit -q $a -m "$mach" -o "$tmp/ref/p" "$m" &&
		cmp -s "$tmp/out/p.c" "$tmp/ref/p.c" &&
		cmp -s "$tmp/out/p.h" "$tmp/ref/p.h" &&
		! grep -q segc-template "$tmp/out/p.c" "$tmp/out/p.h"
	ok $? "the installed templates ${a:-(plain)}: the built-in output"
	rm -rf "$tmp/ref"
done
fresh
mkdir "$tmp/ref"
"$SEGC" emit -q --lang python -m "$mach" -o "$tmp/out/p" \
	--template "$tmp/tpl" "$m" &&
	"$SEGC" emit -q --lang python -m "$mach" -o "$tmp/ref/p" "$m" &&
	cmp -s "$tmp/out/p.py" "$tmp/ref/p.py"
ok $? "the installed predictor.py.in: the built-in Python"
rm -rf "$tmp/ref" "$tmp/out"/*
without predictor.py.in @FUNCTIONS@ --lang python
head -1 "$top_srcdir/templates/dd.c.in" | grep -qx '@segc-template dd.c.in 2'
ok $? "the installed dd.c.in declares version 2"

# The old dd.c.in, forged as version 2: segc trusts the line, gcc does
# not accept the C (what the refusals below prevent).
if [ -n "$gcc_cmd" ]; then
	fresh
	{ echo '@segc-template dd.c.in 2'; cat "$old"; } > "$tmp/tpl/dd.c.in"
	"$SEGC" emit -q --accurate -m "$mach" -o "$tmp/out/p" \
		--template "$tmp/tpl" "$m" &&
		! $gcc_cmd -std=c99 -c -o "$tmp/x.o" "$tmp/out/p.c" \
		2>"$tmp/cc.err" && grep -q 'two_prod' "$tmp/cc.err"
	ok $? "the old dd.c.in gives C that gcc rejects (too many arguments)"
else
	skip "the old dd.c.in gives C that gcc rejects" "gcc not found"
fi

# The old dd.c.in as it was (no version line): refused under --accurate,
# at the file; unused (and accepted) without.
fresh
cp "$old" "$tmp/tpl/dd.c.in"
"$SEGC" emit -q --accurate -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" \
	"$m" 2>"$tmp/err"
refused "the old dd.c.in under --accurate: refused" "$tmp/tpl/dd.c.in:1:1: error:" \
	"declares no version" "version 2 of dd.c.in" "@segc-template dd.c.in 2"
"$SEGC" emit -q -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" "$m" \
	2>"$tmp/err"
ok $? "the old dd.c.in without --accurate: not used, emitted"
compiles "the old dd.c.in without --accurate: the C compiles" "$tmp/out/p.c"

# A version other than this segc's: refused, used or not.
fresh
{ echo '@segc-template dd.c.in 1'; cat "$old"; } > "$tmp/tpl/dd.c.in"
"$SEGC" emit -q -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" "$m" \
	2>"$tmp/err"
refused "dd.c.in version 1: refused" "$tmp/tpl/dd.c.in:1:1: error:" \
	"version 1 of dd.c.in" "fills version 2"
fresh
sed '1s/ 1$/ 7/' "$top_srcdir/templates/predictor.py.in" \
	> "$tmp/tpl/predictor.py.in"
"$SEGC" emit -q --lang python -m "$mach" -o "$tmp/out/p" \
	--template "$tmp/tpl" "$m" 2>"$tmp/err"
refused "predictor.py.in version 7: refused" \
	"$tmp/tpl/predictor.py.in:1:1: error:" "version 7 of predictor.py.in"
# A malformed line: another file's name, no number.
fresh
sed '1s/.*/@segc-template predictor.c.in 2/' "$top_srcdir/templates/dd.c.in" \
	> "$tmp/tpl/dd.c.in"
"$SEGC" emit -q -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" "$m" \
	2>"$tmp/err"
refused "a version line naming another template: refused" \
	"$tmp/tpl/dd.c.in:1:1: error:" "'@segc-template dd.c.in 2'"
fresh
sed '1s/.*/@segc-template main.c.in one/' "$top_srcdir/templates/main.c.in" \
	> "$tmp/tpl/main.c.in"
"$SEGC" emit -q -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" "$m" \
	2>"$tmp/err"
refused "a version line without a number: refused" \
	"$tmp/tpl/main.c.in:1:1: error:" "'@segc-template main.c.in 1'"

# Templates of the placeholders only, without version lines (as written
# before them): accepted, the same output.
fresh
for f in predictor.c.in predictor.h.in main.c.in predictor.py.in; do
	sed 1d "$top_srcdir/templates/$f" > "$tmp/tpl/$f"
done
mkdir "$tmp/ref"
"$SEGC" emit -q --main -m "$mach" -o "$tmp/out/p" --template "$tmp/tpl" \
	"$m" && "$SEGC" emit -q --main -m "$mach" -o "$tmp/ref/p" "$m" &&
	cmp -s "$tmp/out/p.c" "$tmp/ref/p.c"
ok $? "templates without a version line but dd.c.in: accepted, the same C"
rm -rf "$tmp/ref"

# The placeholders where the code goes: each template without its own,
# under the options that use it.
without predictor.c.in @HELPERS@ --accurate
without main.c.in @WRAPPERS@ --main
without predictor.h.in @PROTOTYPES@
done_testing
