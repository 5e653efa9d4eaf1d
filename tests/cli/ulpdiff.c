/* ulpdiff.c - compares the table printed by an emitted predictor (--main)
 * with the table of 'segc eval' (--csv, many digits), column by column for
 * the results (total, comp, comm, io), row by row: prints the largest distance in units
 * in the last place of each column, and of all, as "max_ulp K", and the
 * largest relative error of each column in units of 2^-53 ("NAME_rel_u
 * R"; 0 where both are 0, infinite where only the reference is).  Reading
 * the reference with strtod gives its correctly rounded double. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64
#define MAX_LINE 65536

/* One table being read: its header fields and the current row's. */
struct table {
	FILE *f;
	int ncols;
	char *names[MAX_COLS];
	char line[MAX_LINE];
	char *cells[MAX_COLS];
};

/* Splits the line of 't' at tabs and commas into 'out'; returns the count. */
static int split(char *line, char **out)
{
	int n = 0;
	char *s = line;

	line[strcspn(line, "\r\n")] = '\0';
	for (;;) {
		size_t k = strcspn(s, "\t,");

		if (n < MAX_COLS)
			out[n++] = s;
		if (!s[k])
			break;
		s[k] = '\0';
		s += k + 1;
	}
	return n;
}

/* Reads the next row of 't'; 0 at the end. */
static int next_row(struct table *t)
{
	if (!fgets(t->line, sizeof t->line, t->f))
		return 0;
	return split(t->line, t->cells) == t->ncols;
}

/* Opens 'path' and reads its header. */
static int open_table(struct table *t, const char *path)
{
	int i;

	t->f = fopen(path, "r");
	if (!t->f || !fgets(t->line, sizeof t->line, t->f))
		return -1;
	t->ncols = split(t->line, t->cells);
	for (i = 0; i < t->ncols; i++)
		t->names[i] = strdup(t->cells[i]);
	return 0;
}

/* Non-zero when 'name' is a column of results (not a parameter). */
static int is_result(const char *name)
{
	return !strcmp(name, "total") || !strcmp(name, "comp") ||
		!strcmp(name, "comm") || !strcmp(name, "io");
}

/* Closes 't' and frees its header. */
static void close_table(struct table *t)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		free(t->names[i]);
	fclose(t->f);
}

/* The distance between two doubles in units in the last place. */
static double ulps(double a, double b)
{
	int64_t x, y;

	if (a == b)
		return 0;
	if (isnan(a) || isnan(b) || (a < 0) != (b < 0))
		return INFINITY;
	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return (double)(x > y ? x - y : y - x);
}

/* Compares the two tables named on the command line. */
int main(int argc, char **argv)
{
	struct table a, b;
	int map[MAX_COLS], i, j, rows = 0;
	double worst[MAX_COLS] = { 0 }, rel[MAX_COLS] = { 0 }, all = 0;

	if (argc != 3 || open_table(&a, argv[1]) || open_table(&b, argv[2])) {
		fprintf(stderr, "usage: ulpdiff PREDICTED.tsv REFERENCE.csv\n");
		return 2;
	}
	for (i = 0; i < a.ncols; i++) {
		map[i] = -1;
		for (j = 0; j < b.ncols && is_result(a.names[i]); j++)
			if (!strcmp(a.names[i], b.names[j]))
				map[i] = j;
	}
	while (next_row(&a)) {
		if (!next_row(&b)) {
			fprintf(stderr, "ulpdiff: the tables differ in length\n");
			close_table(&a);
			close_table(&b);
			return 2;
		}
		for (i = 0; i < a.ncols; i++) {
			double u, x, y, r;

			if (map[i] < 0)
				continue;
			x = strtod(a.cells[i], NULL);
			y = strtod(b.cells[map[i]], NULL);
			u = ulps(x, y);
			r = x == y ? 0 : y == 0 ? INFINITY :
				fabs(x - y) / fabs(y) / 0x1p-53;
			if (isnan(r) || r > rel[i])
				rel[i] = isnan(r) ? INFINITY : r;
			if (u > worst[i])
				worst[i] = u;
			if (u > all)
				all = u;
		}
		rows++;
	}
	for (i = 0; i < a.ncols; i++)
		if (map[i] >= 0)
			printf("%s %.0f\n%s_rel_u %.3f\n", a.names[i],
				worst[i], a.names[i], rel[i]);
	printf("rows %d\nmax_ulp %.0f\n", rows, all);
	close_table(&a);
	close_table(&b);
	return rows ? 0 : 2;
}
