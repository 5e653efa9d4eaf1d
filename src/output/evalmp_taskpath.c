/* evalmp_taskpath.c - the atom taskpath(...) of a task graph with indexed
 * nodes in the MPFR evaluator: computed exactly (algebra/taskpath.c) from
 * the exact values of its arguments, its instances and their arcs
 * counted against max_eval_terms. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/evalmp_private.h"
#include "graph/taskpath.h"
#include "base/util.h"

/* The longest path of the indexed task graph whose arguments have the
 * exact values 'q' ('n' of them) into 'out', its instances counted
 * against what is left of max_eval_terms. */
int segc_eval_taskpath_q(segc_evaluator *ev, size_t n, const mpq_t *q,
	segc_val *out)
{
	unsigned long max = segc_ctx_limits(ev->ctx)->max_eval_terms;
	unsigned long left = max ? (ev->terms < max ? max - ev->terms : 0) :
		ULONG_MAX;
	char *why = NULL;
	int rc = 0, r;

	r = segc_taskpath_eval(out->q, n, q, left, &why);
	if (r > 0 && why) {
		rc = segc_eval_fail(ev, SEGC_ERR_LIMIT, "%s", why);
	} else if (r > 0) {
		char buf[160];

		snprintf(buf, sizeof(buf), "evaluating this formula "
			"takes more than %lu instances of indexed "
			"nodes and arcs between them (max_eval_terms)", max);
		rc = segc_eval_fail(ev, SEGC_ERR_LIMIT, "%s", buf);
	} else if (r < 0) {
		rc = segc_eval_fail(ev, SEGC_ERR_INPUT, "%s", why);
	}
	free(why);
	out->exact = 1;
	return rc;
}

/* The longest path of the indexed task graph 'e' into 'out'. */
int segc_eval_taskpath(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	size_t n = segc_expr_nargs(e), i;
	mpq_t *q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(mpq_t)));
	int rc = 0;
	segc_val x;

	for (i = 0; i < n; i++)
		mpq_init(q[i]);
	for (i = 0; i < n && !rc; i++) {
		rc = segc_eval_new(ev, segc_expr_arg(e, i), &x);
		if (!rc && !x.exact)
			rc = segc_eval_fail(ev, SEGC_ERR_INPUT, "the costs and "
				"bounds of indexed nodes must be rational "
				"numbers here%s", "");
		else if (!rc)
			mpq_set(q[i], x.q);
		segc_val_clear(&x);
	}
	if (!rc)
		rc = segc_eval_taskpath_q(ev, n, (const mpq_t *)q, out);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return rc;
}
