/* output.h - private interface of the outputs built on a derived formula:
 * LaTeX (latex.c), the evaluation plan of an emitted predictor (plan.c),
 * the emitted C (emit.c), evaluation with MPFR (evalmp.c) and SVG plots
 * (svg.c).  The ownership rule of segc.h applies.  None of these prints:
 * each returns text (malloc'd) or fills a structure. */
#ifndef SEGC_OUTPUT_H
#define SEGC_OUTPUT_H

#include <stddef.h>
#include <mpfr.h>
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "base/util.h"
#include "model/latex_names.h"

/* ------------------------------------------------------------- LaTeX */

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
	SEGC_OP_FMAX, SEGC_OP_FMIN,
	/* Conditions (1 or 0): a < b, a <= b, a > b, a >= b, a == b, a != b
	 * (false when either is NaN, except !=), !a. */
	SEGC_OP_LT, SEGC_OP_LE, SEGC_OP_GT, SEGC_OP_GE, SEGC_OP_EQ, SEGC_OP_NE,
	SEGC_OP_NOT,
	/* a && b, a || b: block sub[0] (computing b) runs only when a does
	 * not decide. */
	SEGC_OP_AND, SEGC_OP_OR,
	/* a ? b : c: block sub[0] computes b, block sub[1] computes c; only
	 * the one chosen runs. */
	SEGC_OP_SELECT,
	/* The counter of a loop: an integer held in a double, defined by the
	 * SUM that owns the block it lies in. */
	SEGC_OP_COUNTER,
	/* The sum of c over the counter 'counter' = a, a + 1, ... while it
	 * is <= b (a is an integer; nothing when a > b): block sub[0], the
	 * body, runs once per value.  NaN when a or b is NaN or the loop
	 * would count beyond 2^53. */
	SEGC_OP_SUM
};

/* Where an instruction is computed: the function's body (block 0), a
 * branch of a SELECT, the right operand of AND/OR, or a loop body. */
enum segc_plan_block_kind {
	SEGC_PLAN_BODY, SEGC_PLAN_BRANCH, SEGC_PLAN_LOOP
};

/* A block: its instructions lie among the indices [first, end), with
 * those of the blocks nested in it and some of its ancestors' (hoisted). */
typedef struct segc_plan_block {
	enum segc_plan_block_kind kind;
	size_t parent;      /* the enclosing block (0 for block 0) */
	size_t first, end;
} segc_plan_block;

/* One instruction: the value number it defines is its index.  Its
 * operands come before it, in its block or an enclosing one. */
typedef struct segc_plan_insn {
	enum segc_plan_op op;
	size_t a, b, c;     /* operands: earlier instruction indices */
	size_t block;       /* the block it is computed in */
	size_t sub[2];      /* AND, OR, SELECT, SUM: the blocks it owns */
	size_t counter;     /* SUM: its COUNTER instruction */
	double value;       /* CONST: the rounded double */
	int rounding;       /* CONST: 0 to nearest, 1 up, -1 down (a bound of
			       a comparison with an exact value) */
	mpq_t q;            /* CONST: the exact rational */
	unsigned uses;      /* uses by live instructions (0: dead, not printed) */
} segc_plan_insn;

/* The program computing one formula from its arguments, straight-line
 * but for its blocks; each value is computed once (value numbering). */
typedef struct segc_plan {
	size_t n, cap;
	segc_plan_insn *insn;
	size_t nblocks;
	segc_plan_block *blocks;  /* blocks[0]: the function's body */
	size_t result;
	size_t nargs;
	char **args;         /* argument names, in order */
	unsigned long flops; /* live operations, calls and comparisons */
	void *memo;          /* private */
} segc_plan;

/* The number of operands (a, b, c) instruction 'in' reads. */
unsigned segc_plan_noperands(const segc_plan_insn *in);

/* Non-zero when instruction 'in' computes a condition (1 or 0) rather
 * than a number. */
int segc_plan_is_condition(const segc_plan_insn *in);

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
	const char *model_name;   /* for the comments; and the C prefix
	                           * when 'prefix' is NULL */
	const char *prefix;       /* sanitised into the C prefix; may be NULL */
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
