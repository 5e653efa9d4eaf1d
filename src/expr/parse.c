/* parse.c - the parser of the expression language (FORMAT.md section 2).
 *
 * A recursive-descent parser over a one-token lookahead.  Conditions (the
 * first argument of if(c, a, b)) are relations, "not", and chains of
 * "and" and "or"; a '(' where a condition may start opens a parenthesized
 * condition when a comparison or a logical word stands directly inside it
 * (looked ahead), else an expression.  Numbers are
 * read exactly as rationals.  Expressions are built through the
 * constructors of expr.c, so the result carries their light
 * normalisation.  Every recursion (a parenthesis, a call, a unary minus,
 * an exponent) counts one level of nesting; beyond PARSE_MAX_NESTING (or
 * the context's max_depth, if smaller) the parser stops with a limit error
 * instead of exhausting the stack.  The parser stops at the first error. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "base/util.h"

/* The deepest nesting of parentheses, calls, minus signs and exponents
 * that the parser accepts. */
#define PARSE_MAX_NESTING 1000UL

enum token_type {
	TOK_END, TOK_NUMBER, TOK_NAME, TOK_PLUS, TOK_MINUS, TOK_STAR,
	TOK_SLASH, TOK_CARET, TOK_LPAREN, TOK_RPAREN, TOK_COMMA, TOK_BAD,
	TOK_LT, TOK_LE, TOK_GT, TOK_GE, TOK_EQ, TOK_NE, TOK_ASSIGN
};

/* A token: its type and where it stands in the text. */
struct token {
	enum token_type type;
	size_t start;  /* offset in the text */
	size_t len;
};

/* The state of one parse. */
struct parser {
	segc_ctx *ctx;
	const segc_limits *limits;
	const segc_where *where;
	const char *text;
	struct token tok;      /* the lookahead */
	unsigned long depth;
	unsigned long max_depth;
	int failed;
	/* the offsets of the '(' known to open conditions: those enclosing
	 * the comparison or logical word the last look-ahead found */
	size_t *cond_opens;
	size_t n_cond_opens, cap_cond_opens;
};

/* ---------------------------------------------------------------- lexer */

/* Non-zero for a character that may start a name. */
static int is_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Non-zero for a character that may continue a name. */
static int is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Non-zero for an ASCII digit. */
static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The offset after the digits starting at 'i'. */
static size_t skip_digits(const char *s, size_t i)
{
	while (is_digit((unsigned char)s[i]))
		i++;
	return i;
}

/* The end of the number starting at 'i': digits, fraction, exponent, and
 * any letters, digits or dots glued to it (a malformed number, reported
 * when converted). */
static size_t scan_number(const char *s, size_t i)
{
	i = skip_digits(s, i);
	if (s[i] == '.')
		i = skip_digits(s, i + 1);
	if ((s[i] == 'e' || s[i] == 'E') &&
	    (is_digit((unsigned char)s[i + 1]) ||
	     ((s[i + 1] == '+' || s[i + 1] == '-') &&
	      is_digit((unsigned char)s[i + 2]))))
		i = skip_digits(s, i + 2);
	while (is_name_char((unsigned char)s[i]) || s[i] == '.')
		i++;
	return i;
}

/* The type of the one-character token 'c' (TOK_BAD if none). */
static enum token_type punct_type(char c)
{
	static const char chars[] = "+-*/^(),";
	static const enum token_type types[] = {
		TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_CARET,
		TOK_LPAREN, TOK_RPAREN, TOK_COMMA
	};
	const char *p = c ? strchr(chars, c) : NULL;

	return p ? types[p - chars] : TOK_BAD;
}

/* The type of the comparison (or '=') token at 's', and its length in
 * '*len'; TOK_BAD when there is none. */
static enum token_type relation_type(const char *s, size_t *len)
{
	int eq = s[1] == '=';

