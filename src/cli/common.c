/* common.c - what every command shares: COMMON options, loading the model
 * and machine, printing diagnostics in GNU style. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_limits.h"

/* Sets 'c' to no options given for 'command'. */
void cli_common_init(cli_common *c, const char *command)
{
	memset(c, 0, sizeof *c);
	c->command = command;
	c->bindings = segc_bindings_new();
}

/* Releases what 'c' holds. */
void cli_common_clear(cli_common *c)
{
	segc_bindings_free(c->bindings);
	c->bindings = NULL;
}

/* Reports (1) a -D assignment 'text' whose name an earlier -D gave. */
static int given_twice(const cli_common *c, const char *text)
{
	const char *eq = strchr(text, '=');
	size_t i, len = eq ? (size_t)(eq - text) : strlen(text);

	for (i = 0; i < segc_bindings_count(c->bindings); i++) {
		const char *name = segc_bindings_name(c->bindings, i);

		if (strlen(name) == len && !strncmp(name, text, len))
			return cli_usage(c, "-D %s: '%s' is given twice", text,
				name), 1;
	}
	return 0;
}

/* Consumes a COMMON option at argv[*i]. */
int cli_common_option(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	int *i)
{
	const char *value;
	int r;

	if (!strcmp(argv[*i], "-q") || !strcmp(argv[*i], "--quiet")) {
		c->quiet = 1;
		*i += 1;
		return 1;
	}
	if ((r = cli_limit_option(ctx, c, argc, argv, i)) != 0)
		return r;
	r = cli_option_value(c, argc, argv, i, "machine", 'm', &value);
	if (r) {
		if (r > 0)
			c->machine_file = value;
		return r;
	}
	if (!strncmp(argv[*i], "-D", 2) && argv[*i][2]) {
		value = argv[*i] + 2;
		*i += 1;
	} else {
		r = cli_option_value(c, argc, argv, i, "define", 'D', &value);
		if (r <= 0)
			return r;
	}
	if (given_twice(c, value))
		return -1;
	if (segc_bindings_add(ctx, c->bindings, value) < 0) {
		cli_report(ctx);
		return -1;
	}
	return 1;
}

/* Hands the operand 'arg' to the command, or takes it as the FILE. */
static int take_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	cli_operand_fn operand, void *opts)
{
	int r = operand ? operand(ctx, c, arg, opts) : 0;

	if (r)
		return r < 0 ? -1 : 0;
	if (c->file)
		return cli_usage(c, "one file at a time ('%s' and '%s')",
			c->file, arg), -1;
	c->file = arg;
	return 0;
}

/* Reads the arguments of a command (see cli.h). */
int cli_parse_args(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	cli_option_fn option, cli_operand_fn operand, void *opts)
{
	int i = 1, r, options = 1;

	while (i < argc) {
		const char *a = argv[i];

		if (options && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			cli_command_help(c->command);
			return 1;
		}
		if (options && !strcmp(a, "--")) {
			options = 0;
			i++;
			continue;
		}
		if (options && a[0] == '-' && a[1]) {
			r = option ? option(c, argc, argv, &i, opts) : 0;
			if (!r)
				r = cli_common_option(ctx, c, argc, argv, &i);
			if (r < 0)
				return -1;
			if (!r)
				return cli_usage(c, "unknown option '%s'", a), -1;
			continue;
		}
		if (take_operand(ctx, c, a, operand, opts))
			return -1;
		i++;
	}
	if (!c->file)
		return cli_usage(c, "a file is required"), -1;
	return 0;
}

/* Prints every diagnostic of 'ctx' and returns the exit code they call
 * for. */
int cli_report(segc_ctx *ctx)
{
	size_t i, n = segc_ctx_n_diags(ctx);
	/* After a diagnostic with a line and a column, its source line and
	 * a caret: SEGC_CARET=always|never|auto (auto: on a terminal). */
	const char *caret = getenv("SEGC_CARET");
	int excerpts = caret && !strcmp(caret, "always") ? 1 :
		caret && !strcmp(caret, "never") ? 0 : isatty(2);

	for (i = 0; i < n; i++) {
		const segc_diag *d = segc_ctx_diag(ctx, i);
		char *ex;

		if (!d->file)
			fprintf(stderr, "segc: ");
		else if (!d->line)
			fprintf(stderr, "%s: ", d->file);
		else if (!d->col)
			fprintf(stderr, "%s:%lu: ", d->file, d->line);
		else
			fprintf(stderr, "%s:%lu:%lu: ", d->file, d->line,
				d->col);
		fprintf(stderr, "%s: %s\n",
			d->code == SEGC_ERR_INTERNAL ? "internal error" :
			"error", d->message);
		if (excerpts && d->file && d->line && d->col &&
		    (ex = segc_source_excerpt_file(d->file, d->line,
			d->col)) != NULL) {
			fputs(ex, stderr);
			free(ex);
		}
	}
	switch (segc_ctx_status(ctx)) {
	case SEGC_OK:
		return CLI_OK;
	case SEGC_ERR_LIMIT:
		return CLI_LIMIT;
	case SEGC_ERR_INPUT:
		return CLI_USAGE;
	default:
		return CLI_INTERNAL;
	}
}

