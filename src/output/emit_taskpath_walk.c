/* emit_taskpath_walk.c - the walk of a TASKPATH plan (plan_taskpath.c)
 * printed once for every language: the kinds in the plan's order or,
 * when they feed each other, the instances in a topological order found
 * at run time (Kahn's algorithm), each instance's finish time pushed
 * along its arcs.  What is written in the syntax of a language comes
 * from its table of hooks (segc_tp_lang in emit_taskpath.h:
 * emit_taskpath_c.c, emit_taskpath_f.c, emit_taskpath_py.c). */
#include <stdio.h>
#include "output/emit_taskpath.h"

/* See emit_taskpath.h. */
void segc_tp_put_rem(const segc_tp_out *o, unsigned depth, const char *text)
{
	o->lang->indent(o, depth);
	segc_strbuf_appendf(o->b, "%s%s%s\n", o->lang->rem, text,
		o->lang->rem_end);
}

/* See emit_taskpath.h. */
void segc_tp_walk_decls(const segc_tp_out *o, unsigned depth)
{
	const segc_tp_lang *l = o->lang;
	const segc_tp *t = &o->tp->t;
	static const char *const costs_locals[] = { "4", "5", "6", "7" };
	size_t v, k, a;
	int indexed = 0, all = 0, at = 0, costs = 0;

	for (v = 0; v < t->n; v++) {
		indexed |= t->nodes[v].d > 0;
		costs |= !segc_tp_prog_is_zero(o, &t->nodes[v].cost);
	}
	for (a = 0; a < t->narcs; a++) {
		costs |= !segc_tp_prog_is_zero(o, &t->arcs[a].cost);
		at |= t->arcs[a].nat > 0;
		all |= !t->arcs[a].nat && t->nodes[t->arcs[a].to].d > 0;
	}
	l->indent(o, depth);
	segc_strbuf_appendf(o->b, "%s%s0%s, %s1%s, %s10%s", l->real_decl,
		o->x, l->real_init, o->x, l->real_init, o->x, l->real_init);
	if (t->narcs)
		segc_strbuf_appendf(o->b, ", %s2%s, %s20%s", o->x, l->real_init,
			o->x, l->real_init);
	for (k = 0; costs && k < 4; k++)
		segc_strbuf_appendf(o->b, ", %s%s%s", o->x, costs_locals[k],
			l->real_init);
	if (indexed || at)
		segc_strbuf_appendf(o->b, ", %s3%s", o->x, l->real_init);
	segc_strbuf_appendf(o->b, "%s\n", l->semi);
	if (o->tp->by_instance)
		l->put_decl_order(o, depth);
	if (indexed)
		l->put_decl_places(o, depth, all);
	for (v = 0; v < t->n; v++)
		l->put_decl_kind(o, depth, v);
	for (a = 0; a < t->narcs; a++)
		for (k = 0; k < t->arcs[a].nat; k++) {
			l->indent(o, depth);
			segc_strbuf_append(o->b, l->at_decl);
			segc_tp_local(o, L_AT, a, k);
			segc_strbuf_appendf(o->b, "%s%s\n", l->at_init, l->semi);
		}
}

/* Appends, at 'depth', the statement 'dst' = 'src' (locals after the
 * prefix). */
static void put_copy(const segc_tp_out *o, unsigned depth, const char *dst,
	const char *src)
{
	o->lang->indent(o, depth);
	segc_strbuf_appendf(o->b, "%s%s = %s%s%s\n", o->x, dst, o->x, src,
		o->lang->semi);
}

/* Where one time is: the element of kind w's arrays at the indices
 * 'kind' (lv), or ('all') at the counter %s9 of a loop over them. */
typedef struct tp_place {
	size_t w;
	unsigned long kind;
	size_t lv;
	int all;
} tp_place;

/* Appends the element of the array 'base' at the place 'pl'. */
static void put_elem(const segc_tp_out *o, unsigned long base,
	const tp_place *pl)
{
	if (!pl->all) {
		o->lang->put_at(o, base, pl->w, pl->kind, pl->lv);
		return;
	}
	segc_tp_local(o, base, pl->w, 0);
	segc_strbuf_appendf(o->b, "%s%s9%s", o->lang->sub_open, o->x,
		o->lang->sub_close);
}

