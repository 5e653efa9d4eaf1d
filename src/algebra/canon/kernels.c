/* kernels.c - simplification of the built-in functions (max, min, ceil,
 * floor, log2, sqrt) on canonical arguments, sound on the declared
 * domains: names not declared are unconstrained.  Here the dispatch, and
 * ceil, floor, log2 and sqrt; the sign proofs are in kernel_sign.c, the
 * normal form of max and min in kernel_extremum.c and kernel_content.c. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "base/util.h"

/* Non-zero when the monomial of term i of 'p' is an integer on the box. */
static int monomial_integer_valued(segc_canon *st, const segc_poly *p,
	size_t i)
{
	size_t v;

	for (v = 0; v < segc_poly_nvars(p); v++) {
		int32_t e = segc_poly_exp(p, i, v);
		mpq_srcptr lo, hi;
		int integer;

		if (e < 0)
			return 0;
		if (e == 0)
			continue;
		segc_kernel_atom_bounds(st, v, &lo, &hi, &integer);
		if (!integer)
			return 0;
	}
	return 1;
}

/* Non-zero when term i of 'p' is an integer on the box. */
static int term_integer_valued(segc_canon *st, const segc_poly *p, size_t i)
{
	return !mpz_cmp_ui(mpq_denref(segc_poly_coeff(p, i)), 1) &&
		monomial_integer_valued(st, p, i);
}

/* Non-zero when every term of 'p' is an integer on the box. */
int segc_kernel_integer_valued(segc_canon *st, const segc_poly *p)
{
	size_t i;

	for (i = 0; i < segc_poly_nterms(p); i++)
		if (!term_integer_valued(st, p, i))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ helpers */

/* The canonical form of 'e' (taken) inside 'st'. */
static segc_expr *recanon(segc_canon *st, segc_expr *e)
{
	segc_expr *r;

	if (!e)
		return NULL;
	r = segc_canon_expr(st, e);
	segc_expr_free(e);
	return r;
}

/* --------------------------------------------------------- ceil, floor */

/* ceil/floor of a number. */
static segc_expr *round_number(mpq_srcptr q, int isceil)
{
	mpz_t z;
	mpq_t r;
	segc_expr *e;

	mpz_init(z);
	mpq_init(r);
	if (isceil)
		mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
	else
		mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
	mpq_set_z(r, z);
	e = segc_expr_num(r);
	mpz_clear(z);
	mpq_clear(r);
	return e;
}

/* Splits term 'i' of 'p', c*x^e (x^e integer-valued), into floor(c)*x^e,
 * pushed on 'ip' when not zero, and the rest, pushed on 'rp'. */
static void split_constant(segc_poly *ip, segc_poly *rp, const segc_poly *p,
	size_t i)
{
	mpq_srcptr c = segc_poly_coeff(p, i);
	mpz_t fl;
	mpq_t q;

	mpz_init(fl);
	mpq_init(q);
	mpz_fdiv_q(fl, mpq_numref(c), mpq_denref(c));
	mpq_set_z(q, fl);
	if (mpz_sgn(fl))
		segc_poly_push_term(ip, p, i, q);
	mpq_sub(q, c, q);
	segc_poly_push_term(rp, p, i, q);
	mpz_clear(fl);
	mpq_clear(q);
}

/* ceil/floor of log2(q), q > 0 a number that is not a power of 2 (those
 * are integers already): the k with 2^k < q < 2^(k + 1), and k + 1 for
 * ceil. */
static segc_expr *round_log2_number(mpq_srcptr q, int isceil)
{
	long k = (long)mpz_sizeinbase(mpq_numref(q), 2) -
		(long)mpz_sizeinbase(mpq_denref(q), 2);
	mpz_t a, b;

	/* 2^k <= q  <=>  2^k d <= n (k >= 0), d <= 2^-k n (k < 0). */
	mpz_inits(a, b, (mpz_ptr)0);
	if (k >= 0) {
		mpz_mul_2exp(a, mpq_denref(q), (unsigned long)k);
		mpz_set(b, mpq_numref(q));
	} else {
		mpz_set(a, mpq_denref(q));
		mpz_mul_2exp(b, mpq_numref(q), (unsigned long)-k);
	}
	if (mpz_cmp(a, b) > 0)
		k--;
	mpz_clears(a, b, (mpz_ptr)0);
	return segc_expr_int(isceil ? k + 1 : k);
}

/* ceil or floor of canonical 'a' (taken): integer-valued terms and the
 * integer part of the constant move out. */
static segc_expr *simplify_round(segc_canon *st, enum segc_builtin id,
	segc_expr *a)
{
	int isceil = id == SEGC_BUILTIN_CEIL;
	segc_poly ip, rp;
	segc_rf r;
	segc_expr *res = NULL;
	size_t i;

	if (a->kind == SEGC_NUM) {
		res = round_number(a->u.value, isceil);
		segc_expr_free(a);
		return res;
	}
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_LOG2) && a->nargs == 1 &&
		segc_args(a)[0]->kind == SEGC_NUM &&
		mpq_sgn(segc_args(a)[0]->u.value) > 0) {
		res = round_log2_number(segc_args(a)[0]->u.value, isceil);
		segc_expr_free(a);
		return res;
	}
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r)) {
		segc_rf_clear(&r);
		segc_expr_free(a);
		return NULL;
	}
	if (!segc_rf_is_poly(&r)) {
		segc_rf_clear(&r);
		return segc_expr_call1(id, a);
	}
	segc_poly_init(&ip, segc_poly_nvars(&r.num));
	segc_poly_init(&rp, segc_poly_nvars(&r.num));
	for (i = 0; i < segc_poly_nterms(&r.num); i++) {
		if (term_integer_valued(st, &r.num, i))
			segc_poly_push_term(&ip, &r.num, i, NULL);
		else if (monomial_integer_valued(st, &r.num, i))
			split_constant(&ip, &rp, &r.num, i);
		else
			segc_poly_push_term(&rp, &r.num, i, NULL);
	}
	if (segc_poly_nterms(&ip) == 0) {
		res = segc_expr_call1(id, a);
		a = NULL;
	} else {
		segc_rf t;

		segc_rf_init(&t);
		segc_poly_swap(&t.num, &rp);
		segc_poly_normalise(NULL, &t.num);
		res = segc_canon_from_rf(st, &t);
		if (res && !segc_expr_is_zero(res))
			res = segc_expr_call1(id, res);
		segc_poly_swap(&t.num, &ip);
		segc_poly_normalise(NULL, &t.num);
		segc_poly_set_si(&t.den, 1);
		if (res)
			res = recanon(st, segc_expr_add2(res,
				segc_canon_from_rf(st, &t)));
		segc_rf_clear(&t);
	}
	segc_poly_clear(&ip);
	segc_poly_clear(&rp);
	segc_rf_clear(&r);
	segc_expr_free(a);
	return res;
}

