/* validate.c - what a document means, checked after the schema: every
 * name declared once and every name used declared (with a suggestion for
 * a near miss), calls with the right number of arguments, no recursion
 * among functions, lets or graphs, probabilities that sum to one, and
 * arc-form graphs with one entry and one exit that every node reaches.
 * Graph and block walks use explicit stacks; expressions are walked
 * recursively, their depth being bounded by the parser's max_depth. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "model/latex_names.h"
#include "model/validate.h"
#include "base/symtab.h"
#include "base/util.h"

/* ------------------------------------------------------------ name sets */

/* Names in declaration order, each with the element that declared it;
 * 'index' maps a name to its last entry, 'prev' to the entry that name had
 * before (so that a scope closes in constant time). */
typedef struct names {
	const char **name;
	const char **kind;          /* "param", "resource", ... */
	unsigned long *line;
	size_t *prev;
	segc_symtab index;
	size_t n, cap;
} names;

/* Adds 'name' declared by <'kind'> at 'line' to 's'. */
static void names_add(names *s, const char *name, const char *kind,
	unsigned long line)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->name = segc_xrealloc(s->name,
			segc_xmul_size(s->cap, sizeof *s->name));
		s->kind = segc_xrealloc(s->kind,
			segc_xmul_size(s->cap, sizeof *s->kind));
		s->line = segc_xrealloc(s->line,
			segc_xmul_size(s->cap, sizeof *s->line));
		s->prev = segc_xrealloc(s->prev,
			segc_xmul_size(s->cap, sizeof *s->prev));
	}
	s->name[s->n] = name;
	s->kind[s->n] = kind;
	s->line[s->n] = line;
	s->prev[s->n] = segc_symtab_put(&s->index, name, s->n);
	s->n++;
}

/* Removes the names added last until 's' holds 'n'. */
static void names_pop_to(names *s, size_t n)
{
	while (s->n > n) {
		s->n--;
		segc_symtab_put(&s->index, s->name[s->n], s->prev[s->n]);
	}
}

/* The index of the last 'name' in 's', or -1. */
static long names_find(const names *s, const char *name)
{
	size_t i = segc_symtab_get(&s->index, name);

	return i == SEGC_SYMTAB_NONE ? -1 : (long)i;
}

/* Releases the arrays of 's'. */
static void names_clear(names *s)
{
	free(s->name);
	free(s->kind);
	free(s->line);
	free(s->prev);
	segc_symtab_clear(&s->index);
	memset(s, 0, sizeof *s);
}

/* The name of 'a' or 'b' (either may be NULL) nearest 'name' within a
 * third of its length, first declared winning ties; NULL if none. */
static const char *suggest(const char *name, const names *a, const names *b)
{
	const names *sets[2];
	size_t best = (strlen(name) + 2) / 3, i, k;
	const char *found = NULL;

	sets[0] = a;
	sets[1] = b;
	if (best >= strlen(name))
		best = strlen(name) ? strlen(name) - 1 : 0;
	for (k = 0; k < 2; k++) {
		for (i = 0; sets[k] && i < sets[k]->n; i++) {
			size_t d = segc_edit_distance(name, sets[k]->name[i]);

			if (d && (d < best || (d == best && !found))) {
				best = d;
				found = sets[k]->name[i];
			}
		}
	}
	return found;
}

/* -------------------------------------------------------------- checker */

/* A function that calls may name, with its number of arguments. */
typedef struct fn_sig {
	const char *name;
	size_t nargs;
} fn_sig;

/* The state of one check: the plain names visible everywhere, the local
 * ones (arguments, loop variables, binders) as a stack, the functions,
 * and where the expression being checked stands. */
typedef struct checker {
	segc_ctx *ctx;
	names global;
	names local;
	fn_sig *fns;
	size_t nfns;
	segc_symtab fn_index;    /* name -> last signature */
	segc_symtab resources;   /* name -> index in the model's resources */
	segc_symtab graphs;      /* name -> index in the model's graphs */
	int failed;
	/* the expression being checked: where, and what it is (either 'what',
	 * or attribute 'attr' of <'elem'>, put into words when needed) */
	const segc_srcloc *loc;
	const char *what;
	const char *attr, *elem;
	segc_strbuf what_buf;
	const segc_text_locator *locator;   /* may be NULL */
	size_t fault_off;    /* where in its text the fault being reported
			      * stands, or (size_t)-1: at the start */
	names reported;      /* names already reported in it */
	names counters;      /* every loop variable of the model, first wins */
	/* calls of user functions made by it, collected when non-NULL */
	size_t *calls;
	size_t ncalls, capcalls;
} checker;