/* Appends the raise of the time (T, E) at the place 'pl' to the
 * candidate (%s2, %s20) when it is larger (or NaN), the pairs compared
 * without comparing doubles for equality. */
static void put_raise(const segc_tp_out *o, unsigned depth,
	const tp_place *pl)
{
	const segc_tp_lang *l = o->lang;

	l->indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s2 > ", o->x);
	put_elem(o, L_T, pl);
	segc_strbuf_appendf(o->b, "%s(%s2 >= ", l->or_, o->x);
	put_elem(o, L_T, pl);
	segc_strbuf_appendf(o->b, "%s%s20 > ", l->and_, o->x);
	put_elem(o, L_E, pl);
	segc_strbuf_appendf(o->b, ")%s%s%s2)%s", l->or_, l->isnan_open, o->x,
		l->then);
	l->indent(o, depth + 1);
	put_elem(o, L_T, pl);
	segc_strbuf_appendf(o->b, " = %s2%s\n", o->x, l->semi);
	l->indent(o, depth + 1);
	put_elem(o, L_E, pl);
	segc_strbuf_appendf(o->b, " = %s20%s\n", o->x, l->semi);
	l->indent(o, depth);
	segc_strbuf_append(o->b, l->end_if);
}

/* See emit_taskpath.h. */
void segc_tp_put_raise_all(const segc_tp_out *o, unsigned depth, size_t w)
{
	tp_place pl;

	pl.w = w;
	pl.kind = 0;
	pl.lv = 0;
	pl.all = 1;
	put_raise(o, depth, &pl);
}

/* Appends the raise of the time of kind 'w' at the indices 'kind' (lv)
 * (put_raise); counts the arc (TP_COUNT) or releases the instance
 * (TP_PUSH) too.  A language whose table has a put_relax of its own
 * prints it itself. */
static void put_relax(const segc_tp_out *o, unsigned depth, size_t w,
	unsigned long kind, size_t lv)
{
	const segc_tp_lang *l = o->lang;
	tp_place pl;

	if (l->put_relax) {
		l->put_relax(o, depth, w, kind, lv);
		return;
	}
	if (o->mode == TP_COUNT) {
		l->put_count(o, depth, w, kind, lv);
		return;
	}
	pl.w = w;
	pl.kind = kind;
	pl.lv = lv;
	pl.all = 0;
	put_raise(o, depth, &pl);
	if (o->mode == TP_PUSH)
		l->put_count(o, depth, w, kind, lv);
}

/* Appends the push of the finish time (%s1, %s10) of an instance of
 * kind 'v' along arc 'a': its cost added (not when counting), then the
 * time of the instance it reaches raised. */
static void put_arc(const segc_tp_out *o, unsigned depth, size_t a, size_t v)
{
	const segc_tp_lang *l = o->lang;
	const segc_tp_arc *ar = &o->tp->t.arcs[a];
	size_t w = ar->to, k;
	unsigned in;
	char text[96];

	snprintf(text, sizeof text, "arc %lu: node %lu to node %lu",
		(unsigned long)a + 1, (unsigned long)v + 1,
		(unsigned long)w + 1);
	segc_tp_put_rem(o, depth, text);
	if (o->mode == TP_COUNT)
		;
	else if (!segc_tp_prog_is_zero(o, &ar->cost))
		segc_tp_put_twosum(o, depth, "2", "1", &ar->cost, v);
	else {
		put_copy(o, depth, "2", "1");
		put_copy(o, depth, "20", "10");
	}
	if (!o->tp->t.nodes[w].d) {
		put_relax(o, depth, w, L_AT, a);
		return;
	}
	if (!ar->nat) {
		l->put_to_all(o, depth, a, w);
		return;
	}
	for (k = 0; k < ar->nat; k++)
		l->put_int(o, depth, L_AT, a, k, &ar->at[k], v);
	if (w == v && o->mode == TP_WALK)
		l->put_forward(o, depth, a, v);
	in = l->open_present(o, depth, a, w);
	put_relax(o, in, w, L_AT, a);
	l->close_present(o, depth);
}

