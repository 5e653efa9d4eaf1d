/* templates.c - the templates of the emitted C and Python: the ones compiled into the
 * library (templates_builtin.c, generated from templates/ at build time)
 * or the user's, read from a directory; and their @NAME@ placeholders
 * filled. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/output.h"

/* Defined in the generated templates_builtin.c: the texts of
 * predictor.c.in, predictor.h.in, main.c.in, dd.c.in and
 * predictor.py.in. */
extern const char *const segc_builtin_templates[5];

/* The file names of the templates, in the order of segc_templates; the
 * last one may be missing from a directory. */
#define NTEMPLATES 5
static const char *const template_files[NTEMPLATES] = {
	"predictor.c.in", "predictor.h.in", "main.c.in", "dd.c.in",
	"predictor.py.in"
};

/* Most bytes a template file may have. */
#define MAX_TEMPLATE_BYTES (1UL << 20)

/* The version of each template's contract that this segc fills, and what
 * it is (doc/emit.md, "Templates").  dd.c.in 2: the helpers of TwoProd
 * and of products take the flag of the fused multiply-add (version 1,
 * before it, declared no version). */
static const unsigned template_versions[NTEMPLATES] = { 1, 1, 1, 2, 1 };
static const char *const template_contracts[NTEMPLATES] = {
	"the placeholders of doc/emit.md",
	"the placeholders of doc/emit.md",
	"the placeholders of doc/emit.md",
	"the helpers two_prod, dd_mul, dd_mul_d, ... take the flag of "
	"TwoProd by a fused multiply-add, and SEGC_FMA_ALWAYS, "
	"SEGC_FMA_DISPATCH, SEGC_FMA_COPY, SEGC_HAS_FMA are defined",
	"the placeholders of doc/emit.md"
};

/* The line a template may begin with, naming its contract. */
#define VERSION_LINE "@segc-template "

/* The slot of template 'i' in 't'. */
static char **slot(segc_templates *t, int i)
{
	return i == 0 ? &t->c_file : i == 1 ? &t->h_file : i == 2 ?
		&t->main_part : i == 3 ? &t->dd_part : &t->py_file;
}

/* Reads and removes the version line of template 'i' (text '*text',
 * from the file 'path'), its version into '*version' (0 without the
 * line); -1 with an error when the line is malformed, names another
 * template or a version other than this segc's. */
static int take_version(segc_ctx *ctx, const char *path, int i, char *text,
	unsigned *version)
{
	size_t k = strlen(VERSION_LINE), n, len;
	char *end, *nl;
	unsigned long v;

	*version = 0;
	if (strncmp(text, VERSION_LINE, k))
		return 0;
	nl = strchr(text, '\n');
	len = nl ? (size_t)(nl - text) : strlen(text);
	n = strlen(template_files[i]);
	if (len < k + n + 2 || strncmp(text + k, template_files[i], n) ||
	    text[k + n] != ' ' || text[k + n + 1] < '1' ||
	    text[k + n + 1] > '9') {
		segc_error(ctx, SEGC_ERR_INPUT, path, 1, 1, "the version line "
			"must be '%s%s %u' (this file's name and the version "
			"of its contract)", VERSION_LINE, template_files[i],
			template_versions[i]);
		return -1;
	}
	errno = 0;
	v = strtoul(text + k + n + 1, &end, 10);
	if (errno || end != text + len || v != template_versions[i]) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 1, 1, "the template is "
			"version %.*s of %s; this segc fills version %u (%s): "
			"start from its installed templates", (int)(len - k - n -
			1), text + k + n + 1, template_files[i],
			template_versions[i], template_contracts[i]);
		return -1;
	}
	*version = (unsigned)v;
	memmove(text, text + len + (nl ? 1 : 0), strlen(text + len +
		(nl ? 1 : 0)) + 1);
	return 0;
}

/* Copies the compiled-in templates into 't'. */
int segc_templates_builtin(segc_templates *t)
{
	unsigned version;
	int i;

	memset(t, 0, sizeof *t);
	for (i = 0; i < NTEMPLATES; i++) {
		*slot(t, i) = segc_xstrdup(segc_builtin_templates[i]);
		/* each declares this segc's version */
		(void)take_version(NULL, template_files[i], i, *slot(t, i),
			&version);
		if (i == 3)
			t->dd_version = version;
	}
	return 0;
}

/* Reads the whole file 'path' (NUL bytes refused); NULL with an error. */
static char *read_text(segc_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "rb");
	segc_strbuf b;
	char buf[4096];
	size_t n;

	if (!f) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "cannot read the "
			"template: %s", strerror(errno));
		return NULL;
	}
	segc_strbuf_init(&b);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (memchr(buf, '\0', n) || b.len + n > MAX_TEMPLATE_BYTES) {
			segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "not a template: "
				"a NUL byte, or larger than %lu bytes",
				MAX_TEMPLATE_BYTES);
			fclose(f);
			segc_strbuf_free(&b);
			return NULL;
		}
		segc_strbuf_appendn(&b, buf, n);
	}
	if (ferror(f)) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "cannot read the "
			"template");
		fclose(f);
		segc_strbuf_free(&b);
		return NULL;
	}
	fclose(f);
	return segc_strbuf_take(&b);
}

