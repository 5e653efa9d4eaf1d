/* cli_util.c - the command's own allocation, string buffer and text
 * checks (cli_util.h). */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"

/* The handler of cli_util_guard(), called when an allocation fails. */
static cli_oom_handler oom_handler;

/* Sets the handler of a failed allocation (see cli_util.h). */
void cli_util_guard(cli_oom_handler handler)
{
	oom_handler = handler;
}

/* Calls the handler for a request of 'n' bytes; never returns. */
static void out_of_memory(size_t n)
{
	if (oom_handler)
		oom_handler(n);
	abort();
}

/* 'p', or the out-of-memory exit when it is NULL. */
static void *checked(void *p, size_t n)
{
	if (!p)
		out_of_memory(n);
	return p;
}

/* malloc that never returns NULL. */
void *cli_xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1), n);
}

/* realloc that never returns NULL. */
void *cli_xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1), n);
}

/* calloc that never returns NULL. */
void *cli_xcalloc(size_t n, size_t size)
{
	size_t total = cli_xmul_size(n, size);

	return memset(cli_xmalloc(total), 0, total ? total : 1);
}

/* strdup that never returns NULL. */
char *cli_xstrdup(const char *s)
{
	return cli_xstrndup(s, strlen(s));
}

/* The first 'n' bytes of 's' (at most up to its end), malloc'd. */
char *cli_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = cli_xmalloc(len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* n * size, or the out-of-memory exit on overflow. */
size_t cli_xmul_size(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return n * size;
}

/* Empties 'b'. */
void cli_buf_init(cli_buf *b)
{
	memset(b, 0, sizeof *b);
}

/* Releases the text of 'b' and empties it. */
void cli_buf_free(cli_buf *b)
{
	free(b->data);
	cli_buf_init(b);
}

/* Makes room for 'more' bytes and the final NUL. */
static void reserve(cli_buf *b, size_t more)
{
	size_t need = b->len + more + 1;

	if (need < b->len)
		out_of_memory(SIZE_MAX);
	if (need <= b->cap)
		return;
	b->cap = b->cap ? b->cap : 64;
	while (b->cap < need)
		b->cap = b->cap > SIZE_MAX / 2 ? need : 2 * b->cap;
	b->data = cli_xrealloc(b->data, b->cap);
}

/* Appends 's'. */
void cli_buf_append(cli_buf *b, const char *s)
{
	size_t n = strlen(s);

	reserve(b, n);
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
}

/* Appends the printf-like text of 'fmt'. */
void cli_buf_appendf(cli_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_buf_vappendf(b, fmt, ap);
	va_end(ap);
}

/* Appends the vprintf-like text of 'fmt'. */
void cli_buf_vappendf(cli_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return;
	reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

/* The text of 'b' (borrowed). */
const char *cli_buf_str(const cli_buf *b)
{
	return b->data ? b->data : "";
}

/* The text of 'b', malloc'd; 'b' left empty. */
char *cli_buf_take(cli_buf *b)
{
	char *t = b->data ? b->data : cli_xstrdup("");

	cli_buf_init(b);
	return t;
}

/* A copy of 's' with control characters written \xHH. */
char *cli_printable_dup(const char *s)
{
	const unsigned char *p;
	cli_buf out;

	cli_buf_init(&out);
	cli_buf_append(&out, "");
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			cli_buf_appendf(&out, "\\x%02x", (unsigned)*p);
		else
			cli_buf_appendf(&out, "%c", (char)*p);
	return cli_buf_take(&out);
}

/* Non-zero for a letter or '_'. */
static int name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Non-zero when 's' is [A-Za-z_][A-Za-z0-9_]*. */
int cli_is_name(const char *s)
{
	if (!s || !name_start(*s))
		return 0;
	for (s++; *s; s++)
		if (!name_start(*s) && !(*s >= '0' && *s <= '9'))
			return 0;
	return 1;
}
