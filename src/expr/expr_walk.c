/* expr_walk.c - reading expression nodes: the accessors, the total
 * order, sets and maps of nodes, walks (has_sym, size) and the names that
 * the expression language reserves.  Walks that the shape of the input
 * controls use explicit stacks, not recursion. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "base/util.h"

/* ------------------------------------------------------------ accessors */

/* The kind of 'e'. */
enum segc_expr_kind segc_expr_kind(const segc_expr *e)
{
	return (enum segc_expr_kind)e->kind;
}

/* The name of a SYM, CALL or SUM; NULL for other kinds. */
const char *segc_expr_name(const segc_expr *e)
{
	return e->kind == SEGC_NUM ? NULL : e->u.name;
}

/* The built-in of the call 'e' (see builtin.h). */
enum segc_builtin segc_expr_builtin(const segc_expr *e)
{
	return e->kind == SEGC_CALL ? (enum segc_builtin)e->builtin :
		SEGC_BUILTIN_NONE;
}

/* The number of children of 'e'. */
size_t segc_expr_nargs(const segc_expr *e)
{
	return e->nargs;
}

/* Child 'i' of 'e' (borrowed); NULL when out of range. */
segc_expr *segc_expr_arg(const segc_expr *e, size_t i)
{
	return i < e->nargs ? segc_args(e)[i] : NULL;
}

/* The rational of a NUM; NULL for other kinds. */
mpq_srcptr segc_expr_value(const segc_expr *e)
{
	return e->kind == SEGC_NUM ? e->u.value : NULL;
}

/* The structural hash of 'e'. */
unsigned long segc_expr_hash(const segc_expr *e)
{
	return e->hash;
}

/* Non-zero when 'e' is a number. */
int segc_expr_is_num(const segc_expr *e)
{
	return e->kind == SEGC_NUM;
}

/* Non-zero when 'e' is the number 0. */
int segc_expr_is_zero(const segc_expr *e)
{
	return e->kind == SEGC_NUM && mpq_sgn(e->u.value) == 0;
}

/* Non-zero when 'e' is the number 1. */
int segc_expr_is_one(const segc_expr *e)
{
	return e->kind == SEGC_NUM && mpq_cmp_ui(e->u.value, 1, 1) == 0;
}

/* ------------------------------------------------------------------ order */

/* The rank of each kind in the order of segc_expr_cmp. */
static int kind_rank(unsigned char kind)
{
	static const int rank[] = {
		[SEGC_NUM] = 0, [SEGC_SYM] = 1, [SEGC_POW] = 2, [SEGC_MUL] = 3,
		[SEGC_ADD] = 4, [SEGC_CALL] = 5, [SEGC_SUM] = 6
	};

	return rank[kind];
}

/* -1, 0 or 1 as 'c' is negative, zero or positive. */
static int sign_of(long c)
{
	return (c > 0) - (c < 0);
}

/* Compares the nodes themselves, not their children: kind, then number or
 * name, then number of children. */
static int header_cmp(const segc_expr *a, const segc_expr *b)
{
	if (a->kind != b->kind)
		return sign_of(kind_rank(a->kind) - kind_rank(b->kind));
	if (a->kind == SEGC_NUM)
		return sign_of(mpq_cmp(a->u.value, b->u.value));
	if (a->u.name) {
		int c = strcmp(a->u.name, b->u.name);

		if (c)
			return sign_of(c);
	}
	if (a->nargs != b->nargs)
		return a->nargs < b->nargs ? -1 : 1;
	return 0;
}

/* The structural order: kinds NUM < SYM < POW < MUL < ADD < CALL < SUM;
 * numbers by value; names by strcmp; then fewer children first; then the
 * children left to right.  Since equal structures are the same node, only
 * the first pair of different children needs comparing: the walk goes down
 * one path, without recursion. */
int segc_expr_cmp(const segc_expr *a, const segc_expr *b)
{
	for (;;) {
		size_t i;
		int c;

		if (a == b)
			return 0;
		c = header_cmp(a, b);
		if (c)
			return c;
		for (i = 0; i < a->nargs &&
			segc_args(a)[i] == segc_args(b)[i]; i++)
			;
		if (i == a->nargs)
			return 0;
		a = segc_args(a)[i];
		b = segc_args(b)[i];
	}
}

/* ----------------------------------------------------------- node maps */

/* An empty map. */
void segc_expr_map_init(segc_expr_map *m)
{
	m->keys = NULL;
	m->values = NULL;
	m->n = 0;
	m->cap = 0;
}

/* Releases the memory of 'm' (not what its values point to). */
void segc_expr_map_clear(segc_expr_map *m)
{
	free(m->keys);
	free(m->values);
	segc_expr_map_init(m);
}

/* The slot index of 'key' in 'm': where it is, or the empty slot where it
 * would go. */
