/* cli_grid.c - the grids of the analysis commands (whatif, sensitivity):
 * NAME=RANGE operands, RANGE being V, A..B (integers), A..B*K (geometric)
 * or V1,V2,... with exact numbers, and the points of their product; the
 * check of their names (shared with eval); and the other options these
 * two commands share. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"

#define MAX_POINTS 100000UL

/* Appends 'q' to axis 'a'; -1 past 'max' values. */
static int axis_add(cli_axis *a, mpq_srcptr q, size_t max)
{
	if (a->n >= max)
		return -1;
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = cli_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	mpq_init(a->v[a->n]);
	mpq_set(a->v[a->n++], q);
	return 0;
}

/* Fills 'a' from "A..B" or "A..B*K" ('dots' at the dots of 'r'). */
static int span(segc_ctx *ctx, cli_axis *a, const char *r, const char *dots,
	size_t max)
{
	const char *star = strchr(dots, '*');
	mpq_t lo, hi, k, x;
	int rc = -1;

	mpq_init(lo); mpq_init(hi); mpq_init(k); mpq_init(x);
	if (cli_exact_number(ctx, r, (size_t)(dots - r), lo) || cli_exact_number(ctx,
	    dots + 2, star ? (size_t)(star - dots - 2) : strlen(dots + 2), hi)
	    || (star && cli_exact_number(ctx, star + 1, strlen(star + 1), k)))
		goto out;
	if ((!star && (mpz_cmp_ui(mpq_denref(lo), 1) ||
	    mpz_cmp_ui(mpq_denref(hi), 1))) || mpq_cmp(lo, hi) > 0 ||
	    (star && (mpq_cmp_ui(k, 1, 1) <= 0 || mpq_sgn(lo) <= 0)))
		goto out;
	rc = 0;
	for (mpq_set(x, lo); mpq_cmp(x, hi) <= 0 && !rc;) {
		rc = axis_add(a, x, max);
		if (star)
			mpq_mul(x, x, k);
		else
			mpz_add_ui(mpq_numref(x), mpq_numref(x), 1);
	}
out:
	mpq_clear(lo); mpq_clear(hi); mpq_clear(k); mpq_clear(x);
	return rc;
}

/* Fills 'a' from "V1,V2,...". */
static int list(segc_ctx *ctx, cli_axis *a, const char *r, size_t max)
{
	mpq_t q;
	int rc = 0;

	mpq_init(q);
	for (;;) {
		const char *comma = strchr(r, ',');
		size_t len = comma ? (size_t)(comma - r) : strlen(r);

		if (cli_exact_number(ctx, r, len, q) || axis_add(a, q, max)) {
			rc = -1;
			break;
		}
		if (!comma)
			break;
		r = comma + 1;
	}
	mpq_clear(q);
	return rc;
}

/* Fills 'a' from RANGE 'r' (see cli.h). */
int cli_axis_fill(segc_ctx *ctx, cli_axis *a, const char *r, size_t max)
{
	const char *dots = strstr(r, "..");

	return dots ? span(ctx, a, r, dots, max) : list(ctx, a, r, max);
}

/* Releases axis 'a' (see cli.h). */
void cli_axis_clear(cli_axis *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		mpq_clear(a->v[i]);
	free(a->v);
	free(a->name);
	memset(a, 0, sizeof *a);
}

/* Reports a grid name that -D binds too (see cli.h). */
int cli_grid_not_defined(const cli_common *c, const char *name)
{
	size_t i;

	for (i = 0; i < segc_bindings_count(c->bindings); i++)
		if (!strcmp(segc_bindings_name(c->bindings, i), name))
			return cli_usage(c, "grid name '%s': also given by -D "
				"(give it once)", name);
	return CLI_OK;
}

/* Binds 'name' to itself (see cli.h). */
int cli_bind_to_itself(segc_ctx *ctx, const cli_common *c,
	const char *name)
{
	char *text = cli_xmalloc(2 * strlen(name) + 2);
	int rc;

	sprintf(text, "%s=%s", name, name);
	rc = segc_bindings_add(ctx, c->bindings, text) < 0 ? cli_report(ctx) :
		CLI_OK;
	free(text);
	return rc;
}

