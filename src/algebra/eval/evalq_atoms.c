/* evalq_atoms.c - a formula with its atoms of no free name (every name
 * bound) replaced by their exact values: sums, the recurrences of
 * overlapped loops and indexed nodes (maxplus, maxplusv, taskpath), floor
 * and ceil; the whole formula its number when it has no free name.  All
 * of them together within max_eval_terms (evalq.c evaluates them). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "base/util.h"
#include "algebra/eval/evalq.h"

/* A name bound by an enclosing binder, and those further out. */
struct bound_name {
	const char *name;
	const struct bound_name *next;
};

/* Non-zero when 'e' has a name that no binder inside it nor 'b' binds. */
static int has_free_name(const segc_expr *e, const struct bound_name *b)
{
	struct bound_name inner;
	size_t i;

	if (e->kind == SEGC_NUM)
		return 0;
	if (e->kind == SEGC_SYM) {
		for (; b; b = b->next)
			if (!strcmp(b->name, e->u.name))
				return 0;
		return 1;
	}
	inner.name = segc_expr_binder(e);
	inner.next = b;
	for (i = 0; i < e->nargs; i++)
		if (has_free_name(segc_args(e)[i], inner.name &&
				segc_expr_arg_bound(e, i) ? &inner : b))
			return 1;
	return 0;
}

/* Non-zero when 'e' is an atom that stands for work done at a point (a
 * sum, the recurrence of an overlapped loop or task graph) or for an
 * integer part (floor, ceil) that the canonical form keeps as it is. */
static int is_work_atom(const segc_expr *e)
{
	enum segc_builtin_eval how = segc_builtin_get(
		segc_expr_builtin(e))->eval;

	return e->kind == SEGC_SUM || how == SEGC_EVAL_MAXPLUS ||
		how == SEGC_EVAL_TASKPATH || (e->kind == SEGC_CALL &&
		e->nargs == 1 && how == SEGC_EVAL_ROUND);
}

/* A walk that replaces the work atoms of no free name by their values:
 * the nodes done, the terms left to all of them, whether one changed and
 * whether a bound stopped one. */
struct valuing {
	segc_expr_map done;
	unsigned long terms;
	int changed, limited;
};

/* The value of the work atom 'e' of no free name (a new reference), or
 * NULL when it has no rational value or a bound stops it. */
static segc_expr *atom_value(struct valuing *V, const segc_expr *e)
{
	segc_expr *v = NULL;
	mpq_t r;

	mpq_init(r);
	if (!segc_evalq_closed(r, e, &V->terms, &V->limited))
		v = segc_expr_num(r);
	mpq_clear(r);
	return v;
}

/* 'e' with its work atoms of no free name replaced (a new reference);
 * NULL once a bound stopped one. */
static segc_expr *value_walk(struct valuing *V, const segc_expr *e)
{
	segc_expr **args, *r;
	void **slot;
	size_t i;

	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM)
		return segc_expr_copy(e);
	if ((slot = segc_expr_map_find(&V->done, e)) != NULL)
		return segc_expr_copy(*slot);
	if (is_work_atom(e) && !has_free_name(e, NULL)) {
		r = atom_value(V, e);
		if (V->limited)
			return NULL;
		if (r) {
			V->changed = 1;
			segc_expr_map_put(&V->done, e, r);
			return segc_expr_copy(r);
		}
	}
	args = segc_xmalloc(segc_xmul_size(e->nargs + 1, sizeof(*args)));
	for (i = 0; i < e->nargs; i++) {
		args[i] = value_walk(V, segc_args(e)[i]);
		if (!args[i]) {
			while (i--)
				segc_expr_free(args[i]);
			free(args);
			return NULL;
		}
	}
	r = segc_expr_rebuild((enum segc_expr_kind)e->kind, e->u.name,
		e->nargs, args);
	free(args);
	segc_expr_map_put(&V->done, e, r);
	return segc_expr_copy(r);
}

/* See segc.h. */
segc_expr *segc_expr_value_atoms(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *e, const segc_where *where)
{
	unsigned long cap = segc_ctx_limits(ctx)->max_eval_terms;
	struct valuing V;
	segc_expr *r;
	size_t i;

	if (!e)
		return NULL;
	memset(&V, 0, sizeof(V));
	segc_expr_map_init(&V.done);
	V.terms = cap ? cap : ULONG_MAX;
	if (e->kind == SEGC_NUM)
		r = segc_expr_copy(e);
	else if (!has_free_name(e, NULL)) {
		/* every name bound: the whole formula, when rational */
		if ((r = atom_value(&V, e)) != NULL) {
			segc_expr_free(e);
			return r;
		}
		r = V.limited ? NULL : value_walk(&V, e);
	} else if (!dom)
		r = segc_expr_copy(e);    /* the structural form: kept */
	else
		r = value_walk(&V, e);
	for (i = 0; i < V.done.cap; i++)
		if (V.done.keys[i])
			segc_expr_free(V.done.values[i]);
	segc_expr_map_clear(&V.done);
	if (!r) {
		segc_error(ctx, SEGC_ERR_LIMIT, where ? where->file : NULL,
			where ? where->line : 0, where ? where->col : 0,
			"evaluating this "
			"formula takes more than %lu terms of sums, "
			"iterations of overlapped loops or instances of "
			"indexed nodes (max_eval_terms)", cap);
		segc_expr_free(e);
		return NULL;
	}
	if (!V.changed) {
		segc_expr_free(r);
		return e;
	}
	segc_expr_free(e);
	return dom ? segc_canonical(ctx, dom, r) : r;
}