static size_t map_slot(const segc_expr_map *m, const segc_expr *key)
{
	size_t i = key->hash & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The slot of the value of 'key', or NULL. */
void **segc_expr_map_find(const segc_expr_map *m, const segc_expr *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = map_slot(m, key);
	return m->keys[i] ? &m->values[i] : NULL;
}

/* Doubles the capacity of 'm'. */
static void map_grow(segc_expr_map *m)
{
	segc_expr_map old = *m;
	size_t i;

	m->cap = old.cap ? 2 * old.cap : 64;
	m->keys = segc_xcalloc(m->cap, sizeof(*m->keys));
	m->values = segc_xcalloc(m->cap, sizeof(*m->values));
	for (i = 0; i < old.cap; i++) {
		if (old.keys[i]) {
			size_t j = map_slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->values[j] = old.values[i];
		}
	}
	free(old.keys);
	free(old.values);
}

/* Adds 'key' with 'value' unless present; 1 if added. */
int segc_expr_map_put(segc_expr_map *m, const segc_expr *key, void *value)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		map_grow(m);
	i = map_slot(m, key);
	if (m->keys[i])
		return 0;
	m->keys[i] = key;
	m->values[i] = value;
	m->n++;
	return 1;
}

/* --------------------------------------------------------------- walks */

/* A stack of nodes for the walks below. */
struct node_stack {
	const segc_expr **v;
	size_t n, cap;
};

/* Pushes 'e' on 's'. */
static void stack_push(struct node_stack *s, const segc_expr *e)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = segc_xrealloc(s->v, segc_xmul_size(s->cap, sizeof(*s->v)));
	}
	s->v[s->n++] = e;
}

/* Records in 'e' the union of the names free in the 'n' nodes 'from',
 * less 'binder' (when not NULL) in those that 'e' binds it in. */
static void note_free(segc_expr *e, size_t n, const segc_expr *const *from,
	const char *binder)
{
	const char *nm;
	const segc_expr *c;
	size_t i, j, k, nf = 0;

	for (i = 0; i < n; i++) {
		c = from[i];
		if (c->nfree == SEGC_EXPR_FREE_MANY) {
			e->nfree = SEGC_EXPR_FREE_MANY;
			return;
		}
		for (j = 0; j < c->nfree; j++) {
			nm = c->u.free[j];
			if (binder && !strcmp(nm, binder) &&
			    segc_expr_arg_bound(e, i))
				continue;
			/* a name is the text of its one SYM node in the
			 * store, so equal names are equal pointers */
			for (k = 0; k < nf && e->u.free[k] != nm; k++)
				;
			if (k < nf)
				continue;
			if (nf == SEGC_EXPR_FREE) {
				e->nfree = SEGC_EXPR_FREE_MANY;
				return;
			}
			e->u.free[nf++] = nm;
		}
	}
	e->nfree = (unsigned char)nf;
}

/* See expr_private.h: the union of the children's free names, less the
 * name a binder binds in the children in its scope (as has_sym reads
 * them). */
void segc_expr_note_free(segc_expr *e)
{
	e->nfree = 0;
	if (e->kind == SEGC_NUM)
		return;
	if (e->kind == SEGC_SYM) {
		e->u.free[0] = e->u.name;
		e->nfree = 1;
		return;
	}
	note_free(e, e->nargs, (const segc_expr *const *)segc_args(e),
		segc_expr_binder(e));
}

/* See expr_private.h. */
void segc_expr_note_free_from(segc_expr *e, size_t n,
	const segc_expr *const *from)
{
	note_free(e, n, from, NULL);
}

/* Non-zero when 'name' occurs free in 'e'.  Inside a SUM that binds
 * 'name' only its bounds are searched; a node that records its free
 * names answers without a walk below it. */
int segc_expr_has_sym(const segc_expr *e, const char *name)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map seen;
	int found = 0;
	size_t i, n;

	if (e->nfree != SEGC_EXPR_FREE_MANY)   /* no walk */
		return segc_expr_may_have(e, name);
	segc_expr_map_init(&seen);
	stack_push(&s, e);
	while (s.n && !found) {
		e = s.v[--s.n];
		if (e->nfree != SEGC_EXPR_FREE_MANY) {
			found = segc_expr_may_have(e, name);
			continue;
		}
		if (!segc_expr_map_put(&seen, e, NULL))
			continue;
		n = e->kind == SEGC_SUM && !strcmp(e->u.name, name) ? 2 : e->nargs;
		for (i = 0; i < n; i++)
			if (e->kind == SEGC_SUM || !segc_expr_binder(e) ||
			    strcmp(segc_expr_binder(e), name) ||
			    !segc_expr_arg_bound(e, i))
				stack_push(&s, segc_args(e)[i]);
	}
	free(s.v);
	segc_expr_map_clear(&seen);
	return found;
}

/* The number of distinct nodes reachable from 'e'. */
size_t segc_expr_size(const segc_expr *e)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map seen;
	size_t i, n;

	segc_expr_map_init(&seen);
	stack_push(&s, e);
	while (s.n) {
		e = s.v[--s.n];
		if (!segc_expr_map_put(&seen, e, NULL))
			continue;
		for (i = 0; i < e->nargs; i++)
			stack_push(&s, segc_args(e)[i]);
	}
	n = seen.n;
	free(s.v);
	segc_expr_map_clear(&seen);
	return n;
}

