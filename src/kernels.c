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

/* The normal form of max and min (doc/algebra.md): the arguments are
 * brought to a flat list of alternatives, each a rational function free of
 * distributable extrema; provably dominated alternatives are dropped; the
 * part common to all of them is taken out; what stays is sorted.
 *
 *   distribution  c + K*max(x, y) = max(c + K*x, c + K*y) for K >= 0
 *                 c + K*min(x, y) = max(c + K*x, c + K*y) for K <= 0
 *                 (the same for min with the kinds exchanged);
 *   extraction    max(a + x, a + y) = a + max(x, y), and
 *                 max(g*m*x, g*m*y) = g*m*max(x, y) for a number g > 0 and
 *                 a monomial m >= 0 on the domains;
 *                 where a is the termwise minimum of the alternatives (an
 *                 absent monomial counting as 0).
 * max and min are not turned into each other: -max(x, y) and min(-x, -y)
 * stay different forms. */

/* More alternatives than this are not distributed further, and sums of
 * extrema whose product would have more are not combined. */
#define EXTREMUM_MAX_ALTS 128

/* One alternative of a max/min being normalised. */
struct alt {
	segc_rf r;
	segc_expr *e;   /* its canonical expression, once built */
};

/* A growable list of alternatives. */
struct alts {
	struct alt *v;
	size_t n, cap;
};

/* Appends 'x' (moved) to 'a'. */
static void alts_append(struct alts *a, const struct alt *x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = segc_xrealloc(a->v, segc_xmul_size(a->cap, sizeof(*a->v)));
	}
	a->v[a->n++] = *x;
}

/* A new zero alternative at the end of 'a'. */
static struct alt *alts_push(struct alts *a)
{
	struct alt x;

	segc_rf_init(&x.r);
	x.e = NULL;
	alts_append(a, &x);
	return &a->v[a->n - 1];
}

/* Releases the alternatives of 'a'. */
static void alts_clear(struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		segc_rf_clear(&a->v[i].r);
		segc_expr_free(a->v[i].e);
	}
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* 1 when atom 'a' is an extremum of the same kind as the one normalised
 * (ismax), -1 of the other kind, 0 otherwise. */
static int extremum_kind(const segc_expr *a, int ismax)
{
	if (is_call(a, "max"))
		return ismax ? 1 : -1;
	if (is_call(a, "min"))
		return ismax ? -1 : 1;
	return 0;
}

/* A variable of the polynomial 'r' that distributes into an extremum of
 * kind 'ismax': an extremum atom in which 'r' is linear, with a
 * coefficient K (set) provably >= 0 for the same kind, <= 0 for the
 * other.  Returns (size_t)-1 when there is none. */
static size_t find_distributable(segc_canon *st, segc_rf *r, int ismax,
	segc_rf *K)
{
	size_t v;

	if (!segc_rf_is_poly(r))
		return (size_t)-1;
	for (v = 0; v < r->num.nvars; v++) {
		int kind = extremum_kind(st->atoms[v], ismax);

		if (!kind || segc_poly_degree(&r->num, v) != 1 ||
			segc_poly_min_degree(&r->num, v) < 0)
			continue;
		segc_poly_coeff_var(&K->num, &r->num, v, 1);
		segc_poly_set_si(&K->den, 1);
		if (segc_kernel_sign(st, K) &
			(kind > 0 ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS))
			return v;
	}
	return (size_t)-1;
}

/* Pushes on 'work' the alternatives rest + K*x_j of 'r' = rest + K*M,
 * M = atom v with arguments x_j. */
static int distribute(segc_canon *st, segc_rf *r, size_t v, segc_rf *K,
	struct alts *work)
{
	const segc_expr *m = st->atoms[v];
	segc_rf rest, x;
	size_t j;
	int rc = 0;

	segc_rf_init(&rest);
	segc_rf_init(&x);
	segc_poly_coeff_var(&rest.num, &r->num, v, 0);
	for (j = 0; j < m->nargs && rc == 0; j++) {
		rc = segc_canon_to_rf(st, m->args[j], &x);
		if (rc == 0)
			rc = segc_rf_mul(st, &x, &x, K);
		if (rc == 0)
			rc = segc_rf_add(st, &alts_push(work)->r, &rest, &x);
	}
	segc_rf_clear(&rest);
	segc_rf_clear(&x);
	return rc;
}

/* Moves the alternatives of 'work' (emptied) into 'out', distributing
 * every distributable extremum (up to EXTREMUM_MAX_ALTS alternatives). */
