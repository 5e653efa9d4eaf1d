/* taskgraph.c - the time of an and-DAG (a task graph): its longest path.
 *
 * In topological order (Kahn's algorithm, no recursion):
 *   time(v) = cost(v) + max over arcs u->v of (time(u) + cost(u->v)),
 * and the result is time(exit).  Expressions are shared, so the formula
 * stays as large as the graph.  At a join, an argument of the maximum that
 * another one provably exceeds by a constant >= 0 is dropped (the relaxed
 * task graph of Simon & Wierum keeps only the paths that can be longest);
 * segc_canonical then removes what the declared domains prove dominated. */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "expr/builtin.h"
#include "base/util.h"

/* Arguments of a maximum larger than this are not compared pairwise. */
#define PRUNE_MAX_ARGS 16
/* Arguments larger than this many nodes are not compared. */
#define PRUNE_MAX_SIZE 256

/* Non-zero when 'e' has at most 'limit' nodes (counted as a tree). */
static int small(const segc_expr *e, size_t limit)
{
	const segc_expr **st = segc_xmalloc((limit + 1) * sizeof(*st));
	size_t n = 0, seen = 0, i;
	int ok = 1;

	st[n++] = e;
	while (n > 0 && ok) {
		const segc_expr *x = st[--n];
		size_t k = segc_expr_kind(x) == SEGC_NUM
			|| segc_expr_kind(x) == SEGC_SYM ? 0 : segc_expr_nargs(x);

		if (++seen > limit || n + k > limit) {
			ok = 0;
			break;
		}
		for (i = 0; i < k; i++)
			st[n++] = segc_expr_arg(x, i);
	}
	free(st);
	return ok;
}

/* Non-zero when a - b is provably a constant >= 0; -1 on error. */
static int dominates(segc_ctx *ctx, const segc_domains *dom, segc_expr *a,
	segc_expr *b)
{
	if (!small(a, PRUNE_MAX_SIZE) || !small(b, PRUNE_MAX_SIZE))
		return 0;
	return segc_dominates(ctx, dom, a, b);
}

/* Drops from v[0..*n) the arguments another one dominates; -1 on error. */
static int prune(segc_ctx *ctx, const segc_domains *dom, segc_expr **v,
	size_t *n)
{
	size_t i, j, m = 0;

	if (*n > PRUNE_MAX_ARGS)
		return 0;
	for (i = 0; i < *n; i++) {
		int dropped = 0;

		for (j = 0; j < *n && !dropped; j++) {
			int d;

			if (j == i || !v[j])
				continue;
			d = dominates(ctx, dom, v[j], v[i]);
			if (d < 0)
				return -1;
			dropped = d;
		}
		if (dropped) {
			segc_expr_free(v[i]);
			v[i] = NULL;
		}
	}
	for (i = 0; i < *n; i++)
		if (v[i])
			v[m++] = v[i];
	*n = m;
	return 0;
}

/* The arrival time at 'v': the maximum over its in-arcs; NULL on error. */
static segc_expr *arrival(segc_ctx *ctx, const segc_domains *dom,
	segc_rgraph *r, size_t v, segc_expr **time, segc_expr **buf)
{
	size_t n = 0, j;
	segc_gix k;

	for (k = r->nodes[v].in_head; k != SEGC_NIL; k = r->arcs[k].next_in) {
		const segc_rarc *a = &r->arcs[k];
		segc_expr *t;

		if (!segc_rgraph_has_arc(r, k))
			continue;
		t = segc_expr_copy(time[a->from]);
		if (!segc_terms_empty(&a->cost))
			t = segc_expr_add2(t, segc_terms_sum(r, &a->cost));
		for (j = 0; j < n && buf[j] != t; j++)
			;
		if (j < n)
			segc_expr_free(t);
		else
			buf[n++] = t;
	}
	if (n > 1 && prune(ctx, dom, buf, &n)) {
		for (j = 0; j < n; j++)
			segc_expr_free(buf[j]);
		return NULL;
	}
	if (n == 0)
		return segc_expr_int(0);
	if (n == 1)
		return buf[0];
	return segc_expr_call_builtin(SEGC_BUILTIN_MAX, n, buf);
}

/* The longest path of and-DAG 'r' (see graph.h). */
segc_expr *segc_taskgraph_reduce(segc_ctx *ctx, segc_rgraph *r,
	const segc_domains *dom)
{
	size_t *indeg = segc_xcalloc(r->nnodes + 1, sizeof(size_t));
	size_t *queue = segc_xmalloc(segc_xmul_size(r->nnodes + 1,
		sizeof(size_t)));
	segc_expr **time = segc_xcalloc(r->nnodes + 1, sizeof(*time));
	segc_expr **buf = segc_xmalloc(segc_xmul_size(r->narcs + 1,
		sizeof(*buf)));
	size_t head = 0, tail = 0, v, done = 0, total = 0;
	segc_gix k;
	segc_expr *t = NULL;

	for (v = 0; v < r->nnodes; v++)
		if (segc_rgraph_has_node(r, v)) {
			for (k = r->nodes[v].in_head; k != SEGC_NIL;
					k = r->arcs[k].next_in)
				indeg[v] += segc_rgraph_has_arc(r, k);
			if (indeg[v] == 0)
				queue[tail++] = v;
			total++;
		}
	while (head < tail) {
		segc_expr *in;

		v = queue[head++];
		in = arrival(ctx, dom, r, v, time, buf);
		if (!in)
			goto out;
		time[v] = segc_terms_empty(&r->nodes[v].cost) ? in
			: segc_expr_add2(in, segc_terms_sum(r, &r->nodes[v].cost));
		done++;
		for (k = r->nodes[v].out_head; k != SEGC_NIL;
				k = r->arcs[k].next_out)
			if (segc_rgraph_has_arc(r, k)
					&& --indeg[r->arcs[k].to] == 0)
				queue[tail++] = r->arcs[k].to;
	}
	if (done < total) {
		for (v = 0; v < r->nnodes && !(segc_rgraph_has_node(r, v)
				&& indeg[v] > 0); v++)
			;
		segc_rgraph_error(r, v < r->nnodes ? v : r->entry,
			SEGC_ERR_INPUT, "the task graph (a graph of and-splits "
			"and and-joins) has a cycle: its time is its longest "
			"path only if it is acyclic");
		goto out;
	}
	t = segc_expr_copy(time[r->exit]);
	if (!t)
		segc_rgraph_error(r, r->exit, SEGC_ERR_INTERNAL, "every node of "
			"the task graph got its time but its exit");
out:
	for (v = 0; v < r->nnodes; v++)
		segc_expr_free(time[v]);
	free(indeg);
	free(queue);
	free(time);
	free(buf);
	return t;
}
