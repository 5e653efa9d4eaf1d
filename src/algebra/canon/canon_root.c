/* canon_root.c - rational powers in the canonical form.
 *
 * x^(p/q) (q > 1, p/q in lowest terms) is the root atom of x of index q
 * to the power p: the root atom of index 2 is sqrt(x), that of index q >= 3
 * is the node x^(1/q).  A root is defined for x >= 0 only (doc/format.md);
 * the rules below hold there:
 *
 * - a number's root is exact when the number is a perfect power, else it
 *   is taken at the smallest index (4^(1/6) = 2^(1/3));
 * - the root of a monomial c*x1^e1*...*xk^ek with c > 0 and every xi
 *   proven >= 0 splits into c^(1/q)*root(x1, q)^e1*...; a root of a root
 *   atom is the root of its base of the product index;
 * - in each term, the roots of one base merge over the lcm of their
 *   indices: the term holds base^E for the sum E of their exponents, and
 *   E = k + n/d (0 <= n < d, lowest terms) becomes base^k*root(base, d)^n.
 *
 * So each term holds at most one root of each base, to an exponent prime
 * to its index and below it: N^(2/3)*N^(1/3) = N and N^(1/2)*N^(1/3) =
 * N^(5/6).  Square roots keep the rules of the sqrt kernel (kernels.c,
 * canon_normal.c); only a term that mixes them with roots of other
 * indices of the same base is rewritten here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* Largest index of a root, and largest exponent of a root atom in a
 * term, when max_exponent is 0 (no limit). */
#define ROOT_MAX_INDEX (INT32_MAX / 4)

/* The index q of the root atom 'a' (2 for sqrt(x), q for x^(1/q) with
 * q >= 3) and its base in '*base'; 0 when 'a' is no root atom. */
unsigned long segc_root_index(const segc_expr *a, const segc_expr **base)
{
	mpq_srcptr y;

	if (segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT) && a->nargs == 1) {
		*base = segc_args(a)[0];
		return 2;
	}
	if (a->kind != SEGC_POW || segc_args(a)[1]->kind != SEGC_NUM)
		return 0;
	y = segc_args(a)[1]->u.value;
	if (mpz_cmp_ui(mpq_numref(y), 1) != 0 ||
	    mpz_cmp_ui(mpq_denref(y), 2) <= 0 ||
	    mpz_cmp_ui(mpq_denref(y), ROOT_MAX_INDEX) > 0)
		return 0;
	*base = segc_args(a)[0];
	return mpz_get_ui(mpq_denref(y));
}

/* The greatest common divisor of 'a' and 'b'. */
static unsigned long gcd_ul(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The largest index and exponent a root may have under the limits. */
static long root_limit(const segc_canon *st)
{
	long m = st->lim.max_exponent;

	return m > 0 && m < ROOT_MAX_INDEX ? m : ROOT_MAX_INDEX;
}

/* Reports that the index or the exponent of a root exceeds the limit;
 * returns -1. */
static int root_too_large(segc_canon *st)
{
	segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the index or the "
		"exponent of a root exceeds the limit %ld (max_exponent)",
		root_limit(st));
	return -1;
}

/* The root atom of index 'q' >= 2 of the canonical 'u' (taken). */
static segc_expr *root_atom(segc_expr *u, unsigned long q)
{
	mpq_t y;
	segc_expr *res;

	if (q == 2)
		return segc_expr_call1(SEGC_BUILTIN_SQRT, u);
	mpq_init(y);
	mpq_set_ui(y, 1, q);
	res = segc_expr_pow(u, segc_expr_num(y));
	mpq_clear(y);
	return res;
}

/* r = (root atom of index 'q' of 'u', taken)^'p'. */
static int atom_power(segc_canon *st, segc_rf *r, segc_expr *u,
	unsigned long q, long p)
{
	segc_expr *a = root_atom(u, q);

	segc_rf_atom(st, r, a);
	segc_expr_free(a);
	return segc_rf_pow(st, r, r, p);
}

/* Non-zero when 'z' is a perfect 'd'-th power; its root into 'root'. */
static int exact_root(mpz_t root, mpz_srcptr z, unsigned long d)
{
	return mpz_root(root, z, d) != 0;
}

