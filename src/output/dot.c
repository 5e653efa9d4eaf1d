/* dot.c - writes a model's graphs in Graphviz DOT.  Node names are made
 * up here (g0_b3i, g1_n_a), so nothing from the input is ever a DOT
 * identifier; everything from the input goes into quoted, escaped labels.
 * Nodes and clusters are written in one pass over the blocks (an explicit
 * stack, no recursion), edges into a second buffer printed after them. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "output/dot.h"

/* Appends 's' to 'sb' escaped for a DOT quoted string. */
static void append_escaped(segc_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			segc_strbuf_appendc(sb, '\\');
		if (ch == '\n')
			segc_strbuf_append(sb, "\\n");
		else if (ch < 0x20 || ch == 0x7f)
			segc_strbuf_appendc(sb, ' ');
		else
			segc_strbuf_appendc(sb, (char)ch);
	}
}

/* Appends expression 'e' to 'sb' escaped. */
static void append_expr(segc_strbuf *sb, const segc_expr *e)
{
	char *s = segc_expr_to_string(e);

	append_escaped(sb, s ? s : "?");
	free(s);
}

/* The state of writing one graph: its number, the two buffers, and the
 * counter of block numbers. */
typedef struct dot_writer {
	segc_strbuf *nodes;
	segc_strbuf edges;
	size_t graph;
	unsigned long next_id;
	int indent;
} dot_writer;

/* Appends the DOT name of the entry ('out' 0) or exit of block number
 * 'id' of kind 'kind' to 'sb'. */
static void block_end(const dot_writer *w, segc_strbuf *sb,
	enum segc_block_kind kind, unsigned long id, int out)
{
	segc_strbuf_appendf(sb, "g%zu_b%lu", w->graph, id);
	if (kind != SEGC_BLOCK_STEP && kind != SEGC_BLOCK_CALL)
		segc_strbuf_append(sb, out ? "o" : "i");
}

/* The deepest indentation written: deeper nesting is not indented
 * further, so that the output stays linear in the size of the model. */
#define DOT_MAX_INDENT 32

/* Starts a line of the node buffer at the current indentation. */
static void node_line(dot_writer *w)
{
	int i;

	for (i = 0; i < w->indent && i < DOT_MAX_INDENT; i++)
		segc_strbuf_append(w->nodes, "  ");
}

/* Writes an edge from the exit of (ka, a) or its entry ('a_out' 0) to the
 * entry of (kb, b) or its exit ('b_out'), labelled by 'label' (may be
 * NULL) and with 'style' (may be NULL). */
static void edge(dot_writer *w, enum segc_block_kind ka, unsigned long a,
	int a_out, enum segc_block_kind kb, unsigned long b, int b_out,
	const char *label, const char *style)
{
	segc_strbuf_append(&w->edges, "  ");
	block_end(w, &w->edges, ka, a, a_out);
	segc_strbuf_append(&w->edges, " -> ");
	block_end(w, &w->edges, kb, b, b_out);
	if (label || style) {
		segc_strbuf_append(&w->edges, " [");
		if (label) {
			segc_strbuf_append(&w->edges, "label=\"");
			append_escaped(&w->edges, label);
			segc_strbuf_append(&w->edges, "\"");
		}
		if (style)
			segc_strbuf_appendf(&w->edges, "%sstyle=%s",
				label ? ", " : "", style);
		segc_strbuf_append(&w->edges, "]");
	}
	segc_strbuf_append(&w->edges, ";\n");
}

/* Writes the node of a step: its name, class, cost and uses. */
static void step_node(dot_writer *w, const segc_block *b, unsigned long id)
{
	size_t i;

	node_line(w);
	block_end(w, w->nodes, b->kind, id, 0);
	segc_strbuf_append(w->nodes, " [shape=box, label=\"");
	append_escaped(w->nodes, b->name ? b->name : "step");
	if (b->cls != SEGC_CLASS_COMP)
		segc_strbuf_append(w->nodes, b->cls == SEGC_CLASS_COMM ?
			" (comm)" : " (io)");
	if (b->cost) {
		segc_strbuf_append(w->nodes, "\\n");
		append_expr(w->nodes, b->cost);
	}
	for (i = 0; i < b->nuses; i++) {
		segc_strbuf_append(w->nodes, "\\n+ ");
		append_expr(w->nodes, b->uses[i].count);
		segc_strbuf_append(w->nodes, " * ");
		append_escaped(w->nodes, b->uses[i].resource);
	}
	segc_strbuf_append(w->nodes, "\"];\n");
}

/* Writes a node of block 'id' ('out' selects the exit) with 'attrs'. */
static void plain_node(dot_writer *w, const segc_block *b, unsigned long id,
	int out, const char *attrs)
{
	node_line(w);
	block_end(w, w->nodes, b->kind, id, out);
	segc_strbuf_appendf(w->nodes, " [%s];\n", attrs);
}

