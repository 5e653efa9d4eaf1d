/* latex_where.c - the "where" lines under a formula that keeps lets as
 * names ('segc latex --lets') or names its subexpressions ('--where'):
 * one aligned line per definition, "n &= value", and their place in a
 * standalone document (after the equations). */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/latex_private.h"
#include "base/util.h"

/* The width of " = " in points (doc/latex.md, the table of widths). */
#define WHERE_EQUALS 13.4

/* Appends the lines "lhs &= value" of the 'n' definitions, separated by
 * "\\\\\n"; the left sides are 'lhs' or, when NULL, the names 'names'.
 * With 'width' > 0 a value too wide for the line after its left side
 * is broken into lines of at most 'width' points (latex_break.c). */
static void where_lines(segc_strbuf *b, const char *const *names,
	segc_expr *const *lhs, segc_expr *const *values, size_t n,
	const segc_latex_names *ln, double width)
{
	size_t i, nl;
	double col = 0;

	/* every row's value starts where the widest left side ends */
	for (i = 0; i < n && width > 0; i++) {
		segc_expr *sym = lhs ? segc_expr_copy(lhs[i]) :
			segc_expr_sym(names[i]);
		char *l = segc_latex_expr(sym, ln);
		double w = segc_latex_width_n(l, strlen(l), 1.0, 0);

		col = w > col ? w : col;
		free(l);
		segc_expr_free(sym);
	}
	for (i = 0; i < n; i++) {
		segc_expr *sym = lhs ? segc_expr_copy(lhs[i]) :
			segc_expr_sym(names[i]);
		char *l = segc_latex_expr(sym, ln);
		char *r = width > 0 ? segc_latex_expr_lines_after(values[i], ln,
			width - col, WHERE_EQUALS, &nl) :
			segc_latex_expr(values[i], ln);

		segc_strbuf_appendf(b, "%s &= %s%s\n", l, r,
			i + 1 < n ? " \\\\" : "");
		free(l);
		free(r);
		segc_expr_free(sym);
	}
}

/* See latex.h. */
char *segc_latex_where_exprs(segc_expr *const *lhs, segc_expr *const *rhs,
	size_t n, const segc_latex_names *ln)
{
	segc_strbuf b;

	if (!n)
		return segc_xstrdup("");
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "\\text{where }\\begin{aligned}[t]\n");
	where_lines(&b, NULL, lhs, rhs, n, ln, 0);
	segc_strbuf_append(&b, "\\end{aligned}\n");
	return segc_strbuf_take(&b);
}

/* See latex.h. */
char *segc_latex_document_where_exprs(const char *document,
	segc_expr *const *lhs, segc_expr *const *rhs, size_t n,
	const segc_latex_names *ln, double width)
{
	static const char end[] = "\\end{document}\n";
	size_t len = strlen(document), keep;
	segc_strbuf b;

	keep = len >= sizeof end - 1 && !strcmp(document + len -
		(sizeof end - 1), end) ? len - (sizeof end - 1) : len;
	segc_strbuf_init(&b);
	segc_strbuf_appendn(&b, document, keep);
	if (n) {
		segc_strbuf_append(&b, "\\noindent where\n\\begin{align*}\n");
		where_lines(&b, NULL, lhs, rhs, n, ln, width);
		segc_strbuf_append(&b, "\\end{align*}\n");
	}
	segc_strbuf_append(&b, document + keep);
	return segc_strbuf_take(&b);
}

/* See latex.h. */
char *segc_latex_where(const char *const *names, segc_expr *const *values,
	size_t n, const segc_latex_names *ln)
{
	segc_strbuf b;

	if (!n)
		return segc_xstrdup("");
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "\\text{where }\\begin{aligned}[t]\n");
	where_lines(&b, names, NULL, values, n, ln, 0);
	segc_strbuf_append(&b, "\\end{aligned}\n");
	return segc_strbuf_take(&b);
}

/* See latex.h. */
char *segc_latex_document_where(const char *document,
	const char *const *names, segc_expr *const *values, size_t n,
	const segc_latex_names *ln)
{
	static const char end[] = "\\end{document}\n";
	size_t len = strlen(document), keep;
	segc_strbuf b;

	keep = len >= sizeof end - 1 && !strcmp(document + len -
		(sizeof end - 1), end) ? len - (sizeof end - 1) : len;
	segc_strbuf_init(&b);
	segc_strbuf_appendn(&b, document, keep);
	if (n) {
		segc_strbuf_append(&b, "\\noindent where\n\\begin{align*}\n");
		where_lines(&b, names, NULL, values, n, ln, 0);
		segc_strbuf_append(&b, "\\end{align*}\n");
	}
	segc_strbuf_append(&b, document + keep);
	return segc_strbuf_take(&b);
}
