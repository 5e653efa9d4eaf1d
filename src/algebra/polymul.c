/* polymul.c - products of sparse polynomials (hashing of monomials with a
 * machine-integer fast path), powers, exact division (a heap of partial
 * products) and substitution of a variable. */
#include <stdlib.h>
#include <string.h>
#include "algebra/poly_private.h"
#include "base/util.h"

/* ------------------------------------------------------ multiplication */

static double max_coeff_limbs(const segc_poly *p);

/* r = a * (the single term b_k). */
static int mul_term(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	const segc_poly *b, size_t k)
{
	segc_poly out;
	int rc;

	if (lim && segc_ctx_charge(lim->ctx, (double)a->len *
		max_coeff_limbs(a)))
		return -1;
	segc_poly_init(&out, a->nvars);
	segc_poly_set(&out, a);
	segc_poly_scale(&out, b->coefs[k]);
	rc = segc_poly_shift(lim, &out, term_exp(b, k));
	if (!rc)
		rc = segc_poly_check(lim, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* Integer image of a polynomial: p = z / den. */
struct zimage {
	mpz_t *z;
	mpz_t den;
	int64_t *small;   /* the z as machine integers, if they all fit */
	size_t bits;      /* bits of the largest |z| */
};

/* Fills 'zi' from 'p'. */
static void zimage_init(struct zimage *zi, const segc_poly *p)
{
	size_t i;

	mpz_init_set_ui(zi->den, 1);
	for (i = 0; i < p->len; i++)
		mpz_lcm(zi->den, zi->den, mpq_denref(p->coefs[i]));
	zi->z = segc_xmalloc(segc_xmul_size(p->len, sizeof(mpz_t)));
	zi->bits = 0;
	for (i = 0; i < p->len; i++) {
		size_t b;

		mpz_init(zi->z[i]);
		mpz_divexact(zi->z[i], zi->den, mpq_denref(p->coefs[i]));
		mpz_mul(zi->z[i], zi->z[i], mpq_numref(p->coefs[i]));
		b = mpz_sizeinbase(zi->z[i], 2);
		if (b > zi->bits)
			zi->bits = b;
	}
	zi->small = NULL;
	if (zi->bits <= 62) {
		zi->small = segc_xmalloc(segc_xmul_size(p->len, sizeof(int64_t)));
		for (i = 0; i < p->len; i++)
			zi->small[i] = mpz_get_si(zi->z[i]);
	}
}

/* Releases 'zi' ('n' coefficients). */
static void zimage_clear(struct zimage *zi, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mpz_clear(zi->z[i]);
	free(zi->z);
	free(zi->small);
	mpz_clear(zi->den);
}

/* The multiplier of variable 'i' in the monomial hash (splitmix64). */
static uint64_t hash_weight(size_t i)
{
	uint64_t z = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A linear hash of monomials: h(a + b) = h(a) + h(b). */
static uint64_t mono_hash(const int32_t *e, size_t n)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < n; i++)
		h += (uint64_t)(int64_t)e[i] * hash_weight(i);
	return h;
}

/* Bits needed for 'n'. */
static size_t bit_length(size_t n)
{
	size_t b = 0;

	while (n) {
		b++;
		n >>= 1;
	}
	return b;
}

/* The product accumulator: a hash table of result monomials. */
struct prod_table {
	size_t nvars, n, cap;   /* cap: result slots */
	int32_t *exps;          /* n * nvars */
	uint64_t *hashes;       /* n */
	int64_t *small;         /* n, in the machine-integer mode */
	mpz_t *big;             /* n, otherwise */
	size_t *slots;          /* tcap entries: index + 1, or 0 */
	size_t tcap;
};

/* Finds or inserts monomial 'e' of hash 'h'; returns its index or
 * (size_t)-1 on a limit. */
static size_t table_find(const segc_poly_lim *lim, struct prod_table *t,
	const int32_t *e, uint64_t h, int small);

/* Doubles the hash index of 't'. */
static void table_rehash(struct prod_table *t)
{
	size_t i, mask;

	free(t->slots);
	t->tcap *= 2;
	t->slots = segc_xcalloc(t->tcap, sizeof(size_t));
	mask = t->tcap - 1;
	for (i = 0; i < t->n; i++) {
		size_t s = (size_t)((t->hashes[i] * 0xff51afd7ed558ccdULL) >> 17) & mask;

		while (t->slots[s])
			s = (s + 1) & mask;
		t->slots[s] = i + 1;
	}
}

/* Appends a new result monomial to 't'. */
static size_t table_append(const segc_poly_lim *lim, struct prod_table *t,
	const int32_t *e, uint64_t h, int small)
{
	size_t k = t->n, v;

	for (v = 0; v < t->nvars; v++)
		if (segc_poly_check_exp(lim, e[v]))
			return (size_t)-1;
	if (segc_poly_check_terms(lim, k + 1))
		return (size_t)-1;
	if (k == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->exps = segc_xrealloc(t->exps, segc_xmul_size(t->cap,
			(t->nvars ? t->nvars : 1) * sizeof(int32_t)));
		t->hashes = segc_xrealloc(t->hashes,
			segc_xmul_size(t->cap, sizeof(uint64_t)));
		if (small)
			t->small = segc_xrealloc(t->small,
				segc_xmul_size(t->cap, sizeof(int64_t)));
		else
			t->big = segc_xrealloc(t->big,
				segc_xmul_size(t->cap, sizeof(mpz_t)));
	}
	if (t->nvars)
		memcpy(t->exps + k * t->nvars, e, t->nvars * sizeof(int32_t));
	t->hashes[k] = h;
	if (small)
		t->small[k] = 0;
	else
		mpz_init(t->big[k]);
	t->n++;
	return k;
}

static size_t table_find(const segc_poly_lim *lim, struct prod_table *t,
	const int32_t *e, uint64_t h, int small)
{
	size_t mask, s, k;

	if (2 * (t->n + 1) > t->tcap)
		table_rehash(t);
	mask = t->tcap - 1;
	s = (size_t)((h * 0xff51afd7ed558ccdULL) >> 17) & mask;
	while (t->slots[s]) {
		k = t->slots[s] - 1;
		if (t->hashes[k] == h &&
			!memcmp(t->exps + k * t->nvars, e,
				t->nvars * sizeof(int32_t)))
			return k;
		s = (s + 1) & mask;
	}
	k = table_append(lim, t, e, h, small);
	if (k != (size_t)-1)
		t->slots[s] = k + 1;
	return k;
}

/* Accumulates every product of terms of 'a' and 'b' into 't'. */
static int table_fill(const segc_poly_lim *lim, struct prod_table *t,
	const segc_poly *a, const struct zimage *za, const segc_poly *b,
	const struct zimage *zb, int small)
{
	size_t i, j, v, n = a->nvars;
	uint64_t *hb = segc_xmalloc(segc_xmul_size(b->len ? b->len : 1, 8));
	int32_t *e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	int rc = 0;

	for (j = 0; j < b->len; j++)
		hb[j] = mono_hash(term_exp(b, j), n);
	for (i = 0; i < a->len && rc == 0; i++) {
		const int32_t *ea = term_exp(a, i);
		uint64_t ha = mono_hash(ea, n);

		for (j = 0; j < b->len; j++) {
			const int32_t *eb = term_exp(b, j);
			size_t k;

			for (v = 0; v < n; v++)
				e[v] = ea[v] + eb[v];
			k = table_find(lim, t, e, ha + hb[j], small);
			if (k == (size_t)-1) {
				rc = -1;
				break;
			}
			if (small)
				t->small[k] += za->small[i] * zb->small[j];
			else
				mpz_addmul(t->big[k], za->z[i], zb->z[j]);
		}
	}
	free(hb);
	free(e);
	return rc;
}

/* Moves the table into a sorted polynomial 'out' with coefficients
 * divided by 'den'. */
static int table_collect(const segc_poly_lim *lim, segc_poly *out,
	struct prod_table *t, mpz_srcptr den, int small)
{
	struct term_ref *refs, *tmp;
	mpq_t *q;
	size_t i, n = t->n;
	int rc;

	q = segc_xmalloc(segc_xmul_size(n ? n : 1, sizeof(mpq_t)));
	refs = segc_xmalloc(segc_xmul_size(n ? n : 1, sizeof(*refs)));
	tmp = segc_xmalloc(segc_xmul_size(n ? n : 1, sizeof(*refs)));
	for (i = 0; i < n; i++) {
		mpq_init(q[i]);
		if (small)
			mpz_set_si(mpq_numref(q[i]), (long)t->small[i]);
		else
			mpz_swap(mpq_numref(q[i]), t->big[i]);
		if (mpz_cmp_ui(den, 1)) {
			mpz_set(mpq_denref(q[i]), den);
			mpq_canonicalize(q[i]);
		}
		refs[i].e = t->exps + i * t->nvars;
		refs[i].c = q[i];
	}
	segc_poly_sort_refs(refs, tmp, n, t->nvars);
	rc = segc_poly_collect_refs(lim, out, refs, n, t->nvars);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	free(refs);
	free(tmp);
	return rc;
}

/* Releases the table. */
static void table_clear(struct prod_table *t, int small)
{
	size_t i;

	if (!small)
		for (i = 0; i < t->n; i++)
			mpz_clear(t->big[i]);
	free(t->exps);
	free(t->hashes);
	free(t->small);
	free(t->big);
	free(t->slots);
}

/* The size in limbs of the largest numerator or denominator of 'p'. */
static double max_coeff_limbs(const segc_poly *p)
{
	size_t i, m = 0, k;

	for (i = 0; i < p->len; i++) {
		k = mpz_size(mpq_numref(p->coefs[i]));
		if (k > m)
			m = k;
		k = mpz_size(mpq_denref(p->coefs[i]));
		if (k > m)
			m = k;
	}
	return (double)(m ? m : 1);
}

/* Checks, before multiplying, that the product of 'a' and 'b' is work
 * within reason: term products times the limbs multiplied in each, at
 * most SEGC_POLY_WORK_PER_TERM times max_terms.  The size limits are
 * checked after an operation; this bounds the time spent before it
 * ((y + 1)^100000 has few terms per step but huge coefficients). */
static int check_work(const segc_poly_lim *lim, const segc_poly *a,
	const segc_poly *b)
{
	double work;

	if (!lim)
		return 0;
	work = (double)a->len * (double)b->len * max_coeff_limbs(a) *
		max_coeff_limbs(b);
	if (segc_ctx_charge(lim->ctx, work))
		return -1;
	if (!lim->max_terms ||
		work <= (double)lim->max_terms * SEGC_POLY_WORK_PER_TERM)
		return 0;
	if (lim->ctx)
		segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"a product of polynomials of %zu and %zu terms with "
			"coefficients of up to %.0f and %.0f limbs is too much "
			"work (limit: %d x max_terms)", a->len, b->len,
			max_coeff_limbs(a), max_coeff_limbs(b),
			SEGC_POLY_WORK_PER_TERM);
	return -1;
}

