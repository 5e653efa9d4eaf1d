/* reduce.c - structural reduction of a lowered graph to its formula.
 *
 * Innermost first, as the papers reduce their graphs, by local rules applied
 * from a work list until one node is left:
 *   self loop   a back arc from a node to itself, count n: n*(node cost),
 *               plus (n - 1)*(arc cost): the back arc is taken between runs;
 *   series      a node whose only successor has it as only predecessor
 *               absorbs it (costs of the node, the arc and the successor
 *               add up, in program order);
 *   through     a node with one arc in and one arc out becomes part of an
 *               arc (its cost joins the arc's cost);
 *   choice      an or-split whose arcs all reach one node: one arc of cost
 *               sum of p_k*c_k;
 *   fork/join   arcs of an and-split that reach an and-join, when they are
 *               all the arcs that reach it: one arc of cost
 *               max(c_1, ..., c_k), in the order of the split's arcs.
 * A node may not absorb across a loop's boundary: the source of a back arc
 * (the end of its region) absorbs nothing, and the target of a back arc
 * (the start of its region) is never absorbed, until the region is one node
 * and the back arc a self loop.
 *
 * Costs are lists of terms, joined in constant time, and turned into an
 * expression only where a rule needs one (a product, a maximum), so a
 * sequence of a million steps is linear.  What the rules cannot reduce goes
 * to the general methods: visit counts of the Markov chain (markov.c) for
 * or-graphs, longest paths (taskgraph.c) for and-DAGs.
 *
 * This file drives the reduction: the graph being reduced (rgraph.c), the
 * rules (rules.c), the regions (region.c, cyclic_region.c) and the general
 * methods are called from here and never call back. */
#include <stdlib.h>
#include <string.h>

#include "graph/rules.h"
#include "base/util.h"

/* A graph being reduced and the rules on it. */
typedef struct reduction {
	segc_rgraph *r;
	segc_rules *rules;
} reduction;

/* Reports that the costs of 'g' took more term cells than 32-bit indices
 * number (the one limit of the graph being reduced). */
static void term_cells_exceeded(segc_ctx *ctx, const segc_lgraph *g)
{
	const segc_srcloc *loc = g->loc;

	segc_error(ctx, SEGC_ERR_LIMIT, loc ? loc->file : NULL,
		loc ? loc->line : 0, loc ? loc->col : 0, "graph '%s' needs "
		"more than %lu cost terms while it is reduced",
		g->name ? g->name : "main", (unsigned long)SEGC_MAX_INDEX);
}

/* Records that the reduction of 'g' failed and no step of it said why:
 * every failure of the reduction records its diagnostic. */
static void silent_failure(segc_ctx *ctx, const segc_lgraph *g)
{
	const segc_srcloc *loc = g->loc;

	segc_error(ctx, SEGC_ERR_INTERNAL, loc ? loc->file : NULL,
		loc ? loc->line : 0, loc ? loc->col : 0, "the reduction of "
		"graph '%s' failed without a diagnostic",
		g->name ? g->name : "main");
}

/* --------------------------------------------------------- classification */

/* Whether any back arc is left; sets '*where' to its source. */
static int has_back_arc(const segc_rgraph *r, size_t *where)
{
	size_t k;

	for (k = 0; k < r->narcs; k++)
		if (r->arcs[k].alive && r->arcs[k].loop) {
			*where = r->arcs[k].from;
			return 1;
		}
	return 0;
}

/* Reduces the region of cyclic back arc 'k' to one node (cyclic.c);
 * 1 done, 0 not yet (a loop inside comes first), -1 on error. */
static int reduce_cyclic(reduction *R, const segc_lgraph *g, size_t k,
	enum segc_component comp, const segc_domains *dom)
{
	segc_rgraph *r = R->r;
	unsigned char *in = segc_xcalloc(r->nnodes + 1, 1);
	size_t a = r->arcs[k].to, b = r->arcs[k].from;
	segc_expr *f;
	int rc = segc_cyclic_region(r, g, k, comp, dom, in, &f);

	if (rc == 1) {
		segc_rules_collapse(R->rules, in, a, b, f);
		if (r->arcs[k].alive)
			segc_rarc_kill(r, (segc_gix)k);
	}
	free(in);
	return rc;
}

/* Reduces the regions of the cyclic back arcs of 'g' (overlapping
 * iterations, forward edges), inner ones first; 0, or -1 on error. */
static int cyclic_pass(reduction *R, const segc_lgraph *g,
	enum segc_component comp, const segc_domains *dom)
{
	unsigned char *done = segc_xcalloc(g->narcs + 1, 1);
	size_t k, left;
	int progress = 1, rc = 0;

