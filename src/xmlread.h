/* xmlread.h - the XML reader's private interface: reading documents from
 * memory (for tests and fuzzing), and the steps the reader is made of.
 * Only xmlread.c and xmlbuild.c include libxml2. */
#ifndef SEGC_XMLREAD_H
#define SEGC_XMLREAD_H

#include "model.h"

/* The same as segc_model_read_file() on the 'len' bytes of 'buf'; 'name'
 * names the document in diagnostics. */
SEGC_GIVE segc_model *segc_model_read_memory(SEGC_KEEP segc_ctx *ctx,
	const char *buf, size_t len, const char *name);
/* The same as segc_machine_read_file() on a buffer. */
SEGC_GIVE segc_machine *segc_machine_read_memory(SEGC_KEEP segc_ctx *ctx,
	const char *buf, size_t len, const char *name);
/* The same as segc_validate_file() on a buffer: 0 when valid. */
int segc_validate_memory(SEGC_KEEP segc_ctx *ctx, const char *buf,
	size_t len, const char *name);

/* The RELAX NG schema xml/seg.rng, compiled into the library
 * (seg_rng.c, generated at build time). */
extern const char segc_seg_rng[];

#ifdef SEGC_XMLREAD_INTERNAL
#include <libxml/tree.h>

/* Builds a model from the root element of a schema-valid document.  Sets
 * '*failed' when it recorded errors; the model is returned all the same,
 * complete enough for the semantic checks.  'file' names the document. */
segc_model *segc_xml_build_model(segc_ctx *ctx, xmlNodePtr root,
	const char *file, int *failed);
/* Builds a machine from a <machine> element, standalone or inline. */
segc_machine *segc_xml_build_machine(segc_ctx *ctx, xmlNodePtr root,
	const char *file, int *failed);
#endif

#endif
