/* parse_lex.c - the tokens of the expression language (FORMAT.md section
 * 2) for the parser (parse.c): the lexer over a one-token lookahead, the
 * diagnostics with their positions in the text, the guard on nesting, and
 * the exact values of number literals. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/parse_private.h"
#include "base/util.h"

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
void segc_parse_lex_at(struct parser *P, size_t i)
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
void segc_parse_advance(struct parser *P)
{
	segc_parse_lex_at(P, P->tok.start + P->tok.len);
}

/* Non-zero when the current token is the name 'word'. */
int segc_parse_is_word(const struct parser *P, const char *word)
{
	return P->tok.type == TOK_NAME && P->tok.len == strlen(word) &&
		!strncmp(P->text + P->tok.start, word, P->tok.len);
}

/* Non-zero when the token type 't' is a comparison. */
int segc_parse_is_relation(enum token_type t)
{
	return t >= TOK_LT && t <= TOK_NE;
}

/* Non-zero when the current token is "and", "or" or "not". */
int segc_parse_is_logic_word(const struct parser *P)
{
	return segc_parse_is_word(P, "and") || segc_parse_is_word(P, "or") ||
		segc_parse_is_word(P, "not");
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
void segc_parse_report(struct parser *P, enum segc_status code, size_t off,
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
void segc_parse_report_at(struct parser *P, enum segc_status code, size_t off,
	const char *fmt, ...)
{
	segc_strbuf msg;
	va_list ap;

	segc_strbuf_init(&msg);
	va_start(ap, fmt);
	segc_strbuf_vappendf(&msg, fmt, ap);
	va_end(ap);
	segc_parse_report(P, code, off, &msg);
}

/* Appends a description of the current token: "')'", "name 'x'", "end of
 * the expression"... */
void segc_parse_describe_token(const struct parser *P, segc_strbuf *sb)
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
int segc_parse_logic_character(struct parser *P)
{
	char c = P->text[P->tok.start];

	if (P->tok.type != TOK_BAD || (c != '&' && c != '|' && c != '!'))
		return 0;
	segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "unexpected character "
		"'%c' (conditions are written with 'and', 'or', 'not')", c);
	return 1;
}

/* Reports the current token when it is one that stands only in a
 * condition (a comparison, "and", "or", "not") or is a likely mistake for
 * one ('=', '&', '|', '!') and returns 1; else returns 0. */
int segc_parse_misplaced_condition(struct parser *P)
{
	const char *s = P->text + P->tok.start;
	int n = (int)P->tok.len;

	if (segc_parse_is_relation(P->tok.type)) {
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "a comparison ('%.*s') "
			"may stand only in the condition of 'if' (its first "
			"argument)", n, s);
	} else if (P->tok.type == TOK_ASSIGN) {
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'=' is not an "
			"operator: compare with '==' in the condition of 'if'");
	} else if (segc_parse_is_logic_word(P)) {
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start, "'%.*s' is a reserved "
			"word of conditions, which stand only in the condition "
			"of 'if' (its first argument)", n, s);
	} else {
		return segc_parse_logic_character(P);
	}
	return 1;
}

/* Reports the current token as unexpected. */
void segc_parse_unexpected(struct parser *P)
{
	segc_strbuf msg;

	if (segc_parse_misplaced_condition(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, "unexpected ");
	segc_parse_describe_token(P, &msg);
	segc_parse_report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
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
void segc_parse_missing_close(struct parser *P, size_t open, const char *fn,
	size_t fn_len)
{
	segc_strbuf msg;

	if (segc_parse_misplaced_condition(P))
		return;
	segc_strbuf_init(&msg);
	segc_strbuf_append(&msg, fn ? "expected ',' or ')'" : "expected ')'");
	segc_strbuf_append(&msg, " to close '(' ");
	if (fn)
		segc_strbuf_appendf(&msg, "of '%.*s' ", (int)fn_len, fn);
	segc_strbuf_append(&msg, "at ");
	append_position(P, &msg, open, !same_line(P, open, P->tok.start));
	segc_strbuf_append(&msg, ", found ");
	segc_parse_describe_token(P, &msg);
	segc_parse_report(P, SEGC_ERR_INPUT, P->tok.start, &msg);
}

/* Enters one more level of nesting at offset 'off'; 0 when too deep
 * (reported). */
int segc_parse_enter(struct parser *P, size_t off)
{
	if (++P->depth <= P->max_depth)
		return 1;
	segc_parse_report_at(P, SEGC_ERR_LIMIT, off,
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
segc_expr *segc_parse_number(struct parser *P)
{
	const char *s = P->text + P->tok.start;
	unsigned long max_digits = P->limits->max_literal_digits <
		SEGC_MAX_LITERAL_DIGITS_CEILING ?
		P->limits->max_literal_digits : SEGC_MAX_LITERAL_DIGITS_CEILING;
	struct literal lit;
	long e = 0;

	if (!split_literal(s, P->tok.len, &lit)) {
		segc_parse_report_at(P, SEGC_ERR_INPUT, P->tok.start,
			"malformed number '%.*s'",
			P->tok.len > 40 ? 40 : (int)P->tok.len, s);
		return NULL;
	}
	if (lit.int_len + lit.frac_len > max_digits) {
		segc_parse_report_at(P, SEGC_ERR_LIMIT, P->tok.start,
			"number literal too long (more than %lu digits)",
			max_digits);
		return NULL;
	}
	if (lit.exp_len && read_exponent(lit.exp_part, lit.exp_len,
	    10 * max_digits, &e)) {
		segc_parse_report_at(P, SEGC_ERR_LIMIT, P->tok.start,
			"exponent of number literal too large (more than %lu)",
			10 * max_digits);
		return NULL;
	}
	segc_parse_advance(P);
	return literal_value(&lit, e);
}
