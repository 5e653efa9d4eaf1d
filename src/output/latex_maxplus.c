/* latex_maxplus.c - the recurrence of an overlapped loop (the atom
 * maxplus(...), FORMAT.md 3.2) in LaTeX: the exit's finish time t_m(n)
 * with, in an aligned block, the recurrence of every node's finish time
 * in iteration i (Simon & Wierum 2.5):
 *   t_v(i) = c_v + max(0, t_u(i) + c_uv, ..., t_w(i - d) + c_wv, ...),
 * the terms of an iteration before the first left out.  Nodes are the
 * atom's numbers (topological order, the exit last).  For maxplusv(k,
 * ...) the iteration is its counter k, which the costs c_v(k) use.  In a
 * document, the recurrence is a split of one row a node, long costs
 * broken over lines. */
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"
#include "graph/maxplus.h"

/* A recurrence being typeset: its atom, graph, names, and the offset of
 * its arguments (1 for maxplusv). */
typedef struct mp_tex {
	const segc_expr *e;
	segc_maxplus_sys s;
	const segc_latex_names *names;
	size_t o;
	char *n, *it;             /* the count and the iteration, as LaTeX */
} mp_tex;

/* Appends " + cost" for the expression 'c' (nothing when it is 0). */
static void put_plus(segc_strbuf *b, const segc_expr *c,
	const segc_latex_names *names)
{
	char *s;

	if (segc_expr_is_num(c) && !mpq_sgn(segc_expr_value(c)))
		return;
	s = segc_latex_expr(c, names);
	segc_strbuf_append(b, s[0] == '-' ? " " : " + ");
	segc_strbuf_append(b, s);
	free(s);
}

/* Decodes the atom 'e' into 'T'; -1 when it is malformed. */
static int mp_open(mp_tex *T, const segc_expr *e,
	const segc_latex_names *names)
{
	memset(T, 0, sizeof(*T));
	if (segc_maxplus_decode_graph(e, &T->s)) {
		segc_maxplus_clear(&T->s);
		return -1;
	}
	T->e = e;
	T->names = names;
	T->o = segc_expr_binder(e) != NULL;
	T->n = segc_latex_expr(segc_expr_arg(e, T->o), names);
	T->it = T->o ? segc_latex_expr(segc_expr_arg(e, 0), names) :
		segc_xstrdup("i");
	return 0;
}

/* Releases 'T'. */
static void mp_close(mp_tex *T)
{
	free(T->n);
	free(T->it);
	segc_maxplus_clear(&T->s);
}

/* The cost of node 'v'. */
static const segc_expr *node_cost(const mp_tex *T, size_t v)
{
	return segc_expr_arg(T->e, 2 + T->o + v);
}

/* Appends max(0, t_u(i) + c_uv, ...) over the arcs into node 'v'. */
static void put_max(segc_strbuf *b, const mp_tex *T, size_t v)
{
	size_t a, base = T->s.m + 3 + T->o;

	segc_strbuf_append(b, "\\max\\bigl(0");
	for (a = 0; a < T->s.k; a++) {
		if (T->s.to[a] != v)
			continue;
		segc_strbuf_appendf(b, ",\\ t_{%lu}(%s", (unsigned long)
			T->s.from[a] + 1, T->it);
		if (T->s.dist[a])
			segc_strbuf_appendf(b, " - %lu", T->s.dist[a]);
		segc_strbuf_append(b, ")");
		put_plus(b, segc_expr_arg(T->e, base + 4 * a + 3), T->names);
	}
	segc_strbuf_append(b, "\\bigr)");
}

/* Appends the atom 'e' as t_m(n) and its recurrence; -1 (nothing
 * appended) when 'e' is not a well-formed recurrence. */
int segc_latex_maxplus(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	mp_tex T;
	size_t v;

	if (mp_open(&T, e, names))
		return -1;
	segc_strbuf_appendf(b, "t_{%lu}\\left(%s\\right)\\ \\text{where}\\ "
		"\\left\\{\\begin{aligned}", (unsigned long)T.s.m, T.n);
	for (v = 0; v < T.s.m; v++) {
		const segc_expr *cv = node_cost(&T, v);
		char *c = segc_latex_expr(cv, names);
		int zero = segc_expr_is_num(cv) && !mpq_sgn(segc_expr_value(cv));

		segc_strbuf_appendf(b, "t_{%lu}(%s) &= %s%s",
			(unsigned long)v + 1, T.it, zero ? "" : c,
			zero ? "" : " + ");
		free(c);
		put_max(b, &T, v);
		segc_strbuf_append(b, " \\\\ ");
	}
	segc_strbuf_appendf(b, "&\\text{for } %s = 1, \\dots, %s\\text{; "
		"terms of iterations before the first left out}"
		"\\end{aligned}\\right.", T.it, T.n);
	mp_close(&T);
	return 0;
}

/* The width of the left column of the split of 'T' for 'lhs': the
 * widest of 'lhs' and the t_v(i) of its nodes.  The rows of a node's
 * cost start where that column ends, so they have that much less room
 * than the line. */
static double left_column(const char *lhs, const mp_tex *T)
{
	double col = segc_latex_width(lhs), w;
	size_t v;

	for (v = 0; v < T->s.m; v++) {
		segc_strbuf t;

		segc_strbuf_init(&t);
		segc_strbuf_appendf(&t, "t_{%lu}(%s)", (unsigned long)v + 1,
			T->it);
		w = segc_latex_width(segc_strbuf_str(&t));
		segc_strbuf_free(&t);
		if (w > col)
			col = w;
	}
	return col;
}

/* Appends the rows of a split for 'lhs' = the recurrence 'e' (see
 * latex_private.h). */
int segc_latex_maxplus_split(segc_strbuf *b, const char *lhs,
	const segc_expr *e, const segc_latex_names *names, double width)
{
	mp_tex T;
	size_t v, nlines;
	double col;

	if (mp_open(&T, e, names))
		return -1;
	col = left_column(lhs, &T);
	segc_strbuf_appendf(b, "%s &= t_{%lu}\\left(%s\\right)\\ \\text{where, "
		"for } %s = 1, \\dots, %s\\text{:}", lhs, (unsigned long)T.s.m,
		T.n, T.it, T.n);
	for (v = 0; v < T.s.m; v++) {
		const segc_expr *cv = node_cost(&T, v);
		char *c;

		segc_strbuf_appendf(b, "\\\\\nt_{%lu}(%s) &= ",
			(unsigned long)v + 1, T.it);
		put_max(b, &T, v);
		if (segc_expr_is_num(cv) && !mpq_sgn(segc_expr_value(cv)))
			continue;
		/* the cost from the next line on, as a broken sum goes on */
		c = segc_latex_expr_lines_after(cv, names, width - col, 30.0,
			&nlines);
		segc_strbuf_append(b, c[0] == '-' ? "\\\\\n&\\qquad " :
			"\\\\\n&\\qquad + ");
		segc_strbuf_append(b, c);
		free(c);
	}
	segc_strbuf_append(b, "\\\\\n&\\text{(terms of iterations before the "
		"first left out)}");
	mp_close(&T);
	return 0;
}
