/* cli_json.h - a small JSON writer for the command's standard output: one
 * document, two spaces of indentation a level, keys in the order written,
 * strings escaped per RFC 8259 so that no model text can break it. */
#ifndef SEGC_CLI_JSON_H
#define SEGC_CLI_JSON_H

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
/* Ends the document with a newline. */
void cli_json_end(cli_json *j);

#endif
