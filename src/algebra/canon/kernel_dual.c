/* kernel_dual.c - max and min turned into each other.
 *
 * For any T, max(u_1, ..., u_n) = T - min(T - u_1, ..., T - u_n) and
 * min(v_1, ..., v_n) = T - max(T - v_1, ..., T - v_n).  With T the termwise
 * maximum of the polynomial alternatives (for each monomial its largest
 * coefficient, an absent monomial counting as 0), the alternatives T - u_j
 * of a normal max (each monomial >= 0 everywhere and 0 somewhere,
 * doc/algebra.md section 3) are those of a normal min, whose termwise
 * maximum is T again: the dual of the dual is the extremum itself.
 *
 * In a polynomial A + c*E, with E an extremum atom that occurs in that one
 * term only and c a number, E is replaced by its dual where that gives
 * fewer terms: A + c*T - c*D.  On a tie the form with fewer extremum
 * atoms is kept (max(x, y) + min(x, y) is x + y), then the one with a
 * max.  The
 * choice depends only on the value of the polynomial, so -max(x, a) and
 * min(-x, -a) (whose normal form is -a - x + min(a, x)) get the same form,
 * -max(a, x), and x + y - min(x, y) becomes max(x, y); a min alone stays a
 * min.  Sound for every value of the names: only the identity above is
 * used. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "base/util.h"

/* The one term of 'p' that holds variable 'v': its index when that term
 * is exactly a number times x_v; (size_t)-1 otherwise. */
static size_t lone_term(const segc_poly *p, size_t v)
{
	size_t i, w, at = (size_t)-1;

	for (i = 0; i < segc_poly_nterms(p); i++) {
		if (!segc_poly_exp(p, i, v))
			continue;
		if (at != (size_t)-1)
			return (size_t)-1;
		at = i;
	}
	if (at == (size_t)-1 || segc_poly_exp(p, at, v) != 1)
		return (size_t)-1;
	for (w = 0; w < segc_poly_nvars(p); w++)
		if (w != v && segc_poly_exp(p, at, w))
			return (size_t)-1;
	return at;
}

/* u = the alternatives of extremum atom 'm' as polynomials, T their
 * termwise maximum; 0, 1 when an alternative is not a polynomial, -1 on
 * an error. */
static int alternatives(segc_canon *st, const segc_expr *m, segc_rf *u,
	segc_poly *t)
{
	size_t j;
	segc_poly neg;
	int rc = 0;

	segc_poly_init(&neg, 0);
	for (j = 0; j < m->nargs && rc == 0; j++) {
		rc = segc_canon_to_rf(st, segc_args(m)[j], &u[j]);
		if (rc == 0 && !segc_rf_is_poly(&u[j]))
			rc = 1;
		if (rc)
			break;
		segc_poly_set(&neg, &u[j].num);
		segc_poly_neg(&neg);
		if (j == 0)
			segc_poly_set(t, &neg);
		else
			segc_kernel_min_terms(t, &neg);
	}
	segc_poly_neg(t);
	segc_poly_clear(&neg);
	return rc;
}

/* Non-zero when 'p' holds an extremum atom of the other kind than
 * 'ismax' (which the dual may cancel). */
static int other_kind(segc_canon *st, const segc_poly *p, int ismax)
{
	size_t v, n = segc_poly_nvars(p);
	char *used = segc_xmalloc(n ? n : 1);
	int found = 0;

	segc_poly_used_vars(p, used);
	for (v = 0; v < n && !found; v++)
		found = used[v] && (st->flags[v] & SEGC_ATOM_EXTREMUM) &&
			segc_kernel_extremum_kind(st->atoms[v], ismax) < 0;
	free(used);
	return found;
}

/* The number of extremum atoms in 'p'. */
static size_t extrema_in(segc_canon *st, const segc_poly *p)
{
	size_t v, n = segc_poly_nvars(p), k = 0;
	char *used = segc_xmalloc(n ? n : 1);

	segc_poly_used_vars(p, used);
	for (v = 0; v < n; v++)
		k += used[v] && (st->flags[v] & SEGC_ATOM_EXTREMUM);
	free(used);
	return k;
}

/* Non-zero when the dual form 'q' is to be preferred to 'p', in which
 * the extremum is a max ('ismax') or a min: fewer terms, then fewer
 * extremum atoms, then a max. */
static int better(segc_canon *st, const segc_poly *q, const segc_poly *p,
	int ismax)
{
	size_t eq, ep;

	if (segc_poly_nterms(q) != segc_poly_nterms(p))
		return segc_poly_nterms(q) < segc_poly_nterms(p);
	eq = extrema_in(st, q);
	ep = extrema_in(st, p);
	if (eq != ep)
		return eq < ep;
	return !ismax;
}