/* r = c^(p/q) for a number c: exact when c is a perfect q-th power,
 * else the root atom of the smallest index. */
static int number_root(segc_canon *st, segc_rf *r, mpq_srcptr c, long p,
	unsigned long q)
{
	unsigned long d, best = 1;
	mpq_t b, t;
	int rc;

	if (mpq_sgn(c) < 0) {
		segc_expr *x = segc_expr_num(c);

		segc_canon_refuse(st, "a rational power of %s, which is "
			"negative", x);
		segc_expr_free(x);
		return -1;
	}
	if (mpq_sgn(c) == 0) {
		segc_rf_set_si(st, r, 0);
		return p < 0 ? segc_rf_pow(st, r, r, -1) : 0;
	}
	mpq_init(b);
	mpq_init(t);
	mpq_set(b, c);
	for (d = q; d >= 2 && best == 1; d--)
		if (q % d == 0 &&
		    exact_root(mpq_numref(t), mpq_numref(c), d) &&
		    exact_root(mpq_denref(t), mpq_denref(c), d)) {
			best = d;
			mpq_set(b, t);
		}
	q /= best;
	if (q == 1) {
		segc_rf_set_q(st, r, b);
		rc = segc_rf_pow(st, r, r, p);
	} else {
		rc = atom_power(st, r, segc_expr_num(b), q, p);
	}
	mpq_clear(b);
	mpq_clear(t);
	return rc;
}

/* Non-zero when the variable 'v' is proven >= 0. */
static int var_nonneg(segc_canon *st, size_t v)
{
	segc_rf x;
	unsigned s;

	if (st->flags[v] & SEGC_ATOM_NONNEG)
		return 1;
	segc_rf_init(&x);
	segc_poly_set_var(&x.num, v, 1);
	segc_poly_set_si(&x.den, 1);
	s = segc_kernel_sign(st, &x);
	segc_rf_clear(&x);
	return (s & SEGC_SIGN_NONNEG) != 0;
}

/* Non-zero when 'b' is one monomial c*x1^e1*... (Laurent) with c > 0
 * and its variables proven >= 0; '*roots' says whether one of them is a
 * root atom. */
static int splits(segc_canon *st, const segc_rf *b, int *roots)
{
	const segc_expr *u;
	size_t v;

	*roots = 0;
	if (!segc_poly_is_one(&b->den) || segc_poly_nterms(&b->num) != 1 ||
	    mpq_sgn(segc_poly_coeff(&b->num, 0)) <= 0)
		return 0;
	for (v = 0; v < segc_poly_nvars(&b->num); v++) {
		if (!segc_poly_exp(&b->num, 0, v))
			continue;
		if (!var_nonneg(st, v))
			return 0;
		if (segc_root_index(st->atoms[v], &u))
			*roots = 1;
	}
	return 1;
}

/* r = the monomial 'b' (see splits) to the power p/q, factor by
 * factor. */
static int monomial_root(segc_canon *st, segc_rf *r, const segc_rf *b,
	long p, unsigned long q)
{
	const segc_poly *m = &b->num;
	segc_rf t;
	size_t v;
	int rc;

	segc_rf_init(&t);
	rc = number_root(st, r, segc_poly_coeff(m, 0), p, q);
	for (v = 0; v < segc_poly_nvars(m) && rc == 0; v++) {
		int32_t e = segc_poly_exp(m, 0, v);
		const segc_expr *u;
		unsigned long qv;
		long pe;

		if (!e)
			continue;
		pe = p * e;
		qv = segc_root_index(st->atoms[v], &u);
		if (labs(p) > root_limit(st) / labs((long)e) ||
		    (qv && q > (unsigned long)root_limit(st) / qv))
			rc = root_too_large(st);
		else if (qv)
			rc = segc_root_to_rf(st, &t, u, pe, q * qv);
		else
			rc = atom_power(st, &t, segc_expr_copy(st->atoms[v]),
				q, pe);
		if (rc == 0)
			rc = segc_rf_mul(st, r, r, &t);
	}
	segc_rf_clear(&t);
	return rc;
}

