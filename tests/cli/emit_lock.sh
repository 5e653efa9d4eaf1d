#!/bin/sh
# emit_lock.sh - concurrent 'segc emit -o out' runs of two models leave a
# matching pair: out.c and out.h of one model (emit places the pair under
# a lock on out.lock, doc/emit.md).  ROUNDS rounds (default 100, 25 under
# AddressSanitizer; more until each model has won a round) of 16
# runs at a time, 8 of each model; after each round both files must name
# the same model and gcc must accept the pair (the two models' functions
# take different arguments, so a .c beside the other model's .h does not
# compile).  Where strace works, every run goes through it and each run
# of the first model sleeps 20 ms after its first rename (strace's fault
# injection), which widens the window between its two renames, where a
# run of the other model can place both of its files: without the lock
# many rounds end mixed.
# Then the lock file: removed after the runs (while held, so that a run
# waiting for it locks the file then at the path: doc/emit.md), kept when
# it has content, a symbolic link or a directory in its place refused,
# nothing changed.
# Under AddressSanitizer a run costs several times as much, and the
# race is the release build's (and distcheck's) to catch in its 100
# rounds: there the default is 25 rounds, each run still checked.
. "$top_srcdir/tests/cli/lib.sh"
if nm -D "$SEGC" 2>/dev/null | grep -q __asan_init; then
	ROUNDS=${ROUNDS:-25}
else
	ROUNDS=${ROUNDS:-100}
fi
diag "ROUNDS=$ROUNDS"
fm="--keep N_element --keep P_max --keep t_assign --keep t_if --keep t_loop
 $top_srcdir/xml/find_max.xml"
cg="-m $top_srcdir/xml/machines/ncube2.xml $top_srcdir/xml/cg_tree.xml"
mkdir "$tmp/d"
out=$tmp/d/out

# slow, fast: the commands that run segc with the delay after its first
# rename and without, or nothing.
slow= fast=
renames=rename,renameat,renameat2
if command -v strace >/dev/null 2>&1 &&
    strace -f --seccomp-bpf -qq -o /dev/null -e trace=$renames \
	-e inject=$renames:delay_exit=1:when=1 true 2>/dev/null; then
	fast="strace -f --seccomp-bpf -qq -o /dev/null -e trace=$renames"
	slow="$fast -e inject=$renames:delay_exit=20000:when=1"
	# LeakSanitizer cannot run under ptrace: in a sanitizer build the
	# traced runs leave leaks to the other tests.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
else
	diag "strace cannot delay renames here: the race is left to chance"
fi

# model FILE: the model FILE says it predicts.
model() {
	sed -n "1s/.*of the model '\\([a-z_]*\\)'.*/\\1/p" "$1"
}

# both_won: whether each model was last to write in some round so far.
both_won() {
	case $seen in *find_max*cg_tree*|*cg_tree*find_max*) return 0 ;; esac
	return 1
}

# ROUNDS rounds, and more (up to 4 times as many) until both models have
# won one: which run is last is left to the scheduler, and a test that
# raced nothing would show nothing.
bad=0 failed=0 seen=
r=0
while [ $r -lt "$ROUNDS" ] ||
    { [ $r -lt $((ROUNDS * 4)) ] && ! both_won; }; do
	pids=
	i=0
	while [ $i -lt 8 ]; do
		# shellcheck disable=SC2086
		$slow "$SEGC" emit -q -o "$out" $fm 2>>"$tmp/err" &
		pids="$pids $!"
		# shellcheck disable=SC2086
		$fast "$SEGC" emit -q -o "$out" $cg 2>>"$tmp/err" &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do
		wait "$p" || failed=$((failed + 1))
	done
	mc=$(model "$out.c") mh=$(model "$out.h")
	if [ -z "$mc" ] || [ "$mc" != "$mh" ] ||
	    ! $CC -std=c99 -fsyntax-only "$out.c" 2>>"$tmp/cc.err"; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && diag "round $r: out.c of '$mc', out.h of '$mh'"
	fi
	case " $seen " in *" $mc "*) ;; *) seen="$seen $mc" ;; esac
	r=$((r + 1))
done
[ $failed -eq 0 ]
ok $? "$((r * 16)) concurrent runs exit 0 ($failed failed)"
[ -s "$tmp/err" ] && diag "$(head -5 "$tmp/err")"
[ $bad -eq 0 ]
ok $? "$r rounds of 16 runs: every pair matches ($bad mixed)"
# Both models won some rounds, or the test raced nothing.
both_won
ok $? "both models were last to write in some round:$seen ($r rounds)"
[ -z "$(ls -A "$tmp/d" | grep -v '^out\.[ch]$')" ]
ok $? "nothing but out.c and out.h is left in the directory (no out.lock)"

# A lock file with content is someone's file: locked, and left as it was;
# an empty one (left by an interrupted run) is removed.
printf 'not ours\n' > "$out.lock"
# shellcheck disable=SC2086
"$SEGC" emit -q -o "$out" $fm && [ "$(cat "$out.lock")" = "not ours" ]
ok $? "a lock file with content is kept as it was"
: > "$out.lock"
# shellcheck disable=SC2086
"$SEGC" emit -q -o "$out" $cg && [ ! -e "$out.lock" ] &&
	[ "$(model "$out.c")" = cg_tree ] && [ "$(model "$out.h")" = cg_tree ]
ok $? "an empty lock file left behind is removed"

# A lock file that is a symbolic link or a directory: refused, exit 2,
# the pair unchanged, nothing printed.
cp "$out.c" "$tmp/c.before"
cp "$out.h" "$tmp/h.before"
for kind in link dir; do
	rm -rf "$out.lock"
	if [ $kind = link ]; then
		ln -s "$tmp/elsewhere" "$out.lock"
	else
		mkdir "$out.lock"
	fi
	# shellcheck disable=SC2086
	"$SEGC" emit -o "$out" $fm > "$tmp/stdout" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/stdout" ] &&
		grep -q "cannot lock .*out\.lock" "$tmp/err" &&
		cmp -s "$out.c" "$tmp/c.before" && cmp -s "$out.h" "$tmp/h.before" &&
		[ ! -e "$tmp/elsewhere" ] &&
		[ -z "$(ls -A "$tmp/d" | grep '^\.segc-')" ]
	ok $? "a lock file that is a $kind: exit 2, nothing changed (exit $st)"
	[ $st -eq 2 ] || diag "$(cat "$tmp/err")"
done
rm -rf "$out.lock"

# --lang python writes one file (one rename): no lock file.
"$SEGC" emit -q --lang python -o "$tmp/d/py" $fm
[ $? -eq 0 ] && [ -f "$tmp/d/py.py" ] && [ ! -e "$tmp/d/py.lock" ]
ok $? "--lang python leaves no lock file"

done_testing