/* Records an error at 'loc'. */
static void check_error(checker *c, const segc_srcloc *loc,
	enum segc_status code, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void check_error(checker *c, const segc_srcloc *loc,
	enum segc_status code, const char *fmt, ...)
{
	unsigned long line = loc ? loc->line : 0, col = loc ? loc->col : 0;
	segc_strbuf sb;
	va_list ap;

	/* An error in the expression being checked is placed at its fault
	 * in the text of the document when the locator can tell where. */
	if (loc && loc == c->loc && c->locator && c->locator->position &&
	    c->locator->position(c->locator->data, loc, c->attr,
		c->fault_off == (size_t)-1 ? 0 : c->fault_off, &line, &col)) {
		line = loc->line;
		col = loc->col;
	}
	c->fault_off = (size_t)-1;
	segc_strbuf_init(&sb);
	va_start(ap, fmt);
	segc_strbuf_vappendf(&sb, fmt, ap);
	va_end(ap);
	segc_error(c->ctx, code, loc ? loc->file : NULL, line, col, "%s",
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	c->failed = 1;
}

/* 'loc' moved to the start of the value of its attribute 'attr' when
 * the locator can tell where that is (in '*buf'), else 'loc'. */
static const segc_srcloc *at_value(const checker *c,
	const segc_srcloc *loc, const char *attr, segc_srcloc *buf)
{
	*buf = *loc;
	if (!c->locator || !c->locator->position ||
	    c->locator->position(c->locator->data, loc, attr, 0, &buf->line,
		&buf->col))
		return loc;
	return buf;
}

/* The signature of the user function 'name', or NULL. */
static const fn_sig *find_fn(const checker *c, const char *name)
{
	size_t i = segc_symtab_get(&c->fn_index, name);

	return i == SEGC_SYMTAB_NONE ? NULL : &c->fns[i];
}

/* The built-in functions: name, least and most number of arguments (0:
 * no most). */
static const struct builtin {
	const char *name;
	size_t min, max;
} builtins[] = {
	{ "max", 1, 0 }, { "min", 1, 0 }, { "ceil", 1, 1 }, { "floor", 1, 1 },
	{ "log2", 1, 1 }, { "sqrt", 1, 1 }, { "sum", 4, 4 },
	{ "mva_mem", 3, 3 }, { "if", 3, 3 }, { "<", 2, 2 }, { "<=", 2, 2 },
	{ ">", 2, 2 }, { ">=", 2, 2 }, { "==", 2, 2 }, { "!=", 2, 2 },
	{ "and", 2, 0 }, { "or", 2, 0 }, { "not", 1, 1 }, { NULL, 0, 0 }
};

/* The built-in 'name', or NULL. */
static const struct builtin *find_builtin(const char *name)
{
	size_t i;

	for (i = 0; builtins[i].name; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* What the expression being checked is, in words. */
static const char *describe(checker *c)
{
	if (c->what)
		return c->what;
	segc_strbuf_reset(&c->what_buf);
	segc_strbuf_append(&c->what_buf, "attribute '");
	segc_strbuf_append(&c->what_buf, c->attr);
	segc_strbuf_append(&c->what_buf, "' of <");
	segc_strbuf_append(&c->what_buf, c->elem);
	segc_strbuf_append(&c->what_buf, ">");
	return segc_strbuf_str(&c->what_buf);
}

/* Non-zero when 'ch' may continue an identifier. */
static int ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		(ch >= '0' && ch <= '9') || ch == '_';
}

/* The offset in expression text 't' of the first occurrence of name
 * 'name' as a token (not inside a longer name or a number), or
 * (size_t)-1. */
size_t segc_find_name_token(const char *t, const char *name)
{
	size_t i = 0, len = strlen(name), start;

	while (t[i]) {
		char ch = t[i];

		if ((ch >= '0' && ch <= '9') || (ch == '.' &&
		    t[i + 1] >= '0' && t[i + 1] <= '9')) {
			while ((t[i] >= '0' && t[i] <= '9') || t[i] == '.')
				i++;
			if ((t[i] == 'e' || t[i] == 'E') &&
			    ((t[i + 1] >= '0' && t[i + 1] <= '9') ||
			     ((t[i + 1] == '+' || t[i + 1] == '-') &&
			      t[i + 2] >= '0' && t[i + 2] <= '9'))) {
				i += 2;
				while (t[i] >= '0' && t[i] <= '9')
					i++;
			}
			continue;
		}
		if (!ident_char(ch)) {
			i++;
			continue;
		}
		start = i;
		while (ident_char(t[i]))
			i++;
		if (i - start == len && !strncmp(t + start, name, len))
			return start;
	}
	return (size_t)-1;
}

/* Appends to 'sb' where name 'name' first stands in the text of the
 * expression being checked: " at column K of the value" (with the line
 * of the value when it spans several), as the parser says it; nothing
 * when the text is not at hand.  The next error is placed there. */
static void append_name_position(checker *c, segc_strbuf *sb,
	const char *name)
{
	char *text;
	size_t off, i, line = 0, line_start = 0;

	if (!c->locator || !c->locator->text)
		return;
	text = c->locator->text(c->locator->data, c->loc, c->attr);
	if (!text)
		return;
	off = segc_find_name_token(text, name);
	c->fault_off = off;
	if (off != (size_t)-1) {
		for (i = 0; i < off; i++)
			if (text[i] == '\n') {
				line++;
				line_start = i + 1;
			}
		segc_strbuf_append(sb, " at ");
		if (line)
			segc_strbuf_appendf(sb, "line %zu, ", line + 1);
		segc_strbuf_appendf(sb, "column %zu of the value",
			off - line_start + 1);
	}
	free(text);
}

/* Reports the plain name 'name', used but not declared. */
static void undeclared(checker *c, const char *name)
{
	const char *near;
	segc_strbuf pos;

	if (names_find(&c->reported, name) >= 0)
		return;
	names_add(&c->reported, name, "", 0);
	near = suggest(name, &c->local, &c->global);
	segc_strbuf_init(&pos);
	append_name_position(c, &pos, name);
	if (names_find(&c->counters, name) >= 0)
		check_error(c, c->loc, SEGC_ERR_INPUT, "undeclared name '%s' "
			"in %s%s: '%s' is the counter of the loop at line %lu and "
			"is not defined here", name, describe(c),
			segc_strbuf_str(&pos), name,
			c->counters.line[names_find(&c->counters, name)]);
	else if (near)
		check_error(c, c->loc, SEGC_ERR_INPUT, "undeclared name '%s' "
			"in %s%s (did you mean '%s'?)", name, describe(c),
			segc_strbuf_str(&pos), near);
	else
		check_error(c, c->loc, SEGC_ERR_INPUT, "undeclared name '%s' "
			"in %s%s", name, describe(c), segc_strbuf_str(&pos));
	segc_strbuf_free(&pos);
}

/* Records that the expression calls user function number 'i'. */
static void note_call(checker *c, size_t i)
{
	if (c->ncalls == c->capcalls) {
		c->capcalls = c->capcalls ? 2 * c->capcalls : 8;
		c->calls = segc_xrealloc(c->calls,
			segc_xmul_size(c->capcalls, sizeof *c->calls));
	}
	c->calls[c->ncalls++] = i;
}

/* Non-zero when 'a' and 'b' are the same ASCII text up to the case of
 * letters (no locale). */
static int same_letters(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;

		if (x != y)
			return 0;
	}
	return !*a && !*b;
}

/* Names of other languages' mathematical functions that the expression
 * language writes otherwise, and how. */
static const struct lookalike {
	const char *name, *advice;
} lookalikes[] = {
	{ "log", "did you mean 'log2'? (the only logarithm)" },
	{ "ln", "did you mean 'log2'? (the only logarithm)" },
	{ "log10", "did you mean 'log2'? (the only logarithm)" },
	{ "lg", "did you mean 'log2'? (the only logarithm)" },
	{ "pow", "did you mean x^k? (k a whole number)" },
	{ "exp", "the language has no exponential (x^k needs a whole "
	  "number k)" },
	{ "abs", "did you mean max(x, -x)?" }, { "fabs", "did you mean "
	  "max(x, -x)?" }, { "round", "did you mean floor(x + 1/2)?" },
	{ "trunc", "did you mean floor or ceil?" },
	{ "ceiling", "did you mean 'ceil'?" },
	{ "mod", "did you mean x - y*floor(x/y)?" },
	{ "fmod", "did you mean x - y*floor(x/y)?" },
	{ "fmax", "did you mean 'max'?" }, { "fmin", "did you mean 'min'?" },
	{ NULL, NULL }
};

/* Reports a call of 'name', which no <function> defines, when it looks
 * like a built-in: another spelling of one (Max, LOG2), or a function of
 * other languages (log, pow, exp).  Other names stay uninterpreted. */
static void check_lookalike(checker *c, const char *name)
{
	segc_strbuf pos;
	size_t i;

	segc_strbuf_init(&pos);
	append_name_position(c, &pos, name);
	for (i = 0; builtins[i].name; i++)
		if (same_letters(builtins[i].name, name)) {
			check_error(c, c->loc, SEGC_ERR_INPUT, "call of '%s' in "
				"%s%s: no such function (did you mean '%s'?)", name,
				describe(c), segc_strbuf_str(&pos), builtins[i].name);
			segc_strbuf_free(&pos);
			return;
		}
	for (i = 0; lookalikes[i].name; i++)
		if (same_letters(lookalikes[i].name, name)) {
			check_error(c, c->loc, SEGC_ERR_INPUT, "call of '%s' in "
				"%s%s: not a built-in function: %s", name,
				describe(c), segc_strbuf_str(&pos),
				lookalikes[i].advice);
			break;
		}
	segc_strbuf_free(&pos);
}

/* Checks the number of arguments of a call of 'name' with 'n'. */
static void check_call(checker *c, const char *name, size_t n)
{
	const struct builtin *b = find_builtin(name);
	const fn_sig *f;

	if (b) {
		if (n < b->min || (b->max && n > b->max))
			check_error(c, c->loc, SEGC_ERR_INPUT, "%s: %s() "
				"takes %s%zu argument%s, not %zu", describe(c),
				name, b->max ? "" : "at least ", b->min,
				b->min == 1 ? "" : "s", n);
		if (!strcmp(name, "sum"))
			check_error(c, c->loc, SEGC_ERR_INPUT, "%s: the "
				"first argument of sum() must be a name",
				describe(c));
		return;
	}
	f = find_fn(c, name);
	if (!f) {
		check_lookalike(c, name);
		return;
	}
	if (c->calls)
		note_call(c, (size_t)(f - c->fns));
	if (f->nargs != n)
		check_error(c, c->loc, SEGC_ERR_INPUT, "%s: function '%s' "
			"takes %zu argument%s, not %zu", describe(c), name,
			f->nargs, f->nargs == 1 ? "" : "s", n);
}

static void check_expr(checker *c, const segc_expr *e);

/* Checks the condition 'e' (the first argument of if(), or an operand of
 * and/or/not): a comparison of two values, or and/or/not of
 * conditions. */
static void check_cond(checker *c, const segc_expr *e)
{
	size_t i;

	if (!segc_expr_is_condition(e)) {
		check_error(c, c->loc, SEGC_ERR_INPUT, "%s: a value stands "
			"where if() needs a condition (a comparison)",
			describe(c));
		check_expr(c, e);
		return;
	}
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (segc_expr_is_relation_name(segc_expr_name(e)))
			check_expr(c, segc_expr_arg(e, i));
		else
			check_cond(c, segc_expr_arg(e, i));
	}
}

/* Checks every name and call in 'e'. */
static void check_expr(checker *c, const segc_expr *e)
{
	size_t i, n;

	if (segc_expr_is_condition(e)) {
		check_error(c, c->loc, SEGC_ERR_INPUT, "%s: a condition (%s) "
			"stands where a value is expected: only the first "
			"argument of if() is one", describe(c),
			segc_expr_name(e));
		return;
	}
	if (segc_expr_kind(e) == SEGC_CALL && segc_expr_nargs(e) == 3 &&
	    !strcmp(segc_expr_name(e), "if")) {
		check_cond(c, segc_expr_arg(e, 0));
		check_expr(c, segc_expr_arg(e, 1));
		check_expr(c, segc_expr_arg(e, 2));
		return;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return;
	case SEGC_SYM:
		if (names_find(&c->local, segc_expr_name(e)) < 0 &&
		    names_find(&c->global, segc_expr_name(e)) < 0)
			undeclared(c, segc_expr_name(e));
		return;
	case SEGC_SUM:
		check_expr(c, segc_expr_arg(e, 0));
		check_expr(c, segc_expr_arg(e, 1));
		names_add(&c->local, segc_expr_name(e), "binder", 0);
		check_expr(c, segc_expr_arg(e, 2));
		names_pop_to(&c->local, c->local.n - 1);
		return;
	case SEGC_CALL:
		check_call(c, segc_expr_name(e), segc_expr_nargs(e));
		break;
	default:
		break;
	}
	n = segc_expr_nargs(e);
	for (i = 0; i < n; i++)
		check_expr(c, segc_expr_arg(e, i));
}

/* Checks expression 'e' (may be NULL) standing at 'loc', described as
 * 'what' or else as attribute 'attr' of <'elem'>. */
static void check_described(checker *c, const segc_expr *e,
	const segc_srcloc *loc, const char *what, const char *attr,
	const char *elem)
{
	if (!e || segc_ctx_full(c->ctx))
		return;
	c->loc = loc;
	c->what = what;
	c->attr = attr;
	c->elem = elem;
	c->fault_off = (size_t)-1;
	names_pop_to(&c->reported, 0);
	check_expr(c, e);
	c->loc = NULL;   /* later errors are not in this expression */
}

/* Checks expression 'e' (may be NULL) standing at 'loc' as 'what'. */
static void check_at(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *what)
{
	check_described(c, e, loc, what, NULL, NULL);
}

/* Checks 'e' at 'loc', describing it as attribute 'attr' of <'elem'>. */
static void check_attr(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *attr, const char *elem)
{
	check_described(c, e, loc, NULL, attr, elem);
}

/* Reports, and returns 1, when 'name' (declared by <'kind'> at 'loc',
 * as 'role' when not NULL) is a reserved word of the expression
 * language. */
static int reserved_name(checker *c, const char *name, const char *kind,
	const char *role, const segc_srcloc *loc)
{
	if (!name || !segc_expr_is_reserved(name))
		return 0;
	check_error(c, loc, SEGC_ERR_INPUT, "<%s>%s%s '%s': the name is a "
		"reserved word of the expression language (if, and, or, not)",
		kind, role ? ": " : "", role ? role : "", name);
	return 1;
}

/* Declares global 'name' of <'kind'> at 'loc', reporting a name already
 * declared or reserved. */
static void declare(checker *c, const char *name, const char *kind,
	const segc_srcloc *loc)
{
	long i;

	if (!name || reserved_name(c, name, kind, NULL, loc))
		return;
	i = names_find(&c->global, name);
	if (i >= 0 && c->global.line[i])
		check_error(c, loc, SEGC_ERR_INPUT, "<%s> '%s': the name is "
			"already declared by the <%s> at line %lu", kind, name,
			c->global.kind[i], c->global.line[i]);
	else if (i < 0)
		names_add(&c->global, name, kind, loc->line);
}

/* Adds the user functions 'f' (of <'owner'>) to the signatures,
 * reporting duplicates and names of built-ins. */
static void declare_functions(checker *c, size_t n, const segc_function *f)
{
	segc_symtab first;
	size_t i, j;

	segc_symtab_init(&first);
	c->fns = segc_xrealloc(c->fns, segc_xmul_size(c->nfns + n + 1,
		sizeof *c->fns));
	for (i = 0; i < n; i++) {
		if (!f[i].name)
			continue;
		if (!reserved_name(c, f[i].name, "function", NULL, &f[i].loc) &&
		    find_builtin(f[i].name))
			check_error(c, &f[i].loc, SEGC_ERR_INPUT, "<function> "
				"'%s': a built-in function has that name",
				f[i].name);
		j = segc_symtab_add(&first, f[i].name, i);
		if (j != SEGC_SYMTAB_NONE)
			check_error(c, &f[i].loc, SEGC_ERR_INPUT,
				"<function> '%s': already defined at "
				"line %lu", f[i].name, f[j].loc.line);
		c->fns[c->nfns].name = f[i].name;
		c->fns[c->nfns].nargs = f[i].nargs;
		segc_symtab_put(&c->fn_index, f[i].name, c->nfns);
		c->nfns++;
	}
	segc_symtab_clear(&first);
}

/* Sets up checker 'c'. */
static void checker_init(checker *c, segc_ctx *ctx)
{
	memset(c, 0, sizeof *c);
	c->ctx = ctx;
	c->fault_off = (size_t)-1;
}

/* Releases what 'c' holds. */
static void checker_clear(checker *c)
{
	names_clear(&c->global);
	names_clear(&c->local);
	names_clear(&c->reported);
	names_clear(&c->counters);
	segc_strbuf_free(&c->what_buf);
	segc_symtab_clear(&c->fn_index);
	segc_symtab_clear(&c->resources);
	segc_symtab_clear(&c->graphs);
	free(c->fns);
	free(c->calls);
}

/* ----------------------------------------------------------------- cycles */

/* A directed graph on 'n' vertices as adjacency lists. */
typedef struct digraph {
	size_t n;
	size_t **succ;
	size_t *nsucc;
	size_t *cap;
} digraph;

/* A graph of 'n' vertices without edges. */
static void digraph_init(digraph *g, size_t n)
{
	g->n = n;
	g->succ = segc_xcalloc(n + 1, sizeof *g->succ);
	g->nsucc = segc_xcalloc(n + 1, sizeof *g->nsucc);
	g->cap = segc_xcalloc(n + 1, sizeof *g->cap);
}

/* Adds the edge 'a' -> 'b'. */
static void digraph_add(digraph *g, size_t a, size_t b)
{
	if (g->nsucc[a] == g->cap[a]) {
		g->cap[a] = g->cap[a] ? 2 * g->cap[a] : 4;
		g->succ[a] = segc_xrealloc(g->succ[a],
			segc_xmul_size(g->cap[a], sizeof **g->succ));
	}
	g->succ[a][g->nsucc[a]++] = b;
}

/* Releases 'g'. */
static void digraph_clear(digraph *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->succ[i]);
	free(g->succ);
	free(g->nsucc);
	free(g->cap);
}

