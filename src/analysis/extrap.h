/* extrap.h - an Extra-P experiment as read from its text (extrap_text.c)
 * or JSON (extrap_json.c) files, before the call path and metric are
 * chosen and it becomes a table of measurements (extrap.c). */
#ifndef SEGC_EXTRAP_H
#define SEGC_EXTRAP_H

#include <stddef.h>

#include <gmp.h>
#include <segc/fit.h>

/* A place in the file. */
typedef struct extrap_place {
	unsigned long line, col;
} extrap_place;

/* One measured value: the block (call path and metric) and the point it
 * belongs to, where it stands. */
typedef struct extrap_value {
	size_t block, point;
	mpq_t v;
	extrap_place at;
} extrap_value;

/* A call path and a metric (NULL: none named) whose values follow. */
typedef struct extrap_block {
	char *callpath, *metric;
	extrap_place at;
} extrap_block;

/* The experiment: parameters, points (nparams coordinates each),
 * blocks and values, in file order. */
typedef struct extrap_exp {
	segc_ctx *ctx;
	const char *file;
	unsigned long max_digits;
	size_t nparams, npoints, nblocks, nvalues;
	size_t cap_params, cap_points, cap_blocks, cap_values;
	char **params;
	extrap_place *param_at;
	mpq_t *coords;
	extrap_place *point_at;
	extrap_block *blocks;
	extrap_value *values;
} extrap_exp;

/* Starts an empty experiment read from 'file' under 'ctx'. */
void extrap_init(extrap_exp *x, segc_ctx *ctx, const char *file);
/* Releases what 'x' holds. */
void extrap_clear(extrap_exp *x);
/* Adds the parameter 'name' (copied); -1 after an error (twice). */
int extrap_add_param(extrap_exp *x, const char *name, size_t n,
	extrap_place at);
/* Adds a point; its nparams coordinates are to be set by the caller in
 * extrap_coord(x, point, j).  Returns its index. */
size_t extrap_add_point(extrap_exp *x, extrap_place at);
mpq_ptr extrap_coord(extrap_exp *x, size_t point, size_t j);
/* Starts a block of values of 'callpath' and 'metric' (copied; NULL:
 * none).  Returns its index. */
size_t extrap_add_block(extrap_exp *x, const char *callpath,
	const char *metric, extrap_place at);
/* Adds a value (uninitialized number to set) of 'block' at 'point'. */
mpq_ptr extrap_add_value(extrap_exp *x, size_t block, size_t point,
	extrap_place at);
/* A malloc'd copy of s[0..n) fit for a message: control bytes written
 * \xHH, cut to 'max' bytes. */
char *extrap_printable(const char *s, size_t n, size_t max);
/* Reads the decimal s[0..n) into 'q'; -1 after a located error that
 * says what the number was ('what'). */
int extrap_number(extrap_exp *x, mpq_t q, const char *s, size_t n,
	extrap_place at, const char *what);

/* The readers: 0, or -1 after located errors.  The JSON reader takes
 * both of Extra-P's JSON formats, the older one of numbered ids through
 * extrap_read_json_ids (extrap_json_ids.c) given the parsed document. */
struct json_value;
int extrap_read_text(extrap_exp *x, const char *text, size_t len);
int extrap_read_json(extrap_exp *x, const char *text, size_t len);
int extrap_read_json_ids(extrap_exp *x, const struct json_value *root);

/* The table of the values of the chosen call path and metric (see
 * segc_table_read in fit.h); NULL after errors. */
segc_csv *extrap_table(extrap_exp *x, const segc_extrap_options *o);

#endif
