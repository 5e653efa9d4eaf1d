/* json_check.c - the document of 'segc check --json' (doc/json.md): one
 * result per expectation checked, with the verdict, both formulas and,
 * for one that does not hold, the witness point or the counts of the
 * sample points that agreed. */
#include <config.h>

#include <stdlib.h>

#include <segc/check.h>

#include "cli/cli_json.h"
#include "cli/json_commands.h"

/* Opens the document (see json_commands.h). */
void json_check_begin(cli_json *j, const char *model)
{
	cli_json_init(j);
	cli_json_open(j, '{');
	cli_json_key(j, "command");
	cli_json_string(j, "check");
	cli_json_key(j, "model");
	cli_json_string(j, model);
	cli_json_key(j, "results");
	cli_json_open(j, '[');
}

/* Writes the members that start every result. */
static void result_start(cli_json *j, const char *verdict,
	const char *component, const char *source)
{
	cli_json_open(j, '{');
	cli_json_key(j, "verdict");
	cli_json_string(j, verdict);
	cli_json_key(j, "component");
	cli_json_string(j, component);
	cli_json_key(j, "source");
	cli_json_string(j, source);
}

/* Writes a result that holds (see json_commands.h). */
void json_check_ok(cli_json *j, const char *component, const char *source)
{
	result_start(j, "ok", component, source);
	cli_json_close(j, '}');
}

/* Writes the formula 'e' under 'key' (null when NULL). */
static void formula(cli_json *j, const char *key, const segc_expr *e)
{
	char *t = e ? segc_expr_to_string(e) : NULL;

	cli_json_key(j, key);
	cli_json_string(j, t);
	free(t);
}

/* Writes the witness point of 'w' and both values there. */
static void witness(cli_json *j, const segc_witness *w)
{
	char *a = segc_witness_value_text(&w->a);
	char *b = segc_witness_value_text(&w->b);
	size_t i;

	cli_json_key(j, "witness");
	cli_json_open(j, '{');
	cli_json_key(j, "point");
	cli_json_open(j, '[');
	for (i = 0; i < w->n; i++) {
		char *v = mpq_get_str(NULL, 10, w->values[i]);

		cli_json_open(j, '{');
		cli_json_key(j, "name");
		cli_json_string(j, w->names[i]);
		cli_json_key(j, "value");
		cli_json_string(j, v);
		cli_json_close(j, '}');
		free(v);
	}
	cli_json_close(j, ']');
	cli_json_key(j, "functions");
	cli_json_open(j, '[');
	for (i = 0; i < w->nfunctions; i++)
		cli_json_string(j, w->functions[i]);
	cli_json_close(j, ']');
	cli_json_key(j, "derived_there");
	cli_json_string(j, a);
	cli_json_key(j, "expected_there");
	cli_json_string(j, b);
	cli_json_close(j, '}');
	free(a);
	free(b);
}

/* Writes the counts of a search that found no witness. */
static void counts(cli_json *j, const segc_witness *w)
{
	cli_json_key(j, "sample_points");
	cli_json_open(j, '{');
	cli_json_key(j, "tried");
	cli_json_uint(j, w->tried);
	cli_json_key(j, "agreed_exactly");
	cli_json_uint(j, w->exact);
	cli_json_key(j, "agreed_closely");
	cli_json_uint(j, w->close);
	cli_json_key(j, "bits");
	cli_json_uint(j, w->bits);
	cli_json_key(j, "no_value");
	cli_json_uint(j, w->skipped);
	cli_json_close(j, '}');
}

/* Writes a result that does not hold (see json_commands.h). */
void json_check_difference(cli_json *j, const char *component,
	const char *source, const segc_expr *got, const segc_expr *want,
	const segc_expr *diff, const segc_witness *w)
{
	result_start(j, w->found ? "MISMATCH" : "UNPROVEN", component, source);
	formula(j, "derived", got);
	formula(j, "expected", want);
	formula(j, "difference", diff);
	if (w->found) {
		witness(j, w);
	} else {
		cli_json_key(j, "witness");
		cli_json_null(j);
	}
	if (w->found) {
		cli_json_key(j, "sample_points");
		cli_json_null(j);
	} else {
		counts(j, w);
	}
	cli_json_close(j, '}');
}

/* Closes the document (see json_commands.h). */
void json_check_end(cli_json *j, int all_hold)
{
	cli_json_close(j, ']');
	cli_json_key(j, "all_hold");
	cli_json_bool(j, all_hold);
	cli_json_close(j, '}');
	cli_json_end(j);
}