/* Finds a cycle of 'g' by depth-first search with an explicit stack.
 * Returns its length and sets '*cycle' (malloc'd vertices, first one
 * repeated at the end); 0 when 'g' is acyclic. */
static size_t find_cycle(const digraph *g, size_t **cycle)
{
	unsigned char *color = segc_xcalloc(g->n + 1, 1);
	size_t *stack = segc_xmalloc((g->n + 1) * sizeof *stack);
	size_t *edge = segc_xcalloc(g->n + 1, sizeof *edge);
	size_t s, depth, len = 0, k;

	*cycle = NULL;
	for (s = 0; s < g->n && !len; s++) {
		if (color[s])
			continue;
		depth = 0;
		stack[depth++] = s;
		color[s] = 1;
		while (depth && !len) {
			size_t v = stack[depth - 1];

			if (edge[v] == g->nsucc[v]) {
				color[v] = 2;
				depth--;
				continue;
			}
			k = g->succ[v][edge[v]++];
			if (color[k] == 0) {
				color[k] = 1;
				stack[depth++] = k;
			} else if (color[k] == 1) {
				size_t from = depth;

				while (stack[from - 1] != k)
					from--;
				len = depth - from + 2;
				*cycle = segc_xmalloc(len * sizeof **cycle);
				memcpy(*cycle, stack + from - 1,
					(len - 1) * sizeof **cycle);
				(*cycle)[len - 1] = k;
			}
		}
	}
	free(color);
	free(stack);
	free(edge);
	return len;
}

