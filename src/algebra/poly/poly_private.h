/* poly_private.h - what poly.c, polyterm.c, polymul.c, polygcd.c and
 * polyflint.c share: the layout helpers of a term, the comparison of
 * monomials, the limit checks and the sort of terms by monomial.
 * Private to them. */
#ifndef SEGC_POLY_PRIVATE_H
#define SEGC_POLY_PRIVATE_H

#include <stdint.h>
#include "algebra/poly/poly.h"

/* The exponent vector of term 'i'. */
static inline int32_t *term_exp(const segc_poly *p, size_t i)
{
	return p->exps_ + i * p->nvars_;
}

/* Lexicographic comparison of two exponent vectors: >0 when 'a' is the
 * larger monomial. */
static inline int mono_cmp(const int32_t *a, const int32_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] > b[i] ? 1 : -1;
	return 0;
}

/* Two operands over the same number of variables, neither of them
 * changed: 'a' and 'b' themselves when they have it, else the narrower
 * one copied into 'tmp' and padded with zero exponents.  Open with
 * poly_pair_open, read 'a' and 'b', release with poly_pair_close. */
struct poly_pair {
	const segc_poly *a, *b;
	segc_poly tmp;
};

/* Sets 'pp' to the operands 'a' and 'b' (see struct poly_pair). */
static inline void poly_pair_open(struct poly_pair *pp, const segc_poly *a,
	const segc_poly *b)
{
	segc_poly_init(&pp->tmp, 0);
	pp->a = a;
	pp->b = b;
	if (a->nvars_ < b->nvars_) {
		segc_poly_set(&pp->tmp, a);
		segc_poly_extend(&pp->tmp, b->nvars_);
		pp->a = &pp->tmp;
	} else if (b->nvars_ < a->nvars_) {
		segc_poly_set(&pp->tmp, b);
		segc_poly_extend(&pp->tmp, a->nvars_);
		pp->b = &pp->tmp;
	}
}

/* Releases the copy 'pp' may hold. */
static inline void poly_pair_close(struct poly_pair *pp)
{
	segc_poly_clear(&pp->tmp);
}

/* A block of 'bytes' for a polynomial's terms, from those the thread
 * keeps when one fits (polybuf.c); its contents are undefined. */
void *segc_poly_buf_take(size_t bytes);
/* Gives back the block 'b' of 'bytes' (or fewer: what its holder
 * uses of it) taken by segc_poly_buf_take or malloc: kept for the next
 * polynomials or freed. */
void segc_poly_buf_give(void *b, size_t bytes);
/* Room for at least 'n' terms in 'p' (poly.c). */
void segc_poly_reserve(segc_poly *p, size_t n);
/* Makes 'p' 'n' terms over 'nvars' variables, exponents undefined and
 * coefficients initialised to be overwritten (those held are reused). */
void segc_poly_resize(segc_poly *p, size_t nvars, size_t n);
/* Makes 'p' 'n' terms over 'nvars' variables whose coefficients are to
 * be written as read-only views (mpz_roinit_n) of 'limbs' ('nlimbs' of
 * them, taken): the views of poly.c.  Exponents undefined. */
void segc_poly_resize_views(segc_poly *p, size_t nvars, size_t n,
	mp_limb_t *limbs, size_t nlimbs);
/* z = the read-only number of the 'k' limbs at 'd' (GMP's signed size,
 * normalised): mpz_roinit_n without its call, for writing views. */
static inline void segc_poly_set_view(mpz_ptr z, const mp_limb_t *d,
	mp_size_t k)
{
	const mpz_t t = MPZ_ROINIT_N((mp_limb_t *)(uintptr_t)d, k);

	*z = *t;
}
/* Gives 'p' rationals of its own in place of views: before a
 * coefficient of 'p' changes or 'p' gains a term. */
void segc_poly_own(segc_poly *p);
/* Reports that 'what' passed 'value', the limit 'name' (a field of
 * segc_limits), if lim has a context: -1. */
int segc_poly_limit_error(const segc_poly_lim *lim, const char *what,
	unsigned long value, const char *name);
/* Checks that the polynomials with 'more' bytes to come stay within half
 * of the memory budget. */
int segc_poly_check_bytes(const segc_poly_lim *lim, size_t more);
/* Non-zero when 'more' bytes fit within half of the memory budget
 * beside the polynomials held (nothing reported). */
int segc_poly_fits_bytes(const segc_poly_lim *lim, size_t more);
/* Checks 'n' terms against the limit, and the memory they hold. */
int segc_poly_check_terms(const segc_poly_lim *lim, size_t n);
/* Appends to 'r' the terms of sorted refs, adding equal monomials. */
int segc_poly_collect_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars);

/* The least common multiple of the denominators of the n refs when it
 * fits in an unsigned long, otherwise 0. */
unsigned long segc_poly_common_den(const struct segc_term_ref *v, size_t n);
/* The layout of the monomials of v[0..n) (n >= 1) packed into one word:
 * lo[x] the smallest exponent of variable x, w[x] the bits of its span;
 * returns the total bits (more than 64: they do not fit). */
unsigned segc_poly_key_layout(const struct segc_term_ref *v, size_t n,
	size_t nvars, int32_t *lo, unsigned *w);
/* The monomial 'e' packed by the layout lo, w: the integer order of
 * the words is the lexicographic order of the monomials. */
static inline uint64_t segc_poly_pack_key(const int32_t *e, size_t nvars,
	const int32_t *lo, const unsigned *w)
{
	uint64_t key = 0;
	size_t x;

	for (x = 0; x < nvars; x++)
		if (w[x])
			key = (key << w[x]) | (uint64_t)((int64_t)e[x] - lo[x]);
	return key;
}
/* r = the sum of the n refs (any order) over 'nvars' variables when
 * their monomials pack into a word and their coefficients are word-sized
 * over a word-sized common denominator: 0 done (or -1 on a limit); 1
 * when not applicable ('r' untouched). */
int segc_poly_sum_words(const segc_poly_lim *lim, segc_poly *r,
	const struct segc_term_ref *v, size_t n, size_t nvars);

#endif
