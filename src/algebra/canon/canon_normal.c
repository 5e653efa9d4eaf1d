/* canon_normal.c - the canonical rational function and its expression.
 *
 * The canonical rational function: gcd(p, q) = 1; the monomial content m of
 * q is moved into p as negative exponents, p*m^-1/q'; q' has integer
 * coprime coefficients and a positive first coefficient in the output
 * order; if q' = 1 the result is the Laurent polynomial p*m^-1.  Powers
 * sqrt(u)^k are reduced to u^(k div 2) * sqrt(u)^(k mod 2), and roots of
 * other indices likewise (canon_root.c).
 *
 * The output order of terms: atoms sorted by segc_expr_cmp, monomials by
 * decreasing exponent of the first atom, then of the second, and so on
 * (lexicographic), the number term last.  A term is MUL(coefficient,
 * atom^e, ...) with the atoms of positive exponents in their order, then
 * those of negative exponents in their order; a fraction is
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

/* Sorts the variables v[0 .. m-1] by segc_expr_cmp of their atoms (a
 * merge sort: m log m comparisons). */
static void sort_vars(const segc_canon *st, size_t *v, size_t m)
{
	size_t *tmp = segc_xmalloc((m ? m : 1) * sizeof(size_t));
	size_t width, i;

	for (width = 1; width < m; width *= 2) {
		for (i = 0; i < m; i += 2 * width) {
			size_t mid = i + width < m ? i + width : m;
			size_t hi = i + 2 * width < m ? i + 2 * width : m;
			size_t a = i, b = mid, t = i;

			while (a < mid && b < hi)
				tmp[t++] = segc_expr_cmp(st->atoms[v[a]],
					st->atoms[v[b]]) <= 0 ? v[a++] : v[b++];
			while (a < mid)
				tmp[t++] = v[a++];
			while (b < hi)
				tmp[t++] = v[b++];
		}
		memcpy(v, tmp, m * sizeof(size_t));
	}
	free(tmp);
}

/* The variables that occur in 'p', in the order of their atoms by
 * segc_expr_cmp ('*k' set to their number): byrank[r] is the variable of
 * rank r.  Only the variables present are sorted, so that the cost does
 * not grow with the size of the atom table. */
static size_t *used_by_rank(const segc_canon *st, const segc_poly *p,
	size_t *k)
{
	size_t n = segc_poly_nvars(p), v, m = 0;
	char *used = segc_xcalloc(n ? n : 1, 1);
	size_t *byrank = segc_xmalloc((n ? n : 1) * sizeof(size_t));

	segc_poly_used_vars(p, used);
	for (v = 0; v < n; v++)
		if (used[v])
			byrank[m++] = v;
	free(used);
	sort_vars(st, byrank, m);
	*k = m;
	return byrank;
}

/* Order of the output: >0 when term i of p comes after term j ('byrank'
 * lists the k variables present). */
static int out_cmp(const segc_poly *p, const size_t *byrank, size_t k,
	size_t i, size_t j)
{
	size_t r, s;
	int32_t a = 0, b = 0;
	int prefix_zero = 1;

	for (r = 0; r < k; r++) {
		a = segc_poly_exp(p, i, byrank[r]);
		b = segc_poly_exp(p, j, byrank[r]);
		if (a != b)
			break;
		prefix_zero &= a == 0;
	}
	if (r == k)
		return 0;
	/* the constant term (every exponent 0) goes last: either term is
	 * it only when the exponents before rank r are 0 and its own
	 * exponent at r and after are 0 */
	if (prefix_zero && (a == 0 || b == 0)) {
		size_t t = a == 0 ? i : j;

		for (s = r + 1; s < k && !segc_poly_exp(p, t, byrank[s]); s++)
			;
		if (s == k)
			return a == 0 ? 1 : -1;
	}
	return a > b ? -1 : 1;
}

/* The term indices of 'p' in output order ('byrank'[r] = variable of
 * rank r, k of them). */
