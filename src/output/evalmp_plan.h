/* evalmp_plan.h - the evaluation plan: a formula compiled once
 * (evalmp_plan.c) into blocks of operations on numbered slots, then run
 * at a point with values allocated once, over MPFR values (evalmp_run.c),
 * arb balls (evalball_run.c) or doubles with a radius (evaldbl.c), or
 * lowered to the double operations of an emitted predictor (plan.c).
 *
 * Blocks nest as the formula's control does: the body of a sum or of a
 * maxplusv is a block run once an iteration, its preheader a block run
 * once before the first iteration (never when there is none), each
 * branch of if() and each lazy operand of and/or a block run only when
 * taken.  An operation that does not depend on a loop's counter is put
 * in that loop's preheader (hoisted one loop out; never out of a
 * branch), and a sum or product whose operands depend on the counter
 * only in part gets the invariant part computed there.  A sum whose body
 * is affine in its counter, or made of max, min, floor and ceil of
 * affine functions, gets the coefficients of those pieces computed in
 * its preheader too, for the arithmetics that sum them in closed form
 * (evaldbl.c); the body stays, for the others. */
#ifndef SEGC_EVALMP_PLAN_H
#define SEGC_EVALMP_PLAN_H

#include "output/evalmp_private.h"

/* The operations of a plan. */
enum segc_eplan_op {
	SEGC_EPO_ADD,       /* dst = sum of args */
	SEGC_EPO_MUL,       /* dst = product of args */
	SEGC_EPO_POW,       /* dst = arg0 ^ arg1 */
	SEGC_EPO_EXTREMUM,  /* dst = max (aux 1) or min (aux -1) of args */
	SEGC_EPO_UNARY,     /* dst = a function of one number (aux: the
			    * built-in, its operations in evalops.c) */
	SEGC_EPO_MVA,       /* dst = mva_mem(args) */
	SEGC_EPO_MAXPLUS,   /* dst = maxplus(args) */
	SEGC_EPO_TASKPATH,  /* dst = taskpath(args) */
	SEGC_EPO_REL,       /* dst = truth of arg0 REL arg1 (e: the relation) */
	SEGC_EPO_NOT,       /* dst = not arg0 */
	SEGC_EPO_LOGIC,     /* dst = and (aux 1) / or (aux 0): arg0, then the
			    * blocks sub[j] with their truth in subslot[j] */
	SEGC_EPO_IF,        /* dst = arg0 ? sub[0] (subslot 0) : sub[1] */
	SEGC_EPO_SUM,       /* dst = sum for binder = ceil(arg0)..floor(arg1)
			    * of sub[1] (subslot 0), sub[0] its preheader */
	SEGC_EPO_MAXPLUSV,  /* dst = the recurrence e, count arg0, costs in
			    * args 1.. computed by sub[1], preheader sub[0] */
	SEGC_EPO_FAIL       /* an error (e names it, aux: which) */
};

/* Kinds of SEGC_EPO_FAIL. */
enum { SEGC_EPF_UNBOUND, SEGC_EPF_UNDEFINED, SEGC_EPF_CONDITION,
	SEGC_EPF_NOT_CONDITION, SEGC_EPF_ARITY };

typedef struct segc_eplan_block segc_eplan_block;

/* A piece of the body of a sum (evalmp_pieces.h): its kind and the slots
 * of its factor and coefficients, computed by the sum's preheader or
 * before it (a[1], b[1] for max and min alone). */
typedef struct segc_eplan_piece {
	int kind;
	size_t m, a[2], b[2];
} segc_eplan_piece;

/* A binder in scope at an operation: its name and slot. */
typedef struct segc_eplan_binder {
	const char *name;
	size_t slot;
} segc_eplan_binder;

/* One operation. */
typedef struct segc_eplan_ins {
	enum segc_eplan_op op;
	int aux;
	size_t dst;
	size_t nargs;
	size_t *arg;
	const segc_expr *e;
	size_t nsub;
	segc_eplan_block **sub;
	size_t *subslot;
	size_t binder;                 /* SUM, MAXPLUSV: the counter's slot */
	size_t nscope;                 /* SUM: binders in scope, itself last */
	segc_eplan_binder *scope;
	size_t npieces;                /* SUM: the pieces of its body, when */
	segc_eplan_piece *pieces;      /* it has that shape (else 0) */
} segc_eplan_ins;

/* What a slot holds before the run starts. */
enum { SEGC_EPS_COMPUTED, SEGC_EPS_CONST, SEGC_EPS_POINT, SEGC_EPS_BINDER };

/* A slot: how it is set, and the deepest binder its value depends on. */
typedef struct segc_eplan_slot {
	unsigned char kind;
	size_t level;
	const segc_expr *e;            /* CONST: the number; POINT: the name */
} segc_eplan_slot;

/* A compiled formula. */
typedef struct segc_eplan {
	segc_eplan_block *root;
	size_t *result;                /* the slot of each formula */
	size_t nresults;
	segc_eplan_slot *slot;
	size_t nslots, capslots;
	segc_eplan_block **blocks;      /* every block, for release */
	size_t nblocks, capblocks;
	size_t depth;                  /* deepest nesting of blocks */
	segc_expr **kept;              /* expressions built for the plan */
	size_t nkept, capkept;
} segc_eplan;

/* A block: its operations in order. */
struct segc_eplan_block {
	segc_eplan_ins *ins;
	size_t n, cap;
};

/* Compiles the 'n' formulas 'e' into one plan for the point 'pt' (names
 * without a value there become operations that fail when run): what they
 * share is computed once.  0, or -1 with an error recorded in ev->ctx
 * (a formula nested past max_depth). */
int segc_eplan_compile(segc_eplan *p, segc_evaluator *ev, size_t n,
	const segc_expr *const *e);
/* Releases 'p'. */
void segc_eplan_free(segc_eplan *p);

/* Runs 'p' with the evaluator 'ev' (its precision and point) into
 * 'out' (a value for each formula); 0, or -1 (an error recorded, or
 * ev->undecided). */
int segc_eplan_run(const segc_eplan *p, segc_evaluator *ev, segc_val *out);

#endif