/* Checks the names of grid 'g' and lets its values win (see cli.h). */
int cli_grid_check(segc_ctx *ctx, const cli_common *c,
	const segc_setting *s, const cli_grid *g)
{
	size_t i;
	int rc = CLI_OK;

	for (i = 0; i < g->naxes; i++)
		if (cli_check_declared(c, s, "grid name", g->axes[i].name) ||
		    cli_grid_not_defined(c, g->axes[i].name))
			return CLI_USAGE;
	for (i = 0; i < g->naxes && !rc; i++)
		rc = cli_bind_to_itself(ctx, c, g->axes[i].name);
	return rc;
}

/* Adds the axis "NAME=RANGE" to 'g' (see cli.h). */
int cli_grid_add(segc_ctx *ctx, const cli_common *c, cli_grid *g,
	const char *arg)
{
	cli_axis *a;
	const char *r;
	size_t i;

	if (g->naxes == CLI_MAX_AXES)
		return cli_usage(c, "at most %d NAME=RANGE", CLI_MAX_AXES);
	a = &g->axes[g->naxes];
	memset(a, 0, sizeof *a);
	if (cli_name_range(c, "the grid", arg, &a->name, &r))
		return CLI_USAGE;
	for (i = 0; i < g->naxes; i++)
		if (!strcmp(g->axes[i].name, a->name)) {
			cli_usage(c, "'%s' is given twice", a->name);
			cli_axis_clear(a);
			return CLI_USAGE;
		}
	if (cli_axis_fill(ctx, a, r, MAX_POINTS)) {
		cli_axis_clear(a);
		return cli_usage(c, "bad range in '%s': V, A..B (integers), "
			"A..B*K (K > 1, A > 0) or V1,V2,... with exact numbers, "
			"at most %lu values", arg, MAX_POINTS);
	}
	g->naxes++;
	return 0;
}

/* The number of points of 'g' (see cli.h). */
size_t cli_grid_points(const cli_grid *g)
{
	size_t n = 1, i;

	for (i = 0; i < g->naxes; i++) {
		if (n > MAX_POINTS / g->axes[i].n)
			return 0;
		n *= g->axes[i].n;
	}
	return n;
}

/* The values of point 'k' of 'g', the last axis fastest (see cli.h). */
void cli_grid_point(const cli_grid *g, size_t k, mpq_t *values)
{
	size_t i;

	for (i = g->naxes; i-- > 0;) {
		mpq_set(values[i], g->axes[i].v[k % g->axes[i].n]);
		k /= g->axes[i].n;
	}
}

/* Refuses a point of 'g' where a loop count is negative (see cli.h). */
int cli_grid_check_counts(segc_ctx *ctx, const segc_setting *s,
	const cli_grid *g)
{
	size_t n = cli_grid_points(g), k, i;
	const char *names[CLI_MAX_AXES];
	mpq_t v[CLI_MAX_AXES];
	segc_counts *counts = segc_counts_new(ctx, s);
	int rc = counts ? 0 : -1;

	for (i = 0; i < g->naxes; i++) {
		names[i] = g->axes[i].name;
		mpq_init(v[i]);
	}
	for (k = 0; k < n && !rc; k++) {
		cli_grid_point(g, k, v);
		rc = segc_counts_at(ctx, counts, g->naxes, names,
			(const mpq_t *)v);
	}
	for (i = 0; i < g->naxes; i++)
		mpq_clear(v[i]);
	segc_counts_free(counts);
	return rc;
}

/* Releases 'g'. */
void cli_grid_clear(cli_grid *g)
{
	size_t i;

	for (i = 0; i < g->naxes; i++)
		cli_axis_clear(&g->axes[i]);
	g->naxes = 0;
}

/* Sets the shared options 't' to their defaults (see cli.h). */
void cli_table_opts_init(cli_table_opts *t)
{
	memset(t, 0, sizeof *t);
	t->component = "total";
	t->digits = 6;
}

/* Releases 't' (see cli.h). */
void cli_table_opts_clear(cli_table_opts *t)
{
	cli_grid_clear(&t->grid);
}

/* Takes a NAME=RANGE operand into the grid of 'opts' (see cli.h). */
int cli_table_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	cli_table_opts *t = opts;

	if (!strchr(arg, '='))
		return 0;
	return cli_grid_add(ctx, c, &t->grid, arg) ? -1 : 1;
}
