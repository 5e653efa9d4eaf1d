/* poly.c - sparse multivariate Laurent polynomials over Q: storage,
 * ordering, addition (merge), multiplication (hashing of monomials with a
 * machine-integer fast path), powers and exact division (heap). */
#include <stdlib.h>
#include <string.h>
#include "algebra/poly.h"
#include "base/util.h"

/* ------------------------------------------------------------- storage */

/* The bytes held by every live polynomial (segc_poly_held). */
static size_t poly_held;

/* Records that 'p' now holds 'bytes'. */
static void account(segc_poly *p, size_t bytes)
{
	poly_held = poly_held - p->held + bytes;
	p->held = bytes;
}

/* The bytes held by every live polynomial. */
size_t segc_poly_held(void)
{
	return poly_held;
}

/* An empty polynomial over 'nvars' variables. */
void segc_poly_init(segc_poly *p, size_t nvars)
{
	p->nvars = nvars;
	p->len = 0;
	p->cap = 0;
	p->exps = NULL;
	p->coefs = NULL;
	p->held = 0;
}

/* Releases 'p'. */
void segc_poly_clear(segc_poly *p)
{
	segc_poly_zero(p);
	free(p->exps);
	free(p->coefs);
	account(p, 0);
	segc_poly_init(p, 0);
}

/* Exchanges 'a' and 'b'. */
void segc_poly_swap(segc_poly *a, segc_poly *b)
{
	segc_poly t = *a;

	*a = *b;
	*b = t;
}

/* Drops every term of 'p'. */
void segc_poly_zero(segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		mpq_clear(p->coefs[i]);
	p->len = 0;
}

/* Room for at least 'n' terms in 'p': exactly 'n' the first time (most
 * polynomials are made once, one term for an atom), doubling after. */
static void reserve(segc_poly *p, size_t n)
{
	size_t cap = p->cap ? p->cap : n;

	if (n <= p->cap)
		return;
	while (cap < n)
		cap *= 2;
	p->exps = segc_xrealloc(p->exps,
		segc_xmul_size(segc_xmul_size(cap, p->nvars ? p->nvars : 1),
			sizeof(int32_t)));
	p->coefs = segc_xrealloc(p->coefs, segc_xmul_size(cap, sizeof(mpq_t)));
	p->cap = cap;
	account(p, cap * (p->nvars ? p->nvars : 1) * sizeof(int32_t) +
		cap * sizeof(mpq_t));
}

/* The exponent vector of term 'i'. */
static int32_t *term_exp(const segc_poly *p, size_t i)
{
	return p->exps + i * p->nvars;
}

/* Appends a term (exponents copied, coefficient copied). */
void segc_poly_push(segc_poly *p, const int32_t *exp, mpq_srcptr c)
{
	reserve(p, p->len + 1);
	if (p->nvars)
		memcpy(term_exp(p, p->len), exp, p->nvars * sizeof(int32_t));
	mpq_init(p->coefs[p->len]);
	mpq_set(p->coefs[p->len], c);
	p->len++;
}

/* Appends a term whose coefficient is moved from 'c' (left as 0). */
static void push_swap(segc_poly *p, const int32_t *exp, mpq_ptr c)
{
	reserve(p, p->len + 1);
	if (p->nvars)
		memcpy(term_exp(p, p->len), exp, p->nvars * sizeof(int32_t));
	mpq_init(p->coefs[p->len]);
	mpq_swap(p->coefs[p->len], c);
	p->len++;
}

/* r = a, a deep copy. */
void segc_poly_set(segc_poly *r, const segc_poly *a)
{
	size_t i;

	if (r == a)
		return;
	segc_poly_zero(r);
	if (r->nvars != a->nvars) {
		free(r->exps);
		r->exps = NULL;
		r->cap = 0;
		free(r->coefs);
		r->coefs = NULL;
		r->nvars = a->nvars;
		account(r, 0);
	}
	reserve(r, a->len);
	if (a->len && a->nvars)
		memcpy(r->exps, a->exps, a->len * a->nvars * sizeof(int32_t));
	for (i = 0; i < a->len; i++) {
		mpq_init(r->coefs[i]);
		mpq_set(r->coefs[i], a->coefs[i]);
	}
	r->len = a->len;
}