/* Reports a cycle of 'g' if there is one: "<'kind'> 'a' -> 'b' -> 'a'",
 * at the location of its first vertex ('locs'), names from 'name'. */
static void report_cycle(checker *c, const digraph *g, const char *kind,
	const char *const *name, const segc_srcloc *const *locs,
	const char *problem)
{
	size_t *cycle, len = find_cycle(g, &cycle), i;
	segc_strbuf sb;

	if (!len)
		return;
	segc_strbuf_init(&sb);
	for (i = 0; i < len; i++)
		segc_strbuf_appendf(&sb, "%s'%s'", i ? " -> " : "",
			name[cycle[i]]);
	check_error(c, locs[cycle[0]], SEGC_ERR_INPUT, "%s: %s %s", kind,
		problem, segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	free(cycle);
}

/* ------------------------------------------------------------- functions */

/* Checks the bodies of functions 'f' (the first 'base' signatures of 'c'
 * belong to other owners) and reports recursion among them. */
static void check_functions(checker *c, size_t n, const segc_function *f,
	size_t base)
{
	digraph g;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	size_t i, j, saved = c->local.n;
	segc_strbuf what;

	digraph_init(&g, n);
	segc_strbuf_init(&what);
	for (i = 0; i < n; i++) {
		nm[i] = f[i].name ? f[i].name : "";
		locs[i] = &f[i].loc;
		for (j = 0; j < f[i].nargs; j++) {
			reserved_name(c, f[i].args[j], "function", "argument",
				&f[i].loc);
			names_add(&c->local, f[i].args[j], "arg", 0);
		}
		segc_strbuf_reset(&what);
		segc_strbuf_appendf(&what, "the body of <function> '%s'",
			nm[i]);
		c->ncalls = 0;
		c->calls = segc_xrealloc(c->calls, sizeof *c->calls);
		c->capcalls = 1;
		check_at(c, f[i].body, &f[i].loc, segc_strbuf_str(&what));
		for (j = 0; j < c->ncalls; j++)
			if (c->calls[j] >= base && c->calls[j] < base + n)
				digraph_add(&g, i, c->calls[j] - base);
		free(c->calls);
		c->calls = NULL;
		c->ncalls = c->capcalls = 0;
		names_pop_to(&c->local, saved);
	}
	report_cycle(c, &g, "<function>", nm, locs, "recursion is not "
		"allowed:");
	segc_strbuf_free(&what);
	digraph_clear(&g);
	free(nm);
	free(locs);
}

/* Adds to 'g' an edge from function 'from' to each function that 'e'
 * calls, resolved through 'c' as a derivation resolves them (the
 * machine's first).  Walks 'e' with an explicit stack. */
static void add_function_calls(digraph *g, const checker *c, size_t from,
	const segc_expr *e)
{
	const segc_expr **stack = segc_xmalloc(sizeof *stack);
	size_t n = 0, cap = 1, i;
	const fn_sig *f;

	stack[n++] = e;
	while (n) {
		e = stack[--n];
		if (segc_expr_kind(e) == SEGC_CALL &&
		    (f = find_fn(c, segc_expr_name(e))) != NULL)
			digraph_add(g, from, (size_t)(f - c->fns));
		if (n + segc_expr_nargs(e) > cap) {
			cap = 2 * (n + segc_expr_nargs(e));
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof *stack));
		}
		for (i = 0; i < segc_expr_nargs(e); i++)
			stack[n++] = segc_expr_arg(e, i);
	}
	free(stack);
}

/* Reports recursion through the functions of model 'm' and of its inline
 * machine together, whose signatures 'c' holds in that order; a cycle
 * among the functions of one of them alone is reported with them. */
static void check_mixed_recursion(checker *c, const segc_model *m)
{
	const segc_machine *mach = m->machine;
	size_t n = m->nfunctions + mach->nfunctions, i, len, *cycle;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	const segc_function *f;
	int mixed = 0;
	digraph g;

	digraph_init(&g, n);
	for (i = 0; i < n && c->nfns == n; i++) {
		f = i < m->nfunctions ? &m->functions[i] :
			&mach->functions[i - m->nfunctions];
		nm[i] = f->name ? f->name : "";
		locs[i] = &f->loc;
		if (f->body)
			add_function_calls(&g, c, i, f->body);
	}
	len = c->nfns == n ? find_cycle(&g, &cycle) : 0;
	for (i = 0; i < len; i++)
		mixed |= cycle[i] < m->nfunctions ? 1 : 2;
	if (len)
		free(cycle);
	if (mixed == 3)
		report_cycle(c, &g, "<function>", nm, locs, "recursion is not "
			"allowed:");
	digraph_clear(&g);
	free(nm);
	free(locs);
}

/* Non-zero when expression 'e' (may be NULL) uses name 'name'. */
static int uses(const segc_expr *e, const char *name)
{
	return e && segc_expr_has_sym(e, name);
}

/* Compares two indices, for qsort(). */
static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Appends to '*out' ('*n' of them) the index of every binding of 'index'
 * ('same' chains bindings of one name) whose name occurs in 'e' as a
 * symbol, bound or not.  Walks 'e' as a tree: a parsed expression is as
 * large as its text. */
static void candidate_names(const segc_expr *e, const segc_symtab *index,
	const size_t *same, size_t **out, size_t *n, size_t *cap)
{
	const segc_expr **stack = segc_xmalloc(sizeof *stack);
	size_t ns = 0, caps = 1, i, j;

	stack[ns++] = e;
	while (ns) {
		e = stack[--ns];
		if (segc_expr_kind(e) == SEGC_SYM) {
			j = segc_symtab_get(index, segc_expr_name(e));
			for (; j != SEGC_SYMTAB_NONE; j = same[j]) {
				if (*n == *cap) {
					*cap = 2 * *cap + 4;
					*out = segc_xrealloc(*out,
						segc_xmul_size(*cap,
						sizeof **out));
				}
				(*out)[(*n)++] = j;
			}
		}
		if (ns + segc_expr_nargs(e) > caps) {
			caps = 2 * (ns + segc_expr_nargs(e));
			stack = segc_xrealloc(stack,
				segc_xmul_size(caps, sizeof *stack));
		}
		for (i = 0; i < segc_expr_nargs(e); i++)
			stack[ns++] = segc_expr_arg(e, i);
	}
	free(stack);
}

