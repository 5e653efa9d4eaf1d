/* summation.c - sum(i, lo, hi, body) in closed form.
 *
 * A sum adds its body over the integers i with lo <= i <= hi, and is 0
 * when there is none, as a C loop does: the bounds become L = ceil(lo)
 * and H = floor(hi) first.  The counter is an integer inside the body.
 *
 * When the canonical body is a polynomial in i (i only in the polynomial
 * part, with non-negative exponents, not inside any atom, and not in the
 * denominator), Faulhaber's formula with exact Bernoulli numbers
 * (summation_poly.c) gives
 * G(n) = sum_{i=1}^{n} body, and G(H) - G(L - 1) is the sum wherever
 * H - L + 1 >= 0; the result is if(H - L + 1 >= 0, G(H) - G(L - 1), 0),
 * which the canonical form of if reduces to the closed form where the
 * domains prove the range never empty by more than one.
 *
 * A body that holds if(c, a, b) with c affine in i (an inner loop whose
 * range depends on i) is split where c changes: i >= T on one side and
 * i <= T - 1 on the other, with T segc_sum_rounded exactly (ceil or floor), and
 * each part summed over its range, intersected with [L, H] piecewise
 * (decided by the domains where they can).  A condition free of i is
 * taken out of the sum.
 *
 * A body with floor or ceil of arguments affine in i is summed by residues
 * when its period is small (summation_quasi.c).  Other terms of the body
 * that cannot be summed in closed form stay an atom
 * SUM(v, L, H, body) with canonical parts, their constant factors taken
 * out, where the bound variable is renamed to "_s<k>": k is one more than
 * the deepest nesting of sums in the body, raised until the name is not
 * free in the body, so that sums differing only in the name of their
 * variable get the same atom. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon_private.h"
#include "base/util.h"

/* ----------------------------------------------------------- counters */

/* Non-zero when 'name' is the counter of a sum being converted. */
int segc_canon_is_counter(const segc_canon *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->nbound; i++)
		if (!strcmp(st->bound[i], name))
			return 1;
	return 0;
}

/* Makes 'name' (borrowed until the matching pop) an integer counter. */
static void push_counter(segc_canon *st, const char *name)
{
	if (st->nbound == st->capbound) {
		st->capbound = st->capbound ? 2 * st->capbound : 4;
		st->bound = segc_xrealloc(st->bound,
			segc_xmul_size(st->capbound, sizeof(*st->bound)));
	}
	st->bound[st->nbound++] = name;
}

static void pop_counter(segc_canon *st)
{
	st->nbound--;
}

/* r = the canonical form of 'e' (taken) with 'name' a counter. */
int segc_sum_counter_to_rf(segc_canon *st, const char *name, segc_expr *e,
	segc_rf *r)
{
	int rc;

	push_counter(st, name);
	rc = segc_canon_to_rf(st, e, r);
	pop_counter(st);
	segc_expr_free(e);
	return rc;
}

/* ---------------------------------------------------------- sum atoms */

/* Deepest nesting of sums in 'e'; 'memo' maps visited nodes to their
 * depth + 1. */
static unsigned long sum_depth(const segc_expr *e, segc_expr_map *memo)
{
	void **slot = segc_expr_map_find(memo, e);
	unsigned long d = 0, k;
	size_t i;

	if (slot)
		return (unsigned long)(size_t)*slot - 1;
	for (i = 0; i < e->nargs; i++)
		if ((k = sum_depth(e->args[i], memo)) > d)
			d = k;
	d += e->kind == SEGC_SUM;
	segc_expr_map_put(memo, e, (void *)(size_t)(d + 1));
	return d;
}

/* How many terms a sum with number bounds and no closed form may have
 * to be added up term by term in the canonical form. */
#define SEGC_SUM_UNROLL 1024


/* r = the sum of 'b' (taken) for 'name' = lo .. hi (integers), term by
 * term. */
static int unrolled(segc_canon *st, segc_rf *r, const char *name,
	segc_expr *b, const segc_expr *lo, const segc_expr *hi)
{
	mpz_t k;
	mpq_t q;
	segc_rf t;
	int rc = 0;

	mpz_init(k);
	mpq_init(q);
	segc_rf_init(&t);
	segc_rf_set_si(st, r, 0);
	for (mpz_set(k, mpq_numref(lo->u.value)); rc == 0 &&
		mpz_cmp(k, mpq_numref(hi->u.value)) <= 0; mpz_add_ui(k, k, 1)) {
		segc_expr *v, *e;

		mpq_set_z(q, k);
		v = segc_expr_num(q);
		e = segc_expr_subst(segc_expr_copy(b), name, v);
		segc_expr_free(v);
		rc = segc_canon_to_rf(st, e, &t);
		segc_expr_free(e);
		if (rc == 0)
			rc = segc_rf_add(st, r, r, &t);
	}
	segc_rf_clear(&t);
	mpq_clear(q);
	mpz_clear(k);
	segc_expr_free(b);
	return rc;
}

/* How many terms a sum with number bounds may have to be added up term
 * by term before its body is split at its pieces or by residues. */
