/* cyclic_region.c - the region of a back arc whose iterations overlap
 * (overlap="true"), or that forward edges with a cost constrain, taken
 * out of the graph being reduced as a cyclic task graph (cyclic.c).
 *
 * The region (from the back arc's target to its source) must be a task
 * graph: one entry, one exit, no other back arc inside, every split and
 * join of several arcs 'and'.  Without overlap, iteration i + 1 starts
 * when iteration i has finished (plus the back arc's cost): that is a
 * forward edge of distance 1 from the exit to the entry, added here. */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "graph/cyclic.h"
#include "expr/builtin.h"
#include "base/util.h"

/* Marks in 'seen' the nodes of 'r' reached from 'start' along alive arcs
 * that are not back arcs (backward when 'back'). */
static void reach(const segc_rgraph *r, size_t start, int back,
	unsigned char *seen, size_t *queue)
{
	size_t head = 0, tail = 0;
	segc_gix k;

	seen[start] = 1;
	queue[tail++] = start;
	while (head < tail) {
		size_t v = queue[head++];

		for (k = back ? r->nodes[v].in_head : r->nodes[v].out_head;
				k != SEGC_NIL; k = back ? r->arcs[k].next_in
				: r->arcs[k].next_out) {
			size_t w = back ? r->arcs[k].from : r->arcs[k].to;

			if (r->arcs[k].alive && !r->arcs[k].loop && !seen[w]) {
				seen[w] = 1;
				queue[tail++] = w;
			}
		}
	}
}

/* Marks the region of back arc 'k' in 'in'; 1 when it holds another
 * alive back arc (to be reduced first).  A plain back arc between the
 * same two nodes (a counted loop whose body is only a call of this
 * graph) is outside this loop, not in it: the rules reduce it after. */
static int region_of(const segc_rgraph *r, const segc_lgraph *g, size_t k,
	enum segc_component comp, unsigned char *in, size_t *queue)
{
	unsigned char *tmp = segc_xcalloc(r->nnodes + 1, 1);
	size_t v, j;

	reach(r, r->arcs[k].to, 0, in, queue);
	reach(r, r->arcs[k].from, 1, tmp, queue);
	for (v = 0; v < r->nnodes; v++)
		in[v] = in[v] && tmp[v];
	free(tmp);
	for (j = 0; j < r->narcs; j++)
		if (j != k && r->arcs[j].alive && r->arcs[j].loop &&
		    in[r->arcs[j].from] && in[r->arcs[j].to] &&
		    !(r->arcs[j].from == r->arcs[k].from &&
		      r->arcs[j].to == r->arcs[k].to && j < g->narcs &&
		      !segc_cyclic_needed(g, j, comp)))
			return 1;
	return 0;
}

/* Checks that region 'in' of back arc 'k' is a task graph with one
 * entry and one exit; counts its arcs into '*narcs'.  -1 with an error
 * at the node at fault. */
static int check_shape(segc_rgraph *r, size_t k, const unsigned char *in,
	size_t *narcs)
{
	size_t v, a = r->arcs[k].to, b = r->arcs[k].from;
	segc_gix j;

	*narcs = 0;
	for (v = 0; v < r->nnodes; v++) {
		size_t nin = 0, nout = 0;

		if (!in[v])
			continue;
		for (j = r->nodes[v].out_head; j != SEGC_NIL;
				j = r->arcs[j].next_out)
			if (r->arcs[j].alive && !r->arcs[j].loop) {
				if (!in[r->arcs[j].to] && v != b)
					goto leaves;
				nout += in[r->arcs[j].to];
			}
		for (j = r->nodes[v].in_head; j != SEGC_NIL;
				j = r->arcs[j].next_in)
			if (r->arcs[j].alive && !r->arcs[j].loop) {
				if (!in[r->arcs[j].from] && v != a)
					goto leaves;
				nin += in[r->arcs[j].from];
			}
		if ((nout > 1 && !r->nodes[v].split_and) ||
		    (nin > 1 && !r->nodes[v].join_and)) {
			segc_rgraph_error(r, v, SEGC_ERR_INPUT, "the region "
				"of a loop with overlapping iterations or "
				"forward edges must be a task graph: a node "
				"with several arcs out (in) splits (joins) "
				"with 'and'");
			return -1;
		}
		*narcs += nout;
	}
	return 0;
leaves:
	segc_rgraph_error(r, v, SEGC_ERR_INPUT, "the region of a loop with "
		"overlapping iterations or forward edges must have one entry "
		"(the loop arc's target) and one exit (its source)");
	return -1;
}

