#!/bin/sh
# latex_width.sh - 'segc latex --width W': the widths it refuses (exit 2,
# a usage error, nothing on standard output), a formula that fits staying
# on one line, a long one printed as an aligned environment whose lines
# fit W points once typeset (pdflatex, skipped without it).
. "$top_srcdir/tests/cli/lib.sh"
x=$top_srcdir/xml

for w in 50 99 10001 abc 300px 3e2 0x1F4 .5 300. -300 ''; do
	"$SEGC" latex --width "$w" "$x/find_max.xml" > "$tmp/out" 2> "$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/out" ] &&
		grep -q "^segc: latex: bad width '$w'" "$tmp/err"
	ok $? "--width '$w' is refused with exit 2 (got $st)"
done
for w in 100 300 300pt 300.5 300.5pt 10000; do
	"$SEGC" latex --width "$w" "$x/find_max.xml" > "$tmp/out" 2> "$tmp/err"
	ok $? "--width $w is accepted"
done

# find_max fits on one line at 345 points: the same text as without
# --width.
"$SEGC" latex "$x/find_max.xml" > "$tmp/one"
"$SEGC" latex --width 345 "$x/find_max.xml" > "$tmp/w"
cmp -s "$tmp/one" "$tmp/w" && [ "$(wc -l < "$tmp/w")" -eq 1 ]
ok $? "a formula that fits stays on one line"

# The canonical blocked LU formula at 200 points: an aligned environment,
# every line but the last ending in \\, every line but the first starting
# with & and a quad, \left and \right balanced on every line.
m=$x/examples/blocked_lu.xml
"$SEGC" latex --form canonical --width 200 "$m" > "$tmp/al"
ok $? "latex --width 200 of blocked_lu"
n=$(wc -l < "$tmp/al")
[ "$(head -1 "$tmp/al")" = '\begin{aligned}' ] &&
	[ "$(tail -1 "$tmp/al")" = '\end{aligned}' ] && [ "$n" -ge 5 ]
ok $? "an aligned environment of $((n - 2)) lines"
sed '1d;$d' "$tmp/al" > "$tmp/body"
awk -v n=$((n - 2)) '
	NR < n && !/\\\\$/ { bad = 1 }
	NR == n && /\\\\$/ { bad = 1 }
	NR == 1 && !/^&/ { bad = 1 }
	NR > 1 && !/^&\\q?quad / { bad = 1 }
	{ l = gsub(/\\left/, "&"); r = gsub(/\\right/, "&"); if (l != r) bad = 1 }
	END { exit bad }' "$tmp/body"
ok $? "lines end in \\\\\\\\, start with & and a quad, balance \\left, \\right"
"$SEGC" latex --form canonical --width 200 "$m" | cmp -s - "$tmp/al"
ok $? "the same lines twice"

if [ -z "${PDFLATEX:-}" ]; then
	skip "the aligned lines fit 200pt" "no pdflatex"
else
	mkdir "$tmp/doc"
	{
		printf '%s\n' '\documentclass{article}' '\usepackage{amsmath}' \
			'\setlength{\textwidth}{200pt}' '\begin{document}' '\['
		cat "$tmp/al"
		printf '%s\n' '\]' '\end{document}'
	} > "$tmp/doc/al.tex"
	(cd "$tmp/doc" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape al.tex > al.out 2>&1) &&
		! grep -q 'Overfull \\hbox' "$tmp/doc/al.log"
	ok $? "the aligned lines fit 200pt"
fi
done_testing