	while (progress && !rc) {
		progress = 0;
		left = 0;
		for (k = 0; k < g->narcs && !rc; k++) {
			int one;

			if (done[k] || !segc_cyclic_needed(g, k, comp))
				continue;
			one = reduce_cyclic(R, g, k, comp, dom);
			rc = one < 0 ? -1 : 0;
			done[k] = one == 1;
			progress |= one == 1;
			left += one == 0;
		}
	}
	for (k = 0; !rc && left && k < g->narcs; k++)
		if (!done[k] && segc_cyclic_needed(g, k, comp)) {
			segc_rgraph_error(R->r, g->arcs[k].from, SEGC_ERR_INPUT,
				"the region of a loop with overlapping "
				"iterations or forward edges holds another loop: "
				"not supported; put the inner loop into one "
				"node's cost");
			rc = -1;
		}
	free(done);
	return rc;
}

/* The general method that fits 'r' (the part in its mask, from its entry
 * to its exit): visit counts for or, longest path for and; NULL with a
 * diagnostic for a mixture. */
static segc_expr *general(segc_rgraph *r, const segc_domains *dom)
{
	size_t or_at = SEGC_NONE, and_at = SEGC_NONE;

	segc_region_kind(r, &or_at, &and_at);
	if (and_at == SEGC_NONE)
		return segc_markov_reduce(r->ctx, r, dom);
	if (or_at == SEGC_NONE)
		return segc_taskgraph_reduce(r->ctx, r, dom);
	segc_rgraph_error(r, or_at, SEGC_ERR_INPUT, "the graph mixes or-"
		"splits or or-joins with and-splits and and-joins in a way that "
		"is neither structured (an and-split closed by an and-join "
		"inside the or-flow) nor a pure task graph (every split and "
		"join 'and', no cycles) nor a pure Markov chain (no 'and')");
	return NULL;
}

/* Reduces the smallest structured region that the rules leave (a loop
 * body, or a part of one kind, or and) by the general methods, and
 * replaces it by one node; 1 when one was reduced, 0 when none is left,
 * -1 on error. */
static int reduce_one_region(reduction *R, const segc_domains *dom)
{
	segc_rgraph *r = R->r;
	unsigned char *in = segc_xcalloc(r->nnodes + 1, 1);
	size_t a, b, entry = r->entry, exit = r->exit;
	segc_expr *f;
	int rc;

	rc = segc_region_find(r, in, &a, &b);
	if (rc <= 0) {
		free(in);
		return rc;
	}
	r->mask = in;
	r->entry = a;
	r->exit = b;
	f = general(r, dom);
	r->mask = NULL;
	r->entry = entry;
	r->exit = exit;
	if (f)
		segc_rules_collapse(R->rules, in, a, b, f);
	free(in);
	return f ? 1 : -1;
}

/* Reduces what the rules leave: regions by the general methods, innermost
 * first, the rules again after each; the formula, or NULL. */
static segc_expr *reduce_rest(reduction *R, const segc_domains *dom,
	unsigned flags)
{
	segc_rgraph *r = R->r;
	size_t v;

	for (;;) {
		int rc;

		if (r->alive == 1 && r->nodes[r->entry].out_head == SEGC_NIL)
			return segc_terms_sum(r, &r->nodes[r->entry].cost);
		if (!has_back_arc(r, &v) && segc_region_pure(r))
			return general(r, dom);
		rc = reduce_one_region(R, dom);
		if (rc < 0)
			return NULL;
		if (rc == 0)
			break;
		if (segc_rules_run(R->rules, flags)) {
			term_cells_exceeded(r->ctx, r->src);
			return NULL;
		}
	}
	if (has_back_arc(r, &v)) {
		segc_rgraph_error(r, v, SEGC_ERR_INPUT, "the region of a back "
			"arc (loop) does not reduce to one node: its region "
			"must have one entry (the arc's target) and one exit "
			"(the arc's source)");
		return NULL;
	}
	return general(r, dom);
}

/* ------------------------------------------------------------- chains */

/* Appends the cost 'c' of class 'cls' to v[*n] when it counts in 'comp'
 * and is not zero (as the term lists of rgraph.c keep it). */
static void chain_term(segc_expr **v, size_t *n, segc_expr *c, unsigned cls,
	enum segc_component comp)
{
	if (c && segc_in_component(comp, cls) && !segc_expr_is_zero(c))
		v[(*n)++] = c;
}

/* The formula of 'g' when it is a chain (each node one arc in and one out
 * at most, no back arc, every node on the path from entry to exit): the
 * sum of its costs in program order, which is what the series rule gives,
 * without the graph being reduced (a trace of a million steps then costs
 * its terms only).  Sets '*e' and returns 1; 0 when 'g' is no chain. */
