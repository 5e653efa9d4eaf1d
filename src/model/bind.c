/* bind.c - what a formula is derived under: the -D bindings, the model's
 * lets, parameter values and functions, and a machine; and the domains the
 * model declares.
 *
 * A plain name not bound locally (a function argument, a loop counter, a
 * sum's variable) resolves, strongest first, to:
 *   1. a -D binding of the name;
 *   2. the model's <param value>;
 *   3. the model's <let> (a definition of the model, which a machine does
 *      not replace);
 *   4. the machine's <const>, then its <cost> of that name;
 *   5. itself, when it is a declared parameter or resource (or N or P);
 * and is an error (an undeclared name) otherwise.  A call resolves to the
 * machine's <function> of that name, else the model's, else stays an
 * uninterpreted call with its arguments processed; max, min, ceil, floor,
 * log2, sqrt and mva_mem are built in and never replaced.  Values are
 * processed where they are used, so a let may use earlier lets and
 * parameters and a machine constant other constants.  Every global name is
 * resolved once (cached), every call of a function with the same processed
 * arguments expanded once, so sharing costs nothing; a cycle of names or
 * calls, which validation rejects, is reported, and the depth of nested
 * expansions is limited. */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "expr/builtin.h"
#include "base/util.h"

/* ------------------------------------------------------------- bindings */

struct segc_bindings {
	size_t n, cap;
	char **names;
	segc_expr **values;
};

/* A new, empty set of bindings. */
segc_bindings *segc_bindings_new(void)
{
	return segc_xcalloc(1, sizeof(segc_bindings));
}

/* Releases 'b'. */
void segc_bindings_free(segc_bindings *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->names[i]);
		segc_expr_free(b->values[i]);
	}
	free(b->names);
	free(b->values);
	free(b);
}

/* Parses "NAME=VALUE" into 'b'; a later binding of a name replaces an
 * earlier one. */
int segc_bindings_add(segc_ctx *ctx, segc_bindings *b, const char *text)
{
	const char *eq = strchr(text, '=');
	char *name;
	segc_expr *v;
	segc_where w;
	size_t i;

	if (!eq) {
		segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "-D %s: expected "
			"NAME=VALUE", text);
		return -1;
	}
	name = segc_xstrndup(text, (size_t)(eq - text));
	if (!segc_name_is_identifier(name)) {
		segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "-D %s: '%s' is "
			"not a name", text, name);
		free(name);
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.what = "the value of -D";
	v = segc_expr_parse(ctx, eq + 1, &w);
	if (!v) {
		free(name);
		return -1;
	}
	for (i = 0; i < b->n; i++)
		if (!strcmp(b->names[i], name)) {
			free(name);
			segc_expr_free(b->values[i]);
			b->values[i] = v;
			return 0;
		}
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		b->names = segc_xrealloc(b->names, b->cap * sizeof(char *));
		b->values = segc_xrealloc(b->values,
			b->cap * sizeof(segc_expr *));
	}
	b->names[b->n] = name;
	b->values[b->n++] = v;
	return 0;
}

/* Number of bindings. */
size_t segc_bindings_count(const segc_bindings *b)
{
	return b ? b->n : 0;
}

/* Name of binding 'i'. */
const char *segc_bindings_name(const segc_bindings *b, size_t i)
{
	return b->names[i];
}

/* Value of binding 'i' (borrowed). */
segc_expr *segc_bindings_value(const segc_bindings *b, size_t i)
{
	return b->values[i];
}

/* ------------------------------------------------------------- tables */

/* A name cache entry: state 0 new, 1 being resolved, 2 resolved. */
typedef struct name_entry {
	char *name;
	int state;
	segc_expr *value;
} name_entry;

/* A memo entry: an expression (with a scope generation) or a call. */
typedef struct memo_entry {
	const void *key;           /* expression, or function */
	unsigned long gen;
	size_t nargs;
	segc_expr **args;          /* of a call; owned */
	segc_expr *value;
} memo_entry;

typedef struct table {
	size_t cap, n;
	void *slots;
} table;

