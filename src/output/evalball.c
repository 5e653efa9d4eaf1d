/* evalball.c - the value of a compiled plan at a point over arb balls,
 * certified: the plan is run at the precision of the result plus guard
 * bits, and again at twice that while the ball of a result is not yet
 * narrow enough that both its ends round to the same number at the
 * result's precision (then the exact value rounds to it too: the result
 * is correctly rounded, as the exact plan gives it).  Up to sixteen
 * times the first precision; past that, or when the balls cannot go on
 * (an error, a limit, an undecidable comparison), the caller runs the
 * exact plan, which gives the value or the error. */
#include <stdlib.h>

#include "output/evalball_private.h"

/* Extra bits of the working precision. */
#define GUARD_BITS 32
/* The factor by which the precision may grow before the exact plan is
 * run instead. */
#define MAX_PRECISION_GROWTH 16

/* Sets 'o' to the ball 'x' rounded to nearest at the precision of 'o';
 * non-zero when both ends of 'x' round to it (the value is certain). */
static int round_certain(mpfr_ptr o, arb_srcptr x)
{
	mpfr_t lo, hi;
	mpfr_prec_t p;
	int same;

	if (!arb_is_finite(x))
		return 0;
	if (arb_is_exact(x)) {
		arf_get_mpfr(o, arb_midref(x), MPFR_RNDN);
		return 1;
	}
	p = (mpfr_prec_t)arb_bits(x) + mpfr_get_prec(o) + 64;
	mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
	arb_get_interval_mpfr(lo, hi, x);
	mpfr_prec_round(lo, mpfr_get_prec(o), MPFR_RNDN);
	mpfr_set(o, hi, MPFR_RNDN);
	same = mpfr_equal_p(lo, o);
	mpfr_clears(lo, hi, (mpfr_ptr)0);
	return same;
}

/* The formulas of 'plan' at 'pt' over balls (see evalball_private.h). */
int segc_ball_point(segc_ctx *ctx, size_t n, mpfr_ptr const *out,
	const segc_eplan *plan, const segc_point *pt,
	const segc_where *where)
{
	segc_ball_run r;
	arb_ptr res = _arb_vec_init((slong)n + 1);
	slong prec = 0, p;
	size_t i, certain;
	int rc = 1;

	for (i = 0; i < n; i++)
		if ((slong)mpfr_get_prec(out[i]) > prec)
			prec = (slong)mpfr_get_prec(out[i]);
	prec += GUARD_BITS;
	r.p = plan;
	r.pt = pt;
	r.where = where;
	r.ctx = ctx;
	r.box = NULL;
	for (p = prec; p <= MAX_PRECISION_GROWTH * prec; p *= 2) {
		int run;

		r.prec = p;
		run = segc_ball_plan_run(&r, res);
		if (run == SEGC_BALL_PREC)
			continue;
		if (run != SEGC_BALL_OK) {
			rc = r.recorded ? -1 : 1;
			break;
		}
		for (i = certain = 0; i < n; i++)
			certain += round_certain(out[i], &res[i]) != 0;
		if (certain == n) {
			rc = 0;
			break;
		}
	}
	_arb_vec_clear(res, (slong)n + 1);
	return rc;
}
