/* cmd_validate.c - 'segc validate FILE': checks a model or a machine
 * against the format (schema, then meaning); silent when it is valid. */
#include <config.h>

#include <string.h>

#include "cli.h"

/* Reads the options of 'validate' from 'argv' into 'c' and '*file'.
 * Returns -1 after a usage error, 1 after --help, else 0. */
static int validate_args(segc_ctx *ctx, cli_common *c, int argc,
	char **argv, const char **file)
{
	int i = 1, r;

	*file = NULL;
	while (i < argc) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_command_help(c->command);
			return 1;
		}
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			r = cli_common_option(ctx, c, argc, argv, &i);
			if (r < 0)
				return -1;
			if (r == 0) {
				cli_usage(c, "unknown option '%s'", argv[i]);
				return -1;
			}
			continue;
		}
		if (*file) {
			cli_usage(c, "one document at a time");
			return -1;
		}
		*file = argv[i++];
	}
	if (i < argc && !*file)
		*file = argv[i++];
	if (i < argc || !*file) {
		cli_usage(c, i < argc ? "one document at a time" :
			"a document to validate is required");
		return -1;
	}
	return 0;
}

/* Runs 'segc validate'. */
int cmd_validate(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	cli_common c;
	const char *file;
	int rc, r;

	cli_common_init(&c, "validate");
	r = validate_args(ctx, &c, argc, argv, &file);
	if (r) {
		cli_common_clear(&c);
		segc_ctx_free(ctx);
		return r > 0 ? CLI_OK : CLI_USAGE;
	}
	r = segc_validate_file(ctx, file);
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