/* p = the number c. */
void segc_poly_set_q(segc_poly *p, mpq_srcptr c)
{
	segc_poly_zero(p);
	if (!mpq_sgn(c))
		return;
	reserve(p, 1);
	if (p->nvars)
		memset(p->exps, 0, p->nvars * sizeof(int32_t));
	mpq_init(p->coefs[0]);
	mpq_set(p->coefs[0], c);
	p->len = 1;
}

/* p = the integer c. */
void segc_poly_set_si(segc_poly *p, long c)
{
	segc_poly_zero(p);
	if (!c)
		return;
	reserve(p, 1);
	if (p->nvars)
		memset(p->exps, 0, p->nvars * sizeof(int32_t));
	mpq_init(p->coefs[0]);
	mpq_set_si(p->coefs[0], c, 1);
	p->len = 1;
}

/* p = x_v ^ e. */
void segc_poly_set_var(segc_poly *p, size_t v, int32_t e)
{
	mpq_t one;

	segc_poly_zero(p);
	segc_poly_extend(p, v + 1);
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_poly_set_q(p, one);
	term_exp(p, 0)[v] = e;
	mpq_clear(one);
}

/* Pads the exponent vectors of 'p' with zeros up to 'nvars'. */
void segc_poly_extend(segc_poly *p, size_t nvars)
{
	int32_t *e;
	size_t i, old = p->nvars;

	if (nvars <= old)
		return;
	e = segc_xcalloc(segc_xmul_size(p->cap ? p->cap : 1, nvars),
		sizeof(int32_t));
	for (i = 0; i < p->len; i++)
		if (old)
			memcpy(e + i * nvars, p->exps + i * old,
				old * sizeof(int32_t));
	free(p->exps);
	p->exps = e;
	p->nvars = nvars;
	account(p, (p->cap ? p->cap : 1) * nvars * sizeof(int32_t) +
		p->cap * sizeof(mpq_t));
}

/* Brings 'a' and 'b' to the same number of variables. */
static void unify(segc_poly *a, segc_poly *b)
{
	segc_poly_extend(a, b->nvars);
	segc_poly_extend(b, a->nvars);
}

/* ------------------------------------------------------------ queries */

/* Non-zero for the zero polynomial. */
int segc_poly_is_zero(const segc_poly *p)
{
	return p->len == 0;
}

/* Non-zero when every exponent of 'e' (n of them) is zero. */
static int exp_is_zero(const int32_t *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i])
			return 0;
	return 1;
}

/* Non-zero when 'p' is a number. */
int segc_poly_is_const(const segc_poly *p)
{
	return p->len == 0 ||
		(p->len == 1 && exp_is_zero(term_exp(p, 0), p->nvars));
}

/* Non-zero when 'p' is 1. */
int segc_poly_is_one(const segc_poly *p)
{
	return p->len == 1 && exp_is_zero(term_exp(p, 0), p->nvars) &&
		mpz_cmp_ui(mpq_numref(p->coefs[0]), 1) == 0 &&
		mpz_cmp_ui(mpq_denref(p->coefs[0]), 1) == 0;
}

/* Non-zero when every coefficient is an integer. */
int segc_poly_is_integral(const segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		if (mpz_cmp_ui(mpq_denref(p->coefs[i]), 1))
			return 0;
	return 1;
}

