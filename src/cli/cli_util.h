/* cli_util.h - the command's own small helpers: allocation that never
 * returns NULL (running out of memory ends the run with exit 3, as the
 * library's allocations do), a growing string buffer, and text checks.
 * The command uses only the public interface of the library, so it keeps
 * these rather than borrowing the library's private ones. */
#ifndef SEGC_CLI_UTIL_H
#define SEGC_CLI_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/* What a failed allocation calls: it must not return. */
typedef void (*cli_oom_handler)(size_t request);
/* Sets the handler that the allocations below call when they fail, as
 * segc_memory_guard() does for the library's (main.c gives both
 * cli_out_of_memory); without one, a failure aborts. */
void cli_util_guard(cli_oom_handler handler);

/* malloc, calloc, realloc, strdup and strndup that never return NULL. */
void *cli_xmalloc(size_t n);
void *cli_xcalloc(size_t n, size_t size);
void *cli_xrealloc(void *p, size_t n);
char *cli_xstrdup(const char *s);
char *cli_xstrndup(const char *s, size_t n);
/* n * size, or the out-of-memory exit when it overflows. */
size_t cli_xmul_size(size_t n, size_t size);

/* A growing string; all zero is an empty one. */
typedef struct cli_buf {
	char *data;
	size_t len, cap;
} cli_buf;

/* Empties 'b' (all zero). */
void cli_buf_init(cli_buf *b);
/* Releases the text of 'b' and empties it. */
void cli_buf_free(cli_buf *b);
/* Appends 's', or the printf-like text of 'fmt'. */
void cli_buf_append(cli_buf *b, const char *s);
void cli_buf_appendf(cli_buf *b, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
void cli_buf_vappendf(cli_buf *b, const char *fmt, va_list ap)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 0)))
#endif
	;
/* The text of 'b' (borrowed; "" when empty). */
const char *cli_buf_str(const cli_buf *b);
/* The text of 'b', malloc'd, leaving 'b' empty. */
char *cli_buf_take(cli_buf *b);

/* A copy of 's' with every control character (below 0x20, and DEL)
 * written \xHH, so that text quoted from the input cannot split a line or
 * send escape sequences to a terminal (malloc'd). */
char *cli_printable_dup(const char *s);
/* Non-zero when 's' is a name: [A-Za-z_][A-Za-z0-9_]*. */
int cli_is_name(const char *s);

#endif
