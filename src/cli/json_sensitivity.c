/* json_sensitivity.c - the document of 'segc sensitivity --json'
 * (doc/json.md): the formula, each free name's derivative and elasticity
 * in canonical form, and over the grid their values at each point,
 * exact where rational and in decimal. */
#include <config.h>

#include <stdlib.h>

#include <segc/eval.h>

#include "cli/cli_json.h"
#include "cli/cli_plans.h"
#include "cli/json_commands.h"

/* Writes the formula 'e' under 'key'. */
static void formula(cli_json *j, const char *key, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	cli_json_key(j, key);
	cli_json_string(j, t);
	free(t);
}

/* Writes 'key' and 'key'_decimal: the value of the formula of slot 'k'
 * of 'P' at 'pt', exact when rational (else null and the decimal of 128
 * bits); -1 after an error recorded in 'ctx'. */
static int value(cli_json *j, segc_ctx *ctx, const char *key,
	cli_plans *P, size_t k, const segc_point *pt)
{
	char name[64];
	mpq_t q;
	mpfr_t x;
	int rc;

	mpq_init(q);
	mpfr_init2(x, 128);
	rc = cli_plans_exact(ctx, P, k, q, pt);
	if (rc == 0) {
		cli_json_exact(j, key, q);
	} else if (rc > 0 && !cli_plans_mpfr(ctx, P, k, x, pt)) {
		snprintf(name, sizeof name, "%.40s_decimal", key);
		cli_json_key(j, key);
		cli_json_null(j);
		cli_json_key(j, name);
		cli_json_mpfr(j, x);
		rc = 0;
	} else {
		rc = -1;
	}
	mpq_clear(q);
	mpfr_clear(x);
	return rc;
}

/* Writes the values at one point; 0 or -1 (recorded). */
static int point(cli_json *j, segc_ctx *ctx, const json_sensitivity_info *in,
	const segc_point *pt)
{
	size_t i;
	int rc = 0;

	cli_json_open(j, '{');
	cli_json_key(j, "at");
	cli_json_open(j, '{');
	for (i = 0; i < pt->n; i++)
		cli_json_exact(j, pt->names[i], pt->values[i]);
	cli_json_close(j, '}');
	if (value(j, ctx, in->component, in->plans, 0, pt))
		rc = -1;
	cli_json_key(j, "names");
	cli_json_open(j, '[');
	for (i = 0; i < in->n && !rc; i++) {
		cli_json_open(j, '{');
		cli_json_key(j, "name");
		cli_json_string(j, in->names[i]);
		rc = value(j, ctx, "derivative", in->plans, 1 + 2 * i, pt) ||
			value(j, ctx, "elasticity", in->plans, 2 + 2 * i, pt) ?
			-1 : 0;
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
	cli_json_close(j, '}');
	return rc;
}

/* Writes the document (see json_commands.h). */
int json_sensitivity(segc_ctx *ctx, const json_sensitivity_info *in,
	const cli_grid *g)
{
	size_t n = g->naxes ? cli_grid_points(g) : 0, k, i;
	const char *names[CLI_MAX_AXES];
	mpq_t v[CLI_MAX_AXES];
	segc_point pt;
	cli_json j;
	int rc = 0;

	cli_json_init(&j);
	cli_json_open(&j, '{');
	cli_json_key(&j, "command");
	cli_json_string(&j, "sensitivity");
	cli_json_key(&j, "model");
	cli_json_string(&j, in->model);
	cli_json_key(&j, "component");
	cli_json_string(&j, in->component);
	formula(&j, "formula", in->t);
	cli_json_key(&j, "names");
	cli_json_open(&j, '[');
	for (i = 0; i < in->n; i++) {
		cli_json_open(&j, '{');
		cli_json_key(&j, "name");
		cli_json_string(&j, in->names[i]);
		formula(&j, "derivative", in->d[i]);
		formula(&j, "elasticity", in->e[i]);
		cli_json_key(&j, "steps");
		cli_json_bool(&j, segc_expr_has_jump(in->t, in->names[i]));
		cli_json_close(&j, '}');
	}
	cli_json_close(&j, ']');
	for (i = 0; i < g->naxes; i++) {
		names[i] = g->axes[i].name;
		mpq_init(v[i]);
	}
	pt.n = g->naxes;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	cli_json_key(&j, "points");
	cli_json_open(&j, '[');
	for (k = 0; k < n && !rc; k++) {
		cli_grid_point(g, k, v);
		rc = point(&j, ctx, in, &pt);
	}
	cli_json_close(&j, ']');
	cli_json_close(&j, '}');
	cli_json_end(&j);
	for (i = 0; i < g->naxes; i++)
		mpq_clear(v[i]);
	return rc;
}
