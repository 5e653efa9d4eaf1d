#!/bin/sh
# writes.sh - every write of the command is checked and all or nothing:
# standard output on a full device or closed.  On exit 2 nothing is
# written.
. "$top_srcdir/tests/cli/lib.sh"
m=$top_srcdir/xml/cg_tree.xml
nc=$top_srcdir/xml/machines/ncube2.xml
grid="N=1..4 P=2"

# fails_on_full NAME ARGS...: the command with standard output on
# /dev/full exits 2 and says why.
fails_on_full() {
	name=$1
	shift
	"$SEGC" "$@" >/dev/full 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && grep -q '^segc: error: standard output: ' "$tmp/err"
	ok $? "$name: a full standard output is exit 2 with a message"
	[ $st -eq 2 ] || diag "exit $st" "$(cat "$tmp/err")"
}

# --- standard output on a full device -----------------------------------
if [ -c /dev/full ]; then
	fails_on_full derive derive -m "$nc" "$m"
	fails_on_full latex latex -m "$nc" "$m"
	fails_on_full check check "$top_srcdir/xml/find_max.xml"
	fails_on_full eval eval -m "$nc" "$m" $grid
	fails_on_full dot dot "$m"
	fails_on_full "validate --help" validate --help
	fails_on_full "derive --help" derive --help
	fails_on_full "--help" --help
	fails_on_full "--version" --version
	"$SEGC" validate "$m" >/dev/full 2>"$tmp/err"
	ok $? "validate: writes nothing, so a full standard output is no error"
else
	skip "standard output on a full device" "no /dev/full"
fi

# --- standard output closed -----------------------------------------------
"$SEGC" derive -m "$nc" "$m" >&- 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q '^segc: error: standard output: ' "$tmp/err"
ok $? "derive: a closed standard output is exit 2 with a message"

done_testing
