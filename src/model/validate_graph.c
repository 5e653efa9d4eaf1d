/* validate_graph.c - the semantic checks of a graph's shape: the blocks
 * of block-form graphs (uses of resources, calls, loop variables,
 * branches) and arc-form graphs (node ids, arcs, one entry and one exit
 * that every node reaches, probabilities, loop and forward arcs).  Walks
 * use explicit stacks. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "model/validate_private.h"

/* ----------------------------------------------------------------- blocks */

/* Checks the attributes of one block 'b' of graph 'm'. */
static void check_block(checker *c, const segc_model *m, const segc_block *b)
{
	size_t i;
	const char *near;

	switch (b->kind) {
	case SEGC_BLOCK_STEP:
		check_attr(c, b->cost, &b->loc, "cost", "step");
		for (i = 0; i < b->nuses; i++) {
			const segc_use *u = &b->uses[i];

			check_attr(c, u->count, &u->loc, "count", "use");
			if (!u->resource || segc_symtab_get(&c->resources,
			    u->resource) != SEGC_SYMTAB_NONE)
				continue;
			near = NULL;
			{
				names rs;
				segc_srcloc at;
				size_t k;

				memset(&rs, 0, sizeof rs);
				for (k = 0; k < m->nresources; k++)
					if (m->resources[k].name)
						names_add(&rs,
							m->resources[k].name,
							"resource", 0);
				near = suggest(u->resource, &rs, NULL);
				if (near)
					check_error(c, at_value(c, &u->loc,
					    "resource", &at), SEGC_ERR_INPUT,
						"<use>: '%s' is not a declared "
						"<resource> (did you mean "
						"'%s'?)", u->resource, near);
				else
					check_error(c, at_value(c, &u->loc,
					    "resource", &at), SEGC_ERR_INPUT,
						"<use>: '%s' is not a declared "
						"<resource>", u->resource);
				names_clear(&rs);
			}
		}
		break;
	case SEGC_BLOCK_LOOP:
		check_attr(c, b->count, &b->loc, "count", "loop");
		check_attr(c, b->from, &b->loc, "from", "loop");
		check_attr(c, b->to, &b->loc, "to", "loop");
		break;
	case SEGC_BLOCK_CASE:
		check_attr(c, b->prob, &b->loc, "prob", "case");
		break;
	case SEGC_BLOCK_CALL:
		if (b->graph && segc_symtab_get(&c->graphs, b->graph) ==
		    SEGC_SYMTAB_NONE)
			check_error(c, &b->loc, SEGC_ERR_INPUT, "<call>: "
				"there is no <graph> named '%s'", b->graph);
		break;
	default:
		break;
	}
}

/* Checks the probabilities of the cases of <branch> 'b'. */
static void check_branch(checker *c, const segc_block *b)
{
	segc_expr **probs;
	segc_srcloc *places;
	size_t i;

	if (!b->nchildren)
		return;
	probs = segc_xcalloc(b->nchildren, sizeof *probs);
	places = segc_xcalloc(b->nchildren, sizeof *places);
	for (i = 0; i < b->nchildren; i++) {
		probs[i] = b->children[i]->prob;
		at_value(c, &b->children[i]->loc, "prob", &places[i]);
	}
	if (segc_check_probabilities(c->ctx, b->nchildren, probs, places,
		    &b->loc, "<branch>"))
		c->failed = 1;
	free(places);
	free(probs);
}

/* Opens the scope of the variable of <loop> 'b'. */
static void open_loop_scope(checker *c, const segc_block *b)
{
	long i = names_find(&c->local, b->var);
	segc_srcloc at;

	if (!reserved_name(c, b->var, "loop", "variable", &b->loc) && i >= 0)
		check_error(c, at_value(c, &b->loc, "var", &at),
			SEGC_ERR_INPUT, "<loop>: variable "
			"'%s' is already the variable of an enclosing loop",
			b->var);
	else if (i < 0 && !segc_expr_is_reserved(b->var) &&
		 names_find(&c->global, b->var) >= 0)
		check_error(c, at_value(c, &b->loc, "var", &at),
			SEGC_ERR_INPUT, "<loop>: variable "
			"'%s' hides the <%s> of that name", b->var,
			c->global.kind[names_find(&c->global, b->var)]);
	names_add(&c->local, b->var, "loop", b->loc.line);
}

