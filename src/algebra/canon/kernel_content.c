/* kernel_content.c - what the normal form of max and min takes out of its
 * alternatives: their termwise minimum, max(a + x, a + y) = a + max(x, y),
 * and their content, max(g*m*x, g*m*y) = g*m*max(x, y) (with the powers of
 * sqrt atoms). */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "base/util.h"

/* See kernel_private.h. */
void segc_kernel_min_terms(segc_poly *c, const segc_poly *p)
{
	size_t n = segc_poly_nvars_max(c, p);
	size_t i = 0, j = 0;
	segc_poly r;

	segc_poly_extend(c, n);
	segc_poly_init(&r, n);
	while (i < segc_poly_nterms(c) || j < segc_poly_nterms(p)) {
		int k = i == segc_poly_nterms(c) ? -1 :
			j == segc_poly_nterms(p) ? 1 :
			segc_poly_term_cmp(c, i, p, j);
		mpq_srcptr a = k >= 0 ? segc_poly_coeff(c, i) : NULL;
		mpq_srcptr b = k <= 0 ? segc_poly_coeff(p, j) : NULL;

		if (k > 0) {
			if (mpq_sgn(a) < 0)
				segc_poly_push_term(&r, c, i, NULL);
			i++;
		} else if (k < 0) {
			if (mpq_sgn(b) < 0)
				segc_poly_push_term(&r, p, j, NULL);
			j++;
		} else {
			segc_poly_push_term(&r, c, i,
				mpq_cmp(a, b) <= 0 ? a : b);
			i++;
			j++;
		}
	}
	segc_poly_swap(c, &r);
	segc_poly_clear(&r);
}

/* Drops from 'm' the terms with a negative coefficient and an extremum
 * atom of the other kind than 'ismax': -K*min(x, y) (K >= 0) distributes
 * into a max, so it stays in the alternatives. */
static void keep_distributable(segc_canon *st, segc_poly *m, int ismax)
{
	size_t i, v, len = segc_poly_nterms(m), n = segc_poly_nvars(m);
	char *keep = segc_xmalloc(len ? len : 1);

	for (i = 0; i < len; i++) {
		int drop = 0;

		if (mpq_sgn(segc_poly_coeff(m, i)) < 0)
			for (v = 0; v < n && !drop; v++)
				drop = segc_poly_exp(m, i, v) &&
					segc_kernel_extremum_kind(st->atoms[v], ismax) < 0;
		keep[i] = !drop;
	}
	segc_poly_keep_terms(m, keep);
	free(keep);
}

/* Takes out of the polynomial alternatives their termwise minimum (an
 * absent monomial counts as 0) and adds it to 'c': afterwards every
 * monomial has coefficients >= 0 in all alternatives and 0 in at least
 * one (but those of keep_distributable).  Adding the same polynomial to
 * every alternative adds it to 'c' and leaves the rest unchanged, which
 * is what makes c + max(...) canonical. */
int segc_kernel_extract_common(segc_canon *st, struct alts *a, int ismax,
	segc_poly *c)
{
	segc_poly m;
	size_t i;
	int rc = 0;

	segc_poly_init(&m, 0);
	segc_poly_set(&m, &a->v[0].r.num);
	for (i = 1; i < a->n; i++)
		segc_kernel_min_terms(&m, &a->v[i].r.num);
	if (st->has_extrema)
		keep_distributable(st, &m, ismax);
	for (i = 0; i < a->n && segc_poly_nterms(&m) && rc == 0; i++)
		rc = segc_poly_sub(&st->lim, &a->v[i].r.num, &a->v[i].r.num, &m);
	if (rc == 0 && segc_poly_nterms(&m))
		rc = segc_poly_add(&st->lim, c, c, &m);
	segc_poly_clear(&m);
	return rc;
}

/* Steps of a division at most (a guard: each step removes the leading
 * term). */
#define DIVIDE_STEPS 4096

/* An atom and its variable, for sorting the variables by their atoms. */
struct ranked_var {
	const segc_expr *atom;
	size_t v;
};

/* qsort order of variables by their atoms (segc_expr_cmp). */
static int ranked_cmp(const void *a, const void *b)
{
	return segc_expr_cmp(((const struct ranked_var *)a)->atom,
		((const struct ranked_var *)b)->atom);
}

