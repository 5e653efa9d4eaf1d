/* print.c - the printer of the expression language: one line, no more
 * parentheses than the grammar needs, and such that segc_expr_parse() of
 * the text gives back the same expression (the same node).
 *
 * Sums print their terms joined by " + ", or " - " before a negative term
 * (then printed negated).  Products print their number first (its
 * denominator as a final "/q"), then their factors in order, a factor
 * x^-k as "/x^k".  The printer never simplifies: the order of terms and
 * factors is the order in the expression.
 *
 * Conditions (the first argument of if) print with the words "and", "or"
 * and "not", parenthesized only where the grammar needs it: an "or" inside
 * an "and", an "and" or "or" after "not", and a chain inside a chain of
 * the same word (which the parser would flatten).  A condition where a
 * value stands, or a value where a condition stands, cannot be written
 * in the language; it is printed in parentheses as it is (such text does
 * not parse).  The internal names of the variables of canonical sums
 * ("_s1") print as readable ones (segc_expr_readable_binders).  The graph
 * atoms taskpath(...) and maxplusv(...) print in their readable text
 * with named nodes and arcs (print_graph.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/graph_text.h"
#include "base/util.h"

/* The buffer of one printing and the ids of the nodes of a longest path
 * (NULL: v1, v2, ...).  Every function below is handed the address of
 * its first member, 'sb', from which print_call gets the ids. */
typedef struct printing {
	segc_strbuf sb;
	const char *const *ids;
	size_t nids;
} printing;

/* What surrounds the expression being printed, from loosest to tightest:
 * it decides the parentheses. */
enum context {
	CTX_TOP,       /* whole text, argument, inside parentheses */
	CTX_NEGATED,   /* after " - " in a sum */
	CTX_FACTOR,    /* a factor of a product, a denominator */
	CTX_BASE,      /* the base of a power */
	CTX_EXPONENT   /* the exponent of a power */
};

/* What surrounds a condition being printed. */
enum cond_context {
	COND_TOP,  /* the whole condition, inside parentheses */
	COND_OR,   /* an operand of "or" */
	COND_AND,  /* an operand of "and" */
	COND_NOT   /* after "not" */
};

static void print_expr(segc_strbuf *sb, const segc_expr *e,
	enum context ctx);
static void print_cond(segc_strbuf *sb, const segc_expr *e,
	enum cond_context ctx);

/* Non-zero when 'e' is a number below zero. */
static int is_negative_num(const segc_expr *e)
{
	return e->kind == SEGC_NUM && mpq_sgn(e->u.value) < 0;
}

/* Non-zero when 'e' prints with a leading minus: a negative number or a
 * product whose number is negative. */
static int looks_negative(const segc_expr *e)
{
	return is_negative_num(e) ||
		(e->kind == SEGC_MUL && is_negative_num(segc_args(e)[0]));
}

/* Non-zero when 'e' is x^-k for an integer k > 0 and a base that is not a
 * number: a factor that prints as a denominator "/x^k". */
static int is_denominator(const segc_expr *e)
{
	return e->kind == SEGC_POW && segc_args(e)[0]->kind != SEGC_NUM &&
		segc_expr_is_integer(segc_args(e)[1]) &&
		mpq_sgn(segc_args(e)[1]->u.value) < 0;
}

/* Prints the denominator factor 'e' = x^-k as x^k (without the slash);
 * for k = 1 a power x needs no parentheses: "/y^(1/2)". */
static void print_denominator(segc_strbuf *sb, const segc_expr *e)
{
	mpz_t k;

	mpz_init(k);
	mpz_neg(k, mpq_numref(segc_args(e)[1]->u.value));
	if (mpz_cmp_ui(k, 1) == 0 && segc_args(e)[0]->kind == SEGC_POW)
		print_expr(sb, segc_args(e)[0], CTX_FACTOR);
	else
		print_expr(sb, segc_args(e)[0], CTX_BASE);
	if (mpz_cmp_ui(k, 1) != 0) {
		segc_strbuf_appendc(sb, '^');
		segc_strbuf_append_mpz(sb, k);
	}
	mpz_clear(k);
}

/* Prints the product of the number 'coef' (negated when 'negate') and the
 * 'n' factors 'f'. */
