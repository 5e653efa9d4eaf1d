/* cmd_solve.c - 'segc solve': every real root in a name of an equation
 * between quantities of the model (comp = comm, efficiency = 1/2), each
 * isolated exactly and printed correctly rounded, rational roots exact;
 * a formula that is not rational piece by piece is scanned over the
 * integers of a small range instead: its zeros and its sign changes. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

/* The options of 'solve'. */
typedef struct solve_opts {
	const char *var;
	const char *in;
	const char *equation;
	long digits;
	mpq_t lo, hi;
	char *range;          /* the range searched, as A..B */
	int json;             /* --json */
} solve_opts;

/* Consumes --for NAME, --in A..B or --digits D. */
static int solve_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	solve_opts *o = opts;
	int r;

	if (cli_json_option(argv, i, &o->json))
		return 1;
	if ((r = cli_option_value(c, argc, argv, i, "for", 0, &o->var)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "in", 0, &o->in)) != 0)
		return r;
	return cli_digits_option(c, argc, argv, i, &o->digits);
}

/* The first operand is the equation; later ones as cli_bind_operand. */
static int solve_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	solve_opts *o = opts;

	if (!o->equation) {
		o->equation = arg;
		return 1;
	}
	return cli_bind_operand(ctx, c, arg, NULL);
}

/* Checks the command line read; 0 or an exit code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	solve_opts *o = opts;
	size_t i;

	if (!o->var)
		return cli_usage(c, "--for NAME is required");
	if (o->in && cli_range(ctx, c, "--in", o->in, 0, o->lo, o->hi))
		return CLI_USAGE;
	for (i = 0; i < segc_bindings_count(c->bindings); i++)
		if (!strcmp(segc_bindings_name(c->bindings, i), o->var))
			return cli_usage(c, "'%s' is both bound and solved for",
				o->var);
	return 0;
}

/* The position of the one '=' of 'eq' that is not part of <=, >=, ==,
 * !=; NULL when there is none or several (-1 in '*several'). */
static const char *equals_sign(const char *eq, int *several)
{
	const char *p, *found = NULL;

	*several = 0;
	for (p = eq; *p; p++) {
		if (*p != '=')
			continue;
		if ((p > eq && strchr("<>!=", p[-1])) || p[1] == '=')
			continue;
		if (found)
			*several = 1;
		found = p;
	}
	return found;
}

/* The formula left - right of the equation (structural); NULL after a
 * diagnostic or a usage error (*rc set). */
static segc_expr *difference(segc_ctx *ctx, const cli_common *c,
	const solve_opts *o, const segc_setting *s, int *rc)
{
	segc_where w = { NULL, 0, 0, "the equation" };
	int several;
	const char *eq = equals_sign(o->equation, &several);
	char *left;
	segc_expr *a, *b;

	if (!eq || several) {
		*rc = cli_usage(c, "'%s' is not an equation LEFT = RIGHT",
			o->equation);
		return NULL;
	}
	left = cli_xmalloc((size_t)(eq - o->equation) + 1);
	memcpy(left, o->equation, (size_t)(eq - o->equation));
	left[eq - o->equation] = '\0';
	a = segc_quantity(ctx, s, left, &w);
	b = a ? segc_quantity(ctx, s, eq + 1, &w) : NULL;
	free(left);
	if (!b) {
		segc_expr_free(a);
		*rc = cli_report(ctx);
		return NULL;
	}
	return segc_expr_sub2(a, b);
}

/* Prints the roots. */
static void print_solution(const solve_opts *o, const segc_solution *sol)
{
	size_t i;

	for (i = 0; i < sol->n; i++)
		cli_printf("%s = %s (%s)\n", o->var, sol->root[i],
			sol->exact[i] ? "exact" : "correctly rounded");
	for (i = 0; i < sol->nzero; i++)
		cli_printf("the equation holds for every %s in the open "
			"interval %s\n", o->var, sol->zero[i]);
	for (i = 0; i < sol->njump; i++)
		cli_printf("%s = %s (no root: the two sides cross there at "
			"a jump)\n", o->var, sol->jump[i]);
	if (!sol->n && !sol->nzero && !sol->njump)
		cli_printf("no root in %s\n", o->range);
}

/* Without --in: the declared domain of the name, its missing ends
 * replaced by Cauchy's bound on the roots of the formula (which must be
 * one rational function: no kernel of the name); 0 or an exit code. */
