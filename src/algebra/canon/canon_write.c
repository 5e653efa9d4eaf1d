/* canon_write.c - a canonical rational function's polynomials written as
 * expressions: the output order of their terms (atoms sorted by
 * segc_expr_cmp, monomials by decreasing exponent of the first atom, then
 * of the second, and so on, the number term last) and the terms as nodes
 * of the store.  A term is MUL(coefficient, atom^e, ...) with the atoms of
 * positive exponents in their order, then those of negative exponents in
 * their order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* ------------------------------------------------------------- order */
/* Sorts v[0 .. n-1] stably by 'cmp' (<= 0: the first goes first), a
 * merge sort: n log n comparisons. */
static void merge_sort(size_t *v, size_t n,
	int (*cmp)(const void *arg, size_t a, size_t b), const void *arg)
{
	size_t *tmp = segc_xmalloc((n ? n : 1) * sizeof(size_t));
	size_t width, i;

	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t a = i, b = mid, t = i;

			while (a < mid && b < hi)
				tmp[t++] = cmp(arg, v[a], v[b]) <= 0 ?
					v[a++] : v[b++];
			while (a < mid)
				tmp[t++] = v[a++];
			while (b < hi)
				tmp[t++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof(size_t));
	}
	free(tmp);
}

/* The order of the atoms of variables 'a' and 'b' of 'st'. */
static int atom_cmp(const void *st, size_t a, size_t b)
{
	const segc_canon *s = st;

	return segc_expr_cmp(s->atoms[a], s->atoms[b]);
}

/* The variables that occur in 'p', in the order of their atoms by
 * segc_expr_cmp ('*k' set to their number): byrank[r] is the variable of
 * rank r.  Only the variables present are sorted, so that the cost does
 * not grow with the size of the atom table. */
