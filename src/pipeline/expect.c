/* expect.c - the public view of a model's <expect> elements and of its
 * file (segc_model.h), read from the private structures of model.h. */
#include <config.h>

#include <segc/segc_model.h>
#include "model/model.h"

/* The file the model was read from, or NULL. */
const char *segc_model_file(const segc_model *m)
{
	return m->file;
}

/* The number of <expect> elements of 'm'. */
size_t segc_model_n_expects(const segc_model *m)
{
	return m->nexpects;
}

/* The 'i'-th <expect> of 'm' (i < segc_model_n_expects(m)). */
const segc_expect *segc_model_expect(const segc_model *m, size_t i)
{
	return &m->expects[i];
}

/* The component of 'x' as written, "total" when omitted. */
const char *segc_expect_component(const segc_expect *x)
{
	return x->component ? x->component : "total";
}

/* The 'machine' attribute of 'x', or NULL. */
const char *segc_expect_machine(const segc_expect *x)
{
	return x->machine;
}

/* The 'source' attribute of 'x', or NULL. */
const char *segc_expect_source(const segc_expect *x)
{
	return x->source;
}

/* The formula of 'x' as parsed. */
segc_expr *segc_expect_formula(const segc_expect *x)
{
	return x->formula;
}

/* The place of 'x' into 'where' (its 'what' left alone). */
void segc_expect_where(const segc_expect *x, segc_where *where)
{
	where->file = x->loc.file;
	where->line = x->loc.line;
	where->col = x->loc.col;
}