static int default_range(segc_ctx *ctx, const cli_common *c, solve_opts *o,
	const segc_setting *s, const segc_expr *e)
{
	segc_domains *d = segc_setting_domains(ctx, s);
	mpq_srcptr dlo = NULL, dhi = NULL;
	segc_pieces *ps = NULL;
	int integer, rc = 0;
	mpq_t m;

	if (!d)
		return cli_report(ctx);
	segc_domains_get(d, o->var, &dlo, &dhi, &integer);
	mpq_init(m);
	if (dlo)
		mpq_set(m, dlo);
	else if (dhi)
		mpq_set(m, dhi);
	if ((!dlo || !dhi) && !(ps = segc_pieces_new(ctx, e, o->var, m, m,
	    c->file)))
		rc = cli_report(ctx);
	else if ((!dlo || !dhi) && segc_pieces_nkernels(ps))
		rc = cli_usage(c, "give --in A..B: the declared domain of '%s' "
			"is not bounded and the equation has max, min, if() or "
			"log2 of it", o->var);
	else if (!dlo || !dhi)
		segc_pieces_root_bound(m, ps);
	segc_pieces_free(ps);
	if (!rc) {
		if (dlo)
			mpq_set(o->lo, dlo);
		else
			mpq_neg(o->lo, m);
		mpq_set(o->hi, dhi ? dhi : m);
		if (mpq_cmp(o->lo, o->hi) > 0)
			mpq_set(o->hi, o->lo);
	}
	mpq_clear(m);
	segc_domains_free(d);
	return rc;
}

/* Sets the text of the range searched. */
static void range_text(solve_opts *o)
{
	char *a = mpq_get_str(NULL, 10, o->lo), *b = mpq_get_str(NULL, 10,
		o->hi);

	o->range = cli_xmalloc(strlen(a) + strlen(b) + 3);
	sprintf(o->range, "%s..%s", a, b);
	free(a);
	free(b);
}

/* The pieces of 'e' over the range of 'o', or NULL.  A formula that is
 * not a rational function of the name piece by piece sets '*scan'
 * instead (and records nothing) when the range holds at most
 * SEGC_OPTIMIZE_MAX_SCAN integers. */
static segc_pieces *pieces_or_scan(segc_ctx *ctx, const cli_common *c,
	const solve_opts *o, const segc_expr *e, int *scan)
{
	segc_ctx *trial = segc_ctx_new();
	segc_pieces *ps;
	mpz_t n, t;

	*segc_ctx_limits(trial) = *segc_ctx_limits(ctx);
	ps = segc_pieces_new(trial, e, o->var, o->lo, o->hi, c->file);
	*scan = 0;
	if (!ps && segc_ctx_status(trial) == SEGC_ERR_INPUT) {
		mpz_init(n);
		mpz_init(t);
		mpz_fdiv_q(n, mpq_numref(o->hi), mpq_denref(o->hi));
		mpz_cdiv_q(t, mpq_numref(o->lo), mpq_denref(o->lo));
		mpz_sub(n, n, t);
		*scan = mpz_sgn(n) >= 0 &&
			mpz_cmp_ui(n, SEGC_OPTIMIZE_MAX_SCAN) < 0;
		mpz_clear(n);
		mpz_clear(t);
	}
	if (!ps && !*scan && segc_ctx_status(trial) == SEGC_ERR_INPUT)
		segc_error(ctx, SEGC_ERR_INPUT, c->file, 0, 0, "%s; and the "
			"range of '%s' holds no integer or more than %lu to "
			"evaluate one by one", segc_ctx_diag(trial, 0)->message,
			o->var, SEGC_OPTIMIZE_MAX_SCAN);
	segc_ctx_free(trial);
	if (ps || *scan || segc_ctx_status(ctx) != SEGC_OK)
		return ps;
	return segc_pieces_new(ctx, e, o->var, o->lo, o->hi, c->file);
}

/* Evaluates 'e' exactly at every integer of the range of 'o' and prints
 * the integers where it is 0 and the consecutive integers between which
 * it changes sign (the range shares the budget of max_eval_terms);
 * 0, or -1 recorded. */
