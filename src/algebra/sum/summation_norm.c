/* summation_norm.c - the normal form of a sum without a closed form, so
 * that the same sum written re-indexed, reflected or split gets one atom
 * (doc/algebra.md, section 4, "Sums without a closed form").
 *
 * The terms of a body that have no closed form reach
 * segc_sum_normal_atom() with integer bounds L and H.  Three stages, each
 * an identity for integer L and H (a sum over an empty range is 0):
 *
 *  0. With L a number, the body and its reflection f(L + H - i) (the
 *     same sum read backwards) are both brought to stage 1, and the
 *     result whose sums are smaller (fewer nodes, then segc_expr_cmp; the
 *     closed-form parts not counted) is kept.  A body with an if is not
 *     reflected.  A sum whose upper bound is a number and lower bound
 *     is not is read backwards first, sum(i, L, H, f(i)) = sum(i, -H, -L,
 *     f(-i)).  Another lower bound that is not a number goes to stage 1
 *     as it is (shifting it to 1 would put it into every atom of the
 *     body).
 *  1. The body is anchored: when the first occurrence of the counter
 *     inside a call is i + k with k free of i and integer-valued (a number
 *     within 64 of 0, or a polynomial of integer values such as M), the
 *     counter is shifted, sum(i, L, H, f(i + k)) = sum(i, L + k, H + k,
 *     f(i)).  Then a lower bound L' that is a number becomes 1 where the
 *     domains prove the range [1, H] holds [L', H] or is held by it: for
 *     1 < L' <= 65, sum(L', H) = sum(1, H) - sum(1, L' - 1) when
 *     H >= L' - 1, and for -63 <= L' < 1, sum(L', H) = sum(1, H) +
 *     sum(L', 0) when H >= 0.  On [1, H] the number c of H = P + c (P not
 *     a number, |c| <= 64) goes out the same way: sum(1, P + c) =
 *     sum(1, P) + the body at P + 1 .. P + c when P >= 0 (c > 0), or
 *     - the body at P + c + 1 .. P when P + c >= 0 (c < 0).  The short
 *     sums are added up term by term.
 *  2. The atom itself (summation.c).
 *
 * Each stage works on the terms without a closed form that the previous
 * one left (the others are summed by Faulhaber's formula on the way), so
 * a body whose reflection takes out a polynomial part (max(N + 1 - i, a)
 * is -i + max(N + 1, a + i)) meets the form of the other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* How far from 1 a number lower bound may be moved to 1. */
#define NORM_PEEL 64
/* The largest body (in nodes) that is normalized; a larger one is left
 * as it is, its normal form costing several canonicalizations. */
#define NORM_MAX_BODY 300

/* The canonical expression of 'e' (taken) with 'name' a counter, NULL on
 * error. */
static segc_expr *counter_expr(segc_canon *st, const char *name,
	segc_expr *e)
{
	segc_rf r;
	segc_expr *out = NULL;

	segc_rf_init(&r);
	if (segc_sum_counter_to_rf(st, name, e, &r) == 0)
		out = segc_canon_from_rf(st, &r);
	segc_rf_clear(&r);
	return out;
}

/* Non-zero when the canonical 'e' is proved integer-valued: a polynomial
 * with integer values on the box. */
static int integer_valued(segc_canon *st, const segc_expr *e)
{
	segc_rf r;
	int ok;

	segc_rf_init(&r);
	ok = segc_canon_to_rf(st, e, &r) == 0 && segc_rf_is_poly(&r) &&
		segc_kernel_integer_valued(st, &r.num);
	segc_rf_clear(&r);
	return ok;
}

/* Non-zero when 'e' >= 0 is proved on the box. */
static int proved_nonneg(segc_canon *st, const segc_expr *e)
{
	segc_rf r;
	int ok;

	segc_rf_init(&r);
	ok = segc_canon_to_rf(st, e, &r) == 0 &&
		(segc_kernel_sign(st, &r) & SEGC_SIGN_NONNEG);
	segc_rf_clear(&r);
	return ok;
}

/* The first occurrence of the counter 'name' inside a call of 'e' ('in_call'
 * says whether 'e' is inside one): the ADD node i + k that holds it as a
 * term, or NULL when it occurs otherwise (or not at all); 'found'
 * becomes 1 at the first occurrence. */
