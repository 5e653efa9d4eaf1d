/* emit_taskpath.c - what the printers of the longest path of a task
 * graph with indexed nodes (a TASKPATH instruction, plan_taskpath.c)
 * share, whatever the language (emit_taskpath_c.c, emit_taskpath_py.c,
 * emit_taskpath_f.c): the names of the locals, the programs of the atom
 * as expressions, and the error-free sum of a time and a cost.
 *
 * A program is printed as an expression; a product with a factor p/q (a
 * rational number) or 1/x^n is printed as one division of the other
 * factors by q or x^n, so that floor and ceil of integers divided stay
 * exact (a correctly rounded quotient of integers below 2^52 does not
 * cross an integer). */
#include <stdlib.h>
#include "output/emit_taskpath.h"

/* One node of the tree of a program. */
typedef struct tp_tree {
	long op;
	size_t arg;          /* PUSH: the argument; INDEX: the index - 1 */
	size_t n;
	struct tp_tree **kid;
} tp_tree;

/* See emit_taskpath.h. */
void segc_tp_local(const segc_tp_out *o, unsigned long kind, size_t v, size_t k)
{
	segc_strbuf_appendf(o->b, "%s%lu", o->x, kind + (unsigned long)v *
		100 + (unsigned long)k);
}

/* ------------------------------------------------------------ programs */

/* Releases the tree 't' (NULL: nothing). */
static void tree_free(tp_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		tree_free(t->kid[i]);
	free(t->kid);
	free(t);
}

/* The tree of program 'g' (its postfix tokens, checked when decoded). */
static tp_tree *tree_of(const segc_tp_out *o, const segc_tp_prog *g)
{
	const long *code = o->tp->code;
	size_t i = g->first, end = g->first + g->len, sp = 0, n, j;
	tp_tree **st = segc_xcalloc(g->len + 1, sizeof *st), *t, *r;

	while (i < end) {
		t = segc_xcalloc(1, sizeof *t);
		t->op = code[i++];
		switch (t->op) {
		case SEGC_TP_PUSH:
			t->arg = i++;
			break;
		case SEGC_TP_INDEX:
			t->arg = (size_t)code[i++] - 1;
			break;
		case SEGC_TP_FLOOR: case SEGC_TP_CEIL:
			n = 1;
			goto take;
		case SEGC_TP_MAX: case SEGC_TP_MIN:
			n = (size_t)code[i++];
			goto take;
		default:
			n = 2;
		take:
			t->n = n;
			t->kid = segc_xcalloc(n, sizeof *t->kid);
			for (j = 0; j < n; j++)
				t->kid[j] = st[sp - n + j];
			sp -= n;
			break;
		}
		st[sp++] = t;
	}
	r = st[0];
	free(st);
	return r;
}

/* The constant of a pushed value 'a' (NULL when it is not one). */
static mpq_srcptr pushed_const(const segc_tp_out *o, const tp_tree *a)
{
	const segc_plan_insn *in;

	if (a->op != SEGC_TP_PUSH)
		return NULL;
	in = &o->nm->p->insn[o->tp->val[a->arg]];
	return in->op == SEGC_OP_CONST ? in->q : NULL;
}

/* The integer exponent of the power 'a' when it is a constant < 0, as a
 * positive number; 0 otherwise. */
static unsigned long reciprocal(const segc_tp_out *o, const tp_tree *a)
{
	mpq_srcptr q;

	if (a->op != SEGC_TP_POW || !(q = pushed_const(o, a->kid[1])) ||
	    mpq_sgn(q) >= 0 || mpz_cmp_ui(mpq_denref(q), 1) ||
	    mpz_cmpabs_ui(mpq_numref(q), 64) > 0)
		return 0;
	return mpz_get_ui(mpq_numref(q));
}

static void put_tree(const segc_tp_out *o, const tp_tree *t, size_t v);

/* Appends the pushed value 'a': a number as a literal (p.0 or (p.0 /
 * q.0), exact for the integers of index programs), else its name (its
 * double in --accurate C). */
