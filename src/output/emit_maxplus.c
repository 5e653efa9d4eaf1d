/* emit_maxplus.c - the recurrence of an overlapped loop (the atom
 * maxplus(...), FORMAT.md 3.2) in an emitted predictor.  The plan's
 * operation is lowered to one MAXPLUS instruction whose operands are the
 * count and the costs (lowered like any other value), and printed, in C,
 * Python or Fortran (the pieces of each language's statements from its
 * segc_emit_syntax), as the loop of Simon & Wierum's evaluation (2.5):
 * the time stamps propagated iteration by iteration, every node's update
 * written out (the graph is a constant of the model), the finish times of
 * the last D + 1 iterations in a ring sized at emit time, and the period
 * check of
 * segc eval (algebra/maxplus.c): once the last D steps moved every node
 * that a forward arc leaves by the same lambda >= 0 and the last step took
 * every carried time from the earlier iterations, every later step does
 * the same, and the loop jumps to n.  The check compares doubles exactly,
 * so it fires as in eval when the doubles are exact (costs of a few
 * binary digits); otherwise the loop runs all n iterations.
 *
 * Every time stamp is a double-double, hi + lo renormalized (segc_acc in
 * the emitted code: TwoSum, then FastTwoSum), so that the roundings of
 * thousands of additions along the critical path do not add up: with
 * costs >= 0, each within a relative e of its value, every path's sum is
 * within e, the maxima keep that, and the double-doubles add less than
 * 3 u^2 of the time per addition (below u/2 for fewer than 2^26
 * iterations of at most 2^16 nodes), so the result, hi, is within e + 1 u
 * (the analysis of plan_bound.c).  Maxima compare the pairs
 * lexicographically, exact for renormalized pairs. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"
#include "output/emit_private.h"
#include "graph/maxplus.h"

/* The most doubles a predictor keeps for one recurrence (its ring). */
#define MAXPLUS_MAX_RING 65536UL

/* ------------------------------------------------------------ planning */

/* Releases the graph of a MAXPLUS. */
void segc_plan_maxplus_free(segc_plan_maxplus *mp)
{
	if (!mp)
		return;
	free(mp->from);
	free(mp->to);
	free(mp->dist);
	free(mp->state);
	free(mp->val);
	free(mp);
}

/* Counts the uses of the costs of the MAXPLUS 'in'. */
void segc_plan_maxplus_uses(segc_plan *p, const segc_plan_insn *in)
{
	size_t j;

	for (j = 0; j < in->mp->m + in->mp->k; j++)
		if (in->mp->val[j] != SIZE_MAX)
			p->insn[in->mp->val[j]].uses++;
}

/* Decodes the graph of the maxplus atom 'e' into 'mp' (its numbers:
 * every argument but the count and the costs); NULL, or what is wrong. */
static const char *decode(const segc_expr *e, segc_plan_maxplus *mp)
{
	segc_maxplus_sys s;
	const char *why = segc_maxplus_decode_graph(e, &s);

	if (!why && (s.D + 1) * s.m > MAXPLUS_MAX_RING)
		why = "its ring of time stamps would be too large";
	if (!why) {
		mp->m = s.m;
		mp->k = s.k;
		mp->D = s.D;
		mp->carried = s.carried;
		mp->from = s.from;
		mp->to = s.to;
		mp->dist = s.dist;
		mp->state = s.state;
		free(s.settled);
		memset(&s, 0, sizeof s);
	}
	segc_maxplus_clear(&s);
	return why;
}

/* Lowers the costs of the recurrence 'in' into mp->val, in the block
 * being filled: for maxplusv the plan's arguments after the count, for
 * maxplus those of its arguments that are costs. */
static int plan_costs(segc_plan_builder *bd, const segc_eplan_ins *in,
	segc_plan_maxplus *mp)
{
	int varying = in->op == SEGC_EPO_MAXPLUSV;
	size_t j, c = 0;

	for (j = varying ? 1 : 2; j < in->nargs; j++) {
		mpq_srcptr q = segc_plan_slot_num(bd, in->arg[j]);

		if (!varying && !segc_maxplus_arg_is_cost(j, mp->m))
			continue;
		mp->val[c] = SIZE_MAX;
		if ((!q || mpq_sgn(q)) &&
		    segc_plan_slot(bd, in->arg[j], &mp->val[c]))
			return -1;
		c++;
	}
	return 0;
}