/* p' = A + c*T - c*D for the extremum atom of variable 'v' in the term
 * 'at' of 'r' (coefficient c); 0 with 'out' set, 1 when the dual cannot
 * give fewer terms (or a tie won by a max), -1 on an error. */
static int dual_of(segc_canon *st, segc_rf *r, size_t v, size_t at,
	segc_poly *out)
{
	const segc_expr *m = st->atoms[v];
	int ismax = segc_expr_is_builtin(m, SEGC_BUILTIN_MAX);
	size_t j, k = m->nargs;
	segc_rf *u = segc_xcalloc(k, sizeof(*u)), d, w;
	segc_expr **args = segc_xcalloc(k, sizeof(*args)), *de = NULL;
	segc_poly t, a;
	mpq_t c;
	int rc;

	mpq_init(c);
	mpq_set(c, segc_poly_coeff(&r->num, at));
	segc_poly_init(&t, 0);
	segc_poly_init(&a, 0);
	segc_rf_init(&d);
	segc_rf_init(&w);
	for (j = 0; j < k; j++)
		segc_rf_init(&u[j]);
	rc = alternatives(st, m, u, &t);
	if (rc == 0) {
		/* a = A + c*T, A the terms of r other than c*E */
		segc_poly ct;

		segc_poly_init(&ct, 0);
		segc_poly_set(&ct, &t);
		segc_poly_scale(&ct, c);
		segc_poly_coeff_var(&a, &r->num, v, 0);
		rc = segc_poly_add(&st->lim, &a, &a, &ct);
		segc_poly_clear(&ct);
		if (rc == 0 &&
			segc_poly_nterms(&a) > segc_poly_nterms(&r->num) - 1 &&
			!other_kind(st, &a, ismax))
			rc = 1;
	}
	for (j = 0; j < k && rc == 0; j++) {
		/* the alternatives T - u_j of the dual */
		segc_rf_set_si(st, &w, 0);
		segc_poly_set(&w.num, &t);
		rc = segc_poly_sub(&st->lim, &w.num, &w.num, &u[j].num);
		if (rc == 0)
			args[j] = segc_canon_from_rf(st, &w);
		if (rc == 0 && !args[j])
			rc = -1;
	}
	if (rc == 0) {
		de = segc_kernel_extremum(st, ismax ? "min" : "max", k, args,
			!ismax);
		memset(args, 0, k * sizeof(*args));
		rc = de ? segc_canon_to_rf(st, de, &d) : -1;
	}
	if (rc == 0 && !segc_rf_is_poly(&d))
		rc = 1;
	if (rc == 0) {
		segc_poly_scale(&d.num, c);
		rc = segc_poly_sub(&st->lim, &a, &a, &d.num);
	}
	if (rc == 0 && !better(st, &a, &r->num, ismax))
		rc = 1;
	if (rc == 0)
		segc_poly_swap(out, &a);
	segc_expr_free(de);
	for (j = 0; j < k; j++) {
		segc_expr_free(args[j]);
		segc_rf_clear(&u[j]);
	}
	free(args);
	free(u);
	segc_rf_clear(&d);
	segc_rf_clear(&w);
	segc_poly_clear(&t);
	segc_poly_clear(&a);
	mpq_clear(c);
	return rc;
}

/* See kernel_private.h. */
int segc_kernel_dual(segc_canon *st, segc_rf *r)
{
	size_t v, n = segc_poly_nvars(&r->num), at, nv = 0, i;
	size_t *vars = segc_xcalloc(n ? n : 1, sizeof(size_t));
	char *used = segc_xmalloc(n ? n : 1);
	segc_poly out;
	int rc = 0;

	/* the variables present, in one pass over the terms */
	segc_poly_used_vars(&r->num, used);
	for (v = 0; v < n; v++)
		if (used[v] && st->flags[v] & SEGC_ATOM_EXTREMUM)
			vars[nv++] = v;
	free(used);
	segc_poly_init(&out, 0);
	st->mode.combining++;
	for (i = 0; i < nv && rc >= 0; i++) {
		v = vars[i];
		if (v >= segc_poly_nvars(&r->num) ||
			(at = lone_term(&r->num, v)) == (size_t)-1)
			continue;
		rc = dual_of(st, r, v, at, &out);
		if (rc == 0)
			segc_poly_swap(&r->num, &out);
	}
	st->mode.combining--;
	segc_poly_clear(&out);
	free(vars);
	return rc < 0 ? -1 : 0;
}
