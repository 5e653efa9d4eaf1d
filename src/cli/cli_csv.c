/* cli_csv.c - the options --column and --aggregate of 'fit' and 'eval
 * --measured', and the table read with them (cli_csv.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli_csv.h"
#include "cli/cli_util.h"

/* Reads "NAME=COLUMN" into mapping 'k' of 'o'; -1 after a usage error. */
static int add_column(const cli_common *c, cli_csv_opts *o, const char *v)
{
	char *t, *eq;

	if (o->nmap == CLI_CSV_MAX_COLUMNS)
		return cli_usage(c, "at most %d --column", CLI_CSV_MAX_COLUMNS),
			-1;
	t = cli_xmalloc(strlen(v) + 1);
	strcpy(t, v);
	eq = strchr(t, '=');
	if (eq)
		*eq = '\0';
	if (!eq || !cli_is_name(t) || !eq[1]) {
		free(t);
		return cli_usage(c, "--column %s: not NAME=COLUMN (a name, then "
			"the column's header as written)", v), -1;
	}
	o->map_text[o->nmap] = t;
	o->map_names[o->nmap] = t;
	o->map_columns[o->nmap++] = eq + 1;
	return 0;
}

/* Reads the value of --data-format into 'o'; 1, or -1 after a usage
 * error. */
static int data_format(const cli_common *c, cli_csv_opts *o, const char *v)
{
	static const char *const names[] = { "auto", "csv", "extrap-text",
		"extrap-json" };
	int k;

	for (k = 0; k < 4; k++)
		if (!strcmp(v, names[k])) {
			o->format = (enum segc_table_format)k;
			return 1;
		}
	return cli_usage(c, "--data-format is auto, csv, extrap-text or "
		"extrap-json, not '%s'", v), -1;
}

/* Consumes --column, --aggregate, --data-format, --callpath or --metric
 * (see cli_csv.h). */
int cli_csv_option(const cli_common *c, int argc, char **argv, int *i,
	cli_csv_opts *o)
{
	static const char *const how[] = { "mean", "median", "min" };
	const char *v;
	int r, k;

	if ((r = cli_option_value(c, argc, argv, i, "column", 0, &v)) != 0)
		return r > 0 && add_column(c, o, v) ? -1 : r;
	if ((r = cli_option_value(c, argc, argv, i, "callpath", 0, &v)) != 0) {
		if (r > 0)
			o->callpath = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "metric", 0, &v)) != 0) {
		if (r > 0)
			o->metric = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "data-format", 0, &v)) != 0)
		return r > 0 ? data_format(c, o, v) : r;
	if ((r = cli_option_value(c, argc, argv, i, "aggregate", 0, &v)) <= 0)
		return r;
	for (k = 0; k < 3; k++)
		if (!strcmp(v, how[k])) {
			o->aggregate = (enum segc_csv_aggregate)(SEGC_CSV_MEAN + k);
			return 1;
		}
	return cli_usage(c, "--aggregate is mean, median or min, not '%s'",
		v), -1;
}

/* Releases the copies of the mappings. */
void cli_csv_opts_clear(cli_csv_opts *o)
{
	size_t k;

	for (k = 0; k < o->nmap; k++)
		free(o->map_text[k]);
	o->nmap = 0;
}

/* Non-zero when 'a' becomes 'b' by at most one edit: a character
 * changed, added or removed, or two neighbours swapped. */
static int one_edit(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i = 0;

	if (la < lb)
		return one_edit(b, a);
	if (la - lb > 1)
		return 0;
	while (i < lb && a[i] == b[i])
		i++;
	if (i == la)
		return 1;
	if (la == lb)
		return !strcmp(a + i + 1, b + i + 1) || (i + 1 < la &&
			a[i] == b[i + 1] && a[i + 1] == b[i] &&
			!strcmp(a + i + 2, b + i + 2));
	return !strcmp(a + i + 1, b + i);
}

/* Whether column 'name' is read: a measurement, a name of the setting,
 * or one edit away from such a name (then refused by the reader's
 * caller as a likely slip); any other column is left out. */
static int wanted(void *arg, const char *name)
{
	const segc_setting *s = arg;
	const char *near = NULL;

	if (!strcmp(name, "time") || !strcmp(name, "total") ||
	    !strcmp(name, "comp") || !strcmp(name, "comm") ||
	    !strcmp(name, "io"))
		return 1;
	if (segc_setting_declares(s, name, &near))
		return 1;
	return near && one_edit(name, near);
}

/* Reads the table for 's' (see cli_csv.h). */
segc_csv *cli_csv_read(segc_ctx *ctx, const cli_csv_opts *o,
	const segc_setting *s, const char *path)
{
	segc_extrap_options opts;

	memset(&opts, 0, sizeof opts);
	opts.callpath = o->callpath;
	opts.metric = o->metric;
	opts.table.nmap = o->nmap;
	opts.table.map_names = o->map_names;
	opts.table.map_columns = o->map_columns;
	opts.table.wanted = wanted;
	opts.table.wanted_arg = (void *)s;
	opts.table.aggregate = o->aggregate;
	return segc_table_read_path(ctx, path, o->format, &opts);
}

/* Appends to 't' at 'at' the column name 's' with its control bytes
 * written as \xHH, cut after IGNORED_CHARS bytes of the name (never
 * inside a UTF-8 character) and "..." then; the new end.  The names come
 * from the file, so they reach the terminal only so.  't' has room for
 * 4 * IGNORED_CHARS + 4 more bytes. */
#define IGNORED_CHARS 40
static size_t put_name(char *t, size_t at, const char *s)
{
	size_t len = strlen(s), cut = len, i;

	if (len > IGNORED_CHARS)
		for (cut = IGNORED_CHARS; cut > 0 &&
		    ((unsigned char)s[cut] & 0xc0) == 0x80; cut--)
			;
	for (i = 0; i < cut; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			at += (size_t)sprintf(t + at, "\\x%02x", (unsigned)c);
		else
			t[at++] = (char)c;
	}
	if (cut < len)
		at += (size_t)sprintf(t + at, "...");
	return at;
}

/* The names of the columns left out, comma-separated, at most
 * IGNORED_SHOWN of them and then how many more (see cli_csv.h). */
#define IGNORED_SHOWN 8
char *cli_csv_ignored_text(const segc_csv *csv)
{
	size_t i, n = segc_csv_n_ignored(csv), at = 0;
	size_t shown = n < IGNORED_SHOWN ? n : IGNORED_SHOWN;
	char *t;

	if (!n)
		return NULL;
	t = cli_xmalloc(shown * (4 * IGNORED_CHARS + 6) + 64);
	for (i = 0; i < shown; i++) {
		if (i)
			at += (size_t)sprintf(t + at, ", ");
		at = put_name(t, at, segc_csv_ignored(csv, i));
	}
	if (n > shown)
		sprintf(t + at, " and %lu more", (unsigned long)(n - shown));
	else
		t[at] = '\0';
	return t;
}