/* perm[k] = the variable of the k-th atom of the first 'n' in the order
 * of segc_expr_cmp.  A division's quotient depends on its term order;
 * taking that order from the atoms, not from the order they were met in,
 * makes it the same for every spelling of the same input. */
static size_t *atom_order(const segc_canon *st, size_t n)
{
	struct ranked_var *r = segc_xmalloc((n ? n : 1) * sizeof(*r));
	size_t *perm = segc_xmalloc((n ? n : 1) * sizeof(*perm)), k;

	for (k = 0; k < n; k++) {
		r[k].atom = st->atoms[k];
		r[k].v = k;
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (k = 0; k < n; k++)
		perm[k] = r[k].v;
	free(r);
	return perm;
}

/* r = 'p' with its variables renamed over 'n': variable perm[k] of 'p'
 * becomes variable k of 'r' (back: variable k of 'p' becomes perm[k]),
 * sorted again. */
static void rename_vars(segc_poly *r, const segc_poly *p, const size_t *perm,
	size_t n, int back)
{
	int32_t *e = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	size_t i, k;

	segc_poly_init(r, n);
	for (i = 0; i < segc_poly_nterms(p); i++) {
		for (k = 0; k < n; k++)
			if (back)
				e[perm[k]] = segc_poly_exp(p, i, k);
			else
				e[k] = segc_poly_exp(p, i, perm[k]);
		segc_poly_push(r, e, segc_poly_coeff(p, i));
	}
	/* The same terms in another order: no limit can be passed. */
	segc_poly_normalise(NULL, r);
	free(e);
}

/* Drops the first 'k' terms of 'p'. */
static void drop_leading(segc_poly *p, size_t k)
{
	size_t i, len = segc_poly_nterms(p);
	char *keep;

	if (!k)
		return;
	keep = segc_xmalloc(len ? len : 1);
	for (i = 0; i < len; i++)
		keep[i] = i >= k;
	segc_poly_keep_terms(p, keep);
	free(keep);
}

/* Splits 'p' by 'q' (both with non-negative exponents, 'q' not a number):
 * p = s*q + rem, where no term of rem is divisible by the leading term of
 * q.  Since {q} is a Groebner basis of the ideal it generates, 'rem' and
 * so 's' depend only on p modulo q*Q[atoms]: p + P*q gives s + P.  The
 * term order is that of the atoms (atom_order).  0; 1 when an exponent
 * is negative or the division takes too long or grows past the limits;
 * -1 when its steps pass max_work (charged to the context, which says
 * so). */
static int divide(segc_canon *st, segc_poly *s, const segc_poly *p,
	const segc_poly *q)
{
	size_t n = segc_poly_nvars_max(p, q), v, k, steps;
	size_t pos;
	int32_t *d = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	size_t *perm;
	segc_poly w, t, qq, sp;
	segc_poly_lim lim = st->lim;
	mpq_t c;
	int rc = 0, over = 0;

	lim.ctx = NULL;   /* a division that grows too much is given up */
	for (k = 0; k < segc_poly_nterms(p) && !rc; k++)
		for (v = 0; v < segc_poly_nvars(p); v++)
			if (segc_poly_exp(p, k, v) < 0)
				rc = 1;
	if (rc) {
		free(d);
		return 1;
	}
	perm = atom_order(st, n);
	mpq_init(c);
	segc_poly_init(&t, n);
	segc_poly_init(&sp, n);
	rename_vars(&w, p, perm, n, 0);
	rename_vars(&qq, q, perm, n, 0);
	/* The terms of 'w' before 'pos' are the remainder's: a step whose
	 * leading term is not divisible only moves past it, and the next
	 * subtraction drops them first (every term it changes is smaller). */
	for (steps = 0, pos = 0; rc == 0 && pos < segc_poly_nterms(&w); steps++) {
		int divisible = 1;

		if (steps == DIVIDE_STEPS) {
			rc = 1;
			break;
		}
		for (v = 0; v < n; v++) {
			d[v] = segc_poly_exp(&w, pos, v) -
				segc_poly_exp(&qq, 0, v);
			divisible &= d[v] >= 0;
		}
		if (!divisible) {
			pos++;
			continue;
		}
		drop_leading(&w, pos);
		pos = 0;
		/* The step subtracts a multiple of 'q' from what is left,
		 * copying every term of it into a new polynomial: an
		 * allocation and a copy of a rational for each. */
		if (segc_ctx_charge(st->ctx, (double)(segc_poly_nterms(&w) +
			segc_poly_nterms(&qq)) *
			(4.0 + (double)n / 4))) {
			over = 1;
			break;
		}
		/* w -= (lt(w)/lt(q))*q */
		segc_poly_zero(&t);
		mpq_div(c, segc_poly_coeff(&w, 0), segc_poly_coeff(&qq, 0));
		segc_poly_push(&sp, d, c);
		segc_poly_set(&t, &qq);
		segc_poly_scale(&t, c);
		rc = segc_poly_shift(&lim, &t, d, n);
		if (rc == 0)
			rc = segc_poly_normalise(&lim, &t);
		if (rc == 0)
			rc = segc_poly_sub(&lim, &w, &w, &t);
	}
	segc_poly_zero(s);
	if (rc == 0 && segc_poly_normalise(&lim, &sp) == 0) {
		segc_poly_clear(s);
		rename_vars(s, &sp, perm, n, 1);
	} else
		rc = 1;
	segc_poly_clear(&sp);
	free(perm);
	segc_poly_clear(&w);
	segc_poly_clear(&t);
	segc_poly_clear(&qq);
	mpq_clear(c);
	free(d);
	return over ? -1 : rc ? 1 : 0;
}

/* See kernel_private.h. */
int segc_kernel_extract_common_rf(segc_canon *st, struct alts *a,
	int ismax, segc_poly *c)
{
	segc_poly *s = segc_xcalloc(a->n, sizeof(*s)), m;
	segc_rf mr;
	size_t i;
	int rc = 0;

	for (i = 0; i < a->n; i++)
		segc_poly_init(&s[i], 0);
	for (i = 0; i < a->n && rc == 0; i++)
		if (segc_rf_is_poly(&a->v[i].r))
			segc_poly_set(&s[i], &a->v[i].r.num);
		else
			rc = divide(st, &s[i], &a->v[i].r.num, &a->v[i].r.den);
	segc_poly_init(&m, 0);
	if (rc == 0) {
		segc_poly_set(&m, &s[0]);
		for (i = 1; i < a->n; i++)
			segc_kernel_min_terms(&m, &s[i]);
		if (st->has_extrema)
			keep_distributable(st, &m, ismax);
	}
	segc_rf_init(&mr);
	if (rc == 0 && segc_poly_nterms(&m)) {
		segc_poly_set(&mr.num, &m);
		for (i = 0; i < a->n && rc == 0; i++)
			rc = segc_rf_sub(st, &a->v[i].r, &a->v[i].r, &mr);
		if (rc == 0)
			rc = segc_poly_add(&st->lim, c, c, &m);
	}
	segc_rf_clear(&mr);
	segc_poly_clear(&m);
	for (i = 0; i < a->n; i++)
		segc_poly_clear(&s[i]);
	free(s);
	return rc < 0 ? -1 : 0;
}

/* The smallest "half exponent" e_s + 2*e_x of sqrt atom 's' and its
 * argument 'x' over the terms of the alternatives 'a'. */
static int32_t half_content(const struct alts *a, size_t s, size_t x)
{
	int32_t m = INT32_MAX;
	size_t i, k;

	for (i = 0; i < a->n; i++) {
		const segc_poly *p = &a->v[i].r.num;

		for (k = 0; k < segc_poly_nterms(p); k++) {
			int32_t h = segc_poly_exp(p, k, s) +
				2 * segc_poly_exp(p, k, x);

			if (h < m)
				m = h;
		}
	}
	return m;
}

/* Divides every term of polynomial 'p' by sqrt(x)^m (variables 's' =
 * sqrt(x) and 'x'), written back with s to the power 0 or 1. */
static int divide_half(segc_canon *st, segc_poly *p, size_t s, size_t x,
	int32_t m)
{
	size_t k, n = s > x ? s + 1 : x + 1;
	int32_t *e;
	segc_poly r;
	int rc;

	segc_poly_extend(p, n);
	n = segc_poly_nvars(p);
	e = segc_xmalloc(n * sizeof(int32_t));
	segc_poly_init(&r, n);
	for (k = 0; k < segc_poly_nterms(p); k++) {
		int32_t h;

		segc_poly_get_exps(p, k, e);
		h = e[s] + 2 * e[x] - m;
		e[x] = h / 2;
		e[s] = h % 2;
		segc_poly_push(&r, e, segc_poly_coeff(p, k));
	}
	free(e);
	rc = segc_poly_normalise(&st->lim, &r);
	segc_poly_swap(p, &r);
	segc_poly_clear(&r);
	return rc;
}

/* The second part of the content: sqrt(x)^m taken out of alternatives in
 * which every term holds x^i*sqrt(x)^j with j + 2*i >= m, for x >= 0
 * proven: max(a*P, b*sqrt(P)) = sqrt(P)*max(a*sqrt(P), b).  'mexp' (of
 * 'n' variables) is multiplied by what is taken out. */
static int extract_sqrt_content(segc_canon *st, struct alts *a,
	int32_t *mexp, size_t n)
{
	size_t s, x, i;
	int rc = 0;

	for (s = 0; st->has_sqrts && s < n && rc == 0; s++) {
		int32_t m;

		x = segc_kernel_sqrt_base(st, s);
		if (x == (size_t)-1 || x >= n)
			continue;
		m = half_content(a, s, x);
		if (m < 1 || m == INT32_MAX)
			continue;
		for (i = 0; i < a->n && rc == 0; i++)
			rc = divide_half(st, &a->v[i].r.num, s, x, m);
		mexp[x] += m / 2;
		mexp[s] += m % 2;
	}
	return rc;
}

/* The positive content g of the alternatives (gcd of the numerators over
 * lcm of the denominators of all coefficients) and the monomial content
 * 'mexp' (n variables), limited to the atoms whose powers are provably
 * >= 0; divides every alternative by both. */
int segc_kernel_extract_content(segc_canon *st, struct alts *a, mpq_t g,
	int32_t *mexp, size_t n)
{
	size_t i, k, v;
	int any = 0, rc = 0;
	mpq_t inv;

	mpz_set_ui(mpq_numref(g), 0);
	mpz_set_ui(mpq_denref(g), 1);
	for (v = 0; v < n; v++)
		mexp[v] = 0;
	for (i = 0; i < a->n; i++) {
		segc_poly *p = &a->v[i].r.num;

		segc_poly_extend(p, n);
		for (k = 0; k < segc_poly_nterms(p); k++) {
			mpq_srcptr ck = segc_poly_coeff(p, k);

			mpz_gcd(mpq_numref(g), mpq_numref(g), mpq_numref(ck));
			mpz_lcm(mpq_denref(g), mpq_denref(g), mpq_denref(ck));
			for (v = 0; v < n; v++) {
				int32_t e = segc_poly_exp(p, k, v);

				if (!any || e < mexp[v])
					mexp[v] = e;
			}
			any = 1;
		}
	}
	if (!any) {
		mpq_set_ui(g, 1, 1);
		return 0;
	}
	for (v = 0; v < n; v++) {
		segc_rf x;

		if (mexp[v] == 0 || mexp[v] % 2 == 0)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (!(segc_kernel_sign(st, &x) & SEGC_SIGN_NONNEG))
			mexp[v] = 0;
		segc_rf_clear(&x);
	}
	mpq_init(inv);
	mpq_inv(inv, g);
	for (v = 0; v < n; v++)
		mexp[v] = -mexp[v];
	for (i = 0; i < a->n && rc == 0; i++) {
		segc_poly_scale(&a->v[i].r.num, inv);
		rc = segc_poly_shift(&st->lim, &a->v[i].r.num, mexp, n);
	}
	for (v = 0; v < n; v++)
		mexp[v] = -mexp[v];
	mpq_clear(inv);
	return rc ? rc : extract_sqrt_content(st, a, mexp, n);
}
