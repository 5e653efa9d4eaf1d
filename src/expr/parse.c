/* parse.c - the parser of the expression language (FORMAT.md section 2).
 *
 * A recursive-descent parser over a one-token lookahead.  Conditions (the
 * first argument of if(c, a, b)) are relations, "not", and chains of
 * "and" and "or"; a '(' where a condition may start opens a parenthesized
 * condition when a comparison or a logical word stands directly inside it
 * (looked ahead), else an expression.  The tokens, the diagnostics and
 * the exact values of numbers are in parse_lex.c.  Expressions are built
 * through the constructors of expr.c, so the result carries their light
 * normalisation.  Every recursion (a parenthesis, a call, a unary minus,
 * an exponent) counts one level of nesting; beyond PARSE_MAX_NESTING (or
 * the context's max_depth, if smaller) the parser stops with a limit error
 * instead of exhausting the stack.  The parser stops at the first error. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/parse_private.h"
#include "base/util.h"
/* -------------------------------------------------------------- grammar */

static segc_expr *parse_expr(struct parser *P);
static segc_expr *parse_unary(struct parser *P);

/* Parses the arguments of a call after its '(' at 'open' into 'args';
 * returns how many, or -1 on error (reported; 'args' emptied). */
static long parse_args(struct parser *P, size_t open, const char *fn,
	size_t fn_len, segc_expr ***args)
{
	size_t n = 0, cap = 4;
	segc_expr *a;

	*args = segc_xmalloc(cap * sizeof(**args));
	for (;;) {
		a = parse_expr(P);
		if (!a)
			break;
		if (n == cap) {
			cap *= 2;
			*args = segc_xrealloc(*args,
				segc_xmul_size(cap, sizeof(**args)));
		}
		(*args)[n++] = a;
		if (P->tok.type == TOK_RPAREN) {
			segc_parse_advance(P);
			return (long)n;
		}
		if (P->tok.type != TOK_COMMA) {
			segc_parse_missing_close(P, open, fn, fn_len);
			break;
		}
		segc_parse_advance(P);
	}
	while (n)
		segc_expr_free((*args)[--n]);
	free(*args);
	*args = NULL;
	return -1;
}

/* Builds sum(var, lo, hi, body) from the 'n' parsed arguments of the call
 * at 'off'; NULL on error (reported).  Takes the arguments. */
static segc_expr *make_sum(struct parser *P, size_t off, long n,
	segc_expr **args)
{
	segc_expr *r = NULL;

	if (!segc_builtin_arity_ok(SEGC_BUILTIN_SUM, (size_t)n))
		segc_parse_report_at(P, SEGC_ERR_INPUT, off,
			"'sum' takes 4 arguments (variable, low, high, body), "
			"found %ld", n);
	else if (segc_expr_kind(args[0]) != SEGC_SYM)
		segc_parse_report_at(P, SEGC_ERR_INPUT, off,
			"the first argument of 'sum' must be a name");
	else
		r = segc_expr_sum(segc_expr_name(args[0]), segc_expr_copy(args[1]),
			segc_expr_copy(args[2]), segc_expr_copy(args[3]));
	while (n)
		segc_expr_free(args[--n]);
	return r;
}

/* Parses a call of the name token just read, from its '('. */
static segc_expr *parse_call(struct parser *P, size_t name_off,
	size_t name_len)
{
	const char *fn = P->text + name_off;
	char *name = segc_xstrndup(fn, name_len);
	size_t open = P->tok.start;
	segc_expr **args, *r = NULL;
	long n;

	if (!segc_parse_enter(P, open))
		goto out;
	segc_parse_advance(P);
	n = parse_args(P, open, fn, name_len, &args);
	if (n < 0)
		goto out;
	if (segc_builtin_lookup(name) == SEGC_BUILTIN_SUM)
		r = make_sum(P, name_off, n, args);
	else if (segc_parse_graph_atom(P, name_off, segc_builtin_lookup(name),
		    (size_t)n, args, &r))
		while (n)
			segc_expr_free(args[--n]);
	else
		r = segc_expr_call(name, (size_t)n, args);
	free(args);
	P->depth--;
out:
	free(name);
	return r;
}

