/* cli_csv.h - what 'fit' and 'eval --measured' share to read a table of
 * measurements: the options --column NAME=COLUMN and --aggregate HOW,
 * and the reading itself (cli_csv.c). */
#ifndef SEGC_CLI_CSV_H
#define SEGC_CLI_CSV_H

#include <segc/fit.h>

#include "cli/cli.h"

#define CLI_CSV_MAX_COLUMNS 64

/* The options, read from the command line. */
typedef struct cli_csv_opts {
	size_t nmap;
	const char *map_names[CLI_CSV_MAX_COLUMNS];
	const char *map_columns[CLI_CSV_MAX_COLUMNS];
	char *map_text[CLI_CSV_MAX_COLUMNS];   /* owned copies */
	enum segc_csv_aggregate aggregate;
	enum segc_table_format format;      /* --data-format */
	const char *callpath, *metric;      /* Extra-P: --callpath, --metric */
} cli_csv_opts;

/* Consumes --column NAME=COLUMN, --aggregate mean|median|min,
 * --data-format auto|csv|extrap-text|extrap-json, --callpath PATH or
 * --metric NAME: 1, 0 when argv[*i] is another option, -1 after a usage
 * error. */
int cli_csv_option(const cli_common *c, int argc, char **argv, int *i,
	cli_csv_opts *o);
/* Releases the copies 'o' holds. */
void cli_csv_opts_clear(cli_csv_opts *o);
/* Reads the table 'path' ("-": standard input; CSV or an Extra-P
 * experiment, as --data-format says) for a model under 's':
 * the columns that name a measurement or a name 's' declares (or one
 * close to such a name, for the caller to refuse with a suggestion),
 * mapped and aggregated as 'o' says; the others left out.  NULL with
 * diagnostics. */
segc_csv *cli_csv_read(segc_ctx *ctx, const cli_csv_opts *o,
	const segc_setting *s, const char *path);
/* The text "a, b, c" of the columns left out (malloc'd), or NULL. */
char *cli_csv_ignored_text(const segc_csv *csv);

#endif