	*len = eq ? 2 : 1;
	switch (s[0]) {
	case '<':
		return eq ? TOK_LE : TOK_LT;
	case '>':
		return eq ? TOK_GE : TOK_GT;
	case '=':
		return eq ? TOK_EQ : TOK_ASSIGN;
	case '!':
		if (eq)
			return TOK_NE;
		break;
	default:
		break;
	}
	*len = 1;
	return TOK_BAD;
}

/* Reads the token at offset 'i' (after white space) into the lookahead. */
static void lex_at(struct parser *P, size_t i)
{
	const char *s = P->text;
	size_t end;

	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	P->tok.start = i;
	if (!s[i]) {
		P->tok.type = TOK_END;
		P->tok.len = 0;
		return;
	}
	if (is_digit((unsigned char)s[i]) ||
	    (s[i] == '.' && is_digit((unsigned char)s[i + 1]))) {
		P->tok.type = TOK_NUMBER;
		end = scan_number(s, i);
	} else if (is_name_start((unsigned char)s[i])) {
		P->tok.type = TOK_NAME;
		for (end = i; is_name_char((unsigned char)s[end]); end++)
			;
	} else if (strchr("<>=!", s[i])) {
		size_t len;

		P->tok.type = relation_type(s + i, &len);
		end = i + len;
	} else {
		P->tok.type = punct_type(s[i]);
		end = i + 1;
	}
	P->tok.len = end - i;
}

/* Moves to the next token. */
static void advance(struct parser *P)
{
	lex_at(P, P->tok.start + P->tok.len);
}

/* Non-zero when the current token is the name 'word'. */
static int is_word(const struct parser *P, const char *word)
{
	return P->tok.type == TOK_NAME && P->tok.len == strlen(word) &&
		!strncmp(P->text + P->tok.start, word, P->tok.len);
}

/* Non-zero when the token type 't' is a comparison. */
static int is_relation(enum token_type t)
{
	return t >= TOK_LT && t <= TOK_NE;
}

/* Non-zero when the current token is "and", "or" or "not". */
static int is_logic_word(const struct parser *P)
{
	return is_word(P, "and") || is_word(P, "or") || is_word(P, "not");
}

/* --------------------------------------------------------------- errors */

/* The line (0-based, within the text) and column (1-based, within that
 * line) of offset 'off'. */
static void text_position(const struct parser *P, size_t off,
	unsigned long *line, unsigned long *col)
{
	size_t i, line_start = 0;

	*line = 0;
	for (i = 0; i < off && P->text[i]; i++) {
		if (P->text[i] == '\n') {
			(*line)++;
			line_start = i + 1;
		}
	}
	*col = (unsigned long)(off - line_start) + 1;
}

/* Non-zero when positions are reported as columns of the document (the
 * text's own column is known), not of the value. */
static int absolute_columns(const struct parser *P)
{
	return P->where && P->where->col;
}

/* Appends a phrase naming offset 'off': "column 7" (of the document's
 * line, or with 'relative' "column 7 of the value"); with the line when
 * the text spans several. */
static void append_position(const struct parser *P, segc_strbuf *sb,
	size_t off, int with_line)
{
	unsigned long line, col;

	text_position(P, off, &line, &col);
	if (absolute_columns(P)) {
		if (line == 0)
			col += P->where->col - 1;
		if (with_line)
			segc_strbuf_appendf(sb, "line %lu, ",
				P->where->line + line);
		segc_strbuf_appendf(sb, "column %lu", col);
		return;
	}
	if (line)
		segc_strbuf_appendf(sb, "line %lu, ", line + 1);
	segc_strbuf_appendf(sb, "column %lu of the value", col);
}

/* Records the error 'code' at offset 'off' with the message in 'msg'
 * (consumed), and marks the parse failed. */
