/* store_private.h - between the constructors (expr.c) and the store of
 * nodes (expr_store.c).  Not installed. */
#ifndef SEGC_STORE_PRIVATE_H
#define SEGC_STORE_PRIVATE_H

#include "expr/expr_private.h"

/* The structure a constructor looks up or creates. */
struct node_key {
	enum segc_expr_kind kind;
	unsigned long hash;
	const char *name;
	size_t nargs;
	segc_expr **args;
	mpq_srcptr value;
};

/* The node of 'key': the existing one (the references of the key's
 * children are then released) or a new one. */
segc_expr *segc_expr_store_intern(struct node_key *key);

#endif
