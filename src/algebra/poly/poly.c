/* poly.c - sparse multivariate Laurent polynomials over Q: storage,
 * queries, the limits, ordering and addition (merge).  Multiplication,
 * powers, division and substitution are in polymul.c (on FLINT, through
 * polyflint.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/poly/poly.h"
#include "algebra/poly/poly_private.h"
#include "base/util.h"

/* ------------------------------------------------------------- storage */

/* Views.  A result of FLINT (a product, a power, a gcd) may keep its
 * coefficients as read-only views (mpz_roinit_n) of one block of limbs,
 * 'limbs_', rather than as rationals of their own: a power of 10^4 terms
 * then costs no allocation per coefficient.  Every coefficient of a
 * polynomial is a view, or none is.  Views are read as any rational;
 * whatever changes a coefficient or adds a term first gives the
 * polynomial rationals of its own (segc_poly_own), and what drops the
 * terms drops the block. */

/* The bytes held by every live polynomial of the calling thread
 * (segc_poly_held): a derivation runs in one thread, and its budget
 * counts its own polynomials only. */
static _Thread_local size_t poly_held;

/* Records that 'p' now holds 'bytes'. */
static void account(segc_poly *p, size_t bytes)
{
	poly_held = poly_held - p->held_ + bytes;
	p->held_ = bytes;
}

/* The bytes held by every live polynomial. */
size_t segc_poly_held(void)
{
	return poly_held;
}

/* An empty polynomial over 'nvars' variables. */
void segc_poly_init(segc_poly *p, size_t nvars)
{
	p->nvars_ = nvars;
	p->len_ = 0;
	p->cap_ = 0;
	p->exps_ = NULL;
	p->coefs_ = NULL;
	p->held_ = 0;
	p->limbs_ = NULL;
	p->nlimbs_ = 0;
}

/* Gives back the exponents and coefficient slots of 'p' (polybuf.c),
 * whose terms are dropped. */
static void give_terms(segc_poly *p)
{
	segc_poly_buf_give(p->exps_, (p->cap_ ? p->cap_ : 1) *
		(p->nvars_ ? p->nvars_ : 1) * sizeof(int32_t));
	segc_poly_buf_give(p->coefs_, p->cap_ * sizeof(mpq_t));
	p->exps_ = NULL;
	p->coefs_ = NULL;
	p->cap_ = 0;
}