size_t *segc_canon_used_by_rank(const segc_canon *st, const segc_poly *p,
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
	merge_sort(byrank, m, atom_cmp, st);
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

/* What term_cmp compares by: out_cmp's arguments. */
struct order_arg {
	const segc_poly *p;
	const size_t *byrank;
	size_t k;
};

/* out_cmp for merge_sort. */
static int term_cmp(const void *arg, size_t a, size_t b)
{
	const struct order_arg *o = arg;

	return out_cmp(o->p, o->byrank, o->k, a, b);
}

/* Non-zero when the output order of 'p' is the order of its terms: its
 * variables by rank have increasing indices, so that out_cmp compares
 * two terms other than the constant one as the polynomial orders them,
 * and its last term is the constant one or above it (then no term is
 * below the constant term, which out_cmp alone puts last). */
static int in_poly_order(const segc_poly *p, const size_t *byrank, size_t k)
{
	size_t r, n = segc_poly_nterms(p);

	for (r = 1; r < k; r++)
		if (byrank[r - 1] > byrank[r])
			return 0;
	for (r = 0; n && r < k; r++) {
		int32_t a = segc_poly_exp(p, n - 1, byrank[r]);

		if (a)
			return a > 0;
	}
	return 1;
}

/* The term indices of 'p' in output order ('byrank'[r] = variable of
 * rank r, k of them), or NULL when that is the order of 'p'. */
size_t *segc_canon_output_order(const segc_poly *p, const size_t *byrank,
	size_t k)
{
	struct order_arg arg;
	size_t i, n = segc_poly_nterms(p), *ix;

	/* often the order of the variables is that of their atoms, and
	 * the terms are in output order already */
	if (in_poly_order(p, byrank, k))
		return NULL;
	for (i = 1; i < n && out_cmp(p, byrank, k, i - 1, i) < 0; i++)
		;
	if (i == n)
		return NULL;
	ix = segc_xmalloc(n * sizeof(size_t));
	for (i = 0; i < n; i++)
		ix[i] = i;
	arg.p = p;
	arg.byrank = byrank;
	arg.k = k;
	merge_sort(ix, n, term_cmp, &arg);
	return ix;
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

/* The factor 'atom' to the exponent 'x': a root x^(1/q) (q >= 3) prints
 * as the one power of its base, base^x. */
static segc_expr *atom_power(const segc_expr *atom, mpq_srcptr x)
{
	const segc_expr *base;

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
 * a polynomial's writing makes once, and the terms from which it does. */
#define POWER_CACHE 64
#define POWER_CACHE_MIN_TERMS 32

/* Places of a cache of factors per rank: one per exponent. */
#define CACHE_ROW (2 * POWER_CACHE + 1)

/* The place in a cache of factors of rank 'r' and exponent 'k' (|k| <=
 * POWER_CACHE): the caches of factors, of their hashes and of their
 * shares are laid out alike. */
static size_t slot_index(size_t r, long k)
{
	return r * CACHE_ROW + (size_t)(k + POWER_CACHE);
}

/* The entry of a cache of factors for rank 'r' and exponent 'k'
 * (|k| <= POWER_CACHE). */
static segc_expr **cache_slot(segc_expr **cache, size_t r, long k)
{
	return cache + slot_index(r, k);
}

/* The factor 'atom' (of rank 'r') to the exponent 'x', from 'cache'
 * (2 POWER_CACHE + 1 entries per rank, or NULL) when 'x' is a small
 * integer: the factor depends on the atom and x alone, and the store
 * would give the same node again, after hashing it. */
static segc_expr *cached_power(segc_expr **cache, size_t r,
	const segc_expr *atom, mpq_srcptr x)
{
	segc_expr **slot;
	long k;

	if (!cache || mpz_cmp_ui(mpq_denref(x), 1) ||
	    mpz_cmpabs_ui(mpq_numref(x), POWER_CACHE) > 0)
		return atom_power(atom, x);
	k = mpz_get_si(mpq_numref(x));
	slot = cache_slot(cache, r, k);
	if (!*slot)
		*slot = atom_power(atom, x);
	return segc_expr_copy(*slot);
}

/* Entries of the cache of coefficient nodes (a power of 2): a
 * polynomial's coefficients repeat (those of a power are few multinomial
 * numbers), and finding a node there costs less than in the store. */
#define COEF_CACHE 64

/* A coefficient that is a quotient of one-limb integers, as words: the
 * only ones the caches of coefficients hold. */
struct coef_key {
	mp_limb_t nu, de;
	int neg;
};

/* The words of the coefficient 'c' into '*k': non-zero when 'c' is a
 * quotient of one-limb integers (a coefficient is never 0). */
static int coef_key(mpq_srcptr c, struct coef_key *k)
{
	mpz_srcptr nu = mpq_numref(c), de = mpq_denref(c);

	if (mpz_size(nu) != 1 || mpz_size(de) != 1)
		return 0;
	k->nu = mpz_getlimbn(nu, 0);
	k->de = mpz_getlimbn(de, 0);
	k->neg = mpz_sgn(nu) < 0;
	return 1;
}

/* The place of the coefficient of words 'k' in a cache of COEF_CACHE
 * entries. */
static size_t key_place(const struct coef_key *k)
{
	uint64_t x = ((uint64_t)k->nu + (uint64_t)k->neg) *
		0x9e3779b97f4a7c15ULL ^ (uint64_t)k->de *
		0xc2b2ae3d27d4eb4fULL;

	return (size_t)(x >> 32) & (COEF_CACHE - 1);
}

/* The place of the coefficient 'c' in a cache of COEF_CACHE entries
 * into '*h': non-zero when 'c' is a quotient of one-limb integers, which
 * alone have one. */
static int coef_place(mpq_srcptr c, size_t *h)
{
	struct coef_key k;

	if (!coef_key(c, &k))
		return 0;
	*h = key_place(&k);
	return 1;
}

/* The NUM node of the coefficient 'c', from 'cache' (COEF_CACHE entries,
 * references held, or NULL) when 'c' was met last at its place there. */
static segc_expr *coef_node(segc_expr **cache, mpq_srcptr c)
{
	segc_expr *node;
	size_t h;

	if (!cache || !coef_place(c, &h))
		return segc_expr_num(c);
	if (cache[h] && mpq_equal(cache[h]->u.value, c))
		return segc_expr_copy(cache[h]);
	node = segc_expr_num(c);
	segc_expr_free(cache[h]);
	cache[h] = segc_expr_copy(node);
	return node;
}

/* Variables up to which a term's exponents are read into a buffer on the
 * stack. */
#define POLY_EXPR_SMALL_VARS 64

/* What writing the terms of one polynomial keeps: its variables by rank
 * with their atoms, the caches of factors and coefficients, buffers for
 * a term's exponents, the ranks of its factors and its factors. */
struct term_writer {
	const segc_poly *p;
	size_t n, m;               /* variables of p, of them used */
	const size_t *byrank;      /* the variable of each rank */
	const segc_expr **atoms;   /* the atom of each rank */
	segc_expr **cache;         /* factors (see cached_power), or NULL */
	size_t ncache;
	segc_expr *coefs[COEF_CACHE];
	int32_t small[POLY_EXPR_SMALL_VARS], *e;
	size_t *ranks;             /* see factor_ranks */
	int32_t *xs;               /* the exponent of each of those */
	segc_expr **f;
	mpq_t x;
};

/* Sets up 'w' for 'p', whose variable of rank r is byrank[r] and stands
 * for atoms[r] (m of them). */
static void writer_init(struct term_writer *w, const segc_poly *p,
	const size_t *byrank, const segc_expr **atoms, size_t m)
{
	size_t len = segc_poly_nterms(p);

	memset(w->coefs, 0, sizeof(w->coefs));
	w->p = p;
	w->n = segc_poly_nvars(p);
	w->m = m;
	w->byrank = byrank;
	w->atoms = atoms;
	w->cache = NULL;
	w->ncache = 0;
	if (len >= POWER_CACHE_MIN_TERMS && m) {
		w->ncache = segc_xmul_size(m, CACHE_ROW);
		w->cache = segc_xcalloc(w->ncache, sizeof(*w->cache));
	}
	w->e = w->n <= POLY_EXPR_SMALL_VARS ? w->small :
		segc_xmalloc(segc_xmul_size(w->n, sizeof(int32_t)));
	w->ranks = segc_xmalloc((2 * m + 1) * sizeof(*w->ranks));
	w->xs = segc_xmalloc((2 * m + 1) * sizeof(*w->xs));
	w->f = segc_xmalloc((m + 1) * sizeof(*w->f));
	mpq_init(w->x);
}

/* Releases what 'w' holds. */
static void writer_clear(struct term_writer *w)
{
	size_t i;

	for (i = 0; i < COEF_CACHE; i++)
		segc_expr_free(w->coefs[i]);
	for (i = 0; i < w->ncache; i++)
		segc_expr_free(w->cache[i]);
	free(w->cache);
	if (w->e != w->small)
		free(w->e);
	free(w->ranks);
	free(w->xs);
	free(w->f);
	mpq_clear(w->x);
}

/* The ranks of the factors of term 'i' of a polynomial without roots
 * into w->ranks and their exponents into w->xs, in the order of the
 * term's product: the positive powers by rank, then the negative;
 * returns how many. */
static size_t factor_ranks(struct term_writer *w, size_t i)
{
	const size_t *byrank = w->byrank;
	const int32_t *e = w->e;
	size_t r, m = w->m, k = 0, kn = 0;
	size_t *restrict ranks = w->ranks, *restrict neg = w->ranks + m;
	int32_t *restrict xs = w->xs, *restrict negx = w->xs + m;

	segc_poly_get_exps(w->p, i, w->e);
	/* one look at each exponent: the negative ones wait past m.
	 * Both lists are written each time and grow when the sign says
	 * so, without a branch: a term's signs follow no pattern. */
	for (r = 0; r < m; r++) {
		int32_t x = e[byrank[r]];

		xs[k] = x;
		ranks[k] = r;
		k += x > 0;
		negx[kn] = x;
		neg[kn] = r;
		kn += x < 0;
	}
	if (kn) {
		memmove(ranks + k, neg, kn * sizeof(*neg));
		memmove(xs + k, negx, kn * sizeof(*negx));
	}
	return k + kn;
}

/* The factor of rank 'r' to the integer exponent 'x' (|x| <=
 * POWER_CACHE) from w's cache (which there is), made there when it is
 * not yet; borrowed. */
static inline segc_expr *cache_factor(struct term_writer *w, size_t r,
	int32_t x)
{
	segc_expr **slot = cache_slot(w->cache, r, x);

	if (!*slot) {
		mpq_set_si(w->x, x, 1);
		*slot = atom_power(w->atoms[r], w->x);
	}
	return *slot;
}

/* The factors of term 'i' of a polynomial without roots into w->f (see
 * factor_ranks); returns how many. */
static size_t plain_factors(struct term_writer *w, size_t i)
{
	size_t j, k = factor_ranks(w, i);

	for (j = 0; j < k; j++) {
		size_t r = w->ranks[j];
		int32_t x = w->xs[j];

		if (w->cache && x >= -POWER_CACHE && x <= POWER_CACHE) {
			w->f[j] = segc_expr_copy(cache_factor(w, r, x));
		} else {
			mpq_set_si(w->x, x, 1);
			w->f[j] = atom_power(w->atoms[r], w->x);
		}
	}
	return k;
}

/* The factors of term 'i' of a polynomial of 'st', which has roots, into
 * w->f: a root and its base merged into one power (factor_exponent). */
static size_t root_factors(segc_canon *st, struct term_writer *w, size_t i)
{
	size_t r, k = 0;

	segc_poly_get_exps(w->p, i, w->e);
	for (r = 0; r < 2 * w->m; r++) {
		size_t v = w->byrank[r % w->m];

		if (factor_exponent(st, w->e, w->n, v, w->x) &&
		    (r < w->m ? mpq_sgn(w->x) > 0 : mpq_sgn(w->x) < 0))
			w->f[k++] = cached_power(w->cache, r % w->m,
				w->atoms[r % w->m], w->x);
	}
	return k;
}

/* Term 'i' as a node: its coefficient times its 'k' factors in w->f
 * (references taken). */
static segc_expr *write_term(struct term_writer *w, size_t i, size_t k)
{
	return segc_expr_mul_num(coef_node(w->cache ? w->coefs : NULL,
		segc_poly_coeff(w->p, i)), k, w->f);
}

/* ---------------------------------------------------- deferred sums */

/* Terms from which a polynomial's sum is stored with its terms deferred
 * (segc_expr_store_defer): a long expansion is then one node until
 * something reads its terms, and most of writing it is the nodes. */
#define DEFER_MIN_TERMS 256
#if DEFER_MIN_TERMS < POWER_CACHE_MIN_TERMS
#error "a deferred sum's factors are all in the cache"
#endif

/* What a deferred sum keeps to write its terms: the polynomial (taken
 * from the canonical form), its atoms by rank and its terms in output
 * order. */
struct deferred_poly {
	segc_poly p;
	size_t m;
	size_t *byrank;
	const segc_expr **atoms;  /* references held */
	size_t *order;            /* the term of each child, or NULL
	                           * when it is the polynomial's order */
	size_t n;                 /* children */
};

/* Releases a deferred_poly (struct segc_expr_deferred's release). */
static void deferred_release(void *data)
{
	struct deferred_poly *d = data;
	size_t r;

	for (r = 0; r < d->m; r++)
		segc_expr_free((segc_expr *)(uintptr_t)d->atoms[r]);
	segc_poly_clear(&d->p);
	free(d->atoms);
	free(d->byrank);
	free(d->order);
	free(d);
}

/* Writes the terms of a deferred_poly (struct segc_expr_deferred's make):
 * the nodes segc_canon_poly_expr makes when it writes them at once. */
static void deferred_make(void *data, segc_expr **out)
{
	struct deferred_poly *d = data;
	struct term_writer w;
	size_t i;

	writer_init(&w, &d->p, d->byrank, d->atoms, d->m);
	for (i = 0; i < d->n; i++) {
		size_t t = segc_canon_term_at(d->order, i);

		out[i] = write_term(&w, t, plain_factors(&w, t));
	}
	writer_clear(&w);
}

/* Non-zero when 'f', a factor of a term, goes into the term's product as
 * it is and the term, when 'f' is alone, into the sum as it is (a
 * factor that is a number, a product or a sum would fold). */
static int plain_factor(const segc_expr *f)
{
	return f->kind != SEGC_NUM && f->kind != SEGC_MUL &&
		f->kind != SEGC_ADD;
}

/* The hashes of the NUM nodes of recent coefficients that are quotients
 * of one-limb integers, and their shares in a product, at the place
 * coef_node would give their nodes. */
struct coef_hashes {
	struct {
		struct coef_key k;
		int set;
		unsigned long hash;
		uint64_t share;
	} v[COEF_CACHE];
};

/* The hash of the NUM node of 'c' and its share in a product into
 * '*hash' and '*share', from 'ch' when they are there; '*one' set when
 * 'c' is 1. */
static void coef_hash(struct coef_hashes *ch, mpq_srcptr c, int *one,
	unsigned long *hash, uint64_t *share)
{
	struct coef_key k;
	size_t h;

	if (!coef_key(c, &k)) {
		*one = 0;
		*hash = segc_expr_hash_num(c);
		*share = segc_expr_hash_share(*hash);
		return;
	}
	*one = k.nu == 1 && k.de == 1 && !k.neg;
	h = key_place(&k);
	if (!ch->v[h].set || ch->v[h].k.nu != k.nu ||
	    ch->v[h].k.de != k.de || ch->v[h].k.neg != k.neg) {
		ch->v[h].k = k;
		ch->v[h].set = 1;
		ch->v[h].hash = segc_expr_hash_num(c);
		ch->v[h].share = segc_expr_hash_share(ch->v[h].hash);
	}
	*hash = ch->v[h].hash;
	*share = ch->v[h].share;
}

/* The hashes of the factors met so far and their shares in a product,
 * one entry per place of w's cache of factors; 'known' is 1 for the
 * places known (those of exponent 0 from the start, with share 0), -1
 * for those whose factor is not plain, 0 for the others. */
struct factor_hashes {
	unsigned long *hash;
	uint64_t *share;
	signed char *known;
};

/* Sets up 'fh' for w's cache of factors. */
static void factor_hashes_init(struct factor_hashes *fh,
	const struct term_writer *w)
{
	size_t r;

	fh->hash = segc_xcalloc(w->ncache, sizeof(*fh->hash));
	fh->share = segc_xcalloc(w->ncache, sizeof(*fh->share));
	fh->known = segc_xcalloc(w->ncache, sizeof(*fh->known));
	for (r = 0; r < w->m; r++)
		fh->known[slot_index(r, 0)] = 1;
}

/* Releases 'fh'. */
static void factor_hashes_clear(struct factor_hashes *fh)
{
	free(fh->hash);
	free(fh->share);
	free(fh->known);
}

/* Learns the factor of rank 'r' to the power 'x' (place 's' of w's
 * cache, which it makes there when it is not yet): 0, or -1 when it is
 * not plain. */
static int learn_factor(struct term_writer *w, struct factor_hashes *fh,
	size_t r, int32_t x, size_t s)
{
	const segc_expr *f;

	if (fh->known[s] < 0)
		return -1;
	f = cache_factor(w, r, x);
	if (!plain_factor(f)) {
		fh->known[s] = -1;
		return -1;
	}
	fh->hash[s] = f->hash;
	fh->share[s] = segc_expr_hash_share(f->hash);
	fh->known[s] = 1;
	return 0;
}

/* The sum of the shares of the factors of term 'i' at their places in
 * the term's product, the first at place 'first', in product order (the
 * positive powers by rank, then the negative: factor_ranks); every
 * factor is known in 'fh'.  The number of factors into '*k'. */
static uint64_t listed_shares(struct term_writer *w,
	const struct factor_hashes *fh, size_t i, size_t first, size_t *k)
{
	uint64_t sum = 0;
	size_t j;

	*k = factor_ranks(w, i);
	for (j = 0; j < *k; j++)
		sum += segc_expr_hash_at(fh->share[slot_index(w->ranks[j],
			w->xs[j])], first + j);
	return sum;
}

/* The hash of the node write_term makes of term 'i' (segc_expr_mul_num's
 * cases when no factor folds: the coefficient alone, 1 left out, one
 * factor alone) into '*res'; '*num' set when the node is the
 * coefficient.  A product's hash adds its children's shares at their
 * places.  The term's exponents are read once in rank order, each
 * adding the share of its factor (none for exponent 0) at the place
 * after the factors before it, which is its place in the product as
 * long as no exponent is negative; a term with a negative one is listed
 * in product order instead.  0, or -1 when a factor is beyond the cache
 * or not plain. */
static int term_hash(struct term_writer *w, struct coef_hashes *ch,
	struct factor_hashes *fh, size_t i, unsigned long *res, int *num)
{
	const size_t *byrank = w->byrank;
	const int32_t *e = w->e;
	const signed char *known = fh->known;
	const uint64_t *share = fh->share;
	size_t r, m = w->m, k, row, first;
	uint64_t sum, cs;
	unsigned long c;
	int32_t neg;
	int one;

	coef_hash(ch, segc_poly_coeff(w->p, i), &one, &c, &cs);
	/* the coefficient, unless it is 1, is the product's first child */
	first = !one;
	segc_poly_get_exps(w->p, i, w->e);
again:
	for (r = 0, row = 0, k = first, sum = 0, neg = 0; r < m;
	     r++, row += CACHE_ROW) {
		int32_t x = e[byrank[r]];
		/* slot_index(r, x), its row carried along */
		size_t s = row + (size_t)(x + POWER_CACHE);

		/* one comparison for -POWER_CACHE <= x <= POWER_CACHE;
		 * a factor met for the first time is learnt outside the
		 * loop, which then starts again */
		if ((uint32_t)x + POWER_CACHE > 2 * POWER_CACHE)
			return -1;
		if (known[s] != 1) {
			if (learn_factor(w, fh, r, x, s))
				return -1;
			goto again;
		}
		sum += segc_expr_hash_at(share[s], k);
		k += x != 0;
		neg |= x;
	}
	/* k becomes the number of factors */
	if (neg < 0)
		sum = listed_shares(w, fh, i, first, &k);
	else
		k -= first;
	*num = k == 0;
	if (k == 0) {
		*res = c;
	} else if (k == 1 && one) {
		/* the one factor alone */
		for (r = 0; !e[byrank[r]]; r++)
			;
		*res = fh->hash[slot_index(r, e[byrank[r]])];
	} else {
		if (!one)
			sum += segc_expr_hash_at(cs, 0);
		*res = segc_expr_hash_sum(SEGC_MUL, k + first, sum);
	}
	return 0;
}

/* The hash of the sum of 'w''s polynomial, whose terms in output order
 * are 'ix' (len of them; NULL: the polynomial's order), into '*hash': 0,
 * or -1 when a factor is not plain or not cached.  The sum keeps its
 * terms in that order (segc_expr_add) since the number term, which it
 * folds, is last, where it puts it back; -1 as well, should it be
 * elsewhere than first or last. */
static int sum_hash(struct term_writer *w, const size_t *ix, size_t len,
	unsigned long *hash)
{
	struct coef_hashes *ch = segc_xcalloc(1, sizeof(*ch));
	struct factor_hashes fh;
	uint64_t sum = 0;
	unsigned long t;
	size_t i;
	int num, rc = 0;

	factor_hashes_init(&fh, w);
	for (i = 0; i < len; i++) {
		rc = term_hash(w, ch, &fh, segc_canon_term_at(ix, i), &t,
			&num);
		if (rc == 0 && num && i > 0 && i < len - 1)
			rc = -1;
		if (rc)
			break;
		sum += segc_expr_hash_at(segc_expr_hash_share(t), i);
	}
	*hash = segc_expr_hash_sum(SEGC_ADD, len, sum);
	factor_hashes_clear(&fh);
	free(ch);
	return rc;
}

/* The sum of the polynomial 'p' of 'st' stored with its terms deferred;
 * NULL when it is not (few terms, roots, rows mostly of unused
 * variables, exponents beyond the cache, factors that fold, or the node
 * already in the store).  'byrank', 'atoms' (m of them) and 'ix' as
 * segc_canon_poly_expr has them.  When it succeeds it takes 'p' (leaving
 * it zero) and the three arrays. */
static segc_expr *defer_sum(segc_canon *st, segc_poly *p,
	size_t *byrank, const segc_expr **atoms, size_t m, size_t *ix)
{
	size_t len = segc_poly_nterms(p), i, r, nfrom = 0;
	struct segc_expr_deferred ops;
	struct deferred_poly *d;
	struct term_writer w;
	const segc_expr **from;
	unsigned long hash;
	segc_expr *res = NULL;

	if (len < DEFER_MIN_TERMS || !m || st->has_roots ||
	    segc_poly_nvars(p) > 2 * m + 16)
		return NULL;
	writer_init(&w, p, byrank, atoms, m);
	if (sum_hash(&w, ix, len, &hash) == 0) {
		/* the children's free names are those of their factors,
		 * every one of them now in the cache */
		from = segc_xmalloc(w.ncache * sizeof(*from));
		for (i = 0; i < w.ncache; i++)
			if (w.cache[i])
				from[nfrom++] = w.cache[i];
		d = segc_xmalloc(sizeof(*d));
		segc_poly_init(&d->p, 0);
		segc_poly_swap(&d->p, p);
		ops.make = deferred_make;
		ops.release = deferred_release;
		ops.data = d;
		res = segc_expr_store_defer(SEGC_ADD, len, hash, nfrom, from,
			&ops);
		free(from);
		if (res) {
			for (r = 0; r < m; r++)
				segc_expr_copy(atoms[r]);
			d->m = m;
			d->atoms = atoms;
			d->byrank = byrank;
			d->order = ix;
			d->n = len;
		} else {
			segc_poly_swap(&d->p, p);
			segc_poly_clear(&d->p);
			free(d);
		}
	}
	writer_clear(&w);
	return res;
}

/* See canon_private.h. */
segc_expr *segc_canon_poly_expr(segc_canon *st, segc_poly *p, int take)
{
	size_t m, *byrank = segc_canon_used_by_rank(st, p, &m);
	size_t *ix = segc_canon_output_order(p, byrank, m);
	size_t len = segc_poly_nterms(p), i, r;
	const segc_expr **atoms = segc_xmalloc((m ? m : 1) * sizeof(*atoms));
	segc_expr **terms, *res;
	struct term_writer w;

	for (r = 0; r < m; r++)
		atoms[r] = st->atoms[byrank[r]];
	if (take && (res = defer_sum(st, p, byrank, atoms, m, ix)) != NULL)
		return res;
	terms = segc_xmalloc((len ? len : 1) * sizeof(*terms));
	writer_init(&w, p, byrank, atoms, m);
	for (i = 0; i < len; i++) {
		size_t t = segc_canon_term_at(ix, i);

		terms[i] = write_term(&w, t, st->has_roots ?
			root_factors(st, &w, t) : plain_factors(&w, t));
	}
	writer_clear(&w);
	res = len ? segc_expr_add(len, terms) : segc_expr_int(0);
	free(terms);
	free(atoms);
	free(ix);
	free(byrank);
	return res;
}

/* The work of writing 'p' as an expression: for each term, a look at
 * every variable and a node made and hashed for each factor. */
double segc_canon_poly_expr_work(const segc_poly *p)
{
	return (double)segc_poly_nterms(p) *
		(1.0 + (double)segc_poly_nvars(p) / 8);
}
