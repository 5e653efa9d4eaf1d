/* latex.c - a formula as LaTeX math, as a paper typesets it: quotients as
 * \frac, products by juxtaposition, subscripts from underscores, Greek
 * letters by name, the declared 'latex' spelling of parameters and
 * resources.  The printer never simplifies: it prints the expression it is
 * given, only choosing where to put signs and fraction bars.
 *
 * if(c, a, b) is a cases environment, an if in the else branch adding
 * cases to it; relations are <, \le, >, \ge, =, \ne; and, or, not are
 * \wedge, \vee and \neg.  The internal variables of canonical sums are
 * given readable names first (segc_expr_readable_binders), as in the
 * text.  Names and numbers are typeset by latex_atoms.c. */
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"
#include "expr/expr_private.h"

/* Where a subexpression stands, for deciding its parentheses. */
enum level {
	LV_SUM = 0,   /* a term, an argument, a whole formula */
	LV_PROD = 1,  /* a factor of a product */
	LV_BASE = 2   /* the base of a power */
};

/* What a rendered factor looks like, for choosing the product sign. */
enum fkind { FK_NUM, FK_LETTER, FK_OTHER };

static void latex_expr(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, enum level lv);

/* ------------------------------------------------------------- sums */

/* Non-zero when the term 'e' carries a minus sign of its own: a negative
 * number, or a product whose number factor is negative. */
static int term_is_negative(const segc_expr *e)
{
	if (segc_expr_kind(e) == SEGC_NUM)
		return mpq_sgn(segc_expr_value(e)) < 0;
	if (segc_expr_kind(e) == SEGC_MUL &&
	    segc_expr_kind(segc_expr_arg(e, 0)) == SEGC_NUM)
		return mpq_sgn(segc_expr_value(segc_expr_arg(e, 0))) < 0;
	return 0;
}

static void latex_term(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, int negate, enum level lv);

/* Appends |q|: an integer or a decimal as latex_atoms.c writes them, any
 * other fraction as a fraction of the layout (a solidus where a \frac
 * would not read well). */
static void put_number(segc_strbuf *b, mpq_srcptr q)
{
	segc_strbuf dec;
	mpq_t a;

	mpq_init(a);
	mpq_abs(a, q);
	segc_strbuf_init(&dec);
	if (mpz_cmp_ui(mpq_denref(a), 1) == 0 ||
	    segc_latex_put_decimal(&dec, a)) {
		segc_latex_put_abs_number(b, a);
	} else {
		segc_latex_open(b, LX_FRAC);
		segc_strbuf_append_mpz(b, mpq_numref(a));
		segc_strbuf_appendc(b, LX_SEP);
		segc_strbuf_append_mpz(b, mpq_denref(a));
		segc_strbuf_appendc(b, LX_END);
	}
	segc_strbuf_free(&dec);
	mpq_clear(a);
}

/* Appends the terms of the sum 'e', with their signs. */
static void latex_add(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	size_t i;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		const segc_expr *t = segc_expr_arg(e, i);
		int neg = term_is_negative(t);

		if (i)
			segc_latex_put_break(b, LX_BREAK_SUM);
		if (neg)
			segc_strbuf_append(b, i ? " - " : "-");
		else if (i)
			segc_strbuf_append(b, " + ");
		latex_term(b, t, names, neg, LV_SUM);
	}
}

/* ---------------------------------------------------------- products */

/* Non-zero when 'e' is x^k with k a negative integer: a denominator. */
static int is_reciprocal(const segc_expr *e)
{
	const segc_expr *x;

	if (segc_expr_kind(e) != SEGC_POW)
		return 0;
	x = segc_expr_arg(e, 1);
	return segc_expr_kind(x) == SEGC_NUM && mpq_sgn(segc_expr_value(x)) < 0 &&
		mpz_cmp_ui(mpq_denref(segc_expr_value(x)), 1) == 0;
}

/* The kind of the rendered factor 'e'. */
static enum fkind factor_kind(const segc_expr *e, const segc_latex_names *n)
{
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return FK_NUM;
	case SEGC_SYM:
		return segc_latex_is_letter_symbol(segc_expr_name(e), n) ?
			FK_LETTER : FK_OTHER;
	case SEGC_POW:
		return segc_expr_kind(segc_expr_arg(e, 0)) == SEGC_SYM &&
			segc_latex_is_letter_symbol(segc_expr_name(
			segc_expr_arg(e, 0)), n) ? FK_LETTER : FK_OTHER;
	default:
		return FK_OTHER;
	}
}

