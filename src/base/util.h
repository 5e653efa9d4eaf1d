/* util.h - small helpers shared inside libsegc: allocation wrappers, a
 * growable string buffer, identifier checks and the default limits.  Not
 * part of the public interface.
 *
 * Allocation: segc_xmalloc() and friends never return NULL: when the
 * system is out of memory they take the failure path of the memory policy
 * of segc.h (the handler of segc_memory_guard(), then abort()). */
#ifndef SEGC_UTIL_H
#define SEGC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>

void *segc_xmalloc(size_t n);
void *segc_xcalloc(size_t n, size_t size);
void *segc_xrealloc(void *p, size_t n);
char *segc_xstrdup(const char *s);
char *segc_xstrndup(const char *s, size_t n);
/* n * size; an overflow is an allocation failure. */
size_t segc_xmul_size(size_t n, size_t size);
/* The failure path of the memory policy for a request of 'n' bytes: the
 * handler, then abort(). */
void segc_out_of_memory(size_t n)
#ifdef __GNUC__
	__attribute__((noreturn))
#endif
	;
/* Counts 'bytes' more of documents read through 'ctx', and applies its
 * new budget to the address space when segc_memory_guard() is on. */
void segc_ctx_count_input(segc_ctx *ctx, size_t bytes);
/* Limits the address space to the budget 'bytes' when segc_memory_guard()
 * is on (nothing otherwise). */
void segc_memory_apply(unsigned long bytes);
/* The part of segc_memory_guard() below the XML reader: the handler,
 * GMP's allocations and the limit on the address space. */
void segc_memory_guard_base(segc_oom_handler handler);

/* A growable, always NUL-terminated string. */
typedef struct segc_strbuf {
	char *data;   /* NULL until something is appended */
	size_t len;   /* characters, not counting the NUL */
	size_t cap;   /* allocated bytes */
} segc_strbuf;

void segc_strbuf_init(segc_strbuf *sb);
void segc_strbuf_free(segc_strbuf *sb);
/* Empties 'sb', keeping its memory. */
void segc_strbuf_reset(segc_strbuf *sb);
void segc_strbuf_append(segc_strbuf *sb, const char *s);
void segc_strbuf_appendn(segc_strbuf *sb, const char *s, size_t n);
void segc_strbuf_appendc(segc_strbuf *sb, char c);
void segc_strbuf_appendf(segc_strbuf *sb, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
void segc_strbuf_vappendf(segc_strbuf *sb, const char *fmt, va_list ap);
/* Appends an integer or rational in base 10 ("-3", "7/2"). */
void segc_strbuf_append_mpz(segc_strbuf *sb, mpz_srcptr z);
void segc_strbuf_append_mpq(segc_strbuf *sb, mpq_srcptr q);
/* The contents ("" when empty; never NULL), malloc'd for the caller, who
 * free()s it; 'sb' is left empty and may be reused. */
char *segc_strbuf_take(segc_strbuf *sb);
/* The contents, borrowed: valid until the next change of 'sb'. */
const char *segc_strbuf_str(const segc_strbuf *sb);

/* An index by name of an array of records (each with a 'char *' name at
 * a fixed offset), so that a lookup takes constant time: records appended
 * to the array are indexed at the next lookup.  A zeroed index is empty. */
typedef struct segc_name_index {
	size_t *slots;   /* position + 1 of a record, 0 for an empty slot */
	size_t cap;      /* slots, a power of two */
	size_t n;        /* records indexed so far: the first n */
} segc_name_index;

void segc_name_index_free(segc_name_index *ix);
/* The position of the first record named 'name' among the 'count'
 * records at 'base', each 'stride' bytes with its name at 'offset';
 * (size_t)-1 when there is none. */
size_t segc_name_index_find(segc_name_index *ix, const void *base,
	size_t count, size_t stride, size_t offset, const char *name);

/* Non-zero when 's' is an identifier: [A-Za-z_][A-Za-z0-9_]*. */
int segc_name_is_identifier(const char *s);
/* Non-zero when 'name' is an item of the list "a, b, c" 'list' (items
 * separated by a comma and a space). */
int segc_list_has(const char *list, const char *name);

/* Fills 'limits' with the defaults of doc/limits.md. */
void segc_limits_init(segc_limits *limits);

/* Charges 'units' of polynomial arithmetic (about one limb product each,
 * plus 16 for the operation itself) to 'ctx' (may be NULL): 0, or -1 once the total passes max_work, after
 * recording that limit once.  Every later charge fails too, so that a
 * computation stops wherever it stands. */
int segc_ctx_charge(segc_ctx *ctx, double units);
/* The text of expression 'e' for a diagnostic, cut to 48 characters
 * (ending in "..." when cut); malloc'd, NULL when out of memory. */
char *segc_expr_quote(const segc_expr *e);

/* Counts a lowering of a program through 'ctx' (graph/lower.c), and how
 * many there were: a command derives all its components from one. */
void segc_ctx_note_lowering(segc_ctx *ctx);
unsigned long segc_ctx_lowerings(const segc_ctx *ctx);

/* Gives every diagnostic of 'ctx' from index 'from' on that names no file
 * the place 'file':'line':'col' ('file' is copied; NULL leaves the place
 * unknown) and, when 'what' is not NULL, puts "WHAT: " in front of its
 * message. */
void segc_ctx_place_diags(segc_ctx *ctx, size_t from, const char *file,
	unsigned long line, unsigned long col, const char *what);
/* Takes back a trial: forgets the diagnostics recorded since 'from' (the
 * segc_ctx_n_diags() before it) and sets the status back to 'status'
 * (the segc_ctx_status() before it).  For probes whose failure only
 * means "no": they must leave no error behind. */
void segc_ctx_rollback(segc_ctx *ctx, size_t from, enum segc_status status);

/* A malloc'd copy of 's' with control bytes written as \xHH. */
char *segc_printable_dup(const char *s);

#endif
