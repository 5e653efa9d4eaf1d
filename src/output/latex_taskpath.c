/* latex_taskpath.c - the longest path of a task graph with indexed nodes
 * (the atom taskpath(...), FORMAT.md "Indexed nodes") in LaTeX: the path
 * from the entry to the exit, and in an aligned block every node (with
 * its range and cost) and every arc (with the instance it leads to and
 * its cost).  Nodes are v_1, v_2, ... in the order of the graph, the
 * indices of a node i_1, i_2, ...  In a document, the same as rows of an
 * align, one a node or an arc, a node's ranges on a row of their own,
 * so that a graph of many nodes breaks over lines and pages. */
#include <stdlib.h>
#include <string.h>

#include "output/latex_private.h"
#include "graph/taskpath.h"
#include "expr/builtin.h"
#include "expr/graph_text.h"
#include "base/util.h"

/* The names of the indices in LaTeX: i_1, i_2, ... */
typedef struct index_names {
	char *v[SEGC_TP_MAX_INDICES];
	char buf[SEGC_TP_MAX_INDICES][8];
} index_names;

/* The expression of program 'p' of the atom's arguments 'a', indices as
 * the names i_1, i_2, ... */
static segc_expr *expr_of(segc_expr *const *a, const segc_tp_prog *p)
{
	index_names n;
	size_t k;

	for (k = 0; k < SEGC_TP_MAX_INDICES; k++) {
		snprintf(n.buf[k], sizeof n.buf[k], "i_%lu",
			(unsigned long)k + 1);
		n.v[k] = n.buf[k];
	}
	return segc_tp_expr_of(a, p, n.v);
}

/* Appends the LaTeX of program 'p'; with 'width' > 0, broken into
 * lines of at most 'width' points, the first already holding 'first'. */
static void put_prog_lines(segc_strbuf *b, segc_expr *const *a,
	const segc_tp_prog *p, const segc_latex_names *names, double width,
	double first)
{
	segc_expr *e = expr_of(a, p);
	size_t nlines;
	char *s = width > 0 ? segc_latex_expr_lines_after(e, names, width,
		first, &nlines) : segc_latex_expr(e, names);

	segc_strbuf_append(b, s);
	free(s);
	segc_expr_free(e);
}

/* Appends the LaTeX of program 'p'. */
static void put_prog(segc_strbuf *b, segc_expr *const *a,
	const segc_tp_prog *p, const segc_latex_names *names)
{
	segc_expr *e = expr_of(a, p);
	char *s = segc_latex_expr(e, names);

	segc_strbuf_append(b, s);
	free(s);
	segc_expr_free(e);
}

/* Non-zero when program 'p' is the number 0. */
static int is_zero(segc_expr *const *a, const segc_tp_prog *p)
{
	return p->len == 2 && segc_expr_is_num(a[p->first + 1]) &&
		!mpq_sgn(segc_expr_value(a[p->first + 1]));
}

/* The id of node 'k' of the atom of 'n' nodes, when 'names' gives the
 * ids of a graph of that many nodes (keys "@v1", ...: the model's graph
 * of indexed nodes, latex_names.c), else NULL. */
static const char *node_id(const segc_latex_names *names, size_t k,
	size_t n)
{
	char key[32];

	snprintf(key, sizeof key, "@v%lu", (unsigned long)n + 1);
	if (segc_latex_declared(names, key))
		return NULL;
	snprintf(key, sizeof key, "@v%lu", (unsigned long)n);
	if (!segc_latex_declared(names, key))
		return NULL;
	snprintf(key, sizeof key, "@v%lu", (unsigned long)k + 1);
	return segc_latex_declared(names, key);
}

/* Appends the name of node 'k' of 'n': its id upright when known
 * (\mathrm{worker}), else v_k. */
static void put_node_name(segc_strbuf *b, size_t k, size_t n,
	const segc_latex_names *names)
{
	const char *id = node_id(names, k, n);

	if (!id) {
		segc_strbuf_appendf(b, "v_{%lu}", (unsigned long)k + 1);
		return;
	}
	segc_strbuf_append(b, "\\mathrm{");
	segc_latex_put_escaped_name(b, id, strlen(id));
	segc_strbuf_appendc(b, '}');
}

/* Appends v_k or v_k(i_1, ..., i_d), the node's id for v_k when known. */
static void put_node(segc_strbuf *b, size_t k, size_t d, size_t n,
	const segc_latex_names *names)
{
	size_t j;

	put_node_name(b, k, n, names);
	for (j = 0; j < d; j++)
		segc_strbuf_appendf(b, "%si_{%lu}", j ? ", " : "(",
			(unsigned long)j + 1);
	if (d)
		segc_strbuf_append(b, ")");
}

/* The separators of the two layouts: inside an aligned block on one
 * line, or rows of an align in a document (see latex_private.h). */
struct layout {
	const char *head;      /* after "longest(v_a -> v_b)" */
	const char *row;       /* between rows */
	const char *range;     /* before the ranges of a node's indices */
	const char *tail;
};

static const struct layout inline_layout = {
	"\\ \\text{where}\\ \\left\\{\\begin{aligned}", " \\\\ ",
	",\\quad ", "\\end{aligned}\\right."
};
static const struct layout rows_layout = {
	"\\ \\text{where:}", "\\\\\n", "\\\\\n&\\qquad ", ""
};

