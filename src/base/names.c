/* names.c - how near two names are, for the "did you mean" of the
 * messages about a misspelt name (of an element, an attribute, a
 * parameter ...), shared by every stage that suggests one. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"

/* The edit (Levenshtein) distance of 'a' and 'b'. */
size_t segc_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, r;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	row = segc_xmalloc((lb + 1) * sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

/* The distance a suggestion must stay below (see names.h). */
size_t segc_name_near_limit(const char *name)
{
	return (strlen(name) + 2) / 3 + 1;
}

/* Keeps 'cand' when it is nearer 'name' (see names.h). */
void segc_name_nearer(const char *name, const char *cand, size_t *d,
	const char **best)
{
	size_t k = segc_edit_distance(name, cand);

	if (k && k < *d) {
		*d = k;
		*best = cand;
	}
}
