/* emit_private.h - what the pieces of the C emitter share (emit.c: the
 * functions and the files; emit_names.c: identifiers and comments;
 * emit_plan.c: a plan printed as C statements). */
#ifndef SEGC_EMIT_PRIVATE_H
#define SEGC_EMIT_PRIVATE_H

#include "output/output.h"

/* Names of the values of one plan. */
typedef struct segc_emit_namer {
	const segc_plan *p;
	char **arg;           /* C names of the arguments */
	const char *tprefix;  /* temporaries */
	const char *cprefix;  /* constants */
	const char *kprefix;  /* loop counters */
	size_t *number;       /* per value: its number among temps/consts */
	int accurate;         /* double-double values */
} segc_emit_namer;

/* Appends 'text' to a C comment, made safe, its lines started by
 * 'lead'. */
void segc_emit_comment_text(segc_strbuf *b, const char *text,
	const char *lead);

/* Numbers the constants, temporaries and counters of 'nm->p' (fills
 * 'nm->number', malloc'd). */
void segc_emit_number_values(segc_emit_namer *nm);

/* Appends the body statements of the plan 'nm->p', return included. */
void segc_emit_plan_body(segc_strbuf *b, const segc_emit_namer *nm);

#endif
