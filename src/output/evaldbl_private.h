/* evaldbl_private.h - the double backend of the evaluation plan: the
 * plan of evalmp_plan.h run over doubles with a certified error
 * (evaldbl.c), for values wanted to a few digits at many points. */
#ifndef SEGC_EVALDBL_PRIVATE_H
#define SEGC_EVALDBL_PRIVATE_H

#include "output/evalmp_plan.h"

/* Runs 'p' at 'pt' over doubles: 0 with lo[i] <= the exact value of
 * formula i <= hi[i] for each formula of the plan; 1 when the doubles
 * do not give them (a decision they do not make, an error, a limit, an
 * atom with no double form; with 'rational', a log2 or sqrt whose value
 * is not rational): nothing is recorded in 'ctx' (whose limits are
 * read), the caller evaluates another way. */
int segc_dbl_plan_run(segc_ctx *ctx, const segc_eplan *p,
	const segc_point *pt, int rational, double *lo, double *hi);

/* The sum of sum instruction 'in' over j = lo .. hi (lo <= hi, integers
 * below 2^52 in magnitude) from the pieces of its body, the slots 'v'
 * holding their coefficients (evaldbl_pieces.c): DB_OK with the sum in
 * '*out', DB_GIVE_UP, or DB_TERMWISE when the balls do not decide where
 * a piece changes (nothing written). */
struct dball;
int segc_dbl_sum_pieces(const segc_eplan_ins *in, const struct dball *v,
	double lo, double hi, struct dball *out);

#endif
