/* polyflint.c - conversions between segc_poly and FLINT's fmpq_mpoly.
 *
 * FLINT's ORD_LEX puts its variable 0 first, as segc does, and keeps the
 * terms in decreasing order: a segc polynomial, shifted so that its
 * exponents are non-negative, is pushed in its own order and comes back
 * in it.  Only the variables that the operands use are given to FLINT,
 * which packs the exponents of fewer variables into fewer words. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz_vec.h>
#include "algebra/poly/polyflint.h"
#include "algebra/poly/poly_private.h"
#include "base/util.h"

/* The context over the used variables of v[0..n-1]. */
void segc_flint_init(segc_flint *f, size_t n, const segc_poly *const *v)
{
	size_t k, w, nv = n ? v[0]->nvars_ : 0;
	char *used = segc_xcalloc(nv ? nv : 1, 1);
	char *one = segc_xmalloc(nv ? nv : 1);

	for (k = 0; k < n; k++) {
		segc_poly_used_vars(v[k], one);
		for (w = 0; w < nv; w++)
			used[w] |= one[w];
	}
	f->nvars = nv;
	f->map = segc_xmalloc(segc_xmul_size(nv ? nv : 1, sizeof(size_t)));
	f->nused = 0;
	for (w = 0; w < nv; w++)
		if (used[w])
			f->map[f->nused++] = w;
	fmpq_mpoly_ctx_init(f->ctx, (slong)(f->nused ? f->nused : 1), ORD_LEX);
	free(used);
	free(one);
}

/* Releases 'f'. */
void segc_flint_clear(segc_flint *f)
{
	fmpq_mpoly_ctx_clear(f->ctx);
	free(f->map);
}

/* The least common multiple of the denominators of 'p' into 'den'. */
static void common_den(mpz_ptr den, const segc_poly *p)
{
	size_t i;

	mpz_set_ui(den, 1);
	for (i = 0; i < p->len_; i++)
		if (mpz_cmp_ui(mpq_denref(p->coefs_[i]), 1))
			mpz_lcm(den, den, mpq_denref(p->coefs_[i]));
}

/* The FLINT exponent of variable k (of f->nused) in term 'i' of 'p'
 * (see segc_flint_from_poly). */
static inline ulong flint_exp(const segc_flint *f, const segc_poly *p,
	size_t i, const int32_t *shift, size_t k)
{
	size_t v = f->map[k];

	return (ulong)((int64_t)term_exp(p, i)[v] - (shift ? shift[v] : 0));
}

/* Terms whose exponents pack_exps packs at a time. */
#define PACK_CHUNK 256

/* The field of FLINT's variable 'k' in a packed exponent vector: the
 * fields are the variables from the last (from the first in a reversed
 * order). */
static size_t field_of(const mpoly_ctx_struct *m, size_t k)
{
	return m->rev ? k : (size_t)m->nvars - 1 - k;
}

/* The exponents of the terms of 'p' (shifted) packed into 'exps' with
 * 'bits' bits a field, a chunk of terms at a time. */
static void pack_exps(const segc_flint *f, const segc_poly *p,
	const int32_t *shift, ulong *exps, flint_bitcnt_t bits)
{
	const mpoly_ctx_struct *m = f->ctx->zctx->minfo;
	size_t nf = (size_t)m->nfields, nu = f->nused, n = p->len_, i, j, k;
	size_t nw = (size_t)mpoly_words_per_exp(bits, m);
	ulong *u = segc_xcalloc(PACK_CHUNK * (nf ? nf : 1), sizeof(ulong));

	for (i = 0; i < n; i += PACK_CHUNK) {
		size_t c = n - i < PACK_CHUNK ? n - i : PACK_CHUNK;

		for (j = 0; j < c; j++)
			for (k = 0; k < nu; k++)
				u[j * nf + field_of(m, k)] =
					flint_exp(f, p, i + j, shift, k);
		mpoly_pack_vec_ui(exps + nw * i, u, bits, (slong)nf,
			(slong)c);
	}
	free(u);
}

/* A = p * x^-shift: integer numerators over one denominator, made
 * canonical by fmpq_mpoly_reduce.  The terms of 'p' are in FLINT's
 * order already, so they are written in place, packed with the bits
 * that the largest exponent of each variable needs, not pushed one by
 * one. */