static int flatten_alts(segc_canon *st, struct alts *work, int ismax,
	struct alts *out)
{
	segc_rf K;
	size_t total = work->n;
	int rc = 0;

	segc_rf_init(&K);
	while (rc == 0 && work->n) {
		struct alt a = work->v[--work->n];
		size_t v = total < EXTREMUM_MAX_ALTS ?
			find_distributable(st, &a.r, ismax, &K) : (size_t)-1;

		if (v == (size_t)-1) {
			alts_append(out, &a);
			continue;
		}
		total += st->atoms[v]->nargs - 1;
		rc = distribute(st, &a.r, v, &K, work);
		segc_rf_clear(&a.r);
	}
	segc_rf_clear(&K);
	return rc;
}

/* qsort order of alternatives by their canonical expressions. */
static int alt_cmp(const void *a, const void *b)
{
	return segc_expr_cmp(((const struct alt *)a)->e,
		((const struct alt *)b)->e);
}

/* Builds the canonical expression of every alternative, sorts them and
 * drops duplicates. */
static int sort_alts(segc_canon *st, struct alts *a)
{
	size_t i, m = 0;

	for (i = 0; i < a->n; i++) {
		segc_expr_free(a->v[i].e);
		a->v[i].e = segc_canon_from_rf(st, &a->v[i].r);
		if (!a->v[i].e)
			return -1;
	}
	qsort(a->v, a->n, sizeof(*a->v), alt_cmp);
	for (i = 0; i < a->n; i++) {
		if (m && a->v[m - 1].e == a->v[i].e) {
			segc_rf_clear(&a->v[i].r);
			segc_expr_free(a->v[i].e);
		} else {
			a->v[m++] = a->v[i];
		}
	}
	a->n = m;
	return 0;
}

/* Non-zero when a - b provably has the sign 'want'. */
static int proves(segc_canon *st, segc_rf *a, segc_rf *b, unsigned want)
{
	segc_rf d;
	unsigned s = 0;

	segc_rf_init(&d);
	if (segc_rf_sub(st, &d, a, b) == 0)
		s = segc_kernel_sign(st, &d);
	segc_rf_clear(&d);
	return (s & want) != 0;
}

/* Drops the alternatives that another one provably dominates (in the
 * sorted order, so that the outcome is deterministic). */
static void drop_dominated(segc_canon *st, struct alts *a, int ismax)
{
	unsigned want = ismax ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS;
	char *gone = segc_xcalloc(a->n ? a->n : 1, 1);
	size_t i, j, m = 0;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < a->n && !gone[i]; j++)
			if (j != i && !gone[j] &&
				proves(st, &a->v[j].r, &a->v[i].r, want))
				gone[i] = 1;
	for (i = 0; i < a->n; i++) {
		if (gone[i]) {
			segc_rf_clear(&a->v[i].r);
			segc_expr_free(a->v[i].e);
		} else {
			a->v[m++] = a->v[i];
		}
	}
	a->n = m;
	free(gone);
}

/* Lexicographic order of term i of 'p' and term j of 'q' over 'n'
 * variables: >0 when the first is the larger monomial. */
static int term_cmp(const segc_poly *p, size_t i, const segc_poly *q,
	size_t j, size_t n)
{
	size_t v;

	for (v = 0; v < n; v++) {
		int32_t a = segc_poly_exp(p, i, v), b = segc_poly_exp(q, j, v);

		if (a != b)
			return a > b ? 1 : -1;
	}
	return 0;
}

/* c = the termwise minimum of 'c' and 'p': for each monomial the smaller
 * of its two coefficients, an absent monomial counting as 0. */
static void min_terms(segc_poly *c, const segc_poly *p)
{
	size_t n = c->nvars > p->nvars ? c->nvars : p->nvars;
	size_t i = 0, j = 0;
	int32_t *e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly r;

	segc_poly_extend(c, n);
	segc_poly_init(&r, n);
	while (i < c->len || j < p->len) {
		int k = i == c->len ? -1 : j == p->len ? 1 :
			term_cmp(c, i, p, j, n);

		if (k > 0) {
			if (mpq_sgn(c->coefs[i]) < 0)
				segc_poly_push(&r, c->exps + i * n, c->coefs[i]);
			i++;
		} else if (k < 0) {
			if (mpq_sgn(p->coefs[j]) < 0) {
				size_t v;

				for (v = 0; v < n; v++)
					e[v] = segc_poly_exp(p, j, v);
				segc_poly_push(&r, e, p->coefs[j]);
			}
			j++;
		} else {
			segc_poly_push(&r, c->exps + i * n,
				mpq_cmp(c->coefs[i], p->coefs[j]) <= 0 ?
				c->coefs[i] : p->coefs[j]);
			i++;
			j++;
		}
	}
	segc_poly_swap(c, &r);
	segc_poly_clear(&r);
	free(e);
}

