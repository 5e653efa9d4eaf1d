/* symtab.c - open addressing with linear probing, FNV-1a hashes; the
 * table doubles when it is half full. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/symtab.h"
#include "base/util.h"

/* The FNV-1a hash of 's'. */
static size_t hash_of(const char *s)
{
	size_t h = (size_t)14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * (size_t)1099511628211ULL;
	return h;
}

/* Sets up an empty table. */
void segc_symtab_init(segc_symtab *t)
{
	memset(t, 0, sizeof *t);
}

/* Releases the slots of 't' (not the keys). */
void segc_symtab_clear(segc_symtab *t)
{
	free(t->keys);
	free(t->values);
	memset(t, 0, sizeof *t);
}

/* The slot of 'key' in 't', or the free slot where it would go. */
static size_t slot_of(const segc_symtab *t, const char *key)
{
	size_t mask = t->cap - 1, i = hash_of(key) & mask;

	while (t->keys[i] && strcmp(t->keys[i], key))
		i = (i + 1) & mask;
	return i;
}

/* Doubles the slots of 't' (or makes the first 16). */
static void grow(segc_symtab *t)
{
	segc_symtab old = *t;
	size_t i, j;

	t->cap = old.cap ? 2 * old.cap : 16;
	t->keys = segc_xcalloc(t->cap, sizeof *t->keys);
	t->values = segc_xmalloc(segc_xmul_size(t->cap, sizeof *t->values));
	for (i = 0; i < old.cap; i++) {
		if (!old.keys[i])
			continue;
		j = slot_of(t, old.keys[i]);
		t->keys[j] = old.keys[i];
		t->values[j] = old.values[i];
	}
	free(old.keys);
	free(old.values);
}

/* The value of 'key' (see symtab.h). */
size_t segc_symtab_get(const segc_symtab *t, const char *key)
{
	size_t i;

	if (!t->cap || !key)
		return SEGC_SYMTAB_NONE;
	i = slot_of(t, key);
	return t->keys[i] ? t->values[i] : SEGC_SYMTAB_NONE;
}

/* Sets 'key' to 'value' when 'replace' or when absent; returns the value
 * before. */
static size_t symtab_store(segc_symtab *t, const char *key, size_t value,
	int replace)
{
	size_t i, before;

	if (2 * (t->n + 1) > t->cap)
		grow(t);
	i = slot_of(t, key);
	if (!t->keys[i]) {
		t->keys[i] = key;
		t->values[i] = value;
		t->n++;
		return SEGC_SYMTAB_NONE;
	}
	before = t->values[i];
	if (replace || before == SEGC_SYMTAB_NONE)
		t->values[i] = value;
	return before;
}

/* Sets the value of 'key' (see symtab.h). */
size_t segc_symtab_put(segc_symtab *t, const char *key, size_t value)
{
	return symtab_store(t, key, value, 1);
}

/* Adds 'key' unless present (see symtab.h). */
size_t segc_symtab_add(segc_symtab *t, const char *key, size_t value)
{
	return symtab_store(t, key, value, 0);
}
