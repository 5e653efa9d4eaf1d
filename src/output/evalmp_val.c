/* evalmp_val.c - the values of an MPFR evaluation: exact rationals (GMP)
 * while they stay small, else MPFR approximations that carry a rigorous
 * bound on their error (running error analysis, rounded upward), and the
 * arithmetic, powers, roundings, log2, sqrt and roots on them. */
#include <stdlib.h>
#include "output/evalmp_private.h"

/* Makes 'v' the exact value 0 at precision 'prec'. */
void segc_val_init(segc_val *v, mpfr_prec_t prec)
{
	v->exact = 1;
	mpq_init(v->q);
	mpfr_init2(v->f, prec);
	mpfr_init2(v->err, ERR_PREC);
	mpfr_set_zero(v->err, 1);
}

/* Releases 'v'. */
void segc_val_clear(segc_val *v)
{
	mpq_clear(v->q);
	mpfr_clear(v->f);
	mpfr_clear(v->err);
}

/* Adds to the error bound 'err' one ulp of 'f' when 't', the ternary
 * value of the rounding that gave 'f', says it is inexact. */
static void add_rounding(mpfr_t err, const mpfr_t f, int t)
{
	mpfr_t u;

	if (!t || mpfr_zero_p(f))
		return;
	if (!mpfr_number_p(f)) {
		mpfr_set_inf(err, 1);
		return;
	}
	mpfr_init2(u, ERR_PREC);
	mpfr_set_ui_2exp(u, 1, mpfr_get_exp(f) -
		(mpfr_exp_t)mpfr_get_prec(f), MPFR_RNDU);
	mpfr_add(err, err, u, MPFR_RNDU);
	mpfr_clear(u);
}

/* Copies 'src' to 'dst'. */
void segc_val_set(segc_val *dst, const segc_val *src)
{
	dst->exact = src->exact;
	if (src->exact) {
		mpq_set(dst->q, src->q);
		return;
	}
	mpfr_set(dst->err, src->err, MPFR_RNDU);
	add_rounding(dst->err, dst->f, mpfr_set(dst->f, src->f, MPFR_RNDN));
}

/* Makes 'v' approximate (its f holds the value, err bounds the error). */
void segc_val_inexact(segc_val *v)
{
	if (!v->exact)
		return;
	mpfr_set_zero(v->err, 1);
	add_rounding(v->err, v->f, mpfr_set_q(v->f, v->q, MPFR_RNDN));
	v->exact = 0;
}

/* Sets 'r' to an upper bound of |approximation of 'v'|. */
static void abs_up(mpfr_t r, const segc_val *v)
{
	if (v->exact)
		mpfr_set_q(r, v->q, MPFR_RNDA);
	else
		mpfr_set(r, v->f, MPFR_RNDA);
	mpfr_abs(r, r, MPFR_RNDU);
}

/* Sets 'r' to a lower bound of |approximation of 'v'|. */
static void abs_down(mpfr_t r, const segc_val *v)
{
	if (v->exact)
		mpfr_set_q(r, v->q, MPFR_RNDZ);
	else
		mpfr_set(r, v->f, MPFR_RNDZ);
	mpfr_abs(r, r, MPFR_RNDD);
}

/* Sign of the approximation of 'v'. */
int segc_val_sgn(const segc_val *v)
{
	return v->exact ? mpq_sgn(v->q) : mpfr_sgn(v->f);
}

/* Non-zero when the sign of the value 'v' stands beyond its error bound
 * (always for an exact value, or a zero one). */
int segc_val_sign_certain(const segc_val *v)
{
	mpfr_t a;
	int ok;

	if (v->exact)
		return 1;
	mpfr_init2(a, ERR_PREC);
	abs_down(a, v);
	ok = mpfr_cmp(a, v->err) > 0;
	mpfr_clear(a);
	return ok;
}

