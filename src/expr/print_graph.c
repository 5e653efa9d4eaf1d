/* print_graph.c - the readable text of the graph atoms (graph_text.h):
 *   taskpath(v1, v4, node(v1, s), node(v2, i, 1, W, c + i*d), ...,
 *            arc(v1, v2), arc(v2(i), v3(ceil(i/2)), m), ...)
 *   maxplusv(i, n, node(v1, c_1), node(v2, c_2), arc(v1, v2),
 *            arc(v2(i - 2), v1, c), ...)
 * Nodes are v1, v2, ... in the atom's order (a longest path's the
 * model's node ids, when the printer is given them and they are names
 * the text can hold); the indices of a node of a
 * task graph i, j, k, l, m, i1, i2, ... (names the atom does not use),
 * a range written as a sum's: name, low, high.  An arc names its source
 * with the source's indices, which its instance values and cost use, or
 * with the iteration it comes from (i - d); a cost of 0 is left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/graph_text.h"

/* The expression of program 'p' (see graph_text.h). */
segc_expr *segc_tp_expr_of(segc_expr *const *a, const segc_tp_prog *p,
	char *const *names)
{
	segc_expr **st = segc_xmalloc((p->len + 1) * sizeof(*st));
	size_t i = p->first, end = p->first + p->len, sp = 0, n;
	segc_expr *r;
	long op, x;

	while (i < end) {
		segc_tp_int_expr(a, i++, &op);
		switch (op) {
		case SEGC_TP_PUSH:
			st[sp++] = segc_expr_copy(a[i++]);
			break;
		case SEGC_TP_INDEX:
			segc_tp_int_expr(a, i++, &x);
			st[sp++] = segc_expr_sym(names[x - 1]);
			break;
		case SEGC_TP_ADD:
			sp--;
			st[sp - 1] = segc_expr_add2(st[sp - 1], st[sp]);
			break;
		case SEGC_TP_MUL:
			sp--;
			st[sp - 1] = segc_expr_mul2(st[sp - 1], st[sp]);
			break;
		case SEGC_TP_POW:
			sp--;
			st[sp - 1] = segc_expr_pow(st[sp - 1], st[sp]);
			break;
		case SEGC_TP_FLOOR: case SEGC_TP_CEIL:
			st[sp - 1] = segc_expr_call1(op == SEGC_TP_FLOOR ?
				SEGC_BUILTIN_FLOOR : SEGC_BUILTIN_CEIL,
				st[sp - 1]);
			break;
		default:
			segc_tp_int_expr(a, i++, &x);
			n = (size_t)x;
			st[sp - n] = segc_expr_call_builtin(op == SEGC_TP_MAX ?
				SEGC_BUILTIN_MAX : SEGC_BUILTIN_MIN, n,
				st + sp - n);
			sp -= n - 1;
			break;
		}
	}
	r = st[0];
	free(st);
	return r;
}

/* The names used in an atom, sorted, for choosing index names. */
typedef struct used_names {
	const char **v;
	size_t n, cap;
} used_names;

/* Adds the names and sum variables of 'e' not seen yet to 'u'. */
static void collect(used_names *u, const segc_expr *e, segc_expr_map *seen)
{
	size_t i;

	if (!segc_expr_map_put(seen, e, NULL) || e->kind == SEGC_NUM)
		return;
	if (e->kind == SEGC_SYM || e->kind == SEGC_SUM) {
		if (u->n == u->cap) {
			u->cap = u->cap ? 2 * u->cap : 16;
			u->v = segc_xrealloc(u->v,
				segc_xmul_size(u->cap, sizeof(*u->v)));
		}
		u->v[u->n++] = e->u.name;
	}
	for (i = 0; e->kind != SEGC_SYM && i < e->nargs; i++)
		collect(u, segc_args(e)[i], seen);
}