/* Drops the trailing variables absent from 'p' (see poly.h). */
void segc_poly_trim(segc_poly *p)
{
	size_t i, v, n = p->nvars, w = 0;

	for (i = 0; i < p->len && w < n; i++) {
		const int32_t *e = term_exp(p, i);

		for (v = n; v > w; v--)
			if (e[v - 1]) {
				w = v;
				break;
			}
	}
	if (w == n)
		return;
	for (i = 0; i < p->len; i++)
		memmove(p->exps + i * w, p->exps + i * n, w * sizeof(int32_t));
	p->nvars = w;
}

/* Marks the variables present in 'p' (see poly.h). */
size_t segc_poly_used_vars(const segc_poly *p, char *used)
{
	size_t i, v, n = p->nvars, k = 0;

	memset(used, 0, n);
	for (i = 0; i < p->len; i++) {
		const int32_t *e = term_exp(p, i);

		for (v = 0; v < n; v++)
			used[v] |= e[v] != 0;
	}
	for (v = 0; v < n; v++)
		k += used[v];
	return k;
}

/* Lexicographic comparison of two exponent vectors: >0 when 'a' is the
 * larger monomial. */
static int mono_cmp(const int32_t *a, const int32_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] > b[i] ? 1 : -1;
	return 0;
}

/* Structural equality (different nvars allowed). */
int segc_poly_equal(const segc_poly *a, const segc_poly *b)
{
	size_t i, v, n = a->nvars > b->nvars ? a->nvars : b->nvars;

	if (a->len != b->len)
		return 0;
	for (i = 0; i < a->len; i++) {
		if (!mpq_equal(a->coefs[i], b->coefs[i]))
			return 0;
		for (v = 0; v < n; v++)
			if (segc_poly_exp(a, i, v) != segc_poly_exp(b, i, v))
				return 0;
	}
	return 1;
}

/* Largest exponent of 'v'. */
int32_t segc_poly_degree(const segc_poly *p, size_t v)
{
	int32_t d = 0;
	size_t i;

	for (i = 0; i < p->len; i++)
		if (i == 0 || segc_poly_exp(p, i, v) > d)
			d = segc_poly_exp(p, i, v);
	return d;
}

/* Smallest exponent of 'v'. */
int32_t segc_poly_min_degree(const segc_poly *p, size_t v)
{
	int32_t d = 0;
	size_t i;

	for (i = 0; i < p->len; i++)
		if (i == 0 || segc_poly_exp(p, i, v) < d)
			d = segc_poly_exp(p, i, v);
	return d;
}

/* Non-zero when 'v' occurs in 'p'. */
int segc_poly_has_var(const segc_poly *p, size_t v)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		if (segc_poly_exp(p, i, v))
			return 1;
	return 0;
}

/* Componentwise minimum of the exponent vectors. */
void segc_poly_min_exps(const segc_poly *p, int32_t *out)
{
	size_t v;

	for (v = 0; v < p->nvars; v++)
		out[v] = segc_poly_min_degree(p, v);
}

/* ------------------------------------------------------------- limits */

/* Reports that a limit was reached, if there is a context. */
static int limit_error(const segc_poly_lim *lim, const char *what,
	unsigned long value)
{
	if (lim && lim->ctx)
		segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"%s exceeds the limit %lu", what, value);
	return -1;
}

/* Checks that the polynomials, with 'more' bytes to come, stay within
 * half of the memory budget of the context of 'lim'. */
static int check_memory(const segc_poly_lim *lim, size_t more)
{
	unsigned long half;

	if (!lim || !lim->ctx)
		return 0;
	half = segc_ctx_memory(lim->ctx) / 2;
	if (poly_held <= half && more <= half - poly_held)
		return 0;
	segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the polynomials of "
		"this formula need more than %lu bytes, half of the memory "
		"budget (max_memory)", half);
	return -1;
}

/* Checks 'n' terms against the limit, and the memory they hold. */
static int check_terms(const segc_poly_lim *lim, size_t n)
{
	if (lim && lim->max_terms && n > lim->max_terms)
		return limit_error(lim, "number of terms of a polynomial",
			(unsigned long)lim->max_terms);
	return check_memory(lim, 0);
}

