/* cli_analysis.c - what the analysis commands (optimize, solve, whatif,
 * sensitivity) share: ranges A..B, NAME=VALUE operands, the check that a
 * name may vary, and exact numbers written with an approximation. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* The exact value of the expression in the 'len' bytes at 'text' (see
 * cli.h). */
int cli_exact_number(segc_ctx *ctx, const char *text, size_t len, mpq_t q)
{
	char *s = cli_xmalloc(len + 1);
	segc_expr *e;
	int rc = -1;

	memcpy(s, text, len);
	s[len] = '\0';
	e = len ? segc_expr_parse(ctx, s, NULL) : NULL;
	if (e && !segc_expr_eval_q(q, e, 0, NULL, NULL))
		rc = 0;
	segc_expr_free(e);
	free(s);
	segc_ctx_clear(ctx);
	return rc;
}

/* Reads "A..B" (see cli.h). */
int cli_range(segc_ctx *ctx, const cli_common *c, const char *what,
	const char *text, int integers, mpq_t lo, mpq_t hi)
{
	const char *dots = strstr(text, "..");

	if (!dots || cli_exact_number(ctx, text, (size_t)(dots - text), lo) ||
	    cli_exact_number(ctx, dots + 2, strlen(dots + 2), hi))
		return cli_usage(c, "bad range '%s' in %s: A..B with exact "
			"numbers", text, what);
	if (integers && (mpz_cmp_ui(mpq_denref(lo), 1) ||
	    mpz_cmp_ui(mpq_denref(hi), 1)))
		return cli_usage(c, "the range '%s' in %s needs integer ends",
			text, what);
	if (mpq_cmp(lo, hi) > 0)
		return cli_usage(c, "the range '%s' in %s is empty", text,
			what);
	return 0;
}

/* Splits "NAME=RANGE" at its '=' (see cli.h). */
int cli_name_range(const cli_common *c, const char *what, const char *text,
	char **name, const char **range)
{
	const char *eq = strchr(text, '=');
	size_t i, n;

	n = eq ? (size_t)(eq - text) : 0;
	for (i = 0; i < n; i++)
		if (!(text[i] == '_' || (text[i] >= 'A' && text[i] <= 'Z') ||
		      (text[i] >= 'a' && text[i] <= 'z') ||
		      (i && text[i] >= '0' && text[i] <= '9')))
			break;
	if (!n || i < n)
		return cli_usage(c, "%s '%s' is not NAME=%s", what, text,
			strstr(what, "over") ? "A..B" : strstr(what, "grid") ?
			"RANGE" : "VALUE");
	*name = cli_xmalloc(n + 1);
	memcpy(*name, text, n);
	(*name)[n] = '\0';
	*range = eq + 1;
	return 0;
}

/* Takes a NAME=VALUE operand as a binding (see cli.h). */
int cli_bind_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	(void)opts;
	if (!strchr(arg, '='))
		return 0;
	if (segc_bindings_add(ctx, c->bindings, arg) < 0) {
		cli_report(ctx);
		return -1;
	}
	return 1;
}

/* Checks that 'name' may vary under 's' (see cli.h). */
int cli_free_name(segc_ctx *ctx, const cli_common *c, const segc_setting *s,
	const char *name)
{
	segc_expr *v = segc_setting_apply(ctx, s, segc_expr_sym(name), NULL);
	int free_name = v && segc_expr_kind(v) == SEGC_SYM &&
		!strcmp(segc_expr_name(v), name);
	char *t;

	if (!v) {
		segc_ctx_clear(ctx);
		return cli_usage(c, "unknown name '%s': not a parameter, "
			"resource, N or P of the model", name);
	}
	t = segc_expr_to_string(v);
	segc_expr_free(v);
	if (!free_name) {
		cli_usage(c, "'%s' cannot vary: it is bound to %.100s (by -D, "
			"a NAME=VALUE, the model or the machine)", name, t);
		free(t);
		return CLI_USAGE;
	}
	free(t);
	return 0;
}

/* Prints the exact number 'q' and, when it is not an integer, about
 * what it is in decimal (see cli.h). */
void cli_print_number(mpq_srcptr q)
{
	char *s = mpq_get_str(NULL, 10, q);
	char buf[64];
	mpfr_t x;

	cli_puts(s);
	free(s);
	if (!mpz_cmp_ui(mpq_denref(q), 1))
		return;
	mpfr_init2(x, 128);
	mpfr_set_q(x, q, MPFR_RNDN);
	mpfr_snprintf(buf, sizeof buf, "%.12Rg", x);
	cli_printf(" (about %s)", buf);
	mpfr_clear(x);
}