static void print_product(segc_strbuf *sb, mpq_srcptr coef, int negate,
	size_t n, segc_expr *const *f)
{
	int sign = mpq_sgn(coef) * (negate ? -1 : 1);
	int items = 0;
	size_t i;
	mpz_t p;

	mpz_init(p);
	mpz_abs(p, mpq_numref(coef));
	if (sign < 0)
		segc_strbuf_appendc(sb, '-');
	if (mpz_cmp_ui(p, 1) != 0) {
		segc_strbuf_append_mpz(sb, p);
		items = 1;
	}
	for (i = 0; i < n; i++) {
		if (is_denominator(f[i])) {
			segc_strbuf_append(sb, items ? "/" : "1/");
			print_denominator(sb, f[i]);
		} else {
			if (items)
				segc_strbuf_appendc(sb, '*');
			/* A product in a product (one too large to be
			 * flattened) keeps its parentheses. */
			print_expr(sb, f[i], f[i]->kind == SEGC_MUL ?
				CTX_BASE : CTX_FACTOR);
		}
		items = 1;
	}
	if (mpz_cmp_ui(mpq_denref(coef), 1) != 0) {
		segc_strbuf_appendc(sb, '/');
		segc_strbuf_append_mpz(sb, mpq_denref(coef));
	}
	mpz_clear(p);
}

/* Prints the 'n' factors 'f' as a product without a number. */
static void print_factors(segc_strbuf *sb, size_t n, segc_expr *const *f)
{
	mpq_t unit;

	mpq_init(unit);
	mpq_set_ui(unit, 1, 1);
	print_product(sb, unit, 0, n, f);
	mpq_clear(unit);
}

/* Prints the product 'e', its number negated when 'negate' (a product
 * that looks negative has one). */
static void print_mul(segc_strbuf *sb, const segc_expr *e, int negate)
{
	if (segc_args(e)[0]->kind == SEGC_NUM)
		print_product(sb, segc_args(e)[0]->u.value, negate,
			e->nargs - 1,
			segc_args(e) + 1);
	else
		print_factors(sb, e->nargs, segc_args(e));
}

/* Prints the number 'q', negated when 'negate'. */
static void print_num(segc_strbuf *sb, mpq_srcptr q, int negate)
{
	mpq_t r;

	if (!negate) {
		segc_strbuf_append_mpq(sb, q);
		return;
	}
	mpq_init(r);
	mpq_neg(r, q);
	segc_strbuf_append_mpq(sb, r);
	mpq_clear(r);
}

/* Prints the term 'e' of a sum negated (it looks negative). */
static void print_negated(segc_strbuf *sb, const segc_expr *e)
{
	if (e->kind == SEGC_NUM)
		print_num(sb, e->u.value, 1);
	else
		print_mul(sb, e, 1);
}

/* Prints the sum 'e'. */
static void print_add(segc_strbuf *sb, const segc_expr *e)
{
	size_t i;

	/* Only a sum (one too large to be flattened) is parenthesized. */
	print_expr(sb, segc_args(e)[0], CTX_NEGATED);
	for (i = 1; i < e->nargs; i++) {
		if (looks_negative(segc_args(e)[i])) {
			segc_strbuf_append(sb, " - ");
			print_negated(sb, segc_args(e)[i]);
		} else {
			segc_strbuf_append(sb, " + ");
			print_expr(sb, segc_args(e)[i], CTX_NEGATED);
		}
	}
}

/* Prints the power 'e'. */
static void print_pow(segc_strbuf *sb, const segc_expr *e)
{
	segc_expr *const self = (segc_expr *)e;

	if (is_denominator(e)) {
		print_factors(sb, 1, &self);
		return;
	}
	print_expr(sb, segc_args(e)[0], CTX_BASE);
	segc_strbuf_appendc(sb, '^');
	print_expr(sb, segc_args(e)[1], CTX_EXPONENT);
}

/* Prints the operands of the "and" or "or" 'e' joined by its word. */
static void print_chain(segc_strbuf *sb, const segc_expr *e)
{
	int conj = segc_expr_is_builtin(e, SEGC_BUILTIN_AND);
	size_t i;

	for (i = 0; i < e->nargs; i++) {
		if (i)
			segc_strbuf_append(sb, conj ? " and " : " or ");
		print_cond(sb, segc_args(e)[i], conj ? COND_AND : COND_OR);
	}
}

/* Non-zero when the condition 'e' needs parentheses in 'ctx'. */
static int cond_needs_parens(const segc_expr *e, enum cond_context ctx)
{
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_OR))
		return ctx != COND_TOP;
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_AND))
		return ctx == COND_AND || ctx == COND_NOT;
	return 0;
}

/* Prints the condition 'e' in the context 'ctx'; a value is printed as
 * one. */
static void print_cond(segc_strbuf *sb, const segc_expr *e,
	enum cond_context ctx)
{
	int parens;