/* See plan_private.h: the graph decoded from the atom, its count and
 * costs lowered from the plan; for maxplusv(i, ...) the costs go into a
 * loop block of their own, with the plan's counter of i bound to its
 * counter. */
int segc_plan_recurrence(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	segc_plan_maxplus *mp = segc_xcalloc(1, sizeof *mp);
	const char *why = decode(in->e, mp);
	int varying = in->op == SEGC_EPO_MAXPLUSV;
	size_t n, blk = 0, counter = 0;
	int rc;

	if (why) {
		segc_plan_maxplus_free(mp);
		return segc_plan_fail(bd, "cannot emit the recurrence of an "
			"overlapped loop: %s", why);
	}
	mp->val = segc_xmalloc((mp->m + mp->k + 1) * sizeof *mp->val);
	mp->varying = varying;
	if (segc_plan_slot(bd, in->arg[0], &n)) {
		segc_plan_maxplus_free(mp);
		return -1;
	}
	if (varying) {
		blk = segc_plan_block_open(bd, SEGC_PLAN_LOOP);
		counter = segc_plan_new_insn(bd, SEGC_OP_COUNTER, 0, 0);
		segc_plan_bind(bd, in->binder, counter);
		rc = plan_costs(bd, in, mp);
		segc_plan_block_close(bd);
	} else
		rc = plan_costs(bd, in, mp);
	if (rc) {
		segc_plan_maxplus_free(mp);
		return -1;
	}
	*out = segc_plan_new_insn(bd, SEGC_OP_MAXPLUS, n, 0);
	bd->p->insn[*out].mp = mp;
	bd->p->insn[*out].sub[0] = blk;
	bd->p->insn[*out].counter = counter;
	return 0;
}

/* ------------------------------------------------------------ printing */

/* See emit_private.h. */
void segc_emit_maxplus_helper(segc_strbuf *b, const segc_emit_syntax *sx)
{
	segc_strbuf_append(b, sx->helper);
}

/* What one printing needs. */
typedef struct mp_out {
	segc_strbuf *b;
	const segc_emit_namer *nm;
	const segc_plan_maxplus *mp;
	const segc_emit_syntax *sx; /* the language's */
	const char *x;            /* prefix of the locals */
	unsigned depth;
	size_t n, res;            /* the count's value, the result's */
	int lows;                 /* the low parts are kept in a ring (13):
	                           * an arc reads them, or --accurate */
} mp_out;

/* Appends the name of value 'i', its double in --accurate C. */
static void put_val(const mp_out *o, size_t i)
{
	segc_emit_put_value(o->b, o->nm, i);
	if (segc_emit_is_dd(o->nm, i))
		segc_strbuf_append(o->b, ".hi");
}

/* Appends the name of the result (its declaration in C). */
static void put_res(const mp_out *o)
{
	segc_strbuf_appendf(o->b, "%s%lu", o->nm->tprefix,
		(unsigned long)o->nm->number[o->res]);
}

/* Appends the format 'fmt' with the locals' prefix for every %s. */
static void put_fmt(const mp_out *o, const char *fmt)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			segc_strbuf_append(o->b, o->x);
			p++;
		} else
			segc_strbuf_appendc(o->b, *p);
	}
}

/* Appends the format 'fmt' as put_fmt() does, with the format 'hi' for
 * every %h and 'lo' for every %l. */
static void put_fmt_hl(const mp_out *o, const char *fmt, const char *hi,
	const char *lo)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (p[0] == '%' && (p[1] == 'h' || p[1] == 'l')) {
			put_fmt(o, p[1] == 'h' ? hi : lo);
			p++;
		} else if (p[0] == '%' && p[1] == 's') {
			segc_strbuf_append(o->b, o->x);
			p++;
		} else
			segc_strbuf_appendc(o->b, *p);
	}
}

/* Starts a line at the depth of 'o' plus 'more', then appends the
 * format 'fmt' as put_fmt() does. */
static void line(const mp_out *o, unsigned more, const char *fmt)
{
	unsigned d = o->depth + more;

	while (d--)
		segc_strbuf_append(o->b, o->sx->indent);
	put_fmt(o, fmt);
}

