/* names.h - how near two names are (names.c), for "did you mean". */
#ifndef SEGC_NAMES_H
#define SEGC_NAMES_H

#include <stddef.h>

/* The edit (Levenshtein) distance of 'a' and 'b' (for "did you mean"),
 * or (size_t)-1 when one is longer than 64 bytes and they are not
 * compared. */
size_t segc_edit_distance(const char *a, const char *b);

/* The distance a suggestion for 'name' must stay below: about a third
 * of its length; the start of '*d' for segc_name_nearer(). */
size_t segc_name_near_limit(const char *name);

/* Keeps 'cand' in '*best' (its distance in '*d') when it is nearer
 * 'name' than '*d' and not 'name' itself; the first of equals wins. */
void segc_name_nearer(const char *name, const char *cand, size_t *d,
	const char **best);

#endif