/* Compares 'a' with 'b'. */
int segc_val_cmp(const segc_val *a, const segc_val *b)
{
	if (a->exact && b->exact)
		return mpq_cmp(a->q, b->q);
	if (a->exact)
		return -mpfr_cmp_q(b->f, a->q);
	if (b->exact)
		return mpfr_cmp_q(a->f, b->q);
	return mpfr_cmp(a->f, b->f);
}

static void val_op_inexact(segc_val *acc, const segc_val *x,
	enum segc_val_op op);

/* The size of the exact value of 'v' in bits. */
unsigned long segc_val_bits(const segc_val *v)
{
	return (unsigned long)(mpz_sizeinbase(mpq_numref(v->q), 2) +
		mpz_sizeinbase(mpq_denref(v->q), 2));
}

/* Sets 'prop' to a bound of the error that the errors of 'a' and 'x'
 * (approximate) cause in a OP x, before its own rounding; +inf when a
 * divisor may be zero. */
static void propagated_error(mpfr_t prop, const segc_val *a, const segc_val *x,
	enum segc_val_op op)
{
	mpfr_t ab, xb, t;

	mpfr_inits2(ERR_PREC, ab, xb, t, (mpfr_ptr)0);
	abs_up(ab, a);
	abs_up(xb, x);
	if (op == SEGC_VAL_ADD) {
		mpfr_add(prop, a->err, x->err, MPFR_RNDU);
	} else {
		mpfr_mul(prop, ab, x->err, MPFR_RNDU);
		mpfr_mul(t, xb, a->err, MPFR_RNDU);
		mpfr_add(prop, prop, t, MPFR_RNDU);
	}
	if (op == SEGC_VAL_MUL) {
		mpfr_mul(t, a->err, x->err, MPFR_RNDU);
		mpfr_add(prop, prop, t, MPFR_RNDU);
	} else if (op == SEGC_VAL_DIV) {
		abs_down(xb, x);
		mpfr_sub(t, xb, x->err, MPFR_RNDD);
		mpfr_mul(t, t, xb, MPFR_RNDD);
		if (mpfr_sgn(t) <= 0)
			mpfr_set_inf(prop, 1);
		else
			mpfr_div(prop, prop, t, MPFR_RNDU);
	}
	mpfr_clears(ab, xb, t, (mpfr_ptr)0);
}

/* acc = acc OP x for the approximate 'acc', with its error bound. */
static void val_op_inexact(segc_val *acc, const segc_val *x,
	enum segc_val_op op)
{
	mpfr_t prop;
	segc_val xc;
	int t;

	segc_val_init(&xc, mpfr_get_prec(acc->f));
	segc_val_set(&xc, x);
	segc_val_inexact(&xc);
	mpfr_init2(prop, ERR_PREC);
	propagated_error(prop, acc, &xc, op);
	if (op == SEGC_VAL_ADD)
		t = mpfr_add(acc->f, acc->f, xc.f, MPFR_RNDN);
	else if (op == SEGC_VAL_MUL)
		t = mpfr_mul(acc->f, acc->f, xc.f, MPFR_RNDN);
	else
		t = mpfr_div(acc->f, acc->f, xc.f, MPFR_RNDN);
	mpfr_set(acc->err, prop, MPFR_RNDU);
	add_rounding(acc->err, acc->f, t);
	mpfr_clear(prop);
	segc_val_clear(&xc);
}

