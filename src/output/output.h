/* output.h - private interface of the outputs built on a derived formula:
 * the evaluation plan of an emitted predictor (plan.c, plan_poly.c,
 * plan_call.c) and the template filler (templates.c).  What users call,
 * LaTeX (latex.c), the emitted C and Python (emit.c, emit_python.c),
 * evaluation with MPFR (evalmp.c) and SVG plots (svg.c), is declared in
 * the public headers included here.  The ownership rule of segc.h
 * applies.  None of these prints: each returns text (malloc'd) or fills
 * a structure. */
#ifndef SEGC_OUTPUT_H
#define SEGC_OUTPUT_H

#include <stddef.h>
#include <mpfr.h>
#include <segc/segc.h>
#include <segc/segc_model.h>
#include <segc/latex.h>
#include <segc/emit.h>
#include <segc/eval.h>
#include <segc/plot.h>
#include "base/util.h"
#include "model/latex_names.h"

/* ---------------------------------------------------- evaluation plan */

enum segc_plan_op {
	SEGC_OP_CONST,  /* 'value' (and the exact 'q') */
	SEGC_OP_ARG,    /* argument number 'a' */
	SEGC_OP_ADD, SEGC_OP_SUB, SEGC_OP_MUL, SEGC_OP_DIV,
	SEGC_OP_NEG,    /* -a */
	SEGC_OP_CEIL, SEGC_OP_FLOOR, SEGC_OP_SQRT, SEGC_OP_LOG2, SEGC_OP_EXP2,
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
	SEGC_OP_SUM,
	/* The recurrence of an overlapped loop (the atom maxplus(...)): a is
	 * its count, 'mp' its graph and the values of its costs; printed as
	 * the loop of its time stamps (emit_maxplus.c). */
	SEGC_OP_MAXPLUS,
	/* The root a^(1/b) of a >= 0 of index b >= 3 ('b' is the index, not
	 * an operand): cbrt(a) for b = 3, else pow(a, 1.0/b). */
	SEGC_OP_ROOT,
	/* The longest path of a task graph with indexed nodes (the atom
	 * taskpath(...)): 'tp' its structure and the values its programs
	 * push; printed as loops over the instances (emit_taskpath.c). */
	SEGC_OP_TASKPATH
};

/* The graph of a MAXPLUS instruction: m nodes in topological order (the
 * last the exit), k arcs u -> v of distance d (0 inside an iteration),
 * as in the atom; 'val' the value numbers of the m node costs, then of
 * the k arc costs (SIZE_MAX for a cost 0). */
typedef struct segc_plan_maxplus {
	size_t m, k;
	unsigned long D;          /* max(1, largest distance) */
	size_t *from, *to;        /* k, nodes from 0 */
	unsigned long *dist;      /* k */
	unsigned char *state;     /* m: 2 a forward arc leaves it, 1 exit */
	int carried;              /* some forward arc */
	size_t *val;              /* m + k */
	int varying;              /* maxplusv: the costs are computed in
	                           * block 'sub[0]' of the instruction in each
	                           * iteration, its counter 'counter' */
} segc_plan_maxplus;

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
	segc_plan_maxplus *mp; /* MAXPLUS: its graph and costs (owned) */
	struct segc_plan_taskpath *tp; /* TASKPATH: its structure (owned) */
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
 * among 'args': the evaluation plan that the evaluators run (compiled for
 * the names 'args'), lowered to double operations.  Records an error
 * (SEGC_ERR_INPUT) naming a symbol not among them or an uninterpreted
 * call, a SEGC_ERR_LIMIT for a coefficient out of the range of double or
 * a formula nested too deeply; returns NULL then.  'where' locates
 * errors. */
SEGC_GIVE segc_plan *segc_plan_build(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_expr *e, size_t nargs, const char *const *args,
	const segc_where *where);
void segc_plan_free(SEGC_TAKE segc_plan *p);
/* Non-zero when a value of 'p' that is used is computed by 'op'. */
int segc_plan_uses_op(const segc_plan *p, enum segc_plan_op op);

/* A bound on the relative error of the result of 'p' in units of 2^-53,
 * to first order (plan_bound.c), for exact arguments, argument k an
 * integer when integer[k] (NULL: none known) and in [lo[k], hi[k]] (NULL:
 * nothing known): NULL with the bound in '*out', or a phrase saying why
 * no bound holds.  '*bits' is set to 0 when the bound holds over those
 * domains, else to the k such that it holds for integer arguments of
 * magnitude below 2^k (plan_bound.c says how k is chosen). */
const char *segc_plan_error_bound(const segc_plan *p,
	const unsigned char *integer, const double *lo, const double *hi,
	unsigned long *out, int *bits);

/* The correctly rounded double of 'q' (round to nearest, subnormals
 * included).  Returns 0, or -1 when it overflows. */
int segc_plan_round(double *out, mpq_srcptr q);

/* -------------------------------------------------------- emitted C */

/* Replaces every @NAME@ of 'tmpl' by the value of that key; an unknown
 * placeholder is an error (recorded; NULL returned). */
char *segc_template_fill(SEGC_KEEP segc_ctx *ctx, const char *tmpl,
	const char *tmpl_name, size_t nkeys, const char *const *keys,
	const char *const *values);

/* Checks that the templates 't' read from a directory hold what the
 * predictor of 'in' needs (of the Python module with 'python'): the
 * version of dd.c.in with --accurate, the placeholders where the code
 * goes.  0, else -1 with an error at the template (the compiled-in ones
 * always pass). */
int segc_templates_check(SEGC_KEEP segc_ctx *ctx, const segc_templates *t,
	const segc_emit_input *in, int python);

#endif
