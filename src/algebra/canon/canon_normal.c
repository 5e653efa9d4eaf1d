/* canon_normal.c - the canonical rational function and its expression.
 *
 * The canonical rational function: gcd(p, q) = 1; the monomial content m of
 * q is moved into p as negative exponents, p*m^-1/q'; q' has integer
 * coprime coefficients and a positive first coefficient in the output
 * order (canon_write.c); if q' = 1 the result is the Laurent polynomial
 * p*m^-1.  Powers sqrt(u)^k are reduced to u^(k div 2) * sqrt(u)^(k mod 2),
 * and roots of other indices likewise (canon_root.c).  The expression is
 * the numerator's polynomial written by canon_write.c, or for a fraction
 * MUL(numerator, POW(q', -1)). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* ----------------------------------------------------- normalisation */

/* Index of the sqrt atom with an exponent outside {0, 1} in 'p', or
 * (size_t)-1. */
static size_t find_sqrt_power(const segc_canon *st, const segc_poly *p)
{
	size_t i, v;

	for (v = 0; v < segc_poly_nvars(p); v++) {
		const segc_expr *a = st->atoms[v];

		if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT))
			continue;
		for (i = 0; i < segc_poly_nterms(p); i++) {
			int32_t e = segc_poly_exp(p, i, v);

			if (e != 0 && e != 1)
				return v;
		}
	}
	return (size_t)-1;
}

/* r = p with sqrt(u)^k (variable v) replaced by
 * u^(k div 2) * sqrt(u)^(k mod 2). */
static int reduce_sqrt_poly(segc_canon *st, segc_rf *r, const segc_poly *p,
	size_t v)
{
	int32_t d, lo = segc_poly_min_degree(p, v), hi = segc_poly_degree(p, v);
	segc_rf u, acc, t, c;
	int rc;

	segc_rf_init(&u);
	segc_rf_init(&acc);
	segc_rf_init(&t);
	segc_rf_init(&c);
	rc = segc_canon_to_rf(st, segc_args(st->atoms[v])[0], &u);
	for (d = lo; d <= hi && rc == 0; d++) {
		int32_t q = d >= 0 ? d / 2 : -((1 - d) / 2);

		segc_poly_coeff_var(&c.num, p, v, d);
		if (segc_poly_is_zero(&c.num))
			continue;
		segc_poly_set_si(&c.den, 1);
		if (d - 2 * q) {
			segc_poly_set_var(&t.num, v, 1);
			segc_poly_set_si(&t.den, 1);
			rc = segc_rf_mul(st, &c, &c, &t);
		}
		if (rc == 0)
			rc = segc_rf_pow(st, &t, &u, q);
		if (rc == 0)
			rc = segc_rf_mul(st, &c, &c, &t);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&u);
	segc_rf_clear(&acc);
	segc_rf_clear(&t);
	segc_rf_clear(&c);
	return rc;
}

/* Non-zero when variable 'v' is a sqrt atom whose argument the domains
 * prove >= 0. */
static int sqrt_of_nonneg(segc_canon *st, size_t v)
{
	const segc_expr *a = st->atoms[v];
	unsigned s = 0;
	segc_rf u;

	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT))
		return 0;
	segc_rf_init(&u);
	if (segc_canon_to_rf(st, segc_args(st->atoms[v])[0], &u) == 0)
		s = segc_kernel_sign(st, &u);
	segc_rf_clear(&u);
	return (s & SEGC_SIGN_NONNEG) != 0;
}

/* Two sqrt atoms v < w of arguments proven >= 0 that stand together in a
 * term of 'p' ('*pv', '*pw'); 0 when there are none. */
static int find_sqrt_pair(segc_canon *st, const segc_poly *p, size_t *pv,
	size_t *pw)
{
	size_t i, v, w;

	for (i = 0; i < segc_poly_nterms(p); i++)
		for (v = 0; v < segc_poly_nvars(p); v++) {
			if (segc_poly_exp(p, i, v) != 1)
				continue;
			for (w = v + 1; w < segc_poly_nvars(p); w++)
				if (segc_poly_exp(p, i, w) == 1 &&
				    sqrt_of_nonneg(st, v) &&
				    sqrt_of_nonneg(st, w)) {
					*pv = v;
					*pw = w;
					return 1;
				}
		}
	return 0;
}

/* r = p with sqrt(a)*sqrt(b) (variables v, w, a and b proven >= 0)
 * replaced by sqrt(a*b) in every term that holds both. */
