/* names.h - how near two names are (names.c), for "did you mean". */
#ifndef SEGC_NAMES_H
#define SEGC_NAMES_H

#include <stddef.h>

/* The edit (Levenshtein) distance of 'a' and 'b' (for "did you mean"),
 * or (size_t)-1 when one is longer than 64 bytes and they are not
 * compared. */
size_t segc_edit_distance(const char *a, const char *b);

#endif
