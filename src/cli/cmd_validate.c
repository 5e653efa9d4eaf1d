/* cmd_validate.c - 'segc validate FILE': checks a model or a machine
 * against the format (schema, then meaning, then formulas, the errors of
 * every stage in one run); silent when it is valid. */
#include <config.h>

#include "cli/cli.h"

/* Runs 'segc validate'. */
int cmd_validate(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	cli_common c;
	int rc, r;

	cli_common_init(&c, "validate");
	r = cli_parse_args(ctx, &c, argc, argv, NULL, NULL, NULL);
	if (r) {
		cli_common_clear(&c);
		segc_ctx_free(ctx);
		return r > 0 ? CLI_OK : CLI_USAGE;
	}
	r = segc_validate_file(ctx, c.file);
	if (c.machine_file && !segc_ctx_full(ctx) &&
	    segc_validate_file(ctx, c.machine_file))
		r = -1;
	rc = cli_report(ctx);
	if (r && !rc)
		rc = CLI_USAGE;
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
