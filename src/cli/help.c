/* help.c - the help of the program: 'segc --help' (the commands and their
 * summaries) and 'segc CMD --help' (its synopsis and options, one line
 * per option the command's parser accepts; the test tests/cli/help.sh
 * holds the help, the parser and the man page to the same list). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* The options of one command, one help line each. */
static const struct command_options {
	const char *command;
	const char *lines;
} options[] = {
	{ "derive",
	  "      --component C   total, comp, comm or io (default total)\n"
	  "      --form F        canonical (default), readable or structural\n"
	  "      --asymptotic NAME  the leading term(s) as NAME grows\n"
	  "      --json          one JSON object: every component, the free\n"
	  "                      names and their domains, the conditions\n"
	  "      --lets          keep the lets as names, defined after the "
	  "formula\n"
	  "      --keep NAME     keep NAME a symbol, not its value "
	  "(repeatable)\n"
	  "      --keep-all      keep every let, parameter value, machine "
	  "const\n"
	  "                      and cost a symbol\n"
	  "      --collect NAME  collect the terms with a factor NAME "
	  "(repeatable)\n"
	  "      --collect-resources  collect the terms by each resource\n"
	  "      --where         name repeated and long subexpressions, "
	  "defined\n"
	  "                      after the formula\n" },
	{ "latex",
	  "      --component C   total, comp, comm or io (default total)\n"
	  "      --form F        readable (default), structural or canonical\n"
	  "      --standalone    a complete document with every component\n"
	  "      --lets          keep the lets as names, defined after the "
	  "formula\n"
	  "      --keep NAME     keep NAME a symbol, not its value "
	  "(repeatable)\n"
	  "      --keep-all      keep every let, parameter value, machine "
	  "const\n"
	  "                      and cost a symbol\n"
	  "      --collect NAME  collect the terms with a factor NAME "
	  "(repeatable)\n"
	  "      --collect-resources  collect the terms by each resource\n"
	  "      --where         name repeated and long subexpressions, "
	  "defined\n"
	  "                      after the formula\n"
	  "      --width W       break lines to fit W points of text (default\n"
	  "                      345 with --standalone, else one line)\n" },
	{ "emit",
	  "  -o, --output BASE   write BASE.c and BASE.h (default: the "
	  "model's name)\n"
	  "      --lang L        c (default), python (BASE.py) or fortran (BASE.f90)\n"
	  "      --prefix NAME   name the functions NAME_total, ... (default:\n"
	  "                      BASE's last component)\n"
	  "      --keep NAME     make NAME an argument of the functions "
	  "(repeatable)\n"
	  "      --template DIR  read the templates from DIR\n"
	  "      --main          add a main() that prints a table over a grid\n"
	  "      --accurate      evaluate in double-double arithmetic\n"
	  "      --where         name repeated and long subexpressions in "
	  "the comments\n" },
	{ "check",
	  "      --component C   total, comp, comm or io (default: every "
	  "<expect>)\n"
	  "      --expect FORMULA  compare with FORMULA instead of the "
	  "<expect>s\n"
	  "      --json          the verdicts as one JSON document "
	  "(doc/json.md)\n" },
	{ "eval",
	  "      --precision BITS  MPFR precision (default 128)\n"
	  "      --digits D      significant digits printed (default 6)\n"
	  "      --arith A       ball (default: arb balls, certified) or "
	  "exact\n"
	  "                      (rationals throughout)\n"
	  "      --csv           comma-separated values\n"
	  "      --json          the table as one JSON document, exact values "
	  "beside\n"
	  "                      the decimals (doc/json.md)\n"
	  "      --svg FILE      also plot the components against the swept "
	  "name\n"
	  "      --form F        structural (default) or canonical\n"
	  "      --procs NAME    the processor count of speedup and "
	  "efficiency\n"
	  "                      (default P)\n"
	  "      --scaling S     strong (default: T(1)/T(P)) or weak "
	  "(P*T(1)/T(P),\n"
	  "                      N growing with P as -D N=...*P binds it)\n"
	  "      --measured DATA.csv  evaluate at the rows of DATA.csv, "
	  "with the\n"
	  "                      measured times and relative errors ('-': "
	  "standard\n"
	  "                      input)\n"
	  "      --column NAME=COLUMN  read the column COLUMN of DATA.csv as "
	  "NAME\n"
	  "      --aggregate HOW  repeated configurations as one row: mean, "
	  "median\n"
	  "                      or min\n"
	  "      --data-format F  auto (default), csv, extrap-text or "
	  "extrap-json\n"
	  "      --callpath PATH  the call path of an Extra-P experiment\n"
	  "      --metric NAME   the metric of an Extra-P experiment\n"
	  "      --map X Y       the total over the grid of X and Y: a "
	  "matrix, and\n"
	  "                      with --svg a forecast map\n"
	  "      --component C   the component --map shows: total "
	  "(default),\n"
	  "                      comp, comm or io\n"
	  "      --plot W        what --svg draws: time (default), speedup "
	  "or\n"
	  "                      efficiency\n" },
	{ "fit",
	  "      --free NAME...  the names to fit (repeatable, or a comma "
	  "list)\n"
	  "  -o, --output FILE   write the fitted machine to FILE\n"
	  "      --weight W      absolute (default) or relative errors\n"
	  "      --start NAME=V  a starting value of a nonlinear fit "
	  "(default 1)\n"
	  "      --max-iterations N  of a nonlinear fit (default 200)\n"
	  "      --column NAME=COLUMN  read the column COLUMN of DATA.csv as "
	  "NAME\n"
	  "      --aggregate HOW  repeated configurations as one equation: "
	  "mean,\n"
	  "                      median or min (with their spread)\n"
	  "      --data-format F  auto (default), csv, extrap-text or "
	  "extrap-json\n"
	  "      --callpath PATH  the call path of an Extra-P experiment\n"
	  "      --metric NAME   the metric of an Extra-P experiment\n"
	  "      --json          the fit as one JSON document (doc/json.md)\n"
	  "      --digits D      significant digits printed (default 12)\n" },
};