	if (!segc_expr_is_condition(e)) {
		print_expr(sb, e, CTX_BASE);
		return;
	}
	parens = cond_needs_parens(e, ctx);
	if (parens)
		segc_strbuf_appendc(sb, '(');
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT)) {
		segc_strbuf_append(sb, "not ");
		print_cond(sb, segc_args(e)[0], COND_NOT);
	} else if (e->nargs == 2 && segc_expr_is_relation_name(e->u.name)) {
		print_expr(sb, segc_args(e)[0], CTX_TOP);
		segc_strbuf_appendf(sb, " %s ", e->u.name);
		print_expr(sb, segc_args(e)[1], CTX_TOP);
	} else {
		print_chain(sb, e);
	}
	if (parens)
		segc_strbuf_appendc(sb, ')');
}

/* Prints 'e' as a whole argument (for print_graph.c). */
static void print_top(segc_strbuf *sb, const segc_expr *e)
{
	print_expr(sb, e, CTX_TOP);
}

/* Prints the call or sum 'e': name(args); the first argument of "if" as
 * a condition; a condition standing where a value does in
 * parentheses. */
static void print_call(segc_strbuf *sb, const segc_expr *e)
{
	size_t i;

	if (segc_expr_is_condition(e)) {
		segc_strbuf_appendc(sb, '(');
		print_cond(sb, e, COND_TOP);
		segc_strbuf_appendc(sb, ')');
		return;
	}
	if (e->nargs == 3 && segc_expr_is_builtin(e, SEGC_BUILTIN_IF)) {
		segc_strbuf_append(sb, "if(");
		print_cond(sb, segc_args(e)[0], COND_TOP);
		segc_strbuf_append(sb, ", ");
		print_expr(sb, segc_args(e)[1], CTX_TOP);
		segc_strbuf_append(sb, ", ");
		print_expr(sb, segc_args(e)[2], CTX_TOP);
		segc_strbuf_appendc(sb, ')');
		return;
	}
	if (!segc_graph_atom_print(sb, e, print_top, ((printing *)sb)->ids,
		    ((printing *)sb)->nids))
		return;
	segc_strbuf_append(sb, e->kind == SEGC_SUM ?
		segc_builtin_name(SEGC_BUILTIN_SUM) : e->u.name);
	segc_strbuf_appendc(sb, '(');
	if (e->kind == SEGC_SUM) {
		segc_strbuf_append(sb, e->u.name);
		segc_strbuf_append(sb, ", ");
	}
	for (i = 0; i < e->nargs; i++) {
		if (i)
			segc_strbuf_append(sb, ", ");
		print_expr(sb, segc_args(e)[i], CTX_TOP);
	}
	segc_strbuf_appendc(sb, ')');
}

/* The binding strength of the text of 'e' at the top: 0 for a sum, 1 for
 * a product, quotient or signed number, 2 for what may stand as the base
 * of a power (a name, a call, a natural number). */
static int strength(const segc_expr *e)
{
	switch (e->kind) {
	case SEGC_ADD:
		return 0;
	case SEGC_NUM:
		return mpq_sgn(e->u.value) >= 0 &&
			mpz_cmp_ui(mpq_denref(e->u.value), 1) == 0 ? 2 : 1;
	case SEGC_MUL:
	case SEGC_POW:
		return 1;
	default:
		return 2;
	}
}

/* Non-zero when 'e' needs parentheses in 'ctx'. */
static int needs_parens(const segc_expr *e, enum context ctx)
{
	switch (ctx) {
	case CTX_TOP:
		return 0;
	case CTX_NEGATED:
	case CTX_FACTOR:
		return strength(e) == 0;
	case CTX_EXPONENT:
		if (segc_expr_is_integer(e))
			return 0;
		return strength(e) < 2;
	default:
		return strength(e) < 2;
	}
}

/* Prints 'e' in the context 'ctx'. */
static void print_expr(segc_strbuf *sb, const segc_expr *e,
	enum context ctx)
{
	int parens = needs_parens(e, ctx);

	if (parens)
		segc_strbuf_appendc(sb, '(');
	switch (e->kind) {
	case SEGC_NUM:
		print_num(sb, e->u.value, 0);
		break;
	case SEGC_SYM:
		segc_strbuf_append(sb, e->u.name);
		break;
	case SEGC_ADD:
		print_add(sb, e);
		break;
	case SEGC_MUL:
		print_mul(sb, e, 0);
		break;
	case SEGC_POW:
		print_pow(sb, e);
		break;
	default:
		print_call(sb, e);
		break;
	}
	if (parens)
		segc_strbuf_appendc(sb, ')');
}