/* ---------------------------------------------------------------- log2 */

/* log2 of a positive number: k + log2(r) with r = q / 2^k odd. */
static segc_expr *log2_number(segc_canon *st, segc_expr *a)
{
	mpq_srcptr q = a->u.value;
	long k;
	mpq_t r;
	segc_expr *res;

	if (mpq_sgn(q) <= 0) {
		segc_canon_refuse(st, "log2 of %s, which is not positive", a);
		segc_expr_free(a);
		return NULL;
	}
	if (mpq_cmp_ui(q, 1, 1) == 0) {
		segc_expr_free(a);
		return segc_expr_int(0);
	}
	k = (long)mpz_scan1(mpq_numref(q), 0) - (long)mpz_scan1(mpq_denref(q), 0);
	if (k == 0)
		return segc_expr_call1(SEGC_BUILTIN_LOG2, a);
	mpq_init(r);
	if (k > 0)
		mpq_div_2exp(r, q, (unsigned long)k);
	else
		mpq_mul_2exp(r, q, (unsigned long)-k);
	res = segc_expr_int(k);
	if (!(mpz_cmp_ui(mpq_numref(r), 1) == 0 && mpz_cmp_ui(mpq_denref(r), 1) == 0))
		res = segc_expr_add2(res, segc_expr_call1(SEGC_BUILTIN_LOG2,
			segc_expr_num(r)));
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* Non-zero when polynomial 'p' is the single atom x_v with exponent 1
 * and coefficient 1. */
static int is_plain_atom(const segc_poly *p)
{
	size_t v, ones = 0;

	if (segc_poly_nterms(p) != 1 ||
		mpq_cmp_ui(segc_poly_coeff(p, 0), 1, 1))
		return 0;
	for (v = 0; v < segc_poly_nvars(p); v++) {
		int32_t e = segc_poly_exp(p, 0, v);

		if (e != 0 && e != 1)
			return 0;
		ones += e == 1;
	}
	return ones == 1;
}

/* Splits polynomial 'p' into content * positive atoms * rest: returns the
 * log2 terms of the pulled parts (NULL if nothing was pulled) and leaves
 * the rest in 'p'. */
static segc_expr *pull_log2(segc_canon *st, segc_poly *p)
{
	size_t v, n = segc_poly_nvars(p);
	int32_t *m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_expr *acc = NULL;
	mpq_t s;

	mpq_init(s);
	segc_poly_primitive(p, s);
	if (!(mpz_cmp_ui(mpq_numref(s), 1) == 0 && mpz_cmp_ui(mpq_denref(s), 1) == 0))
		acc = segc_expr_call1(SEGC_BUILTIN_LOG2, segc_expr_num(s));
	for (v = 0; v < n; v++) {
		int32_t e = segc_poly_min_degree(p, v);
		segc_rf x;

		if (!e)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (segc_kernel_sign(st, &x) & SEGC_SIGN_POS) {
			segc_expr *t = segc_expr_mul2(segc_expr_int(e),
				segc_expr_call1(SEGC_BUILTIN_LOG2,
				segc_expr_copy(st->atoms[v])));

			acc = acc ? segc_expr_add2(acc, t) : t;
			m[v] = -e;
		}
		segc_rf_clear(&x);
	}
	segc_poly_shift(NULL, p, m, n);
	free(m);
	mpq_clear(s);
	return acc;
}

/* log2 of a polynomial: pulls the content and provably positive monomial
 * factors out. */
static segc_expr *log2_poly(segc_canon *st, segc_poly *p, segc_expr *orig)
{
	segc_expr *pulled, *rest;
	segc_rf t;

	if (is_plain_atom(p))
		return segc_expr_call1(SEGC_BUILTIN_LOG2, orig);
	pulled = pull_log2(st, p);
	if (!pulled)
		return segc_expr_call1(SEGC_BUILTIN_LOG2, orig);
	segc_expr_free(orig);
	if (segc_poly_is_one(p))
		return recanon(st, pulled);
	segc_rf_init(&t);
	segc_poly_swap(&t.num, p);
	rest = segc_canon_from_rf(st, &t);
	segc_poly_swap(&t.num, p);
	segc_rf_clear(&t);
	if (!rest) {
		segc_expr_free(pulled);
		return NULL;
	}
	return recanon(st, segc_expr_add2(pulled,
		segc_expr_call1(SEGC_BUILTIN_LOG2, rest)));
}

/* log2 of canonical 'a' (taken). */
static segc_expr *simplify_log2(segc_canon *st, segc_expr *a)
{
	segc_expr *res = NULL;
	segc_rf r;

	if (a->kind == SEGC_NUM)
		return log2_number(st, a);
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r)) {
		segc_expr_free(a);
	} else if (segc_rf_is_poly(&r)) {
		res = log2_poly(st, &r.num, a);
	} else {
		unsigned ds = segc_kernel_poly_sign(st, &r.den);

		if (ds & (SEGC_SIGN_POS | SEGC_SIGN_NEG)) {
			segc_rf n, d;
			segc_expr *en, *ed;

			if (ds & SEGC_SIGN_NEG) {
				segc_poly_neg(&r.num);
				segc_poly_neg(&r.den);
			}
			segc_rf_init(&n);
			segc_rf_init(&d);
			segc_poly_set(&n.num, &r.num);
			segc_poly_set(&d.num, &r.den);
			en = segc_canon_from_rf(st, &n);
			ed = segc_canon_from_rf(st, &d);
			segc_rf_clear(&n);
			segc_rf_clear(&d);
			segc_expr_free(a);
			res = en && ed ? recanon(st, segc_expr_sub2(
				segc_expr_call1(SEGC_BUILTIN_LOG2, en),
				segc_expr_call1(SEGC_BUILTIN_LOG2, ed))) : NULL;
			if (!res) {
				segc_expr_free(en);
				segc_expr_free(ed);
			}
		} else {
			res = segc_expr_call1(SEGC_BUILTIN_LOG2, a);
		}
	}
	segc_rf_clear(&r);
	return res;
}

