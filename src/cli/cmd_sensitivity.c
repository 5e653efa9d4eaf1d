/* cmd_sensitivity.c - 'segc sensitivity': for every free name x of a
 * component T, the exact partial derivative dT/dx and the elasticity
 * (x/T)*dT/dx in canonical form; with a grid, per point, the names ranked
 * by the size of their elasticity. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* The options of 'sensitivity': those it shares with whatif. */
typedef cli_table_opts sens_opts;

/* The formula and, per free name, its derivative and elasticity. */
typedef struct sens {
	segc_expr *t;
	size_t n;
	const char **names;
	segc_expr **d, **e;
} sens;

/* Consumes --component C or --digits D. */
static int sens_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	sens_opts *o = opts;
	int r;

	if ((r = cli_option_value(c, argc, argv, i, "component", 0,
			&o->component)) != 0)
		return r;
	return cli_digits_option(c, argc, argv, i, &o->digits);
}

/* The canonical form of 'e' (taken) under the domains of 's'. */
static segc_expr *canon(segc_ctx *ctx, const segc_setting *s, segc_expr *e)
{
	return e ? segc_quantity_canonical(ctx, s, e, NULL, NULL, NULL) : NULL;
}

/* Derives T, and the derivative and elasticity of every free name. */
static int analyse(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, sens *S)
{
	size_t i;

	S->t = segc_derive_canonical(ctx, s, comp);
	if (!S->t)
		return -1;
	if (segc_expr_is_zero(S->t)) {
		segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "the formula is 0: "
			"it has no elasticities");
		return -1;
	}
	S->n = segc_output_names(S->t, 0, &S->names);
	S->d = cli_xcalloc(S->n + 1, sizeof *S->d);
	S->e = cli_xcalloc(S->n + 1, sizeof *S->e);
	for (i = 0; i < S->n; i++) {
		S->d[i] = canon(ctx, s, segc_expr_diff(ctx, S->t, S->names[i]));
		if (!S->d[i])
			return -1;
		S->e[i] = canon(ctx, s, segc_expr_div2(segc_expr_mul2(
			segc_expr_sym(S->names[i]), segc_expr_copy(S->d[i])),
			segc_expr_copy(S->t)));
		if (!S->e[i])
			return -1;
	}
	return 0;
}

/* Prints 'e' on the rest of the line. */
static void put_expr(const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	cli_printf("%s\n", t);
	free(t);
}

/* Prints the derivatives and elasticities. */
static void print_formulas(const char *component, const sens *S)
{
	size_t i;

	cli_printf("%s = ", component);
	put_expr(S->t);
	for (i = 0; i < S->n; i++) {
		cli_printf("d%s/d%s = ", component, S->names[i]);
		put_expr(S->d[i]);
		if (segc_expr_has_jump(S->t, S->names[i]))
			cli_printf("  (between the jumps of ceil and floor of "
				"%s, taken there as constants)\n", S->names[i]);
		cli_printf("elasticity of %s = ", S->names[i]);
		put_expr(S->e[i]);
	}
}

/* One name at one point: its elasticity and derivative. */
typedef struct ranked {
	const char *name;
	mpfr_t e, d;
} ranked;

/* Orders by decreasing |elasticity|, then by name (qsort). */
static int by_size(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	int c = mpfr_cmpabs(y->e, x->e);

	return c ? c : strcmp(x->name, y->name);
}

/* Prints the point's header: NAME=VALUE, ... */
static void print_point(const cli_grid *g, mpq_t *v)
{
	size_t i;

	cli_puts("at");
	for (i = 0; i < g->naxes; i++) {
		char *q = mpq_get_str(NULL, 10, v[i]);

		cli_printf("%s %s=%s", i ? "," : "", g->axes[i].name, q);
		free(q);
	}
	cli_puts(":\n");
}

/* Evaluates and ranks the names at one point; 0, or -1 (recorded). */
static int rank_point(segc_ctx *ctx, const sens_opts *o, const sens *S,
	const segc_point *pt, mpq_t *v)
{
	ranked *r = cli_xcalloc(S->n + 1, sizeof *r);
	size_t i, k;
	int rc = 0;
	char be[1100], bd[1100];

	for (i = 0; i < S->n; i++) {
		r[i].name = S->names[i];
		mpfr_init2(r[i].e, 128);
		mpfr_init2(r[i].d, 128);
		if (!rc && (segc_eval_mpfr(ctx, r[i].e, S->e[i], pt, NULL) ||
		    segc_eval_mpfr(ctx, r[i].d, S->d[i], pt, NULL)))
			rc = -1;
	}
	if (!rc) {
		qsort(r, S->n, sizeof *r, by_size);
		print_point(&o->grid, v);
		for (k = 0; k < S->n; k++) {
			mpfr_snprintf(be, sizeof be, "%.*Rg", (int)o->digits, r[k].e);
			mpfr_snprintf(bd, sizeof bd, "%.*Rg", (int)o->digits, r[k].d);
			cli_printf("  %lu. %s: elasticity %s, derivative %s\n",
				(unsigned long)k + 1, r[k].name, be, bd);
		}
	}
	for (i = 0; i < S->n; i++) {
		mpfr_clear(r[i].e);
		mpfr_clear(r[i].d);
	}
	free(r);
	return rc;
}

/* Ranks the names at every point of the grid. */
static int rank_grid(segc_ctx *ctx, const cli_common *c, const sens_opts *o,
	const sens *S)
{
	size_t n = cli_grid_points(&o->grid), k, i;
	const char *names[CLI_MAX_AXES];
	mpq_t v[CLI_MAX_AXES];
	segc_point pt;
	int rc = 0;

	if (!n)
		return cli_usage(c, "the grid has too many points");
	for (i = 0; i < o->grid.naxes; i++) {
		names[i] = o->grid.axes[i].name;
		mpq_init(v[i]);
	}
	pt.n = o->grid.naxes;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	for (k = 0; k < n && !rc; k++) {
		cli_grid_point(&o->grid, k, v);
		rc = rank_point(ctx, o, S, &pt, v);
	}
	for (i = 0; i < o->grid.naxes; i++)
		mpq_clear(v[i]);
	return rc ? cli_report(ctx) : 0;
}

/* Releases 'S'. */
static void sens_clear(sens *S)
{
	size_t i;

	for (i = 0; i < S->n; i++) {
		segc_expr_free(S->d[i]);
		segc_expr_free(S->e[i]);
	}
	free(S->d);
	free(S->e);
	free(S->names);
	segc_expr_free(S->t);
}

/* Runs the analysis under 's'. */
static int run(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	sens_opts *o = opts;
	int comp = segc_component_parse(o->component), rc;
	sens S;

	memset(&S, 0, sizeof S);
	if (comp < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->component);
	if ((rc = cli_grid_check(ctx, c, s, &o->grid)) != 0)
		return rc;
	if (analyse(ctx, s, (enum segc_component)comp, &S)) {
		rc = cli_report(ctx);
		sens_clear(&S);
		return rc ? rc : CLI_USAGE;
	}
	print_formulas(o->component, &S);
	rc = o->grid.naxes ? rank_grid(ctx, c, o, &S) : 0;
	sens_clear(&S);
	return rc;
}

/* Runs 'segc sensitivity'. */
int cmd_sensitivity(int argc, char **argv)
{
	static const cli_model_command cmd = { "sensitivity", sens_option,
		cli_table_operand, NULL, run };
	sens_opts o;
	int rc;

	cli_table_opts_init(&o);
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	cli_table_opts_clear(&o);
	return rc;
}
