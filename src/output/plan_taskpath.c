/* plan_taskpath.c - the longest path of a task graph with indexed nodes
 * (the atom taskpath(...), algebra/taskpath.h) in the evaluation plan of a
 * predictor: one TASKPATH instruction holding the decoded structure, the
 * values its programs push (expressions of the parameters) planned before
 * it like any other value, and an order of the node kinds in which every
 * arc between two different kinds goes forward (printed as loops over the
 * instances by emit_taskpath.c), lowered from the plan's operation (the
 * structure decoded from its atom, the pushed values from its slots).
 * An arc from a kind to itself goes forward in the lexicographic order
 * of the indices, which the walk by kinds follows.  When the arcs make a
 * cycle among kinds (the panels of a Cholesky factorization: one step's
 * updates feed the next step), or an arc from a kind to itself is not
 * proven to go forward (c(i) -> c(i - 1)), the predictor orders the
 * instances at run time instead, as segc eval does (Kahn's algorithm over
 * the instance arcs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"

/* The most node kinds and arcs a predictor loops over (its locals are
 * numbered by them). */
#define TP_MAX_KINDS 9999

/* Releases the structure of a TASKPATH. */
void segc_plan_taskpath_free(struct segc_plan_taskpath *tp)
{
	if (!tp)
		return;
	segc_tp_clear(&tp->t);
	free(tp->code);
	free(tp->val);
	free(tp->order);
	free(tp);
}

/* Counts the uses of the pushed values of the TASKPATH 'in'. */
void segc_plan_taskpath_uses(segc_plan *p, const segc_plan_insn *in)
{
	size_t j;

	/* numbers are printed as literals */
	for (j = 0; j < in->tp->nargs; j++)
		if (in->tp->val[j] != SIZE_MAX &&
		    p->insn[in->tp->val[j]].op != SEGC_OP_CONST)
			p->insn[in->tp->val[j]].uses++;
}

/* Lowers the values that program 'g' pushes (arguments of the plan's
 * operation 'in'). */
static int plan_program(segc_plan_builder *bd, const segc_eplan_ins *in,
	struct segc_plan_taskpath *tp, const segc_tp_prog *g)
{
	size_t i = g->first, end = g->first + g->len;

	while (i < end) {
		long op = tp->code[i++];

		if (op == SEGC_TP_PUSH) {
			if (segc_plan_slot(bd, in->arg[i], &tp->val[i]))
				return -1;
			i++;
		} else if (op == SEGC_TP_INDEX || op == SEGC_TP_MAX ||
			   op == SEGC_TP_MIN) {
			i++;
		}
	}
	return 0;
}

/* Orders the node kinds so that every arc between two kinds goes forward
 * (Kahn's algorithm on the kinds, arcs from a kind to itself left out);
 * when the arcs make a cycle among kinds, sets 'by_instance' and lists
 * the kinds as they come. */
static void order_kinds(struct segc_plan_taskpath *tp)
{
	const segc_tp *t = &tp->t;
	size_t *indeg = segc_xcalloc(t->n + 1, sizeof *indeg);
	size_t head = 0, tail = 0, v, a;

	tp->order = segc_xcalloc(t->n + 1, sizeof *tp->order);
	for (a = 0; a < t->narcs; a++)
		if (t->arcs[a].from != t->arcs[a].to)
			indeg[t->arcs[a].to]++;
	for (v = 0; v < t->n; v++)
		if (!indeg[v])
			tp->order[tail++] = v;
	while (head < tail) {
		v = tp->order[head++];
		for (a = 0; a < t->narcs; a++)
			if (t->arcs[a].from == v && t->arcs[a].to != v &&
			    --indeg[t->arcs[a].to] == 0)
				tp->order[tail++] = t->arcs[a].to;
	}
	free(indeg);
	if (tail < t->n) {
		tp->by_instance = 1;
		for (v = 0; v < t->n; v++)
			tp->order[v] = v;
	}
}

/* Non-zero when the tokens 'at' and 'at' + 1 are the index 'k' (from 1)
 * of the arc's source. */
static int is_index(const struct segc_plan_taskpath *tp, size_t at,
	size_t k)
{
	return tp->code[at] == SEGC_TP_INDEX && tp->code[at + 1] == (long)k;
}

/* Non-zero when token 'at' is a push of a number above 0. */
static int is_positive_push(const struct segc_plan_taskpath *tp,
	const segc_expr *e, size_t at)
{
	const segc_expr *x = segc_expr_arg(e, at + 1);

	return tp->code[at] == SEGC_TP_PUSH && segc_expr_is_num(x) &&
		mpq_sgn(segc_expr_value(x)) > 0;
}

