/* model.c - releasing models and machines, and looking things up in them.
 * Blocks nest as deep as the input says, so they are freed with an explicit
 * stack, never by recursion. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "base/util.h"

/* Releases the fields of parameter 'p'. */
static void param_clear(segc_param *p)
{
	free(p->name);
	segc_expr_free(p->value);
	segc_expr_free(p->min);
	segc_expr_free(p->max);
	free(p->latex);
}

/* Releases the fields of binding 'b'. */
static void binding_clear(segc_binding *b)
{
	free(b->name);
	segc_expr_free(b->value);
	segc_expr_free(b->min);
	segc_expr_free(b->max);
	free(b->latex);
}

/* Releases the 'n' bindings of 'b' and the array. */
static void bindings_free(size_t n, segc_binding *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		binding_clear(&b[i]);
	free(b);
}

/* Releases the 'n' functions of 'f' and the array. */
static void functions_free(size_t n, segc_function *f)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		free(f[i].name);
		for (j = 0; j < f[i].nargs; j++)
			free(f[i].args[j]);
		free(f[i].args);
		segc_expr_free(f[i].body);
	}
	free(f);
}

/* Releases the fields of block 'b' but not its children. */
static void block_release_own(segc_block *b)
{
	size_t i;

	switch (b->kind) {
	case SEGC_BLOCK_STEP:
		free(b->name);
		segc_expr_free(b->cost);
		for (i = 0; i < b->nuses; i++) {
			free(b->uses[i].resource);
			segc_expr_free(b->uses[i].count);
		}
		free(b->uses);
		break;
	case SEGC_BLOCK_LOOP:
		segc_expr_free(b->count);
		free(b->var);
		segc_expr_free(b->from);
		segc_expr_free(b->to);
		break;
	case SEGC_BLOCK_CASE:
		segc_expr_free(b->prob);
		break;
	case SEGC_BLOCK_CALL:
		free(b->graph);
		break;
	default:
		break;
	}
	free(b->children);
	free(b);
}

/* Releases block 'b' and every block below it.  A stack of pending blocks
 * replaces recursion: a nest of any depth is freed in constant C stack. */
void segc_block_free(segc_block *b)
{
	segc_block **stack = NULL;
	size_t n = 0, cap = 0, i;

	if (!b)
		return;
	for (;;) {
		for (i = 0; i < b->nchildren; i++) {
			if (!b->children[i])
				continue;
			if (n == cap) {
				size_t ncap = cap ? 2 * cap : 64;
				segc_block **s = realloc(stack,
					ncap * sizeof *s);

				if (!s)
					break;
				stack = s;
				cap = ncap;
			}
			stack[n++] = b->children[i];
		}
		block_release_own(b);
		if (!n)
			break;
		b = stack[--n];
	}
	free(stack);
}

/* Non-zero when 'g' has an indexed node (see model.h). */
int segc_graph_has_families(const segc_graph *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i].nindex)
			return 1;
	return 0;
}

/* Releases graph 'g''s fields. */
static void graph_clear(segc_graph *g)
{
	size_t i, j;

	free(g->name);
	segc_block_free(g->body);
	for (i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].id);
		segc_expr_free(g->nodes[i].cost);
		for (j = 0; j < g->nodes[i].nindex; j++) {
			free(g->nodes[i].index_name[j]);
			segc_expr_free(g->nodes[i].index_lo[j]);
			segc_expr_free(g->nodes[i].index_hi[j]);
		}
		free(g->nodes[i].index_name);
		free(g->nodes[i].index_lo);
		free(g->nodes[i].index_hi);
	}
	free(g->nodes);
	for (i = 0; i < g->narcs; i++) {
		free(g->arcs[i].from);
		free(g->arcs[i].to);
		segc_expr_free(g->arcs[i].prob);
		segc_expr_free(g->arcs[i].cost);
		segc_expr_free(g->arcs[i].loop);
		free(g->arcs[i].var);
		for (j = 0; j < g->arcs[i].nat; j++)
			segc_expr_free(g->arcs[i].at[j]);
		free(g->arcs[i].at);
	}
	free(g->arcs);
}