/* Checks an exponent against the limit and the range of int32_t. */
static int check_exp(const segc_poly_lim *lim, int64_t e)
{
	int64_t m = INT32_MAX / 2;

	if (lim && lim->max_exponent > 0 && lim->max_exponent < m)
		m = lim->max_exponent;
	if (e > m || e < -m)
		return limit_error(lim, "an exponent", (unsigned long)m);
	return 0;
}

/* Checks the coefficient sizes and the number of terms of 'p'. */
int segc_poly_check(const segc_poly_lim *lim, const segc_poly *p)
{
	size_t i;

	if (check_terms(lim, p->len))
		return -1;
	if (!lim || !lim->max_coeff_bits)
		return 0;
	for (i = 0; i < p->len; i++)
		if (mpz_sizeinbase(mpq_numref(p->coefs[i]), 2) >
			lim->max_coeff_bits ||
			mpz_sizeinbase(mpq_denref(p->coefs[i]), 2) >
			lim->max_coeff_bits)
			return limit_error(lim, "the size in bits of a coefficient",
				lim->max_coeff_bits);
	return 0;
}

/* ---------------------------------------------------------- sorting */

/* A term seen through pointers, for sorting without moving data. */
struct term_ref {
	const int32_t *e;
	mpq_ptr c;
};

/* Merge sort of 'v' (n entries) by decreasing monomial; 'tmp' has room
 * for n entries. */
static void sort_refs(struct term_ref *v, struct term_ref *tmp, size_t n,
	size_t nvars)
{
	size_t width, i;

	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t lo = i, mid = i + width, hi = i + 2 * width;
			size_t a = lo, b = mid, k = lo;

			if (mid > n)
				mid = n;
			if (hi > n)
				hi = n;
			b = mid;
			while (a < mid && b < hi)
				tmp[k++] = mono_cmp(v[a].e, v[b].e, nvars) >= 0 ?
					v[a++] : v[b++];
			while (a < mid)
				tmp[k++] = v[a++];
			while (b < hi)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
}

/* Appends to 'r' the terms of sorted refs, adding equal monomials. */
static int collect_refs(const segc_poly_lim *lim, segc_poly *r,
	struct term_ref *v, size_t n, size_t nvars)
{
	size_t i = 0;
	mpq_t acc;

	mpq_init(acc);
	while (i < n) {
		size_t j = i + 1;

		mpq_set(acc, v[i].c);
		while (j < n && mono_cmp(v[i].e, v[j].e, nvars) == 0)
			mpq_add(acc, acc, v[j++].c);
		if (mpq_sgn(acc))
			push_swap(r, v[i].e, acc);
		mpq_set_ui(acc, 0, 1);
		i = j;
	}
	mpq_clear(acc);
	return segc_poly_check(lim, r);
}

/* Sorts, merges and cleans 'p'. */
int segc_poly_normalise(const segc_poly_lim *lim, segc_poly *p)
{
	segc_poly *one = p;

	return segc_poly_sum(lim, p, 1, &one);
}

/* The bytes that a sum of 'total' terms over 'nvars' variables may hold:
 * its operands padded to 'nvars' and its result (saturating). */
static size_t sum_bytes(size_t total, size_t nvars)
{
	size_t per = (nvars ? nvars : 1) * sizeof(int32_t) + sizeof(mpq_t);

	if (per && total > ((size_t)-1 / 2) / per)
		return (size_t)-1 / 2;
	return 2 * total * per;
}