void segc_flint_from_poly(const segc_flint *f, fmpq_mpoly_t A,
	const segc_poly *p, const int32_t *shift)
{
	fmpz_mpoly_struct *Z = A->zpoly;
	const fmpz_mpoly_ctx_struct *zctx = f->ctx->zctx;
	const mpoly_ctx_struct *m = zctx->minfo;
	ulong *most = segc_xcalloc(f->nused ? f->nused : 1, sizeof(ulong));
	flint_bitcnt_t bits;
	size_t i, k;
	int integral;
	mpz_t den, z;

	fmpq_mpoly_zero(A, f->ctx);
	mpz_init(den);
	mpz_init(z);
	common_den(den, p);
	integral = mpz_cmp_ui(den, 1) == 0;
	for (i = 0; i < p->len_; i++)
		for (k = 0; k < f->nused; k++) {
			ulong x = flint_exp(f, p, i, shift, k);

			if (x > most[k])
				most[k] = x;
		}
	bits = mpoly_exp_bits_required_ui(most, m);
	bits = mpoly_fix_bits(bits > MPOLY_MIN_BITS ? bits : MPOLY_MIN_BITS, m);
	fmpz_mpoly_fit_length_reset_bits(Z, (slong)p->len_, bits, zctx);
	pack_exps(f, p, shift, Z->exps, bits);
	for (i = 0; i < p->len_; i++) {
		mpq_srcptr c = p->coefs_[i];

		if (integral) {
			fmpz_set_mpz(Z->coeffs + i, mpq_numref(c));
		} else {
			mpz_divexact(z, den, mpq_denref(c));
			mpz_mul(z, z, mpq_numref(c));
			fmpz_set_mpz(Z->coeffs + i, z);
		}
	}
	_fmpz_mpoly_set_length(Z, (slong)p->len_, zctx);
	fmpz_one(fmpq_numref(A->content));
	fmpz_set_mpz(fmpq_denref(A->content), den);
	fmpq_mpoly_reduce(A, f->ctx);
	free(most);
	mpz_clear(z);
	mpz_clear(den);
}

/* Checks the exponents that A * x^shift will have: the largest of each
 * variable in A (the smallest is 0 after a shift by the smallest), read
 * from the packed fields when they take at most a word, else FLINT's
 * degrees. */
static int check_exps(const segc_poly_lim *lim, const segc_flint *f,
	const fmpq_mpoly_t A, const int32_t *shift)
{
	const fmpz_mpoly_struct *Z = A->zpoly;
	const mpoly_ctx_struct *m = f->ctx->zctx->minfo;
	size_t nu = f->nused ? f->nused : 1, k;
	ulong *most = segc_xmalloc(segc_xmul_size(nu +
		(size_t)m->nfields, sizeof(ulong))), *fields = most + nu;
	int rc = 0;

	if (Z->bits <= FLINT_BITS) {
		mpoly_max_fields_ui_sp(fields, Z->exps, Z->length, Z->bits, m);
		for (k = 0; k < f->nused; k++)
			most[k] = fields[field_of(m, k)];
	} else if (fmpq_mpoly_degrees_fit_si(A, f->ctx)) {
		slong *deg = (slong *)fields;

		fmpq_mpoly_degrees_si(deg, A, f->ctx);
		for (k = 0; k < f->nused; k++)
			most[k] = (ulong)deg[k];
	} else {
		free(most);
		return segc_poly_check_exp(lim, INT64_MAX);
	}
	for (k = 0; k < f->nused && rc == 0; k++) {
		int64_t s = shift ? shift[f->map[k]] : 0;

		if (most[k] > (ulong)INT32_MAX)
			rc = segc_poly_check_exp(lim, INT64_MAX);
		else
			rc = segc_poly_check_exp(lim, (int64_t)most[k] + s) ||
				segc_poly_check_exp(lim, s);
	}
	free(most);
	return rc;
}

/* t = the coefficient of term 'i' of 'A' (content times integer), in
 * lowest terms: the content is, and z/g and den/g are coprime for
 * g = gcd(z, den). */
