/* cmd_optimize.c - 'segc optimize': the integer value of a name in A..B
 * where a quantity of the model is least (--min) or most (--max), its
 * exact value, and how that was certified. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/json_commands.h"

/* The options of 'optimize'. */
typedef struct optimize_opts {
	const char *quantity;
	int maximize, both;
	const char *over;
	char *var;
	mpq_t lo, hi;
	int json;                /* --json */
	const char *model;       /* the model's name, for --json */
} optimize_opts;

/* Consumes --min Q, --max Q or --over NAME=A..B. */
static int optimize_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	optimize_opts *o = opts;
	const char *v;
	int r, k;

	if (cli_json_option(argv, i, &o->json))
		return 1;
	for (k = 0; k < 2; k++) {
		r = cli_option_value(c, argc, argv, i, k ? "max" : "min", 0, &v);
		if (r > 0) {
			o->both |= o->quantity != NULL;
			o->quantity = v;
			o->maximize = k;
		}
		if (r)
			return r;
	}
	r = cli_option_value(c, argc, argv, i, "over", 0, &v);
	if (r > 0)
		o->over = v;
	return r;
}

/* Checks the command line read; 0 or an exit code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	optimize_opts *o = opts;
	const char *range;
	size_t i;

	if (!o->quantity || o->both)
		return cli_usage(c, "give one of --min Q and --max Q");
	if (!o->over)
		return cli_usage(c, "--over NAME=A..B is required");
	if (cli_name_range(c, "--over", o->over, &o->var, &range) ||
	    cli_range(ctx, c, "--over", range, 1, o->lo, o->hi))
		return CLI_USAGE;
	for (i = 0; i < segc_bindings_count(c->bindings); i++)
		if (!strcmp(segc_bindings_name(c->bindings, i), o->var))
			return cli_usage(c, "'%s' is both bound and varied",
				o->var);
	return 0;
}

/* Prints the optimum and its certificate. */
static void print_optimum(const cli_common *c, const optimize_opts *o,
	const segc_optimum *opt, size_t nkernels)
{
	char *t = mpz_get_str(NULL, 10, opt->best);
	size_t i;

	cli_printf("%s = %s\n", o->var, t);
	free(t);
	if (c->quiet)
		return;
	cli_printf("%s = ", o->quantity);
	cli_print_number(opt->value);
	cli_printf("\n%s of %s over %s, certified exactly:\n",
		o->maximize ? "the maximum" : "the minimum", o->quantity,
		o->over);
	if (opt->scanned) {
		char *a = mpz_get_str(NULL, 10, opt->cand[0]);
		char *b = mpz_get_str(NULL, 10, opt->cand[opt->ncand - 1]);

		cli_printf("  not a rational function of %s piece by piece: "
			"every integer of %s..%s compared, exactly where "
			"certified doubles do not separate them\n", o->var,
			a, b);
		free(a);
		free(b);
		return;
	}
	cli_printf("  pieces: %lu (a rational function of %s on each%s)\n",
		(unsigned long)opt->npieces, o->var, nkernels ? "; cut where "
		"max, min, if() or ceil/floor(log2) change" : "");
	cli_printf("  stationary points:");
	for (i = 0; i < opt->nstat; i++)
		cli_printf("%s %s", i ? "," : "", opt->stat[i]);
	cli_printf("%s\n  candidates compared:", opt->nstat ? "" : " none");
	for (i = 0; i < opt->ncand; i++) {
		t = mpz_get_str(NULL, 10, opt->cand[i]);
		cli_printf("%s %s", i ? "," : "", t);
		free(t);
	}
	cli_puts("\n");
}

/* Prints the optimum as text or, with --json, as a document. */
static void report(const cli_common *c, const optimize_opts *o,
	const segc_optimum *opt, size_t nkernels)
{
	json_optimize_info in;

	if (!o->json) {
		print_optimum(c, o, opt, nkernels);
		return;
	}
	in.model = o->model;
	in.quantity = o->quantity;
	in.var = o->var;
	in.over = o->over;
	in.maximize = o->maximize;
	json_optimize(&in, opt, nkernels);
}

