# direct.sh - source it: when $SEGC is libtool's wrapper script of an
# uninstalled build (src/segc, which starts a shell, sets LD_LIBRARY_PATH
# and execs src/.libs/segc), points $SEGC at the program it runs and
# exports the library path the wrapper sets, so that a test that runs
# segc thousands of times does not start a shell for each.  The program
# and its libraries are the same; anything not plainly libtool's wrapper
# (a sanitizer or valgrind script, an installed segc, a wrapper that must
# relink first) is left as it is.
if [ -n "${SEGC:-}" ] && [ -f "$SEGC" ] &&
    sed -n 3p "$SEGC" 2>/dev/null | grep -q '^# .* - temporary wrapper script for \.libs/'; then
	segc_prog=$(sed -n "s/^  program='\\([^']*\\)'\$/\\1/p" "$SEGC")
	segc_libs=$(sed -n 's/^    LD_LIBRARY_PATH="\([^"$]*\):\$LD_LIBRARY_PATH"$/\1/p' "$SEGC")
	segc_dir=$(dirname "$SEGC")/.libs
	if [ "$(echo "$segc_prog" | wc -l)" -eq 1 ] && [ -n "$segc_prog" ] &&
	    [ "$(echo "$segc_libs" | wc -l)" -eq 1 ] && [ -n "$segc_libs" ] &&
	    [ -x "$segc_dir/$segc_prog" ] &&
	    ! grep -q '^relink_command="[^"]' "$SEGC"; then
		SEGC=$segc_dir/$segc_prog
		LD_LIBRARY_PATH=$segc_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export SEGC LD_LIBRARY_PATH
	fi
	unset segc_prog segc_libs segc_dir
fi
