/* cli_keep.c - the options 'latex' and 'derive' share to write a formula
 * for a paper (see cli_keep.h): a kept name is bound to itself, which
 * wins over the value the model or a machine gives it (as 'emit --keep'
 * does), so it stays a symbol; collecting is segc_collect. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_keep.h"
#include "cli/cli_util.h"

/* Takes the value of --'name' into 'list' (at most CLI_MAX_KEEP): 1, 0
 * when argv[*i] is not that option, -1 after a usage error. */
static int list_option(cli_common *c, int argc, char **argv, int *i,
	const char *name, const char **list, size_t *n)
{
	const char *v;
	int r = cli_option_value(c, argc, argv, i, name, 0, &v);

	if (r <= 0)
		return r;
	if (!cli_is_name(v))
		return cli_usage(c, "--%s %s: not a name", name, v), -1;
	if (*n == CLI_MAX_KEEP)
		return cli_usage(c, "at most %d --%s names", CLI_MAX_KEEP,
			name), -1;
	list[(*n)++] = v;
	return 1;
}

/* See cli_keep.h. */
int cli_keep_option(cli_common *c, int argc, char **argv, int *i,
	cli_keep *k)
{
	int r;

	if (!strcmp(argv[*i], "--where")) {
		k->where = 1;
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "--lets") || !strcmp(argv[*i], "--keep-all")
			|| !strcmp(argv[*i], "--collect-resources")) {
		if (!strcmp(argv[*i], "--lets"))
			k->lets = 1;
		else if (!strcmp(argv[*i], "--keep-all"))
			k->all = 1;
		else
			k->resources = 1;
		(*i)++;
		return 1;
	}
	if ((r = list_option(c, argc, argv, i, "keep", k->keep,
			&k->nkeep)) != 0)
		return r;
	return list_option(c, argc, argv, i, "collect", k->collect,
		&k->ncollect);
}

/* See cli_keep.h. */
int cli_keep_any(const cli_keep *k)
{
	return k->lets || k->all || k->resources || k->nkeep || k->ncollect;
}

/* The index of 'name' among the bindings of 'c', or -1. */
static long bound_at(const cli_common *c, const char *name)
{
	size_t i;

	for (i = 0; i < segc_bindings_count(c->bindings); i++)
		if (!strcmp(segc_bindings_name(c->bindings, i), name))
			return (long)i;
	return -1;
}

/* Binds 'name' to itself; 0 or the exit code (reported). */
static int bind_self(segc_ctx *ctx, cli_common *c, const char *name)
{
	char *text = cli_xmalloc(2 * strlen(name) + 2);
	int rc;

	sprintf(text, "%s=%s", name, name);
	rc = segc_bindings_add(ctx, c->bindings, text) ? cli_report(ctx) : 0;
	free(text);
	return rc;
}

/* See cli_keep.h. */
int cli_keep_bind(segc_ctx *ctx, cli_common *c, const cli_keep *k)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < k->nkeep; i++)
		if (bound_at(c, k->keep[i]) >= 0)
			return cli_usage(c, "'%s' is both kept (--keep) and "
				"bound (-D)", k->keep[i]);
	for (i = 0; i < k->ncollect; i++)
		if (bound_at(c, k->collect[i]) >= 0)
			return cli_usage(c, "'%s' is both collected (--collect) "
				"and bound (-D)", k->collect[i]);
	for (i = 0; i < k->nkeep && !rc; i++)
		rc = bind_self(ctx, c, k->keep[i]);
	return rc;
}

/* Binds each of the 'n' names to itself unless -D binds it. */
static int bind_unbound(segc_ctx *ctx, cli_common *c, const char **names,
	size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++)
		if (bound_at(c, names[i]) < 0)
			rc = bind_self(ctx, c, names[i]);
	return rc;
}

/* See cli_keep.h. */
int cli_keep_setting(segc_ctx *ctx, cli_common *c, const cli_keep *k,
	const segc_setting *s)
{
	const char **names = NULL;
	unsigned what = (k->lets ? SEGC_NAMES_LETS : 0u)
		| (k->all ? SEGC_NAMES_LETS | SEGC_NAMES_VALUES : 0u)
		| (k->resources ? SEGC_NAMES_RESOURCES : 0u);
	size_t n, i;
	int rc = 0;

	for (i = 0; i < k->ncollect; i++)
		if (cli_check_declared(c, s, "--collect", k->collect[i]))
			return CLI_USAGE;
	n = what ? segc_setting_names(s, what, &names) : 0;
	rc = bind_unbound(ctx, c, names, n);
	free(names);
	if (!rc)
		rc = bind_unbound(ctx, c, (const char **)k->collect,
			k->ncollect);
	return rc;
}

/* See cli_keep.h. */
void cli_keep_collect(segc_ctx *ctx, cli_common *c, const cli_keep *k,
	const segc_setting *s, int readable, segc_expr **f, size_t n)
{
	segc_domains *dom = NULL;
	const char **res = NULL, **names;
	unsigned *found, *any;
	size_t nres = k->resources ? segc_setting_names(s,
		SEGC_NAMES_RESOURCES, &res) : 0, nn = k->ncollect + nres, i, j;

	if (!nn) {
		free(res);
		return;
	}
	names = cli_xmalloc(nn * sizeof *names);
	found = cli_xmalloc(nn * sizeof *found);
	any = cli_xcalloc(nn, sizeof *any);
	for (i = 0; i < k->ncollect; i++)
		names[i] = k->collect[i];
	for (i = 0; i < nres; i++)
		names[k->ncollect + i] = res[i];
	if (readable)
		dom = segc_setting_domains(ctx, s);
	for (j = 0; j < n; j++) {
		segc_expr *e;

		if (!f[j])
			continue;
		e = dom ? segc_collect_readable(ctx, dom, f[j], nn, names,
			found) : segc_collect(f[j], nn, names, found);
		segc_expr_free(f[j]);
		f[j] = e;
		for (i = 0; i < nn; i++)
			any[i] |= found[i];
	}
	for (i = 0; i < k->ncollect; i++)
		if (!any[i])
			fprintf(stderr, "segc: %s: warning: --collect %s: no term "
				"of the formula has the factor %s\n", c->command,
				names[i], names[i]);
	segc_domains_free(dom);
	free(any);
	free(found);
	free(names);
	free(res);
}
