/* emit_taskpath_f.c - the longest path of a task graph with indexed
 * nodes (a TASKPATH instruction) printed as Fortran 2008: the syntax
 * hooks of the walk (emit_taskpath_walk.c), the C's walk inside a named
 * BLOCK construct of its own locals (allocatable arrays over each kind's
 * box, freed when the block ends), left by EXIT with the result NaN
 * where the C jumps to NaN; when the kinds feed each other, the
 * instances in the C's topological order found at run time (integer
 * arrays of the arcs still to come and of the queue).  Indices are held
 * in reals (integers below 2^53 are exact), only the places in the
 * arrays are default integers.  Lines longer than Fortran's 132 are
 * continued with '&' (segc_emit_f_wrapped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_taskpath.h"

/* Appends 'depth' levels of two spaces. */
static void indent(const segc_tp_out *o, unsigned depth)
{
	while (depth--)
		segc_strbuf_append(o->b, "  ");
}

/* Appends the place (from 1) in the box of kind 'w' of the indices
 * 'kind' (locals numbered by 'lv'). */
static void put_place(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	size_t d = o->tp->t.nodes[w].d, k, j;

	segc_strbuf_append(o->b, "1");
	for (k = 0; k < d; k++) {
		segc_strbuf_append(o->b, " + int(");
		segc_tp_local(o, kind, lv, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, w, k);
		segc_strbuf_append(o->b, ")");
		for (j = k + 1; j < d; j++) {
			segc_strbuf_append(o->b, " * int(");
			segc_tp_local(o, L_MAX, w, j);
			segc_strbuf_append(o->b, " - ");
			segc_tp_local(o, L_MIN, w, j);
			segc_strbuf_append(o->b, " + 1.0_c_double)");
		}
	}
}

/* Appends the array 'base' of kind 'w' at the indices 'kind' (lv). */
static void put_at(const segc_tp_out *o, unsigned long base, size_t w,
	unsigned long kind, size_t lv)
{
	segc_tp_local(o, base, w, 0);
	if (!o->tp->t.nodes[w].d)
		return;
	segc_strbuf_append(o->b, "(");
	put_place(o, w, kind, lv);
	segc_strbuf_append(o->b, ")");
}

/* Sets the real local (kind, lv, lk) to the integer program 'g' of kind
 * 'v', or exits to NaN unless it is an integer of at most 2^52. */
static void put_int(const segc_tp_out *o, unsigned depth, unsigned long kind,
	size_t lv, size_t lk, const segc_tp_prog *g, size_t v)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s3 = ", o->x);
	segc_tp_put_prog(o, g, v);
	segc_strbuf_append(o->b, "\n");
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (.not. (abs(%s3) <= 4503599627370496.0_"
		"c_double .and. segc_floor(%s3) >= %s3))", o->x, o->x, o->x);
	segc_strbuf_appendf(o->b, " exit %sf%lu\n", o->x,
		(unsigned long)o->insn);
	indent(o, depth);
	segc_tp_local(o, kind, lv, lk);
	segc_strbuf_appendf(o->b, " = %s3\n", o->x);
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
		segc_strbuf_append(o->b, "do while (");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " <= ");
		segc_tp_local(o, L_HI, v, k);
		segc_strbuf_append(o->b, ")\n");
		depth++;
	}
	return depth;
}

/* Closes the loops of kind 'v' whose body is at 'depth'. */
static void close_loops(const segc_tp_out *o, size_t v, unsigned depth)
{
	size_t k;

	for (k = o->tp->t.nodes[v].d; k-- > 0;) {
		indent(o, depth);
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " = ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " + 1.0_c_double\n");
		depth--;
		indent(o, depth);
		segc_strbuf_append(o->b, "end do\n");
	}
}

/* Appends the number (from 1) of the instance of kind 'w' at the
 * indices 'kind' (lv) among all instances. */
