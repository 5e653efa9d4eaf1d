/* cli_limits.h - the COMMON option --limit NAME=VALUE, which changes one of
 * the limits of segc_limits (doc/limits.md). */
#ifndef SEGC_CLI_LIMITS_H
#define SEGC_CLI_LIMITS_H

#include "cli/cli.h"

/* If argv[*i] is "--limit NAME=VALUE" (or "--limit=NAME=VALUE"), sets that
 * limit of 'ctx', advances *i and returns 1; returns -1 after a usage
 * error (reported: unknown name, bad value), 0 when argv[*i] is another
 * option.  NAME is a field of segc_limits, with or without its "max_". */
int cli_limit_option(segc_ctx *ctx, const cli_common *c, int argc,
	char **argv, int *i);

#endif
