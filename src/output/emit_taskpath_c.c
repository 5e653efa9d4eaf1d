/* emit_taskpath_c.c - the longest path of a task graph with indexed
 * nodes (a TASKPATH instruction, plan_taskpath.c) printed as C: the
 * syntax hooks of the walk (emit_taskpath_walk.c) and the C's
 * declarations and frees.  The instances of each node kind enumerated by
 * loops over its index ranges, as segc eval does (algebra/taskpath.c),
 * their times kept in an array over the box of their indices (malloc'd,
 * freed before the value is returned), and the longest path taken by
 * pushing each instance's finish time along its arcs (emit_taskpath.c
 * adds them in double-double), the kinds in the order of the plan and
 * each kind's instances in the lexicographic order of their indices.
 * When the kinds feed each other (by_instance), the instances are put in
 * a topological order at run time as segc eval does (Kahn's algorithm:
 * the arcs into each instance counted, then an instance pushed once all
 * have come).  The predictor gives NaN where segc eval refuses or where
 * it cannot follow: a bound or an at value that is not an integer of at
 * most 2^52, an arc from a kind to itself that does not go forward in
 * the lexicographic order (in the walk by kinds), instances whose arcs
 * make a cycle (by instances), more than 2^26 places in a box, or no
 * memory. */
#include <stdio.h>
#include <stdlib.h>
#include "output/emit_taskpath.h"

/* The most places of the box of one node kind. */
#define TP_MAX_BOX "67108864.0"

/* Appends 'depth' tabs. */
static void indent(const segc_tp_out *o, unsigned depth)
{
	while (depth--)
		segc_strbuf_appendc(o->b, '\t');
}

/* Appends, at 'depth', the jump that makes the result NaN. */
static void put_fail(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "{ %s0 = (double)NAN; goto %sf%lu; }\n",
		o->x, o->x, (unsigned long)o->insn);
	*o->fails = 1;
}

/* Appends the statements setting the long long 'kind' local (v, k) to the
 * integer program 'g' of kind 'v', NaN (the fail label) unless it is an
 * integer of at most 2^52. */
static void put_int(const segc_tp_out *o, unsigned depth, unsigned long kind,
	size_t lv, size_t lk, const segc_tp_prog *g, size_t v)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s3 = ", o->x);
	segc_tp_put_prog(o, g, v);
	segc_strbuf_append(o->b, ";\n");
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (!(fabs(%s3) <= 4503599627370496.0 && "
		"floor(%s3) >= %s3))\n", o->x, o->x, o->x);
	put_fail(o, depth + 1);
	indent(o, depth);
	segc_tp_local(o, kind, lv, lk);
	segc_strbuf_appendf(o->b, " = (long long)%s3;\n", o->x);
}

/* ---------------------------------------------------------- the loops */

/* Opens the loops over the instances of kind 'v' at 'depth'; returns
 * the depth of their body. */