/* Takes out of the polynomial alternatives their termwise minimum 'c'
 * (an absent monomial counts as 0): afterwards every monomial has
 * coefficients >= 0 in all alternatives and 0 in at least one.  Adding
 * the same polynomial to every alternative adds it to 'c' and leaves the
 * rest unchanged, which is what makes c + max(...) canonical. */
static int extract_common(segc_canon *st, struct alts *a, segc_poly *c)
{
	size_t i;
	int rc = 0;

	segc_poly_set(c, &a->v[0].r.num);
	for (i = 1; i < a->n; i++)
		min_terms(c, &a->v[i].r.num);
	for (i = 0; i < a->n && c->len && rc == 0; i++)
		rc = segc_poly_sub(&st->lim, &a->v[i].r.num, &a->v[i].r.num, c);
	return rc;
}

/* The positive content g of the alternatives (gcd of the numerators over
 * lcm of the denominators of all coefficients) and the monomial content
 * 'mexp' (n variables), limited to the atoms whose powers are provably
 * >= 0; divides every alternative by both. */
static int extract_content(segc_canon *st, struct alts *a, mpq_t g,
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
		for (k = 0; k < p->len; k++) {
			mpz_gcd(mpq_numref(g), mpq_numref(g), mpq_numref(p->coefs[k]));
			mpz_lcm(mpq_denref(g), mpq_denref(g), mpq_denref(p->coefs[k]));
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
		rc = segc_poly_shift(&st->lim, &a->v[i].r.num, mexp);
	}
	for (v = 0; v < n; v++)
		mexp[v] = -mexp[v];
	mpq_clear(inv);
	return rc;
}

/* Non-zero when every alternative is a polynomial. */
static int all_poly(const struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!segc_rf_is_poly(&a->v[i].r))
			return 0;
	return 1;
}

/* The expression c + g*x^mexp*call, with 'call' (taken) an atom. */
static segc_expr *assemble(segc_canon *st, segc_poly *c, mpq_srcptr g,
	const int32_t *mexp, size_t n, segc_expr *call)
{
	size_t v = segc_canon_var(st, call), i;
	int32_t *d = segc_xcalloc(st->natoms, sizeof(int32_t));
	segc_expr *res = NULL;
	segc_rf t;
	int rc;

	segc_expr_free(call);
	for (i = 0; i < n; i++)
		d[i] = mexp[i];
	segc_rf_init(&t);
	segc_poly_set_var(&t.num, v, 1);
	segc_poly_extend(&t.num, st->natoms);
	segc_poly_scale(&t.num, g);
	rc = segc_poly_shift(&st->lim, &t.num, d);
	if (rc == 0)
		rc = segc_poly_add(&st->lim, &t.num, &t.num, c);
	if (rc == 0)
		res = segc_canon_from_rf(st, &t);
	segc_rf_clear(&t);
	free(d);
	return res;
}

/* The call 'name' of the sorted alternatives (their expressions taken). */
static segc_expr *alts_call(const char *name, struct alts *a)
{
	segc_expr **v = segc_xmalloc(segc_xmul_size(a->n, sizeof(*v)));
	segc_expr *res;
	size_t i;

	for (i = 0; i < a->n; i++) {
		v[i] = a->v[i].e;
		a->v[i].e = NULL;
	}
	res = segc_expr_call(name, a->n, v);
	free(v);
	return res;
}

/* The polynomial alternatives of at least two: common part, content and
 * sign out, then the call. */
static segc_expr *extremum_poly(segc_canon *st, struct alts *a, int ismax)
{
	size_t n = st->natoms;
	int32_t *mexp = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_expr *res = NULL;
	segc_poly c;
	mpq_t g;
	int rc;

	segc_poly_init(&c, 0);
	mpq_init(g);
	rc = extract_common(st, a, &c);
	if (rc == 0)
		rc = extract_content(st, a, g, mexp, n);
	if (rc == 0)
		rc = sort_alts(st, a);
	if (rc == 0)
		res = assemble(st, &c, g, mexp, n,
			alts_call(ismax ? "max" : "min", a));
	segc_poly_clear(&c);
	mpq_clear(g);
	free(mexp);
	return res;
}

