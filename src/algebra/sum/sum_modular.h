/* sum_modular.h - what the closed sums of polynomials (summation_poly.c)
 * share with the arithmetic beneath them: word primes with their tables
 * and the Chinese remainders (sum_primes.c), the residues of big
 * integers modulo those primes (inline here), and numerators over one
 * denominator brought to lowest terms without GMP's gcd (smooth_den.c).
 * Not installed. */
#ifndef SEGC_SUM_MODULAR_H
#define SEGC_SUM_MODULAR_H

#include <stddef.h>
#include <gmp.h>
#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/nmod_vec.h>
#include "algebra/canon/canon_private.h"

/* The size of the primes: below 64 bits, FLINT's dot products sum in
 * two words, not three, up to 2^(128 - 2 PRIME_BITS) = 256 terms (bodies
 * of degree up to about 510, each dot product taking half the
 * coefficients).  Of the sizes measured on the counter nest (see
 * doc/algebra.md), 60 bits took the fewest instructions. */
#define PRIME_BITS 60

/* Word primes of (2^(PRIME_BITS-1), 2^PRIME_BITS) and, modulo each, k!,
 * 1/k! and beta_j = B_j / j! (B_1 = +1/2) for k, j < n: what the
 * correlation of Faulhaber's formula needs modulo each prime.  Kept
 * across sums, extended on demand. */
struct prime_tab {
	nmod_t mod;
	mp_limb_t *fac, *ifac, *beta;
	mp_limb_t *facs;  /* Shoup's quotients of the fac[k] (p < 2^63) */
	mp_limb_t *bpow;  /* bpow[k] = 2^(64 k) mod p, k < nbpow */
	size_t nbpow;
};

/* Up to this many primes, the Chinese remainders are taken by the
 * explicit formula (crt_tab), whose tables grow with the square of the
 * number of primes; beyond, by FLINT's tree. */
#define CRT_EXPLICIT_MAX 32

/* The tables of the explicit Chinese remainders (sum_primes.c). */
struct crt_tab;

/* The primes, their tables and the trees of their products, kept in
 * st->primes across sums (segc_sum_primes_upto). */
struct segc_sum_primes {
	size_t np, n;           /* primes, entries of each table */
	struct crt_tab *crt;    /* crt[k - 1]: of the first k primes, k <=
	                         * CRT_EXPLICIT_MAX (NULL until needed) */
	mp_limb_t *p;           /* the primes, increasing */
	struct prime_tab *tab;  /* one per prime */
	fmpz_comb_struct *comb; /* comb[k - 1]: of the first k primes */
	fmpz_comb_temp_struct *temp;  /* its scratch */
	unsigned char *built;   /* whether comb[k - 1] is */
	size_t ncomb;           /* entries of comb, temp and built */
};

/* sum_primes.c: makes sure st->primes holds at least 'np' primes with
 * tables of at least 'n' entries; B_0 .. B_{n-1} must be cached
 * (summation_poly.c, bernoulli_upto). */
segc_sum_primes *segc_sum_primes_upto(segc_canon *st, size_t np,
	size_t n);
/* sum_primes.c: makes sure t->bpow holds the powers of 2^64 for numbers
 * of 'n' limbs. */
void segc_sum_prime_tab_powers(struct prime_tab *t, size_t n);

/* c mod p, for p of the table 't' (its powers of 2^64 cover c): the
 * limbs of |c| times their powers, added in three limbs (each product is
 * below 2^124, so the top limb stays far below p), then one reduction;
 * FLINT's fmpz_multi_mod_ui computes the inverse of each prime anew.
 * Inline: it is called for every coefficient and prime. */
static inline mp_limb_t segc_sum_prime_tab_residue(const struct prime_tab *t,
	const fmpz_t c)
{
	mp_limb_t r, hi = 0, mid = 0, lo = 0, ph, pl;
	const mp_limb_t *d;
	slong size;
	size_t k, n;

	if (!COEFF_IS_MPZ(*c)) {
		mp_limb_t a = *c < 0 ? -(mp_limb_t)*c : (mp_limb_t)*c;

		NMOD_RED(r, a, t->mod);
		return *c < 0 ? nmod_neg(r, t->mod) : r;
	}
	size = COEFF_TO_PTR(*c)->_mp_size;
	d = COEFF_TO_PTR(*c)->_mp_d;
	n = (size_t)(size < 0 ? -size : size);
	for (k = 0; k < n; k++) {
		umul_ppmm(ph, pl, d[k], t->bpow[k]);
		add_sssaaaaaa(hi, mid, lo, hi, mid, lo, UWORD(0), ph, pl);
	}
	NMOD_RED3(r, hi, mid, lo, t->mod);
	return size < 0 ? nmod_neg(r, t->mod) : r;
}

/* sum_primes.c: x = the integer of least absolute value whose residues
 * modulo the first k primes of 'c' are r[0..k) (k <= CRT_EXPLICIT_MAX). */
void segc_sum_crt_explicit(segc_sum_primes *c, mpz_t x,
	const mp_limb_t *r, size_t k);
/* sum_primes.c: the tree of products of the first 'np' primes of 'c',
 * for FLINT's Chinese remainders beyond CRT_EXPLICIT_MAX primes, and its
 * scratch in '*temp'. */
fmpz_comb_struct *segc_sum_primes_comb(segc_sum_primes *c, size_t np,
	fmpz_comb_temp_struct **temp);

/* A denominator D split for segc_smooth_den_reduce, which brings many
 * numerators over it to lowest terms (smooth_den.c): its power of 2, its
 * odd primes up to a bound with their exponents, powers of them gathered
 * in words, and its rest R, free of them. */
struct smooth_den {
	size_t n;               /* odd primes of D up to the bound */
	mp_limb_t *p, *e;       /* the primes and their exponents in D */
	mp_limb_t *f;           /* f_i <= e_i: p_i^f_i is in word w[i] */
	mp_limb_t *pinv, *lim;  /* 1/p mod 2^64 and floor((2^64-1)/p) */
	size_t *w;              /* the word of each prime */
	size_t nq;              /* words */
	mp_limb_t *q;           /* the words, products of the p_i^f_i */
	nmod_t *mod;            /* for each word */
	mp_limb_t *pw;          /* pw[j npw + k] = 2^(64 k) mod q[j] */
	size_t npw;             /* powers of each word in pw */
	mp_limb_t e2;           /* the exponent of 2 in D */
	mpz_t D, R, g, t;       /* D, its rest, scratch */
};

/* smooth_den.c: splits D (> 0) over the primes up to 'bound'. */
void segc_smooth_den_init(struct smooth_den *s, const mpz_t D,
	mp_limb_t bound);
/* smooth_den.c: r = W / (D m) in lowest terms (m > 0); W may alias the
 * numerator of 'r'. */
void segc_smooth_den_reduce(struct smooth_den *s, mpq_t r, const mpz_t W,
	unsigned long m);
/* smooth_den.c: releases 's'. */
void segc_smooth_den_clear(struct smooth_den *s);

#endif
