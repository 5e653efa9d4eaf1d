/* cli_json.c - the JSON writer of cli_json.h, for 'derive --json': a
 * deterministic text (members in the order written, two spaces of
 * indentation), strings UTF-8 with '"', '\\' and every control character
 * escaped (the latter as \u00XX), so that any model text stays a string. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

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

/* Consumes the option --json into '*json': 1, or 0 when argv[*i] is
 * another. */
int cli_json_option(char **argv, int *i, int *json)
{
	if (strcmp(argv[*i], "--json"))
		return 0;
	*json = 1;
	(*i)++;
	return 1;
}

/* Writes the whole number 'n'. */
void cli_json_uint(cli_json *j, unsigned long n)
{
	member_start(j);
	cli_printf("%lu", n);
}

/* Non-zero when 's' is a JSON number (RFC 8259 section 6). */
static int json_number_text(const char *s)
{
	size_t i = 0, d;

	if (s[i] == '-')
		i++;
	for (d = i; s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i > d + 1))
		return 0;
	if (s[i] == '.') {
		for (d = ++i; s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		if (s[i] == '+' || s[i] == '-')
			i++;
		for (d = i; s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return s[i] == '\0';
}

/* Writes the decimal text 's' as a number, or null when it is not one
 * ("-", "inf"). */
void cli_json_decimal_text(cli_json *j, const char *s)
{
	member_start(j);
	cli_puts(s && json_number_text(s) ? s : "null");
}

/* Writes 'x' rounded to 17 significant digits as a number. */
void cli_json_mpfr(cli_json *j, mpfr_srcptr x)
{
	char *s = NULL;

	if (!mpfr_number_p(x) || mpfr_asprintf(&s, "%.17Rg", x) < 0) {
		cli_json_null(j);
		return;
	}
	cli_json_decimal_text(j, s);
	mpfr_free_str(s);
}

/* Writes the members 'key' (the exact rational 'q' as a string, "3/20000")
 * and 'key'_decimal ('q' rounded to 17 significant digits, a number);
 * both null when 'q' is NULL. */
void cli_json_exact(cli_json *j, const char *key, mpq_srcptr q)
{
	char *name = cli_xmalloc(strlen(key) + sizeof "_decimal");
	mpfr_t x;

	sprintf(name, "%s_decimal", key);
	cli_json_key(j, key);
	if (!q) {
		cli_json_null(j);
		cli_json_key(j, name);
		cli_json_null(j);
		free(name);
		return;
	}
	{
		char *t = mpq_get_str(NULL, 10, q);

		cli_json_string(j, t);
		free(t);
	}
	cli_json_key(j, name);
	mpfr_init2(x, 128);
	mpfr_set_q(x, q, MPFR_RNDN);
	cli_json_mpfr(j, x);
	mpfr_clear(x);
	free(name);
}