/* Grows a table of 'size'-byte slots whose first pointer marks use. */
static void table_init(table *t, size_t size)
{
	t->cap = 64;
	t->n = 0;
	t->slots = segc_xcalloc(t->cap, size);
}

/* FNV-style hash of a string. */
static unsigned long hash_str(const char *s)
{
	unsigned long h = 2166136261UL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619UL;
	return h;
}

/* Mixes a pointer into a hash (only used for lookups, never for
 * anything printed, so output stays deterministic). */
static unsigned long hash_ptr(const void *p, unsigned long h)
{
	unsigned long x = (unsigned long)(size_t)p;

	x ^= x >> 17;
	return (h ^ x) * 0x9E3779B1UL;
}

/* The slot of 'name' in the name table (inserted when new). */
static name_entry *name_slot(table *t, const char *name)
{
	name_entry *s;
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		name_entry *old = t->slots;
		size_t cap = t->cap, k;

		t->cap *= 2;
		t->slots = segc_xcalloc(t->cap, sizeof(name_entry));
		t->n = 0;
		for (k = 0; k < cap; k++)
			if (old[k].name) {
				size_t j = hash_str(old[k].name) & (t->cap - 1);
				name_entry *ns = t->slots;

				while (ns[j].name)
					j = (j + 1) & (t->cap - 1);
				ns[j] = old[k];
				t->n++;
			}
		free(old);
	}
	s = t->slots;
	for (i = hash_str(name) & (t->cap - 1); s[i].name;
			i = (i + 1) & (t->cap - 1))
		if (!strcmp(s[i].name, name))
			return &s[i];
	s[i].name = segc_xstrdup(name);
	t->n++;
	return &s[i];
}

/* Hash of a memo key. */
static unsigned long memo_hash(const void *key, unsigned long gen,
	size_t nargs, segc_expr *const *args)
{
	unsigned long h = hash_ptr(key, gen * 31 + 7);
	size_t i;

	for (i = 0; i < nargs; i++)
		h = hash_ptr(args[i], h);
	return h;
}

/* The memo slot of a key (empty slot if absent). */
static memo_entry *memo_find(table *t, const void *key, unsigned long gen,
	size_t nargs, segc_expr *const *args)
{
	memo_entry *s = t->slots;
	size_t i;

	for (i = memo_hash(key, gen, nargs, args) & (t->cap - 1); s[i].key;
			i = (i + 1) & (t->cap - 1)) {
		if (s[i].key == key && s[i].gen == gen && s[i].nargs == nargs
				&& (!nargs || !memcmp(s[i].args, args,
					nargs * sizeof(*args))))
			return &s[i];
	}
	return &s[i];
}

/* Records value 'v' (a new reference is kept) for a key. */
static void memo_put(table *t, const void *key, unsigned long gen,
	size_t nargs, segc_expr *const *args, segc_expr *v)
{
	memo_entry *s;
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		memo_entry *old = t->slots;
		size_t cap = t->cap, k;

		t->cap *= 2;
		t->slots = segc_xcalloc(t->cap, sizeof(memo_entry));
		for (k = 0; k < cap; k++)
			if (old[k].key)
				*memo_find(t, old[k].key, old[k].gen,
					old[k].nargs, old[k].args) = old[k];
		free(old);
	}
	s = memo_find(t, key, gen, nargs, args);
	s->key = key;
	s->gen = gen;
	s->nargs = nargs;
	s->args = NULL;
	if (nargs) {
		s->args = segc_xmalloc(nargs * sizeof(*args));
		for (i = 0; i < nargs; i++)
			s->args[i] = segc_expr_copy(args[i]);
	}
	s->value = segc_expr_copy(v);
	t->n++;
}

/* Releases a memo table. */
static void memo_free(table *t)
{
	memo_entry *s = t->slots;
	size_t i, k;

	for (i = 0; i < t->cap; i++) {
		if (!s[i].key)
			continue;
		for (k = 0; k < s[i].nargs; k++)
			segc_expr_free(s[i].args[k]);
		free(s[i].args);
		segc_expr_free(s[i].value);
	}
	free(s);
}

/* ------------------------------------------------------------- applier */

/* A local scope: 'name' bound to 'value' (NULL: a counter or a sum's
 * variable, which stays a name). */