static void put_id(const segc_tp_out *o, size_t w, unsigned long kind,
	size_t lv)
{
	segc_strbuf_appendf(o->b, "%s11(%lu)", o->x, (unsigned long)w + 1);
	segc_strbuf_append(o->b, " + ");
	put_place(o, w, kind, lv);
}

/* Appends the count of one more arc into the instance whose number is
 * the text 'id', or (TP_PUSH) one fewer and its release into the queue
 * when none is left. */
static void put_count_id(const segc_tp_out *o, unsigned depth,
	const char *id)
{
	const char *x = o->x;

	indent(o, depth);
	if (o->mode == TP_COUNT) {
		segc_strbuf_appendf(o->b, "%s12(%s) = %s12(%s) + 1\n", x, id,
			x, id);
		return;
	}
	segc_strbuf_appendf(o->b, "%s12(%s) = %s12(%s) - 1\n", x, id, x, id);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s12(%s) == 0) then\n", x, id);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s15 = %s15 + 1\n", x, x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13(%s15) = %s\n", x, x, id);
	indent(o, depth);
	segc_strbuf_append(o->b, "end if\n");
}

/* put_count_id for the instance of kind 'w' at the indices 'kind'
 * (lv). */
static void put_count(const segc_tp_out *o, unsigned depth, size_t w,
	unsigned long kind, size_t lv)
{
	segc_strbuf id;
	segc_tp_out c = *o;

	segc_strbuf_init(&id);
	c.b = &id;
	put_id(&c, w, kind, lv);
	put_count_id(o, depth, segc_strbuf_str(&id));
	segc_strbuf_free(&id);
}

/* The push along arc 'a' to every instance of its kind 'w' (no at
 * values): tested and raised, or counted or released. */
static void put_to_all(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	char id[64];

	(void)a;
	snprintf(id, sizeof id, "%s11(%lu) + %s9", o->x,
		(unsigned long)w + 1, o->x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "do %s9 = 1, %s8(%lu)\n", o->x, o->x,
		(unsigned long)w + 1);
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "if (");
	segc_tp_local(o, L_EX, w, 0);
	segc_strbuf_appendf(o->b, "(%s9)) then\n", o->x);
	if (o->mode == TP_COUNT) {
		put_count_id(o, depth + 2, id);
		goto close;
	}
	segc_tp_put_raise_all(o, depth + 2, w);
	if (o->mode == TP_PUSH)
		put_count_id(o, depth + 2, id);
close:
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "end if\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "end do\n");
}

/* Exits to NaN unless the at values of arc 'a' from kind 'v' to itself
 * go forward in the lexicographic order (no == on reals). */
static void put_forward(const segc_tp_out *o, unsigned depth, size_t a,
	size_t v)
{
	size_t k, dw = o->tp->t.nodes[v].d;

	indent(o, depth);
	segc_strbuf_append(o->b, "if (.not. (");
	for (k = 0; k < dw; k++) {
		size_t j;

		segc_strbuf_append(o->b, k ? " .or. (" : "(");
		for (j = 0; j < k; j++) {
			segc_tp_local(o, L_AT, a, j);
			segc_strbuf_append(o->b, " >= ");
			segc_tp_local(o, L_IDX, v, j);
			segc_strbuf_append(o->b, " .and. ");
			segc_tp_local(o, L_AT, a, j);
			segc_strbuf_append(o->b, " <= ");
			segc_tp_local(o, L_IDX, v, j);
			segc_strbuf_append(o->b, " .and. ");
		}
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " > ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ")");
	}
	segc_strbuf_append(o->b, "))");
	segc_strbuf_appendf(o->b, " exit %sf%lu\n", o->x,
		(unsigned long)o->insn);
}

/* Opens the test that the at values of arc 'a' name an instance of 'w'
 * (in its box, then one). */
