/* emit_taskpath_py.c - the longest path of a task graph with indexed
 * nodes (a TASKPATH instruction) printed as Python: the same walk as the
 * C of emit_taskpath.c (each node kind in the plan's order, its instances
 * over their index ranges in lexicographic order, finish times pushed
 * along the arcs), the times of a kind's instances in a dict keyed by
 * their index tuples; when the kinds feed each other, the instances in a
 * topological order found at run time (the count of the arcs into each
 * instance in a dict, a list as the queue).  The walk is a local
 * function whose return gives
 * NaN where the C jumps to NaN; an arithmetic error of Python (a division
 * by zero, an overflow) gives NaN too. */
#include <stdio.h>
#include <stdlib.h>
#include "output/emit_taskpath.h"

/* Appends 'depth' levels of four spaces. */
static void indent(const segc_tp_out *o, unsigned depth)
{
	while (depth--)
		segc_strbuf_append(o->b, "    ");
}

/* Appends the tuple of the indices 'kind' (locals numbered by 'lv') of
 * kind 'w'. */
static void put_key(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	size_t k, d = o->tp->t.nodes[w].d;

	segc_strbuf_append(o->b, "(");
	for (k = 0; k < d; k++) {
		segc_strbuf_append(o->b, k ? ", " : "");
		segc_tp_local(o, kind, lv, k);
	}
	segc_strbuf_append(o->b, d == 1 ? ",)" : ")");
}

/* Appends the time of kind 'w' at the indices 'kind' (lv). */
static void put_time_of(const segc_tp_out *o, unsigned long base, size_t w,
	unsigned long kind, size_t lv)
{
	segc_tp_local(o, base, w, 0);
	if (!o->tp->t.nodes[w].d)
		return;
	segc_strbuf_append(o->b, "[");
	put_key(o, w, kind, lv);
	segc_strbuf_append(o->b, "]");
}

/* The high part of the time of kind 'w' at the indices 'kind' (lv). */
static void put_time(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	put_time_of(o, L_T, w, kind, lv);
}

/* Sets the int local (kind, lv, lk) to the integer program 'g' of kind
 * 'v', or returns NaN unless it is an integer of at most 2^52. */
static void put_int(const segc_tp_out *o, unsigned depth, unsigned long kind,
	size_t lv, size_t lk, const segc_tp_prog *g, size_t v)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s3 = ", o->x);
	segc_tp_put_prog(o, g, v);
	segc_strbuf_append(o->b, "\n");
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if not (abs(%s3) <= 4503599627370496.0 and "
		"%s3 // 1.0 >= %s3):\n", o->x, o->x, o->x);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "return math.nan\n");
	indent(o, depth);
	segc_tp_local(o, kind, lv, lk);
	segc_strbuf_appendf(o->b, " = int(%s3)\n", o->x);
}

/* Opens the loops over the instances of kind 'v'; returns the depth of
 * their body. */
static unsigned open_loops(const segc_tp_out *o, size_t v, unsigned depth)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;

	for (k = 0; k < nd->d; k++) {
		put_int(o, depth, L_IDX, v, k, &nd->lo[k], v);
		put_int(o, depth, L_HI, v, k, &nd->hi[k], v);
		indent(o, depth);
		segc_strbuf_append(o->b, "for ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " in range(");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_HI, v, k);
		segc_strbuf_append(o->b, " + 1):\n");
		depth++;
	}
	return depth;
}

/* Appends the key of the instance of kind 'w' at the indices 'kind'
 * (lv) among all instances: (w, index tuple). */
static void put_id(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	segc_strbuf_appendf(o->b, "(%lu, ", (unsigned long)w);
	put_key(o, w, kind, lv);
	segc_strbuf_append(o->b, ")");
}

/* Appends the count of one more arc into the instance whose key is the
 * text 'id', or (TP_PUSH) one fewer and its release into the queue when
 * none is left. */
static void put_count_key(const segc_tp_out *o, unsigned depth,
	const char *id)
{
	indent(o, depth);
	if (o->mode == TP_COUNT) {
		segc_strbuf_appendf(o->b, "%s12[%s] = %s12.get(%s, 0) + 1\n",
			o->x, id, o->x, id);
		return;
	}
	segc_strbuf_appendf(o->b, "%s12[%s] -= 1\n", o->x, id);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if %s12[%s] == 0:\n", o->x, id);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13.append(%s)\n", o->x, id);
}

