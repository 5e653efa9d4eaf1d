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

/* The slot of template 'i' in 't'. */
static char **slot(segc_templates *t, int i)
{
	return i == 0 ? &t->c_file : i == 1 ? &t->h_file : i == 2 ?
		&t->main_part : i == 3 ? &t->dd_part : &t->py_file;
}

/* Copies the compiled-in templates into 't'. */
int segc_templates_builtin(segc_templates *t)
{
	int i;

	for (i = 0; i < NTEMPLATES; i++)
		*slot(t, i) = segc_xstrdup(segc_builtin_templates[i]);
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
		if (!*slot(t, i))
			rc = -1;
		segc_strbuf_free(&path);
	}
	if (rc)
		segc_templates_clear(t);
	return rc;
}

/* Releases the texts of 't'. */
void segc_templates_clear(segc_templates *t)
{
	free(t->c_file);
	free(t->h_file);
	free(t->main_part);
	free(t->dd_part);
	free(t->py_file);
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
