/* validate_check.c - the checker of the semantic checks: sets of names
 * with a suggestion for a near miss, diagnostics placed at an attribute's
 * value, and the checks of one expression (names declared, calls with the
 * right number of arguments, look-alike names, reserved names).  The
 * passes over a machine and a model (validate.c), declarations
 * (validate_decls.c) and graphs (validate_graph.c) use it. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "model/validate_private.h"
#include "base/symtab.h"
#include "base/util.h"

/* ------------------------------------------------------------ name sets */

/* Adds 'name' declared by <'kind'> at 'line' to 's'. */
void names_add(names *s, const char *name, const char *kind,
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
void names_pop_to(names *s, size_t n)
{
	while (s->n > n) {
		s->n--;
		segc_symtab_put(&s->index, s->name[s->n], s->prev[s->n]);
	}
}

/* The index of the last 'name' in 's', or -1. */
long names_find(const names *s, const char *name)
{
	size_t i = segc_symtab_get(&s->index, name);

	return i == SEGC_SYMTAB_NONE ? -1 : (long)i;
}

/* Releases the arrays of 's'. */
void names_clear(names *s)
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
const char *suggest(const char *name, const names *a, const names *b)
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

/* Records an error at 'loc' (see validate_private.h). */
void check_error(checker *c, const segc_srcloc *loc,
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
	c->nerrors++;
}

/* 'loc' moved to the start of the value of its attribute 'attr' when
 * the locator can tell where that is (in '*buf'), else 'loc'. */
const segc_srcloc *at_value(const checker *c,
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
const fn_sig *find_fn(const checker *c, const char *name)
{
	size_t i = segc_symtab_get(&c->fn_index, name);

	return i == SEGC_SYMTAB_NONE ? NULL : &c->fns[i];
}

/* The built-in 'name' that models may write (expr/builtin.h), or
 * NULL. */
static const segc_builtin_info *find_builtin(const char *name)
{
	const segc_builtin_info *b = segc_builtin_get(
		segc_builtin_lookup(name));

	return b->id != SEGC_BUILTIN_NONE && b->input ? b : NULL;
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
	{ "ln", "did you mean 'log2', or log(b, x) with a base b?" },
	{ "log10", "did you mean log(10, x)?" },
	{ "lg", "did you mean 'log2', or log(b, x) with a base b?" },
	{ "pow", "did you mean x^k? (k a whole number)" },
	{ "power", "did you mean x^k? (k a whole number)" },
	{ "sqr", "did you mean x^2 or 'sqrt'?" },
	{ "exp", "the language has no natural exponential: did you mean "
	  "exp2(x), 2^x?" },
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
	for (i = 1; i < SEGC_BUILTIN_COUNT; i++)
		if (segc_builtin_get(i)->input &&
		    same_letters(segc_builtin_name(i), name)) {
			check_error(c, c->loc, SEGC_ERR_INPUT, "call of '%s' in "
				"%s%s: no such function (did you mean '%s'?)", name,
				describe(c), segc_strbuf_str(&pos),
				segc_builtin_name(i));
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
	const segc_builtin_info *b = find_builtin(name);
	const fn_sig *f;

	if (b) {
		if (!segc_builtin_arity_ok(b->id, n))
			check_error(c, c->loc, SEGC_ERR_INPUT, "%s: %s() "
				"takes %s%zu argument%s, not %zu", describe(c),
				name, b->max_args ? "" : "at least ",
				b->min_args, b->min_args == 1 ? "" : "s", n);
		if (b->kind == SEGC_BUILTIN_BINDER)
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
	    segc_expr_is_builtin(e, SEGC_BUILTIN_IF)) {
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
		if (segc_expr_binder(e)) {
			/* maxplusv(i, n, ...): i bound in the costs */
			n = segc_expr_nargs(e);
			for (i = 1; i < n; i++)
				if (!segc_expr_arg_bound(e, i))
					check_expr(c, segc_expr_arg(e, i));
			names_add(&c->local, segc_expr_binder(e), "binder", 0);
			for (i = 1; i < n; i++)
				if (segc_expr_arg_bound(e, i))
					check_expr(c, segc_expr_arg(e, i));
			names_pop_to(&c->local, c->local.n - 1);
			return;
		}
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
void check_at(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *what)
{
	check_described(c, e, loc, what, NULL, NULL);
}

/* Checks 'e' at 'loc', describing it as attribute 'attr' of <'elem'>. */
void check_attr(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *attr, const char *elem)
{
	check_described(c, e, loc, NULL, attr, elem);
}

/* Reports, and returns 1, when 'name' (declared by <'kind'> at 'loc',
 * as 'role' when not NULL) is a reserved word of the expression
 * language. */
int reserved_name(checker *c, const char *name, const char *kind,
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
void declare(checker *c, const char *name, const char *kind,
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
void declare_functions(checker *c, size_t n, const segc_function *f)
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
void checker_init(checker *c, segc_ctx *ctx)
{
	memset(c, 0, sizeof *c);
	c->ctx = ctx;
	c->fault_off = (size_t)-1;
}

/* Releases what 'c' holds. */
void checker_clear(checker *c)
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
	free(c->bad);
}
