/* evalmp_pair.c - the exact values of two formulas at the points of a
 * witness search (segc_witness_search_with of <segc/check.h>), each by
 * the evaluation plan of eval, compiled at the first point and run at
 * every one: so that 'check' values its sample points as 'eval' does. */
#include <stdlib.h>
#include <segc/eval.h>

#include "base/util.h"

/* Two formulas and their plans; the errors of a run go to 'scratch'
 * (the caller's limits), dropped: a side with no value is left to the
 * search. */
struct segc_eval_pair {
	segc_ctx *scratch;
	const segc_expr *e[2];
	segc_eval_plan *plan[2];
	int failed[2];           /* no plan could be compiled */
};

/* The share of max_eval_terms that one side at one sample point may
 * use: a search values 200 points, and a point past its share (an
 * overlapped loop of many iterations whose exact times keep growing) is
 * replaced by smaller values, as a point without a value is, instead of
 * taking the whole budget of an 'eval' 400 times over. */
#define POINT_SHARE 100

/* The pair of 'a' and 'b' (borrowed: they must outlive it), under the
 * limits of 'ctx' (see eval.h), max_eval_terms divided among the
 * points. */
segc_eval_pair *segc_eval_pair_new(segc_ctx *ctx, const segc_expr *a,
	const segc_expr *b)
{
	segc_eval_pair *p = segc_xcalloc(1, sizeof(*p));
	segc_limits *lim;

	p->scratch = segc_ctx_new();
	lim = segc_ctx_limits(p->scratch);
	*lim = *segc_ctx_limits(ctx);
	lim->max_eval_terms = lim->max_eval_terms / POINT_SHARE ?
		lim->max_eval_terms / POINT_SHARE : 1;
	p->e[0] = a;
	p->e[1] = b;
	return p;
}

/* Releases 'p'. */
void segc_eval_pair_free(segc_eval_pair *p)
{
	if (!p)
		return;
	segc_eval_plan_free(p->plan[0]);
	segc_eval_plan_free(p->plan[1]);
	segc_ctx_free(p->scratch);
	free(p);
}

/* A segc_witness_exact: the exact value of side 'side' of the pair 'arg'
 * at the point; 0, or 1 when the plan gives none (see eval.h). */
int segc_eval_pair_exact(void *arg, int side, mpq_t value, size_t n,
	const char *const *names, const mpq_t *values)
{
	segc_eval_pair *p = arg;
	segc_point pt;
	int rc;

	if (side < 0 || side > 1 || p->failed[side])
		return 1;
	pt.n = n;
	pt.names = names;
	pt.values = values;
	if (!p->plan[side]) {
		p->plan[side] = segc_eval_plan_new(p->scratch, p->e[side], &pt);
		if (!p->plan[side]) {
			p->failed[side] = 1;
			segc_ctx_clear(p->scratch);
			return 1;
		}
	}
	rc = segc_eval_plan_exact(p->scratch, value, p->plan[side], &pt,
		NULL);
	segc_ctx_clear(p->scratch);
	return rc ? 1 : 0;
}
