/* validate_document.c - 'segc validate' as one pass of the pipeline: the reader
 * (src/xml) checks a document's structure and meaning and builds it; a
 * model is then also lowered and its expressions brought to canonical
 * form one by one (src/graph), so that validation refuses what every
 * command would (a division by zero, an exponent that is not an integer
 * constant). */
#include <config.h>

#include <stdlib.h>

#include <segc/segc_model.h>
#include "pipeline/validate_document.h"
#include "xml/xmlread.h"
#include "graph/graph.h"

/* Checks the formulas of 'model' (if any) after the reader, whose result
 * 'read_ok' is, and frees both documents: 0 when all is valid. */
static int check_and_free(segc_ctx *ctx, int read_ok, segc_model *model,
	segc_machine *machine)
{
	int ok = read_ok;

	/* A model whose structural errors were taken out is still checked
	 * here, so that one run reports the errors of every stage. */
	if (model && !segc_ctx_full(ctx) &&
	    segc_check_model_expressions(ctx, model))
		ok = 0;
	segc_model_free(model);
	segc_machine_free(machine);
	return ok ? 0 : -1;
}

/* Validates a document of either kind held in a buffer (see
 * pipeline/validate_document.h). */
int segc_validate_memory(segc_ctx *ctx, const char *buf, size_t len,
	const char *name)
{
	segc_model *model;
	segc_machine *machine;
	int ok;

	ok = segc_xml_read_document(ctx, buf, len, name, &model,
		&machine) == 0;
	return check_and_free(ctx, ok, model, machine);
}

/* Validates the document 'path' of either kind: 0 when valid.  The
 * file's bytes are released once the reader has built the model, before
 * the checks, whose lowering is the peak of memory on a large model. */
int segc_validate_file(segc_ctx *ctx, const char *path)
{
	size_t len;
	char *buf = segc_xml_load_file(ctx, path, &len);
	segc_model *model;
	segc_machine *machine;
	int ok;

	if (!buf)
		return -1;
	ok = segc_xml_read_document(ctx, buf, len, path, &model,
		&machine) == 0;
	free(buf);
	return check_and_free(ctx, ok, model, machine);
}
