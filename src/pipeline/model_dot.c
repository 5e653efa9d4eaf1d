/* model_dot.c - the public DOT text of a model (<segc/dot.h>), written by the
 * DOT writer of src/output into a string buffer. */
#include <config.h>

#include <segc/dot.h>
#include "output/dot.h"

/* Every graph of 'm' in DOT, malloc'd; NULL with a diagnostic. */
char *segc_model_dot(segc_ctx *ctx, const segc_model *m)
{
	segc_strbuf out;

	segc_strbuf_init(&out);
	if (segc_model_to_dot(ctx, m, &out)) {
		segc_strbuf_free(&out);
		return NULL;
	}
	return segc_strbuf_take(&out);
}
