/* latex.h - formulas and models typeset in LaTeX: a formula as math (on
 * one line, or broken into lines for a multline environment), free text
 * escaped for text mode, and a standalone document of a model's formulas
 * (what 'segc latex' writes).  The ownership rule of segc.h applies;
 * returned text is malloc'd: free() it. */
#ifndef SEGC_LATEX_H
#define SEGC_LATEX_H

#include <segc/segc.h>
#include <segc/segc_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How names are typeset: 'latex'[i] (already checked by
 * segc_latex_attr_check) for 'names'[i]; other names from their spelling.
 * A plain data record, public so that a caller may fill it from its own
 * table; segc_latex_names_of_model() fills it from a model. */
typedef struct segc_latex_names {
	size_t n;
	const char *const *names;
	const char *const *latex;
} segc_latex_names;

/* Checks a 'latex' attribute against the safe subset of doc/latex.md:
 * 0 when safe; else records an error at 'where' naming 'owner' and the
 * offending text, and returns -1. */
SEGC_API int segc_latex_attr_check(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *latex, SEGC_KEEP const char *owner,
	SEGC_KEEP const segc_where *where);

/* The 'latex' spellings of the parameters and resources of 'm', each
 * checked with segc_latex_attr_check(); -1 (errors recorded) when one is
 * unsafe.  The strings are borrowed from 'm'; the arrays of 'out' are
 * released by segc_latex_names_clear(). */
SEGC_API int segc_latex_names_of_model(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_model *m, SEGC_KEEP segc_latex_names *out);
/* Releases the arrays segc_latex_names_of_model() made and empties 'n'. */
SEGC_API void segc_latex_names_clear(SEGC_KEEP segc_latex_names *n);

/* 'e' as LaTeX math (no surrounding $), on one line.  'names' may be
 * NULL. */
SEGC_API SEGC_GIVE char *segc_latex_expr(SEGC_KEEP const segc_expr *e,
	SEGC_KEEP const segc_latex_names *names);

/* The same, broken into lines of at most 'width' points (estimated for
 * 10pt Computer Modern, see doc/latex.md) inside sums, maxima, products
 * and numerators where needed: one line when it fits; else lines
 * separated by "\\\\" and a newline, each after the first starting with
 * "&" and its indentation, for the body of a split or aligned environment
 * after "&" or "T &= ".  '*nlines' receives the number of lines. */
SEGC_API SEGC_GIVE char *segc_latex_expr_lines(SEGC_KEEP const segc_expr *e,
	SEGC_KEEP const segc_latex_names *names, double width,
	SEGC_KEEP size_t *nlines);

/* Free text (a description, a model name) escaped for LaTeX text mode:
 * every special character replaced, non-ASCII characters kept only when
 * LaTeX's utf8 input typesets them, others written as U+XXXX. */
SEGC_API SEGC_GIVE char *segc_latex_escape_text(SEGC_KEEP const char *text);

/* A complete LaTeX document: title 'title', paragraph 'description' (may
 * be NULL), one equation per non-NULL formula of 'formulas' (indexed by
 * enum segc_component; NULL or zero ones are left out). */
SEGC_API SEGC_GIVE char *segc_latex_document(SEGC_KEEP const char *title,
	SEGC_KEEP const char *description,
	SEGC_KEEP segc_expr *const formulas[4],
	SEGC_KEEP const segc_latex_names *names);

/* The definitions of the 'n' lets a formula keeps as names (names[i] =
 * values[i], in the order given, a let after those it uses): after the
 * formula, "\text{where }" and an aligned block, one line "n &= value"
 * each; "" when 'n' is 0. */
SEGC_API SEGC_GIVE char *segc_latex_where(const char *const *names,
	segc_expr *const *values, size_t n,
	SEGC_KEEP const segc_latex_names *ln);
/* The same for definitions whose left sides are expressions, a name or
 * a named subexpression of counters N_x(i) (segc_setting_where): lhs[i]
 * is defined as rhs[i].  A call on a left side is typeset as a name when
 * 'ln' declares its spelling. */
SEGC_API SEGC_GIVE char *segc_latex_where_exprs(SEGC_KEEP segc_expr *const *lhs,
	SEGC_KEEP segc_expr *const *rhs, size_t n,
	SEGC_KEEP const segc_latex_names *ln);
/* 'document' with those definitions after its equations, as
 * segc_latex_document_where does, a value too wide for a text of
 * 'width' points broken into lines. */
SEGC_API SEGC_GIVE char *segc_latex_document_where_exprs(const char *document,
	SEGC_KEEP segc_expr *const *lhs, SEGC_KEEP segc_expr *const *rhs,
	size_t n, SEGC_KEEP const segc_latex_names *ln, double width);
/* 'document' (from segc_latex_document) with the same definitions as an
 * align* block after its equations, introduced by "where". */
SEGC_API SEGC_GIVE char *segc_latex_document_where(
	SEGC_KEEP const char *document, const char *const *names,
	segc_expr *const *values, size_t n,
	SEGC_KEEP const segc_latex_names *ln);

/* The same for a text 'width' points wide (segc_latex_document() uses
 * SEGC_LATEX_TEXT_WIDTH, the article class's 345pt); 0 keeps every
 * equation on one line. */
#define SEGC_LATEX_TEXT_WIDTH 345.0
SEGC_API SEGC_GIVE char *segc_latex_document_width(
	SEGC_KEEP const char *title, SEGC_KEEP const char *description,
	SEGC_KEEP segc_expr *const formulas[4],
	SEGC_KEEP const segc_latex_names *names, double width);

#ifdef __cplusplus
}
#endif

#endif