static void put_pushed(const segc_tp_out *o, const tp_tree *a)
{
	mpq_srcptr q = pushed_const(o, a);
	size_t i = o->tp->val[a->arg];

	if (!q) {
		segc_emit_put_value(o->b, o->nm, i);
		if (segc_emit_is_dd(o->nm, i))
			segc_strbuf_append(o->b, ".hi");
		return;
	}
	segc_strbuf_append(o->b, "(");
	segc_strbuf_append_mpz(o->b, mpq_numref(q));
	segc_strbuf_append(o->b, o->lang->real);
	if (mpz_cmp_ui(mpq_denref(q), 1)) {
		segc_strbuf_append(o->b, " / ");
		segc_strbuf_append_mpz(o->b, mpq_denref(q));
		segc_strbuf_append(o->b, o->lang->real);
	}
	segc_strbuf_append(o->b, ")");
}

/* Appends x^n, n >= 1, as products (x printed once per factor). */
static void put_powi(const segc_tp_out *o, const tp_tree *x, unsigned long n,
	size_t v)
{
	unsigned long j;

	segc_strbuf_append(o->b, "(");
	for (j = 0; j < n; j++) {
		if (j)
			segc_strbuf_append(o->b, " * ");
		put_tree(o, x, v);
	}
	segc_strbuf_append(o->b, ")");
}

/* Appends the factors of the product 't' that go into the numerator
 * ('den' 0) or the denominator ('den' 1), each after " * " but the
 * first; returns how many. */
static size_t put_factors(const segc_tp_out *o, const tp_tree *t, int den,
	size_t v, size_t done)
{
	mpq_srcptr q;
	unsigned long r;
	size_t i;

	if (t->op == SEGC_TP_MUL) {
		for (i = 0; i < t->n; i++)
			done = put_factors(o, t->kid[i], den, v, done);
		return done;
	}
	q = pushed_const(o, t);
	r = reciprocal(o, t);
	if (q && mpz_cmp_ui(mpq_denref(q), 1)) {
		/* p/q: p above, q below */
		if (!den && !mpz_cmp_ui(mpq_numref(q), 1))
			return done;
		segc_strbuf_append(o->b, done ? " * " : "");
		segc_strbuf_append_mpz(o->b, den ? mpq_denref(q) :
			mpq_numref(q));
		segc_strbuf_append(o->b, o->lang->real);
		return done + 1;
	}
	if (!den == (r != 0))
		return done;
	segc_strbuf_append(o->b, done ? " * " : "");
	if (r)
		put_powi(o, t->kid[0], r, v);
	else
		put_tree(o, t, v);
	return done + 1;
}

/* Appends the expression of the tree 't' of a program of kind 'v' (the
 * indices its own). */
