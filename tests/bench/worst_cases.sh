#!/bin/sh
# worst_cases.sh - the documents that cost the most memory or time per
# byte of input (doc/limits.md, "Worst cases"), generated at a given size
# and run once each under /usr/bin/time: prints the family, the size
# parameter, the bytes of the document, the exit status, the peak
# resident memory (KiB) and the seconds.  Never part of make check.
# Usage: worst_cases.sh [FAMILY SIZE]...; $SEGC names the command, and
# $SEGC_ARGS are added to each run (e.g. "--limit max_memory=...").
# Without arguments, every family at a few sizes.
SEGC=${SEGC:-segc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/worst.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# gen FAMILY K: the document of FAMILY at size K on standard output.
gen() {
	awk -v fam="$1" -v k="$2" '
	function head() { print "<model name=\"w\" version=\"1\">" }
	BEGIN {
		head()
		if (fam == "atoms") {
			for (i = 1; i <= k; i++) printf "<resource name=\"r%d\"/>\n", i
			printf "<graph name=\"main\"><step cost=\""
			for (i = 1; i <= k; i++) printf "%sr%d", (i > 1 ? "+" : ""), i
			print "\"/></graph>"
		} else if (fam == "sqrt_lets") {
			for (c = 0; c < 4; c++) {
				printf "<let name=\"l%d_0\" value=\"N\"/>\n", c
				for (i = 1; i <= k; i++)
					printf "<let name=\"l%d_%d\" value=\"sqrt(l%d_%d + 1)\"/>\n", c, i, c, i - 1
			}
			print "<graph name=\"main\">"
			for (c = 0; c < 4; c++) printf "<step cost=\"l%d_%d\"/>\n", c, k
			print "</graph>"
		} else if (fam == "ladder") {
			print "<resource name=\"t\"/><graph name=\"main\">"
			print "<node id=\"s\" cost=\"t\" split=\"and\"/>"
			for (i = 1; i <= k; i++) {
				printf "<node id=\"a%d\" cost=\"t\" split=\"and\" join=\"and\"/>\n", i
				printf "<node id=\"b%d\" cost=\"2*t\" split=\"and\" join=\"and\"/>\n", i
			}
			print "<node id=\"e\" cost=\"t\" join=\"and\"/>"
			print "<arc from=\"s\" to=\"a1\"/><arc from=\"s\" to=\"b1\"/>"
			for (i = 1; i < k; i++)
				printf "<arc from=\"a%d\" to=\"a%d\"/><arc from=\"a%d\" to=\"b%d\"/><arc from=\"b%d\" to=\"a%d\" cost=\"t\"/><arc from=\"b%d\" to=\"b%d\"/>\n", i, i+1, i, i+1, i, i+1, i, i+1
			printf "<arc from=\"a%d\" to=\"e\"/><arc from=\"b%d\" to=\"e\"/>\n", k, k
			print "</graph>"
		} else if (fam == "minus") {
			printf "<graph name=\"main\"><step cost=\"N"
			for (i = 1; i <= k; i++) printf "-N"
			print "\"/></graph>"
		} else if (fam == "calls") {
			print "<resource name=\"t\"/>"
			print "<graph name=\"main\"><call graph=\"g1\"/></graph>"
			for (i = 1; i < k; i++)
				printf "<graph name=\"g%d\"><step cost=\"t\"/><call graph=\"g%d\"/></graph>\n", i, i + 1
			printf "<graph name=\"g%d\"><step cost=\"t\"/></graph>\n", k
		} else if (fam == "lets") {
			print "<let name=\"l0\" value=\"N\"/>"
			for (i = 1; i <= k; i++)
				printf "<let name=\"l%d\" value=\"l%d + 1\"/>\n", i, i - 1
			printf "<graph name=\"main\"><step cost=\"l%d\"/></graph>\n", k
		} else if (fam == "attrs") {
			printf "<graph name=\"main\"><step cost=\"N\""
			for (i = 1; i <= k; i++) printf " x%d=\"\"", i
			print "/></graph>"
		}
		print "</model>"
	}'
}

# run FAMILY K: one line of the table.
run() {
	gen "$1" "$2" >"$tmp/m.xml"
	bytes=$(wc -c <"$tmp/m.xml")
	/usr/bin/time -f '%M %e' -o "$tmp/time" "$SEGC" derive $SEGC_ARGS \
		"$tmp/m.xml" >/dev/null 2>"$tmp/err"
	rc=$?
	printf '%-10s %8s %10s %4s %10s %8s  %s\n' "$1" "$2" "$bytes" "$rc" \
		$(tail -1 "$tmp/time") "$(grep -m1 error "$tmp/err" | cut -c1-60)"
}

printf '%-10s %8s %10s %4s %10s %8s\n' family size bytes exit peak_KiB seconds
if [ $# -eq 0 ]; then
	set -- atoms 2000 atoms 4000 atoms 15000 sqrt_lets 3000 sqrt_lets 9990 \
		minus 200000 minus 2000000 ladder 600 calls 50000 calls 200000 \
		lets 20000 attrs 100000
fi
while [ $# -ge 2 ]; do
	run "$1" "$2"
	shift 2
done