/* Appends the simple statement 'fmt' (as put_fmt() does) on a line of
 * its own at 'more'. */
static void stmt(const mp_out *o, unsigned more, const char *fmt)
{
	line(o, more, fmt);
	segc_strbuf_appendf(o->b, "%s\n", o->sx->semi);
}

/* Appends the parts 'fmt' (as put_fmt() does) joined by the language's
 * conjunction; NULL ends them. */
static void put_and(const mp_out *o, const char *const *fmt)
{
	size_t k;

	for (k = 0; fmt[k]; k++) {
		if (k)
			segc_strbuf_append(o->b, o->sx->and_);
		put_fmt(o, fmt[k]);
	}
}

/* Appends the closing of a block at 'more', where the language has one. */
static void put_end(const mp_out *o, unsigned more)
{
	if (o->sx->end)
		line(o, more, o->sx->end);
}

/* Appends " + cost" of cost 'j' (nothing for 0). */
static void put_plus_cost(const mp_out *o, size_t j)
{
	if (o->mp->val[j] == SIZE_MAX)
		return;
	segc_strbuf_append(o->b, " + ");
	put_val(o, o->mp->val[j]);
}

/* Appends the accumulation of cost 'j' into the double-double whose
 * high and low parts are 'hi' and 'lo' (put_fmt() formats; nothing for a
 * cost 0) at 'more': the cost's double, then, in --accurate C, its low
 * part. */
static void put_acc(const mp_out *o, unsigned more, const char *hi,
	const char *lo, size_t j)
{
	size_t v = o->mp->val[j];
	int part;

	if (v == SIZE_MAX)
		return;
	for (part = 0; part <= segc_emit_is_dd(o->nm, v); part++) {
		line(o, more, "");
		put_fmt_hl(o, o->sx->acc, hi, lo);
		segc_emit_put_value(o->b, o->nm, v);
		if (segc_emit_is_dd(o->nm, v))
			segc_strbuf_append(o->b, part ? ".lo" : ".hi");
		segc_strbuf_appendf(o->b, ")%s\n", o->sx->semi);
	}
}

/* Appends the ring slot of the iteration 'd' back ("%s6" the current). */
static void put_slot(const mp_out *o, unsigned long d)
{
	const segc_emit_syntax *sx = o->sx;

	if (!d)
		segc_strbuf_appendf(o->b, "%s6", o->x);
	else
		segc_strbuf_appendf(o->b, "%s%s6 + %lu%s%s%lu%s%s",
			sx->mod_open, o->x, o->mp->D + 1 - d, sx->ul,
			sx->mod_sep, o->mp->D + 1, sx->ul, sx->mod_close);
}

/* Appends the finish time of node 'v' in the iteration 'd' back, its
 * high part (ring %s0) or, with 'low', its low part (ring %s13). */
static void put_fin_part(const mp_out *o, unsigned long d, size_t v, int low)
{
	segc_strbuf_appendf(o->b, "%s%s%s", o->x, low ? "13" : "0",
		o->sx->sub_open);
	put_slot(o, d);
	segc_strbuf_appendf(o->b, "%s%lu%s", o->sx->sub_sep, (unsigned long)v,
		o->sx->sub_close);
}

/* Appends the part of the finish time of node 'v' from the earlier
 * iterations (the array %s1). */
static void put_part(const mp_out *o, size_t v)
{
	segc_strbuf_appendf(o->b, "%s1%s%lu%s", o->x, o->sx->sub_open,
		(unsigned long)v, o->sx->sub_close);
}

/* Appends the high part of the finish time of node 'v' in the iteration
 * 'd' back. */
static void put_fin(const mp_out *o, unsigned long d, size_t v)
{
	put_fin_part(o, d, v, 0);
}

/* Appends "if (A, A's low part) > (B, B's): B = A" (locals by their
 * suffixes: the candidate 3 and 14 into the maximum 10 and 15) at
 * 'more'; "A >= B" after "not A > B" is "A == B", written so that
 * compilers do not warn of a comparison of doubles for equality. */
