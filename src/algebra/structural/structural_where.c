/* structural_where.c - named subexpressions for "where" lines: a part of
 * the formulas that occurs more than once, or a long ceil, floor, max or
 * min inside a sum, replaced by a name, its definition listed apart.
 * The choice is greedy: the candidate that saves the most characters
 * first, then the occurrences are counted again (a named part holds the
 * parts inside it once).  A part that uses the counters of enclosing
 * sums is named as a function of them, N_x(i), its definition written
 * with the same counters.  A name is a hint's (a let or a node of the
 * model whose value has the same canonical form) or made from the first
 * name in the part, N_x, N_y, ...  The costs of an overlapped loop
 * (maxplus, maxplusv) count as the body of a sum; the longest path of
 * indexed nodes (taskpath) and conditions are left whole.  A formula too
 * deep or too shared to walk as a tree (WHERE_MAX_DEPTH, WHERE_MAX_VISITS)
 * keeps the names found so far.  Putting each definition back
 * in place of its name gives the formulas given, exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

#define WHERE_MAX_NAMES 12
#define WHERE_MAX_DEPTH 2000
#define WHERE_MAX_TREE 4096   /* nodes of a part printed for its length */
#define WHERE_MIN_REPEAT 10   /* characters of a part named for repeats */
#define WHERE_MIN_LONG 20     /* characters of a long part in a sum */
#define WHERE_MAX_VISITS 1000000  /* nodes of the trees counted in a pass */

/* What one pass knows of a node of the formulas. */
struct where_node {
	size_t count;     /* occurrences in the trees of the formulas */
	int in_sum;       /* one of them in the body of a sum */
	int top;          /* a formula or a definition itself */
};

/* The state of the search. */
struct where {
	segc_ctx *ctx;
	const segc_domains *dom;
	const segc_where_hints *hints;
	segc_expr **f;            /* the formulas (references) */
	size_t nf;
	segc_expr **lhs, **rhs;   /* the definitions chosen so far */
	size_t n;
	char **names;             /* their names */
	const char **counters;    /* names that sums bind (borrowed) */
	size_t ncounters;
	const char **taken;       /* names of the formulas (borrowed) */
	size_t ntaken;
	segc_expr_map info;       /* node -> struct where_node * */
	segc_expr_map length;     /* node -> its text length + 1 */
	size_t visits;            /* nodes counted in this pass */
	int failed;
};

/* Non-zero when the walk stops at 'e': the longest path of indexed nodes
 * (whose arguments hold indices) or a condition, kept whole. */
static int opaque(const segc_expr *e)
{
	return segc_expr_builtin(e) == SEGC_BUILTIN_TASKPATH ||
		segc_expr_is_condition(e);
}

/* Non-zero when child 'i' of 'e' is repeated over a counter: the body of
 * a sum, a cost of an overlapped loop (maxplus, maxplusv). */
static int repeated(const segc_expr *e, size_t i)
{
	enum segc_builtin id = segc_expr_builtin(e);

	return (segc_expr_kind(e) == SEGC_SUM && i == 2) ||
		((id == SEGC_BUILTIN_MAXPLUS || id == SEGC_BUILTIN_MAXPLUSV) &&
		 i >= 2);
}

/* The counter 'e' binds in its child 'i' (a sum in its body, maxplusv in
 * its costs), or NULL. */
static const char *binder(const segc_expr *e, size_t i)
{
	if (segc_expr_kind(e) == SEGC_SUM)
		return i == 2 ? segc_expr_name(e) : NULL;
	if (segc_expr_builtin(e) == SEGC_BUILTIN_MAXPLUSV && i >= 1 &&
	    segc_expr_nargs(e) > 0 &&
	    segc_expr_kind(segc_expr_arg(e, 0)) == SEGC_SYM)
		return segc_expr_name(segc_expr_arg(e, 0));
	return NULL;
}

/* Adds 'name' to the array 'a' of 'n' names unless there. */
static void add_name(const char ***a, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*a)[i], name))
			return;
	*a = segc_xrealloc((void *)*a, (*n + 1) * sizeof **a);
	(*a)[(*n)++] = name;
}

/* Records the names of 'e' (symbols, calls, binders) in w->taken and the
 * names sums bind in w->counters; once per node ('seen'). */