/* Releases 'p'. */
void segc_poly_clear(segc_poly *p)
{
	segc_poly_zero(p);
	give_terms(p);
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

/* Releases the block of limbs of 'p', whose views are no longer read. */
static void drop_limbs(segc_poly *p)
{
	poly_held -= p->nlimbs_ * sizeof(mp_limb_t);
	segc_poly_buf_give(p->limbs_, p->nlimbs_ * sizeof(mp_limb_t));
	p->limbs_ = NULL;
	p->nlimbs_ = 0;
}

/* Drops every term of 'p'. */
void segc_poly_zero(segc_poly *p)
{
	size_t i;

	if (p->limbs_)
		drop_limbs(p);
	else
		for (i = 0; i < p->len_; i++)
			mpq_clear(p->coefs_[i]);
	p->len_ = 0;
}

/* See poly_private.h: each view becomes a rational of its own, in the
 * same place (a pointer to a coefficient stays valid). */
void segc_poly_own(segc_poly *p)
{
	size_t i;

	if (!p->limbs_)
		return;
	for (i = 0; i < p->len_; i++) {
		mpq_t view;

		*view = *p->coefs_[i];
		mpq_init(p->coefs_[i]);
		mpq_set(p->coefs_[i], view);
	}
	drop_limbs(p);
}

/* Room for at least 'n' terms in 'p': exactly 'n' the first time (most
 * polynomials are made once, one term for an atom; a large one in blocks
 * kept from earlier ones, polybuf.c), doubling after. */
static void reserve(segc_poly *p, size_t n)
{
	size_t cap = p->cap_ ? p->cap_ : n, eb;

	if (n <= p->cap_)
		return;
	while (cap < n)
		cap *= 2;
	eb = segc_xmul_size(segc_xmul_size(cap, p->nvars_ ? p->nvars_ : 1),
		sizeof(int32_t));
	if (!p->cap_) {
		free(p->exps_);
		p->exps_ = segc_poly_buf_take(eb);
		p->coefs_ = segc_poly_buf_take(segc_xmul_size(cap,
			sizeof(mpq_t)));
	} else {
		p->exps_ = segc_xrealloc(p->exps_, eb);
		p->coefs_ = segc_xrealloc(p->coefs_,
			segc_xmul_size(cap, sizeof(mpq_t)));
	}
	p->cap_ = cap;
	account(p, cap * (p->nvars_ ? p->nvars_ : 1) * sizeof(int32_t) +
		cap * sizeof(mpq_t));
}

/* See poly_private.h: reserve() for the other polynomial files. */
void segc_poly_reserve(segc_poly *p, size_t n)
{
	reserve(p, n);
}

/* Makes 'p' a polynomial over 'nvars' variables with 'n' terms whose
 * exponents are undefined and whose coefficients are initialised, to be
 * overwritten: the coefficients 'p' holds are reused, which saves an
 * allocation and a release for each when a result replaces an earlier
 * one of about the same size. */
void segc_poly_resize(segc_poly *p, size_t nvars, size_t n)
{
	size_t i;

	if (p->limbs_)
		segc_poly_zero(p);
	for (i = n; i < p->len_; i++)
		mpq_clear(p->coefs_[i]);
	if (p->len_ > n)
		p->len_ = n;
	if (nvars != p->nvars_) {
		p->nvars_ = nvars;
		if (p->cap_) {
			p->exps_ = segc_xrealloc(p->exps_, segc_xmul_size(
				segc_xmul_size(p->cap_, nvars ? nvars : 1),
				sizeof(int32_t)));
			account(p, p->cap_ * (nvars ? nvars : 1) *
				sizeof(int32_t) + p->cap_ * sizeof(mpq_t));
		}
	}
	reserve(p, n);
	for (i = p->len_; i < n; i++)
		mpq_init(p->coefs_[i]);
	p->len_ = n;
}

/* See poly_private.h. */
void segc_poly_resize_views(segc_poly *p, size_t nvars, size_t n,
	mp_limb_t *limbs, size_t nlimbs)
{
	segc_poly_resize(p, nvars, 0);
	reserve(p, n);
	p->len_ = n;
	p->limbs_ = limbs;
	p->nlimbs_ = nlimbs;
	poly_held += nlimbs * sizeof(mp_limb_t);
}

/* Appends a term of exponents 'exp' and returns its coefficient, 0. */
static mpq_ptr push_exp(segc_poly *p, const int32_t *exp)
{
	mpq_ptr c;

	segc_poly_own(p);
	reserve(p, p->len_ + 1);
	if (p->nvars_)
		memcpy(term_exp(p, p->len_), exp, p->nvars_ * sizeof(int32_t));
	c = p->coefs_[p->len_++];
	mpq_init(c);
	return c;
}

/* Appends a term (exponents copied, coefficient copied). */
void segc_poly_push(segc_poly *p, const int32_t *exp, mpq_srcptr c)
{
	mpq_set(push_exp(p, exp), c);
}

/* Appends a term whose coefficient is moved from 'c' (left as 0). */
void segc_poly_push_swap(segc_poly *p, const int32_t *exp, mpq_ptr c)
{
	mpq_swap(push_exp(p, exp), c);
}

/* The view 'z' of a's block of limbs moved to the same place in r's. */
static void move_view(mpz_ptr z, const segc_poly *r, const segc_poly *a)
{
	size_t at = (size_t)(mpz_limbs_read(z) - a->limbs_);
	mp_size_t k = (mp_size_t)mpz_size(z);

	segc_poly_set_view(z, r->limbs_ + at, mpz_sgn(z) < 0 ? -k : k);
}

/* The coefficients of 'a', views, as views of a copy of its block of
 * limbs in 'r' (its terms made room for, its exponents copied). */
static void copy_views(segc_poly *r, const segc_poly *a)
{
	mp_limb_t *limbs = segc_poly_buf_take(segc_xmul_size(a->nlimbs_,
		sizeof(mp_limb_t)));
	size_t i;

	memcpy(limbs, a->limbs_, a->nlimbs_ * sizeof(mp_limb_t));
	segc_poly_resize_views(r, a->nvars_, a->len_, limbs, a->nlimbs_);
	for (i = 0; i < a->len_; i++) {
		*r->coefs_[i] = *a->coefs_[i];
		move_view(mpq_numref(r->coefs_[i]), r, a);
		move_view(mpq_denref(r->coefs_[i]), r, a);
	}
}

/* r = a, a deep copy. */
void segc_poly_set(segc_poly *r, const segc_poly *a)
{
	size_t i;

	if (r == a)
		return;
	segc_poly_zero(r);
	if (r->nvars_ != a->nvars_) {
		give_terms(r);
		r->nvars_ = a->nvars_;
		account(r, 0);
	}
	reserve(r, a->len_);
	if (a->len_ && a->nvars_)
		memcpy(r->exps_, a->exps_,
			a->len_ * a->nvars_ * sizeof(int32_t));
	if (a->limbs_) {
		copy_views(r, a);
		return;
	}
	for (i = 0; i < a->len_; i++) {
		mpq_init(r->coefs_[i]);
		mpq_set(r->coefs_[i], a->coefs_[i]);
	}
	r->len_ = a->len_;
}

/* p = the number c. */
void segc_poly_set_q(segc_poly *p, mpq_srcptr c)
{
	segc_poly_zero(p);
	if (!mpq_sgn(c))
		return;
	reserve(p, 1);
	if (p->nvars_)
		memset(p->exps_, 0, p->nvars_ * sizeof(int32_t));
	mpq_init(p->coefs_[0]);
	mpq_set(p->coefs_[0], c);
	p->len_ = 1;
}

/* p = the integer c. */
void segc_poly_set_si(segc_poly *p, long c)
{
	segc_poly_zero(p);
	if (!c)
		return;
	reserve(p, 1);
	if (p->nvars_)
		memset(p->exps_, 0, p->nvars_ * sizeof(int32_t));
	mpq_init(p->coefs_[0]);
	mpq_set_si(p->coefs_[0], c, 1);
	p->len_ = 1;
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
	size_t i, old = p->nvars_;

	if (nvars <= old)
		return;
	e = segc_xcalloc(segc_xmul_size(p->cap_ ? p->cap_ : 1, nvars),
		sizeof(int32_t));
	for (i = 0; i < p->len_; i++)
		if (old)
			memcpy(e + i * nvars, p->exps_ + i * old,
				old * sizeof(int32_t));
	free(p->exps_);
	p->exps_ = e;
	p->nvars_ = nvars;
	account(p, (p->cap_ ? p->cap_ : 1) * nvars * sizeof(int32_t) +
		p->cap_ * sizeof(mpq_t));
}

/* ------------------------------------------------------------ queries */

/* Non-zero for the zero polynomial. */
int segc_poly_is_zero(const segc_poly *p)
{
	return p->len_ == 0;
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
	return p->len_ == 0 ||
		(p->len_ == 1 && exp_is_zero(term_exp(p, 0), p->nvars_));
}

/* Non-zero when 'p' is 1. */
int segc_poly_is_one(const segc_poly *p)
{
	return p->len_ == 1 && exp_is_zero(term_exp(p, 0), p->nvars_) &&
		mpz_cmp_ui(mpq_numref(p->coefs_[0]), 1) == 0 &&
		mpz_cmp_ui(mpq_denref(p->coefs_[0]), 1) == 0;
}

/* Non-zero when every coefficient is an integer. */
int segc_poly_is_integral(const segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len_; i++)
		if (mpz_cmp_ui(mpq_denref(p->coefs_[i]), 1))
			return 0;
	return 1;
}