static void put_raise_dd(const mp_out *o, unsigned more)
{
	line(o, more, o->sx->if_);
	put_fmt(o, "%s3 > %s10");
	segc_strbuf_append(o->b, o->sx->or_);
	put_fmt(o, "(%s3 >= %s10");
	segc_strbuf_append(o->b, o->sx->and_);
	put_fmt(o, "%s14 > %s15)");
	segc_strbuf_append(o->b, o->sx->then);
	stmt(o, more + 1, "%s10 = %s3");
	stmt(o, more + 1, "%s15 = %s14");
	put_end(o, more);
}

/* Appends "if A > B: B = A" (A, B locals by their suffix) at 'more'. */
static void put_raise(const mp_out *o, unsigned more, const char *a,
	const char *bb)
{
	line(o, more, o->sx->if_);
	segc_strbuf_appendf(o->b, "%s%s > %s%s%s", o->x, a, o->x, bb,
		o->sx->then1);
	line(o, more + 1, "");
	segc_strbuf_appendf(o->b, "%s%s = %s%s%s\n", o->x, bb, o->x, a,
		o->sx->semi);
}

/* Appends " && isfinite(c)" for every cost that is not a constant, each
 * on a line of its own at 'more'. */
static void put_finite(const mp_out *o, unsigned more)
{
	size_t j;

	for (j = 0; j < o->mp->m + o->mp->k; j++) {
		if (o->mp->val[j] == SIZE_MAX ||
		    o->nm->p->insn[o->mp->val[j]].op == SEGC_OP_CONST)
			continue;
		segc_strbuf_append(o->b, o->sx->and_cont);
		line(o, more, o->sx->isfinite);
		put_val(o, o->mp->val[j]);
		segc_strbuf_append(o->b, ")");
	}
}

/* Appends the update of node 'v' in the current iteration: its finish
 * time (%s0) and, for the period check (not with varying costs), the part
 * of it from earlier iterations (%s1, -inf for none), as segc eval
 * computes them. */
static void put_node(const mp_out *o, size_t v, unsigned more)
{
	const segc_plan_maxplus *mp = o->mp;
	const char *semi = o->sx->semi;
	int part = !mp->varying;
	size_t a;

	line(o, more, o->sx->comment);
	segc_strbuf_appendf(o->b, "node %lu%s\n", (unsigned long)v + 1,
		o->sx->comment_end);
	line(o, more, "%s10 = ");
	segc_strbuf_appendf(o->b, "%s%s\n", o->sx->zero, semi);
	line(o, more, "%s15 = ");
	segc_strbuf_appendf(o->b, "%s%s\n", o->sx->zero, semi);
	if (part) {
		line(o, more, "%s11 = ");
		put_fmt(o, o->sx->minus_inf);
		segc_strbuf_appendf(o->b, "%s\n", semi);
	}
	for (a = 0; a < mp->k; a++) {
		unsigned long d = mp->dist[a];
		unsigned in = d ? 1 : 0;

		if (mp->to[a] != v)
			continue;
		if (d) {
			line(o, more, o->sx->if_);
			segc_strbuf_appendf(o->b, "%s2 > %lu.0%s%s", o->x, d,
				o->sx->real, o->sx->then);
		}
		line(o, more + in, "%s3 = ");
		put_fin(o, d, mp->from[a]);
		segc_strbuf_appendf(o->b, "%s\n", semi);
		line(o, more + in, "%s14 = ");
		put_fin_part(o, d, mp->from[a], 1);
		segc_strbuf_appendf(o->b, "%s\n", semi);
		put_acc(o, more + in, "%s3", "%s14", mp->m + a);
		put_raise_dd(o, more + in);
		if (!d && part) {
			line(o, more, "%s3 = ");
			put_part(o, mp->from[a]);
			put_plus_cost(o, mp->m + a);
			segc_strbuf_appendf(o->b, "%s\n", semi);
		}
		if (part)
			put_raise(o, more + in, "3", "11");
		if (d)
			put_end(o, more);
	}
	put_acc(o, more, "%s10", "%s15", v);
	line(o, more, "");
	put_fin(o, 0, v);
	segc_strbuf_appendf(o->b, " = %s10%s\n", o->x, semi);
	if (o->lows) {
		line(o, more, "");
		put_fin_part(o, 0, v, 1);
		segc_strbuf_appendf(o->b, " = %s15%s\n", o->x, semi);
	}
	if (!part)
		return;
	line(o, more, "");
	put_part(o, v);
	put_fmt(o, " = %s11");
	put_plus_cost(o, v);
	segc_strbuf_appendf(o->b, "%s\n", semi);
}

