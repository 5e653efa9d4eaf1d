/* main.c - the segc command: dispatches to one function per command. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* One command of the program and the function that runs it (its help
 * is in help.c). */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "derive", cmd_derive },
	{ "latex", cmd_latex },
	{ "emit", cmd_emit },
	{ "check", cmd_check },
	{ "eval", cmd_eval },
	{ "validate", cmd_validate },
	{ "dot", cmd_dot },
	{ "fit", cmd_fit },
	{ "optimize", cmd_optimize },
	{ "solve", cmd_solve },
	{ "whatif", cmd_whatif },
	{ "sensitivity", cmd_sensitivity },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Prints the version in GNU style. */
static void version(void)
{
	printf("segc (%s) %s\n"
	       "Copyright (C) 2026 the segc developers.\n"
	       "License GPLv3+: GNU GPL version 3 or later "
	       "<https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and "
	       "redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
}

/* Runs the command named in argv[1]; returns its exit code. */
static int dispatch(int argc, char **argv)
{
	size_t i;
	int rc;

	segc_memory_guard(cli_out_of_memory);
	cli_util_guard(cli_out_of_memory);
	if (argc < 2) {
		fprintf(stderr, "segc: missing command\n"
			"Try 'segc --help' for more information.\n");
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_program_help();
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return CLI_OK;
	}
	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc == 3 && (!strcmp(argv[2], "--help") ||
				  !strcmp(argv[2], "-h"))) {
			cli_command_help(commands[i].name);
			return CLI_OK;
		}
		rc = commands[i].run(argc - 1, argv + 1);
		segc_library_cleanup();
		return rc;
	}
	if (argv[1][0] == '-')
		fprintf(stderr, "segc: unrecognized option '%s'\n", argv[1]);
	else
		fprintf(stderr, "segc: unknown command '%s'\n", argv[1]);
	fprintf(stderr, "Try 'segc --help' for more information.\n");
	return CLI_USAGE;
}

/* Runs the command, then writes its output, all or nothing. */
int main(int argc, char **argv)
{
	return cli_output_end(dispatch(argc, argv));
}