/* r = a * b for general a, b (at least two terms each). */
static int mul_general(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b)
{
	struct zimage za, zb;
	struct prod_table t;
	segc_poly out;
	mpz_t den;
	size_t minlen = a->len < b->len ? a->len : b->len;
	int small, rc;

	if (check_work(lim, a, b))
		return -1;
	zimage_init(&za, a);
	zimage_init(&zb, b);
	small = za.small && zb.small &&
		za.bits + zb.bits + bit_length(minlen) <= 62;
	memset(&t, 0, sizeof(t));
	t.nvars = a->nvars;
	t.tcap = 64;
	while (t.tcap < 2 * (a->len + b->len))
		t.tcap *= 2;
	t.slots = segc_xcalloc(t.tcap, sizeof(size_t));
	rc = table_fill(lim, &t, a, &za, b, &zb, small);
	segc_poly_init(&out, a->nvars);
	mpz_init(den);
	mpz_mul(den, za.den, zb.den);
	if (rc == 0)
		rc = table_collect(lim, &out, &t, den, small);
	mpz_clear(den);
	table_clear(&t, small);
	zimage_clear(&za, a->len);
	zimage_clear(&zb, b->len);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* r = a * b. */
int segc_poly_mul(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b)
{
	unify(a, b);
	if (a->len == 0 || b->len == 0) {
		segc_poly_extend(r, a->nvars);
		segc_poly_zero(r);
		return 0;
	}
	if (b->len == 1)
		return mul_term(lim, r, a, b, 0);
	if (a->len == 1)
		return mul_term(lim, r, b, a, 0);
	return mul_general(lim, r, a, b);
}

/* r = a^e by repeated squaring. */
int segc_poly_pow(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	unsigned long e)
{
	segc_poly base, acc;
	int rc = 0;

	segc_poly_init(&base, a->nvars);
	segc_poly_init(&acc, a->nvars);
	segc_poly_set(&base, a);
	segc_poly_set_si(&acc, 1);
	while (rc == 0) {
		if (e & 1)
			rc = segc_poly_mul(lim, &acc, &acc, &base);
		e >>= 1;
		if (!e || rc)
			break;
		rc = segc_poly_mul(lim, &base, &base, &base);
	}
	segc_poly_swap(r, &acc);
	segc_poly_clear(&acc);
	segc_poly_clear(&base);
	return rc;
}

/* ---------------------------------------------------------- division */

/* The state of a heap division a / b. */
struct divheap {
	size_t nvars;
	size_t *heap;     /* quotient indices, max-heap on mon */
	size_t hn;
	int32_t *mon;     /* per quotient term: its current product q_i*b_j */
	size_t *jidx;     /* per quotient term: j */
	size_t cap;
};

/* Monomial of heap entry 'k'. */
static const int32_t *dh_mon(const struct divheap *h, size_t k)
{
	return h->mon + k * h->nvars;
}

/* Sifts a new last element up. */
static void dh_push(struct divheap *h, size_t q)
{
	size_t i = h->hn++;

	h->heap[i] = q;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (mono_cmp(dh_mon(h, h->heap[parent]), dh_mon(h, h->heap[i]),
			h->nvars) >= 0)
			break;
		h->heap[parent] ^= h->heap[i];
		h->heap[i] ^= h->heap[parent];
		h->heap[parent] ^= h->heap[i];
		i = parent;
	}
}

