/* builtin.h - the built-in functions of the expression language
 * (FORMAT.md section 2) in one table: their names, arities, kinds and
 * how each output typesets, emits and evaluates them.  A call node keeps
 * the id of its name (segc_expr_builtin), so that the modules switch on
 * the id and never compare names.  A function of numbers carries its
 * exact operation here (builtin_exact.c); its operations over MPFR
 * values, balls and doubles are its entry in output/evalops.c.  Private
 * to the library. */
#ifndef SEGC_EXPR_BUILTIN_H
#define SEGC_EXPR_BUILTIN_H

#include <stddef.h>
#include <segc/segc.h>

/* The built-ins; SEGC_BUILTIN_NONE for any other name (a function of the
 * model or machine, or an uninterpreted one). */
enum segc_builtin {
	SEGC_BUILTIN_NONE = 0,
	SEGC_BUILTIN_MAX, SEGC_BUILTIN_MIN,
	SEGC_BUILTIN_CEIL, SEGC_BUILTIN_FLOOR,
	SEGC_BUILTIN_LOG2, SEGC_BUILTIN_SQRT,
	SEGC_BUILTIN_SUM, SEGC_BUILTIN_MVA_MEM, SEGC_BUILTIN_IF,
	SEGC_BUILTIN_LT, SEGC_BUILTIN_LE, SEGC_BUILTIN_GT, SEGC_BUILTIN_GE,
	SEGC_BUILTIN_EQ, SEGC_BUILTIN_NE,
	SEGC_BUILTIN_AND, SEGC_BUILTIN_OR, SEGC_BUILTIN_NOT,
	SEGC_BUILTIN_MAXPLUS, SEGC_BUILTIN_MAXPLUSV,
	SEGC_BUILTIN_TASKPATH,
	SEGC_BUILTIN_LOG, SEGC_BUILTIN_EXP2,
	SEGC_BUILTIN_COUNT
};

/* What a built-in is. */
enum segc_builtin_kind {
	SEGC_BUILTIN_FUNCTION,     /* a number from numbers */
	SEGC_BUILTIN_BINDER,       /* sum(i, lo, hi, body): binds its first */
	SEGC_BUILTIN_CONDITIONAL,  /* if(c, a, b) */
	SEGC_BUILTIN_RELATION,     /* a comparison of two values */
	SEGC_BUILTIN_LOGIC,        /* and/or/not of conditions */
	SEGC_BUILTIN_RECURRENCE    /* maxplus(...), maxplusv(i, ...): made by
	                            * the reduction of overlapped loops, not
	                            * written in models */
};

/* The shape of a built-in's evaluation, which tells the evaluators
 * (exact, interval, MPFR, balls, doubles) how to reach its operation,
 * and the operation of the evaluation plan that the predictors lower;
 * none of them tells built-ins apart by their ids. */
enum segc_builtin_eval {
	SEGC_EVAL_NONE,        /* not a built-in: uninterpreted */
	SEGC_EVAL_EXTREMUM,    /* max (dir 1) or min (dir -1) of the
	                        * arguments */
	SEGC_EVAL_ROUND,       /* ceil (dir 1) or floor (dir -1): an integer
	                        * part, decided exactly also of an irrational
	                        * argument */
	SEGC_EVAL_UNARY,       /* a function of one number: its row's exact
	                        * operation and its entry in output/evalops.c */
	SEGC_EVAL_SUM,         /* the sum over the integers of a range */
	SEGC_EVAL_MVA,         /* the mean-value recurrence of mva_mem */
	SEGC_EVAL_SELECT,      /* one of two values after a condition */
	SEGC_EVAL_COMPARE,     /* truth of a comparison */
	SEGC_EVAL_LOGIC,       /* truth of and/or/not */
	SEGC_EVAL_MAXPLUS,     /* propagation of a max-plus system */
	SEGC_EVAL_TASKPATH     /* longest path over indexed instances */
};

/* Where the value of a one-argument built-in is defined, for the
 * evaluators' refusals and the sign rules. */
enum segc_builtin_domain {
	SEGC_DOMAIN_ALL,       /* every real argument */
	SEGC_DOMAIN_POSITIVE,  /* an argument > 0 (log2) */
	SEGC_DOMAIN_NONNEG     /* an argument >= 0 (sqrt) */
};

/* The irrational numbers the exact evaluators take integer parts of
 * (algebra/eval/intpart.c) and the witness search bounds by directed
 * roundings: the value of a built-in of one argument as one of them. */
enum segc_builtin_irr {
	SEGC_IRR_NONE,         /* none: exact only where rational */
	SEGC_IRR_SQRT,         /* the square root of its argument */
	SEGC_IRR_LOG2          /* the logarithm to base 2 */
};

/* A built-in defined by others: builds the call's meaning from its
 * 'n' arguments (a number the row's arity allows), taking them.  The
 * parser applies it where it reads the call, so that no later stage
 * meets the name (see builtin.c for each such row). */
typedef segc_expr *(*segc_builtin_expand_fn)(size_t n, segc_expr **args);

struct segc_builtin_info;

/* The exact operation of a built-in function of numbers: its value at
 * the 'n' rationals 'v' into 'r' (not one of 'v'), 0; -1 when the value
 * is not rational (log2(3)), outside the domain or 'n' does not suit;
 * -2 when it would exceed a bound of the work (a power too large). */
typedef int (*segc_builtin_exact_fn)(const struct segc_builtin_info *b,
	mpq_t r, const mpq_t *v, size_t n);

