/* ctx.c - the error context: recorded diagnostics, their worst severity,
 * and the limits every stage checks. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

#include <segc/segc.h>
#include "base/util.h"

struct segc_ctx {
	segc_limits limits;
	segc_diag *diags;
	size_t n_diags;
	size_t cap_diags;
	enum segc_status status;
	unsigned long long work;    /* units charged (segc_ctx_charge) */
	int work_reported;          /* max_work was reached and said so */
	unsigned long long input;   /* bytes of documents read */
	unsigned long lowerings;    /* programs lowered (segc_ctx_note_lowering) */
};

/* A new context with the default limits and no diagnostics. */
segc_ctx *segc_ctx_new(void)
{
	segc_ctx *ctx = segc_xcalloc(1, sizeof(*ctx));

	segc_limits_init(&ctx->limits);
	ctx->status = SEGC_OK;
	return ctx;
}

/* Releases the diagnostics of 'ctx' and the copies of their strings. */
static void ctx_release_diags(segc_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->n_diags; i++) {
		free((char *)ctx->diags[i].file);
		free((char *)ctx->diags[i].message);
	}
	free(ctx->diags);
	ctx->diags = NULL;
	ctx->n_diags = 0;
	ctx->cap_diags = 0;
}

/* Releases 'ctx'. */
void segc_ctx_free(segc_ctx *ctx)
{
	if (!ctx)
		return;
	ctx_release_diags(ctx);
	free(ctx);
}

/* The limits of 'ctx', which the caller may change in place. */
segc_limits *segc_ctx_limits(segc_ctx *ctx)
{
	return &ctx->limits;
}

/* Non-zero once 'ctx' keeps max_errors diagnostics (0: no maximum). */
int segc_ctx_full(const segc_ctx *ctx)
{
	return ctx->limits.max_errors && ctx->n_diags >= ctx->limits.max_errors;
}

/* Appends one diagnostic to 'ctx', taking the malloc'd 'file' and
 * 'message'. */
static void ctx_push(segc_ctx *ctx, enum segc_status code, char *file,
	unsigned long line, unsigned long col, char *message)
{
	segc_diag *d;

	if (ctx->n_diags == ctx->cap_diags) {
		ctx->cap_diags = ctx->cap_diags ? 2 * ctx->cap_diags : 8;
		ctx->diags = segc_xrealloc(ctx->diags,
			segc_xmul_size(ctx->cap_diags, sizeof(*ctx->diags)));
	}
	d = &ctx->diags[ctx->n_diags++];
	d->code = code;
	d->file = file;
	d->line = line;
	d->col = col;
	d->message = message;
}

/* The message in 'sb' made one line of printable text: a message may
 * quote the input, and the input may hold control characters (a newline
 * would split the diagnostic, an escape sequence would reach the
 * terminal).  Each such byte becomes \xHH.  Returns the new string. */
static char *ctx_printable(segc_strbuf *sb)
{
	char *s = segc_printable_dup(segc_strbuf_str(sb));

	segc_strbuf_free(sb);
	return s;
}

/* Records a diagnostic of class 'code' at 'file':'line':'col' with a
 * printf-style message.  The status of 'ctx' becomes the most severe code
 * seen.  Once the context is full the diagnostic is counted in the status
 * but not kept. */
void segc_error(segc_ctx *ctx, enum segc_status code, const char *file,
	unsigned long line, unsigned long col, const char *fmt, ...)
{
	segc_strbuf sb;
	va_list ap;

	if (!ctx)
		return;
	if (code > ctx->status)
		ctx->status = code;
	if (segc_ctx_full(ctx))
		return;
	segc_strbuf_init(&sb);
	va_start(ap, fmt);
	segc_strbuf_vappendf(&sb, fmt, ap);
	va_end(ap);
	ctx_push(ctx, code, file ? segc_xstrdup(file) : NULL, line, col,
		ctx_printable(&sb));
}

/* The number of diagnostics kept in 'ctx'. */
size_t segc_ctx_n_diags(const segc_ctx *ctx)
{
	return ctx->n_diags;
}

