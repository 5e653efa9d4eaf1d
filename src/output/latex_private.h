/* latex_private.h - what the LaTeX printer (latex.c: operators and layout)
 * takes from latex_atoms.c (names and numbers). */
#ifndef SEGC_LATEX_PRIVATE_H
#define SEGC_LATEX_PRIVATE_H

#include "output/output.h"

/* Appends the 'n' bytes at 's' with underscores escaped. */
void segc_latex_put_escaped_name(segc_strbuf *b, const char *s, size_t n);

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

#endif
