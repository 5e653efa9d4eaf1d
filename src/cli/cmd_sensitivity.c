/* cmd_sensitivity.c - 'segc sensitivity': for every free name x of a
 * component T, the exact partial derivative dT/dx and the elasticity
 * (x/T)*dT/dx in canonical form; with a grid, per point, the names ranked
 * by the size of their elasticity.  A name whose derivative is 0 at the
 * point because it acts through ceil or floor (a step function) gets the
 * one-sided effects of a relative change of 1 % instead, from exact
 * values, and is ranked by the larger of them. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_plans.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

/* The options of 'sensitivity': those it shares with whatif. */
typedef cli_table_opts sens_opts;

/* The formula and, per free name, its derivative and elasticity; their
 * plans (slot 0 T, 1 + 2i the derivative of name i, 2 + 2i its
 * elasticity), compiled at the first point and run at each. */
typedef struct sens {
	segc_domains *dom;
	segc_expr *t;
	size_t n;
	const char **names;
	segc_expr **d, **e;
	cli_plans *plans;
} sens;

/* Consumes --component C or --digits D. */
static int sens_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	sens_opts *o = opts;
	int r;

	if (cli_json_option(argv, i, &o->json))
		return 1;
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
	S->plans = cli_xcalloc(1, sizeof(*S->plans));
	cli_plans_init(S->plans, 2 * S->n + 1);
	S->plans->e[0] = S->t;
	for (i = 0; i < S->n; i++) {
		S->plans->e[1 + 2 * i] = S->d[i];
		S->plans->e[2 + 2 * i] = S->e[i];
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

/* The effect of moving one name by a relative step: the value moved to
 * (text), the relative change of x and of T, and their ratio. */
typedef struct side {
	int valid;
	char *at;
	mpfr_t dx, dt, arc;
} side;

/* One name at one point: its elasticity and derivative, and for a step
 * function the effects of +1 % and -1 % ('key' the size it is ranked
 * by). */
typedef struct ranked {
	const char *name;
	mpfr_t e, d, key;
	int step;
	side up, down;
} ranked;

/* Orders by decreasing key, then by name (qsort). */
static int by_size(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	int c = mpfr_cmpabs(y->key, x->key);

	return c ? c : strcmp(x->name, y->name);
}

/* The value of T at 'pt' into 'out': exact when rational, else MPFR;
 * 0, or -1 recorded. */
static int value_at(segc_ctx *ctx, const sens *S, const segc_point *pt,
	mpfr_t out)
{
	return cli_plans_value(ctx, S->plans, 0, out, pt);
}

/* The side of 'r' (up when 'up') for the name of axis 'j' of 'pt' (whose
 * values 'v' are moved and put back): x moved by 1 % (to the next
 * integer beyond that when the name is declared integer), left out when
 * that leaves its declared domain or T has no value there; 0, or -1
 * recorded (a limit reached). */
static int one_side(segc_ctx *ctx, const sens *S, const segc_point *pt,
	mpq_t *v, size_t j, mpfr_srcptr t0, int up, side *sd)
{
	mpq_srcptr lo = NULL, hi = NULL;
	segc_ctx *scratch = segc_ctx_new();
	mpq_t x, y;
	int integer = 0, rc = 0;

	mpq_init(x);
	mpq_init(y);
	mpq_set(x, v[j]);
	mpq_set_ui(y, up ? 101 : 99, 100);
	mpq_mul(y, y, x);
	segc_domains_get(S->dom, pt->names[j], &lo, &hi, &integer);
	if (integer) {	/* the next integer beyond, away from x */
		if (mpq_cmp(y, x) > 0)
			mpz_cdiv_q(mpq_numref(y), mpq_numref(y), mpq_denref(y));
		else
			mpz_fdiv_q(mpq_numref(y), mpq_numref(y), mpq_denref(y));
		mpz_set_ui(mpq_denref(y), 1);
	}
	sd->valid = mpq_sgn(x) != 0 && !mpq_equal(x, y) &&
		!(lo && mpq_cmp(y, lo) < 0) && !(hi && mpq_cmp(y, hi) > 0);
	if (sd->valid) {
		/* where T has no value (a pole, a log2 of 0), no side */
		*segc_ctx_limits(scratch) = *segc_ctx_limits(ctx);
		mpq_set(v[j], y);
		rc = value_at(scratch, S, pt, sd->dt);
		mpq_set(v[j], x);
		sd->valid = !rc;
		rc = 0;
		if (segc_ctx_status(scratch) == SEGC_ERR_LIMIT) {
			segc_error(ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "%s",
				segc_ctx_diag(scratch, 0)->message);
			rc = -1;
		}
	}
	if (sd->valid) {
		sd->at = mpq_get_str(NULL, 10, y);
		mpq_sub(y, y, x);
		mpq_div(y, y, x);
		mpfr_set_q(sd->dx, y, MPFR_RNDN);
		mpfr_sub(sd->dt, sd->dt, t0, MPFR_RNDN);
		mpfr_div(sd->dt, sd->dt, t0, MPFR_RNDN);
		mpfr_div(sd->arc, sd->dt, sd->dx, MPFR_RNDN);
		if (mpfr_zero_p(sd->dt))	/* no -0 printed */
			mpfr_set_zero(sd->dt, 1);
		if (mpfr_zero_p(sd->arc))
			mpfr_set_zero(sd->arc, 1);
	}
	mpq_clear(x);
	mpq_clear(y);
	segc_ctx_free(scratch);
	return rc;
}

/* Fills the sides of 'r', a step function at this point; its key the
 * larger |arc elasticity|; 0, or -1 recorded. */
static int step_sides(segc_ctx *ctx, const sens *S, const segc_point *pt,
	mpq_t *v, ranked *r)
{
	size_t j;
	mpfr_t t0;
	int rc;

	for (j = 0; j < pt->n && strcmp(pt->names[j], r->name); j++)
		;
	if (j == pt->n)
		return 0;
	mpfr_init2(t0, mpfr_get_prec(r->e));
	rc = value_at(ctx, S, pt, t0);
	r->step = !rc && !mpfr_zero_p(t0);
	if (r->step)
		rc = one_side(ctx, S, pt, v, j, t0, 1, &r->up) ||
			one_side(ctx, S, pt, v, j, t0, 0, &r->down) ? -1 : 0;
	if (!rc && r->step && r->up.valid)
		mpfr_abs(r->key, r->up.arc, MPFR_RNDN);
	if (!rc && r->step && r->down.valid &&
	    mpfr_cmpabs(r->down.arc, r->key) > 0)
		mpfr_abs(r->key, r->down.arc, MPFR_RNDN);
	mpfr_clear(t0);
	return rc;
}

/* Prints one side of a step function: the value moved to, by how much,
 * and the relative change of T. */
static void print_side(const char *name, const char *comp, const side *sd,
	long digits)
{
	char bx[1100], bt[1100], ba[1100];

	if (!sd->valid)
		return;
	mpfr_snprintf(bx, sizeof bx, "%+.*Rg", (int)digits, sd->dx);
	mpfr_snprintf(bt, sizeof bt, "%+.*Rg", (int)digits, sd->dt);
	mpfr_snprintf(ba, sizeof ba, "%.*Rg", (int)digits, sd->arc);
	cli_printf("     at %s=%s (relative change %s): %s changes by %s "
		"(relative), arc elasticity %s\n", name, sd->at, bx, comp, bt,
		ba);
}

/* Releases the values of 'r'. */
static void ranked_clear(ranked *r)
{
	side *sd[2] = { &r->up, &r->down };
	int k;

	mpfr_clears(r->e, r->d, r->key, (mpfr_ptr)0);
	for (k = 0; k < 2; k++) {
		mpfr_clears(sd[k]->dx, sd[k]->dt, sd[k]->arc, (mpfr_ptr)0);
		free(sd[k]->at);
	}
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
	mpfr_prec_t prec = (mpfr_prec_t)cli_bits_for_digits(128, o->digits);
	size_t i, k;
	int rc = 0;
	char be[1100], bd[1100];

	for (i = 0; i < S->n; i++) {
		r[i].name = S->names[i];
		mpfr_inits2(prec, r[i].e, r[i].d, r[i].key, r[i].up.dx,
			r[i].up.dt, r[i].up.arc, r[i].down.dx, r[i].down.dt,
			r[i].down.arc, (mpfr_ptr)0);
		if (!rc && (cli_plans_mpfr(ctx, S->plans, 2 + 2 * i, r[i].e,
		    pt) || cli_plans_mpfr(ctx, S->plans, 1 + 2 * i, r[i].d,
		    pt)))
			rc = -1;
		mpfr_abs(r[i].key, r[i].e, MPFR_RNDN);
		if (!rc && mpfr_zero_p(r[i].d) &&
		    segc_expr_has_jump(S->t, S->names[i]))
			rc = step_sides(ctx, S, pt, v, &r[i]);
	}
	if (!rc) {
		qsort(r, S->n, sizeof *r, by_size);
		print_point(&o->grid, v);
		for (k = 0; k < S->n; k++) {
			mpfr_snprintf(be, sizeof be, "%.*Rg", (int)o->digits, r[k].e);
			mpfr_snprintf(bd, sizeof bd, "%.*Rg", (int)o->digits, r[k].d);
			cli_printf("  %lu. %s: elasticity %s, derivative %s%s\n",
				(unsigned long)k + 1, r[k].name, be, bd, r[k].step ?
				" (a step function here: ranked by the effect of "
				"a change of 1 %, exact values)" : "");
			if (r[k].step) {
				print_side(r[k].name, o->component, &r[k].up,
					o->digits);
				print_side(r[k].name, o->component, &r[k].down,
					o->digits);
			}
		}
	}
	for (i = 0; i < S->n; i++)
		ranked_clear(&r[i]);
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
	if (S->plans) {
		cli_plans_clear(S->plans);
		free(S->plans);
	}
	free(S->d);
	free(S->e);
	free(S->names);
	segc_expr_free(S->t);
	segc_domains_free(S->dom);
}

/* Writes the document of --json; the exit code. */
static int json_report(segc_ctx *ctx, const segc_setting *s,
	const sens_opts *o, const sens *S)
{
	json_sensitivity_info in;

	if (o->grid.naxes && !cli_grid_points(&o->grid)) {
		segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "the grid has too "
			"many points");
		return cli_report(ctx);
	}
	in.model = segc_model_name(s->model);
	in.component = o->component;
	in.t = S->t;
	in.n = S->n;
	in.names = S->names;
	in.d = S->d;
	in.e = S->e;
	in.plans = S->plans;
	return json_sensitivity(ctx, &in, &o->grid) ? cli_report(ctx) : 0;
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
	if (cli_grid_check_counts(ctx, s, &o->grid))
		return cli_report(ctx);
	if (!(S.dom = segc_setting_domains(ctx, s)))
		return cli_report(ctx);
	if (analyse(ctx, s, (enum segc_component)comp, &S)) {
		rc = cli_report(ctx);
		sens_clear(&S);
		return rc ? rc : CLI_USAGE;
	}
	if (o->json) {
		rc = json_report(ctx, s, o, &S);
		sens_clear(&S);
		return rc;
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