#define SEGC_SUM_EARLY_UNROLL 64

/* Non-zero when lo and hi are numbers less than 'k' apart. */
static int few_terms(const segc_expr *lo, const segc_expr *hi, long k)
{
	mpz_t n;
	int few;

	if (lo->kind != SEGC_NUM || hi->kind != SEGC_NUM)
		return 0;
	mpz_init(n);
	mpz_sub(n, mpq_numref(hi->u.value), mpq_numref(lo->u.value));
	few = mpz_cmp_si(n, k) < 0;
	mpz_clear(n);
	return few;
}

/* Non-zero when lo and hi are numbers at most SEGC_SUM_UNROLL apart (see
 * canon_private.h). */
int segc_sum_few_terms(const segc_expr *lo, const segc_expr *hi)
{
	return few_terms(lo, hi, SEGC_SUM_UNROLL);
}

/* See canon_private.h. */
int segc_sum_atom(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *b = segc_canon_from_rf(st, body), *s;
	segc_expr_map memo;
	unsigned long k;
	char fresh[32];
	segc_rf t;
	int rc;

	if (!b)
		return -1;
	if (!segc_expr_has_sym(b, name)) {
		/* a body free of the counter is a product after all */
		s = segc_expr_add2(segc_expr_sub2(segc_expr_copy(
			(segc_expr *)hi), segc_expr_copy((segc_expr *)lo)),
			segc_expr_int(1));
		s = segc_expr_mul2(s, b);
		rc = segc_canon_to_rf(st, s, r);
		segc_expr_free(s);
		return rc;
	}
	if (segc_sum_few_terms(lo, hi))
		return unrolled(st, r, name, b, lo, hi);
	segc_expr_map_init(&memo);
	k = sum_depth(b, &memo) + 1;
	segc_expr_map_clear(&memo);
	do
		snprintf(fresh, sizeof(fresh), "_s%lu", k++);
	while (strcmp(fresh, name) && segc_expr_has_sym(b, fresh));
	if (strcmp(fresh, name)) {
		s = segc_expr_sym(fresh);
		b = segc_expr_subst(b, name, s);
		segc_expr_free(s);
		segc_rf_init(&t);
		rc = segc_sum_counter_to_rf(st, fresh, b, &t);
		b = rc ? NULL : segc_canon_from_rf(st, &t);
		segc_rf_clear(&t);
		if (!b)
			return -1;
	}
	s = segc_expr_sum(fresh, segc_expr_copy((segc_expr *)lo),
		segc_expr_copy((segc_expr *)hi), b);
	segc_poly_set_var(&r->num, segc_canon_var(st, s), 1);
	segc_poly_set_si(&r->den, 1);
	segc_expr_free(s);
	return 0;
}

/* The variable of the name 'name' if it is already an atom, else -1. */
size_t segc_sum_var_of_name(segc_canon *st, const char *name)
{
	segc_expr *sym = segc_expr_sym(name);
	void **slot = segc_expr_map_find(&st->atom_index, sym);

	segc_expr_free(sym);
	return slot ? (size_t)(*slot) - 1 : (size_t)-1;
}

/* Non-zero when variable 'w' is an atom other than 'name' itself in
 * which 'name' occurs. */
int segc_sum_holds_counter(segc_canon *st, size_t w, const char *name)
{
	const segc_expr *a = st->atoms[w];

	return a->kind != SEGC_SYM && segc_expr_has_sym(a, name);
}

/* ------------------------------------------------------ substitution */

/* r = 'body' with the atom of variable 'w' replaced by the expression
 * 'x'; 1 when that cannot be done (a negative power), -1 on error. */
static int subst_atom(segc_canon *st, segc_rf *r, segc_rf *body, size_t w,
	const segc_expr *x, const char *name)
{
	segc_rf xv;
	int rc;

	segc_rf_init(&xv);
	rc = segc_sum_counter_to_rf(st, name, segc_expr_copy((segc_expr *)x), &xv);
	if (rc == 0)
		rc = segc_rf_subst_var(st, r, body, w, &xv);
	segc_rf_clear(&xv);
	return rc;
}

/* --------------------------------------------------------- the sums */

static int range_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi);

/* The canonical expression of the sum of 'body' over [lo, hi] (NULL on
 * error). */
static segc_expr *sum_expr(segc_canon *st, const char *name, segc_rf *body,
	const segc_expr *lo, const segc_expr *hi)
{
	segc_rf r;
	segc_expr *e = NULL;

	segc_rf_init(&r);
	if (segc_sum_range(st, &r, name, body, lo, hi) == 0)
		e = segc_canon_from_rf(st, &r);
	segc_rf_clear(&r);
	return e;
}

/* r = if(c, sum of 'b' over [lo1, hi1], sum of 'b' over [lo, hi]):
 * the sum over [max(lo, T), hi] or [lo, min(hi, T)], written with the
 * condition c that T is inside and 'rev' that it is not.  Only the side
 * that the domains leave possible is summed; when they prove 'rev', the
 * bounds of the loop are kept as they are. */
