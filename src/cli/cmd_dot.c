/* cmd_dot.c - 'segc dot MODEL': the model's graphs in Graphviz DOT on
 * standard output. */
#include <config.h>

#include <stdio.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "output/dot.h"

/* Runs 'segc dot'. */
int cmd_dot(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	segc_strbuf out;
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
		segc_strbuf_init(&out);
		segc_model_to_dot(ctx, model, &out);
		cli_puts(segc_strbuf_str(&out));
		segc_strbuf_free(&out);
	}
	segc_machine_free(machine);
	segc_model_free(model);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
