/* fuzz_xml.c - fuzz target of the XML reader: any bytes are read as a
 * model, as a machine and validated.  Each must either succeed with no
 * error recorded or fail with errors recorded (input or limit, each one
 * line); reading a document as a model and validating it must agree,
 * validation refusing a model that reads only for the expressions of its
 * program (graph.h, segc_check_model_expressions). */
#include <stdlib.h>

#include "fuzz.h"
#include "graph/graph.h"
#include "xml/xmlread.h"
#include "pipeline/validate_document.h"

/* One input: a document. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	segc_ctx *ctx = fuzz_ctx_new();
	segc_model *model;
	segc_machine *machine;
	int valid, is_model, is_machine, refused = 0;

	model = segc_model_read_memory(ctx, buf, size, "fuzz.xml");
	if (model) {
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"a model read records no error");
		fuzz_check(segc_model_name(model) != NULL, "a model has a name");
		refused = segc_check_model_expressions(ctx, model) != 0;
		if (refused)
			fuzz_check_failure(ctx);
		segc_model_free(model);
	} else {
		fuzz_check_failure(ctx);
	}
	is_model = model != NULL;
	segc_ctx_clear(ctx);

	machine = segc_machine_read_memory(ctx, buf, size, "fuzz.xml");
	if (machine) {
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"a machine read records no error");
		fuzz_check(!is_model, "a document is not both kinds");
		segc_machine_free(machine);
	} else {
		fuzz_check_failure(ctx);
	}
	is_machine = machine != NULL;
	segc_ctx_clear(ctx);

	valid = segc_validate_memory(ctx, buf, size, "fuzz.xml") == 0;
	if (valid)
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"a valid document records no error");
	else
		fuzz_check_failure(ctx);
	if (is_model)
		fuzz_check(valid != refused, "a model that reads is valid "
			"unless its expressions are refused");
	if (is_machine)
		fuzz_check(valid, "a machine that reads is valid");
	if (valid)
		fuzz_check(is_model || is_machine,
			"a valid document reads as a model or a machine");
	segc_ctx_free(ctx);
	return 0;
}
