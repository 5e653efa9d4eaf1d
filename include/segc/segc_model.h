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
SEGC_API SEGC_GIVE segc_model *segc_model_read_file(SEGC_KEEP segc_ctx *ctx,
	const char *path);
/* The same for a machine document. */
SEGC_API SEGC_GIVE segc_machine *segc_machine_read_file(SEGC_KEEP segc_ctx *ctx,
	const char *path);
/* The same for a model document held in memory: the 'len' bytes at
 * 'text' (not NUL-terminated necessarily), named 'name' in diagnostics
 * (FILE of FILE:LINE:COL; "<string>" when NULL).  The max_file_bytes
 * limit applies to 'len' as to the size of a file. */
SEGC_API SEGC_GIVE segc_model *segc_model_read_string(SEGC_KEEP segc_ctx *ctx,
	const char *name, const char *text, size_t len);
/* The same for a machine document held in memory. */
SEGC_API SEGC_GIVE segc_machine *segc_machine_read_string(
	SEGC_KEEP segc_ctx *ctx, const char *name, const char *text,
	size_t len);
/* Validates a document of either kind without keeping it: 0 when valid.
 * A model's program is also lowered, and each of its expressions brought
 * to canonical form under the model's own setting, so that what every
 * command would refuse as bad input is refused here too. */
SEGC_API int segc_validate_file(SEGC_KEEP segc_ctx *ctx, const char *path);
SEGC_API void segc_model_free(SEGC_TAKE segc_model *m);
SEGC_API void segc_machine_free(SEGC_TAKE segc_machine *m);

SEGC_API const char *segc_model_name(SEGC_KEEP const segc_model *m);
/* The line of the program's element (the main graph, else the model) in
 * the document, where diagnostics about the whole formula stand; 0 when
 * unknown. */
SEGC_API unsigned long segc_model_program_line(SEGC_KEEP const segc_model *m);
SEGC_API const char *segc_model_description(SEGC_KEEP const segc_model *m);
/* The inline machine, or NULL. */
SEGC_API const segc_machine *segc_model_inline_machine(
	SEGC_KEEP const segc_model *m);
/* The file the model was read from (borrowed), or NULL. */
SEGC_API const char *segc_model_file(SEGC_KEEP const segc_model *m);
/* The number of nodes of the model's graph of indexed nodes, when it has
 * exactly one such graph (else 0), and the id of its node 'k' (borrowed;
 * in the order of the graph, as the atom taskpath(...) numbers them). */
SEGC_API size_t segc_model_task_nodes(SEGC_KEEP const segc_model *m);
SEGC_API const char *segc_model_task_node(SEGC_KEEP const segc_model *m,
	size_t k);

/* ---------------------------------------------------------- expectations */

/* An <expect> of a model (FORMAT.md section 7): a formula derived by hand
 * for one component, under the model's machine or one it names.  Opaque:
 * it belongs to its model and is read through the accessors below, whose
 * strings and expressions are borrowed from it. */
typedef struct segc_expect segc_expect;

/* The number of <expect> elements of 'm', and the 'i'-th of them. */
SEGC_API size_t segc_model_n_expects(SEGC_KEEP const segc_model *m);
SEGC_API const segc_expect *segc_model_expect(SEGC_KEEP const segc_model *m,
	size_t i);
/* The component as written ("total" when omitted). */
SEGC_API const char *segc_expect_component(SEGC_KEEP const segc_expect *x);
/* The 'machine' attribute as written, or NULL. */
SEGC_API const char *segc_expect_machine(SEGC_KEEP const segc_expect *x);
/* The 'source' attribute, or NULL. */
SEGC_API const char *segc_expect_source(SEGC_KEEP const segc_expect *x);
/* The formula as parsed (not canonical). */
SEGC_API segc_expr *segc_expect_formula(SEGC_KEEP const segc_expect *x);
/* Sets the file, line and column of 'where' to the place of the element
 * (its 'what' is left alone). */
SEGC_API void segc_expect_where(SEGC_KEEP const segc_expect *x,
	SEGC_KEEP segc_where *where);
/* The file of the machine that <expect> 'x' of model 'm' names (a new
 * string), or NULL ('x' names none, or with a diagnostic at 'x').  The
 * document names it, not the user, so it must lie inside the model's
 * directory: a relative path without a ".." component, and, where it
 * exists, a real path (symbolic links followed) inside the real
 * directory of the model.  An existing file gets its real path; one that
 * does not exist its path, for the reader to report. */
