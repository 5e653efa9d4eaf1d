/* cli_plans.h - formulas evaluated at many points through evaluation
 * plans compiled once (<segc/eval.h>): a slot per formula, its plan
 * compiled at the first point it is asked for and run at each after,
 * for the commands that value the same formulas over a grid
 * (sensitivity). */
#ifndef SEGC_CLI_PLANS_H
#define SEGC_CLI_PLANS_H

#include <segc/eval.h>

/* 'n' formulas and their plans (NULL until compiled). */
typedef struct cli_plans {
	size_t n;
	const segc_expr **e;     /* borrowed */
	segc_eval_plan **p;
} cli_plans;

/* Makes 'P' hold 'n' slots with no formula yet. */
void cli_plans_init(cli_plans *P, size_t n);
/* Releases the plans of 'P'. */
void cli_plans_clear(cli_plans *P);
/* segc_eval_plan_exact() of the formula of slot 'k' at 'pt' (the plan
 * compiled first when it is not yet): 0, 1 when not rational, -1
 * recorded. */
int cli_plans_exact(segc_ctx *ctx, cli_plans *P, size_t k, mpq_t out,
	const segc_point *pt);
/* segc_eval_plan_mpfr() of slot 'k' at 'pt': 0, or -1 recorded. */
int cli_plans_mpfr(segc_ctx *ctx, cli_plans *P, size_t k, mpfr_t out,
	const segc_point *pt);
/* The value of slot 'k' at 'pt' into 'out': the exact value rounded
 * when it is rational, else segc_eval_plan_mpfr(); 0, or -1 recorded. */
int cli_plans_value(segc_ctx *ctx, cli_plans *P, size_t k, mpfr_t out,
	const segc_point *pt);

#endif