static void put_tree(const segc_tp_out *o, const tp_tree *t, size_t v)
{
	segc_strbuf *b = o->b, den;
	mpq_srcptr q;
	segc_tp_out d;
	size_t i;

	switch (t->op) {
	case SEGC_TP_PUSH:
		put_pushed(o, t);
		return;
	case SEGC_TP_INDEX:
		segc_strbuf_append(b, o->lang->idx_open);
		segc_tp_local(o, L_IDX, v, t->arg);
		segc_strbuf_append(b, o->lang->idx_close);
		return;
	case SEGC_TP_ADD:
		segc_strbuf_append(b, "(");
		put_tree(o, t->kid[0], v);
		segc_strbuf_append(b, " + ");
		put_tree(o, t->kid[1], v);
		segc_strbuf_append(b, ")");
		return;
	case SEGC_TP_MUL:
		segc_strbuf_append(b, "(");
		if (!put_factors(o, t, 0, v, 0))
			segc_strbuf_appendf(b, "1%s", o->lang->real);
		segc_strbuf_append(b, ")");
		segc_strbuf_init(&den);
		d = *o;
		d.b = &den;
		if (put_factors(&d, t, 1, v, 0))
			segc_strbuf_appendf(b, " / (%s)", segc_strbuf_str(&den));
		segc_strbuf_free(&den);
		return;
	case SEGC_TP_POW:
		q = pushed_const(o, t->kid[1]);
		if (q && !mpz_cmp_ui(mpq_denref(q), 1) &&
		    mpz_cmpabs_ui(mpq_numref(q), 64) <= 0) {
			long n = mpz_get_si(mpq_numref(q));

			if (!n)
				segc_strbuf_appendf(b, "1%s", o->lang->real);
			else if (n > 0)
				put_powi(o, t->kid[0], (unsigned long)n, v);
			else {
				segc_strbuf_appendf(b, "(1%s / ", o->lang->real);
				put_powi(o, t->kid[0], (unsigned long)-n, v);
				segc_strbuf_append(b, ")");
			}
			return;
		}
		segc_strbuf_append(b, o->lang->pow);
		put_tree(o, t->kid[0], v);
		segc_strbuf_append(b, ", ");
		put_tree(o, t->kid[1], v);
		segc_strbuf_append(b, ")");
		return;
	case SEGC_TP_FLOOR: case SEGC_TP_CEIL:
		segc_strbuf_append(b, t->op == SEGC_TP_FLOOR ?
			o->lang->floor_open : o->lang->ceil_open);
		put_tree(o, t->kid[0], v);
		segc_strbuf_append(b, t->op == SEGC_TP_FLOOR ?
			o->lang->floor_close : o->lang->ceil_close);
		return;
	default:
		for (i = 1; i < t->n; i++)
			segc_strbuf_append(b, t->op == SEGC_TP_MAX ?
				o->lang->max : o->lang->min);
		put_tree(o, t->kid[0], v);
		for (i = 1; i < t->n; i++) {
			segc_strbuf_append(b, ", ");
			put_tree(o, t->kid[i], v);
			segc_strbuf_append(b, ")");
		}
		return;
	}
}

/* See emit_taskpath.h. */
void segc_tp_put_prog(const segc_tp_out *o, const segc_tp_prog *g, size_t v)
{
	tp_tree *t = tree_of(o, g);

	put_tree(o, t, v);
	tree_free(t);
}

/* See emit_taskpath.h. */
int segc_tp_prog_is_zero(const segc_tp_out *o, const segc_tp_prog *g)
{
	mpq_srcptr q;
	tp_tree *t = tree_of(o, g);
	int z = (q = pushed_const(o, t)) && !mpq_sgn(q);

	tree_free(t);
	return z;
}

/* See emit_taskpath.h. */
void segc_tp_put_twosum(const segc_tp_out *o, unsigned depth,
	const char *dst, const char *src, const segc_tp_prog *g, size_t v)
{
	const char *x = o->x, *semi = o->lang->semi;
	unsigned d;

	for (d = 0; d < 6; d++) {
		o->lang->indent(o, depth);
		switch (d) {
		case 0:
			segc_strbuf_appendf(o->b, "%s7 = ", x);
			segc_tp_put_prog(o, g, v);
			break;
		case 1:
			segc_strbuf_appendf(o->b, "%s4 = %s%s + %s7", x, x, src,
				x);
			break;
		case 2:
			segc_strbuf_appendf(o->b, "%s5 = %s4 - %s%s", x, x, x,
				src);
			break;
		case 3:
			segc_strbuf_appendf(o->b, "%s6 = ((%s%s - (%s4 - %s5)) + "
				"(%s7 - %s5)) + %s%s0", x, x, src, x, x, x, x,
				x, src);
			break;
		case 4:
			segc_strbuf_appendf(o->b, "%s%s = %s4 + %s6", x, dst, x,
				x);
			break;
		default:
			segc_strbuf_appendf(o->b, "%s%s0 = %s6 - (%s%s - %s4)", x,
				dst, x, x, dst, x);
			break;
		}
		segc_strbuf_appendf(o->b, "%s\n", semi);
	}
}
