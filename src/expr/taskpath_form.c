/* taskpath_form.c - decoding the arguments of the atom taskpath(...)
 * into its nodes, arcs and programs (see taskpath_form.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/taskpath_form.h"
#include "expr/expr_private.h"
#include "base/util.h"

/* ------------------------------------------------------------ decoding */

/* segc_tp_int_fn over mpq_t values. */
int segc_tp_int_q(const void *args, size_t i, long *v)
{
	const mpq_t *q = args;

	if (mpz_cmp_ui(mpq_denref(q[i]), 1) ||
	    !mpz_fits_slong_p(mpq_numref(q[i])))
		return -1;
	*v = mpz_get_si(mpq_numref(q[i]));
	return 0;
}

/* segc_tp_int_fn over expressions. */
int segc_tp_int_expr(const void *args, size_t i, long *v)
{
	const segc_expr *const *e = args;
	mpq_srcptr q;

	if (!segc_expr_is_num(e[i]))
		return -1;
	q = segc_expr_value(e[i]);
	if (mpz_cmp_ui(mpq_denref(q), 1) || !mpz_fits_slong_p(mpq_numref(q)))
		return -1;
	*v = mpz_get_si(mpq_numref(q));
	return 0;
}

/* The integer at '*pos' (then moved on) into '*v', in [lo, hi]. */
static int take(size_t *pos, size_t nargs, segc_tp_int_fn get,
	const void *args, long lo, long hi, long *v)
{
	if (*pos >= nargs || get(args, *pos, v) || *v < lo || *v > hi)
		return -1;
	(*pos)++;
	return 0;
}

/* Decodes the program at '*pos', which sees 'scope' indices. */
static const char *program(size_t *pos, size_t nargs, segc_tp_int_fn get,
	const void *args, size_t scope, segc_tp_prog *p)
{
	long len, op, x;
	size_t i, end, depth = 0;

	if (take(pos, nargs, get, args, 1, LONG_MAX, &len) ||
	    (size_t)len > nargs - *pos)
		return "a program has no valid length";
	p->first = *pos;
	p->len = (size_t)len;
	end = *pos + p->len;
	for (i = p->first; i < end;) {
		if (take(&i, end, get, args, 0, SEGC_TP_NOPS - 1, &op))
			return "a program has an unknown operation";
		switch (op) {
		case SEGC_TP_PUSH:
			if (i++ >= end)
				return "a program ends inside an operation";
			depth++;
			break;
		case SEGC_TP_INDEX:
			if (take(&i, end, get, args, 1, (long)scope, &x))
				return "a program names an index out of scope";
			depth++;
			break;
		case SEGC_TP_ADD: case SEGC_TP_MUL: case SEGC_TP_POW:
			if (depth < 2)
				return "a program lacks an operand";
			depth--;
			break;
		case SEGC_TP_FLOOR: case SEGC_TP_CEIL:
			if (depth < 1)
				return "a program lacks an operand";
			break;
		default:
			if (take(&i, end, get, args, 1, (long)depth, &x))
				return "a program lacks an operand";
			depth -= (size_t)x - 1;
			break;
		}
	}
	*pos = end;
	return depth == 1 ? NULL : "a program leaves no single value";
}

/* Decodes the structure of an atom (see taskpath.h). */
const char *segc_tp_decode(segc_tp *t, size_t nargs, segc_tp_int_fn get,
	const void *args)
{
	size_t pos = 0, v, k;
	long x, y, z;
	const char *why;

	memset(t, 0, sizeof(*t));
	if (take(&pos, nargs, get, args, 1, LONG_MAX, &x) ||
	    (size_t)x > nargs ||
	    take(&pos, nargs, get, args, 1, x, &y) ||
	    take(&pos, nargs, get, args, 1, x, &z))
		return "no node count, entry or exit";
	t->n = (size_t)x;
	t->entry = (size_t)y - 1;
	t->exit = (size_t)z - 1;
	t->nodes = segc_xcalloc(t->n, sizeof(*t->nodes));
	for (v = 0; v < t->n; v++) {
		segc_tp_node *nd = &t->nodes[v];

		if (take(&pos, nargs, get, args, 0, SEGC_TP_MAX_INDICES, &x))
			return "a node has no valid number of indices";
		nd->d = (size_t)x;
		nd->lo = segc_xcalloc(nd->d + 1, sizeof(*nd->lo));
		nd->hi = segc_xcalloc(nd->d + 1, sizeof(*nd->hi));
		for (k = 0; k < nd->d; k++)
			if ((why = program(&pos, nargs, get, args, k,
				    &nd->lo[k])) || (why = program(&pos, nargs,
				    get, args, k, &nd->hi[k])))
				return why;
		if ((why = program(&pos, nargs, get, args, nd->d, &nd->cost)))
			return why;
	}
	if (t->nodes[t->entry].d || t->nodes[t->exit].d)
		return "the entry or the exit is indexed";
	if (take(&pos, nargs, get, args, 0, (long)(nargs - pos), &x))
		return "no arc count";
	t->narcs = (size_t)x;
	t->arcs = segc_xcalloc(t->narcs + 1, sizeof(*t->arcs));
	for (v = 0; v < t->narcs; v++) {
		segc_tp_arc *a = &t->arcs[v];
		size_t d;

		if (take(&pos, nargs, get, args, 1, (long)t->n, &x) ||
		    take(&pos, nargs, get, args, 1, (long)t->n, &y))
			return "an arc has no valid ends";
		a->from = (size_t)x - 1;
		a->to = (size_t)y - 1;
		d = t->nodes[a->from].d;
		if (take(&pos, nargs, get, args, 0, SEGC_TP_MAX_INDICES, &x) || (x &&
		    (size_t)x != t->nodes[a->to].d) || (!x &&
		    t->nodes[a->from].d && t->nodes[a->to].d))
			return "an arc has no valid number of at values";
		a->nat = (size_t)x;
		a->at = segc_xcalloc(a->nat + 1, sizeof(*a->at));
		for (k = 0; k < a->nat; k++)
			if ((why = program(&pos, nargs, get, args, d,
				    &a->at[k])))
				return why;
		if ((why = program(&pos, nargs, get, args, d, &a->cost)))
			return why;
	}
	return pos == nargs ? NULL : "arguments are left over";
}

/* Releases the arrays of 't'. */
void segc_tp_clear(segc_tp *t)
{
	size_t v;

	for (v = 0; t->nodes && v < t->n; v++) {
		free(t->nodes[v].lo);
		free(t->nodes[v].hi);
	}
	for (v = 0; t->arcs && v < t->narcs; v++)
		free(t->arcs[v].at);
	free(t->nodes);
	free(t->arcs);
	memset(t, 0, sizeof(*t));
}