/* Numbers the nodes of region 'in' in topological order into 'pos'
 * (SEGC_NONE outside); returns how many. */
static size_t number(const segc_rgraph *r, size_t entry,
	const unsigned char *in, size_t *pos, size_t *queue)
{
	size_t *indeg = segc_xcalloc(r->nnodes + 1, sizeof(size_t));
	size_t head = 0, tail = 0, v;
	segc_gix j;

	for (v = 0; v < r->nnodes; v++) {
		pos[v] = SEGC_NONE;
		for (j = r->nodes[v].in_head; in[v] && j != SEGC_NIL;
				j = r->arcs[j].next_in)
			indeg[v] += r->arcs[j].alive && !r->arcs[j].loop &&
				in[r->arcs[j].from];
	}
	queue[tail++] = entry;
	while (head < tail) {
		v = queue[head];
		pos[v] = head++;
		for (j = r->nodes[v].out_head; j != SEGC_NIL;
				j = r->arcs[j].next_out)
			if (r->arcs[j].alive && !r->arcs[j].loop &&
			    in[r->arcs[j].to] && --indeg[r->arcs[j].to] == 0)
				queue[tail++] = r->arcs[j].to;
	}
	free(indeg);
	return tail;
}

/* The forward edges of 'g' owned by back arc 'k' that count in 'comp'
 * (all of them, when 'any'; else only those with a cost there). */
static size_t owned(const segc_lgraph *g, size_t k, enum segc_component comp,
	int any)
{
	size_t i, n = 0;

	for (i = 0; i < g->nfwd; i++)
		n += g->fwd[i].owner == k && (any || (g->fwd[i].cost &&
			segc_in_component(comp, g->fwd[i].cls)));
	return n;
}

/* Non-zero when back arc 'k' of 'g' needs the cyclic reduction. */
int segc_cyclic_needed(const segc_lgraph *g, size_t k,
	enum segc_component comp)
{
	return g->arcs[k].loop && (g->arcs[k].overlap || owned(g, k, comp, 0));
}

/* Adds arc 'from' -> 'to' of distance 'd' and cost 'c' (taken) to 'cy'. */
static void add(segc_cyclic *cy, size_t from, size_t to, unsigned long d,
	segc_expr *c)
{
	segc_cyclic_arc *a = &cy->arcs[cy->k++];

	a->from = from;
	a->to = to;
	a->dist = d;
	a->cost = c;
}

/* Adds the forward edges of back arc 'k' to 'cy'; -1 with an error when
 * an end is no longer a node of the region. */
static int add_forward(segc_rgraph *r, const segc_lgraph *g, size_t k,
	enum segc_component comp, const size_t *pos, segc_cyclic *cy)
{
	size_t i;

	for (i = 0; i < g->nfwd; i++) {
		const segc_gfwd *f = &g->fwd[i];

		if (f->owner != k)
			continue;
		if (pos[f->from] == SEGC_NONE || pos[f->to] == SEGC_NONE) {
			segc_rgraph_error(r, g->arcs[k].from, SEGC_ERR_INPUT,
				"a forward edge of this loop ends inside an "
				"inner loop, which is not supported: put the "
				"inner loop into one node's cost");
			return -1;
		}
		add(cy, pos[f->from], pos[f->to], f->dist, f->cost &&
			segc_in_component(comp, f->cls) ?
			segc_expr_copy(f->cost) : NULL);
	}
	return 0;
}

/* Fills 'cy' from region 'in' of back arc 'k' (nodes numbered 'pos'). */
static int build(segc_rgraph *r, const segc_lgraph *g, size_t k,
	enum segc_component comp, const size_t *pos, segc_cyclic *cy)
{
	const segc_rarc *back = &r->arcs[k];
	size_t v, j;

	for (v = 0; v < r->nnodes; v++)
		if (pos[v] != SEGC_NONE)
			cy->cost[pos[v]] = segc_terms_sum(r, &r->nodes[v].cost);
	for (j = 0; j < r->narcs; j++) {
		const segc_rarc *a = &r->arcs[j];

		if (a->alive && !a->loop && pos[a->from] != SEGC_NONE &&
		    pos[a->to] != SEGC_NONE)
			add(cy, pos[a->from], pos[a->to], 0,
				segc_terms_sum(r, &a->cost));
	}
	if (!g->arcs[k].overlap)
		add(cy, pos[back->from], pos[back->to], 1,
			segc_terms_sum(r, &back->cost));
	return add_forward(r, g, k, comp, pos, cy);
}

