/* domains.c - what simplification may assume about names: constant lower
 * and upper bounds and integrality, kept in an array sorted by name. */
#include <stdlib.h>
#include <string.h>
#include <segc/segc.h>
#include "algebra/canon/canon_private.h"
#include "base/util.h"

/* One declared name. */
struct domain_entry {
	char *name;
	int has_min, has_max, integer;
	mpq_t min, max;
};

struct segc_domains {
	struct domain_entry *v;
	size_t n, cap;
};

/* An empty set of declarations. */
segc_domains *segc_domains_new(void)
{
	return segc_xcalloc(1, sizeof(segc_domains));
}

/* Releases 'd'. */
void segc_domains_free(segc_domains *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].name);
		mpq_clear(d->v[i].min);
		mpq_clear(d->v[i].max);
	}
	free(d->v);
	free(d);
}

/* The index of 'name', or where it would be inserted ('*found' says). */
static size_t domain_find(const segc_domains *d, const char *name, int *found)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->v[mid].name, name);

		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

/* Declares 'name' with the given bounds (NULL: unbounded). */
void segc_domains_set(segc_domains *d, const char *name, mpq_srcptr min,
	mpq_srcptr max, int integer)
{
	int found;
	size_t i = domain_find(d, name, &found);
	struct domain_entry *e;

	if (!found) {
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 16;
			d->v = segc_xrealloc(d->v,
				segc_xmul_size(d->cap, sizeof(*d->v)));
		}
		memmove(d->v + i + 1, d->v + i, (d->n - i) * sizeof(*d->v));
		d->n++;
		e = &d->v[i];
		e->name = segc_xstrdup(name);
		mpq_init(e->min);
		mpq_init(e->max);
	}
	e = &d->v[i];
	e->has_min = min != NULL;
	e->has_max = max != NULL;
	e->integer = integer != 0;
	if (min)
		mpq_set(e->min, min);
	if (max)
		mpq_set(e->max, max);
}

/* Looks 'name' up (see segc.h). */
int segc_domains_get(const segc_domains *d, const char *name,
	mpq_srcptr *min, mpq_srcptr *max, int *integer)
{
	int found;
	size_t i;

	if (!d)
		return 0;
	i = domain_find(d, name, &found);
	if (!found)
		return 0;
	if (min)
		*min = d->v[i].has_min ? d->v[i].min : NULL;
	if (max)
		*max = d->v[i].has_max ? d->v[i].max : NULL;
	if (integer)
		*integer = d->v[i].integer;
	return 1;
}

/* A copy of 'd' (NULL: an empty set), for a canonicalisation that
 * declares names of its own (the counters of sums). */
segc_domains *segc_domains_copy(const segc_domains *d)
{
	segc_domains *c = segc_domains_new();
	size_t i;

	if (!d)
		return c;
	for (i = 0; i < d->n; i++)
		segc_domains_set(c, d->v[i].name,
			d->v[i].has_min ? d->v[i].min : NULL,
			d->v[i].has_max ? d->v[i].max : NULL, d->v[i].integer);
	return c;
}
