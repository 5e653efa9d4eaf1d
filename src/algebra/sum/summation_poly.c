/* summation_poly.c - the sum of a body polynomial in the counter in
 * closed form: G(n) = sum_{i=1}^{n} body, and the sum over [lo, hi] is
 * G(hi) - G(lo - 1) (summation.c decides where that holds).
 *
 * The body's terms are grouped by their monomial in the other atoms; each
 * group is a univariate polynomial p(i) = sum_k a_k i^k whose
 * antidifference comes from Faulhaber's formula with B_1 = +1/2:
 *
 *   G(n) = sum_m g_m n^m,  m! g_m = sum_j (B_j / j!) (a_{m-1+j} (m-1+j)!),
 *
 * a correlation over common denominators, computed modulo word primes
 * (dot products of words, FLINT's _nmod_vec_dot) and brought back by the
 * Chinese remainder theorem, so that the quadratic part of the work is
 * on words, with no gcd and no factorial-sized operands in it.  When hi
 * is a monomial and lo a number, G(hi) - G(lo - 1) is built term by
 * term; other bounds go through Horner's rule on rational functions. */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* Makes sure B_0 .. B_m are cached (B_1 = -1/2). */
static void bernoulli_upto(segc_canon *st, size_t m)
{
	size_t k, j;
	mpz_t bin;
	mpq_t t, acc;

	if (m < st->nbern)
		return;
	st->bernoulli = segc_xrealloc(st->bernoulli,
		segc_xmul_size(m + 1, sizeof(mpq_t)));
	mpz_init(bin);
	mpq_init(t);
	mpq_init(acc);
	for (k = st->nbern; k <= m; k++) {
		mpq_init(st->bernoulli[k]);
		if (k == 0) {
			mpq_set_ui(st->bernoulli[0], 1, 1);
			continue;
		}
		if (k > 1 && k % 2) /* B_k = 0 for odd k >= 3 */
			continue;
		mpq_set_ui(acc, 0, 1);
		for (j = 0; j < k; j++) {
			if (j > 1 && j % 2)
				continue;
			mpz_bin_uiui(bin, k + 1, j);
			mpq_set_z(t, bin);
			mpq_mul(t, t, st->bernoulli[j]);
			mpq_add(acc, acc, t);
		}
		mpq_set_ui(t, 1, k + 1);
		mpq_mul(acc, acc, t);
		mpq_neg(st->bernoulli[k], acc);
	}
	st->nbern = m + 1;
	mpz_clear(bin);
	mpq_clear(t);
	mpq_clear(acc);
}

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

/* For the first k primes p_i, as k limbs each: their product M,
 * (M - 1) / 2 and the M / p_i (row i of Mi); and the inverses of M / p_i
 * modulo p_i. */
struct crt_tab {
	int built;
	mp_limb_t *M, *Mh, *Mi, *inv;
};

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

/* Releases 'c' (may be NULL). */
void segc_sum_primes_free(segc_sum_primes *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->np; i++) {
		free(c->tab[i].fac);
		free(c->tab[i].ifac);
		free(c->tab[i].beta);
		free(c->tab[i].facs);
		free(c->tab[i].bpow);
	}
	free(c->tab);
	free(c->p);
	for (i = 0; i < c->ncomb; i++)
		if (c->built[i]) {
			fmpz_comb_temp_clear(&c->temp[i]);
			fmpz_comb_clear(&c->comb[i]);
		}
	free(c->comb);
	free(c->temp);
	free(c->built);
	for (i = 0; c->crt && i < CRT_EXPLICIT_MAX; i++) {
		free(c->crt[i].M);
		free(c->crt[i].Mh);
		free(c->crt[i].Mi);
		free(c->crt[i].inv);
	}
	free(c->crt);
	free(c);
}

/* The tables of the explicit Chinese remainders for the first 'k'
 * primes of 'c' (k <= CRT_EXPLICIT_MAX, k <= c->np), made once. */
static const struct crt_tab *primes_crt(segc_sum_primes *c, size_t k)
{
	struct crt_tab *t;
	mpz_t M, x;
	size_t i;

	if (!c->crt)
		c->crt = segc_xcalloc(CRT_EXPLICIT_MAX, sizeof(*c->crt));
	t = &c->crt[k - 1];
	if (t->built)
		return t;
	t->M = segc_xcalloc(k, sizeof(mp_limb_t));
	t->Mh = segc_xcalloc(k, sizeof(mp_limb_t));
	t->Mi = segc_xcalloc(k * k, sizeof(mp_limb_t));
	t->inv = segc_xmalloc(k * sizeof(mp_limb_t));
	mpz_init_set_ui(M, 1);
	mpz_init(x);
	for (i = 0; i < k; i++)
		mpz_mul_ui(M, M, c->p[i]);
	mpz_export(t->M, NULL, -1, sizeof(mp_limb_t), 0, 0, M);
	mpz_sub_ui(x, M, 1);
	mpz_tdiv_q_2exp(x, x, 1);
	mpz_export(t->Mh, NULL, -1, sizeof(mp_limb_t), 0, 0, x);
	for (i = 0; i < k; i++) {
		mpz_divexact_ui(x, M, c->p[i]);
		mpz_export(t->Mi + i * k, NULL, -1, sizeof(mp_limb_t), 0, 0, x);
		t->inv[i] = n_invmod(mpz_fdiv_ui(x, c->p[i]), c->p[i]);
	}
	mpz_clear(M);
	mpz_clear(x);
	t->built = 1;
	return t;
}

