/* emit.h - the C predictor of a model's formulas (what 'segc emit'
 * writes): a C file and its header, rendered from templates, computing
 * each formula in double (or double-double) arithmetic from the names it
 * keeps; or the same functions as a Python module.  The ownership rule of segc.h applies; nothing here prints. */
#ifndef SEGC_EMIT_H
#define SEGC_EMIT_H

#include <segc/segc.h>
#include <segc/segc_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The templates, the ones compiled in or read from a directory.  A plain
 * data record of malloc'd strings, released by segc_templates_clear(). */
typedef struct segc_templates {
	char *c_file;    /* predictor.c.in */
	char *h_file;    /* predictor.h.in */
	char *main_part; /* main.c.in */
	char *dd_part;   /* dd.c.in: double-double helpers (--accurate) */
	char *py_file;   /* predictor.py.in; NULL when a directory has none */
	char *dir;       /* the directory read; NULL for the compiled-in ones */
	unsigned dd_version; /* the version dd.c.in declares; 0: none */
} segc_templates;

/* Fills 't' with copies of the compiled-in templates; 0. */
SEGC_API int segc_templates_builtin(SEGC_KEEP segc_templates *t);
/* Reads predictor.c.in, predictor.h.in, main.c.in and dd.c.in from 'dir'
 * into 't', and predictor.py.in when 'dir' has it.  Records an error and
 * returns -1 when one cannot be read, or declares a version (its first
 * line "@segc-template NAME VERSION", removed) other than this segc's. */
SEGC_API int segc_templates_read(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP segc_templates *t, SEGC_KEEP const char *dir);
/* Releases the strings of 't' and empties it. */
SEGC_API void segc_templates_clear(SEGC_KEEP segc_templates *t);

/* What to emit: a plain data record the caller fills; every pointer in it
 * is borrowed by segc_emit_render(). */
typedef struct segc_emit_input {
	const char *model_name;   /* for the comments; and the C prefix
	                           * when 'prefix' is NULL */
	const char *prefix;       /* sanitised into the C prefix; may be NULL */
	const char *description;  /* may be NULL */
	const char *base;         /* the file base (header name: base.h) */
	size_t nargs;
	const char *const *args;  /* N, P, then the kept names */
	segc_expr *formulas[4];   /* by enum segc_component; NULL: none */
	int with_main;
	int accurate;             /* double-double arithmetic */
	const segc_domains *domains; /* of the arguments, for the error
	                           * bounds; may be NULL (nothing known) */
	segc_expr *named[4];      /* for the comments: the formulas with
	                           * named parts (segc_setting_where); NULL:
	                           * the formulas themselves */
	const segc_where_list *where; /* the definitions of those names;
	                           * may be NULL */
} segc_emit_input;

/* The form a predictor computes 'e' (a structural form) from: sums over
 * a counter replaced by a count times their body, or by their closed
 * form regrouped so that only exact integer polynomials can cancel
 * (emit_form.c; doc/emit.md).  Equal to 'e' at every point of 'dom'.
 * NULL with diagnostics when a closed form fails. */
SEGC_API SEGC_GIVE segc_expr *segc_emit_stable_form(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *e);

/* The formula 'e' made NaN where a loop count is negative: if(c1 >= 0
 * and ..., e, sqrt(min(c1, ...))) over the 'n' counts 'counts' that the
 * domains 'dom' do not prove >= 0 and whose names are all among the
 * 'nargs' names 'args' (emit_guard.c; doc/emit.md); a copy of 'e' when
 * there is none. */
SEGC_API SEGC_GIVE segc_expr *segc_emit_guard_counts(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *e,
	size_t n, SEGC_KEEP segc_expr *const *counts, size_t nargs,
	const char *const *args);

/* Renders the C file and the header of 'in' from the templates 't':
 * 0 with '*c_text' and '*h_text' set (GIVEn, malloc'd); -1 with
 * diagnostics (located at 'where', which may be NULL) otherwise. */
SEGC_API int segc_emit_render(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_templates *t, SEGC_KEEP const segc_emit_input *in,
	SEGC_KEEP const segc_where *where, SEGC_KEEP char **c_text,
	SEGC_KEEP char **h_text);

/* Renders the Python module of 'in' (its 'with_main' and 'accurate' must
 * be 0) from the template 't->py_file': 0 with '*py_text' set (GIVEn,
 * malloc'd); -1 with diagnostics (at 'where', which may be NULL) when a
 * name is unbound, the plan holds what the Python printer cannot
 * express, or there is no template. */
SEGC_API int segc_emit_render_python(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_templates *t, SEGC_KEEP const segc_emit_input *in,
	SEGC_KEEP const segc_where *where, SEGC_KEEP char **py_text);

/* Renders the Fortran 2008 module of 'in' (its 'with_main' and
 * 'accurate' must be 0): 0 with '*f_text' set (GIVEn, malloc'd); -1 with
 * diagnostics (at 'where', which may be NULL) when a name is unbound or
 * too long for Fortran, or the plan holds what the Fortran printer cannot
 * express. */
SEGC_API int segc_emit_render_fortran(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_emit_input *in, SEGC_KEEP const segc_where *where,
	SEGC_KEEP char **f_text);

/* 'name' made a C identifier that is not a keyword nor reserved
 * (malloc'd). */
SEGC_API SEGC_GIVE char *segc_emit_identifier(SEGC_KEEP const char *name);

#ifdef __cplusplus
}
#endif

#endif