static segc_expr *parse_if(struct parser *P);
static void reserved_word(struct parser *P);

/* ------------------------------------------------------------- values */

/* primary := number | name | call | '(' expr ')' */
static segc_expr *parse_primary(struct parser *P)
{
	size_t off = P->tok.start, len = P->tok.len;
	segc_expr *e;
	char *name;

	switch (P->tok.type) {
	case TOK_NUMBER:
		return segc_parse_number(P);
	case TOK_NAME:
		if (segc_parse_is_word(P, "if")) {
			segc_parse_advance(P);
			if (P->tok.type == TOK_LPAREN)
				return parse_if(P);
			segc_parse_lex_at(P, off);
		}
		if (segc_parse_is_word(P, "if") || segc_parse_is_logic_word(P)) {
			reserved_word(P);
			return NULL;
		}
		segc_parse_advance(P);
		if (P->tok.type == TOK_LPAREN)
			return parse_call(P, off, len);
		name = segc_xstrndup(P->text + off, len);
		e = segc_expr_sym(name);
		free(name);
		return e;
	case TOK_LPAREN:
		if (!segc_parse_enter(P, off))
			return NULL;
		segc_parse_advance(P);
		e = parse_expr(P);
		if (e && P->tok.type != TOK_RPAREN) {
			segc_parse_missing_close(P, off, NULL, 0);
			segc_expr_free(e);
			return NULL;
		}
		if (e)
			segc_parse_advance(P);
		P->depth--;
		return e;
	default:
		segc_parse_unexpected(P);
		return NULL;
	}
}

/* The number that folding puts in front of 'e' as a factor: 'e' itself,
 * or the leading factor of a product; NULL when there is none. */
static mpq_srcptr leading_number(const segc_expr *e)
{
	if (segc_expr_kind(e) == SEGC_MUL)
		e = segc_expr_arg(e, 0);
	return segc_expr_is_num(e) ? segc_expr_value(e) : NULL;
}

/* The leading number of 'e' (1 if none) multiplied into 'q'. */
static void fold_number(mpq_ptr q, const segc_expr *e)
{
	mpq_srcptr n = leading_number(e);

	if (n)
		mpq_mul(q, q, n);
}

/* Non-zero, after a limit error at offset 'off', when the folded number
 * 'q' has more than max_coeff_bits bits in its numerator or denominator:
 * products and powers of literals fold as they are parsed, and must stop
 * before they grow without bound. */
static int too_many_bits(struct parser *P, size_t off, mpq_srcptr q)
{
	unsigned long cap = P->limits->max_coeff_bits;

	if (!cap || (mpz_sizeinbase(mpq_numref(q), 2) <= cap &&
	    mpz_sizeinbase(mpq_denref(q), 2) <= cap))
		return 0;
	segc_parse_report_at(P, SEGC_ERR_LIMIT, off, "the size in bits of a coefficient "
		"exceeds the limit %lu (max_coeff_bits)", cap);
	return 1;
}

/* 'e', or NULL after a limit error at offset 'off' when its leading
 * number has too many bits (a folded power of literals). */
static segc_expr *bounded(struct parser *P, size_t off, segc_expr *e)
{
	mpq_srcptr n = e ? leading_number(e) : NULL;

	if (!n || !too_many_bits(P, off, n))
		return e;
	segc_expr_free(e);
	return NULL;
}

/* power := primary ('^' unary)? */
static segc_expr *parse_power(struct parser *P)
{
	segc_expr *base = parse_primary(P), *exponent;
	size_t off;

	if (!base || P->tok.type != TOK_CARET)
		return base;
	off = P->tok.start;
	if (!segc_parse_enter(P, off)) {
		segc_expr_free(base);
		return NULL;
	}
	segc_parse_advance(P);
	exponent = parse_unary(P);
	P->depth--;
	if (!exponent) {
		segc_expr_free(base);
		return NULL;
	}
	return bounded(P, off, segc_expr_pow(base, exponent));
}

