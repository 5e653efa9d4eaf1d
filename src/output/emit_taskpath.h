/* emit_taskpath.h - what the printers of a TASKPATH instruction share
 * (emit_taskpath.c: its programs; emit_taskpath_c.c, emit_taskpath_py.c,
 * emit_taskpath_f.c: the C, Python and Fortran): the state of one
 * printing and the numbers of its locals. */
#ifndef SEGC_EMIT_TASKPATH_H
#define SEGC_EMIT_TASKPATH_H

#include "output/plan_private.h"
#include "output/emit_private.h"

/* Numbers of the locals (after the prefix): per kind v and index k. */
enum {
	L_IDX = 1000000,   /* an index, long long */
	L_HI = 2000000,    /* the upper bound of its loop, long long */
	L_MIN = 3000000,   /* the box: least index, long long */
	L_MAX = 4000000,   /* greatest index, long long */
	L_T = 5000000,     /* per kind: its times (an array, or one) */
	L_EX = 6000000,    /* per kind: which places are instances */
	L_AT = 7000000,    /* per arc a and index k: the at value */
	L_E = 8000000      /* per kind: the low parts of its times */
};

/* What put_arc prints (the printers' own): the walk's push of a finish
 * time along an arc; with the instances ordered at run time
 * (by_instance), first the count of the arcs into each instance, then
 * the push that also releases an instance whose arcs have all come. */
enum { TP_WALK = 0, TP_COUNT, TP_PUSH };

/* Locals of the instance order: 11 the first place of each kind, 12 the
 * arcs still to come into each place, 13 the queue of places, 14 its
 * head, 15 its tail, 16 a place decoded, 17 the places (then the
 * instances). */

/* What one printing needs. */
typedef struct segc_tp_out {
	segc_strbuf *b;
	const segc_emit_namer *nm;
	const struct segc_plan_taskpath *tp;
	char *x;             /* prefix of the locals */
	size_t insn;         /* the instruction (names its label) */
	int *fails;          /* set once a jump to the label is printed */
	int py;              /* Python rather than C */
	int f;               /* Fortran rather than C */
	int mode;            /* TP_WALK, TP_COUNT or TP_PUSH */
} segc_tp_out;

/* Appends the local of 'kind' for the numbers 'v' and 'k'. */
void segc_tp_local(const segc_tp_out *o, unsigned long kind, size_t v,
	size_t k);

/* Appends program 'g' of node kind 'v' (the indices its own) as an
 * expression of the language of 'o'. */
void segc_tp_put_prog(const segc_tp_out *o, const segc_tp_prog *g,
	size_t v);

/* Appends, at 'depth', the statements setting the pair (%sD, %sD0) to
 * the pair (%sS, %sS0) plus the value of program 'g' of kind 'v' by an
 * error-free sum (Knuth's TwoSum, then renormalized): times along a path
 * are added in double-double, so that a long path adds no rounding
 * error beyond its costs' own.  D and S are the digits 'dst', 'src'. */
void segc_tp_put_twosum(const segc_tp_out *o, unsigned depth,
	const char *dst, const char *src, const segc_tp_prog *g, size_t v);

/* Non-zero when program 'g' pushes the number 0 only. */
int segc_tp_prog_is_zero(const segc_tp_out *o, const segc_tp_prog *g);

#endif