/* The pieces of 'e' over the range of 'o', or NULL.  A formula that is
 * not a rational function of the variable piece by piece sets '*scan'
 * instead (and records nothing) when its range is small enough to
 * compare every integer. */
static segc_pieces *pieces_or_scan(segc_ctx *ctx, cli_common *c,
	const optimize_opts *o, const segc_expr *e, int *scan)
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
		*scan = mpz_cmp_ui(n, SEGC_OPTIMIZE_MAX_SCAN) < 0;
		mpz_clear(n);
		mpz_clear(t);
	}
	if (!ps && !*scan && segc_ctx_status(trial) == SEGC_ERR_INPUT) {
		const segc_diag *d = segc_ctx_diag(trial, 0);

		segc_error(ctx, SEGC_ERR_INPUT, c->file, 0, 0, "%s; and the "
			"range of '%s' holds more than %lu integers to compare "
			"one by one", d->message, o->var,
			SEGC_OPTIMIZE_MAX_SCAN);
	}
	segc_ctx_free(trial);
	if (ps || *scan || segc_ctx_status(ctx) != SEGC_OK)
		return ps;
	return segc_pieces_new(ctx, e, o->var, o->lo, o->hi, c->file);
}

/* -1 (reported at the <loop>) when a loop count of the program of 's'
 * is negative at an integer 'var' of [lo, hi]: the range reaches outside
 * the model's domain. */
static int counts_over(segc_ctx *ctx, const segc_setting *s,
	const char *var, mpq_srcptr lo, mpq_srcptr hi)
{
	segc_counts *counts = segc_counts_new(ctx, s);
	int rc = counts ? segc_counts_over(ctx, counts, var, lo, hi, 0,
		NULL, NULL) : -1;

	segc_counts_free(counts);
	return rc;
}

/* Derives the quantity, cuts it into pieces (or else scans its range)
 * and finds the optimum. */
static int run(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	optimize_opts *o = opts;
	segc_where w = { NULL, 0, 0, "the quantity of --min/--max" };
	segc_expr *e;
	segc_pieces *ps;
	segc_optimum opt;
	int rc, scan;

	if ((rc = cli_free_name(ctx, c, s, o->var)) != 0)
		return rc;
	o->model = segc_model_name(s->model);
	if (counts_over(ctx, s, o->var, o->lo, o->hi))
		return cli_report(ctx);
	e = segc_quantity(ctx, s, o->quantity, &w);
	if (e)
		e = segc_quantity_canonical(ctx, s, e, o->var, o->lo, o->hi);
	if (!e)
		return cli_report(ctx);
	ps = pieces_or_scan(ctx, c, o, e, &scan);
	if (scan) {
		if (!segc_optimize_scan(ctx, &opt, e, o->var, o->lo, o->hi,
				o->maximize, c->file))
			report(c, o, &opt, 0);
		segc_optimum_clear(&opt);
	} else if (ps && !segc_optimize(ctx, &opt, ps, o->maximize, o->var,
			c->file)) {
		report(c, o, &opt, segc_pieces_nkernels(ps));
		segc_optimum_clear(&opt);
	} else if (ps)
		segc_optimum_clear(&opt);
	segc_expr_free(e);
	segc_pieces_free(ps);
	rc = cli_report(ctx);
	return rc;
}

/* Runs 'segc optimize'. */
int cmd_optimize(int argc, char **argv)
{
	static const cli_model_command cmd = { "optimize", optimize_option,
		cli_bind_operand, check_args, run };
	optimize_opts o;
	int rc;

	memset(&o, 0, sizeof o);
	mpq_init(o.lo);
	mpq_init(o.hi);
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	free(o.var);
	mpq_clear(o.lo);
	mpq_clear(o.hi);
	return rc;
}