static void report(struct parser *P, enum segc_status code, size_t off,
	segc_strbuf *msg)
{
	const segc_where *w = P->where;
	unsigned long line = w ? w->line : 0, col = 0, tl, tc;
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	if (w && w->what)
		segc_strbuf_appendf(&sb, "%s: ", w->what);
	segc_strbuf_append(&sb, segc_strbuf_str(msg));
	if (absolute_columns(P)) {
		text_position(P, off, &tl, &tc);
		line += tl;
		col = tl ? tc : w->col + tc - 1;
	} else {
		segc_strbuf_append(&sb, " at ");
		append_position(P, &sb, off, 0);
	}
	segc_error(P->ctx, code, w ? w->file : NULL, line, col, "%s",
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	segc_strbuf_free(msg);
	P->failed = 1;
}

/* Records a printf-style error 'code' at offset 'off'. */
static void report_at(struct parser *P, enum segc_status code, size_t off,
	const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void report_at(struct parser *P, enum segc_status code, size_t off,
	const char *fmt, ...)
{
	segc_strbuf msg;
	va_list ap;

	segc_strbuf_init(&msg);
	va_start(ap, fmt);
	segc_strbuf_vappendf(&msg, fmt, ap);
	va_end(ap);
	report(P, code, off, &msg);
}

/* Appends a description of the current token: "')'", "name 'x'", "end of
 * the expression"... */
static void describe_token(const struct parser *P, segc_strbuf *sb)
{
	const char *s = P->text + P->tok.start;
	unsigned char c = (unsigned char)*s;
	int n = P->tok.len > 40 ? 40 : (int)P->tok.len;
	const char *more = P->tok.len > 40 ? "..." : "";

	switch (P->tok.type) {
	case TOK_END:
		segc_strbuf_append(sb, "end of the expression");
		break;
	case TOK_NUMBER:
		segc_strbuf_appendf(sb, "number '%.*s%s'", n, s, more);
		break;
	case TOK_NAME:
		segc_strbuf_appendf(sb, "name '%.*s%s'", n, s, more);
		break;
	case TOK_BAD:
		if (c >= 0x20 && c < 0x7f)
			segc_strbuf_appendf(sb, "character '%c'", c);
		else
			segc_strbuf_appendf(sb, "byte 0x%02x", c);
		break;
	default:
		segc_strbuf_appendf(sb, "'%.*s'", n, s);
		break;
	}
}

/* Reports the current token when it is '&', '|' or '!', written for a
 * logical word, and returns 1; else returns 0. */
static int logic_character(struct parser *P)
{
	char c = P->text[P->tok.start];

	if (P->tok.type != TOK_BAD || (c != '&' && c != '|' && c != '!'))
		return 0;
	report_at(P, SEGC_ERR_INPUT, P->tok.start, "unexpected character "
		"'%c' (conditions are written with 'and', 'or', 'not')", c);
	return 1;
}

/* Reports the current token when it is one that stands only in a
 * condition (a comparison, "and", "or", "not") or is a likely mistake for
 * one ('=', '&', '|', '!') and returns 1; else returns 0. */
static int misplaced_condition(struct parser *P)
{
	const char *s = P->text + P->tok.start;
	int n = (int)P->tok.len;

	if (is_relation(P->tok.type)) {
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "a comparison ('%.*s') "
			"may stand only in the condition of 'if' (its first "
			"argument)", n, s);
	} else if (P->tok.type == TOK_ASSIGN) {
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "'=' is not an "
			"operator: compare with '==' in the condition of 'if'");
	} else if (is_logic_word(P)) {
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "'%.*s' is a reserved "
			"word of conditions, which stand only in the condition "
			"of 'if' (its first argument)", n, s);
	} else {
		return logic_character(P);
	}
	return 1;
}

