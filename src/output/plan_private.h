/* plan_private.h - what the pieces of the plan builder share: the state of
 * one build, value numbering, blocks, and the planners of each kind of node
 * (plan.c: value numbering, blocks and the dispatch; plan_poly.c: sums and
 * products by Horner's rule; plan_call.c: conditions, if, loops and the
 * other built-in calls). */
#ifndef SEGC_PLAN_PRIVATE_H
#define SEGC_PLAN_PRIVATE_H

#include "output/output.h"
#include "expr/expr_private.h"
#include "graph/taskpath.h"

/* The state of one plan build. */
typedef struct segc_plan_builder {
	segc_ctx *ctx;
	const segc_where *where;
	segc_plan *p;
	segc_expr_map exprs;       /* node -> value number + 1 */
	size_t cur;                /* the block being filled */
	size_t capblocks;
	unsigned char *open;       /* per block: still being filled */
	size_t nbound, capbound;   /* the variables of the open loops */
	const char **bound_names;
	size_t *bound_values;      /* their COUNTER instructions */
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

/* Plans 'e' (each node once where its value can be used); its value
 * number goes to 'out'. */
int segc_plan_expr(segc_plan_builder *bd, const segc_expr *e, size_t *out);

/* Plans the sum, product or power 'e' by Horner's rule (plan_poly.c). */
int segc_plan_poly(segc_plan_builder *bd, const segc_expr *e, size_t *out);
/* plan_poly.c: non-zero when 'e' is x^(p/q), a power to a rational
 * exponent that is not an integer. */
int segc_plan_is_root_pow(const segc_expr *e);
/* plan_poly.c: plans x^(p/q) as the root of index q (sqrt of sqrt ... for
 * the factors 2 of q, then one ROOT for the rest) to the power p. */
int segc_plan_root_pow(segc_plan_builder *bd, const segc_expr *e,
	size_t *out);

/* Plans a call of a built-in function; any other is an error
 * (plan_call.c). */
int segc_plan_call(segc_plan_builder *bd, const segc_expr *e, size_t *out);

/* Plans sum(var, lo, hi, body) as a loop (plan_call.c). */
int segc_plan_sum(segc_plan_builder *bd, const segc_expr *e, size_t *out);

/* Opens the scope of a loop's variable 'name', bound to the counter 'v':
 * what is planned until segc_plan_scope_close() sees it, with a memory
 * of planned nodes of its own, kept in 'save' (plan_call.c). */
void segc_plan_scope_open(segc_plan_builder *bd, const char *name, size_t v,
	segc_expr_map *save);
void segc_plan_scope_close(segc_plan_builder *bd, segc_expr_map *save);

/* Plans the recurrence maxplus(...) or maxplusv(i, ...) 'e' as one
 * MAXPLUS instruction over its count and costs; the costs of maxplusv in
 * a loop block of their own, computed in each iteration (emit_maxplus.c). */
int segc_plan_recurrence(segc_plan_builder *bd, const segc_expr *e,
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

/* Plans the longest path taskpath(...) 'e' of a task graph with indexed
 * nodes as one TASKPATH instruction; the values its programs push are
 * planned before it like any other (plan_taskpath.c). */
int segc_plan_taskpath(segc_plan_builder *bd, const segc_expr *e,
	size_t *out);

/* Counts the uses of the pushed values of the live TASKPATH 'in'. */
void segc_plan_taskpath_uses(segc_plan *p, const segc_plan_insn *in);

/* Releases the structure of a TASKPATH (NULL: nothing). */
void segc_plan_taskpath_free(struct segc_plan_taskpath *tp);

#endif