/* Appends the separator between two juxtaposed factors of kinds 'l', 'r'. */
static void put_product_sign(segc_strbuf *b, enum fkind l, enum fkind r)
{
	if (l == FK_NUM && r == FK_NUM)
		segc_strbuf_append(b, " \\cdot ");
	else if (l == FK_NUM || (l == FK_LETTER && r == FK_LETTER))
		segc_strbuf_appendc(b, ' ');
	else
		segc_strbuf_append(b, "\\,");
}

/* A list of factors to juxtapose, with an optional number in front. */
typedef struct factors {
	mpz_srcptr coeff;          /* NULL: none (1) */
	size_t n;
	const segc_expr **f;
	int invert;                /* print x^-k as x^k */
} factors;

/* Appends one factor, inverted (x^-k as x^k) when 'invert'. */
static void put_factor(segc_strbuf *b, const segc_expr *f,
	const segc_latex_names *names, int invert)
{
	const segc_expr *k;
	mpq_t e;

	if (!invert) {
		latex_expr(b, f, names, LV_PROD);
		return;
	}
	k = segc_expr_arg(f, 1);
	mpq_init(e);
	mpq_neg(e, segc_expr_value(k));
	latex_expr(b, segc_expr_arg(f, 0), names,
		mpq_cmp_ui(e, 1, 1) == 0 ? LV_PROD : LV_BASE);
	if (mpq_cmp_ui(e, 1, 1) != 0) {
		segc_strbuf_append(b, "^{");
		segc_strbuf_append_mpz(b, mpq_numref(e));
		segc_strbuf_appendc(b, '}');
	}
	mpq_clear(e);
}

/* The number of equal factors starting at fs->f[i]. */
static size_t run_length(const factors *fs, size_t i)
{
	size_t j = i + 1;

	while (j < fs->n && fs->f[j] == fs->f[i])
		j++;
	return j - i;
}

/* Appends 'k' equal factors 'f' as one power (typesetting only: x x is
 * written x^{2}). */
static void put_factor_run(segc_strbuf *b, const segc_expr *f, size_t k,
	const segc_latex_names *names, int invert, int alone)
{
	if (k == 1 && !invert) {
		latex_expr(b, f, names, alone ? LV_SUM : LV_PROD);
		return;
	}
	if (k == 1 && alone && mpq_cmp_si(segc_expr_value(segc_expr_arg(f, 1)),
	    -1, 1) == 0) {
		latex_expr(b, segc_expr_arg(f, 0), names, LV_SUM);
		return;
	}
	if (k == 1) {
		put_factor(b, f, names, invert);
		return;
	}
	if (invert) {
		mpz_t e;

		mpz_init(e);
		mpz_neg(e, mpq_numref(segc_expr_value(segc_expr_arg(f, 1))));
		mpz_mul_ui(e, e, (unsigned long)k);
		latex_expr(b, segc_expr_arg(f, 0), names, LV_BASE);
		segc_strbuf_append(b, "^{");
		segc_strbuf_append_mpz(b, e);
		segc_strbuf_appendc(b, '}');
		mpz_clear(e);
		return;
	}
	if (segc_expr_kind(f) == SEGC_POW) {
		size_t i;

		for (i = 0; i < k; i++) {
			if (i)
				segc_strbuf_append(b, "\\,");
			put_factor(b, f, names, invert);
		}
		return;
	}
	latex_expr(b, f, names, LV_BASE);
	segc_strbuf_appendf(b, "^{%lu}", (unsigned long)k);
}

/* Appends the juxtaposed factors of 'fs'; "1" when there are none.  A
 * lone factor of a fraction needs no parentheses. */
