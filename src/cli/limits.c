/* limits.c - the COMMON option --limit NAME=VALUE: sets one field of the
 * context's segc_limits from the command line (doc/limits.md lists them,
 * their defaults and what each protects). */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_limits.h"

/* One limit: its name (the field of segc_limits), where it lives and its
 * largest value (0: that of its type). */
struct limit_field {
	const char *name;
	size_t offset;
	int is_long;   /* max_exponent is a long; the others unsigned long */
	unsigned long max;
};

#define ULIMIT(f) { #f, offsetof(segc_limits, f), 0, 0 }

static const struct limit_field limit_fields[] = {
	ULIMIT(max_file_bytes),
	{ "max_depth", offsetof(segc_limits, max_depth), 0,
		SEGC_MAX_DEPTH_CEILING },
	ULIMIT(max_nodes),
	ULIMIT(max_terms),
	{ "max_literal_digits", offsetof(segc_limits, max_literal_digits), 0,
		SEGC_MAX_LITERAL_DIGITS_CEILING },
	ULIMIT(max_coeff_bits),
	{ "max_exponent", offsetof(segc_limits, max_exponent), 1, 0 },
	ULIMIT(max_sum_degree),
	ULIMIT(max_markov_states),
	ULIMIT(max_errors),
	ULIMIT(max_mva_p),
	ULIMIT(max_output_nodes),
	ULIMIT(max_work),
	ULIMIT(max_eval_terms),
	ULIMIT(max_memory),
};

#define NLIMITS (sizeof limit_fields / sizeof limit_fields[0])

/* The limit called 'name' ('len' bytes, with or without "max_"), or
 * NULL. */
static const struct limit_field *limit_find(const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < NLIMITS; k++) {
		const char *f = limit_fields[k].name;

		if ((strlen(f) == len && !strncmp(f, name, len)) ||
		    (strlen(f + 4) == len && !strncmp(f + 4, name, len)))
			return &limit_fields[k];
	}
	return NULL;
}

/* Reads a decimal number no larger than 'max' from all of 's' into
 * '*out': 0 on success, -1 otherwise. */
static int limit_number(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The names of every limit, comma-separated, into 'buf' of 'size'
 * bytes. */
static void limit_names(char *buf, size_t size)
{
	size_t k, len = 0;

	buf[0] = '\0';
	for (k = 0; k < NLIMITS && len + 40 < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
			k ? ", " : "", limit_fields[k].name);
}

/* Applies "NAME=VALUE" to the limits of 'ctx'; 0, or -1 after a usage
 * error. */
static int limit_apply(segc_ctx *ctx, const cli_common *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const struct limit_field *f;
	unsigned long v, max;
	char *base = (char *)segc_ctx_limits(ctx);
	char names[512];

	f = eq ? limit_find(arg, (size_t)(eq - arg)) : NULL;
	if (!f) {
		limit_names(names, sizeof names);
		cli_usage(c, "--limit wants NAME=VALUE with NAME one of %s",
			names);
		return -1;
	}
	max = f->is_long ? (unsigned long)LONG_MAX : ULONG_MAX;
	if (f->max)
		max = f->max;
	if (limit_number(eq + 1, max, &v)) {
		cli_usage(c, "--limit %s: the value is not a number from 0 "
			"to %lu%s", f->name, max, f->max ? " (the most this "
			"limit can be)" : "");
		return -1;
	}
	if (f->is_long)
		*(long *)(void *)(base + f->offset) = (long)v;
	else
		*(unsigned long *)(void *)(base + f->offset) = v;
	return 0;
}

/* Consumes "--limit NAME=VALUE" at argv[*i]. */
int cli_limit_option(segc_ctx *ctx, const cli_common *c, int argc,
	char **argv, int *i)
{
	const char *value;
	int r = cli_option_value(c, argc, argv, i, "limit", 0, &value);

	if (r <= 0)
		return r;
	return limit_apply(ctx, c, value) ? -1 : 1;
}
