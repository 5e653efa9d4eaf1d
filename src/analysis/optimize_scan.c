/* optimize_scan.c - the optimum of a formula over the integers of a
 * small range, for formulas that cannot be cut into rational pieces of
 * the variable (the variable in the bounds of a sum, inside ceil of a
 * quotient, in a recurrence): every integer of the range is evaluated
 * exactly and compared exactly, so the certificate is the whole range.
 * The scan shares one evaluation's budget of terms of sums
 * (max_eval_terms): each integer gets its share, so a scan never takes
 * much longer than one 'segc eval' of the formula may.
 *
 * The integers are first enclosed in certified doubles (cheap): one
 * whose enclosure lies wholly past another's cannot be the optimum, nor
 * tie with it, and is not evaluated exactly.  The ones left are, in
 * order, as before; the optimum, its value and the errors are the same
 * (an integer the doubles decline is evaluated exactly). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <segc/eval.h>

#include "analysis/analysis.h"
#include "base/util.h"

/* The integers a, a + 1, ..., a + n - 1 of 'var' (its value in 'qx',
 * the point 'pt') that the doubles show cannot be the optimum: a
 * malloc'd array of flags. */
static unsigned char *beaten(segc_ctx *ctx, const segc_eval_plan *plan,
	const segc_point *pt, mpq_ptr qx, mpz_srcptr a, unsigned long n,
	int maximize)
{
	unsigned char *out = segc_xcalloc(n + 1, 1), *ok;
	double *lo = segc_xcalloc(n + 1, sizeof *lo);
	double *hi = segc_xcalloc(n + 1, sizeof *hi), bound = 0;
	unsigned long i;
	int have = 0;

	ok = segc_xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		mpq_set_z(qx, a);
		mpz_add_ui(mpq_numref(qx), mpq_numref(qx), i);
		ok[i] = !segc_eval_plan_double(ctx, &lo[i], &hi[i], plan, pt);
		if (ok[i] && (!have || (maximize ? lo[i] > bound :
		    hi[i] < bound))) {
			bound = maximize ? lo[i] : hi[i];
			have = 1;
		}
	}
	for (i = 0; i < n; i++)
		out[i] = ok[i] && (maximize ? hi[i] < bound : lo[i] > bound);
	free(ok);
	free(lo);
	free(hi);
	return out;
}

/* The optimum of 'e' over the integers of [lo, hi] by evaluating each
 * (see analysis.h). */
int segc_optimize_scan(segc_ctx *ctx, segc_optimum *out, const segc_expr *e,
	const char *var, mpq_srcptr lo, mpq_srcptr hi, int maximize,
	const char *file)
{
	mpz_t a, b, x;
	mpq_t qx, v;
	segc_point pt;
	segc_eval_plan *plan;
	segc_limits *lim;
	unsigned long saved, share;
	unsigned char *skip = NULL;
	unsigned long k;
	int rc = 0, found = 0, c;

	memset(out, 0, sizeof *out);
	mpz_init(out->best);
	mpq_init(out->value);
	out->scanned = 1;
	mpz_inits(a, b, x, (mpz_ptr)0);
	mpq_init(qx);
	mpq_init(v);
	mpz_cdiv_q(a, mpq_numref(lo), mpq_denref(lo));
	mpz_fdiv_q(b, mpq_numref(hi), mpq_denref(hi));
	mpz_sub(x, b, a);
	if (mpz_sgn(x) < 0) {
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the range of '%s' "
			"holds no integer", var);
		rc = -1;
		goto out;
	}
	/* x + 1 integers: refused past SEGC_OPTIMIZE_MAX_SCAN of them */
	if (mpz_cmp_ui(x, SEGC_OPTIMIZE_MAX_SCAN) >= 0) {
		segc_error(ctx, SEGC_ERR_LIMIT, file, 0, 0, "the quantity is "
			"not a rational function of '%s' piece by piece, and the "
			"range holds more than %lu integers to compare one by one",
			var, SEGC_OPTIMIZE_MAX_SCAN);
		rc = -1;
		goto out;
	}
	out->cand = segc_xmalloc(2 * sizeof(mpz_t));
	mpz_init_set(out->cand[0], a);
	mpz_init_set(out->cand[1], b);
	out->ncand = mpz_cmp(a, b) ? 2 : 1;
	if (out->ncand == 1)
		mpz_clear(out->cand[1]);
	lim = segc_ctx_limits(ctx);
	saved = lim->max_eval_terms;
	share = saved / (mpz_get_ui(x) + 1);
	lim->max_eval_terms = share ? share : 1;
	pt.n = 1;
	pt.names = &var;
	pt.values = (const mpq_t *)&qx;
	/* compiled once, run at every integer */
	if (!(plan = segc_eval_plan_new(ctx, e, &pt)))
		rc = -1;
	else
		skip = beaten(ctx, plan, &pt, qx, a, mpz_get_ui(x) + 1,
			maximize);
	for (mpz_set(x, a), k = 0; mpz_cmp(x, b) <= 0 && !rc;
	     mpz_add_ui(x, x, 1), k++) {
		if (skip[k])
			continue;
		mpq_set_z(qx, x);
		rc = segc_eval_plan_exact(ctx, v, plan, &pt, NULL);
		if (rc > 0) {
			char *t = mpz_get_str(NULL, 10, x);

			segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the quantity "
				"has no exact rational value at %s=%s, so the "
				"integers cannot be compared exactly", var, t);
			free(t);
		}
		if (rc)
			break;
		c = found ? mpq_cmp(v, out->value) : 0;
		if (!found || (maximize ? c > 0 : c < 0)) {
			mpq_set(out->value, v);
			mpz_set(out->best, x);
			found = 1;
		}
	}
	lim->max_eval_terms = saved;
	segc_eval_plan_free(plan);
	free(skip);
	rc = rc ? -1 : 0;
out:
	mpz_clears(a, b, x, (mpz_ptr)0);
	mpq_clear(qx);
	mpq_clear(v);
	return rc;
}