/* Pushes a frame for the children of 'b' on '*stack' ('*n' of '*cap';
 * see validate_private.h). */
void frame_push(walk_frame **stack, size_t *n, size_t *cap,
	const segc_block *b)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*stack = segc_xrealloc(*stack, segc_xmul_size(*cap,
			sizeof **stack));
	}
	(*stack)[*n].block = b;
	(*stack)[*n].next = 0;
	++*n;
}

/* Records in c->counters the variable of every <loop> under 'body' (the
 * first loop of each name), for the message of a counter used outside
 * its loop.  An explicit stack replaces recursion. */
void collect_counters(checker *c, const segc_block *body)
{
	walk_frame *stack = NULL;
	size_t n = 0, cap = 0;

	frame_push(&stack, &n, &cap, body);
	while (n) {
		walk_frame *f = &stack[n - 1];
		const segc_block *b;

		if (f->next == f->block->nchildren) {
			n--;
			continue;
		}
		b = f->block->children[f->next++];
		if (b->kind == SEGC_BLOCK_LOOP && b->var &&
		    names_find(&c->counters, b->var) < 0)
			names_add(&c->counters, b->var, "loop", b->loc.line);
		if (b->nchildren)
			frame_push(&stack, &n, &cap, b);
	}
	free(stack);
}

/* Checks block 'b' of a graph of 'm' and opens the scope of its loop
 * variable; it is noted in c->bad when collected and found wrong. */
static void check_one(checker *c, const segc_model *m, const segc_block *b)
{
	size_t before = ERRORS_SEEN(c);

	check_block(c, m, b);
	if (b->kind == SEGC_BLOCK_BRANCH)
		check_branch(c, b);
	if (b->kind == SEGC_BLOCK_LOOP && b->var)
		open_loop_scope(c, b);
	if (c->collect_bad && ERRORS_SEEN(c) > before) {
		if (c->nbad == c->capbad) {
			c->capbad = c->capbad ? 2 * c->capbad : 16;
			c->bad = segc_xrealloc(c->bad, segc_xmul_size(
				c->capbad, sizeof *c->bad));
		}
		c->bad[c->nbad++] = b;
	}
}

/* Checks the blocks under 'body' of a graph of 'm', loop variables in
 * scope within their loops.  An explicit stack replaces recursion. */
void check_blocks(checker *c, const segc_model *m,
	const segc_block *body)
{
	walk_frame *stack = NULL;
	size_t n = 0, cap = 0;

	check_one(c, m, body);
	frame_push(&stack, &n, &cap, body);
	while (n && !segc_ctx_full(c->ctx)) {
		walk_frame *f = &stack[n - 1];
		const segc_block *b = f->block;

		if (f->next == b->nchildren) {
			if (b->kind == SEGC_BLOCK_LOOP && b->var)
				names_pop_to(&c->local, c->local.n - 1);
			n--;
			continue;
		}
		b = b->children[f->next++];
		check_one(c, m, b);
		frame_push(&stack, &n, &cap, b);
	}
	free(stack);
}

/* --------------------------------------------------------------- arc form */

/* The arcs of an arc-form graph by node: 'out' lists the arcs leaving
 * each node, 'in' those entering it, in document order (CSR layout: the
 * arcs of node v are list[start[v]] .. list[start[v + 1] - 1]). */
typedef struct arc_lists {
	size_t *out_start, *out;
	size_t *in_start, *in;
} arc_lists;

