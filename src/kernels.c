/* kernels.c - simplification of the built-in functions (max, min, ceil,
 * floor, log2, sqrt) on canonical arguments, sound on the declared
 * domains: names not declared are unconstrained.
 *
 * Signs are proven over the box of the domains: each variable with a lower
 * bound is replaced by lo + y (y >= 0), or with only an upper bound by
 * hi - y; the polynomial is expanded and its sign is proven when every
 * coefficient has that sign (unbounded names must occur with even
 * exponents).  A second attempt prefers the upper bounds.  For a rational
 * function the signs of numerator and denominator are combined. */
#include <stdlib.h>
#include <string.h>
#include "canon_private.h"
#include "util.h"

/* ------------------------------------------------------------- signs */

/* Non-zero when 'a' is a call of 'name'. */
static int is_call(const segc_expr *a, const char *name)
{
	return a->kind == SEGC_CALL && !strcmp(a->u.name, name);
}

/* The bounds of the atom of variable 'v' ('lo'/'hi' set or left NULL);
 * returns non-zero when the atom is >= 0 by its nature (a sqrt). */
static int atom_bounds(segc_canon *st, size_t v, mpq_srcptr *lo,
	mpq_srcptr *hi, int *integer)
{
	const segc_expr *a = st->atoms[v];

	*lo = *hi = NULL;
	*integer = 0;
	if (a->kind == SEGC_SYM)
		segc_domains_get(st->dom, a->u.name, lo, hi, integer);
	else if (is_call(a, "ceil") || is_call(a, "floor"))
		*integer = 1;
	return is_call(a, "sqrt");
}

/* Signs of a box-shifted polynomial 'q' whose variables marked in 'free'
 * are unbounded and others are >= 0. */
static unsigned sign_of_terms(const segc_poly *q, const char *isfree)
{
	int allpos = 1, allneg = 1, cpos = 0, cneg = 0;
	size_t i, v;

	if (q->len == 0)
		return SEGC_SIGN_NONNEG | SEGC_SIGN_NONPOS;
	for (i = 0; i < q->len; i++) {
		int s = mpq_sgn(q->coefs[i]), isconst = 1;

		for (v = 0; v < q->nvars; v++) {
			int32_t e = segc_poly_exp(q, i, v);

			if (e)
				isconst = 0;
			if (isfree[v] && (e % 2))
				return 0;
		}
		if (s < 0)
			allpos = 0;
		if (s > 0)
			allneg = 0;
		if (isconst) {
			cpos = s > 0;
			cneg = s < 0;
		}
	}
	return (allpos ? SEGC_SIGN_NONNEG | (cpos ? SEGC_SIGN_POS : 0) : 0) |
		(allneg ? SEGC_SIGN_NONPOS | (cneg ? SEGC_SIGN_NEG : 0) : 0);
}

/* Replaces x_v in 'q' by lo + x_v (sign = 1) or hi - x_v (sign = -1). */
static int shift_var(const segc_poly_lim *lim, segc_poly *q, size_t v,
	mpq_srcptr c, int sign)
{
	segc_poly s, k;
	int rc;

	segc_poly_init(&s, q->nvars);
	segc_poly_init(&k, q->nvars);
	segc_poly_set_var(&s, v, 1);
	if (sign < 0)
		segc_poly_neg(&s);
	segc_poly_set_q(&k, c);
	rc = segc_poly_add(lim, &s, &s, &k);
	if (rc == 0)
		rc = segc_poly_compose_var(lim, q, q, v, &s);
	segc_poly_clear(&s);
	segc_poly_clear(&k);
	return rc;
}

/* Prepares variable v of 'q' for the sign test; returns 0, or -1 when no
 * sign can be proven.  'upper' prefers upper bounds. */
static int box_var(segc_canon *st, const segc_poly_lim *lim, segc_poly *q,
	size_t v, int upper, char *isfree)
{
	mpq_srcptr lo, hi;
	int integer, nonneg = atom_bounds(st, v, &lo, &hi, &integer);
	int32_t mn = segc_poly_min_degree(q, v);

	if (mn < 0) {
		int32_t *d;
		int rc;

		if (!nonneg && (!lo || mpq_sgn(lo) < 0))
			return -1;
		d = segc_xcalloc(q->nvars, sizeof(int32_t));
		d[v] = -mn;
		rc = segc_poly_shift(lim, q, d);
		free(d);
		if (rc)
			return -1;
	}
	if (nonneg)
		return 0;
	if (hi && (upper || !lo))
		return shift_var(lim, q, v, hi, -1);
	if (lo)
		return mpq_sgn(lo) ? shift_var(lim, q, v, lo, 1) : 0;
	isfree[v] = 1;
	return 0;
}