/* Appends the period check after an iteration (see the top of the file):
 * %s8 whether every carried time came from earlier iterations, %s9
 * whether every node a forward arc leaves moved by the same %s5, %s7 the
 * uniform steps in a row with the step %s4; then the jump. */
static void put_period(const mp_out *o, unsigned more)
{
	static const char *const same[] = {
		"%s9 = %s9", "%s3 >= %s5", "%s3 <= %s5", NULL
	};
	static const char *const again[] = {
		"%s9", "%s7 > 0", "%s5 >= %s4", "%s5 <= %s4", NULL
	};
	const segc_plan_maxplus *mp = o->mp;
	const segc_emit_syntax *sx = o->sx;
	size_t v;
	int first = 1;

	line(o, more, "%s8 = ");
	for (v = 0; v < mp->m; v++) {
		if (!mp->state[v])
			continue;
		if (!first) {
			segc_strbuf_append(o->b, sx->and_cont);
			line(o, more + 1, "");
		}
		put_part(o, v);
		segc_strbuf_append(o->b, " >= ");
		put_fin(o, 0, v);
		first = 0;
	}
	segc_strbuf_appendf(o->b, "%s\n", sx->semi);
	first = 1;
	line(o, more, "%s9 = %s2 >= 2.0");
	segc_strbuf_appendf(o->b, "%s%s\n", sx->real, sx->semi);
	line(o, more, sx->if_);
	put_fmt(o, "%s9");
	segc_strbuf_append(o->b, sx->then);
	for (v = 0; v < mp->m; v++) {
		if (mp->state[v] != 2)
			continue;
		line(o, more + 1, "%s3 = ");
		put_fin(o, 0, v);
		segc_strbuf_append(o->b, " - ");
		put_fin(o, 1, v);
		segc_strbuf_appendf(o->b, "%s\n", sx->semi);
		if (first)
			stmt(o, more + 1, "%s5 = %s3");
		else {
			line(o, more + 1, "");
			put_and(o, same);
			segc_strbuf_appendf(o->b, "%s\n", sx->semi);
		}
		/* the low parts too: the step is then the same exactly */
		line(o, more + 1, "%s9 = %s9");
		segc_strbuf_append(o->b, sx->and_);
		put_fin_part(o, 0, v, 1);
		segc_strbuf_append(o->b, " >= ");
		put_fin_part(o, 1, v, 1);
		segc_strbuf_append(o->b, sx->and_);
		put_fin_part(o, 0, v, 1);
		segc_strbuf_append(o->b, " <= ");
		put_fin_part(o, 1, v, 1);
		segc_strbuf_appendf(o->b, "%s\n", sx->semi);
		first = 0;
	}
	put_end(o, more);
	line(o, more, sx->if_);
	put_and(o, again);
	segc_strbuf_append(o->b, sx->then_else);
	line(o, more + 1, "%s7");
	put_fmt(o, sx->incr);
	segc_strbuf_appendf(o->b, "%s\n", sx->semi);
	line(o, more, sx->elif);
	put_fmt(o, "%s9");
	segc_strbuf_append(o->b, sx->then);
	stmt(o, more + 1, "%s7 = 1");
	stmt(o, more + 1, "%s4 = %s5");
	line(o, more, sx->else1);
	stmt(o, more + 1, "%s7 = 0");
	if (sx->end_else)
		line(o, more, sx->end_else);
	line(o, more, sx->if_);
	segc_strbuf_appendf(o->b, "%s7 >= %lu%s", o->x, mp->D, sx->ul);
	segc_strbuf_append(o->b, sx->and_);
	segc_strbuf_appendf(o->b, "%s2 > %lu.0%s", o->x, mp->D, sx->real);
	segc_strbuf_append(o->b, sx->and_);
	put_fmt(o, "%s8");
	segc_strbuf_append(o->b, sx->and_);
	put_fmt(o, "%s4 >= ");
	segc_strbuf_appendf(o->b, "%s%s", sx->zero, sx->then);
	line(o, more + 1, "%s12 = %s12 + (");
	put_val(o, o->n);
	segc_strbuf_appendf(o->b, " - %s2) * %s4%s\n", o->x, o->x, sx->semi);
	stmt(o, more + 1, sx->brk);
	put_end(o, more);
}