typedef struct env {
	const char *name;
	segc_expr *value;
	const struct env *up;
} env;

typedef struct applier {
	segc_ctx *ctx;
	const segc_model *m;
	const segc_machine *mach;
	const segc_bindings *b;
	const segc_where *where;
	const segc_srcloc *loc;
	table names, exprs, calls;
	const env *memo_env;     /* the scope whose results are memoised */
	unsigned long gen;       /* its generation (0: global scope) */
	unsigned long depth, max_depth, expansions;
	const segc_function **expanding;  /* functions being expanded */
	size_t nexpanding, capexpanding;
	int failed;
} applier;

/* Starts an applier for setting 's'. */
static void applier_init(applier *A, segc_ctx *ctx, const segc_setting *s)
{
	memset(A, 0, sizeof(*A));
	A->ctx = ctx;
	A->m = s->model;
	A->mach = segc_setting_machine(s);
	A->b = s->bindings;
	A->max_depth = segc_ctx_limits(ctx)->max_depth;
	if (A->max_depth > SEGC_MAX_DEPTH_CEILING)
		A->max_depth = SEGC_MAX_DEPTH_CEILING;
	A->max_depth += 64;
	table_init(&A->names, sizeof(name_entry));
	table_init(&A->exprs, sizeof(memo_entry));
	table_init(&A->calls, sizeof(memo_entry));
}

/* Releases the applier's tables. */
static void applier_clear(applier *A)
{
	name_entry *s = A->names.slots;
	size_t i;

	for (i = 0; i < A->names.cap; i++)
		if (s[i].name) {
			segc_expr_free(s[i].value);
			free(s[i].name);
		}
	free(s);
	memo_free(&A->exprs);
	memo_free(&A->calls);
	free(A->expanding);
}

/* Records an error at the current location. */
static void fail(applier *A, enum segc_status code, const char *fmt,
	const char *name)
{
	if (A->failed)
		return;
	A->failed = 1;
	if (A->where)
		segc_error(A->ctx, code, A->where->file, A->where->line,
			A->where->col, fmt, name, A->where->what
			? A->where->what : "the formula");
	else if (A->loc)
		segc_error(A->ctx, code, A->loc->file, A->loc->line,
			A->loc->col, fmt, name, "the graph");
	else
		segc_error(A->ctx, code, NULL, 0, 0, fmt, name, "the formula");
}

static segc_expr *apply(applier *A, const segc_expr *e, const env *E);

/* The value a global name resolves to (see the top of the file), as a
 * borrowed expression; NULL on error. */
static const segc_expr *value_source(applier *A, const char *name, int *sym)
{
	const segc_binding *bd;
	const segc_param *p = A->m ? segc_model_param(A->m, name) : NULL;
	size_t i;

	*sym = 0;
	for (i = segc_bindings_count(A->b); i-- > 0;)
		if (!strcmp(segc_bindings_name(A->b, i), name)) {
			const segc_expr *v = segc_bindings_value(A->b, i);

			/* NAME=NAME (emit --keep NAME): a symbol, whatever
			 * else would bind it. */
			*sym = segc_expr_kind(v) == SEGC_SYM &&
				!strcmp(segc_expr_name(v), name);
			return *sym ? NULL : v;
		}
	if (p && p->value)
		return p->value;
	if (A->m && (bd = segc_model_let(A->m, name)))
		return bd->value;
	if (A->mach && (bd = segc_machine_const(A->mach, name)))
		return bd->value;
	if (A->mach && (bd = segc_machine_cost(A->mach, name)))
		return bd->value;
	if (p || !strcmp(name, "N") || !strcmp(name, "P")
			|| (A->m && segc_model_resource(A->m, name)))
		*sym = 1;
	return NULL;
}