static int merge_sqrt_pair(segc_canon *st, segc_rf *r, const segc_poly *p,
	size_t v, size_t w)
{
	segc_expr *prod = segc_expr_mul2(
		segc_expr_copy(segc_args(st->atoms[v])[0]),
		segc_expr_copy(segc_args(st->atoms[w])[0]));
	segc_expr *root = segc_expr_call1(SEGC_BUILTIN_SQRT, prod);
	segc_rf c, t, u;
	segc_poly c1;
	int rc;

	segc_poly_init(&c1, 0);
	segc_rf_init(&c);
	segc_rf_init(&t);
	segc_rf_init(&u);
	segc_poly_coeff_var(&c1, p, v, 1);
	segc_poly_coeff_var(&c.num, &c1, w, 1);
	segc_poly_set(&r->num, p);
	segc_poly_set_si(&r->den, 1);
	segc_poly_set_var(&t.num, v, 1);
	segc_poly_set_var(&u.num, w, 1);
	rc = segc_rf_mul(st, &t, &t, &u);
	if (rc == 0)
		rc = segc_rf_mul(st, &t, &t, &c);
	if (rc == 0)
		rc = segc_rf_sub(st, r, r, &t);
	if (rc == 0)
		rc = segc_canon_to_rf(st, root, &u);
	if (rc == 0)
		rc = segc_rf_mul(st, &t, &c, &u);
	if (rc == 0)
		rc = segc_rf_add(st, r, r, &t);
	segc_expr_free(root);
	segc_poly_clear(&c1);
	segc_rf_clear(&c);
	segc_rf_clear(&t);
	segc_rf_clear(&u);
	return rc;
}

/* n = the sqrt powers of 'p' reduced (sqrt variable 'vp' if not -1) or,
 * when there are none, a pair of sqrt atoms merged; '*changed' says
 * whether anything was. */
static int reduce_sqrt_step(segc_canon *st, segc_rf *n, const segc_poly *p,
	size_t vp, int *changed)
{
	size_t v, w;

	if (vp != (size_t)-1) {
		*changed = 1;
		return reduce_sqrt_poly(st, n, p, vp);
	}
	if (find_sqrt_pair(st, p, &v, &w)) {
		*changed = 1;
		return merge_sqrt_pair(st, n, p, v, w);
	}
	segc_poly_set(&n->num, p);
	return 0;
}

/* Reduces every power of a sqrt atom in 'r' to exponent 0 or 1, and
 * merges sqrt(a)*sqrt(b) into sqrt(a*b) where a, b >= 0 are proven. */
static int reduce_sqrt(segc_canon *st, segc_rf *r)
{
	size_t v, nv = segc_poly_nvars(&r->num);
	int round, rc = 0;

	if (!st->has_sqrts)
		return 0;
	if (segc_poly_nvars(&r->den) > nv)
		nv = segc_poly_nvars(&r->den);
	/* no sqrt atom among the variables: nothing to reduce nor merge */
	for (v = 0; v < nv && !segc_expr_is_builtin(st->atoms[v],
		SEGC_BUILTIN_SQRT); v++)
		;
	if (v == nv)
		return 0;
	for (round = 0; round < 1000 && rc == 0; round++) {
		size_t vn = find_sqrt_power(st, &r->num);
		size_t vd = find_sqrt_power(st, &r->den);
		int changed = 0;
		segc_rf n, d;

		segc_rf_init(&n);
		segc_rf_init(&d);
		rc = reduce_sqrt_step(st, &n, &r->num, vn, &changed);
		if (rc == 0)
			rc = reduce_sqrt_step(st, &d, &r->den, vd, &changed);
		if (rc == 0 && !changed) {
			segc_rf_clear(&n);
			segc_rf_clear(&d);
			return 0;
		}
		if (rc == 0)
			rc = segc_rf_div(st, r, &n, &d);
		segc_rf_clear(&n);
		segc_rf_clear(&d);
	}
	if (rc == 0)
		segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
			"reduction of square roots does not terminate");
	return -1;
}


/* Makes the denominator primitive with a positive first coefficient in
 * the output order, dividing the numerator by the same number. */
