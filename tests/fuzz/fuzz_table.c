/* fuzz_table.c - fuzz target of the readers of measurement files: any
 * bytes are read as a table in each format (told by the content, CSV,
 * Extra-P text, Extra-P JSON) and by the JSON reader alone.  Each must
 * either succeed with no error recorded, giving a table of at least one
 * column whose every row has a line, or fail with errors recorded (input
 * or limit, each one line of printable text). */
#include <stdlib.h>

#include <segc/fit.h>

#include "fuzz.h"
#include "analysis/json_read.h"

/* Reads 'data' in 'format' and checks the outcome. */
static void read_as(const uint8_t *data, size_t size,
	enum segc_table_format format)
{
	segc_ctx *ctx = fuzz_ctx_new();
	segc_csv *t = segc_table_read(ctx, "fuzz", (const char *)data, size,
		format, NULL);
	size_t i;

	if (t) {
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"a table read records no error");
		fuzz_check(segc_csv_ncols(t) >= 1, "a table has a column");
		for (i = 0; i < segc_csv_nrows(t); i++)
			fuzz_check(segc_csv_line(t, i) >= 1, "a row has a line");
		segc_csv_free(t);
	} else {
		fuzz_check_failure(ctx);
	}
	segc_ctx_free(ctx);
}

/* One input: a measurement file. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	segc_ctx *ctx = fuzz_ctx_new();
	json_value *v = json_parse(ctx, "fuzz", (const char *)data, size);

	if (v)
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"a JSON document read records no error");
	else
		fuzz_check_failure(ctx);
	json_free(v);
	segc_ctx_free(ctx);
	read_as(data, size, SEGC_TABLE_AUTO);
	read_as(data, size, SEGC_TABLE_EXTRAP_TEXT);
	read_as(data, size, SEGC_TABLE_EXTRAP_JSON);
	return 0;
}
