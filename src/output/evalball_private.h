/* evalball_private.h - the ball backend of the evaluation plan: the plan
 * of evalmp_plan.h run over arb balls (evalball_run.c), at a point with
 * the precision refined until the result is certain (evalball.c), or
 * over a box of parameter intervals, split where the enclosure is loose
 * (evalball_box.c). */
#ifndef SEGC_EVALBALL_PRIVATE_H
#define SEGC_EVALBALL_PRIVATE_H

#include <arb.h>

#include "output/evalmp_plan.h"

/* What a run of a plan over balls ended with. */
enum {
	SEGC_BALL_OK = 0,
	SEGC_BALL_PREC,      /* a decision needs more precision */
	SEGC_BALL_FALLBACK,  /* not done over balls: the exact plan decides
			      * (an error, a limit, an atom with no ball
			      * form); at a box, 'why' says which */
	SEGC_BALL_SPLIT      /* at a box: a decision varies over it */
};

/* A run of a plan over balls. */
typedef struct segc_ball_run {
	const segc_eplan *p;
	const segc_point *pt;     /* the point (exact values) */
	const segc_where *where;
	segc_ctx *ctx;            /* its limits; errors never go there */
	slong prec;               /* working precision in bits */
	const arb_struct *box;    /* at a box: the ball of each name of
				   * pt (NULL: the point) */
	const char *why;          /* at FALLBACK or SPLIT over a box */
	const char *why_name;     /* its %s */
	int why_limit;            /* non-zero: 'why' is a limit reached */
	int recorded;             /* at a point: a limit reached, recorded
				   * in ctx (the exact plan would reach it
				   * too, as slowly) */
} segc_ball_run;

/* Runs 'r->p' over balls into 'out' (a ball for each formula, set up by
 * the caller): a SEGC_BALL_ code.  At a point (r->box NULL) a decision
 * the balls do not make is made exactly, by the walk of evalmp.c on the
 * operation's formula; at a box it is left open (an if() takes the union
 * of its branches) or the run ends with SEGC_BALL_SPLIT. */
int segc_ball_plan_run(segc_ball_run *r, arb_ptr out);

/* The ball of the rational 'q' at precision 'prec'. */
void segc_ball_set_q(arb_t x, const mpq_t q, slong prec);

/* At a point, the 'n' formulas compiled into 'plan' into 'out' (each
 * correctly rounded to its own precision) over balls: 0; -1 when a limit
 * was reached (recorded); or 1 when the balls did not give them (the
 * exact plan is to be run). */
int segc_ball_point(segc_ctx *ctx, size_t n, mpfr_ptr const *out,
	const segc_eplan *plan, const segc_point *pt,
	const segc_where *where);

#endif