/* unary := '-' unary | power */
static segc_expr *parse_unary(struct parser *P)
{
	segc_expr *e;

	if (P->tok.type != TOK_MINUS)
		return parse_power(P);
	if (!segc_parse_enter(P, P->tok.start))
		return NULL;
	segc_parse_advance(P);
	e = parse_unary(P);
	P->depth--;
	return e ? segc_expr_neg(e) : NULL;
}

/* The operands of a chain of '+'/'-' or '*'/'/', built into one node at
 * the end: a sum or product of more than FLATTEN_MAX operands (see
 * expr.c) is not flattened into an enclosing one, so folding the chain
 * two at a time would nest it where the printed text does not. */
struct chain {
	segc_expr **v;
	size_t n, cap;
};

/* Appends 'e' (taken) to 'c'. */
static void chain_push(struct chain *c, segc_expr *e)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->v = segc_xrealloc(c->v, segc_xmul_size(c->cap,
			sizeof(*c->v)));
	}
	c->v[c->n++] = e;
}

/* Releases the operands of 'c' and its array. */
static void chain_free(struct chain *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		segc_expr_free(c->v[i]);
	free(c->v);
}

/* term := unary (('*' | '/') unary)* */
static segc_expr *parse_term(struct parser *P)
{
	segc_expr *left = parse_unary(P), *right;
	struct chain c = { NULL, 0, 0 };
	enum token_type op;
	segc_expr *e = NULL;
	int ok = 1;
	mpq_t folded;

	if (!left || (P->tok.type != TOK_STAR && P->tok.type != TOK_SLASH))
		return left;
	mpq_init(folded);
	mpq_set_ui(folded, 1, 1);
	fold_number(folded, left);
	chain_push(&c, left);
	while (P->tok.type == TOK_STAR || P->tok.type == TOK_SLASH) {
		size_t off = P->tok.start;

		op = P->tok.type;
		segc_parse_advance(P);
		right = parse_unary(P);
		if (!right) {
			ok = 0;
			break;
		}
		if (op == TOK_SLASH)
			right = segc_expr_pow(right, segc_expr_int(-1));
		fold_number(folded, right);
		chain_push(&c, right);
		if (too_many_bits(P, off, folded)) {
			ok = 0;
			break;
		}
	}
	if (ok) {
		e = segc_expr_mul(c.n, c.v);
		c.n = 0;
	}
	chain_free(&c);
	mpq_clear(folded);
	return e;
}

/* expr := term (('+' | '-') term)* */
static segc_expr *parse_expr(struct parser *P)
{
	segc_expr *left = parse_term(P), *right;
	struct chain c = { NULL, 0, 0 };
	enum token_type op;
	segc_expr *e = NULL;
	int ok = 1;

	if (!left || (P->tok.type != TOK_PLUS && P->tok.type != TOK_MINUS))
		return left;
	chain_push(&c, left);
	while (P->tok.type == TOK_PLUS || P->tok.type == TOK_MINUS) {
		op = P->tok.type;
		segc_parse_advance(P);
		right = parse_term(P);
		if (!right) {
			ok = 0;
			break;
		}
		chain_push(&c, op == TOK_PLUS ? right : segc_expr_neg(right));
	}
	if (ok) {
		e = segc_expr_add(c.n, c.v);
		c.n = 0;
	}
	chain_free(&c);
	return e;
}

/* ----------------------------------------------------------- conditions */

static segc_expr *parse_cond(struct parser *P);

/* Remembers the '(' at offset 'off' as one that opens a condition. */
static void push_cond_open(struct parser *P, size_t off)
{
	if (P->n_cond_opens == P->cap_cond_opens) {
		P->cap_cond_opens = P->cap_cond_opens ?
			2 * P->cap_cond_opens : 16;
		P->cond_opens = segc_xrealloc(P->cond_opens,
			segc_xmul_size(P->cap_cond_opens,
			sizeof(*P->cond_opens)));
	}
	P->cond_opens[P->n_cond_opens++] = off;
}

/* Non-zero when the '(' at offset 'off' is known to open a condition. */
static int known_cond_open(const struct parser *P, size_t off)
{
	size_t i;

	for (i = 0; i < P->n_cond_opens; i++)
		if (P->cond_opens[i] == off)
			return 1;
	return 0;
}

