/* evalops.c - the table of operations of the built-in functions of one
 * number over MPFR values, balls and doubles (see evalops.h), and the
 * MPFR and ball operations themselves; the double ones need the double
 * backend's arithmetic and are in evaldbl.c. */
#include <stdio.h>

#include "output/evalops.h"

/* ------------------------------------------------------------- MPFR */

/* ceil or floor ('b->dir') of the value in 'v', in place; the result is
 * exact.  -1 when it cannot be decided at this precision (recorded). */
static int mp_round(segc_evaluator *ev, const segc_builtin_info *b,
	segc_val *v)
{
	mpz_t z;
	int rc;

	mpz_init(z);
	rc = segc_val_round_to_z(z, v, b->dir > 0);
	if (!rc) {
		mpq_set_z(v->q, z);
		v->exact = 1;
	} else {
		segc_eval_undecided(ev, "%s of a value within its rounding "
			"error of an integer", b->name);
	}
	mpz_clear(z);
	return rc;
}

/* -1 unless the sign of 'v' is certain and 'v' lies in the domain of
 * 'b' (recorded in 'ev'). */
static int mp_domain(segc_evaluator *ev, const segc_builtin_info *b,
	const segc_val *v)
{
	char fmt[96];

	if (b->domain == SEGC_DOMAIN_ALL)
		return 0;
	if (!segc_val_sign_certain(v))
		return segc_eval_undecided(ev, "the sign of the argument of %s "
			"(within its rounding error of zero)", b->name);
	if (b->domain == SEGC_DOMAIN_POSITIVE ? segc_val_sgn(v) > 0 :
	    segc_val_sgn(v) >= 0)
		return 0;
	snprintf(fmt, sizeof fmt, "%s of a %s (%%s)", b->name,
		b->domain == SEGC_DOMAIN_POSITIVE ?
		"value that is not positive" : "negative value");
	return segc_eval_fail(ev, SEGC_ERR_INPUT, fmt, b->name);
}

/* log2 of the value in 'v', in place. */
static int mp_log2(segc_evaluator *ev, const segc_builtin_info *b,
	segc_val *v)
{
	if (mp_domain(ev, b, v))
		return -1;
	segc_val_log2(v);
	return 0;
}

/* sqrt of the value in 'v', in place. */
static int mp_sqrt(segc_evaluator *ev, const segc_builtin_info *b,
	segc_val *v)
{
	if (mp_domain(ev, b, v))
		return -1;
	segc_val_sqrt(v);
	return 0;
}

/* exp2 of the value in 'v', in place; an exponent above max_exponent
 * in magnitude is a limit. */
static int mp_exp2(segc_evaluator *ev, const segc_builtin_info *b,
	segc_val *v)
{
	long lim = segc_ctx_limits(ev->ctx)->max_exponent;
	int big;

	(void)b;
	if (v->exact)
		big = lim > 0 && (mpq_cmp_si(v->q, lim, 1) > 0 ||
			mpq_cmp_si(v->q, -lim, 1) < 0);
	else
		big = !mpfr_number_p(v->f) || (lim > 0 &&
			(mpfr_cmp_si(v->f, lim) > 0 ||
			mpfr_cmp_si(v->f, -lim) < 0));
	if (big) {
		char num[32];

		snprintf(num, sizeof num, "%ld", lim);
		return segc_eval_fail(ev, SEGC_ERR_LIMIT, "exp2: an exponent "
			"exceeds the limit %s (max_exponent)", num);
	}
	segc_val_exp2(v);
	return 0;
}

/* ------------------------------------------------------------ balls */

/* 'lo' and 'hi' set to the ceil (when 'up') or floor of the lower and
 * upper bounds of the ball 'x' (see evalops.h). */
