/* latex_doc.c - what surrounds the LaTeX of a formula: escaping free text
 * and the standalone document of 'segc latex --standalone'.  The escapes
 * are described in doc/latex.md; the 'latex' attributes of a model are
 * checked in src/model/latex_names.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"
#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "model/model.h"

/* --------------------------------------------------------- free text */

/* The escape of the ASCII character 'c' in LaTeX text, or NULL when it
 * stands for itself. */
static const char *text_escape(unsigned char c)
{
	switch (c) {
	case '\\': return "\\textbackslash{}";
	case '{': return "\\{";
	case '}': return "\\}";
	case '$': return "\\$";
	case '&': return "\\&";
	case '%': return "\\%";
	case '#': return "\\#";
	case '_': return "\\_";
	case '^': return "\\textasciicircum{}";
	case '~': return "\\textasciitilde{}";
	case '<': return "\\textless{}";
	case '>': return "\\textgreater{}";
	case '|': return "\\textbar{}";
	case '"': return "\\textquotedbl{}";
	case '-': return "-{}";
	case '`': return "\\textasciigrave{}";
	case '\'': return "\\textquotesingle{}";
	default: return NULL;
	}
}

/* Decodes one UTF-8 character at 's' into '*cp'; returns its length, or 0
 * when the bytes are not well-formed UTF-8. */
static size_t utf8_decode(const unsigned char *s, unsigned long *cp)
{
	size_t n, i;

	if (s[0] < 0xC2 || s[0] > 0xF4)
		return 0;
	n = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	*cp = s[0] & (0x7F >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 ||
	    *cp > 0x10FFFF)) || (*cp >= 0xD800 && *cp <= 0xDFFF))
		return 0;
	return n;
}

/* The LaTeX text for the non-ASCII code point 'cp', or NULL. */
static const char *text_unicode(unsigned long cp)
{
	static const struct { unsigned long cp; const char *tex; } map[] = {
		{ 0x00A0, "~" }, { 0x00A7, "\\S{}" }, { 0x00B5, "\\textmu{}" },
		{ 0x00B0, "\\textdegree{}" }, { 0x00D7, "\\texttimes{}" },
		{ 0x00E9, "\\'e" }, { 0x00E8, "\\`e" }, { 0x00E4, "\\\"a" },
		{ 0x00F6, "\\\"o" }, { 0x00FC, "\\\"u" }, { 0x00DF, "\\ss{}" },
		{ 0x00C4, "\\\"A" }, { 0x00D6, "\\\"O" }, { 0x00DC, "\\\"U" },
		{ 0x00E1, "\\'a" }, { 0x00ED, "\\'i" }, { 0x00F3, "\\'o" },
		{ 0x00FA, "\\'u" }, { 0x00E7, "\\c{c}" }, { 0x00F1, "\\~n" },
		{ 0x2013, "--" }, { 0x2014, "---" }, { 0x2018, "`" },
		{ 0x2019, "'" }, { 0x201C, "``" }, { 0x201D, "''" },
		{ 0x2026, "\\ldots{}" }, { 0x2212, "\\textminus{}" },
		{ 0x03BC, "\\ensuremath{\\mu}" }, { 0x03C4, "\\ensuremath{\\tau}" },
		{ 0x00B7, "\\textperiodcentered{}" }, { 0x00B1, "\\textpm{}" },
		{ 0, NULL }
	};
	size_t i;

	for (i = 0; map[i].tex; i++)
		if (map[i].cp == cp)
			return map[i].tex;
	return NULL;
}

/* Appends the escape of the character at 's'; returns its length. */
static size_t put_text_char(segc_strbuf *b, const unsigned char *s)
{
	unsigned long cp;
	size_t n;
	const char *t;

	if (*s < 0x80) {
		t = text_escape(*s);
		if (t)
			segc_strbuf_append(b, t);
		else if (*s < 0x20 || *s == 0x7F)
			segc_strbuf_appendc(b, ' ');
		else
			segc_strbuf_appendc(b, (char)*s);
		return 1;
	}
	n = utf8_decode(s, &cp);
	if (!n) {
		segc_strbuf_append(b, "?");
		return 1;
	}
	t = text_unicode(cp);
	if (t)
		segc_strbuf_append(b, t);
	else
		segc_strbuf_appendf(b, "[U+%04lX]", cp);
	return n;
}

/* Free text escaped for LaTeX text mode. */
char *segc_latex_escape_text(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	segc_strbuf b;

	segc_strbuf_init(&b);
	while (*s)
		s += put_text_char(&b, s);
	return segc_strbuf_take(&b);
}

/* ------------------------------------------------------- documents */

/* The symbol on the left of each component's equation. */
static const char *const component_symbol[4] = {
	"T", "T_{\\mathrm{comp}}", "T_{\\mathrm{comm}}", "T_{\\mathrm{io}}"
};

/* Room reserved for the equation number, in points. */
#define TAG_WIDTH 30.0

/* Appends the rows 'rows' of a recurrence (lines separated by "\\\\\n")
 * as an align environment, so that a recurrence taller than a page breaks
 * between its lines (\\allowdisplaybreaks): one number for the first
 * line (T = t_m(n) where ..., T = longest(...) where:) and, when
 * 'per_node', one for each node's equation t_v(i) = ..., on its last
 * line; the other lines \\notag. */