static unsigned open_present(const segc_tp_out *o, unsigned depth, size_t a,
	size_t w)
{
	size_t k, dw = o->tp->t.nodes[w].d;

	/* Fortran's .and. need not stop early: the place is read only
	 * inside the test of the box */
	indent(o, depth);
	segc_strbuf_append(o->b, "if (");
	for (k = 0; k < dw; k++) {
		segc_strbuf_append(o->b, k ? " .and. " : "");
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " >= ");
		segc_tp_local(o, L_MIN, w, k);
		segc_strbuf_append(o->b, " .and. ");
		segc_tp_local(o, L_AT, a, k);
		segc_strbuf_append(o->b, " <= ");
		segc_tp_local(o, L_MAX, w, k);
	}
	segc_strbuf_append(o->b, ") then\n");
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "if (");
	put_at(o, L_EX, w, L_AT, a);
	segc_strbuf_append(o->b, ") then\n");
	return depth + 2;
}

/* Closes what open_present opened at 'depth'. */
static void close_present(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "end if\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "end if\n");
}

/* Appends the declarations of the instance order's locals. */
static void put_decl_order(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "integer :: %s11(%lu), %s14, %s15, "
		"%s16, %s17\n", o->x, (unsigned long)o->tp->t.n, o->x, o->x,
		o->x, o->x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "integer, allocatable :: %s12(:), "
		"%s13(:)\n", o->x, o->x);
}

/* Appends the declaration of the kinds' places and of the counter of a
 * loop over them (declared whether used or not: gfortran does not warn
 * of it). */
static void put_decl_places(const segc_tp_out *o, unsigned depth, int all)
{
	(void)all;
	indent(o, depth);
	segc_strbuf_appendf(o->b, "integer :: %s8(%lu), %s9\n", o->x,
		(unsigned long)o->tp->t.n, o->x);
}

/* Appends the declarations of the locals of kind 'v': its time (and
 * low part), or its arrays and its indices with their boxes. */
static void put_decl_kind(const segc_tp_out *o, unsigned depth, size_t v)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;

	indent(o, depth);
	if (!nd->d) {
		segc_strbuf_append(o->b, "real(c_double) :: ");
		segc_tp_local(o, L_T, v, 0);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_E, v, 0);
		segc_strbuf_append(o->b, "\n");
		return;
	}
	segc_strbuf_append(o->b, "real(c_double), allocatable :: ");
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, "(:), ");
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, "(:)\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "logical, allocatable :: ");
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_append(o->b, "(:)\n");
	for (k = 0; k < nd->d; k++) {
		indent(o, depth);
		segc_strbuf_append(o->b, "real(c_double) :: ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_HI, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, "\n");
	}
}

/* Appends the time of the kind 'v' without indices at its start. */
static void put_point(const segc_tp_out *o, unsigned depth, size_t v)
{
	indent(o, depth);
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_append(o->b, " = -huge(1.0_c_double)\n");
	indent(o, depth);
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_append(o->b, " = 0.0_c_double\n");
}

/* Appends the box of the indexed kind 'v' (its least and greatest
 * indices, its places at most 2^26) and its arrays. */