/* Non-zero when the program 'g' of the atom 'e' computes the index 'k'
 * (from 1) of its arc's source plus 'plus' (0: nothing; 1: a number
 * above 0). */
static int is_index_plus(const struct segc_plan_taskpath *tp,
	const segc_expr *e, const segc_tp_prog *g, size_t k, int plus)
{
	size_t f = g->first;

	if (!plus)
		return g->len == 2 && is_index(tp, f, k);
	return g->len == 5 && tp->code[f + 4] == SEGC_TP_ADD &&
		((is_index(tp, f, k) && is_positive_push(tp, e, f + 2)) ||
		 (is_positive_push(tp, e, f) && is_index(tp, f + 2, k)));
}

/* Non-zero when the arc 'a' from a kind to itself goes forward in the
 * lexicographic order of the indices whatever the parameters: its at
 * values are the source's own indices up to one, that index plus a
 * number above 0. */
static int self_arc_forward(const struct segc_plan_taskpath *tp,
	const segc_expr *e, const segc_tp_arc *a)
{
	size_t k;

	if (a->nat != tp->t.nodes[a->from].d)
		return 0;
	for (k = 0; k < a->nat; k++) {
		if (is_index_plus(tp, e, &a->at[k], k + 1, 1))
			return 1;
		if (!is_index_plus(tp, e, &a->at[k], k + 1, 0))
			return 0;
	}
	return 0;
}

/* Orders the instances at run time (by_instance) when an arc from a kind
 * to itself may go backward, which the walk by kinds cannot follow. */
static void check_self_arcs(struct segc_plan_taskpath *tp,
	const segc_expr *e)
{
	size_t a, v;

	for (a = 0; a < tp->t.narcs && !tp->by_instance; a++)
		if (tp->t.arcs[a].from == tp->t.arcs[a].to &&
		    !self_arc_forward(tp, e, &tp->t.arcs[a])) {
			tp->by_instance = 1;
			for (v = 0; v < tp->t.n; v++)
				tp->order[v] = v;
		}
}

/* See plan_private.h. */
int segc_plan_taskpath(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	const segc_expr *e = in->e;
	struct segc_plan_taskpath *tp = segc_xcalloc(1, sizeof *tp);
	const segc_expr *const *args;
	size_t n = segc_expr_nargs(e), i, v, k;
	const char *why;
	segc_expr **a = segc_xcalloc(n + 1, sizeof *a);
	int rc = 0;

	for (i = 0; i < n; i++)
		a[i] = (segc_expr *)segc_expr_arg(e, i);
	args = (const segc_expr *const *)a;
	why = segc_tp_decode(&tp->t, n, segc_tp_int_expr, args);
	free(a);
	if (!why && (tp->t.n > TP_MAX_KINDS || tp->t.narcs > TP_MAX_KINDS))
		why = "it has more than 9999 node kinds or arcs";
	if (why) {
		segc_plan_taskpath_free(tp);
		return segc_plan_fail(bd, "cannot emit the longest path of a "
			"task graph with indexed nodes: %s", why);
	}
	order_kinds(tp);
	tp->nargs = n;
	tp->code = segc_xcalloc(n + 1, sizeof *tp->code);
	tp->val = segc_xmalloc((n + 1) * sizeof *tp->val);
	for (i = 0; i < n; i++) {
		const segc_expr *x = segc_expr_arg(e, i);
		mpq_srcptr q;

		tp->val[i] = SIZE_MAX;
		if (!segc_expr_is_num(x))
			continue;
		q = segc_expr_value(x);
		if (!mpz_cmp_ui(mpq_denref(q), 1) &&
		    mpz_fits_slong_p(mpq_numref(q)))
			tp->code[i] = mpz_get_si(mpq_numref(q));
	}
	check_self_arcs(tp, e);
	for (v = 0; v < tp->t.n && !rc; v++) {
		const segc_tp_node *nd = &tp->t.nodes[v];

		for (k = 0; k < nd->d && !rc; k++)
			rc = plan_program(bd, in, tp, &nd->lo[k]) ||
				plan_program(bd, in, tp, &nd->hi[k]);
		if (!rc)
			rc = plan_program(bd, in, tp, &nd->cost);
	}
	for (v = 0; v < tp->t.narcs && !rc; v++) {
		const segc_tp_arc *ar = &tp->t.arcs[v];

		for (k = 0; k < ar->nat && !rc; k++)
			rc = plan_program(bd, in, tp, &ar->at[k]);
		if (!rc)
			rc = plan_program(bd, in, tp, &ar->cost);
	}
	if (rc) {
		segc_plan_taskpath_free(tp);
		return -1;
	}
	*out = segc_plan_new_insn(bd, SEGC_OP_TASKPATH, 0, 0);
	bd->p->insn[*out].tp = tp;
	return 0;
}