/* The label of the entry of loop 'b'. */
static void loop_label(segc_strbuf *sb, const segc_block *b)
{
	if (b->count) {
		segc_strbuf_append(sb, "loop ");
		append_expr(sb, b->count);
		segc_strbuf_append(sb, " times");
		return;
	}
	segc_strbuf_append(sb, "loop ");
	append_escaped(sb, b->var ? b->var : "?");
	segc_strbuf_append(sb, " = ");
	if (b->from)
		append_expr(sb, b->from);
	segc_strbuf_append(sb, " .. ");
	if (b->to)
		append_expr(sb, b->to);
}

/* Writes the entry and exit nodes of container block 'b' number 'id'. */
static void container_nodes(dot_writer *w, const segc_block *b,
	unsigned long id)
{
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	switch (b->kind) {
	case SEGC_BLOCK_LOOP:
		segc_strbuf_append(&sb, "shape=ellipse, label=\"");
		loop_label(&sb, b);
		segc_strbuf_append(&sb, "\"");
		plain_node(w, b, id, 0, segc_strbuf_str(&sb));
		plain_node(w, b, id, 1, "shape=point");
		break;
	case SEGC_BLOCK_BRANCH:
		plain_node(w, b, id, 0, "shape=diamond, label=\"branch\"");
		plain_node(w, b, id, 1, "shape=point");
		break;
	case SEGC_BLOCK_PAR:
		plain_node(w, b, id, 0, "shape=triangle, label=\"fork\"");
		plain_node(w, b, id, 1, "shape=invtriangle, label=\"join\"");
		break;
	default:
		plain_node(w, b, id, 0, "shape=point");
		plain_node(w, b, id, 1, "shape=point");
		break;
	}
	segc_strbuf_free(&sb);
}

/* Writes the edges between container 'b' number 'id' and its children,
 * numbered from 'first'. */
static void container_edges(dot_writer *w, const segc_block *b,
	unsigned long id, unsigned long first)
{
	size_t i;
	enum segc_block_kind pk = b->kind;
	int fan = pk == SEGC_BLOCK_BRANCH || pk == SEGC_BLOCK_PAR;

	if (!b->nchildren) {
		edge(w, pk, id, 0, pk, id, 1, NULL, NULL);
	} else if (fan) {
		for (i = 0; i < b->nchildren; i++) {
			const segc_block *c = b->children[i];
			char *label = NULL;

			if (pk == SEGC_BLOCK_BRANCH)
				label = c->prob ? segc_expr_to_string(c->prob)
					: segc_xstrdup("rest");
			edge(w, pk, id, 0, c->kind, first + i, 0, label, NULL);
			edge(w, c->kind, first + i, 1, pk, id, 1, NULL, NULL);
			free(label);
		}
	} else {
		edge(w, pk, id, 0, b->children[0]->kind, first, 0, NULL, NULL);
		for (i = 1; i < b->nchildren; i++)
			edge(w, b->children[i - 1]->kind, first + i - 1, 1,
				b->children[i]->kind, first + i, 0, NULL,
				NULL);
		edge(w, b->children[i - 1]->kind, first + i - 1, 1, pk, id, 1,
			NULL, NULL);
	}
	if (pk == SEGC_BLOCK_LOOP)
		edge(w, pk, id, 1, pk, id, 0, "repeat", "dashed");
}

/* An entry of the walk: a block and its number, or (block NULL) the end
 * of a loop's cluster. */
typedef struct dot_item {
	const segc_block *block;
	unsigned long id;
} dot_item;

/* Writes block 'b' number 'id': its nodes now, its children pushed on
 * the stack 's' (numbered here, so the edges can be written at once). */
static void visit_block(dot_writer *w, const segc_block *b, unsigned long id,
	dot_item **s, size_t *n, size_t *cap)
{
	unsigned long first = w->next_id;
	size_t i;

	if (b->kind == SEGC_BLOCK_STEP) {
		step_node(w, b, id);
		return;
	}
	if (b->kind == SEGC_BLOCK_CALL) {
		segc_strbuf sb;

		segc_strbuf_init(&sb);
		segc_strbuf_append(&sb, "shape=box, style=rounded, "
			"label=\"call ");
		append_escaped(&sb, b->graph ? b->graph : "?");
		segc_strbuf_append(&sb, "\"");
		plain_node(w, b, id, 0, segc_strbuf_str(&sb));
		segc_strbuf_free(&sb);
		return;
	}
	if (b->kind == SEGC_BLOCK_LOOP) {
		node_line(w);
		segc_strbuf_appendf(w->nodes, "subgraph cluster_g%zu_b%lu {\n",
			w->graph, id);
		w->indent++;
		node_line(w);
		segc_strbuf_append(w->nodes, "style=dashed; label=\"\";\n");
	}
	container_nodes(w, b, id);
	w->next_id += b->nchildren;
	container_edges(w, b, id, first);
	if (*n + b->nchildren + 1 > *cap) {
		*cap = 2 * (*n + b->nchildren + 1);
		*s = segc_xrealloc(*s, segc_xmul_size(*cap, sizeof **s));
	}
	if (b->kind == SEGC_BLOCK_LOOP) {
		(*s)[*n].block = NULL;
		(*s)[(*n)++].id = 0;
	}
	for (i = b->nchildren; i-- > 0;) {
		(*s)[*n].block = b->children[i];
		(*s)[(*n)++].id = first + i;
	}
}