/* Reports (CLI_USAGE) 'name', which 'how' gives a value ("-D", "--keep",
 * "the grid"), when the model and machine of 's' do not declare it. */
int cli_check_declared(const cli_common *c, const segc_setting *s,
	const char *how, const char *name)
{
	const char *near;

	if (segc_setting_declares(s, name, &near))
		return 0;
	if (near)
		return cli_usage(c, "%s '%s': the model declares no such name "
			"(did you mean '%s'?)", how, name, near);
	return cli_usage(c, "%s '%s': the model declares no such name (not "
		"a parameter, resource, let, machine const or cost, N or P)",
		how, name);
}

/* The reason why 'v' lies outside the domain 'd' declares for 'name'
 * ("below its minimum", ...), or NULL. */
const char *cli_domain_why(const segc_domains *d, const char *name,
	mpq_srcptr v)
{
	mpq_srcptr lo, hi;
	int integer;

	if (!segc_domains_get(d, name, &lo, &hi, &integer))
		return NULL;
	return lo && mpq_cmp(v, lo) < 0 ? "below its minimum" : hi &&
		mpq_cmp(v, hi) > 0 ? "above its maximum" : integer &&
		mpz_cmp_ui(mpq_denref(v), 1) ? "not an integer" : NULL;
}

/* Reports (CLI_USAGE) a number that -D gives 'name' outside the domain
 * 'd' declares for it: a formula simplified on that domain need not hold
 * there.  CLI_OK when it lies inside, or the domain says nothing. */
static int check_bound_value(const cli_common *c, const segc_domains *d,
	const char *name, mpq_srcptr v)
{
	mpq_srcptr lo, hi;
	int integer, rc;
	const char *why;
	char *q, *l, *h;

	if (!d || !(why = cli_domain_why(d, name, v)))
		return CLI_OK;
	segc_domains_get(d, name, &lo, &hi, &integer);
	q = mpq_get_str(NULL, 10, v);
	l = lo ? mpq_get_str(NULL, 10, lo) : NULL;
	h = hi ? mpq_get_str(NULL, 10, hi) : NULL;
	rc = cli_usage(c, "-D %s=%s is %s: the model declares %s in [%s, %s]%s",
		name, q, why, name, l ? l : "-inf", h ? h : "+inf",
		integer ? ", an integer" : "");
	free(q);
	free(l);
	free(h);
	return rc;
}

/* Checks every name of -D (and --keep, bound to itself) against the
 * model and machine: CLI_USAGE (reported) when one is not declared, or
 * when -D gives a number outside the name's declared domain. */
static int check_bindings(segc_ctx *ctx, const cli_common *c,
	const segc_model *model, const segc_machine *machine)
{
	segc_setting s;
	segc_domains *d = NULL;
	size_t i;
	int rc = CLI_OK;

	s.model = model;
	s.machine = machine;
	s.bindings = NULL;
	for (i = 0; i < segc_bindings_count(c->bindings); i++) {
		const char *name = segc_bindings_name(c->bindings, i);
		const segc_expr *v = segc_bindings_value(c->bindings, i);
		int kept = segc_expr_kind(v) == SEGC_SYM &&
			!strcmp(segc_expr_name(v), name);

		s.bindings = c->bindings;
		if (cli_check_declared(c, &s, kept ? "--keep" : "-D", name)) {
			rc = CLI_USAGE;
			break;
		}
		if (segc_expr_kind(v) != SEGC_NUM)
			continue;
		if (!d) {
			s.bindings = NULL;
			d = segc_setting_domains(ctx, &s);
		}
		if ((rc = check_bound_value(c, d, name, segc_expr_value(v))))
			break;
	}
	segc_domains_free(d);
	return rc;
}

/* Reads the model at 'path' and the machine of -m. */
int cli_load(segc_ctx *ctx, cli_common *c, const char *path,
	segc_model **model, segc_machine **machine)
{
	int rc;

	*machine = NULL;
	*model = segc_model_read_file(ctx, path);
	if (*model && c->machine_file)
		*machine = segc_machine_read_file(ctx, c->machine_file);
	if (*model && (!c->machine_file || *machine) &&
	    segc_ctx_status(ctx) == SEGC_OK) {
		rc = check_bindings(ctx, c, *model, *machine);
		if (!rc)
			return CLI_OK;
		segc_machine_free(*machine);
		segc_model_free(*model);
		*model = NULL;
		*machine = NULL;
		return rc;
	}
	segc_machine_free(*machine);
	segc_model_free(*model);
	*model = NULL;
	*machine = NULL;
	rc = cli_report(ctx);
	return rc ? rc : CLI_USAGE;
}

/* Checks that 'e' can be written out (see cli.h). */
int cli_writable(segc_ctx *ctx, const char *file, const segc_expr *e)
{
	unsigned long cap = segc_ctx_limits(ctx)->max_output_nodes;

	if (!cap || segc_expr_tree_size(e, (size_t)cap + 1) <= cap)
		return 0;
	segc_error(ctx, SEGC_ERR_LIMIT, file, 0, 0, "the formula would have "
		"more than %lu nodes when written out (max_output_nodes)", cap);
	return -1;
}

/* Says that 'command' is not built yet. */
int cli_not_built(const char *command)
{
	fprintf(stderr, "segc: %s: this command is not built yet\n", command);
	return CLI_USAGE;
}