/* The options of each analysis command, for its --help. */
static const char *const option_help[][2] = {
	{ "optimize",
	  "  --min Q, --max Q    the quantity to make least or most: total, comp,\n"
	  "                      comm, io, speedup, efficiency or an expression\n"
	  "                      of them and the model's names\n"
	  "  --over NAME=A..B    the name varied over the integers A..B\n"
	  "  --json              one JSON document (doc/json.md)\n"
	  "  NAME=VALUE          bind a parameter (as -D)\n" },
	{ "solve",
	  "  --for NAME          the name solved for\n"
	  "  --in A..B           the range where roots are sought (exact numbers;\n"
	  "                      default: the declared domain of NAME, bounded\n"
	  "                      by Cauchy's bound on the roots)\n"
	  "  --digits D          significant digits of irrational roots (30)\n"
	  "  --json              one JSON document (doc/json.md)\n"
	  "  EQUATION            LEFT = RIGHT, each side as Q of optimize\n"
	  "  NAME=VALUE          bind a parameter (as -D)\n" },
	{ "whatif",
	  "  --scale SPEC        NAME[,NAME...]=FACTOR (resources, machine\n"
	  "                      constants) or class:C=FACTOR (every cost of\n"
	  "                      component C); repeatable: one scenario each\n"
	  "  --component C       total (default), comp, comm or io\n"
	  "  --digits D          significant digits of the table (6)\n"
	  "  --table             the tables only, not the closed forms\n"
	  "  --json              one JSON document (doc/json.md)\n"
	  "  NAME=RANGE          a grid: V, A..B, A..B*K or V1,V2,...\n" },
	{ "sensitivity",
	  "  --component C       total (default), comp, comm or io\n"
	  "  --digits D          significant digits of the table (6)\n"
	  "  --json              one JSON document (doc/json.md)\n"
	  "  NAME=RANGE          a grid: V, A..B, A..B*K or V1,V2,...\n" },
};

