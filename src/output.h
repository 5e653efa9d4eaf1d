/* output.h - private interface of the outputs built on a derived formula:
 * LaTeX (latex.c), the evaluation plan of an emitted predictor (plan.c),
 * the emitted C (emit.c), evaluation with MPFR (evalmp.c) and SVG plots
 * (svg.c).  The ownership rule of segc.h applies.  None of these prints:
 * each returns text (malloc'd) or fills a structure. */
#ifndef SEGC_OUTPUT_H
#define SEGC_OUTPUT_H

#include <stddef.h>
#include <mpfr.h>
#include "segc.h"
#include "segc_model.h"
#include "util.h"

/* ------------------------------------------------------------- LaTeX */

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
void segc_latex_names_clear(segc_latex_names *n);

/* 'e' as LaTeX math (no surrounding $), on one line.  'names' may be
 * NULL. */
char *segc_latex_expr(SEGC_KEEP const segc_expr *e,
	const segc_latex_names *names);

/* The same, broken between the terms of the outermost sum into lines of
 * at most about 'width' characters of source, separated by "\\\n", for a
 * multline environment.  '*nlines' receives the number of lines. */
char *segc_latex_expr_lines(SEGC_KEEP const segc_expr *e,
	const segc_latex_names *names, size_t width, size_t *nlines);

/* Free text (a description, a model name) escaped for LaTeX text mode:
 * every special character replaced, non-ASCII characters kept only when
 * LaTeX's utf8 input typesets them, others written as U+XXXX. */
char *segc_latex_escape_text(const char *text);

/* A complete LaTeX document: title 'title', paragraph 'description' (may
 * be NULL), one equation per non-NULL formula of 'formulas' (indexed by
 * enum segc_component; NULL or zero ones are left out). */
char *segc_latex_document(const char *title, const char *description,
	segc_expr *const formulas[4], const segc_latex_names *names);

/* ---------------------------------------------------- evaluation plan */

enum segc_plan_op {
	SEGC_OP_CONST,  /* 'value' (and the exact 'q') */
	SEGC_OP_ARG,    /* argument number 'a' */
	SEGC_OP_ADD, SEGC_OP_SUB, SEGC_OP_MUL, SEGC_OP_DIV,
	SEGC_OP_NEG,    /* -a */
	SEGC_OP_CEIL, SEGC_OP_FLOOR, SEGC_OP_SQRT, SEGC_OP_LOG2,
	SEGC_OP_FMAX, SEGC_OP_FMIN
};

/* One instruction: the value number it defines is its index. */
typedef struct segc_plan_insn {
	enum segc_plan_op op;
	size_t a, b;        /* operands: earlier instruction indices */
	double value;       /* CONST: the correctly rounded double */
	mpq_t q;            /* CONST: the exact rational */
	unsigned uses;      /* uses by live instructions (0: dead, not printed) */
} segc_plan_insn;

/* The straight-line program computing one formula from its arguments;
 * each value is computed once (value numbering). */
typedef struct segc_plan {
	size_t n, cap;
	segc_plan_insn *insn;
	size_t result;
	size_t nargs;
	char **args;         /* argument names, in order */
	unsigned long flops; /* live + - * / and calls */
	void *memo;          /* private */
} segc_plan;

/* Builds the plan of 'e' (a canonical form), whose free names must all be
 * among 'args'.  Records an error (SEGC_ERR_INPUT) naming every other
 * symbol and every uninterpreted call, a SEGC_ERR_LIMIT for a coefficient
 * out of the range of double; returns NULL then.  'where' locates errors. */
SEGC_GIVE segc_plan *segc_plan_build(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_expr *e, size_t nargs, const char *const *args,
	const segc_where *where);
void segc_plan_free(SEGC_TAKE segc_plan *p);

/* The correctly rounded double of 'q' (round to nearest, subnormals
 * included).  Returns 0, or -1 when it overflows. */
int segc_plan_round(double *out, mpq_srcptr q);

/* -------------------------------------------------------- emitted C */

/* Templates, the ones compiled in or read from a directory. */
typedef struct segc_templates {
	char *c_file;    /* predictor.c.in */
	char *h_file;    /* predictor.h.in */
	char *main_part; /* main.c.in */
	char *dd_part;   /* dd.c.in: double-double helpers (--accurate) */
} segc_templates;

/* The compiled-in templates (copies). */
int segc_templates_builtin(segc_templates *t);
/* Reads predictor.c.in, predictor.h.in, main.c.in and dd.c.in from 'dir'.  Records
 * an error and returns -1 when one cannot be read. */
int segc_templates_read(SEGC_KEEP segc_ctx *ctx, segc_templates *t,
	const char *dir);
void segc_templates_clear(segc_templates *t);

/* What to emit. */
typedef struct segc_emit_input {
	const char *model_name;   /* sanitised into the C prefix */
	const char *description;  /* may be NULL */
	const char *base;         /* the file base (header name: base.h) */
	size_t nargs;
	const char *const *args;  /* N, P, then the kept names */
	segc_expr *formulas[4];   /* by enum segc_component; NULL: none */
	int with_main;
	int accurate;             /* double-double arithmetic */
} segc_emit_input;

/* Renders the C file and the header.  NULL-safe outputs: both set on
 * success (0); -1 with diagnostics otherwise. */
int segc_emit_render(SEGC_KEEP segc_ctx *ctx, const segc_templates *t,
	const segc_emit_input *in, const segc_where *where,
	char **c_text, char **h_text);

/* 'name' made a C identifier that is not a keyword nor reserved
 * (malloc'd). */
char *segc_emit_identifier(const char *name);

/* Replaces every @NAME@ of 'tmpl' by the value of that key; an unknown
 * placeholder is an error (recorded; NULL returned). */
char *segc_template_fill(SEGC_KEEP segc_ctx *ctx, const char *tmpl,
	const char *tmpl_name, size_t nkeys, const char *const *keys,
	const char *const *values);

/* ------------------------------------------------ MPFR evaluation */

/* A point: names and their exact values. */
typedef struct segc_point {
	size_t n;
	const char *const *names;
	const mpq_t *values;
} segc_point;

/* Evaluates 'e' at 'pt' to 'out' (whose precision is used): rational
 * subexpressions exactly, log2/sqrt of non-squares with MPFR, the result
 * correctly rounded when the value is rational.  An unbound name, an
 * uninterpreted call, a division by zero, a log2/sqrt out of domain: an
 * error recorded (naming it) and -1 returned. */
int segc_eval_mpfr(SEGC_KEEP segc_ctx *ctx, mpfr_t out,
	SEGC_KEEP const segc_expr *e, const segc_point *pt,
	const segc_where *where);

/* The free names of 'e' (or, when 'calls' is non-zero, the names of its
 * uninterpreted calls): sorted, distinct; a malloc'd array (NULL when
 * empty) of strings borrowed from 'e'.  Returns how many. */
size_t segc_output_names(SEGC_KEEP const segc_expr *e, int calls,
	const char ***out);

/* ------------------------------------------------------------ SVG */

typedef struct segc_svg_series {
	const char *label;
	size_t n;
	const double *x, *y;
} segc_svg_series;

/* A log-log plot of the series (non-positive points left out): axes,
 * decade ticks and labels, one polyline per series, a legend.  Text is
 * escaped.  Returns NULL when no point is plottable. */
char *segc_svg_loglog(const char *title, const char *xlabel,
	const char *ylabel, size_t nseries, const segc_svg_series *series);

#endif