/* Non-zero when the '(' of the current token opens a condition: a
 * comparison, '=' or a logical word stands inside it, outside the
 * parentheses of any call.  Looks ahead without consuming; the '('
 * around the word found are remembered, so that nested parenthesized
 * conditions are not scanned again. */
static int group_is_condition(struct parser *P)
{
	struct parser Q = *P;
	size_t depth = 0, in_call = 0;
	int after_name = 0;

	if (known_cond_open(P, P->tok.start))
		return 1;
	P->n_cond_opens = 0;
	for (; Q.tok.type != TOK_END; after_name = Q.tok.type == TOK_NAME,
	     segc_parse_advance(&Q)) {
		if (Q.tok.type == TOK_LPAREN && (in_call || after_name)) {
			in_call++;
		} else if (Q.tok.type == TOK_LPAREN) {
			depth++;
			push_cond_open(P, Q.tok.start);
		} else if (Q.tok.type == TOK_RPAREN && in_call) {
			in_call--;
		} else if (Q.tok.type == TOK_RPAREN) {
			P->n_cond_opens--;
			if (--depth == 0)
				break;
		} else if (!in_call && (segc_parse_is_relation(Q.tok.type) ||
			   Q.tok.type == TOK_ASSIGN || segc_parse_is_logic_word(&Q))) {
			return 1;
		}
	}
	P->n_cond_opens = 0;
	return 0;
}

/* Reports the current token where a comparison should follow a value in
 * a condition. */
static void condition_expected(struct parser *P)
{
	segc_strbuf msg;

	if (segc_parse_logic_character(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, "the condition of 'if' compares two values: "
		"expected '<', '<=', '>', '>=', '==' or '!=', found ");
	segc_parse_describe_token(P, &msg);
	segc_parse_report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
}

/* Reports what follows a complete condition where ',' or ')' closing it
 * was expected ('open' is the offset of the '(' it is in, of 'if' when
 * 'in_if'). */
static void after_cond_error(struct parser *P, size_t open, int in_if)
{
	enum token_type t = P->tok.type;

	if (segc_parse_is_relation(t))
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "comparisons do not "
			"chain: join them with 'and' (a < b and b < c)");
	else if (t == TOK_PLUS || t == TOK_MINUS || t == TOK_STAR ||
		 t == TOK_SLASH || t == TOK_CARET)
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "a condition is not "
			"a value: write if(condition, value, value) to use one");
	else if (in_if && t == TOK_RPAREN)
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' takes 3 "
			"arguments (condition, value where it holds, value "
			"elsewhere), found 1");
	else
		segc_parse_missing_close(P, open, in_if ? "if" : NULL, 2);
}

/* rel := expr ('<' | '<=' | '>' | '>=' | '==' | '!=') expr
 *      | 'not' rel | '(' cond ')' */
static segc_expr *parse_rel(struct parser *P)
{
	size_t open = P->tok.start;
	segc_expr *args[2];
	char op[3];

	if (segc_parse_is_word(P, "not") || (P->tok.type == TOK_LPAREN &&
	    group_is_condition(P))) {
		int negation = P->tok.type == TOK_NAME;

		if (!segc_parse_enter(P, open))
			return NULL;
		segc_parse_advance(P);
		args[0] = negation ? parse_rel(P) : parse_cond(P);
		if (args[0] && !negation && P->tok.type != TOK_RPAREN) {
			after_cond_error(P, open, 0);
			segc_expr_free(args[0]);
			args[0] = NULL;
		} else if (args[0] && !negation) {
			segc_parse_advance(P);
		}
		P->depth--;
		return args[0] && negation ? segc_expr_call("not", 1, args) :
			args[0];
	}
	args[0] = parse_expr(P);
	if (!args[0])
		return NULL;
	if (!segc_parse_is_relation(P->tok.type)) {
		if (P->tok.type == TOK_ASSIGN)
			segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'=' is not a "
				"comparison: write '==' to test equality");
		else
			condition_expected(P);
		segc_expr_free(args[0]);
		return NULL;
	}
	memcpy(op, P->text + P->tok.start, P->tok.len);
	op[P->tok.len] = '\0';
	segc_parse_advance(P);
	args[1] = parse_expr(P);
	if (!args[1]) {
		segc_expr_free(args[0]);
		return NULL;
	}
	return segc_expr_call(op, 2, args);
}

