/* emit_taskpath_py.c - the longest path of a task graph with indexed
 * nodes (a TASKPATH instruction) printed as Python: the syntax hooks of
 * the walk (emit_taskpath_walk.c) the C uses too (each node kind in the
 * plan's order, its instances over their index ranges in lexicographic
 * order, finish times pushed along the arcs), the times of a kind's
 * instances in a dict keyed by their index tuples; when the kinds feed
 * each other, the instances in a topological order found at run time
 * (the count of the arcs into each instance in a dict, a list as the
 * queue).  The walk is a local function whose return gives NaN where the
 * C jumps to NaN; an arithmetic error of Python (a division by zero, an
 * overflow) gives NaN too. */
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

/* The push along arc 'a' to every instance of its kind 'w' (no at
 * values): raised, or counted or released. */
static void put_to_all(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	char id[64];

	(void)a;
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
}

/* NaN unless the at values of arc 'a' from kind 'v' to itself go
 * forward in the lexicographic order (of tuples). */
static void put_forward(const segc_tp_out *o, unsigned depth, size_t a,
	size_t v)
{
	indent(o, depth);
	segc_strbuf_append(o->b, "if not ");
	put_key(o, v, L_AT, a);
	segc_strbuf_append(o->b, " > ");
	put_key(o, v, L_IDX, v);
	segc_strbuf_append(o->b, ":\n");
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "return math.nan\n");
}

/* Opens the test that the at values of arc 'a' name an instance of
 * 'w' (a key of its dict). */
static unsigned open_present(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	indent(o, depth);
	segc_strbuf_append(o->b, "if ");
	put_key(o, w, L_AT, a);
	segc_strbuf_append(o->b, " in ");
	segc_tp_local(o, L_T, w, 0);
	segc_strbuf_append(o->b, ":\n");
	return depth + 1;
}

/* Closes a block: nothing in Python, whose blocks end with their
 * indentation. */
static void close_none(const segc_tp_out *o, unsigned depth)
{
	(void)o;
	(void)depth;
}

/* Closes the loops of kind 'v': nothing, as close_none. */
static void close_loops(const segc_tp_out *o, size_t v, unsigned depth)
{
	(void)v;
	close_none(o, depth);
}

/* The finish time set to 0 when no arc reached the instance. */
static void put_unreached(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if %s1 == -math.inf:\n", o->x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s1 = %s10 = 0.0\n", o->x, o->x);
}

/* The instance order: the count of the arcs into each instance (%s12,
 * keyed by (kind, indices)), the queue (the list %s13) and the number
 * of instances (%s17). */
static void put_order_start(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s12 = {}\n", o->x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s13 = []\n", o->x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = 0\n", o->x);
}

/* One more instance counted. */
static void put_counted(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 += 1\n", o->x);
}

/* The instance of kind 'v' queued when no arc comes into it. */
static void put_root(const segc_tp_out *o, unsigned depth, size_t v)
{
	indent(o, depth);
	segc_strbuf_append(o->b, "if ");
	put_id(o, v, L_IDX, v);
	segc_strbuf_appendf(o->b, " not in %s12:\n", o->x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13.append(", o->x);
	put_id(o, v, L_IDX, v);
	segc_strbuf_append(o->b, ")\n");
}

/* Opens the loop over the queue: a list iterated while it grows visits
 * what is appended. */
static unsigned open_queue(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "for %s14, %s16 in %s13:\n", o->x, o->x,
		o->x);
	return depth + 1;
}

/* Opens the test that the instance taken is of kind 'v', its indices
 * taken from its key. */
static void open_taken(const segc_tp_out *o, unsigned depth, size_t v)
{
	size_t d = o->tp->t.nodes[v].d, k;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "if %s14 == %lu:\n", o->x,
		(unsigned long)v);
	if (!d)
		return;
	indent(o, depth + 1);
	for (k = 0; k < d; k++) {
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, k + 1 < d ? ", " : d == 1 ? ", = " :
			" = ");
	}
	segc_strbuf_appendf(o->b, "%s16\n", o->x);
}

/* Closes what open_taken opened at 'depth'. */
static void close_taken(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "continue\n");
}

/* An instance never queued: the arcs make a cycle. */
static void put_cycle(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if len(%s13) < %s17:\n", o->x, o->x);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "return math.nan\n");
}

/* Appends the time of the kind 'v' without indices at its start. */
static void put_point(const segc_tp_out *o, unsigned depth, size_t v)
{
	indent(o, depth);
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, " = -math.inf\n");
	indent(o, depth);
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, " = 0.0\n");
}

/* Appends the dicts of the times of the indexed kind 'v'. */
static void put_box(const segc_tp_out *o, unsigned depth, size_t v)
{
	indent(o, depth);
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, " = {}\n");
	indent(o, depth);
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, " = {}\n");
}

/* Appends the instance of the indexed kind 'v' whose indices are set:
 * a key of the dicts, no time yet. */
static void put_fresh(const segc_tp_out *o, unsigned in, size_t v)
{
	indent(o, in);
	put_time(o, v, L_IDX, v);
	segc_strbuf_append(o->b, " = -math.inf\n");
	indent(o, in);
	put_time_of(o, L_E, v, L_IDX, v);
	segc_strbuf_append(o->b, " = 0.0\n");
}

/* The syntax of Python. */
static const segc_tp_lang lang_py = {
	"", "# ", "",
	".0", "float(", ")", "math.pow(", "max(", "min(",
	/* x // 1.0 is floor(x), NaN for NaN or infinity */
	"((", ") // 1.0)", "(-((-(", ")) // 1.0))",
	indent, put_point, put_box, put_fresh, open_loops, close_loops,
	put_time_of, put_int, open_loops, close_loops,
	put_unreached, put_relax, put_to_all, put_forward, open_present,
	close_none, put_order_start, put_counted, put_root, open_queue,
	open_taken, close_taken, close_none, put_cycle, put_count,
	/* Python declares nothing */
	NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

/* See emit_private.h. */
void segc_emit_taskpath_py(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign)
{
	const segc_tp *t = &nm->p->insn[i].tp->t;
	segc_tp_out o;
	int fails = 0;

	(void)assign;
	o.lang = &lang_py;
	o.fails = &fails;
	o.b = b;
	o.nm = nm;
	o.tp = nm->p->insn[i].tp;
	o.x = segc_emit_local_prefix(nm->arg, nm->p->nargs, 'p');
	o.insn = i;
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
	segc_tp_walk_boxes(&o, depth);
	if (o.tp->by_instance)
		segc_tp_walk_instances(&o, depth);
	else
		segc_tp_walk_kinds(&o, depth);
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
