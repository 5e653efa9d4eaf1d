/* cli_options.c - reading one option of the command line and its value,
 * and the usage error that a bad one gets (cli.h): what every command's
 * parser and the COMMON options (common.c, limits.c) build on. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Reports a usage error of 'c''s command and returns CLI_USAGE. */
int cli_usage(const cli_common *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "segc: %s: ", c->command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'segc %s --help' for more information.\n",
		c->command);
	return CLI_USAGE;
}

/* Matches argv[*i] against option "--'name'" or "-'shortopt'", taking its
 * value from "=VALUE" or the next argument. */
int cli_option_value(const cli_common *c, int argc, char **argv, int *i,
	const char *name, char shortopt, const char **value)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	if (a[0] == '-' && a[1] == '-' && !strncmp(a + 2, name, len) &&
	    a[2 + len] == '=') {
		*value = a + 3 + len;
		*i += 1;
		return 1;
	}
	if (!((a[0] == '-' && a[1] == '-' && !strcmp(a + 2, name)) ||
	      (shortopt && a[0] == '-' && a[1] == shortopt && !a[2])))
		return 0;
	if (*i + 1 >= argc) {
		cli_usage(c, "option '%s' requires an argument", a);
		return -1;
	}
	*value = argv[*i + 1];
	*i += 2;
	return 1;
}

/* Reads the whole number 'v' of option --'name' within [lo, hi] (see
 * cli.h). */
int cli_number_option(const cli_common *c, const char *name, const char *v,
	long lo, long hi, long *out)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (!*v || *end || x < lo || x > hi)
		return cli_usage(c, "--%s needs a whole number from %ld to %ld",
			name, lo, hi), -1;
	*out = x;
	return 1;
}

/* Consumes --digits D, 1 to 1000 (see cli.h). */
int cli_digits_option(const cli_common *c, int argc, char **argv, int *i,
	long *digits)
{
	const char *v;
	int r = cli_option_value(c, argc, argv, i, "digits", 0, &v);

	return r <= 0 ? r : cli_number_option(c, "digits", v, 1, 1000, digits);
}

/* The precision that prints 'digits' correct digits (cli.h). */
long cli_bits_for_digits(long bits, long digits)
{
	long need = 4 * digits + 64;

	return bits > need ? bits : need;
}