static void term_coeff(fmpq_t t, const fmpq_mpoly_t A, slong i)
{
	const fmpz *z = A->zpoly->coeffs + i;
	fmpz_t g;

	fmpz_init(g);
	fmpz_gcd(g, z, fmpq_denref(A->content));
	fmpz_divexact(fmpq_numref(t), z, g);
	fmpz_mul(fmpq_numref(t), fmpq_numref(t), fmpq_numref(A->content));
	fmpz_divexact(fmpq_denref(t), fmpq_denref(A->content), g);
	fmpz_clear(g);
}

/* Checks the coefficient sizes of 'A' whose largest integer has 'zbits'
 * bits: that integer times the content's numerator, over its
 * denominator, bounds every term at once; the terms past the bound are
 * reduced and checked one by one. */
static int check_coeff_bits(const segc_poly_lim *lim, const segc_flint *f,
	const fmpq_mpoly_t A, flint_bitcnt_t zbits)
{
	const fmpz_mpoly_struct *Z = A->zpoly;
	flint_bitcnt_t nb = fmpz_bits(fmpq_numref(A->content));
	flint_bitcnt_t db = fmpz_bits(fmpq_denref(A->content));
	fmpq_t t;
	slong i, n = fmpq_mpoly_length(A, f->ctx);
	int rc = 0;

	if (!lim || !lim->max_coeff_bits ||
	    (nb + zbits <= lim->max_coeff_bits && db <= lim->max_coeff_bits))
		return 0;
	fmpq_init(t);
	for (i = 0; i < n && rc == 0; i++) {
		if (nb + fmpz_bits(Z->coeffs + i) <= lim->max_coeff_bits &&
			db <= lim->max_coeff_bits)
			continue;
		term_coeff(t, A, i);
		if (fmpz_bits(fmpq_numref(t)) > lim->max_coeff_bits ||
			fmpz_bits(fmpq_denref(t)) > lim->max_coeff_bits)
			rc = segc_poly_limit_error(lim,
				"the size in bits of a coefficient",
				lim->max_coeff_bits, "max_coeff_bits");
	}
	fmpq_clear(t);
	return rc;
}

/* The limbs of |z| into 'out' (room for fmpz_size(z) of them); returns
 * the signed size GMP gives a number of those limbs. */
static mp_size_t put_limbs(mp_limb_t *out, const fmpz_t z)
{
	const __mpz_struct *m;
	size_t k;

	if (!COEFF_IS_MPZ(*z)) {
		slong v = *z;

		if (v == 0)
			return 0;
		out[0] = v < 0 ? (mp_limb_t)0 - (mp_limb_t)v : (mp_limb_t)v;
		return v < 0 ? -1 : 1;
	}
	m = COEFF_TO_PTR(*z);
	k = mpz_size(m);
	memcpy(out, mpz_limbs_read(m), k * sizeof(mp_limb_t));
	return mpz_sgn(m) < 0 ? -(mp_size_t)k : (mp_size_t)k;
}

/* The limbs that the coefficients of 'A' take as views: their
 * numerators and denominators, bounded from above when the content is
 * not 1, and the one limb of the denominator 1 that views share.  The
 * bits of the largest integer of 'A' into '*bits'. */
static size_t view_limbs(const fmpq_mpoly_t A, slong n,
	flint_bitcnt_t *bits)
{
	const fmpz *z = A->zpoly->coeffs;
	size_t total = 1, extra = 0;
	flint_bitcnt_t most = 0, b;
	slong i;

	if (!fmpq_is_one(A->content))
		extra = fmpz_size(fmpq_numref(A->content)) +
			fmpz_size(fmpq_denref(A->content));
	for (i = 0; i < n; i++) {
		if (!COEFF_IS_MPZ(z[i])) {
			b = FLINT_BIT_COUNT(FLINT_ABS(z[i]));
			total += 1 + extra;
		} else {
			mpz_srcptr m = COEFF_TO_PTR(z[i]);

			b = mpz_sizeinbase(m, 2);
			total += mpz_size(m) + extra;
		}
		if (b > most)
			most = b;
	}
	*bits = most;
	return total;
}

/* c = the coefficient of term 'i' of 'A' in lowest terms, as a view of
 * limbs written at '*at' (which moves past them); 'one' holds the limb 1,
 * the denominator of an integer. */