/* Resolves global name 'name' (cached); a new reference or NULL. */
static segc_expr *resolve_global(applier *A, const char *name)
{
	name_entry *ne = name_slot(&A->names, name);
	const segc_expr *src;
	segc_expr *v;
	int sym;

	if (ne->state == 2)
		return segc_expr_copy(ne->value);
	if (ne->state == 1) {
		fail(A, SEGC_ERR_INPUT, "the definition of '%s' depends on "
			"itself (in %s)", name);
		return NULL;
	}
	src = value_source(A, name, &sym);
	if (!src && !sym) {
		fail(A, SEGC_ERR_INPUT, "undeclared name '%s' in %s", name);
		return NULL;
	}
	if (sym)
		v = segc_expr_sym(name);
	else {
		ne->state = 1;
		v = apply(A, src, NULL);
		ne = name_slot(&A->names, name);
		ne->state = 0;
		if (!v)
			return NULL;
	}
	ne->state = 2;
	ne->value = segc_expr_copy(v);
	return v;
}

/* A name: a local binding, else global. */
static segc_expr *apply_sym(applier *A, const segc_expr *e, const env *E)
{
	const char *name = segc_expr_name(e);
	const env *x;

	for (x = E; x; x = x->up)
		if (!strcmp(x->name, name))
			return x->value ? segc_expr_copy(x->value)
				: segc_expr_copy(e);
	return resolve_global(A, name);
}

/* The function the call 'e' expands, or NULL: the machine's first; none
 * for a built-in that models write (expr/builtin.h). */
static const segc_function *find_function(applier *A, const segc_expr *e)
{
	const char *name = segc_expr_name(e);
	size_t i;

	if (segc_builtin_get(segc_expr_builtin(e))->input)
		return NULL;
	for (i = 0; A->mach && i < A->mach->nfunctions; i++)
		if (!strcmp(A->mach->functions[i].name, name))
			return &A->mach->functions[i];
	for (i = 0; A->m && i < A->m->nfunctions; i++)
		if (!strcmp(A->m->functions[i].name, name))
			return &A->m->functions[i];
	return NULL;
}

/* Non-zero, with a diagnostic at the function where the cycle starts,
 * when 'f' is being expanded already: it calls itself, through the
 * functions expanded since (of the model, of the machine or both). */
