/* parse_private.h - between the grammar (parse.c) and the tokens, the
 * diagnostics and the number literals (parse_lex.c) of the parser of the
 * expression language.  Not installed. */
#ifndef SEGC_PARSE_PRIVATE_H
#define SEGC_PARSE_PRIVATE_H

#include <stddef.h>
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

/* Reads the token at offset 'i' (after white space) into the lookahead. */
void segc_parse_lex_at(struct parser *P, size_t i);
/* Moves to the next token. */
void segc_parse_advance(struct parser *P);
/* Non-zero when the current token is the name 'word'. */
int segc_parse_is_word(const struct parser *P, const char *word);
/* Non-zero when the token type 't' is a comparison. */
int segc_parse_is_relation(enum token_type t);
/* Non-zero when the current token is "and", "or" or "not". */
int segc_parse_is_logic_word(const struct parser *P);

/* Records the error 'code' at offset 'off' with the message in 'msg'
 * (consumed), and marks the parse failed. */
void segc_parse_report(struct parser *P, enum segc_status code, size_t off,
	segc_strbuf *msg);
/* Records a printf-style error 'code' at offset 'off'. */
void segc_parse_report_at(struct parser *P, enum segc_status code,
	size_t off, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;
/* Appends a description of the current token to 'sb'. */
void segc_parse_describe_token(const struct parser *P, segc_strbuf *sb);
/* Reports a current token '&', '|' or '!' written for a logical word:
 * 1 if so, else 0. */
int segc_parse_logic_character(struct parser *P);
/* Reports a current token that stands only in a condition, or is a likely
 * mistake for one: 1 if so, else 0. */
int segc_parse_misplaced_condition(struct parser *P);
/* Reports the current token as unexpected. */
void segc_parse_unexpected(struct parser *P);
/* Reports that ')' is missing for the '(' at offset 'open' (of a call of
 * 'fn', of 'fn_len' characters, when not NULL). */
void segc_parse_missing_close(struct parser *P, size_t open, const char *fn,
	size_t fn_len);
/* Enters one more level of nesting at offset 'off'; 0 when too deep
 * (reported). */
int segc_parse_enter(struct parser *P, size_t off);

/* Reads the 'n' arguments 'args' (kept) of the call of the graph atom
 * 'id' at offset 'off' when they are its readable text (graph_text.h):
 * returns 1 and sets '*r' to the atom (NULL on an error, reported);
 * returns 0 for any other arguments. */
int segc_parse_graph_atom(struct parser *P, size_t off, enum segc_builtin id,
	size_t n, segc_expr *const *args, segc_expr **r);

/* Converts the number token; NULL on error (reported). */
segc_expr *segc_parse_number(struct parser *P);

#endif