SEGC_API SEGC_GIVE char *segc_expect_machine_path(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_model *m, SEGC_KEEP const segc_expect *x);

/* ----------------------------------------------------------- bindings */

/* Parameter values given on the command line (-D NAME=VALUE), strongest
 * of the binding order. */
typedef struct segc_bindings segc_bindings;
SEGC_API SEGC_GIVE segc_bindings *segc_bindings_new(void);
SEGC_API void segc_bindings_free(SEGC_TAKE segc_bindings *b);
/* Parses "NAME=VALUE" (VALUE an expression); 0 on success, else records
 * an error and returns -1. */
SEGC_API int segc_bindings_add(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP segc_bindings *b,
	const char *assignment);
SEGC_API size_t segc_bindings_count(SEGC_KEEP const segc_bindings *b);
SEGC_API const char *segc_bindings_name(SEGC_KEEP const segc_bindings *b,
	size_t i);
SEGC_API segc_expr *segc_bindings_value(SEGC_KEEP const segc_bindings *b,
	size_t i);

/* ----------------------------------------------------------- reduction */

enum segc_component {
	SEGC_TOTAL = 0, SEGC_COMP, SEGC_COMM, SEGC_IO
};
/* "total", "comp", "comm", "io" -> component; -1 if none. */
SEGC_API int segc_component_parse(const char *name);
SEGC_API const char *segc_component_name(enum segc_component c);

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
SEGC_API SEGC_GIVE segc_expr *segc_derive_structural(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, enum segc_component component);
/* The readable form of the same formula: the structural one with each
 * part replaced by a shorter equal one where there is one (sums of
 * constants closed, conditions and maxima the domains decide removed,
 * the canonical form of a part, content and common factors out); equal
 * to the structural one on the declared domains. */
SEGC_API SEGC_GIVE segc_expr *segc_derive_readable(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, enum segc_component component);
/* The canonical form of the same formula (segc_canonical under the
 * domains the model declares). */
SEGC_API SEGC_GIVE segc_expr *segc_derive_canonical(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, enum segc_component component);
/* The formulas of several components of the model's program from one
 * lowering of it: for each component c with bit (1 << c) set in 'mask',
 * out[c] gets what segc_derive_canonical (flags SEGC_DERIVE_CANONICAL)
 * segc_derive_readable (SEGC_DERIVE_READABLE) or segc_derive_structural
 * (flags 0) would give; the others NULL.  0, or
 * -1 with diagnostics after the first component that fails (every out[]
 * NULL then). */
#define SEGC_DERIVE_CANONICAL 1u
#define SEGC_DERIVE_READABLE 2u
#define SEGC_COMPONENTS_ALL 0xfu
SEGC_API int segc_derive_components(SEGC_KEEP segc_ctx *ctx, const segc_setting *s,
	unsigned flags, unsigned mask, SEGC_GIVE segc_expr *out[4]);
/* Refuses a point outside the domain the loop counts of the program of
 * 's' give it: -1, with an error at each <loop> element (or back arc)
 * whose count is negative when names[i] = values[i] (and the setting's
 * bindings), else 0.  A count that names a loop counter, or a name the
 * point leaves free, is not decided here. */
SEGC_API int segc_setting_check_counts(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, size_t n, const char *const *names,
	const mpq_t *values);

/* The loop counts of the program of 's' (of every <loop> element and
 * loop arc), the setting's bindings applied, into '*out' ('*n' of them,
 * each GIVEn, the array malloc'd; NULL when none): for a predictor that
 * must refuse a point where one is negative.  A count may name a loop
 * counter.  0, or -1 with diagnostics. */
SEGC_API int segc_setting_loop_counts(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, SEGC_GIVE segc_expr ***out, size_t *n);

/* The loop counts of the program of a setting, lowered once, for the
 * commands that test many points (graph/counts.c).  NULL (reported) when
 * the program cannot be lowered. */
typedef struct segc_counts segc_counts;
SEGC_API SEGC_GIVE segc_counts *segc_counts_new(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s);
SEGC_API void segc_counts_free(SEGC_TAKE segc_counts *c);
/* segc_setting_check_counts() with 'c': -1 when a count is negative at
 * the point, with an error at its <loop> when 'ctx' is not NULL (NULL:
 * a quiet test, for points a command may skip). */