static int recursion(applier *A, const segc_function *f)
{
	size_t i = A->nexpanding, k;
	segc_strbuf sb;

	while (i > 0 && A->expanding[i - 1] != f)
		i--;
	if (i == 0)
		return 0;
	segc_strbuf_init(&sb);
	for (k = i - 1; k < A->nexpanding; k++)
		segc_strbuf_appendf(&sb, "'%s' -> ", A->expanding[k]->name);
	segc_strbuf_appendf(&sb, "'%s'", f->name);
	if (!A->failed)
		segc_error(A->ctx, SEGC_ERR_INPUT, f->loc.file, f->loc.line,
			f->loc.col, "<function>: recursion is not allowed: %s",
			segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	A->failed = 1;
	return 1;
}

/* Expands function 'f' at processed arguments 'args' (borrowed). */
static segc_expr *expand(applier *A, const segc_function *f,
	segc_expr **args)
{
	memo_entry *me = memo_find(&A->calls, f, 0, f->nargs, args);
	env *frames;
	const env *save_env = A->memo_env;
	unsigned long save_gen = A->gen;
	segc_expr *v;
	size_t i;

	if (me->key)
		return segc_expr_copy(me->value);
	if (recursion(A, f))
		return NULL;
	if (++A->expansions > 4096 + A->max_depth) {
		fail(A, SEGC_ERR_LIMIT, "expanding '%s' nests too deeply "
			"(in %s)", f->name);
		return NULL;
	}
	frames = segc_xcalloc(f->nargs + 1, sizeof(*frames));
	for (i = 0; i < f->nargs; i++) {
		frames[i].name = f->args[i];
		frames[i].value = args[i];
		frames[i].up = i ? &frames[i - 1] : NULL;
	}
	if (A->nexpanding == A->capexpanding) {
		A->capexpanding = A->capexpanding ? 2 * A->capexpanding : 16;
		A->expanding = segc_xrealloc(A->expanding, segc_xmul_size(
			A->capexpanding, sizeof(*A->expanding)));
	}
	A->expanding[A->nexpanding++] = f;
	A->memo_env = NULL;
	A->gen = (unsigned long)-1;
	v = apply(A, f->body, f->nargs ? &frames[f->nargs - 1] : NULL);
	A->nexpanding--;
	A->memo_env = save_env;
	A->gen = save_gen;
	A->expansions--;
	free(frames);
	if (v)
		memo_put(&A->calls, f, 0, f->nargs, args, v);
	return v;
}

/* A call: its arguments processed, then expanded or kept. */
static segc_expr *apply_call(applier *A, const segc_expr *e, const env *E)
{
	size_t n = segc_expr_nargs(e), i;
	segc_expr **args = segc_xcalloc(n + 1, sizeof(*args));
	const segc_function *f = find_function(A, e);
	segc_expr *v = NULL;
	const env *save_env = A->memo_env;
	unsigned long save_gen = A->gen;
	env inner;

	/* maxplusv(i, n, ...) binds i in its costs, as a sum in its body */
	inner.name = segc_expr_binder(e);
	inner.value = NULL;
	inner.up = E;
	for (i = 0; i < n; i++) {
		int bound = inner.name && segc_expr_arg_bound(e, i);

		A->memo_env = bound ? NULL : save_env;
		A->gen = bound ? (unsigned long)-1 : save_gen;
		args[i] = bound && !i ? segc_expr_copy(segc_expr_arg(e, 0)) :
			apply(A, segc_expr_arg(e, i), bound ? &inner : E);
		A->memo_env = save_env;
		A->gen = save_gen;
		if (!args[i])
			goto out;
	}
	if (f && f->nargs != n) {
		fail(A, SEGC_ERR_INPUT, "function '%s' called with the wrong "
			"number of arguments (in %s)", f->name);
		goto out;
	}
	if (f)
		v = expand(A, f, args);
	else {
		v = segc_expr_call(segc_expr_name(e), n, args);
		n = 0;
	}
out:
	for (i = 0; i < n; i++)
		segc_expr_free(args[i]);
	free(args);
	return v;
}

/* sum(var, lo, hi, body): 'var' bound inside the body. */
static segc_expr *apply_sum(applier *A, const segc_expr *e, const env *E)
{
	env inner;
	segc_expr *lo, *hi, *body;
	const env *save_env = A->memo_env;
	unsigned long save_gen = A->gen;

	lo = apply(A, segc_expr_arg(e, 0), E);
	hi = lo ? apply(A, segc_expr_arg(e, 1), E) : NULL;
	inner.name = segc_expr_name(e);
	inner.value = NULL;
	inner.up = E;
	A->memo_env = NULL;
	A->gen = (unsigned long)-1;
	body = hi ? apply(A, segc_expr_arg(e, 2), &inner) : NULL;
	A->memo_env = save_env;
	A->gen = save_gen;
	if (!body) {
		segc_expr_free(lo);
		segc_expr_free(hi);
		return NULL;
	}
	return segc_expr_sum(inner.name, lo, hi, body);
}

/* The children of 'e' processed, rebuilt with the same constructor. */
static segc_expr *apply_children(applier *A, const segc_expr *e,
	const env *E)
{
	enum segc_expr_kind k = segc_expr_kind(e);
	size_t n = segc_expr_nargs(e), i;
	segc_expr **v = segc_xcalloc(n + 1, sizeof(*v));
	segc_expr *r = NULL;

	for (i = 0; i < n; i++)
		if (!(v[i] = apply(A, segc_expr_arg(e, i), E)))
			break;
	if (i < n) {
		while (i-- > 0)
			segc_expr_free(v[i]);
	} else if (k == SEGC_ADD)
		r = segc_expr_add(n, v);
	else if (k == SEGC_MUL)
		r = segc_expr_mul(n, v);
	else
		r = segc_expr_pow(v[0], v[1]);
	free(v);
	return r;
}

/* Processes 'e' in scope 'E': a new reference, or NULL on error. */
static segc_expr *apply(applier *A, const segc_expr *e, const env *E)
{
	int memo = E == A->memo_env && A->gen != (unsigned long)-1;
	memo_entry *me;
	segc_expr *v;

	if (A->failed)
		return NULL;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return segc_expr_copy(e);
	case SEGC_SYM:
		return apply_sym(A, e, E);
	default:
		break;
	}
	if (memo) {
		me = memo_find(&A->exprs, e, A->gen, 0, NULL);
		if (me->key)
			return segc_expr_copy(me->value);
	}
	if (++A->depth > A->max_depth) {
		fail(A, SEGC_ERR_LIMIT, "'%s': expressions nest too deeply "
			"(in %s)", "max_depth");
		return NULL;
	}
	if (segc_expr_kind(e) == SEGC_CALL)
		v = apply_call(A, e, E);
	else if (segc_expr_kind(e) == SEGC_SUM)
		v = apply_sum(A, e, E);
	else
		v = apply_children(A, e, E);
	A->depth--;
	if (v && memo)
		memo_put(&A->exprs, e, A->gen, 0, NULL, v);
	return v;
}