/* x = the integer of least absolute value whose residues modulo the
 * first k primes of 'c' are r[0..k) (k <= CRT_EXPLICIT_MAX): with u_i =
 * r_i / (M / p_i) mod p_i, x = sum u_i M / p_i - q M, where q is the
 * integer part of sum u_i / p_i (< k).  That sum is only estimated in
 * floating point; the result is made exact by adding or subtracting M
 * until it lies in [0, M), then in (-M/2, M/2). */
static void crt_explicit(segc_sum_primes *c, mpz_t x, const mp_limb_t *r,
	size_t k)
{
	const struct crt_tab *t = primes_crt(c, k);
	mp_limb_t xp[CRT_EXPLICIT_MAX + 1], *w;
	double qd = 0;
	size_t i, n;
	int neg = 0;

	/* xp[0..k] as a number of k + 1 limbs, xp[k] of two's complement:
	 * the sum is below k M < 2^(64 k + 64) */
	memset(xp, 0, (k + 1) * sizeof(mp_limb_t));
	for (i = 0; i < k; i++) {
		mp_limb_t u = nmod_mul(r[i], t->inv[i], c->tab[i].mod);

		xp[k] += mpn_addmul_1(xp, t->Mi + i * k, (mp_size_t)k, u);
		qd += (double)u / (double)c->p[i];
	}
	xp[k] -= mpn_submul_1(xp, t->M, (mp_size_t)k, (mp_limb_t)qd);
	while ((mp_limb_signed_t)xp[k] < 0)
		xp[k] += mpn_add_n(xp, xp, t->M, (mp_size_t)k);
	while (xp[k] || mpn_cmp(xp, t->M, (mp_size_t)k) >= 0)
		xp[k] -= mpn_sub_n(xp, xp, t->M, (mp_size_t)k);
	if (mpn_cmp(xp, t->Mh, (mp_size_t)k) > 0) {
		mpn_sub_n(xp, t->M, xp, (mp_size_t)k);
		neg = 1;
	}
	for (n = k; n > 0 && !xp[n - 1]; n--)
		;
	w = mpz_limbs_write(x, (mp_size_t)(n ? n : 1));
	memcpy(w, xp, n * sizeof(mp_limb_t));
	mpz_limbs_finish(x, neg ? -(mp_size_t)n : (mp_size_t)n);
}

/* The tree of products of the first 'np' primes of 'c' (np <= c->np),
 * for the reductions and the Chinese remainders, and its scratch in
 * '*temp'; made once for each number of primes. */
static fmpz_comb_struct *primes_comb(segc_sum_primes *c, size_t np,
	fmpz_comb_temp_struct **temp)
{
	size_t i;

	if (np > c->ncomb) {
		c->comb = segc_xrealloc(c->comb, np * sizeof(*c->comb));
		c->temp = segc_xrealloc(c->temp, np * sizeof(*c->temp));
		c->built = segc_xrealloc(c->built, np);
		for (i = c->ncomb; i < np; i++)
			c->built[i] = 0;
		c->ncomb = np;
	}
	if (!c->built[np - 1]) {
		fmpz_comb_init(&c->comb[np - 1], c->p, (slong)np);
		fmpz_comb_temp_init(&c->temp[np - 1], &c->comb[np - 1]);
		c->built[np - 1] = 1;
	}
	*temp = &c->temp[np - 1];
	return &c->comb[np - 1];
}

/* Fills entries from .. n - 1 of the tables of 't' (B_0 .. B_{n-1}
 * cached). */
static void prime_tab_extend(segc_canon *st, struct prime_tab *t,
	size_t from, size_t n)
{
	nmod_t mod = t->mod;
	mp_limb_t b, den;
	size_t k;

	t->fac = segc_xrealloc(t->fac, n * sizeof(mp_limb_t));
	t->ifac = segc_xrealloc(t->ifac, n * sizeof(mp_limb_t));
	t->beta = segc_xrealloc(t->beta, n * sizeof(mp_limb_t));
	t->facs = segc_xrealloc(t->facs, n * sizeof(mp_limb_t));
	for (k = from; k < n; k++) {
		t->fac[k] = k ? nmod_mul(t->fac[k - 1], (mp_limb_t)k, mod) : 1;
		t->facs[k] = n_mulmod_precomp_shoup(t->fac[k], mod.n);
	}
	/* 1/(n-1)! by one inversion, the others downwards */
	t->ifac[n - 1] = n_invmod(t->fac[n - 1], mod.n);
	for (k = n - 1; k > from; k--)
		t->ifac[k - 1] = nmod_mul(t->ifac[k], (mp_limb_t)k, mod);
	for (k = from; k < n; k++) {
		if (k > 1 && k % 2) {
			t->beta[k] = 0;
			continue;
		}
		/* den B_k is a product of primes <= k + 1, prime to p */
		b = mpz_fdiv_ui(mpq_numref(st->bernoulli[k]), mod.n);
		den = mpz_fdiv_ui(mpq_denref(st->bernoulli[k]), mod.n);
		b = nmod_mul(b, n_invmod(den, mod.n), mod);
		if (k == 1)
			b = nmod_neg(b, mod);
		t->beta[k] = nmod_mul(b, t->ifac[k], mod);
	}
}

/* Makes sure t->bpow holds the powers of 2^64 for numbers of 'n'
 * limbs. */
static void prime_tab_powers(struct prime_tab *t, size_t n)
{
	size_t k;

	if (n <= t->nbpow)
		return;
	n = n < 2 * t->nbpow ? 2 * t->nbpow : n;
	n = n < 2 ? 2 : n;
	t->bpow = segc_xrealloc(t->bpow, segc_xmul_size(n, sizeof(mp_limb_t)));
	t->bpow[0] = 1;
	NMOD_RED2(t->bpow[1], UWORD(1), UWORD(0), t->mod);
	for (k = 2; k < n; k++)
		t->bpow[k] = nmod_mul(t->bpow[k - 1], t->bpow[1], t->mod);
	t->nbpow = n;
}