static const segc_expr *anchor_node(const segc_expr *e, const char *name,
	int in_call, int *found)
{
	const segc_expr *a;
	size_t i;

	if (*found)
		return NULL;
	if (e->kind == SEGC_SYM) {
		if (in_call && !strcmp(e->u.name, name))
			*found = 1;
		return NULL;
	}
	if (e->kind == SEGC_SUM && !strcmp(e->u.name, name))
		return NULL;
	if (in_call && e->kind == SEGC_ADD)
		for (i = 0; i < e->nargs; i++)
			if (segc_args(e)[i]->kind == SEGC_SYM &&
				!strcmp(segc_args(e)[i]->u.name, name)) {
				*found = 1;
				return e;
			}
	for (i = 0; i < e->nargs && !*found; i++) {
		a = anchor_node(segc_args(e)[i], name, in_call ||
			e->kind == SEGC_CALL, found);
		if (*found)
			return a;
	}
	return NULL;
}

/* The number term of 'e' (0 when it has none) into 'c'. */
static void number_term(mpq_t c, const segc_expr *e)
{
	mpq_set_ui(c, 0, 1);
	if (e->kind == SEGC_NUM)
		mpq_set(c, e->u.value);
	else if (e->kind == SEGC_ADD && e->nargs &&
		segc_args(e)[e->nargs - 1]->kind == SEGC_NUM)
		mpq_set(c, segc_args(e)[e->nargs - 1]->u.value);
}

/* The coefficient a of a term a*i of the counter: 1 for the counter
 * itself, a for the product of a number a (an integer, 1 < a <=
 * NORM_PEEL; a negative one is left to the reflection of stage 0) and
 * the counter; 0 for any other term. */
static long counter_coef(const segc_expr *t, const char *name)
{
	mpq_srcptr a;

	if (t->kind == SEGC_SYM)
		return !strcmp(t->u.name, name);
	if (t->kind != SEGC_MUL || t->nargs != 2 ||
		segc_args(t)[0]->kind != SEGC_NUM ||
			segc_args(t)[1]->kind != SEGC_SYM ||
		strcmp(segc_args(t)[1]->u.name, name))
		return 0;
	a = segc_args(t)[0]->u.value;
	if (mpz_cmp_ui(mpq_denref(a), 1) || mpz_sgn(mpq_numref(a)) <= 0 ||
		mpz_cmp_ui(mpq_numref(a), NORM_PEEL) > 0)
		return 0;
	return mpz_get_si(mpq_numref(a));
}

/* The coefficient a when 'e' is a*i or a sum with a*i as a term (see
 * counter_coef), else 0. */
static long unit_in(const segc_expr *e, const char *name)
{
	size_t i;
	long a;

	if (e->kind != SEGC_ADD)
		return counter_coef(e, name);
	for (i = 0; i < e->nargs; i++)
		if ((a = counter_coef(segc_args(e)[i], name)) != 0)
			return a;
	return 0;
}

/* The first max or min of 'e' (in the order of its nodes) with an
 * argument u that holds the counter as a term a*i (a a positive
 * integer) and an argument w free of it: 1 with 'k' = (number term of u)
 * - (number term of w), divided by a and rounded down when a > 1, which
 * grows by d
 * when the counter is shifted by d whatever the common part the normal
 * form of max took out (max(i, a + 3) is max(i + 3, a + 3) - 3,
 * anchored as max(i, a); max(2*i + 2, 7) is anchored as max(2*i + 8, 7),
 * its offset in [0, 2)); 0 when there is none. */
static int extremum_anchor(const segc_expr *e, const char *name, mpq_t k)
{
	size_t i, u = (size_t)-1, w = (size_t)-1;
	long a = 0;
	mpq_t t;

	if (e->kind == SEGC_SUM && !strcmp(e->u.name, name))
		return 0;
	if (e->kind == SEGC_CALL && (!strcmp(e->u.name, "max") ||
		!strcmp(e->u.name, "min"))) {
		for (i = 0; i < e->nargs; i++) {
			if (u == (size_t)-1 && (a = unit_in(segc_args(e)[i],
				name)))
				u = i;
			else if (w == (size_t)-1 &&
				!segc_expr_has_sym(segc_args(e)[i], name))
				w = i;
		}
		if (u != (size_t)-1 && w != (size_t)-1) {
			mpq_init(t);
			number_term(k, segc_args(e)[u]);
			number_term(t, segc_args(e)[w]);
			mpq_sub(k, k, t);
			if (a > 1) {
				mpz_mul_ui(mpq_denref(k), mpq_denref(k),
					(unsigned long)a);
				mpz_fdiv_q(mpq_numref(k), mpq_numref(k),
					mpq_denref(k));
				mpz_set_ui(mpq_denref(k), 1);
			}
			mpq_clear(t);
			return 1;
		}
	}
	for (i = 0; i < e->nargs; i++)
		if (extremum_anchor(segc_args(e)[i], name, k))
			return 1;
	return 0;
}

