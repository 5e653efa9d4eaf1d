/* extrap_json.c - Extra-P's JSON experiment format (doc/fit.md), the
 * newer one (the older one of ids is read by extrap_json_ids.c):
 * {"parameters": [names], "measurements": {call path: {metric: [{"point":
 * [coordinates], "values": [repetitions]}]}}, numbers exact (as numbers
 * or as strings of decimals); every misplaced value located. */
#include <config.h>

#include <string.h>

#include "analysis/extrap.h"
#include "analysis/json_read.h"

/* The place of the value 'v'. */
static extrap_place place(const json_value *v)
{
	extrap_place p;

	p.line = v->line;
	p.col = v->col;
	return p;
}

/* Records "WHAT should be KIND, not ..." at 'v'; returns -1. */
static int expected(extrap_exp *x, const json_value *v, const char *what,
	const char *kind)
{
	segc_error(x->ctx, SEGC_ERR_INPUT, x->file, v->line, v->col,
		"%s should be %s, not %s", what, kind, json_kind(v));
	return -1;
}

/* Reads the number (or string of a decimal) 'v' into 'q'. */
static int number(extrap_exp *x, const json_value *v, mpq_t q,
	const char *what)
{
	if (v->type != JSON_NUMBER && v->type != JSON_STRING)
		return expected(x, v, what, "a number");
	return extrap_number(x, q, v->text, strlen(v->text), place(v), what);
}

/* "parameters": a non-empty array of names. */
static int parameters(extrap_exp *x, const json_value *root)
{
	const json_value *p = json_member(root, "parameters");
	size_t i;

	if (!p) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, root->line, root->col,
			"no \"parameters\" in the experiment");
		return -1;
	}
	if (p->type != JSON_ARRAY || !p->n)
		return expected(x, p, "\"parameters\"", "a non-empty array of "
			"names");
	for (i = 0; i < p->n; i++) {
		const json_value *v = &p->items[i];

		if (v->type != JSON_STRING || !v->text[0])
			return expected(x, v, "a parameter", "a name (a string)");
		if (extrap_add_param(x, v->text, strlen(v->text), place(v)))
			return -1;
	}
	return 0;
}

/* One measurement {"point": [...], "values": [...]} of 'block'. */
static int measurement(extrap_exp *x, const json_value *m, size_t block)
{
	const json_value *p = json_member(m, "point");
	const json_value *v = json_member(m, "values");
	size_t point, j;

	if (m->type != JSON_OBJECT)
		return expected(x, m, "a measurement", "an object with \"point\" "
			"and \"values\"");
	if (!p || !v) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, m->line, m->col,
			"the measurement has no \"%s\"", p ? "values" : "point");
		return -1;
	}
	if (p->type != JSON_ARRAY || p->n != x->nparams) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, p->line, p->col,
			"\"point\" should be an array of %lu coordinate%s, one per "
			"parameter", (unsigned long)x->nparams, x->nparams == 1 ? "" :
			"s");
		return -1;
	}
	if (v->type != JSON_ARRAY || !v->n)
		return expected(x, v, "\"values\"", "a non-empty array of "
			"numbers");
	point = extrap_add_point(x, place(p));
	for (j = 0; j < p->n; j++)
		if (number(x, &p->items[j], extrap_coord(x, point, j),
		    "coordinate"))
			return -1;
	for (j = 0; j < v->n; j++)
		if (number(x, &v->items[j], extrap_add_value(x, block, point,
		    place(&v->items[j])), "value"))
			return -1;
	return 0;
}

/* "measurements": call path -> metric -> [measurement]. */
static int measurements(extrap_exp *x, const json_value *root)
{
	const json_value *ms = json_member(root, "measurements");
	size_t i, j, k, block;

	if (!ms) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, root->line, root->col,
			"no \"measurements\" in the experiment");
		return -1;
	}
	if (ms->type != JSON_OBJECT)
		return expected(x, ms, "\"measurements\"", "an object of call "
			"paths (or, in the older format, an array)");
	for (i = 0; i < ms->n; i++) {
		const json_value *cp = &ms->items[i];

		if (cp->type != JSON_OBJECT)
			return expected(x, cp, "a call path", "an object of "
				"metrics");
		for (j = 0; j < cp->n; j++) {
			const json_value *mt = &cp->items[j];

			if (mt->type != JSON_ARRAY)
				return expected(x, mt, "a metric", "an array of "
					"measurements");
			block = extrap_add_block(x, ms->keys[i], cp->keys[j],
				place(mt));
			for (k = 0; k < mt->n; k++)
				if (measurement(x, &mt->items[k], block))
					return -1;
		}
	}
	if (!x->nvalues) {
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, ms->line, ms->col,
			"no measured value in \"measurements\"");
		return -1;
	}
	return 0;
}

/* Reads Extra-P's JSON format (see extrap.h). */
int extrap_read_json(extrap_exp *x, const char *text, size_t len)
{
	json_value *root = json_parse(x->ctx, x->file, text, len);
	int rc;

	if (!root)
		return -1;
	if (root->type != JSON_OBJECT)
		rc = expected(x, root, "the experiment", "an object");
	else if (json_member(root, "measurements") &&
	    json_member(root, "measurements")->type == JSON_ARRAY)
		rc = extrap_read_json_ids(x, root);
	else
		rc = parameters(x, root) || measurements(x, root) ? -1 : 0;
	json_free(root);
	return rc;
}