/* A chain of operands joined by the word 'word' ("and" or "or") built
 * into one call, operands that are calls of 'word' themselves spliced in;
 * one operand alone is itself.  NULL on error (reported). */
static segc_expr *parse_chain(struct parser *P, const char *word)
{
	struct chain c = { NULL, 0, 0 };
	int conj = !strcmp(word, "and");
	segc_expr *e;
	size_t i;

	for (;;) {
		e = conj ? parse_rel(P) : parse_chain(P, "and");
		if (!e) {
			chain_free(&c);
			return NULL;
		}
		if (segc_expr_kind(e) == SEGC_CALL &&
		    !strcmp(segc_expr_name(e), word)) {
			for (i = 0; i < segc_expr_nargs(e); i++)
				chain_push(&c, segc_expr_copy(segc_expr_arg(e,
					i)));
			segc_expr_free(e);
		} else {
			chain_push(&c, e);
		}
		if (!segc_parse_is_word(P, word))
			break;
		segc_parse_advance(P);
	}
	e = c.n == 1 ? c.v[0] : segc_expr_call(word, c.n, c.v);
	free(c.v);
	return e;
}

/* cond := rel (('and' | 'or') rel)*, 'and' binding tighter than 'or' */
static segc_expr *parse_cond(struct parser *P)
{
	return parse_chain(P, "or");
}

/* Parses the arguments of if(cond, a, b) after the name 'if', from its
 * '('. */
static segc_expr *parse_if(struct parser *P)
{
	size_t open = P->tok.start, n = 0;
	segc_expr *args[3];

	if (!segc_parse_enter(P, open))
		return NULL;
	segc_parse_advance(P);
	args[n] = parse_cond(P);
	while (args[n] && ++n < 3) {
		if (P->tok.type != TOK_COMMA) {
			if (n == 1)
				after_cond_error(P, open, 1);
			else if (P->tok.type == TOK_RPAREN)
				segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start,
					"'if' takes 3 arguments (condition, "
					"value where it holds, value "
					"elsewhere), found 2");
			else
				segc_parse_missing_close(P, open, "if", 2);
			break;
		}
		segc_parse_advance(P);
		args[n] = parse_expr(P);
	}
	if (n == 3 && P->tok.type == TOK_COMMA)
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' takes 3 "
			"arguments (condition, value where it holds, value "
			"elsewhere), found more");
	else if (n == 3 && P->tok.type != TOK_RPAREN)
		segc_parse_missing_close(P, open, "if", 2);
	P->depth--;
	if (n == 3 && !P->failed) {
		segc_parse_advance(P);
		return segc_expr_call("if", 3, args);
	}
	while (n)
		segc_expr_free(args[--n]);
	return NULL;
}

/* Reports a reserved word standing where a value is expected, at the
 * current token. */
static void reserved_word(struct parser *P)
{
	if (segc_parse_is_word(P, "if"))
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' is a reserved "
			"word: write if(condition, value where it holds, value "
			"elsewhere)");
	else
		segc_parse_misplaced_condition(P);
}

/* Parses 'text' as a whole expression; see segc.h. */
segc_expr *segc_expr_parse(segc_ctx *ctx, const char *text,
	const segc_where *where)
{
	struct parser P;
	segc_expr *e;

	memset(&P, 0, sizeof(P));
	P.ctx = ctx;
	P.limits = segc_ctx_limits(ctx);
	P.where = where;
	P.text = text ? text : "";
	P.max_depth = P.limits->max_depth < PARSE_MAX_NESTING ?
		P.limits->max_depth : PARSE_MAX_NESTING;
	segc_parse_lex_at(&P, 0);
	if (P.tok.type == TOK_END) {
		segc_parse_report_at(&P, SEGC_ERR_INPUT, P.tok.start, "empty expression");
		return NULL;
	}
	e = parse_expr(&P);
	if (e && P.tok.type != TOK_END) {
		segc_parse_unexpected(&P);
		segc_expr_free(e);
		e = NULL;
	}
	free(P.cond_opens);
	return e;
}