/* The anchor k of body 'b': the offset of the first max or min that
 * holds the counter in one argument and not in another
 * (extremum_anchor), or else the first occurrence of the counter inside a
 * call is i + k with k free of the counter and proved integer-valued (a
 * number within NORM_PEEL of 0, or a polynomial of integer values); NULL
 * when there is none. */
static segc_expr *anchor_of(segc_canon *st, const segc_expr *b,
	const char *name)
{
	int found = 0;
	const segc_expr *a;
	segc_expr **rest, *k;
	size_t i, n = 0;
	mpq_t q;

	mpq_init(q);
	if (extremum_anchor(b, name, q)) {
		k = NULL;
		if (mpq_sgn(q) && !mpz_cmp_ui(mpq_denref(q), 1) &&
			mpz_cmpabs_ui(mpq_numref(q), NORM_PEEL) < 0)
			k = segc_expr_num(q);
		mpq_clear(q);
		return k;
	}
	mpq_clear(q);
	a = anchor_node(b, name, 0, &found);
	if (!a)
		return NULL;
	rest = segc_xmalloc(a->nargs * sizeof(*rest));
	for (i = 0; i < a->nargs; i++)
		if (segc_args(a)[i]->kind != SEGC_SYM ||
			strcmp(segc_args(a)[i]->u.name, name))
			rest[n++] = segc_expr_copy(segc_args(a)[i]);
	k = segc_expr_add(n, rest);
	free(rest);
	if (segc_expr_has_sym(k, name) || !integer_valued(st, k) ||
		(k->kind == SEGC_NUM && (mpz_cmpabs_ui(mpq_numref(k->u.value),
		NORM_PEEL) >= 0 || !mpq_sgn(k->u.value)))) {
		segc_expr_free(k);
		return NULL;
	}
	return k;
}

/* r = the sum of the expression 'b' (with 'name' free) over [lo, hi] at
 * stage 'stage' (see the head of the file). */
static int sum_at(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi, int stage)
{
	segc_rf body;
	int rc, saved = st->mode.sum_stage;

	segc_rf_init(&body);
	rc = segc_sum_counter_to_rf(st, name, segc_expr_copy(b), &body);
	st->mode.sum_stage = stage;
	if (rc == 0)
		rc = segc_sum_range(st, r, name, &body, lo, hi);
	st->mode.sum_stage = saved;
	segc_rf_clear(&body);
	return rc;
}

/* A number node of value 'v'. */
static segc_expr *num_of(const mpz_t v)
{
	mpq_t q;
	segc_expr *e;

	mpq_init(q);
	mpq_set_z(q, v);
	e = segc_expr_num(q);
	mpq_clear(q);
	return e;
}

/* r = the sum of 'b' over [1, hi] with the number c in hi = P + c (P
 * not a number) taken out where the domains allow it: for 0 < c <=
 * NORM_PEEL, sum(1, P + c) = sum(1, P) + the body at P + 1 .. P + c when
 * P >= 0; for -NORM_PEEL <= c < 0, sum(1, P + c) = sum(1, P) - the body
 * at P + c + 1 .. P when P + c >= 0.  A stage 2 sum. */