/* A local of the recurrence: its name (a put_fmt() format) and its first
 * value (NULL for none). */
typedef struct mp_local {
	const char *name, *init;
} mp_local;

/* Appends the declaration, of type 'type', of the 'n' locals 'v', with
 * their first values where the language declares them so. */
static void put_decl(const mp_out *o, const char *type, const mp_local *v,
	size_t n)
{
	size_t k;

	line(o, 0, type);
	for (k = 0; k < n; k++) {
		if (k)
			segc_strbuf_append(o->b, ", ");
		put_fmt(o, v[k].name);
		if (v[k].init && o->sx->decl_init)
			segc_strbuf_appendf(o->b, " = %s", v[k].init);
	}
	segc_strbuf_appendf(o->b, "%s\n", o->sx->semi);
}

/* Appends the statements that set the first values of the 'n' locals
 * 'v', where the language sets them apart from the declarations. */
static void put_inits(const mp_out *o, const mp_local *v, size_t n)
{
	size_t k;

	if (o->sx->decl_init)
		return;
	for (k = 0; k < n; k++) {
		if (!v[k].init)
			continue;
		line(o, 0, v[k].name);
		segc_strbuf_appendf(o->b, " = %s%s\n", v[k].init, o->sx->semi);
	}
}

/* Appends the dimensions of an array of 'rows' by 'cols' (one of 'cols'
 * when 'rows' is 0). */
static void put_dims(const mp_out *o, unsigned long rows, unsigned long cols)
{
	unsigned long less = o->sx->dims_last ? 1 : 0;

	if (rows)
		segc_strbuf_appendf(o->b, o->sx->dims2, rows - less,
			cols - less);
	else
		segc_strbuf_appendf(o->b, o->sx->dims1, cols - less);
}

/* Appends the declarations (C, Fortran: a block of its own, typed) or the
 * first values (Python) of the locals of the MAXPLUS of 'o'. */
static void put_locals(mp_out *o)
{
	const segc_plan_maxplus *mp = o->mp;
	const segc_emit_syntax *sx = o->sx;
	segc_strbuf *b = o->b;
	const char *x = o->x;
	mp_local real[10], count[2] = {
		{ "%s6", "0" }, { "%s7", "0" }
	}, cond[2] = { { "%s8", NULL }, { "%s9", NULL } };
	size_t n = 0;
	unsigned long m = (unsigned long)mp->m;

	if (!sx->typed) {
		line(o, 0, "");
		segc_strbuf_appendf(b, "%s0 = [[0.0] * %lu for %s6 in "
			"range(%lu)]\n", x, m, x, mp->D + 1);
		if (o->lows) {
			line(o, 0, "");
			segc_strbuf_appendf(b, "%s13 = [[0.0] * %lu for %s6 "
				"in range(%lu)]\n", x, m, x, mp->D + 1);
		}
		line(o, 0, "");
		segc_strbuf_appendf(b, "%s1 = [0.0] * %lu\n", x, m);
		line(o, 0, "%s4 = 0.0\n");
		line(o, 0, "%s5 = 0.0\n");
		line(o, 0, "%s6 = 0\n");
		line(o, 0, "%s7 = 0\n");
		line(o, 0, "%s12 = math.nan\n");
		return;
	}
	line(o, 0, sx->block_open);
	o->depth++;
	line(o, 0, sx->t_real);
	put_fmt(o, "%s0");
	put_dims(o, mp->D + 1, m);
	if (o->lows) {
		put_fmt(o, ", %s13");
		put_dims(o, mp->D + 1, m);
	}
	if (!mp->varying) {
		put_fmt(o, ", %s1");
		put_dims(o, 0, m);
	}
	segc_strbuf_appendf(b, "%s\n", sx->semi);
	/* the low part of the result: --accurate keeps it */
	if (o->nm->accurate)
		line(o, 0, "double %s16 = 0;\n");
	real[n++] = (mp_local){ "%s2", NULL };
	/* a candidate only where an arc gives one */
	if (mp->k) {
		real[n++] = (mp_local){ "%s3", NULL };
		real[n++] = (mp_local){ "%s14", NULL };
	}
	/* no period check with varying costs: its locals are left out */
	if (!mp->varying) {
		real[n++] = (mp_local){ "%s4", sx->zero };
		real[n++] = (mp_local){ "%s5", sx->zero };
	}
	real[n++] = (mp_local){ "%s10", NULL };
	if (!mp->varying)
		real[n++] = (mp_local){ "%s11", NULL };
	real[n++] = (mp_local){ "%s15", NULL };
	real[n++] = (mp_local){ "%s12", sx->nan };
	if (!mp->varying && sx->inf_init)
		real[n++] = (mp_local){ "%s17", sx->inf_init };
	put_decl(o, sx->t_real, real, n);
	put_decl(o, sx->t_count, count, mp->varying ? 1 : 2);
	if (!mp->varying)
		put_decl(o, sx->t_bool, cond, 2);
	segc_strbuf_appendc(b, '\n');
	put_inits(o, real, n);
	put_inits(o, count, mp->varying ? 1 : 2);
}

