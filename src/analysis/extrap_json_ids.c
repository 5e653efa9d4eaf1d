/* extrap_json_ids.c - Extra-P's older JSON experiment format, of numbered
 * ids (doc/fit.md): arrays "parameters", "callpaths", "metrics" of
 * {"id", "name"}, "coordinates" of {"id", "parameter_value_pairs":
 * [{"parameter_id", "parameter_value"}]} and "measurements" of
 * {"callpath_id", "coordinate_id", "metric_id", "value"}; each id
 * resolved in n log n, every fault located. */
#include <config.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/extrap.h"
#include "analysis/json_read.h"
#include "base/util.h"

/* An id and the index of what it names, sorted by id. */
typedef struct id_entry {
	long id;
	size_t index;
} id_entry;

/* The ids of one array: 'n' entries sorted by id. */
typedef struct id_map {
	id_entry *v;
	size_t n;
} id_map;

/* Records "MSG" at 'v'; returns -1. */
static int fault(extrap_exp *x, const json_value *v, const char *msg,
	const char *a)
{
	segc_error(x->ctx, SEGC_ERR_INPUT, x->file, v->line, v->col, msg, a);
	return -1;
}

/* The member 'key' of the object 'v', or NULL after an error. */
static const json_value *member(extrap_exp *x, const json_value *v,
	const char *key)
{
	const json_value *m = json_member(v, key);

	if (!m)
		fault(x, v, v->type == JSON_OBJECT ? "no \"%s\" here" :
			"an object with \"%s\" is needed here", key);
	return m;
}

/* The whole number of 'v' into '*id'; -1 after an error. */
static int whole(extrap_exp *x, const json_value *v, long *id)
{
	char *end;
	long n;

	if (v->type != JSON_NUMBER)
		return fault(x, v, "an id should be a whole number%s", "");
	n = strtol(v->text, &end, 10);
	if (*end || n == LONG_MAX || n == LONG_MIN)
		return fault(x, v, "an id should be a whole number of at most "
			"18 digits, not '%.40s'", v->text);
	*id = n;
	return 0;
}

/* Orders id entries by id (qsort, bsearch). */
static int by_id(const void *a, const void *b)
{
	const id_entry *p = a, *q = b;

	return p->id < q->id ? -1 : p->id > q->id;
}

/* Reads the ids of the objects of array 'a' into 'm' (sorted, each
 * once); -1 after an error. */
static int read_ids(extrap_exp *x, const json_value *a, id_map *m)
{
	size_t i;

	m->n = 0;
	m->v = segc_xmalloc(segc_xmul_size(a->n + 1, sizeof *m->v));
	for (i = 0; i < a->n; i++) {
		const json_value *id = member(x, &a->items[i], "id");

		if (!id || whole(x, id, &m->v[i].id))
			return -1;
		m->v[i].index = i;
		m->n++;
	}
	qsort(m->v, m->n, sizeof *m->v, by_id);
	for (i = 1; i < m->n; i++)
		if (m->v[i].id == m->v[i - 1].id)
			return fault(x, json_member(&a->items[m->v[i].index], "id"),
				"this id is given twice%s", "");
	return 0;
}

/* The index named by the id at member 'key' of 'v' in 'm' into
 * '*index'; -1 after an error. */
static int resolve(extrap_exp *x, const json_value *v, const char *key,
	const id_map *m, size_t *index)
{
	const json_value *idv = member(x, v, key);
	id_entry k, *e;

	if (!idv || whole(x, idv, &k.id))
		return -1;
	e = bsearch(&k, m->v, m->n, sizeof *m->v, by_id);
	if (!e)
		return fault(x, idv, "no object has this id (%s)", key);
	*index = e->index;
	return 0;
}

/* The array member 'key' of the experiment; NULL after an error. */
static const json_value *array(extrap_exp *x, const json_value *root,
	const char *key)
{
	const json_value *a = member(x, root, key);

	if (a && a->type != JSON_ARRAY) {
		fault(x, a, "\"%s\" should be an array", key);
		return NULL;
	}
	return a;
}

/* The string member "name" of object 'v'; NULL after an error. */
static const char *name_of(extrap_exp *x, const json_value *v)
{
	const json_value *n = member(x, v, "name");

	if (n && n->type != JSON_STRING) {
		fault(x, n, "a name should be a string%s", "");
		return NULL;
	}
	return n ? n->text : NULL;
}

