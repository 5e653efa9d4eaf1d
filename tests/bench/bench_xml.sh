#!/bin/sh
# bench_xml.sh - how long reading and validation take as models grow:
# one graph of 10^3 .. 10^6 steps, and nests of 10^2 .. 10^4 loops; each
# is timed with 'segc validate' and 'segc derive' (seconds, wall clock).
# Run by make bench (never by make check); $SEGC names the command.
# BENCH_XML_MAX (default 1000000) caps the number of steps.
SEGC=${SEGC:-segc}
max=${BENCH_XML_MAX:-1000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_xml.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# flat N FILE: a model whose main graph is N steps.
flat() {
	awk -v n="$1" 'BEGIN {
		print "<model name=\"flat\" version=\"1\">"
		print "<resource name=\"t\"/><resource name=\"u\"/>"
		print "<graph name=\"main\">"
		for (i = 0; i < n; i++)
			printf "<step cost=\"%d*t\"><use resource=\"u\"/></step>\n", i % 7 + 1
		print "</graph>"
		print "</model>"
	}' >"$2"
}

# nest N FILE: a model whose main graph nests N loops.
nest() {
	awk -v n="$1" 'BEGIN {
		print "<model name=\"deep\" version=\"1\">"
		print "<resource name=\"t\"/>"
		print "<graph name=\"main\">"
		for (i = 0; i < n; i++) print "<loop count=\"2\">"
		print "<step cost=\"t\"/>"
		for (i = 0; i < n; i++) print "</loop>"
		print "</graph>"
		print "</model>"
	}' >"$2"
}

# now: the time in seconds with nanoseconds, where date can say it.
now() {
	date +%s.%N 2>/dev/null || date +%s
}

# run WHAT FILE: times 'segc WHAT FILE'; prints the seconds (or FAIL).
run() {
	t0=$(now)
	if "$SEGC" "$1" "$2" >/dev/null 2>"$tmp/err"; then
		t1=$(now)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
	else
		printf 'FAIL'
		sed 's/^/# /' "$tmp/err" | head -3 >&2
	fi
}

status=0
printf '%-22s %12s %10s %10s\n' model bytes validate derive
for n in 1000 10000 100000 1000000; do
	[ "$n" -le "$max" ] || continue
	flat "$n" "$tmp/m.xml"
	v=$(run validate "$tmp/m.xml")
	d=$(run derive "$tmp/m.xml")
	printf '%-22s %12s %10s %10s\n' "steps=$n" \
		"$(wc -c <"$tmp/m.xml" | tr -d ' ')" "$v" "$d"
	case "$v$d" in *FAIL*) status=1 ;; esac
done
for n in 100 1000 10000; do
	nest "$n" "$tmp/m.xml"
	v=$(run validate "$tmp/m.xml")
	d=$(run derive "$tmp/m.xml")
	printf '%-22s %12s %10s %10s\n' "nested-loops=$n" \
		"$(wc -c <"$tmp/m.xml" | tr -d ' ')" "$v" "$d"
	case "$v$d" in *FAIL*) status=1 ;; esac
done
exit $status