/* c mod p, for p of the table 't' (its powers of 2^64 cover c): the
 * limbs of |c| times their powers, added in three limbs (each product is
 * below 2^124, so the top limb stays far below p), then one reduction;
 * FLINT's fmpz_multi_mod_ui computes the inverse of each prime anew. */
static mp_limb_t prime_tab_residue(const struct prime_tab *t, const fmpz_t c)
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

/* Makes sure st->primes holds at least 'np' primes with tables of at
 * least 'n' entries (B_0 .. B_{n-1} cached). */
static segc_sum_primes *primes_upto(segc_canon *st, size_t np, size_t n)
{
	segc_sum_primes *c = st->primes;
	size_t i, oldnp;

	if (!c) {
		c = st->primes = segc_xcalloc(1, sizeof(*c));
		c->n = 0;
	}
	if (n > c->n) {
		for (i = 0; i < c->np; i++)
			prime_tab_extend(st, &c->tab[i], c->n, n);
		c->n = n;
	}
	if (np > c->np) {
		oldnp = c->np;
		c->p = segc_xrealloc(c->p, np * sizeof(mp_limb_t));
		c->tab = segc_xrealloc(c->tab, np * sizeof(*c->tab));
		for (i = oldnp; i < np; i++) {
			c->p[i] = n_nextprime(i ? c->p[i - 1] :
				UWORD(1) << (PRIME_BITS - 1), 1);
			nmod_init(&c->tab[i].mod, c->p[i]);
			c->tab[i].fac = c->tab[i].ifac = c->tab[i].beta = NULL;
			c->tab[i].facs = c->tab[i].bpow = NULL;
			c->tab[i].nbpow = 0;
			prime_tab_extend(st, &c->tab[i], 0, c->n);
		}
		c->np = np;
	}
	return c;
}

/* Lowest terms over one denominator D shared by many numerators: the
 * antidifference of a group divides each W_m by the same D (times m).
 * D is split once into S = 2^e2 prod p_i^e_i, its odd primes up to a
 * bound, and a rest R free of them; then gcd(W, D) is the product of
 * 2^min(v_2(W), e2), the p_i^min(v_p(W), e_i) and gcd(W, R).  The
 * valuations come from the residues of W modulo a few words, each a
 * product of powers of the p_i (one reduction of W per word, not per
 * prime, as a sum of the limbs of W times the powers of 2^64 modulo the
 * word), and the test of p | r on a word r is a product by the inverse
 * of p modulo 2^64 and a comparison, no division: on the thousand-bit
 * numbers of a deep counter nest this costs less than GMP's gcd. */

/* The largest power of a prime put in a word is below 2^SMOOTH_POWER_BITS
 * (a higher exponent is then found on the number itself), and the words
 * below 2^SMOOTH_WORD_BITS, so that 128 products of a limb by a residue
 * add up in two limbs.  Of 16, 24 and 32 bits for the powers, 24 took
 * the fewest instructions on the counter nest. */
#define SMOOTH_POWER_BITS 24
#define SMOOTH_WORD_BITS 56
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

/* The inverse of the odd word 'p' modulo 2^64 (Newton's iteration). */
static mp_limb_t limb_inverse(mp_limb_t p)
{
	mp_limb_t x = p; /* right to 3 bits */
	int k;

	for (k = 0; k < 5; k++)
		x *= 2 - p * x;
	return x;
}

/* The exponent of the odd prime p_i in the word r, at most 'cap'. */
static mp_limb_t word_valuation(const struct smooth_den *s, size_t i,
	mp_limb_t r, mp_limb_t cap)
{
	mp_limb_t v = 0;

	if (r == 0)
		return cap;
	while (v < cap && r * s->pinv[i] <= s->lim[i]) {
		r *= s->pinv[i];
		v++;
	}
	return v;
}

/* The exponent of the odd prime p_i in x != 0, at most 'cap', by words
 * p_i^k (x is left as it was; s->t is scratch). */
static mp_limb_t mpz_valuation(struct smooth_den *s, size_t i,
	const mpz_t x, mp_limb_t cap)
{
	mp_limb_t p = s->p[i], pk, v = 0, c;
	mp_limb_t k;
	int first = 1;

	while (v < cap) {
		for (pk = p, k = 1; k < cap - v && pk <= s->lim[i] / p; k++)
			pk *= p;
		c = word_valuation(s, i, mpz_fdiv_ui(first ? x : s->t, pk), k);
		v += c;
		if (c < k)
			break;
		mpz_divexact_ui(s->t, first ? x : s->t, pk);
		first = 0;
	}
	return v;
}

