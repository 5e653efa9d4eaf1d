/* kernel_extremum.c - the normal form of max and min: the list of
 * alternatives, their distribution over extremum atoms, the dropping of
 * dominated alternatives, and the assembly of the canonical call.  The
 * extraction of the common part and the content is in kernel_content.c. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "base/util.h"

/* ----------------------------------------------------------- max, min */

/* The normal form of max and min (doc/algebra.md): the arguments are
 * brought to a list of alternatives; the part common to all of them is
 * taken out; an alternative with exactly one extremum atom is replaced by
 * its expansions; provably dominated alternatives are dropped; the
 * content is taken out and what stays is sorted.
 *
 *   extraction    max(a + x, a + y) = a + max(x, y), and
 *                 max(g*m*x, g*m*y) = g*m*max(x, y) for a number g > 0 and
 *                 a monomial m >= 0 on the domains;
 *                 where a is the termwise minimum of the alternatives (an
 *                 absent monomial counting as 0; an extremum atom is a
 *                 monomial like any other);
 *   distribution  c + K*max(x, y) = max(c + K*x, c + K*y) for K >= 0
 *                 c + K*min(x, y) = max(c + K*x, c + K*y) for K <= 0
 *                 (the same for min with the kinds exchanged), only when
 *                 max(x, y) is the one extremum atom of the alternative.
 * An alternative with two or more extremum atoms is not distributed, and
 * the extrema of a sum are not merged: distributing products of extrema
 * would make the size of the form exponential (a sequence of k forks would
 * give 2^k alternatives).  The extraction comes first, so that the atoms
 * shared by all alternatives (the time of a common predecessor) go out
 * before any distribution.  In a polynomial, an extremum is written as
 * its dual where that gives fewer terms (kernel_dual.c). */

/* More alternatives than this are not distributed further (the form stays
 * correct but is no longer canonical). */
#define EXTREMUM_MAX_ALTS 64

/* Rounds of extraction, distribution and pruning at most (a guard: each
 * round distributes or drops something, and the number of alternatives is
 * bounded). */
#define EXTREMUM_MAX_ROUNDS 4096

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
int segc_kernel_extremum_kind(const segc_expr *a, int ismax)
{
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_MAX))
		return ismax ? 1 : -1;
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_MIN))
		return ismax ? -1 : 1;
	return 0;
}

/* Non-zero when atom 'v' is a max or a min. */
static int is_extremum(const segc_canon *st, size_t v)
{
	return (st->flags[v] & SEGC_ATOM_EXTREMUM) != 0;
}

/* The one extremum atom of polynomial 'p', or (size_t)-1 when it has none
 * or several. */
static size_t sole_extremum(segc_canon *st, const segc_poly *p)
{
	size_t v, found = (size_t)-1;

	for (v = 0; v < segc_poly_nvars(p); v++)
		if (is_extremum(st, v) && segc_poly_has_var(p, v)) {
			if (found != (size_t)-1)
				return (size_t)-1;
			found = v;
		}
	return found;
}

/* The variable of the polynomial 'r' that distributes into an extremum of
 * kind 'ismax': the only extremum atom of 'r', in which 'r' is linear with
 * a coefficient K (set) provably >= 0 for the same kind, <= 0 for the
 * other.  Returns (size_t)-1 when there is none. */
static size_t find_distributable(segc_canon *st, segc_rf *r, int ismax,
	segc_rf *K)
{
	size_t v;
	int kind;

	if (!segc_rf_is_poly(r))
		return (size_t)-1;
	v = sole_extremum(st, &r->num);
	if (v == (size_t)-1)
		return v;
	kind = segc_kernel_extremum_kind(st->atoms[v], ismax);
	if (segc_poly_degree(&r->num, v) != 1 ||
		segc_poly_min_degree(&r->num, v) < 0)
		return (size_t)-1;
	segc_poly_coeff_var(&K->num, &r->num, v, 1);
	segc_poly_set_si(&K->den, 1);
	if (segc_kernel_sign(st, K) &
		(kind > 0 ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS))
		return v;
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
		rc = segc_canon_to_rf(st, segc_args(m)[j], &x);
		if (rc == 0)
			rc = segc_rf_mul(st, &x, &x, K);
		if (rc == 0)
			rc = segc_rf_add(st, &alts_push(work)->r, &rest, &x);
	}
	segc_rf_clear(&rest);
	segc_rf_clear(&x);
	return rc;
}

