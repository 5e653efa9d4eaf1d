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
 * on words, with no gcd and no factorial-sized operands in it.  The
 * primes, their tables and the remainders are those of sum_primes.c (the
 * residues modulo the primes: sum_modular.h); each g_m is brought to
 * lowest terms over the group's denominator by smooth_den.c.  When hi is
 * a monomial and lo a number, G(hi) - G(lo - 1) is built term by term;
 * other bounds go through Horner's rule on rational functions. */
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <flint/nmod_vec.h>
#include <flint/ulong_extras.h>
#include "algebra/sum/sum_modular.h"
#include "base/util.h"

/* Makes sure B_0 .. B_m are cached (B_1 = -1/2): Faulhaber's formula
 * needs them here, and the tables modulo the primes (sum_primes.c) read
 * them. */
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
	P = segc_sum_primes_upto(st, np, f->deg + 1);
	cres = segc_xmalloc(segc_xmul_size(n * np, sizeof(mp_limb_t)));
	wres = segc_xmalloc(segc_xmul_size(n * np, sizeof(mp_limb_t)));
	U = segc_xmalloc(n * sizeof(mp_limb_t));
	V = segc_xmalloc(n * sizeof(mp_limb_t));
	E = segc_xmalloc(n * sizeof(mp_limb_t));
	for (k = 0, climbs = 1; k < n; k++)
		if ((size_t)fmpz_size(c + k) > climbs)
			climbs = (size_t)fmpz_size(c + k);
	for (q = 0; q < np; q++) {
		segc_sum_prime_tab_powers(&P->tab[q], climbs);
		for (k = 0; k < n; k++)
			cres[k * np + q] = segc_sum_prime_tab_residue(
				&P->tab[q], c + k);
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
	segc_smooth_den_init(&sd, Lz, f->deg + 2 > 256 ? f->deg + 2 : 256);
	mpq_set_ui(G[0], 0, 1);
	for (m = 1; m <= n; m++) {
		fmpz_comb_temp_struct *tm;
		const fmpz_comb_struct *cm;

		if (npm[m - 1] <= CRT_EXPLICIT_MAX)
			segc_sum_crt_explicit(P, Lz, wres + (m - 1) * np,
				npm[m - 1]);
		else {
			cm = segc_sum_primes_comb(P, npm[m - 1], &tm);
			fmpz_multi_CRT_ui(t, wres + (m - 1) * np, cm, tm, 1);
			fmpz_get_mpz(Lz, t);
		}
		segc_smooth_den_reduce(&sd, G[m], Lz, (unsigned long)m);
	}
	segc_smooth_den_clear(&sd);
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