/* Reports the current token as unexpected. */
static void unexpected(struct parser *P)
{
	segc_strbuf msg;

	if (misplaced_condition(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, "unexpected ");
	describe_token(P, &msg);
	report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
}

/* Non-zero when offsets 'a' and 'b' are on the same line of the text. */
static int same_line(const struct parser *P, size_t a, size_t b)
{
	unsigned long la, lb, c;

	text_position(P, a, &la, &c);
	text_position(P, b, &lb, &c);
	return la == lb;
}

/* Reports that ')' is missing for the '(' at offset 'open' (of a call of
 * 'fn' when not NULL). */
static void missing_close(struct parser *P, size_t open, const char *fn,
	size_t fn_len)
{
	segc_strbuf msg;

	if (misplaced_condition(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, fn ? "expected ',' or ')'" : "expected ')'");
	segc_strbuf_append(&msg, " to close '(' ");
	if (fn)
		segc_strbuf_appendf(&msg, "of '%.*s' ", (int)fn_len, fn);
	segc_strbuf_append(&msg, "at ");
	append_position(P, &msg, open, !same_line(P, open, P->tok.start));
	segc_strbuf_append(&msg, ", found ");
	describe_token(P, &msg);
	report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
}

/* Enters one more level of nesting at offset 'off'; 0 when too deep
 * (reported). */
static int enter(struct parser *P, size_t off)
{
	if (++P->depth <= P->max_depth)
		return 1;
	report_at(P, SEGC_ERR_LIMIT, off,
		"expression nested too deeply (more than %lu levels)",
		P->max_depth);
	return 0;
}

/* ------------------------------------------------------------- numbers */

/* Reads the decimal exponent of the literal at 's' (after 'e'), bounded by
 * 'max'; -1 when larger. */
static int read_exponent(const char *s, size_t len, unsigned long max,
	long *e)
{
	unsigned long v = 0;
	size_t i = 0;
	int neg = 0;

	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		i++;
	}
	for (; i < len; i++) {
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > max || v > LONG_MAX / 10)
			return -1;
	}
	*e = neg ? -(long)v : (long)v;
	return 0;
}

/* The parts of a number literal: digits before and after the point, and
 * the exponent's text. */
struct literal {
	const char *int_part, *frac_part, *exp_part;
	size_t int_len, frac_len, exp_len;
};

/* Splits the literal 's' of 'len' characters; 0 if it is malformed. */
static int split_literal(const char *s, size_t len, struct literal *lit)
{
	size_t i = skip_digits(s, 0);

	lit->int_part = s;
	lit->int_len = i;
	lit->frac_part = s + i;
	lit->frac_len = 0;
	lit->exp_part = s + len;
	lit->exp_len = 0;
	if (i < len && s[i] == '.') {
		lit->frac_part = s + i + 1;
		i = skip_digits(s, i + 1);
		lit->frac_len = (size_t)(s + i - lit->frac_part);
		if (!lit->frac_len)
			return 0;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		lit->exp_part = s + i + 1;
		lit->exp_len = len - i - 1;
		i = (size_t)(lit->exp_part - s);
		if (s[i] == '+' || s[i] == '-')
			i++;
		if (i == len || skip_digits(s, i) != len)
			return 0;
		i = len;
	}
	return i == len;
}

/* The rational value of the literal 'lit' with decimal exponent 'e'. */
static segc_expr *literal_value(const struct literal *lit, long e)
{
	char *digits = segc_xmalloc(lit->int_len + lit->frac_len + 2);
	segc_expr *r;
	mpz_t scale;
	mpq_t q;

	memcpy(digits, "0", 1);
	memcpy(digits + 1, lit->int_part, lit->int_len);
	memcpy(digits + 1 + lit->int_len, lit->frac_part, lit->frac_len);
	digits[1 + lit->int_len + lit->frac_len] = '\0';
	mpq_init(q);
	mpz_init(scale);
	mpz_set_str(mpq_numref(q), digits, 10);
	e -= (long)lit->frac_len;
	mpz_ui_pow_ui(scale, 10, (unsigned long)(e < 0 ? -e : e));
	if (e < 0)
		mpz_set(mpq_denref(q), scale);
	else
		mpz_mul(mpq_numref(q), mpq_numref(q), scale);
	mpq_canonicalize(q);
	r = segc_expr_num(q);
	mpq_clear(q);
	mpz_clear(scale);
	free(digits);
	return r;
}