/* One row of the table.  'max_args' 0: no most (variadic).  'latex' is
 * the opening of its LaTeX notation and 'latex_close' the closing (NULL
 * when latex.c typesets it otherwise).  The function the emitted
 * predictors call, in each language: 'c' in C, 'python' in the scalar
 * Python (the helpers of templates/predictor.py.in), 'numpy' in its
 * vectorised form, 'fortran' in Fortran (NULL when it is a construct,
 * not a call).  'expand' is NULL for a built-in that every stage knows
 * by its id; for one defined by others, every column after it is
 * unused (no stage meets the call).  'dir' tells the two built-ins of
 * one evaluation apart: 1 for max and ceil, -1 for min and floor.
 * 'holds' is the truth table of a relation: bit 0 when it holds of a
 * smaller left side, bit 1 of equal sides, bit 2 of a larger one.
 * 'irr' says which irrational it is (see segc_builtin_root).
 * 'exact' is the exact operation of a function of numbers (NULL for
 * the others). */
typedef struct segc_builtin_info {
	enum segc_builtin id;
	const char *name;
	size_t min_args, max_args;
	enum segc_builtin_kind kind;
	int input;             /* written in models (validator, binder) */
	const char *latex, *latex_close;
	const char *c, *python, *numpy, *fortran;
	enum segc_builtin_domain domain;
	enum segc_builtin_eval eval;
	int dir;
	unsigned holds;
	enum segc_builtin_irr irr;
	segc_builtin_exact_fn exact;
	segc_builtin_expand_fn expand;
} segc_builtin_info;

/* The exact operations of builtin_exact.c, named by the rows. */
int segc_builtin_exact_extremum(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);
int segc_builtin_exact_round(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);
int segc_builtin_exact_log2(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);
int segc_builtin_exact_sqrt(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);
int segc_builtin_exact_exp2(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);
int segc_builtin_exact_mva(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n);

/* The value of the function of numbers 'id' at the 'n' rationals 'v'
 * by its row's exact operation (see segc_builtin_exact_fn); -1 for a
 * built-in without one. */
int segc_builtin_exact(enum segc_builtin id, mpq_t r, const mpq_t *v,
	size_t n);

/* The irrational value of 'id' as a root: 2 for sqrt (the square
 * root), 0 for log2, -1 for a built-in of neither kind ('irr'). */
int segc_builtin_root(enum segc_builtin id);

/* The truth of the relation 'id' between two values that compare as
 * 'c' (< 0, 0, > 0): 1 or 0 by the row's truth table; -1 when 'id' is
 * not a relation. */
int segc_builtin_relation_holds(enum segc_builtin id, int c);

/* The built-in called 'name', or SEGC_BUILTIN_NONE.  For text being read
 * only (the parser, the validator, call nodes as they are made). */
enum segc_builtin segc_builtin_lookup(const char *name);

/* The row of 'id' (any value below SEGC_BUILTIN_COUNT, NONE included: a
 * row with a NULL name). */
const segc_builtin_info *segc_builtin_get(enum segc_builtin id);

/* The name of 'id' (NULL for SEGC_BUILTIN_NONE). */
const char *segc_builtin_name(enum segc_builtin id);

/* Non-zero when 'n' arguments suit 'id'. */
int segc_builtin_arity_ok(enum segc_builtin id, size_t n);

/* The built-in of the call node 'e'; SEGC_BUILTIN_NONE for a call of any
 * other name and for nodes that are not calls. */
enum segc_builtin segc_expr_builtin(SEGC_KEEP const segc_expr *e);

/* Non-zero when 'e' is a call of 'id' (of any number of arguments). */
int segc_expr_is_builtin(SEGC_KEEP const segc_expr *e, enum segc_builtin id);

/* The name that 'e' binds: the counter of sum(i, lo, hi, body) and of
 * the recurrence maxplusv(i, n, m, c_1(i), ...); NULL for other nodes. */
const char *segc_expr_binder(SEGC_KEEP const segc_expr *e);

/* Non-zero when argument 'j' of 'e' lies in the scope of the name 'e'
 * binds: the body of a sum (j = 2); the counter itself (j = 0) and the
 * node and arc costs of a maxplusv (see algebra/maxplus.h). */
int segc_expr_arg_bound(SEGC_KEEP const segc_expr *e, size_t j);

/* Non-zero when argument 'j' of a recurrence maxplus(n, m, ...) of 'm'
 * nodes is a cost (a node cost from 2, then the last of each arc's
 * four); for maxplusv, argument j + 1. */
int segc_maxplus_arg_is_cost(size_t j, size_t m);

/* The node count m of the recurrence 'e' (maxplus or maxplusv), 0 when
 * it is not a natural number. */
size_t segc_maxplus_nodes(SEGC_KEEP const segc_expr *e);

/* When 'name' is a built-in defined by others (a row with 'expand') and
 * 'n' arguments suit it: sets 'out' to the call's meaning (NULL when
 * out of memory), takes the arguments and returns 1.  Else returns 0,
 * the arguments untouched. */
int segc_builtin_expand(SEGC_GIVE segc_expr **out, const char *name,
	size_t n, SEGC_TAKE segc_expr **args);

/* The call of the built-in 'id' on 'args' (see segc_expr_call). */
SEGC_GIVE segc_expr *segc_expr_call_builtin(enum segc_builtin id, size_t n,
	SEGC_TAKE segc_expr **args);

/* The call of the built-in 'id' on the one argument 'a'. */
SEGC_GIVE segc_expr *segc_expr_call1(enum segc_builtin id,
	SEGC_TAKE segc_expr *a);

#endif
