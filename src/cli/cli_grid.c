/* cli_grid.c - the grids of the analysis commands (whatif, sensitivity):
 * NAME=RANGE operands, RANGE being V, A..B (integers), A..B*K (geometric)
 * or V1,V2,... with exact numbers, and the points of their product. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_POINTS 100000UL

/* The exact value of the expression in the 'len' bytes at 'text'. */
static int value_of(segc_ctx *ctx, const char *text, size_t len, mpq_t q)
{
	char *s = malloc(len + 1);
	segc_expr *e;
	int rc = -1;

	if (!s)
		abort();
	memcpy(s, text, len);
	s[len] = '\0';
	e = len ? segc_expr_parse(ctx, s, NULL) : NULL;
	if (e && !segc_expr_eval_q(q, e, 0, NULL, NULL))
		rc = 0;
	segc_expr_free(e);
	free(s);
	segc_ctx_clear(ctx);
	return rc;
}

/* Appends 'q' to axis 'a'; -1 past MAX_POINTS values. */
static int axis_add(cli_axis *a, mpq_srcptr q)
{
	if (a->n >= MAX_POINTS)
		return -1;
	a->v = realloc(a->v, (a->n + 1) * sizeof *a->v);
	if (!a->v)
		abort();
	mpq_init(a->v[a->n]);
	mpq_set(a->v[a->n++], q);
	return 0;
}

/* Fills 'a' from "A..B" or "A..B*K" ('dots' at the dots of 'r'). */
static int span(segc_ctx *ctx, cli_axis *a, const char *r, const char *dots)
{
	const char *star = strchr(dots, '*');
	mpq_t lo, hi, k, x;
	int rc = -1;

	mpq_init(lo); mpq_init(hi); mpq_init(k); mpq_init(x);
	if (value_of(ctx, r, (size_t)(dots - r), lo) || value_of(ctx,
	    dots + 2, star ? (size_t)(star - dots - 2) : strlen(dots + 2), hi)
	    || (star && value_of(ctx, star + 1, strlen(star + 1), k)))
		goto out;
	if ((!star && (mpz_cmp_ui(mpq_denref(lo), 1) ||
	    mpz_cmp_ui(mpq_denref(hi), 1))) || mpq_cmp(lo, hi) > 0 ||
	    (star && (mpq_cmp_ui(k, 1, 1) <= 0 || mpq_sgn(lo) <= 0)))
		goto out;
	rc = 0;
	for (mpq_set(x, lo); mpq_cmp(x, hi) <= 0 && !rc;) {
		rc = axis_add(a, x);
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
static int list(segc_ctx *ctx, cli_axis *a, const char *r)
{
	mpq_t q;
	int rc = 0;

	mpq_init(q);
	for (;;) {
		const char *comma = strchr(r, ',');
		size_t len = comma ? (size_t)(comma - r) : strlen(r);

		if (value_of(ctx, r, len, q) || axis_add(a, q)) {
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

/* Releases axis 'a'. */
static void axis_clear(cli_axis *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		mpq_clear(a->v[i]);
	free(a->v);
	free(a->name);
	memset(a, 0, sizeof *a);
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
			axis_clear(a);
			return CLI_USAGE;
		}
	if (strstr(r, "..") ? span(ctx, a, r, strstr(r, "..")) :
	    list(ctx, a, r)) {
		axis_clear(a);
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

/* Releases 'g'. */
void cli_grid_clear(cli_grid *g)
{
	size_t i;

	for (i = 0; i < g->naxes; i++)
		axis_clear(&g->axes[i]);
	g->naxes = 0;
}