/* The help of the options of the analysis command 'command', or NULL. */
static const char *analysis_options(const char *command)
{
	size_t i;

	for (i = 0; i < sizeof option_help / sizeof option_help[0]; i++)
		if (!strcmp(option_help[i][0], command))
			return option_help[i][1];
	return NULL;
}

/* Prints the options of 'command' (nothing for a command without any),
 * then the COMMON options. */
void cli_options_help(const char *command)
{
	size_t i;

	for (i = 0; i < sizeof options / sizeof options[0]; i++)
		if (!strcmp(options[i].command, command))
			printf("Options:\n%s\n", options[i].lines);
	if (analysis_options(command))
		printf("Options:\n%s\n", analysis_options(command));
	printf("Common options:\n"
	       "  -m, --machine FILE  apply the machine described in FILE\n"
	       "  -D, --define NAME=VALUE  bind a declared name (repeatable)\n"
	       "  -q, --quiet         quiet\n"
	       "      --limit NAME=VALUE  change an internal limit "
	       "(doc/limits.md)\n"
	       "  -h, --help          show this help\n\n"
	       "See 'man segc' for every option of this command.\n");
}

/* One command of the program: its synopsis and one-line summary. */
static const struct command_help {
	const char *name;
	const char *synopsis;
	const char *summary;
} commands[] = {
	{ "derive",
	  "[COMMON] [--component C] [--form F] [--asymptotic NAME] [--json]\n"
	  "                 MODEL.xml",
	  "print the timing formula (canonical or structural form)" },
	{ "latex",
	  "[COMMON] [--component C] [--form F] [--standalone] [--width W] MODEL.xml",
	  "print the formula as LaTeX, or a complete document" },
	{ "emit",
	  "[COMMON] [-o BASE] [--prefix NAME] [--keep NAME]...\n"
	  "                 [--template DIR] [--main] [--accurate]\n"
	  "                 [--lang c|python|fortran] MODEL.xml",
	  "write a standalone predictor: C99 (BASE.c, BASE.h) or Python" },
	{ "check",
	  "[COMMON] [--component C] [--expect FORMULA] MODEL.xml",
	  "compare the derived formula with the expected ones" },
	{ "eval",
	  "[COMMON] [--precision BITS] [--digits D] [--csv] [--svg FILE]\n"
	  "                 [--form F] [--procs NAME] [--arith ball|exact]\n"
	  "                 MODEL.xml NAME=RANGE|NAME=[LO,HI]...",
	  "evaluate every component over a grid (MPFR)" },
	{ "validate",
	  "[COMMON] MODEL.xml|MACHINE.xml",
	  "check a document against the format; silent when valid" },
	{ "dot",
	  "[COMMON] MODEL.xml",
	  "print the graph in Graphviz DOT" },
	{ "fit",
	  "[COMMON] --free NAME... [-o MACHINE.xml] [--weight W]\n"
	  "                 [--digits D] MODEL.xml DATA.csv",
	  "fit resources or machine constants to measured times" },
	{ "optimize",
	  "[COMMON] (--min | --max) Q --over NAME=A..B MODEL.xml\n"
	  "                 [NAME=VALUE...]",
	  "the integer NAME in A..B where Q is least or most, certified" },
	{ "solve",
	  "[COMMON] --for NAME [--in A..B] [--digits D] EQUATION MODEL.xml\n"
	  "                 [NAME=VALUE...]",
	  "every real root of an equation in NAME, isolated exactly" },
	{ "whatif",
	  "[COMMON] --scale SPEC... [--component C] [--digits D] [--table]\n"
	  "                 MODEL.xml [NAME=RANGE...]",
	  "the exact speedup when some costs change by a factor" },
	{ "sensitivity",
	  "[COMMON] [--component C] [--digits D] MODEL.xml [NAME=RANGE...]",
	  "exact derivatives and elasticities of every free name" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Prints the program's help (see cli.h). */
void cli_program_help(void)
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

/* Prints the help of the command named 'name' (see cli.h). */
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
