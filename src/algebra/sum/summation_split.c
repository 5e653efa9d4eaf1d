/* summation_split.c - sums whose body holds pieces of the counter: an if
 * whose condition is affine in it, or a max or min whose arguments differ
 * by an integer-valued affine function of it.  The range is split where
 * the piece changes, each side summed on its own, and the result is
 * piecewise in the names where the domains do not decide on which side
 * of a bound the breakpoint lies (doc/algebra.md, section 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* ------------------------------------------------------ substitution */

/* r = 'body' with the atom of variable 'w' replaced by the expression
 * 'x'; 1 when that cannot be done (a negative power), -1 on error. */
static int subst_atom(segc_canon *st, segc_rf *r, segc_rf *body, size_t w,
	const segc_expr *x, const char *name)
{
	segc_rf xv;
	int rc;

	segc_rf_init(&xv);
	rc = segc_sum_counter_to_rf(st, name, segc_expr_copy(x), &xv);
	if (rc == 0)
		rc = segc_rf_subst_var(st, r, body, w, &xv);
	segc_rf_clear(&xv);
	return rc;
}

/* --------------------------------------------------------- the splits */

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

static segc_expr *rel(const char *op, segc_expr *a, segc_expr *b);

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
	/* [lo1, hi1] holds the range of this side ([max(lo, T), hi] in
	 * [T, hi], [lo, min(hi, U)] in [lo, U]): where the domains prove it
	 * empty, so is the side, whichever way c goes (a breakpoint beyond
	 * a bound of the counter, which the bound's own relation to the
	 * breakpoint cannot decide) */
	k = rel("<", segc_expr_copy(hi1),
		segc_expr_copy(lo1));
	s1 = segc_cond_canon(st, k, 0, &truth);
	segc_expr_free(k);
	segc_expr_free(s1);
	s1 = NULL;
	if (truth == -2)
		return -1;
	if (truth == 1) {
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
	for (w = 0; w < segc_poly_nvars(a); w++)
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
	return segc_expr_div2(segc_expr_sub2(k, segc_expr_copy(beta)),
		segc_expr_copy(alpha));
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
	if (segc_sum_counter_to_rf(st, name, segc_expr_copy(segc_args(c)[0]),
		&q) ||
		!segc_rf_is_poly(&q) || (v = segc_sum_var_of_name(st, name)) ==
		(size_t)-1 || segc_poly_degree(&q.num, v) != 1 ||
		segc_poly_min_degree(&q.num, v) < 0) {
		segc_rf_clear(&q);
		return 0;
	}
	for (w = 0; w < segc_poly_nvars(&q.num); w++)
		if (segc_poly_has_var(&q.num, w) && segc_sum_holds_counter(st, w, name)) {
			segc_rf_clear(&q);
			return 0;
		}
	segc_sum_push_counter(st, name);
	integral = segc_kernel_integer_valued(st, &q.num);
	segc_sum_pop_counter(st);
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
		x = solve_for(segc_expr_copy(segc_args(c)[1]), be, ae);
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
				segc_expr_copy(segc_args(c)[1])),
					segc_expr_int(1)),
				be, ae));
			*t = segc_expr_add2(segc_expr_copy(*u), segc_expr_int(1));
		} else if (integral) {
			segc_expr_free(x);
			*t = floor_of(solve_for(ceil_of(segc_expr_copy(
				segc_args(c)[1])), be, ae));
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

/* r = the sum over [lo, hi] of 'body' whose atom of variable 'w' is
 * if(q == k, x, y) (or q != k): the same as if(q >= k, if(-q >= -k, x,
 * y), y) (x and y swapped for !=), whose two conditions are each split
 * where they change; 1 when c is neither (the sum stays a sum). */
static int split_equality(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *c, const segc_expr *x,
	const segc_expr *y, const segc_expr *lo, const segc_expr *hi)
{
	const segc_expr *a, *b;
	segc_expr *inner, *outer, *v[3];
	segc_rf nb;
	int rc;

	if (c->kind != SEGC_CALL || c->nargs != 2 || (strcmp(c->u.name,
		"==") && strcmp(c->u.name, "!=")))
		return 1;
	a = strcmp(c->u.name, "==") ? y : x;
	b = strcmp(c->u.name, "==") ? x : y;
	v[0] = rel(">=", segc_expr_neg(segc_expr_copy(segc_args(c)[0])),
		segc_expr_neg(segc_expr_copy(segc_args(c)[1])));
	v[1] = segc_expr_copy(a);
	v[2] = segc_expr_copy(b);
	inner = segc_expr_call("if", 3, v);
	v[0] = rel(">=", segc_expr_copy(segc_args(c)[0]),
		segc_expr_copy(segc_args(c)[1]));
	v[1] = inner;
	v[2] = segc_expr_copy(b);
	outer = segc_expr_call("if", 3, v);
	segc_rf_init(&nb);
	rc = subst_atom(st, &nb, body, w, outer, name);
	if (rc == 0)
		rc = segc_sum_range(st, r, name, &nb, lo, hi);
	segc_rf_clear(&nb);
	segc_expr_free(outer);
	return rc;
}

/* r = the sum over [lo, hi] of 'body' in which the atom of variable 'w'
 * is if(c, x, y) (the atom itself, or the if that a min or max stands
 * for): split where c changes; an equality or inequality of c is two
 * such conditions (split_equality); 1 when c is not affine in the
 * counter with a coefficient of a proved sign. */
static int split_cond(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *c, const segc_expr *x,
	const segc_expr *y, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *t = NULL, *t1 = NULL, *c1, *c2, *r1, *r2;
	segc_rf ba, bb, p1, p2;
	int dir = 0, rc;

	if (st->mode.splits >= SEGC_SUM_SPLITS)
		return 1;
	st->mode.splits++;
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
		segc_expr *a1 = segc_expr_copy(lo),
			*b1 = segc_expr_copy(hi);

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
		rc = split_equality(st, r, name, body, w, c, x, y, lo, hi);
	}
	segc_expr_free(t);
	segc_rf_clear(&ba);
	segc_rf_clear(&bb);
	segc_rf_clear(&p1);
	segc_rf_clear(&p2);
	st->mode.splits--;
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
			v[n++] = segc_expr_copy(segc_args(a)[i]);
	e = n == 1 ? v[0] : segc_expr_call(a->u.name, n, v);
	free(v);
	return e;
}