/* Drops the trailing variables absent from 'p' (see poly.h). */
void segc_poly_trim(segc_poly *p)
{
	size_t i, v, n = p->nvars_, w = 0;

	for (i = 0; i < p->len_ && w < n; i++) {
		const int32_t *e = term_exp(p, i);

		for (v = n; v > w; v--)
			if (e[v - 1]) {
				w = v;
				break;
			}
	}
	if (w == n)
		return;
	for (i = 0; i < p->len_; i++)
		memmove(p->exps_ + i * w, p->exps_ + i * n,
			w * sizeof(int32_t));
	p->nvars_ = w;
}

/* Non-zero when the words 'acc' (nw of them, two exponents each) and
 * 'last' (the odd variable, when n is odd) show every variable. */
static int all_used(const uint64_t *acc, size_t nw, int32_t last, size_t n)
{
	size_t v;

	for (v = 0; v < nw; v++)
		if (!(acc[v] & 0xffffffffu) || !(acc[v] >> 32))
			return 0;
	return n % 2 == 0 || last != 0;
}

/* Marks the variables present in 'p' (see poly.h).  The exponent rows
 * are or-ed together two exponents to a 64-bit word: with thousands of
 * atoms (the maxima of a large program) a polynomial's rows are long and
 * mostly zero, and this scan is a fifth of a derivation's time.  It
 * stops once every variable is seen (looked at every 64 terms), as in a
 * dense expansion, where the first terms hold them all. */