static void put_factors(segc_strbuf *b, const factors *fs,
	const segc_latex_names *names, int in_fraction)
{
	enum fkind prev = FK_NUM;
	size_t i, k;
	int any = 0, coeff = fs->coeff && (mpz_cmp_ui(fs->coeff, 1) != 0 ||
		fs->n == 0);

	if (coeff) {
		segc_strbuf_append_mpz(b, fs->coeff);
		any = 1;
	}
	for (i = 0; i < fs->n; i += k) {
		enum fkind kind = factor_kind(fs->f[i], names);

		k = run_length(fs, i);
		if (fs->invert && kind == FK_NUM)
			kind = FK_OTHER;
		if (any) {
			segc_latex_put_break(b, LX_BREAK_PRODUCT);
			put_product_sign(b, prev, kind);
		}
		put_factor_run(b, fs->f[i], k, names, fs->invert,
			in_fraction && !coeff && k == fs->n);
		prev = kind;
		any = 1;
	}
	if (!any)
		segc_strbuf_appendc(b, '1');
}

/* Sorts the factors of the product 'e' (from 'first') into 'fn'
 * (numerator) and 'fd' (x^-k: denominator). */
static void split_factors(const segc_expr *e, size_t first, factors *fn,
	factors *fd)
{
	size_t i;

	for (i = first; i < segc_expr_nargs(e); i++) {
		const segc_expr *f = segc_expr_arg(e, i);

		if (is_reciprocal(f))
			fd->f[fd->n++] = f;
		else
			fn->f[fn->n++] = f;
	}
}

/* Appends 'fn' over 'fd' with the number 'c' (non-negative): a decimal 'c'
 * in front, else its numerator and denominator in the fraction. */
static void put_quotient(segc_strbuf *b, mpq_t c, factors *fn, factors *fd,
	const segc_latex_names *names)
{
	if (mpz_cmp_ui(mpq_denref(c), 1) != 0) {
		segc_strbuf dec;

		segc_strbuf_init(&dec);
		if (segc_latex_put_decimal(&dec, c) && segc_strbuf_str(&dec)) {
			segc_strbuf_append(b, segc_strbuf_str(&dec));
			mpq_set_ui(c, 1, 1);
			if (fn->n || fd->n)
				segc_strbuf_appendc(b, ' ');
			else
				fn->coeff = NULL;
		}
		segc_strbuf_free(&dec);
		if (mpq_cmp_ui(c, 1, 1) == 0 && !fn->n && !fd->n)
			return;
	}
	fn->coeff = mpq_numref(c);
	if (mpz_cmp_ui(mpq_denref(c), 1) == 0 && !fd->n) {
		put_factors(b, fn, names, 0);
		return;
	}
	fd->coeff = mpz_cmp_ui(mpq_denref(c), 1) ? mpq_denref(c) : NULL;
	segc_latex_open(b, LX_FRAC);
	put_factors(b, fn, names, 1);
	segc_strbuf_appendc(b, LX_SEP);
	put_factors(b, fd, names, 1);
	segc_strbuf_appendc(b, LX_END);
}

/* Appends the product 'e' (sign dropped when 'negate'): numerator over
 * denominator when it has x^-k factors or a fractional number. */
static void latex_mul(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, int negate)
{
	size_t n = segc_expr_nargs(e), first = 0;
	const segc_expr **num = segc_xmalloc(segc_xmul_size(n, sizeof *num));
	const segc_expr **den = segc_xmalloc(segc_xmul_size(n, sizeof *den));
	factors fn = { NULL, 0, NULL, 0 }, fd = { NULL, 0, NULL, 1 };
	mpq_t c;

	mpq_init(c);
	mpq_set_ui(c, 1, 1);
	if (segc_expr_kind(segc_expr_arg(e, 0)) == SEGC_NUM) {
		mpq_abs(c, segc_expr_value(segc_expr_arg(e, 0)));
		first = 1;
		if (!negate && mpq_sgn(segc_expr_value(segc_expr_arg(e, 0))) < 0)
			segc_strbuf_appendc(b, '-');
	}
	fn.f = num;
	fd.f = den;
	split_factors(e, first, &fn, &fd);
	put_quotient(b, c, &fn, &fd, names);
	free(num);
	free(den);
	mpq_clear(c);
}

/* Appends the term 'e' of a sum, its own sign dropped when 'negate'. */
static void latex_term(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, int negate, enum level lv)
{
	if (negate && segc_expr_kind(e) == SEGC_NUM)
		put_number(b, segc_expr_value(e));
	else if (segc_expr_kind(e) == SEGC_MUL)
		latex_mul(b, e, names, negate);
	else
		latex_expr(b, e, names, lv);
}

/* ------------------------------------------------------- other kinds */