/* put_count_key for the instance of kind 'w' at the indices 'kind'
 * (lv). */
static void put_count(const segc_tp_out *o, unsigned depth, size_t w,
	unsigned long kind, size_t lv)
{
	segc_strbuf id;
	segc_tp_out c = *o;

	segc_strbuf_init(&id);
	c.b = &id;
	put_id(&c, w, kind, lv);
	put_count_key(o, depth, segc_strbuf_str(&id));
	segc_strbuf_free(&id);
}

/* Appends the raise of the time (T, E) to the candidate (%s2, %s20)
 * when it is larger (or NaN); counts the arc (TP_COUNT) or releases the
 * instance (TP_PUSH) too. */
static void put_relax(const segc_tp_out *o, unsigned depth, size_t w,
	unsigned long kind, size_t lv)
{
	if (o->mode == TP_COUNT) {
		put_count(o, depth, w, kind, lv);
		return;
	}
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s2, %s20) > (", o->x, o->x);
	put_time(o, w, kind, lv);
	segc_strbuf_append(o->b, ", ");
	put_time_of(o, L_E, w, kind, lv);
	segc_strbuf_appendf(o->b, ") or math.isnan(%s2):\n", o->x);
	indent(o, depth + 1);
	put_time(o, w, kind, lv);
	segc_strbuf_appendf(o->b, " = %s2\n", o->x);
	indent(o, depth + 1);
	put_time_of(o, L_E, w, kind, lv);
	segc_strbuf_appendf(o->b, " = %s20\n", o->x);
	if (o->mode == TP_PUSH)
		put_count(o, depth, w, kind, lv);
}

/* Appends the push of the finish time %s1 along arc 'a' from kind 'v'. */
static void put_arc(const segc_tp_out *o, unsigned depth, size_t a, size_t v)
{
	const segc_tp_arc *ar = &o->tp->t.arcs[a];
	size_t w = ar->to, k, dw = o->tp->t.nodes[w].d;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "# arc %lu: node %lu to node %lu\n",
		(unsigned long)a + 1, (unsigned long)v + 1,
		(unsigned long)w + 1);
	if (o->mode == TP_COUNT)
		;
	else if (!segc_tp_prog_is_zero(o, &ar->cost))
		segc_tp_put_twosum(o, depth, "2", "1", &ar->cost, v);
	else {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s2 = %s1\n", o->x, o->x);
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s20 = %s10\n", o->x, o->x);
	}
	if (!dw) {
		put_relax(o, depth, w, L_AT, a);
		return;
	}
	if (!ar->nat) {
		char id[64];

		indent(o, depth);
		segc_strbuf_appendf(o->b, "for %s9 in ", o->x);
		segc_tp_local(o, L_T, w, 0);
		segc_strbuf_append(o->b, ":\n");
		snprintf(id, sizeof id, "(%lu, %s9)", (unsigned long)w, o->x);
		if (o->mode == TP_COUNT) {
			put_count_key(o, depth + 1, id);
			return;
		}
		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "if (%s2, %s20) > (", o->x, o->x);
		segc_tp_local(o, L_T, w, 0);
		segc_strbuf_appendf(o->b, "[%s9], ", o->x);
		segc_tp_local(o, L_E, w, 0);
		segc_strbuf_appendf(o->b, "[%s9]) or math.isnan(%s2):\n", o->x,
			o->x);
		indent(o, depth + 2);
		segc_tp_local(o, L_T, w, 0);
		segc_strbuf_appendf(o->b, "[%s9] = %s2\n", o->x, o->x);
		indent(o, depth + 2);
		segc_tp_local(o, L_E, w, 0);
		segc_strbuf_appendf(o->b, "[%s9] = %s20\n", o->x, o->x);
		if (o->mode == TP_PUSH)
			put_count_key(o, depth + 1, id);
		return;
	}
	for (k = 0; k < ar->nat; k++)
		put_int(o, depth, L_AT, a, k, &ar->at[k], v);
	if (w == v && o->mode == TP_WALK) {
		/* forward in the lexicographic order (of tuples), or NaN */
		indent(o, depth);
		segc_strbuf_append(o->b, "if not ");
		put_key(o, w, L_AT, a);
		segc_strbuf_append(o->b, " > ");
		put_key(o, v, L_IDX, v);
		segc_strbuf_append(o->b, ":\n");
		indent(o, depth + 1);
		segc_strbuf_append(o->b, "return math.nan\n");
	}
	indent(o, depth);
	segc_strbuf_append(o->b, "if ");
	put_key(o, w, L_AT, a);
	segc_strbuf_append(o->b, " in ");
	segc_tp_local(o, L_T, w, 0);
	segc_strbuf_append(o->b, ":\n");
	put_relax(o, depth + 1, w, L_AT, a);
}