/* One round of distribution: every alternative of 'a' with a
 * distributable extremum is replaced by its expansions, as long as the
 * list stays within EXTREMUM_MAX_ALTS.  Returns the number of
 * alternatives replaced, or -1 with a diagnostic. */
static int distribute_round(segc_canon *st, struct alts *a, int ismax)
{
	struct alts out = { NULL, 0, 0 };
	size_t i, total = a->n;
	segc_rf K;
	int count = 0, rc = 0;

	segc_rf_init(&K);
	for (i = 0; i < a->n; i++) {
		struct alt *x = &a->v[i];
		size_t v = rc == 0 ? find_distributable(st, &x->r, ismax, &K) :
			(size_t)-1;

		if (v == (size_t)-1 ||
			total - 1 + st->atoms[v]->nargs > EXTREMUM_MAX_ALTS) {
			alts_append(&out, x);
			continue;
		}
		total += st->atoms[v]->nargs - 1;
		rc = distribute(st, &x->r, v, &K, &out);
		segc_rf_clear(&x->r);
		segc_expr_free(x->e);
		count++;
	}
	segc_rf_clear(&K);
	free(a->v);
	*a = out;
	return rc ? -1 : count;
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

/* Non-zero when atom 'v' is >= 0 with no other bound (a sqrt(x) with
 * x >= 1 proven is >= 1). */
static int plain_atom(segc_canon *st, size_t v)
{
	mpq_srcptr lo, hi;
	int integer;

	if (!(st->flags[v] & SEGC_ATOM_NONNEG))
		return 0;
	return st->atoms[v]->kind == SEGC_SYM ||
		segc_kernel_atom_bounds(st, v, &lo, &hi, &integer);
}

/* Non-zero when the monomial of term t of 'p' is a product of atoms >= 0
 * with no other bound, to non-negative powers. */
static int plain_monomial(segc_canon *st, const segc_poly *p, size_t t)
{
	size_t v;

	for (v = 0; v < segc_poly_nvars(p); v++) {
		int32_t e = segc_poly_exp(p, t, v);

		if (e < 0 || (e && !plain_atom(st, v)))
			return 0;
	}
	return 1;
}

/* The sign test of a - b for polynomials whose differing terms are plain
 * monomials (no substitution is needed, so the test is the signs of the
 * coefficients), by a merge without arithmetic: 1 when a - b has the sign
 * 'want' (NONNEG or NONPOS), 0 when it has not, -1 when the test does not
 * apply. */
static int proves_plain(segc_canon *st, const segc_poly *a,
	const segc_poly *b, unsigned want)
{
	size_t i = 0, j = 0;
	int bad = 0;

	while (i < segc_poly_nterms(a) || j < segc_poly_nterms(b)) {
		int k = i == segc_poly_nterms(a) ? -1 :
			j == segc_poly_nterms(b) ? 1 :
			segc_poly_term_cmp(a, i, b, j), s;
		const segc_poly *p = k >= 0 ? a : b;
		size_t t = k >= 0 ? i : j;

		if (k > 0)
			s = mpq_sgn(segc_poly_coeff(a, i));
		else if (k < 0)
			s = -mpq_sgn(segc_poly_coeff(b, j));
		else
			s = mpq_cmp(segc_poly_coeff(a, i),
				segc_poly_coeff(b, j));
		i += k >= 0;
		j += k <= 0;
		if (s == 0)
			continue;
		if (!plain_monomial(st, p, t))
			return -1;
		if (want == SEGC_SIGN_NONNEG ? s < 0 : s > 0)
			bad = 1;
	}
	return !bad;
}

/* Non-zero when a - b provably has the sign 'want'. */
static int proves(segc_canon *st, segc_rf *a, segc_rf *b, unsigned want)
{
	segc_rf d;
	unsigned s = 0;

	if (segc_rf_is_poly(a) && segc_rf_is_poly(b)) {
		int k = proves_plain(st, &a->num, &b->num, want);

		if (k >= 0)
			return k;
	}
	segc_rf_init(&d);
	if (segc_rf_sub(st, &d, a, b) == 0)
		s = segc_kernel_sign(st, &d);
	segc_rf_clear(&d);
	return (s & want) != 0;
}

/* Non-zero when atom 'v' has no bound on the box: a name declared without
 * one, or a call whose arguments prove none (an if whose branches are
 * all >= 0 is bounded, kernel_sign.c). */
static int unbounded_atom(segc_canon *st, size_t v)
{
	mpq_srcptr lo, hi;
	int integer;

	if (!(st->flags[v] & SEGC_ATOM_UNBOUNDED))
		return 0;
	if (st->atoms[v]->kind == SEGC_SYM)
		return 1;
	return !segc_kernel_atom_bounds(st, v, &lo, &hi, &integer) && !lo &&
		!hi;
}

/* fp = the terms of polynomial 'p' with an odd power of an unbounded
 * atom.  When two alternatives differ there, their difference keeps such
 * a term and has no provable sign: the test is skipped. */
static void free_part(segc_canon *st, segc_poly *fp, const segc_poly *p)
{
	size_t i, v, n = segc_poly_nvars(p);

	segc_poly_zero(fp);
	segc_poly_extend(fp, n);
	for (i = 0; i < segc_poly_nterms(p); i++) {
		for (v = 0; v < n; v++)
			if (segc_poly_exp(p, i, v) % 2 &&
				unbounded_atom(st, v))
				break;
		if (v < n)
			segc_poly_push_term(fp, p, i, NULL);
	}
}

/* What the domination test knows of one alternative beforehand. */
struct dom_info {
	segc_poly fp;          /* free part (free_part) */
	uint64_t fph;          /* its hash */
	uint64_t pos, neg, all; /* hashed monomials: positive, negative, all */
	mpq_t total;           /* sum of the coefficients */
	int poly, plain;       /* a polynomial; all its monomials plain */
};

/* A hash of the monomial of term t of 'p' (equal monomials, whatever
 * their number of variables, get the same hash). */
static uint64_t monomial_hash(const segc_poly *p, size_t t)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	size_t v;

	for (v = 0; v < segc_poly_nvars(p); v++) {
		int32_t e = segc_poly_exp(p, t, v);

		if (e)
			h = (h ^ ((uint64_t)v * 0x100000001b3ULL +
				(uint64_t)(uint32_t)e)) * 0xff51afd7ed558ccdULL;
	}
	return h;
}