static unsigned open_loops(const segc_tp_out *o, size_t v, unsigned depth)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;

	for (k = 0; k < nd->d; k++) {
		put_int(o, depth, L_IDX, v, k, &nd->lo[k], v);
		put_int(o, depth, L_HI, v, k, &nd->hi[k], v);
		indent(o, depth);
		segc_strbuf_append(o->b, "for (; ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " <= ");
		segc_tp_local(o, L_HI, v, k);
		segc_strbuf_append(o->b, "; ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, "++) {\n");
		depth++;
	}
	return depth;
}

/* Closes the loops of kind 'v' opened at 'depth'. */
static void close_loops(const segc_tp_out *o, size_t v, unsigned depth)
{
	size_t k;

	for (k = o->tp->t.nodes[v].d; k-- > 0;) {
		indent(o, depth + (unsigned)k);
		segc_strbuf_append(o->b, "}\n");
	}
}

/* Appends the place in the box of kind 'w' of the indices 'kind' (locals
 * numbered by 'lv'): sum of (index - least) * stride, the strides
 * written out from the extents. */
static void put_place(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	size_t d = o->tp->t.nodes[w].d, k, j;

	for (k = 0; k < d; k++) {
		segc_strbuf_append(o->b, k ? " + " : "");
		segc_strbuf_append(o->b, "(size_t)(");
		segc_tp_local(o, kind, lv, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, w, k);
		segc_strbuf_append(o->b, ")");
		for (j = k + 1; j < d; j++) {
			segc_strbuf_append(o->b, " * (size_t)(");
			segc_tp_local(o, L_MAX, w, j);
			segc_strbuf_append(o->b, " - ");
			segc_tp_local(o, L_MIN, w, j);
			segc_strbuf_append(o->b, " + 1)");
		}
	}
}

/* Appends the time of kind 'w' at the place of the indices 'kind' (lv). */
static void put_time_of(const segc_tp_out *o, unsigned long base, size_t w,
	unsigned long kind, size_t lv)
{
	segc_tp_local(o, base, w, 0);
	if (!o->tp->t.nodes[w].d)
		return;
	segc_strbuf_append(o->b, "[");
	put_place(o, w, kind, lv);
	segc_strbuf_append(o->b, "]");
}

/* Appends the time of kind 'w' at the indices 'kind' (lv), its high
 * part. */
static void put_time(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	put_time_of(o, L_T, w, kind, lv);
}

/* Appends the number of the instance of kind 'w' at the indices 'kind'
 * (lv) among all instances (the instance order's place). */
static void put_id(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	segc_strbuf_appendf(o->b, "%s11[%lu]", o->x, (unsigned long)w);
	if (!o->tp->t.nodes[w].d)
		return;
	segc_strbuf_append(o->b, " + ");
	put_place(o, w, kind, lv);
}

/* Appends the count of one more arc into the instance of kind 'w' at
 * the indices 'kind' (lv), or (TP_PUSH) one fewer and its release into
 * the queue when none is left. */
static void put_count(const segc_tp_out *o, unsigned depth, size_t w,
	unsigned long kind, size_t lv)
{
	indent(o, depth);
	if (o->mode == TP_COUNT) {
		segc_strbuf_appendf(o->b, "%s12[", o->x);
		put_id(o, w, kind, lv);
		segc_strbuf_append(o->b, "]++;\n");
		return;
	}
	segc_strbuf_appendf(o->b, "if (--%s12[", o->x);
	put_id(o, w, kind, lv);
	segc_strbuf_append(o->b, "] == 0)\n");
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13[%s15++] = ", o->x, o->x);
	put_id(o, w, kind, lv);
	segc_strbuf_append(o->b, ";\n");
}

/* The push along arc 'a' to every instance of its kind 'w' (no at
 * values): tested and raised, or counted or released. */
static void put_to_all(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	(void)a;
	if (o->mode != TP_WALK) {
		/* to every instance of w, counted or released */
		indent(o, depth);
		segc_strbuf_appendf(o->b, "for (%s9 = 0; %s9 < %s8[%lu]; "
			"%s9++)\n", o->x, o->x, o->x, (unsigned long)w, o->x);
		indent(o, depth + 1);
		segc_strbuf_append(o->b, "if (");
		segc_tp_local(o, L_EX, w, 0);
		segc_strbuf_appendf(o->b, "[%s9]) {\n", o->x);
		if (o->mode == TP_PUSH) {
			segc_tp_put_raise_all(o, depth + 2, w);
			indent(o, depth + 2);
			segc_strbuf_appendf(o->b, "if (--%s12[%s11[%lu] + %s9] "
				"== 0)\n", o->x, o->x, (unsigned long)w, o->x);
			indent(o, depth + 3);
			segc_strbuf_appendf(o->b, "%s13[%s15++] = %s11[%lu] + "
				"%s9;\n", o->x, o->x, o->x, (unsigned long)w,
				o->x);
		} else {
			indent(o, depth + 2);
			segc_strbuf_appendf(o->b, "%s12[%s11[%lu] + %s9]++;\n",
				o->x, o->x, (unsigned long)w, o->x);
		}
		indent(o, depth + 1);
		segc_strbuf_append(o->b, "}\n");
		return;
	}
	/* to every instance of w */
	indent(o, depth);
	segc_strbuf_appendf(o->b, "for (%s9 = 0; %s9 < %s8[%lu]; "
		"%s9++)\n", o->x, o->x, o->x, (unsigned long)w, o->x);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "if (");
	segc_tp_local(o, L_EX, w, 0);
	segc_strbuf_appendf(o->b, "[%s9] && (%s2 > ", o->x, o->x);
	segc_tp_local(o, L_T, w, 0);
	segc_strbuf_appendf(o->b, "[%s9] || (%s2 >= ", o->x, o->x);
	segc_tp_local(o, L_T, w, 0);
	segc_strbuf_appendf(o->b, "[%s9] && %s20 > ", o->x, o->x);
	segc_tp_local(o, L_E, w, 0);
	segc_strbuf_appendf(o->b, "[%s9]) || isnan(%s2))) {\n", o->x,
		o->x);
	indent(o, depth + 2);
	segc_tp_local(o, L_T, w, 0);
	segc_strbuf_appendf(o->b, "[%s9] = %s2;\n", o->x, o->x);
	indent(o, depth + 2);
	segc_tp_local(o, L_E, w, 0);
	segc_strbuf_appendf(o->b, "[%s9] = %s20;\n", o->x, o->x);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "}\n");
}