/* Writes the blocks of block-form graph 'g'. */
static void block_graph(dot_writer *w, const segc_graph *g)
{
	dot_item *stack = segc_xmalloc(sizeof *stack);
	size_t n = 0, cap = 1;

	stack[n].block = g->body;
	stack[n++].id = w->next_id++;
	while (n) {
		dot_item it = stack[--n];

		if (!it.block) {
			w->indent--;
			node_line(w);
			segc_strbuf_append(w->nodes, "}\n");
			continue;
		}
		visit_block(w, it.block, it.id, &stack, &n, &cap);
	}
	free(stack);
}

/* Appends the DOT name of node 'id' of graph 'w->graph' to 'sb'. */
static void arc_node_name(const dot_writer *w, segc_strbuf *sb, size_t i)
{
	segc_strbuf_appendf(sb, "g%zu_n%zu", w->graph, i);
}

/* Writes the label of arc 'a': probability, cost, loop count. */
static void arc_label(segc_strbuf *sb, const segc_arc *a)
{
	const char *sep = "";

	if (a->prob) {
		segc_strbuf_append(sb, "p = ");
		append_expr(sb, a->prob);
		sep = "\\n";
	}
	if (a->cost) {
		segc_strbuf_appendf(sb, "%scost ", sep);
		append_expr(sb, a->cost);
		sep = "\\n";
	}
	if (a->loop) {
		segc_strbuf_appendf(sb, "%sloop ", sep);
		append_expr(sb, a->loop);
	}
}

/* Writes the nodes and arcs of arc-form graph 'g'. */
static void arc_graph(dot_writer *w, const segc_graph *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const segc_node *x = &g->nodes[i];

		node_line(w);
		arc_node_name(w, w->nodes, i);
		segc_strbuf_append(w->nodes, " [shape=box, label=\"");
		append_escaped(w->nodes, x->id);
		if (x->split_and || x->join_and)
			segc_strbuf_appendf(w->nodes, " (%s%s%s)",
				x->join_and ? "join and" : "",
				x->join_and && x->split_and ? ", " : "",
				x->split_and ? "split and" : "");
		if (x->cost) {
			segc_strbuf_append(w->nodes, "\\n");
			append_expr(w->nodes, x->cost);
		}
		segc_strbuf_append(w->nodes, "\"];\n");
	}
	for (i = 0; i < g->narcs; i++) {
		const segc_arc *a = &g->arcs[i];

		segc_strbuf_append(&w->edges, "  ");
		arc_node_name(w, &w->edges, a->from_index);
		segc_strbuf_append(&w->edges, " -> ");
		arc_node_name(w, &w->edges, a->to_index);
		segc_strbuf_append(&w->edges, " [label=\"");
		arc_label(&w->edges, a);
		segc_strbuf_appendf(&w->edges, "\"%s];\n", a->loop ?
			", style=dashed" : "");
	}
}

/* Writes graph number 'i' of 'm' as a cluster. */
static void one_graph(segc_strbuf *out, const segc_model *m, size_t i)
{
	const segc_graph *g = &m->graphs[i];
	dot_writer w;

	memset(&w, 0, sizeof w);
	w.nodes = out;
	w.graph = i;
	w.indent = 2;
	segc_strbuf_init(&w.edges);
	segc_strbuf_appendf(out, "  subgraph cluster_g%zu {\n    label=\"graph ",
		i);
	append_escaped(out, g->name);
	segc_strbuf_append(out, "\";\n");
	if (g->arc_form)
		arc_graph(&w, g);
	else if (g->body)
		block_graph(&w, g);
	segc_strbuf_append(out, "  }\n");
	segc_strbuf_append(out, segc_strbuf_str(&w.edges));
	segc_strbuf_free(&w.edges);
}

/* Appends the DOT of every graph of 'm' to 'out'. */
int segc_model_to_dot(segc_ctx *ctx, const segc_model *m, segc_strbuf *out)
{
	size_t i;

	segc_strbuf_append(out, "digraph \"");
	append_escaped(out, m->name ? m->name : "model");
	segc_strbuf_append(out, "\" {\n  node [fontname=\"Helvetica\"];\n"
		"  edge [fontname=\"Helvetica\"];\n");
	for (i = 0; i < m->ngraphs; i++)
		one_graph(out, m, i);
	segc_strbuf_append(out, "}\n");
	return 0;
}