/* Appends the visit of the instance of kind 'v' whose indices are set,
 * at 'in': its finish time %s1 (its start 0 when no arc reached it)
 * pushed along the arcs that leave it; the exit's is the result %s0. */
static void put_visit(const segc_tp_out *o, unsigned in, size_t v)
{
	const segc_tp *t = &o->tp->t;
	const segc_tp_node *nd = &t->nodes[v];
	segc_strbuf *b = o->b;
	size_t a;

	indent(o, in);
	segc_strbuf_appendf(b, "%s1 = ", o->x);
	put_time(o, v, L_IDX, v);
	segc_strbuf_append(b, "\n");
	indent(o, in);
	segc_strbuf_appendf(b, "%s10 = ", o->x);
	put_time_of(o, L_E, v, L_IDX, v);
	segc_strbuf_append(b, "\n");
	indent(o, in);
	segc_strbuf_appendf(b, "if %s1 == -math.inf:\n", o->x);
	indent(o, in + 1);
	segc_strbuf_appendf(b, "%s1 = %s10 = 0.0\n", o->x, o->x);
	if (!segc_tp_prog_is_zero(o, &nd->cost))
		segc_tp_put_twosum(o, in, "1", "1", &nd->cost, v);
	if (v == t->exit) {
		indent(o, in);
		segc_strbuf_appendf(b, "%s0 = %s1\n", o->x, o->x);
	}
	for (a = 0; a < t->narcs; a++)
		if (t->arcs[a].from == v)
			put_arc(o, in, a, v);
}

/* Appends the longest path when the kinds feed each other: the arcs
 * into each instance counted (%s12, keyed by (kind, indices)), the
 * instances no arc reaches queued (the list %s13, %s17 instances in
 * all), and each instance of the queue visited with its indices taken
 * from its key, an instance queued once its last arc has come; fewer
 * instances visited than there are: a cycle, NaN. */
static void put_by_instance(segc_tp_out *o, unsigned depth)
{
	const segc_tp *t = &o->tp->t;
	const char *x = o->x;
	size_t v, a, k;
	unsigned in;

	indent(o, depth);
	segc_strbuf_append(o->b, "# the instances in a topological order\n");
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s12 = {}\n", x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s13 = []\n", x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = 0\n", x);
	o->mode = TP_COUNT;
	for (v = 0; v < t->n; v++) {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "# node %lu: its arcs counted\n",
			(unsigned long)v + 1);
		in = open_loops(o, v, depth);
		indent(o, in);
		segc_strbuf_appendf(o->b, "%s17 += 1\n", x);
		for (a = 0; a < t->narcs; a++)
			if (t->arcs[a].from == v)
				put_arc(o, in, a, v);
	}
	for (v = 0; v < t->n; v++) {
		in = open_loops(o, v, depth);
		indent(o, in);
		segc_strbuf_append(o->b, "if ");
		put_id(o, v, L_IDX, v);
		segc_strbuf_appendf(o->b, " not in %s12:\n", x);
		indent(o, in + 1);
		segc_strbuf_appendf(o->b, "%s13.append(", x);
		put_id(o, v, L_IDX, v);
		segc_strbuf_append(o->b, ")\n");
	}
	o->mode = TP_PUSH;
	/* a list iterated while it grows visits what is appended */
	indent(o, depth);
	segc_strbuf_appendf(o->b, "for %s14, %s16 in %s13:\n", x, x, x);
	for (v = 0; v < t->n; v++) {
		size_t d = t->nodes[v].d;

		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "if %s14 == %lu:\n", x,
			(unsigned long)v);
		if (d) {
			indent(o, depth + 2);
			for (k = 0; k < d; k++) {
				segc_tp_local(o, L_IDX, v, k);
				segc_strbuf_append(o->b, k + 1 < d ? ", " :
					d == 1 ? ", = " : " = ");
			}
			segc_strbuf_appendf(o->b, "%s16\n", x);
		}
		put_visit(o, depth + 2, v);
		indent(o, depth + 2);
		segc_strbuf_append(o->b, "continue\n");
	}
	o->mode = TP_WALK;
	/* an instance never queued: the arcs make a cycle */
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if len(%s13) < %s17:\n", x, x);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "return math.nan\n");
}