/* Appends the head of the loop over the iterations, while %s2 <= n and
 * below 'limit' (C: a for; Python and Fortran: a while, %s2 counted at
 * its end). */
static void put_loop_head(const mp_out *o, const char *limit)
{
	const segc_emit_syntax *sx = o->sx;

	if (!sx->step) {
		line(o, 1, "for (%s2 = 1; %s2 <= ");
		put_val(o, o->n);
		segc_strbuf_appendf(o->b, " && %s2 < %s; %s2 += 1) {\n", o->x,
			limit, o->x);
		return;
	}
	line(o, 1, "%s2 = 1.0");
	segc_strbuf_appendf(o->b, "%s%s\n", sx->real, sx->semi);
	line(o, 1, sx->while_);
	put_fmt(o, "%s2 <= ");
	put_val(o, o->n);
	segc_strbuf_appendf(o->b, "%s%s2 < %s%s%s", sx->and_, o->x, limit,
		sx->real, sx->while_end);
}

/* The prefix of the locals: 'm' repeated until no argument is it
 * followed by digits (compared without case where the language ignores
 * it). */
static char *local_prefix(const segc_emit_namer *nm,
	const segc_emit_syntax *sx)
{
	size_t n = nm->p->nargs, i, j;
	char **lower;
	char *x;

	if (!sx->nocase)
		return segc_emit_local_prefix(nm->arg, n, 'm');
	lower = segc_xcalloc(n + 1, sizeof *lower);
	for (i = 0; i < n; i++) {
		lower[i] = segc_xmalloc(strlen(nm->arg[i]) + 1);
		for (j = 0; nm->arg[i][j]; j++)
			lower[i][j] = (char)tolower((unsigned char)nm->arg[i][j]);
		lower[i][j] = '\0';
	}
	x = segc_emit_local_prefix(lower, n, 'm');
	for (i = 0; i < n; i++)
		free(lower[i]);
	free(lower);
	return x;
}

/* Appends the MAXPLUS 'i' as the statements of its loop (see the top of
 * the file), in the language of 'sx'.  Its locals, all named by the
 * prefix %s: 0 the ring of finish times (their high parts; 13 their low
 * parts), 1 the parts from earlier iterations, 2 the iteration, 3 a
 * candidate (14 its low part), 4 the step of the period, 5 the last step,
 * 6 the slot of the iteration, 7 uniform steps in a row, 8 and 9 the
 * checks, 10 and 11 the maxima of a node (15 the low part of 10), 12 the
 * result (16 its low part), 17 -infinity where the language computes it
 * once (Fortran). */