/* The provable signs of polynomial 'p' on the box (one attempt). */
static unsigned poly_sign_once(segc_canon *st, const segc_poly *p, int upper)
{
	segc_poly_lim lim = { NULL, 2000, 0, 4096 };
	segc_poly q;
	char *isfree;
	size_t v;
	unsigned s = 0;

	segc_poly_init(&q, p->nvars);
	segc_poly_set(&q, p);
	isfree = segc_xcalloc(q.nvars ? q.nvars : 1, 1);
	lim.max_exponent = segc_ctx_limits(st->ctx)->max_exponent;
	for (v = 0; v < q.nvars; v++)
		if (segc_poly_has_var(&q, v) &&
			box_var(st, &lim, &q, v, upper, isfree))
			break;
	if (v == q.nvars)
		s = sign_of_terms(&q, isfree);
	free(isfree);
	segc_poly_clear(&q);
	return s;
}

/* The provable signs of polynomial 'p' on the box. */
static unsigned poly_sign(segc_canon *st, const segc_poly *p)
{
	return poly_sign_once(st, p, 0) | poly_sign_once(st, p, 1);
}

/* The provable signs of 'r' (see canon_private.h). */
unsigned segc_kernel_sign(segc_canon *st, segc_rf *r)
{
	unsigned n = poly_sign(st, &r->num), d;

	if (segc_rf_is_poly(r))
		return n;
	d = poly_sign(st, &r->den);
	if (d & (SEGC_SIGN_POS | SEGC_SIGN_NONNEG))
		return n;
	if (d & (SEGC_SIGN_NEG | SEGC_SIGN_NONPOS))
		return ((n & SEGC_SIGN_NONNEG) ? SEGC_SIGN_NONPOS : 0) |
			((n & SEGC_SIGN_NONPOS) ? SEGC_SIGN_NONNEG : 0) |
			((n & SEGC_SIGN_POS) ? SEGC_SIGN_NEG : 0) |
			((n & SEGC_SIGN_NEG) ? SEGC_SIGN_POS : 0);
	return 0;
}

/* Non-zero when the monomial of term i of 'p' is an integer on the box. */
static int monomial_integer_valued(segc_canon *st, const segc_poly *p,
	size_t i)
{
	size_t v;

	for (v = 0; v < p->nvars; v++) {
		int32_t e = segc_poly_exp(p, i, v);
		mpq_srcptr lo, hi;
		int integer;

		if (e < 0)
			return 0;
		if (e == 0)
			continue;
		atom_bounds(st, v, &lo, &hi, &integer);
		if (!integer)
			return 0;
	}
	return 1;
}

/* Non-zero when term i of 'p' is an integer on the box. */
static int term_integer_valued(segc_canon *st, const segc_poly *p, size_t i)
{
	return !mpz_cmp_ui(mpq_denref(p->coefs[i]), 1) &&
		monomial_integer_valued(st, p, i);
}

