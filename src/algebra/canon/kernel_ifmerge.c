/* kernel_ifmerge.c - one if per condition in a polynomial: the ifs of a
 * sum that test the same canonical condition become one,
 * K1*if(c, a1, b1) + K2*if(c, a2, b2) = if(c, K1*a1 + K2*a2, K1*b1 + K2*b2),
 * where each coefficient K is free of ifs and each if stands alone and to
 * the first power in its terms.  The group of a condition is merged
 * whole, so the result does not depend on the order in which its ifs
 * were met.  A sum of pieces split at one breakpoint then prints as one
 * piecewise formula, if(N >= 3, 4*N - 6, N*(N + 1)/2)*t, not as two ifs
 * on one condition. */
#include <stdlib.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* How many groups one polynomial may merge (each round merges one). */
#define SEGC_IF_MERGE_ROUNDS 16

/* Non-zero when variable 'v' is an if atom. */
static int is_if(const segc_canon *st, size_t v)
{
	return v < st->natoms && st->atoms[v]->nargs == 3 &&
		segc_expr_is_builtin(st->atoms[v], SEGC_BUILTIN_IF);
}

/* ok[v] = 1 for the if atoms of 'p' that may merge: in each term that has
 * one, it is the only if and has exponent 1. */
static void mark_mergeable(const segc_canon *st, const segc_poly *p,
	char *ok)
{
	size_t i, v, n = segc_poly_nvars(p);
	char *bad = segc_xcalloc(n ? n : 1, 1);

	for (v = 0; v < n; v++)
		ok[v] = 0;
	for (i = 0; i < segc_poly_nterms(p); i++) {
		size_t count = 0;

		for (v = 0; v < n; v++) {
			int32_t e = segc_poly_exp(p, i, v);

			if (e && is_if(st, v)) {
				count++;
				ok[v] = 1;
				bad[v] |= e != 1;
			}
		}
		if (count > 1)
			for (v = 0; v < n; v++)
				if (segc_poly_exp(p, i, v) && is_if(st, v))
					bad[v] = 1;
	}
	for (v = 0; v < n; v++)
		ok[v] &= !bad[v];
	free(bad);
}

/* The first condition (by variable) that two mergeable ifs share: the
 * lowest variable of that group, or (size_t)-1. */
static size_t first_group(const segc_canon *st, size_t n, const char *ok)
{
	size_t v, w;

	for (v = 0; v < n; v++)
		for (w = v + 1; ok[v] && w < n; w++)
			if (ok[w] && segc_args(st->atoms[w])[0] ==
				segc_args(st->atoms[v])[0])
				return v;
	return (size_t)-1;
}

/* The expression of the polynomial 'p' (borrowed), or NULL. */
static segc_expr *poly_expr(segc_canon *st, const segc_poly *p)
{
	segc_rf t;
	segc_expr *e;

	segc_rf_init(&t);
	segc_poly_set(&t.num, p);
	e = segc_canon_from_rf(st, &t);
	segc_rf_clear(&t);
	return e;
}

/* Merges the group of the if 'v0' in 'r': 0, or -1 with a diagnostic. */
static int merge_group(segc_canon *st, segc_rf *r, size_t v0,
	const char *ok)
{
	const segc_expr *cond = segc_args(st->atoms[v0])[0];
	size_t v, n = segc_poly_nvars(&r->num), na = 0;
	segc_expr **as = segc_xmalloc(n * sizeof(*as));
	segc_expr **bs = segc_xmalloc(n * sizeof(*bs));
	segc_expr *args[3], *e = NULL;
	segc_rf rest, t;
	segc_poly K;
	int rc = 0;

	segc_rf_init(&rest);
	segc_rf_init(&t);
	segc_poly_init(&K, 0);
	segc_poly_set(&rest.num, &r->num);
	for (v = v0; v < n && rc == 0; v++) {
		segc_expr *k;
		segc_poly z;

		if (!ok[v] || segc_args(st->atoms[v])[0] != cond)
			continue;
		segc_poly_coeff_var(&K, &rest.num, v, 1);
		segc_poly_init(&z, 0);
		segc_poly_coeff_var(&z, &rest.num, v, 0);
		segc_poly_swap(&z, &rest.num);
		segc_poly_clear(&z);
		k = poly_expr(st, &K);
		if (!k) {
			rc = -1;
			break;
		}
		as[na] = segc_expr_mul2(segc_expr_copy(k),
			segc_expr_copy(segc_args(st->atoms[v])[1]));
		bs[na++] = segc_expr_mul2(k,
			segc_expr_copy(segc_args(st->atoms[v])[2]));
	}
	if (rc == 0) {
		args[0] = segc_expr_copy(cond);
		args[1] = segc_expr_add(na, as);
		args[2] = segc_expr_add(na, bs);
		na = 0;
		e = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
		rc = segc_if_to_rf(st, e, &t);
	}
	if (rc == 0)
		rc = segc_rf_add(st, r, &rest, &t);
	for (v = 0; v < na; v++) {
		segc_expr_free(as[v]);
		segc_expr_free(bs[v]);
	}
	segc_expr_free(e);
	free(as);
	free(bs);
	segc_poly_clear(&K);
	segc_rf_clear(&rest);
	segc_rf_clear(&t);
	return rc ? -1 : 0;
}

/* See canon_private.h. */
int segc_kernel_if_merge(segc_canon *st, segc_rf *r)
{
	int round, rc = 0;

	if (!st->has_ifs)
		return 0;   /* no if to merge */
	for (round = 0; round < SEGC_IF_MERGE_ROUNDS && rc == 0; round++) {
		size_t n = segc_poly_nvars(&r->num), v;
		char *ok;

		if (!segc_rf_is_poly(r) || n == 0)
			break;
		ok = segc_xmalloc(n);
		mark_mergeable(st, &r->num, ok);
		v = first_group(st, n, ok);
		if (v != (size_t)-1)
			rc = merge_group(st, r, v, ok);
		free(ok);
		if (v == (size_t)-1)
			break;
	}
	return rc;
}
