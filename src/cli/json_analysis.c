/* json_analysis.c - the documents of 'optimize --json' and 'solve
 * --json' (doc/json.md): the optimum and its certificate, the roots, each
 * number exact as a string with its decimal beside it. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli_json.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

/* Writes the members "model" and "command" that open every document. */
static void header(cli_json *j, const char *command, const char *model)
{
	cli_json_open(j, '{');
	cli_json_key(j, "command");
	cli_json_string(j, command);
	cli_json_key(j, "model");
	cli_json_string(j, model);
}

/* Writes the integer 'z' as a string. */
static void json_mpz(cli_json *j, mpz_srcptr z)
{
	char *t = mpz_get_str(NULL, 10, z);

	cli_json_string(j, t);
	free(t);
}

/* Writes the optimum (see json_commands.h). */
void json_optimize(const json_optimize_info *in, const segc_optimum *opt,
	size_t nkernels)
{
	cli_json j;
	size_t i;

	cli_json_init(&j);
	header(&j, "optimize", in->model);
	cli_json_key(&j, "quantity");
	cli_json_string(&j, in->quantity);
	cli_json_key(&j, "goal");
	cli_json_string(&j, in->maximize ? "max" : "min");
	cli_json_key(&j, "name");
	cli_json_string(&j, in->var);
	cli_json_key(&j, "over");
	cli_json_string(&j, in->over);
	cli_json_key(&j, "best");
	json_mpz(&j, opt->best);
	cli_json_exact(&j, "value", opt->value);
	cli_json_key(&j, "method");
	cli_json_string(&j, opt->scanned ? "scan" : "pieces");
	cli_json_key(&j, "pieces");
	if (opt->scanned)
		cli_json_null(&j);
	else
		cli_json_uint(&j, opt->npieces);
	cli_json_key(&j, "cut_at_kernels");
	cli_json_bool(&j, nkernels > 0);
	cli_json_key(&j, "stationary_points");
	cli_json_open(&j, '[');
	for (i = 0; i < opt->nstat; i++)
		cli_json_string(&j, opt->stat[i]);
	cli_json_close(&j, ']');
	cli_json_key(&j, "candidates");
	cli_json_open(&j, '[');
	for (i = 0; i < opt->ncand; i++)
		json_mpz(&j, opt->cand[i]);
	cli_json_close(&j, ']');
	cli_json_close(&j, '}');
	cli_json_end(&j);
}

/* Writes the opening members of the document of 'solve --json'. */
static void solve_header(cli_json *j, const json_solve_info *in,
	const char *method)
{
	header(j, "solve", in->model);
	cli_json_key(j, "equation");
	cli_json_string(j, in->equation);
	cli_json_key(j, "name");
	cli_json_string(j, in->var);
	cli_json_key(j, "range");
	cli_json_string(j, in->range);
	cli_json_key(j, "method");
	cli_json_string(j, method);
}

/* Writes one root: its text, whether exact, its decimal. */
static void root(cli_json *j, const char *text, int exact)
{
	cli_json_open(j, '{');
	cli_json_key(j, "value");
	cli_json_string(j, text);
	cli_json_key(j, "exact");
	cli_json_bool(j, exact);
	cli_json_key(j, "decimal");
	if (exact && strchr(text, '/')) {
		mpq_t q;
		mpfr_t x;

		mpq_init(q);
		mpfr_init2(x, 128);
		if (!mpq_set_str(q, text, 10)) {
			mpq_canonicalize(q);
			mpfr_set_q(x, q, MPFR_RNDN);
			cli_json_mpfr(j, x);
		} else {
			cli_json_null(j);
		}
		mpfr_clear(x);
		mpq_clear(q);
	} else {
		cli_json_decimal_text(j, text);
	}
	cli_json_close(j, '}');
}

/* Writes the array 'key' of the strings 'v'[0..n). */
static void strings(cli_json *j, const char *key, char *const *v, size_t n)
{
	size_t i;

	cli_json_key(j, key);
	cli_json_open(j, '[');
	for (i = 0; i < n; i++)
		cli_json_string(j, v[i]);
	cli_json_close(j, ']');
}

/* Writes the roots found piece by piece (see json_commands.h). */
void json_solve(const json_solve_info *in, const segc_solution *sol)
{
	cli_json j;
	size_t i;

	cli_json_init(&j);
	solve_header(&j, in, "pieces");
	cli_json_key(&j, "roots");
	cli_json_open(&j, '[');
	for (i = 0; i < sol->n; i++)
		root(&j, sol->root[i], sol->exact[i]);
	cli_json_close(&j, ']');
	strings(&j, "zero_intervals", sol->zero, sol->nzero);
	strings(&j, "jumps", sol->jump, sol->njump);
	cli_json_key(&j, "crossings");
	cli_json_open(&j, '[');
	cli_json_close(&j, ']');
	cli_json_close(&j, '}');
	cli_json_end(&j);
}