void segc_ball_round_bounds(arf_t lo, arf_t hi, arb_srcptr x, int up,
	slong prec)
{
	arb_get_lbound_arf(lo, x, prec);
	arb_get_ubound_arf(hi, x, prec);
	if (up) {
		arf_ceil(lo, lo);
		arf_ceil(hi, hi);
	} else {
		arf_floor(lo, lo);
		arf_floor(hi, hi);
	}
}

/* ceil or floor of the ball 'x': exact when it is the same over the
 * ball, else the ball of every outcome (WIDE). */
static int ball_round(const segc_builtin_info *b, arb_ptr d, arb_srcptr x,
	slong prec, long lim)
{
	arf_t lo, hi;
	int rc = SEGC_OPB_OK;

	(void)lim;
	if (!arb_is_finite(x))
		return SEGC_OPB_POINT;
	arf_init(lo);
	arf_init(hi);
	segc_ball_round_bounds(lo, hi, x, b->dir > 0, prec);
	if (arf_equal(lo, hi))
		arb_set_arf(d, lo);
	else {
		arb_set_interval_arf(d, lo, hi, prec);
		rc = SEGC_OPB_WIDE;
	}
	arf_clear(lo);
	arf_clear(hi);
	return rc;
}

/* log2 of a ball wholly positive. */
static int ball_log2(const segc_builtin_info *b, arb_ptr d, arb_srcptr x,
	slong prec, long lim)
{
	(void)b;
	(void)lim;
	if (!arb_is_positive(x))
		return SEGC_OPB_SIGN;
	arb_log_base_ui(d, x, 2, prec);
	return SEGC_OPB_OK;
}

/* sqrt of a ball wholly non-negative. */
static int ball_sqrt(const segc_builtin_info *b, arb_ptr d, arb_srcptr x,
	slong prec, long lim)
{
	(void)b;
	(void)lim;
	if (!arb_is_nonnegative(x))
		return SEGC_OPB_SIGN;
	arb_sqrt(d, x, prec);
	return SEGC_OPB_OK;
}

/* 2^x of a ball within max_exponent (else at the point, where the
 * limit is reported). */
static int ball_exp2(const segc_builtin_info *b, arb_ptr d, arb_srcptr x,
	slong prec, long lim)
{
	arb_t two;
	int in;

	(void)b;
	if (!arb_is_finite(x) || arf_cmpabs_2exp_si(arb_midref(x), 62) > 0 ||
	    mag_cmp_2exp_si(arb_radref(x), 62) > 0)
		return SEGC_OPB_POINT;
	arb_init(two);
	arb_set_si(two, lim > 0 ? lim : WORD_MAX / 2);
	in = arb_le(x, two);
	arb_neg(two, two);
	if (!in || !arb_ge(x, two)) {
		arb_clear(two);
		return SEGC_OPB_POINT;
	}
	arb_set_ui(two, 2);
	arb_pow(d, two, x, prec);
	arb_clear(two);
	return SEGC_OPB_OK;
}

/* ------------------------------------------------------------ table */

/* The operations, indexed by enum segc_builtin: one entry a function
 * of one number. */
static const segc_eval_op ops[SEGC_BUILTIN_COUNT] = {
	[SEGC_BUILTIN_CEIL] = { mp_round, ball_round, segc_dbl_round },
	[SEGC_BUILTIN_FLOOR] = { mp_round, ball_round, segc_dbl_round },
	[SEGC_BUILTIN_LOG2] = { mp_log2, ball_log2, segc_dbl_log2 },
	[SEGC_BUILTIN_SQRT] = { mp_sqrt, ball_sqrt, segc_dbl_sqrt },
	[SEGC_BUILTIN_EXP2] = { mp_exp2, ball_exp2, segc_dbl_exp2 }
};

/* The operations of 'id' (see evalops.h). */
const segc_eval_op *segc_eval_op_get(enum segc_builtin id)
{
	if ((unsigned)id >= SEGC_BUILTIN_COUNT || !ops[id].mp)
		return NULL;
	return &ops[id];
}