/* The text of 'e' in the expression language, malloc'd; see segc.h. */
char *segc_expr_to_string_nodes(const segc_expr *e, const char *const *ids,
	size_t n)
{
	segc_expr *r = e ? segc_expr_readable_binders(e) : NULL;
	printing p;

	segc_strbuf_init(&p.sb);
	p.ids = ids;
	p.nids = ids ? n : 0;
	if (r)
		print_expr(&p.sb, r, CTX_TOP);
	segc_expr_free(r);
	return segc_strbuf_take(&p.sb);
}

/* The text of 'e' in the expression language, malloc'd. */
char *segc_expr_to_string(const segc_expr *e)
{
	return segc_expr_to_string_nodes(e, NULL, 0);
}

/* Writes the text of 'e' to 'out'; 0 on success, -1 on a write error. */
int segc_expr_print(FILE *out, const segc_expr *e)
{
	char *s = segc_expr_to_string(e);
	int r = fputs(s, out) < 0 ? -1 : 0;

	free(s);
	return r;
}

/* The text of 'e' for a diagnostic (see util.h). */
char *segc_expr_quote(const segc_expr *e)
{
	enum { MAX_QUOTE = 48 };
	char *t = segc_expr_to_string(e);

	if (t && strlen(t) > MAX_QUOTE)
		strcpy(t + MAX_QUOTE - 3, "...");
	return t;
}

/* ------------------------------------------------- names of bound variables */

/* The renaming of internal binder names: which nodes contain one (each
 * key holds a reference, so that no node is freed and its address reused
 * while it is known), the names bound around the node being renamed, and
 * the names that occur in the formula (a readable name is taken only
 * when the formula has it nowhere, so that the text never reads as if a
 * sum's variable were a name outside it). */
struct renamer {
	segc_expr_map internal;  /* node -> (void *)1: none, (void *)2: some */
	const char **scope;
	size_t n, cap;
	const char **used;       /* the names in the formula, sorted */
	size_t nused, capused;
};

/* Non-zero when 'e' binds an internal name somewhere. */
static int has_internal(struct renamer *R, const segc_expr *e)
{
	void **slot = segc_expr_map_find(&R->internal, e);
	int found;
	size_t i;

	if (slot)
		return *slot == (void *)2;
	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM)
		return 0;
	/* the binder of a sum or of a recurrence */
	found = segc_expr_binder(e) &&
		segc_expr_is_internal_name(segc_expr_binder(e));
	for (i = 0; i < e->nargs && !found; i++)
		found = has_internal(R, segc_args(e)[i]);
	segc_expr_map_put(&R->internal, segc_expr_copy(e),
		found ? (void *)2 : (void *)1);
	return found;
}

/* Adds to 'R' the names and sum variables of 'e' not seen yet ('seen'
 * holds the nodes already visited). */
static void collect_names(struct renamer *R, const segc_expr *e,
	segc_expr_map *seen)
{
	size_t i;

	if (!segc_expr_map_put(seen, e, NULL) || e->kind == SEGC_NUM)
		return;
	if (e->kind == SEGC_SYM || e->kind == SEGC_SUM) {
		if (R->nused == R->capused) {
			R->capused = R->capused ? 2 * R->capused : 16;
			R->used = segc_xrealloc(R->used,
				segc_xmul_size(R->capused, sizeof(*R->used)));
		}
		R->used[R->nused++] = e->u.name;
	}
	if (e->kind == SEGC_SYM)
		return;
	for (i = 0; i < e->nargs; i++)
		collect_names(R, segc_args(e)[i], seen);
}

/* Compares the strings at 'a' and 'b' (for qsort and bsearch). */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Non-zero when 'name' may stand for the variable of a sum in 'R': it
 * occurs nowhere in the formula and no enclosing sum binds it. */
static int name_free_for(const struct renamer *R, const char *name)
{
	size_t i;

	for (i = 0; i < R->n; i++)
		if (!strcmp(R->scope[i], name))
			return 0;
	return !R->nused || !bsearch(&name, R->used, R->nused,
		sizeof(*R->used), cmp_names);
}

/* Writes to 'buf' the first readable name for the variable of a sum in
 * 'R': i, j, k, l, m, then i1, i2, .... */
static void readable_name(const struct renamer *R, char *buf, size_t size)
{
	static const char *const first[] = { "i", "j", "k", "l", "m" };
	unsigned long k;

	for (k = 0; k < 5; k++)
		if (name_free_for(R, first[k])) {
			snprintf(buf, size, "%s", first[k]);
			return;
		}
	for (k = 1;; k++) {
		snprintf(buf, size, "i%lu", k);
		if (name_free_for(R, buf))
			return;
	}
}

