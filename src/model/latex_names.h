/* latex_names.h - the 'latex' attributes of a model's names, checked
 * against the safe subset of doc/latex.md (latex_names.c).  Private to
 * the library; the output stage typesets with them.  The record of
 * names and segc_latex_names_of_model() are public (<segc/latex.h>). */
#ifndef SEGC_LATEX_NAMES_H
#define SEGC_LATEX_NAMES_H

#include <segc/latex.h>
#include "model/model.h"

/* Checks a 'latex' attribute against the safe subset of doc/latex.md:
 * 0 when safe; else records an error at 'where' naming 'owner' and the
 * offending text, and returns -1. */
int segc_latex_attr_check(SEGC_KEEP segc_ctx *ctx, const char *latex,
	const char *owner, const segc_where *where);

#endif