static int upper_normal(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *hi)
{
	segc_expr *one = segc_expr_int(1), *p, *c, *x, *t, **rest;
	segc_rf term;
	long k, n;
	size_t i;
	int rc;

	c = hi->kind == SEGC_ADD && hi->nargs >= 2 ?
		segc_args(hi)[hi->nargs - 1] : NULL;
	if (!c || c->kind != SEGC_NUM ||
		mpz_cmp_ui(mpq_denref(c->u.value), 1) ||
		mpz_cmpabs_ui(mpq_numref(c->u.value), NORM_PEEL) > 0) {
		rc = sum_at(st, r, name, b, one, hi, 2);
		segc_expr_free(one);
		return rc;
	}
	n = mpz_get_si(mpq_numref(c->u.value));
	rest = segc_xmalloc(hi->nargs * sizeof(*rest));
	for (i = 0; i + 1 < hi->nargs; i++)
		rest[i] = segc_expr_copy(segc_args(hi)[i]);
	p = segc_expr_add(hi->nargs - 1, rest);
	free(rest);
	if (!proved_nonneg(st, n > 0 ? p : hi)) {
		segc_expr_free(p);
		rc = sum_at(st, r, name, b, one, hi, 2);
		segc_expr_free(one);
		return rc;
	}
	rc = sum_at(st, r, name, b, one, p, 2);
	segc_rf_init(&term);
	for (k = n > 0 ? 1 : n + 1; rc == 0 && k <= (n > 0 ? n : 0); k++) {
		x = segc_expr_add2(segc_expr_copy(p), segc_expr_int(k));
		t = segc_expr_subst(segc_expr_copy(b), name, x);
		segc_expr_free(x);
		rc = segc_canon_to_rf(st, t, &term);
		segc_expr_free(t);
		if (rc == 0)
			rc = n > 0 ? segc_rf_add(st, r, r, &term) :
				segc_rf_sub(st, r, r, &term);
	}
	segc_rf_clear(&term);
	segc_expr_free(p);
	segc_expr_free(one);
	return rc;
}

/* Non-zero when 'h' is a number times the canonical 'l' (not 0). */
static int proportional(segc_canon *st, const segc_expr *h,
	const segc_expr *l)
{
	segc_expr *x, *q;
	int yes;

	if (segc_expr_is_zero(l))
		return 0;
	x = segc_expr_div2(segc_expr_copy(h),
		segc_expr_copy(l));
	q = segc_canon_expr(st, x);
	segc_expr_free(x);
	yes = q && q->kind == SEGC_NUM;
	segc_expr_free(q);
	return yes;
}

/* r = the sum of 'b' over [lo, hi] for a lower bound 'lo' that is not a
 * number, at a point of the range [1, H] proportional to its end: sum(L,
 * H) = sum(1, H) - sum(1, L - 1) where H is a number times L - 1 and the
 * domains prove L - 1 >= 0 and H >= L - 1 (the range [1, H] holds [1, L
 * - 1]), so that a sum split at a symbolic point, sum(1, N) + sum(N + 1,
 * 2*N), meets sum(1, 2*N); else the sum over [lo, hi] as it is (a range
 * such as [M, M + N] keeps its bounds).  A stage 2 sum. */
static int lower_symbolic(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi)
{
	segc_expr *x = segc_expr_sub2(segc_expr_copy(lo), segc_expr_int(1));
	segc_expr *l1 = segc_canon_expr(st, x), *gap;
	segc_rf part;
	int rc;

	segc_expr_free(x);
	gap = l1 ? segc_expr_sub2(segc_expr_copy(hi), segc_expr_copy(l1)) :
		NULL;

	if (!l1 || !proportional(st, hi, l1) || !proved_nonneg(st, l1) ||
		!proved_nonneg(st, gap)) {
		segc_expr_free(l1);
		segc_expr_free(gap);
		return sum_at(st, r, name, b, lo, hi, 2);
	}
	segc_expr_free(gap);
	segc_rf_init(&part);
	rc = upper_normal(st, r, name, b, hi);
	if (rc == 0)
		rc = upper_normal(st, &part, name, b, l1);
	if (rc == 0)
		rc = segc_rf_sub(st, r, r, &part);
	segc_rf_clear(&part);
	segc_expr_free(l1);
	return rc;
}

/* r = the sum of 'b' over [lo, hi] with the lower bound 'lo' (a number)
 * moved to 1 where the domains allow it (stage 1), as a stage 2 sum. */
