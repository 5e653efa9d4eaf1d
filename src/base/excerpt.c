/* excerpt.c - the source line of a diagnostic with a caret under its
 * column, as compilers print it, formatted from the document's text (the
 * command prints it; the library never does). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Characters shown on each side of the column of a long line. */
#define EXCERPT_HALF 100

/* The length of the UTF-8 sequence at 'p' (at most 'n' bytes) when it is
 * valid and encodes a printable character (not a C0 or C1 control), else
 * 0. */
static size_t printable_char(const unsigned char *p, size_t n)
{
	size_t len, i;
	unsigned long cp;

	if (p[0] < 0x80)
		return p[0] >= 0x20 && p[0] != 0x7f;
	len = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 :
		p[0] >= 0xc2 ? 2 : 0;
	if (!len || len > n)
		return 0;
	cp = p[0] & (0x3f >> (len - 1));
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < 0xa0 || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp < 0xe000))
		return 0;
	return len;
}

/* See segc.h. */
char *segc_source_excerpt(const char *text, size_t len, unsigned long line,
	unsigned long col)
{
	const unsigned char *p = (const unsigned char *)text, *end, *eol;
	unsigned long l = 1, c = 1, first;
	segc_strbuf src, caret;

	if (!text || !line || !col)
		return NULL;
	end = p + len;
	while (l < line && p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return NULL;
		p = nl + 1;
		l++;
	}
	if (l < line)
		return NULL;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	if (eol > p && eol[-1] == '\r')
		eol--;
	first = col > EXCERPT_HALF ? col - EXCERPT_HALF : 1;
	segc_strbuf_init(&src);
	segc_strbuf_init(&caret);
	if (first > 1) {
		segc_strbuf_append(&src, "...");
		segc_strbuf_append(&caret, "   ");
	}
	/* Character by character: a tab is kept in both lines so that the
	 * caret lines up; anything that is not printable is shown as '?'. */
	while (p < eol && c < col + EXCERPT_HALF) {
		size_t n = printable_char(p, (size_t)(eol - p));

		if (c >= first) {
			if (*p == '\t')
				segc_strbuf_appendc(&src, '\t');
			else if (n)
				segc_strbuf_appendn(&src, (const char *)p, n);
			else
				segc_strbuf_appendc(&src, '?');
			if (c < col)
				segc_strbuf_appendc(&caret, *p == '\t' ? '\t' :
					' ');
		}
		if (n)
			p += n;
		else    /* a byte that starts no character: one column */
			for (p++; p < eol && (*p & 0xc0) == 0x80; p++)
				;
		c++;
	}
	if (p < eol)
		segc_strbuf_append(&src, "...");
	while (c++ < col)    /* the column is past the end of the line */
		segc_strbuf_appendc(&caret, ' ');
	segc_strbuf_appendc(&caret, '^');
	segc_strbuf_appendc(&src, '\n');
	segc_strbuf_append(&src, segc_strbuf_str(&caret));
	segc_strbuf_appendc(&src, '\n');
	segc_strbuf_free(&caret);
	return segc_strbuf_take(&src);
}

/* See segc.h. */
char *segc_source_excerpt_file(const char *path, unsigned long line,
	unsigned long col)
{
	segc_strbuf sb;
	char buf[4096];
	unsigned long l = 1;
	size_t n, i;
	char *r;
	FILE *f;

	if (!path || !line || !col || !(f = fopen(path, "rb")))
		return NULL;
	/* Only the line itself is kept, and at most 64 KiB of it. */
	segc_strbuf_init(&sb);
	while (l <= line && (n = fread(buf, 1, sizeof buf, f)) > 0)
		for (i = 0; i < n && l <= line; i++) {
			if (l == line && sb.len < 65536)
				segc_strbuf_appendc(&sb, buf[i]);
			l += buf[i] == '\n';
		}
	fclose(f);
	r = l >= line ? segc_source_excerpt(segc_strbuf_str(&sb),
		sb.len, 1, col) : NULL;
	segc_strbuf_free(&sb);
	return r;
}