static int sum_pick(segc_canon *st, segc_rf *r, const char *name,
	const segc_expr *c, const segc_expr *rev, segc_rf *b,
	const segc_expr *lo1, const segc_expr *hi1, const segc_expr *lo,
	const segc_expr *hi)
{
	int truth, rc = -1;
	segc_expr *k, *s1 = NULL, *s2;

	if (segc_poly_is_zero(&b->num)) {
		/* nothing to add on either range (an inner loop's empty side) */
		segc_rf_set_si(st, r, 0);
		return 0;
	}
	k = segc_cond_canon(st, rev, 0, &truth);
	if (truth == -2)
		return -1;
	segc_expr_free(k);
	if (truth == 1)
		return segc_sum_range(st, r, name, b, lo, hi);
	k = segc_cond_canon(st, c, 0, &truth);
	if (truth == -2)
		return -1;
	if (truth == 1)
		rc = segc_sum_range(st, r, name, b, lo1, hi1);
	else if (truth == 0)
		rc = segc_sum_range(st, r, name, b, lo, hi);
	else if ((s1 = sum_expr(st, name, b, lo1, hi1)) != NULL &&
		(s2 = sum_expr(st, name, b, lo, hi)) != NULL) {
		rc = segc_if_make(st, r, k, s1, s2);
		segc_expr_free(s2);
	}
	segc_expr_free(s1);
	segc_expr_free(k);
	return rc;
}

/* A relation node 'op'(a, b), taking both. */
static segc_expr *rel(const char *op, segc_expr *a, segc_expr *b)
{
	segc_expr *v[2];

	v[0] = a;
	v[1] = b;
	return segc_expr_call(op, 2, v);
}

/* ceil('a'), 'a' taken. */
static segc_expr *ceil_of(segc_expr *a)
{
	return segc_expr_call1(SEGC_BUILTIN_CEIL, a);
}

/* floor('a'), 'a' taken. */
static segc_expr *floor_of(segc_expr *a)
{
	return segc_expr_call1(SEGC_BUILTIN_FLOOR, a);
}

/* The sign (1 or -1) that the coefficient 'a' of the counter provably
 * has, 0 when it is not proved or 'a' holds a counter-dependent atom. */
static int coeff_sign(segc_canon *st, const segc_poly *a, const char *name)
{
	segc_rf r;
	size_t w;
	unsigned s;

	if (segc_poly_is_zero(a))
		return 0;
	for (w = 0; w < a->nvars; w++)
		if (segc_poly_has_var(a, w) && segc_expr_has_sym(st->atoms[w],
			name))
			return 0;
	segc_rf_init(&r);
	segc_poly_set(&r.num, a);
	s = segc_kernel_sign(st, &r);
	segc_rf_clear(&r);
	return (s & SEGC_SIGN_POS) ? 1 : (s & SEGC_SIGN_NEG) ? -1 : 0;
}

/* (k - beta) / alpha, taking 'k' and borrowing the others. */
static segc_expr *solve_for(segc_expr *k, const segc_expr *beta,
	const segc_expr *alpha)
{
	return segc_expr_div2(segc_expr_sub2(k, segc_expr_copy(
		(segc_expr *)beta)), segc_expr_copy((segc_expr *)alpha));
}

/* For a condition c = (q OP k) whose q is alpha*i + beta with alpha of a
 * proved sign and free of the counter, as beta is: returns 1 when c is
 * i >= T, -1 when it is i <= T, with '*t' = T, and '*u' the bound where c
 * fails begins or ends (i <= U, resp. i >= U); 0 when c is not of that
 * form.  For q integer-valued (alpha and beta then are) both bounds are
 * written with floor, one the other plus 1: for alpha > 0, c fails where
 * q <= ceil(k) - 1, i.e. i <= U = floor((ceil(k) - 1 - beta)/alpha), and
 * holds from T = U + 1; for alpha < 0 it holds up to
 * T = floor((ceil(k) - beta)/alpha) and fails from U = T + 1.  So the
 * boundaries of several inner loops (N - B*i, N - B*(i - 1)) come out in
 * the one atom floor(N/B), which the domains can compare.  Otherwise T is
 * ceil((k - beta)/alpha) or floor(...) and U is T -+ 1. */