SEGC_API int segc_counts_at(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_counts *c, size_t n, const char *const *names,
	const mpq_t *values);
/* The same over every integer 'var' of [lo, hi] (the other names at the
 * point): -1, with an error naming a point of the range where a count is
 * negative, when one is found at an end, or, unless the declared domains
 * with 'var' in [lo, hi] prove the count >= 0, at an integer of a range
 * of at most 10^5 of them tried one by one.  A longer range whose count
 * is not proved >= 0 and is >= 0 at both ends is accepted. */
SEGC_API int segc_counts_over(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_counts *c, const char *var, mpq_srcptr lo,
	mpq_srcptr hi, size_t n, const char *const *names,
	const mpq_t *values);

/* The domains the model declares (params' min/max/integer, N and P,
 * resources >= 0), for segc_canonical(). */
SEGC_API SEGC_GIVE segc_domains *segc_setting_domains(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s);
/* An expression written in the model's language (an <expect>, --expect)
 * with the setting applied the same way as to a derived formula: lets and
 * functions expanded, bindings and machine substituted, names checked.
 * 'where' locates errors. */
SEGC_API SEGC_GIVE segc_expr *segc_setting_apply(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, SEGC_TAKE segc_expr *e, const segc_where *where);
/* Non-zero when 'name' may be given a value by the user (-D, a grid): N,
 * P, a parameter, resource or let of the model, a const or cost of the
 * setting's machine.  Else 0, with '*near' the nearest such name (for
 * "did you mean") or NULL. */
SEGC_API int segc_setting_declares(SEGC_KEEP const segc_setting *s,
	SEGC_KEEP const char *name, SEGC_KEEP const char **near);
/* What 'name' is declared as under 's': "param" (a <param>, N and P
 * included when declared so), "N" or "P" (the implicit ones), "resource",
 * "let", "machine const" or "machine cost" (of the setting's machine: the
 * explicit one, else the inline one); a static string.  NULL when 's'
 * declares no such name (a loop counter, say). */
SEGC_API const char *segc_setting_name_kind(SEGC_KEEP const segc_setting *s,
	SEGC_KEEP const char *name);

/* Names of the model and the setting's machine, for the commands that
 * keep names instead of their values: with SEGC_NAMES_LETS the model's
 * lets, with SEGC_NAMES_RESOURCES its resources, with SEGC_NAMES_VALUES
 * its parameters with a value and the consts and costs of the machine;
 * each once, in that order and in the order declared.  '*out' gets a
 * malloc'd array (free() it) of names borrowed from the model and
 * machine; returns their number. */
#define SEGC_NAMES_LETS 1u
#define SEGC_NAMES_RESOURCES 2u
#define SEGC_NAMES_VALUES 4u
SEGC_API size_t segc_setting_names(SEGC_KEEP const segc_setting *s,
	unsigned what, const char ***out);
/* The lets of the model that 's' keeps as names (bound to themselves)
 * and that the 'nformulas' formulas (NULL ones skipped) use, directly or
 * through other kept lets, each with its value under 's' (the kept lets
 * in it as names): '*count' of them, a let after every let it uses, else
 * in the model's order.  The names are borrowed from the model; the
 * arrays are malloc'd (free() them), the values new references.  0, or
 * -1 with diagnostics. */
SEGC_API int segc_setting_kept_lets(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, segc_expr *const *formulas,
	size_t nformulas, const char ***names, SEGC_GIVE segc_expr ***values,
	size_t *count);

/* Named subexpressions of the 'nf' formulas 'f' (NULL ones skipped) of
 * the model of 's', for "where" lines: each formula is replaced in place
 * by the same formula with a part that occurs more than once, or a long
 * ceil, floor, max or min inside a sum, replaced by a name, and 'out'
 * gets the definitions (segc_where_list_clear() it).  A name is a let's,
 * a named step's or a node's whose value has the same canonical form,
 * else made from the first name of the part (N_x, N_y, ...); a part that
 * uses the counters of enclosing sums is a call of them, N_x(i).  Every
 * formula is the one given once the definitions are put back, last to
 * first.  0, or -1 with diagnostics. */
SEGC_API int segc_setting_where(SEGC_KEEP segc_ctx *ctx,
	const segc_setting *s, segc_expr **f, size_t nf,
	segc_where_list *out);

#ifdef __cplusplus
}
#endif

#endif
