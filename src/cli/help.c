/* help.c - the options of each command as 'segc CMD --help' lists them:
 * one line per option the command's parser accepts (the test
 * tests/cli/help.sh holds the help, the parser and the man page to the
 * same list). */
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

/* Prints the options of 'command' (nothing for a command without any),
 * then the COMMON options. */
void cli_options_help(const char *command)
{
	size_t i;

	for (i = 0; i < sizeof options / sizeof options[0]; i++)
		if (!strcmp(options[i].command, command))
			printf("Options:\n%s\n", options[i].lines);
	if (cli_analysis_options(command))
		printf("Options:\n%s\n", cli_analysis_options(command));
	printf("Common options:\n"
	       "  -m, --machine FILE  apply the machine described in FILE\n"
	       "  -D, --define NAME=VALUE  bind a declared name (repeatable)\n"
	       "  -q, --quiet         quiet\n"
	       "      --limit NAME=VALUE  change an internal limit "
	       "(doc/limits.md)\n"
	       "  -h, --help          show this help\n\n"
	       "See 'man segc' for every option of this command.\n");
}