/* Appends the arguments of the call 'e', separated by commas. */
static void put_args(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	size_t i;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (i) {
			segc_strbuf_append(b, ", ");
			segc_latex_put_break(b, LX_BREAK_ARG);
		}
		segc_latex_open(b, LX_ARG);
		latex_expr(b, segc_expr_arg(e, i), names, LV_SUM);
		segc_strbuf_appendc(b, LX_END);
	}
}

/* Non-zero when 'e' is a plain name or a non-negative integer. */
static int is_simple(const segc_expr *e)
{
	if (segc_expr_kind(e) == SEGC_SYM)
		return 1;
	return segc_expr_kind(e) == SEGC_NUM && mpq_sgn(segc_expr_value(e)) >= 0 &&
		mpz_cmp_ui(mpq_denref(segc_expr_value(e)), 1) == 0;
}

/* ------------------------------------------------------- conditions */

/* What surrounds a condition, for its parentheses. */
enum cond_level { CL_TOP, CL_OR, CL_AND, CL_NOT };

static void latex_cond(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, enum cond_level cl);

/* The LaTeX of the relation 'e'. */
static const char *relation_symbol(const segc_expr *e)
{
	const segc_builtin_info *b = segc_builtin_get(segc_expr_builtin(e));

	return b->kind == SEGC_BUILTIN_RELATION ? b->latex :
		segc_expr_name(e);
}

/* Appends the operands of the and/or 'e' joined by \wedge or \vee. */
static void latex_chain(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	int conj = segc_expr_is_builtin(e, SEGC_BUILTIN_AND);
	size_t i;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (i)
			segc_strbuf_append(b, conj ? " \\wedge " : " \\vee ");
		latex_cond(b, segc_expr_arg(e, i), names, conj ? CL_AND : CL_OR);
	}
}

/* Appends the condition 'e' at 'cl': a chain of \wedge or \vee inside
 * another one, and what \neg applies to, in parentheses, so that no
 * reader has to know which binds tighter.  A value where a condition
 * should be is typeset as a value. */
static void latex_cond(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, enum cond_level cl)
{
	const char *f = segc_expr_name(e);
	int paren;

	if (!segc_expr_is_condition(e)) {
		latex_expr(b, e, names, LV_SUM);
		return;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT)) {
		segc_strbuf_append(b, "\\neg ");
		latex_cond(b, segc_expr_arg(e, 0), names, CL_NOT);
		return;
	}
	paren = cl == CL_NOT || (cl != CL_TOP &&
		!segc_expr_is_relation_name(f));
	if (paren)
		segc_latex_open(b, LX_PAREN);
	if (segc_expr_is_relation_name(f)) {
		latex_expr(b, segc_expr_arg(e, 0), names, LV_SUM);
		segc_strbuf_appendf(b, " %s ", relation_symbol(e));
		latex_expr(b, segc_expr_arg(e, 1), names, LV_SUM);
	} else {
		latex_chain(b, e, names);
	}
	if (paren)
		segc_strbuf_appendc(b, LX_END);
}

/* Non-zero when 'e' is if(c, a, b). */
static int is_if(const segc_expr *e)
{
	return segc_expr_nargs(e) == 3 &&
		segc_expr_is_builtin(e, SEGC_BUILTIN_IF);
}

/* Appends if(c, a, b) as a cases environment; an if in the else branch
 * continues it with more cases. */
static void latex_if(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	segc_latex_open(b, LX_CASES);
	for (; is_if(e); e = segc_expr_arg(e, 2)) {
		latex_expr(b, segc_expr_arg(e, 1), names, LV_SUM);
		segc_strbuf_appendc(b, LX_SEP);
		segc_strbuf_append(b, "\\text{if } ");
		latex_cond(b, segc_expr_arg(e, 0), names, CL_TOP);
		segc_strbuf_appendc(b, LX_SEP);
	}
	latex_expr(b, e, names, LV_SUM);
	segc_strbuf_appendc(b, LX_SEP);
	segc_strbuf_append(b, "\\text{otherwise}");
	segc_strbuf_appendc(b, LX_END);
}

/* Appends the built-in function call 'e' (described by 'bi') with its
 * notation: max and min with braces, ceil and floor with their brackets,
 * log2 with parentheses (each a group that may span lines), sqrt and any
 * other from the table of built-ins on one line. */