/* NaN unless the at values of arc 'a' from kind 'v' to itself go
 * forward in the lexicographic order. */
static void put_forward(const segc_tp_out *o, unsigned depth, size_t a,
	size_t v)
{
	size_t k, dw = o->tp->t.nodes[v].d;

	indent(o, depth);
	segc_strbuf_append(o->b, "if (!(");
	for (k = 0; k < dw; k++) {
		size_t j;

		segc_strbuf_append(o->b, k ? " || (" : "(");
		for (j = 0; j < k; j++) {
			segc_tp_local(o, L_AT, a, j);
			segc_strbuf_append(o->b, " == ");
			segc_tp_local(o, L_IDX, v, j);
			segc_strbuf_append(o->b, " && ");
		}
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " > ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ")");
	}
	segc_strbuf_appendf(o->b, "))\n");
	put_fail(o, depth + 1);
}

/* Opens the test that the at values of arc 'a' name an instance of 'w'
 * (in its box, and one). */
static unsigned open_present(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	size_t k, dw = o->tp->t.nodes[w].d;

	indent(o, depth);
	segc_strbuf_append(o->b, "if (");
	for (k = 0; k < dw; k++) {
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " >= ");
		segc_tp_local(o, L_MIN, w, k);
		segc_strbuf_append(o->b, " && ");
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " <= ");
		segc_tp_local(o, L_MAX, w, k);
		segc_strbuf_append(o->b, " && ");
	}
	segc_tp_local(o, L_EX, w, 0);
	segc_strbuf_append(o->b, "[");
	put_place(o, w, L_AT, a);
	segc_strbuf_append(o->b, "]) {\n");
	return depth + 1;
}

/* Closes a block opened at 'depth'. */
static void close_block(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_append(o->b, "}\n");
}

/* Appends the declarations of the instance order's locals. */
static void put_decl_order(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "size_t %s11[%luU], *%s12 = NULL, "
		"*%s13 = NULL, %s14 = 0, %s15 = 0, %s16 = 0, %s17 = 0;\n",
		o->x, (unsigned long)o->tp->t.n, o->x, o->x, o->x, o->x, o->x,
		o->x);
}

/* Appends the declaration of the kinds' places (and of the counter of
 * a loop over them where 'all'). */