/* Fills 'start' and 'list' with the arcs of 'g' grouped by their source
 * ('by_to' 0) or target, keeping their order. */
static void group_arcs(const segc_graph *g, int by_to, size_t **start,
	size_t **list)
{
	size_t *pos = segc_xcalloc(g->nnodes + 2, sizeof *pos), i, v;

	*start = segc_xcalloc(g->nnodes + 2, sizeof **start);
	*list = segc_xmalloc((g->narcs + 1) * sizeof **list);
	for (i = 0; i < g->narcs; i++)
		(*start)[(by_to ? g->arcs[i].to_index :
			g->arcs[i].from_index) + 1]++;
	for (v = 0; v < g->nnodes; v++)
		(*start)[v + 1] += (*start)[v];
	for (i = 0; i < g->narcs; i++) {
		v = by_to ? g->arcs[i].to_index : g->arcs[i].from_index;
		(*list)[(*start)[v] + pos[v]++] = i;
	}
	free(pos);
}

/* Builds the arc lists of 'g', whose arcs are resolved. */
static void arc_lists_init(arc_lists *l, const segc_graph *g)
{
	group_arcs(g, 0, &l->out_start, &l->out);
	group_arcs(g, 1, &l->in_start, &l->in);
}

/* Releases 'l'. */
static void arc_lists_clear(arc_lists *l)
{
	free(l->out_start);
	free(l->out);
	free(l->in_start);
	free(l->in);
}

/* Resolves the end 'id' (attribute 'attr') of arc 'a' of 'g' through
 * 'ids' (node id -> first node). */
static int resolve_end(checker *c, const segc_graph *g, const segc_symtab *ids,
	const segc_arc *a, const char *attr, const char *id, size_t *index)
{
	size_t i = id ? segc_symtab_get(ids, id) : SEGC_SYMTAB_NONE;
	names all;
	const char *near;
	segc_srcloc at;
	size_t k;

	if (i != SEGC_SYMTAB_NONE) {
		*index = i;
		return 0;
	}
	memset(&all, 0, sizeof all);
	for (k = 0; k < g->nnodes; k++)
		if (g->nodes[k].id)
			names_add(&all, g->nodes[k].id, "node", 0);
	near = id ? suggest(id, &all, NULL) : NULL;
	check_error(c, at_value(c, &a->loc, attr, &at), SEGC_ERR_INPUT,
		"<arc> attribute '%s': graph '%s' has no <node> '%s'%s%s%s",
		attr, g->name,
		id ? id : "", near ? " (did you mean '" : "",
		near ? near : "", near ? "'?)" : "");
	names_clear(&all);
	return -1;
}

/* Marks in 'seen' every node reachable from 'start' of 'g' along arcs
 * (reversed when 'backward'; loop arcs only when 'with_loops'), using the
 * arc lists 'l'.  Linear in the size of the graph. */
static void reach(const segc_graph *g, const arc_lists *l, size_t start,
	int backward, int with_loops, unsigned char *seen)
{
	size_t *queue = segc_xmalloc((g->nnodes + 1) * sizeof *queue);
	const size_t *first = backward ? l->in_start : l->out_start;
	const size_t *list = backward ? l->in : l->out;
	size_t head = 0, tail = 0, k;

	seen[start] = 1;
	queue[tail++] = start;
	while (head < tail) {
		size_t v = queue[head++];

		for (k = first[v]; k < first[v + 1]; k++) {
			const segc_arc *a = &g->arcs[list[k]];
			size_t to = backward ? a->from_index : a->to_index;

			if ((a->loop && !with_loops) || a->forward || seen[to])
				continue;
			seen[to] = 1;
			queue[tail++] = to;
		}
	}
	free(queue);
}

/* Finds the unique node of 'g' without incoming ('in') or outgoing
 * non-loop arcs; reports none or several.  Returns its index or -1. */
