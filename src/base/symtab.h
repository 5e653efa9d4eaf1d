/* symtab.h - a small hash table from strings to indices, for the name and
 * id lookups of reading and validation (linear time in the number of
 * names instead of quadratic).  Keys are borrowed: they must outlive the
 * table.  Private to the library. */
#ifndef SEGC_SYMTAB_H
#define SEGC_SYMTAB_H

#include <stddef.h>

/* The value of an absent key. */
#define SEGC_SYMTAB_NONE ((size_t)-1)

typedef struct segc_symtab {
	const char **keys;    /* NULL: free slot */
	size_t *values;
	size_t n, cap;        /* keys in use, slots (a power of two or 0) */
} segc_symtab;

void segc_symtab_init(segc_symtab *t);
void segc_symtab_clear(segc_symtab *t);
/* The value of 'key', or SEGC_SYMTAB_NONE. */
size_t segc_symtab_get(const segc_symtab *t, const char *key);
/* Sets the value of 'key' (borrowed) to 'value'; returns the value it had
 * before, or SEGC_SYMTAB_NONE.  Setting SEGC_SYMTAB_NONE makes the key
 * absent again (its slot stays taken). */
size_t segc_symtab_put(segc_symtab *t, const char *key, size_t value);
/* Adds 'key' with 'value' unless it is present; returns its value before
 * (SEGC_SYMTAB_NONE when it was added). */
size_t segc_symtab_add(segc_symtab *t, const char *key, size_t value);

#endif