static void put_decl_places(const segc_tp_out *o, unsigned depth, int all)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "size_t %s8[%luU]", o->x,
		(unsigned long)o->tp->t.n);
	if (all)
		segc_strbuf_appendf(o->b, ", %s9", o->x);
	segc_strbuf_append(o->b, ";\n");
}

/* Appends the declarations of the locals of kind 'v': its time (and
 * low part), or its arrays and its indices with their boxes. */
static void put_decl_kind(const segc_tp_out *o, unsigned depth, size_t v)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;

	indent(o, depth);
	if (!nd->d) {
		segc_strbuf_append(o->b, "double ");
		segc_tp_local(o, L_T, v, 0);
		segc_strbuf_append(o->b, " = -HUGE_VAL, ");
		segc_tp_local(o, L_E, v, 0);
		segc_strbuf_append(o->b, " = 0.0;\n");
		return;
	}
	segc_strbuf_append(o->b, "double *");
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, " = NULL, *");
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, " = NULL;\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "unsigned char *");
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_append(o->b, " = NULL;\n");
	for (k = 0; k < nd->d; k++) {
		indent(o, depth);
		segc_strbuf_append(o->b, "long long ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " = 0, ");
		segc_tp_local(o, L_HI, v, k);
		segc_strbuf_append(o->b, " = 0, ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " = 4503599627370496LL, ");
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " = -4503599627370496LL;\n");
	}
}

/* Appends the box of the indexed kind 'v': the least and greatest
 * index of its instances, its places (%s8[v], at most TP_MAX_BOX) and
 * its arrays. */
static void put_box(const segc_tp_out *o, unsigned depth, size_t v)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;
	unsigned in;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "/* node %lu: the box of its "
		"indices */\n", (unsigned long)v + 1);
	in = open_loops(o, v, depth);
	for (k = 0; k < nd->d; k++) {
		indent(o, in);
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " = ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " < ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " ? ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " : ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, ";\n");
		indent(o, in);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " = ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " > ");
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " ? ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " : ");
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, ";\n");
	}
	close_loops(o, v, depth);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s3 = 1.0;\n", o->x);
	for (k = 0; k < nd->d; k++) {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s3 = ", o->x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " < ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_appendf(o->b, " ? 0.0 : %s3 * (double)(",
			o->x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1);\n");
	}
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s3 > " TP_MAX_BOX ")\n", o->x);
	put_fail(o, depth + 1);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s8[%lu] = %s3 > 0.0 ? "
		"(size_t)%s3 : 1U;\n", o->x, (unsigned long)v, o->x,
		o->x);
	indent(o, depth);
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_appendf(o->b, " = (double *)malloc(%s8[%lu] * "
		"sizeof(double));\n", o->x, (unsigned long)v);
	indent(o, depth);
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_appendf(o->b, " = (double *)malloc(%s8[%lu] * "
		"sizeof(double));\n", o->x, (unsigned long)v);
	indent(o, depth);
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_appendf(o->b, " = (unsigned char *)calloc(%s8[%lu], "
		"1);\n", o->x, (unsigned long)v);
	indent(o, depth);
	segc_strbuf_append(o->b, "if (!");
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, " || !");
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, " || !");
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_append(o->b, ")\n");
	put_fail(o, depth + 1);
}

/* Appends the instance of the indexed kind 'v' whose indices are set:
 * one, no time yet. */
static void put_fresh(const segc_tp_out *o, unsigned in, size_t v)
{
	indent(o, in);
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_append(o->b, "[");
	put_place(o, v, L_IDX, v);
	segc_strbuf_append(o->b, "] = 1;\n");
	indent(o, in);
	put_time(o, v, L_IDX, v);
	segc_strbuf_append(o->b, " = -HUGE_VAL;\n");
	indent(o, in);
	put_time_of(o, L_E, v, L_IDX, v);
	segc_strbuf_append(o->b, " = 0.0;\n");
}