static long find_end(checker *c, const segc_graph *g, int in)
{
	unsigned char *has = segc_xcalloc(g->nnodes + 1, 1);
	long found = -1;
	size_t i, count = 0;
	segc_strbuf sb;

	for (i = 0; i < g->narcs; i++)
		if (!g->arcs[i].loop && !g->arcs[i].forward)
			has[in ? g->arcs[i].to_index : g->arcs[i].from_index] = 1;
	segc_strbuf_init(&sb);
	for (i = 0; i < g->nnodes; i++) {
		if (has[i])
			continue;
		if (!count++)
			found = (long)i;
		segc_strbuf_appendf(&sb, "%s'%s'", count > 1 ? ", " : "",
			g->nodes[i].id);
	}
	if (count != 1)
		check_error(c, &g->loc, SEGC_ERR_INPUT, "<graph> '%s': %s "
			"(%s); exactly one node must have no %s arcs other "
			"than loop arcs", g->name, count ? (in ?
			"several entries" : "several exits") : (in ?
			"no entry" : "no exit"), count ? segc_strbuf_str(&sb) :
			"every node has some", in ? "incoming" : "outgoing");
	segc_strbuf_free(&sb);
	free(has);
	return count == 1 ? found : -1;
}

/* Checks that every node of 'g' reaches 'exit' and that every loop arc
 * points back (its target reaches its source). */
static void check_reachability(checker *c, const segc_graph *g,
	const arc_lists *l, size_t exit)
{
	unsigned char *seen = segc_xcalloc(g->nnodes + 1, 1);
	size_t i;

	reach(g, l, exit, 1, 1, seen);
	for (i = 0; i < g->nnodes; i++)
		if (!seen[i]) {
			check_error(c, &g->nodes[i].loc, SEGC_ERR_INPUT,
				"<node> '%s' of graph '%s' cannot reach the "
				"exit '%s'", g->nodes[i].id, g->name,
				g->nodes[exit].id);
			break;
		}
	for (i = 0; i < g->narcs; i++) {
		const segc_arc *a = &g->arcs[i];

		if (!a->loop)
			continue;
		memset(seen, 0, g->nnodes + 1);
		reach(g, l, a->to_index, 0, 0, seen);
		if (!seen[a->from_index])
			check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from "
				"'%s' to '%s': a loop arc must point back, but "
				"'%s' does not reach '%s'", a->from, a->to,
				a->to, a->from);
	}
	free(seen);
}

/* Checks the probabilities on the arcs leaving each or-split of 'g'. */
static void check_arc_probabilities(checker *c, const segc_graph *g,
	const arc_lists *l)
{
	segc_expr **probs = segc_xcalloc(g->narcs + 1, sizeof *probs);
	segc_srcloc *places = segc_xcalloc(g->narcs + 1, sizeof *places);
	size_t v, k, n;
	segc_strbuf what;

	segc_strbuf_init(&what);
	for (v = 0; v < g->nnodes; v++) {
		for (n = 0, k = l->out_start[v]; k < l->out_start[v + 1]; k++) {
			const segc_arc *a = &g->arcs[l->out[k]];

			if (a->loop || a->forward)
				continue;
			if (g->nodes[v].split_and && a->prob)
				check_error(c, at_value(c, &a->loc, "prob",
					&places[n]), SEGC_ERR_INPUT, "<arc> "
					"from '%s' to '%s': node '%s' splits "
					"with 'and', its arcs take no 'prob'",
					a->from, a->to, a->from);
			at_value(c, &a->loc, "prob", &places[n]);
			probs[n++] = a->prob;
		}
		if (!n || g->nodes[v].split_and)
			continue;
		segc_strbuf_reset(&what);
		segc_strbuf_appendf(&what, "the arcs leaving <node> '%s'",
			g->nodes[v].id);
		if (segc_check_probabilities(c->ctx, n, probs, places,
			    &g->nodes[v].loc, segc_strbuf_str(&what)))
			c->failed = 1;
	}
	segc_strbuf_free(&what);
	free(places);
	free(probs);
}

