/* print.c - the printer of the expression language: one line, no more
 * parentheses than the grammar needs, and such that segc_expr_parse() of
 * the text gives back the same expression (the same node).
 *
 * Sums print their terms joined by " + ", or " - " before a negative term
 * (then printed negated).  Products print their number first (its
 * denominator as a final "/q"), then their factors in order, a factor
 * x^-k as "/x^k".  The printer never simplifies: the order of terms and
 * factors is the order in the expression. */
#include <stdlib.h>
#include <string.h>

#include "expr_private.h"
#include "util.h"

/* What surrounds the expression being printed, from loosest to tightest:
 * it decides the parentheses. */
enum context {
	CTX_TOP,       /* whole text, argument, inside parentheses */
	CTX_NEGATED,   /* after " - " in a sum */
	CTX_FACTOR,    /* a factor of a product, a denominator */
	CTX_BASE,      /* the base of a power */
	CTX_EXPONENT   /* the exponent of a power */
};

static void print_expr(segc_strbuf *sb, const segc_expr *e,
	enum context ctx);

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
		(e->kind == SEGC_MUL && is_negative_num(e->args[0]));
}

/* Non-zero when 'e' is x^-k for an integer k > 0 and a base that is not a
 * number: a factor that prints as a denominator "/x^k". */
static int is_denominator(const segc_expr *e)
{
	return e->kind == SEGC_POW && e->args[0]->kind != SEGC_NUM &&
		segc_expr_is_integer(e->args[1]) &&
		mpq_sgn(e->args[1]->u.value) < 0;
}

/* Prints the denominator factor 'e' = x^-k as x^k (without the slash);
 * for k = 1 a power x needs no parentheses: "/y^(1/2)". */
static void print_denominator(segc_strbuf *sb, const segc_expr *e)
{
	mpz_t k;

	mpz_init(k);
	mpz_neg(k, mpq_numref(e->args[1]->u.value));
	if (mpz_cmp_ui(k, 1) == 0 && e->args[0]->kind == SEGC_POW)
		print_expr(sb, e->args[0], CTX_FACTOR);
	else
		print_expr(sb, e->args[0], CTX_BASE);
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
	if (e->args[0]->kind == SEGC_NUM)
		print_product(sb, e->args[0]->u.value, negate, e->nargs - 1,
			e->args + 1);
	else
		print_factors(sb, e->nargs, e->args);
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
	print_expr(sb, e->args[0], CTX_NEGATED);
	for (i = 1; i < e->nargs; i++) {
		if (looks_negative(e->args[i])) {
			segc_strbuf_append(sb, " - ");
			print_negated(sb, e->args[i]);
		} else {
			segc_strbuf_append(sb, " + ");
			print_expr(sb, e->args[i], CTX_NEGATED);
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
	print_expr(sb, e->args[0], CTX_BASE);
	segc_strbuf_appendc(sb, '^');
	print_expr(sb, e->args[1], CTX_EXPONENT);
}

/* Prints the call or sum 'e': name(args). */
static void print_call(segc_strbuf *sb, const segc_expr *e)
{
	size_t i;

	segc_strbuf_append(sb, e->kind == SEGC_SUM ? "sum" : e->u.name);
	segc_strbuf_appendc(sb, '(');
	if (e->kind == SEGC_SUM) {
		segc_strbuf_append(sb, e->u.name);
		segc_strbuf_append(sb, ", ");
	}
	for (i = 0; i < e->nargs; i++) {
		if (i)
			segc_strbuf_append(sb, ", ");
		print_expr(sb, e->args[i], CTX_TOP);
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

/* The text of 'e' in the expression language, malloc'd. */
char *segc_expr_to_string(const segc_expr *e)
{
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	if (e)
		print_expr(&sb, e, CTX_TOP);
	return segc_strbuf_take(&sb);
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