/* ---------------------------------------------------------------- sqrt */

/* sqrt of a non-negative number: exact when it is a square. */
static segc_expr *sqrt_number(segc_canon *st, segc_expr *a)
{
	mpq_srcptr q = a->u.value;
	mpq_t r;
	segc_expr *res;

	if (mpq_sgn(q) < 0) {
		segc_canon_refuse(st, "sqrt of %s, which is negative", a);
		segc_expr_free(a);
		return NULL;
	}
	if (!mpz_perfect_square_p(mpq_numref(q)) ||
		!mpz_perfect_square_p(mpq_denref(q)))
		return segc_expr_call1(SEGC_BUILTIN_SQRT, a);
	mpq_init(r);
	mpz_sqrt(mpq_numref(r), mpq_numref(q));
	mpz_sqrt(mpq_denref(r), mpq_denref(q));
	res = segc_expr_num(r);
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* d = the derivative of 'p' (non-negative exponents) by variable 'v'. */
static void derivative(segc_poly *d, const segc_poly *p, size_t v)
{
	size_t i, n = segc_poly_nvars(p);
	int32_t *e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mpq_t c;

	mpq_init(c);
	segc_poly_zero(d);
	segc_poly_extend(d, n);
	for (i = 0; i < segc_poly_nterms(p); i++) {
		if (!segc_poly_exp(p, i, v))
			continue;
		segc_poly_get_exps(p, i, e);
		mpq_set_si(c, e[v], 1);
		mpq_mul(c, c, segc_poly_coeff(p, i));
		e[v]--;
		segc_poly_push(d, e, c);
	}
	segc_poly_normalise(NULL, d);
	mpq_clear(c);
	free(e);
}

/* Takes a square polynomial factor f^2 out of 'p' (non-negative
 * exponents) into 'out' as |f|, when the sign of f is proved strictly
 * (f > 0 or f < 0 on the box): sqrt(f^2*q) = |f|*sqrt(q).  The candidate
 * f is gcd(g, p/g) with g = gcd(p, dp/dv), which holds every repeated
 * factor of p, kept when f^2 divides p exactly.  Returns 1 when something was taken out. */
static int pull_square_factor(segc_canon *st, segc_poly *p, segc_rf *out)
{
	segc_poly_lim lim = st->lim;
	segc_poly d, g, g2, q;
	segc_rf f;
	size_t v, i;
	int pulled = 0;

	lim.ctx = NULL;   /* a gcd too large for the limits is given up */
	for (v = 0; v < segc_poly_nvars(p); v++)
		if (segc_poly_min_degree(p, v) < 0)
			return 0;
	segc_poly_init(&d, 0);
	segc_poly_init(&g, 0);
	segc_poly_init(&g2, 0);
	segc_poly_init(&q, 0);
	segc_rf_init(&f);
	for (i = 0, v = 0; v < segc_poly_nvars(p) && i < 8 &&
		segc_poly_nterms(p) > 1; v++) {
		unsigned sign;

		if (segc_poly_degree(p, v) < 2)
			continue;
		derivative(&d, p, v);
		if (segc_poly_gcd(&lim, &g, p, &d) || segc_poly_is_const(&g))
			continue;
		/* g holds each repeated factor of p once less than p does (and
		 * may hold factors free of v); gcd(g, p/g) keeps those that
		 * divide p at least twice */
		if (segc_poly_divexact(&lim, &q, p, &g) != 1 ||
			segc_poly_gcd(&lim, &g2, &g, &q))
			continue;
		segc_poly_swap(&g, &g2);
		if (segc_poly_is_const(&g))
			continue;
		if (segc_poly_mul(&lim, &g2, &g, &g) ||
			segc_poly_divexact(&lim, &q, p, &g2) != 1)
			continue;
		segc_rf_set_si(st, &f, 1);
		segc_poly_set(&f.num, &g);
		sign = segc_kernel_sign(st, &f);
		if (!(sign & (SEGC_SIGN_POS | SEGC_SIGN_NEG)))
			continue;
		if (!(sign & SEGC_SIGN_POS))
			segc_poly_neg(&f.num);
		if (segc_rf_mul(st, out, out, &f))
			break;
		segc_poly_swap(p, &q);
		pulled = 1;
		i++;
		v = (size_t)-1;   /* again from the first variable */
	}
	segc_poly_clear(&d);
	segc_poly_clear(&g);
	segc_poly_clear(&g2);
	segc_poly_clear(&q);
	segc_rf_clear(&f);
	return pulled;
}

/* sqrt of a polynomial: pulls a square content and even powers of atoms
 * (odd halves only of atoms provably >= 0), and square polynomial
 * factors of a proved sign. */
static segc_expr *sqrt_poly(segc_canon *st, segc_poly *p, segc_expr *orig)
{
	size_t v, n = segc_poly_nvars(p);
	int32_t *m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_rf out, rest;
	segc_expr *res;
	int pulled = 0;
	mpq_t s;

	mpq_init(s);
	segc_rf_init(&out);
	segc_rf_init(&rest);
	segc_poly_set_si(&out.num, 1);
	segc_poly_primitive(p, s);
	if (mpz_perfect_square_p(mpq_numref(s)) &&
		mpz_perfect_square_p(mpq_denref(s)) && !(mpz_cmp_ui(mpq_numref(s), 1) == 0
		&& mpz_cmp_ui(mpq_denref(s), 1) == 0)) {
		mpz_sqrt(mpq_numref(s), mpq_numref(s));
		mpz_sqrt(mpq_denref(s), mpq_denref(s));
		segc_poly_scale(&out.num, s);
		pulled = 1;
	} else {
		segc_poly_scale(p, s);
	}
	for (v = 0; v < n; v++) {
		int32_t e = segc_poly_min_degree(p, v), k = e / 2;
		segc_rf x;

		if (e < 2)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (k % 2 == 0 || (segc_kernel_sign(st, &x) & SEGC_SIGN_NONNEG)) {
			segc_poly_set_var(&x.num, v, k);
			segc_rf_mul(st, &out, &out, &x);
			m[v] = -2 * k;
			pulled = 1;
		}
		segc_rf_clear(&x);
	}
	segc_poly_shift(NULL, p, m, n);
	if (pull_square_factor(st, p, &out))
		pulled = 1;
	free(m);
	mpq_clear(s);
	if (!pulled) {
		segc_rf_clear(&out);
		segc_rf_clear(&rest);
		return segc_expr_call1(SEGC_BUILTIN_SQRT, orig);
	}
	segc_expr_free(orig);
	segc_poly_swap(&rest.num, p);
	res = segc_canon_from_rf(st, &rest);
	segc_poly_swap(&rest.num, p);
	if (res)
		res = recanon(st, segc_expr_mul2(segc_canon_from_rf(st, &out),
			segc_expr_call1(SEGC_BUILTIN_SQRT, res)));
	segc_rf_clear(&out);
	segc_rf_clear(&rest);
	return res;
}

/* sqrt of canonical 'a' (taken). */
static segc_expr *simplify_sqrt(segc_canon *st, segc_expr *a)
{
	segc_expr *res = NULL;
	segc_rf r;

	if (a->kind == SEGC_NUM)
		return sqrt_number(st, a);
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r))
		segc_expr_free(a);
	else if (segc_rf_is_poly(&r))
		res = sqrt_poly(st, &r.num, a);
	else
		res = segc_expr_call1(SEGC_BUILTIN_SQRT, a);
	segc_rf_clear(&r);
	return res;
}