/* Splits D (> 0) over the primes up to 'bound'. */
static void smooth_den_init(struct smooth_den *s, const mpz_t D,
	mp_limb_t bound)
{
	mp_limb_t p, pf, cur = 1;
	size_t cap = 0, i;

	memset(s, 0, sizeof(*s));
	mpz_init_set(s->D, D);
	mpz_init(s->R);
	mpz_init(s->g);
	mpz_init(s->t);
	s->e2 = mpz_scan1(D, 0);
	mpz_tdiv_q_2exp(s->R, D, s->e2);
	for (p = 3; p <= bound && mpz_cmp_ui(s->R, 1) > 0; p = n_nextprime(p, 1)) {
		mp_limb_t e, k;

		if (!mpz_divisible_ui_p(s->R, p))
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 16;
			s->p = segc_xrealloc(s->p, cap * sizeof(mp_limb_t));
			s->e = segc_xrealloc(s->e, cap * sizeof(mp_limb_t));
			s->f = segc_xrealloc(s->f, cap * sizeof(mp_limb_t));
			s->pinv = segc_xrealloc(s->pinv, cap * sizeof(mp_limb_t));
			s->lim = segc_xrealloc(s->lim, cap * sizeof(mp_limb_t));
			s->w = segc_xrealloc(s->w, cap * sizeof(size_t));
			s->q = segc_xrealloc(s->q, cap * sizeof(mp_limb_t));
			s->mod = segc_xrealloc(s->mod, cap * sizeof(nmod_t));
		}
		i = s->n++;
		s->p[i] = p;
		s->pinv[i] = limb_inverse(p);
		s->lim[i] = (~UWORD(0)) / p;
		e = mpz_valuation(s, i, s->R, ~UWORD(0));
		s->e[i] = e;
		for (pf = p, k = 1; k < e && pf * p < (UWORD(1) << SMOOTH_POWER_BITS); k++)
			pf *= p;
		s->f[i] = k;
		if (cur > ((UWORD(1) << SMOOTH_WORD_BITS) - 1) / pf) {
			s->q[s->nq++] = cur;
			cur = 1;
		}
		cur *= pf;
		s->w[i] = s->nq;
		mpz_ui_pow_ui(s->t, p, e);
		mpz_divexact(s->R, s->R, s->t);
	}
	if (cur > 1)
		s->q[s->nq++] = cur;
	for (i = 0; i < s->nq; i++)
		nmod_init(&s->mod[i], s->q[i]);
}

/* Makes sure s->pw holds the powers of 2^64 for numbers of 'n' limbs. */
static void smooth_den_powers(struct smooth_den *s, size_t n)
{
	size_t j, k;

	if (n <= s->npw)
		return;
	n = n < 2 * s->npw ? 2 * s->npw : n;
	if (n < 2)
		n = 2;
	s->pw = segc_xrealloc(s->pw, segc_xmul_size(segc_xmul_size(n,
		s->nq ? s->nq : 1), sizeof(mp_limb_t)));
	for (j = 0; j < s->nq; j++) {
		mp_limb_t *c = s->pw + j * n;

		c[0] = 1;
		NMOD_RED2(c[1], UWORD(1), UWORD(0), s->mod[j]);
		for (k = 2; k < n; k++)
			c[k] = nmod_mul(c[k - 1], c[1], s->mod[j]);
	}
	s->npw = n;
}

/* The residue of the n limbs 'w' modulo word j: each limb times its
 * power of 2^64 (products below 2^120), added in two limbs and folded
 * every 128 limbs. */
static mp_limb_t word_residue(const struct smooth_den *s, size_t j,
	const mp_limb_t *w, size_t n)
{
	const mp_limb_t *c = s->pw + j * s->npw;
	mp_limb_t hi = 0, lo = 0, ph, pl;
	size_t k, end;

	for (k = 0; k < n; k = end) {
		end = n - k > 128 ? k + 128 : n;
		for (; k < end; k++) {
			umul_ppmm(ph, pl, w[k], c[k]);
			add_ssaaaa(hi, lo, hi, lo, ph, pl);
		}
		NMOD_RED(hi, hi, s->mod[j]);
		NMOD_RED2(lo, hi, lo, s->mod[j]);
		hi = 0;
	}
	return lo;
}

/* Releases 's'. */
static void smooth_den_clear(struct smooth_den *s)
{
	free(s->p);
	free(s->e);
	free(s->f);
	free(s->pinv);
	free(s->lim);
	free(s->w);
	free(s->q);
	free(s->mod);
	free(s->pw);
	mpz_clear(s->D);
	mpz_clear(s->R);
	mpz_clear(s->g);
	mpz_clear(s->t);
}

/* r = W / (D m) in lowest terms (m > 0); W may alias the numerator of
 * 'r'. */
static void smooth_den_reduce(struct smooth_den *s, mpq_t r, const mpz_t W,
	unsigned long m)
{
	mp_limb_t gw = 1, res = 0, v;
	size_t i, j = (size_t)-1;
	unsigned long h;

	if (!mpz_sgn(W)) {
		mpq_set_ui(r, 0, 1);
		return;
	}
	mpz_set_ui(s->g, 1);
	smooth_den_powers(s, mpz_size(W));
	for (i = 0; i < s->n; i++) {
		if (s->w[i] != j) {
			j = s->w[i];
			res = word_residue(s, j, mpz_limbs_read(W),
				mpz_size(W));
		}
		v = word_valuation(s, i, res, s->f[i]);
		if (v == s->f[i] && v < s->e[i])
			v = mpz_valuation(s, i, W, s->e[i]);
		for (; v > 0; v--) {
			if (gw > s->lim[i]) {
				mpz_mul_ui(s->g, s->g, gw);
				gw = 1;
			}
			gw *= s->p[i];
		}
	}
	mpz_mul_ui(s->g, s->g, gw);
	v = mpz_scan1(W, 0);
	mpz_mul_2exp(s->g, s->g, v < s->e2 ? v : s->e2);
	if (mpz_cmp_ui(s->R, 1) > 0) {
		mpz_gcd(s->t, W, s->R);
		mpz_mul(s->g, s->g, s->t);
	}
	mpz_divexact(mpq_numref(r), W, s->g);
	mpz_divexact(mpq_denref(r), s->D, s->g);
	/* num/den is in lowest terms: (num/den)/m is num/g over den m/g,
	 * g = gcd(num, m) */
	h = mpz_gcd_ui(NULL, mpq_numref(r), m);
	if (h > 1)
		mpz_divexact_ui(mpq_numref(r), mpq_numref(r), h);
	mpz_mul_ui(mpq_denref(r), mpq_denref(r), m / h);
}