static int affine_boundary(segc_canon *st, const segc_expr *c,
	const char *name, segc_expr **t, segc_expr **u)
{
	segc_rf q, br;
	segc_poly a, b;
	size_t v, w;
	int dir = 0, strict, sign, integral;
	segc_expr *ae = NULL, *be = NULL, *x;

	*t = *u = NULL;
	if (c->kind != SEGC_CALL || c->nargs != 2 || (strcmp(c->u.name, ">=") &&
		strcmp(c->u.name, ">")))
		return 0;
	strict = !strcmp(c->u.name, ">");
	segc_rf_init(&q);
	if (segc_sum_counter_to_rf(st, name, segc_expr_copy(c->args[0]), &q) ||
		!segc_rf_is_poly(&q) || (v = segc_sum_var_of_name(st, name)) ==
		(size_t)-1 || segc_poly_degree(&q.num, v) != 1 ||
		segc_poly_min_degree(&q.num, v) < 0) {
		segc_rf_clear(&q);
		return 0;
	}
	for (w = 0; w < q.num.nvars; w++)
		if (segc_poly_has_var(&q.num, w) && segc_sum_holds_counter(st, w, name)) {
			segc_rf_clear(&q);
			return 0;
		}
	push_counter(st, name);
	integral = segc_kernel_integer_valued(st, &q.num);
	pop_counter(st);
	segc_poly_init(&a, 0);
	segc_poly_init(&b, 0);
	segc_poly_coeff_var(&a, &q.num, v, 1);
	segc_poly_coeff_var(&b, &q.num, v, 0);
	sign = coeff_sign(st, &a, name);
	segc_rf_init(&br);
	if (sign) {
		segc_poly_swap(&br.num, &b);
		segc_poly_set_si(&br.den, 1);
		be = segc_canon_from_rf(st, &br);
		segc_poly_swap(&br.num, &a);
		ae = be ? segc_canon_from_rf(st, &br) : NULL;
	}
	if (ae) {
		x = solve_for(segc_expr_copy(c->args[1]), be, ae);
		dir = sign;
		if (strict) {
			/* alpha > 0: i > x; alpha < 0: i < x */
			*u = segc_expr_call1(sign > 0 ? SEGC_BUILTIN_FLOOR :
				SEGC_BUILTIN_CEIL, x);
			*t = sign > 0 ? segc_expr_add2(segc_expr_copy(*u),
				segc_expr_int(1)) : segc_expr_sub2(segc_expr_copy(
				*u), segc_expr_int(1));
		} else if (integral && sign > 0) {
			/* q >= k is q > ceil(k) - 1 */
			segc_expr_free(x);
			*u = floor_of(solve_for(segc_expr_sub2(ceil_of(
				segc_expr_copy(c->args[1])), segc_expr_int(1)),
				be, ae));
			*t = segc_expr_add2(segc_expr_copy(*u), segc_expr_int(1));
		} else if (integral) {
			segc_expr_free(x);
			*t = floor_of(solve_for(ceil_of(segc_expr_copy(
				c->args[1])), be, ae));
			*u = segc_expr_add2(segc_expr_copy(*t), segc_expr_int(1));
		} else {
			*t = segc_expr_call1(sign > 0 ? SEGC_BUILTIN_CEIL :
				SEGC_BUILTIN_FLOOR, x);
			*u = sign > 0 ? segc_expr_sub2(segc_expr_copy(*t),
				segc_expr_int(1)) : segc_expr_add2(segc_expr_copy(*t),
				segc_expr_int(1));
		}
	}
	if (*t && *u) {
		/* bounds of sums: canonical, so that number bounds are numbers */
		x = segc_canon_expr(st, *t);
		segc_expr_free(*t);
		*t = x;
		x = *t ? segc_canon_expr(st, *u) : NULL;
		segc_expr_free(*u);
		*u = x;
		if (!*t || !*u) {
			segc_expr_free(*t);
			segc_expr_free(*u);
			*t = *u = NULL;
			dir = 0;
		}
	}
	segc_expr_free(ae);
	segc_expr_free(be);
	segc_rf_clear(&br);
	segc_poly_clear(&a);
	segc_poly_clear(&b);
	segc_rf_clear(&q);
	return dir;
}

/* How many splits at pieces one sum may nest: each doubles the sums to
 * take, and a sum left as it is is always right. */
#define SEGC_SUM_SPLITS 8

/* r = the sum over [lo, hi] of 'body' in which the atom of variable 'w'
 * is if(c, x, y) (the atom itself, or the if that a min or max stands
 * for): split where c changes; 1 when c is not affine in the counter
 * with a coefficient of a proved sign. */