/* The number of nodes of 'e' written out as a tree (a shared node counts
 * once per occurrence), or 'cap' if that is larger: a DAG of a few nodes
 * can stand for a tree too large to print.  Post-order over the DAG with
 * an explicit stack; each node's count is kept in a map. */
size_t segc_expr_tree_size(const segc_expr *e, size_t cap)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map done;
	size_t i, n, result;
	void **slot;

	segc_expr_map_init(&done);
	stack_push(&s, e);
	while (s.n) {
		const segc_expr *x = s.v[s.n - 1];
		int ready = 1;

		if (segc_expr_map_find(&done, x)) {
			s.n--;
			continue;
		}
		for (i = 0; i < x->nargs; i++)
			if (!segc_expr_map_find(&done, segc_args(x)[i])) {
				stack_push(&s, segc_args(x)[i]);
				ready = 0;
			}
		if (!ready)
			continue;
		n = 1;
		for (i = 0; i < x->nargs && n < cap; i++) {
			slot = segc_expr_map_find(&done, segc_args(x)[i]);
			n += (size_t)(uintptr_t)*slot;
		}
		segc_expr_map_put(&done, x, (void *)(uintptr_t)(n < cap ? n : cap));
		s.n--;
	}
	slot = segc_expr_map_find(&done, e);
	result = (size_t)(uintptr_t)*slot;
	free(s.v);
	segc_expr_map_clear(&done);
	return result;
}

/* Non-zero when 'name' is a reserved word of the expression language
 * (FORMAT.md section 2): no parameter, resource, let or function may take
 * it. */
int segc_expr_is_reserved(const char *name)
{
	const segc_builtin_info *b = segc_builtin_get(
		segc_builtin_lookup(name));

	return b->id != SEGC_BUILTIN_NONE &&
		(b->kind == SEGC_BUILTIN_CONDITIONAL ||
		 b->kind == SEGC_BUILTIN_LOGIC);
}

/* Non-zero when 'name' is the name of a relation call ("<", "<=", ">",
 * ">=", "==", "!="). */
int segc_expr_is_relation_name(const char *name)
{
	return segc_builtin_get(segc_builtin_lookup(name))->kind ==
		SEGC_BUILTIN_RELATION;
}

/* Non-zero when 'e' is a condition: a relation of two values, or and/or
 * of at least two conditions' nodes, or not of one. */
int segc_expr_is_condition(const segc_expr *e)
{
	const segc_builtin_info *b;

	if (!e || e->kind != SEGC_CALL)
		return 0;
	b = segc_builtin_get((enum segc_builtin)e->builtin);
	if (b->kind == SEGC_BUILTIN_RELATION)
		return e->nargs == 2;
	if (b->id == SEGC_BUILTIN_AND || b->id == SEGC_BUILTIN_OR)
		return e->nargs >= 2;
	return b->id == SEGC_BUILTIN_NOT && e->nargs == 1;
}

/* --------------------------------------------------------------- binders */

/* Non-zero when argument 'j' of a maxplus atom of 'm' nodes is a cost
 * (node costs from 2, then the fourth of each arc's four). */
int segc_maxplus_arg_is_cost(size_t j, size_t m)
{
	return (j >= 2 && j < m + 2) || (j > m + 2 && (j - m - 3) % 4 == 3);
}

/* The node count of the recurrence 'e' (see builtin.h). */
size_t segc_maxplus_nodes(const segc_expr *e)
{
	size_t at = segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV) ? 2 : 1;
	const segc_expr *m;

	if (e->kind != SEGC_CALL || e->nargs <= at)
		return 0;
	m = segc_args(e)[at];
	if (m->kind != SEGC_NUM || mpz_cmp_ui(mpq_denref(m->u.value), 1) ||
	    mpz_sgn(mpq_numref(m->u.value)) <= 0 ||
	    mpz_cmp_ui(mpq_numref(m->u.value), e->nargs) >= 0)
		return 0;
	return mpz_get_ui(mpq_numref(m->u.value));
}

/* The name 'e' binds (see builtin.h). */
const char *segc_expr_binder(const segc_expr *e)
{
	if (e->kind == SEGC_SUM)
		return e->u.name;
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV) && e->nargs &&
	    segc_args(e)[0]->kind == SEGC_SYM)
		return segc_args(e)[0]->u.name;
	return NULL;
}

/* See expr_private.h. */
int segc_expr_is_internal_name(const char *name)
{
	return name[0] == '_' && (name[1] == 's' || name[1] == 'r') &&
		name[2] && strspn(name + 2, "0123456789") == strlen(name + 2);
}

/* Non-zero when argument 'j' of 'e' is in the scope of its binder. */
int segc_expr_arg_bound(const segc_expr *e, size_t j)
{
	if (e->kind == SEGC_SUM)
		return j == 2;
	if (!segc_expr_binder(e))
		return 0;
	return j == 0 || (j > 0 && segc_maxplus_arg_is_cost(j - 1,
		segc_maxplus_nodes(e)));
}