static void normalise_den_sign(segc_canon *st, segc_rf *r)
{
	size_t k, *byrank = segc_canon_used_by_rank(st, &r->den, &k), *ix;
	mpq_t scale;

	mpq_init(scale);
	segc_poly_primitive(&r->den, scale);
	ix = segc_canon_output_order(&r->den, byrank, k);
	if (mpq_sgn(segc_poly_coeff(&r->den,
		segc_canon_term_at(ix, 0))) < 0) {
		segc_poly_neg(&r->den);
		mpq_neg(scale, scale);
	}
	mpq_inv(scale, scale);
	segc_poly_scale(&r->num, scale);
	mpq_clear(scale);
	free(ix);
	free(byrank);
}

/* Brings 'r' to the canonical rational function (one pass). */
static int rf_normalise_once(segc_canon *st, segc_rf *r)
{
	segc_poly g;
	int changed, rc = segc_root_reduce(st, r, &changed);

	if (rc == 0)
		rc = reduce_sqrt(st, r);

	if (rc == 0)
		rc = segc_rf_absorb(st, r);
	if (rc == 0)
		rc = segc_kernel_combine(st, r);
	if (rc == 0)
		rc = segc_kernel_if_merge(st, r);
	if (rc == 0)
		rc = segc_root_cancel(st, r);
	if (rc || segc_rf_is_poly(r))
		return rc;
	segc_poly_init(&g, 0);
	rc = segc_poly_gcd(&st->lim, &g, &r->num, &r->den);
	if (rc == 0 && !segc_poly_is_const(&g) && !segc_poly_is_zero(&g)) {
		int d = segc_poly_divexact(&st->lim, &r->num, &r->num, &g);

		if (d == 1)
			d = segc_poly_divexact(&st->lim, &r->den, &r->den, &g);
		if (d == 0)
			segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
				"a gcd does not divide its operands");
		if (d != 1)
			rc = -1;    /* d < 0: a limit, already reported */
	}
	segc_poly_clear(&g);
	if (rc == 0)
		rc = segc_rf_absorb(st, r);
	if (rc == 0 && !segc_rf_is_poly(r))
		normalise_den_sign(st, r);
	return rc;
}

/* Brings 'r' to the canonical rational function: again while the
 * monomial content moved out of the denominator leaves roots to reduce
 * (a root to a negative power). */
static int rf_normalise(segc_canon *st, segc_rf *r)
{
	int round, changed = 0, rc = rf_normalise_once(st, r);

	for (round = 0; round < 8 && rc == 0 && st->has_roots; round++) {
		segc_rf t;

		segc_rf_init(&t);
		segc_rf_set(&t, r);
		rc = segc_root_reduce(st, &t, &changed);
		if (rc == 0 && changed) {
			segc_rf_set(r, &t);
			rc = rf_normalise_once(st, r);
		}
		segc_rf_clear(&t);
		if (!changed)
			break;
	}
	return rc;
}

/* rf_normalise, then an extremum written as its dual where that gives
 * fewer terms (kernel_dual.c). */
static int rf_normalise_dual(segc_canon *st, segc_rf *r)
{
	int rc = rf_normalise(st, r);

	if (rc == 0 && st->has_extrema && !st->mode.combining)
		rc = segc_kernel_dual(st, r);
	return rc;
}

/* The canonical expression of 'r' (NULL when a limit is reached); its
 * numerator may be taken when 'take' is non-zero. */
static segc_expr *from_rf(segc_canon *st, segc_rf *r, int take)
{
	segc_expr *num;

	if (rf_normalise_dual(st, r))
		return NULL;
	if (segc_ctx_charge(st->ctx, segc_canon_poly_expr_work(&r->num) +
		(segc_rf_is_poly(r) ? 0 : segc_canon_poly_expr_work(&r->den))))
		return NULL;
	num = segc_canon_poly_expr(st, &r->num, take);
	if (segc_rf_is_poly(r))
		return num;
	return segc_expr_mul2(num,
		segc_expr_powi(segc_canon_poly_expr(st, &r->den, 0), -1));
}

/* The canonical expression of 'r' (NULL when a limit is reached). */
segc_expr *segc_canon_from_rf(segc_canon *st, segc_rf *r)
{
	return from_rf(st, r, 0);
}

/* The canonical expression of 'e' inside the canonicalisation 'st'. */
segc_expr *segc_canon_expr(segc_canon *st, const segc_expr *e)
{
	segc_expr *res = NULL;
	segc_rf r;

	segc_rf_init(&r);
	if (segc_canon_to_rf(st, e, &r) == 0)
		res = from_rf(st, &r, 1);
	segc_rf_clear(&r);
	return res;
}
