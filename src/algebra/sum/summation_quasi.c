/* summation_quasi.c - sums whose body holds floor or ceil of arguments
 * affine in the counter: a quasi-polynomial of a small period q, summed by
 * residues (the counter i = q*i' + m for m = 0 .. q - 1), so that every
 * floor and ceil comes out of its atom. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* The largest period of a quasi-polynomial body summed by residues. */
#define SEGC_QUASI_PERIOD 64

/* The coefficient of the counter in the argument of the floor or ceil
 * atom 'a', when that argument is a polynomial of degree 1 in the counter
 * with a number as coefficient and no other atom holding the counter:
 * returns 1 and sets 'c'; else 0. */
static int affine_round(segc_canon *st, const segc_expr *a, const char *name,
	mpq_t c)
{
	segc_rf x;
	segc_poly k;
	size_t v, w;
	int ok = 0;

	if (a->nargs != 1 || segc_builtin_get(segc_expr_builtin(a))->eval !=
		SEGC_EVAL_ROUND)
		return 0;
	segc_rf_init(&x);
	segc_poly_init(&k, 0);
	if (segc_sum_counter_to_rf(st, name, segc_expr_copy(segc_args(a)[0]),
		&x) == 0 &&
		segc_rf_is_poly(&x) && (v = segc_sum_var_of_name(st, name)) != (size_t)-1
		&& segc_poly_degree(&x.num, v) == 1 &&
		segc_poly_min_degree(&x.num, v) >= 0) {
		ok = 1;
		for (w = 0; w < segc_poly_nvars(&x.num); w++)
			if (segc_poly_has_var(&x.num, w) && segc_sum_holds_counter(st, w,
				name))
				ok = 0;
		segc_poly_coeff_var(&k, &x.num, v, 1);
		if (ok && segc_poly_is_const(&k) && segc_poly_nterms(&k))
			mpq_set(c, segc_poly_coeff(&k, 0));
		else
			ok = 0;
	}
	segc_poly_clear(&k);
	segc_rf_clear(&x);
	return ok;
}

/* The period q (2 .. SEGC_QUASI_PERIOD) after which every atom of 'p'
 * that holds the counter, each a floor or ceil of an argument affine in
 * it with a number as coefficient, grows by an integer: the lcm of the
 * denominators of those coefficients; 0 when there is none such. */
unsigned long segc_sum_quasi_period(segc_canon *st, const segc_poly *p,
	const char *name)
{
	unsigned long q = 1;
	size_t w;
	mpq_t c;
	mpz_t l;

	mpq_init(c);
	mpz_init_set_ui(l, 1);
	for (w = 0; w < segc_poly_nvars(p) && q; w++) {
		if (!segc_poly_has_var(p, w) || !segc_sum_holds_counter(st, w, name))
			continue;
		if (!affine_round(st, st->atoms[w], name, c)) {
			q = 0;
			break;
		}
		mpz_lcm(l, l, mpq_denref(c));
		q = mpz_cmp_ui(l, SEGC_QUASI_PERIOD) <= 0 ? mpz_get_ui(l) : 0;
	}
	mpq_clear(c);
	mpz_clear(l);
	return q > 1 ? q : 0;
}

/* Folds into 'l' the denominators of the counter's coefficients in every
 * floor and ceil of 'e' that holds the counter; 0 when one of them is not
 * affine in it with a number as coefficient or 'l' passes
 * SEGC_QUASI_PERIOD. */
static int round_periods(segc_canon *st, const segc_expr *e,
	const char *name, mpz_t l)
{
	size_t k;
	mpq_t c;
	int ok = 1;

	if (!segc_expr_has_sym(e, name))
		return 1;
	if (e->nargs == 1 && segc_builtin_get(segc_expr_builtin(e))->eval ==
		SEGC_EVAL_ROUND) {
		mpq_init(c);
		ok = affine_round(st, e, name, c);
		if (ok)
			mpz_lcm(l, l, mpq_denref(c));
		mpq_clear(c);
		return ok && mpz_cmp_ui(l, SEGC_QUASI_PERIOD) <= 0;
	}
	for (k = 0; k < e->nargs && ok; k++)
		ok = round_periods(st, segc_args(e)[k], name, l);
	return ok;
}

/* The period of the floor and ceil of the counter anywhere in 'body'
 * (inside conditions too), 2 .. SEGC_QUASI_PERIOD, or 0. */
unsigned long segc_sum_body_period(segc_canon *st, segc_rf *body,
	const char *name)
{
	segc_expr *e = segc_canon_from_rf(st, body);
	unsigned long q = 0;
	mpz_t l;

	mpz_init_set_ui(l, 1);
	if (e && round_periods(st, e, name, l))
		q = mpz_get_ui(l);
	mpz_clear(l);
	segc_expr_free(e);
	return q > 1 ? q : 0;
}

/* r = the sum over [lo, hi] of the quasi-polynomial 'p' / 'den' of period
 * q, by residues: i = q*i' + m for m = 0 .. q - 1, where every floor and
 * ceil of the body grows by an integer times i' and so comes out of its
 * atom, and i' runs over [ceil((lo - m)/q), floor((hi - m)/q)]. */
int segc_sum_quasi(segc_canon *st, segc_rf *r, const char *name,
	const segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi, unsigned long q)
{
	segc_rf body, part;
	segc_expr *b;
	unsigned long m;
	char fresh[32];
	int rc = 0;

	segc_rf_init(&body);
	segc_rf_init(&part);
	segc_poly_set(&body.num, p);
	segc_poly_set(&body.den, den);
	b = segc_canon_from_rf(st, &body);
	segc_rf_set_si(st, r, 0);
	st->mode.quasi++;
	/* a fresh counter: the declared domain of 'name' (the range of its
	 * loop) does not hold for i' */
	snprintf(fresh, sizeof fresh, "_q%lu", st->fresh++);
	for (m = 0; m < q && b && rc == 0; m++) {
		segc_expr *i = segc_expr_add2(segc_expr_mul2(segc_expr_int(
			(long)q), segc_expr_sym(fresh)), segc_expr_int((long)m));
		segc_expr *e = segc_expr_subst(segc_expr_copy(b), name, i);
		segc_expr *l = segc_expr_div2(segc_expr_sub2(segc_expr_copy(
			(segc_expr *)lo), segc_expr_int((long)m)),
			segc_expr_int((long)q));
		segc_expr *h = segc_expr_div2(segc_expr_sub2(segc_expr_copy(
			(segc_expr *)hi), segc_expr_int((long)m)),
			segc_expr_int((long)q));
		segc_expr *lc = segc_sum_rounded(st, SEGC_BUILTIN_CEIL, l), *hc = lc ?
			segc_sum_rounded(st, SEGC_BUILTIN_FLOOR, h) : NULL;

		segc_expr_free(i);
		segc_expr_free(l);
		segc_expr_free(h);
		rc = hc ? segc_sum_counter_to_rf(st, fresh, e, &body) : (segc_expr_free(e),
			-1);
		if (rc == 0)
			rc = segc_sum_range(st, &part, fresh, &body, lc, hc);
		if (rc == 0)
			rc = segc_rf_add(st, r, r, &part);
		segc_expr_free(lc);
		segc_expr_free(hc);
	}
	st->mode.quasi--;
	if (!b)
		rc = -1;
	segc_expr_free(b);
	segc_rf_clear(&body);
	segc_rf_clear(&part);
	return rc;
}
