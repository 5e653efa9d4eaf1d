#!/bin/sh
# polyfields.sh - the polynomials (src/algebra/poly/) are read and built
# through the functions of poly.h only (doc/algebra.md): no file outside
# that folder names a field of segc_poly, whose names all end in '_', nor
# includes the folder's private headers.  So the storage of a polynomial
# can change behind poly.h without a change elsewhere.
# Prints TAP: one test that the fields are so named, one per C file
# outside the folder, then three that show the check can fail.
#
# Usage: polyfields.sh [SRCDIR]   (default: $top_srcdir, else .)

srcdir=${1:-${top_srcdir:-.}}
header=$srcdir/src/algebra/poly/poly.h

# The field names of struct segc_poly, one a line.
fields=$(sed -n '/^typedef struct segc_poly {/,/^} segc_poly;/p' "$header" |
	sed -n 's/^[[:space:]][^/]*[[:space:]*]\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p')
alt=$(printf '%s\n' "$fields" | paste -sd'|' -)

# The lines of standard input that name a field of segc_poly or include
# a private header of src/algebra/poly/.
offending() {
	grep -nE "(->|\\.)($alt)([^A-Za-z0-9_]|\$)|#[[:space:]]*include[[:space:]]*\"algebra/poly/(poly_private|polyflint)\\.h\""
}

files=$(cd "$srcdir" && find src tests python -name '.*' -prune -o \
	\( -name '*.[ch]' -print \) 2>/dev/null | LC_ALL=C sort |
	grep -v '^src/algebra/poly/')
n=$(printf '%s\n' "$files" | grep -c .)
echo "1..$((n + 4))"
i=1
if test -n "$fields" && ! printf '%s\n' "$fields" | grep -qv '_$'; then
	echo "ok $i - the fields of segc_poly end in '_':" $fields
else
	echo "not ok $i - fields of segc_poly not ending in '_':" \
		"$(printf '%s\n' "$fields" | grep -v '_$' | tr '\n' ' ')"
fi
for f in $files; do
	i=$((i + 1))
	bad=$(offending < "$srcdir/$f" | head -3 | tr '\n\t' '  ')
	if test -n "$bad"; then
		echo "not ok $i - $f reads a polynomial's storage: $bad"
	else
		echo "ok $i - $f"
	fi
done
# The check must be able to fail: a field read, a private header, and
# (not refused) a read through poly.h.
i=$((i + 1))
if printf '\tc = p->coefs_[i];\n' | offending >/dev/null; then
	echo "ok $i - p->coefs_[i] would be refused"
else
	echo "not ok $i - p->coefs_[i] is not refused"
fi
i=$((i + 1))
if printf '#include "algebra/poly/poly_private.h"\n' |
	offending >/dev/null; then
	echo "ok $i - an include of poly_private.h would be refused"
else
	echo "not ok $i - an include of poly_private.h is not refused"
fi
i=$((i + 1))
if printf '\tc = segc_poly_coeff(p, i) + q.len;\n' | offending >/dev/null
then
	echo "not ok $i - a read through poly.h is refused"
else
	echo "ok $i - a read through poly.h (and another struct's len) passes"
fi
