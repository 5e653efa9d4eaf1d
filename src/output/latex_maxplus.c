/* latex_maxplus.c - the recurrence of an overlapped loop (the atom
 * maxplus(...), FORMAT.md 3.2) in LaTeX: the exit's finish time t_m(n)
 * with, in an aligned block, the recurrence of every node's finish time
 * in iteration i (Simon & Wierum 2.5):
 *   t_v(i) = c_v + max(0, t_u(i) + c_uv, ..., t_w(i - d) + c_wv, ...),
 * the terms of an iteration before the first left out.  Nodes are the
 * atom's numbers (topological order, the exit last).  For maxplusv(k,
 * ...) the iteration is its counter k, which the costs c_v(k) use. */
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"
#include "algebra/maxplus.h"

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

/* Appends the atom 'e' as t_m(n) and its recurrence; -1 (nothing
 * appended) when 'e' is not a well-formed recurrence. */
int segc_latex_maxplus(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	segc_maxplus_sys s;
	size_t o = segc_expr_binder(e) != NULL, v, a, base;
	char *n, *it;

	if (segc_maxplus_decode_graph(e, &s)) {
		segc_maxplus_clear(&s);
		return -1;
	}
	base = s.m + 3 + o;
	n = segc_latex_expr(segc_expr_arg(e, o), names);
	it = o ? segc_latex_expr(segc_expr_arg(e, 0), names) :
		segc_xstrdup("i");
	segc_strbuf_appendf(b, "t_{%lu}\\left(%s\\right)\\ \\text{where}\\ "
		"\\left\\{\\begin{aligned}", (unsigned long)s.m, n);
	for (v = 0; v < s.m; v++) {
		const segc_expr *cv = segc_expr_arg(e, 2 + o + v);
		char *c = segc_latex_expr(cv, names);
		int zero = segc_expr_is_num(cv) && !mpq_sgn(segc_expr_value(cv));

		segc_strbuf_appendf(b, "t_{%lu}(%s) &= %s%s\\max\\bigl(0",
			(unsigned long)v + 1, it, zero ? "" : c,
			zero ? "" : " + ");
		free(c);
		for (a = 0; a < s.k; a++) {
			if (s.to[a] != v)
				continue;
			segc_strbuf_appendf(b, ",\\ t_{%lu}(%s", (unsigned long)
				s.from[a] + 1, it);
			if (s.dist[a])
				segc_strbuf_appendf(b, " - %lu", s.dist[a]);
			segc_strbuf_append(b, ")");
			put_plus(b, segc_expr_arg(e, base + 4 * a + 3), names);
		}
		segc_strbuf_append(b, "\\bigr) \\\\ ");
	}
	segc_strbuf_appendf(b, "&\\text{for } %s = 1, \\dots, %s\\text{; "
		"terms of iterations before the first left out}"
		"\\end{aligned}\\right.", it, n);
	free(n);
	free(it);
	segc_maxplus_clear(&s);
	return 0;
}