static void view_coeff(mpq_ptr c, const fmpq_mpoly_t A, slong i,
	mp_limb_t **at, const mp_limb_t *one, fmpq_t t)
{
	const fmpz *num = A->zpoly->coeffs + i, *den = NULL;
	mp_size_t k;

	if (!fmpz_is_one(fmpq_denref(A->content))) {
		term_coeff(t, A, i);
		num = fmpq_numref(t);
		den = fmpq_denref(t);
	} else if (!fmpz_is_one(fmpq_numref(A->content))) {
		fmpz_mul(fmpq_numref(t), num, fmpq_numref(A->content));
		num = fmpq_numref(t);
	}
	k = put_limbs(*at, num);
	segc_poly_set_view(mpq_numref(c), *at, k);
	*at += k < 0 ? -k : k;
	if (den == NULL || fmpz_is_one(den)) {
		segc_poly_set_view(mpq_denref(c), one, 1);
	} else {
		k = put_limbs(*at, den);
		segc_poly_set_view(mpq_denref(c), *at, k);
		*at += k;
	}
}

/* Where FLINT's exponent of one variable lies and where it goes: the
 * word of a packed vector and the shift in it (or its place in an
 * unpacked vector), the variable of segc's row, the shift added. */
struct field_place {
	size_t word;
	ulong bit;
	size_t var;
	int64_t base;
};

/* The exponents of the terms of 'A' into the rows of 'r', each starting
 * from 'base' (the variables FLINT does not have keep it), in general:
 * fields of fewer bits than a word read from the packed words (a field
 * lies in one word, from its low bits up), wider ones unpacked term by
 * term by FLINT. */
static void unpack_fields(const segc_flint *f, segc_poly *r,
	const fmpq_mpoly_t A, const int32_t *base)
{
	const fmpz_mpoly_struct *Z = A->zpoly;
	const mpoly_ctx_struct *m = f->ctx->zctx->minfo;
	size_t nv = f->nvars, nf = (size_t)m->nfields, n = (size_t)Z->length;
	size_t nw = (size_t)mpoly_words_per_exp(Z->bits, m);
	size_t nu = f->nused, i, k, per = 1;
	struct field_place *at = segc_xmalloc((nu ? nu : 1) * sizeof(*at));
	ulong *u = segc_xmalloc((nf ? nf : 1) * sizeof(ulong));
	ulong mask = 0;
	int packed = Z->bits < FLINT_BITS;

	if (packed) {
		per = FLINT_BITS / Z->bits;
		mask = ((ulong)1 << Z->bits) - 1;
	}
	for (k = 0; k < nu; k++) {
		at[k].word = packed ? field_of(m, k) / per : k;
		at[k].bit = packed ? (ulong)(field_of(m, k) % per *
			Z->bits) : 0;
		at[k].var = f->map[k];
		at[k].base = base[f->map[k]];
	}
	for (i = 0; i < n; i++) {
		int32_t *e = r->exps_ + i * nv;
		const ulong *x = Z->exps + nw * i;

		if (nu < nv)
			memcpy(e, base, nv * sizeof(int32_t));
		if (packed) {
			for (k = 0; k < nu; k++)
				e[at[k].var] = (int32_t)((int64_t)((x[at[k].word]
					>> at[k].bit) & mask) + at[k].base);
		} else {
			/* by variable, not by field */
			mpoly_get_monomial_ui(u, x, Z->bits, m);
			for (k = 0; k < nu; k++)
				e[at[k].var] = (int32_t)((int64_t)u[k] +
					at[k].base);
		}
	}
	free(u);
	free(at);
}

/* The exponents of the terms of 'A' into the rows of 'r' (as
 * unpack_fields): when FLINT has every variable of 'r' in one word, the
 * last in its lowest bits, each word shifted down gives its row from
 * the end. */
static void unpack_exps(const segc_flint *f, segc_poly *r,
	const fmpq_mpoly_t A, const int32_t *base)
{
	const fmpz_mpoly_struct *Z = A->zpoly;
	const mpoly_ctx_struct *m = f->ctx->zctx->minfo;
	size_t nv = f->nvars, n = (size_t)Z->length, i, k;
	ulong mask;

	if (Z->bits >= FLINT_BITS || mpoly_words_per_exp(Z->bits, m) != 1 ||
	    f->nused != nv || (size_t)m->nfields != nv || m->rev) {
		unpack_fields(f, r, A, base);
		return;
	}
	mask = ((ulong)1 << Z->bits) - 1;
	for (i = 0; i < n; i++) {
		int32_t *e = r->exps_ + i * nv;
		ulong x = Z->exps[i];

		for (k = nv; k-- > 0; x >>= Z->bits)
			e[k] = (int32_t)((int64_t)(x & mask) + base[k]);
	}
}