static segc_expr *rename_node(struct renamer *R, const segc_expr *e);

/* The sum 'e' with its variable, if internal, and those of the sums
 * inside it renamed. */
static segc_expr *rename_sum(struct renamer *R, const segc_expr *e)
{
	segc_expr *lo = rename_node(R, segc_args(e)[0]);
	segc_expr *hi = rename_node(R, segc_args(e)[1]);
	segc_expr *body = segc_expr_copy(segc_args(e)[2]), *renamed;
	char buf[32];
	const char *var = e->u.name;

	if (segc_expr_is_internal_name(var)) {
		readable_name(R, buf, sizeof buf);
		segc_expr *v = segc_expr_sym(buf);

		body = segc_expr_subst(body, var, v);
		segc_expr_free(v);
		var = buf;
	}
	if (R->n == R->cap) {
		R->cap = R->cap ? 2 * R->cap : 8;
		R->scope = segc_xrealloc(R->scope,
			segc_xmul_size(R->cap, sizeof(*R->scope)));
	}
	R->scope[R->n++] = var;
	renamed = rename_node(R, body);
	R->n--;
	segc_expr_free(body);
	return segc_expr_sum(var, lo, hi, renamed);
}

/* The recurrence maxplusv 'e' with its counter, internal, renamed as a
 * sum's variable is, and the binders inside it. */
static segc_expr *rename_maxplusv(struct renamer *R, const segc_expr *e)
{
	const char *var = segc_expr_binder(e);
	segc_expr **args = segc_xmalloc(segc_xmul_size(e->nargs,
		sizeof(*args))), *v, *r;
	char buf[32];
	size_t i;

	readable_name(R, buf, sizeof buf);
	v = segc_expr_sym(buf);
	if (R->n == R->cap) {
		R->cap = R->cap ? 2 * R->cap : 8;
		R->scope = segc_xrealloc(R->scope,
			segc_xmul_size(R->cap, sizeof(*R->scope)));
	}
	args[0] = segc_expr_copy(v);
	for (i = 1; i < e->nargs; i++) {
		segc_expr *a;

		if (!segc_expr_arg_bound(e, i)) {
			args[i] = rename_node(R, segc_args(e)[i]);
			continue;
		}
		a = segc_expr_subst(segc_expr_copy(segc_args(e)[i]), var, v);
		R->scope[R->n++] = buf;
		args[i] = rename_node(R, a);
		R->n--;
		segc_expr_free(a);
	}
	segc_expr_free(v);
	r = segc_expr_rebuild(SEGC_CALL, e->u.name, e->nargs, args);
	free(args);
	return r;
}

/* 'e' with the internal names of the sums in it renamed. */
static segc_expr *rename_node(struct renamer *R, const segc_expr *e)
{
	segc_expr **args, *r;
	size_t i;

	if (!has_internal(R, e))
		return segc_expr_copy(e);
	if (e->kind == SEGC_SUM)
		return rename_sum(R, e);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV) &&
	    segc_expr_binder(e) &&
	    segc_expr_is_internal_name(segc_expr_binder(e)))
		return rename_maxplusv(R, e);
	args = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*args)));

	for (i = 0; i < e->nargs; i++)
		args[i] = rename_node(R, segc_args(e)[i]);
	r = segc_expr_rebuild((enum segc_expr_kind)e->kind,
		e->kind == SEGC_CALL ? e->u.name : NULL, e->nargs, args);
	free(args);
	return r;
}

/* 'e' with readable names for the variables of canonical sums; see
 * expr_private.h. */
segc_expr *segc_expr_readable_binders(const segc_expr *e)
{
	struct renamer R;
	segc_expr_map seen;
	segc_expr *r;
	size_t i;

	memset(&R, 0, sizeof R);
	segc_expr_map_init(&R.internal);
	if (!has_internal(&R, e)) {
		r = segc_expr_copy(e);
		goto out;
	}
	segc_expr_map_init(&seen);
	collect_names(&R, e, &seen);
	segc_expr_map_clear(&seen);
	qsort(R.used, R.nused, sizeof(*R.used), cmp_names);
	r = rename_node(&R, e);
out:
	for (i = 0; i < R.internal.cap; i++)
		if (R.internal.keys && R.internal.keys[i])
			segc_expr_free((segc_expr *)R.internal.keys[i]);
	segc_expr_map_clear(&R.internal);
	free(R.scope);
	free(R.used);
	return r;
}