int segc_emit_maxplus(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, const segc_emit_syntax *sx, int assign)
{
	const segc_plan_insn *in = &nm->p->insn[i];
	const segc_plan_maxplus *mp = in->mp;
	char *x = local_prefix(nm, sx);
	const char *semi = sx->semi;
	mp_out o;
	size_t v;
	int rc = 0;

	o.b = b;
	o.nm = nm;
	o.mp = mp;
	o.sx = sx;
	o.x = x;
	o.depth = depth;
	o.n = in->a;
	o.res = i;
	o.lows = mp->k > 0 || nm->accurate;
	/* the result, declared where the plan's other values are (unless
	 * the block declared it at its top) */
	if (!assign) {
		line(&o, 0, nm->accurate ? "segc_dd " : sx->decl);
		put_res(&o);
		segc_strbuf_append(b, sx->decl_end);
	}
	put_locals(&o);
	/* a count that is an integer >= 0 and costs that are numbers */
	line(&o, 0, sx->if_);
	segc_strbuf_append(b, sx->isfinite);
	put_val(&o, o.n);
	segc_strbuf_appendf(b, ")%s", sx->and_);
	put_val(&o, o.n);
	segc_strbuf_appendf(b, " >= %s%s%s", sx->zero, sx->and_, sx->floor);
	put_val(&o, o.n);
	segc_strbuf_append(b, ") >= ");
	put_val(&o, o.n);
	if (!mp->varying)
		put_finite(&o, 1);
	segc_strbuf_append(b, sx->then);
	line(&o, 1, "%s12 = ");
	segc_strbuf_appendf(b, "%s%s\n", sx->zero, semi);
	put_loop_head(&o, mp->carried || mp->varying ? "9007199254740992.0" :
		"2.0");
	if (mp->varying) {
		/* the costs of this iteration, the counter its number */
		/* the MAXPLUS itself is one use of its counter */
		if (nm->p->insn[in->counter].uses > 1) {
			line(&o, 2, sx->decl);
			put_val(&o, in->counter);
			segc_strbuf_appendf(b, " = %s2%s\n", x, semi);
		}
		rc = segc_emit_walk_block(b, nm, sx, in->sub[0],
			o.depth + 2);
		line(&o, 2, sx->not_all);
		put_finite(&o, 3);
		segc_strbuf_append(b, sx->not_all_end);
		line(&o, 3, "%s12 = ");
		segc_strbuf_appendf(b, "%s%s\n", sx->nan, semi);
		stmt(&o, 3, sx->brk);
		put_end(&o, 2);
	}
	line(&o, 2, "");
	segc_strbuf_appendf(b, "%s6 = %s%s6 + 1%s%s%lu%s%s%s\n", x, sx->mod_open,
		x, sx->ul, sx->mod_sep, mp->D + 1, sx->ul, sx->mod_close, semi);
	for (v = 0; v < mp->m; v++)
		put_node(&o, v, 2);
	line(&o, 2, "%s12 = ");
	put_fin(&o, 0, mp->m - 1);
	segc_strbuf_appendf(b, "%s\n", semi);
	if (nm->accurate) {
		line(&o, 2, "%s16 = ");
		put_fin_part(&o, 0, mp->m - 1, 1);
		segc_strbuf_appendf(b, "%s\n", semi);
	}
	if (mp->carried && !mp->varying)
		put_period(&o, 2);
	if (sx->step) {
		line(&o, 2, sx->step);
		segc_strbuf_appendf(b, "%s\n", semi);
	}
	if (sx->loop_end)
		line(&o, 1, sx->loop_end);
	/* beyond 2^53 iterations without a period: no number */
	line(&o, 1, sx->if_);
	put_fmt(&o, "%s2 <= ");
	put_val(&o, o.n);
	segc_strbuf_appendf(b, "%s%s2 >= 9007199254740992.0%s%s", sx->and_, x,
		sx->real, sx->then1);
	line(&o, 2, "%s12 = ");
	segc_strbuf_appendf(b, "%s%s\n", sx->nan, semi);
	put_end(&o, 0);
	line(&o, 0, "");
	put_res(&o);
	segc_strbuf_appendf(b, " = %s%s12%s%s\n", nm->accurate ? "dd_d(" : "",
		x, nm->accurate ? ")" : "", semi);
	if (nm->accurate) {
		line(&o, 0, "");
		put_res(&o);
		segc_strbuf_appendf(b, ".lo = %s16%s\n", x, semi);
	}
	if (sx->typed) {
		o.depth--;
		line(&o, 0, sx->block_close);
	}
	free(x);
	return rc;
}
