/* json_read.c - the JSON reader of json_read.h: a recursive descent over
 * RFC 8259 with the depth bounded, strings unescaped to UTF-8, numbers
 * kept as text, the first error located by line and column. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/json_read.h"
#include "base/util.h"

/* The state of one parse. */
typedef struct parser {
	segc_ctx *ctx;
	const char *file;
	const char *s;
	size_t len, pos;
	unsigned long line;
	size_t line_start;
	unsigned long max_depth;
	int failed;
} parser;

/* The column (1-based, in bytes) of offset 'at' on the current line. */
static unsigned long column(const parser *P, size_t at)
{
	return (unsigned long)(at - P->line_start) + 1;
}

/* Records the error 'msg' (with the argument 'a') at offset 'at', once. */
static void fail(parser *P, size_t at, const char *msg, const char *a)
{
	if (P->failed)
		return;
	P->failed = 1;
	segc_error(P->ctx, SEGC_ERR_INPUT, P->file, P->line, column(P, at), msg,
		a);
}

/* Skips blanks (space, tab, CR, LF), counting lines. */
static void skip_space(parser *P)
{
	while (P->pos < P->len) {
		char c = P->s[P->pos];

		if (c == '\n') {
			P->line++;
			P->line_start = P->pos + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		P->pos++;
	}
}

/* A short printable description of the byte at the current position. */
static const char *what_is_here(const parser *P, char *buf)
{
	unsigned char c;

	if (P->pos >= P->len)
		return "the end of the file";
	c = (unsigned char)P->s[P->pos];
	if (c >= 0x21 && c < 0x7f)
		sprintf(buf, "'%c'", c);
	else
		sprintf(buf, "the byte 0x%02x", c);
	return buf;
}

/* The value of the four hex digits at P->s[at]; -1 when they are not. */
static long hex4(const parser *P, size_t at)
{
	long v = 0;
	size_t i;

	if (at + 4 > P->len)
		return -1;
	for (i = at; i < at + 4; i++) {
		char c = P->s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Appends the UTF-8 of code point 'u' at 'out'; the bytes written. */
static size_t put_utf8(char *out, unsigned long u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xc0 | (u >> 6));
		out[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xe0 | (u >> 12));
		out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		out[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (u >> 18));
	out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* Reads the \u escape at P->pos (the 'u'), a surrogate pair included,
 * into 'out'; the bytes written, 0 after an error. */
static size_t unicode_escape(parser *P, char *out)
{
	size_t at = P->pos - 1;
	long u = hex4(P, P->pos + 1), lo;

	if (u < 0)
		return fail(P, at, "a \\u escape needs four hex digits%s", ""), 0;
	P->pos += 5;
	if (u >= 0xdc00 && u <= 0xdfff)
		return fail(P, at, "a lone low surrogate in a \\u escape%s", ""),
			0;
	if (u >= 0xd800 && u <= 0xdbff) {
		if (P->pos + 1 >= P->len || P->s[P->pos] != '\\' ||
		    P->s[P->pos + 1] != 'u' ||
		    (lo = hex4(P, P->pos + 2)) < 0xdc00 || lo > 0xdfff)
			return fail(P, at, "a high surrogate without its low one "
				"in a \\u escape%s", ""), 0;
		P->pos += 6;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (u == 0)
		return fail(P, at, "\\u0000 in a string is not accepted%s", ""),
			0;
	return put_utf8(out, (unsigned long)u);
}

/* Reads the string whose opening quote is at P->pos into a new buffer;
 * NULL after an error. */
static char *read_string(parser *P)
{
	size_t start = P->pos++, n = 0, k;
	char *out = segc_xmalloc(P->len - start + 1);
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;

	while (P->pos < P->len && P->s[P->pos] != '"') {
		unsigned char c = (unsigned char)P->s[P->pos];

		if (c < 0x20) {
			fail(P, P->pos, "a control character inside a string "
				"(write it as an escape)%s", "");
			break;
		}
		if (c != '\\') {
			out[n++] = (char)c;
			P->pos++;
			continue;
		}
		if (++P->pos < P->len && P->s[P->pos] == 'u') {
			if (!(k = unicode_escape(P, out + n)))
				break;
			n += k;
			continue;
		}
		e = P->pos < P->len && P->s[P->pos] ?
			strchr(from, P->s[P->pos]) : NULL;
		if (!e) {
			fail(P, P->pos - 1, "an unknown escape in a string%s", "");
			break;
		}
		out[n++] = to[e - from];
		P->pos++;
	}
	if (!P->failed && P->pos >= P->len)
		fail(P, start, "a string that does not end%s", "");
	if (P->failed) {
		free(out);
		return NULL;
	}
	P->pos++;
	out[n] = '\0';
	return out;
}

/* The length of the JSON number at P->pos, 0 when there is none. */
static size_t number_length(const parser *P)
{
	const char *s = P->s + P->pos;
	size_t n = P->len - P->pos, i = 0, d;

	if (i < n && s[i] == '-')
		i++;
	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i > d + 1))
		return 0;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i;
}

static int read_value(parser *P, json_value *v, unsigned long depth);

/* Compares two keys through pointers to them (for qsort). */
static int key_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Refuses an object 'v' with a key twice (sorted copy: n log n). */
static void check_keys(parser *P, const json_value *v)
{
	char **k;
	size_t i;

	if (v->n < 2)
		return;
	k = segc_xmalloc(segc_xmul_size(v->n, sizeof *k));
	memcpy(k, v->keys, v->n * sizeof *k);
	qsort(k, v->n, sizeof *k, key_order);
	for (i = 1; i < v->n && !P->failed; i++)
		if (!strcmp(k[i - 1], k[i])) {
			char *shown = segc_printable_dup(k[i]);

			if (strlen(shown) > 200)
				shown[200] = '\0';
			P->failed = 1;
			segc_error(P->ctx, SEGC_ERR_INPUT, P->file, v->line, v->col,
				"the object has the key \"%s\" twice", shown);
			free(shown);
		}
	free(k);
}

/* Adds a member to the array or object 'v' (growing by doubling). */
static json_value *add_member(json_value *v, size_t *cap)
{
	if (v->n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		v->items = segc_xrealloc(v->items, segc_xmul_size(*cap,
			sizeof *v->items));
		if (v->type == JSON_OBJECT)
			v->keys = segc_xrealloc(v->keys, segc_xmul_size(*cap,
				sizeof *v->keys));
	}
	memset(&v->items[v->n], 0, sizeof v->items[0]);
	if (v->type == JSON_OBJECT)
		v->keys[v->n] = NULL;
	return &v->items[v->n++];
}

/* Reads the members of the array or object 'v' after its bracket; -1
 * after an error. */
static int read_members(parser *P, json_value *v, unsigned long depth)
{
	char close = v->type == JSON_ARRAY ? ']' : '}', buf[32];
	size_t cap = 0;
	json_value *m;

	skip_space(P);
	if (P->pos < P->len && P->s[P->pos] == close)
		return P->pos++, 0;
	for (;;) {
		skip_space(P);
		m = add_member(v, &cap);
		if (v->type == JSON_OBJECT) {
			if (P->pos >= P->len || P->s[P->pos] != '"')
				return fail(P, P->pos, "expected a key (a string), "
					"found %s", what_is_here(P, buf)), -1;
			if (!(v->keys[v->n - 1] = read_string(P)))
				return -1;
			skip_space(P);
			if (P->pos >= P->len || P->s[P->pos] != ':')
				return fail(P, P->pos, "expected ':' after the key, "
					"found %s", what_is_here(P, buf)), -1;
			P->pos++;
			skip_space(P);
		}
		if (read_value(P, m, depth + 1))
			return -1;
		skip_space(P);
		if (P->pos < P->len && P->s[P->pos] == ',') {
			P->pos++;
			continue;
		}
		if (P->pos < P->len && P->s[P->pos] == close)
			break;
		return fail(P, P->pos, close == ']' ? "expected ',' or ']' in "
			"the array, found %s" : "expected ',' or '}' in the object, "
			"found %s", what_is_here(P, buf)), -1;
	}
	P->pos++;
	if (v->type == JSON_OBJECT)
		check_keys(P, v);
	return P->failed ? -1 : 0;
}

/* Reads the literal 'word' (true, false, null) at P->pos; -1 if not. */
static int literal(parser *P, const char *word)
{
	size_t n = strlen(word);

	if (P->len - P->pos < n || memcmp(P->s + P->pos, word, n))
		return -1;
	P->pos += n;
	return 0;
}

/* Reads the value at P->pos into 'v' at nesting 'depth'; -1 after an
 * error. */
static int read_value(parser *P, json_value *v, unsigned long depth)
{
	char c, buf[32];
	size_t n;

	v->line = P->line;
	v->col = column(P, P->pos);
	if (P->pos >= P->len)
		return fail(P, P->pos, "expected a value, found %s",
			what_is_here(P, buf)), -1;
	c = P->s[P->pos];
	if (c == '{' || c == '[') {
		if (depth >= P->max_depth) {
			P->failed = 1;
			segc_error(P->ctx, SEGC_ERR_LIMIT, P->file, P->line,
				column(P, P->pos), "arrays and objects nested deeper "
				"than %lu (max_depth)", P->max_depth);
			return -1;
		}
		v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		P->pos++;
		return read_members(P, v, depth);
	}
	if (c == '"') {
		v->type = JSON_STRING;
		return (v->text = read_string(P)) ? 0 : -1;
	}
	if (!literal(P, "true") || !literal(P, "false") || !literal(P, "null")) {
		v->type = P->s[P->pos - 1] == 'l' ? JSON_NULL :
			P->s[P->pos - 2] == 'u' ? JSON_TRUE : JSON_FALSE;
		return 0;
	}
	if ((n = number_length(P)) == 0)
		return fail(P, P->pos, "expected a value, found %s",
			what_is_here(P, buf)), -1;
	v->type = JSON_NUMBER;
	v->text = segc_xmalloc(n + 1);
	memcpy(v->text, P->s + P->pos, n);
	v->text[n] = '\0';
	P->pos += n;
	return 0;
}

/* Parses one JSON document (see json_read.h). */
json_value *json_parse(segc_ctx *ctx, const char *file, const char *text,
	size_t len)
{
	parser P;
	json_value *v = segc_xcalloc(1, sizeof *v);
	char buf[32];

	memset(&P, 0, sizeof P);
	P.ctx = ctx;
	P.file = file;
	P.s = text;
	P.len = len;
	P.line = 1;
	P.max_depth = segc_ctx_limits(ctx)->max_depth;
	if (P.max_depth > JSON_MAX_DEPTH)
		P.max_depth = JSON_MAX_DEPTH;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		P.pos = P.line_start = 3;
	skip_space(&P);
	if (!read_value(&P, v, 0)) {
		skip_space(&P);
		if (P.pos < P.len)
			fail(&P, P.pos, "more after the end of the document: %s",
				what_is_here(&P, buf));
	}
	if (P.failed) {
		json_free(v);
		return NULL;
	}
	return v;
}

/* Releases the members of 'v', then its own text. */
static void free_inside(json_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free_inside(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->text);
}

/* Releases the tree 'v'. */
void json_free(json_value *v)
{
	if (!v)
		return;
	free_inside(v);
	free(v);
}

/* The member 'key' of the object 'v', or NULL. */
const json_value *json_member(const json_value *v, const char *key)
{
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

/* The name of the kind of 'v'. */
const char *json_kind(const json_value *v)
{
	static const char *const names[] = { "null", "false", "true",
		"a number", "a string", "an array", "an object" };

	return names[v->type];
}