static void put_builtin(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, const segc_builtin_info *bi)
{
	char kind = 0;

	switch (segc_expr_builtin(e)) {
	case SEGC_BUILTIN_MAX:
		segc_strbuf_append(b, "\\max");
		kind = LX_BRACE;
		break;
	case SEGC_BUILTIN_MIN:
		segc_strbuf_append(b, "\\min");
		kind = LX_BRACE;
		break;
	case SEGC_BUILTIN_CEIL:
		kind = LX_CEIL;
		break;
	case SEGC_BUILTIN_FLOOR:
		kind = LX_FLOOR;
		break;
	case SEGC_BUILTIN_LOG2:
		segc_strbuf_append(b, "\\log_2");
		kind = LX_PAREN;
		break;
	default:
		break;
	}
	if (kind) {
		segc_latex_open(b, kind);
		put_args(b, e, names);
		segc_strbuf_appendc(b, LX_END);
		return;
	}
	segc_strbuf_append(b, bi->latex);
	segc_latex_open(b, LX_KEEP);
	put_args(b, e, names);
	segc_strbuf_appendc(b, LX_END);
	segc_strbuf_append(b, bi->latex_close);
}

/* Appends the call 'e': the built-in functions with their notation, any
 * other as an upright name with its arguments in parentheses. */
static void latex_call(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, enum level lv)
{
	const char *f = segc_expr_name(e);
	enum segc_builtin id = segc_expr_builtin(e);
	const segc_builtin_info *bi = segc_builtin_get(id);

	if (is_if(e)) {
		latex_if(b, e, names);
	} else if ((id == SEGC_BUILTIN_MAXPLUS || id == SEGC_BUILTIN_MAXPLUSV)
		   && !segc_latex_maxplus(b, e, names)) {
		return;
	} else if (id == SEGC_BUILTIN_TASKPATH && !segc_latex_taskpath(b, e,
		   names)) {
		return;
	} else if (segc_expr_is_condition(e)) {
		segc_latex_open(b, LX_PAREN);
		latex_cond(b, e, names, CL_TOP);
		segc_strbuf_appendc(b, LX_END);
	} else if (id == SEGC_BUILTIN_LOG2 && segc_expr_nargs(e) == 1 &&
		   lv == LV_SUM && is_simple(segc_expr_arg(e, 0))) {
		segc_strbuf_append(b, "\\log_2 ");
		put_args(b, e, names);
	} else if (bi->kind == SEGC_BUILTIN_FUNCTION && bi->latex_close &&
		   (bi->eval == SEGC_EVAL_EXTREMUM ||
		   bi->eval == SEGC_EVAL_ROUND || segc_expr_nargs(e) == 1)) {
		/* a notation that is a power itself, 2^{x}, is in
		 * parentheses as the base of another */
		int paren = lv == LV_BASE && strchr(bi->latex, '^');

		if (paren)
			segc_latex_open(b, LX_PAREN);
		put_builtin(b, e, names, bi);
		if (paren)
			segc_strbuf_appendc(b, LX_END);
	} else {
		if (segc_latex_declared(names, f)) {
			/* a named subexpression of the counters, N_x(i) */
			segc_latex_put_symbol(b, f, names);
		} else {
			segc_strbuf_append(b, "\\mathrm{");
			segc_latex_put_escaped_name(b, f, strlen(f));
			segc_strbuf_appendc(b, '}');
		}
		segc_latex_open(b, LX_PAREN);
		put_args(b, e, names);
		segc_strbuf_appendc(b, LX_END);
	}
}

/* Appends the power 'e': a negative integer exponent as a fraction. */
static void latex_pow(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	const segc_expr *x = segc_expr_arg(e, 1);

	if (is_reciprocal(e)) {
		factors fd = { NULL, 1, &e, 1 };

		segc_latex_open(b, LX_FRAC);
		segc_strbuf_appendc(b, '1');
		segc_strbuf_appendc(b, LX_SEP);
		put_factors(b, &fd, names, 1);
		segc_strbuf_appendc(b, LX_END);
		return;
	}
	latex_expr(b, segc_expr_arg(e, 0), names, LV_BASE);
	segc_strbuf_append(b, "^{");
	segc_latex_open(b, LX_SCRIPT);
	latex_expr(b, x, names, LV_SUM);
	segc_strbuf_appendc(b, LX_END);
	segc_strbuf_appendc(b, '}');
}

