/*
 * spot_availability.c: when spot capacity was there (SPEC section 7.4), as
 * a catalog's availability_history names it and `import spot-availability`
 * converts it: a CSV of time,available with evenly spaced rows, or the
 * JSON of SkyPilot's spot-traces ({"metadata": {"gap_seconds": N}, "data":
 * [available instance counts per tick]}).  See docs/catalogs.md.
 */
#include "csv_rows.h"
#include "json_util.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double gp_spot_availability(const gp_spot_offer *s)
{
    return s->availability > 0 && s->availability < 1 ? s->availability : 1;
}

void gp_availability_clear(gp_availability *a)
{
    if (!a)
        return;
    gp_free(a->available);
    memset(a, 0, sizeof *a);
}

bool gp_availability_at(const gp_availability *a, int64_t run_start,
                        double t)
{
    double at = a->timed ? (double)(run_start - a->t0) + t : t;
    double k = floor(at / a->gap_s + 1e-9);

    if (!a->available || k < 0 || k >= (double)a->n)
        return true;
    return a->available[(size_t)k] != 0;
}

/* Appends one tick (1: capacity there) to a. */
static gp_status push_tick(gp_availability *a, size_t *cap, bool there)
{
    if (gp_grow((void **)&a->available, cap, a->n + 1, 1) != GP_OK)
        return GP_ERR_NOMEM;
    a->available[a->n++] = there ? 1 : 0;
    return GP_OK;
}

/* ---- CSV: time,available ------------------------------------------------ */

typedef struct avail_csv {
    const char *source;
    gp_availability *a;
    size_t cap;
    size_t n_columns; /* 0 until the header is read */
    size_t col_time, col_avail;
    long header_line;
    int64_t last;
} avail_csv;

/* The header: the columns time and available, each once. */
static gp_status avail_header(avail_csv *c, char **f, size_t n, long line,
                              gp_error *err)
{
    static const char *const names[2] = {"time", "available"};
    size_t found[2] = {0, 0};

    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            if (strcmp(f[i], names[k]) != 0)
                continue;
            if (found[k]) {
                gp_error_set(err, c->source, line, (long)i + 1, names[k],
                             "the column appears twice (also column %zu)",
                             found[k]);
                return GP_ERR_INPUT;
            }
            found[k] = i + 1;
        }
    for (int k = 0; k < 2; k++)
        if (!found[k]) {
            gp_error_set(err, c->source, line, 0, names[k],
                         "the header needs the columns time and available");
            return GP_ERR_INPUT;
        }
    c->n_columns = n;
    c->header_line = line;
    c->col_time = found[0] - 1;
    c->col_avail = found[1] - 1;
    return GP_OK;
}

/* One row: its time (evenly spaced after the first two) and whether any
 * instance was available (a count or 0/1, at least 0). */