static int reduce_chain(const segc_lgraph *g, enum segc_component comp,
	segc_expr *const *sums, segc_expr **e)
{
	size_t *out = NULL, i, v, n = 0, seen = 0;
	segc_expr **terms;
	unsigned char *in;
	int chain = g->entry < g->nnodes && g->exit < g->nnodes &&
		g->narcs + 1 == g->nnodes;

	for (i = 0; chain && i < g->narcs; i++)
		chain = !g->arcs[i].loop;
	if (!chain)
		return 0;
	out = segc_xmalloc(segc_xmul_size(g->nnodes, sizeof(*out)));
	in = segc_xcalloc(g->nnodes, 1);
	for (v = 0; v < g->nnodes; v++)
		out[v] = SEGC_NONE;
	for (i = 0; chain && i < g->narcs; i++) {
		const segc_garc *a = &g->arcs[i];

		chain = out[a->from] == SEGC_NONE && !in[a->to];
		out[a->from] = i;
		in[a->to] = 1;
	}
	for (v = g->entry; chain && v != SEGC_NONE; seen++)
		v = out[v] == SEGC_NONE ? SEGC_NONE : g->arcs[out[v]].to;
	chain = chain && seen == g->nnodes && in[g->entry] == 0 &&
		out[g->exit] == SEGC_NONE;
	free(in);
	if (!chain) {
		free(out);
		return 0;
	}
	terms = segc_xmalloc(segc_xmul_size(2 * g->nnodes, sizeof(*terms)));
	for (v = g->entry;;) {
		const segc_gnode *x = &g->nodes[v];

		if (x->sub != SEGC_NIL)
			chain_term(terms, &n, sums ? sums[v] : NULL,
				SEGC_CLASS_COMP, SEGC_TOTAL);
		else
			chain_term(terms, &n, x->cost, x->cls, comp);
		if (out[v] == SEGC_NONE)
			break;
		chain_term(terms, &n, g->arcs[out[v]].cost,
			g->arcs[out[v]].cls, comp);
		v = g->arcs[out[v]].to;
	}
	for (i = 0; i < n; i++)
		terms[i] = segc_expr_copy(terms[i]);
	*e = n == 0 ? segc_expr_int(0) : n == 1 ? terms[0] :
		segc_expr_add(n, terms);
	free(terms);
	free(out);
	return 1;
}

/* Reduces one lowered graph for 'comp'; 'sums' as for segc_rgraph_new. */
static segc_expr *reduce_graph(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums,
	const segc_domains *dom, unsigned flags)
{
	reduction R;
	segc_expr *e = NULL;

	if (!(flags & SEGC_REDUCE_GENERAL_ONLY) &&
	    reduce_chain(g, comp, sums, &e))
		return e;
	R.r = segc_rgraph_new(ctx, g, comp, sums);
	if (!R.r)
		goto oom;
	R.rules = segc_rules_new(R.r);
	if (cyclic_pass(&R, g, comp, dom))
		goto done;
	if (segc_rules_run(R.rules, flags))
		goto oom;
	e = reduce_rest(&R, dom, flags);
	goto done;
oom:
	term_cells_exceeded(ctx, g);
done:
	if (R.r)
		segc_rules_free(R.rules);
	segc_rgraph_free(R.r);
	return e;
}

/* The cost of sum region 'sub': sum(var, from, to, body); 0 for a zero
 * body. */
static segc_expr *region_cost(const segc_lgraph *sub, segc_expr *body)
{
	if (segc_expr_is_zero(body)) {
		segc_expr_free(body);
		return segc_expr_int(0);
	}
	return segc_expr_sum(sub->var, segc_expr_copy(sub->from),
		segc_expr_copy(sub->to), body);
}

/* Reduces the lowered program 'lw' for 'comp' (see graph.h). */
segc_expr *segc_reduce(segc_ctx *ctx, const segc_lowered *lw,
	enum segc_component comp, const segc_domains *dom, unsigned flags)
{
	segc_expr **body = segc_xcalloc(lw->ngraphs + 1, sizeof(*body));
	segc_expr **sums = NULL;
	segc_expr *e = NULL;
	size_t gi, i, from = segc_ctx_n_diags(ctx);

	for (gi = lw->ngraphs; gi-- > 0;) {
		const segc_lgraph *g = &lw->graphs[gi];

		sums = NULL;
		if (gi + 1 < lw->ngraphs) {
			sums = segc_xcalloc(g->nnodes + 1, sizeof(*sums));
		}
		for (i = 0; sums && i < g->nnodes; i++)
			if (g->nodes[i].sub != SEGC_NIL) {
				size_t sub = g->nodes[i].sub;

				sums[i] = region_cost(&lw->graphs[sub],
					body[sub]);
				body[sub] = NULL;
			}
		body[gi] = reduce_graph(ctx, g, comp, sums, dom, flags);
		for (i = 0; sums && i < g->nnodes; i++)
			segc_expr_free(sums[i]);
		free(sums);
		if (!body[gi]) {
			if (segc_ctx_n_diags(ctx) == from)
				silent_failure(ctx, g);
			goto done;
		}
	}
	e = body[0];
	body[0] = NULL;
done:
	for (gi = 0; gi < lw->ngraphs; gi++)
		segc_expr_free(body[gi]);
	free(body);
	return e;
}
