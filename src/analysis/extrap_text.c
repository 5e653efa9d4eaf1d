/* extrap_text.c - Extra-P's text experiment format (doc/fit.md): lines
 * PARAMETER names, POINTS (coordinates), REGION call path, METRIC name
 * and DATA values (the repetitions at one point, one DATA line per point
 * in the order of POINTS after each REGION or METRIC), '#' comments. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/extrap.h"
#include "base/util.h"

/* The state of one reading: the line being read, the current call path
 * and metric, the block of values open and how many DATA lines it has. */
typedef struct text_reader {
	extrap_exp *x;
	const char *s;
	size_t start, end;       /* the line, without its newline */
	unsigned long line;
	const char *region, *metric;
	size_t region_n, metric_n;
	size_t block, ndata;
	int open;
	extrap_place block_at;
} text_reader;

/* The place of byte 'at' of the current line. */
static extrap_place place(const text_reader *T, size_t at)
{
	extrap_place p;

	p.line = T->line;
	p.col = (unsigned long)(at - T->start) + 1;
	return p;
}

/* Records an error at byte 'at' of the current line; returns -1. */
static int text_error(text_reader *T, size_t at, const char *msg)
{
	extrap_place p = place(T, at);

	segc_error(T->x->ctx, SEGC_ERR_INPUT, T->x->file, p.line, p.col, "%s",
		msg);
	return -1;
}

/* Non-zero for a space or tab. */
static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The first byte at or after 'i' on the line that is not blank. */
static size_t skip_blank(const text_reader *T, size_t i)
{
	while (i < T->end && blank(T->s[i]))
		i++;
	return i;
}

/* The end of the word (up to a blank or parenthesis) at 'i'. */
static size_t word_end(const text_reader *T, size_t i)
{
	while (i < T->end && !blank(T->s[i]) && T->s[i] != '(' &&
	    T->s[i] != ')')
		i++;
	return i;
}

/* Closes the open block: it must have one DATA line per point. */
static int close_block(text_reader *T)
{
	extrap_exp *x = T->x;

	if (!T->open)
		return 0;
	T->open = 0;
	if (T->ndata == x->npoints)
		return 0;
	segc_error(x->ctx, SEGC_ERR_INPUT, x->file, T->block_at.line,
		T->block_at.col, "%lu DATA line%s for the %lu points of POINTS "
		"(one per point, in their order)", (unsigned long)T->ndata,
		T->ndata == 1 ? "" : "s", (unsigned long)x->npoints);
	return -1;
}

/* PARAMETER name...: the names, before any POINTS. */
static int parameters(text_reader *T, size_t i)
{
	size_t e;
	int n = 0;

	if (T->x->npoints)
		return text_error(T, T->start, "PARAMETER after POINTS: name "
			"every parameter first");
	for (i = skip_blank(T, i); i < T->end; i = skip_blank(T, e), n++) {
		e = i;
		while (e < T->end && !blank(T->s[e]))
			e++;
		if (extrap_add_param(T->x, T->s + i, e - i, place(T, i)))
			return -1;
	}
	return n ? 0 : text_error(T, T->start, "PARAMETER names no parameter");
}

/* Reads the number at 'i' into coordinate 'k' of 'point'; its end. */
static size_t coordinate(text_reader *T, size_t i, size_t point, size_t k)
{
	size_t e = word_end(T, i);

	if (e == i)
		return text_error(T, i, "expected a coordinate (a number)"), 0;
	if (extrap_number(T->x, extrap_coord(T->x, point, k), T->s + i, e - i,
	    place(T, i), "coordinate"))
		return 0;
	return e;
}

/* POINTS: points of one coordinate each, or "(c1 c2 ...)" with one
 * coordinate per parameter (a coordinate may stand in its own
 * parentheses). */
static int points(text_reader *T, size_t i)
{
	extrap_exp *x = T->x;
	size_t n = 0, point, k;
	int depth;

	if (!x->nparams)
		return text_error(T, T->start, "POINTS before PARAMETER");
	for (i = skip_blank(T, i); i < T->end; i = skip_blank(T, i), n++) {
		if (T->s[i] != '(') {
			if (x->nparams != 1)
				return text_error(T, i, "expected '(' and a "
					"coordinate for each parameter");
			point = extrap_add_point(x, place(T, i));
			if (!(i = coordinate(T, i, point, 0)))
				return -1;
			continue;
		}
		point = extrap_add_point(x, place(T, i));
		for (depth = 0, k = 0;; ) {
			i = skip_blank(T, i);
			if (i < T->end && T->s[i] == '(') {
				if (++depth > 2)
					return text_error(T, i, "parentheses nested "
						"deeper than a point of coordinates");
				i++;
			} else if (i < T->end && T->s[i] == ')') {
				i++;
				if (--depth == 0)
					break;
			} else if (i == T->end) {
				return text_error(T, i, "a point without its ')'");
			} else if (k == x->nparams) {
				return text_error(T, i, "more coordinates than "
					"parameters in the point");
			} else if (!(i = coordinate(T, i, point, k++))) {
				return -1;
			}
		}
		if (k != x->nparams)
			return text_error(T, i - 1, "fewer coordinates than "
				"parameters in the point");
	}
	return n ? 0 : text_error(T, T->start, "POINTS gives no point");
}