/* What the antidifference of every group of one body shares: the
 * factorials 0! .. deg!, the lcm 'blcm' of the denominators of
 * B_0..B_deg, and bounds on the sizes of B_j blcm / j!: |B_j blcm / j!|
 * < 2^bbits[j], bbits[j] = NO_BITS when B_j = 0. */
struct faulhaber {
	size_t deg;
	fmpz *fac;       /* deg + 1 factorials */
	fmpz_t blcm;
	slong *bbits;    /* deg + 1 bounds */
};

/* The bound of a number that is 0. */
#define NO_BITS (-(WORD(1) << 40))

/* Fills 'f' for bodies of degree at most 'deg'. */
static void faulhaber_init(segc_canon *st, struct faulhaber *f, size_t deg)
{
	fmpz_t t;
	size_t j;
	slong b, bl;

	bernoulli_upto(st, deg);
	f->deg = deg;
	f->fac = _fmpz_vec_init((slong)deg + 1);
	fmpz_one(f->fac);
	for (j = 1; j < deg + 1; j++)
		fmpz_mul_ui(f->fac + j, f->fac + j - 1, j);
	fmpz_init(t);
	fmpz_init_set_ui(f->blcm, 1);
	for (j = 0; j <= deg; j++) {
		fmpz_set_mpz(t, mpq_denref(st->bernoulli[j]));
		fmpz_lcm(f->blcm, f->blcm, t);
	}
	/* |num| < 2^bits(num), den >= 2^(bits(den) - 1), j! likewise */
	bl = (slong)fmpz_bits(f->blcm);
	f->bbits = segc_xmalloc((deg + 1) * sizeof(slong));
	for (j = 0; j <= deg; j++) {
		if (!mpz_sgn(mpq_numref(st->bernoulli[j]))) {
			f->bbits[j] = NO_BITS;
			continue;
		}
		b = (slong)mpz_sizeinbase(mpq_numref(st->bernoulli[j]), 2) +
			bl - (slong)mpz_sizeinbase(mpq_denref(st->bernoulli[j]),
			2) + 1 - (slong)fmpz_bits(f->fac + j) + 1;
		f->bbits[j] = b;
	}
	fmpz_clear(t);
}

/* Releases 'f'. */
static void faulhaber_clear(struct faulhaber *f)
{
	_fmpz_vec_clear(f->fac, (slong)f->deg + 1);
	fmpz_clear(f->blcm);
	free(f->bbits);
}

/* The terms of a body in groups: row i of 'key' (nvars + 1 entries) is
 * the monomial of term i with the counter's exponent zeroed, followed by
 * that exponent; 'refs' point at the rows, sorted by decreasing monomial,
 * so that the terms of a group are adjacent. */
struct groups {
	size_t nvars, len;
	int32_t *key;
	struct segc_term_ref *refs;
};

/* Non-zero when the keys of 'g' already decrease (or stay equal) from
 * one ref to the next, as the sort would leave them: a body with one
 * group, or whose counter comes last in the order of the monomials. */
static int keys_in_order(const struct groups *g)
{
	size_t i, w;

	for (i = 1; i < g->len; i++) {
		const int32_t *a = g->refs[i - 1].e, *b = g->refs[i].e;

		for (w = 0; w < g->nvars && a[w] == b[w]; w++)
			;
		if (w < g->nvars && a[w] < b[w])
			return 0;
	}
	return 1;
}

/* Groups the terms of 'p' by their monomial without x_v. */
static void groups_init(struct groups *g, const segc_poly *p, size_t v)
{
	size_t i, n = segc_poly_nvars(p), len = segc_poly_nterms(p), w = n + 1;
	struct segc_term_ref *tmp;

	g->nvars = n;
	g->len = len;
	g->key = segc_xmalloc(segc_xmul_size(segc_xmul_size(len ? len : 1, w),
		sizeof(int32_t)));
	g->refs = segc_xmalloc(segc_xmul_size(len ? len : 1,
		sizeof(*g->refs)));
	tmp = segc_xmalloc(segc_xmul_size(len ? len : 1, sizeof(*tmp)));
	for (i = 0; i < len; i++) {
		int32_t *k = g->key + i * w;

		segc_poly_get_exps(p, i, k);
		k[n] = v < n ? k[v] : 0;
		if (v < n)
			k[v] = 0;
		g->refs[i].e = k;
		g->refs[i].c = segc_poly_coeff(p, i);
	}
	if (!keys_in_order(g))
		segc_poly_sort_refs(g->refs, tmp, len, n);
	free(tmp);
}

/* Releases 'g'. */
static void groups_clear(struct groups *g)
{
	free(g->key);
	free(g->refs);
}

/* The end of the group that starts at refs[i]. */
static size_t group_end(const struct groups *g, size_t i)
{
	size_t j = i + 1;

	while (j < g->len && !memcmp(g->refs[i].e, g->refs[j].e,
		g->nvars * sizeof(int32_t)))
		j++;
	return j;
}

/* The largest counter exponent of refs[i..j). */
static size_t group_degree(const struct groups *g, size_t i, size_t j)
{
	size_t d = 0;

	for (; i < j; i++)
		if ((size_t)g->refs[i].e[g->nvars] > d)
			d = (size_t)g->refs[i].e[g->nvars];
	return d;
}

/* The number of primes that each W_m of group_antidifference needs,
 * npm[m - 1] for m = 1..n, from a bound on its size and those of its
 * factors (ubits[k] for k! c_k): 2 |W_m| < 2^b, with W_m = (1 / (m-1)!)
 * sum_j (B_j blcm / j!) (k! c_k), k = m-1+j, and (m-1)! >=
 * 2^(bits((m-1)!) - 1).  Returns the largest. */