/* A bit for the monomial of term t of 'p'. */
static uint64_t monomial_bit(const segc_poly *p, size_t t)
{
	return (uint64_t)1 << (monomial_hash(p, t) >> 58);
}

/* A hash of polynomial 'p', equal for equal polynomials. */
static uint64_t poly_hash(const segc_poly *p)
{
	uint64_t h = segc_poly_nterms(p);
	size_t t;

	for (t = 0; t < segc_poly_nterms(p); t++) {
		mpq_srcptr c = segc_poly_coeff(p, t);

		h = h * 31 + (monomial_hash(p, t) ^
			(uint64_t)mpz_get_ui(mpq_numref(c)) ^
			((uint64_t)mpz_sgn(mpq_numref(c)) << 63) ^
			((uint64_t)mpz_get_ui(mpq_denref(c)) << 32));
	}
	return h;
}

/* Fills 'd' for alternative 'x'. */
static void dom_info_init(segc_canon *st, struct dom_info *d,
	const struct alt *x)
{
	const segc_poly *p = &x->r.num;
	size_t t;

	segc_poly_init(&d->fp, 0);
	d->fph = 0;
	mpq_init(d->total);
	d->pos = d->neg = d->all = 0;
	d->poly = segc_rf_is_poly(&x->r);
	d->plain = d->poly;
	if (!d->poly)
		return;
	free_part(st, &d->fp, p);
	d->fph = poly_hash(&d->fp);
	for (t = 0; t < segc_poly_nterms(p); t++) {
		uint64_t bit = monomial_bit(p, t);

		d->all |= bit;
		if (mpq_sgn(segc_poly_coeff(p, t)) > 0)
			d->pos |= bit;
		else
			d->neg |= bit;
		mpq_add(d->total, d->total, segc_poly_coeff(p, t));
		if (d->plain && !plain_monomial(st, p, t))
			d->plain = 0;
	}
}

