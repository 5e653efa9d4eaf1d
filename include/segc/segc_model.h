/* segc_model.h - public interface to models and machines: reading them,
 * reducing a model to its timing formula, and the outputs built on it.
 * The ownership rule of segc.h applies. */
#ifndef SEGC_MODEL_PUBLIC_H
#define SEGC_MODEL_PUBLIC_H

#include <segc/segc.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct segc_model segc_model;
typedef struct segc_machine segc_machine;

/* -------------------------------------------------------------- reading */

/* Reads and validates (schema, then semantics) a model document.  Records
 * every error found (up to the limit) and returns NULL if there was any.
 * Reads only 'path': no network, no external entities, no DTD. */
SEGC_GIVE segc_model *segc_model_read_file(SEGC_KEEP segc_ctx *ctx,
	const char *path);
/* The same for a machine document. */
SEGC_GIVE segc_machine *segc_machine_read_file(SEGC_KEEP segc_ctx *ctx,
	const char *path);
/* Validates a document of either kind without keeping it: 0 when valid.
 * A model's program is also lowered, and each of its expressions brought
 * to canonical form under the model's own setting, so that what every
 * command would refuse as bad input is refused here too. */
int segc_validate_file(SEGC_KEEP segc_ctx *ctx, const char *path);
void segc_model_free(SEGC_TAKE segc_model *m);
void segc_machine_free(SEGC_TAKE segc_machine *m);

const char *segc_model_name(SEGC_KEEP const segc_model *m);
/* The line of the program's element (the main graph, else the model) in
 * the document, where diagnostics about the whole formula stand; 0 when
 * unknown. */
unsigned long segc_model_program_line(SEGC_KEEP const segc_model *m);
const char *segc_model_description(SEGC_KEEP const segc_model *m);
/* The inline machine, or NULL. */
const segc_machine *segc_model_inline_machine(SEGC_KEEP const segc_model *m);

/* ----------------------------------------------------------- bindings */

/* Parameter values given on the command line (-D NAME=VALUE), strongest
 * of the binding order. */
typedef struct segc_bindings segc_bindings;
SEGC_GIVE segc_bindings *segc_bindings_new(void);
void segc_bindings_free(SEGC_TAKE segc_bindings *b);
/* Parses "NAME=VALUE" (VALUE an expression); 0 on success, else records
 * an error and returns -1. */
int segc_bindings_add(SEGC_KEEP segc_ctx *ctx, SEGC_KEEP segc_bindings *b,
	const char *assignment);
size_t segc_bindings_count(SEGC_KEEP const segc_bindings *b);
const char *segc_bindings_name(SEGC_KEEP const segc_bindings *b, size_t i);
segc_expr *segc_bindings_value(SEGC_KEEP const segc_bindings *b, size_t i);

/* ----------------------------------------------------------- reduction */

enum segc_component {
	SEGC_TOTAL = 0, SEGC_COMP, SEGC_COMM, SEGC_IO
};
/* "total", "comp", "comm", "io" -> component; -1 if none. */
int segc_component_parse(const char *name);
const char *segc_component_name(enum segc_component c);

/* What a formula is derived under: the model, an optional machine (an
 * explicit one replaces the model's inline machine), optional bindings. */
typedef struct segc_setting {
	const segc_model *model;
	const segc_machine *machine;   /* NULL: the inline one, if any */
	const segc_bindings *bindings; /* may be NULL */
} segc_setting;

/* The formula of 'component' of the model's program in its structural
 * form: the shape of the graph kept (as a paper writes it), lets and
 * functions expanded, bindings and the machine applied, light
 * simplification inside.  NULL with diagnostics on failure. */
SEGC_GIVE segc_expr *segc_derive_structural(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, enum segc_component component);
/* The canonical form of the same formula (segc_canonical under the
 * domains the model declares). */
SEGC_GIVE segc_expr *segc_derive_canonical(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, enum segc_component component);
/* The formulas of several components of the model's program from one
 * lowering of it: for each component c with bit (1 << c) set in 'mask',
 * out[c] gets what segc_derive_canonical (flags SEGC_DERIVE_CANONICAL)
 * or segc_derive_structural (flags 0) would give; the others NULL.  0, or
 * -1 with diagnostics after the first component that fails (every out[]
 * NULL then). */
#define SEGC_DERIVE_CANONICAL 1u
#define SEGC_COMPONENTS_ALL 0xfu
int segc_derive_components(SEGC_KEEP segc_ctx *ctx, const segc_setting *s,
	unsigned flags, unsigned mask, SEGC_GIVE segc_expr *out[4]);
/* The domains the model declares (params' min/max/integer, N and P,
 * resources >= 0), for segc_canonical(). */
SEGC_GIVE segc_domains *segc_setting_domains(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s);
/* An expression written in the model's language (an <expect>, --expect)
 * with the setting applied the same way as to a derived formula: lets and
 * functions expanded, bindings and machine substituted, names checked.
 * 'where' locates errors. */
SEGC_GIVE segc_expr *segc_setting_apply(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, SEGC_TAKE segc_expr *e, const segc_where *where);

#ifdef __cplusplus
}
#endif

#endif
