/* refute.c - the cheap refutation of a >= b before its proof (see
 * refute.h), in two strengths over the points of domain_points.c:
 *
 *  - at points: a - b evaluated exactly at the fixed points of
 *    segc_domain_point, a and b apart (dominance of a longest path's
 *    alternatives);
 *  - by a walk: each name of d takes an integer point of its domain
 *    (segc_domain_point_integer); the walk starts with every name at
 *    offset 0 and moves one name at a time to the offset that makes d
 *    smallest (two passes over the names, at most WALK_MAX_EVALS
 *    evaluations), stopping at the first negative value: a fixed walk,
 *    so the same d meets the same points (the prune of maxima).  A point
 *    where d has no rational value (a division by zero, a log of a
 *    non-power) counts as no better.  Expressions with sums, graph atoms
 *    or an mva_mem of a processor count that is not a small number are
 *    left to the proof: their evaluation could cost more than it saves.
 *    So is d when written out as a tree (what the evaluator walks,
 *    recursively) it has more than WALK_MAX_TREE nodes; and the
 *    evaluations stop after WALK_MAX_WORK tree nodes, so the walk costs a
 *    bounded multiple of d's size.
 *
 * Both take the names of the formulas in the order of a walk of their
 * trees, first argument first: name number j gets the points of j. */
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "algebra/eval/domain_points.h"
#include "algebra/eval/refute.h"
#include "base/util.h"

#define POINTS_MAX_NAMES 64 /* more names of a and b: no test at points */
#define WALK_PASSES 2       /* passes of the walk over the names */
#define WALK_MAX_EVALS 400  /* evaluations of d at most */
#define WALK_MAX_TREE 4096  /* more nodes of d as a tree: left to the proof */
#define WALK_MAX_WORK 400000UL /* tree nodes evaluated, all points */
#define WALK_MAX_MVA_P 64   /* largest processor count of an mva_mem */
#define WALK_MAX_NAMES 32   /* more names: left to the proof */

/* Non-zero when evaluating 'x' could cost more than a proof saves: a
 * sum, a graph atom, an mva_mem of a processor count that is not a small
 * number. */
static int costly(const segc_expr *x)
{
	enum segc_builtin id = segc_expr_builtin(x);

	if (x->kind == SEGC_SUM || id == SEGC_BUILTIN_SUM ||
	    id == SEGC_BUILTIN_MAXPLUS || id == SEGC_BUILTIN_MAXPLUSV ||
	    id == SEGC_BUILTIN_TASKPATH)
		return 1;
	return id == SEGC_BUILTIN_MVA_MEM && (x->nargs != 3 ||
		segc_args(x)[0]->kind != SEGC_NUM ||
		mpz_cmp_ui(mpq_numref(segc_args(x)[0]->u.value),
			WALK_MAX_MVA_P) > 0);
}

/* The distinct names of the 'nroots' formulas 'roots' (pointers into
 * them), in the order of a depth-first walk, first argument first, into
 * 'names', their count into '*n': 0, or -1 when they are more than 'max'
 * or, with 'cheap', when a node is costly(). */
static int collect_names(const segc_expr *const *roots, size_t nroots,
	int cheap, const char **names, size_t max, size_t *n)
{
	segc_expr_map seen;
	const segc_expr **stack;
	size_t top = 0, cap = 64, i;
	int rc = 0;

	*n = 0;
	segc_expr_map_init(&seen);
	stack = segc_xmalloc(sizeof(*stack) * cap);
	for (i = nroots; i-- > 0;)
		stack[top++] = roots[i];
	while (top && rc == 0) {
		const segc_expr *x = stack[--top];

		if (!segc_expr_map_put(&seen, x, NULL))
			continue;
		if (cheap && costly(x)) {
			rc = -1;
			break;
		}
		if (x->kind == SEGC_SYM) {
			for (i = 0; i < *n && strcmp(names[i], x->u.name); i++)
				;
			if (i < *n)
				continue;
			if (*n == max)
				rc = -1;
			else
				names[(*n)++] = x->u.name;
			continue;
		}
		if (x->kind == SEGC_NUM)
			continue;
		for (i = x->nargs; i-- > 0;) {
			if (top == cap)
				stack = segc_xrealloc(stack, segc_xmul_size(
					cap *= 2, sizeof(*stack)));
			stack[top++] = segc_args(x)[i];
		}
	}
	free(stack);
	segc_expr_map_clear(&seen);
	return rc;
}

