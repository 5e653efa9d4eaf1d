/* kernel_ifmax.c - a second form of a formula for comparisons: every
 * if(p >= k, a, b) (or p > k) whose branches differ by a number times
 * p - k written as the extremum it is, b + c*max(p - k, 0) with c =
 * (a - b)/(p - k): where p >= k, max(p - k, 0) = p - k and the value is
 * a; elsewhere (p - k < 0, or p - k = 0 for p > k where a = b) it is b.
 * So min(P - 1, 2) and if(P >= 3, 2, P - 1) get one form.  The canonical
 * form keeps such ifs as they are (derive prints them as written); check
 * compares the second forms of two formulas whose canonical forms
 * differ. */
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "base/util.h"

/* The walk: the context, the domains, whether an if was rewritten. */
struct ifmax {
	segc_ctx *ctx;
	const segc_domains *dom;
	int changed;
};

/* b + c*max(p - k, 0) for the if node 'e' (canonical parts), or NULL
 * when its branches do not differ by a number times p - k. */
static segc_expr *as_extremum(struct ifmax *W, const segc_expr *e)
{
	const segc_expr *c = segc_args(e)[0];
	segc_expr *d, *q, *m[2], *res = NULL;

	if (c->kind != SEGC_CALL || c->nargs != 2 || (strcmp(c->u.name,
		">=") && strcmp(c->u.name, ">")))
		return NULL;
	d = segc_expr_sub2(segc_expr_copy(segc_args(c)[0]),
		segc_expr_copy(segc_args(c)[1]));
	q = segc_canonical(W->ctx, W->dom, segc_expr_div2(
		segc_expr_sub2(segc_expr_copy(segc_args(e)[1]),
		segc_expr_copy(segc_args(e)[2])), segc_expr_copy(d)));
	if (q && q->kind == SEGC_NUM && !segc_expr_is_zero(q)) {
		m[0] = d;
		m[1] = segc_expr_int(0);
		res = segc_expr_add2(segc_expr_copy(segc_args(e)[2]),
			segc_expr_mul2(q, segc_expr_call_builtin(
			SEGC_BUILTIN_MAX, 2, m)));
		W->changed = 1;
		return res;
	}
	segc_ctx_clear(W->ctx);
	segc_expr_free(q);
	segc_expr_free(d);
	return NULL;
}

/* 'e' with its ifs rewritten (a new reference). */
static segc_expr *walk(struct ifmax *W, const segc_expr *e, int depth)
{
	segc_expr **args, *r;
	size_t i;

	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM || depth > 64)
		return segc_expr_copy(e);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF) && e->nargs == 3 &&
		(r = as_extremum(W, e)) != NULL)
		return r;
	args = segc_xmalloc(segc_xmul_size(e->nargs + 1, sizeof(*args)));
	for (i = 0; i < e->nargs; i++)
		args[i] = walk(W, segc_args(e)[i], depth + 1);
	r = segc_expr_rebuild((enum segc_expr_kind)e->kind, e->u.name,
		e->nargs, args);
	free(args);
	return r;
}

/* See segc.h. */
segc_expr *segc_expr_if_as_extremum(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e)
{
	struct ifmax W;
	segc_expr *r;

	W.ctx = ctx;
	W.dom = dom;
	W.changed = 0;
	r = walk(&W, e, 0);
	if (!W.changed) {
		segc_expr_free(r);
		return NULL;
	}
	return segc_canonical(ctx, dom, r);
}
