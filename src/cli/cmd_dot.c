/* cmd_dot.c - 'segc dot MODEL': the model's graphs in Graphviz DOT on
 * standard output. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dot.h"

/* Reads the options of 'dot' (as validate does). */
static int dot_args(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	const char **file)
{
	int i = 1, r;

	*file = NULL;
	while (i < argc) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_command_help(c->command);
			return 1;
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
			cli_usage(c, "one model at a time");
			return -1;
		}
		*file = argv[i++];
	}
	if (!*file) {
		cli_usage(c, "a model is required");
		return -1;
	}
	return 0;
}

/* Runs 'segc dot'. */
int cmd_dot(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	segc_strbuf out;
	cli_common c;
	const char *file;
	int rc;

	cli_common_init(&c, "dot");
	rc = dot_args(ctx, &c, argc, argv, &file);
	if (rc) {
		cli_common_clear(&c);
		segc_ctx_free(ctx);
		return rc > 0 ? CLI_OK : CLI_USAGE;
	}
	rc = cli_load(ctx, &c, file, &model, &machine);
	if (!rc) {
		segc_strbuf_init(&out);
		segc_model_to_dot(ctx, model, &out);
		fputs(segc_strbuf_str(&out), stdout);
		segc_strbuf_free(&out);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "segc: dot: cannot write the output\n");
			rc = CLI_USAGE;
		}
	}
	segc_machine_free(machine);
	segc_model_free(model);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