/* Non-zero when there is no file at 'path'. */
static int is_absent(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (f)
		fclose(f);
	return !f && errno == ENOENT;
}

/* Reads the templates from the directory 'dir' (predictor.py.in only
 * when it is there). */
int segc_templates_read(segc_ctx *ctx, segc_templates *t, const char *dir)
{
	unsigned version;
	int i, rc = 0;

	memset(t, 0, sizeof *t);
	for (i = 0; i < NTEMPLATES; i++) {
		segc_strbuf path;

		segc_strbuf_init(&path);
		segc_strbuf_appendf(&path, "%s/%s", dir, template_files[i]);
		if (i == NTEMPLATES - 1 && is_absent(segc_strbuf_str(&path))) {
			segc_strbuf_free(&path);
			continue;
		}
		*slot(t, i) = read_text(ctx, segc_strbuf_str(&path));
		if (!*slot(t, i) || take_version(ctx, segc_strbuf_str(&path), i,
		    *slot(t, i), &version))
			rc = -1;
		else if (i == 3)
			t->dd_version = version;
		segc_strbuf_free(&path);
	}
	t->dir = segc_xstrdup(dir);
	if (rc)
		segc_templates_clear(t);
	return rc;
}

/* See output.h. */
int segc_templates_check(segc_ctx *ctx, const segc_templates *t,
	const segc_emit_input *in, int python)
{
	segc_strbuf path;
	const char *need = NULL, *why = NULL;
	int i = 0;

	if (!t->dir)
		return 0;
	if (python) {
		if (!t->py_file || strstr(t->py_file, "@FUNCTIONS@"))
			return 0;
		i = 4, need = "@FUNCTIONS@", why = "the functions";
	} else if (in->accurate && t->dd_version != template_versions[3]) {
		i = 3;
	} else if (!strstr(t->c_file, "@FUNCTIONS@")) {
		need = "@FUNCTIONS@", why = "the functions";
	} else if (!strstr(t->c_file, "@HELPERS@")) {
		need = "@HELPERS@", why = "the helpers of --accurate and the "
			"include of <stdlib.h> of a task graph";
	} else if (!strstr(t->h_file, "@PROTOTYPES@")) {
		i = 1, need = "@PROTOTYPES@", why = "the prototypes";
	} else if (in->with_main && (!strstr(t->main_part, "@WRAPPERS@") ||
	    !strstr(t->main_part, "@WRAPPER_NAMES@"))) {
		i = 2, need = "@WRAPPERS@ and @WRAPPER_NAMES@", why = "the "
			"calls of the functions";
	} else {
		return 0;
	}
	segc_strbuf_init(&path);
	segc_strbuf_appendf(&path, "%s/%s", t->dir, template_files[i]);
	if (need)
		segc_error(ctx, SEGC_ERR_INPUT, segc_strbuf_str(&path), 1, 1,
			"the template has no %s, where %s go", need, why);
	else
		segc_error(ctx, SEGC_ERR_INPUT, segc_strbuf_str(&path), 1, 1,
			"the template declares no version, and --accurate needs "
			"version %u of %s (%s; a first line '%s%s %u'): an "
			"older one gives C that does not compile; start from "
			"the installed templates", template_versions[3],
			template_files[3], template_contracts[3], VERSION_LINE,
			template_files[3], template_versions[3]);
	segc_strbuf_free(&path);
	return -1;
}

/* Releases the texts of 't'. */
void segc_templates_clear(segc_templates *t)
{
	free(t->c_file);
	free(t->h_file);
	free(t->main_part);
	free(t->dd_part);
	free(t->py_file);
	free(t->dir);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ filling */

/* Appends the value of the key at 'key' ('n' bytes) or returns -1. */
static int put_key(segc_strbuf *b, const char *key, size_t n, size_t nkeys,
	const char *const *keys, const char *const *values)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (strlen(keys[i]) == n && !strncmp(keys[i], key, n)) {
			segc_strbuf_append(b, values[i]);
			return 0;
		}
	return -1;
}

/* Replaces every @KEY@ of 'tmpl'. */
char *segc_template_fill(segc_ctx *ctx, const char *tmpl,
	const char *tmpl_name, size_t nkeys, const char *const *keys,
	const char *const *values)
{
	segc_strbuf b;
	const char *s = tmpl;
	unsigned long line = 1;

	segc_strbuf_init(&b);
	while (*s) {
		size_t n = 0;

		if (*s == '@')
			while ((s[1 + n] >= 'A' && s[1 + n] <= 'Z') || s[1 + n] == '_')
				n++;
		if (*s != '@' || !n || s[1 + n] != '@') {
			line += *s == '\n';
			segc_strbuf_appendc(&b, *s++);
			continue;
		}
		if (put_key(&b, s + 1, n, nkeys, keys, values)) {
			segc_error(ctx, SEGC_ERR_INPUT, tmpl_name, line, 0,
				"unknown placeholder '@%.*s@'", (int)n, s + 1);
			segc_strbuf_free(&b);
			return NULL;
		}
		s += n + 2;
	}
	return segc_strbuf_take(&b);
}