/* Reads "coordinates": a point each, one value per parameter. */
static int coordinates(extrap_exp *x, const json_value *a, const id_map *pm)
{
	size_t i, j, k;
	char *seen = segc_xmalloc(x->nparams + 1);
	int rc = 0;

	for (i = 0; i < a->n && !rc; i++) {
		const json_value *c = &a->items[i];
		const json_value *pairs = member(x, c, "parameter_value_pairs");
		extrap_place at;
		size_t point;

		if (!pairs || pairs->type != JSON_ARRAY ||
		    pairs->n != x->nparams) {
			rc = pairs ? fault(x, pairs, "\"parameter_value_pairs\" "
				"should give every parameter once%s", "") : -1;
			break;
		}
		at.line = c->line;
		at.col = c->col;
		point = extrap_add_point(x, at);
		memset(seen, 0, x->nparams);
		for (j = 0; j < pairs->n && !rc; j++) {
			const json_value *p = &pairs->items[j], *v;

			if (resolve(x, p, "parameter_id", pm, &k) ||
			    !(v = member(x, p, "parameter_value"))) {
				rc = -1;
			} else if (seen[k]++) {
				char *shown = extrap_printable(x->params[k],
					strlen(x->params[k]), 200);

				rc = fault(x, p, "the parameter '%s' is given twice",
					shown);
				free(shown);
			} else if (v->type != JSON_NUMBER && v->type != JSON_STRING) {
				rc = fault(x, v, "a coordinate should be a number%s",
					"");
			} else {
				at.line = v->line;
				at.col = v->col;
				rc = extrap_number(x, extrap_coord(x, point, k), v->text,
					strlen(v->text), at, "coordinate");
			}
		}
	}
	free(seen);
	return rc;
}

/* Reads "measurements": a value each, of a call path and metric at a
 * coordinate; consecutive values of one pair share a block. */
static int values(extrap_exp *x, const json_value *a, const id_map *cm,
	const id_map *mm, const id_map *km, const json_value *cps,
	const json_value *mts)
{
	size_t i, cp, mt, pt, last_cp = (size_t)-1, last_mt = 0, block = 0;
	extrap_place at;

	for (i = 0; i < a->n; i++) {
		const json_value *m = &a->items[i], *v;

		if (resolve(x, m, "callpath_id", cm, &cp) ||
		    resolve(x, m, "metric_id", mm, &mt) ||
		    resolve(x, m, "coordinate_id", km, &pt) ||
		    !(v = member(x, m, "value")))
			return -1;
		if (v->type != JSON_NUMBER && v->type != JSON_STRING)
			return fault(x, v, "a value should be a number%s", "");
		at.line = v->line;
		at.col = v->col;
		if (cp != last_cp || mt != last_mt) {
			block = extrap_add_block(x, name_of(x, &cps->items[cp]),
				name_of(x, &mts->items[mt]), at);
			last_cp = cp;
			last_mt = mt;
		}
		if (extrap_number(x, extrap_add_value(x, block, pt, at), v->text,
		    strlen(v->text), at, "value"))
			return -1;
	}
	return 0;
}

/* Checks that every object of 'a' has a string "name"; -1 if not. */
static int names(extrap_exp *x, const json_value *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!name_of(x, &a->items[i]))
			return -1;
	return 0;
}

/* Reads the experiment of numbered ids 'root' (see extrap.h). */
int extrap_read_json_ids(extrap_exp *x, const json_value *root)
{
	const json_value *ps = array(x, root, "parameters");
	const json_value *cps = ps ? array(x, root, "callpaths") : NULL;
	const json_value *mts = cps ? array(x, root, "metrics") : NULL;
	const json_value *cos = mts ? array(x, root, "coordinates") : NULL;
	const json_value *ms = cos ? array(x, root, "measurements") : NULL;
	id_map pm = { NULL, 0 }, cm = { NULL, 0 }, mm = { NULL, 0 };
	id_map km = { NULL, 0 };
	size_t i;
	int rc = -1;

	if (!ms || read_ids(x, ps, &pm) || read_ids(x, cps, &cm) ||
	    read_ids(x, mts, &mm) || read_ids(x, cos, &km) || names(x, ps) ||
	    names(x, cps) || names(x, mts))
		goto out;
	for (i = 0; i < ps->n; i++) {
		const json_value *n = json_member(&ps->items[i], "name");
		extrap_place at;

		at.line = n->line;
		at.col = n->col;
		if (extrap_add_param(x, n->text, strlen(n->text), at))
			goto out;
	}
	if (!x->nparams) {
		fault(x, ps, "\"parameters\" names no parameter%s", "");
		goto out;
	}
	if (coordinates(x, cos, &pm) || values(x, ms, &cm, &mm, &km, cps,
	    mts))
		goto out;
	if (!x->nvalues) {
		fault(x, ms, "no measured value in \"measurements\"%s", "");
		goto out;
	}
	rc = 0;
out:
	free(pm.v);
	free(cm.v);
	free(mm.v);
	free(km.v);
	return rc;
}
