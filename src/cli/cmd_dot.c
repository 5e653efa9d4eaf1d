/* cmd_dot.c - 'segc dot MODEL': the model's graphs in Graphviz DOT on
 * standard output. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include <segc/dot.h>

#include "cli/cli.h"
#include "cli/cli_output.h"

/* Runs 'segc dot'. */
int cmd_dot(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	cli_common c;
	int rc;

	cli_common_init(&c, "dot");
	rc = cli_parse_args(ctx, &c, argc, argv, NULL, NULL, NULL);
	if (rc) {
		cli_common_clear(&c);
		segc_ctx_free(ctx);
		return rc > 0 ? CLI_OK : CLI_USAGE;
	}
	rc = cli_load(ctx, &c, c.file, &model, &machine);
	if (!rc) {
		char *text = segc_model_dot(ctx, model);

		if (text)
			cli_puts(text);
		else
			rc = cli_report(ctx);
		free(text);
	}
	segc_machine_free(machine);
	segc_model_free(model);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
