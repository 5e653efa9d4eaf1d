/* latex_private.h - what the LaTeX printer (latex.c: operators) takes from
 * latex_atoms.c (names and numbers) and from latex_break.c (the layout:
 * delimiter sizes, fractions, line breaking).
 *
 * latex.c writes LaTeX with marks in it, control bytes that no name,
 * number or 'latex' attribute can contain: a container is LX_START, its
 * kind, its cells separated by LX_SEP, then LX_END; a place where a line
 * may break is LX_BREAK and its class.  latex_break.c reads the marks and
 * writes the final LaTeX, on one line or broken. */
#ifndef SEGC_LATEX_PRIVATE_H
#define SEGC_LATEX_PRIVATE_H

#include "output/output.h"

/* Appends the 'n' bytes at 's' with underscores escaped. */
void segc_latex_put_escaped_name(segc_strbuf *b, const char *s, size_t n);

/* The spelling 'names' declares for 'name' (a parameter's latex
 * attribute, or a named subexpression's), or NULL. */
const char *segc_latex_declared(const segc_latex_names *names,
	const char *name);

/* Appends the name 'name': its declared spelling, else typeset from its
 * spelling (symbol, subscripts, Greek letters). */
void segc_latex_put_symbol(segc_strbuf *b, const char *name,
	const segc_latex_names *names);

/* Non-zero when 'name' typesets as one letter (for juxtaposition). */
int segc_latex_is_letter_symbol(const char *name,
	const segc_latex_names *names);

/* Appends the non-negative, non-integer 'q' as a decimal when it reads
 * best as one and returns 1; else appends nothing and returns 0. */
int segc_latex_put_decimal(segc_strbuf *b, mpq_srcptr q);

/* Appends |q|: an integer, a decimal, or \frac. */
void segc_latex_put_abs_number(segc_strbuf *b, mpq_srcptr q);

/* Appends the recurrence maxplus(...) 'e' as t_m(n) and the aligned
 * recurrence of its nodes; -1, nothing appended, when 'e' is malformed
 * (latex_maxplus.c). */
int segc_latex_maxplus(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names);
/* Appends the longest path taskpath(...) 'e' of indexed nodes with the
 * aligned list of its nodes and arcs; -1, nothing appended, when 'e' is
 * malformed (latex_taskpath.c). */
int segc_latex_taskpath(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names);
/* The same as the rows of an align (lines separated by "\\\\\n", no
 * environment): 'lhs' = longest(...) where: on the first row, then one
 * row a node (its ranges on the next row) and one an arc, a long cost
 * broken over rows to fit 'width' points (0: not broken). */
int segc_latex_taskpath_rows(segc_strbuf *b, const char *lhs,
	const segc_expr *e, const segc_latex_names *names, double width);

/* Appends the rows of a split (no environment) for 'lhs' = the
 * recurrence maxplus(...) or maxplusv(...) 'e': t_m(n) on the first row,
 * then one row a node, each node's cost broken into lines of at most
 * 'width' points; -1, nothing appended, when 'e' is malformed
 * (latex_maxplus.c). */
int segc_latex_maxplus_split(segc_strbuf *b, const char *lhs,
	const segc_expr *e, const segc_latex_names *names, double width);

/* The marks. */
#define LX_START '\001'
#define LX_END '\002'
#define LX_SEP '\003'
#define LX_BREAK '\004'

/* Kinds of containers. */
#define LX_PAREN '('      /* ( ), may span lines */
#define LX_BRACE '{'      /* \{ \} of max and min, may span lines */
#define LX_CEIL 'c'       /* ceiling brackets, may span lines */
#define LX_FLOOR 'f'      /* floor brackets, may span lines */
#define LX_FRAC '/'       /* numerator, denominator */
#define LX_SCRIPT 's'     /* an exponent: script size, fractions as a/b */
#define LX_KEEP 'k'       /* kept on one line */
#define LX_ARG 'a'        /* an argument: its own breaks count as deeper */
#define LX_CASES 'C'      /* value, condition, value, condition, ... */
#define LX_SUMOP 'S'      /* \sum: lower limit, upper limit */

/* Classes of breaks, best first. */
#define LX_BREAK_SUM 's'      /* before the sign of a term */
#define LX_BREAK_ARG 'a'      /* after the comma between arguments */
#define LX_BREAK_PRODUCT 'p'  /* between factors (\cdot on the new line) */

/* Appends the start of a container of kind 'kind'. */
void segc_latex_open(segc_strbuf *b, char kind);

/* Appends a place where a line may break, of class 'cls'. */
void segc_latex_put_break(segc_strbuf *b, char cls);

/* The marked LaTeX 'm' on one line. */
char *segc_latex_layout_line(const char *m);

/* The marked LaTeX 'm' broken into lines of at most 'width' points, the
 * first line already holding 'first' points; the number of lines in
 * '*nlines'. */
char *segc_latex_layout_lines(const char *m, double width, double first,
	size_t *nlines);

/* The expression 'e' broken into lines of at most 'width' points, the
 * first one already holding 'first' points (see latex.c). */
char *segc_latex_expr_lines_after(const segc_expr *e,
	const segc_latex_names *names, double width, double first,
	size_t *nlines);

/* The estimated width in points of the marked LaTeX math 's' in display
 * style (latex_break.c). */
double segc_latex_width(const char *s);

/* The estimated width in points of the 'n' bytes of LaTeX math at 's' (no
 * marks), at 'scale' times 10pt, in a script when 'script' (binary
 * operators without their spaces) (latex_measure.c). */
double segc_latex_width_n(const char *s, size_t n, double scale,
	int script);

#endif
