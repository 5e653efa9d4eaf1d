/* sum_primes.c - word primes for the closed sums of polynomials
 * (summation_poly.c) and what is kept modulo each: the factorials, their
 * inverses, beta_j = B_j / j! (B_1 = +1/2), Shoup's quotients of the
 * factorials and the powers of 2^64, extended on demand and kept in the
 * canonicalisation across sums; and the Chinese remainder theorem, by
 * the explicit formula up to CRT_EXPLICIT_MAX primes and by FLINT's tree
 * of products beyond.  The residue of a big integer modulo a prime (its
 * limbs times the powers of 2^64) is inline in sum_modular.h. */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>
#include "algebra/sum/sum_modular.h"
#include "base/util.h"

/* For the first k primes p_i, as k limbs each: their product M,
 * (M - 1) / 2 and the M / p_i (row i of Mi); and the inverses of M / p_i
 * modulo p_i. */
struct crt_tab {
	int built;
	mp_limb_t *M, *Mh, *Mi, *inv;
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
void segc_sum_crt_explicit(segc_sum_primes *c, mpz_t x, const mp_limb_t *r,
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
fmpz_comb_struct *segc_sum_primes_comb(segc_sum_primes *c, size_t np,
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
void segc_sum_prime_tab_powers(struct prime_tab *t, size_t n)
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

/* Makes sure st->primes holds at least 'np' primes with tables of at
 * least 'n' entries (B_0 .. B_{n-1} cached). */
segc_sum_primes *segc_sum_primes_upto(segc_canon *st, size_t np, size_t n)
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