/* r = 'base' ^ (p/q), q >= 1 (see canon_private.h). */
int segc_root_to_rf(segc_canon *st, segc_rf *r, const segc_expr *base,
	long p, unsigned long q)
{
	segc_expr *c, *s;
	segc_rf b;
	int rc, roots = 0;

	if (q > (unsigned long)root_limit(st) || labs(p) > root_limit(st))
		return root_too_large(st);
	segc_rf_init(&b);
	rc = segc_canon_to_rf(st, base, &b);
	if (rc == 0 && q == 1) {
		rc = segc_rf_pow(st, r, &b, p);
	} else if (rc == 0 && segc_rf_is_poly(&b) &&
	    segc_poly_is_const(&b.num)) {
		mpq_t k;

		mpq_init(k);
		if (segc_poly_nterms(&b.num))
			mpq_set(k, segc_poly_coeff(&b.num, 0));
		rc = number_root(st, r, k, p, q);
		mpq_clear(k);
	} else if (rc == 0 && splits(st, &b, &roots) && (q != 2 || roots)) {
		rc = monomial_root(st, r, &b, p, q);
	} else if (rc == 0) {
		c = segc_canon_from_rf(st, &b);
		if (!c) {
			rc = -1;
		} else if (q == 2) {
			s = segc_kernel_simplify(st, SEGC_BUILTIN_SQRT, "sqrt",
				1, &c);
			rc = s ? segc_canon_to_rf(st, s, r) : -1;
			segc_expr_free(s);
			if (rc == 0)
				rc = segc_rf_pow(st, r, r, p);
		} else {
			rc = atom_power(st, r, c, q, p);
		}
	}
	segc_rf_clear(&b);
	return rc;
}

/* sqrt of the canonical 'arg' when it is a monomial with a root atom
 * whose variables are proven >= 0 (see canon_private.h). */
int segc_root_sqrt(segc_canon *st, segc_rf *r, const segc_expr *arg)
{
	segc_rf b;
	int roots = 0, rc = 0;

	if (!st->has_roots)
		return 0;
	segc_rf_init(&b);
	if (segc_canon_to_rf(st, arg, &b))
		rc = -1;
	else if (splits(st, &b, &roots) && roots)
		rc = monomial_root(st, r, &b, 1, 2) ? -1 : 1;
	segc_rf_clear(&b);
	return rc;
}

/* ------------------------------------------------------------ terms */

/* The roots of a polynomial: index and base of each variable. */
struct roots {
	unsigned long *q;
	const segc_expr **base;
	size_t n;
};

/* Fills 'R' for 'p'; 0 when no variable is a root atom of index >= 3
 * (square roots alone are the sqrt kernel's). */
static int roots_of(segc_canon *st, const segc_poly *p, struct roots *R)
{
	size_t v;
	int any = 0;

	R->n = segc_poly_nvars(p);
	R->q = segc_xcalloc(R->n ? R->n : 1, sizeof(*R->q));
	R->base = segc_xcalloc(R->n ? R->n : 1, sizeof(*R->base));
	for (v = 0; v < R->n; v++) {
		R->q[v] = segc_root_index(st->atoms[v], &R->base[v]);
		any |= R->q[v] > 2;
	}
	return any;
}

/* Releases 'R'. */
static void roots_clear(struct roots *R)
{
	free(R->q);
	free(R->base);
}

/* Non-zero when term 'i' of 'p' is not in the normal form: a root of
 * index >= 3 to an exponent outside 1..q-1 or not prime to q, or two
 * roots of one base, one of them of index >= 3. */
static int term_abnormal(const segc_poly *p, size_t i, const struct roots *R)
{
	size_t v, w;

	for (v = 0; v < R->n; v++) {
		int32_t e = segc_poly_exp(p, i, v);

		if (!e || !R->q[v])
			continue;
		if (R->q[v] > 2 && (e < 0 || (unsigned long)e >= R->q[v] ||
		    gcd_ul((unsigned long)e, R->q[v]) != 1))
			return 1;
		for (w = v + 1; w < R->n; w++)
			if (R->q[w] && segc_poly_exp(p, i, w) &&
			    (R->q[v] > 2 || R->q[w] > 2) &&
			    !segc_expr_cmp(R->base[v], R->base[w]))
				return 1;
	}
	return 0;
}

