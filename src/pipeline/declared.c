/* declared.c - what kind of name a setting declares a name to be (a
 * parameter, N or P, a resource, a let, a const or cost of the machine),
 * for users that describe a formula's free names, such as
 * 'segc derive --json'. */
#include <config.h>

#include <string.h>

#include <segc/segc_model.h>
#include "model/model.h"

/* The kind of 'name' under 's' (see segc_model.h): a static string, or
 * NULL when the setting does not declare it. */
const char *segc_setting_name_kind(const segc_setting *s, const char *name)
{
	const segc_model *m = s->model;
	const segc_machine *mach = segc_setting_machine(s);

	if (m && segc_model_param(m, name))
		return "param";
	if (!strcmp(name, "N") || !strcmp(name, "P"))
		return !strcmp(name, "N") ? "N" : "P";
	if (m && segc_model_resource(m, name))
		return "resource";
	if (m && segc_model_let(m, name))
		return "let";
	if (mach && segc_machine_const(mach, name))
		return "machine const";
	if (mach && segc_machine_cost(mach, name))
		return "machine cost";
	return NULL;
}
