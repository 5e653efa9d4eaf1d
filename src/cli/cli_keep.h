/* cli_keep.h - the options 'latex' and 'derive' share to write a formula
 * for a paper: lets kept as names with their definitions (--lets), names
 * kept instead of their values (--keep, --keep-all) and terms collected
 * by a name (--collect, --collect-resources); and named subexpressions
 * defined in "where" lines (--where). */
#ifndef CLI_KEEP_H
#define CLI_KEEP_H

#include <segc/segc_model.h>

#include "cli/cli.h"

/* Most --keep or --collect names. */
#define CLI_MAX_KEEP 64

typedef struct cli_keep {
	int lets;                 /* --lets */
	int all;                  /* --keep-all */
	int resources;            /* --collect-resources */
	int where;                /* --where: named subexpressions */
	size_t nkeep, ncollect;
	const char *keep[CLI_MAX_KEEP];
	const char *collect[CLI_MAX_KEEP];
} cli_keep;

/* Consumes one of the options above at argv[*i]: 1 consumed, 0 not one,
 * -1 after a usage error. */
int cli_keep_option(cli_common *c, int argc, char **argv, int *i,
	cli_keep *k);
/* Non-zero when any of the options was given. */
int cli_keep_any(const cli_keep *k);
/* Binds every --keep name to itself (so that it wins over any value),
 * before the model is read: names are checked against it with the -D
 * ones.  0 or CLI_USAGE (reported). */
int cli_keep_bind(segc_ctx *ctx, cli_common *c, const cli_keep *k);
/* Once the model is read: binds to itself every name that --lets,
 * --keep-all, --collect and --collect-resources keep (a -D binding wins,
 * but not over an explicit --collect name: an error).  0 or an exit code
 * (reported). */
int cli_keep_setting(segc_ctx *ctx, cli_common *c, const cli_keep *k,
	const segc_setting *s);
/* Collects the terms of the 'n' formulas 'f' (replaced in place; NULL
 * ones skipped) by the --collect names, then the resources of the model,
 * each part in the readable form when 'readable' (else tidied as the
 * structural form is); warns about an explicit name that no formula has
 * as a factor. */
void cli_keep_collect(segc_ctx *ctx, cli_common *c, const cli_keep *k,
	const segc_setting *s, int readable, segc_expr **f, size_t n);

#endif