/* Reports a cycle among the 'n' bindings 'b' (lets or consts), each a
 * value that may name the others.  Binding i depends on binding j when
 * j's name occurs free in i's value; the candidates come from a table of
 * the names, then each is confirmed. */
static void check_binding_cycles(checker *c, size_t n,
	const segc_binding *b, const char *kind)
{
	digraph g;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	size_t *same = segc_xmalloc((n + 1) * sizeof *same);
	size_t *cand = NULL, ncand, capcand = 0, i, k, last;
	segc_symtab index;

	segc_symtab_init(&index);
	for (i = n; i-- > 0;)
		if (b[i].name)
			same[i] = segc_symtab_put(&index, b[i].name, i);
	digraph_init(&g, n);
	for (i = 0; i < n; i++) {
		nm[i] = b[i].name ? b[i].name : "";
		locs[i] = &b[i].loc;
		ncand = 0;
		if (b[i].value)
			candidate_names(b[i].value, &index, same, &cand,
				&ncand, &capcand);
		if (ncand)
			qsort(cand, ncand, sizeof *cand, cmp_size);
		for (k = 0, last = SEGC_SYMTAB_NONE; k < ncand; k++) {
			if (cand[k] == last)
				continue;
			last = cand[k];
			if (uses(b[i].value, b[last].name))
				digraph_add(&g, i, last);
		}
	}
	report_cycle(c, &g, kind, nm, locs, "defined in terms of itself:");
	digraph_clear(&g);
	segc_symtab_clear(&index);
	free(cand);
	free(same);
	free(nm);
	free(locs);
}

/* ---------------------------------------------------------------- machine */

/* Checks machine 'm' with a fresh checker; 0 when valid. */
int segc_validate_machine(segc_ctx *ctx, const segc_machine *m)
{
	return segc_validate_machine_located(ctx, m, NULL);
}

/* Checks machine 'm' with the texts of its expressions at hand. */
int segc_validate_machine_located(segc_ctx *ctx, const segc_machine *m,
	const segc_text_locator *locator)
{
	checker c;
	size_t i;
	int failed;

	if (!m)
		return -1;
	checker_init(&c, ctx);
	c.locator = locator;
	for (i = 0; i < m->nconsts; i++)
		declare(&c, m->consts[i].name, "const", &m->consts[i].loc);
	for (i = 0; i < m->nconsts; i++)
		check_attr(&c, m->consts[i].value, &m->consts[i].loc, "value",
			"const");
	for (i = 0; i < m->ncosts; i++)
		check_attr(&c, m->costs[i].value, &m->costs[i].loc, "value",
			"cost");
	check_binding_cycles(&c, m->nconsts, m->consts, "<const>");
	for (i = 0; i < m->ncosts; i++)
		declare(&c, m->costs[i].name, "cost", &m->costs[i].loc);
	if (names_find(&c.global, "N") < 0)
		names_add(&c.global, "N", "param", 0);
	if (names_find(&c.global, "P") < 0)
		names_add(&c.global, "P", "param", 0);
	declare_functions(&c, m->nfunctions, m->functions);
	check_functions(&c, m->nfunctions, m->functions, 0);
	failed = c.failed;
	checker_clear(&c);
	return failed ? -1 : 0;
}

/* ---------------------------------------------------------- probabilities */

/* Reports probability 'p' (a number) outside [0, 1]. */
static int check_unit_interval(segc_ctx *ctx, mpq_srcptr p,
	const segc_srcloc *loc, const char *what)
{
	segc_strbuf sb;

	if (mpq_sgn(p) >= 0 && mpq_cmp_ui(p, 1, 1) <= 0)
		return 0;
	segc_strbuf_init(&sb);
	segc_strbuf_append_mpq(&sb, p);
	segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
		"%s: probability %s is not in [0, 1]", what,
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	return -1;
}

/* Checks a symbolic sum of probabilities: 'sum' - 1 must be zero in
 * canonical form. */
static int check_symbolic_sum(segc_ctx *ctx, segc_expr *sum,
	const segc_srcloc *loc, const char *what)
{
	segc_expr *diff = segc_canonical(ctx, NULL,
		segc_expr_sub2(sum, segc_expr_int(1)));
	char *text;
	int rc = 0;

	if (!diff)
		return -1;
	if (!segc_expr_is_zero(diff)) {
		text = segc_expr_to_string(diff);
		segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
			"%s: the probabilities do not sum to 1 (their sum "
			"minus 1 is %s)", what, text ? text : "?");
		free(text);
		rc = -1;
	}
	segc_expr_free(diff);
	return rc;
}

/* Checks the probabilities of one choice (see validate.h). */
int segc_check_probabilities(segc_ctx *ctx, size_t n,
	segc_expr *const *probs, const segc_srcloc *loc, const char *what)
{
	size_t i, omitted = 0, symbolic = 0;
	segc_expr *sum = segc_expr_int(0);
	mpq_t q;
	int rc = 0;

	mpq_init(q);
	for (i = 0; i < n; i++) {
		if (!probs[i]) {
			omitted++;
			continue;
		}
		sum = segc_expr_add2(sum, segc_expr_copy(probs[i]));
		if (!segc_expr_is_num(probs[i])) {
			symbolic++;
			continue;
		}
		mpq_add(q, q, segc_expr_value(probs[i]));
		rc |= check_unit_interval(ctx, segc_expr_value(probs[i]), loc,
			what);
	}
	if (omitted > 1) {
		segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
			"%s: %zu alternatives omit the probability; at most "
			"one may", what, omitted);
		rc = -1;
	} else if (!symbolic && !rc) {
		if (omitted && n == 1)
			mpq_set_ui(q, 1, 1);
		if (omitted ? mpq_cmp_ui(q, 1, 1) > 0 :
		    mpq_cmp_ui(q, 1, 1) != 0) {
			segc_strbuf sb;

			segc_strbuf_init(&sb);
			segc_strbuf_append_mpq(&sb, q);
			segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line,
				loc->col, "%s: the probabilities sum to %s, "
				"%s 1", what, segc_strbuf_str(&sb), omitted ?
				"more than" : "not");
			segc_strbuf_free(&sb);
			rc = -1;
		}
	} else if (symbolic && !omitted && !rc) {
		rc = check_symbolic_sum(ctx, segc_expr_copy(sum), loc, what);
	}
	segc_expr_free(sum);
	mpq_clear(q);
	return rc;
}

/* ----------------------------------------------------------------- blocks */

/* An entry of the block walk: a block, or (block NULL) the end of the
 * scope of a loop variable. */
typedef struct walk_item {
	const segc_block *block;
} walk_item;

/* Checks the attributes of one block 'b' of graph 'm'. */
static void check_block(checker *c, const segc_model *m, const segc_block *b)
{
	size_t i;
	const char *near;

	switch (b->kind) {
	case SEGC_BLOCK_STEP:
		check_attr(c, b->cost, &b->loc, "cost", "step");
		for (i = 0; i < b->nuses; i++) {
			const segc_use *u = &b->uses[i];

			check_attr(c, u->count, &u->loc, "count", "use");
			if (!u->resource || segc_symtab_get(&c->resources,
			    u->resource) != SEGC_SYMTAB_NONE)
				continue;
			near = NULL;
			{
				names rs;
				segc_srcloc at;
				size_t k;

				memset(&rs, 0, sizeof rs);
				for (k = 0; k < m->nresources; k++)
					if (m->resources[k].name)
						names_add(&rs,
							m->resources[k].name,
							"resource", 0);
				near = suggest(u->resource, &rs, NULL);
				if (near)
					check_error(c, at_value(c, &u->loc,
					    "resource", &at), SEGC_ERR_INPUT,
						"<use>: '%s' is not a declared "
						"<resource> (did you mean "
						"'%s'?)", u->resource, near);
				else
					check_error(c, at_value(c, &u->loc,
					    "resource", &at), SEGC_ERR_INPUT,
						"<use>: '%s' is not a declared "
						"<resource>", u->resource);
				names_clear(&rs);
			}
		}
		break;
	case SEGC_BLOCK_LOOP:
		check_attr(c, b->count, &b->loc, "count", "loop");
		check_attr(c, b->from, &b->loc, "from", "loop");
		check_attr(c, b->to, &b->loc, "to", "loop");
		break;
	case SEGC_BLOCK_CASE:
		check_attr(c, b->prob, &b->loc, "prob", "case");
		break;
	case SEGC_BLOCK_CALL:
		if (b->graph && segc_symtab_get(&c->graphs, b->graph) ==
		    SEGC_SYMTAB_NONE)
			check_error(c, &b->loc, SEGC_ERR_INPUT, "<call>: "
				"there is no <graph> named '%s'", b->graph);
		break;
	default:
		break;
	}
}