static int split_cond(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *c, const segc_expr *x,
	const segc_expr *y, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *t = NULL, *t1 = NULL, *c1, *c2, *r1, *r2;
	segc_rf ba, bb, p1, p2;
	int dir = 0, rc;

	if (st->splits >= SEGC_SUM_SPLITS)
		return 1;
	st->splits++;
	segc_rf_init(&ba);
	segc_rf_init(&bb);
	segc_rf_init(&p1);
	segc_rf_init(&p2);
	rc = subst_atom(st, &ba, body, w, x, name);
	if (rc == 0)
		rc = subst_atom(st, &bb, body, w, y, name);
	if (rc == 0 && !segc_expr_has_sym(c, name)) {
		segc_expr *s1 = sum_expr(st, name, &ba, lo, hi), *s2 = NULL;

		rc = s1 && (s2 = sum_expr(st, name, &bb, lo, hi)) ?
			segc_if_make(st, r, c, s1, s2) : -1;
		segc_expr_free(s1);
		segc_expr_free(s2);
	} else if (rc == 0 && (dir = affine_boundary(st, c, name,
		&t, &t1)) != 0) {
		segc_expr *a1 = segc_expr_copy((segc_expr *)lo),
			*b1 = segc_expr_copy((segc_expr *)hi);

		if (dir < 0) {
			/* i <= T: [lo, min(hi, T)] and [max(lo, U), hi] */
			c1 = rel("<=", segc_expr_copy(t), segc_expr_copy(b1));
			r1 = rel("<=", segc_expr_copy(b1), segc_expr_copy(t));
			c2 = rel(">=", segc_expr_copy(t1), segc_expr_copy(a1));
			r2 = rel(">=", segc_expr_copy(a1), segc_expr_copy(t1));
			rc = sum_pick(st, &p1, name, c1, r1, &ba, a1, t, a1, b1);
			if (rc == 0)
				rc = sum_pick(st, &p2, name, c2, r2, &bb, t1, b1,
					a1, b1);
		} else {
			/* i >= T: [max(lo, T), hi] and [lo, min(hi, U)] */
			c1 = rel(">=", segc_expr_copy(t), segc_expr_copy(a1));
			r1 = rel(">=", segc_expr_copy(a1), segc_expr_copy(t));
			c2 = rel("<=", segc_expr_copy(t1), segc_expr_copy(b1));
			r2 = rel("<=", segc_expr_copy(b1), segc_expr_copy(t1));
			rc = sum_pick(st, &p1, name, c1, r1, &ba, t, b1, a1, b1);
			if (rc == 0)
				rc = sum_pick(st, &p2, name, c2, r2, &bb, a1, t1,
					a1, b1);
		}
		if (rc == 0)
			rc = segc_rf_add(st, r, &p1, &p2);
		segc_expr_free(t1);
		segc_expr_free(c1);
		segc_expr_free(c2);
		segc_expr_free(r1);
		segc_expr_free(r2);
		segc_expr_free(a1);
		segc_expr_free(b1);
	} else if (rc == 0) {
		rc = 1;
	}
	segc_expr_free(t);
	segc_rf_clear(&ba);
	segc_rf_clear(&bb);
	segc_rf_clear(&p1);
	segc_rf_clear(&p2);
	st->splits--;
	return rc;
}

/* 'fn'(args of 'a' but the one at 'skip'), or that one argument alone
 * when only one is left. */
static segc_expr *extremum_without(const segc_expr *a, size_t skip)
{
	segc_expr **v = segc_xmalloc(a->nargs * sizeof(*v)), *e;
	size_t i, n = 0;

	for (i = 0; i < a->nargs; i++)
		if (i != skip)
			v[n++] = segc_expr_copy(a->args[i]);
	e = n == 1 ? v[0] : segc_expr_call(a->u.name, n, v);
	free(v);
	return e;
}

/* r = the sum over [lo, hi] of 'body' whose atom of variable 'w' is a
 * max (min) of the counter: max(a_p, a_q, rest) is if(a_p >= a_q,
 * max(a_p, rest), max(a_q, rest)) (a_p <= a_q for min), split where that
 * changes, for the first pair p < q whose comparison can be split on (or
 * is decided by the domains); 1 when there is none. */
static int split_extremum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *A = segc_expr_copy(st->atoms[w]);
	int ismax = segc_expr_is_builtin(A, SEGC_BUILTIN_MAX), rc = 1;
	size_t p, q;

	for (p = 0; rc == 1 && p < A->nargs; p++)
		for (q = p + 1; rc == 1 && q < A->nargs; q++) {
			segc_expr *c, *k, *x, *y;
			segc_rf b;
			int truth;

			/* only a difference without a denominator (a condition
			 * with one whose sign is not known is an error) and of
			 * integer values: its breakpoint is then an integer
			 * expression of the names, not a ceil(a) of a real a
			 * that would make the result piecewise in ceil(a),
			 * where the sum left as it is has one normal form */
			segc_rf_init(&b);
			rc = segc_sum_counter_to_rf(st, name, segc_expr_sub2(
				segc_expr_copy(A->args[p]), segc_expr_copy(
				A->args[q])), &b);
			push_counter(st, name);
			truth = rc == 0 && segc_rf_is_poly(&b) &&
				segc_kernel_integer_valued(st, &b.num);
			pop_counter(st);
			segc_rf_clear(&b);
			if (rc)
				break;
			rc = 1;
			if (!truth)
				continue;
			c = ismax ? rel(">=", segc_expr_copy(A->args[p]),
				segc_expr_copy(A->args[q])) : rel(">=",
				segc_expr_copy(A->args[q]),
				segc_expr_copy(A->args[p]));
			push_counter(st, name);
			k = segc_cond_canon(st, c, 0, &truth);
			pop_counter(st);
			segc_expr_free(c);
			if (truth == -2) {
				segc_expr_free(k);
				rc = -1;
				break;
			}
			x = extremum_without(A, q);
			y = extremum_without(A, p);
			if (truth == 0 || truth == 1) {
				/* one side everywhere: the extremum is that side */
				segc_rf_init(&b);
				rc = subst_atom(st, &b, body, w, truth ? x : y,
					name);
				if (rc == 0)
					rc = range_sum(st, r, name, &b, lo, hi);
				segc_rf_clear(&b);
			} else if (k) {
				rc = split_cond(st, r, name, body, w, k, x, y, lo,
					hi);
			} else {
				rc = -1;
			}
			segc_expr_free(k);
			segc_expr_free(x);
			segc_expr_free(y);
		}
	segc_expr_free(A);
	return rc;
}

