/* dominance.c - whether one alternative of a maximum exceeds another by a
 * constant >= 0 on the declared domains, decided cheaply where it can be.
 *
 * The exact test is the canonical form of a - b (a number >= 0).  Before
 * it, two cheap tests decide most pairs of a longest path:
 *   - the linear parts: a and b split into a number plus a sum of other
 *     terms with rational coefficients; when those terms cancel, a - b is
 *     the difference of the numbers, exactly;
 *   - points of the domains: a - b evaluated exactly at a few points of
 *     the declared box (algebra/eval/refute.c); two different values, or
 *     one below 0, prove that a - b is not a constant >= 0.
 * Only a pair that both leave undecided (the same value >= 0 at every
 * point, terms that do not cancel) goes to the canonical form, so the
 * answer is always that of the canonical form. */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "algebra/eval/refute.h"
#include "base/util.h"

/* One term of a linear split: 'coef' times 'atom'. */
typedef struct lin_term {
	const segc_expr *atom;
	mpq_t coef;
} lin_term;

/* A number plus terms. */
typedef struct lin_form {
	mpq_t num;
	lin_term *t;
	size_t n, cap;
} lin_form;

/* Adds 'sign' times 'coef' times 'atom' to 'f'. */
static void lin_add(lin_form *f, const segc_expr *atom, mpq_srcptr coef,
	int sign)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 16;
		f->t = segc_xrealloc(f->t, f->cap * sizeof(*f->t));
	}
	f->t[f->n].atom = atom;
	mpq_init(f->t[f->n].coef);
	if (sign < 0)
		mpq_neg(f->t[f->n].coef, coef);
	else
		mpq_set(f->t[f->n].coef, coef);
	f->n++;
}

/* Adds 'sign' times 'e' to 'f', sums split into their terms, a product of
 * a number and one factor into coefficient and factor. */
static void lin_split(lin_form *f, const segc_expr *e, int sign, mpq_t one)
{
	size_t i;

	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		if (sign < 0)
			mpq_sub(f->num, f->num, segc_expr_value(e));
		else
			mpq_add(f->num, f->num, segc_expr_value(e));
		return;
	case SEGC_ADD:
		for (i = 0; i < segc_expr_nargs(e); i++)
			lin_split(f, segc_expr_arg(e, i), sign, one);
		return;
	case SEGC_MUL:
		if (segc_expr_nargs(e) == 2 && segc_expr_is_num(
			    segc_expr_arg(e, 0))) {
			lin_add(f, segc_expr_arg(e, 1), segc_expr_value(
				segc_expr_arg(e, 0)), sign);
			return;
		}
		break;
	default:
		break;
	}
	lin_add(f, e, one, sign);
}

/* Orders terms by their atom's address (only equal atoms matter). */
static int cmp_term(const void *x, const void *y)
{
	const segc_expr *a = ((const lin_term *)x)->atom;
	const segc_expr *b = ((const lin_term *)y)->atom;

	return a < b ? -1 : a > b;
}

/* Non-zero when the terms of 'f' cancel: every atom's coefficients add up
 * to 0. */
static int lin_cancels(lin_form *f)
{
	size_t i = 0, j;
	mpq_t s;
	int ok = 1;

	/* grouped by atom; the order of the groups does not matter */
	if (f->n > 1)
		qsort(f->t, f->n, sizeof(*f->t), cmp_term);
	mpq_init(s);
	while (i < f->n && ok) {
		mpq_set_ui(s, 0, 1);
		for (j = i; j < f->n && f->t[j].atom == f->t[i].atom; j++)
			mpq_add(s, s, f->t[j].coef);
		ok = mpq_sgn(s) == 0;
		i = j;
	}
	mpq_clear(s);
	return ok;
}

/* 1 when a - b is the number of its linear split ('*d', set) because the
 * other terms cancel, else 0. */