/* Nothing: a kind without indices has its time from its declaration. */
static void put_point(const segc_tp_out *o, unsigned depth, size_t v)
{
	(void)o;
	(void)depth;
	(void)v;
}

/* The finish time set to 0 when no arc reached the instance. */
static void put_unreached(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s1 < -1.7976931348623157e308)\n",
		o->x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s1 = %s10 = 0.0;\n", o->x, o->x);
}

/* Opens the loops over the instances of kind 'v' at 'depth', skipping
 * the places of its box that are none; returns the depth of the body. */
static unsigned open_instances(const segc_tp_out *o, size_t v,
	unsigned depth)
{
	unsigned in = open_loops(o, v, depth);

	if (o->tp->t.nodes[v].d) {
		indent(o, in);
		segc_strbuf_append(o->b, "if (!");
		segc_tp_local(o, L_EX, v, 0);
		segc_strbuf_append(o->b, "[");
		put_place(o, v, L_IDX, v);
		segc_strbuf_append(o->b, "])\n");
		indent(o, in + 1);
		segc_strbuf_append(o->b, "continue;\n");
	}
	return in;
}

/* The instance order: the first number of each kind's instances
 * (kind by kind, each over its box), the count of the arcs into each
 * instance and the queue. */
static void put_order_start(const segc_tp_out *o, unsigned depth)
{
	const segc_tp *t = &o->tp->t;
	const char *x = o->x;
	size_t v;

	for (v = 0; v < t->n; v++) {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s11[%lu] = %s17;\n", x,
			(unsigned long)v, x);
		indent(o, depth);
		if (t->nodes[v].d)
			segc_strbuf_appendf(o->b, "%s17 += %s8[%lu];\n", x, x,
				(unsigned long)v);
		else
			segc_strbuf_appendf(o->b, "%s17++;\n", x);
	}
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s12 = (size_t *)calloc(%s17, "
		"sizeof(size_t));\n", x, x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s13 = (size_t *)malloc(%s17 * "
		"sizeof(size_t));\n", x, x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (!%s12 || !%s13)\n", x, x);
	put_fail(o, depth + 1);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = 0;\n", x);
}

/* One more instance counted. */
static void put_counted(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17++;\n", o->x);
}

/* The instance of kind 'v' queued when no arc comes into it. */
static void put_root(const segc_tp_out *o, unsigned depth, size_t v)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s12[", o->x);
	put_id(o, v, L_IDX, v);
	segc_strbuf_append(o->b, "] == 0)\n");
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13[%s15++] = ", o->x, o->x);
	put_id(o, v, L_IDX, v);
	segc_strbuf_append(o->b, ";\n");
}

/* Opens the loop over the queue. */
static unsigned open_queue(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "for (%s14 = 0; %s14 < %s15; %s14++) {\n",
		o->x, o->x, o->x, o->x);
	return depth + 1;
}

/* Opens the test that the instance taken is of kind 'v', its indices
 * decoded from its number. */
static void open_taken(const segc_tp_out *o, unsigned depth, size_t v)
{
	const char *x = o->x;
	size_t d = o->tp->t.nodes[v].d, k;
	char text[48];

	snprintf(text, sizeof text, "node %lu", (unsigned long)v + 1);
	segc_tp_put_rem(o, depth, text);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s16 = %s13[%s14];\n", x, x, x);
	indent(o, depth);
	if (d)
		segc_strbuf_appendf(o->b, "if (%s16 >= %s11[%lu] && "
			"%s16 < %s11[%lu] + %s8[%lu]) {\n", x, x,
			(unsigned long)v, x, x, (unsigned long)v, x,
			(unsigned long)v);
	else
		segc_strbuf_appendf(o->b, "if (%s16 == %s11[%lu]) {\n",
			x, x, (unsigned long)v);
	if (d) {
		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "%s16 -= %s11[%lu];\n", x, x,
			(unsigned long)v);
	}
	for (k = d; k-- > 0;) {
		indent(o, depth + 1);
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " = ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_appendf(o->b, " + (long long)(%s16 %% "
			"(size_t)(", x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1));\n");
		if (!k)
			break;
		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "%s16 /= (size_t)(", x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1);\n");
	}
}

