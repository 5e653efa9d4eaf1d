/* polysum.c - the sum of many terms when everything fits in words: the
 * monomials packed into one 64-bit key, the coefficients word-sized
 * integers over a word-sized common denominator.  The coefficients are
 * read once, in the order the terms are stored, and the sort and the
 * additions then touch only an array of keys and 128-bit numerators:
 * reading the GMP rationals in sorted order (each a pointer to limbs of
 * its own) was most of the time of a long sum. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/poly/poly_private.h"
#include "base/util.h"

/* Terms from which this path pays for its passes. */
#define SUM_WORDS_MIN 64

/* A term: its packed monomial, its exponents and its numerator over the
 * common denominator. */
struct word_term {
	uint64_t key;
	const int32_t *e;
	__int128 v;
};

/* Sorts t[0..n) by decreasing key: a radix sort by bytes of the 'bits'
 * low bits, each pass stable, from one array to the other; 'tmp' has
 * room for n entries. */
static void radix_sort_words(struct word_term *t, struct word_term *tmp,
	size_t n, unsigned bits)
{
	struct word_term *from = t, *to = tmp, *x;
	size_t count[256], i;
	unsigned shift;

	for (shift = 0; shift < bits; shift += 8) {
		size_t pos = 0;
		int d;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[255 - ((from[i].key >> shift) & 255)]++;
		for (d = 0; d < 256; d++) {
			size_t c = count[d];

			count[d] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			to[count[255 - ((from[i].key >> shift) & 255)]++] =
				from[i];
		x = from;
		from = to;
		to = x;
	}
	if (from != t)
		memcpy(t, from, n * sizeof(*t));
}

/* Bits of 'x'. */
static unsigned bits_of(unsigned long x)
{
	unsigned b = 0;

	while (x) {
		b++;
		x >>= 1;
	}
	return b;
}

/* z = x, a 128-bit integer. */
static void set_i128(mpz_ptr z, __int128 x)
{
	unsigned __int128 u = x < 0 ? -(unsigned __int128)x :
		(unsigned __int128)x;
	uint64_t words[2];

	if (u <= ULONG_MAX) {
		mpz_set_ui(z, (unsigned long)u);
	} else {
		words[0] = (uint64_t)u;
		words[1] = (uint64_t)(u >> 64);
		mpz_import(z, 2, -1, sizeof(uint64_t), 0, 0, words);
	}
	if (x < 0)
		mpz_neg(z, z);
}

/* |x|, and gcd(|x|, den) into '*g' (den > 0). */
static unsigned __int128 abs_gcd(__int128 x, unsigned long den,
	unsigned long *g)
{
	unsigned __int128 u = x < 0 ? -(unsigned __int128)x :
		(unsigned __int128)x;
	unsigned long a = den, b = (unsigned long)(u % den);

	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	*g = a;
	return u;
}

/* c = x / den in lowest terms (x non-zero). */
static void set_quotient(mpq_ptr c, __int128 x, unsigned long den)
{
	unsigned long a;

	abs_gcd(x, den, &a);
	set_i128(mpq_numref(c), x / (__int128)a);
	mpz_set_ui(mpq_denref(c), den / a);
}

#if GMP_NUMB_BITS == 64
/* c = x / den in lowest terms (x non-zero) as a view of limbs written at
 * 'at' (returned past them); 'one' holds the limb 1. */
static mp_limb_t *view_quotient(mpq_ptr c, __int128 x, unsigned long den,
	mp_limb_t *at, const mp_limb_t *one)
{
	unsigned long a, d;
	unsigned __int128 u = abs_gcd(x, den, &a);
	mp_size_t k;

	u /= a;
	d = den / a;
	at[0] = (mp_limb_t)u;
	at[1] = (mp_limb_t)(u >> 64);
	k = at[1] ? 2 : 1;
	segc_poly_set_view(mpq_numref(c), at, x < 0 ? -k : k);
	at += k;
	if (d == 1) {
		segc_poly_set_view(mpq_denref(c), one, 1);
	} else {
		at[0] = d;
		segc_poly_set_view(mpq_denref(c), at, 1);
		at++;
	}
	return at;
}
#endif

/* The numerators over 'den' of the n refs into t[i].v, or -1 when one
 * is not word-sized or their sum might not fit in 127 bits. */
static int scale_numerators(struct word_term *t, const struct segc_term_ref *v,
	size_t n, unsigned long den)
{
	int nb = 0, limit = 126 - (int)bits_of(den) -
		(int)bits_of((unsigned long)n);
	size_t i;

	for (i = 0; i < n; i++) {
		mpz_srcptr q = mpq_numref(v[i].c);
		long x;
		int b;

		if (!mpz_fits_slong_p(q))
			return -1;
		x = mpz_get_si(q);
		b = (int)bits_of(x < 0 ? 0UL - (unsigned long)x : (unsigned long)x);
		if (b > nb) {
			nb = b;
			if (nb > limit)
				return -1;
		}
		t[i].v = (__int128)x *
			(__int128)(den / mpz_get_ui(mpq_denref(v[i].c)));
	}
	return 0;
}

/* Appends to 'r' (empty) the sorted terms t[0..n), adding equal keys:
 * the sums are gathered in place at the front of 't' first, so that 'r'
 * is sized once. */
static void collect_words(segc_poly *r, struct word_term *t, size_t n,
	unsigned long den)
{
	size_t i, j, k = 0, nv = r->nvars_;

	for (i = 0; i < n; i = j) {
		__int128 acc = 0;

		for (j = i; j < n && t[j].key == t[i].key; j++)
			acc += t[j].v;
		if (acc) {
			t[k].e = t[i].e;
			t[k++].v = acc;
		}
	}
#if GMP_NUMB_BITS == 64
	{
		/* the coefficients as views (poly.c) of one block: at most
		 * two limbs of numerator and one of denominator each, the
		 * limb 1 first, shared by the integers */
		mp_limb_t *limbs = segc_poly_buf_take(segc_xmul_size(
			3 * k + 1, sizeof(mp_limb_t))), *at = limbs + 1;

		limbs[0] = 1;
		segc_poly_resize_views(r, nv, k, limbs, 3 * k + 1);
		for (i = 0; i < k; i++) {
			memcpy(r->exps_ + i * nv, t[i].e,
				nv * sizeof(int32_t));
			at = view_quotient(r->coefs_[i], t[i].v, den, at,
				limbs);
		}
		return;
	}
#endif
	segc_poly_resize(r, nv, k);
	for (i = 0; i < k; i++) {
		memcpy(r->exps_ + i * nv, t[i].e, nv * sizeof(int32_t));
		set_quotient(r->coefs_[i], t[i].v, den);
	}
}

/* The sum by words (see poly_private.h). */
int segc_poly_sum_words(const segc_poly_lim *lim, segc_poly *r,
	const struct segc_term_ref *v, size_t n, size_t nvars)
{
	struct word_term *t, *tmp;
	unsigned long den;
	int32_t *lo;
	unsigned *w, bits;
	size_t i;

	if (n < SUM_WORDS_MIN || !nvars)
		return 1;
	den = segc_poly_common_den(v, n);
	if (!den)
		return 1;
	lo = segc_xmalloc(segc_xmul_size(nvars, sizeof(int32_t)));
	w = segc_xmalloc(segc_xmul_size(nvars, sizeof(unsigned)));
	bits = segc_poly_key_layout(v, n, nvars, lo, w);
	t = bits <= 64 ? segc_xmalloc(segc_xmul_size(n, sizeof(*t))) : NULL;
	if (!t || scale_numerators(t, v, n, den)) {
		free(t);
		free(lo);
		free(w);
		return 1;
	}
	for (i = 0; i < n; i++) {
		t[i].key = segc_poly_pack_key(v[i].e, nvars, lo, w);
		t[i].e = v[i].e;
	}
	free(lo);
	free(w);
	tmp = segc_xmalloc(segc_xmul_size(n, sizeof(*tmp)));
	radix_sort_words(t, tmp, n, bits);
	free(tmp);
	collect_words(r, t, n, den);
	free(t);
	return segc_poly_check(lim, r);
}