/* acc = acc OP x.  Division by an exact zero is refused by the caller. */
void segc_val_op(segc_val *acc, segc_val *x, enum segc_val_op op)
{
	/* the limbs bound the bits from above: most values are far below
	 * the limit, and their exact size is not needed */
	int small = acc->exact && x->exact &&
		(mpz_size(mpq_numref(acc->q)) + mpz_size(mpq_denref(acc->q)) +
		mpz_size(mpq_numref(x->q)) + mpz_size(mpq_denref(x->q))) *
		(unsigned long)GMP_NUMB_BITS <= MAX_EXACT_BITS;

	if (small && op != SEGC_VAL_DIV &&
	    mpz_cmp_ui(mpq_denref(acc->q), 1) == 0 &&
	    mpz_cmp_ui(mpq_denref(x->q), 1) == 0) {
		/* integers: no gcd to take */
		if (op == SEGC_VAL_ADD)
			mpz_add(mpq_numref(acc->q), mpq_numref(acc->q),
				mpq_numref(x->q));
		else
			mpz_mul(mpq_numref(acc->q), mpq_numref(acc->q),
				mpq_numref(x->q));
		return;
	}
	if (small || (acc->exact && x->exact && segc_val_bits(acc) +
	    segc_val_bits(x) <= MAX_EXACT_BITS)) {
		if (op == SEGC_VAL_ADD)
			mpq_add(acc->q, acc->q, x->q);
		else if (op == SEGC_VAL_MUL)
			mpq_mul(acc->q, acc->q, x->q);
		else
			mpq_div(acc->q, acc->q, x->q);
		return;
	}
	segc_val_inexact(acc);
	val_op_inexact(acc, x, op);
}

/* Raises the exact 'q' to the integer 'k' (may be negative, q != 0). */
void segc_val_mpq_pow_si(mpq_t q, long k)
{
	unsigned long m = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k;

	mpz_pow_ui(mpq_numref(q), mpq_numref(q), m);
	mpz_pow_ui(mpq_denref(q), mpq_denref(q), m);
	if (k < 0)
		mpq_inv(q, q);
}

/* Sets 'r' to an upper bound of (|x|+e)^m - |x|^m for the approximate
 * 'v' (x, within e): |x|^m ((1 + e/|x|)^m - 1), computed through log1p
 * and expm1 so that a tiny e keeps its relative precision; e^m when x
 * may be 0. */
static void power_spread(mpfr_t r, const segc_val *v, unsigned long m)
{
	mpfr_t lo, t;

	mpfr_inits2(ERR_PREC, lo, t, (mpfr_ptr)0);
	abs_down(lo, v);
	if (mpfr_zero_p(lo)) {
		mpfr_pow_ui(r, v->err, m, MPFR_RNDU);
	} else {
		mpfr_div(t, v->err, lo, MPFR_RNDU);
		mpfr_log1p(t, t, MPFR_RNDU);
		mpfr_mul_ui(t, t, m, MPFR_RNDU);
		mpfr_expm1(t, t, MPFR_RNDU);
		abs_up(r, v);
		mpfr_pow_ui(r, r, m, MPFR_RNDU);
		mpfr_mul(r, r, t, MPFR_RNDU);
	}
	mpfr_clears(lo, t, (mpfr_ptr)0);
}

/* Raises the approximate 'v' to the integer 'k' (v surely not zero when
 * k < 0), with the error bound: |(x+d)^m - x^m| <= (|x|+|d|)^m - |x|^m,
 * and for x^-m that over (|x| - |d|)^m |x|^m. */
void segc_val_pow_inexact(segc_val *v, long k)
{
	unsigned long m = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k;
	mpfr_t spread, lo, t;

	mpfr_inits2(ERR_PREC, spread, lo, t, (mpfr_ptr)0);
	power_spread(spread, v, m);
	if (k < 0) {
		abs_down(lo, v);
		mpfr_pow_ui(t, lo, m, MPFR_RNDD);
		mpfr_sub(lo, lo, v->err, MPFR_RNDD);
		mpfr_pow_ui(lo, lo, m, MPFR_RNDD);
		mpfr_mul(lo, lo, t, MPFR_RNDD);
		mpfr_div(spread, spread, lo, MPFR_RNDU);
	}
	mpfr_set(v->err, spread, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_pow_si(v->f, v->f, k, MPFR_RNDN));
	mpfr_clears(spread, lo, t, (mpfr_ptr)0);
}

/* Sets 'z' to ceil (when 'up') or floor of the value 'v'; -1 when its
 * error bound straddles an integer (the rounding cannot be decided). */
