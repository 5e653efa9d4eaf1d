/* summation.c - sum(i, lo, hi, body) in closed form.
 *
 * When the canonical body is a polynomial in i (i only in the polynomial
 * part, with non-negative exponents, not inside any atom, and not in the
 * denominator), Faulhaber's formula with exact Bernoulli numbers gives
 * G(n) = sum_{i=1}^{n} body, and the sum is G(hi) - G(lo - 1) for any
 * (symbolic) bounds.  Otherwise the sum stays an atom SUM(v, lo, hi, body)
 * with canonical parts, where the bound variable is renamed to "_s<k>":
 * k is one more than the deepest nesting of sums in the body, raised until
 * the name is not free in the body, so that sums differing only in the
 * name of their variable get the same atom. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "canon_private.h"
#include "util.h"

/* Makes sure B_0 .. B_m are cached (B_1 = -1/2). */
static void bernoulli_upto(segc_canon *st, size_t m)
{
	size_t k, j;
	mpz_t bin;
	mpq_t t, acc;

	if (m < st->nbern)
		return;
	st->bernoulli = segc_xrealloc(st->bernoulli,
		segc_xmul_size(m + 1, sizeof(mpq_t)));
	mpz_init(bin);
	mpq_init(t);
	mpq_init(acc);
	for (k = st->nbern; k <= m; k++) {
		mpq_init(st->bernoulli[k]);
		if (k == 0) {
			mpq_set_ui(st->bernoulli[0], 1, 1);
			continue;
		}
		mpq_set_ui(acc, 0, 1);
		for (j = 0; j < k; j++) {
			mpz_bin_uiui(bin, k + 1, j);
			mpq_set_z(t, bin);
			mpq_mul(t, t, st->bernoulli[j]);
			mpq_add(acc, acc, t);
		}
		mpq_set_ui(t, 1, k + 1);
		mpq_mul(acc, acc, t);
		mpq_neg(st->bernoulli[k], acc);
	}
	st->nbern = m + 1;
	mpz_clear(bin);
	mpq_clear(t);
	mpq_clear(acc);
}

/* f[m] += coefficient of n^m in sum_{i=1}^{n} i^k, m = 0..k+1. */
static void faulhaber_add(segc_canon *st, mpq_t *f, size_t k)
{
	size_t j;
	mpz_t bin;
	mpq_t t, inv;

	mpz_init(bin);
	mpq_init(t);
	mpq_init(inv);
	mpq_set_ui(inv, 1, k + 1);
	for (j = 0; j <= k; j++) {
		mpz_bin_uiui(bin, k + 1, j);
		mpq_set_z(t, bin);
		if (j == 1)
			mpq_neg(t, t);
		mpq_mul(t, t, st->bernoulli[j]);
		mpq_mul(t, t, inv);
		mpq_add(f[k + 1 - j], f[k + 1 - j], t);
	}
	mpz_clear(bin);
	mpq_clear(t);
	mpq_clear(inv);
}

/* Builds g[m] (polynomials free of x_v), m = 0..deg+1, with
 * G(n) = sum_m g[m] n^m = sum_{i=1}^{n} num(i). */
static int antidifference(segc_canon *st, segc_poly *g, const segc_poly *num,
	size_t v, size_t deg)
{
	mpq_t *f = segc_xmalloc((deg + 2) * sizeof(mpq_t));
	segc_poly c, t;
	size_t k, m;
	int rc = 0;

	segc_poly_init(&c, num->nvars);
	segc_poly_init(&t, num->nvars);
	for (m = 0; m < deg + 2; m++)
		mpq_init(f[m]);
	for (k = 0; k <= deg && rc == 0; k++) {
		segc_poly_coeff_var(&c, num, v, (int32_t)k);
		if (c.len == 0)
			continue;
		for (m = 0; m < deg + 2; m++)
			mpq_set_ui(f[m], 0, 1);
		faulhaber_add(st, f, k);
		for (m = 0; m < k + 2 && rc == 0; m++) {
			if (!mpq_sgn(f[m]))
				continue;
			segc_poly_set(&t, &c);
			segc_poly_scale(&t, f[m]);
			rc = segc_poly_add(&st->lim, &g[m], &g[m], &t);
		}
	}
	for (m = 0; m < deg + 2; m++)
		mpq_clear(f[m]);
	free(f);
	segc_poly_clear(&c);
	segc_poly_clear(&t);
	return rc;
}

/* r = G(x) = sum_m g[m] x^m by Horner's rule. */
static int horner(segc_canon *st, segc_rf *r, segc_poly *g, size_t n,
	segc_rf *x)
{
	segc_rf acc, c;
	size_t m;
	int rc = 0;

	segc_rf_init(&acc);
	segc_rf_init(&c);
	for (m = n; m-- > 0 && rc == 0;) {
		rc = segc_rf_mul(st, &acc, &acc, x);
		segc_poly_set(&c.num, &g[m]);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&c);
	return rc;
}

