/* summation_poly.c - the sum of a body polynomial in the counter in
 * closed form: Faulhaber's formula with exact Bernoulli numbers gives
 * G(n) = sum_{i=1}^{n} body, and the sum over [lo, hi] is
 * G(hi) - G(lo - 1) (summation.c decides where that holds). */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* Makes sure B_0 .. B_m are cached (B_1 = -1/2). */
static void bernoulli_upto(segc_canon *st, size_t m)
{
	size_t k, j;
	mpz_t bin;
	mpq_t t, acc;

	if (m < st->nbern)
		return;
	st->bernoulli = segc_xrealloc(st->bernoulli,
		segc_xmul_size(m + 1, sizeof(mpq_t)));
	mpz_init(bin);
	mpq_init(t);
	mpq_init(acc);
	for (k = st->nbern; k <= m; k++) {
		mpq_init(st->bernoulli[k]);
		if (k == 0) {
			mpq_set_ui(st->bernoulli[0], 1, 1);
			continue;
		}
		mpq_set_ui(acc, 0, 1);
		for (j = 0; j < k; j++) {
			mpz_bin_uiui(bin, k + 1, j);
			mpq_set_z(t, bin);
			mpq_mul(t, t, st->bernoulli[j]);
			mpq_add(acc, acc, t);
		}
		mpq_set_ui(t, 1, k + 1);
		mpq_mul(acc, acc, t);
		mpq_neg(st->bernoulli[k], acc);
	}
	st->nbern = m + 1;
	mpz_clear(bin);
	mpq_clear(t);
	mpq_clear(acc);
}

/* f[m] += coefficient of n^m in sum_{i=1}^{n} i^k, m = 0..k+1. */
static void faulhaber_add(segc_canon *st, mpq_t *f, size_t k)
{
	size_t j;
	mpz_t bin;
	mpq_t t, inv;

	mpz_init(bin);
	mpq_init(t);
	mpq_init(inv);
	mpq_set_ui(inv, 1, k + 1);
	for (j = 0; j <= k; j++) {
		mpz_bin_uiui(bin, k + 1, j);
		mpq_set_z(t, bin);
		if (j == 1)
			mpq_neg(t, t);
		mpq_mul(t, t, st->bernoulli[j]);
		mpq_mul(t, t, inv);
		mpq_add(f[k + 1 - j], f[k + 1 - j], t);
	}
	mpz_clear(bin);
	mpq_clear(t);
	mpq_clear(inv);
}

/* Builds g[m] (polynomials free of x_v), m = 0..deg+1, with
 * G(n) = sum_m g[m] n^m = sum_{i=1}^{n} num(i). */
static int antidifference(segc_canon *st, segc_poly *g, const segc_poly *num,
	size_t v, size_t deg)
{
	mpq_t *f = segc_xmalloc((deg + 2) * sizeof(mpq_t));
	segc_poly c, t;
	size_t k, m;
	int rc = 0;

	segc_poly_init(&c, num->nvars);
	segc_poly_init(&t, num->nvars);
	for (m = 0; m < deg + 2; m++)
		mpq_init(f[m]);
	for (k = 0; k <= deg && rc == 0; k++) {
		segc_poly_coeff_var(&c, num, v, (int32_t)k);
		if (c.len == 0)
			continue;
		for (m = 0; m < deg + 2; m++)
			mpq_set_ui(f[m], 0, 1);
		faulhaber_add(st, f, k);
		for (m = 0; m < k + 2 && rc == 0; m++) {
			if (!mpq_sgn(f[m]))
				continue;
			segc_poly_set(&t, &c);
			segc_poly_scale(&t, f[m]);
			rc = segc_poly_add(&st->lim, &g[m], &g[m], &t);
		}
	}
	for (m = 0; m < deg + 2; m++)
		mpq_clear(f[m]);
	free(f);
	segc_poly_clear(&c);
	segc_poly_clear(&t);
	return rc;
}

/* r = G(x) = sum_m g[m] x^m by Horner's rule. */
static int horner(segc_canon *st, segc_rf *r, segc_poly *g, size_t n,
	segc_rf *x)
{
	segc_rf acc, c;
	size_t m;
	int rc = 0;

	segc_rf_init(&acc);
	segc_rf_init(&c);
	for (m = n; m-- > 0 && rc == 0;) {
		rc = segc_rf_mul(st, &acc, &acc, x);
		segc_poly_set(&c.num, &g[m]);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&c);
	return rc;
}

/* r = sum_{v=lo}^{hi} body in closed form (body polynomial in x_v). */
int segc_sum_closed_form(segc_canon *st, segc_rf *r, segc_rf *body, size_t v,
	segc_rf *lo, segc_rf *hi)
{
	size_t deg = (size_t)segc_poly_degree(&body->num, v), m, n;
	unsigned long maxdeg = segc_ctx_limits(st->ctx)->max_sum_degree;
	segc_poly *g;
	segc_rf a, b, one;
	int rc;

	if (maxdeg && deg > maxdeg) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the degree %zu of "
			"a summed polynomial exceeds the limit %lu "
			"(max_sum_degree)", deg, maxdeg);
		return -1;
	}
	bernoulli_upto(st, deg);
	n = deg + 2;
	g = segc_xmalloc(n * sizeof(segc_poly));
	for (m = 0; m < n; m++)
		segc_poly_init(&g[m], body->num.nvars);
	segc_rf_init(&a);
	segc_rf_init(&b);
	segc_rf_init(&one);
	segc_rf_set_si(st, &one, 1);
	rc = antidifference(st, g, &body->num, v, deg);
	if (rc == 0)
		rc = horner(st, &a, g, n, hi);
	if (rc == 0)
		rc = segc_rf_sub(st, &b, lo, &one);
	if (rc == 0)
		rc = horner(st, &b, g, n, &b);
	if (rc == 0)
		rc = segc_rf_sub(st, &a, &a, &b);
	segc_poly_set(&one.num, &body->den);
	if (rc == 0)
		rc = segc_rf_div(st, r, &a, &one);
	for (m = 0; m < n; m++)
		segc_poly_clear(&g[m]);
	free(g);
	segc_rf_clear(&a);
	segc_rf_clear(&b);
	segc_rf_clear(&one);
	return rc;
}