/* ----------------------------------------------- pieces inside floors */

/* Non-zero when 'e' is a piece: an if, or a max or min of two or more
 * arguments. */
static int is_piece_node(const segc_expr *e)
{
	return segc_expr_is_builtin(e, SEGC_BUILTIN_IF) ||
		((segc_expr_is_builtin(e, SEGC_BUILTIN_MAX) ||
		segc_expr_is_builtin(e, SEGC_BUILTIN_MIN)) && e->nargs >= 2);
}

/* The first piece (in pre-order) inside 'e' that holds the counter
 * 'name', not looking into sums (whose own counters are not names of
 * this range); NULL when there is none. */
static const segc_expr *inner_piece(const segc_expr *e, const char *name)
{
	const segc_expr *p;
	size_t i;

	if (e->kind == SEGC_SUM || !segc_expr_has_sym(e, name))
		return NULL;
	if (is_piece_node(e))
		return e;
	for (i = 0; i < e->nargs; i++)
		if ((p = inner_piece(segc_args(e)[i], name)) != NULL)
			return p;
	return NULL;
}

/* 'e' (borrowed) with the node 'p' replaced by 'x' (borrowed); nodes are
 * shared, so 'p' is found by address. */
static segc_expr *replace_node(const segc_expr *e, const segc_expr *p,
	const segc_expr *x)
{
	segc_expr **args, *res;
	size_t i;

	if (e == p)
		return segc_expr_copy(x);
	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM || e->nargs == 0)
		return segc_expr_copy(e);
	args = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*args)));
	for (i = 0; i < e->nargs; i++)
		args[i] = replace_node(segc_args(e)[i], p, x);
	res = segc_expr_rebuild(e->kind, e->kind == SEGC_CALL ||
		e->kind == SEGC_SUM ? e->u.name : NULL, e->nargs, args);
	free(args);
	return res;
}

/* The piece that atom 'A' stands for or holds: 'A' itself, or for a floor
 * or ceil the first piece of the counter inside its argument; NULL when
 * there is none. */
static const segc_expr *piece_of(const segc_expr *A, const char *name)
{
	if (is_piece_node(A))
		return segc_expr_has_sym(A, name) ? A : NULL;
	if ((segc_expr_is_builtin(A, SEGC_BUILTIN_FLOOR) ||
		segc_expr_is_builtin(A, SEGC_BUILTIN_CEIL)) && A->nargs == 1)
		return inner_piece(segc_args(A)[0], name);
	return NULL;
}

/* r = the sum over [lo, hi] of 'body' whose atom of variable 'w' is a
 * max (min) of the counter: max(a_p, a_q, rest) is if(a_p >= a_q,
 * max(a_p, rest), max(a_q, rest)) (a_p <= a_q for min), split where that
 * changes, for the first pair p < q whose comparison can be split on (or
 * is decided by the domains); 1 when there is none. */
