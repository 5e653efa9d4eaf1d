/* taskpath_form.h - the form of the atom that holds the longest path of
 * a task graph with indexed nodes (format.md, "Indexed nodes"):
 *   taskpath(N, entry, exit, node_1 .. node_N, A, arc_1 .. arc_A)
 * whose arguments are numbers and expressions of the parameters only: the
 * indices are bound by position, so the atom has no free name of its own.
 *   node:  d, lo_1, hi_1, ..., lo_d, hi_d, cost   (programs; lo_k and hi_k
 *          see indices 1..k-1, cost sees 1..d)
 *   arc:   from, to, n, at_1 .. at_n, cost        (nodes from 1; programs
 *          over the indices of 'from'; n = 0: no 'at')
 *   program: L, then L tokens in postfix order:
 *          0 v  push v (any expression of the parameters)
 *          1 j  push index j
 *          2 add, 3 multiply, 4 power (integer exponent), 5 floor,
 *          6 ceil (of the top two or the top value),
 *          7 n  max of the top n, 8 n  min of the top n
 * Decoding it is the expression stage's, so that the text of the atom
 * is read and written here; its value is graph/taskpath.h's.  Private
 * to the library. */
#ifndef SEGC_TASKPATH_FORM_H
#define SEGC_TASKPATH_FORM_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>

/* The most indices a node may have: the model's limit SEGC_MAX_INDICES
 * (graph/taskpath.h checks that the two agree). */
#define SEGC_TP_MAX_INDICES 64

/* Opcodes of a program. */
enum segc_tp_op {
	SEGC_TP_PUSH = 0, SEGC_TP_INDEX, SEGC_TP_ADD, SEGC_TP_MUL,
	SEGC_TP_POW, SEGC_TP_FLOOR, SEGC_TP_CEIL, SEGC_TP_MAX, SEGC_TP_MIN,
	SEGC_TP_NOPS
};

/* A program: its tokens are arguments first .. first + len - 1. */
typedef struct segc_tp_prog {
	size_t first, len;
} segc_tp_prog;

typedef struct segc_tp_node {
	size_t d;
	segc_tp_prog *lo, *hi;    /* d each */
	segc_tp_prog cost;
} segc_tp_node;

typedef struct segc_tp_arc {
	size_t from, to, nat;     /* nodes from 0 */
	segc_tp_prog *at;         /* nat */
	segc_tp_prog cost;
} segc_tp_arc;

/* A decoded atom. */
typedef struct segc_tp {
	size_t n, entry, exit, narcs;
	segc_tp_node *nodes;
	segc_tp_arc *arcs;
} segc_tp;

/* Reads the integer of argument 'i' of an atom into '*v': 0, or -1 when
 * it is not an integer. */
typedef int (*segc_tp_int_fn)(const void *args, size_t i, long *v);

/* Decodes the structure of an atom of 'nargs' arguments into 't'
 * (release with segc_tp_clear even on failure); NULL, or what is
 * wrong. */
const char *segc_tp_decode(segc_tp *t, size_t nargs, segc_tp_int_fn get,
	const void *args);
/* segc_tp_int_fn over an array of mpq_t. */
int segc_tp_int_q(const void *args, size_t i, long *v);
/* segc_tp_int_fn over an array of expressions (integer numbers). */
int segc_tp_int_expr(const void *args, size_t i, long *v);
void segc_tp_clear(segc_tp *t);

#endif
