/* evalpoint.c - re-evaluates two formulas at a point, independently of
 * the witness search of 'segc check': exactly with segc_expr_eval_q, or,
 * where a value is irrational, with MPFR at 4096 bits.
 *
 *   evalpoint A B NAME=VALUE...
 *
 * prints both values and exits 0 when they differ (by more than 2^-3000
 * relative when irrational), 1 when they are equal, 2 when either has no
 * value there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include <segc/segc.h>
#include "output/output.h"

/* Evaluates 'e' at the point into 'f' (exactly rounded when rational);
 * sets '*exact' when segc_expr_eval_q could do it. */
static int value(segc_ctx *ctx, mpfr_t f, mpq_t q, int *exact,
	const segc_expr *e, size_t n, const char **names, mpq_t *values)
{
	segc_point pt;

	*exact = segc_expr_eval_q(q, e, n, names, (const mpq_t *)values) == 0;
	if (*exact) {
		mpfr_set_q(f, q, MPFR_RNDN);
		return 0;
	}
	pt.n = n;
	pt.names = names;
	pt.values = (const mpq_t *)values;
	return segc_eval_mpfr(ctx, f, e, &pt, NULL);
}

int main(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_expr *e[2];
	const char **names = calloc((size_t)argc, sizeof(*names));
	mpq_t *values = calloc((size_t)argc, sizeof(*values));
	mpq_t q[2];
	mpfr_t f[2], d;
	int exact[2], i, n = 0, rc = 2;

	if (argc < 3 || !names || !values)
		return 2;
	for (i = 3; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			return 2;
		*eq = 0;
		names[n] = argv[i];
		mpq_init(values[n]);
		if (mpq_set_str(values[n], eq + 1, 10))
			return 2;
		mpq_canonicalize(values[n++]);
	}
	for (i = 0; i < 2; i++) {
		e[i] = segc_expr_parse(ctx, argv[i + 1], NULL);
		mpq_init(q[i]);
		mpfr_init2(f[i], 4096);
	}
	mpfr_init2(d, 4096);
	if (e[0] && e[1] &&
	    !value(ctx, f[0], q[0], &exact[0], e[0], (size_t)n, names, values) &&
	    !value(ctx, f[1], q[1], &exact[1], e[1], (size_t)n, names, values)) {
		mpfr_printf("%.40Rg\n%.40Rg\n", f[0], f[1]);
		if (exact[0] && exact[1])
			rc = mpq_equal(q[0], q[1]) ? 1 : 0;
		else {
			mpfr_sub(d, f[0], f[1], MPFR_RNDN);
			mpfr_abs(d, d, MPFR_RNDN);
			mpfr_mul_2si(d, d, 3000, MPFR_RNDN);
			rc = mpfr_cmpabs(d, f[0]) <= 0 ||
				mpfr_cmpabs(d, f[1]) <= 0;
		}
	}
	for (i = 0; i < 2; i++) {
		segc_expr_free(e[i]);
		mpq_clear(q[i]);
		mpfr_clear(f[i]);
	}
	mpfr_clear(d);
	for (i = 0; i < n; i++)
		mpq_clear(values[i]);
	free(values);
	free(names);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	mpfr_free_cache();
	return rc;
}