static gp_status avail_row(void *ctx, char **f, size_t n, long line,
                           gp_error *err)
{
    avail_csv *c = ctx;
    gp_availability *a = c->a;
    const char *why;
    double t, count;
    char quoted[160];

    if (c->n_columns == 0)
        return avail_header(c, f, n, line, err);
    if (gp_csv_check_row_width(c->source, line, n, c->n_columns, err) != GP_OK)
        return GP_ERR_INPUT;
    const char *when = f[c->col_time], *num = f[c->col_avail];
    long tcol = (long)c->col_time + 1, acol = (long)c->col_avail + 1;
    if (!gp_parse_time(when, strlen(when), &t, &why)) {
        gp_error_set(err, c->source, line, tcol, "time", "%s, got %s",
                     when[0] ? why : "missing value",
                     gp_json_quote(when, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!gp_parse_number(num, strlen(num), &count) || !(count >= 0) ||
        count > GP_NUMBER_MAX) {
        gp_error_set(err, c->source, line, acol, "available",
                     "expected a count of instances (0 or more), got %s",
                     gp_json_quote(num, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    int64_t at = (int64_t)floor(t);
    if (a->n == 0) {
        a->t0 = at;
    } else if (at <= c->last) {
        gp_error_set(err, c->source, line, tcol, "time",
                     "must be later than the row before");
        return GP_ERR_INPUT;
    } else if (a->n == 1) {
        a->gap_s = (double)(at - c->last);
    } else if ((double)(at - c->last) != a->gap_s) {
        gp_error_set(err, c->source, line, tcol, "time",
                     "rows must be evenly spaced: %.0f s after the row "
                     "before, the first two rows are %.0f s apart",
                     (double)(at - c->last), a->gap_s);
        return GP_ERR_INPUT;
    }
    c->last = at;
    return push_tick(a, &c->cap, count > 0);
}

/* The CSV form: a header with time and available, then rows. */
static gp_status parse_csv(const char *text, size_t len, const char *source,
                           gp_availability *a, gp_error *err)
{
    avail_csv c;
    gp_source src;
    gp_status st;

    memset(&c, 0, sizeof c);
    c.source = source;
    c.a = a;
    gp_source_buffer(&src, text, len, source, GP_SOURCE_SPOT_HISTORY);
    st = gp_csv_rows_read(&src, avail_row, &c, err);
    gp_source_close(&src);
    if (st == GP_OK && a->n == 0) {
        gp_error_set(err, source, c.header_line, 0, "",
                     "no rows (expected a header time,available and at "
                     "least one row)");
        st = GP_ERR_INPUT;
    }
    if (st == GP_OK && a->n == 1)
        a->gap_s = 3600; /* one row: one hour */
    a->timed = true;
    return st;
}

/* ---- JSON: SkyPilot's spot-traces --------------------------------------- */

static const char *const trace_keys[] = {"metadata", "data", NULL};

/* The JSON form: metadata.gap_seconds above 0, data a list of counts. */
static gp_status parse_json(const char *text, size_t len, const char *source,
                            gp_availability *a, gp_error *err)
{
    gp_jdoc d;
    json_t *root = NULL, *meta, *data, *v;
    size_t i, cap = 0;
    gp_status st;

    gp_jdoc_init(&d, text, len, source, err);
    if ((st = gp_jdoc_parse(&d, &root)) != GP_OK)
        return st;
    /* other keys of the metadata (names, zones, dates) are read past */
    if ((st = gp_jdoc_known_keys(&d, root, trace_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_object(&d, root, "metadata", true, &meta)) != GP_OK)
        goto done;
    gp_jdoc_push_key(&d, "metadata");
    if ((st = gp_jdoc_number(&d, meta, "gap_seconds", true, &a->gap_s,
                             NULL)) != GP_OK ||
        (st = gp_jdoc_check_positive(&d, "gap_seconds", a->gap_s)) != GP_OK)
        goto done;
    gp_jdoc_pop(&d);
    if ((st = gp_jdoc_array(&d, root, "data", true, &data)) != GP_OK)
        goto done;
    gp_jdoc_push_key(&d, "data");
    json_array_foreach(data, i, v)
    {
        if (!json_is_number(v) || !(json_number_value(v) >= 0)) {
            char num[32];
            if (json_is_number(v))
                gp_json_format_number(json_number_value(v), num, sizeof num);
            gp_jdoc_push_index(&d, i);
            st = gp_jdoc_error(&d, NULL,
                               "expected a count of instances (0 or more), "
                               "got %s",
                               json_is_number(v) ? num
                                                 : gp_json_type_phrase(v));
            goto done;
        }
        if ((st = push_tick(a, &cap, json_number_value(v) > 0)) != GP_OK) {
            st = gp_jdoc_nomem(&d);
            goto done;
        }
    }
    if (a->n == 0)
        st = gp_jdoc_error(&d, NULL, "no ticks (expected a list of counts)");
done:
    json_decref(root);
    return st;
}

gp_status gp_availability_parse(const char *text, size_t len,
                                const char *source, gp_availability *out,
                                gp_error *err)
{
    size_t i = 0;
    gp_status st;

    memset(out, 0, sizeof *out);
    /* past a byte order mark and white space, `{` starts the JSON form */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                       text[i] == '\r'))
        i++;
    if (i < len && text[i] == '{')
        st = parse_json(text, len, source, out, err);
    else
        st = parse_csv(text, len, source, out, err);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, source, 0, 0, "", "out of memory");
    if (st != GP_OK)
        gp_availability_clear(out);
    return st;
}