/* Removes the top element. */
static void dh_pop(struct divheap *h)
{
	size_t i = 0;

	h->heap[0] = h->heap[--h->hn];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < h->hn && mono_cmp(dh_mon(h, h->heap[l]),
			dh_mon(h, h->heap[m]), h->nvars) > 0)
			m = l;
		if (r < h->hn && mono_cmp(dh_mon(h, h->heap[r]),
			dh_mon(h, h->heap[m]), h->nvars) > 0)
			m = r;
		if (m == i)
			break;
		t = h->heap[m];
		h->heap[m] = h->heap[i];
		h->heap[i] = t;
		i = m;
	}
}

/* Grows the per-quotient-term arrays to hold 'n' entries. */
static void dh_reserve(struct divheap *h, size_t n)
{
	if (n <= h->cap)
		return;
	h->cap = h->cap ? 2 * h->cap : 16;
	if (h->cap < n)
		h->cap = n;
	h->heap = segc_xrealloc(h->heap, segc_xmul_size(h->cap, sizeof(size_t)));
	h->jidx = segc_xrealloc(h->jidx, segc_xmul_size(h->cap, sizeof(size_t)));
	h->mon = segc_xrealloc(h->mon, segc_xmul_size(h->cap,
		(h->nvars ? h->nvars : 1) * sizeof(int32_t)));
}