/* Applies setting 's' to 'e' (see segc_model.h). */
segc_expr *segc_setting_apply(segc_ctx *ctx, const segc_setting *s,
	segc_expr *e, const segc_where *where)
{
	applier A;
	segc_expr *v;

	if (!e)
		return NULL;
	applier_init(&A, ctx, s);
	A.where = where;
	v = apply(&A, e, NULL);
	applier_clear(&A);
	segc_expr_free(e);
	return v;
}

/* ------------------------------------------ applying under bound counters */

struct segc_scoped_apply {
	applier A;
	env *scope;         /* the current counters, innermost last */
	size_t nscope;
	unsigned long gens;
};

/* Non-zero when counters 'bound' are the scope 'G' holds. */
static int same_scope(const segc_scoped_apply *G, const char *const *bound,
	size_t nbound)
{
	size_t i;

	if (nbound != G->nscope || !G->scope)
		return 0;
	for (i = 0; i < nbound; i++)
		if (strcmp(G->scope[i].name, bound[i]))
			return 0;
	return 1;
}

/* An applier of setting 's' for many expressions (see model.h). */
segc_scoped_apply *segc_scoped_apply_new(segc_ctx *ctx, const segc_setting *s)
{
	segc_scoped_apply *G = segc_xcalloc(1, sizeof(*G));

	applier_init(&G->A, ctx, s);
	G->gens = 0;
	return G;
}

/* Frees applier 'G'. */
void segc_scoped_apply_free(segc_scoped_apply *G)
{
	if (!G)
		return;
	applier_clear(&G->A);
	free(G->scope);
	free(G);
}

/* Applies the setting of 'G' to 'e' under the counters 'bound' in scope
 * (see model.h). */
segc_expr *segc_scoped_apply_expr(segc_scoped_apply *G, const segc_expr *e,
	const char *const *bound, size_t nbound, const segc_srcloc *loc)
{
	size_t i;

	if (!same_scope(G, bound, nbound)) {
		free(G->scope);
		G->scope = segc_xcalloc(nbound + 1, sizeof(env));
		for (i = 0; i < nbound; i++) {
			G->scope[i].name = bound[i];
			G->scope[i].up = i ? &G->scope[i - 1] : NULL;
		}
		G->nscope = nbound;
		G->A.memo_env = nbound ? &G->scope[nbound - 1] : NULL;
		G->A.gen = nbound ? ++G->gens : 0;
	}
	G->A.loc = loc;
	return apply(&G->A, e, G->A.memo_env);
}

/* ------------------------------------------------------------- domains */

/* The value of bound 'e' under 's' if it is a constant: a new NUM or
 * NULL. */
static segc_expr *constant_bound(segc_ctx *ctx, const segc_setting *s,
	const segc_expr *e)
{
	segc_ctx *tmp = segc_ctx_new();
	segc_expr *v;

	(void)ctx;
	if (!e || !tmp) {
		segc_ctx_free(tmp);
		return NULL;
	}
	v = segc_setting_apply(tmp, s, segc_expr_copy(e), NULL);
	if (v)
		v = segc_canonical(tmp, NULL, v);
	segc_ctx_free(tmp);
	if (v && !segc_expr_is_num(v)) {
		segc_expr_free(v);
		v = NULL;
	}
	return v;
}

/* Declares 'name' in 'd' with constant bounds 'lo'/'hi' (taken; NULL:
 * none). */
