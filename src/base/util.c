/* util.c - allocation wrappers, the string buffer and other small helpers
 * used throughout libsegc. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>
#include <unistd.h>

#include "base/util.h"

/* AddressSanitizer and ThreadSanitizer reserve terabytes of shadow
 * memory: no limit on the address space can be set under them. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SEGC_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SEGC_UNDER_ASAN 1
#endif
#endif
#ifndef SEGC_UNDER_ASAN
#define SEGC_UNDER_ASAN 0
#endif

/* Room left above the address space in use when the guard is set, for
 * stacks and the allocator's own bookkeeping. */
#define GUARD_SLACK (16ULL * 1024 * 1024)

/* The state of the memory policy (segc.h): the handler, and the limit on
 * the address space once segc_memory_guard() is called. */
static struct {
	segc_oom_handler handler;
	int limiting;                  /* RLIMIT_AS is ours to set */
	unsigned long long base;       /* address space in use, plus slack */
	struct rlimit initial;         /* the limit the process had */
	unsigned long budget;          /* the budget applied last */
} guard;

/* The failure path of every allocation: the handler, then abort(). */
void segc_out_of_memory(size_t n)
{
	if (guard.handler)
		guard.handler(n);
	abort();
}

/* Returns 'p', or takes the failure path when an allocation failed. */
static void *check_alloc(void *p, size_t n)
{
	if (!p && n)
		segc_out_of_memory(n);
	return p;
}

/* GMP's allocation functions, through segc's failure path. */
static void *gmp_alloc(size_t n)
{
	return segc_xmalloc(n);
}

/* GMP's reallocation function ('old' is the previous size). */
static void *gmp_realloc(void *p, size_t old, size_t n)
{
	(void)old;
	return segc_xrealloc(p, n);
}

/* GMP's release function. */
static void gmp_free(void *p, size_t n)
{
	(void)n;
	free(p);
}

/* The bytes of address space the process uses now (0 when unknown). */
static unsigned long long address_space_now(void)
{
	unsigned long long pages = 0;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return page > 0 ? pages * (unsigned long long)page : 0;
}

/* Installs the failure path of the memory policy (segc.h) for the
 * library's own allocations and GMP's; segc_memory_guard() adds libxml2. */
void segc_memory_guard_base(segc_oom_handler handler)
{
	guard.handler = handler;
	mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
	if (SEGC_UNDER_ASAN || getrlimit(RLIMIT_AS, &guard.initial))
		return;
	guard.base = address_space_now() + GUARD_SLACK;
	guard.limiting = 1;
	segc_memory_apply(SEGC_MEMORY_FLOOR);
}

/* Limits the address space to the base plus 'bytes', never above the
 * limit the process had. */
void segc_memory_apply(unsigned long bytes)
{
	struct rlimit rl = guard.initial;
	unsigned long long cap = guard.base + bytes;

	if (!guard.limiting)
		return;
	guard.budget = bytes;
	if (cap < guard.base)
		cap = ~0ULL;
	if (rl.rlim_cur == RLIM_INFINITY || cap < (unsigned long long)rl.rlim_cur)
		rl.rlim_cur = (rlim_t)cap;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_AS, &rl);
}

/* The budget enforced now (0: none). */
unsigned long segc_memory_budget(void)
{
	return guard.limiting ? guard.budget : 0;
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
		segc_out_of_memory(SIZE_MAX);
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
		segc_out_of_memory(SIZE_MAX);
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

/* ----------------------------------------------------------- name index */

/* A hash of the string 's' (FNV-1a). */
static size_t name_hash(const char *s)
{
	size_t h = (size_t)14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ULL;
	return h;
}

/* The name of record 'i' of an array (see segc_name_index_find). */
static const char *record_name(const void *base, size_t i, size_t stride,
	size_t offset)
{
	return *(const char *const *)((const char *)base + i * stride +
		offset);
}

/* Releases the slots of 'ix' and leaves it empty. */
void segc_name_index_free(segc_name_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->cap = ix->n = 0;
}

/* The slot of 'name' in 'ix': where it is, or the empty one where it
 * would go. */
static size_t index_slot(const segc_name_index *ix, const void *base,
	size_t stride, size_t offset, const char *name)
{
	size_t i = name_hash(name) & (ix->cap - 1);

	while (ix->slots[i] && strcmp(record_name(base, ix->slots[i] - 1,
			stride, offset), name))
		i = (i + 1) & (ix->cap - 1);
	return i;
}

/* Indexes the records of 'ix' again, in slots for 'count' of them. */
static void index_rebuild(segc_name_index *ix, const void *base,
	size_t count, size_t stride, size_t offset)
{
	size_t i, n = ix->n;

	free(ix->slots);
	ix->cap = 64;
	while (ix->cap < 2 * count)
		ix->cap *= 2;
	ix->slots = segc_xcalloc(ix->cap, sizeof(*ix->slots));
	for (i = 0; i < n; i++) {
		size_t k = index_slot(ix, base, stride, offset,
			record_name(base, i, stride, offset));

		if (!ix->slots[k])
			ix->slots[k] = i + 1;
	}
}

/* Finds 'name' among the records, indexing those appended since the last
 * lookup (the first of equal names is kept). */
size_t segc_name_index_find(segc_name_index *ix, const void *base,
	size_t count, size_t stride, size_t offset, const char *name)
{
	size_t k;

	if (count < ix->n)
		segc_name_index_free(ix);
	if (!count)
		return (size_t)-1;
	if (ix->cap < 2 * count)
		index_rebuild(ix, base, count, stride, offset);
	for (; ix->n < count; ix->n++) {
		k = index_slot(ix, base, stride, offset,
			record_name(base, ix->n, stride, offset));
		if (!ix->slots[k])
			ix->slots[k] = ix->n + 1;
	}
	k = index_slot(ix, base, stride, offset, name);
	return ix->slots[k] ? ix->slots[k] - 1 : (size_t)-1;
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
	limits->max_memory = 0;
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

/* Non-zero when 'name' is an item of the list "a, b, c" 'list'. */
int segc_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && (p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}