static void collect_names(struct where *w, const segc_expr *e,
	segc_expr_map *seen)
{
	const segc_expr **st = NULL;
	size_t n = 0, cap = 0, i;

	if (!segc_expr_map_put(seen, e, NULL))
		return;
	st = segc_xrealloc(st, (cap = 64) * sizeof *st);
	st[n++] = e;
	while (n) {
		const segc_expr *x = st[--n];
		enum segc_expr_kind k = segc_expr_kind(x);

		if (k == SEGC_SYM || k == SEGC_CALL || k == SEGC_SUM)
			add_name(&w->taken, &w->ntaken, segc_expr_name(x));
		if (binder(x, 2))
			add_name(&w->counters, &w->ncounters, binder(x, 2));
		for (i = 0; i < segc_expr_nargs(x); i++) {
			const segc_expr *c = segc_expr_arg(x, i);

			if (!segc_expr_map_put(seen, c, NULL))
				continue;
			if (n == cap)
				st = segc_xrealloc(st, (cap *= 2) * sizeof *st);
			st[n++] = c;
		}
	}
	free(st);
}

/* The record of 'e' in w->info, made on first use. */
static struct where_node *node_of(struct where *w, const segc_expr *e)
{
	void **slot = segc_expr_map_find(&w->info, e);
	struct where_node *x;

	if (slot)
		return *slot;
	x = segc_xcalloc(1, sizeof *x);
	segc_expr_map_put(&w->info, e, x);
	return x;
}

/* Counts the occurrences of the nodes of the tree 'e' (in the body of a
 * sum when 'in_sum'); -1 past WHERE_MAX_DEPTH. */
static int count(struct where *w, const segc_expr *e, int in_sum,
	unsigned depth)
{
	struct where_node *x;
	size_t i;

	if (depth > WHERE_MAX_DEPTH || ++w->visits > WHERE_MAX_VISITS)
		return -1;    /* too deep, or too shared to walk as a tree */
	x = node_of(w, e);
	x->count++;
	x->in_sum |= in_sum;
	if (opaque(e))
		return 0;
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (count(w, segc_expr_arg(e, i), in_sum || repeated(e, i),
		    depth + 1))
			return -1;
	return 0;
}

/* Frees the records of w->info. */
static void clear_info(struct where *w)
{
	size_t i;

	for (i = 0; i < w->info.cap; i++)
		free(w->info.values[i]);
	segc_expr_map_clear(&w->info);
	segc_expr_map_init(&w->info);
}

/* The length of the text of 'e' (memoized); huge for a part too large
 * to print. */
static size_t length_of(struct where *w, const segc_expr *e)
{
	void **slot = segc_expr_map_find(&w->length, e);
	char *t;
	size_t n;

	if (slot)
		return (size_t)(uintptr_t)*slot - 1;
	if (segc_expr_tree_size(e, WHERE_MAX_TREE) >= WHERE_MAX_TREE) {
		n = (size_t)-1 / 4;
	} else {
		t = segc_expr_to_string(e);
		n = t ? strlen(t) : (size_t)-1 / 4;
		free(t);
	}
	segc_expr_map_put(&w->length, e, (void *)(uintptr_t)(n + 1));
	return n;
}

/* Non-zero when 'name' is one of the 'n' names of 'a'. */
static int listed(const char *const *a, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i], name))
			return 1;
	return 0;
}

/* Appends to 'out' the counters free in 'e' ('bound' of them bound by
 * sums around, 'nb' of them), in the order of first use. */
static void free_counters(struct where *w, const segc_expr *e,
	const char ***bound, size_t *nb, const char ***out, size_t *n)
{
	size_t i, keep = *nb;

	if (segc_expr_kind(e) == SEGC_SYM) {
		const char *s = segc_expr_name(e);

		if (listed(w->counters, w->ncounters, s) &&
		    !listed(*bound, *nb, s))
			add_name(out, n, s);
		return;
	}
	for (i = 0; i < segc_expr_nargs(e); i++) {
		*nb = keep;
		if (binder(e, i)) {
			*bound = segc_xrealloc((void *)*bound,
				(*nb + 1) * sizeof **bound);
			(*bound)[(*nb)++] = binder(e, i);
		}
		free_counters(w, segc_expr_arg(e, i), bound, nb, out, n);
	}
	*nb = keep;
}

/* The first name of 'e' that no sum binds, in the order of its text
 * (NULL when none). */