/* r = term 'i' of 'p' with the roots of each base merged. */
static int term_rewrite(segc_canon *st, segc_rf *r, const segc_poly *p,
	size_t i, const struct roots *R)
{
	size_t v, w, n = segc_poly_nvars(p);
	int32_t *e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	char *done = segc_xcalloc(n ? n : 1, 1);
	segc_rf t;
	mpq_t E, x;
	int rc = 0;

	segc_poly_get_exps(p, i, e);
	for (v = 0; v < n; v++)
		if (R->q[v])
			e[v] = 0;
	segc_poly_zero(&r->num);
	segc_poly_trim(&r->num);   /* exactly n variables, as 'e' */
	segc_poly_extend(&r->num, n);
	segc_poly_push(&r->num, e, segc_poly_coeff(p, i));
	segc_poly_set_si(&r->den, 1);
	segc_rf_init(&t);
	mpq_init(E);
	mpq_init(x);
	for (v = 0; v < n && rc == 0; v++) {
		if (!R->q[v] || done[v] || !segc_poly_exp(p, i, v))
			continue;
		mpq_set_ui(E, 0, 1);
		for (w = v; w < n; w++)
			if (R->q[w] && !done[w] && segc_poly_exp(p, i, w) &&
			    !segc_expr_cmp(R->base[v], R->base[w])) {
				mpq_set_si(x, segc_poly_exp(p, i, w), R->q[w]);
				mpq_canonicalize(x);
				mpq_add(E, E, x);
				done[w] = 1;
			}
		/* E = k + n/d, 0 <= n < d: base^k * root(base, d)^n */
		mpz_fdiv_qr(mpq_numref(x), mpq_numref(E), mpq_numref(E),
			mpq_denref(E));
		mpz_set_ui(mpq_denref(x), 1);
		if (!mpz_fits_slong_p(mpq_numref(x)) ||
		    mpz_cmp_ui(mpq_denref(E), (unsigned long)root_limit(st)) > 0)
			rc = root_too_large(st);
		if (rc == 0 && mpz_sgn(mpq_numref(x)))
			rc = segc_root_to_rf(st, &t, R->base[v],
				mpz_get_si(mpq_numref(x)), 1);
		if (rc == 0 && mpz_sgn(mpq_numref(x)))
			rc = segc_rf_mul(st, r, r, &t);
		if (rc == 0 && mpz_sgn(mpq_numref(E)))
			rc = segc_root_to_rf(st, &t, R->base[v],
				mpz_get_si(mpq_numref(E)),
				mpz_get_ui(mpq_denref(E)));
		if (rc == 0 && mpz_sgn(mpq_numref(E)))
			rc = segc_rf_mul(st, r, r, &t);
	}
	mpq_clear(E);
	mpq_clear(x);
	segc_rf_clear(&t);
	free(done);
	free(e);
	return rc;
}

/* r = 'p' with its abnormal terms rewritten; '*changed' set when one
 * was. */
static int poly_reduce(segc_canon *st, segc_rf *r, const segc_poly *p,
	int *changed)
{
	struct roots R;
	segc_rf acc, t;
	size_t i;
	int rc = 0;

	segc_poly_set(&r->num, p);
	segc_poly_set_si(&r->den, 1);
	if (!roots_of(st, p, &R)) {
		roots_clear(&R);
		return 0;
	}
	for (i = 0; i < segc_poly_nterms(p) && !term_abnormal(p, i, &R); i++)
		;
	if (i == segc_poly_nterms(p)) {
		roots_clear(&R);
		return 0;
	}
	*changed = 1;
	segc_rf_init(&acc);
	segc_rf_init(&t);
	for (i = 0; i < segc_poly_nterms(p) && rc == 0; i++) {
		if (term_abnormal(p, i, &R)) {
			rc = term_rewrite(st, &t, p, i, &R);
		} else {
			segc_poly_zero(&t.num);
			segc_poly_trim(&t.num);   /* exactly the variables of p */
			segc_poly_push_term(&t.num, p, i, NULL);
			segc_poly_set_si(&t.den, 1);
		}
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &t);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&t);
	roots_clear(&R);
	return rc;
}

/* Brings the roots of index >= 3 in every term of 'r' to the normal form
 * (see canon_private.h). */