/* Checks the ids of the nodes of 'g' (each used once) and fills 'ids'
 * with them; returns 0 when there is no duplicate. */
static int check_node_ids(checker *c, const segc_graph *g, segc_symtab *ids)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < g->nnodes; i++) {
		if (!g->nodes[i].id)
			continue;
		j = segc_symtab_add(ids, g->nodes[i].id, i);
		if (j != SEGC_SYMTAB_NONE) {
			check_error(c, &g->nodes[i].loc, SEGC_ERR_INPUT,
				"<node> '%s': the id is already used at line "
				"%lu", g->nodes[i].id, g->nodes[j].loc.line);
			rc = -1;
		}
	}
	return rc;
}

/* ------------------------------------------- counters of loop arcs */

/* Marks in 'mark' (bit 1 forward, bit 2 backward) the nodes of 'g' that
 * node 'start' reaches along plain arcs (no loop arc, no forward edge),
 * backward when 'back'. */
static void reach_plain(const segc_graph *g, const arc_lists *l,
	size_t start, int back, unsigned char *mark, size_t *queue)
{
	unsigned char bit = back ? 2 : 1;
	size_t head = 0, tail = 0, k;

	mark[start] |= bit;
	queue[tail++] = start;
	while (head < tail) {
		size_t v = queue[head++];
		const size_t *first = back ? l->in_start : l->out_start;
		const size_t *list = back ? l->in : l->out;

		for (k = first[v]; k < first[v + 1]; k++) {
			const segc_arc *a = &g->arcs[list[k]];
			size_t w = back ? a->from_index : a->to_index;

			if (a->loop || a->forward || (mark[w] & bit))
				continue;
			mark[w] |= bit;
			queue[tail++] = w;
		}
	}
}

/* Checks the counter 'var' of loop arc 'a' as the name of a loop
 * variable. */
static void check_arc_var(checker *c, const segc_arc *a)
{
	segc_srcloc at;

	if (reserved_name(c, a->var, "arc", "counter", at_value(c, &a->loc,
			"var", &at)))
		return;
	if (names_find(&c->global, a->var) >= 0)
		check_error(c, at_value(c, &a->loc, "var", &at),
			SEGC_ERR_INPUT, "<arc>: counter '%s' hides the <%s> "
			"of that name", a->var,
			c->global.kind[names_find(&c->global, a->var)]);
	if (names_find(&c->counters, a->var) < 0)
		names_add(&c->counters, a->var, "arc", a->loc.line);
}

/* For every node of 'g', the bit set of the loop arcs with a counter
 * (by their rank among them, at most 'nbits') whose region holds it:
 * the nodes the loop arc's target reaches and that reach its source. */
static unsigned long *counter_regions(const segc_graph *g,
	const arc_lists *l, size_t nbits)
{
	unsigned long *in = segc_xcalloc(g->nnodes + 1, sizeof(*in));
	unsigned char *mark = segc_xmalloc(g->nnodes + 1);
	size_t *queue = segc_xmalloc((g->nnodes + 1) * sizeof(*queue));
	size_t i, v, bit = 0;

	for (i = 0; i < g->narcs && bit < nbits; i++) {
		const segc_arc *a = &g->arcs[i];

		if (!a->loop || !a->var)
			continue;
		memset(mark, 0, g->nnodes);
		reach_plain(g, l, a->to_index, 0, mark, queue);
		reach_plain(g, l, a->from_index, 1, mark, queue);
		for (v = 0; v < g->nnodes; v++)
			if (mark[v] == 3)
				in[v] |= 1UL << bit;
		bit++;
	}
	free(mark);
	free(queue);
	return in;
}