static const char *first_name(struct where *w, const segc_expr *e)
{
	size_t i;
	const char *s;

	if (segc_expr_kind(e) == SEGC_SYM)
		return listed(w->counters, w->ncounters, segc_expr_name(e)) ?
			NULL : segc_expr_name(e);
	for (i = 0; i < segc_expr_nargs(e); i++)
		if ((s = first_name(w, segc_expr_arg(e, i))) != NULL)
			return s;
	return NULL;
}

/* Non-zero when 'name' is free for a new definition. */
static int name_free(struct where *w, const char *name)
{
	size_t i;

	if (listed(w->taken, w->ntaken, name) || segc_expr_is_reserved(name)
	    || segc_builtin_lookup(name) != SEGC_BUILTIN_NONE)
		return 0;
	for (i = 0; i < w->n; i++)
		if (!strcmp(w->names[i], name))
			return 0;
	for (i = 0; w->hints && i < w->hints->n; i++)
		if (!strcmp(w->hints->names[i], name))
			return 0;
	return 1;
}

/* A hint's name for 'e' (free of counters): the first hint whose value
 * has the canonical form of 'e' and whose name is not used yet. */
static char *hint_name(struct where *w, const segc_expr *e)
{
	segc_ctx *tmp;
	segc_expr *c;
	size_t i, j;
	char *out = NULL;

	if (!w->hints || !w->hints->n || !(tmp = segc_ctx_new()))
		return NULL;
	c = segc_canonical(tmp, w->dom, segc_expr_copy(e));
	for (i = 0; c && !out && i < w->hints->n; i++) {
		if (w->hints->values[i] != c)
			continue;
		for (j = 0; j < w->n && strcmp(w->names[j],
		     w->hints->names[i]); j++)
			;
		if (j == w->n && !listed(w->taken, w->ntaken,
		    w->hints->names[i]))
			out = segc_xstrdup(w->hints->names[i]);
	}
	segc_expr_free(c);
	segc_ctx_free(tmp);
	return out;
}

/* A new name for 'e': a hint's, else the first name of 'e' (or "w")
 * with "_x", "_y", ... */
static char *new_name(struct where *w, const segc_expr *e)
{
	static const char *const suffix[] = { "x", "y", "z", "u", "v", "w" };
	const char *base = first_name(w, e);
	char *name = hint_name(w, e);
	size_t len, k;

	if (name)
		return name;
	if (!base)
		base = "w";
	len = strlen(base) + 24;
	name = segc_xmalloc(len);
	for (k = 0;; k++) {
		if (k < sizeof suffix / sizeof *suffix)
			snprintf(name, len, "%s_%s", base, suffix[k]);
		else
			snprintf(name, len, "%s_x%lu", base, (unsigned long)
				(k - sizeof suffix / sizeof *suffix + 1));
		if (name_free(w, name))
			return name;
	}
}

/* The characters naming 'e' saves (0 when not worth it): a part seen
 * 'count' > 1 times, or a long ceil, floor, max or min in a sum. */
static size_t saving(struct where *w, const segc_expr *e,
	const struct where_node *x)
{
	size_t len, use = 6, i;   /* N_x, and a little for "(i)" */
	enum segc_builtin id = segc_expr_builtin(e);
	enum segc_expr_kind k = segc_expr_kind(e);

	if (x->top || k == SEGC_NUM || k == SEGC_SYM || opaque(e) ||
	    segc_expr_builtin(e) == SEGC_BUILTIN_IF)
		return 0;
	if (x->count < 2 && !(x->in_sum && (id == SEGC_BUILTIN_CEIL ||
	    id == SEGC_BUILTIN_FLOOR || id == SEGC_BUILTIN_MAX ||
	    id == SEGC_BUILTIN_MIN)))
		return 0;    /* neither repeated nor a long one in a sum */
	for (i = 0; k == SEGC_CALL && i < w->n; i++)
		if (!strcmp(w->names[i], segc_expr_name(e)))
			return 0;    /* a name already given */
	len = length_of(w, e);
	if (len >= (size_t)-1 / 8)
		return 0;
	if (x->count >= 2 && len >= WHERE_MIN_REPEAT &&
	    (x->count - 1) * len > x->count * use + use + 4)
		return (x->count - 1) * len - x->count * use;
	if (x->count == 1 && x->in_sum && len >= WHERE_MIN_LONG &&
	    (id == SEGC_BUILTIN_CEIL || id == SEGC_BUILTIN_FLOOR ||
	     id == SEGC_BUILTIN_MAX || id == SEGC_BUILTIN_MIN))
		return len - WHERE_MIN_LONG + 1;
	return 0;
}

