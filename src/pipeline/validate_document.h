/* validate_document.h - validating a document end to end:
 * read, check the structure and meaning, then, for a model, the formulas
 * every command would derive.  Private to the library. */
#ifndef SEGC_PIPELINE_VALIDATE_H
#define SEGC_PIPELINE_VALIDATE_H

#include <segc/segc.h>

/* The same as segc_validate_file() on the 'len' bytes of 'buf'; 'name'
 * names the document in diagnostics.  0 when valid. */
int segc_validate_memory(SEGC_KEEP segc_ctx *ctx, const char *buf,
	size_t len, const char *name);

#endif