static size_t *output_order(const segc_poly *p, const size_t *byrank,
	size_t k)
{
	size_t width, i, n = segc_poly_nterms(p);
	size_t *ix = segc_xmalloc((n ? n : 1) * sizeof(size_t));
	size_t *tmp = segc_xmalloc((n ? n : 1) * sizeof(size_t));

	for (i = 0; i < n; i++)
		ix[i] = i;
	/* often the order of the variables is that of their atoms, and
	 * the terms are in output order already: one pass to see it */
	for (i = 1; i < n && out_cmp(p, byrank, k, i - 1, i) < 0; i++)
		;
	if (i >= n) {
		free(tmp);
		return ix;
	}
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t a = i, b = mid, t = i;

			while (a < mid && b < hi)
				tmp[t++] = out_cmp(p, byrank, k, ix[a], ix[b]) <= 0 ?
					ix[a++] : ix[b++];
			while (a < mid)
				tmp[t++] = ix[a++];
			while (b < hi)
				tmp[t++] = ix[b++];
		}
		memcpy(ix, tmp, n * sizeof(size_t));
	}
	free(tmp);
	return ix;
}

/* Makes the denominator primitive with a positive first coefficient in
 * the output order, dividing the numerator by the same number. */
static void normalise_den_sign(segc_canon *st, segc_rf *r)
{
	size_t k, *byrank = used_by_rank(st, &r->den, &k), *ix;
	mpq_t scale;

	mpq_init(scale);
	segc_poly_primitive(&r->den, scale);
	ix = output_order(&r->den, byrank, k);
	if (mpq_sgn(segc_poly_coeff(&r->den, ix[0])) < 0) {
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

/* ------------------------------------------------------------- output */

/* The variable of the base of the root atom 'v' (index >= 3) when that
 * base is itself an atom with a non-zero exponent in the term 'e' (of
 * 'n' variables); else (size_t)-1. */
static size_t root_base_var(segc_canon *st, const int32_t *e, size_t n,
	size_t v)
{
	const segc_expr *base;
	void **slot;
	size_t w;

	if (st->atoms[v]->kind != SEGC_POW ||
	    !segc_root_index(st->atoms[v], &base))
		return (size_t)-1;
	slot = segc_expr_map_find(&st->atom_index, base);
	if (!slot)
		return (size_t)-1;
	w = (size_t)*slot - 1;
	return w < n && e[w] ? w : (size_t)-1;
}

/* Non-zero when variable 'w' of the term 'e' is the base of a root atom
 * of the term (it prints merged into that root). */
static int is_merged_base(segc_canon *st, const int32_t *e, size_t n,
	size_t w)
{
	size_t v;

	for (v = 0; v < n; v++)
		if (e[v] && root_base_var(st, e, n, v) == w)
			return 1;
	return 0;
}

/* The exponent of the factor of variable 'v' in the term 'e' into 'x':
 * e[v], or for a root x^(1/q) (q >= 3) e[v]/q plus the exponent of its
 * base when the base is an atom of the term; 0 when 'v' prints no
 * factor of its own (absent, or a base merged into its root). */
static int factor_exponent(segc_canon *st, const int32_t *e, size_t n,
	size_t v, mpq_t x)
{
	size_t w;

	if (!e[v])
		return 0;
	mpq_set_si(x, e[v], 1);
	if (!st->has_roots)
		return 1;
	if (st->atoms[v]->kind == SEGC_POW) {
		mpq_mul(x, x, segc_args(st->atoms[v])[1]->u.value);
		w = root_base_var(st, e, n, v);
		if (w != (size_t)-1) {
			mpq_t k;

			mpq_init(k);
			mpq_set_si(k, e[w], 1);
			mpq_add(x, x, k);
			mpq_clear(k);
		}
		return mpq_sgn(x) != 0;
	}
	return !is_merged_base(st, e, n, v);
}

/* The factor of variable 'v' to the exponent 'x': a root x^(1/q)
 * (q >= 3) prints as the one power of its base, base^x. */
static segc_expr *atom_power(segc_canon *st, size_t v, mpq_srcptr x)
{
	const segc_expr *atom = st->atoms[v], *base;

	if (atom->kind != SEGC_POW || !segc_root_index(atom, &base))
		return segc_expr_powi(segc_expr_copy(atom),
			mpz_get_si(mpq_numref(x)));
	if (mpz_cmp_ui(mpq_denref(x), 1) == 0)
		return segc_expr_powi(segc_expr_copy(base),
			mpz_get_si(mpq_numref(x)));
	return segc_expr_pow(segc_expr_copy(base),
		segc_expr_num(x));
}

/* Integer exponents from -POWER_CACHE to POWER_CACHE whose factors
 * poly_to_expr makes once per polynomial, and the terms from which it
 * does. */
#define POWER_CACHE 64
#define POWER_CACHE_MIN_TERMS 32

/* The entry of the cache of poly_to_expr for rank 'r' and exponent 'k'
 * (|k| <= POWER_CACHE). */
static segc_expr **cache_slot(segc_expr **cache, size_t r, long k)
{
	return cache + r * (2 * POWER_CACHE + 1) + (k + POWER_CACHE);
}

/* The factor of variable 'v' (rank 'r') to the exponent 'x', from
 * 'cache' (2 POWER_CACHE + 1 entries per rank, or NULL) when 'x' is a
 * small integer: the factor depends on v and x alone, and the store
 * would give the same node again, after hashing it. */
static segc_expr *cached_power(segc_canon *st, segc_expr **cache, size_t r,
	size_t v, mpq_srcptr x)
{
	segc_expr **slot;
	long k;

	if (!cache || mpz_cmp_ui(mpq_denref(x), 1) ||
	    mpz_cmpabs_ui(mpq_numref(x), POWER_CACHE) > 0)
		return atom_power(st, v, x);
	k = mpz_get_si(mpq_numref(x));
	slot = cache_slot(cache, r, k);
	if (!*slot)
		*slot = atom_power(st, v, x);
	return segc_expr_copy(*slot);
}

/* The factor of variable 'v' to the integer exponent 'k' (not 0) of a
 * polynomial without roots: cached_power without a rational when the
 * cache holds it, 'x' the scratch rational otherwise. */
static segc_expr *int_power(segc_canon *st, segc_expr **cache, size_t r,
	size_t v, int32_t k, mpq_t x)
{
	if (cache && k >= -POWER_CACHE && k <= POWER_CACHE &&
	    *cache_slot(cache, r, k))
		return segc_expr_copy(*cache_slot(cache, r, k));
	mpq_set_si(x, k, 1);
	return cached_power(st, cache, r, v, x);
}

/* Entries of the cache of coefficient nodes of poly_to_expr (a power of
 * 2): a polynomial's coefficients repeat (those of a power are few
 * multinomial numbers), and finding a node there costs less than in the
 * store. */
#define COEF_CACHE 64

/* The NUM node of the coefficient 'c', from 'cache' (COEF_CACHE entries,
 * references held, or NULL) when 'c' is a quotient of one-limb integers
 * that was met last at its place there. */
static segc_expr *coef_node(segc_expr **cache, mpq_srcptr c)
{
	mpz_srcptr nu = mpq_numref(c), de = mpq_denref(c);
	segc_expr *node;
	uint64_t h;

	if (!cache || mpz_size(nu) > 1 || mpz_size(de) > 1)
		return segc_expr_num(c);
	h = ((uint64_t)mpz_getlimbn(nu, 0) + (uint64_t)(mpz_sgn(nu) < 0)) *
		0x9e3779b97f4a7c15ULL ^ (uint64_t)mpz_getlimbn(de, 0) *
		0xc2b2ae3d27d4eb4fULL;
	h = (h >> 32) & (COEF_CACHE - 1);
	if (cache[h] && mpq_equal(cache[h]->u.value, c))
		return segc_expr_copy(cache[h]);
	node = segc_expr_num(c);
	segc_expr_free(cache[h]);
	cache[h] = segc_expr_copy(node);
	return node;
}

/* Variables up to which poly_to_expr reads a term's exponents into a
 * buffer on the stack (one polynomial is printed per node). */
#define POLY_EXPR_SMALL_VARS 64

/* The expression of polynomial 'p' in output order. */
static segc_expr *poly_to_expr(segc_canon *st, const segc_poly *p)
{
	size_t n = segc_poly_nvars(p), m, *byrank = used_by_rank(st, p, &m);
	size_t *ix = output_order(p, byrank, m), len = segc_poly_nterms(p);
	segc_expr **terms = segc_xmalloc((len ? len : 1) * sizeof(*terms));
	segc_expr **f = segc_xmalloc((m + 1) * sizeof(*f));
	segc_expr **cache = NULL, *coefs[COEF_CACHE] = { NULL };
	segc_expr *res;
	int32_t small[POLY_EXPR_SMALL_VARS];
	int32_t *e = n <= POLY_EXPR_SMALL_VARS ? small :
		segc_xmalloc(n * sizeof(int32_t));
	size_t i, r, k, ncache = 0;
	mpq_t x;

	if (len >= POWER_CACHE_MIN_TERMS && m) {
		ncache = segc_xmul_size(m, 2 * POWER_CACHE + 1);
		cache = segc_xcalloc(ncache, sizeof(*cache));
	}
	mpq_init(x);
	for (i = 0; i < len; i++) {
		segc_poly_get_exps(p, ix[i], e);
		k = 0;
		if (!st->has_roots) {
			/* the positive powers by rank, then the negative */
			for (r = 0; r < m; r++)
				if (e[byrank[r]] > 0)
					f[k++] = int_power(st, cache, r,
						byrank[r], e[byrank[r]], x);
			for (r = 0; r < m; r++)
				if (e[byrank[r]] < 0)
					f[k++] = int_power(st, cache, r,
						byrank[r], e[byrank[r]], x);
		} else {
			for (r = 0; r < 2 * m; r++) {
				size_t v = byrank[r % m];

				if (factor_exponent(st, e, n, v, x) &&
				    (r < m ? mpq_sgn(x) > 0 : mpq_sgn(x) < 0))
					f[k++] = cached_power(st, cache,
						r % m, v, x);
			}
		}
		terms[i] = segc_expr_mul_num(coef_node(cache ? coefs : NULL,
			segc_poly_coeff(p, ix[i])), k, f);
	}
	for (i = 0; i < COEF_CACHE; i++)
		segc_expr_free(coefs[i]);
	for (i = 0; i < ncache; i++)
		segc_expr_free(cache[i]);
	free(cache);
	mpq_clear(x);
	res = len ? segc_expr_add(len, terms) : segc_expr_int(0);
	if (e != small)
		free(e);
	free(terms);
	free(f);
	free(ix);
	free(byrank);
	return res;
}

/* The work of writing 'p' as an expression: for each term, a look at
 * every variable and a node made and hashed for each factor. */
static double poly_expr_work(const segc_poly *p)
{
	return (double)segc_poly_nterms(p) *
		(1.0 + (double)segc_poly_nvars(p) / 8);
}

/* The canonical expression of 'r' (NULL when a limit is reached). */
segc_expr *segc_canon_from_rf(segc_canon *st, segc_rf *r)
{
	segc_expr *num;

	if (rf_normalise_dual(st, r))
		return NULL;
	if (segc_ctx_charge(st->ctx, poly_expr_work(&r->num) +
		(segc_rf_is_poly(r) ? 0 : poly_expr_work(&r->den))))
		return NULL;
	num = poly_to_expr(st, &r->num);
	if (segc_rf_is_poly(r))
		return num;
	return segc_expr_mul2(num,
		segc_expr_powi(poly_to_expr(st, &r->den), -1));
}

/* The canonical expression of 'e' inside the canonicalisation 'st'. */
segc_expr *segc_canon_expr(segc_canon *st, const segc_expr *e)
{
	segc_expr *res = NULL;
	segc_rf r;

	segc_rf_init(&r);
	if (segc_canon_to_rf(st, e, &r) == 0)
		res = segc_canon_from_rf(st, &r);
	segc_rf_clear(&r);
	return res;
}