static void put_box(const segc_tp_out *o, unsigned depth, size_t v)
{
	const segc_tp_node *nd = &o->tp->t.nodes[v];
	size_t k;
	unsigned in;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "! node %lu: the box of its indices\n",
		(unsigned long)v + 1);
	for (k = 0; k < nd->d; k++) {
		indent(o, depth);
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " = 4503599627370496.0_c_double\n");
		indent(o, depth);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " = -4503599627370496.0_c_double\n");
	}
	in = open_loops(o, v, depth);
	for (k = 0; k < nd->d; k++) {
		indent(o, in);
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " = min(");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ")\n");
		indent(o, in);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " = max(");
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, ", ");
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, ")\n");
	}
	close_loops(o, v, in);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s3 = 1.0_c_double\n", o->x);
	for (k = 0; k < nd->d; k++) {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s3 = %s3 * max(0.0_c_double, ",
			o->x, o->x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1.0_c_double)\n");
	}
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s3 > 67108864.0_c_double) exit "
		"%sf%lu\n", o->x, o->x, (unsigned long)o->insn);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s8(%lu) = max(1, int(%s3))\n", o->x,
		(unsigned long)v + 1, o->x);
	indent(o, depth);
	segc_strbuf_append(o->b, "allocate(");
	segc_tp_local(o, L_T, v, 0);
	segc_strbuf_appendf(o->b, "(%s8(%lu)), ", o->x,
		(unsigned long)v + 1);
	segc_tp_local(o, L_E, v, 0);
	segc_strbuf_appendf(o->b, "(%s8(%lu)), ", o->x,
		(unsigned long)v + 1);
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_appendf(o->b, "(%s8(%lu)), stat=%s9)\n", o->x,
		(unsigned long)v + 1, o->x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s9 /= 0) exit %sf%lu\n", o->x,
		o->x, (unsigned long)o->insn);
	indent(o, depth);
	segc_tp_local(o, L_EX, v, 0);
	segc_strbuf_append(o->b, " = .false.\n");
}

/* Appends the instance of the indexed kind 'v' whose indices are set:
 * one, no time yet. */
static void put_fresh(const segc_tp_out *o, unsigned in, size_t v)
{
	indent(o, in);
	put_at(o, L_EX, v, L_IDX, v);
	segc_strbuf_append(o->b, " = .true.\n");
	indent(o, in);
	put_at(o, L_T, v, L_IDX, v);
	segc_strbuf_append(o->b, " = -huge(1.0_c_double)\n");
	indent(o, in);
	put_at(o, L_E, v, L_IDX, v);
	segc_strbuf_append(o->b, " = 0.0_c_double\n");
}

/* Closes the loops of kind 'v' opened at 'depth'. */
static void close_loops_at(const segc_tp_out *o, size_t v, unsigned depth)
{
	close_loops(o, v, depth + (unsigned)o->tp->t.nodes[v].d);
}

/* The finish time set to 0 when no arc reached the instance. */
static void put_unreached(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s1 < -1.0e308_c_double) then\n",
		o->x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s1 = 0.0_c_double\n", o->x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s10 = 0.0_c_double\n", o->x);
	indent(o, depth);
	segc_strbuf_append(o->b, "end if\n");
}

/* Opens the loops over the instances of kind 'v' at 'depth' and the
 * test that a place of its box is one; returns the depth of the body. */
static unsigned open_instances(const segc_tp_out *o, size_t v,
	unsigned depth)
{
	unsigned in = open_loops(o, v, depth);

	if (!o->tp->t.nodes[v].d)
		return in;
	indent(o, in);
	segc_strbuf_append(o->b, "if (");
	put_at(o, L_EX, v, L_IDX, v);
	segc_strbuf_append(o->b, ") then\n");
	return in + 1;
}

/* Closes what open_instances opened at 'depth'. */
static void close_instances(const segc_tp_out *o, size_t v, unsigned depth)
{
	unsigned in = depth + (unsigned)o->tp->t.nodes[v].d;

	if (o->tp->t.nodes[v].d) {
		indent(o, in);
		segc_strbuf_append(o->b, "end if\n");
	}
	close_loops(o, v, in);
}

/* The instance order, as the C's: the instances numbered from 1 (kind
 * by kind, each over its box), the count of the arcs into each (%s12)
 * and the queue (%s13). */
static void put_order_start(const segc_tp_out *o, unsigned depth)
{
	const segc_tp *t = &o->tp->t;
	const char *x = o->x;
	size_t v;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = 0\n", x);
	for (v = 0; v < t->n; v++) {
		indent(o, depth);
		segc_strbuf_appendf(o->b, "%s11(%lu) = %s17\n", x,
			(unsigned long)v + 1, x);
		indent(o, depth);
		if (t->nodes[v].d)
			segc_strbuf_appendf(o->b, "%s17 = %s17 + %s8(%lu)\n", x,
				x, x, (unsigned long)v + 1);
		else
			segc_strbuf_appendf(o->b, "%s17 = %s17 + 1\n", x, x);
	}
	indent(o, depth);
	segc_strbuf_appendf(o->b, "allocate(%s12(%s17), %s13(%s17), "
		"stat=%s16)\n", x, x, x, x, x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s16 /= 0) exit %sf%lu\n", x, x,
		(unsigned long)o->insn);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s12 = 0\n", x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = 0\n", x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s15 = 0\n", x);
}

