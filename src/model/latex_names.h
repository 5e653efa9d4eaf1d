/* latex_names.h - the 'latex' attributes of a model's names, checked
 * against the safe subset of doc/latex.md (latex_names.c).  Private to
 * the library; the output stage typesets with them. */
#ifndef SEGC_LATEX_NAMES_H
#define SEGC_LATEX_NAMES_H

#include "model/model.h"

/* How names are typeset: 'latex'[i] (already checked by
 * segc_latex_attr_check) for 'names'[i]; other names from their spelling. */
typedef struct segc_latex_names {
	size_t n;
	const char *const *names;
	const char *const *latex;
} segc_latex_names;

/* Checks a 'latex' attribute against the safe subset of doc/latex.md:
 * 0 when safe; else records an error at 'where' naming 'owner' and the
 * offending text, and returns -1. */
int segc_latex_attr_check(SEGC_KEEP segc_ctx *ctx, const char *latex,
	const char *owner, const segc_where *where);

/* The 'latex' spellings of the parameters and resources of 'm', each
 * checked with segc_latex_attr_check(); -1 (errors recorded) when one is
 * unsafe.  The strings are borrowed from 'm'. */
int segc_latex_names_of_model(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_model *m, segc_latex_names *out);
/* Releases the arrays of 'n' (not the strings: the model owns them). */
void segc_latex_names_clear(segc_latex_names *n);

#endif