static size_t correlation_primes(const struct faulhaber *f,
	const slong *ubits, size_t n, size_t *npm)
{
	slong best, b;
	size_t m, j, np = 1;

	for (m = 1; m <= n; m++) {
		best = NO_BITS;
		for (j = 0; j + m <= n; j++)
			if (f->bbits[j] + ubits[m - 1 + j] > best)
				best = f->bbits[j] + ubits[m - 1 + j];
		b = best + (slong)FLINT_CLOG2(n - m + 1) -
			(slong)fmpz_bits(f->fac + m - 1) + 1 + 1;
		/* each prime is above 2^(PRIME_BITS - 1) */
		npm[m - 1] = best <= NO_BITS / 2 || b < 0 ? 1 :
			(size_t)(b / (PRIME_BITS - 1) + 1);
		if (npm[m - 1] > np)
			np = npm[m - 1];
	}
	return np;
}

/* G[m], m = 0..d+1: the coefficients of sum_{i=1}^{n} p(i) = sum_m G[m]
 * n^m, where p is the group refs[i..j) of degree d in the counter:
 * with c_k = L a_k integers (L the lcm of the group's denominators) and
 * B'_j = blcm B_j (B_1 = +1/2),
 *
 *   W_m = L blcm m G[m] = sum_j binomial(m-1+j, j) B'_j c_{m-1+j}
 *       = (blcm / (m-1)!) sum_j (B_j / j!) (k! c_k),  k = m-1+j,
 *
 * a correlation of two sequences of length d + 1.  It is computed
 * modulo word primes, where the factorials are numbers of one word like
 * any other (no division by them afterwards): modulo each prime, one dot
 * product of words for each W_m that needs the prime, and W_m comes back
 * by the Chinese remainder theorem from as many primes as its bound
 * needs (correlation_primes): the higher m, the fewer, as (m-1)!
 * divides.  Each G[m] = W_m / (L blcm m) is then brought to lowest
 * terms. */
static void group_antidifference(segc_canon *st, const struct faulhaber *f,
	const struct groups *g, size_t i, size_t j, size_t d, mpq_t *G)
{
	segc_sum_primes *P;
	fmpz *c;
	fmpz_t L, t;
	mpz_t Lz;
	struct smooth_den sd;
	mp_limb_t *cres, *wres, *U, *V, *E;
	size_t k, m, q, np, *npm, n = d + 1, climbs;
	slong *ubits;

	fmpz_init(L);
	fmpz_init(t);
	fmpz_one(L);
	for (k = i; k < j; k++) {
		fmpz_set_mpz(t, mpq_denref(g->refs[k].c));
		if (!fmpz_divisible(L, t))
			fmpz_lcm(L, L, t);
	}
	c = _fmpz_vec_init((slong)n);
	for (k = i; k < j; k++) {
		size_t e = (size_t)g->refs[k].e[g->nvars];

		fmpz_set_mpz(t, mpq_denref(g->refs[k].c));
		fmpz_divexact(t, L, t);
		fmpz_set_mpz(c + e, mpq_numref(g->refs[k].c));
		fmpz_mul(c + e, c + e, t);
	}
	ubits = segc_xmalloc(n * sizeof(slong));
	npm = segc_xmalloc(n * sizeof(size_t));
	for (k = 0; k < n; k++)
		ubits[k] = fmpz_is_zero(c + k) ? NO_BITS :
			(slong)(fmpz_bits(f->fac + k) + fmpz_bits(c + k));
	np = correlation_primes(f, ubits, n, npm);
	free(ubits);
	P = primes_upto(st, np, f->deg + 1);
	cres = segc_xmalloc(segc_xmul_size(n * np, sizeof(mp_limb_t)));
	wres = segc_xmalloc(segc_xmul_size(n * np, sizeof(mp_limb_t)));
	U = segc_xmalloc(n * sizeof(mp_limb_t));
	V = segc_xmalloc(n * sizeof(mp_limb_t));
	E = segc_xmalloc(n * sizeof(mp_limb_t));
	for (k = 0, climbs = 1; k < n; k++)
		if ((size_t)fmpz_size(c + k) > climbs)
			climbs = (size_t)fmpz_size(c + k);
	for (q = 0; q < np; q++) {
		prime_tab_powers(&P->tab[q], climbs);
		for (k = 0; k < n; k++)
			cres[k * np + q] = prime_tab_residue(&P->tab[q], c + k);
	}
	for (q = 0; q < np; q++) {
		const struct prime_tab *T = &P->tab[q];
		mp_limb_t bl = fmpz_fdiv_ui(f->blcm, T->mod.n), w;
		mp_limb_t bls = n_mulmod_precomp_shoup(bl, T->mod.n);
		mp_limb_t b1s = n > 1 ? /* beta_1 is used, and there */
			n_mulmod_precomp_shoup(T->beta[1], T->mod.n) : 0;
		int nlimbs = _nmod_vec_dot_bound_limbs((slong)(d / 2 + 1),
			T->mod);

		/* B_j = 0 for odd j >= 3: apart from j = 1, W_m is the dot
		 * product of beta_0, beta_2, ... with the u_k, k = m-1+j, of
		 * the parity of m - 1; V holds the even u_k, then the odd */
		for (k = 0; k < n; k++) {
			U[k] = n_mulmod_shoup(T->fac[k], cres[k * np + q],
				T->facs[k], T->mod.n);
			V[k / 2 + (k % 2 ? n - n / 2 : 0)] = U[k];
		}
		for (k = 0; 2 * k < n; k++)
			E[k] = T->beta[2 * k];
		for (m = 1; m <= n; m++) {
			size_t r = (m - 1) % 2, s = (m - 1) / 2;
			size_t len = (d - r) / 2 + 1;

			if (npm[m - 1] <= q)
				continue;
			w = _nmod_vec_dot(E, V + (r ? n - n / 2 : 0) + s,
				(slong)(len - s), T->mod, nlimbs);
			if (m < n)
				w = nmod_add(w, n_mulmod_shoup(T->beta[1],
					U[m], b1s, T->mod.n), T->mod);
			wres[(m - 1) * np + q] = n_mulmod_shoup(bl,
				nmod_mul(w, T->ifac[m - 1], T->mod), bls,
				T->mod.n);
		}
	}
	fmpz_mul(L, L, f->blcm);
	mpz_init(Lz);
	fmpz_get_mpz(Lz, L);
	smooth_den_init(&sd, Lz, f->deg + 2 > 256 ? f->deg + 2 : 256);
	mpq_set_ui(G[0], 0, 1);
	for (m = 1; m <= n; m++) {
		fmpz_comb_temp_struct *tm;
		const fmpz_comb_struct *cm;

		if (npm[m - 1] <= CRT_EXPLICIT_MAX)
			crt_explicit(P, Lz, wres + (m - 1) * np, npm[m - 1]);
		else {
			cm = primes_comb(P, npm[m - 1], &tm);
			fmpz_multi_CRT_ui(t, wres + (m - 1) * np, cm, tm, 1);
			fmpz_get_mpz(Lz, t);
		}
		smooth_den_reduce(&sd, G[m], Lz, (unsigned long)m);
	}
	smooth_den_clear(&sd);
	mpz_clear(Lz);
	free(cres);
	free(wres);
	free(npm);
	free(U);
	free(V);
	free(E);
	_fmpz_vec_clear(c, (slong)n);
	fmpz_clear(L);
	fmpz_clear(t);
}