/* Sets the monomial of quotient term 'i' to q_i * b_j. */
static void dh_set(struct divheap *h, const segc_poly *q, const segc_poly *b,
	size_t i, size_t j)
{
	size_t v;

	h->jidx[i] = j;
	for (v = 0; v < h->nvars; v++)
		h->mon[i * h->nvars + v] = term_exp(q, i)[v] + term_exp(b, j)[v];
}

/* One quotient term from remainder term c*m: 1 if added, 0 if the
 * division is not exact, -1 on a limit. */
static int div_emit(const segc_poly_lim *lim, segc_poly *q,
	struct divheap *h, const segc_poly *b, const int32_t *m, mpq_ptr c,
	const int32_t *maxdeg)
{
	size_t v, n = h->nvars;
	int32_t *e;

	/* This term meets every term of b on its way through the heap. */
	if (lim && segc_ctx_charge(lim->ctx, (double)b->len *
		(double)(1 + mpz_size(mpq_numref(c)) + mpz_size(mpq_denref(c)))))
		return -1;
	e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	for (v = 0; v < n; v++) {
		e[v] = m[v] - term_exp(b, 0)[v];
		if (e[v] < 0 || e[v] > maxdeg[v]) {
			free(e);
			return 0;
		}
	}
	mpq_div(c, c, b->coefs[0]);
	segc_poly_push_swap(q, e, c);
	free(e);
	if (segc_poly_check_terms(lim, q->len))
		return -1;
	if (b->len > 1) {
		dh_reserve(h, q->len);
		dh_set(h, q, b, q->len - 1, 1);
		dh_push(h, q->len - 1);
	}
	return 1;
}