static int lower_to_one(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi)
{
	mpz_t l;
	segc_expr *one = segc_expr_int(1), *cond = NULL, *e1 = NULL,
		*e2 = NULL;
	segc_rf part;
	int rc, sign = 0;

	if (lo->kind != SEGC_NUM) {
		segc_expr_free(one);
		return lower_symbolic(st, r, name, b, lo, hi);
	}
	mpz_init_set(l, mpq_numref(lo->u.value));
	if (mpz_cmp_si(l, 1) > 0 && mpz_cmp_si(l, 1 + NORM_PEEL) <= 0) {
		/* [1, l - 1] is taken away again */
		mpz_sub_ui(l, l, 1);
		cond = segc_expr_sub2(segc_expr_copy(hi), num_of(l));
		e1 = segc_expr_int(1);
		e2 = num_of(l);
		sign = -1;
	} else if (mpz_cmp_si(l, 1) < 0 && mpz_cmp_si(l, 1 - NORM_PEEL) >= 0) {
		/* [l, 0] is added */
		cond = segc_expr_copy(hi);
		e1 = segc_expr_copy(lo);
		e2 = segc_expr_int(0);
		sign = 1;
	}
	mpz_clear(l);
	if (!sign || !proved_nonneg(st, cond)) {
		segc_expr_free(cond);
		segc_expr_free(e1);
		segc_expr_free(e2);
		segc_expr_free(one);
		if (lo->kind == SEGC_NUM && !mpz_cmp_ui(mpq_numref(
			lo->u.value), 1))
			return upper_normal(st, r, name, b, hi);
		return sum_at(st, r, name, b, lo, hi, 2);
	}
	segc_expr_free(cond);
	segc_rf_init(&part);
	rc = upper_normal(st, r, name, b, hi);
	if (rc == 0)
		rc = sum_at(st, &part, name, b, e1, e2, 2);
	if (rc == 0)
		rc = sign > 0 ? segc_rf_add(st, r, r, &part) :
			segc_rf_sub(st, r, r, &part);
	segc_rf_clear(&part);
	segc_expr_free(e1);
	segc_expr_free(e2);
	segc_expr_free(one);
	return rc;
}

/* r = the sum of 'b' over [lo, hi] at stage 1: anchored, then the lower
 * bound moved to 1 when it is a number. */
static int anchored(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi)
{
	segc_expr *k = anchor_of(st, b, name);
	segc_expr *x, *nb, *nlo, *nhi;
	int rc;

	if (!k)
		return lower_to_one(st, r, name, b, lo, hi);
	x = segc_expr_sub2(segc_expr_sym(name), segc_expr_copy(k));
	nb = counter_expr(st, name, segc_expr_subst(segc_expr_copy(b), name,
		x));
	segc_expr_free(x);
	nlo = segc_canon_expr(st, x = segc_expr_add2(segc_expr_copy(lo),
		segc_expr_copy(k)));
	segc_expr_free(x);
	nhi = segc_canon_expr(st, x = segc_expr_add2(segc_expr_copy(hi),
		segc_expr_copy(k)));
	segc_expr_free(x);
	segc_expr_free(k);
	rc = nb && nlo && nhi ? lower_to_one(st, r, name, nb, nlo, nhi) : -1;
	segc_expr_free(nb);
	segc_expr_free(nlo);
	segc_expr_free(nhi);
	return rc;
}

/* The number of nodes of the sums in 'e' (the parts in closed form not
 * counted). */
static size_t sums_size(const segc_expr *e)
{
	size_t i, n = 0;

	if (e->kind == SEGC_SUM)
		return segc_expr_size(e);
	for (i = 0; i < e->nargs; i++)
		n += sums_size(segc_args(e)[i]);
	return n;
}

/* r = the sum of 'b' over [lo, hi], lo a number (stage 0): the body or
 * its reflection, whichever gives the smaller sums (then the first in
 * the order of expressions).  A body with an if is not reflected: the
 * piecewise closed forms of inner sums, read backwards, are where the
 * normal form was found to lose a condition. */
static int oriented(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi)
{
	segc_expr *x = segc_expr_sub2(segc_expr_add2(segc_expr_copy(lo),
		segc_expr_copy(hi)), segc_expr_sym(name));
	segc_expr *rb = segc_has_if(b) ? NULL : counter_expr(st, name,
		segc_expr_subst(segc_expr_copy(b), name, x));
	segc_expr *e1 = NULL, *e2 = NULL;
	segc_rf r2;
	int rc;

	segc_expr_free(x);
	segc_rf_init(&r2);
	rc = anchored(st, r, name, b, lo, hi);
	if (rc == 0 && rb && anchored(st, &r2, name, rb, lo, hi) == 0) {
		e1 = segc_canon_from_rf(st, r);
		e2 = segc_canon_from_rf(st, &r2);
		if (e1 && e2) {
			size_t s1 = sums_size(e1), s2 = sums_size(e2);

			if (s2 < s1 || (s2 == s1 && segc_expr_cmp(e2, e1) < 0))
				segc_rf_set(r, &r2);
		}
	}
	segc_expr_free(e1);
	segc_expr_free(e2);
	segc_expr_free(rb);
	segc_rf_clear(&r2);
	return rc;
}