size_t segc_poly_used_vars(const segc_poly *p, char *used)
{
	size_t i, v, n = p->nvars_, k = 0, nw = n / 2;
	uint64_t *acc = segc_xcalloc(nw ? nw : 1, sizeof(uint64_t));
	int32_t last = 0;

	for (i = 0; i < p->len_; i++) {
		const int32_t *e = term_exp(p, i);

		for (v = 0; v < nw; v++) {
			uint64_t w;

			memcpy(&w, e + 2 * v, sizeof(w));
			acc[v] |= w;
		}
		if (n % 2)
			last |= e[n - 1];
		if (i % 64 == 63 && all_used(acc, nw, last, n))
			break;
	}
	for (v = 0; v < nw; v++) {
		uint32_t h[2];

		memcpy(h, &acc[v], sizeof(h));
		used[2 * v] = h[0] != 0;
		used[2 * v + 1] = h[1] != 0;
		k += (size_t)used[2 * v] + (size_t)used[2 * v + 1];
	}
	if (n % 2) {
		used[n - 1] = last != 0;
		k += (size_t)used[n - 1];
	}
	free(acc);
	return k;
}

/* Structural equality (different nvars allowed). */
int segc_poly_equal(const segc_poly *a, const segc_poly *b)
{
	size_t i, v, n = a->nvars_ > b->nvars_ ? a->nvars_ : b->nvars_;

	if (a->len_ != b->len_)
		return 0;
	for (i = 0; i < a->len_; i++) {
		if (!mpq_equal(a->coefs_[i], b->coefs_[i]))
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

	for (i = 0; i < p->len_; i++)
		if (i == 0 || segc_poly_exp(p, i, v) > d)
			d = segc_poly_exp(p, i, v);
	return d;
}

/* Smallest exponent of 'v'. */
int32_t segc_poly_min_degree(const segc_poly *p, size_t v)
{
	int32_t d = 0;
	size_t i;

	for (i = 0; i < p->len_; i++)
		if (i == 0 || segc_poly_exp(p, i, v) < d)
			d = segc_poly_exp(p, i, v);
	return d;
}

/* Non-zero when 'v' occurs in 'p'. */
int segc_poly_has_var(const segc_poly *p, size_t v)
{
	size_t i;

	if (v >= p->nvars_)
		return 0;

	for (i = 0; i < p->len_; i++)
		if (segc_poly_exp(p, i, v))
			return 1;
	return 0;
}

/* Componentwise minimum of the exponent vectors. */
void segc_poly_min_exps(const segc_poly *p, int32_t *out)
{
	size_t v;

	for (v = 0; v < p->nvars_; v++)
		out[v] = segc_poly_min_degree(p, v);
}

/* ------------------------------------------------------------- limits */

/* Reports that the limit 'name' (a field of segc_limits) was reached,
 * if there is a context. */
int segc_poly_limit_error(const segc_poly_lim *lim, const char *what,
	unsigned long value, const char *name)
{
	if (lim && lim->ctx)
		segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"%s exceeds the limit %lu (%s)", what, value, name);
	return -1;
}

/* Checks that the polynomials, with 'more' bytes to come, stay within
 * half of the memory budget of the context of 'lim'. */
int segc_poly_check_bytes(const segc_poly_lim *lim, size_t more)
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

/* Non-zero when 'more' bytes fit beside the polynomials within half of
 * the memory budget (nothing reported). */
int segc_poly_fits_bytes(const segc_poly_lim *lim, size_t more)
{
	unsigned long half;

	if (!lim || !lim->ctx)
		return 1;
	half = segc_ctx_memory(lim->ctx) / 2;
	return poly_held <= half && more <= half - poly_held;
}

/* Checks 'n' terms against the limit, and the memory they hold. */
int segc_poly_check_terms(const segc_poly_lim *lim, size_t n)
{
	if (lim && lim->max_terms && n > lim->max_terms)
		return segc_poly_limit_error(lim, "number of terms of a polynomial",
			(unsigned long)lim->max_terms, "max_terms");
	return segc_poly_check_bytes(lim, 0);
}

/* Checks a polynomial of 'terms' terms over 'nvars' variables against
 * the limits before it is made (see poly.h). */
int segc_poly_check_size(const segc_poly_lim *lim, size_t terms,
	size_t nvars)
{
	double bytes = (double)terms * ((double)(nvars ? nvars : 1) *
		sizeof(int32_t) + sizeof(mpq_t));

	if (lim && lim->max_terms && terms > lim->max_terms)
		return segc_poly_limit_error(lim, "number of terms of a polynomial",
			(unsigned long)lim->max_terms, "max_terms");
	return segc_poly_check_bytes(lim, bytes > (double)SIZE_MAX ?
		SIZE_MAX : (size_t)bytes);
}

