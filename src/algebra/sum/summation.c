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
 * range depends on i), or a max or min of i, is split where it changes
 * (summation_split.c).  Every range a sum is taken over gets a fresh
 * counter declared with the bounds of that range only.
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
#include "algebra/canon/canon_private.h"
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
void segc_sum_push_counter(segc_canon *st, const char *name)
{
	if (st->nbound == st->capbound) {
		st->capbound = st->capbound ? 2 * st->capbound : 4;
		st->bound = segc_xrealloc(st->bound,
			segc_xmul_size(st->capbound, sizeof(*st->bound)));
	}
	st->bound[st->nbound++] = name;
}

void segc_sum_pop_counter(segc_canon *st)
{
	st->nbound--;
}

/* r = the canonical form of 'e' (taken) with 'name' a counter. */
int segc_sum_counter_to_rf(segc_canon *st, const char *name, segc_expr *e,
	segc_rf *r)
{
	int rc;

	segc_sum_push_counter(st, name);
	rc = segc_canon_to_rf(st, e, r);
	segc_sum_pop_counter(st);
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
		if ((k = sum_depth(segc_args(e)[i], memo)) > d)
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

static segc_expr *rel(const char *op, segc_expr *a, segc_expr *b);

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
		/* a body free of the counter is a product after all, of
		 * the count of a range that may be empty: if(hi - lo + 1 >=
		 * 0, (hi - lo + 1)*b, 0) (the count alone is negative below
		 * an empty range, and its canonical form lost the piece that
		 * held the counter) */
		segc_expr *n = segc_expr_add2(segc_expr_sub2(
			segc_expr_copy(hi), segc_expr_copy(lo)),
			segc_expr_int(1)), *c, *z = segc_expr_int(0);

		c = rel(">=", segc_expr_copy(n), segc_expr_int(0));
		s = segc_expr_mul2(n, b);
		rc = segc_if_make(st, r, c, s, z);
		segc_expr_free(s);
		segc_expr_free(c);
		segc_expr_free(z);
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
	s = segc_expr_sum(fresh, segc_expr_copy(lo),
		segc_expr_copy(hi), b);
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

/* --------------------------------------------------------- the sums */

/* A relation node 'op'(a, b), taking both. */
static segc_expr *rel(const char *op, segc_expr *a, segc_expr *b)
{
	segc_expr *v[2];

	v[0] = a;
	v[1] = b;
	return segc_expr_call(op, 2, v);
}

/* Non-zero when 'r' is a polynomial in names only: its canonical
 * expression converts back to 'r' itself, as no root, kernel or if of
 * the normal form (canon_normal.c) applies to it. */
static int names_poly(segc_canon *st, const segc_rf *r)
{
	size_t w;

	if (!segc_rf_is_poly(r))
		return 0;
	for (w = 0; w < segc_poly_nvars(&r->num); w++)
		if (st->atoms[w]->kind != SEGC_SYM &&
		    segc_poly_has_var(&r->num, w))
			return 0;
	return 1;
}

/* r = the closed form of the sum of the polynomial body 'p' (over the
 * denominator 'den', free of the counter) over [lo, hi], valid where
 * hi - lo + 1 >= 0, as if(hi - lo + 1 >= 0, G(hi) - G(lo - 1), 0).
 * When the domains decide the condition and G is a polynomial in names
 * (a nest of loops over counters), the result is G or 0 as it is, with
 * no round trip through its expression, the cost of deep nests. */
static int closed_sum(segc_canon *st, segc_rf *r, const char *name,
	const segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi)
{
	segc_rf l, h, g;
	segc_expr *ge = NULL, *c, *z;
	size_t v = segc_sum_var_of_name(st, name);
	int rc, truth = -1;

	segc_rf_init(&l);
	segc_rf_init(&h);
	segc_rf_init(&g);
	rc = segc_canon_to_rf(st, lo, &l);
	if (rc == 0)
		rc = segc_canon_to_rf(st, hi, &h);
	if (rc == 0)
		rc = segc_sum_closed_form(st, &g, p, den, v == (size_t)-1 ||
			!segc_poly_has_var(p, v) ? (size_t)-1 / 2 : v,
			&l, &h);
	c = rel(">=", segc_expr_add2(segc_expr_sub2(segc_expr_copy(hi),
		segc_expr_copy(lo)), segc_expr_int(1)), segc_expr_int(0));
	if (rc == 0 && names_poly(st, &g)) {
		z = segc_cond_canon(st, c, 0, &truth);
		segc_expr_free(z);
		if (truth == -2)
			rc = -1;
		else if (truth == 1) {
			segc_poly_swap(&r->num, &g.num);
			segc_poly_swap(&r->den, &g.den);
			segc_poly_trim(&r->num);
		} else if (truth == 0)
			segc_rf_set_si(st, r, 0);
	}
	if (rc == 0 && truth == -1 && !(ge = segc_canon_from_rf(st, &g)))
		rc = -1;
	if (rc == 0 && truth == -1) {
		z = segc_expr_int(0);
		rc = segc_if_make(st, r, c, ge, z);
		segc_expr_free(z);
	}
	segc_expr_free(c);
	segc_expr_free(ge);
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

	for (w = 0; w < segc_poly_nvars(p); w++) {
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
	if (t->kind == SEGC_MUL && t->nargs &&
		segc_args(t)[0]->kind == SEGC_ADD)
		t = segc_args(t)[0];
	if (t->kind == SEGC_ADD)
		t = segc_args(t)[0];
	neg = (t->kind == SEGC_NUM && mpq_sgn(t->u.value) < 0) ||
		(t->kind == SEGC_MUL && segc_args(t)[0]->kind == SEGC_NUM &&
		mpq_sgn(segc_args(t)[0]->u.value) < 0);
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
	size_t w, n = segc_poly_nvars(p), v = segc_sum_var_of_name(st, name);
	int32_t *mins = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_rf body, f;
	mpq_t scale;
	int rc;

	segc_poly_min_exps(p, mins);
	for (w = 0; w < segc_poly_nvars(p); w++)
		if (w == v || segc_sum_holds_counter(st, w, name) || mins[w] < 0)
			mins[w] = 0;
	segc_rf_init(&body);
	segc_rf_init(&f);
	mpq_init(scale);
	segc_poly_set(&body.num, p);
	segc_poly_set(&body.den, den);
	for (w = 0; w < n; w++)
		mins[w] = -mins[w];
	rc = segc_poly_shift(&st->lim, &body.num, mins, n);
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
		for (w = 0; w < n; w++)
			mins[w] = -mins[w];
		segc_poly_set_q(&body.num, scale);
		segc_poly_set_si(&body.den, 1);
		rc = segc_poly_shift(&st->lim, &body.num, mins, n);
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
	unsigned long q = st->mode.quasi ? 0 : segc_sum_quasi_period(st, p, name);

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

	for (w = 0; w < segc_poly_nvars(&body->den); w++)
		if (segc_poly_has_var(&body->den, w) && (w == v ||
			segc_sum_holds_counter(st, w, name)))
			return segc_sum_normal_atom(st, r, name, body, lo, hi);
	for (i = 0; i < segc_poly_nterms(&body->num); i++)
		if (!clean_term(st, &body->num, i, v, name))
			break;
	/* every term has a closed form */
	if (i == segc_poly_nterms(&body->num))
		return closed_sum(st, r, name, &body->num, &body->den, lo, hi);
	segc_poly_init(&clean, segc_poly_nvars(&body->num));
	segc_poly_init(&dirty, segc_poly_nvars(&body->num));
	for (i = 0; i < segc_poly_nterms(&body->num); i++)
		segc_poly_push_term(clean_term(st, &body->num, i, v, name) ?
			&clean : &dirty, &body->num, i, NULL);
	segc_poly_normalise(NULL, &clean);
	segc_poly_normalise(NULL, &dirty);
	segc_rf_init(&a);
	segc_rf_init(&b);
	if (segc_poly_nterms(&clean) || !segc_poly_nterms(&dirty))
		rc = closed_sum(st, &a, name, &clean, &body->den, lo, hi);
	if (rc == 0 && segc_poly_nterms(&dirty))
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
	segc_expr *d = segc_expr_sub2(segc_expr_copy(e),
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

static int range_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi);

/* The representative of 'x' in the union-find forest 'up'. */
static size_t group_root(size_t *up, size_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/* r = the sum over [lo, hi] of 'body' taken apart into groups of terms
 * that share no piece of the counter (summation_split.c): terms that
 * hold max(i, j) and terms that hold min(j, 3) are summed on their own,
 * each split only where its own pieces change, and the sums added.
 * Splitting the whole body at every piece would split each term at the
 * breakpoints of all the others, and the piecewise results of nested
 * sums multiply: the pieces of the sum are the products of those of its
 * terms.  1 when the body is one group (or a piece is in the
 * denominator, which every term shares), -1 on error. */
static int sum_by_groups(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	size_t w, i, n = segc_poly_nvars(&body->num), *up, groups = 0;
	size_t t = segc_poly_nterms(&body->num), *of;
	char *piece;
	segc_rf part, sum;
	int rc = 1;

	if (t < 2 || n == 0)
		return 1;
	piece = segc_xcalloc(n, 1);
	for (w = 0; w < n; w++)
		if (segc_sum_is_piece(st, body, w, name)) {
			if (segc_poly_has_var(&body->den, w)) {
				free(piece);
				return 1;
			}
			piece[w] = 1;
		}
	/* variables 0 .. n-1, and n for the terms without a piece */
	up = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*up)));
	of = segc_xmalloc(segc_xmul_size(t, sizeof(*of)));
	for (w = 0; w <= n; w++)
		up[w] = w;
	for (i = 0; i < t; i++) {
		size_t first = n;

		for (w = 0; w < n; w++) {
			if (!piece[w] || !segc_poly_exp(&body->num, i, w))
				continue;
			if (first == n)
				first = w;
			else
				up[group_root(up, w)] = group_root(up, first);
		}
		of[i] = first;
	}
	for (i = 0; i < t; i++)
		of[i] = group_root(up, of[i]);
	/* the groups, in the order of their first terms */
	for (w = 0; w <= n; w++)
		up[w] = 0;
	for (i = 0; i < t; i++)
		if (!up[of[i]]++)
			groups++;
	if (groups >= 2) {
		segc_rf_init(&part);
		segc_rf_init(&sum);
		segc_rf_set_si(st, r, 0);
		rc = 0;
		for (i = 0; i < t && rc == 0; i++) {
			size_t g = of[i], k;

			if (!up[g])
				continue;	/* summed with an earlier term */
			up[g] = 0;
			segc_poly_clear(&part.num);
			segc_poly_init(&part.num, n);
			for (k = i; k < t; k++)
				if (of[k] == g)
					segc_poly_push_term(&part.num,
						&body->num, k, NULL);
			rc = segc_poly_normalise(&st->lim, &part.num);
			segc_poly_set(&part.den, &body->den);
			if (rc == 0)
				rc = range_sum(st, &sum, name, &part, lo, hi);
			if (rc == 0)
				rc = segc_rf_add(st, r, r, &sum);
		}
		segc_rf_clear(&part);
		segc_rf_clear(&sum);
	}
	free(of);
	free(up);
	free(piece);
	return rc;
}

/* r = the sum of 'body' (a rational function in which the counter 'name'
 * is a name) over the integers of [lo, hi], integer bounds; the counter
 * has its own name, declared with the range. */
static int range_sum(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi)
{
	size_t w, n = segc_poly_nvars_max(&body->num, &body->den);
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
	/* terms that share no piece: each group summed on its own */
	if ((rc = sum_by_groups(st, r, name, body, lo, hi)) != 1)
		return rc;
	/* first an if that one side covers: it goes away at no cost */
	for (w = 0; w < n && rc == 1; w++)
		if (segc_sum_is_piece(st, body, w, name) &&
			segc_sum_piece_decided(st, w, name, lo, hi)) {
			ifs = 1;
			rc = segc_sum_split_piece(st, r, name, body, w, lo, hi);
		}
	for (w = 0; w < n && rc == 1; w++)
		if (segc_sum_is_piece(st, body, w, name)) {
			if (segc_expr_is_builtin(st->atoms[w], SEGC_BUILTIN_IF))
				ifs = 1;
			rc = segc_sum_split_piece(st, r, name, body, w, lo, hi);
		}
	if (rc == 1 && !ifs)
		/* no if, and no max or min that could be split: the terms
		 * with a closed form summed so, the others left as a sum */
		return plain_sum(st, r, name, body, lo, hi);
	if (rc == 1 && !st->mode.quasi && (q = segc_sum_body_period(st, body, name)) != 0)
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
	int rc = -1, stage = st->mode.sum_stage, splits = st->mode.splits;
	char name[32];

	/* The counter is a bound name whose only range is [lo, hi]: it gets
	 * a fresh name with that range (fresh_counter) */
	st->mode.sum_stage = 0;
	st->mode.splits = 0;
	segc_rf_init(&body);
	lo = segc_sum_rounded(st, SEGC_BUILTIN_CEIL, segc_args(e)[0]);
	hi = lo ? segc_sum_rounded(st, SEGC_BUILTIN_FLOOR, segc_args(e)[1])
		: NULL;
	if (hi) {
		fresh_counter(st, name, sizeof name, e, lo, hi);
		v = segc_expr_sym(name);
		b = segc_expr_subst(segc_expr_copy(segc_args(e)[2]), e->u.name,
			v);
		segc_expr_free(v);
		rc = segc_sum_counter_to_rf(st, name, b, &body);
		if (rc == 0 && st->mode.check_only && (lo->kind != SEGC_NUM ||
		    hi->kind != SEGC_NUM))
			segc_rf_atom(st, r, (segc_expr *)e);
		else if (rc == 0)
			rc = range_sum(st, r, name, &body, lo, hi);
	}
	segc_expr_free(lo);
	segc_expr_free(hi);
	segc_rf_clear(&body);
	st->mode.sum_stage = stage;
	st->mode.splits = splits;
	return rc;
}