static int split_extremum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *P, const segc_expr *lo,
	const segc_expr *hi)
{
	segc_expr *W = segc_expr_copy(st->atoms[w]);
	segc_expr *A = segc_expr_copy(P);
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
				segc_expr_copy(segc_args(A)[p]), segc_expr_copy(
				segc_args(A)[q])), &b);
			segc_sum_push_counter(st, name);
			truth = rc == 0 && segc_rf_is_poly(&b) &&
				segc_kernel_integer_valued(st, &b.num);
			segc_sum_pop_counter(st);
			segc_rf_clear(&b);
			if (rc)
				break;
			rc = 1;
			if (!truth)
				continue;
			c = ismax ? rel(">=", segc_expr_copy(segc_args(A)[p]),
				segc_expr_copy(segc_args(A)[q])) : rel(">=",
				segc_expr_copy(segc_args(A)[q]),
				segc_expr_copy(segc_args(A)[p]));
			segc_sum_push_counter(st, name);
			k = segc_cond_canon(st, c, 0, &truth);
			segc_sum_pop_counter(st);
			segc_expr_free(c);
			if (truth == -2) {
				segc_expr_free(k);
				rc = -1;
				break;
			}
			x = extremum_without(A, q);
			y = extremum_without(A, p);
			if (W != A) {
				/* the piece inside a floor or ceil: the atom
				 * with the piece replaced by each side */
				segc_expr *x1 = replace_node(W, A, x);
				segc_expr *y1 = replace_node(W, A, y);

				segc_expr_free(x);
				segc_expr_free(y);
				x = x1;
				y = y1;
			}
			if (truth == 0 || truth == 1) {
				/* one side everywhere: the extremum is that side */
				segc_rf_init(&b);
				rc = subst_atom(st, &b, body, w, truth ? x : y,
					name);
				if (rc == 0)
					rc = segc_sum_range(st, r, name, &b, lo, hi);
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
	segc_expr_free(W);
	return rc;
}

/* r = the sum over [lo, hi] of 'body' split at the piece of variable 'w'
 * (an if, a max or a min that holds the counter, or a floor or ceil
 * that holds one: floor(min(j, 4)/2) is if(j <= 4, floor(j/2), 2)); 1
 * when it cannot be split there. */
int segc_sum_split_piece(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *lo, const segc_expr *hi)
{
	segc_expr *W = segc_expr_copy(st->atoms[w]), *P, *x, *y;
	int rc;

	P = segc_expr_copy(piece_of(W, name));
	if (!P)
		rc = 1;
	else if (!segc_expr_is_builtin(P, SEGC_BUILTIN_IF))
		rc = split_extremum(st, r, name, body, w, P, lo, hi);
	else {
		x = replace_node(W, P, segc_args(P)[1]);
		y = replace_node(W, P, segc_args(P)[2]);
		rc = split_cond(st, r, name, body, w, segc_args(P)[0], x, y, lo,
			hi);
		segc_expr_free(x);
		segc_expr_free(y);
	}
	segc_expr_free(P);
	segc_expr_free(W);
	return rc;
}

/* Non-zero when variable 'w' of 'body' is a piece that holds the
 * counter: an if, a max or a min of two or more arguments, or a floor or
 * ceil of an expression that holds such a piece of the counter. */
int segc_sum_is_piece(segc_canon *st, const segc_rf *body, size_t w,
	const char *name)
{
	const segc_expr *a = st->atoms[w];

	/* the kind of the atom first: most atoms are names, and looking
	 * for a variable in the body goes through all its terms */
	if (!is_piece_node(a) && !((segc_expr_is_builtin(a,
		SEGC_BUILTIN_FLOOR) || segc_expr_is_builtin(a,
		SEGC_BUILTIN_CEIL)) && a->nargs == 1))
		return 0;
	if (!segc_poly_has_var(&body->num, w) &&
		!segc_poly_has_var(&body->den, w))
		return 0;
	return piece_of(a, name) != NULL;
}

/* Non-zero when the piece of variable 'w' is an if whose condition is
 * affine in the counter and holds (or fails) on the whole of [lo, hi] by
 * the domains: c = (i >= T) with lo >= T or hi < T, c = (i <= T) with
 * hi <= T or lo > T.  Such a piece splits into one side and an empty one,
 * so it is split before the others, which then see a body without it
 * (a range [max(i + 1, 2*i - 6), ...] from another piece would hide
 * i + 1 >= T from the domains). */
int segc_sum_piece_decided(segc_canon *st, size_t w, const char *name,
	const segc_expr *lo, const segc_expr *hi)
{
	const segc_expr *P = piece_of(st->atoms[w], name);
	segc_expr *t = NULL, *u = NULL, *k, *c;
	int dir, truth, res = 0, i;

	if (!P || !segc_expr_is_builtin(P, SEGC_BUILTIN_IF) ||
		!segc_expr_has_sym(segc_args(P)[0], name))
		return 0;
	dir = affine_boundary(st, segc_args(P)[0], name, &t, &u);
	for (i = 0; dir && i < 2 && !res; i++) {
		if (dir > 0)
			k = i ? rel("<", segc_expr_copy(hi),
				segc_expr_copy(t)) : rel(">=", segc_expr_copy(
				lo), segc_expr_copy(t));
		else
			k = i ? rel(">", segc_expr_copy(lo),
				segc_expr_copy(t)) : rel("<=", segc_expr_copy(
				hi), segc_expr_copy(t));
		c = segc_cond_canon(st, k, 0, &truth);
		segc_expr_free(k);
		segc_expr_free(c);
		res = truth == 1;
	}
	segc_expr_free(t);
	segc_expr_free(u);
	return res;
}
