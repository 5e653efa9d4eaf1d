/* emit_taskpath.h - what the printers of a TASKPATH instruction share
 * (emit_taskpath.c: its programs; emit_taskpath_walk.c: the walk of the
 * plan; emit_taskpath_c.c, emit_taskpath_py.c, emit_taskpath_f.c: the
 * syntax of C, Python and Fortran as a table of hooks): the state of one
 * printing, the numbers of its locals and the table of a language. */
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

struct segc_tp_lang;

/* What one printing needs. */
typedef struct segc_tp_out {
	const struct segc_tp_lang *lang;  /* the syntax of the language */
	segc_strbuf *b;
	const segc_emit_namer *nm;
	const struct segc_plan_taskpath *tp;
	char *x;             /* prefix of the locals */
	size_t insn;         /* the instruction (names its label) */
	int *fails;          /* set once a jump to the label is printed */
	int mode;            /* TP_WALK, TP_COUNT or TP_PUSH */
} segc_tp_out;

/* The syntax of one language: what the walk (emit_taskpath_walk.c)
 * calls to print each step of the plan.  'depth' is the indentation of
 * what a hook prints; (base, w, kind, lv) names the array 'base' of
 * kind 'w' at the indices whose locals are 'kind' numbered by 'lv'. */
typedef struct segc_tp_lang {
	const char *semi;      /* ends a statement: ";" or "" */
	const char *rem;       /* opens a comment line */
	const char *rem_end;   /* closes it */
	/* the syntax of the programs' expressions (emit_taskpath.c) */
	const char *real;      /* after the digits of a real number: ".0" */
	const char *idx_open;  /* an index as a real: its cast */
	const char *idx_close;
	const char *pow;       /* the functions, each with its "(" */
	const char *max, *min;
	const char *floor_open, *floor_close, *ceil_open, *ceil_close;
	/* appends 'depth' levels of indentation */
	void (*indent)(const segc_tp_out *o, unsigned depth);
	/* the time of a kind without indices at its start */
	void (*put_point)(const segc_tp_out *o, unsigned depth, size_t v);
	/* the box of an indexed kind 'v' and its arrays, before its
	 * instances are set */
	void (*put_box)(const segc_tp_out *o, unsigned depth, size_t v);
	/* the instance of kind 'v' at its indices set: one, no time yet */
	void (*put_fresh)(const segc_tp_out *o, unsigned depth, size_t v);
	/* opens the loops over the places of kind 'v' (every place of its
	 * box where the box is a superset); returns the depth of their
	 * body; close_loops closes them (opened at 'depth') */
	unsigned (*open_loops)(const segc_tp_out *o, size_t v, unsigned depth);
	void (*close_loops)(const segc_tp_out *o, size_t v, unsigned depth);
	/* appends the element of array 'base' of kind 'w' at (kind, lv) */
	void (*put_at)(const segc_tp_out *o, unsigned long base, size_t w,
		unsigned long kind, size_t lv);
	/* sets the local (kind, lv, lk) to the integer program 'g' of kind
	 * 'v', or gives NaN */
	void (*put_int)(const segc_tp_out *o, unsigned depth,
		unsigned long kind, size_t lv, size_t lk, const segc_tp_prog *g,
		size_t v);
	/* opens the loops over the instances of kind 'v'; returns the
	 * depth of their body; close_instances closes them */
	unsigned (*open_instances)(const segc_tp_out *o, size_t v,
		unsigned depth);
	void (*close_instances)(const segc_tp_out *o, size_t v,
		unsigned depth);
	/* the finish time (%s1, %s10) set to 0 when no arc reached it */
	void (*put_unreached)(const segc_tp_out *o, unsigned depth);
	/* raises the time of kind 'w' at (kind, lv) to (%s2, %s20), counts
	 * or releases it (mode): NULL for the walk's own (put_relax in
	 * emit_taskpath_walk.c, from the syntax at the end of the table) */
	void (*put_relax)(const segc_tp_out *o, unsigned depth, size_t w,
		unsigned long kind, size_t lv);
	/* the push along arc 'a' without at values: to every instance of
	 * its kind 'w' */
	void (*put_to_all)(const segc_tp_out *o, unsigned depth, size_t a,
		size_t w);
	/* NaN unless the at values of arc 'a' from kind 'v' to itself go
	 * forward in the lexicographic order */
	void (*put_forward)(const segc_tp_out *o, unsigned depth, size_t a,
		size_t v);
	/* opens the test that the at values of arc 'a' name an instance of
	 * 'w'; returns the depth of its body; close_present closes it */
	unsigned (*open_present)(const segc_tp_out *o, unsigned depth,
		size_t a, size_t w);
	void (*close_present)(const segc_tp_out *o, unsigned depth);
	/* the instance order: its arrays and the numbers of the kinds */
	void (*put_order_start)(const segc_tp_out *o, unsigned depth);
	/* one more instance counted (%s17) */
	void (*put_counted)(const segc_tp_out *o, unsigned depth);
	/* the instance of kind 'v' at its indices queued when no arc comes
	 * into it */
	void (*put_root)(const segc_tp_out *o, unsigned depth, size_t v);
	/* opens the loop over the queue; returns the depth of its body */
	unsigned (*open_queue)(const segc_tp_out *o, unsigned depth);
	/* opens the test that the instance taken is of kind 'v' and sets
	 * its indices (body at depth + 1); close_taken closes it */
	void (*open_taken)(const segc_tp_out *o, unsigned depth, size_t v);
	void (*close_taken)(const segc_tp_out *o, unsigned depth);
	void (*close_queue)(const segc_tp_out *o, unsigned depth);
	/* NaN when an instance was never queued (a cycle) */
	void (*put_cycle)(const segc_tp_out *o, unsigned depth);
	/* counts one more arc into the instance of kind 'w' at (kind, lv)
	 * (TP_COUNT), or one fewer and releases it when none is left
	 * (TP_PUSH) */
	void (*put_count)(const segc_tp_out *o, unsigned depth, size_t w,
		unsigned long kind, size_t lv);
	/* the declarations of the locals (segc_tp_walk_decls; NULL where
	 * the language declares none): the reals %s0 .. %s20 declared by
	 * real_decl, each followed by real_init; the locals of the
	 * instance order; the places of the kinds (%s8, and %s9 where
	 * 'all' says a push goes to every instance of a kind); the locals
	 * of kind 'v'; an at value declared by at_decl and at_init */
	const char *real_decl, *real_init, *at_decl, *at_init;
	void (*put_decl_order)(const segc_tp_out *o, unsigned depth);
	void (*put_decl_places)(const segc_tp_out *o, unsigned depth,
		int all);
	void (*put_decl_kind)(const segc_tp_out *o, unsigned depth, size_t v);
	/* the syntax of the walk's raise of a time: "if (" COND then ...
	 * end_if, COND joined by or_ and and_, isnan_open the test of NaN */
	const char *or_, *and_, *isnan_open, *then, *end_if;
	/* around the subscript of an array element */
	const char *sub_open, *sub_close;
} segc_tp_lang;

/* Appends the declarations of the locals that the walk uses (a
 * compiler warns of others), by the table's declaration hooks. */
void segc_tp_walk_decls(const segc_tp_out *o, unsigned depth);

/* Appends the times at the start: each kind's box and arrays, each
 * instance without a time yet. */
void segc_tp_walk_boxes(const segc_tp_out *o, unsigned depth);

/* Appends the walk by kinds: each kind in the plan's order, each of its
 * instances visited (its finish time pushed along its arcs). */
void segc_tp_walk_kinds(segc_tp_out *o, unsigned depth);

/* Appends the walk by instances (by_instance): the arcs into each
 * instance counted, then the instances visited in a topological order
 * found at run time. */
void segc_tp_walk_instances(segc_tp_out *o, unsigned depth);

/* Appends, at 'depth', the raise of the time of kind 'w' at the counter
 * %s9 of a loop over its places to the candidate (%s2, %s20) when it
 * is larger (or NaN), in the syntax of the table's last words (C and
 * Fortran). */
void segc_tp_put_raise_all(const segc_tp_out *o, unsigned depth, size_t w);

/* Appends, at 'depth', a comment line of the text 'text'. */
void segc_tp_put_rem(const segc_tp_out *o, unsigned depth,
	const char *text);

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