/* Converts the number token; NULL on error (reported). */
static segc_expr *parse_number(struct parser *P)
{
	const char *s = P->text + P->tok.start;
	unsigned long max_digits = P->limits->max_literal_digits <
		SEGC_MAX_LITERAL_DIGITS_CEILING ?
		P->limits->max_literal_digits : SEGC_MAX_LITERAL_DIGITS_CEILING;
	struct literal lit;
	long e = 0;

	if (!split_literal(s, P->tok.len, &lit)) {
		report_at(P, SEGC_ERR_INPUT, P->tok.start,
			"malformed number '%.*s'",
			P->tok.len > 40 ? 40 : (int)P->tok.len, s);
		return NULL;
	}
	if (lit.int_len + lit.frac_len > max_digits) {
		report_at(P, SEGC_ERR_LIMIT, P->tok.start,
			"number literal too long (more than %lu digits)",
			max_digits);
		return NULL;
	}
	if (lit.exp_len && read_exponent(lit.exp_part, lit.exp_len,
	    10 * max_digits, &e)) {
		report_at(P, SEGC_ERR_LIMIT, P->tok.start,
			"exponent of number literal too large (more than %lu)",
			10 * max_digits);
		return NULL;
	}
	advance(P);
	return literal_value(&lit, e);
}

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
			advance(P);
			return (long)n;
		}
		if (P->tok.type != TOK_COMMA) {
			missing_close(P, open, fn, fn_len);
			break;
		}
		advance(P);
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
		report_at(P, SEGC_ERR_INPUT, off,
			"'sum' takes 4 arguments (variable, low, high, body), "
			"found %ld", n);
	else if (segc_expr_kind(args[0]) != SEGC_SYM)
		report_at(P, SEGC_ERR_INPUT, off,
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

	if (!enter(P, open))
		goto out;
	advance(P);
	n = parse_args(P, open, fn, name_len, &args);
	if (n < 0)
		goto out;
	if (segc_builtin_lookup(name) == SEGC_BUILTIN_SUM)
		r = make_sum(P, name_off, n, args);
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
		return parse_number(P);
	case TOK_NAME:
		if (is_word(P, "if")) {
			advance(P);
			if (P->tok.type == TOK_LPAREN)
				return parse_if(P);
			lex_at(P, off);
		}
		if (is_word(P, "if") || is_logic_word(P)) {
			reserved_word(P);
			return NULL;
		}
		advance(P);
		if (P->tok.type == TOK_LPAREN)
			return parse_call(P, off, len);
		name = segc_xstrndup(P->text + off, len);
		e = segc_expr_sym(name);
		free(name);
		return e;
	case TOK_LPAREN:
		if (!enter(P, off))
			return NULL;
		advance(P);
		e = parse_expr(P);
		if (e && P->tok.type != TOK_RPAREN) {
			missing_close(P, off, NULL, 0);
			segc_expr_free(e);
			return NULL;
		}
		if (e)
			advance(P);
		P->depth--;
		return e;
	default:
		unexpected(P);
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
	report_at(P, SEGC_ERR_LIMIT, off, "the size in bits of a coefficient "
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
	if (!enter(P, off)) {
		segc_expr_free(base);
		return NULL;
	}
	advance(P);
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
	if (!enter(P, P->tok.start))
		return NULL;
	advance(P);
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
		advance(P);
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
		advance(P);
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
	     advance(&Q)) {
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
		} else if (!in_call && (is_relation(Q.tok.type) ||
			   Q.tok.type == TOK_ASSIGN || is_logic_word(&Q))) {
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

	if (logic_character(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, "the condition of 'if' compares two values: "
		"expected '<', '<=', '>', '>=', '==' or '!=', found ");
	describe_token(P, &msg);
	report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
}

/* Reports what follows a complete condition where ',' or ')' closing it
 * was expected ('open' is the offset of the '(' it is in, of 'if' when
 * 'in_if'). */
static void after_cond_error(struct parser *P, size_t open, int in_if)
{
	enum token_type t = P->tok.type;

	if (is_relation(t))
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "comparisons do not "
			"chain: join them with 'and' (a < b and b < c)");
	else if (t == TOK_PLUS || t == TOK_MINUS || t == TOK_STAR ||
		 t == TOK_SLASH || t == TOK_CARET)
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "a condition is not "
			"a value: write if(condition, value, value) to use one");
	else if (in_if && t == TOK_RPAREN)
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' takes 3 "
			"arguments (condition, value where it holds, value "
			"elsewhere), found 1");
	else
		missing_close(P, open, in_if ? "if" : NULL, 2);
}

