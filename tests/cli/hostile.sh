#!/bin/sh
# hostile.sh - names, descriptions and 'latex' attributes that try to
# inject code into the C and the LaTeX that segc writes: the description
# stays inside comments and escaped text, C keywords and <math.h> names
# are renamed, unsafe 'latex' attributes are refused.
. "$top_srcdir/tests/cli/lib.sh"
model=$top_srcdir/tests/cli/hostile/desc.xml

# The emitted C.
"$SEGC" emit -q --main --prefix double --keep fmax --keep t1 --keep c0 \
	--keep ceil -o "$tmp/h" "$model" 2>"$tmp/err"
ok $? "emit a model with hostile names and description"
[ "$(grep -c '^#include' "$tmp/h.c")" -eq 5 ] &&
	[ "$(grep '^#include' "$tmp/h.h")" = "#include <stddef.h>" ]
ok $? "the description adds no line of code"
# $CC may have blanks ("ccache gcc"): the program is named after its last word.
for cc in "$CC" ${CLANG:+"$CLANG"}; do
	$cc -std=c99 -Wall -Wextra -Werror -pedantic -o "$tmp/h-${cc##* }" "$tmp/h.c" \
		-lm 2>"$tmp/cc.err"
	st=$?
	ok $st "the hostile predictor compiles with $cc"
	[ $st -eq 0 ] || diag "$(head -20 "$tmp/cc.err")"
done
grep -q 'double double__total(double N, double P, double fmax_, double t1, double c0, double ceil_)' "$tmp/h.h"
ok $? "keywords and <math.h> names are renamed"
if [ -x "$tmp/h-${CC##* }" ]; then
	"$tmp/h-${CC##* }" N=8 P=2 fmax_=1 t1=2 c0=3 ceil_=4 > "$tmp/out" &&
		[ "$(sed -n 2p "$tmp/out" | cut -f7)" = 46 ]
	ok $? "the hostile predictor computes 8/2*(1*3 + 2*4) + (2 - 1)*2 = 46"
fi

# The LaTeX document.
"$SEGC" latex --standalone "$model" > "$tmp/h.tex" 2>"$tmp/err"
ok $? "latex --standalone of the hostile model"
! grep -q '\\input{/etc' "$tmp/h.tex" && ! grep -q '\\immediate' "$tmp/h.tex" &&
	! grep -q '\^\^' "$tmp/h.tex"
ok $? "the description's commands are escaped"
if [ -n "${PDFLATEX:-}" ]; then
	(cd "$tmp" && "$PDFLATEX" -interaction=nonstopmode -halt-on-error \
		-no-shell-escape h.tex > h.out 2>&1)
	ok $? "pdflatex compiles the hostile document"
	! grep -q '/etc/passwd' "$tmp/h.log" && [ ! -e "$tmp/pwned" ]
	ok $? "the document reads and writes no other file"
else
	skip "pdflatex hostile" "no pdflatex"
	skip "pdflatex hostile reads nothing" "no pdflatex"
fi

# Unsafe 'latex' attributes, each refused.
n=0
while IFS= read -r attack; do
	n=$((n + 1))
	esc=$(printf '%s' "$attack" | sed 's/[\\|&]/\\&/g')
	sed "s|@ATTACK@|$esc|" > "$tmp/a$n.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<model name="attack" version="1">
  <param name="x" latex="@ATTACK@"/>
  <graph name="main"><step cost="x*N"/></graph>
</model>
XML
	"$SEGC" latex "$tmp/a$n.xml" > "$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "attribute 'latex' of parameter 'x'" "$tmp/err" &&
		[ ! -s "$tmp/out" ]
	ok $? "refused latex attribute: $(printf '%s' "$attack" | tr '\\' '/')"
	# validate refuses it too, with the same message.
	"$SEGC" validate "$tmp/a$n.xml" > "$tmp/out2" 2>"$tmp/err2"
	[ $? -eq 2 ] && cmp -s "$tmp/err" "$tmp/err2" && [ ! -s "$tmp/out2" ]
	ok $? "validate refuses it with the same message"