/* r = G(x) = sum_m g[m] x^m by Horner's rule. */
static int horner(segc_canon *st, segc_rf *r, segc_poly *g, size_t n,
	segc_rf *x)
{
	segc_rf acc, c;
	size_t m;
	int rc = 0;

	segc_rf_init(&acc);
	segc_rf_init(&c);
	for (m = n; m-- > 0 && rc == 0;) {
		rc = segc_rf_mul(st, &acc, &acc, x);
		segc_poly_set(&c.num, &g[m]);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&c);
	return rc;
}

/* What is done with the antidifference of each group: called with the
 * group's key, its degree d and its coefficients G[0..d+1]. */
typedef int (*group_fn)(void *arg, const int32_t *key, size_t d,
	mpq_t *G);

/* Calls 'fn' on the antidifference of every group of 'g'. */
static int each_group(segc_canon *st, const struct groups *g, size_t deg,
	group_fn fn, void *arg)
{
	struct faulhaber f;
	mpq_t *G = segc_xmalloc((deg + 2) * sizeof(mpq_t));
	size_t i, j, m;
	int rc = 0;

	for (m = 0; m < deg + 2; m++)
		mpq_init(G[m]);
	faulhaber_init(st, &f, deg);
	for (i = 0; i < g->len && rc == 0; i = j) {
		size_t d;

		j = group_end(g, i);
		d = group_degree(g, i, j);
		group_antidifference(st, &f, g, i, j, d, G);
		rc = fn(arg, g->refs[i].e, d, G);
	}
	faulhaber_clear(&f);
	for (m = 0; m < deg + 2; m++)
		mpq_clear(G[m]);
	free(G);
	return rc;
}

/* Collects the antidifference as g[m], polynomials free of the counter. */
static int add_to_coeffs(void *arg, const int32_t *key, size_t d, mpq_t *G)
{
	segc_poly *g = arg;
	size_t m;

	for (m = 1; m <= d + 1; m++)
		if (mpq_sgn(G[m]))
			segc_poly_push(&g[m], key, G[m]);
	return 0;
}

/* The substitution n -> c * x^e and the point n = z: the antidifference
 * is added to 'out' as G(c x^e) - G(z), term by term. */
struct subst {
	segc_canon *st;
	segc_poly *out;
	const int32_t *e;  /* segc_poly_nvars(out) exponents */
	mpq_srcptr c, z;
	size_t knvars;     /* exponents of a key before the counter's */
	int32_t *exp;      /* scratch: segc_poly_nvars(out) exponents */
	mpq_t t, cm, gz;
};

/* Adds G(c x^e) - G(z) of one group to s->out.  G(z) is evaluated
 * first (only G[0] when z = 0, the usual lower bound 1); G[m] is made
 * afresh for each group, so its values are then moved into s->out, not
 * copied. */
static int add_substituted(void *arg, const int32_t *key, size_t d,
	mpq_t *G)
{
	struct subst *s = arg;
	size_t m, lo, hi, w, n = segc_poly_nvars(s->out), kn = s->knvars;
	int is_one = mpq_cmp_ui(s->c, 1, 1) == 0;

	mpq_set(s->gz, G[0]);
	if (mpq_sgn(s->z)) {
		mpq_set_ui(s->gz, 0, 1);
		for (m = d + 2; m-- > 0;) {
			mpq_mul(s->gz, s->gz, s->z);
			mpq_add(s->gz, s->gz, G[m]);
		}
	}
	/* an exponent is affine in m: checked at the first and the last m
	 * of a term, every one between lies within them */
	for (lo = 1; lo <= d + 1 && !mpq_sgn(G[lo]); lo++)
		;
	for (hi = d + 1; hi > lo && !mpq_sgn(G[hi]); hi--)
		;
	for (w = 0; w < n && lo <= d + 1; w++) {
		int64_t k = w < kn ? key[w] : 0, e = s->e[w];

		if (segc_poly_check_exp(&s->st->lim, e * (int64_t)lo + k) ||
		    segc_poly_check_exp(&s->st->lim, e * (int64_t)hi + k))
			return -1;
	}
	mpq_set_ui(s->cm, 1, 1);
	for (m = 1; m <= d + 1 && !is_one; m++) {
		mpq_mul(s->cm, s->cm, s->c);
		mpq_mul(G[m], G[m], s->cm);
	}
	/* highest power first: with one group the terms come out sorted */
	for (m = d + 2; m-- > 1;) {
		if (!mpq_sgn(G[m]))
			continue;
		for (w = 0; w < n; w++)
			s->exp[w] = (int32_t)((int64_t)s->e[w] * (int64_t)m +
				(w < kn ? key[w] : 0));
		segc_poly_push_swap(s->out, s->exp, G[m]);
	}
	if (mpq_sgn(s->gz)) {
		mpq_neg(s->gz, s->gz);
		for (w = 0; w < n; w++)
			s->exp[w] = w < kn ? key[w] : 0;
		segc_poly_push_swap(s->out, s->exp, s->gz);
	}
	return 0;
}