/* 'e' with every occurrence of 'part' replaced by 'by' (references kept);
 * NULL past WHERE_MAX_DEPTH. */
static segc_expr *replace(const segc_expr *e, const segc_expr *part,
	segc_expr *by, segc_expr_map *memo, unsigned depth)
{
	void **slot;
	segc_expr **args, *r;
	size_t n = segc_expr_nargs(e), i;

	if (e == part)
		return segc_expr_copy(by);
	if (!n || opaque(e))
		return segc_expr_copy(e);
	if ((slot = segc_expr_map_find(memo, e)) != NULL)
		return segc_expr_copy(*slot);
	if (depth > WHERE_MAX_DEPTH)
		return NULL;
	args = segc_xcalloc(n, sizeof *args);
	for (i = 0; i < n; i++)
		if (!(args[i] = replace(segc_expr_arg(e, i), part, by, memo,
		    depth + 1))) {
			while (i--)
				segc_expr_free(args[i]);
			free(args);
			return NULL;
		}
	r = segc_expr_rebuild(segc_expr_kind(e), segc_expr_name(e), n, args);
	free(args);
	segc_expr_map_put(memo, e, segc_expr_copy(r));
	return r;
}

/* Replaces 'part' by 'by' in every formula and definition; -1 when one
 * is too deep (nothing changed then). */
static int replace_all(struct where *w, const segc_expr *part,
	segc_expr *by)
{
	size_t m = w->nf + w->n, i;
	segc_expr **out = segc_xcalloc(m ? m : 1, sizeof *out);
	segc_expr_map memo;
	int rc = 0;

	segc_expr_map_init(&memo);
	for (i = 0; i < m && !rc; i++) {
		segc_expr *e = i < w->nf ? w->f[i] : w->rhs[i - w->nf];

		if (e && !(out[i] = replace(e, part, by, &memo, 0)))
			rc = -1;
	}
	for (i = 0; i < m; i++) {
		segc_expr **slot = i < w->nf ? &w->f[i] : &w->rhs[i - w->nf];

		if (rc) {
			segc_expr_free(out[i]);
		} else if (*slot) {
			segc_expr_free(*slot);
			*slot = out[i];
		}
	}
	for (i = 0; i < memo.cap; i++)
		if (memo.keys[i])
			segc_expr_free(memo.values[i]);
	segc_expr_map_clear(&memo);
	free(out);
	return rc;
}

/* Counts the occurrences in the formulas and definitions; -1 when one is
 * too deep. */
static int count_all(struct where *w)
{
	size_t i;

	clear_info(w);
	w->visits = 0;
	for (i = 0; i < w->nf + w->n; i++) {
		segc_expr *e = i < w->nf ? w->f[i] : w->rhs[i - w->nf];

		if (!e)
			continue;
		if (count(w, e, 0, 0))
			return -1;
		node_of(w, e)->top = 1;
	}
	return 0;
}

/* The node that saves most (first in the order of expressions on a tie);
 * NULL when none saves anything. */
static const segc_expr *best(struct where *w)
{
	const segc_expr *b = NULL;
	size_t bs = 0, i, s;

	for (i = 0; i < w->info.cap; i++) {
		if (!w->info.keys[i])
			continue;
		s = saving(w, w->info.keys[i], w->info.values[i]);
		if (s > bs || (s && s == bs &&
		    segc_expr_cmp(w->info.keys[i], b) < 0)) {
			b = w->info.keys[i];
			bs = s;
		}
	}
	return b;
}

/* Names 'part': its definition added, every occurrence replaced; -1 when
 * it cannot be. */
static int name_part(struct where *w, const segc_expr *part)
{
	const char **bound = NULL, **args = NULL;
	size_t nb = 0, na = 0, i;
	segc_expr **a, *lhs, *value = segc_expr_copy(part);
	char *name;
	int rc;

	free_counters(w, part, &bound, &nb, &args, &na);
	free(bound);
	name = na ? NULL : hint_name(w, part);
	if (!name)
		name = new_name(w, part);
	if (na) {
		a = segc_xcalloc(na, sizeof *a);
		for (i = 0; i < na; i++)
			a[i] = segc_expr_sym(args[i]);
		lhs = segc_expr_call(name, na, a);
		free(a);
	} else {
		lhs = segc_expr_sym(name);
	}
	free(args);
	rc = replace_all(w, part, lhs);
	if (rc) {
		segc_expr_free(lhs);
		segc_expr_free(value);
		free(name);
		return -1;
	}
	w->lhs = segc_xrealloc(w->lhs, (w->n + 1) * sizeof *w->lhs);
	w->rhs = segc_xrealloc(w->rhs, (w->n + 1) * sizeof *w->rhs);
	w->names = segc_xrealloc(w->names, (w->n + 1) * sizeof *w->names);
	w->lhs[w->n] = lhs;
	w->rhs[w->n] = value;
	w->names[w->n++] = name;
	return 0;
}

