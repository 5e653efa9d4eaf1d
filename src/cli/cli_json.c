/* cli_json.c - the JSON writer of cli_json.h, for 'derive --json': a
 * deterministic text (members in the order written, two spaces of
 * indentation), strings UTF-8 with '"', '\\' and every control character
 * escaped (the latter as \u00XX), so that any model text stays a string. */
#include <config.h>

#include <stdio.h>

#include "cli/cli_json.h"
#include "cli/cli_output.h"

/* Starts 'j' on an empty document. */
void cli_json_init(cli_json *j)
{
	j->depth = 0;
	j->has_member = 0;
	j->after_key = 0;
}

/* Before a value or key: the comma after the previous member and the new
 * line and indentation of this one; nothing right after a key. */
static void member_start(cli_json *j)
{
	unsigned i;

	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	cli_puts(j->has_member ? ",\n" : "\n");
	for (i = 0; i < j->depth; i++)
		cli_puts("  ");
	j->has_member = 1;
}

/* Writes 's' as a JSON string: '"' and '\\' escaped, bytes below 0x20
 * and DEL as \u00XX, everything else (UTF-8 included) as it is. */
static void quoted(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *run = p;

	cli_puts("\"");
	for (; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f && *p != '"' && *p != '\\')
			continue;
		if (p > run)
			cli_printf("%.*s", (int)(p - run), (const char *)run);
		if (*p == '"' || *p == '\\')
			cli_printf("\\%c", *p);
		else
			cli_printf("\\u%04x", (unsigned)*p);
		run = p + 1;
	}
	if (p > run)
		cli_puts((const char *)run);
	cli_puts("\"");
}

/* Opens an object or array with 'bracket'. */
void cli_json_open(cli_json *j, char bracket)
{
	member_start(j);
	cli_printf("%c", bracket);
	j->depth++;
	j->has_member = 0;
}

/* Closes the object or array open with 'bracket' ('}' or ']'); one left
 * empty stays on one line. */
void cli_json_close(cli_json *j, char bracket)
{
	unsigned i;

	j->depth--;
	if (j->has_member) {
		cli_puts("\n");
		for (i = 0; i < j->depth; i++)
			cli_puts("  ");
	}
	cli_printf("%c", bracket);
	j->has_member = 1;
}

/* Writes the key 'key' of the next member. */
void cli_json_key(cli_json *j, const char *key)
{
	member_start(j);
	quoted(key);
	cli_puts(": ");
	j->after_key = 1;
}

/* Writes the string 's', or null when 's' is NULL. */
void cli_json_string(cli_json *j, const char *s)
{
	member_start(j);
	if (s)
		quoted(s);
	else
		cli_puts("null");
}

/* Writes null. */
void cli_json_null(cli_json *j)
{
	member_start(j);
	cli_puts("null");
}

/* Writes true when 'b' is non-zero, else false. */
void cli_json_bool(cli_json *j, int b)
{
	member_start(j);
	cli_puts(b ? "true" : "false");
}

/* Ends the document. */
void cli_json_end(cli_json *j)
{
	(void)j;
	cli_puts("\n");
}