/* r = v[0] + ... + v[n-1] by sorting all terms together. */
int segc_poly_sum(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v)
{
	size_t i, j, total = 0, k = 0, nvars = 0;
	struct term_ref *refs, *tmp;
	segc_poly out;
	int rc;

	for (i = 0; i < n; i++) {
		if (v[i]->nvars > nvars)
			nvars = v[i]->nvars;
		total += v[i]->len;
	}
	if (check_memory(lim, sum_bytes(total, nvars)))
		return -1;
	for (i = 0; i < n; i++)
		segc_poly_extend(v[i], nvars);
	if (lim && segc_ctx_charge(lim->ctx, (double)total))
		return -1;
	refs = segc_xmalloc(segc_xmul_size(total ? total : 1, sizeof(*refs)));
	tmp = segc_xmalloc(segc_xmul_size(total ? total : 1, sizeof(*refs)));
	for (i = 0; i < n; i++)
		for (j = 0; j < v[i]->len; j++) {
			refs[k].e = term_exp(v[i], j);
			refs[k++].c = v[i]->coefs[j];
		}
	sort_refs(refs, tmp, total, nvars);
	free(tmp);
	segc_poly_init(&out, nvars);
	rc = collect_refs(lim, &out, refs, total, nvars);
	free(refs);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* --------------------------------------------------------- addition */

/* r = a + sign*b by merging. */
static int add_signed(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b, int sign)
{
	size_t i = 0, j = 0, n;
	segc_poly out;
	mpq_t t;
	int rc;

	unify(a, b);
	if (lim && segc_ctx_charge(lim->ctx, (double)(a->len + b->len)))
		return -1;
	n = a->nvars;
	segc_poly_init(&out, n);
	reserve(&out, a->len + b->len);
	mpq_init(t);
	while (i < a->len || j < b->len) {
		int c = i == a->len ? -1 : j == b->len ? 1 :
			mono_cmp(term_exp(a, i), term_exp(b, j), n);

		if (c > 0) {
			segc_poly_push(&out, term_exp(a, i), a->coefs[i]);
			i++;
		} else if (c < 0) {
			if (sign > 0)
				mpq_set(t, b->coefs[j]);
			else
				mpq_neg(t, b->coefs[j]);
			push_swap(&out, term_exp(b, j), t);
			j++;
		} else {
			if (sign > 0)
				mpq_add(t, a->coefs[i], b->coefs[j]);
			else
				mpq_sub(t, a->coefs[i], b->coefs[j]);
			if (mpq_sgn(t))
				push_swap(&out, term_exp(a, i), t);
			i++;
			j++;
		}
	}
	mpq_clear(t);
	rc = segc_poly_check(lim, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* r = a + b. */
int segc_poly_add(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b)
{
	return add_signed(lim, r, a, b, 1);
}

/* r = a - b. */
int segc_poly_sub(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b)
{
	return add_signed(lim, r, a, b, -1);
}

/* p = -p. */
void segc_poly_neg(segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		mpq_neg(p->coefs[i], p->coefs[i]);
}

/* p = c * p. */
void segc_poly_scale(segc_poly *p, mpq_srcptr c)
{
	size_t i;

	if (!mpq_sgn(c)) {
		segc_poly_zero(p);
		return;
	}
	for (i = 0; i < p->len; i++)
		mpq_mul(p->coefs[i], p->coefs[i], c);
}

/* p = p * x^d; the order is kept. */
int segc_poly_shift(const segc_poly_lim *lim, segc_poly *p, const int32_t *d)
{
	size_t i, v;

	for (i = 0; i < p->len; i++)
		for (v = 0; v < p->nvars; v++) {
			int64_t e = (int64_t)term_exp(p, i)[v] + d[v];

			if (check_exp(lim, e))
				return -1;
			term_exp(p, i)[v] = (int32_t)e;
		}
	return 0;
}

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
		if (check_exp(lim, e[v]))
			return (size_t)-1;
	if (check_terms(lim, k + 1))
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
	sort_refs(refs, tmp, n, t->nvars);
	rc = collect_refs(lim, out, refs, n, t->nvars);
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
	push_swap(q, e, c);
	free(e);
	if (check_terms(lim, q->len))
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