/* Compares the strings at 'a' and 'b'. */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Chooses in 'names' (each malloc'd) 'd' index names that 'u' does not
 * hold: i, j, k, l, m, then i1, i2, .... */
static void index_names(const used_names *u, char **names, size_t d)
{
	static const char *const first[] = { "i", "j", "k", "l", "m" };
	char buf[32];
	const char *p = buf;
	size_t got = 0, t;

	for (t = 0; got < d; t++) {
		if (t < 5)
			snprintf(buf, sizeof buf, "%s", first[t]);
		else
			snprintf(buf, sizeof buf, "i%lu", (unsigned long)t - 4);
		if (!u->n || !bsearch(&p, u->v, u->n, sizeof(*u->v),
			    cmp_names))
			names[got++] = segc_xstrdup(buf);
	}
}

/* Non-zero when 'id' may name a node in the text: a name of the
 * language that is no built-in nor reserved word, and not v<digits>. */
static int usable_id(const char *id)
{
	size_t i;

	if (!id || !(id[0] == '_' || (id[0] >= 'a' && id[0] <= 'z') ||
	    (id[0] >= 'A' && id[0] <= 'Z')) || segc_expr_is_reserved(id) ||
	    segc_builtin_lookup(id) != SEGC_BUILTIN_NONE ||
	    (id[0] == 'v' && id[1] && strspn(id + 1, "0123456789") ==
	     strlen(id + 1)))
		return 0;
	for (i = 1; id[i]; i++)
		if (!(id[i] == '_' || (id[i] >= 'a' && id[i] <= 'z') ||
		    (id[i] >= 'A' && id[i] <= 'Z') ||
		    (id[i] >= '0' && id[i] <= '9')))
			return 0;
	return 1;
}

/* The ids 'ids' of 'n' nodes when they may all name the 'want' nodes
 * of an atom, distinct; else NULL (v1, v2, ...). */
static const char *const *node_ids(const char *const *ids, size_t n,
	size_t want)
{
	size_t i, j;

	if (!ids || n != want)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!usable_id(ids[i]))
			return NULL;
		for (j = 0; j < i; j++)
			if (!strcmp(ids[i], ids[j]))
				return NULL;
	}
	return ids;
}

/* Appends the name of node 'k': ids[k], or v<k + 1> without ids. */
static void put_name(segc_strbuf *sb, size_t k, const char *const *ids)
{
	if (ids)
		segc_strbuf_append(sb, ids[k]);
	else
		segc_strbuf_appendf(sb, "v%lu", (unsigned long)k + 1);
}

/* Appends the name of node 'k' and, for 'd' > 0, "(names...)". */
static void put_head(segc_strbuf *sb, size_t k, char *const *names,
	size_t d, const char *const *ids)
{
	size_t j;

	put_name(sb, k, ids);
	for (j = 0; j < d; j++)
		segc_strbuf_appendf(sb, "%s%s", j ? ", " : "(", names[j]);
	if (d)
		segc_strbuf_appendc(sb, ')');
}

/* Appends ", " and the expression of program 'p'. */
static void put_prog(segc_strbuf *sb, segc_expr *const *a,
	const segc_tp_prog *p, char *const *names,
	void (*put)(segc_strbuf *, const segc_expr *))
{
	segc_expr *e = segc_tp_expr_of(a, p, names);

	segc_strbuf_append(sb, ", ");
	put(sb, e);
	segc_expr_free(e);
}

/* Non-zero when program 'p' is the number 0. */
static int is_zero(segc_expr *const *a, const segc_tp_prog *p)
{
	return p->len == 2 && segc_expr_is_num(a[p->first + 1]) &&
		!mpq_sgn(segc_expr_value(a[p->first + 1]));
}

/* Appends the nodes and arcs of the decoded task graph 't', its nodes
 * named by 'ids' (NULL: v1, v2, ...). */
static void put_task_graph(segc_strbuf *sb, const segc_tp *t,
	segc_expr *const *a, char *const *names,
	void (*put)(segc_strbuf *, const segc_expr *), const char *const *ids)
{
	size_t v, k;

	for (v = 0; v < t->n; v++) {
		const segc_tp_node *x = &t->nodes[v];

		segc_strbuf_append(sb, ", node(");
		put_name(sb, v, ids);
		for (k = 0; k < x->d; k++) {
			segc_strbuf_appendf(sb, ", %s", names[k]);
			put_prog(sb, a, &x->lo[k], names, put);
			put_prog(sb, a, &x->hi[k], names, put);
		}
		put_prog(sb, a, &x->cost, names, put);
		segc_strbuf_appendc(sb, ')');
	}
	for (v = 0; v < t->narcs; v++) {
		const segc_tp_arc *r = &t->arcs[v];

		segc_strbuf_append(sb, ", arc(");
		put_head(sb, r->from, names, t->nodes[r->from].d, ids);
		segc_strbuf_append(sb, ", ");
		put_name(sb, r->to, ids);
		for (k = 0; k < r->nat; k++) {
			segc_expr *e = segc_tp_expr_of(a, &r->at[k], names);

			segc_strbuf_append(sb, k ? ", " : "(");
			put(sb, e);
			segc_expr_free(e);
		}
		if (r->nat)
			segc_strbuf_appendc(sb, ')');
		if (!is_zero(a, &r->cost))
			put_prog(sb, a, &r->cost, names, put);
		segc_strbuf_appendc(sb, ')');
	}
}

/* Appends the readable text of the task graph atom 'e', its nodes named
 * by the 'nids' 'ids' where they may; -1 when it is malformed. */