/* The exact sign of 'e' at the integer 'k' into '*sign': 0, or
 * non-zero after an error recorded. */
static int sign_at(segc_ctx *ctx, const json_solve_info *in,
	const segc_expr *e, mpz_srcptr k, int *sign)
{
	segc_point pt;
	mpq_t x, v;
	char *s;
	int rc;

	mpq_init(x);
	mpq_init(v);
	mpq_set_z(x, k);
	pt.n = 1;
	pt.names = &in->var;
	pt.values = (const mpq_t *)&x;
	rc = segc_eval_exact(ctx, v, e, &pt, NULL);
	if (rc > 0) {
		s = mpz_get_str(NULL, 10, k);
		segc_error(ctx, SEGC_ERR_INPUT, in->file, 0, 0, "the equation "
			"has no exact rational value at %s=%s, so its sign there "
			"cannot be known exactly", in->var, s);
		free(s);
	}
	*sign = mpq_sgn(v);
	mpq_clear(x);
	mpq_clear(v);
	return rc;
}

/* Writes the roots and crossings found at the integers of the range,
 * each evaluated exactly (see json_commands.h); 0, or -1 recorded
 * (nothing written then). */
int json_solve_scan(segc_ctx *ctx, const json_solve_info *in,
	const segc_expr *e, mpq_srcptr lo, mpq_srcptr hi)
{
	segc_limits *lim = segc_ctx_limits(ctx);
	unsigned long saved = lim->max_eval_terms;
	size_t nroot = 0, ncross = 0, i;
	char **roots = NULL, **cross = NULL;
	int rc = 0, sign, prev = 0;
	mpz_t a, b, k;
	cli_json j;

	mpz_inits(a, b, k, (mpz_ptr)0);
	mpz_cdiv_q(a, mpq_numref(lo), mpq_denref(lo));
	mpz_fdiv_q(b, mpq_numref(hi), mpq_denref(hi));
	mpz_sub(k, b, a);
	lim->max_eval_terms = saved / (mpz_get_ui(k) + 1) ?
		saved / (mpz_get_ui(k) + 1) : 1;
	for (mpz_set(k, a); !rc && mpz_cmp(k, b) <= 0; mpz_add_ui(k, k, 1)) {
		if ((rc = sign_at(ctx, in, e, k, &sign)) != 0)
			break;
		if (!sign) {
			roots = cli_xrealloc(roots, (nroot + 1) * sizeof *roots);
			roots[nroot++] = mpz_get_str(NULL, 10, k);
		} else if (mpz_cmp(k, a) > 0 && prev && prev != sign) {
			cross = cli_xrealloc(cross, (ncross + 1) * sizeof *cross);
			mpz_sub_ui(k, k, 1);
			cross[ncross++] = mpz_get_str(NULL, 10, k);
			mpz_add_ui(k, k, 1);
		}
		prev = sign;
	}
	lim->max_eval_terms = saved;
	if (!rc) {
		cli_json_init(&j);
		solve_header(&j, in, "scan");
		cli_json_key(&j, "roots");
		cli_json_open(&j, '[');
		for (i = 0; i < nroot; i++)
			root(&j, roots[i], 1);
		cli_json_close(&j, ']');
		strings(&j, "zero_intervals", NULL, 0);
		strings(&j, "jumps", NULL, 0);
		cli_json_key(&j, "crossings");
		cli_json_open(&j, '[');
		for (i = 0; i < ncross; i++) {
			mpz_set_str(k, cross[i], 10);
			mpz_add_ui(k, k, 1);
			cli_json_open(&j, '{');
			cli_json_key(&j, "from");
			cli_json_string(&j, cross[i]);
			cli_json_key(&j, "to");
			json_mpz(&j, k);
			cli_json_close(&j, '}');
		}
		cli_json_close(&j, ']');
		cli_json_close(&j, '}');
		cli_json_end(&j);
	}
	for (i = 0; i < nroot; i++)
		free(roots[i]);
	for (i = 0; i < ncross; i++)
		free(cross[i]);
	free(roots);
	free(cross);
	mpz_clears(a, b, k, (mpz_ptr)0);
	return rc ? -1 : 0;
}
