/* polymul.c - products, powers and exact division of sparse polynomials
 * (FLINT's fmpq_mpoly, through polyflint.c, with the limits checked
 * before and after each FLINT call), and the Taylor shift of a variable. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/poly/poly_private.h"
#include "algebra/poly/polyflint.h"
#include "base/util.h"

/* ------------------------------------------------------ multiplication */

static double max_coeff_limbs(const segc_poly *p);

/* r = a * (the single term b_k). */
static int mul_term(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b, size_t k)
{
	segc_poly out;
	int rc;

	if (lim && segc_ctx_charge(lim->ctx, (double)a->len_ *
		max_coeff_limbs(a)))
		return -1;
	segc_poly_init(&out, a->nvars_);
	segc_poly_set(&out, a);
	segc_poly_scale(&out, b->coefs_[k]);
	rc = segc_poly_shift(lim, &out, term_exp(b, k), b->nvars_);
	if (!rc)
		rc = segc_poly_check(lim, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	return rc;
}

/* The size in limbs of the largest numerator or denominator of 'p'. */
static double max_coeff_limbs(const segc_poly *p)
{
	size_t i, m = 0, k;

	for (i = 0; i < p->len_; i++) {
		k = mpz_size(mpq_numref(p->coefs_[i]));
		if (k > m)
			m = k;
		k = mpz_size(mpq_denref(p->coefs_[i]));
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
static int check_work(const segc_poly_lim *lim, size_t alen, double alimbs,
	size_t blen, double blimbs)
{
	double work;

	if (!lim)
		return 0;
	work = (double)alen * (double)blen * alimbs * blimbs;
	if (segc_ctx_charge(lim->ctx, work))
		return -1;
	if (!lim->max_terms ||
		work <= (double)lim->max_terms * SEGC_POLY_WORK_PER_TERM)
		return 0;
	if (lim->ctx)
		segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"a product of polynomials of %zu and %zu terms with "
			"coefficients of up to %.0f and %.0f limbs is too much "
			"work (limit: %d x max_terms)", alen, blen,
			alimbs, blimbs,
			SEGC_POLY_WORK_PER_TERM);
	return -1;
}

/* The terms a product of 'a' and 'b' can have at most: the products of
 * terms, and the monomials in the box of the degrees of the product. */
static double product_terms_bound(const segc_flint *f, const segc_poly *a,
	double ka, const segc_poly *b, double kb)
{
	double box = 1, pairs = (double)a->len_ * (double)b->len_;
	size_t k;

	for (k = 0; k < f->nused && box < pairs; k++) {
		size_t v = f->map[k];

		box *= ka * ((double)segc_poly_degree(a, v) -
			segc_poly_min_degree(a, v)) + kb *
			((double)segc_poly_degree(b, v) -
			segc_poly_min_degree(b, v)) + 1;
	}
	return box < pairs ? box : pairs;
}

/* Checks, before FLINT computes a result of at most 'terms' terms with
 * coefficients of about 'limbs' limbs, that the memory it needs (FLINT's
 * packed exponents and coefficients, then segc's copy) stays within the
 * budget: FLINT cannot be stopped once it has started. */
static int check_result_bytes(const segc_poly_lim *lim, const segc_flint *f,
	double terms, double limbs)
{
	double bytes = terms * (8.0 * (2 + f->nused + limbs) +
		4.0 * (double)f->nvars + sizeof(mpq_t));

	return segc_poly_check_bytes(lim, bytes > (double)SIZE_MAX ?
		SIZE_MAX : (size_t)bytes);
}

/* Checks the extreme exponents of a^ka * b^kb before they are made: the
 * degree of a product in a variable is the sum of the degrees. */
static int check_product_exps(const segc_poly_lim *lim, const segc_poly *a,
	int64_t ka, const segc_poly *b, int64_t kb)
{
	size_t v;

	if (ka > INT32_MAX || kb > INT32_MAX)
		return segc_poly_check_exp(lim, INT64_MAX);
	for (v = 0; v < a->nvars_; v++)
		if (segc_poly_check_exp(lim, ka * segc_poly_degree(a, v) +
			kb * segc_poly_degree(b, v)) ||
			segc_poly_check_exp(lim, ka * segc_poly_min_degree(a, v) +
			kb * segc_poly_min_degree(b, v)))
			return -1;
	return 0;
}

/* r = a * b for general a, b (at least two terms each), by FLINT on the
 * operands shifted to non-negative exponents. */
static int mul_general(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b)
{
	const segc_poly *ops[2] = { a, b };
	int32_t *ma, *mb;
	fmpq_mpoly_t A, B;
	segc_flint f;
	size_t v, n = a->nvars_;
	int rc;

	if (check_work(lim, a->len_, max_coeff_limbs(a), b->len_,
		max_coeff_limbs(b)) || check_product_exps(lim, a, 1, b, 1))
		return -1;
	segc_flint_init(&f, 2, ops);
	if (check_result_bytes(lim, &f, product_terms_bound(&f, a, 1, b, 1),
		max_coeff_limbs(a) + max_coeff_limbs(b))) {
		segc_flint_clear(&f);
		return -1;
	}
	ma = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mb = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, ma);
	segc_poly_min_exps(b, mb);
	fmpq_mpoly_init(A, f.ctx);
	fmpq_mpoly_init(B, f.ctx);
	segc_flint_from_poly(&f, A, a, ma);
	segc_flint_from_poly(&f, B, b, mb);
	fmpq_mpoly_mul(A, A, B, f.ctx);
	for (v = 0; v < n; v++)
		ma[v] += mb[v];
	rc = segc_flint_to_poly(lim, &f, r, A, ma, 1);
	fmpq_mpoly_clear(A, f.ctx);
	fmpq_mpoly_clear(B, f.ctx);
	segc_flint_clear(&f);
	free(ma);
	free(mb);
	return rc;
}

/* r = a * b. */
int segc_poly_mul(const segc_poly_lim *lim, segc_poly *r, const segc_poly *a,
	const segc_poly *b)
{
	struct poly_pair pp;
	int rc;

	if (a->len_ == 0 || b->len_ == 0) {
		segc_poly_extend(r, segc_poly_nvars_max(a, b));
		segc_poly_zero(r);
		return 0;
	}
	poly_pair_open(&pp, a, b);
	if (pp.b->len_ == 1)
		rc = mul_term(lim, r, pp.a, pp.b, 0);
	else if (pp.a->len_ == 1)
		rc = mul_term(lim, r, pp.b, pp.a, 0);
	else
		rc = mul_general(lim, r, pp.a, pp.b);
	poly_pair_close(&pp);
	return rc;
}

/* The state of a power computed in FLINT: 'P' = (a x^-min(a))^k. */
struct flint_pow {
	const segc_poly *a;
	segc_flint *f;
	fmpq_mpoly_struct *P;
	unsigned long k;
};

/* X = X * Y (powers of the same base), with the checks a product makes
 * before (work, exponents, memory) and after (terms, coefficients). */
static int pow_step(const segc_poly_lim *lim, struct flint_pow *x,
	const struct flint_pow *y)
{
	segc_flint *f = x->f;
	slong lx = fmpq_mpoly_length(x->P, f->ctx);
	slong ly = fmpq_mpoly_length(y->P, f->ctx);
	double cx = segc_flint_coeff_limbs(f, x->P);
	double cy = segc_flint_coeff_limbs(f, y->P);
	double bound;

	if (lx == 1 && fmpq_mpoly_is_one(x->P, f->ctx)) {
		fmpq_mpoly_set(x->P, y->P, f->ctx);
		x->k = y->k;
		return 0;
	}
	if (check_work(lim, (size_t)lx, cx, (size_t)ly, cy) ||
		check_product_exps(lim, x->a, (int64_t)(x->k + y->k), x->a, 0))
		return -1;
	bound = product_terms_bound(f, x->a, (double)(x->k + y->k), x->a, 0);
	if (bound > (double)lx * (double)ly)
		bound = (double)lx * (double)ly;
	if (check_result_bytes(lim, f, bound, cx + cy))
		return -1;
	fmpq_mpoly_mul(x->P, x->P, y->P, f->ctx);
	x->k += y->k;
	if (segc_poly_check_terms(lim, (size_t)fmpq_mpoly_length(x->P, f->ctx)))
		return -1;
	return segc_flint_check_coeffs(lim, f, x->P);
}

/* The size in bits of the largest numerator or denominator of 'p'. */
static double max_coeff_bits(const segc_poly *p)
{
	size_t i, m = 1, k;

	for (i = 0; i < p->len_; i++) {
		k = mpz_sizeinbase(mpq_numref(p->coefs_[i]), 2);
		if (k > m)
			m = k;
		k = mpz_sizeinbase(mpq_denref(p->coefs_[i]), 2);
		if (k > m)
			m = k;
	}
	return (double)m;
}

/* The terms a^e can have at most: the monomials of degree e in the
 * t terms of 'a', C(t + e - 1, e), and those in the box of its degrees. */
static double power_terms_bound(const segc_flint *f, const segc_poly *a,
	unsigned long e)
{
	double pairs = 1, box;
	unsigned long k;

	for (k = 1; k <= e && pairs < 1e300; k++)
		pairs = pairs * ((double)a->len_ - 1 + (double)k) / (double)k;
	box = product_terms_bound(f, a, (double)e, a, 0);
	return box < pairs ? box : pairs;
}

/* r = a^e by one call of FLINT's power when its size is bounded before
 * the call: terms by power_terms_bound, coefficients by e times the bits
 * of those of 'a' plus the multinomial factor (at most t^e), work by e
 * products of 'a' with the result.  Returns 1 when those bounds exceed what a
 * product may do or what the memory budget holds (nothing computed nor
 * reported: the caller squares step by step, checking between). */
static int pow_direct(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, unsigned long e)
{
	const segc_poly *ops[1] = { a };
	fmpq_mpoly_t A;
	segc_flint f;
	int32_t *m;
	double terms, la = max_coeff_limbs(a), limbs, work, bytes;
	size_t v, lg;
	int rc;

	if (e > 64 || check_product_exps(lim, a, (int64_t)e, a, 0))
		return e > 64 ? 1 : -1;
	segc_flint_init(&f, 1, ops);
	terms = power_terms_bound(&f, a, e);
	/* a coefficient of a^e: a sum of at most t^e products of e
	 * coefficients of 'a' */
	for (lg = 0; ((size_t)1 << lg) < a->len_; lg++)
		;
	limbs = (double)(size_t)((double)e * (max_coeff_bits(a) + lg) /
		GMP_NUMB_BITS) + 1;
	work = (double)e * (double)a->len_ * terms * la * limbs;
	bytes = terms * (8.0 * (2 + (double)f.nused + limbs) +
		4.0 * (double)f.nvars + sizeof(mpq_t));
	if (lim && ((lim->max_terms &&
		work > (double)lim->max_terms * SEGC_POLY_WORK_PER_TERM) ||
		bytes > (double)SIZE_MAX || !segc_poly_fits_bytes(lim,
		(size_t)bytes))) {
		segc_flint_clear(&f);
		return 1;
	}
	if (lim && segc_ctx_charge(lim->ctx, work)) {
		segc_flint_clear(&f);
		return -1;
	}
	m = segc_xmalloc((a->nvars_ ? a->nvars_ : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, m);
	fmpq_mpoly_init(A, f.ctx);
	segc_flint_from_poly(&f, A, a, m);
	fmpq_mpoly_pow_ui(A, A, e, f.ctx);
	for (v = 0; v < a->nvars_; v++)
		m[v] = (int32_t)((int64_t)m[v] * (int64_t)e);
	rc = segc_flint_to_poly(lim, &f, r, A, m, 1);
	fmpq_mpoly_clear(A, f.ctx);
	segc_flint_clear(&f);
	free(m);
	return rc;
}

/* r = a^e by repeated squaring in FLINT, checked between the products. */
static int pow_general(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, unsigned long e)
{
	const segc_poly *ops[1] = { a };
	fmpq_mpoly_t base, acc;
	struct flint_pow xb, xa;
	int32_t *m;
	segc_flint f;
	size_t v;
	int rc = 0;

	segc_flint_init(&f, 1, ops);
	m = segc_xmalloc((a->nvars_ ? a->nvars_ : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, m);
	fmpq_mpoly_init(base, f.ctx);
	fmpq_mpoly_init(acc, f.ctx);
	segc_flint_from_poly(&f, base, a, m);
	fmpq_mpoly_one(acc, f.ctx);
	xb = (struct flint_pow){ a, &f, base, 1 };
	xa = (struct flint_pow){ a, &f, acc, 0 };
	while (rc == 0) {
		if (e & 1)
			rc = pow_step(lim, &xa, &xb);
		e >>= 1;
		if (!e || rc)
			break;
		rc = pow_step(lim, &xb, &xb);
	}
	for (v = 0; v < a->nvars_; v++)
		m[v] = (int32_t)((int64_t)m[v] * (int64_t)xa.k);
	if (rc == 0)
		rc = segc_flint_to_poly(lim, &f, r, acc, m, 0);
	fmpq_mpoly_clear(base, f.ctx);
	fmpq_mpoly_clear(acc, f.ctx);
	segc_flint_clear(&f);
	free(m);
	return rc;
}

/* r = a^e (a^0 = 1, also for a = 0). */
int segc_poly_pow(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, unsigned long e)
{
	if (e == 0 || a->len_ == 0 || e == 1 || a->len_ == 1) {
		segc_poly base, acc;
		int rc = 0;

		segc_poly_init(&base, a->nvars_);
		segc_poly_init(&acc, a->nvars_);
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
	{
		int rc = pow_direct(lim, r, a, e);

		if (rc <= 0)
			return rc;
	}
	return pow_general(lim, r, a, e);
}

/* ---------------------------------------------------------- division */

/* q = a / (the single term b_0), exact when the exponents stay >= 0. */
static int div_term(const segc_poly_lim *lim, segc_poly *q,
	const segc_poly *a, const segc_poly *b)
{
	int32_t *d = segc_xmalloc((a->nvars_ ? a->nvars_ : 1) *
		sizeof(int32_t));
	segc_poly out;
	mpq_t c;
	size_t v;
	int rc = 1;

	segc_poly_min_exps(a, d);
	for (v = 0; v < a->nvars_; v++) {
		if (a->len_ && d[v] < term_exp(b, 0)[v])
			rc = 0;
		d[v] = -term_exp(b, 0)[v];
	}
	if (rc == 1 && lim && segc_ctx_charge(lim->ctx, (double)a->len_ *
		max_coeff_limbs(a)))
		rc = -1;
	if (rc == 1) {
		segc_poly_init(&out, a->nvars_);
		segc_poly_set(&out, a);
		mpq_init(c);
		mpq_inv(c, b->coefs_[0]);
		segc_poly_scale(&out, c);
		mpq_clear(c);
		segc_poly_shift(NULL, &out, d, a->nvars_);
		segc_poly_swap(q, &out);
		segc_poly_clear(&out);
	}
	free(d);
	return rc;
}

/* q = a / b for b of two terms or more, by FLINT on the operands shifted
 * to non-negative exponents: a = q b with q free of negative exponents
 * if and only if min(a) >= min(b) in every variable and the shifted b
 * divides the shifted a (the smallest exponents of a product are the
 * sums of those of its factors). */
static int div_general(const segc_poly_lim *lim, segc_poly *q,
	const segc_poly *a, const segc_poly *b)
{
	const segc_poly *ops[2] = { a, b };
	int32_t *ma, *mb;
	fmpq_mpoly_t A, B;
	segc_flint f;
	size_t v, n = a->nvars_;
	int rc = 1;

	ma = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mb = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, ma);
	segc_poly_min_exps(b, mb);
	for (v = 0; v < n; v++)
		if (ma[v] < mb[v] ||
			segc_poly_degree(a, v) - ma[v] < segc_poly_degree(b, v) - mb[v])
			rc = 0;
	/* The heap division meets each term of b once per quotient term;
	 * the quotient has at most as many terms as the box of its degrees,
	 * and about len(a) / len(b) ... len(a) in practice. */
	if (rc == 1 && lim && segc_ctx_charge(lim->ctx, (double)a->len_ *
		(double)b->len_ *
		(1 + max_coeff_limbs(a) + max_coeff_limbs(b))))
		rc = -1;
	if (rc != 1) {
		free(ma);
		free(mb);
		return rc;
	}
	segc_flint_init(&f, 2, ops);
	fmpq_mpoly_init(A, f.ctx);
	fmpq_mpoly_init(B, f.ctx);
	segc_flint_from_poly(&f, A, a, ma);
	segc_flint_from_poly(&f, B, b, mb);
	rc = fmpq_mpoly_divides(A, A, B, f.ctx);
	if (rc) {
		for (v = 0; v < n; v++)
			ma[v] -= mb[v];
		rc = segc_flint_to_poly(lim, &f, q, A, ma, 0) ? -1 : 1;
	}
	fmpq_mpoly_clear(A, f.ctx);
	fmpq_mpoly_clear(B, f.ctx);
	segc_flint_clear(&f);
	free(ma);
	free(mb);
	return rc;
}

/* q = a / b if exact (see poly.h). */
int segc_poly_divexact(const segc_poly_lim *lim, segc_poly *q,
	const segc_poly *a, const segc_poly *b)
{
	struct poly_pair pp;
	int rc;

	if (b->len_ == 0)
		return 0;
	if (a->len_ == 0) {
		segc_poly_extend(q, segc_poly_nvars_max(a, b));
		segc_poly_zero(q);
		return 1;
	}
	poly_pair_open(&pp, a, b);
	if (pp.b->len_ == 1)
		rc = div_term(lim, q, pp.a, pp.b);
	else
		rc = div_general(lim, q, pp.a, pp.b);
	poly_pair_close(&pp);
	return rc;
}

/* ------------------------------------------------------- substitution */

/* out = coefficient of x_v^d in p. */
void segc_poly_coeff_var(segc_poly *out, const segc_poly *p, size_t v,
	int32_t d)
{
	segc_poly r;
	size_t i;

	segc_poly_init(&r, p->nvars_);
	for (i = 0; i < p->len_; i++)
		if (segc_poly_exp(p, i, v) == d) {
			segc_poly_push(&r, term_exp(p, i), p->coefs_[i]);
			if (v < r.nvars_)
				term_exp(&r, r.len_ - 1)[v] = 0;
		}
	segc_poly_swap(out, &r);
	segc_poly_clear(&r);
}

/* r = p(x_v := sigma*x_v + c) (see poly.h): each term a x_v^e m becomes
 * the terms a binom(e, j) sigma^j c^(e - j) x_v^j m, j = 0..e, pushed and
 * merged once, where composing by Horner's rule multiplies and adds e
 * polynomials. */
int segc_poly_shift_var(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, int sigma, mpq_srcptr c)
{
	int32_t deg = segc_poly_degree(p, v), e, j;
	size_t i, n = 0, nv = p->nvars_;
	segc_poly out;
	int32_t *row;
	mpq_t *cpow, t;
	mpz_t *binom;
	int rc, csgn = mpq_sgn(c), cone = mpq_cmp_ui(c, 1, 1) == 0;
	segc_poly_lim pre;

	if (v >= nv || deg <= 0) {
		segc_poly_set(r, p);
		return 0;
	}
	for (i = 0; i < p->len_; i++)
		n += (size_t)(term_exp(p, i)[v] > 0 ? term_exp(p, i)[v] : 0) + 1;
	/* the terms pushed against the memory; their number, once merged,
	 * against max_terms */
	if (lim) {
		pre = *lim;
		pre.max_terms = 0;
	}
	if (segc_poly_check_size(lim ? &pre : NULL, n, nv))
		return -1;
	cpow = segc_xmalloc(((size_t)deg + 1) * sizeof *cpow);
	binom = segc_xmalloc(((size_t)deg + 1) * sizeof *binom);
	for (e = 0; e <= deg; e++) {
		mpq_init(cpow[e]);
		mpz_init(binom[e]);
		if (e == 0)
			mpq_set_ui(cpow[0], 1, 1);
		else
			mpq_mul(cpow[e], cpow[e - 1], c);
	}
	mpq_init(t);
	row = segc_xmalloc(nv * sizeof *row);
	segc_poly_init(&out, nv);
	for (i = 0; i < p->len_; i++) {
		e = term_exp(p, i)[v];
		memcpy(row, term_exp(p, i), nv * sizeof *row);
		if (e <= 0) {
			segc_poly_push(&out, row, p->coefs_[i]);
			continue;
		}
		/* binom[j] = binom(e, j), built from j = 0 */
		mpz_set_ui(binom[0], 1);
		for (j = 1; j <= e; j++) {
			mpz_mul_ui(binom[j], binom[j - 1], (unsigned long)(e - j + 1));
			mpz_divexact_ui(binom[j], binom[j], (unsigned long)j);
		}
		for (j = csgn ? 0 : e; j <= e; j++) {
			/* coef * binom(e, j) * c^(e - j), the products by 1
			 * left out */
			if (j == 0 || j == e)
				mpq_set(t, p->coefs_[i]);
			else {
				mpq_set_z(t, binom[j]);
				mpq_mul(t, t, p->coefs_[i]);
			}
			if (j < e && !cone)
				mpq_mul(t, t, cpow[e - j]);
			if (sigma < 0 && (j & 1))
				mpq_neg(t, t);
			row[v] = j;
			segc_poly_push(&out, row, t);
		}
	}
	rc = segc_poly_normalise(lim, &out);
	if (rc == 0)
		segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	for (e = 0; e <= deg; e++) {
		mpq_clear(cpow[e]);
		mpz_clear(binom[e]);
	}
	free(cpow);
	free(binom);
	free(row);
	mpq_clear(t);
	return rc;
}

/* The largest magnitude of an exponent of 'p', 0 when it has no term. */
static int64_t widest_exp(const segc_poly *p)
{
	size_t i, n = p->len_ * p->nvars_;
	int64_t m = 0;

	for (i = 0; i < n; i++)
		if (llabs((long long)p->exps_[i]) > m)
			m = llabs((long long)p->exps_[i]);
	return m;
}

/* t = a * b, without the gcds of mpq_mul when b is 1 or -1 or both are
 * integers. */
static void coef_mul(mpq_ptr t, mpq_srcptr a, mpq_srcptr b)
{
	if (mpz_cmp_ui(mpq_denref(b), 1) == 0 &&
	    mpz_cmpabs_ui(mpq_numref(b), 1) == 0) {
		mpq_set(t, a);
		if (mpz_sgn(mpq_numref(b)) < 0)
			mpq_neg(t, t);
	} else if (mpz_cmp_ui(mpq_denref(a), 1) == 0 &&
		   mpz_cmp_ui(mpq_denref(b), 1) == 0) {
		mpz_mul(mpq_numref(t), mpq_numref(a), mpq_numref(b));
		mpz_set_ui(mpq_denref(t), 1);
	} else {
		mpq_mul(t, a, b);
	}
}

/* Releases the powers pw[0..deg] of segc_poly_subst_var. */
static void powers_clear(segc_poly *pw, int32_t deg)
{
	int32_t e;

	for (e = 0; e <= deg; e++)
		segc_poly_clear(&pw[e]);
	free(pw);
}

/* r = p with x_v replaced by the polynomial q (see poly.h): each term
 * of p times the power of q its exponent of v asks for, pushed, then
 * merged once. */
int segc_poly_subst_var(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, const segc_poly *q)
{
	int32_t deg = segc_poly_degree(p, v), e;
	size_t nv = p->nvars_ > q->nvars_ ? p->nvars_ : q->nvars_;
	size_t i, j, k, n = 0;
	double bytes;
	segc_poly *pw, out;
	segc_poly_lim quiet;
	int32_t *row;
	mpq_t t;
	int rc = 0;

	if (v < p->nvars_ && segc_poly_min_degree(p, v) < 0)
		return 1;
	if (v >= p->nvars_ || deg <= 0) {
		segc_poly_set(r, p);
		return 0;
	}
	/* the limits checked and nothing reported: the exponents added
	 * known beforehand, then the powers of q */
	if (lim) {
		quiet = *lim;
		quiet.ctx = NULL;
	}
	if (segc_poly_check_exp(lim ? &quiet : NULL, widest_exp(p) +
		(int64_t)deg * widest_exp(q)))
		return 1;
	pw = segc_xmalloc(((size_t)deg + 1) * sizeof *pw);
	for (e = 0; e <= deg; e++)
		segc_poly_init(&pw[e], nv);
	segc_poly_set_si(&pw[0], 1);
	for (e = 1; e <= deg && rc == 0; e++)
		rc = segc_poly_mul(lim ? &quiet : NULL, &pw[e], &pw[e - 1], q) ?
			1 : 0;
	for (i = 0; i < p->len_ && rc == 0; i++)
		n += pw[term_exp(p, i)[v]].len_;
	/* the terms pushed within the memory, their number once merged
	 * against max_terms; the work charged as a Taylor shift's is */
	bytes = (double)n * ((double)nv * sizeof(int32_t) + sizeof(mpq_t));
	if (rc == 0 && (bytes > (double)SIZE_MAX ||
	    !segc_poly_fits_bytes(lim, (size_t)bytes)))
		rc = 1;
	if (rc == 0 && lim && segc_ctx_charge(lim->ctx, (double)n *
		(double)(nv / 8 + 1)))
		rc = -1;
	if (rc) {
		powers_clear(pw, deg);
		return rc;
	}
	row = segc_xcalloc(nv ? nv : 1, sizeof *row);
	mpq_init(t);
	segc_poly_init(&out, nv);
	segc_poly_reserve(&out, n);
	for (i = 0; i < p->len_; i++) {
		const segc_poly *qe = &pw[term_exp(p, i)[v]];

		for (j = 0; j < qe->len_; j++) {
			memcpy(row, term_exp(p, i), p->nvars_ * sizeof *row);
			memset(row + p->nvars_, 0, (nv - p->nvars_) * sizeof *row);
			row[v] = 0;
			for (k = 0; k < qe->nvars_; k++)
				row[k] += term_exp(qe, j)[k];
			coef_mul(t, p->coefs_[i], qe->coefs_[j]);
			segc_poly_push_swap(&out, row, t);
		}
	}
	rc = segc_poly_normalise(lim, &out);
	if (rc == 0)
		segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	powers_clear(pw, deg);
	free(row);
	mpq_clear(t);
	return rc ? -1 : 0;
}

/* Divides 'p' by its content (see poly.h). */
void segc_poly_primitive(segc_poly *p, mpq_ptr scale)
{
	mpz_t g, l;
	size_t i;

	if (p->len_ == 0) {
		if (scale)
			mpq_set_ui(scale, 1, 1);
		return;
	}
	mpz_init(g);
	mpz_init_set_ui(l, 1);
	for (i = 0; i < p->len_; i++) {
		mpz_gcd(g, g, mpq_numref(p->coefs_[i]));
		mpz_lcm(l, l, mpq_denref(p->coefs_[i]));
	}
	/* an integer polynomial of content 1 stays as it is (views too) */
	if (mpz_cmp_ui(g, 1) || mpz_cmp_ui(l, 1)) {
		segc_poly_own(p);
		for (i = 0; i < p->len_; i++) {
			mpq_ptr c = p->coefs_[i];

			mpz_divexact(mpq_numref(c), mpq_numref(c), g);
			mpz_divexact(mpq_denref(c), l, mpq_denref(c));
			mpz_mul(mpq_numref(c), mpq_numref(c), mpq_denref(c));
			mpz_set_ui(mpq_denref(c), 1);
		}
	}
	if (scale) {
		mpz_set(mpq_numref(scale), g);
		mpz_set(mpq_denref(scale), l);
		mpq_canonicalize(scale);
	}
	mpz_clear(g);
	mpz_clear(l);
}