/* r = the sum of 'b' over [lo, hi], hi a number and lo not: read
 * backwards from -hi, sum(i, lo, hi, f(i)) = sum(i, -hi, -lo, f(-i)),
 * which has a number as lower bound (stage 0). */
static int negated(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, segc_expr *lo, segc_expr *hi)
{
	segc_expr *x = segc_expr_neg(segc_expr_sym(name));
	segc_expr *nb = counter_expr(st, name, segc_expr_subst(
		segc_expr_copy(b), name, x));
	segc_expr *nlo, *nhi;
	int rc = -1;

	segc_expr_free(x);
	nlo = segc_canon_expr(st, x = segc_expr_neg(segc_expr_copy(hi)));
	segc_expr_free(x);
	nhi = segc_canon_expr(st, x = segc_expr_neg(segc_expr_copy(lo)));
	segc_expr_free(x);
	if (nb && nlo && nhi)
		rc = oriented(st, r, name, nb, nlo, nhi);
	segc_expr_free(nb);
	segc_expr_free(nlo);
	segc_expr_free(nhi);
	return rc;
}

/* Non-zero when 'e' holds a sum.  A body with a sum of its own is left
 * as it is: each normalization canonicalizes the body several times, so
 * normalizing nested sums costs a factor at every level. */
static int has_inner_sum(const segc_expr *e)
{
	size_t i;

	if (e->kind == SEGC_SUM)
		return 1;
	for (i = 0; i < e->nargs; i++)
		if (has_inner_sum(segc_args(e)[i]))
			return 1;
	return 0;
}

/* 'b' (taken) with the counter 'name' renamed to a fresh integer name
 * 'buf' that has no declared bounds, canonical; NULL on error.  The
 * stages shift, reflect and negate the counter, and the bounds declared
 * for the counter of the range [lo, hi] do not hold for the moved one
 * (with i >= 1 declared, min(i + 4, 4) would be taken for 4 after the
 * shift i -> i + 4). */
static segc_expr *unbounded_counter(segc_canon *st, segc_expr *b,
	const char *name, char *buf, size_t len)
{
	segc_expr *v, *e;

	do
		snprintf(buf, len, "_n%lu", st->fresh++);
	while (segc_expr_has_sym(b, buf) ||
		segc_domains_get(st->dom, buf, NULL, NULL, NULL));
	v = segc_expr_sym(buf);
	e = segc_expr_subst(b, name, v);
	segc_expr_free(v);
	return counter_expr(st, buf, e);
}

/* See canon_private.h. */
int segc_sum_normal_atom(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *b, *l = (segc_expr *)lo, *h = (segc_expr *)hi;
	int rc, stage = st->mode.sum_stage;
	char fresh[32];

	if (stage >= 2 || segc_sum_few_terms(lo, hi))
		return segc_sum_atom(st, r, name, body, lo, hi);
	b = segc_canon_from_rf(st, body);
	if (!b)
		return -1;
	if (!segc_expr_has_sym(b, name) || segc_expr_has_sym(lo, name) ||
		segc_expr_has_sym(hi, name) || !integer_valued(st, lo) ||
		!integer_valued(st, hi) || has_inner_sum(b) ||
		segc_expr_size(b) > NORM_MAX_BODY)
		rc = segc_sum_atom(st, r, name, body, lo, hi);
	else if (!(b = unbounded_counter(st, b, name, fresh, sizeof fresh)))
		rc = -1;
	else if (stage == 0 && lo->kind != SEGC_NUM && hi->kind == SEGC_NUM)
		rc = negated(st, r, fresh, b, l, h);
	else if (stage == 1 || lo->kind != SEGC_NUM)
		rc = anchored(st, r, fresh, b, l, h);
	else
		rc = oriented(st, r, fresh, b, l, h);
	segc_expr_free(b);
	return rc;
}