/* Releases machine 'm' and everything it owns. */
void segc_machine_free(segc_machine *m)
{
	if (!m)
		return;
	free(m->file);
	free(m->name);
	free(m->description);
	bindings_free(m->nconsts, m->consts);
	bindings_free(m->ncosts, m->costs);
	functions_free(m->nfunctions, m->functions);
	segc_name_index_free(&m->ix_consts);
	segc_name_index_free(&m->ix_costs);
	free(m);
}

/* Releases model 'm' and everything it owns, its inline machine too. */
void segc_model_free(segc_model *m)
{
	size_t i;

	if (!m)
		return;
	free(m->file);
	free(m->name);
	free(m->description);
	for (i = 0; i < m->nparams; i++)
		param_clear(&m->params[i]);
	free(m->params);
	for (i = 0; i < m->nresources; i++) {
		free(m->resources[i].name);
		free(m->resources[i].latex);
	}
	free(m->resources);
	bindings_free(m->nlets, m->lets);
	functions_free(m->nfunctions, m->functions);
	segc_machine_free(m->machine);
	for (i = 0; i < m->ngraphs; i++)
		graph_clear(&m->graphs[i]);
	free(m->graphs);
	for (i = 0; i < m->nexpects; i++) {
		free(m->expects[i].component);
		free(m->expects[i].machine);
		free(m->expects[i].source);
		free(m->expects[i].text);
		segc_expr_free(m->expects[i].formula);
	}
	free(m->expects);
	segc_name_index_free(&m->ix_params);
	segc_name_index_free(&m->ix_resources);
	segc_name_index_free(&m->ix_lets);
	segc_name_index_free(&m->ix_graphs);
	if (m->lowered_free)
		m->lowered_free(m->lowered);
	free(m);
}

/* The name of model 'm'. */
const char *segc_model_name(const segc_model *m)
{
	return m ? m->name : NULL;
}

/* The line of the element of the program of 'm' (its main graph, else
 * the model), for diagnostics about the whole formula; 0 when unknown. */
unsigned long segc_model_program_line(const segc_model *m)
{
	const segc_graph *g = m ? segc_model_main_graph(m) : NULL;

	return g && g->loc.line ? g->loc.line : m ? m->loc.line : 0;
}

/* The description of model 'm', or NULL. */
const char *segc_model_description(const segc_model *m)
{
	return m ? m->description : NULL;
}

/* The machine written inside model 'm', or NULL. */
const segc_machine *segc_model_inline_machine(const segc_model *m)
{
	return m ? m->machine : NULL;
}

/* The machine of setting 's' (see model.h): the one place that decides
 * it. */
const segc_machine *segc_setting_machine(const segc_setting *s)
{
	return s->machine ? s->machine : segc_model_inline_machine(s->model);
}

/* The record named 'name' among the 'n' records of type T at 'v', found
 * through index 'ix' (a cache: the model stays logically const). */
#define FIND(ix, v, n, T) ((n) && (k = segc_name_index_find( \
	(segc_name_index *)&(ix), (v), (n), sizeof(T), offsetof(T, name), \
	name)) != (size_t)-1 ? &(v)[k] : NULL)

/* The parameter 'name' of 'm', or NULL. */
const segc_param *segc_model_param(const segc_model *m, const char *name)
{
	size_t k;

	return FIND(m->ix_params, m->params, m->nparams, segc_param);
}

/* The resource 'name' of 'm', or NULL. */
const segc_resource *segc_model_resource(const segc_model *m,
	const char *name)
{
	size_t k;

	return FIND(m->ix_resources, m->resources, m->nresources,
		segc_resource);
}

/* The graph 'name' of 'm', or NULL. */
const segc_graph *segc_model_graph(const segc_model *m, const char *name)
{
	size_t k;

	return FIND(m->ix_graphs, m->graphs, m->ngraphs, segc_graph);
}

/* The let 'name' of 'm', or NULL. */
const segc_binding *segc_model_let(const segc_model *m, const char *name)
{
	size_t k;

	return FIND(m->ix_lets, m->lets, m->nlets, segc_binding);
}