/* Non-zero when 'hi' is a rational times a monomial and 'lo' a number,
 * the bounds for which the sum is built term by term. */
static int simple_bounds(const segc_rf *lo, const segc_rf *hi)
{
	return segc_rf_is_poly(hi) && segc_poly_nterms(&hi->num) == 1 &&
		segc_rf_is_poly(lo) && segc_poly_is_const(&lo->num);
}

/* a = G(hi) - G(lo - 1) for simple bounds (see simple_bounds). */
static int sum_by_terms(segc_canon *st, segc_poly *a, const struct groups *g,
	size_t deg, const segc_rf *lo, const segc_rf *hi)
{
	struct subst s;
	size_t hn = segc_poly_nvars(&hi->num);
	size_t n = g->nvars > hn ? g->nvars : hn;
	int32_t *e = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	mpq_t z;
	int rc;

	segc_poly_get_exps(&hi->num, 0, e);
	mpq_init(z);
	if (!segc_poly_is_zero(&lo->num))
		mpq_set(z, segc_poly_coeff(&lo->num, 0));
	s.st = st;
	s.out = a;
	s.e = e;
	s.c = segc_poly_coeff(&hi->num, 0);
	s.z = z;
	s.knvars = g->nvars;
	s.exp = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	mpq_init(s.t);
	mpq_init(s.cm);
	mpq_init(s.gz);
	mpq_set_si(s.t, 1, 1);
	mpq_sub(z, z, s.t);
	segc_poly_clear(a);
	segc_poly_init(a, n);
	rc = each_group(st, g, deg, add_substituted, &s);
	if (rc == 0)
		rc = segc_poly_normalise(&st->lim, a);
	mpq_clear(s.t);
	mpq_clear(s.cm);
	mpq_clear(s.gz);
	mpq_clear(z);
	free(s.exp);
	free(e);
	return rc;
}

/* a = G(hi) - G(lo - 1) by Horner's rule on rational functions. */
static int sum_by_horner(segc_canon *st, segc_rf *a, const struct groups *g,
	size_t deg, segc_rf *lo, segc_rf *hi)
{
	size_t n = deg + 2, m;
	segc_poly *c = segc_xmalloc(n * sizeof(segc_poly));
	segc_rf b, one;
	int rc;

	for (m = 0; m < n; m++)
		segc_poly_init(&c[m], g->nvars);
	segc_rf_init(&b);
	segc_rf_init(&one);
	segc_rf_set_si(st, &one, 1);
	rc = each_group(st, g, deg, add_to_coeffs, c);
	if (rc == 0)
		rc = horner(st, a, c, n, hi);
	if (rc == 0)
		rc = segc_rf_sub(st, &b, lo, &one);
	if (rc == 0)
		rc = horner(st, &b, c, n, &b);
	if (rc == 0)
		rc = segc_rf_sub(st, a, a, &b);
	for (m = 0; m < n; m++)
		segc_poly_clear(&c[m]);
	free(c);
	segc_rf_clear(&b);
	segc_rf_clear(&one);
	return rc;
}

/* r = sum_{v=lo}^{hi} num/den in closed form (num polynomial in x_v,
 * den free of it). */
int segc_sum_closed_form(segc_canon *st, segc_rf *r, const segc_poly *num,
	const segc_poly *den, size_t v, segc_rf *lo, segc_rf *hi)
{
	size_t deg = (size_t)segc_poly_degree(num, v);
	unsigned long maxdeg = segc_ctx_limits(st->ctx)->max_sum_degree;
	struct groups g;
	segc_rf a, d;
	int rc;

	if (maxdeg && deg > maxdeg) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the degree %zu of "
			"a summed polynomial exceeds the limit %lu "
			"(max_sum_degree)", deg, maxdeg);
		return -1;
	}
	if (segc_ctx_charge(st->ctx, (double)(segc_poly_nterms(num) + 1) *
		(double)(deg + 2)))
		return -1;
	groups_init(&g, num, v);
	segc_rf_init(&a);
	segc_rf_set_si(st, &a, 1);
	if (simple_bounds(lo, hi))
		rc = sum_by_terms(st, &a.num, &g, deg, lo, hi);
	else
		rc = sum_by_horner(st, &a, &g, deg, lo, hi);
	groups_clear(&g);
	if (rc == 0 && segc_poly_is_one(den) && segc_rf_is_poly(&a)) {
		/* over 1: the sum as it is, no division */
		segc_poly_swap(&r->num, &a.num);
		segc_poly_set_si(&r->den, 1);
		segc_rf_clear(&a);
		return 0;
	}
	segc_rf_init(&d);
	segc_poly_set(&d.num, den);
	if (rc == 0)
		rc = segc_rf_div(st, r, &a, &d);
	segc_rf_clear(&a);
	segc_rf_clear(&d);
	return rc;
}