/* Appends the visit of the instance of kind 'v' whose indices are set,
 * at 'in': its finish time %s1 (its start 0 when no arc reached it)
 * pushed along the arcs that leave it; the exit's is the result %s0. */
static void put_visit(const segc_tp_out *o, unsigned in, size_t v)
{
	const segc_tp_lang *l = o->lang;
	const segc_tp *t = &o->tp->t;
	size_t a;

	l->indent(o, in);
	segc_strbuf_appendf(o->b, "%s1 = ", o->x);
	l->put_at(o, L_T, v, L_IDX, v);
	segc_strbuf_appendf(o->b, "%s\n", l->semi);
	l->indent(o, in);
	segc_strbuf_appendf(o->b, "%s10 = ", o->x);
	l->put_at(o, L_E, v, L_IDX, v);
	segc_strbuf_appendf(o->b, "%s\n", l->semi);
	l->put_unreached(o, in);
	if (!segc_tp_prog_is_zero(o, &t->nodes[v].cost))
		segc_tp_put_twosum(o, in, "1", "1", &t->nodes[v].cost, v);
	if (v == t->exit)
		put_copy(o, in, "0", "1");
	for (a = 0; a < t->narcs; a++)
		if (t->arcs[a].from == v)
			put_arc(o, in, a, v);
}

/* See emit_taskpath.h. */
void segc_tp_walk_boxes(const segc_tp_out *o, unsigned depth)
{
	const segc_tp_lang *l = o->lang;
	size_t v;

	for (v = 0; v < o->tp->t.n; v++) {
		if (!o->tp->t.nodes[v].d) {
			l->put_point(o, depth, v);
			continue;
		}
		l->put_box(o, depth, v);
		l->put_fresh(o, l->open_loops(o, v, depth), v);
		l->close_loops(o, v, depth);
	}
}

/* See emit_taskpath.h. */
void segc_tp_walk_kinds(segc_tp_out *o, unsigned depth)
{
	const segc_tp *t = &o->tp->t;
	size_t i, v;
	char text[48];

	for (i = 0; i < t->n; i++) {
		v = o->tp->order[i];
		snprintf(text, sizeof text, "node %lu", (unsigned long)v + 1);
		segc_tp_put_rem(o, depth, text);
		put_visit(o, o->lang->open_instances(o, v, depth), v);
		o->lang->close_instances(o, v, depth);
	}
}

/* See emit_taskpath.h. */
void segc_tp_walk_instances(segc_tp_out *o, unsigned depth)
{
	const segc_tp_lang *l = o->lang;
	const segc_tp *t = &o->tp->t;
	size_t v, a;
	unsigned in;
	char text[64];

	segc_tp_put_rem(o, depth, "the instances in a topological order");
	l->put_order_start(o, depth);
	o->mode = TP_COUNT;
	for (v = 0; v < t->n; v++) {
		snprintf(text, sizeof text, "node %lu: its arcs counted",
			(unsigned long)v + 1);
		segc_tp_put_rem(o, depth, text);
		in = l->open_instances(o, v, depth);
		l->put_counted(o, in);
		for (a = 0; a < t->narcs; a++)
			if (t->arcs[a].from == v)
				put_arc(o, in, a, v);
		l->close_instances(o, v, depth);
	}
	for (v = 0; v < t->n; v++) {
		in = l->open_instances(o, v, depth);
		l->put_root(o, in, v);
		l->close_instances(o, v, depth);
	}
	o->mode = TP_PUSH;
	in = l->open_queue(o, depth);
	for (v = 0; v < t->n; v++) {
		l->open_taken(o, in, v);
		put_visit(o, in + 1, v);
		l->close_taken(o, in);
	}
	l->close_queue(o, depth);
	o->mode = TP_WALK;
	l->put_cycle(o, depth);
}