done <<'EOF2'
\input{/etc/passwd}
\immediate\write18{ls}
^^5cinput{/etc/passwd}
\def\x{y}
\csname input\endcsname
x}\end{document}
\catcode`\^^M=13
$x$
a%b
\openout
\include{x}
\read
x^
{x
\begin{verbatim}
&amp;
#1
EOF2
"$SEGC" latex "$top_srcdir/xml/find_max.xml" > /dev/null
ok $? "safe latex attributes are accepted"

# A machine that an <expect> names must be a regular file: a FIFO would
# make check wait for ever, a device be read.  Each is refused at once
# (timeout 20 s, where there is a timeout command), exit 2.
mkfifo "$tmp/fifo" 2>/dev/null || : >"$tmp/fifo"
mkdir "$tmp/dir"
for m in fifo dir; do
	cat >"$tmp/named.xml" <<EOF3
<model name="named" version="1">
  <graph name="main"><step cost="N"/></graph>
  <expect machine="$m">N</expect>
</model>
EOF3
	if command -v timeout >/dev/null 2>&1; then
		timeout 20 "$SEGC" check "$tmp/named.xml" >"$tmp/out" 2>"$tmp/err"
	else
		"$SEGC" check "$tmp/named.xml" >"$tmp/out" 2>"$tmp/err"
	fi
	[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
		grep -q "named.xml:3:3: error: the machine '$m' of <expect> is not a regular file" "$tmp/err"
	st=$?
	case $m in
	fifo) what="a FIFO" ;;
	*) what="a directory" ;;
	esac
	ok $st "an <expect> naming $what as its machine is refused"
done

# A machine that an <expect> names lies inside the model's directory:
# an absolute path, a '..' or a symbolic link out of it is refused by
# validate and by check, at the <expect>, before any file is opened.
echo '<machine name="outside" version="1"/>' >"$tmp/outside.xml"
mkdir "$tmp/models" "$tmp/models/m"
ln -s ../outside.xml "$tmp/models/link.xml"
ln -s .. "$tmp/models/up"
cp "$tmp/outside.xml" "$tmp/models/m/inside.xml"
ln -s m/inside.xml "$tmp/models/link_in.xml"
for m in /dev/zero /etc/passwd "$tmp/outside.xml" ../outside.xml \
	m/../../outside.xml link.xml up/outside.xml ""; do
	case $m in
	"") why="is empty" ;;
	/*) why="is an absolute path" ;;
	*..*) why="goes up a directory ('..')" ;;
	*) why="leads out of the model's directory (through a symbolic link)" ;;
	esac
	cat >"$tmp/models/named.xml" <<EOF3
<model name="named" version="1">
  <graph name="main"><step cost="N"/></graph>
  <expect machine="$m">N</expect>
</model>
EOF3
	echo "named.xml:3:3: error: the machine '$m' of <expect> $why; it must be named by a relative path inside the model's directory" >"$tmp/want"
	for cmd in validate check; do
		code=0
		(cd "$tmp/models" && "$SEGC" $cmd named.xml) >"$tmp/out" \
			2>"$tmp/err" || code=$?
		[ $code -eq 2 ] && [ ! -s "$tmp/out" ] &&
			cmp -s "$tmp/want" "$tmp/err"
		ok $? "$cmd refuses the machine '$m' of an <expect>"
		[ $code -eq 2 ] || diag "got exit code $code"
	done
done
# Inside the directory, also through a symbolic link, it is read.
for m in m/inside.xml link_in.xml ./m//inside.xml; do
	cat >"$tmp/models/named.xml" <<EOF3
<model name="named" version="1">
  <graph name="main"><step cost="N"/></graph>
  <expect machine="$m">N</expect>
</model>
EOF3
	(cd "$tmp/models" && "$SEGC" validate named.xml &&
		"$SEGC" check -q named.xml) >"$tmp/out" 2>"$tmp/err"
	ok $? "the machine '$m' inside the model's directory is read"
done
# A machine that does not exist is said so at the <expect>.
cat >"$tmp/models/named.xml" <<EOF3
<model name="named" version="1">
  <graph name="main"><step cost="N"/></graph>
  <expect machine="missing.xml">N</expect>
</model>
EOF3
(cd "$tmp/models" && "$SEGC" check named.xml) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -qx "named.xml:3:3: error: the machine 'missing.xml' of <expect> cannot be opened: No such file or directory" "$tmp/err"
ok $? "a missing machine is said so at the <expect>"
done_testing
