/* cli_json.h - a small JSON writer for the command's standard output: one
 * document, two spaces of indentation a level, keys in the order written,
 * strings escaped per RFC 8259 so that no model text can break it. */
#ifndef SEGC_CLI_JSON_H
#define SEGC_CLI_JSON_H

#include <gmp.h>
#include <mpfr.h>

/* Where the writer stands: how deep, and whether the current object or
 * array has a member yet. */
typedef struct cli_json {
	unsigned depth;
	int has_member;
	int after_key;
} cli_json;

void cli_json_init(cli_json *j);
/* Opens an object ('{') or an array ('['); closes it ('}' or ']'). */
void cli_json_open(cli_json *j, char bracket);
void cli_json_close(cli_json *j, char bracket);
/* Writes the key of the next member of the object open. */
void cli_json_key(cli_json *j, const char *key);
/* Writes a value: a string (NULL writes null), null, a boolean. */
void cli_json_string(cli_json *j, const char *s);
void cli_json_null(cli_json *j);
void cli_json_bool(cli_json *j, int b);
/* Writes a whole number. */
void cli_json_uint(cli_json *j, unsigned long n);
/* Writes decimal text as a number (null when it is not one: "-"). */
void cli_json_decimal_text(cli_json *j, const char *s);
/* Writes 'x' to 17 significant digits as a number (null if not finite). */
void cli_json_mpfr(cli_json *j, mpfr_srcptr x);
/* Writes the members 'key' (the exact 'q' as a string, "3/20000") and
 * 'key'_decimal (a number); both null when 'q' is NULL. */
void cli_json_exact(cli_json *j, const char *key, mpq_srcptr q);
/* Consumes --json at argv[*i] into '*json': 1, or 0 for another. */
int cli_json_option(char **argv, int *i, int *json);
/* Ends the document with a newline. */
void cli_json_end(cli_json *j);

#endif
