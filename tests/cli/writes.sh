#!/bin/sh
# writes.sh - every write of the command is checked and all or nothing:
# standard output on a full device or closed, --svg targets that are not
# regular files or cannot be written, and emit's BASE.c and BASE.h
# replaced as a pair or not at all.  On exit 2 nothing is written and no
# path of the user is removed or changed.
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

# no_temporaries DIR NAME: DIR holds no file the command left behind.
no_temporaries() {
	left=$(ls -A "$1" | grep '^\.segc-')
	[ -z "$left" ]
	ok $? "$2: no temporary file left"
	[ -z "$left" ] || diag "$left"
}

# refused_svg TARGET NAME: eval --svg TARGET exits 2 and prints nothing.
refused_svg() {
	"$SEGC" eval -m "$nc" "$m" $grid --svg "$1" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ]
	ok $? "$2: exit 2, a message, nothing on standard output"
	[ $st -eq 2 ] || diag "exit $st" "$(cat "$tmp/err")"
}

# --- standard output on a full device -----------------------------------
if [ -c /dev/full ]; then
	mkdir "$tmp/full"
	fails_on_full derive derive -m "$nc" "$m"
	fails_on_full latex latex -m "$nc" "$m"
	fails_on_full check check "$top_srcdir/xml/find_max.xml"
	fails_on_full eval eval -m "$nc" "$m" $grid
	fails_on_full "eval --svg" eval -m "$nc" "$m" $grid \
		--svg "$tmp/full/plot.svg"
	[ ! -e "$tmp/full/plot.svg" ]
	ok $? "eval --svg: the plot is not left when standard output fails"
	fails_on_full emit emit -m "$nc" -o "$tmp/full/pred" "$m"
	[ ! -e "$tmp/full/pred.c" ] && [ ! -e "$tmp/full/pred.h" ]
	ok $? "emit: no file left when standard output fails"
	no_temporaries "$tmp/full" "emit on a full standard output"
	fails_on_full dot dot "$m"
	fails_on_full "validate --help" validate --help
	fails_on_full "derive --help" derive --help
	fails_on_full "--help" --help
	fails_on_full "--version" --version
	"$SEGC" validate "$m" >/dev/full 2>"$tmp/err"
	ok $? "validate: writes nothing, so a full standard output is no error"

	printf 'old c\n' >"$tmp/full/keep.c"
	printf 'old h\n' >"$tmp/full/keep.h"
	cp "$tmp/full/keep.c" "$tmp/want.c"
	cp "$tmp/full/keep.h" "$tmp/want.h"
	fails_on_full "emit over old files" emit -m "$nc" \
		-o "$tmp/full/keep" "$m"
	cmp -s "$tmp/want.c" "$tmp/full/keep.c" &&
		cmp -s "$tmp/want.h" "$tmp/full/keep.h"
	ok $? "emit: old BASE.c and BASE.h put back when standard output fails"
	no_temporaries "$tmp/full" "emit over old files"
else
	skip "standard output on a full device" "no /dev/full"
fi

# --- standard output closed -----------------------------------------------
"$SEGC" derive -m "$nc" "$m" >&- 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q '^segc: error: standard output: ' "$tmp/err"
ok $? "derive: a closed standard output is exit 2 with a message"
mkdir "$tmp/closed"
"$SEGC" emit -q -m "$nc" -o "$tmp/closed/p" "$m" >&- 2>"$tmp/err"
ok $? "emit -q: a closed standard output is no error when nothing is printed"
"$SEGC" emit -q -m "$nc" -o "$tmp/p" "$m" 2>"$tmp/err"
cmp -s "$tmp/p.c" "$tmp/closed/p.c" && cmp -s "$tmp/p.h" "$tmp/closed/p.h"
ok $? "emit -q: a closed standard output does not end up in the files"

# --- targets of --svg that are not regular files ----------------------------
mkdir "$tmp/empty"
refused_svg "$tmp/empty" "--svg naming an empty directory"
[ -d "$tmp/empty" ]
ok $? "--svg naming an empty directory: the directory is still there"
grep -q 'directory' "$tmp/err"
ok $? "--svg naming a directory: the message says so"

if [ "$(id -u)" = 0 ] && mknod "$tmp/fulldev" c 1 7 2>/dev/null; then
	refused_svg "$tmp/fulldev" "--svg naming a device node"
	[ -c "$tmp/fulldev" ]
	ok $? "--svg naming a device node: the node is still there"
else
	skip "--svg naming a device node" "needs root and mknod"
	skip "--svg naming a device node: still there" "needs root and mknod"
fi

if mkfifo "$tmp/fifo" 2>/dev/null; then
	if command -v timeout >/dev/null 2>&1; then to="timeout 20"; else to=; fi
	$to "$SEGC" eval -m "$nc" "$m" $grid --svg "$tmp/fifo" \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && [ -p "$tmp/fifo" ]
	ok $? "--svg naming a FIFO: refused at once, the FIFO still there"
	[ $st -eq 2 ] || diag "exit $st"
else
	skip "--svg naming a FIFO" "mkfifo failed"
fi