/* One more instance counted. */
static void put_counted(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s17 = %s17 + 1\n", o->x, o->x);
}

/* The instance of kind 'v' queued when no arc comes into it. */
static void put_root(const segc_tp_out *o, unsigned depth, size_t v)
{
	const char *x = o->x;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s12(", x);
	put_id(o, v, L_IDX, v);
	segc_strbuf_append(o->b, ") == 0) then\n");
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s15 = %s15 + 1\n", x, x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s13(%s15) = ", x, x);
	put_id(o, v, L_IDX, v);
	segc_strbuf_append(o->b, "\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "end if\n");
}

/* Opens the loop over the queue. */
static unsigned open_queue(const segc_tp_out *o, unsigned depth)
{
	const char *x = o->x;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s14 = 0\n", x);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "do while (%s14 < %s15)\n", x, x);
	indent(o, depth + 1);
	segc_strbuf_appendf(o->b, "%s14 = %s14 + 1\n", x, x);
	return depth + 1;
}

/* Opens the test that the instance taken is of kind 'v', its indices
 * decoded from its number. */
static void open_taken(const segc_tp_out *o, unsigned depth, size_t v)
{
	const char *x = o->x;
	size_t d = o->tp->t.nodes[v].d, k;

	indent(o, depth);
	segc_strbuf_appendf(o->b, "! node %lu\n", (unsigned long)v + 1);
	indent(o, depth);
	segc_strbuf_appendf(o->b, "%s16 = %s13(%s14)\n", x, x, x);
	indent(o, depth);
	if (d)
		segc_strbuf_appendf(o->b, "if (%s16 > %s11(%lu) .and. "
			"%s16 <= %s11(%lu) + %s8(%lu)) then\n", x, x,
			(unsigned long)v + 1, x, x, (unsigned long)v + 1, x,
			(unsigned long)v + 1);
	else
		segc_strbuf_appendf(o->b, "if (%s16 == %s11(%lu) + 1) "
			"then\n", x, x, (unsigned long)v + 1);
	if (d) {
		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "%s16 = %s16 - %s11(%lu) - 1\n",
			x, x, x, (unsigned long)v + 1);
	}
	for (k = d; k-- > 0;) {
		indent(o, depth + 1);
		segc_tp_local(o, L_IDX, v, k);
		segc_strbuf_append(o->b, " = ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_appendf(o->b, " + real(mod(%s16, int(", x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1.0_c_double)), c_double)\n");
		if (!k)
			break;
		indent(o, depth + 1);
		segc_strbuf_appendf(o->b, "%s16 = %s16 / int(", x, x);
		segc_tp_local(o, L_MAX, v, k);
		segc_strbuf_append(o->b, " - ");
		segc_tp_local(o, L_MIN, v, k);
		segc_strbuf_append(o->b, " + 1.0_c_double)\n");
	}
}

/* Closes what open_taken opened at 'depth'. */
static void close_taken(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth + 1);
	segc_strbuf_append(o->b, "cycle\n");
	indent(o, depth);
	segc_strbuf_append(o->b, "end if\n");
}

/* Closes the loop over the queue. */
static void close_queue(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_append(o->b, "end do\n");
}

/* An instance never queued: the arcs make a cycle. */
static void put_cycle(const segc_tp_out *o, unsigned depth)
{
	indent(o, depth);
	segc_strbuf_appendf(o->b, "if (%s15 < %s17) exit %sf%lu\n", o->x,
		o->x, o->x, (unsigned long)o->insn);
}

/* The syntax of Fortran. */
static const segc_tp_lang lang_f = {
	"", "! ", "",
	".0_c_double", "", "", "segc_pow(", "segc_fmax(", "segc_fmin(",
	"segc_floor(", ")", "segc_ceil(", ")",
	indent, put_point, put_box, put_fresh, open_loops, close_loops_at,
	put_at, put_int, open_instances, close_instances,
	put_unreached, NULL, put_to_all, put_forward, open_present,
	close_present, put_order_start, put_counted, put_root, open_queue,
	open_taken, close_taken, close_queue, put_cycle, put_count,
	"real(c_double) :: ", "", "real(c_double) :: ", "", put_decl_order,
	put_decl_places, put_decl_kind,
	" .or. ", " .and. ", "ieee_is_nan(", ") then\n", "end if\n", "(", ")"
};

/* Non-zero when 'name', without case, is 'x' followed by digits, or by
 * 'f' and digits (the walk's label). */
static int meets_prefix(const char *name, const char *x)
{
	size_t n = strlen(x);

	if (strncasecmp(name, x, n))
		return 0;
	name += n;
	if (*name == 'f' || *name == 'F')
		name++;
	if (!*name)
		return 0;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return 0;
	return 1;
}

/* The prefix of the walk's locals and label: 'p' repeated until no
 * argument, in any case (Fortran ignores it), is one of them. */
static char *walk_prefix(const segc_emit_namer *nm)
{
	segc_strbuf b;
	size_t i;
	int clash = 1;

	segc_strbuf_init(&b);
	segc_strbuf_appendc(&b, 'p');
	while (clash) {
		clash = 0;
		for (i = 0; i < nm->p->nargs && !clash; i++)
			clash = meets_prefix(nm->arg[i], segc_strbuf_str(&b));
		if (clash)
			segc_strbuf_appendc(&b, 'p');
	}
	return segc_strbuf_take(&b);
}

/* See emit_private.h. */
void segc_emit_taskpath_f(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign)
{
	const segc_tp *t = &nm->p->insn[i].tp->t;
	segc_strbuf text;
	segc_tp_out o;
	int fails = 0;

	(void)assign;
	segc_strbuf_init(&text);
	o.lang = &lang_f;
	o.fails = &fails;
	o.b = &text;
	o.nm = nm;
	o.tp = nm->p->insn[i].tp;
	o.x = walk_prefix(nm);
	o.insn = i;
	o.mode = TP_WALK;
	indent(&o, depth);
	segc_emit_put_value(&text, nm, i);
	segc_strbuf_append(&text, " = ieee_value(0.0_c_double, "
		"ieee_quiet_nan)\n");
	indent(&o, depth);
	segc_strbuf_appendf(&text, "%sf%lu: block\n", o.x, (unsigned long)i);
	indent(&o, depth + 1);
	segc_strbuf_appendf(&text, "! the longest path of a task graph with "
		"indexed nodes: %lu kinds, %lu arcs\n", (unsigned long)t->n,
		(unsigned long)t->narcs);
	segc_tp_walk_decls(&o, depth + 1);
	indent(&o, depth + 1);
	segc_strbuf_appendf(&text, "%s0 = 0.0_c_double\n", o.x);
	segc_tp_walk_boxes(&o, depth + 1);
	if (o.tp->by_instance)
		segc_tp_walk_instances(&o, depth + 1);
	else
		segc_tp_walk_kinds(&o, depth + 1);
	indent(&o, depth + 1);
	segc_emit_put_value(&text, nm, i);
	segc_strbuf_appendf(&text, " = %s0\n", o.x);
	indent(&o, depth);
	segc_strbuf_appendf(&text, "end block %sf%lu\n", o.x,
		(unsigned long)i);
	segc_emit_f_wrapped(b, segc_strbuf_str(&text));
	segc_strbuf_free(&text);
	free(o.x);
}