/* r = the sum over [lo, hi] of 'body' split at the piece of variable 'w'
 * (an if, a max or a min that holds the counter); 1 when it cannot be
 * split there. */
static int split_piece(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *A;
	int rc;

	if (!segc_expr_is_builtin(st->atoms[w], SEGC_BUILTIN_IF))
		return split_extremum(st, r, name, body, w, lo, hi);
	A = segc_expr_copy(st->atoms[w]);
	rc = split_cond(st, r, name, body, w, A->args[0], A->args[1],
		A->args[2], lo, hi);
	segc_expr_free(A);
	return rc;
}

/* Non-zero when variable 'w' of 'body' is a piece that holds the
 * counter: an if, a max or a min of two or more arguments. */
static int is_piece(segc_canon *st, const segc_rf *body, size_t w,
	const char *name)
{
	const segc_expr *a = st->atoms[w];

	if (!segc_poly_has_var(&body->num, w) &&
		!segc_poly_has_var(&body->den, w))
		return 0;
	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_IF) &&
		!((segc_expr_is_builtin(a, SEGC_BUILTIN_MAX) ||
		segc_expr_is_builtin(a, SEGC_BUILTIN_MIN)) && a->nargs >= 2))
		return 0;
	return segc_expr_has_sym(a, name);
}

/* r = the closed form of the sum of the polynomial body 'p' (over the
 * denominator 'den', free of the counter) over [lo, hi], valid where
 * hi - lo + 1 >= 0, as if(hi - lo + 1 >= 0, G(hi) - G(lo - 1), 0). */
static int closed_sum(segc_canon *st, segc_rf *r, const char *name,
	const segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi)
{
	segc_rf b, l, h, g;
	segc_expr *ge = NULL, *c, *z;
	size_t v = segc_sum_var_of_name(st, name);
	int rc;

	segc_rf_init(&b);
	segc_rf_init(&l);
	segc_rf_init(&h);
	segc_rf_init(&g);
	segc_poly_set(&b.num, p);
	segc_poly_set(&b.den, den);
	rc = segc_canon_to_rf(st, lo, &l);
	if (rc == 0)
		rc = segc_canon_to_rf(st, hi, &h);
	if (rc == 0)
		rc = segc_sum_closed_form(st, &g, &b, v == (size_t)-1 ||
			!segc_poly_has_var(&b.num, v) ? (size_t)-1 / 2 : v,
			&l, &h);
	if (rc == 0 && !(ge = segc_canon_from_rf(st, &g)))
		rc = -1;
	if (rc == 0) {
		c = rel(">=", segc_expr_add2(segc_expr_sub2(segc_expr_copy(
			(segc_expr *)hi), segc_expr_copy((segc_expr *)lo)),
			segc_expr_int(1)), segc_expr_int(0));
		z = segc_expr_int(0);
		rc = segc_if_make(st, r, c, ge, z);
		segc_expr_free(c);
		segc_expr_free(z);
	}
	segc_expr_free(ge);
	segc_rf_clear(&b);
	segc_rf_clear(&l);
	segc_rf_clear(&h);
	segc_rf_clear(&g);
	return rc;
}

/* Non-zero when term 'i' of 'p' can be summed in closed form: no atom
 * of it other than the counter holds the counter, and the counter has
 * no negative power. */
static int clean_term(segc_canon *st, const segc_poly *p, size_t i,
	size_t v, const char *name)
{
	size_t w;

	for (w = 0; w < p->nvars; w++) {
		int32_t e = segc_poly_exp(p, i, w);

		if (!e)
			continue;
		if (w == v ? e < 0 : segc_sum_holds_counter(st, w, name))
			return 0;
	}
	return 1;
}

/* 1 when the canonical expression of 'r' (a copy is normalised) leads
 * with a negative term (of its numerator), 0 when not, -1 on an error. */
static int leads_negative(segc_canon *st, const segc_rf *r)
{
	segc_rf c;
	segc_expr *e, *t;
	int neg;

	segc_rf_init(&c);
	segc_rf_set(&c, r);
	e = segc_canon_from_rf(st, &c);
	segc_rf_clear(&c);
	if (!e)
		return -1;
	t = e;
	if (t->kind == SEGC_MUL && t->nargs && t->args[0]->kind == SEGC_ADD)
		t = t->args[0];
	if (t->kind == SEGC_ADD)
		t = t->args[0];
	neg = (t->kind == SEGC_NUM && mpq_sgn(t->u.value) < 0) ||
		(t->kind == SEGC_MUL && t->args[0]->kind == SEGC_NUM &&
		mpq_sgn(t->args[0]->u.value) < 0);
	segc_expr_free(e);
	return neg;
}

/* r = the sum over [lo, hi] of the terms of 'p' (over 'den') that have
 * no closed form: a SUM atom of their primitive part, times the
 * monomial of counter-free atoms and the number they share. */