/* Checks an exponent against the limit and the range of int32_t. */
int segc_poly_check_exp(const segc_poly_lim *lim, int64_t e)
{
	int64_t m = INT32_MAX / 2;

	if (lim && lim->max_exponent > 0 && lim->max_exponent < m)
		m = lim->max_exponent;
	if (e > m || e < -m)
		return segc_poly_limit_error(lim, "an exponent", (unsigned long)m,
			"max_exponent");
	return 0;
}

/* Non-zero when 'z' has more than 'max' bits; its limbs alone tell
 * when they are few (a coefficient of a long polynomial is one). */
static int bits_over(mpz_srcptr z, unsigned long max)
{
	if ((unsigned long)mpz_size(z) <= max / GMP_NUMB_BITS)
		return 0;
	return mpz_sizeinbase(z, 2) > max;
}

/* Checks the coefficient sizes and the number of terms of 'p'. */
int segc_poly_check(const segc_poly_lim *lim, const segc_poly *p)
{
	size_t i;

	if (segc_poly_check_terms(lim, p->len_))
		return -1;
	if (!lim || !lim->max_coeff_bits)
		return 0;
	for (i = 0; i < p->len_; i++)
		if (bits_over(mpq_numref(p->coefs_[i]), lim->max_coeff_bits) ||
		    bits_over(mpq_denref(p->coefs_[i]), lim->max_coeff_bits))
			return segc_poly_limit_error(lim,
				"the size in bits of a coefficient",
				lim->max_coeff_bits, "max_coeff_bits");
	return 0;
}

/* ---------------------------------------------------------- sorting */

/* A term ref with its monomial packed into one word. */
struct keyed_ref {
	uint64_t key;
	struct segc_term_ref r;
};

/* The layout of packed monomials for the n terms v[0..n) (see
 * poly_private.h): lo[x] the smallest exponent of variable x, w[x] the
 * bits of its span; returns the total bits, or more than 64 when they
 * do not fit in a word. */
unsigned segc_poly_key_layout(const struct segc_term_ref *v, size_t n,
	size_t nvars, int32_t *lo, unsigned *w)
{
	int32_t *hi = segc_xmalloc(segc_xmul_size(nvars, sizeof(int32_t)));
	unsigned total = 0;
	size_t i, x;

	memcpy(lo, v[0].e, nvars * sizeof(int32_t));
	memcpy(hi, v[0].e, nvars * sizeof(int32_t));
	for (i = 1; i < n; i++)
		for (x = 0; x < nvars; x++) {
			if (v[i].e[x] < lo[x])
				lo[x] = v[i].e[x];
			if (v[i].e[x] > hi[x])
				hi[x] = v[i].e[x];
		}
	for (x = 0; x < nvars && total <= 64; x++) {
		uint64_t span = (uint64_t)((int64_t)hi[x] - lo[x]);

		for (w[x] = 0; span >> w[x]; w[x]++)
			;
		total += w[x];
	}
	free(hi);
	return total;
}

/* Packs the monomials of v[0..n) into words whose order as integers is
 * the lexicographic order of the monomials (variable 0 in the highest
 * bits, each exponent less its smallest): returns the keys (malloc'd)
 * and their bits in '*bits', or NULL when they need more than 64 bits. */
static struct keyed_ref *pack_keys(const struct segc_term_ref *v, size_t n,
	size_t nvars, unsigned *bits)
{
	int32_t *lo = segc_xmalloc(segc_xmul_size(nvars, sizeof(int32_t)));
	unsigned *w = segc_xmalloc(segc_xmul_size(nvars, sizeof(unsigned)));
	struct keyed_ref *k = NULL;
	unsigned total = segc_poly_key_layout(v, n, nvars, lo, w);
	size_t i;

	if (total <= 64) {
		k = segc_xmalloc(segc_xmul_size(n, sizeof(*k)));
		for (i = 0; i < n; i++) {
			k[i].key = segc_poly_pack_key(v[i].e, nvars, lo, w);
			k[i].r = v[i];
		}
		*bits = total;
	}
	free(lo);
	free(w);
	return k;
}

/* Sorts k[0..n) by decreasing key: a radix sort by bytes of the 'bits'
 * low bits, each pass stable; 'tmp' has room for n entries. */
static void radix_sort_keys(struct keyed_ref *k, struct keyed_ref *tmp,
	size_t n, unsigned bits)
{
	size_t count[256], i;
	unsigned shift;

	for (shift = 0; shift < bits; shift += 8) {
		size_t pos = 0;
		int d;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[255 - ((k[i].key >> shift) & 255)]++;
		for (d = 0; d < 256; d++) {
			size_t c = count[d];

			count[d] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[255 - ((k[i].key >> shift) & 255)]++] = k[i];
		memcpy(k, tmp, n * sizeof(*k));
	}
}