/* Checks the probabilities of the cases of <branch> 'b'. */
static void check_branch(checker *c, const segc_block *b)
{
	segc_expr **probs;
	size_t i;

	if (!b->nchildren)
		return;
	probs = segc_xcalloc(b->nchildren, sizeof *probs);
	for (i = 0; i < b->nchildren; i++)
		probs[i] = b->children[i]->prob;
	if (segc_check_probabilities(c->ctx, b->nchildren, probs, &b->loc,
		    "<branch>"))
		c->failed = 1;
	free(probs);
}

/* Opens the scope of the variable of <loop> 'b'. */
static void open_loop_scope(checker *c, const segc_block *b)
{
	long i = names_find(&c->local, b->var);
	segc_srcloc at;

	if (!reserved_name(c, b->var, "loop", "variable", &b->loc) && i >= 0)
		check_error(c, at_value(c, &b->loc, "var", &at),
			SEGC_ERR_INPUT, "<loop>: variable "
			"'%s' is already the variable of an enclosing loop",
			b->var);
	else if (i < 0 && !segc_expr_is_reserved(b->var) &&
		 names_find(&c->global, b->var) >= 0)
		check_error(c, at_value(c, &b->loc, "var", &at),
			SEGC_ERR_INPUT, "<loop>: variable "
			"'%s' hides the <%s> of that name", b->var,
			c->global.kind[names_find(&c->global, b->var)]);
	names_add(&c->local, b->var, "loop", b->loc.line);
}

/* Records in c->counters the variable of every <loop> under 'body' (the
 * first loop of each name), for the message of a counter used outside
 * its loop.  An explicit stack replaces recursion. */
static void collect_counters(checker *c, const segc_block *body)
{
	const segc_block **stack = segc_xmalloc(sizeof *stack);
	size_t n = 0, cap = 1, i;

	stack[n++] = body;
	while (n) {
		const segc_block *b = stack[--n];

		if (b->kind == SEGC_BLOCK_LOOP && b->var &&
		    names_find(&c->counters, b->var) < 0)
			names_add(&c->counters, b->var, "loop", b->loc.line);
		if (n + b->nchildren > cap) {
			cap = 2 * (n + b->nchildren);
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof *stack));
		}
		for (i = b->nchildren; i-- > 0;)
			stack[n++] = b->children[i];
	}
	free(stack);
}

/* Checks the blocks under 'body' of a graph of 'm', loop variables in
 * scope within their loops.  An explicit stack replaces recursion. */
static void check_blocks(checker *c, const segc_model *m,
	const segc_block *body)
{
	walk_item *stack = NULL;
	size_t n = 0, cap = 0, i;

	stack = segc_xmalloc(sizeof *stack);
	cap = 1;
	stack[n++].block = body;
	while (n && !segc_ctx_full(c->ctx)) {
		const segc_block *b = stack[--n].block;

		if (!b) {
			names_pop_to(&c->local, c->local.n - 1);
			continue;
		}
		check_block(c, m, b);
		if (b->kind == SEGC_BLOCK_BRANCH)
			check_branch(c, b);
		if (n + b->nchildren + 1 > cap) {
			cap = 2 * (n + b->nchildren + 1);
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof *stack));
		}
		if (b->kind == SEGC_BLOCK_LOOP && b->var) {
			open_loop_scope(c, b);
			stack[n++].block = NULL;
		}
		for (i = b->nchildren; i-- > 0;)
			stack[n++].block = b->children[i];
	}
	free(stack);
}

/* --------------------------------------------------------------- arc form */

/* The arcs of an arc-form graph by node: 'out' lists the arcs leaving
 * each node, 'in' those entering it, in document order (CSR layout: the
 * arcs of node v are list[start[v]] .. list[start[v + 1] - 1]). */
typedef struct arc_lists {
	size_t *out_start, *out;
	size_t *in_start, *in;
} arc_lists;

/* Fills 'start' and 'list' with the arcs of 'g' grouped by their source
 * ('by_to' 0) or target, keeping their order. */
static void group_arcs(const segc_graph *g, int by_to, size_t **start,
	size_t **list)
{
	size_t *pos = segc_xcalloc(g->nnodes + 2, sizeof *pos), i, v;

	*start = segc_xcalloc(g->nnodes + 2, sizeof **start);
	*list = segc_xmalloc((g->narcs + 1) * sizeof **list);
	for (i = 0; i < g->narcs; i++)
		(*start)[(by_to ? g->arcs[i].to_index :
			g->arcs[i].from_index) + 1]++;
	for (v = 0; v < g->nnodes; v++)
		(*start)[v + 1] += (*start)[v];
	for (i = 0; i < g->narcs; i++) {
		v = by_to ? g->arcs[i].to_index : g->arcs[i].from_index;
		(*list)[(*start)[v] + pos[v]++] = i;
	}
	free(pos);
}

/* Builds the arc lists of 'g', whose arcs are resolved. */
static void arc_lists_init(arc_lists *l, const segc_graph *g)
{
	group_arcs(g, 0, &l->out_start, &l->out);
	group_arcs(g, 1, &l->in_start, &l->in);
}

/* Releases 'l'. */
static void arc_lists_clear(arc_lists *l)
{
	free(l->out_start);
	free(l->out);
	free(l->in_start);
	free(l->in);
}

/* Resolves the end 'id' (attribute 'attr') of arc 'a' of 'g' through
 * 'ids' (node id -> first node). */
static int resolve_end(checker *c, const segc_graph *g, const segc_symtab *ids,
	const segc_arc *a, const char *attr, const char *id, size_t *index)
{
	size_t i = id ? segc_symtab_get(ids, id) : SEGC_SYMTAB_NONE;
	names all;
	const char *near;
	segc_srcloc at;
	size_t k;

	if (i != SEGC_SYMTAB_NONE) {
		*index = i;
		return 0;
	}
	memset(&all, 0, sizeof all);
	for (k = 0; k < g->nnodes; k++)
		if (g->nodes[k].id)
			names_add(&all, g->nodes[k].id, "node", 0);
	near = id ? suggest(id, &all, NULL) : NULL;
	check_error(c, at_value(c, &a->loc, attr, &at), SEGC_ERR_INPUT,
		"<arc> attribute '%s': graph '%s' has no <node> '%s'%s%s%s",
		attr, g->name,
		id ? id : "", near ? " (did you mean '" : "",
		near ? near : "", near ? "'?)" : "");
	names_clear(&all);
	return -1;
}

/* Marks in 'seen' every node reachable from 'start' of 'g' along arcs
 * (reversed when 'backward'; loop arcs only when 'with_loops'), using the
 * arc lists 'l'.  Linear in the size of the graph. */
