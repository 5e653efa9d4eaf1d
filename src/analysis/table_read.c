/* table_read.c - the entry points of fit.h that read a measurement file
 * in any of its formats: CSV (csv.c), Extra-P text (extrap_text.c) or
 * Extra-P JSON (extrap_json.c), told by the content unless given; an
 * Extra-P experiment becomes a table by extrap_table.c. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/csv_private.h"
#include "analysis/extrap.h"
#include "base/util.h"

/* The format of 'text' told by its content: JSON when its first byte
 * that is not blank is '{' or '[', Extra-P's text when its first line that is
 * not blank or a comment starts with the word PARAMETER, else CSV. */
static enum segc_table_format sniff(const char *text, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\r' || text[i] == '\n'))
			i++;
		if (i < len && (text[i] == '{' || text[i] == '['))
			return SEGC_TABLE_EXTRAP_JSON;
		if (i < len && text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (len - i > 9 && !memcmp(text + i, "PARAMETER", 9) &&
		    (text[i + 9] == ' ' || text[i + 9] == '\t'))
			return SEGC_TABLE_EXTRAP_TEXT;
		break;
	}
	return SEGC_TABLE_CSV;
}

/* Reads a measurement file's text in 'format' (see fit.h). */
segc_csv *segc_table_read(segc_ctx *ctx, const char *name, const char *text,
	size_t len, enum segc_table_format format,
	const segc_extrap_options *opts)
{
	extrap_exp x;
	segc_csv *C = NULL;
	int rc;

	if (format == SEGC_TABLE_AUTO)
		format = sniff(text, len);
	if (format == SEGC_TABLE_CSV)
		return segc_csv_read(ctx, name, text, len, opts ? &opts->table :
			NULL);
	extrap_init(&x, ctx, name);
	rc = format == SEGC_TABLE_EXTRAP_TEXT ? extrap_read_text(&x, text, len)
		: extrap_read_json(&x, text, len);
	if (!rc)
		C = extrap_table(&x, opts);
	extrap_clear(&x);
	return C;
}

/* Reads the measurement file 'path' (see fit.h). */
segc_csv *segc_table_read_path(segc_ctx *ctx, const char *path,
	enum segc_table_format format, const segc_extrap_options *opts)
{
	size_t len;
	const char *name;
	char *text = segc_csv_slurp(ctx, path, &name, &len);
	segc_csv *C;

	if (!text)
		return NULL;
	segc_ctx_count_input(ctx, len);
	C = segc_table_read(ctx, name, text, len, format, opts);
	free(text);
	return C;
}