/* Terms from which the radix sort of packed monomials pays for its
 * allocations and passes over the merge sort. */
#define PACKED_SORT_MIN 64

/* Sorts 'v' by packed monomials when there are at least PACKED_SORT_MIN
 * and they fit in a word: returns 0 when done, -1 otherwise. */
static int sort_packed(struct segc_term_ref *v, size_t n, size_t nvars)
{
	struct keyed_ref *k, *tmp;
	unsigned bits;
	size_t i;

	if (n < 2)
		return 0;
	if (n < PACKED_SORT_MIN || !nvars)
		return -1;
	k = pack_keys(v, n, nvars, &bits);
	if (!k)
		return -1;
	tmp = segc_xmalloc(segc_xmul_size(n, sizeof(*tmp)));
	radix_sort_keys(k, tmp, n, bits);
	for (i = 0; i < n; i++)
		v[i] = k[i].r;
	free(tmp);
	free(k);
	return 0;
}

/* Sort of 'v' (n entries) by decreasing monomial: a radix sort of the
 * monomials packed into words when they fit, otherwise a merge sort;
 * 'tmp' has room for n entries. */
void segc_poly_sort_refs(struct segc_term_ref *v,
	struct segc_term_ref *tmp, size_t n, size_t nvars)
{
	size_t width, i;

	if (sort_packed(v, n, nvars) == 0)
		return;

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

/* The least common multiple of the denominators of the n refs when it
 * fits in an unsigned long, otherwise 0. */
unsigned long segc_poly_common_den(const struct segc_term_ref *v, size_t n)
{
	unsigned long den = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		mpz_srcptr q = mpq_denref(v[i].c);
		unsigned long u, a, b;

		if (!mpz_fits_ulong_p(q))
			return 0;
		u = mpz_get_ui(q);
		if (den % u == 0)
			continue;
		for (a = den, b = u; b;) {
			unsigned long t = a % b;

			a = b;
			b = t;
		}
		if (den > ULONG_MAX / (u / a))
			return 0;
		den *= u / a;
	}
	return den;
}

/* collect_refs when the denominators have a common multiple 'den' that
 * fits in a word: the numerators of a monomial, each over 'den', are
 * added as integers, and each sum is brought to lowest terms once. */
static void collect_common(segc_poly *r, const struct segc_term_ref *v,
	size_t n, size_t nvars, unsigned long den)
{
	size_t i = 0, j;
	mpq_t acc;

	mpq_init(acc);
	while (i < n) {
		mpz_set_ui(mpq_numref(acc), 0);
		for (j = i; j < n && (j == i || mono_cmp(v[i].e, v[j].e,
			nvars) == 0); j++)
			mpz_addmul_ui(mpq_numref(acc), mpq_numref(v[j].c),
				den / mpz_get_ui(mpq_denref(v[j].c)));
		if (mpz_sgn(mpq_numref(acc))) {
			mpz_set_ui(mpq_denref(acc), den);
			mpq_canonicalize(acc);
			segc_poly_push_swap(r, v[i].e, acc);
		}
		i = j;
	}
	mpq_clear(acc);
}

