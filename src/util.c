/* util.c - allocation wrappers, the string buffer and other small helpers
 * used throughout libsegc. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Returns 'p', or aborts when an allocation failed ('p' NULL, 'n' > 0). */
static void *check_alloc(void *p, size_t n)
{
	if (!p && n)
		abort();
	return p;
}

/* Allocates 'n' bytes (at least one); aborts when out of memory. */
void *segc_xmalloc(size_t n)
{
	return check_alloc(malloc(n ? n : 1), 1);
}

/* Allocates 'n' zeroed elements of 'size' bytes; aborts when out of memory. */
void *segc_xcalloc(size_t n, size_t size)
{
	if (!n || !size)
		n = size = 1;
	return check_alloc(calloc(n, size), 1);
}

/* Resizes 'p' to 'n' bytes (at least one); aborts when out of memory. */
void *segc_xrealloc(void *p, size_t n)
{
	return check_alloc(realloc(p, n ? n : 1), 1);
}

/* A malloc'd copy of 's'. */
char *segc_xstrdup(const char *s)
{
	return segc_xstrndup(s, strlen(s));
}

/* A malloc'd copy of the first 'n' characters of 's', NUL-terminated. */
char *segc_xstrndup(const char *s, size_t n)
{
	char *d = segc_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* 'n' * 'size'; aborts on overflow (a request no allocator could meet). */
size_t segc_xmul_size(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		abort();
	return n * size;
}

/* Makes 'sb' an empty buffer. */
void segc_strbuf_init(segc_strbuf *sb)
{
	sb->data = NULL;
	sb->len = 0;
	sb->cap = 0;
}

/* Releases the memory of 'sb' and leaves it empty. */
void segc_strbuf_free(segc_strbuf *sb)
{
	free(sb->data);
	segc_strbuf_init(sb);
}

/* Empties 'sb' but keeps its memory. */
void segc_strbuf_reset(segc_strbuf *sb)
{
	sb->len = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

/* Makes room for 'extra' more characters and the NUL. */
static void strbuf_reserve(segc_strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	size_t cap;

	if (need < extra)
		abort();
	if (need <= sb->cap)
		return;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : 2 * cap;
	sb->data = segc_xrealloc(sb->data, cap);
	sb->cap = cap;
}

/* Appends the first 'n' characters of 's'. */
void segc_strbuf_appendn(segc_strbuf *sb, const char *s, size_t n)
{
	strbuf_reserve(sb, n);
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

/* Appends the string 's'. */
void segc_strbuf_append(segc_strbuf *sb, const char *s)
{
	segc_strbuf_appendn(sb, s, strlen(s));
}

/* Appends the character 'c'. */
void segc_strbuf_appendc(segc_strbuf *sb, char c)
{
	segc_strbuf_appendn(sb, &c, 1);
}

/* Appends the printf-style formatting of 'fmt' with 'ap' (nothing for a
 * NULL 'fmt'). */
void segc_strbuf_vappendf(segc_strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (!fmt)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	strbuf_reserve(sb, (size_t)n);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

/* Appends the printf-style formatting of 'fmt' and the arguments. */
void segc_strbuf_appendf(segc_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	segc_strbuf_vappendf(sb, fmt, ap);
	va_end(ap);
}

/* Appends the decimal digits of 'z' (with a leading '-' if negative). */
void segc_strbuf_append_mpz(segc_strbuf *sb, mpz_srcptr z)
{
	size_t n = mpz_sizeinbase(z, 10) + 2;

	strbuf_reserve(sb, n);
	mpz_get_str(sb->data + sb->len, 10, z);
	sb->len += strlen(sb->data + sb->len);
}

/* Appends 'q' as "p" or "p/q". */
void segc_strbuf_append_mpq(segc_strbuf *sb, mpq_srcptr q)
{
	segc_strbuf_append_mpz(sb, mpq_numref(q));
	if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
		segc_strbuf_appendc(sb, '/');
		segc_strbuf_append_mpz(sb, mpq_denref(q));
	}
}

/* Gives the contents to the caller and leaves 'sb' empty. */
char *segc_strbuf_take(segc_strbuf *sb)
{
	char *s = sb->data ? sb->data : segc_xstrdup("");

	segc_strbuf_init(sb);
	return s;
}

/* The contents, borrowed. */
const char *segc_strbuf_str(const segc_strbuf *sb)
{
	return sb->data ? sb->data : "";
}

/* Non-zero for an ASCII letter or underscore. */
static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Non-zero when 's' is [A-Za-z_][A-Za-z0-9_]*. */
int segc_name_is_identifier(const char *s)
{
	if (!s || !is_ident_start(*s))
		return 0;
	for (s++; *s; s++)
		if (!is_ident_start(*s) && !(*s >= '0' && *s <= '9'))
			return 0;
	return 1;
}

/* The default limits: generous for any real model, small enough that a
 * hostile input cannot exhaust memory or time. */
void segc_limits_init(segc_limits *limits)
{
	limits->max_file_bytes = 64UL * 1024 * 1024;
	limits->max_depth = 20000;
	limits->max_nodes = 4000000;
	limits->max_terms = 2000000;
	limits->max_literal_digits = 10000;
	limits->max_coeff_bits = 1000000;
	limits->max_exponent = 100000;
	limits->max_sum_degree = 200;
	limits->max_markov_states = 20000;
	limits->max_errors = 50;
	limits->max_mva_p = 1024;
	limits->max_output_nodes = 20000000;
	limits->max_work = 4000000000UL;
	limits->max_eval_terms = 10000000;
}

/* A copy of 's' made one line of printable text: each control byte
 * (below 0x20, and DEL) becomes \xHH, so that text quoted from the input
 * cannot split a line or send escape sequences to a terminal. */
char *segc_printable_dup(const char *s)
{
	const unsigned char *p;
	segc_strbuf out;

	segc_strbuf_init(&out);
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			segc_strbuf_appendf(&out, "\\x%02x", (unsigned)*p);
		else
			segc_strbuf_appendc(&out, (char)*p);
	return segc_strbuf_take(&out);
}