/* Checks cost 'e' of 'elem' at 'loc' with the counters of the loop arcs
 * 'vars' (the 'nvar' loop arcs of 'g' with a counter, in order) in bit
 * set 'scope' bound (all of them when 'scope' is ~0). */
static void check_scoped_cost(checker *c, const segc_graph *g,
	const size_t *vars, size_t nvar, unsigned long scope,
	const segc_expr *e, const segc_srcloc *loc, const char *elem)
{
	size_t before = c->local.n, bit;

	for (bit = 0; bit < nvar && scope; bit++) {
		const segc_arc *a = &g->arcs[vars[bit]];

		if (bit < 8 * sizeof(scope) && (scope >> bit & 1) &&
		    names_find(&c->local, a->var) < 0)
			names_add(&c->local, a->var, "arc", a->loc.line);
	}
	check_attr(c, e, loc, "cost", elem);
	names_pop_to(&c->local, before);
}

/* Checks the costs of the nodes and arcs of 'g', each with the counters
 * of the loop arcs whose region holds it in scope ('l' NULL when the ends
 * are not resolved: every counter then).  Linear in the nodes and arcs
 * when no loop arc has a counter. */
static void check_costs(checker *c, const segc_graph *g, const arc_lists *l)
{
	size_t nvar = 0, nbits = 8 * sizeof(unsigned long), i;
	unsigned long *in = NULL;
	size_t *vars = segc_xmalloc((g->narcs + 1) * sizeof *vars);

	for (i = 0; i < g->narcs; i++)
		if (g->arcs[i].loop && g->arcs[i].var) {
			check_arc_var(c, &g->arcs[i]);
			vars[nvar] = i;
			if (++nvar > nbits && l) {
				check_error(c, &g->arcs[i].loc, SEGC_ERR_LIMIT,
					"<arc>: more than %lu loop arcs with a "
					"counter in one graph", (unsigned long)
					nbits);
				l = NULL;
			}
		}
	if (nvar && l)
		in = counter_regions(g, l, nbits);
	for (i = 0; i < g->nnodes; i++)
		check_scoped_cost(c, g, vars, nvar, in ? in[i] : ~0UL,
			g->nodes[i].cost, &g->nodes[i].loc, "node");
	for (i = 0; i < g->narcs; i++) {
		const segc_arc *a = &g->arcs[i];
		unsigned long scope = in && !a->loop ? in[a->from_index] &
			in[a->to_index] : in ? 0 : ~0UL;

		check_scoped_cost(c, g, vars, nvar, nvar ? scope : 0, a->cost,
			&a->loc, "arc");
	}
	free(vars);
	free(in);
}

/* Checks arc-form graph 'g'. */
void check_arc_graph(checker *c, segc_graph *g)
{
	segc_symtab ids;
	arc_lists l;
	size_t i;
	int resolved;
	long exit;

	segc_symtab_init(&ids);
	resolved = check_node_ids(c, g, &ids) == 0;
	for (i = 0; i < g->narcs; i++) {
		segc_arc *a = &g->arcs[i];

		check_attr(c, a->prob, &a->loc, "prob", "arc");
		check_attr(c, a->loop, &a->loc, "loop", "arc");
		if (resolve_end(c, g, &ids, a, "from", a->from,
			    &a->from_index) |
		    resolve_end(c, g, &ids, a, "to", a->to, &a->to_index))
			resolved = 0;
	}
	segc_symtab_clear(&ids);
	if (!resolved) {
		if (!segc_graph_has_families(g))
			check_costs(c, g, NULL);
		return;
	}
	arc_lists_init(&l, g);
	if (segc_graph_has_families(g))
		check_indexed_graph(c, g);
	else {
		check_costs(c, g, &l);
		check_arc_probabilities(c, g, &l);
	}
	if (find_end(c, g, 1) >= 0) {
		exit = find_end(c, g, 0);
		if (exit >= 0)
			check_reachability(c, g, &l, (size_t)exit);
	}
	arc_lists_clear(&l);
}