/* Non-zero when alternative j may dominate alternative i (a - b >= 0 for
 * a = j, b = i when 'ismax'; <= 0 otherwise); zero when a cheap
 * necessary condition fails.  For plain polynomials the test is
 * coefficientwise, so a positive monomial of the smaller one must be in
 * the larger one, and so must the negative monomials of the larger one,
 * and the sums of coefficients must be in order. */
static int may_dominate(const struct dom_info *d, size_t i, size_t j,
	int ismax)
{
	const struct dom_info *hi = ismax ? &d[j] : &d[i];
	const struct dom_info *lo = ismax ? &d[i] : &d[j];

	if (!d[i].poly || !d[j].poly)
		return 1;
	if (d[i].plain && d[j].plain)
		return !(lo->pos & ~hi->all) && !(hi->neg & ~lo->all) &&
			mpq_cmp(hi->total, lo->total) >= 0;
	return d[i].fph == d[j].fph && segc_poly_equal(&d[i].fp, &d[j].fp);
}

/* Drops the alternatives that another one provably dominates (in the
 * sorted order, so that the outcome is deterministic).  The exact proof
 * runs only for the pairs that the cheap tests leave: the monomials
 * (may_dominate) and the values at points of the domains.  0, or -1
 * when the evaluations at points passed max_work. */
static int drop_dominated(segc_canon *st, struct alts *a, int ismax)
{
	unsigned want = ismax ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS;
	char *gone = segc_xcalloc(a->n ? a->n : 1, 1);
	struct dom_info *d = segc_xmalloc((a->n ? a->n : 1) * sizeof(*d));
	segc_point_cache *P;
	size_t i, j, m = 0;
	int over = 0, k;

	for (i = 0; i < a->n; i++)
		dom_info_init(st, &d[i], &a->v[i]);
	/* The values stay valid for the whole canonicalisation while the
	 * domains are its own; once counters of sums are declared, for this
	 * test only. */
	if (!st->points && !st->own_dom)
		st->points = segc_point_cache_new(st->ctx, st->dom);
	P = st->points && segc_point_cache_domains(st->points) == st->dom ?
		st->points : segc_point_cache_new(st->ctx, st->dom);
	for (i = 0; i < a->n && !over; i++)
		for (j = 0; j < a->n && !gone[i] && !over; j++)
			if (j != i && !gone[j] && may_dominate(d, i, j, ismax)) {
				k = segc_point_cache_refutes(P, a->v[j].e,
					a->v[i].e, ismax);
				over = k < 0;
				if (!k && proves(st, &a->v[j].r, &a->v[i].r,
					want))
					gone[i] = 1;
			}
	if (P != st->points)
		segc_point_cache_free(P);
	for (i = 0; i < a->n; i++) {
		segc_poly_clear(&d[i].fp);
		mpq_clear(d[i].total);
		if (gone[i]) {
			segc_rf_clear(&a->v[i].r);
			segc_expr_free(a->v[i].e);
		} else {
			a->v[m++] = a->v[i];
		}
	}
	a->n = m;
	free(gone);
	free(d);
	return over ? -1 : 0;
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
	size_t v = segc_canon_var(st, call), i, w = n > v ? n : v + 1;
	int32_t *d = segc_xcalloc(w, sizeof(int32_t));
	segc_expr *res = NULL;
	segc_rf t;
	int rc;

	segc_expr_free(call);
	for (i = 0; i < n; i++)
		d[i] = mexp[i];
	segc_rf_init(&t);
	segc_poly_set_var(&t.num, v, 1);
	segc_poly_extend(&t.num, w);
	segc_poly_scale(&t.num, g);
	rc = segc_poly_shift(&st->lim, &t.num, d, w);
	if (rc == 0)
		rc = segc_poly_add(&st->lim, &t.num, &t.num, c);
	if (rc == 0)
		res = segc_canon_from_rf(st, &t);
	segc_rf_clear(&t);
	free(d);
	return res;
}

/* Non-zero when a content other than 1 was taken out: g or a power of
 * an atom (the alternatives left may then dominate one another, as
 * max(1, sqrt(N)) of max(N, sqrt(N)) = sqrt(N)*max(sqrt(N), 1) does). */
