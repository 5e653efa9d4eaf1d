/* cli_plans.c - formulas compiled into evaluation plans at their first
 * point and run at every point after (cli_plans.h). */
#include <config.h>

#include <stdlib.h>

#include "cli/cli_plans.h"
#include "cli/cli_util.h"

/* Makes 'P' hold 'n' empty slots (see cli_plans.h). */
void cli_plans_init(cli_plans *P, size_t n)
{
	P->n = n;
	P->e = cli_xcalloc(n + 1, sizeof(*P->e));
	P->p = cli_xcalloc(n + 1, sizeof(*P->p));
}

/* Releases the plans of 'P' (see cli_plans.h). */
void cli_plans_clear(cli_plans *P)
{
	size_t k;

	for (k = 0; k < P->n; k++)
		segc_eval_plan_free(P->p[k]);
	free(P->p);
	free(P->e);
	P->n = 0;
	P->e = NULL;
	P->p = NULL;
}

/* The plan of slot 'k' for points with the names of 'pt', compiled now
 * when it is not yet; NULL (recorded) when it cannot be. */
static segc_eval_plan *plan_of(segc_ctx *ctx, cli_plans *P, size_t k,
	const segc_point *pt)
{
	if (!P->p[k])
		P->p[k] = segc_eval_plan_new(ctx, P->e[k], pt);
	return P->p[k];
}

/* The exact value of slot 'k' at 'pt' (see cli_plans.h). */
int cli_plans_exact(segc_ctx *ctx, cli_plans *P, size_t k, mpq_t out,
	const segc_point *pt)
{
	const segc_eval_plan *ep = plan_of(ctx, P, k, pt);

	return ep ? segc_eval_plan_exact(ctx, out, ep, pt, NULL) : -1;
}

/* The MPFR value of slot 'k' at 'pt' (see cli_plans.h). */
int cli_plans_mpfr(segc_ctx *ctx, cli_plans *P, size_t k, mpfr_t out,
	const segc_point *pt)
{
	const segc_eval_plan *ep = plan_of(ctx, P, k, pt);

	return ep ? segc_eval_plan_mpfr(ctx, out, ep, pt, NULL) : -1;
}

/* The value of slot 'k' at 'pt', exact when rational (see
 * cli_plans.h). */
int cli_plans_value(segc_ctx *ctx, cli_plans *P, size_t k, mpfr_t out,
	const segc_point *pt)
{
	mpq_t q;
	int rc;

	mpq_init(q);
	rc = cli_plans_exact(ctx, P, k, q, pt);
	if (rc == 0)
		mpfr_set_q(out, q, MPFR_RNDN);
	else if (rc > 0)
		rc = cli_plans_mpfr(ctx, P, k, out, pt);
	mpq_clear(q);
	return rc;
}
