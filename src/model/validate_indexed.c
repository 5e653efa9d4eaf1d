/* validate_indexed.c - the semantic checks of a graph with indexed nodes
 * (FORMAT.md, "Indexed nodes"): the ranges of each family, its costs with
 * its indices in scope, the 'at' values of the arcs into families, and
 * what such a graph may not hold (or-splits, probabilities, loop arcs,
 * forward edges, classes other than comp). */
#include <stdlib.h>
#include <string.h>

#include "model/validate_private.h"

/* Declares the first 'n' indices of node 'x' as local names. */
static void open_indices(checker *c, const segc_node *x, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (x->index_name[k])
			names_add(&c->local, x->index_name[k], "index",
				x->loc.line);
}

/* Checks the ranges and the cost of family 'x'. */
static void check_family(checker *c, const segc_node *x)
{
	size_t saved = c->local.n, k, j;

	for (k = 0; k < x->nindex; k++) {
		const char *nm = x->index_name[k];

		if (!nm)
			continue;
		for (j = 0; j < k; j++)
			if (x->index_name[j] && !strcmp(x->index_name[j], nm))
				break;
		if (j < k)
			check_error(c, &x->loc, SEGC_ERR_INPUT, "<node> '%s': "
				"index '%s' is named twice", x->id, nm);
		else if (!reserved_name(c, nm, "node", "index", &x->loc) &&
			 names_find(&c->global, nm) >= 0)
			check_error(c, &x->loc, SEGC_ERR_INPUT, "<node> '%s': "
				"index '%s' hides the <%s> of that name", x->id,
				nm, c->global.kind[names_find(&c->global, nm)]);
		names_pop_to(&c->local, saved);
		open_indices(c, x, k);
		check_attr(c, x->index_lo[k], &x->loc, "index", "node");
		check_attr(c, x->index_hi[k], &x->loc, "index", "node");
	}
	names_pop_to(&c->local, saved);
	open_indices(c, x, x->nindex);
	check_attr(c, x->cost, &x->loc, "cost", "node");
	names_pop_to(&c->local, saved);
}

/* Checks arc 'a' of graph 'g' (its ends resolved). */
static void check_indexed_arc(checker *c, const segc_graph *g,
	const segc_arc *a)
{
	const segc_node *from = &g->nodes[a->from_index];
	const segc_node *to = &g->nodes[a->to_index];
	size_t saved = c->local.n, k;

	if (a->loop || a->forward)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': graph '%s' has indexed nodes, which may not "
			"stand in a loop region: it takes no loop arc and no "
			"forward edge", a->from, a->to, g->name);
	if (a->prob)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': graph '%s' has indexed nodes, so it is a task "
			"graph (every arc is taken): its arcs take no 'prob'",
			a->from, a->to, g->name);
	if (a->cls != SEGC_CLASS_COMP)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': the time of a graph with indexed nodes is one "
			"longest path, counted as computation: its arcs take "
			"no 'class'", a->from, a->to);
	if (a->has_at && !to->nindex)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': 'at' names an instance of an indexed node, but "
			"'%s' has no 'index'", a->from, a->to, a->to);
	else if (!a->has_at && to->nindex && from->nindex)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': an arc between two indexed nodes needs 'at', "
			"the instance of '%s' each instance of '%s' leads to",
			a->from, a->to, a->to, a->from);
	else if (a->has_at && a->nat && a->nat != to->nindex)
		check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from '%s' to "
			"'%s': 'at' gives %zu value%s, but '%s' has %zu "
			"ind%s", a->from, a->to, a->nat, a->nat == 1 ? "" : "s",
			a->to, to->nindex, to->nindex == 1 ? "ex" : "ices");
	open_indices(c, from, from->nindex);
	for (k = 0; k < a->nat; k++)
		check_attr(c, a->at[k], &a->loc, "at", "arc");
	check_attr(c, a->cost, &a->loc, "cost", "arc");
	names_pop_to(&c->local, saved);
}

/* Checks arc-form graph 'g', which has indexed nodes and whose arcs are
 * resolved (see validate_private.h). */
void check_indexed_graph(checker *c, const segc_graph *g)
{
	unsigned char *in = segc_xcalloc(g->nnodes + 1, 2);
	unsigned char *out = in + g->nnodes + 1;
	size_t i;

	for (i = 0; i < g->narcs; i++) {
		check_indexed_arc(c, g, &g->arcs[i]);
		if (g->arcs[i].from_index != g->arcs[i].to_index) {
			out[g->arcs[i].from_index] = 1;
			in[g->arcs[i].to_index] = 1;
		}
	}
	for (i = 0; i < g->nnodes; i++) {
		const segc_node *x = &g->nodes[i];

		if (x->split_or || x->join_or)
			check_error(c, &x->loc, SEGC_ERR_INPUT, "<node> '%s': "
				"graph '%s' has indexed nodes, so it is a task "
				"graph: its nodes split and join with 'and', "
				"not 'or'", x->id, g->name);
		if (x->cls != SEGC_CLASS_COMP)
			check_error(c, &x->loc, SEGC_ERR_INPUT, "<node> '%s': "
				"the time of a graph with indexed nodes is one "
				"longest path, counted as computation: its "
				"nodes take no 'class'", x->id);
		if (!x->nindex) {
			check_attr(c, x->cost, &x->loc, "cost", "node");
			continue;
		}
		if (!in[i] || !out[i])
			check_error(c, &x->loc, SEGC_ERR_INPUT, "<node> '%s': "
				"an indexed node cannot be the entry or the "
				"exit of graph '%s'", x->id, g->name);
		check_family(c, x);
	}
	free(in);
}
