/* optimize_scan.c - the optimum of a formula over the integers of a
 * small range, for formulas that cannot be cut into rational pieces of
 * the variable (the variable in the bounds of a sum, inside ceil of a
 * quotient, in a recurrence): every integer of the range is evaluated
 * exactly and compared exactly, so the certificate is the whole range.
 * The scan shares one evaluation's budget of terms of sums
 * (max_eval_terms): each integer gets its share, so a scan never takes
 * much longer than one 'segc eval' of the formula may. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <segc/eval.h>

#include "analysis/analysis.h"
#include "base/util.h"

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
	for (mpz_set(x, a); mpz_cmp(x, b) <= 0 && !rc; mpz_add_ui(x, x, 1)) {
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
	rc = rc ? -1 : 0;
out:
	mpz_clears(a, b, x, (mpz_ptr)0);
	mpq_clear(qx);
	mpq_clear(v);
	return rc;
}
