/* xmlsource.c - positions in the text of a SEG XML document: the offset
 * the reader recorded for each element, lines and columns from an index
 * of line starts, and the offsets of attributes in a start tag.  Used by
 * the reader, the structural check and the builder alike; it calls none
 * of them. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "base/util.h"

/* The offset recorded for element 'n' (see xmlread.h). */
size_t segc_xml_node_offset(segc_xml_node *n)
{
	return n && n->off ? n->off - 1 : (size_t)-1;
}

/* Fills the line index of 'src' (see xmlread.h). */
void segc_xml_source_index(segc_xml_source *src)
{
	size_t cap = 64, i;
	const char *p, *end = src->buf + src->len;

	src->line_start = segc_xmalloc(cap * sizeof *src->line_start);
	src->line_start[0] = 0;
	src->nlines = 1;
	for (p = src->buf; p < end; p++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			break;
		if (src->nlines == cap) {
			cap *= 2;
			src->line_start = segc_xrealloc(src->line_start,
				segc_xmul_size(cap, sizeof *src->line_start));
		}
		i = (size_t)(p - src->buf) + 1;
		src->line_start[src->nlines++] = i;
	}
}

/* The index of the line holding offset 'off' (binary search), or
 * (size_t)-1. */
static size_t line_index(const segc_xml_source *src, size_t off)
{
	size_t lo = 0, hi = src->nlines;

	if (!src->line_start || off > src->len)
		return (size_t)-1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (src->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The line and column of offset 'off' (see xmlread.h): a binary search
 * in the line index, then the characters of the line are counted (bytes
 * that do not continue a UTF-8 sequence). */
void segc_xml_position(const segc_xml_source *src, size_t off,
	unsigned long *line, unsigned long *col)
{
	segc_xml_source *cache = (segc_xml_source *)src;
	size_t lo = line_index(src, off), i;
	unsigned long c = 1;

	if (lo == (size_t)-1) {
		*line = 0;
		*col = 0;
		return;
	}
	i = src->line_start[lo];
	if (src->col_col && src->col_off >= i && src->col_off <= off) {
		i = src->col_off;
		c = src->col_col;
	}
	for (; i < off; i++)
		c += ((unsigned char)src->buf[i] & 0xc0) != 0x80;
	cache->col_off = off;
	cache->col_col = c;
	*line = (unsigned long)lo + 1;
	*col = c;
}

/* The line of element 'n' (see xmlread.h). */
unsigned long segc_xml_node_line(const segc_xml_source *src, segc_xml_node *n)
{
	size_t off = segc_xml_node_offset(n), i;

	if (off == (size_t)-1 || !src ||
	    (i = line_index(src, off)) == (size_t)-1)
		return 0;
	return (unsigned long)i + 1;
}

/* Non-zero when 'c' is XML white space. */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Looks for attribute 'qname' among the attributes of a start tag from
 * offset 'off' of 'src' to the end of the tag: 0 with the offsets of its
 * name and value, and in '*next' the offset after it; -1 when absent. */
static int scan_attrs(const segc_xml_source *src, size_t off,
	const char *qname, size_t *name_off, size_t *value_off, size_t *next)
{
	const char *b = src->buf;
	size_t end = src->len, len = strlen(qname), a;

	for (;;) {
		char quote;

		while (off < end && is_space(b[off]))
			off++;
		if (off >= end || b[off] == '>' || b[off] == '/')
			return -1;
		a = off;
		while (off < end && !is_space(b[off]) && b[off] != '=')
			off++;
		while (off < end && b[off] != '"' && b[off] != '\'')
			off++;
		if (off >= end)
			return -1;
		quote = b[off++];
		*value_off = off;
		while (off < end && b[off] != quote)
			off++;
		off++;
		if (*value_off - a >= len && !strncmp(b + a, qname, len) &&
		    (is_space(b[a + len]) || b[a + len] == '=')) {
			*name_off = a;
			*next = off;
			return 0;
		}
	}
}

/* The attribute offsets of 'qname' in the start tag of 'n' (see
 * xmlread.h): the tag is scanned from its '<', attribute by attribute. */
int segc_xml_attr_offset(const segc_xml_source *src, segc_xml_node *n,
	const char *qname, size_t *name_off, size_t *value_off)
{
	segc_xml_source *cache = (segc_xml_source *)src;
	size_t off = segc_xml_node_offset(n), first, next;
	const char *b = src ? src->buf : NULL;
	int found;

	if (off == (size_t)-1 || !b)
		return -1;
	first = off + 1;
	while (first < src->len && !is_space(b[first]) && b[first] != '>' &&
	       b[first] != '/')
		first++;
	found = src->attr_next && src->attr_elem == off &&
		!scan_attrs(src, src->attr_next, qname, name_off, value_off,
			&next);
	if (!found && scan_attrs(src, first, qname, name_off, value_off,
			&next))
		return -1;
	cache->attr_elem = off;
	cache->attr_next = next;
	return 0;
}

/* The number of bytes in UTF-8 of code point 'cp'. */
static size_t utf8_length(unsigned long cp)
{
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* The offset just after the '>' of the start tag that begins at 'off'
 * (quotes of attribute values skipped), or (size_t)-1. */
static size_t after_start_tag(const segc_xml_source *src, size_t off)
{
	const char *b = src->buf;
	char quote = 0;

	for (; off < src->len; off++) {
		if (quote) {
			if (b[off] == quote)
				quote = 0;
		} else if (b[off] == '"' || b[off] == '\'') {
			quote = b[off];
		} else if (b[off] == '>') {
			return off + 1;
		}
	}
	return (size_t)-1;
}

/* Walks the raw text of 'src' from 'raw' (up to 'stop', a closing quote,
 * or '<' for text) until 'want' bytes of the value the parser gives have
 * passed: a reference (&lt; &#955; ...) gives one character, a CR LF one
 * byte.  Returns the raw offset reached. */
static size_t walk_value(const segc_xml_source *src, size_t raw, char stop,
	size_t want)
{
	const char *b = src->buf;
	size_t got = 0;

	while (got < want && raw < src->len && b[raw] != stop) {
		if (b[raw] == '&') {
			const char *semi = memchr(b + raw, ';', src->len - raw);
			size_t n = 1;

			if (!semi)
				break;
			if (b[raw + 1] == '#')
				n = utf8_length(b[raw + 2] == 'x' ?
					strtoul(b + raw + 3, NULL, 16) :
					strtoul(b + raw + 2, NULL, 10));
			got += n;
			raw = (size_t)(semi - b) + 1;
		} else if (b[raw] == '\r' && raw + 1 < src->len &&
			   b[raw + 1] == '\n') {
			got++;
			raw += 2;
		} else {
			got++;
			raw++;
		}
	}
	return raw;
}

/* The position of a byte of a value of 'n' (see xmlread.h). */
int segc_xml_value_position(const segc_xml_source *src, segc_xml_node *n,
	const char *qname, size_t off, unsigned long *line, unsigned long *col)
{
	size_t name_off, raw;
	char stop;

	*line = 0;
	*col = 0;
	if (!src || !src->buf)
		return -1;
	if (qname) {
		if (segc_xml_attr_offset(src, n, qname, &name_off, &raw))
			return -1;
		stop = src->buf[raw - 1];
	} else {
		raw = segc_xml_node_offset(n);
		if (raw == (size_t)-1 ||
		    (raw = after_start_tag(src, raw)) == (size_t)-1)
			return -1;
		while (raw < src->len && is_space(src->buf[raw]))
			raw++;
		stop = '<';
	}
	raw = walk_value(src, raw, stop, off);
	segc_xml_position(src, raw, line, col);
	return *line ? 0 : -1;
}