int segc_root_reduce(segc_canon *st, segc_rf *r, int *changed)
{
	segc_rf n, d;
	int rc;

	*changed = 0;
	if (!st->has_roots)
		return 0;
	segc_rf_init(&n);
	segc_rf_init(&d);
	rc = poly_reduce(st, &n, &r->num, changed);
	if (rc == 0)
		rc = poly_reduce(st, &d, &r->den, changed);
	if (rc == 0 && *changed)
		rc = segc_rf_div(st, r, &n, &d);
	segc_rf_clear(&n);
	segc_rf_clear(&d);
	return rc;
}

/* ------------------------------------------------------- quotients */

/* Non-zero when variable 'w' occurs in 'r'. */
static int rf_has_var(const segc_rf *r, size_t w)
{
	return segc_poly_has_var(&r->num, w) ||
		segc_poly_has_var(&r->den, w);
}

/* Multiplies the numerator and the denominator of 't' by the monomial
 * that leaves no negative exponent in either. */
static int clear_negative(segc_canon *st, segc_rf *t)
{
	size_t v, n;
	int32_t *m, *md;
	int rc = 0, any = 0;

	segc_poly_extend(&t->num, segc_poly_nvars(&t->den));
	segc_poly_extend(&t->den, segc_poly_nvars(&t->num));
	n = segc_poly_nvars(&t->num);
	m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	md = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_poly_min_exps(&t->num, m);
	segc_poly_min_exps(&t->den, md);
	for (v = 0; v < n; v++) {
		int32_t lo = m[v] < md[v] ? m[v] : md[v];

		m[v] = lo < 0 ? -lo : 0;
		any |= m[v] != 0;
	}
	if (any) {
		rc = segc_poly_shift(&st->lim, &t->num, m, n);
		if (rc == 0)
			rc = segc_poly_shift(&st->lim, &t->den, m, n);
	}
	free(m);
	free(md);
	return rc;
}

/* Cancels the common factor of a quotient that shows only once a base is
 * written as the power of its root: with x = r^q for each root r =
 * x^(1/q) (q >= 3) of an atom x of 'r', the gcd of the numerator and the
 * denominator is divided out and the roots reduced again (see
 * canon_private.h). */
int segc_root_cancel(segc_canon *st, segc_rf *r)
{
	size_t v, n;
	segc_rf t, x;
	segc_poly g;
	int rc = 0, any = 0, changed, d;

	if (!st->has_roots || segc_rf_is_poly(r))
		return 0;
	segc_rf_init(&t);
	segc_rf_init(&x);
	segc_poly_init(&g, 0);
	segc_rf_set(&t, r);
	n = segc_poly_nvars_max(&r->num, &r->den);
	for (v = 0; v < n && rc == 0; v++) {
		const segc_expr *base;
		unsigned long q = segc_root_index(st->atoms[v], &base);
		void **slot;
		size_t w;

		if (q < 3 || !rf_has_var(r, v))
			continue;
		slot = segc_expr_map_find(&st->atom_index, base);
		if (!slot)
			continue;
		w = (size_t)*slot - 1;
		if (w == v || !rf_has_var(&t, w))
			continue;
		segc_poly_set_var(&x.num, v, (int32_t)q);
		segc_poly_set_si(&x.den, 1);
		rc = clear_negative(st, &t);   /* the substitution wants
		                                * exponents >= 0 */
		if (rc == 0)
			rc = segc_rf_subst_var(st, &t, &t, w, &x);
		any = 1;
	}
	if (rc == 0 && any && !segc_rf_is_poly(&t))
		rc = clear_negative(st, &t);
	if (rc == 0 && any && !segc_rf_is_poly(&t)) {
		segc_poly_lim lim = st->lim;

		lim.ctx = NULL;   /* a gcd or a quotient too large is given up */
		if (segc_poly_gcd(&lim, &g, &t.num, &t.den) == 0 &&
		    !segc_poly_is_const(&g) && !segc_poly_is_zero(&g)) {
			d = segc_poly_divexact(&lim, &t.num, &t.num, &g);
			if (d == 1)
				d = segc_poly_divexact(&lim, &t.den, &t.den,
					&g);
			if (d == 1)
				rc = segc_root_reduce(st, &t, &changed);
			if (d == 1 && rc == 0)
				segc_rf_set(r, &t);
		}
	}
	segc_poly_clear(&g);
	segc_rf_clear(&t);
	segc_rf_clear(&x);
	return rc;
}
