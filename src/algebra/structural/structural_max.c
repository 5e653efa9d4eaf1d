/* structural_max.c - the maxima and minima of a structural formula,
 * pruned on the declared domains: a max (min) inside a max (min) is
 * flattened into it, and an alternative is dropped when another one is
 * proved at least as large (small) on the domains, so that a component's
 * max(m, max(m + k, 0)) with m, k >= 0 reads m + k.  Each rule holds on
 * the declared domains, so the canonical form does not change.  The DAG
 * is walked once (a memo by node); past a depth of PRUNE_MAX_DEPTH, or
 * with more than PRUNE_MAX_ALTS alternatives, a node is left as it is. */
#include <stdlib.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "algebra/structural/structural.h"
#include "algebra/eval/refute.h"
#include "base/util.h"

#define PRUNE_MAX_DEPTH 400
#define PRUNE_MAX_ALTS 16

/* The state of one pruning. */
struct prune {
	segc_ctx *ctx;
	const segc_domains *dom;
	segc_expr_map memo;       /* node -> its pruned form (a reference) */
};

static segc_expr *prune(struct prune *p, segc_expr *e, unsigned depth);

/* Non-zero when the domains prove a - b >= 0; a point where a - b < 0
 * (algebra/eval/refute.c) answers first, without the proof. */
static int proved_at_least(struct prune *p, segc_expr *a, segc_expr *b)
{
	segc_expr *d = segc_expr_sub2(segc_expr_copy(a), segc_expr_copy(b));
	unsigned s = segc_refute_by_walk(p->dom, d) ? 0 :
		segc_proved_signs(p->ctx, p->dom, d);

	segc_expr_free(d);
	return (s & (SEGC_PROVED_NONNEG | SEGC_PROVED_POS)) != 0;
}

/* Appends the alternatives of 'a' (taken) to 'v' (n of them, capacity
 * 'cap'): those of a call of the same 'id' spliced in. */
static void add_alternative(segc_expr ***v, size_t *n, size_t *cap,
	enum segc_builtin id, segc_expr *a)
{
	size_t i;

	if (segc_expr_is_builtin(a, id)) {
		for (i = 0; i < a->nargs; i++)
			add_alternative(v, n, cap, id,
				segc_expr_copy(segc_args(a)[i]));
		segc_expr_free(a);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*v = segc_xrealloc(*v, segc_xmul_size(*cap, sizeof(**v)));
	}
	(*v)[(*n)++] = a;
}

/* Keeps of the 'n' alternatives 'v' (taken, the array too) those no
 * other one is proved to dominate (for max: to be at least as large),
 * the first of equals, in the order of first occurrence; the call of 'id'
 * on them, or the one left. */
static segc_expr *keep_undominated(struct prune *p, enum segc_builtin id,
	segc_expr **v, size_t n)
{
	size_t i, j, m, k = 0;
	int ismax = id == SEGC_BUILTIN_MAX;
	segc_expr *r;

	for (i = 0; i < n; i++) {
		int dropped = 0;

		for (j = 0; j < k && !dropped && n <= PRUNE_MAX_ALTS; j++)
			dropped = ismax ? proved_at_least(p, v[j], v[i]) :
				proved_at_least(p, v[i], v[j]);
		if (dropped) {
			segc_expr_free(v[i]);
			continue;
		}
		/* The new one may dominate some kept before it. */
		for (j = 0; j < k && n <= PRUNE_MAX_ALTS; ) {
			if (ismax ? proved_at_least(p, v[i], v[j]) :
				proved_at_least(p, v[j], v[i])) {
				segc_expr_free(v[j]);
				for (m = j; m + 1 < k; m++)
					v[m] = v[m + 1];
				k--;
			} else
				j++;
		}
		v[k++] = v[i];
	}
	r = k == 1 ? v[0] : segc_expr_call_builtin(id, k, v);
	free(v);
	return r;
}

/* 'e' (kept) rebuilt from its pruned children, its maxima and minima
 * pruned. */
static segc_expr *prune_node(struct prune *p, segc_expr *e, unsigned depth)
{
	enum segc_builtin id = segc_expr_builtin(e);
	segc_expr **v;
	size_t i, n = 0, cap = 0;
	int same = 1;

	if (!e->nargs || e->kind == SEGC_NUM || e->kind == SEGC_SYM)
		return segc_expr_copy(e);
	if (id == SEGC_BUILTIN_MAX || id == SEGC_BUILTIN_MIN) {
		v = NULL;
		for (i = 0; i < e->nargs; i++)
			add_alternative(&v, &n, &cap, id,
				prune(p, segc_args(e)[i], depth + 1));
		return keep_undominated(p, id, v, n);
	}
	v = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*v)));
	for (i = 0; i < e->nargs; i++) {
		v[i] = prune(p, segc_args(e)[i], depth + 1);
		same = same && v[i] == segc_args(e)[i];
	}
	if (same) {
		for (i = 0; i < e->nargs; i++)
			segc_expr_free(v[i]);
		free(v);
		return segc_expr_copy(e);
	}
	if (e->kind == SEGC_SUM) {
		segc_expr *r = segc_expr_sum(e->u.name, v[0], v[1], v[2]);

		free(v);
		return r;
	}
	{
		segc_expr *r = segc_expr_rebuild((enum segc_expr_kind)e->kind,
			e->u.name, e->nargs, v);

		free(v);
		return r;
	}
}

/* The pruned form of 'e' (kept), through the memo. */
static segc_expr *prune(struct prune *p, segc_expr *e, unsigned depth)
{
	void **slot = segc_expr_map_find(&p->memo, e);
	segc_expr *r;

	if (slot)
		return segc_expr_copy(*slot);
	if (depth > PRUNE_MAX_DEPTH)
		return segc_expr_copy(e);
	r = prune_node(p, e, depth);
	segc_expr_map_put(&p->memo, e, segc_expr_copy(r));
	return r;
}

/* See structural.h. */
segc_expr *segc_structural_prune(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *e)
{
	struct prune p;
	segc_expr *r;
	size_t i;

	if (!e)
		return NULL;
	p.ctx = ctx;
	p.dom = dom;
	segc_expr_map_init(&p.memo);
	r = prune(&p, e, 0);
	for (i = 0; i < p.memo.cap; i++)
		if (p.memo.keys && p.memo.keys[i])
			segc_expr_free(p.memo.values[i]);
	segc_expr_map_clear(&p.memo);
	segc_expr_free(e);
	return r;
}