static int linear_difference(const segc_expr *a, const segc_expr *b,
	mpq_t d)
{
	lin_form f;
	mpq_t one;
	size_t i;
	int yes;

	memset(&f, 0, sizeof(f));
	mpq_init(f.num);
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	lin_split(&f, a, 1, one);
	lin_split(&f, b, -1, one);
	yes = lin_cancels(&f);
	mpq_set(d, f.num);
	for (i = 0; i < f.n; i++)
		mpq_clear(f.t[i].coef);
	free(f.t);
	mpq_clear(f.num);
	mpq_clear(one);
	return yes;
}

/* The least value of a - b over the box of 'dom' when a - b is affine in
 * names with the bounds it needs: 1 when it is >= 0 (a >= b everywhere),
 * 0 when it is below 0 at a corner that is a point of the domains (no
 * proof of a >= b exists), -1 when the test does not apply. */
int segc_affine_ge(const segc_domains *dom, const segc_expr *a,
	const segc_expr *b)
{
	lin_form f;
	mpq_t one, s, t;
	size_t i = 0, j;
	int rc = -1, exact = 1;

	memset(&f, 0, sizeof(f));
	mpq_init(f.num);
	mpq_inits(one, s, t, NULL);
	mpq_set_ui(one, 1, 1);
	lin_split(&f, a, 1, one);
	lin_split(&f, b, -1, one);
	if (f.n > 1)
		qsort(f.t, f.n, sizeof(*f.t), cmp_term);
	mpq_set(t, f.num);
	while (i < f.n) {
		mpq_srcptr lo = NULL, hi = NULL, bound;
		int integer = 0;

		mpq_set_ui(s, 0, 1);
		for (j = i; j < f.n && f.t[j].atom == f.t[i].atom; j++)
			mpq_add(s, s, f.t[j].coef);
		if (mpq_sgn(s)) {
			if (segc_expr_kind(f.t[i].atom) != SEGC_SYM || !dom ||
			    !segc_domains_get(dom, segc_expr_name(f.t[i].atom),
				    &lo, &hi, &integer))
				goto out;
			bound = mpq_sgn(s) > 0 ? lo : hi;
			if (!bound)
				goto out;
			exact = exact && (!integer ||
				!mpz_cmp_ui(mpq_denref(bound), 1));
			mpq_mul(s, s, bound);
			mpq_add(t, t, s);
		}
		i = j;
	}
	rc = mpq_sgn(t) >= 0 ? 1 : exact ? 0 : -1;
out:
	for (i = 0; i < f.n; i++)
		mpq_clear(f.t[i].coef);
	free(f.t);
	mpq_clear(f.num);
	mpq_clears(one, s, t, NULL);
	return rc;
}

/* Whether some point of 'dom' proves a < b (see rgraph.h). */
int segc_points_below(const segc_domains *dom, const segc_expr *a,
	const segc_expr *b)
{
	return segc_refute_at_points(dom, a, b, 0);
}

/* 1 when a - b is a number by its linear parts, '*d' set to it (see
 * rgraph.h). */
int segc_linear_difference(const segc_expr *a, const segc_expr *b, mpq_t d)
{
	return linear_difference(a, b, d);
}

/* Whether a - b is provably a constant >= 0 on 'dom' (see rgraph.h). */
int segc_dominates(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *a, segc_expr *b)
{
	segc_expr *d;
	mpq_t q;
	int yes;

	mpq_init(q);
	yes = linear_difference(a, b, q);
	if (yes) {
		yes = mpq_sgn(q) >= 0;
		mpq_clear(q);
		return yes;
	}
	mpq_clear(q);
	if (segc_refute_at_points(dom, a, b, 1))
		return 0;
	d = segc_canonical(ctx, dom, segc_expr_sub2(segc_expr_copy(a),
		segc_expr_copy(b)));
	if (!d)
		return -1;
	yes = segc_expr_is_num(d) && mpq_sgn(segc_expr_value(d)) >= 0;
	segc_expr_free(d);
	return yes;
}