static void reach(const segc_graph *g, const arc_lists *l, size_t start,
	int backward, int with_loops, unsigned char *seen)
{
	size_t *queue = segc_xmalloc((g->nnodes + 1) * sizeof *queue);
	const size_t *first = backward ? l->in_start : l->out_start;
	const size_t *list = backward ? l->in : l->out;
	size_t head = 0, tail = 0, k;

	seen[start] = 1;
	queue[tail++] = start;
	while (head < tail) {
		size_t v = queue[head++];

		for (k = first[v]; k < first[v + 1]; k++) {
			const segc_arc *a = &g->arcs[list[k]];
			size_t to = backward ? a->from_index : a->to_index;

			if ((a->loop && !with_loops) || a->forward || seen[to])
				continue;
			seen[to] = 1;
			queue[tail++] = to;
		}
	}
	free(queue);
}

/* Finds the unique node of 'g' without incoming ('in') or outgoing
 * non-loop arcs; reports none or several.  Returns its index or -1. */
static long find_end(checker *c, const segc_graph *g, int in)
{
	unsigned char *has = segc_xcalloc(g->nnodes + 1, 1);
	long found = -1;
	size_t i, count = 0;
	segc_strbuf sb;

	for (i = 0; i < g->narcs; i++)
		if (!g->arcs[i].loop && !g->arcs[i].forward)
			has[in ? g->arcs[i].to_index : g->arcs[i].from_index] = 1;
	segc_strbuf_init(&sb);
	for (i = 0; i < g->nnodes; i++) {
		if (has[i])
			continue;
		if (!count++)
			found = (long)i;
		segc_strbuf_appendf(&sb, "%s'%s'", count > 1 ? ", " : "",
			g->nodes[i].id);
	}
	if (count != 1)
		check_error(c, &g->loc, SEGC_ERR_INPUT, "<graph> '%s': %s "
			"(%s); exactly one node must have no %s arcs other "
			"than loop arcs", g->name, count ? (in ?
			"several entries" : "several exits") : (in ?
			"no entry" : "no exit"), count ? segc_strbuf_str(&sb) :
			"every node has some", in ? "incoming" : "outgoing");
	segc_strbuf_free(&sb);
	free(has);
	return count == 1 ? found : -1;
}

/* Checks that every node of 'g' reaches 'exit' and that every loop arc
 * points back (its target reaches its source). */
static void check_reachability(checker *c, const segc_graph *g,
	const arc_lists *l, size_t exit)
{
	unsigned char *seen = segc_xcalloc(g->nnodes + 1, 1);
	size_t i;

	reach(g, l, exit, 1, 1, seen);
	for (i = 0; i < g->nnodes; i++)
		if (!seen[i]) {
			check_error(c, &g->nodes[i].loc, SEGC_ERR_INPUT,
				"<node> '%s' of graph '%s' cannot reach the "
				"exit '%s'", g->nodes[i].id, g->name,
				g->nodes[exit].id);
			break;
		}
	for (i = 0; i < g->narcs; i++) {
		const segc_arc *a = &g->arcs[i];

		if (!a->loop)
			continue;
		memset(seen, 0, g->nnodes + 1);
		reach(g, l, a->to_index, 0, 0, seen);
		if (!seen[a->from_index])
			check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> from "
				"'%s' to '%s': a loop arc must point back, but "
				"'%s' does not reach '%s'", a->from, a->to,
				a->to, a->from);
	}
	free(seen);
}

/* Checks the probabilities on the arcs leaving each or-split of 'g'. */
static void check_arc_probabilities(checker *c, const segc_graph *g,
	const arc_lists *l)
{
	segc_expr **probs = segc_xcalloc(g->narcs + 1, sizeof *probs);
	size_t v, k, n;
	segc_strbuf what;

	segc_strbuf_init(&what);
	for (v = 0; v < g->nnodes; v++) {
		for (n = 0, k = l->out_start[v]; k < l->out_start[v + 1]; k++) {
			const segc_arc *a = &g->arcs[l->out[k]];

			if (a->loop || a->forward)
				continue;
			if (g->nodes[v].split_and && a->prob)
				check_error(c, &a->loc, SEGC_ERR_INPUT, "<arc> "
					"from '%s' to '%s': node '%s' splits "
					"with 'and', its arcs take no 'prob'",
					a->from, a->to, a->from);
			probs[n++] = a->prob;
		}
		if (!n || g->nodes[v].split_and)
			continue;
		segc_strbuf_reset(&what);
		segc_strbuf_appendf(&what, "the arcs leaving <node> '%s'",
			g->nodes[v].id);
		if (segc_check_probabilities(c->ctx, n, probs,
			    &g->nodes[v].loc, segc_strbuf_str(&what)))
			c->failed = 1;
	}
	segc_strbuf_free(&what);
	free(probs);
}

/* Checks the ids of the nodes of 'g' (each used once) and fills 'ids'
 * with them; returns 0 when there is no duplicate. */
static int check_node_ids(checker *c, const segc_graph *g, segc_symtab *ids)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < g->nnodes; i++) {
		check_attr(c, g->nodes[i].cost, &g->nodes[i].loc, "cost",
			"node");
		if (!g->nodes[i].id)
			continue;
		j = segc_symtab_add(ids, g->nodes[i].id, i);
		if (j != SEGC_SYMTAB_NONE) {
			check_error(c, &g->nodes[i].loc, SEGC_ERR_INPUT,
				"<node> '%s': the id is already used at line "
				"%lu", g->nodes[i].id, g->nodes[j].loc.line);
			rc = -1;
		}
	}
	return rc;
}

/* Checks arc-form graph 'g'. */
static void check_arc_graph(checker *c, segc_graph *g)
{
	segc_symtab ids;
	arc_lists l;
	size_t i;
	int resolved;
	long exit;

	segc_symtab_init(&ids);
	resolved = check_node_ids(c, g, &ids) == 0;
	for (i = 0; i < g->narcs; i++) {
		segc_arc *a = &g->arcs[i];

		check_attr(c, a->prob, &a->loc, "prob", "arc");
		check_attr(c, a->cost, &a->loc, "cost", "arc");
		check_attr(c, a->loop, &a->loc, "loop", "arc");
		if (resolve_end(c, g, &ids, a, "from", a->from,
			    &a->from_index) |
		    resolve_end(c, g, &ids, a, "to", a->to, &a->to_index))
			resolved = 0;
	}
	segc_symtab_clear(&ids);
	if (!resolved)
		return;
	arc_lists_init(&l, g);
	check_arc_probabilities(c, g, &l);
	if (find_end(c, g, 1) >= 0) {
		exit = find_end(c, g, 0);
		if (exit >= 0)
			check_reachability(c, g, &l, (size_t)exit);
	}
	arc_lists_clear(&l);
}

/* ------------------------------------------------------------------ model */

/* Adds to 'g' an edge from graph 'gi' of 'm' to every graph it calls
 * ('index': graph name -> first graph).  Walks the blocks with an
 * explicit stack. */
static void add_calls(digraph *g, const segc_model *m,
	const segc_symtab *index, size_t gi)
{
	const segc_block **stack = segc_xmalloc(sizeof *stack);
	size_t n = 0, cap = 1, i;

	stack[n++] = m->graphs[gi].body;
	while (n) {
		const segc_block *b = stack[--n];
		size_t to;

		if (b->kind == SEGC_BLOCK_CALL && b->graph) {
			to = segc_symtab_get(index, b->graph);
			if (to != SEGC_SYMTAB_NONE)
				digraph_add(g, gi, to);
		}
		if (n + b->nchildren > cap) {
			cap = 2 * (n + b->nchildren);
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof *stack));
		}
		for (i = b->nchildren; i-- > 0;)
			stack[n++] = b->children[i];
	}
	free(stack);
}