/* REGION path or METRIC name: the rest of the line, trimmed. */
static int region_or_metric(text_reader *T, size_t i, int metric)
{
	size_t e = T->end;

	i = skip_blank(T, i);
	while (e > i && blank(T->s[e - 1]))
		e--;
	if (e == i)
		return text_error(T, T->start, metric ? "METRIC names no metric"
			: "REGION names no call path");
	if (close_block(T))
		return -1;
	if (metric) {
		T->metric = T->s + i;
		T->metric_n = e - i;
	} else {
		T->region = T->s + i;
		T->region_n = e - i;
	}
	return 0;
}

/* A malloc'd copy of s[0..n) as a string; NULL when 's' is NULL. */
static char *dup_text(const char *s, size_t n)
{
	char *t;

	if (!s)
		return NULL;
	t = segc_xmalloc(n + 1);
	memcpy(t, s, n);
	t[n] = '\0';
	return t;
}

/* DATA values: the repetitions at the next point of the block. */
static int data(text_reader *T, size_t i)
{
	extrap_exp *x = T->x;
	size_t e;
	int n = 0;

	if (!T->region)
		return text_error(T, T->start, "DATA before any REGION");
	if (!T->open) {
		char *r = dup_text(T->region, T->region_n);
		char *m = dup_text(T->metric, T->metric_n);

		T->block = extrap_add_block(x, r, m, place(T, T->start));
		free(r);
		free(m);
		T->block_at = place(T, T->start);
		T->open = 1;
		T->ndata = 0;
	}
	if (T->ndata == x->npoints)
		return text_error(T, T->start, "more DATA lines than points");
	for (i = skip_blank(T, i); i < T->end; i = skip_blank(T, e), n++) {
		e = i;
		while (e < T->end && !blank(T->s[e]))
			e++;
		if (extrap_number(x, extrap_add_value(x, T->block, T->ndata,
		    place(T, i)), T->s + i, e - i, place(T, i), "value"))
			return -1;
	}
	T->ndata++;
	return n ? 0 : text_error(T, T->start, "DATA gives no value");
}

/* Reads the current line; -1 after an error. */
static int text_line(text_reader *T)
{
	static const char *const words[] = { "PARAMETER", "POINTS", "REGION",
		"METRIC", "DATA" };
	size_t i = skip_blank(T, T->start), e, k;

	if (memchr(T->s + T->start, '\0', T->end - T->start))
		return text_error(T, T->start, "a NUL byte in the line");
	if (i == T->end || T->s[i] == '#')
		return 0;
	for (e = i; e < T->end && !blank(T->s[e]); e++)
		;
	for (k = 0; k < 5; k++)
		if (e - i == strlen(words[k]) && !memcmp(T->s + i, words[k], e - i))
			break;
	switch (k) {
	case 0: return parameters(T, e);
	case 1: return points(T, e);
	case 2: return region_or_metric(T, e, 0);
	case 3: return region_or_metric(T, e, 1);
	case 4: return data(T, e);
	}
	return text_error(T, i, "expected PARAMETER, POINTS, REGION, METRIC "
		"or DATA at the start of the line");
}

/* Reads Extra-P's text format (see extrap.h). */
int extrap_read_text(extrap_exp *x, const char *text, size_t len)
{
	text_reader T;
	size_t pos = 0;
	const char *nl;

	memset(&T, 0, sizeof T);
	T.x = x;
	T.s = text;
	for (T.line = 1; pos < len; T.line++) {
		nl = memchr(text + pos, '\n', len - pos);
		T.start = pos;
		T.end = nl ? (size_t)(nl - text) : len;
		pos = T.end + 1;
		if (T.end > T.start && text[T.end - 1] == '\r')
			T.end--;
		if (text_line(&T))
			return -1;
	}
	if (close_block(&T))
		return -1;
	if (!x->nvalues) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, 0, 0, "no DATA line: "
			"the file holds no measurement");
		return -1;
	}
	return 0;
}