/* The coefficients of 'A' into those of 'r' as views of 'limbs' (see
 * view_coeff), with a word integer written at once when the content is
 * 1. */
static void view_coeffs(segc_poly *r, const fmpq_mpoly_t A, slong n,
	mp_limb_t *limbs)
{
	const fmpz *z = A->zpoly->coeffs;
	int plain = fmpq_is_one(A->content);
	mp_limb_t *at = limbs + 1;
	fmpq_t t;
	slong i;

	fmpq_init(t);
	for (i = 0; i < n; i++) {
		mpq_ptr c = r->coefs_[i];

		if (plain && !COEFF_IS_MPZ(z[i])) {
			slong v = z[i];

			*at = v < 0 ? (mp_limb_t)0 - (mp_limb_t)v :
				(mp_limb_t)v;
			segc_poly_set_view(mpq_numref(c), at, v < 0 ? -1 : 1);
			segc_poly_set_view(mpq_denref(c), limbs, 1);
			at++;
		} else {
			view_coeff(c, A, i, &at, limbs, t);
		}
	}
	fmpq_clear(t);
}

/* r = A * x^shift (see polyflint.h).  The coefficients are written as
 * views (poly.c) of one block of limbs: no allocation per term. */
int segc_flint_to_poly(const segc_poly_lim *lim, const segc_flint *f,
	segc_poly *r, const fmpq_mpoly_t A, const int32_t *shift,
	int exps_checked)
{
	size_t nv = f->nvars, nlimbs;
	int32_t *base;
	mp_limb_t *limbs;
	flint_bitcnt_t zbits;
	slong n = fmpq_mpoly_length(A, f->ctx);

	if ((n && !exps_checked && check_exps(lim, f, A, shift)) ||
		segc_poly_check_terms(lim, (size_t)n))
		return -1;
	nlimbs = view_limbs(A, n, &zbits);
	if (segc_poly_check_bytes(lim, nlimbs * sizeof(mp_limb_t)) ||
	    check_coeff_bits(lim, f, A, zbits))
		return -1;
	base = segc_xcalloc(nv ? nv : 1, sizeof(int32_t));
	/* the variables FLINT does not have keep their shift */
	if (shift)
		memcpy(base, shift, nv * sizeof(int32_t));
	limbs = segc_poly_buf_take(segc_xmul_size(nlimbs,
		sizeof(mp_limb_t)));
	limbs[0] = 1;
	segc_poly_resize_views(r, nv, (size_t)n, limbs, nlimbs);
	unpack_exps(f, r, A, base);
	view_coeffs(r, A, n, limbs);
	free(base);
	return 0;
}

/* Limbs of a number of 'bits' bits. */
static double limbs_of(flint_bitcnt_t bits)
{
	double l = (double)((bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);

	return l > 1 ? l : 1;
}

/* An upper bound on the limbs of the coefficients of 'A'. */
double segc_flint_coeff_limbs(const segc_flint *f, const fmpq_mpoly_t A)
{
	slong zbits = fmpz_mpoly_max_bits(A->zpoly);
	flint_bitcnt_t nb, db;

	(void)f;
	if (zbits < 0)
		zbits = -zbits;
	nb = (flint_bitcnt_t)zbits + fmpz_bits(fmpq_numref(A->content));
	db = fmpz_bits(fmpq_denref(A->content));
	return limbs_of(nb > db ? nb : db);
}

/* Checks the coefficient sizes of 'A' (see polyflint.h). */
int segc_flint_check_coeffs(const segc_poly_lim *lim, const segc_flint *f,
	const fmpq_mpoly_t A)
{
	slong n = fmpq_mpoly_length(A, f->ctx);

	if (!lim || !lim->max_coeff_bits)
		return 0;
	return check_coeff_bits(lim, f, A, (flint_bitcnt_t)FLINT_ABS(
		_fmpz_vec_max_bits(A->zpoly->coeffs, n)));
}