refused_svg "$tmp/nowhere/plot.svg" "--svg in a directory that does not exist"
[ ! -e "$tmp/nowhere" ]
ok $? "--svg in a missing directory: nothing created"

ln -s "$tmp/nothing.svg" "$tmp/dangling"
refused_svg "$tmp/dangling" "--svg naming a dangling symbolic link"
[ -L "$tmp/dangling" ] && [ ! -e "$tmp/nothing.svg" ]
ok $? "--svg naming a dangling link: the link is left alone"

# --- a regular target that cannot be written --------------------------------
mkdir "$tmp/ro"
printf 'old plot\n' >"$tmp/ro/plot.svg"
cp "$tmp/ro/plot.svg" "$tmp/want.svg"
chmod 444 "$tmp/ro/plot.svg"
if [ "$(id -u)" != 0 ]; then
	refused_svg "$tmp/ro/plot.svg" "--svg naming a read-only file"
	cmp -s "$tmp/want.svg" "$tmp/ro/plot.svg"
	ok $? "--svg naming a read-only file: the file is unchanged"
else
	skip "--svg naming a read-only file" "root may write any file"
	skip "--svg naming a read-only file: unchanged" "root may write any file"
fi
# The write itself fails (a file size limit of one block, its signal
# ignored: write() fails with EFBIG); this works as root too.
(
	trap '' XFSZ
	ulimit -f 1 2>/dev/null || exit 77
	exec "$SEGC" eval -m "$nc" "$m" $grid --svg "$tmp/ro/plot.svg"
) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 77 ]; then
	skip "--svg whose write fails" "ulimit -f is not supported"
else
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && [ -f "$tmp/ro/plot.svg" ] &&
		cmp -s "$tmp/want.svg" "$tmp/ro/plot.svg"
	ok $? "--svg whose write fails: exit 2, nothing printed, file unchanged"
	[ $st -eq 2 ] || diag "exit $st" "$(cat "$tmp/err")"
	no_temporaries "$tmp/ro" "--svg whose write fails"
fi

# --- emit: the pair BASE.c and BASE.h -----------------------------------------
mkdir "$tmp/pair" "$tmp/pair/base.h"
printf 'old content of base.c\n' >"$tmp/pair/base.c"
cp "$tmp/pair/base.c" "$tmp/want.c"
"$SEGC" emit -m "$nc" -o "$tmp/pair/base" "$m" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "emit with BASE.h a directory: exit 2, nothing printed"
cmp -s "$tmp/want.c" "$tmp/pair/base.c" && [ -d "$tmp/pair/base.h" ]
ok $? "emit with BASE.h a directory: BASE.c unchanged"
no_temporaries "$tmp/pair" "emit with BASE.h a directory"

# A rename that fails after the first one succeeded (a library preloaded to
# make rename() fail for BASE.h): BASE.c gets its old content back.
cat >"$tmp/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *mark = getenv("SHIM_MARK");
	size_t n = strlen(to);

	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT,
			"rename");
	if (n > 2 && !strcmp(to + n - 2, ".h") && mark) {
		FILE *f = fopen(mark, "w");

		if (f)
			fclose(f);
		errno = EIO;
		return -1;
	}
	return real(from, to);
}
EOF
mkdir "$tmp/second"
printf 'old c\n' >"$tmp/second/b.c"
printf 'old h\n' >"$tmp/second/b.h"
cp "$tmp/second/b.c" "$tmp/want.c"
cp "$tmp/second/b.h" "$tmp/want.h"
if ${CC:-cc} -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl \
	2>/dev/null; then
	SHIM_MARK=$tmp/mark LD_PRELOAD=$tmp/shim.so "$SEGC" emit -m "$nc" \
		-o "$tmp/second/b" "$m" >"$tmp/out" 2>"$tmp/err"
	st=$?
fi
if [ -f "$tmp/mark" ]; then
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ]
	ok $? "emit whose second rename fails: exit 2, nothing printed"
	cmp -s "$tmp/want.c" "$tmp/second/b.c" &&
		cmp -s "$tmp/want.h" "$tmp/second/b.h"
	ok $? "emit whose second rename fails: the old BASE.c is back"
	no_temporaries "$tmp/second" "emit whose second rename fails"
else
	skip "emit whose second rename fails" "cannot preload a library here"
fi

# --- what still works ---------------------------------------------------------
mkdir "$tmp/good"
printf 'old\n' >"$tmp/good/real.svg"
chmod 640 "$tmp/good/real.svg"
ln -s real.svg "$tmp/good/link.svg"
"$SEGC" eval -q -m "$nc" "$m" $grid --svg "$tmp/good/link.svg" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "--svg through a symbolic link"
[ -L "$tmp/good/link.svg" ] && grep -q '<svg' "$tmp/good/real.svg"
ok $? "--svg through a symbolic link: the link stays, its file is written"
[ "$(ls -l "$tmp/good/real.svg" | cut -c1-10)" = "-rw-r-----" ]
ok $? "--svg over a file keeps its permissions"
no_temporaries "$tmp/good" "--svg through a symbolic link"

done_testing
