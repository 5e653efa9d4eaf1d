/* json_whatif.c - the document of 'segc whatif --json' (doc/json.md): per
 * scenario, the exact speedup formula and, over the grid, T_before,
 * T_after and the speedup at each point, exact where rational and in
 * decimal (17 significant digits). */
#include <config.h>

#include <stdlib.h>

#include <segc/eval.h>

#include "cli/cli_json.h"
#include "cli/json_commands.h"

/* Opens the document (see json_commands.h). */
void json_whatif_begin(cli_json *j, const char *model,
	const char *component)
{
	cli_json_init(j);
	cli_json_open(j, '{');
	cli_json_key(j, "command");
	cli_json_string(j, "whatif");
	cli_json_key(j, "model");
	cli_json_string(j, model);
	cli_json_key(j, "component");
	cli_json_string(j, component);
	cli_json_key(j, "scenarios");
	cli_json_open(j, '[');
}

/* The value of 'e' at 'pt': exact into 'q' (returns 1), else only in
 * 'x' (0); -1 after an error recorded in 'ctx'. */
static int value_at(segc_ctx *ctx, const segc_expr *e, const segc_point *pt,
	mpq_t q, mpfr_t x)
{
	int rc = segc_eval_exact(ctx, q, e, pt, NULL);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		mpfr_set_q(x, q, MPFR_RNDN);
		return 1;
	}
	return segc_eval_mpfr(ctx, x, e, pt, NULL) ? -1 : 0;
}

/* Writes 'key' and 'key'_decimal for a value exact in 'q' when 'exact',
 * else known only as 'x'. */
static void value(cli_json *j, const char *key, int exact, mpq_srcptr q,
	mpfr_srcptr x)
{
	char name[64];

	if (exact) {
		cli_json_exact(j, key, q);
		return;
	}
	snprintf(name, sizeof name, "%.40s_decimal", key);
	cli_json_key(j, key);
	cli_json_null(j);
	cli_json_key(j, name);
	cli_json_mpfr(j, x);
}

/* Writes the row of one point; 0 or -1 (recorded). */
static int row(cli_json *j, segc_ctx *ctx, const segc_point *pt,
	const segc_expr *before, const segc_expr *after)
{
	mpq_t qb, qa, qs;
	mpfr_t xb, xa, xs;
	int eb, ea, rc = 0;
	size_t i;

	mpq_inits(qb, qa, qs, (mpq_ptr)0);
	mpfr_inits2(128, xb, xa, xs, (mpfr_ptr)0);
	eb = value_at(ctx, before, pt, qb, xb);
	ea = eb < 0 ? -1 : value_at(ctx, after, pt, qa, xa);
	if (eb < 0 || ea < 0) {
		rc = -1;
		goto out;
	}
	cli_json_open(j, '{');
	for (i = 0; i < pt->n; i++)
		cli_json_exact(j, pt->names[i], pt->values[i]);
	value(j, "T_before", eb, qb, xb);
	value(j, "T_after", ea, qa, xa);
	mpfr_div(xs, xb, xa, MPFR_RNDN);
	if (eb && ea && mpq_sgn(qa))
		mpq_div(qs, qb, qa);
	value(j, "speedup", eb && ea && mpq_sgn(qa), qs, xs);
	cli_json_close(j, '}');
out:
	mpq_clears(qb, qa, qs, (mpq_ptr)0);
	mpfr_clears(xb, xa, xs, (mpfr_ptr)0);
	return rc;
}

/* Writes one scenario (see json_commands.h). */
int json_whatif_scenario(cli_json *j, segc_ctx *ctx, const cli_grid *g,
	const char *spec, const segc_expr *before, const segc_expr *after,
	const segc_expr *speedup)
{
	size_t n = g->naxes ? cli_grid_points(g) : 0, k, i;
	const char *names[CLI_MAX_AXES];
	mpq_t v[CLI_MAX_AXES];
	char *t = segc_expr_to_string(speedup);
	segc_point pt;
	int rc = 0;

	for (i = 0; i < g->naxes; i++) {
		names[i] = g->axes[i].name;
		mpq_init(v[i]);
	}
	pt.n = g->naxes;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	cli_json_open(j, '{');
	cli_json_key(j, "scale");
	cli_json_string(j, spec);
	cli_json_key(j, "speedup");
	cli_json_string(j, t);
	cli_json_key(j, "table");
	cli_json_open(j, '[');
	for (k = 0; k < n && !rc; k++) {
		cli_grid_point(g, k, v);
		rc = row(j, ctx, &pt, before, after);
	}
	cli_json_close(j, ']');
	cli_json_close(j, '}');
	for (i = 0; i < g->naxes; i++)
		mpq_clear(v[i]);
	free(t);
	return rc;
}

/* Closes the document (see json_commands.h). */
void json_whatif_end(cli_json *j)
{
	cli_json_close(j, ']');
	cli_json_close(j, '}');
	cli_json_end(j);
}