int segc_val_round_to_z(mpz_t z, const segc_val *v, int up)
{
	mpfr_t lo, hi;
	mpz_t z2;
	int same;

	if (v->exact) {
		if (up)
			mpz_cdiv_q(z, mpq_numref(v->q), mpq_denref(v->q));
		else
			mpz_fdiv_q(z, mpq_numref(v->q), mpq_denref(v->q));
		return 0;
	}
	if (!mpfr_number_p(v->err) || !mpfr_number_p(v->f))
		return -1;
	mpfr_inits2(mpfr_get_prec(v->f) + ERR_PREC, lo, hi, (mpfr_ptr)0);
	mpz_init(z2);
	mpfr_sub(lo, v->f, v->err, MPFR_RNDD);
	mpfr_add(hi, v->f, v->err, MPFR_RNDU);
	mpfr_get_z(z, lo, up ? MPFR_RNDU : MPFR_RNDD);
	mpfr_get_z(z2, hi, up ? MPFR_RNDU : MPFR_RNDD);
	same = !mpz_cmp(z, z2);
	mpz_clear(z2);
	mpfr_clears(lo, hi, (mpfr_ptr)0);
	return same ? 0 : -1;
}

/* log2 of the approximate 'v', surely positive: |log2 x - log2 y| <=
 * |x - y| / (min(x, y) ln 2), and 1/ln 2 < 1.5. */
static void log2_inexact(segc_val *v)
{
	mpfr_t lo;

	mpfr_init2(lo, ERR_PREC);
	abs_down(lo, v);
	mpfr_sub(lo, lo, v->err, MPFR_RNDD);
	mpfr_div(v->err, v->err, lo, MPFR_RNDU);
	mpfr_mul_d(v->err, v->err, 1.5, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_log2(v->f, v->f, MPFR_RNDN));
	mpfr_clear(lo);
}

/* sqrt of the approximate 'v', surely not negative: |sqrt x - sqrt y| <=
 * min(sqrt |x - y|, |x - y| / sqrt y). */
static void sqrt_inexact(segc_val *v)
{
	mpfr_t a, b;

	mpfr_inits2(ERR_PREC, a, b, (mpfr_ptr)0);
	mpfr_sqrt(a, v->err, MPFR_RNDU);
	abs_down(b, v);
	mpfr_sqrt(b, b, MPFR_RNDD);
	if (mpfr_sgn(b) > 0) {
		mpfr_div(b, v->err, b, MPFR_RNDU);
		if (mpfr_cmp(b, a) < 0)
			mpfr_set(a, b, MPFR_RNDU);
	}
	mpfr_set(v->err, a, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_sqrt(v->f, v->f, MPFR_RNDN));
	mpfr_clears(a, b, (mpfr_ptr)0);
}

/* log2 of the positive value in 'out', exactly when it is a power of 2. */
void segc_val_log2(segc_val *out)
{
	mpz_srcptr n = mpq_numref(out->q), d = mpq_denref(out->q);

	if (out->exact && mpz_popcount(d) == 1 && mpz_cmp_ui(n, 1) == 0) {
		mpq_set_si(out->q, -(long)mpz_scan1(d, 0), 1);
		return;
	}
	if (out->exact && mpz_cmp_ui(d, 1) == 0 && mpz_popcount(n) == 1) {
		mpq_set_ui(out->q, mpz_scan1(n, 0), 1);
		return;
	}
	segc_val_inexact(out);
	log2_inexact(out);
}

/* sqrt of the non-negative value in 'out', exactly when it is a square. */
void segc_val_sqrt(segc_val *out)
{
	if (out->exact && mpz_perfect_square_p(mpq_numref(out->q)) &&
	    mpz_perfect_square_p(mpq_denref(out->q))) {
		mpz_sqrt(mpq_numref(out->q), mpq_numref(out->q));
		mpz_sqrt(mpq_denref(out->q), mpq_denref(out->q));
		return;
	}
	segc_val_inexact(out);
	sqrt_inexact(out);
}

/* 2^v, in place: exactly of an integer v of at most MAX_EXACT_BITS;
 * else |2^x - 2^y| <= 2^max(x, y) ln 2 |x - y|, and ln 2 < 0.7. */