/* rel := expr ('<' | '<=' | '>' | '>=' | '==' | '!=') expr
 *      | 'not' rel | '(' cond ')' */
static segc_expr *parse_rel(struct parser *P)
{
	size_t open = P->tok.start;
	segc_expr *args[2];
	char op[3];

	if (is_word(P, "not") || (P->tok.type == TOK_LPAREN &&
	    group_is_condition(P))) {
		int negation = P->tok.type == TOK_NAME;

		if (!enter(P, open))
			return NULL;
		advance(P);
		args[0] = negation ? parse_rel(P) : parse_cond(P);
		if (args[0] && !negation && P->tok.type != TOK_RPAREN) {
			after_cond_error(P, open, 0);
			segc_expr_free(args[0]);
			args[0] = NULL;
		} else if (args[0] && !negation) {
			advance(P);
		}
		P->depth--;
		return args[0] && negation ? segc_expr_call("not", 1, args) :
			args[0];
	}
	args[0] = parse_expr(P);
	if (!args[0])
		return NULL;
	if (!is_relation(P->tok.type)) {
		if (P->tok.type == TOK_ASSIGN)
			report_at(P, SEGC_ERR_INPUT, P->tok.start, "'=' is not a "
				"comparison: write '==' to test equality");
		else
			condition_expected(P);
		segc_expr_free(args[0]);
		return NULL;
	}
	memcpy(op, P->text + P->tok.start, P->tok.len);
	op[P->tok.len] = '\0';
	advance(P);
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
		if (!is_word(P, word))
			break;
		advance(P);
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

	if (!enter(P, open))
		return NULL;
	advance(P);
	args[n] = parse_cond(P);
	while (args[n] && ++n < 3) {
		if (P->tok.type != TOK_COMMA) {
			if (n == 1)
				after_cond_error(P, open, 1);
			else if (P->tok.type == TOK_RPAREN)
				report_at(P, SEGC_ERR_INPUT, P->tok.start,
					"'if' takes 3 arguments (condition, "
					"value where it holds, value "
					"elsewhere), found 2");
			else
				missing_close(P, open, "if", 2);
			break;
		}
		advance(P);
		args[n] = parse_expr(P);
	}
	if (n == 3 && P->tok.type == TOK_COMMA)
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' takes 3 "
			"arguments (condition, value where it holds, value "
			"elsewhere), found more");
	else if (n == 3 && P->tok.type != TOK_RPAREN)
		missing_close(P, open, "if", 2);
	P->depth--;
	if (n == 3 && !P->failed) {
		advance(P);
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
	if (is_word(P, "if"))
		report_at(P, SEGC_ERR_INPUT, P->tok.start, "'if' is a reserved "
			"word: write if(condition, value where it holds, value "
			"elsewhere)");
	else
		misplaced_condition(P);
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
	lex_at(&P, 0);
	if (P.tok.type == TOK_END) {
		report_at(&P, SEGC_ERR_INPUT, P.tok.start, "empty expression");
		return NULL;
	}
	e = parse_expr(&P);
	if (e && P.tok.type != TOK_END) {
		unexpected(&P);
		segc_expr_free(e);
		e = NULL;
	}
	free(P.cond_opens);
	return e;
}