static int scan(segc_ctx *ctx, const cli_common *c, const solve_opts *o,
	const segc_expr *e)
{
	segc_limits *lim = segc_ctx_limits(ctx);
	unsigned long saved = lim->max_eval_terms, count;
	mpz_t a, b, k;
	mpq_t x, v, prev;
	segc_point pt;
	segc_eval_plan *plan;
	char *s, *t;
	int rc = 0, have = 0, found = 0;

	mpz_inits(a, b, k, (mpz_ptr)0);
	mpq_inits(x, v, prev, (mpq_ptr)0);
	mpz_cdiv_q(a, mpq_numref(o->lo), mpq_denref(o->lo));
	mpz_fdiv_q(b, mpq_numref(o->hi), mpq_denref(o->hi));
	mpz_sub(k, b, a);
	count = mpz_get_ui(k) + 1;
	lim->max_eval_terms = saved / count ? saved / count : 1;
	pt.n = 1;
	pt.names = &o->var;
	pt.values = (const mpq_t *)&x;
	/* compiled once, run at every integer */
	plan = segc_eval_plan_new(ctx, e, &pt);
	for (mpz_set(k, a); plan && mpz_cmp(k, b) <= 0; mpz_add_ui(k, k, 1)) {
		mpq_set_z(x, k);
		rc = segc_eval_plan_exact(ctx, v, plan, &pt, NULL);
		if (rc > 0) {
			s = mpz_get_str(NULL, 10, k);
			segc_error(ctx, SEGC_ERR_INPUT, c->file, 0, 0, "the "
				"equation has no exact rational value at %s=%s, "
				"so its sign there cannot be known exactly",
				o->var, s);
			free(s);
		}
		if (rc)
			break;
		s = mpz_get_str(NULL, 10, k);
		if (!mpq_sgn(v)) {
			cli_printf("%s = %s (exact)\n", o->var, s);
			found = 1;
		} else if (have && mpq_sgn(prev) && mpq_sgn(prev) != mpq_sgn(v)) {
			mpz_sub_ui(k, k, 1);
			t = mpz_get_str(NULL, 10, k);
			mpz_add_ui(k, k, 1);
			cli_printf("%s in %s..%s: the sides cross between these "
				"consecutive integers (a root or a jump)\n",
				o->var, t, s);
			free(t);
			found = 1;
		}
		free(s);
		mpq_set(prev, v);
		have = 1;
	}
	lim->max_eval_terms = saved;
	if (!plan)
		rc = -1;
	segc_eval_plan_free(plan);
	if (!rc) {
		if (!found)
			cli_printf("no root at the integers of %s, and no "
				"crossing between two of them\n", o->range);
		cli_printf("not a rational function of %s piece by piece: every "
			"integer of %s evaluated exactly\n", o->var, o->range);
	}
	mpz_clears(a, b, k, (mpz_ptr)0);
	mpq_clears(x, v, prev, (mpq_ptr)0);
	return rc ? -1 : 0;
}

/* What --json reports of the request 'o' for the model of 's'. */
static json_solve_info json_info(const cli_common *c, const solve_opts *o,
	const segc_setting *s)
{
	json_solve_info in;

	in.model = segc_model_name(s->model);
	in.file = c->file;
	in.equation = o->equation;
	in.var = o->var;
	in.range = o->range;
	return in;
}

/* -1 (reported at the <loop>) when a loop count of the program of 's'
 * is negative at an integer of the range of 'o': the roots are sought
 * outside the model's domain (narrow it with --in). */
static int counts_over(segc_ctx *ctx, const segc_setting *s,
	const solve_opts *o)
{
	segc_counts *counts = segc_counts_new(ctx, s);
	int rc = counts ? segc_counts_over(ctx, counts, o->var, o->lo, o->hi,
		0, NULL, NULL) : -1;

	segc_counts_free(counts);
	return rc;
}

/* Finds and prints the roots. */
static int run(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	solve_opts *o = opts;
	segc_expr *e;
	segc_pieces *ps;
	segc_solution sol;
	int rc = 0, scanned;

	if ((rc = cli_free_name(ctx, c, s, o->var)) != 0)
		return rc;
	e = difference(ctx, c, o, s, &rc);
	if (!e)
		return rc ? rc : CLI_USAGE;
	e = segc_quantity_canonical(ctx, s, e, o->in ? o->var : NULL, o->lo,
		o->hi);
	if (!e)
		return cli_report(ctx);
	if (!segc_expr_has_sym(e, o->var) && !segc_expr_is_zero(e)) {
		segc_expr_free(e);
		return cli_usage(c, "the equation does not involve '%s'",
			o->var);
	}
	if (!o->in && (rc = default_range(ctx, c, o, s, e)) != 0) {
		segc_expr_free(e);
		return rc;
	}
	range_text(o);
	if (counts_over(ctx, s, o)) {
		segc_expr_free(e);
		return cli_report(ctx);
	}
	ps = pieces_or_scan(ctx, c, o, e, &scanned);
	if (scanned && o->json) {
		json_solve_info in = json_info(c, o, s);

		json_solve_scan(ctx, &in, e, o->lo, o->hi);
	} else if (scanned) {
		scan(ctx, c, o, e);
	}
	segc_expr_free(e);
	if (ps) {
		json_solve_info in = json_info(c, o, s);

		if (!segc_solve(ctx, &sol, ps, (int)o->digits, c->file)) {
			if (o->json)
				json_solve(&in, &sol);
			else
				print_solution(o, &sol);
		}
		segc_solution_clear(&sol);
	}
	segc_pieces_free(ps);
	return cli_report(ctx);
}

/* Runs 'segc solve'. */
int cmd_solve(int argc, char **argv)
{
	static const cli_model_command cmd = { "solve", solve_option,
		solve_operand, check_args, run };
	solve_opts o;
	int rc;

	memset(&o, 0, sizeof o);
	o.digits = 30;
	mpq_init(o.lo);
	mpq_init(o.hi);
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	mpq_clear(o.lo);
	mpq_clear(o.hi);
	free(o.range);
	return rc;
}
