/* free_names.c - the free names of a formula (or the names of its
 * uninterpreted calls), sorted: what an emitted predictor or an
 * evaluation must be given. */
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "expr/expr_private.h"

/* Names collected by a walk: distinct, in a growing array. */
typedef struct name_set {
	const char **v;
	size_t n, cap;
} name_set;

/* Adds 'name' to 's' unless present. */
static void name_set_add(name_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = segc_xrealloc(s->v, segc_xmul_size(s->cap, sizeof *s->v));
	}
	s->v[s->n++] = name;
}

static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen);

/* Adds the names of argument 'j' of 'e', in the scope of the name it
 * binds (a sum's body, a cost of maxplusv), to 's', except that name. */
static void names_bound(const segc_expr *e, size_t j, int calls,
	name_set *s)
{
	segc_expr_map seen;
	name_set inner = { NULL, 0, 0 };
	size_t i;

	segc_expr_map_init(&seen);
	names_walk(segc_expr_arg(e, j), calls, &inner, &seen);
	for (i = 0; i < inner.n; i++)
		if (calls || strcmp(inner.v[i], segc_expr_binder(e)))
			name_set_add(s, inner.v[i]);
	free(inner.v);
	segc_expr_map_clear(&seen);
}

/* Adds the free symbols (or, when 'calls', the names of uninterpreted
 * calls) of 'e' to 's', visiting each node once. */
static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen)
{
	size_t i, n = segc_expr_nargs(e);

	if (!segc_expr_map_put(seen, e, NULL))
		return;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return;
	case SEGC_SYM:
		if (!calls)
			name_set_add(s, segc_expr_name(e));
		return;
	case SEGC_SUM:
		names_walk(segc_expr_arg(e, 0), calls, s, seen);
		names_walk(segc_expr_arg(e, 1), calls, s, seen);
		names_bound(e, 2, calls, s);
		return;
	case SEGC_CALL:
		if (calls && segc_expr_builtin(e) == SEGC_BUILTIN_NONE)
			name_set_add(s, segc_expr_name(e));
		if (!segc_expr_binder(e))
			break;
		for (i = 1; i < n; i++)
			if (segc_expr_arg_bound(e, i))
				names_bound(e, i, calls, s);
			else
				names_walk(segc_expr_arg(e, i), calls, s, seen);
		return;
	default:
		break;
	}
	for (i = 0; i < n; i++)
		names_walk(segc_expr_arg(e, i), calls, s, seen);
}

/* Orders two names for qsort. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The free names (or uninterpreted calls) of 'e', sorted. */
size_t segc_output_names(const segc_expr *e, int calls, const char ***out)
{
	name_set s = { NULL, 0, 0 };
	segc_expr_map seen;

	segc_expr_map_init(&seen);
	names_walk(e, calls, &s, &seen);
	segc_expr_map_clear(&seen);
	if (s.n)
		qsort(s.v, s.n, sizeof *s.v, name_cmp);
	*out = s.v;
	return s.n;
}