/* r = sum_{v=lo}^{hi} body in closed form (body polynomial in x_v). */
static int closed_form(segc_canon *st, segc_rf *r, segc_rf *body, size_t v,
	segc_rf *lo, segc_rf *hi)
{
	size_t deg = (size_t)segc_poly_degree(&body->num, v), m, n;
	unsigned long maxdeg = segc_ctx_limits(st->ctx)->max_sum_degree;
	segc_poly *g;
	segc_rf a, b, one;
	int rc;

	if (maxdeg && deg > maxdeg) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the degree %zu of "
			"a summed polynomial exceeds the limit %lu", deg, maxdeg);
		return -1;
	}
	bernoulli_upto(st, deg);
	n = deg + 2;
	g = segc_xmalloc(n * sizeof(segc_poly));
	for (m = 0; m < n; m++)
		segc_poly_init(&g[m], body->num.nvars);
	segc_rf_init(&a);
	segc_rf_init(&b);
	segc_rf_init(&one);
	segc_rf_set_si(st, &one, 1);
	rc = antidifference(st, g, &body->num, v, deg);
	if (rc == 0)
		rc = horner(st, &a, g, n, hi);
	if (rc == 0)
		rc = segc_rf_sub(st, &b, lo, &one);
	if (rc == 0)
		rc = horner(st, &b, g, n, &b);
	if (rc == 0)
		rc = segc_rf_sub(st, &a, &a, &b);
	segc_poly_set(&one.num, &body->den);
	if (rc == 0)
		rc = segc_rf_div(st, r, &a, &one);
	for (m = 0; m < n; m++)
		segc_poly_clear(&g[m]);
	free(g);
	segc_rf_clear(&a);
	segc_rf_clear(&b);
	segc_rf_clear(&one);
	return rc;
}

/* Non-zero when the body 'r' is a polynomial in x_v that Faulhaber's
 * formula can sum: 'name' not inside any other atom, not in the
 * denominator, no negative power. */
static int summable(segc_canon *st, const segc_rf *r, size_t v,
	const char *name)
{
	size_t w;

	if (v != (size_t)-1 && (segc_poly_has_var(&r->den, v) ||
		segc_poly_min_degree(&r->num, v) < 0))
		return 0;
	for (w = 0; w < r->num.nvars || w < r->den.nvars; w++) {
		if (w == v || !(segc_poly_has_var(&r->num, w) ||
			segc_poly_has_var(&r->den, w)))
			continue;
		if (segc_expr_has_sym(st->atoms[w], name))
			return 0;
	}
	return 1;
}

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

/* The atom SUM(_s<k>, lo, hi, body) for a body that is not summable. */
static int sum_atom(segc_canon *st, segc_rf *r, const segc_expr *e,
	segc_rf *body)
{
	segc_expr *b = segc_canon_from_rf(st, body), *lo, *hi, *s;
	segc_expr_map memo;
	unsigned long k;
	char name[32];

	if (!b)
		return -1;
	segc_expr_map_init(&memo);
	k = sum_depth(b, &memo) + 1;
	segc_expr_map_clear(&memo);
	do
		snprintf(name, sizeof(name), "_s%lu", k++);
	while (strcmp(name, e->u.name) && segc_expr_has_sym(b, name));
	if (strcmp(name, e->u.name)) {
		s = segc_expr_sym(name);
		b = segc_expr_subst(b, e->u.name, s);
		segc_expr_free(s);
		s = segc_canon_expr(st, b);
		segc_expr_free(b);
		if (!(b = s))
			return -1;
	}
	lo = segc_canon_expr(st, e->args[0]);
	hi = segc_canon_expr(st, e->args[1]);
	if (!lo || !hi) {
		segc_expr_free(lo);
		segc_expr_free(hi);
		segc_expr_free(b);
		return -1;
	}
	s = segc_expr_sum(name, lo, hi, b);
	segc_poly_set_var(&r->num, segc_canon_var(st, s), 1);
	segc_poly_set_si(&r->den, 1);
	segc_expr_free(s);
	return 0;
}

/* The variable of the name 'name' if it is already an atom, else -1. */
static size_t var_of_name(segc_canon *st, const char *name)
{
	segc_expr *sym = segc_expr_sym(name);
	void **slot = segc_expr_map_find(&st->atom_index, sym);

	segc_expr_free(sym);
	return slot ? (size_t)(*slot) - 1 : (size_t)-1;
}

/* r = the sum node 'e' (see canon_private.h). */
int segc_sum_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_rf body, lo, hi;
	size_t v;
	int rc;

	segc_rf_init(&body);
	segc_rf_init(&lo);
	segc_rf_init(&hi);
	rc = segc_canon_to_rf(st, e->args[2], &body);
	if (rc == 0)
		rc = segc_canon_to_rf(st, e->args[0], &lo);
	if (rc == 0)
		rc = segc_canon_to_rf(st, e->args[1], &hi);
	if (rc == 0) {
		v = var_of_name(st, e->u.name);
		if (!summable(st, &body, v, e->u.name))
			rc = sum_atom(st, r, e, &body);
		else if (v == (size_t)-1 || !segc_poly_has_var(&body.num, v))
			rc = closed_form(st, r, &body, (size_t)-1 / 2, &lo, &hi);
		else
			rc = closed_form(st, r, &body, v, &lo, &hi);
	}
	segc_rf_clear(&body);
	segc_rf_clear(&lo);
	segc_rf_clear(&hi);
	return rc;
}
