/* smooth_den.c - lowest terms over one denominator D shared by many
 * numerators, without GMP's gcd: the antidifference of a group
 * (summation_poly.c) divides each W_m by the same D (times m).  D is
 * split once into S = 2^e2 prod p_i^e_i, its odd primes up to a bound,
 * and a rest R free of them; then gcd(W, D) is the product of
 * 2^min(v_2(W), e2), the p_i^min(v_p(W), e_i) and gcd(W, R).  The
 * valuations come from the residues of W modulo a few words, each a
 * product of powers of the p_i (one reduction of W per word, not per
 * prime, as a sum of the limbs of W times the powers of 2^64 modulo the
 * word), and the test of p | r on a word r is a product by the inverse
 * of p modulo 2^64 and a comparison, no division: on the thousand-bit
 * numbers of a deep counter nest this costs less than GMP's gcd. */
#include <stdlib.h>
#include <string.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>
#include "algebra/sum/sum_modular.h"
#include "base/util.h"

/* The largest power of a prime put in a word is below 2^SMOOTH_POWER_BITS
 * (a higher exponent is then found on the number itself), and the words
 * below 2^SMOOTH_WORD_BITS, so that 128 products of a limb by a residue
 * add up in two limbs.  Of 16, 24 and 32 bits for the powers, 24 took
 * the fewest instructions on the counter nest. */
#define SMOOTH_POWER_BITS 24
#define SMOOTH_WORD_BITS 56

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
void segc_smooth_den_init(struct smooth_den *s, const mpz_t D,
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
		/* not NMOD_RED, whose int 0 is shifted by the norm of a
		 * small prime, past 31 bits */
		hi = n_mod2_preinv(hi, s->mod[j].n, s->mod[j].ninv);
		NMOD_RED2(lo, hi, lo, s->mod[j]);
		hi = 0;
	}
	return lo;
}

/* Releases 's'. */
void segc_smooth_den_clear(struct smooth_den *s)
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
void segc_smooth_den_reduce(struct smooth_den *s, mpq_t r, const mpz_t W,
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
