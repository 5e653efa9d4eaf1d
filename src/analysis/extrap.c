/* extrap.c - the Extra-P experiment of extrap.h: its parameters, points,
 * blocks and values as the readers (extrap_text.c, extrap_json.c) find
 * them, and the numbers and messages they share. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/csv_private.h"
#include "analysis/extrap.h"
#include "base/util.h"

/* Starts an empty experiment. */
void extrap_init(extrap_exp *x, segc_ctx *ctx, const char *file)
{
	memset(x, 0, sizeof *x);
	x->ctx = ctx;
	x->file = file;
	x->max_digits = segc_ctx_limits(ctx)->max_literal_digits;
	if (x->max_digits > SEGC_MAX_LITERAL_DIGITS_CEILING)
		x->max_digits = SEGC_MAX_LITERAL_DIGITS_CEILING;
}

/* Releases what 'x' holds. */
void extrap_clear(extrap_exp *x)
{
	size_t i;

	for (i = 0; i < x->nparams; i++)
		free(x->params[i]);
	for (i = 0; i < x->npoints * x->nparams; i++)
		mpq_clear(x->coords[i]);
	for (i = 0; i < x->nblocks; i++) {
		free(x->blocks[i].callpath);
		free(x->blocks[i].metric);
	}
	for (i = 0; i < x->nvalues; i++)
		mpq_clear(x->values[i].v);
	free(x->params);
	free(x->param_at);
	free(x->coords);
	free(x->point_at);
	free(x->blocks);
	free(x->values);
	memset(x, 0, sizeof *x);
}

/* Makes room for one more of 'n' items of 'size' bytes at '*p'. */
static void grow(void **p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 8;
	*p = segc_xrealloc(*p, segc_xmul_size(*cap, size));
}

/* A printable copy for a message (see extrap.h). */
char *extrap_printable(const char *s, size_t n, size_t max)
{
	char *t = segc_xmalloc(n + 1), *p;

	memcpy(t, s, n);
	t[n] = '\0';
	p = segc_printable_dup(t);
	free(t);
	if (strlen(p) > max)
		p[max] = '\0';
	return p;
}

/* Adds a parameter (see extrap.h). */
int extrap_add_param(extrap_exp *x, const char *name, size_t n,
	extrap_place at)
{
	size_t i, cap = x->cap_params;
	char *copy = segc_xmalloc(n + 1);

	memcpy(copy, name, n);
	copy[n] = '\0';
	for (i = 0; i < x->nparams; i++)
		if (!strcmp(x->params[i], copy)) {
			char *shown = extrap_printable(copy, n, 200);

			segc_error(x->ctx, SEGC_ERR_INPUT, x->file, at.line, at.col,
				"the parameter '%s' is named twice", shown);
			free(shown);
			free(copy);
			return -1;
		}
	grow((void **)&x->params, x->nparams, &cap, sizeof *x->params);
	grow((void **)&x->param_at, x->nparams, &x->cap_params,
		sizeof *x->param_at);
	x->params[x->nparams] = copy;
	x->param_at[x->nparams++] = at;
	return 0;
}

/* Adds a point (see extrap.h). */
size_t extrap_add_point(extrap_exp *x, extrap_place at)
{
	size_t i, cap = x->cap_points;

	grow((void **)&x->point_at, x->npoints, &cap, sizeof *x->point_at);
	if (x->npoints == x->cap_points) {
		x->coords = segc_xrealloc(x->coords, segc_xmul_size(
			segc_xmul_size(cap, x->nparams) + 1, sizeof(mpq_t)));
		x->cap_points = cap;
	}
	for (i = 0; i < x->nparams; i++)
		mpq_init(x->coords[x->npoints * x->nparams + i]);
	x->point_at[x->npoints] = at;
	return x->npoints++;
}

/* Coordinate 'j' of 'point'. */
mpq_ptr extrap_coord(extrap_exp *x, size_t point, size_t j)
{
	return x->coords[point * x->nparams + j];
}

/* Starts a block (see extrap.h). */
size_t extrap_add_block(extrap_exp *x, const char *callpath,
	const char *metric, extrap_place at)
{
	extrap_block *b;

	grow((void **)&x->blocks, x->nblocks, &x->cap_blocks,
		sizeof *x->blocks);
	b = &x->blocks[x->nblocks];
	b->callpath = callpath ? segc_xstrdup(callpath) : NULL;
	b->metric = metric ? segc_xstrdup(metric) : NULL;
	b->at = at;
	return x->nblocks++;
}

/* Adds a value (see extrap.h). */
mpq_ptr extrap_add_value(extrap_exp *x, size_t block, size_t point,
	extrap_place at)
{
	extrap_value *v;

	grow((void **)&x->values, x->nvalues, &x->cap_values,
		sizeof *x->values);
	v = &x->values[x->nvalues++];
	v->block = block;
	v->point = point;
	v->at = at;
	mpq_init(v->v);
	return v->v;
}

/* Reads a decimal (see extrap.h). */
int extrap_number(extrap_exp *x, mpq_t q, const char *s, size_t n,
	extrap_place at, const char *what)
{
	const char *why;
	char *shown;

	if (!segc_csv_decimal(q, s, n, x->max_digits, &why))
		return 0;
	shown = extrap_printable(s, n, 40);
	segc_error(x->ctx, SEGC_ERR_INPUT, x->file, at.line, at.col,
		"the %s '%s' %s", what, shown, why);
	free(shown);
	return -1;
}