/* The widest head v_k(i_1, ...) of the nodes of 't', in points. */
static double head_width(const segc_tp *t, const segc_latex_names *names)
{
	double w = 0, x;
	segc_strbuf h;
	size_t i;

	segc_strbuf_init(&h);
	for (i = 0; i < t->n; i++) {
		segc_strbuf_reset(&h);
		put_node(&h, i, t->nodes[i].d, t->n, names);
		x = segc_latex_width(segc_strbuf_str(&h));
		w = x > w ? x : w;
	}
	segc_strbuf_free(&h);
	return w;
}

/* Appends the arc 'r' of 't' after its source's head: the instance it
 * leads to and its cost, the cost broken to 'width' points (0: not). */
static void put_arc(segc_strbuf *b, const segc_tp *t, const segc_tp_arc *r,
	segc_expr *const *a, const segc_latex_names *names, double width)
{
	segc_strbuf rhs;
	size_t k;

	segc_strbuf_init(&rhs);
	segc_strbuf_append(&rhs, "\\to ");
	put_node_name(&rhs, r->to, t->n, names);
	for (k = 0; k < r->nat; k++) {
		segc_strbuf_append(&rhs, k ? ", " : "(");
		put_prog(&rhs, a, &r->at[k], names);
	}
	if (r->nat)
		segc_strbuf_append(&rhs, ")");
	else if (t->nodes[r->to].d)
		segc_strbuf_append(&rhs, "(\\ast)");
	if (!is_zero(a, &r->cost)) {
		segc_strbuf_append(&rhs, ": ");
		put_prog_lines(&rhs, a, &r->cost, names, width,
			segc_latex_width(segc_strbuf_str(&rhs)));
	}
	segc_strbuf_append(b, segc_strbuf_str(&rhs));
	segc_strbuf_free(&rhs);
}

/* Appends the nodes and arcs of the decoded atom 't' (arguments 'a') in
 * the layout 'l', costs broken into lines of 'width' points (0: not). */
static void put_graph(segc_strbuf *b, const segc_tp *t, segc_expr *const *a,
	const segc_latex_names *names, const struct layout *l, int first,
	double width)
{
	double avail = width > 0 ? width - head_width(t, names) : 0;
	size_t i, k;

	if (width > 0 && avail < width / 3)
		avail = width / 3;
	for (i = 0; i < t->n; i++) {
		const segc_tp_node *x = &t->nodes[i];

		segc_strbuf_append(b, i || !first ? l->row : "");
		put_node(b, i, x->d, t->n, names);
		segc_strbuf_append(b, " &: ");
		put_prog_lines(b, a, &x->cost, names, avail, 10.0);
		for (k = 0; k < x->d; k++) {
			segc_strbuf_append(b, k ? ",\\ " : l->range);
			put_prog(b, a, &x->lo[k], names);
			segc_strbuf_appendf(b, " \\le i_{%lu} \\le ",
				(unsigned long)k + 1);
			put_prog(b, a, &x->hi[k], names);
		}
	}
	for (i = 0; i < t->narcs; i++) {
		const segc_tp_arc *r = &t->arcs[i];

		segc_strbuf_append(b, l->row);
		put_node(b, r->from, t->nodes[r->from].d, t->n, names);
		segc_strbuf_append(b, " &");
		put_arc(b, t, r, a, names, avail);
	}
}

/* Appends the atom 'e' after 'lhs' (NULL: none) in the layout 'l', its
 * costs broken to 'width' points (0: not); -1, nothing appended, when
 * 'e' is malformed. */
static int put_taskpath(segc_strbuf *b, const char *lhs, const segc_expr *e,
	const segc_latex_names *names, const struct layout *l, double width)
{
	size_t n = segc_expr_nargs(e), i;
	segc_expr **a = segc_xmalloc((n + 1) * sizeof(*a));
	segc_tp t;

	for (i = 0; i < n; i++)
		a[i] = segc_expr_arg(e, i);
	if (segc_tp_decode(&t, n, segc_tp_int_expr, a)) {
		segc_tp_clear(&t);
		free(a);
		return -1;
	}
	if (lhs)
		segc_strbuf_appendf(b, "%s &= ", lhs);
	segc_strbuf_append(b, "\\operatorname{longest}\\bigl(");
	put_node_name(b, t.entry, t.n, names);
	segc_strbuf_append(b, " \\to ");
	put_node_name(b, t.exit, t.n, names);
	segc_strbuf_appendf(b, "\\bigr)%s", l->head);
	put_graph(b, &t, a, names, l, !lhs, width);
	segc_strbuf_append(b, l->tail);
	segc_tp_clear(&t);
	free(a);
	return 0;
}

/* Appends the atom 'e' (see latex_private.h). */
int segc_latex_taskpath(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	return put_taskpath(b, NULL, e, names, &inline_layout, 0);
}

/* Appends the rows for 'lhs' = the atom 'e' (see latex_private.h). */
int segc_latex_taskpath_rows(segc_strbuf *b, const char *lhs,
	const segc_expr *e, const segc_latex_names *names, double width)
{
	return put_taskpath(b, lhs, e, names, &rows_layout, width);
}