static int content_taken(mpq_srcptr g, const int32_t *mexp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mexp[i])
			return 1;
	return mpq_cmp_ui(g, 1, 1) != 0;
}

/* The expression c + g*x^mexp*r for the one alternative 'r' left once
 * the content is out (kept). */
static segc_expr *assemble_one(segc_canon *st, segc_poly *c, mpq_srcptr g,
	const int32_t *mexp, size_t n, const segc_rf *r)
{
	int32_t *d = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_expr *res = NULL;
	segc_rf t, k;
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		d[i] = mexp[i];
	segc_rf_init(&t);
	segc_rf_init(&k);
	segc_rf_set(&t, r);
	segc_poly_extend(&t.num, n);
	segc_poly_scale(&t.num, g);
	rc = segc_poly_shift(&st->lim, &t.num, d, n);
	segc_poly_set(&k.num, c);
	if (rc == 0)
		rc = segc_rf_add(st, &t, &t, &k);
	if (rc == 0)
		res = segc_canon_from_rf(st, &t);
	segc_rf_clear(&t);
	segc_rf_clear(&k);
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

/* Drops the variables absent from the alternatives at the end of their
 * exponent vectors, which keeps comparisons short. */
static void trim_alts(struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		segc_poly_trim(&a->v[i].r.num);
		segc_poly_trim(&a->v[i].r.den);
	}
}

static size_t widest(const struct alts *a);

/* The terms of the numerators of 'a', all together. */
static double terms_of(const struct alts *a)
{
	double t = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		t += (double)segc_poly_nterms(&a->v[i].r.num);
	return t;
}

/* Brings the alternatives 'a' to a fixed point of extraction (into 'c'),
 * distribution and pruning: on return no alternative distributes, none
 * is dominated, and the polynomial alternatives have no common part. */
static int settle_alts(segc_canon *st, struct alts *a, int ismax,
	segc_poly *c)
{
	int round, k, rc = 0;

	for (round = 0; round < EXTREMUM_MAX_ROUNDS; round++) {
		size_t n0;

		if (a->n > 1 && all_poly(a))
			rc = segc_kernel_extract_common(st, a, ismax, c);
		else if (a->n > 1)
			rc = segc_kernel_extract_common_rf(st, a, ismax, c);
		if (rc)
			return rc;
		k = distribute_round(st, a, ismax);
		if (k < 0)
			return -1;
		trim_alts(a);
		if (k > 0)
			continue;
		if (sort_alts(st, a))
			return -1;
		/* Each pair may be compared, term by term, though cheap
		 * tests rule most pairs out: an eighth is charged. */
		if (segc_ctx_charge(st->ctx, (double)a->n * terms_of(a) *
			(1.0 + (double)widest(a) / 8) / 8))
			return -1;
		n0 = a->n;
		if (drop_dominated(st, a, ismax))
			return -1;
		if (a->n == n0 || a->n == 1)
			return 0;
	}
	return 0;
}

/* The largest number of variables of the numerators of 'a'. */
static size_t widest(const struct alts *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		if (segc_poly_nvars(&a->v[i].r.num) > n)
			n = segc_poly_nvars(&a->v[i].r.num);
	return n;
}

/* The normal form of the extremum 'name' of the alternatives 'a'
 * (emptied): c + g*m*name(sorted alternatives). */
static segc_expr *extremum_of_alts(segc_canon *st, const char *name,
	struct alts *a, int ismax)
{
	size_t n;
	int32_t *mexp;
	segc_expr *res = NULL;
	segc_poly c;
	mpq_t g;
	int rc;

	st->mode.combining++;
	segc_poly_init(&c, 0);
	mpq_init(g);
	mpq_set_ui(g, 1, 1);
	rc = settle_alts(st, a, ismax, &c);
	n = widest(a);
	mexp = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	if (rc == 0 && a->n == 1) {
		segc_rf t;

		segc_rf_init(&t);
		segc_poly_swap(&t.num, &c);
		rc = segc_rf_add(st, &a->v[0].r, &a->v[0].r, &t);
		segc_rf_clear(&t);
		if (rc == 0)
			res = segc_canon_from_rf(st, &a->v[0].r);
	} else if (rc == 0) {
		rc = segc_kernel_extract_content(st, a, g, mexp, n);
		if (rc == 0)
			rc = sort_alts(st, a);
		if (rc == 0 && content_taken(g, mexp, n))
			rc = drop_dominated(st, a, ismax);
		if (rc == 0 && a->n == 1)
			res = assemble_one(st, &c, g, mexp, n, &a->v[0].r);
		else if (rc == 0)
			res = assemble(st, &c, g, mexp, n, alts_call(name, a));
	}
	st->mode.combining--;
	segc_poly_clear(&c);
	mpq_clear(g);
	free(mexp);
	alts_clear(a);
	return res;
}

