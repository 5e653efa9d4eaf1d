/* cmd_latex.c - the 'latex' command (not built yet). */
#include "cli.h"

/* Runs 'segc latex'. */
int cmd_latex(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("latex");
}