/* Non-zero when every term of 'p' is an integer on the box. */
int segc_kernel_integer_valued(segc_canon *st, const segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		if (!term_integer_valued(st, p, i))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ helpers */

/* A call node of 'name' with one argument (taken). */
static segc_expr *call1(const char *name, segc_expr *a)
{
	return segc_expr_call(name, 1, &a);
}

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

/* ----------------------------------------------------------- max, min */

/* Splices nested calls of the same name; returns the new array and sets
 * '*n'.  Takes 'args'. */
static segc_expr **flatten_args(const char *name, size_t *n, segc_expr **args)
{
	size_t i, j, m = 0;
	segc_expr **out;

	for (i = 0; i < *n; i++)
		m += is_call(args[i], name) ? args[i]->nargs : 1;
	out = segc_xmalloc((m ? m : 1) * sizeof(*out));
	m = 0;
	for (i = 0; i < *n; i++) {
		if (is_call(args[i], name)) {
			for (j = 0; j < args[i]->nargs; j++)
				out[m++] = segc_expr_copy(args[i]->args[j]);
			segc_expr_free(args[i]);
		} else {
			out[m++] = args[i];
		}
	}
	*n = m;
	return out;
}

/* Sorts 'v' by segc_expr_cmp and drops duplicates; returns the count. */
static size_t sort_unique(segc_expr **v, size_t n)
{
	size_t i, j, m = 0;

	for (i = 1; i < n; i++) {
		segc_expr *x = v[i];

		for (j = i; j > 0 && segc_expr_cmp(v[j - 1], x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (i = 0; i < n; i++) {
		if (m && v[m - 1] == v[i])
			segc_expr_free(v[i]);
		else
			v[m++] = v[i];
	}
	return m;
}

/* Non-zero when a - b provably has the sign 'want'. */
static int proves(segc_canon *st, const segc_expr *a, const segc_expr *b,
	unsigned want)
{
	segc_rf ra, rb;
	unsigned s = 0;

	segc_rf_init(&ra);
	segc_rf_init(&rb);
	if (segc_canon_to_rf(st, a, &ra) == 0 &&
		segc_canon_to_rf(st, b, &rb) == 0 &&
		segc_rf_sub(st, &ra, &ra, &rb) == 0)
		s = segc_kernel_sign(st, &ra);
	segc_rf_clear(&ra);
	segc_rf_clear(&rb);
	return (s & want) != 0;
}

/* max (ismax) or min of canonical 'args' (taken). */
static segc_expr *simplify_extremum(segc_canon *st, const char *name,
	size_t n, segc_expr **args, int ismax)
{
	unsigned want = ismax ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS;
	segc_expr **v = flatten_args(name, &n, args), *res;
	char *gone;
	size_t i, j, m;

	n = sort_unique(v, n);
	gone = segc_xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++)
		for (j = 0; j < n && !gone[i]; j++)
			if (j != i && !gone[j] && proves(st, v[j], v[i], want))
				gone[i] = 1;
	for (i = m = 0; i < n; i++) {
		if (gone[i])
			segc_expr_free(v[i]);
		else
			v[m++] = v[i];
	}
	free(gone);
	res = m == 1 ? v[0] : segc_expr_call(name, m, v);
	free(v);
	return res;
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

/* Splits the term c*x^e (x^e integer-valued) into floor(c)*x^e, pushed
 * on 'ip' when not zero, and the rest, pushed on 'rp'. */
static void split_constant(segc_poly *ip, segc_poly *rp, const int32_t *e,
	mpq_srcptr c)
{
	mpz_t fl;
	mpq_t q;

	mpz_init(fl);
	mpq_init(q);
	mpz_fdiv_q(fl, mpq_numref(c), mpq_denref(c));
	mpq_set_z(q, fl);
	if (mpz_sgn(fl))
		segc_poly_push(ip, e, q);
	mpq_sub(q, c, q);
	segc_poly_push(rp, e, q);
	mpz_clear(fl);
	mpq_clear(q);
}

/* ceil or floor of canonical 'a' (taken): integer-valued terms and the
 * integer part of the constant move out. */
static segc_expr *simplify_round(segc_canon *st, const char *name,
	segc_expr *a)
{
	int isceil = !strcmp(name, "ceil");
	segc_poly ip, rp;
	segc_rf r;
	segc_expr *res = NULL;
	size_t i;

	if (a->kind == SEGC_NUM) {
		res = round_number(a->u.value, isceil);
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
		return call1(name, a);
	}
	segc_poly_init(&ip, r.num.nvars);
	segc_poly_init(&rp, r.num.nvars);
	for (i = 0; i < r.num.len; i++) {
		const int32_t *e = r.num.exps + i * r.num.nvars;

		if (term_integer_valued(st, &r.num, i))
			segc_poly_push(&ip, e, r.num.coefs[i]);
		else if (monomial_integer_valued(st, &r.num, i))
			split_constant(&ip, &rp, e, r.num.coefs[i]);
		else
			segc_poly_push(&rp, e, r.num.coefs[i]);
	}
	if (ip.len == 0) {
		res = call1(name, a);
		a = NULL;
	} else {
		segc_rf t;

		segc_rf_init(&t);
		segc_poly_swap(&t.num, &rp);
		segc_poly_normalise(NULL, &t.num);
		res = segc_canon_from_rf(st, &t);
		if (res && !segc_expr_is_zero(res))
			res = call1(name, res);
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
		segc_error(st->ctx, SEGC_ERR_INPUT, NULL, 0, 0,
			"log2 of a number that is not positive");
		segc_expr_free(a);
		return NULL;
	}
	k = (long)mpz_scan1(mpq_numref(q), 0) - (long)mpz_scan1(mpq_denref(q), 0);
	if (k == 0)
		return call1("log2", a);
	mpq_init(r);
	if (k > 0)
		mpq_div_2exp(r, q, (unsigned long)k);
	else
		mpq_mul_2exp(r, q, (unsigned long)-k);
	res = segc_expr_int(k);
	if (!(mpz_cmp_ui(mpq_numref(r), 1) == 0 && mpz_cmp_ui(mpq_denref(r), 1) == 0))
		res = segc_expr_add2(res, call1("log2", segc_expr_num(r)));
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* Non-zero when polynomial 'p' is the single atom x_v with exponent 1
 * and coefficient 1. */
static int is_plain_atom(const segc_poly *p)
{
	size_t v, ones = 0;

	if (p->len != 1 || mpz_cmp_ui(mpq_numref(p->coefs[0]), 1) ||
		mpz_cmp_ui(mpq_denref(p->coefs[0]), 1))
		return 0;
	for (v = 0; v < p->nvars; v++) {
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
	size_t v, n = p->nvars;
	int32_t *m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_expr *acc = NULL;
	mpq_t s;

	mpq_init(s);
	segc_poly_primitive(p, s);
	if (!(mpz_cmp_ui(mpq_numref(s), 1) == 0 && mpz_cmp_ui(mpq_denref(s), 1) == 0))
		acc = call1("log2", segc_expr_num(s));
	for (v = 0; v < n; v++) {
		int32_t e = segc_poly_min_degree(p, v);
		segc_rf x;

		if (!e)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (segc_kernel_sign(st, &x) & SEGC_SIGN_POS) {
			segc_expr *t = segc_expr_mul2(segc_expr_int(e),
				call1("log2", segc_expr_copy(st->atoms[v])));

			acc = acc ? segc_expr_add2(acc, t) : t;
			m[v] = -e;
		}
		segc_rf_clear(&x);
	}
	segc_poly_shift(NULL, p, m);
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
		return call1("log2", orig);
	pulled = pull_log2(st, p);
	if (!pulled)
		return call1("log2", orig);
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
	return recanon(st, segc_expr_add2(pulled, call1("log2", rest)));
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
		unsigned ds = poly_sign(st, &r.den);

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
			res = en && ed ? recanon(st, segc_expr_sub2(call1("log2", en),
				call1("log2", ed))) : NULL;
			if (!res) {
				segc_expr_free(en);
				segc_expr_free(ed);
			}
		} else {
			res = call1("log2", a);
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
		segc_error(st->ctx, SEGC_ERR_INPUT, NULL, 0, 0,
			"sqrt of a negative number");
		segc_expr_free(a);
		return NULL;
	}
	if (!mpz_perfect_square_p(mpq_numref(q)) ||
		!mpz_perfect_square_p(mpq_denref(q)))
		return call1("sqrt", a);
	mpq_init(r);
	mpz_sqrt(mpq_numref(r), mpq_numref(q));
	mpz_sqrt(mpq_denref(r), mpq_denref(q));
	res = segc_expr_num(r);
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* sqrt of a polynomial: pulls a square content and even powers of atoms
 * (odd halves only of atoms provably >= 0). */
static segc_expr *sqrt_poly(segc_canon *st, segc_poly *p, segc_expr *orig)
{
	size_t v, n = p->nvars;
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
	segc_poly_shift(NULL, p, m);
	free(m);
	mpq_clear(s);
	if (!pulled) {
		segc_rf_clear(&out);
		segc_rf_clear(&rest);
		return call1("sqrt", orig);
	}
	segc_expr_free(orig);
	segc_poly_swap(&rest.num, p);
	res = segc_canon_from_rf(st, &rest);
	segc_poly_swap(&rest.num, p);
	if (res)
		res = recanon(st, segc_expr_mul2(segc_canon_from_rf(st, &out),
			call1("sqrt", res)));
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
		res = call1("sqrt", a);
	segc_rf_clear(&r);
	return res;
}

/* -------------------------------------------------------------- driver */

/* Simplifies the call 'name'('args') (see canon_private.h). */
segc_expr *segc_kernel_simplify(segc_canon *st, const char *name, size_t n,
	segc_expr **args)
{
	if (!strcmp(name, "max") || !strcmp(name, "min"))
		return simplify_extremum(st, name, n, args, name[1] == 'a');
	if (n == 1 && (!strcmp(name, "ceil") || !strcmp(name, "floor")))
		return simplify_round(st, name, args[0]);
	if (n == 1 && !strcmp(name, "log2"))
		return simplify_log2(st, args[0]);
	if (n == 1 && !strcmp(name, "sqrt"))
		return simplify_sqrt(st, args[0]);
	return segc_expr_call(name, n, args);
}