static int rest_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi)
{
	int32_t *mins = segc_xcalloc(p->nvars ? p->nvars : 1, sizeof(int32_t));
	size_t w, v = segc_sum_var_of_name(st, name);
	segc_rf body, f;
	mpq_t scale;
	int rc;

	segc_poly_min_exps(p, mins);
	for (w = 0; w < p->nvars; w++)
		if (w == v || segc_sum_holds_counter(st, w, name) || mins[w] < 0)
			mins[w] = 0;
	segc_rf_init(&body);
	segc_rf_init(&f);
	mpq_init(scale);
	segc_poly_set(&body.num, p);
	segc_poly_set(&body.den, den);
	for (w = 0; w < p->nvars; w++)
		mins[w] = -mins[w];
	rc = segc_poly_shift(&st->lim, &body.num, mins);
	segc_poly_primitive(&body.num, scale);
	if (rc == 0 && (rc = leads_negative(st, &body)) == 1) {
		/* sum(-f) is -sum(f): the body leads with a positive term */
		segc_poly_neg(&body.num);
		mpq_neg(scale, scale);
		rc = 0;
	}
	if (rc == 0)
		rc = segc_sum_normal_atom(st, &f, name, &body, lo, hi);
	if (rc == 0) {
		for (w = 0; w < p->nvars; w++)
			mins[w] = -mins[w];
		segc_poly_set_q(&body.num, scale);
		segc_poly_set_si(&body.den, 1);
		rc = segc_poly_shift(&st->lim, &body.num, mins);
	}
	if (rc == 0)
		rc = segc_rf_mul(st, r, &f, &body);
	mpq_clear(scale);
	segc_rf_clear(&body);
	segc_rf_clear(&f);
	free(mins);
	return rc;
}

/* r = the sum over [lo, hi] of the terms 'p' (over 'den') that Faulhaber
 * cannot sum: by residues when they are a quasi-polynomial of a small
 * period, else a sum atom. */
static int dirty_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi)
{
	unsigned long q = st->quasi ? 0 : segc_sum_quasi_period(st, p, name);

	if (q)
		return segc_sum_quasi(st, r, name, p, den, lo, hi, q);
	return rest_sum(st, r, name, p, den, lo, hi);
}

/* r = the sum over [lo, hi] of a body free of ifs that hold the counter:
 * the terms with a closed form summed so, the others kept as one sum. */
static int plain_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	size_t i, w, v = segc_sum_var_of_name(st, name);
	segc_poly clean, dirty;
	segc_rf a, b;
	int rc = 0;

	for (w = 0; w < body->den.nvars; w++)
		if (segc_poly_has_var(&body->den, w) && (w == v ||
			segc_sum_holds_counter(st, w, name)))
			return segc_sum_normal_atom(st, r, name, body, lo, hi);
	segc_poly_init(&clean, body->num.nvars);
	segc_poly_init(&dirty, body->num.nvars);
	for (i = 0; i < body->num.len; i++)
		segc_poly_push(clean_term(st, &body->num, i, v, name) ?
			&clean : &dirty, body->num.exps + i * body->num.nvars,
			body->num.coefs[i]);
	segc_poly_normalise(NULL, &clean);
	segc_poly_normalise(NULL, &dirty);
	segc_rf_init(&a);
	segc_rf_init(&b);
	if (clean.len || !dirty.len)
		rc = closed_sum(st, &a, name, &clean, &body->den, lo, hi);
	if (rc == 0 && dirty.len)
		rc = dirty_sum(st, &b, name, &dirty, &body->den, lo, hi);
	if (rc == 0)
		rc = segc_rf_add(st, r, &a, &b);
	segc_poly_clear(&clean);
	segc_poly_clear(&dirty);
	segc_rf_clear(&a);
	segc_rf_clear(&b);
	return rc;
}

/* ------------------------------------------------- counters of sums */

/* Non-zero when the domains prove e >= k. */
static int proved_at_least(segc_canon *st, const segc_expr *e, long k)
{
	segc_expr *d = segc_expr_sub2(segc_expr_copy((segc_expr *)e),
		segc_expr_int(k));
	segc_rf r;
	int ok;

	segc_rf_init(&r);
	ok = segc_canon_to_rf(st, d, &r) == 0 &&
		(segc_kernel_sign(st, &r) & SEGC_SIGN_NONNEG);
	segc_rf_clear(&r);
	segc_expr_free(d);
	return ok;
}

/* Makes 'buf' a fresh counter for a sum over [lo, hi] (integer bounds):
 * a name _c<k> that occurs neither in 'avoid' nor in the domains, and
 * declares it an integer with the constant bounds that [lo, hi] proves:
 * lo itself when it is a number, else 1 or 0 when the domains prove
 * lo >= 1 or lo >= 0; hi when it is a number.  Every range a sum is
 * taken over gets its own name, so that neither a declared domain of
 * the name the counter had (the counters of loops are declared over the
 * union of their ranges) nor a bound found for an atom in another range
 * (the shifted, reflected, split or residue ranges of the same counter)
 * is taken for it. */