/* The main loop of the heap division; see segc_poly_divexact(). */
static int div_loop(const segc_poly_lim *lim, segc_poly *q, const segc_poly *a,
	const segc_poly *b, struct divheap *h, const int32_t *maxdeg)
{
	size_t k = 0, n = a->nvars;
	int32_t *m = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mpq_t c, t;
	int rc = 1;

	mpq_init(c);
	mpq_init(t);
	while (rc == 1 && (k < a->len || h->hn)) {
		const int32_t *top = h->hn ? dh_mon(h, h->heap[0]) : NULL;

		if (k < a->len && (!top || mono_cmp(term_exp(a, k), top, n) >= 0))
			memcpy(m, term_exp(a, k), n * sizeof(int32_t));
		else
			memcpy(m, top, n * sizeof(int32_t));
		mpq_set_ui(c, 0, 1);
		if (k < a->len && !mono_cmp(term_exp(a, k), m, n))
			mpq_set(c, a->coefs[k++]);
		while (h->hn && !mono_cmp(dh_mon(h, h->heap[0]), m, n)) {
			size_t i = h->heap[0], j = h->jidx[i];

			dh_pop(h);
			mpq_mul(t, q->coefs[i], b->coefs[j]);
			mpq_sub(c, c, t);
			if (j + 1 < b->len) {
				dh_set(h, q, b, i, j + 1);
				dh_push(h, i);
			}
		}
		if (mpq_sgn(c))
			rc = div_emit(lim, q, h, b, m, c, maxdeg);
	}
	mpq_clear(c);
	mpq_clear(t);
	free(m);
	return rc;
}