/* The constant 'name' of machine 'm', or NULL. */
const segc_binding *segc_machine_const(const segc_machine *m,
	const char *name)
{
	size_t k;

	return FIND(m->ix_consts, m->consts, m->nconsts, segc_binding);
}

/* The cost 'name' of machine 'm', or NULL. */
const segc_binding *segc_machine_cost(const segc_machine *m,
	const char *name)
{
	size_t k;

	return FIND(m->ix_costs, m->costs, m->ncosts, segc_binding);
}

/* The program of 'm': the graph "main", else the first; NULL if none. */
const segc_graph *segc_model_main_graph(const segc_model *m)
{
	const segc_graph *g = segc_model_graph(m, "main");

	if (g)
		return g;
	return m->ngraphs ? &m->graphs[0] : NULL;
}

/* Fills the cache slot of 'm' (see model.h). */
void segc_model_set_lowered(const segc_model *m, void *p,
	void (*free_fn)(void *))
{
	segc_model *w = (segc_model *)m;

	if (w->lowered_free)
		w->lowered_free(w->lowered);
	w->lowered = p;
	w->lowered_free = free_fn;
}

/* Non-zero when path 'p' has a component "..". */
static int has_dot_dot(const char *p)
{
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += n;
		p += strspn(p, "/");
	}
	return 0;
}

/* The directory of 'file' (a new string): "." when it has none. */
static char *directory_of(const char *file)
{
	const char *slash = file ? strrchr(file, '/') : NULL;

	if (!slash)
		return segc_xstrdup(".");
	if (slash == file)
		return segc_xstrdup("/");
	return segc_xstrndup(file, (size_t)(slash - file));
}

/* Non-zero when real path 'p' lies inside real directory 'dir'. */
static int path_inside(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return p[0] == '/';
	return !strncmp(p, dir, n) && p[n] == '/';
}

/* Records that the machine of <expect> 'x' is refused: 'why'. */
static void machine_refused(segc_ctx *ctx, const segc_expect *x,
	const char *why)
{
	char *name = segc_printable_dup(x->machine);

	segc_error(ctx, SEGC_ERR_INPUT, x->loc.file, x->loc.line, x->loc.col,
		"the machine '%s' of <expect> %s; it must be named by a "
		"relative path inside the model's directory", name, why);
	free(name);
}

/* The path of the machine that <expect> 'x' of model 'm' names (see
 * model.h). */
char *segc_expect_machine_path(segc_ctx *ctx, const segc_model *m,
	const segc_expect *x)
{
	char *dir, *path, *real_dir = NULL, *real = NULL;
	size_t n;

	if (!x->machine)
		return NULL;
	if (!x->machine[0]) {
		machine_refused(ctx, x, "is empty");
		return NULL;
	}
	if (x->machine[0] == '/') {
		machine_refused(ctx, x, "is an absolute path");
		return NULL;
	}
	if (has_dot_dot(x->machine)) {
		machine_refused(ctx, x, "goes up a directory ('..')");
		return NULL;
	}
	dir = directory_of(m->file);
	n = strlen(dir);
	path = segc_xmalloc(n + strlen(x->machine) + 2);
	memcpy(path, dir, n);
	path[n] = '/';
	strcpy(path + n + 1, x->machine);
	real_dir = realpath(dir, NULL);
	real = real_dir ? realpath(path, NULL) : NULL;
	if (real && !path_inside(real, real_dir)) {
		machine_refused(ctx, x, "leads out of the model's directory "
			"(through a symbolic link)");
		free(path);
		path = NULL;
	} else if (real) {
		free(path);
		path = real;
		real = NULL;
	}
	free(real);
	free(real_dir);
	free(dir);
	return path;
}

/* ------------------------------------------------------------ components */

static const char *const component_names[] = { "total", "comp", "comm",
	"io" };

/* "total", "comp", "comm", "io" -> component; -1 if none. */
int segc_component_parse(const char *name)
{
	int i;

	for (i = 0; i < 4; i++)
		if (name && !strcmp(name, component_names[i]))
			return i;
	return -1;
}

/* The name of component 'c'. */
const char *segc_component_name(enum segc_component c)
{
	return (unsigned)c < 4 ? component_names[c] : "total";
}