/* Reports graphs of 'm' named twice and cycles of <call>s. */
static void check_graph_calls(checker *c, const segc_model *m)
{
	digraph g;
	const char **nm = segc_xcalloc(m->ngraphs + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(m->ngraphs + 1, sizeof *locs);
	segc_symtab index;
	size_t i, j;

	segc_symtab_init(&index);
	digraph_init(&g, m->ngraphs);
	for (i = 0; i < m->ngraphs; i++) {
		nm[i] = m->graphs[i].name;
		locs[i] = &m->graphs[i].loc;
		if (!nm[i])
			continue;
		j = segc_symtab_add(&index, nm[i], i);
		if (j != SEGC_SYMTAB_NONE)
			check_error(c, locs[i], SEGC_ERR_INPUT,
				"<graph> '%s': a graph of that name "
				"is already defined at line %lu",
				nm[i], locs[j]->line);
	}
	for (i = 0; i < m->ngraphs; i++)
		if (m->graphs[i].body)
			add_calls(&g, m, &index, i);
	report_cycle(c, &g, "<graph>", nm, locs, "graphs call each other in "
		"a cycle:");
	digraph_clear(&g);
	segc_symtab_clear(&index);
	free(nm);
	free(locs);
}

/* Declares the plain names of model 'm' in 'c': params, resources, lets,
 * and N and P unless declared. */
static void declare_model_names(checker *c, const segc_model *m)
{
	size_t i;

	for (i = 0; i < m->nparams; i++)
		declare(c, m->params[i].name, "param", &m->params[i].loc);
	for (i = 0; i < m->nresources; i++)
		declare(c, m->resources[i].name, "resource",
			&m->resources[i].loc);
	for (i = 0; i < m->nlets; i++)
		declare(c, m->lets[i].name, "let", &m->lets[i].loc);
	if (names_find(&c->global, "N") < 0)
		names_add(&c->global, "N", "param", 0);
	if (names_find(&c->global, "P") < 0)
		names_add(&c->global, "P", "param", 0);
}

/* Checks that the machine <expect> 'x' of 'm' names, if any, lies inside
 * the model's directory. */
static void check_expect_machine(checker *c, const segc_model *m,
	const segc_expect *x)
{
	char *path;

	if (!x->machine)
		return;
	path = segc_expect_machine_path(c->ctx, m, x);
	if (!path)
		c->failed = 1;
	free(path);
}

/* Checks the expressions of the params, lets and expects of 'm'. */
static void check_model_values(checker *c, const segc_model *m)
{
	size_t i;

	for (i = 0; i < m->nparams; i++) {
		const segc_param *p = &m->params[i];

		check_attr(c, p->value, &p->loc, "value", "param");
		check_attr(c, p->min, &p->loc, "min", "param");
		check_attr(c, p->max, &p->loc, "max", "param");
		if (p->min && p->max && segc_expr_is_num(p->min) &&
		    segc_expr_is_num(p->max) &&
		    mpq_cmp(segc_expr_value(p->min),
			    segc_expr_value(p->max)) > 0)
			check_error(c, &p->loc, SEGC_ERR_INPUT, "<param> '%s': "
				"min is greater than max", p->name);
	}
	for (i = 0; i < m->nlets; i++)
		check_attr(c, m->lets[i].value, &m->lets[i].loc, "value",
			"let");
	check_binding_cycles(c, m->nlets, m->lets, "<let>");
	for (i = 0; i < m->nexpects; i++) {
		check_at(c, m->expects[i].formula, &m->expects[i].loc,
			"the formula of <expect>");
		check_expect_machine(c, m, &m->expects[i]);
	}
}

/* Checks model 'm' (see validate.h). */
int segc_validate_model(segc_ctx *ctx, segc_model *m)
{
	return segc_validate_model_located(ctx, m, NULL);
}

/* Checks model 'm' with the texts of its expressions at hand (see
 * validate.h). */
int segc_validate_model_located(segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator)
{
	checker c;
	size_t i;
	int failed;

	if (!m)
		return -1;
	checker_init(&c, ctx);
	c.locator = locator;
	for (i = 0; i < m->nresources; i++)
		if (m->resources[i].name)
			segc_symtab_add(&c.resources, m->resources[i].name, i);
	for (i = 0; i < m->ngraphs; i++) {
		if (m->graphs[i].name)
			segc_symtab_add(&c.graphs, m->graphs[i].name, i);
		if (!m->graphs[i].arc_form && m->graphs[i].body)
			collect_counters(&c, m->graphs[i].body);
	}
	declare_model_names(&c, m);
	declare_functions(&c, m->nfunctions, m->functions);
	if (m->machine)
		declare_functions(&c, m->machine->nfunctions,
			m->machine->functions);
	check_model_values(&c, m);
	check_functions(&c, m->nfunctions, m->functions, 0);
	if (m->machine)
		check_mixed_recursion(&c, m);
	for (i = 0; i < m->ngraphs && !segc_ctx_full(ctx); i++) {
		if (m->graphs[i].arc_form)
			check_arc_graph(&c, &m->graphs[i]);
		else if (m->graphs[i].body)
			check_blocks(&c, m, m->graphs[i].body);
	}
	check_graph_calls(&c, m);
	failed = c.failed;
	checker_clear(&c);
	/* The 'latex' attributes, against the safe subset of LaTeX, so that
	 * validate refuses what latex would. */
	{
		segc_latex_names tex;

		if (segc_latex_names_of_model(ctx, m, &tex))
			failed = 1;
		segc_latex_names_clear(&tex);
	}
	if (m->machine && segc_validate_machine_located(ctx, m->machine,
		    locator))
		failed = 1;
	return failed ? -1 : 0;
}

/* ------------------------------------------------- names given by users */

/* Keeps in '*best' the name of 'v' nearest 'name' (distance '*d'). */
static void nearest_of(const char *name, const char *cand, size_t *d,
	const char **best)
{
	size_t k = segc_edit_distance(name, cand);

	if (k && k < *d) {
		*d = k;
		*best = cand;
	}
}

/* Non-zero when 'name' is among the 'n' bindings 'b'; else offers each
 * to nearest_of(). */
static int among_bindings(const char *name, size_t n, const segc_binding *b,
	size_t *d, const char **best)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(b[i].name, name))
			return 1;
		nearest_of(name, b[i].name, d, best);
	}
	return 0;
}

/* Says whether 'name' is one a user may give a value (-D, a grid): N, P,
 * a parameter, resource or let of the model, a const or cost of the
 * machine (the explicit one, else the inline one).  When not, '*near' is
 * the nearest such name within a third of its length, or NULL. */
int segc_setting_declares(const segc_setting *s, const char *name,
	const char **near)
{
	const segc_model *m = s->model;
	const segc_machine *mach = s->machine ? s->machine :
		m ? m->machine : NULL;
	size_t d = (strlen(name) + 2) / 3 + 1, i;

	*near = NULL;
	if (!strcmp(name, "N") || !strcmp(name, "P"))
		return 1;
	nearest_of(name, "N", &d, near);
	nearest_of(name, "P", &d, near);
	for (i = 0; m && i < m->nparams; i++) {
		if (!strcmp(m->params[i].name, name))
			return 1;
		nearest_of(name, m->params[i].name, &d, near);
	}
	for (i = 0; m && i < m->nresources; i++) {
		if (!strcmp(m->resources[i].name, name))
			return 1;
		nearest_of(name, m->resources[i].name, &d, near);
	}
	if (m && among_bindings(name, m->nlets, m->lets, &d, near))
		return 1;
	if (mach && (among_bindings(name, mach->nconsts, mach->consts, &d,
	    near) || among_bindings(name, mach->ncosts, mach->costs, &d, near)))
		return 1;
	if (*near && strlen(name) < 2)
		*near = NULL;
	return 0;
}
