/* emit_fortran_lines.c - Fortran's free-form lines in the emitted
 * modules: a statement longer than the emitters' limit continued with '&'
 * at a blank, so that no line passes Fortran's 132 columns (the Fortran
 * printer's own statements and those of the task-graph walk). */
#include <string.h>
#include "output/emit_private.h"

/* The longest line printed before a continuation: below Fortran's 132
 * columns with room for the '&' and the indentation of what follows. */
#define F_WRAP 100

/* See emit_private.h. */
void segc_emit_f_wrapped(segc_strbuf *b, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n'), *cut, *line = p;
		size_t len = nl ? (size_t)(nl - p) : strlen(p), lead = 0;

		while (p[lead] == ' ')
			lead++;
		while (len > F_WRAP && line[lead] != '!') {
			for (cut = p + F_WRAP; cut > p + lead && *cut != ' ';
			     cut--)
				;
			if (cut <= p + lead)
				break;
			segc_strbuf_appendn(b, p, (size_t)(cut - p));
			segc_strbuf_append(b, " &\n");
			segc_strbuf_appendn(b, line, lead);
			segc_strbuf_append(b, "    &");
			len -= (size_t)(cut - p);
			p = cut;
		}
		segc_strbuf_appendn(b, p, len);
		segc_strbuf_appendc(b, '\n');
		p += len + (nl ? 1 : 0);
		if (!nl)
			break;
	}
}