static void declare(segc_domains *d, const char *name, segc_expr *lo,
	segc_expr *hi, int integer)
{
	segc_domains_set(d, name, lo ? segc_expr_value(lo) : NULL,
		hi ? segc_expr_value(hi) : NULL, integer);
	segc_expr_free(lo);
	segc_expr_free(hi);
}

/* Widens the domain of counter 'var' to hold [lo, hi] (taken; NULL: a
 * bound that is not a constant, so none).  A side without a bound in
 * either range has none in the union. */
static void declare_counter(segc_domains *d, const char *var, segc_expr *lo,
	segc_expr *hi)
{
	mpq_srcptr omin, omax;
	int integer;

	if (segc_domains_get(d, var, &omin, &omax, &integer)) {
		if (!omin || !lo) {
			segc_expr_free(lo);
			lo = NULL;
		} else if (mpq_cmp(omin, segc_expr_value(lo)) < 0) {
			segc_expr_free(lo);
			lo = segc_expr_num(omin);
		}
		if (!omax || !hi) {
			segc_expr_free(hi);
			hi = NULL;
		} else if (mpq_cmp(omax, segc_expr_value(hi)) > 0) {
			segc_expr_free(hi);
			hi = segc_expr_num(omax);
		}
	}
	declare(d, var, lo, hi, 1);
}

/* Non-zero when 'name' is a name of the model other than a counter. */
static int model_name(const segc_model *m, const char *name)
{
	return segc_model_param(m, name) || segc_model_resource(m, name)
		|| segc_model_let(m, name)
		|| !strcmp(name, "N") || !strcmp(name, "P");
}

/* Declares the counters of the loops of every graph of the model. */
static void declare_counters(segc_ctx *ctx, const segc_setting *s,
	segc_domains *d)
{
	const segc_model *m = s->model;
	const segc_block **st = NULL;
	size_t n = 0, cap = 0, g, i;

	for (g = 0; g < m->ngraphs; g++) {
		for (i = 0; m->graphs[g].arc_form && i < m->graphs[g].narcs;
		     i++) {
			const segc_arc *a = &m->graphs[g].arcs[i];

			if (a->loop && a->var && !model_name(m, a->var))
				declare_counter(d, a->var, segc_expr_int(1),
					constant_bound(ctx, s, a->loop));
		}
		if (m->graphs[g].arc_form || !m->graphs[g].body)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			st = segc_xrealloc(st, cap * sizeof(*st));
		}
		st[n++] = m->graphs[g].body;
		while (n > 0) {
			const segc_block *b = st[--n];

			if (b->kind == SEGC_BLOCK_LOOP && b->var
					&& !model_name(m, b->var))
				declare_counter(d, b->var,
					constant_bound(ctx, s, b->from),
					constant_bound(ctx, s, b->to));
			for (i = 0; i < b->nchildren; i++) {
				if (n == cap) {
					cap = 2 * cap;
					st = segc_xrealloc(st,
						cap * sizeof(*st));
				}
				st[n++] = b->children[i];
			}
		}
	}
	free(st);
}

/* The domains the model declares (see segc_model.h). */
segc_domains *segc_setting_domains(segc_ctx *ctx, const segc_setting *s)
{
	const segc_model *m = s->model;
	segc_domains *d = segc_domains_new();
	size_t i;

	if (!d || !m)
		return d;
	for (i = 0; i < m->nresources; i++)
		declare(d, m->resources[i].name, segc_expr_int(0), NULL, 0);
	if (!segc_model_param(m, "N"))
		declare(d, "N", segc_expr_int(1), NULL, 1);
	if (!segc_model_param(m, "P"))
		declare(d, "P", segc_expr_int(1), NULL, 1);
	for (i = 0; i < m->nparams; i++) {
		const segc_param *p = &m->params[i];

		declare(d, p->name, constant_bound(ctx, s, p->min),
			constant_bound(ctx, s, p->max), p->integer);
	}
	for (i = 0; i < m->nlets; i++) {
		const segc_binding *x = &m->lets[i];

		if (x->min || x->max || x->integer)
			declare(d, x->name, constant_bound(ctx, s, x->min),
				constant_bound(ctx, s, x->max), x->integer);
	}
	declare_counters(ctx, s, d);
	return d;
}
