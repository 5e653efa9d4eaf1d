/* evalq.h - the exact evaluator (evalq.c) as the replacement of atoms by
 * their values (evalq_atoms.c) uses it.  Not installed. */
#ifndef SEGC_EVALQ_H
#define SEGC_EVALQ_H

#include <gmp.h>
#include <segc/segc.h>

/* Sets 'r' to the exact value of 'e', which has no free name; the terms
 * of sums, iterations and instances it adds up are taken from '*terms'
 * (one sum or atom at most as many as '*terms' held on entry).  -1 when
 * it has no rational value; '*limited' is then set when the terms ran
 * out. */
int segc_evalq_closed(mpq_t r, const segc_expr *e, unsigned long *terms,
	int *limited);

#endif