/* Whether some fixed point refutes a - b >= 0 (see refute.h). */
int segc_refute_at_points(const segc_domains *dom, const segc_expr *a,
	const segc_expr *b, int constant)
{
	const segc_expr *roots[2];
	const char *names[POINTS_MAX_NAMES];
	mpq_t vals[POINTS_MAX_NAMES], x, y, first;
	size_t n = 0, j;
	int p, out = 0, ok = 1, have = 0;

	roots[0] = a;
	roots[1] = b;
	if (collect_names(roots, 2, 0, names, POINTS_MAX_NAMES, &n))
		return 0;
	for (j = 0; j < n; j++)
		mpq_init(vals[j]);
	mpq_inits(x, y, first, NULL);
	for (p = 0; p < SEGC_DOMAIN_POINTS && !out; p++) {
		ok = 1;
		for (j = 0; j < n && ok; j++)
			ok = !segc_domain_point(vals[j], dom, names[j], j, p);
		if (!ok || segc_expr_eval_q(x, a, n, names, (const mpq_t *)
			    vals) || segc_expr_eval_q(y, b, n, names,
			    (const mpq_t *)vals))
			continue;
		mpq_sub(x, x, y);
		out = mpq_sgn(x) < 0 || (constant && have &&
			!mpq_equal(x, first));
		if (!have)
			mpq_set(first, x);
		have = 1;
	}
	mpq_clears(x, y, first, NULL);
	for (j = 0; j < n; j++)
		mpq_clear(vals[j]);
	return out;
}

/* The state of one walk. */
struct walk {
	const segc_expr *d;
	size_t n;
	const char **names;
	mpq_t *values;
	mpq_t r;
	unsigned evals, max_evals;
};

/* Evaluates d at the current values into w->r: 1 when it has a value,
 * 0 when not (or the evaluations ran out). */
static int walk_eval(struct walk *w)
{
	if (w->evals >= w->max_evals)
		return 0;
	w->evals++;
	return segc_expr_eval_q(w->r, w->d, w->n, w->names,
		(const mpq_t *)w->values) == 0;
}

/* Whether a walk over integer points finds d < 0 (see refute.h). */
int segc_refute_by_walk(const segc_domains *dom, const segc_expr *d)
{
	const char *names[WALK_MAX_NAMES];
	mpq_t values[WALK_MAX_NAMES], best, keep;
	struct walk w;
	size_t n, i, k, tree;
	int found = 0, have, pass;

	if (!d || (tree = segc_expr_tree_size(d, WALK_MAX_TREE + 1)) >
	    WALK_MAX_TREE || collect_names(&d, 1, 1, names, WALK_MAX_NAMES,
	    &n))
		return 0;
	for (i = 0; i < n; i++)
		mpq_init(values[i]);
	mpq_init(best);
	mpq_init(keep);
	mpq_init(w.r);
	w.d = d;
	w.n = n;
	w.names = names;
	w.values = values;
	w.evals = 0;
	w.max_evals = WALK_MAX_WORK / tree < WALK_MAX_EVALS ?
		(unsigned)(WALK_MAX_WORK / tree) : WALK_MAX_EVALS;
	for (i = 0; i < n; i++)
		if (segc_domain_point_integer(values[i], dom, names[i], 0))
			goto out;   /* an empty range: left to the proof */
	have = walk_eval(&w);
	if (have)
		mpq_set(best, w.r);
	found = have && mpq_sgn(best) < 0;
	for (pass = 0; pass < WALK_PASSES && !found; pass++)
		for (i = 0; i < n && !found; i++) {
			mpq_set(keep, values[i]);
			for (k = 1; k < SEGC_DOMAIN_INTEGER_POINTS && !found;
			     k++) {
				if (segc_domain_point_integer(values[i], dom,
					names[i], k) || !walk_eval(&w) ||
				    (have && mpq_cmp(w.r, best) >= 0))
					continue;
				have = 1;
				mpq_set(best, w.r);
				mpq_set(keep, values[i]);
				found = mpq_sgn(best) < 0;
			}
			if (!found)
				mpq_set(values[i], keep);
		}
out:
	mpq_clear(w.r);
	mpq_clear(best);
	mpq_clear(keep);
	for (i = 0; i < n; i++)
		mpq_clear(values[i]);
	return found;
}