/* Appends to 'r' the terms of sorted refs, adding equal monomials. */
int segc_poly_collect_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars)
{
	size_t i = 0;
	mpq_t acc;

	unsigned long den = segc_poly_common_den(v, n);

	if (den) {
		collect_common(r, v, n, nvars, den);
		return segc_poly_check(lim, r);
	}
	mpq_init(acc);
	while (i < n) {
		size_t j = i + 1;

		mpq_set(acc, v[i].c);
		while (j < n && mono_cmp(v[i].e, v[j].e, nvars) == 0)
			mpq_add(acc, acc, v[j++].c);
		if (mpq_sgn(acc))
			segc_poly_push_swap(r, v[i].e, acc);
		mpq_set_ui(acc, 0, 1);
		i = j;
	}
	mpq_clear(acc);
	return segc_poly_check(lim, r);
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

/* Lexicographic comparison of the monomial 'a' of 'na' variables with
 * 'b' of 'nb': >0 when 'a' is the larger, the exponents past the
 * shorter vector taken as 0. */
static int mono_cmp_pad(const int32_t *a, size_t na, const int32_t *b,
	size_t nb)
{
	size_t k, n = na < nb ? na : nb;
	int c = mono_cmp(a, b, n);

	for (k = n; c == 0 && k < na; k++)
		if (a[k])
			c = a[k] > 0 ? 1 : -1;
	for (k = n; c == 0 && k < nb; k++)
		if (b[k])
			c = b[k] > 0 ? -1 : 1;
	return c;
}

/* Appends a term with the 'm' exponents 'exp' (m <= p's variables, the
 * others 0) and returns its coefficient, 0. */
static mpq_ptr push_padded(segc_poly *p, const int32_t *exp, size_t m)
{
	int32_t *e;
	mpq_ptr c;

	segc_poly_own(p);
	reserve(p, p->len_ + 1);
	e = term_exp(p, p->len_);
	if (m)
		memcpy(e, exp, m * sizeof(int32_t));
	if (p->nvars_ > m)
		memset(e + m, 0, (p->nvars_ - m) * sizeof(int32_t));
	c = p->coefs_[p->len_++];
	mpq_init(c);
	return c;
}

/* r = a + sign*b by merging normalised 'a' and 'b' (a polynomial of
 * fewer variables has the others at 0), the work already charged.  With
 * 'take' (the two operands again, as ones that may change) the
 * coefficients of a term of one operand only are moved into 'r', not
 * copied (the operands are then only fit to be cleared). */
static int merge_signed(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b, int sign,
	segc_poly *const *take)
{
	size_t i = 0, j = 0, na = a->nvars_, nb = b->nvars_;
	segc_poly out;
	mpq_ptr t;
	int rc;

	segc_poly_init(&out, na > nb ? na : nb);
	reserve(&out, a->len_ + b->len_);
	while (i < a->len_ || j < b->len_) {
		int c = i == a->len_ ? -1 : j == b->len_ ? 1 :
			mono_cmp_pad(term_exp(a, i), na, term_exp(b, j), nb);

		if (c > 0) {
			t = push_padded(&out, term_exp(a, i), na);
			if (take && !a->limbs_)
				mpq_swap(t, take[0]->coefs_[i]);
			else
				mpq_set(t, a->coefs_[i]);
			i++;
		} else if (c < 0) {
			t = push_padded(&out, term_exp(b, j), nb);
			if (take && !b->limbs_)
				mpq_swap(t, take[1]->coefs_[j]);
			else
				mpq_set(t, b->coefs_[j]);
			if (sign < 0)
				mpq_neg(t, t);
			j++;
		} else {
			t = push_padded(&out, term_exp(a, i), na);
			if (sign > 0)
				mpq_add(t, a->coefs_[i], b->coefs_[j]);
			else
				mpq_sub(t, a->coefs_[i], b->coefs_[j]);
			if (!mpq_sgn(t))
				mpq_clear(out.coefs_[--out.len_]);
			i++;
			j++;
		}
	}
	rc = segc_poly_check(lim, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* Non-zero when the terms of 'p' are in decreasing order of distinct
 * monomials with no zero coefficient: the form a sort and merge give. */
static int is_normal(const segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len_; i++)
		if (!mpq_sgn(p->coefs_[i]) || (i + 1 < p->len_ &&
		    mono_cmp(term_exp(p, i), term_exp(p, i + 1), p->nvars_) <= 0))
			return 0;
	return 1;
}

/* Sorts, merges and cleans 'p'.  Terms built in order (a closed sum
 * pushes them so) are only checked against the limits, as a sort would
 * check them, and keep their coefficients where they are. */
int segc_poly_normalise(const segc_poly_lim *lim, segc_poly *p)
{
	segc_poly *one = p;

	if (!is_normal(p))
		return segc_poly_sum(lim, p, 1, &one);
	if (segc_poly_check_bytes(lim, sum_bytes(p->len_, p->nvars_)))
		return -1;
	if (lim && segc_ctx_charge(lim->ctx, (double)p->len_))
		return -1;
	return segc_poly_check(lim, p);
}

static int sum_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars);

/* r = v[0] + ... + v[n-1] by sorting all terms together; with 'take'
 * two sorted operands give their coefficients to the merge. */
static int poly_sum(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v, int take)
{
	size_t i, j, total = 0, k = 0, nvars = 0;
	struct segc_term_ref *refs;
	int rc;

	for (i = 0; i < n; i++) {
		if (v[i]->nvars_ > nvars)
			nvars = v[i]->nvars_;
		total += v[i]->len_;
	}
	if (segc_poly_check_bytes(lim, sum_bytes(total, nvars)))
		return -1;
	for (i = 0; i < n; i++)
		segc_poly_extend(v[i], nvars);
	if (lim && segc_ctx_charge(lim->ctx, (double)total))
		return -1;
	/* two sorted operands (a level's body: its step plus the sum
	 * inside it) are merged, not sorted again */
	if (n == 2 && is_normal(v[0]) && is_normal(v[1]))
		return merge_signed(lim, r, v[0], v[1], 1, take ? v : NULL);
	refs = segc_xmalloc(segc_xmul_size(total ? total : 1, sizeof(*refs)));
	for (i = 0; i < n; i++)
		for (j = 0; j < v[i]->len_; j++) {
			refs[k].e = term_exp(v[i], j);
			refs[k++].c = v[i]->coefs_[j];
		}
	rc = sum_refs(lim, r, refs, total, nvars);
	free(refs);
	return rc;
}

/* r = v[0] + ... + v[n-1] (see poly.h). */
int segc_poly_sum(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v)
{
	return poly_sum(lim, r, n, v, 0);
}

/* See poly.h: the sum whose operands may give their coefficients. */
int segc_poly_sum_take(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v)
{
	return poly_sum(lim, r, n, v, 1);
}

/* r = the sum of the n terms of 'v' (see segc_poly_sum_refs), the
 * limits on its size checked by the caller. */
static int sum_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars)
{
	struct segc_term_ref *tmp;
	segc_poly out;
	int rc;

	segc_poly_init(&out, nvars);
	/* 'out', not 'r': the refs may point into 'r' */
	rc = segc_poly_sum_words(lim, &out, v, n, nvars);
	if (rc == 1) {
		tmp = segc_xmalloc(segc_xmul_size(n ? n : 1, sizeof(*tmp)));
		segc_poly_sort_refs(v, tmp, n, nvars);
		free(tmp);
		rc = segc_poly_collect_refs(lim, &out, v, n, nvars);
	}
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* See poly.h. */
int segc_poly_sum_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars)
{
	if (segc_poly_check_bytes(lim, sum_bytes(n, nvars)))
		return -1;
	if (lim && segc_ctx_charge(lim->ctx, (double)n))
		return -1;
	return sum_refs(lim, r, v, n, nvars);
}

