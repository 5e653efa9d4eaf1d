/* xmllist.c - the comma lists of two attributes of the arc form: the
 * ranges of index="x=1..P, y=1..x" on <node> and the values of
 * at="x+1, ceil(k/2)" on <arc> (FORMAT.md, "Indexed nodes").  Splits the
 * text only; xmlbuild.c parses the pieces as expressions. */
#include <stdlib.h>
#include <string.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "base/util.h"

/* Non-zero for the white space of an attribute value. */
static int space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 'p' without the white space around it. */
static segc_xml_piece trim(const char *text, segc_xml_piece p)
{
	while (p.len && space(text[p.off])) {
		p.off++;
		p.len--;
	}
	while (p.len && space(text[p.off + p.len - 1]))
		p.len--;
	return p;
}

/* Splits 'text' at the commas outside parentheses (see xmlread.h). */
size_t segc_xml_split_list(const char *text, segc_xml_piece **out)
{
	size_t n = 0, cap = 4, i, start = 0;
	long depth = 0;

	*out = segc_xmalloc(cap * sizeof(**out));
	for (i = 0;; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')')
			depth--;
		if (text[i] && (text[i] != ',' || depth > 0))
			continue;
		if (n == cap) {
			cap *= 2;
			*out = segc_xrealloc(*out, segc_xmul_size(cap,
				sizeof(**out)));
		}
		(*out)[n].off = start;
		(*out)[n].len = i - start;
		(*out)[n] = trim(text, (*out)[n]);
		n++;
		if (!text[i])
			break;
		start = i + 1;
	}
	if (n == 1 && !(*out)[0].len)
		n = 0;
	return n;
}

/* Cuts the range 'p' of 'text' into NAME = LOW .. HIGH (see xmlread.h). */
int segc_xml_split_range(const char *text, segc_xml_piece p,
	segc_xml_piece *name, segc_xml_piece *lo, segc_xml_piece *hi)
{
	size_t i, eq = SEGC_NONE_OFF, dots = SEGC_NONE_OFF;
	long depth = 0;

	for (i = p.off; i < p.off + p.len; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')')
			depth--;
		else if (depth == 0 && text[i] == '=' && eq == SEGC_NONE_OFF)
			eq = i;
		else if (depth == 0 && eq != SEGC_NONE_OFF &&
			 dots == SEGC_NONE_OFF && text[i] == '.' &&
			 i + 1 < p.off + p.len && text[i + 1] == '.')
			dots = i;
	}
	if (eq == SEGC_NONE_OFF || dots == SEGC_NONE_OFF)
		return -1;
	name->off = p.off;
	name->len = eq - p.off;
	lo->off = eq + 1;
	lo->len = dots - eq - 1;
	hi->off = dots + 2;
	hi->len = p.off + p.len - dots - 2;
	*name = trim(text, *name);
	*lo = trim(text, *lo);
	*hi = trim(text, *hi);
	return name->len && lo->len && hi->len ? 0 : -1;
}
