/* plan_private.h - what the pieces of the predictors' plan builder share.
 * The formula is compiled once into the evaluation plan that every
 * evaluator runs (evalmp_plan.h: its operations on numbered slots, names
 * resolved, shared nodes found); the predictors' plan of double
 * operations is that plan lowered, slot by slot as the result needs them
 * (plan.c: value numbering, blocks and the dispatch over the operations;
 * plan_poly.c: sums and products by Horner's rule; plan_call.c:
 * conditions, if, loops and the other built-in operations; emit_maxplus.c
 * and plan_taskpath.c: the graph atoms). */
#ifndef SEGC_PLAN_PRIVATE_H
#define SEGC_PLAN_PRIVATE_H

#include "output/output.h"
#include "output/evalmp_plan.h"
#include "expr/expr_private.h"
#include "graph/taskpath.h"

/* The state of one plan build. */
typedef struct segc_plan_builder {
	segc_ctx *ctx;
	const segc_where *where;
	segc_plan *p;
	const segc_eplan *ep;      /* the evaluation plan being lowered */
	const segc_eplan_ins **def; /* per slot: the operation setting it */
	size_t *val;               /* per slot: its value number + 1, 0 */
	size_t cur;                /* the block being filled */
	size_t capblocks;
	unsigned char *open;       /* per block: still being filled */
	int failed;
} segc_plan_builder;

/* Appends the instruction (op, a, b) to the block being filled; returns
 * its value number. */
size_t segc_plan_new_insn(segc_plan_builder *bd, enum segc_plan_op op,
	size_t a, size_t b);

/* The value number of (op, a, b), computed once where it can be used. */
size_t segc_plan_emit_op(segc_plan_builder *bd, enum segc_plan_op op,
	size_t a, size_t b);

/* The value number of the constant 'q' rounded in direction 'dir' (0 to
 * nearest, 1 up, -1 down). */
size_t segc_plan_emit_const_dir(segc_plan_builder *bd, mpq_srcptr q,
	int dir);

/* The value number of the constant 'q' rounded to nearest. */
size_t segc_plan_emit_const(segc_plan_builder *bd, mpq_srcptr q);

/* The value number of the integer constant 'v'. */
size_t segc_plan_emit_const_si(segc_plan_builder *bd, long v);

/* a + b, with additions of 0 left out. */
size_t segc_plan_emit_add(segc_plan_builder *bd, size_t a, size_t b);

/* a * b, with multiplications by 1 left out. */
size_t segc_plan_emit_mul(segc_plan_builder *bd, size_t a, size_t b);

/* Opens a block of 'kind' inside the one being filled, and fills it. */
size_t segc_plan_block_open(segc_plan_builder *bd,
	enum segc_plan_block_kind kind);

/* Closes the block being filled; the enclosing one is filled again. */
void segc_plan_block_close(segc_plan_builder *bd);

/* Records an error (format 'fmt' with 'name') and fails the build;
 * returns -1. */
int segc_plan_fail(segc_plan_builder *bd, const char *fmt, const char *name);

/* The value number of slot 's' of the evaluation plan, lowered where
 * the block being filled can use it (once: a value still visible is
 * found again); 0, or -1 with an error recorded. */
int segc_plan_slot(segc_plan_builder *bd, size_t s, size_t *out);

/* The operation that sets slot 's' (NULL for a constant, a name of the
 * point or a counter). */
const segc_eplan_ins *segc_plan_def(const segc_plan_builder *bd, size_t s);

/* The operation 'op' setting slot 's', or NULL when another sets it; with
 * 'hoisted', only a part the plan split off a sum or product to hoist it
 * out of a loop (an operation of no node of its own), whose terms or
 * factors are those of the sum or product it was split from. */
const segc_eplan_ins *segc_plan_def_op(const segc_plan_builder *bd,
	size_t s, enum segc_eplan_op op, int hoisted);

/* The index among the arguments of the name of the point slot 's' holds,
 * or SIZE_MAX when 's' is not one. */
size_t segc_plan_arg_index(const segc_plan_builder *bd, size_t s);

/* The number slot 's' holds when it is a constant, else NULL. */
mpq_srcptr segc_plan_slot_num(const segc_plan_builder *bd, size_t s);

/* Binds the counter slot 's' of a loop to the COUNTER instruction 'v'
 * while its body is lowered. */
void segc_plan_bind(segc_plan_builder *bd, size_t s, size_t v);

/* Lowers the sum, product or power 'in' by Horner's rule (plan_poly.c). */
int segc_plan_poly(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out);

/* Non-zero when 'in' is x^(p/q), a power to a rational exponent that is
 * not an integer (plan_poly.c). */
int segc_plan_is_root_pow(const segc_plan_builder *bd,
	const segc_eplan_ins *in);

/* Lowers x^(p/q), a power to a rational exponent that is not an integer
 * (the operation 'in'), as the root of index q (sqrt of sqrt ... for the
 * factors 2 of q, then one ROOT for the rest) to the power p
 * (plan_poly.c). */
int segc_plan_root_pow(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out);

/* Lowers a built-in operation 'in' (plan_call.c): extrema, functions of
 * one number, mva_mem, if() and sums; a condition where a number is
 * expected, or an operation that fails, is an error. */
int segc_plan_call(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out);

/* Lowers the recurrence 'in' (maxplus(...) or maxplusv(i, ...)) as one
 * MAXPLUS instruction over its count and costs; the costs of maxplusv in
 * a loop block of their own, computed in each iteration (emit_maxplus.c). */
int segc_plan_recurrence(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out);

/* Counts the uses of the costs of the live MAXPLUS 'in' of 'p'. */
void segc_plan_maxplus_uses(segc_plan *p, const segc_plan_insn *in);

/* Releases the graph of a MAXPLUS (NULL: nothing). */
void segc_plan_maxplus_free(segc_plan_maxplus *mp);

/* The structure of a TASKPATH instruction (plan_taskpath.c): the atom
 * decoded (algebra/taskpath.h), the integer of every argument that is
 * not a value pushed by a program ('code'), the value number of every
 * one that is ('val', SIZE_MAX elsewhere), and the node kinds in an
 * order in which every arc between two different kinds goes forward;
 * when the arcs make a cycle among kinds ('by_instance'), no such order
 * exists and the predictor orders the instances themselves at run time
 * ('order' then lists the kinds as they come). */
struct segc_plan_taskpath {
	segc_tp t;
	size_t nargs;
	long *code;
	size_t *val;
	size_t *order;
	int by_instance;
};

/* Lowers the longest path 'in' (taskpath(...)) of a task graph with
 * indexed nodes as one TASKPATH instruction; the values its programs
 * push are lowered before it like any other (plan_taskpath.c). */
int segc_plan_taskpath(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out);

/* Counts the uses of the pushed values of the live TASKPATH 'in'. */
void segc_plan_taskpath_uses(segc_plan *p, const segc_plan_insn *in);

/* Releases the structure of a TASKPATH (NULL: nothing). */
void segc_plan_taskpath_free(struct segc_plan_taskpath *tp);

#endif
