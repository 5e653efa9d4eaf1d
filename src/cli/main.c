/* main.c - the segc command: dispatches to one function per command. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* One command of the program and its one-line summary. */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *summary;
};

static const struct command commands[] = {
	{ "derive", cmd_derive,
	  "[COMMON] [--component C] [--form F] [--asymptotic NAME] [--json]\n"
	  "                 MODEL.xml",
	  "print the timing formula (canonical or structural form)" },
	{ "latex", cmd_latex,
	  "[COMMON] [--component C] [--form F] [--standalone] [--width W] MODEL.xml",
	  "print the formula as LaTeX, or a complete document" },
	{ "emit", cmd_emit,
	  "[COMMON] [-o BASE] [--prefix NAME] [--keep NAME]...\n"
	  "                 [--template DIR] [--main] [--accurate]\n"
	  "                 [--lang c|python|fortran] MODEL.xml",
	  "write a standalone predictor: C99 (BASE.c, BASE.h) or Python" },
	{ "check", cmd_check,
	  "[COMMON] [--component C] [--expect FORMULA] MODEL.xml",
	  "compare the derived formula with the expected ones" },
	{ "eval", cmd_eval,
	  "[COMMON] [--precision BITS] [--digits D] [--csv] [--svg FILE]\n"
	  "                 [--form F] [--procs NAME] [--arith ball|exact]\n"
	  "                 MODEL.xml NAME=RANGE|NAME=[LO,HI]...",
	  "evaluate every component over a grid (MPFR)" },
	{ "validate", cmd_validate,
	  "[COMMON] MODEL.xml|MACHINE.xml",
	  "check a document against the format; silent when valid" },
	{ "dot", cmd_dot,
	  "[COMMON] MODEL.xml",
	  "print the graph in Graphviz DOT" },
	{ "fit", cmd_fit,
	  "[COMMON] --free NAME... [-o MACHINE.xml] [--weight W]\n"
	  "                 [--digits D] MODEL.xml DATA.csv",
	  "fit resources or machine constants to measured times" },
	{ "optimize", cmd_optimize,
	  "[COMMON] (--min | --max) Q --over NAME=A..B MODEL.xml\n"
	  "                 [NAME=VALUE...]",
	  "the integer NAME in A..B where Q is least or most, certified" },
	{ "solve", cmd_solve,
	  "[COMMON] --for NAME [--in A..B] [--digits D] EQUATION MODEL.xml\n"
	  "                 [NAME=VALUE...]",
	  "every real root of an equation in NAME, isolated exactly" },
	{ "whatif", cmd_whatif,
	  "[COMMON] --scale SPEC... [--component C] [--digits D] [--table]\n"
	  "                 MODEL.xml [NAME=RANGE...]",
	  "the exact speedup when some costs change by a factor" },
	{ "sensitivity", cmd_sensitivity,
	  "[COMMON] [--component C] [--digits D] MODEL.xml [NAME=RANGE...]",
	  "exact derivatives and elasticities of every free name" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Prints the program's help. */
static void usage(void)
{
	size_t i;

	printf("Usage: segc COMMAND [OPTION]... FILE...\n"
	       "Turn software execution graphs into exact timing formulas.\n\n"
	       "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		printf("  %-12s%s\n", commands[i].name, commands[i].summary);
	printf("\nCommon options:\n"
	       "  -m, --machine FILE  apply the machine described in FILE\n"
	       "  -D, --define NAME=VALUE  bind a declared name (repeatable)\n"
	       "  -q, --quiet         quiet\n"
	       "      --limit NAME=VALUE  change an internal limit (doc/limits.md)\n"
	       "  -h, --help          show this help (or a command's help)\n"
	       "      --version       show the version\n\n"
	       "Exit status: 0 success, 1 an expectation does not hold (check),\n"
	       "2 bad usage or input, 3 an internal limit was reached.\n\n"
	       "'segc COMMAND --help' describes one command; 'man segc' all.\n"
	       "Report bugs to: <%s>\n", PACKAGE_BUGREPORT);
}

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

/* Prints the synopsis of the command named 'name'. */
void cli_command_help(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name))
			continue;
		printf("Usage: segc %s %s\n%s.\n\n", commands[i].name,
		       commands[i].synopsis, commands[i].summary);
		cli_options_help(name);
		return;
	}
}

/* The out-of-memory handler (segc_memory_guard): says so and exits 3
 * at once, so that nothing buffered for standard output is written. */
void cli_out_of_memory(size_t request)
{
	char msg[160];
	int n = snprintf(msg, sizeof msg, "segc: error: out of memory: the "
		"run needs more than the limit of %lu bytes (max_memory)\n",
		segc_memory_budget());

	(void)request;
	if (!segc_memory_budget())
		n = snprintf(msg, sizeof msg, "segc: error: out of memory\n");
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		n = 0;
	cli_output_abandon();
	_exit(CLI_LIMIT);
}

/* Runs the command named in argv[1]; returns its exit code. */
static int dispatch(int argc, char **argv)
{
	size_t i;
	int rc;

	segc_memory_guard(cli_out_of_memory);
	if (argc < 2) {
		fprintf(stderr, "segc: missing command\n"
			"Try 'segc --help' for more information.\n");
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
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
