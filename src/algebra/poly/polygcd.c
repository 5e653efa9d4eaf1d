/* polygcd.c - greatest common divisors of multivariate polynomials over Q.
 *
 * gcd(a, b) = monomial part * primitive integer part.  After the trivial
 * cases (zero, numbers, monomials, disjoint variables) FLINT's
 * fmpq_mpoly_gcd computes the gcd of the parts without monomial content
 * (shifted as they are converted, not copied); it is then made primitive
 * with a positive leading coefficient, the one normalisation of a gcd
 * over Q, whatever FLINT's own. */
#include <stdlib.h>
#include <string.h>
#include "algebra/poly/poly_private.h"
#include "algebra/poly/polyflint.h"
#include "base/util.h"

/* Normalises the sign: the leading coefficient becomes positive. */
static void make_lead_positive(segc_poly *p)
{
	if (p->len_ && mpq_sgn(p->coefs_[0]) < 0)
		segc_poly_neg(p);
}

/* Non-zero when no variable varies in both 'a' and 'b' (its exponent
 * not the same in every term): the operands without their monomial
 * content then have no variable in common. */
static int disjoint_vars(const segc_poly *a, const segc_poly *b)
{
	size_t v;

	for (v = 0; v < a->nvars_; v++)
		if (segc_poly_degree(a, v) != segc_poly_min_degree(a, v) &&
			segc_poly_degree(b, v) != segc_poly_min_degree(b, v))
			return 0;
	return 1;
}

/* Limbs of the largest numerator or denominator of 'p', at least 1. */
static double max_limbs(const segc_poly *p)
{
	size_t i, m = 1;

	for (i = 0; i < p->len_; i++) {
		if (mpz_size(mpq_numref(p->coefs_[i])) > m)
			m = mpz_size(mpq_numref(p->coefs_[i]));
		if (mpz_size(mpq_denref(p->coefs_[i])) > m)
			m = mpz_size(mpq_denref(p->coefs_[i]));
	}
	return (double)m;
}

/* g = gcd(a x^-ma, b x^-mb) by FLINT, 'ma' and 'mb' the smallest
 * exponents of the operands: its default algorithm, or the subresultant
 * sequence when 'prs'.  FLINT keeps the rational content of each
 * operand apart, so the operands go in as they are. */
static int flint_gcd(const segc_poly_lim *lim, segc_poly *g,
	const segc_poly *a, const int32_t *ma, const segc_poly *b,
	const int32_t *mb, int prs)
{
	const segc_poly *ops[2] = { a, b };
	fmpq_mpoly_t A, B, G;
	segc_flint f;
	int ok, rc = 0;

	/* The gcd is charged, before FLINT runs, as the work of a few
	 * passes over the operands per variable: FLINT's algorithms
	 * (Brown's, Zippel's, Hensel lifting) make images of both
	 * operands, each a pass over them. */
	segc_flint_init(&f, 2, ops);
	if (lim && segc_ctx_charge(lim->ctx, (double)(a->len_ + b->len_) *
		(max_limbs(a) + max_limbs(b)) * (double)(1 + f.nused))) {
		segc_flint_clear(&f);
		return -1;
	}
	fmpq_mpoly_init(A, f.ctx);
	fmpq_mpoly_init(B, f.ctx);
	fmpq_mpoly_init(G, f.ctx);
	segc_flint_from_poly(&f, A, a, ma);
	segc_flint_from_poly(&f, B, b, mb);
	ok = prs ? fmpq_mpoly_gcd_subresultant(G, A, B, f.ctx) :
		fmpq_mpoly_gcd(G, A, B, f.ctx);
	if (!ok) {
		if (lim && lim->ctx)
			segc_error(lim->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
				"a gcd of polynomials of %zu and %zu terms "
				"could not be computed", a->len_, b->len_);
		rc = -1;
	} else {
		rc = segc_flint_to_poly(lim, &f, g, G, NULL, 0);
	}
	fmpq_mpoly_clear(A, f.ctx);
	fmpq_mpoly_clear(B, f.ctx);
	fmpq_mpoly_clear(G, f.ctx);
	segc_flint_clear(&f);
	return rc;
}

/* The gcd itself (see poly.h), without the limits on coefficients:
 * the monomial part min(ma, mb) times the gcd of the operands without
 * their monomial contents (1 for a monomial or for operands whose
 * varying variables are disjoint), made primitive over Z with a
 * positive leading coefficient. */
static int gcd_core(const segc_poly_lim *lim, segc_poly *g,
	const segc_poly *a, const segc_poly *b, int prs)
{
	segc_poly out;
	int32_t *ma, *mb, *mono;
	size_t v, n = a->nvars_;
	int rc = 0;

	if (a->len_ == 0 || b->len_ == 0) {
		segc_poly_set(g, a->len_ ? a : b);
		segc_poly_primitive(g, NULL);
		make_lead_positive(g);
		return 0;
	}
	ma = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mb = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mono = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, ma);
	segc_poly_min_exps(b, mb);
	for (v = 0; v < n; v++)
		mono[v] = ma[v] < mb[v] ? ma[v] : mb[v];
	segc_poly_init(&out, n);
	if (a->len_ == 1 || b->len_ == 1 || disjoint_vars(a, b))
		segc_poly_set_si(&out, 1);
	else
		rc = flint_gcd(lim, &out, a, ma, b, mb, prs);
	if (rc == 0)
		rc = segc_poly_shift(lim, &out, mono, n);
	segc_poly_primitive(&out, NULL);
	make_lead_positive(&out);
	segc_poly_swap(g, &out);
	segc_poly_clear(&out);
	free(ma);
	free(mb);
	free(mono);
	return rc;
}

/* g = gcd(a, b); see poly.h. */
int segc_poly_gcd(const segc_poly_lim *lim, segc_poly *g, const segc_poly *a,
	const segc_poly *b)
{
	segc_poly_lim inner;
	struct poly_pair pp;
	int rc;

	inner = lim ? *lim : (segc_poly_lim){ NULL, 0, 0, 0 };
	inner.max_coeff_bits = 0;
	poly_pair_open(&pp, a, b);
	rc = gcd_core(&inner, g, pp.a, pp.b, 0);
	poly_pair_close(&pp);
	return rc;
}

/* g = gcd(a, b) by the subresultant sequence alone (for tests). */
int segc_poly_gcd_prs(const segc_poly_lim *lim, segc_poly *g,
	const segc_poly *a, const segc_poly *b)
{
	segc_poly_lim inner;
	struct poly_pair pp;
	int rc;

	inner = lim ? *lim : (segc_poly_lim){ NULL, 0, 0, 0 };
	inner.max_coeff_bits = 0;
	poly_pair_open(&pp, a, b);
	rc = gcd_core(&inner, g, pp.a, pp.b, 1);
	poly_pair_close(&pp);
	return rc;
}