/* Appends to 'order' the definitions 'e' uses (the names of w->names it
 * holds), each once, in the order of the walk. */
static void order_uses(struct where *w, const segc_expr *e, size_t *order,
	size_t *n, char *used)
{
	size_t i;

	if (segc_expr_kind(e) == SEGC_SYM || segc_expr_kind(e) == SEGC_CALL)
		for (i = 0; i < w->n; i++)
			if (!used[i] && !strcmp(w->names[i],
			    segc_expr_name(e))) {
				used[i] = 1;
				order[(*n)++] = i;
			}
	if (opaque(e))
		return;
	for (i = 0; i < segc_expr_nargs(e); i++)
		order_uses(w, segc_expr_arg(e, i), order, n, used);
}

/* Releases the search's tables. */
static void where_clear(struct where *w)
{
	size_t i;

	clear_info(w);
	segc_expr_map_clear(&w->info);
	segc_expr_map_clear(&w->length);
	for (i = 0; i < w->n; i++) {
		segc_expr_free(w->lhs[i]);
		segc_expr_free(w->rhs[i]);
		free(w->names[i]);
	}
	free(w->lhs);
	free(w->rhs);
	free(w->names);
	free((void *)w->counters);
	free((void *)w->taken);
}

/* See structural.h. */
int segc_structural_where(segc_ctx *ctx, const segc_domains *dom,
	const segc_where_hints *hints, segc_expr **f, size_t nf,
	segc_where_list *out)
{
	struct where w;
	segc_expr_map seen;
	size_t i, k, *order;
	char *used;
	const segc_expr *part;

	memset(&w, 0, sizeof w);
	memset(out, 0, sizeof *out);
	w.ctx = ctx;
	w.dom = dom;
	w.hints = hints;
	w.nf = nf;
	w.f = segc_xcalloc(nf ? nf : 1, sizeof *w.f);
	segc_expr_map_init(&w.info);
	segc_expr_map_init(&w.length);
	segc_expr_map_init(&seen);
	for (i = 0; i < nf; i++)
		if (f[i]) {
			w.f[i] = segc_expr_readable_binders(f[i]);
			collect_names(&w, w.f[i], &seen);
		}
	segc_expr_map_clear(&seen);
	while (w.n < WHERE_MAX_NAMES && !count_all(&w) &&
	       (part = best(&w)) != NULL && !name_part(&w, part))
		;
	/* The definitions in the order of their first use. */
	order = segc_xcalloc(w.n + 1, sizeof *order);
	used = segc_xcalloc(w.n + 1, 1);
	k = 0;
	for (i = 0; i < nf; i++)
		if (w.f[i])
			order_uses(&w, w.f[i], order, &k, used);
	for (i = 0; i < k; i++)
		order_uses(&w, w.rhs[order[i]], order, &k, used);
	out->n = k;
	out->lhs = segc_xcalloc(k + 1, sizeof *out->lhs);
	out->rhs = segc_xcalloc(k + 1, sizeof *out->rhs);
	for (i = 0; i < k; i++) {
		out->lhs[i] = segc_expr_copy(w.lhs[order[i]]);
		out->rhs[i] = segc_expr_copy(w.rhs[order[i]]);
	}
	for (i = 0; i < nf; i++) {
		if (!f[i])
			continue;
		segc_expr_free(f[i]);
		f[i] = w.f[i];
	}
	free(order);
	free(used);
	free(w.f);
	where_clear(&w);
	return 0;
}

/* See structural.h. */
void segc_where_list_clear(segc_where_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		segc_expr_free(l->lhs[i]);
		segc_expr_free(l->rhs[i]);
	}
	free(l->lhs);
	free(l->rhs);
	memset(l, 0, sizeof *l);
}