/* Releases what 'cy' holds. */
static void cyclic_clear(segc_cyclic *cy)
{
	size_t i;

	for (i = 0; cy->cost && i < cy->m; i++)
		segc_expr_free(cy->cost[i]);
	for (i = 0; cy->arcs && i < cy->k; i++)
		segc_expr_free(cy->arcs[i].cost);
	free(cy->cost);
	free(cy->arcs);
}

/* Non-zero when 'e' takes only integer values on the domains 'dom': an
 * integer, a name declared integer, floor or ceil of anything, and sums,
 * products, max, min and natural powers of those. */
static int integer_valued(const segc_expr *e, const segc_domains *dom)
{
	mpq_srcptr lo, hi;
	size_t i;
	int integer = 0;

	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return mpz_cmp_ui(mpq_denref(segc_expr_value(e)), 1) == 0;
	case SEGC_SYM:
		return segc_domains_get(dom, segc_expr_name(e), &lo, &hi,
			&integer) && integer;
	case SEGC_POW:
		return integer_valued(segc_expr_arg(e, 0), dom) &&
			segc_expr_kind(segc_expr_arg(e, 1)) == SEGC_NUM &&
			integer_valued(segc_expr_arg(e, 1), dom) &&
			mpq_sgn(segc_expr_value(segc_expr_arg(e, 1))) >= 0;
	case SEGC_CALL:
		if (segc_expr_is_builtin(e, SEGC_BUILTIN_FLOOR) ||
		    segc_expr_is_builtin(e, SEGC_BUILTIN_CEIL))
			return 1;
		if (!segc_expr_is_builtin(e, SEGC_BUILTIN_MAX) &&
		    !segc_expr_is_builtin(e, SEGC_BUILTIN_MIN))
			return 0;
		/* fall through */
	case SEGC_ADD:
	case SEGC_MUL:
		for (i = 0; i < segc_expr_nargs(e); i++)
			if (!integer_valued(segc_expr_arg(e, i), dom))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* Refuses the count of overlapped back arc 'k' when it may not be an
 * integer (format.md, overlap): at the arc; 0 or -1. */
static int check_count(segc_rgraph *r, const segc_lgraph *g, size_t k,
	const segc_domains *dom)
{
	const segc_expr *n = segc_rarc_loop(r, k);
	const segc_srcloc *loc = g->arcs[k].loc ? g->arcs[k].loc : g->loc;
	char *text;

	if (!n || integer_valued(n, dom))
		return 0;
	text = segc_expr_to_string(n);
	segc_error(r->ctx, SEGC_ERR_INPUT, loc ? loc->file : NULL,
		loc ? loc->line : 0, loc ? loc->col : 0, "the count of a loop "
		"whose iterations overlap must be an integer, and '%s' %s",
		text, segc_expr_kind(n) == SEGC_NUM ? "is not one" :
		"may not be one: declare its parameters integer "
		"(integer=\"true\") or round it with floor or ceil");
	free(text);
	return -1;
}

/* The time of the region of back arc 'k' of 'r' (lowered graph 'g'),
 * its nodes marked in 'in' (see graph.h). */
int segc_cyclic_region(segc_rgraph *r, const segc_lgraph *g, size_t k,
	enum segc_component comp, const segc_domains *dom, unsigned char *in,
	segc_expr **out)
{
	size_t *queue = segc_xmalloc((r->nnodes + 1) * sizeof(size_t));
	size_t *pos = segc_xmalloc((r->nnodes + 1) * sizeof(size_t));
	segc_cyclic cy;
	size_t narcs;
	int rc = 0;

	memset(&cy, 0, sizeof(cy));
	*out = NULL;
	if (region_of(r, g, k, comp, in, queue))
		goto done;
	rc = -1;
	if (check_shape(r, k, in, &narcs) || check_count(r, g, k, dom))
		goto done;
	cy.m = number(r, r->arcs[k].to, in, pos, queue);
	cy.count = segc_rarc_loop(r, k);
	cy.var = g->arcs[k].var;
	cy.cost = segc_xcalloc(cy.m + 1, sizeof(*cy.cost));
	cy.arcs = segc_xcalloc(narcs + owned(g, k, comp, 1) + 2,
		sizeof(*cy.arcs));
	if (build(r, g, k, comp, pos, &cy))
		goto done;
	*out = segc_cyclic_time(r->ctx, dom, &cy);
	rc = 1;
	if (!*out && segc_cyclic_work_out(r->ctx))
		rc = -1;
	else if (!*out) {
		segc_rgraph_error(r, r->arcs[k].from, SEGC_ERR_INTERNAL, "the "
			"time of a cyclic region has no expression");
		rc = -1;
	}
done:
	cyclic_clear(&cy);
	free(queue);
	free(pos);
	return rc;
}