/* Appends the sum binder 'e' (sum(i, lo, hi, body)). */
static void latex_sum(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names)
{
	const segc_expr *body = segc_expr_arg(e, 2);

	segc_latex_open(b, LX_SUMOP);
	segc_latex_put_symbol(b, segc_expr_name(e), names);
	segc_strbuf_appendc(b, '=');
	latex_expr(b, segc_expr_arg(e, 0), names, LV_SUM);
	segc_strbuf_appendc(b, LX_SEP);
	latex_expr(b, segc_expr_arg(e, 1), names, LV_SUM);
	segc_strbuf_appendc(b, LX_END);
	segc_strbuf_appendc(b, ' ');
	latex_expr(b, body, names, LV_PROD);
}

/* Non-zero when 'e' needs parentheses where level 'lv' puts it. */
static int needs_parens(const segc_expr *e, enum level lv)
{
	mpq_srcptr q;

	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
		return lv >= LV_PROD;
	case SEGC_MUL:
	case SEGC_SUM:
		return lv >= LV_PROD && (lv == LV_BASE ||
			segc_expr_kind(e) == SEGC_SUM);
	case SEGC_POW:
		return lv == LV_BASE;
	case SEGC_NUM:
		q = segc_expr_value(e);
		return (lv >= LV_PROD && mpq_sgn(q) < 0) || (lv == LV_BASE &&
			mpz_cmp_ui(mpq_denref(q), 1) != 0);
	case SEGC_CALL:
		if (is_if(e))
			return lv >= LV_PROD;
		return lv == LV_BASE &&
			segc_expr_is_builtin(e, SEGC_BUILTIN_LOG2);
	default:
		return 0;
	}
}

/* Appends 'e' at level 'lv', in parentheses where it needs them. */
static void latex_expr(segc_strbuf *b, const segc_expr *e,
	const segc_latex_names *names, enum level lv)
{
	int paren = needs_parens(e, lv);

	if (paren) {
		segc_latex_open(b, LX_PAREN);
		lv = LV_SUM;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		if (mpq_sgn(segc_expr_value(e)) < 0)
			segc_strbuf_appendc(b, '-');
		put_number(b, segc_expr_value(e));
		break;
	case SEGC_SYM:
		segc_latex_put_symbol(b, segc_expr_name(e), names);
		break;
	case SEGC_ADD:
		latex_add(b, e, names);
		break;
	case SEGC_MUL:
		latex_mul(b, e, names, 0);
		break;
	case SEGC_POW:
		latex_pow(b, e, names);
		break;
	case SEGC_CALL:
		latex_call(b, e, names, lv);
		break;
	case SEGC_SUM:
		latex_sum(b, e, names);
		break;
	}
	if (paren)
		segc_strbuf_appendc(b, LX_END);
}

/* 'e' as LaTeX math with the layout marks of latex_private.h, its
 * internal sum variables given readable names first. */
static char *latex_marked(const segc_expr *e, const segc_latex_names *names)
{
	segc_expr *r = segc_expr_readable_binders(e);
	segc_strbuf b;

	segc_strbuf_init(&b);
	latex_expr(&b, r, names, LV_SUM);
	segc_expr_free(r);
	return segc_strbuf_take(&b);
}

/* 'e' as LaTeX math on one line. */
char *segc_latex_expr(const segc_expr *e, const segc_latex_names *names)
{
	char *m = latex_marked(e, names);
	char *s = m ? segc_latex_layout_line(m) : NULL;

	free(m);
	return s;
}

/* 'e' broken into lines of at most 'width' points (see latex_break.c). */
char *segc_latex_expr_lines(const segc_expr *e,
	const segc_latex_names *names, double width, size_t *nlines)
{
	char *m = latex_marked(e, names);
	char *s = m ? segc_latex_layout_lines(m, width, 0, nlines) : NULL;

	free(m);
	return s;
}

/* 'e' broken into lines for an equation whose first line already holds
 * 'first' points (the left side and the equals sign). */
char *segc_latex_expr_lines_after(const segc_expr *e,
	const segc_latex_names *names, double width, double first,
	size_t *nlines)
{
	char *m = latex_marked(e, names);
	char *s = m ? segc_latex_layout_lines(m, width, first, nlines) : NULL;

	free(m);
	return s;
}