/* q = a / b if exact (see poly.h). */
int segc_poly_divexact(const segc_poly_lim *lim, segc_poly *q, segc_poly *a,
	segc_poly *b)
{
	struct divheap h;
	segc_poly out;
	int32_t *maxdeg;
	size_t v;
	int rc;

	unify(a, b);
	if (b->len == 0)
		return 0;
	segc_poly_init(&out, a->nvars);
	maxdeg = segc_xmalloc((a->nvars ? a->nvars : 1) * sizeof(int32_t));
	for (v = 0; v < a->nvars; v++)
		maxdeg[v] = segc_poly_degree(a, v) - segc_poly_degree(b, v);
	memset(&h, 0, sizeof(h));
	h.nvars = a->nvars;
	rc = div_loop(lim, &out, a, b, &h, maxdeg);
	free(h.heap);
	free(h.mon);
	free(h.jidx);
	free(maxdeg);
	if (rc == 1)
		segc_poly_swap(q, &out);
	segc_poly_clear(&out);
	return rc;
}

/* ------------------------------------------------------- substitution */

/* out = coefficient of x_v^d in p. */
void segc_poly_coeff_var(segc_poly *out, const segc_poly *p, size_t v,
	int32_t d)
{
	segc_poly r;
	size_t i;

	segc_poly_init(&r, p->nvars);
	for (i = 0; i < p->len; i++)
		if (segc_poly_exp(p, i, v) == d) {
			segc_poly_push(&r, term_exp(p, i), p->coefs[i]);
			if (v < r.nvars)
				term_exp(&r, r.len - 1)[v] = 0;
		}
	segc_poly_swap(out, &r);
	segc_poly_clear(&r);
}

/* r = p(x_v := s). */
int segc_poly_compose_var(const segc_poly_lim *lim, segc_poly *r,
	segc_poly *p, size_t v, segc_poly *s)
{
	int32_t d, deg = segc_poly_degree(p, v);
	segc_poly acc, spow, c;
	int rc = 0;

	unify(p, s);
	segc_poly_init(&acc, p->nvars);
	segc_poly_init(&spow, p->nvars);
	segc_poly_init(&c, p->nvars);
	segc_poly_set_si(&spow, 1);
	for (d = 0; d <= deg && rc == 0; d++) {
		segc_poly_coeff_var(&c, p, v, d);
		if (!segc_poly_is_zero(&c)) {
			rc = segc_poly_mul(lim, &c, &c, &spow);
			if (rc == 0)
				rc = segc_poly_add(lim, &acc, &acc, &c);
		}
		if (d < deg && rc == 0)
			rc = segc_poly_mul(lim, &spow, &spow, s);
	}
	segc_poly_swap(r, &acc);
	segc_poly_clear(&acc);
	segc_poly_clear(&spow);
	segc_poly_clear(&c);
	return rc;
}

/* Divides 'p' by its content (see poly.h). */
void segc_poly_primitive(segc_poly *p, mpq_ptr scale)
{
	mpz_t g, l;
	size_t i;

	if (p->len == 0) {
		if (scale)
			mpq_set_ui(scale, 1, 1);
		return;
	}
	mpz_init(g);
	mpz_init_set_ui(l, 1);
	for (i = 0; i < p->len; i++) {
		mpz_gcd(g, g, mpq_numref(p->coefs[i]));
		mpz_lcm(l, l, mpq_denref(p->coefs[i]));
	}
	for (i = 0; i < p->len; i++) {
		mpz_divexact(mpq_numref(p->coefs[i]), mpq_numref(p->coefs[i]), g);
		mpz_divexact(mpq_denref(p->coefs[i]), l, mpq_denref(p->coefs[i]));
		mpz_mul(mpq_numref(p->coefs[i]), mpq_numref(p->coefs[i]),
			mpq_denref(p->coefs[i]));
		mpz_set_ui(mpq_denref(p->coefs[i]), 1);
	}
	if (scale) {
		mpz_set(mpq_numref(scale), g);
		mpz_set(mpq_denref(scale), l);
		mpq_canonicalize(scale);
	}
	mpz_clear(g);
	mpz_clear(l);
}