/* -------------------------------------------------------------- driver */

/* Non-zero when the 'n' expressions of 'args' are numbers. */
static int all_numbers(size_t n, segc_expr *const *args)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (args[i]->kind != SEGC_NUM)
			return 0;
	return 1;
}

/* Simplifies the call 'name'('args') of the built-in 'id' (see
 * canon_private.h). */

segc_expr *segc_kernel_simplify(segc_canon *st, enum segc_builtin id,
	const char *name, size_t n, segc_expr **args)
{
	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_EXTREMUM:
		if (st->mode.check_only && !all_numbers(n, args))
			/* the arguments are converted: comparing them
			 * refuses nothing (segc_canonical_refused) */
			return segc_expr_call(name, n, args);
		return segc_kernel_extremum(st, name, n, args,
			id == SEGC_BUILTIN_MAX);
	case SEGC_EVAL_ROUND:
		if (n == 1)
			return simplify_round(st, id, args[0]);
		break;
	case SEGC_EVAL_UNARY:
		if (n == 1 && id == SEGC_BUILTIN_LOG2)
			return simplify_log2(st, args[0]);
		if (n == 1 && id == SEGC_BUILTIN_SQRT)
			return simplify_sqrt(st, args[0]);
		break;
	default:
		break;
	}
	return segc_expr_call(name, n, args);
}