static void fresh_counter(segc_canon *st, char *buf, size_t len,
	const segc_expr *avoid, const segc_expr *lo, const segc_expr *hi)
{
	mpq_srcptr min = NULL, max = NULL;

	do
		snprintf(buf, len, "_c%lu", st->fresh++);
	while ((avoid && segc_expr_has_sym(avoid, buf)) ||
		segc_domains_get(st->dom, buf, NULL, NULL, NULL));
	if (lo->kind == SEGC_NUM)
		min = lo->u.value;
	else if (proved_at_least(st, lo, 1))
		min = st->one;
	else if (proved_at_least(st, lo, 0))
		min = st->zero;
	if (hi->kind == SEGC_NUM)
		max = hi->u.value;
	if (!st->own_dom) {
		st->own_dom = segc_domains_copy(st->dom);
		st->dom = st->own_dom;
	}
	segc_domains_set(st->own_dom, buf, min, max, 1);
}

/* r = the sum of 'body' (a rational function in which the counter 'name'
 * is a name) over the integers of [lo, hi], integer bounds; the counter
 * has its own name, declared with the range. */
static int range_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	size_t w, n = body->num.nvars > body->den.nvars ? body->num.nvars :
		body->den.nvars;
	unsigned long q;
	int rc = 1, ifs = 0;

	if (segc_ctx_charge(st->ctx, 16))
		return -1;
	if (few_terms(lo, hi, SEGC_SUM_EARLY_UNROLL)) {
		/* a short range of numbers: term by term, before splitting
		 * the body at its pieces or by residues */
		segc_expr *b = segc_canon_from_rf(st, body);

		return b ? unrolled(st, r, name, b, lo, hi) : -1;
	}
	for (w = 0; w < n && rc == 1; w++)
		if (is_piece(st, body, w, name)) {
			if (segc_expr_is_builtin(st->atoms[w], SEGC_BUILTIN_IF))
				ifs = 1;
			rc = split_piece(st, r, name, body, w, lo, hi);
		}
	if (rc == 1 && !ifs)
		/* no if, and no max or min that could be split: the terms
		 * with a closed form summed so, the others left as a sum */
		return plain_sum(st, r, name, body, lo, hi);
	if (rc == 1 && !st->quasi && (q = segc_sum_body_period(st, body, name)) != 0)
		return segc_sum_quasi(st, r, name, &body->num, &body->den, lo, hi, q);
	return rc == 1 ? segc_sum_normal_atom(st, r, name, body, lo, hi) : rc;
}

/* See canon_private.h: the counter is renamed to a fresh counter of
 * the range first. */
int segc_sum_range(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *b = segc_canon_from_rf(st, body), *v;
	segc_rf nb;
	char fresh[32];
	int rc;

	if (!b)
		return -1;
	if (!segc_expr_has_sym(b, name)) {
		segc_expr_free(b);
		return range_sum(st, r, name, body, lo, hi);
	}
	fresh_counter(st, fresh, sizeof fresh, b, lo, hi);
	v = segc_expr_sym(fresh);
	b = segc_expr_subst(b, name, v);
	segc_expr_free(v);
	segc_rf_init(&nb);
	rc = segc_sum_counter_to_rf(st, fresh, b, &nb);
	if (rc == 0)
		rc = range_sum(st, r, fresh, &nb, lo, hi);
	segc_rf_clear(&nb);
	return rc;
}

/* The canonical form of f(x), f ceil or floor. */
segc_expr *segc_sum_rounded(segc_canon *st, enum segc_builtin f,
	segc_expr *x)
{
	segc_expr *c = segc_expr_call1(f, segc_expr_copy(x)), *res;

	res = segc_canon_expr(st, c);
	segc_expr_free(c);
	return res;
}

/* r = the sum node 'e' (see canon_private.h). */
int segc_sum_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_rf body;
	segc_expr *lo, *hi, *v, *b;
	int rc = -1, stage = st->sum_stage, splits = st->splits;
	char name[32];

	/* The counter is a bound name whose only range is [lo, hi]: it gets
	 * a fresh name with that range (fresh_counter) */
	st->sum_stage = 0;
	st->splits = 0;
	segc_rf_init(&body);
	lo = segc_sum_rounded(st, SEGC_BUILTIN_CEIL, e->args[0]);
	hi = lo ? segc_sum_rounded(st, SEGC_BUILTIN_FLOOR, e->args[1]) : NULL;
	if (hi) {
		fresh_counter(st, name, sizeof name, e, lo, hi);
		v = segc_expr_sym(name);
		b = segc_expr_subst(segc_expr_copy(e->args[2]), e->u.name, v);
		segc_expr_free(v);
		rc = segc_sum_counter_to_rf(st, name, b, &body);
		if (rc == 0)
			rc = range_sum(st, r, name, &body, lo, hi);
	}
	segc_expr_free(lo);
	segc_expr_free(hi);
	segc_rf_clear(&body);
	st->sum_stage = stage;
	st->splits = splits;
	return rc;
}
