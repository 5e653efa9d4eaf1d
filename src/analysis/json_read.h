/* json_read.h - a small reader of JSON text (RFC 8259) into a tree, for
 * the measurement files of other tools (Extra-P's JSON experiments):
 * every value keeps its line and column, numbers keep their text so that
 * they are read exactly, hostile input ends in a located error (exit 2)
 * or a named limit (max_depth; the size is bounded by max_file_bytes
 * when the file is read). */
#ifndef SEGC_JSON_READ_H
#define SEGC_JSON_READ_H

#include <stddef.h>

#include <segc/segc.h>

/* The kinds of JSON values. */
enum json_type {
	JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
	JSON_ARRAY, JSON_OBJECT
};

/* One value: its kind and place; 'text' the string (UTF-8, escapes
 * resolved; a \u0000 is refused) or the number as written; 'n' members
 * of an array or object in 'items', an object's keys in 'keys'. */
typedef struct json_value {
	enum json_type type;
	unsigned long line, col;
	char *text;
	size_t n;
	struct json_value *items;
	char **keys;
} json_value;

/* Parses the 'len' bytes at 'text' (named 'file' in diagnostics) as one
 * JSON document: a tree the caller frees with json_free(), or NULL after
 * a located error in 'ctx' (an object with a key twice is one; nesting
 * deeper than max_depth, at most JSON_MAX_DEPTH, is a limit). */
#define JSON_MAX_DEPTH 512
json_value *json_parse(segc_ctx *ctx, const char *file, const char *text,
	size_t len);
/* Releases the tree 'v'. */
void json_free(json_value *v);
/* The member 'key' of the object 'v', or NULL. */
const json_value *json_member(const json_value *v, const char *key);
/* The name of the kind of 'v' ("an object", "a string", ...). */
const char *json_kind(const json_value *v);

#endif