/* Diagnostic 'i' of 'ctx', or NULL when out of range. */
const segc_diag *segc_ctx_diag(const segc_ctx *ctx, size_t i)
{
	return i < ctx->n_diags ? &ctx->diags[i] : NULL;
}

/* The most severe code recorded in 'ctx'. */
enum segc_status segc_ctx_status(const segc_ctx *ctx)
{
	return ctx->status;
}

/* Places the unplaced diagnostics from 'from' on; see util.h. */
void segc_ctx_place_diags(segc_ctx *ctx, size_t from, const char *file,
	unsigned long line, unsigned long col, const char *what)
{
	segc_diag *d;
	segc_strbuf sb;
	size_t i;

	for (i = from; i < ctx->n_diags; i++) {
		d = &ctx->diags[i];
		if (d->file)
			continue;
		if (what) {
			segc_strbuf_init(&sb);
			segc_strbuf_appendf(&sb, "%s: %s", what, d->message);
			free((char *)d->message);
			d->message = ctx_printable(&sb);
		}
		if (!file)
			continue;
		d->file = segc_xstrdup(file);
		d->line = line;
		d->col = col;
	}
}

/* Takes back the diagnostics of a trial; see util.h. */
void segc_ctx_rollback(segc_ctx *ctx, size_t from, enum segc_status status)
{
	size_t i;

	for (i = from; i < ctx->n_diags; i++) {
		free((char *)ctx->diags[i].file);
		free((char *)ctx->diags[i].message);
	}
	if (from < ctx->n_diags)
		ctx->n_diags = from;
	ctx->status = status;
}

/* Forgets every diagnostic of 'ctx'; its limits stay. */
void segc_ctx_clear(segc_ctx *ctx)
{
	ctx_release_diags(ctx);
	ctx->status = SEGC_OK;
	ctx->work = 0;
	ctx->work_reported = 0;
}

/* Charges polynomial arithmetic to 'ctx'; see util.h. */
int segc_ctx_charge(segc_ctx *ctx, double units)
{
	unsigned long long max;

	if (!ctx || !ctx->limits.max_work)
		return 0;
	max = ctx->limits.max_work;
	if (ctx->work_reported)
		return -1;
	/* Every operation costs its allocations and bookkeeping too. */
	units += 16;
	/* Saturating: a single huge charge fails without wrapping. */
	if (units >= (double)(max - ctx->work) + 1.0)
		ctx->work = max + 1;
	else
		ctx->work += (unsigned long long)units;
	if (ctx->work <= max)
		return 0;
	ctx->work_reported = 1;
	segc_error(ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "simplifying this formula "
		"takes more than %llu units of polynomial arithmetic "
		"(max_work)", max);
	return -1;
}

/* The units of work charged to 'ctx' so far. */
unsigned long long segc_ctx_work(const segc_ctx *ctx)
{
	return ctx ? ctx->work : 0;
}

/* The memory budget of 'ctx': max_memory, or the floor plus so many bytes
 * per byte of the documents read (segc.h), saturating. */
unsigned long segc_ctx_memory(const segc_ctx *ctx)
{
	unsigned long long b;

	if (ctx->limits.max_memory)
		return ctx->limits.max_memory;
	b = ctx->input > ULONG_MAX / SEGC_MEMORY_PER_BYTE ? ULONG_MAX :
		SEGC_MEMORY_FLOOR + ctx->input * SEGC_MEMORY_PER_BYTE;
	return b < SEGC_MEMORY_FLOOR || b > ULONG_MAX ? ULONG_MAX :
		(unsigned long)b;
}

/* Counts a document of 'bytes' read through 'ctx' and applies the new
 * budget to the process (when segc_memory_guard() is on). */
void segc_ctx_count_input(segc_ctx *ctx, size_t bytes)
{
	ctx->input += bytes;
	segc_memory_apply(segc_ctx_memory(ctx));
}

/* Counts one more program lowered through 'ctx'. */
void segc_ctx_note_lowering(segc_ctx *ctx)
{
	ctx->lowerings++;
}

/* How many programs were lowered through 'ctx'. */
unsigned long segc_ctx_lowerings(const segc_ctx *ctx)
{
	return ctx->lowerings;
}