static void put_align(segc_strbuf *b, const char *rows, int per_node)
{
	static const char sep[] = "\\\\\n";
	const char *p = rows, *q;
	int first = 1;

	segc_strbuf_append(b, "\\begin{align}\n");
	while ((q = strstr(p, sep)) != NULL) {
		const char *next = q + sizeof sep - 1;
		int numbered = first || (per_node && (!strncmp(next, "t_{", 3)
			|| !strncmp(next, "&\\text{(terms", 13)));

		segc_strbuf_appendf(b, "%.*s%s\\\\\n", (int)(q - p), p,
			numbered ? "" : " \\notag");
		first = 0;
		p = next;
	}
	segc_strbuf_appendf(b, "%s \\notag\n\\end{align}\n", p);
}

static void put_equation_named(segc_strbuf *b, int c, const segc_expr *e,
	const segc_latex_names *names, double width);

/* Appends the equation of one component (see put_equation_named), the
 * counters of its sums and recurrences with readable names (i, not the
 * canonical form's _s1). */
static void put_equation(segc_strbuf *b, int c, const segc_expr *e,
	const segc_latex_names *names, double width)
{
	segc_expr *r = segc_expr_readable_binders(e);

	put_equation_named(b, c, r, names, width);
	segc_expr_free(r);
}

/* Appends the equation of one component: a plain equation when it fits on
 * one line of 'width' points (0: always), else a split in an equation,
 * aligned at the equals sign. */
static void put_equation_named(segc_strbuf *b, int c, const segc_expr *e,
	const segc_latex_names *names, double width)
{
	size_t nlines = 1;
	double lhs = segc_latex_width(component_symbol[c]);
	char *math;

	/* a recurrence: one row a node, its cost broken */
	if (width > 0 && (segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUS) ||
	    segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV))) {
		segc_strbuf rows;
		int bad;

		segc_strbuf_init(&rows);
		bad = segc_latex_maxplus_split(&rows, component_symbol[c], e,
			names, width - TAG_WIDTH);
		if (!bad)
			put_align(b, segc_strbuf_str(&rows), 1);
		segc_strbuf_free(&rows);
		if (!bad)
			return;
	}
	/* a longest path of indexed nodes: one row a node or an arc */
	if (width > 0 && segc_expr_is_builtin(e, SEGC_BUILTIN_TASKPATH)) {
		segc_strbuf rows;
		int bad;

		segc_strbuf_init(&rows);
		bad = segc_latex_taskpath_rows(&rows, component_symbol[c], e,
			names, width - TAG_WIDTH);
		if (!bad)
			put_align(b, segc_strbuf_str(&rows), 0);
		segc_strbuf_free(&rows);
		if (!bad)
			return;
	}
	math = width > 0 ? segc_latex_expr_lines_after(e, names,
		width - TAG_WIDTH - lhs, 13.4, &nlines) :
		segc_latex_expr(e, names);
	if (nlines > 1)
		segc_strbuf_appendf(b, "\\begin{equation}\n\\begin{split}\n"
			"%s &= %s\n\\end{split}\n\\end{equation}\n",
			component_symbol[c], math);
	else
		segc_strbuf_appendf(b, "\\begin{equation}\n%s = %s\n"
			"\\end{equation}\n", component_symbol[c], math);
	free(math);
}

/* A complete document with every non-zero component of 'formulas'. */
char *segc_latex_document(const char *title, const char *description,
	segc_expr *const formulas[4], const segc_latex_names *names)
{
	return segc_latex_document_width(title, description, formulas, names,
		SEGC_LATEX_TEXT_WIDTH);
}

/* The same for a text 'width' points wide. */
char *segc_latex_document_width(const char *title, const char *description,
	segc_expr *const formulas[4], const segc_latex_names *names,
	double width)
{
	static const char *const head =
		"\\documentclass{article}\n"
		"\\usepackage[T1]{fontenc}\n"
		"\\usepackage{textcomp}\n"
		"\\usepackage{amsmath}\n"
		"\\allowdisplaybreaks\n"
		"\\setlength{\\emergencystretch}{3em}\n";
	static const char *const label[4] = {
		"Total time", "Computation", "Communication", "Input and output"
	};
	char *t = segc_latex_escape_text(title);
	char *d = description ? segc_latex_escape_text(description) : NULL;
	segc_strbuf b;
	int c;

	segc_strbuf_init(&b);
	segc_strbuf_append(&b, head);
	segc_strbuf_appendf(&b, "\\title{%s}\n\\author{}\n\\date{}\n"
		"\\begin{document}\n\\maketitle\n\n", t ? t : "");
	if (d && *d)
		segc_strbuf_appendf(&b, "{\\raggedright %s\\par}\n\n", d);
	for (c = 0; c < 4; c++) {
		if (!formulas[c] || (c && segc_expr_is_zero(formulas[c])))
			continue;
		segc_strbuf_appendf(&b, "\\noindent %s:\n", label[c]);
		put_equation(&b, c, formulas[c], names, width);
		segc_strbuf_appendc(&b, '\n');
	}
	segc_strbuf_append(&b, "\\end{document}\n");
	free(t);
	free(d);
	return segc_strbuf_take(&b);
}