/* See emit_private.h. */
void segc_emit_taskpath_py(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth)
{
	const segc_tp *t = &nm->p->insn[i].tp->t;
	segc_tp_out o;
	size_t v, j;
	unsigned in;
	int fails = 0;

	o.fails = &fails;
	o.b = b;
	o.nm = nm;
	o.tp = nm->p->insn[i].tp;
	o.x = segc_emit_local_prefix(nm->arg, nm->p->nargs, 'p');
	o.insn = i;
	o.py = 1;
	o.f = 0;
	o.mode = TP_WALK;
	indent(&o, depth);
	segc_strbuf_appendf(b, "def %sf%lu():\n", o.x, (unsigned long)i);
	depth++;
	indent(&o, depth);
	segc_strbuf_appendf(b, "# the longest path of a task graph with indexed "
		"nodes: %lu kinds, %lu arcs\n", (unsigned long)t->n,
		(unsigned long)t->narcs);
	indent(&o, depth);
	segc_strbuf_appendf(b, "%s0 = 0.0\n", o.x);
	for (v = 0; v < t->n; v++) {
		indent(&o, depth);
		segc_tp_local(&o, L_T, v, 0);
		if (!t->nodes[v].d) {
			segc_strbuf_append(b, " = -math.inf\n");
			indent(&o, depth);
			segc_tp_local(&o, L_E, v, 0);
			segc_strbuf_append(b, " = 0.0\n");
			continue;
		}
		segc_strbuf_append(b, " = {}\n");
		indent(&o, depth);
		segc_tp_local(&o, L_E, v, 0);
		segc_strbuf_append(b, " = {}\n");
		in = open_loops(&o, v, depth);
		indent(&o, in);
		put_time(&o, v, L_IDX, v);
		segc_strbuf_append(b, " = -math.inf\n");
		indent(&o, in);
		put_time_of(&o, L_E, v, L_IDX, v);
		segc_strbuf_append(b, " = 0.0\n");
	}
	if (o.tp->by_instance)
		put_by_instance(&o, depth);
	for (j = 0; j < t->n && !o.tp->by_instance; j++) {
		v = o.tp->order[j];
		indent(&o, depth);
		segc_strbuf_appendf(b, "# node %lu\n", (unsigned long)v + 1);
		in = open_loops(&o, v, depth);
		put_visit(&o, in, v);
	}
	indent(&o, depth);
	segc_strbuf_appendf(b, "return %s0\n", o.x);
	depth--;
	indent(&o, depth);
	segc_strbuf_append(b, "try:\n");
	indent(&o, depth + 1);
	segc_emit_put_value(b, nm, i);
	segc_strbuf_appendf(b, " = %sf%lu()\n", o.x, (unsigned long)i);
	indent(&o, depth);
	segc_strbuf_append(b, "except (ArithmeticError, ValueError):\n");
	indent(&o, depth + 1);
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " = math.nan\n");
	free(o.x);
}