static int print_taskpath(segc_strbuf *sb, const segc_expr *e,
	void (*put)(segc_strbuf *, const segc_expr *),
	const char *const *ids, size_t nids)
{
	size_t n = e->nargs, d = 0, i;
	segc_expr_map seen;
	used_names u = { NULL, 0, 0 };
	char **names;
	segc_tp t;

	if (segc_tp_decode(&t, n, segc_tp_int_expr, segc_args(e))) {
		segc_tp_clear(&t);
		return -1;
	}
	for (i = 0; i < t.n; i++)
		d = t.nodes[i].d > d ? t.nodes[i].d : d;
	segc_expr_map_init(&seen);
	collect(&u, e, &seen);
	segc_expr_map_clear(&seen);
	if (u.n)                  /* qsort wants an array, even of none */
		qsort(u.v, u.n, sizeof(*u.v), cmp_names);
	names = segc_xcalloc(d + 1, sizeof(*names));
	index_names(&u, names, d);
	ids = node_ids(ids, nids, t.n);
	segc_strbuf_append(sb, "taskpath(");
	put_name(sb, t.entry, ids);
	segc_strbuf_append(sb, ", ");
	put_name(sb, t.exit, ids);
	put_task_graph(sb, &t, segc_args(e), names, put, ids);
	segc_strbuf_appendc(sb, ')');
	for (i = 0; i < d; i++)
		free(names[i]);
	free(names);
	free(u.v);
	segc_tp_clear(&t);
	return 0;
}

/* The natural number of argument 'i' of 'e' into '*v' (at most 'max');
 * -1 when it is not one. */
static int nat_arg(const segc_expr *e, size_t i, size_t max, size_t *v)
{
	long x;

	if (i >= e->nargs || segc_tp_int_expr(segc_args(e), i, &x) || x < 0 ||
	    (unsigned long)x > max)
		return -1;
	*v = (size_t)x;
	return 0;
}

/* Non-zero when the recurrence 'e' holds m nodes and k arcs, each arc
 * between nodes 1..m with a natural distance (into '*m', '*k'). */
static int maxplusv_shape(const segc_expr *e, size_t *m, size_t *k)
{
	size_t a, x;

	if (e->nargs < 4 || segc_args(e)[0]->kind != SEGC_SYM ||
	    nat_arg(e, 2, e->nargs, m) || !*m ||
	    nat_arg(e, 3 + *m, e->nargs, k) ||
	    e->nargs != 4 + *m + 4 * *k)
		return 0;
	for (a = 0; a < *k; a++) {
		size_t at = 4 + *m + 4 * a;

		if (nat_arg(e, at, *m, &x) || !x || nat_arg(e, at + 1, *m,
			    &x) || !x || nat_arg(e, at + 2, e->nargs, &x))
			return 0;
	}
	return 1;
}

/* Appends the readable text of the recurrence 'e'; -1 when it is
 * malformed. */
static int print_maxplusv(segc_strbuf *sb, const segc_expr *e,
	void (*put)(segc_strbuf *, const segc_expr *))
{
	const char *it;
	size_t m, k, v, x = 0;

	if (!maxplusv_shape(e, &m, &k))
		return -1;
	it = segc_args(e)[0]->u.name;
	segc_strbuf_appendf(sb, "maxplusv(%s, ", it);
	put(sb, segc_args(e)[1]);
	for (v = 0; v < m; v++) {
		segc_strbuf_appendf(sb, ", node(v%lu, ", (unsigned long)v + 1);
		put(sb, segc_args(e)[3 + v]);
		segc_strbuf_appendc(sb, ')');
	}
	for (v = 0; v < k; v++) {
		segc_expr *const *r = segc_args(e) + 4 + m + 4 * v;

		nat_arg(e, 4 + m + 4 * v, m, &x);
		segc_strbuf_appendf(sb, ", arc(v%lu", (unsigned long)x);
		nat_arg(e, 4 + m + 4 * v + 2, e->nargs, &x);
		if (x)
			segc_strbuf_appendf(sb, "(%s - %lu)", it,
				(unsigned long)x);
		nat_arg(e, 4 + m + 4 * v + 1, m, &x);
		segc_strbuf_appendf(sb, ", v%lu", (unsigned long)x);
		if (!segc_expr_is_num(r[3]) || mpq_sgn(segc_expr_value(r[3]))) {
			segc_strbuf_append(sb, ", ");
			put(sb, r[3]);
		}
		segc_strbuf_appendc(sb, ')');
	}
	segc_strbuf_appendc(sb, ')');
	return 0;
}

/* Appends the readable text of 'e' (see graph_text.h). */
int segc_graph_atom_print(segc_strbuf *sb, const segc_expr *e,
	void (*put)(segc_strbuf *, const segc_expr *),
	const char *const *ids, size_t nids)
{
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_TASKPATH))
		return print_taskpath(sb, e, put, ids, nids);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV))
		return print_maxplusv(sb, e, put);
	return -1;
}