/* Closes what open_taken opened at 'depth'. */
static void close_taken(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "continue;\n");
	close_block(o, depth);
}

/* An instance never queued: the arcs make a cycle. */
static void put_cycle(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s15 < %s17)\n", o->x, o->x);
	put_fail(o, depth + 1);
}

/* The syntax of C. */
static const segc_tp_lang lang_c = {
	";", "/* ", " */",
	".0", "(double)", "", "pow(", "fmax(", "fmin(",
	"floor(", ")", "ceil(", ")",
	indent, put_point, put_box, put_fresh, open_loops, close_loops,
	put_time_of, put_int, open_instances, close_loops,
	put_unreached, NULL, put_to_all, put_forward, open_present,
	close_block, put_order_start, put_counted, put_root, open_queue,
	open_taken, close_taken, close_block, put_cycle, put_count,
	"double ", " = 0.0", "long long ", " = 0", put_decl_order,
	put_decl_places, put_decl_kind,
	" || ", " && ", "isnan(", ") {\n", "}\n", "[", "]"
};

/* See emit_private.h. */
void segc_emit_taskpath_c(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign)
{
	const segc_tp *t = &nm->p->insn[i].tp->t;
	segc_tp_out o;
	size_t v;
	int fails = 0;

	o.lang = &lang_c;
	o.fails = &fails;
	o.b = b;
	o.nm = nm;
	o.tp = nm->p->insn[i].tp;
	o.x = segc_emit_local_prefix(nm->arg, nm->p->nargs, 'p');
	o.insn = i;
	o.mode = TP_WALK;
	if (!assign) {
		indent(&o, depth);
		segc_strbuf_append(b, nm->accurate ? "segc_dd " : "double ");
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, ";\n");
	}
	indent(&o, depth);
	segc_strbuf_append(b, "{\n");
	depth++;
	indent(&o, depth);
	segc_strbuf_appendf(b, "/* the longest path of a task graph with "
		"indexed nodes: %lu kinds, %lu arcs */\n", (unsigned long)t->n,
		(unsigned long)t->narcs);
	segc_tp_walk_decls(&o, depth);
	segc_strbuf_append(b, "\n");
	segc_tp_walk_boxes(&o, depth);
	if (o.tp->by_instance)
		segc_tp_walk_instances(&o, depth);
	else
		segc_tp_walk_kinds(&o, depth);
	if (fails)
		segc_strbuf_appendf(b, "%sf%lu:\n", o.x, (unsigned long)i);
	if (o.tp->by_instance) {
		indent(&o, depth);
		segc_strbuf_appendf(b, "free(%s12);\n", o.x);
		indent(&o, depth);
		segc_strbuf_appendf(b, "free(%s13);\n", o.x);
	}
	for (v = 0; v < t->n; v++) {
		if (!t->nodes[v].d)
			continue;
		indent(&o, depth);
		segc_strbuf_append(b, "free(");
		segc_tp_local(&o, L_T, v, 0);
		segc_strbuf_append(b, ");\n");
		indent(&o, depth);
		segc_strbuf_append(b, "free(");
		segc_tp_local(&o, L_EX, v, 0);
		segc_strbuf_append(b, ");\n");
		indent(&o, depth);
		segc_strbuf_append(b, "free(");
		segc_tp_local(&o, L_E, v, 0);
		segc_strbuf_append(b, ");\n");
	}
	indent(&o, depth);
	segc_emit_put_value(b, nm, i);
	segc_strbuf_appendf(b, nm->accurate ? " = dd_d(%s0);\n" :
		" = %s0;\n", o.x);
	depth--;
	indent(&o, depth);
	segc_strbuf_append(b, "}\n");
	free(o.x);
}
