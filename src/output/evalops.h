/* evalops.h - the operations of the built-in functions of one number
 * (rows whose evaluation is SEGC_EVAL_ROUND or SEGC_EVAL_UNARY) over
 * the arithmetics of the evaluation plan: MPFR values with an error
 * (evalmp), arb balls (evalball) and doubles with a radius (evaldbl).
 * Their exact operation is the row's (expr/builtin_exact.c).  The
 * evaluators find a built-in's operations here by its id and never
 * tell built-ins apart: a new function of one number is its row and
 * its entry in evalops.c. */
#ifndef SEGC_EVALOPS_H
#define SEGC_EVALOPS_H

#include <arb.h>

#include "output/evalmp_private.h"

/* What an operation over balls ends with. */
enum segc_opb {
	SEGC_OPB_OK,      /* 'd' encloses the value */
	SEGC_OPB_WIDE,    /* 'd' encloses the values over the ball, which
	                   * differ (floor across an integer): at a point
	                   * the exact evaluation decides */
	SEGC_OPB_SIGN,    /* not set: the ball is not wholly in the
	                   * domain (log2 of a ball around 0) */
	SEGC_OPB_POINT    /* not set: only the exact evaluation at the
	                   * point can say (a ball that is not finite) */
};

/* A value of the double backend (evaldbl.c). */
struct dball;

/* The operations of one built-in; a NULL one is not available in that
 * arithmetic (the evaluator declines or falls back). */
typedef struct segc_eval_op {
	/* MPFR values: f applied in place to 'v', exact where the value
	 * is rational; 0, else -1 with the error or the undecided
	 * comparison recorded in 'ev' */
	int (*mp)(segc_evaluator *ev, const segc_builtin_info *b,
		segc_val *v);
	/* balls: 'd' = f('x') at 'prec' bits (an enum segc_opb); 'lim'
	 * is the limit max_exponent (0: none) */
	int (*ball)(const segc_builtin_info *b, arb_ptr d, arb_srcptr x,
		slong prec, long lim);
	/* doubles: 'o' = f('x'); 0, else 1 when the doubles do not give
	 * a certified value (evaldbl.c) */
	int (*dbl)(const segc_builtin_info *b, struct dball *o,
		const struct dball *x);
} segc_eval_op;

/* The operations of the built-in 'id'; NULL for one that is not a
 * function of one number. */
const segc_eval_op *segc_eval_op_get(enum segc_builtin id);

/* 'lo' and 'hi' set to the ceil (when 'up') or floor of the lower and
 * upper bounds of the ball 'x' (also the bounds of a sum's range). */
void segc_ball_round_bounds(arf_t lo, arf_t hi, arb_srcptr x, int up,
	slong prec);

/* The double operations, written beside their arithmetic (evaldbl.c). */
int segc_dbl_round(const segc_builtin_info *b, struct dball *o,
	const struct dball *x);
int segc_dbl_log2(const segc_builtin_info *b, struct dball *o,
	const struct dball *x);
int segc_dbl_sqrt(const segc_builtin_info *b, struct dball *o,
	const struct dball *x);
int segc_dbl_exp2(const segc_builtin_info *b, struct dball *o,
	const struct dball *x);

#endif