/* max (ismax) or min of canonical 'args' (taken), in normal form. */
segc_expr *segc_kernel_extremum(segc_canon *st, const char *name,
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

/* The extremum atoms of polynomial 'p' that are multiplied by a
 * coefficient of two or more terms: mark[v] = 1 for those in which 'p' is
 * linear, with non-negative exponents; 0 for the other variables.
 * Returns the number marked. */
static size_t mark_spread(segc_canon *st, const segc_poly *p, char *mark)
{
	size_t i, v, n = segc_poly_nvars(p), count = 0;
	size_t *terms = segc_xcalloc(n ? n : 1, sizeof(size_t));
	char *bad = segc_xcalloc(n ? n : 1, 1);

	for (i = 0; i < segc_poly_nterms(p); i++)
		for (v = 0; v < n; v++) {
			int32_t e = segc_poly_exp(p, i, v);

			if (e) {
				terms[v]++;
				bad[v] |= e != 1;
			}
		}
	for (v = 0; v < n; v++) {
		mark[v] = terms[v] > 1 && !bad[v] && is_extremum(st, v);
		count += mark[v];
	}
	free(terms);
	free(bad);
	return count;
}

/* Rewrites K*M in 'r' (M = atom v, the other terms in 'rest') as the
 * single extremum M' = max(K*x_j) (min for a min atom) when K is free of
 * extrema and provably >= 0: r = rest + M'.  Returns 1 when done, 0 when
 * not, -1 on an error. */
static int spread_one(segc_canon *st, segc_rf *r, size_t v)
{
	const segc_expr *m = st->atoms[v];
	struct alts work = { NULL, 0, 0 };
	segc_rf K, rest, e;
	segc_expr *x;
	size_t w;
	int rc = 0;

	segc_rf_init(&K);
	segc_poly_coeff_var(&K.num, &r->num, v, 1);
	for (w = 0; w < segc_poly_nvars(&K.num); w++)
		if (is_extremum(st, w) && segc_poly_has_var(&K.num, w))
			break;
	if (w < segc_poly_nvars(&K.num) ||
		!(segc_kernel_sign(st, &K) & SEGC_SIGN_NONNEG)) {
		segc_rf_clear(&K);
		return 0;
	}
	segc_rf_init(&rest);
	segc_rf_init(&e);
	segc_poly_coeff_var(&rest.num, &r->num, v, 0);
	segc_poly_set_var(&e.num, v, 1);
	rc = segc_rf_mul(st, &alts_push(&work)->r, &e, &K);
	x = rc == 0 ? extremum_of_alts(st, m->u.name, &work,
		segc_expr_is_builtin(m, SEGC_BUILTIN_MAX)) : NULL;
	alts_clear(&work);
	rc = x ? segc_canon_to_rf(st, x, &e) : -1;
	if (rc == 0)
		rc = segc_rf_add(st, r, &rest, &e);
	segc_expr_free(x);
	segc_rf_clear(&K);
	segc_rf_clear(&rest);
	segc_rf_clear(&e);
	return rc ? -1 : 1;
}

/* Normalises the extrema of a polynomial 'r' (see canon_private.h). */
int segc_kernel_combine(segc_canon *st, segc_rf *r)
{
	size_t v, n;
	char *mark;
	int rc = 0;

	if (!st->has_extrema || st->mode.combining || !segc_rf_is_poly(r))
		return 0;
	n = segc_poly_nvars(&r->num);
	mark = segc_xcalloc(n ? n : 1, 1);
	if (mark_spread(st, &r->num, mark))
		for (v = 0; v < n && rc >= 0; v++)
			if (mark[v])
				rc = spread_one(st, r, v);
	free(mark);
	return rc < 0 ? -1 : 0;
}