/* The normal form of the extremum 'name' of the alternatives 'work'
 * (emptied). */
static segc_expr *extremum_of_alts(segc_canon *st, const char *name,
	struct alts *work, int ismax)
{
	struct alts a = { NULL, 0, 0 };
	segc_expr *res = NULL;

	st->combining++;
	if (flatten_alts(st, work, ismax, &a) == 0 && sort_alts(st, &a) == 0) {
		drop_dominated(st, &a, ismax);
		if (a.n == 1) {
			res = a.v[0].e;
			a.v[0].e = NULL;
		} else if (all_poly(&a)) {
			res = extremum_poly(st, &a, ismax);
		} else {
			res = alts_call(name, &a);
		}
	}
	st->combining--;
	alts_clear(&a);
	return res;
}

/* max (ismax) or min of canonical 'args' (taken), in normal form. */
static segc_expr *simplify_extremum(segc_canon *st, const char *name,
	size_t n, segc_expr **args, int ismax)
{
	struct alts work = { NULL, 0, 0 };
	segc_expr *res = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = segc_canon_to_rf(st, args[i], &alts_push(&work)->r);
		segc_expr_free(args[i]);
	}
	if (rc == 0)
		res = extremum_of_alts(st, name, &work, ismax);
	alts_clear(&work);
	return res;
}

/* Combines in polynomial 'r' the extrema of kind 'ismax' whose
 * coefficients are provably >= 0 into one: K1*max(x, y) + K2*max(u, w) =
 * max(K1*x + K2*u, ...), when there are two or more of them, or one
 * whose coefficient is not a single term. */
static int combine_kind(segc_canon *st, segc_rf *r, int ismax)
{
	size_t v, i, n = r->num.nvars, count = 0, multi = 0, prod = 1;
	int big = 0;
	char *mark = segc_xcalloc(n ? n : 1, 1);
	struct alts work = { NULL, 0, 0 };
	segc_rf K, rest, e;
	segc_poly *part;
	segc_expr *x = NULL;
	int rc = 0;

	segc_rf_init(&K);
	for (v = 0; v < n; v++) {
		if (extremum_kind(st->atoms[v], ismax) != 1 ||
			segc_poly_degree(&r->num, v) != 1 ||
			segc_poly_min_degree(&r->num, v) < 0)
			continue;
		segc_poly_coeff_var(&K.num, &r->num, v, 1);
		if (segc_kernel_sign(st, &K) & SEGC_SIGN_NONNEG) {
			mark[v] = 1;
			count++;
			multi |= K.num.len > 1;
			prod *= st->atoms[v]->nargs;
			if (prod > EXTREMUM_MAX_ALTS)
				big = 1;
		}
	}
	segc_rf_clear(&K);
	if ((count < 2 && !multi) || big) {
		free(mark);
		return 0;
	}
	segc_rf_init(&rest);
	segc_rf_init(&e);
	part = &alts_push(&work)->r.num;
	segc_poly_extend(part, n);
	segc_poly_extend(&rest.num, n);
	for (i = 0; i < r->num.len; i++) {
		for (v = 0; v < n && !(mark[v] && segc_poly_exp(&r->num, i, v));
			v++)
			;
		segc_poly_push(v < n ? part : &rest.num, r->num.exps + i * n,
			r->num.coefs[i]);
	}
	free(mark);
	x = extremum_of_alts(st, ismax ? "max" : "min", &work, ismax);
	alts_clear(&work);
	if (!x)
		rc = -1;
	if (rc == 0)
		rc = segc_canon_to_rf(st, x, &e);
	if (rc == 0)
		rc = segc_rf_add(st, r, &rest, &e);
	segc_expr_free(x);
	segc_rf_clear(&rest);
	segc_rf_clear(&e);
	return rc;
}

/* Combines the extrema of a polynomial 'r' (see canon_private.h). */
int segc_kernel_combine(segc_canon *st, segc_rf *r)
{
	int rc;

	if (!st->has_extrema || st->combining || !segc_rf_is_poly(r))
		return 0;
	rc = combine_kind(st, r, 1);
	if (rc == 0 && segc_rf_is_poly(r))
		rc = combine_kind(st, r, 0);
	return rc;
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