/* --------------------------------------------------------- addition */

/* r = a + sign*b by merging. */
static int add_signed(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b, int sign)
{
	if (lim && segc_ctx_charge(lim->ctx, (double)(a->len_ + b->len_)))
		return -1;
	return merge_signed(lim, r, a, b, sign, NULL);
}

/* r = a + b. */
int segc_poly_add(const segc_poly_lim *lim, segc_poly *r, const segc_poly *a,
	const segc_poly *b)
{
	return add_signed(lim, r, a, b, 1);
}

/* r = a - b. */
int segc_poly_sub(const segc_poly_lim *lim, segc_poly *r, const segc_poly *a,
	const segc_poly *b)
{
	return add_signed(lim, r, a, b, -1);
}

/* p = -p. */
void segc_poly_neg(segc_poly *p)
{
	size_t i;

	segc_poly_own(p);
	for (i = 0; i < p->len_; i++)
		mpq_neg(p->coefs_[i], p->coefs_[i]);
}

/* p = c * p. */
void segc_poly_scale(segc_poly *p, mpq_srcptr c)
{
	size_t i;

	if (!mpq_sgn(c)) {
		segc_poly_zero(p);
		return;
	}
	segc_poly_own(p);
	for (i = 0; i < p->len_; i++)
		mpq_mul(p->coefs_[i], p->coefs_[i], c);
}

/* Variables up to which segc_poly_shift lists the non-zero entries of
 * its shift on the stack. */
#define SHIFT_SMALL 64

/* p = p * x^d; the order is kept. */
int segc_poly_shift(const segc_poly_lim *lim, segc_poly *p, const int32_t *d,
	size_t nd)
{
	size_t i, v, n, k, m = 0, small[SHIFT_SMALL], *nz;
	int rc = 0;

	for (v = p->nvars_; v < nd; v++)
		if (d[v]) {
			segc_poly_extend(p, nd);
			break;
		}
	n = nd < p->nvars_ ? nd : p->nvars_;
	/* 'd' is mostly zero (a monomial of a few of many atoms): only its
	 * non-zero entries are added */
	nz = n <= SHIFT_SMALL ? small : segc_xmalloc(n * sizeof(*nz));
	for (v = 0; v < n; v++)
		if (d[v])
			nz[m++] = v;
	for (i = 0; i < p->len_ && rc == 0; i++)
		for (k = 0; k < m; k++) {
			int64_t e = (int64_t)term_exp(p, i)[nz[k]] + d[nz[k]];

			if (segc_poly_check_exp(lim, e)) {
				rc = -1;
				break;
			}
			term_exp(p, i)[nz[k]] = (int32_t)e;
		}
	if (nz != small)
		free(nz);
	return rc;
}