void segc_val_exp2(segc_val *out)
{
	mpfr_t hi;

	if (out->exact && mpz_cmp_ui(mpq_denref(out->q), 1) == 0 &&
	    mpz_cmpabs_ui(mpq_numref(out->q), MAX_EXACT_BITS) <= 0) {
		long k = mpz_get_si(mpq_numref(out->q));

		mpq_set_ui(out->q, 1, 1);
		mpz_mul_2exp(mpq_numref(out->q), mpq_numref(out->q),
			(unsigned long)labs(k));
		if (k < 0)
			mpq_inv(out->q, out->q);
		return;
	}
	segc_val_inexact(out);
	mpfr_init2(hi, mpfr_get_prec(out->f) + ERR_PREC);
	mpfr_add(hi, out->f, out->err, MPFR_RNDU);
	mpfr_exp2(hi, hi, MPFR_RNDU);
	mpfr_mul(out->err, out->err, hi, MPFR_RNDU);
	mpfr_mul_d(out->err, out->err, 0.7, MPFR_RNDU);
	add_rounding(out->err, out->f, mpfr_exp2(out->f, out->f, MPFR_RNDN));
	mpfr_clear(hi);
}

/* The 'q'-th root (q >= 3) of the approximate 'v', surely not negative:
 * x^(1/q) - y^(1/q) = (x - y) / (sum of x^(i/q)*y^((q-1-i)/q)), so
 * |x^(1/q) - y^(1/q)| <= min(|x - y|^(1/q), |x - y| / y^((q-1)/q)). */
static void root_inexact(segc_val *v, unsigned long q)
{
	mpfr_t a, b;

	mpfr_inits2(ERR_PREC, a, b, (mpfr_ptr)0);
	mpfr_rootn_ui(a, v->err, q, MPFR_RNDU);
	abs_down(b, v);
	mpfr_rootn_ui(b, b, q, MPFR_RNDD);
	mpfr_pow_ui(b, b, q - 1, MPFR_RNDD);
	if (mpfr_sgn(b) > 0) {
		mpfr_div(b, v->err, b, MPFR_RNDU);
		if (mpfr_cmp(b, a) < 0)
			mpfr_set(a, b, MPFR_RNDU);
	}
	mpfr_set(v->err, a, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_rootn_ui(v->f, v->f, q, MPFR_RNDN));
	mpfr_clears(a, b, (mpfr_ptr)0);
}

/* The 'q'-th root (q >= 2) of the non-negative value in 'out', exactly
 * when it is the q-th power of a rational. */
void segc_val_root(segc_val *out, unsigned long q)
{
	mpq_t t;
	int exact = 0;

	if (q == 2) {
		segc_val_sqrt(out);
		return;
	}
	if (out->exact) {
		mpq_init(t);
		exact = mpz_root(mpq_numref(t), mpq_numref(out->q), q) &&
			mpz_root(mpq_denref(t), mpq_denref(out->q), q);
		if (exact)
			mpq_set(out->q, t);
		mpq_clear(t);
	}
	if (exact)
		return;
	segc_val_inexact(out);
	root_inexact(out, q);
}

/* Compares the values 'a' and 'b' into '*c' (<0, 0, >0); -1 when their
 * error bounds overlap and the order is not certain. */
int segc_val_compare_certain(const segc_val *a, const segc_val *b,
	int *c)
{
	segc_val d;
	int ok;

	if (a->exact && b->exact) {
		*c = mpq_cmp(a->q, b->q);
		return 0;
	}
	segc_val_init(&d, mpfr_get_prec(a->exact ? b->f : a->f));
	segc_val_set(&d, a);
	segc_val_inexact(&d);
	mpfr_neg(d.f, d.f, MPFR_RNDN);
	val_op_inexact(&d, b, SEGC_VAL_ADD);
	ok = segc_val_sign_certain(&d);
	*c = -mpfr_sgn(d.f);
	segc_val_clear(&d);
	return ok ? 0 : -1;
}
