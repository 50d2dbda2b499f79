/*
 * catalog_spot.c: the spot section of a catalog's instance type, and the
 * spot price histories it may name: CSV files of timestamp,hourly next to
 * the catalog, checked row by row.  See docs/design/catalog.md.
 */
/* realpath (history_inside) is POSIX's, but glibc declares it only for
 * X/Open; the build's _POSIX_C_SOURCE alone leaves it out. */
#define _XOPEN_SOURCE 700

#include "catalog_internal.h"
#include "csv_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- spot price history (CSV) ------------------------------------------- */

/* A spot price history being read (gp_catalog_parse_history): where the
 * two columns it needs are, and the prices so far. */
typedef struct history_read {
    const char *source;
    size_t n_columns; /* of the header; 0 until the header is read */
    long header_line;
    size_t col_time, col_price; /* 0-based */
    gp_price_point *points;
    size_t n_points, cap;
} history_read;

/* The name of 0-based column col when it is one the history reads, else "". */
static const char *history_column_name(const history_read *h, size_t col)
{
    if (h->n_columns > 0 && col == h->col_time)
        return "timestamp";
    if (h->n_columns > 0 && col == h->col_price)
        return "hourly";
    return "";
}

/* The header row: finds the columns timestamp and hourly, each once. */
static gp_status history_header(history_read *h, char **f, size_t n, long line,
                                gp_error *err)
{
    static const char *const names[2] = {"timestamp", "hourly"};
    size_t found[2] = {0, 0}; /* 1-based column, 0 = not seen */
    char shown[256], quoted[160];
    size_t used = 0;

    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            if (strcmp(f[i], names[k]) != 0)
                continue;
            if (found[k]) {
                gp_error_set(err, h->source, line, (long)i + 1, names[k],
                             "the column appears twice (also column %zu)",
                             found[k]);
                return GP_ERR_INPUT;
            }
            found[k] = i + 1;
        }
    }
    if (!found[0] || !found[1]) {
        /* the header as it reads, for the message */
        shown[0] = '\0';
        for (size_t i = 0; i < n && used + 1 < sizeof shown; i++) {
            int k = snprintf(shown + used, sizeof shown - used, "%s%s",
                             i ? "," : "", f[i]);
            if (k < 0)
                break;
            used += (size_t)k;
        }
        gp_error_set(err, h->source, line, 0, "",
                     "the header needs the columns timestamp and hourly, "
                     "got %s",
                     gp_json_quote(shown, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    h->n_columns = n;
    h->header_line = line;
    h->col_time = found[0] - 1;
    h->col_price = found[1] - 1;
    return GP_OK;
}

/* gp_csv_rows_read's callback: the header, then one price per row. */
static gp_status history_row(void *ctx, char **f, size_t n, long line,
                             gp_error *err)
{
    history_read *h = ctx;
    const char *when, *price_text, *why;
    double t, price;
    char quoted[160];

    if (h->n_columns == 0)
        return history_header(h, f, n, line, err);
    /* (gp_catalog_parse_history names the column it points at) */
    if (gp_csv_check_row_width(h->source, line, n, h->n_columns, err) != GP_OK)
        return GP_ERR_INPUT;
    when = f[h->col_time];
    price_text = f[h->col_price];
    if (!when[0] || !price_text[0]) {
        bool no_time = !when[0];
        gp_error_set(err, h->source, line,
                     (long)(no_time ? h->col_time : h->col_price) + 1,
                     no_time ? "timestamp" : "hourly", "missing value");
        return GP_ERR_INPUT;
    }
    if (!gp_parse_time(when, strlen(when), &t, &why)) {
        gp_error_set(err, h->source, line, (long)h->col_time + 1, "timestamp",
                     "%s, got %s", why,
                     gp_json_quote(when, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!gp_parse_number(price_text, strlen(price_text), &price)) {
        gp_error_set(err, h->source, line, (long)h->col_price + 1, "hourly",
                     "expected a number, got %s",
                     gp_json_quote(price_text, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    /* as spot.hourly and on_demand in the catalog: above 0, at most
     * GP_NUMBER_MAX (a spot price of 0 would make spot free) */
    if (!(price > 0) || price > GP_NUMBER_MAX) {
        char num[32];
        gp_json_format_number(price, num, sizeof num);
        gp_error_set(err, h->source, line, (long)h->col_price + 1, "hourly",
                     price > 0 ? "must be at most " GP_NUMBER_MAX_TEXT
                                 ", got %s"
                               : "must be greater than 0, got %s",
                     num);
        return GP_ERR_INPUT;
    }
    int64_t at = (int64_t)floor(t);
    if (h->n_points > 0 && at <= h->points[h->n_points - 1].t) {
        char prev[32];
        gp_format_time(h->points[h->n_points - 1].t, prev, sizeof prev);
        gp_error_set(err, h->source, line, (long)h->col_time + 1, "timestamp",
                     "must be later than the row before (%s)", prev);
        return GP_ERR_INPUT;
    }
    if (gp_grow((void **)&h->points, &h->cap, h->n_points + 1,
                sizeof *h->points) != GP_OK)
        return GP_ERR_NOMEM;
    h->points[h->n_points].t = at;
    h->points[h->n_points].hourly = price;
    h->n_points++;
    return GP_OK;
}

/*
 * Parses a price series "timestamp,hourly" with libcsv (RFC 4180, strict:
 * see csv_rows.c): a header row first, with the columns timestamp and
 * hourly once each, in any order, among any others; then rows of as many
 * fields as the header.  Blank lines are skipped; LF, CRLF or CR (as
 * gp_csv_rows_read takes them); an optional
 * UTF-8 byte order mark.  Times must increase.  Errors name `source` with
 * the line, the CSV column and the column's name.
 */
gp_status gp_catalog_parse_history(gp_spot_offer *spot, const char *text,
                                   size_t len, const char *source,
                                   gp_error *err)
{
    history_read h;
    gp_status st;

    memset(&h, 0, sizeof h);
    h.source = source;
    spot->history = NULL;
    spot->n_history = 0;
    gp_source src;
    gp_source_buffer(&src, text, len, source, GP_SOURCE_SPOT_HISTORY);
    st = gp_csv_rows_read(&src, history_row, &h, err);
    gp_source_close(&src);
    if (st == GP_ERR_INPUT && err && !err->field[0] && err->column > 0 &&
        err->line > h.header_line) {
        /* a quoting error, a NUL byte or a missing or extra field in a
         * row: the reader knows the column, the header knows its name */
        snprintf(err->field, sizeof err->field, "%s",
                 history_column_name(&h, (size_t)err->column - 1));
    }
    if (st == GP_OK && h.n_points == 0) {
        gp_error_set(err, source, h.header_line, 0, "",
                     "no prices (expected a header timestamp,hourly and at "
                     "least one row)");
        st = GP_ERR_INPUT;
    }
    if (st != GP_OK) {
        if (st == GP_ERR_NOMEM)
            gp_error_set(err, source, 0, 0, "", "out of memory");
        gp_free(h.points);
        return st;
    }
    spot->history = h.points;
    spot->n_history = h.n_points;
    /* the latest price stands in where one number is wanted */
    spot->hourly = h.points[h.n_points - 1].hourly;
    return GP_OK;
}

/* Whether the relative path `file` climbs out of its folder: "..", or a
 * "../" anywhere in it, or "/.." at its end. */
static bool climbs_out(const char *file)
{
    for (const char *p = file; *p;
         p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
        if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
            return true;
    return false;
}

/* Whether `name` ends in `ext` (".csv", ".json": lower case), in any
 * case, after a file name of at least one character. */
static bool names_ext(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    char tail[8];

    if (e >= sizeof tail || n < e + 1 || name[n - e - 1] == '/')
        return false;
    gp_ascii_lower(tail, sizeof tail, name + n - e);
    return strcmp(tail, ext) == 0;
}

/* Checks where the history file `file` (named by member "history" at the
 * current path) is before anything of it is read: a relative path ending
 * in .csv, inside the catalog's folder base_dir ("" the current one) once
 * symbolic links are resolved.  A catalog may come from anywhere, so it
 * must not read, nor echo in an error the first line of, a file outside
 * its folder (/etc/shadow) or one that is not a CSV file.  *real is the
 * resolved path (gp_malloc'd) to open, or NULL when `path` does not exist
 * yet, for the open to say so. */
static gp_status history_inside(gp_jdoc *d, const char *base_dir,
                                const char *file, const char *path, char **real,
                                const char *key)
{
    bool json_too = strcmp(key, "availability_history") == 0;
    char quoted[160], *dir;
    size_t n;

    *real = NULL;
    gp_json_quote(file, quoted, sizeof quoted);
    if (file[0] == '/' || climbs_out(file))
        return gp_jdoc_error(d, key,
                             "history file %s: must name a file in the "
                             "catalog's folder or below it (a relative "
                             "path without ..)",
                             quoted);
    if (!names_ext(file, ".csv") && !(json_too && names_ext(file, ".json")))
        return gp_jdoc_error(d, key,
                             json_too ? "history file %s: must be a CSV file "
                                        "named *.csv or a JSON file named "
                                        "*.json"
                                      : "history file %s: must be a CSV file "
                                        "named *.csv",
                             quoted);
    if (!(dir = realpath(base_dir[0] ? base_dir : ".", NULL)) ||
        !(*real = realpath(path, NULL))) {
        free(dir);
        return GP_OK; /* gone, or unreadable: the open says why */
    }
    n = strlen(dir);
    bool inside = strncmp(*real, dir, n) == 0 &&
                  ((*real)[n] == '/' || (n == 1 && dir[0] == '/'));
    free(dir);
    if (inside)
        return GP_OK;
    free(*real);
    *real = NULL;
    return gp_jdoc_error(d, key,
                         "history file %s: is outside the catalog's folder "
                         "(through a symbolic link)",
                         quoted);
}

/* Reads the history file `file` (relative to base_dir) named by member
 * `key` at the current path: "history" (prices) or "availability_history". */
static gp_status load_history(gp_jdoc *d, const char *base_dir,
                              const char *file, gp_spot_offer *spot,
                              const char *key)
{
    char *path, *real, *text = NULL;
    size_t len = 0;
    gp_error local;
    gp_status st;
    char quoted[160];

    if (!file[0])
        return gp_jdoc_error(d, key, "must name a CSV file");
    path = gp_catalog_join_path(base_dir, file);
    if (!path)
        return gp_jdoc_nomem(d);
    if ((st = history_inside(d, base_dir, file, path, &real, key)) != GP_OK) {
        gp_free(path);
        return st;
    }
    gp_error_clear(&local);
    st = gp_source_load(real ? real : path, GP_SOURCE_SPOT_HISTORY, &text, &len,
                        &local);
    free(real);
    if (st == GP_ERR_NOMEM) {
        gp_free(path);
        return gp_jdoc_nomem(d);
    }
    if (st != GP_OK) {
        gp_free(path);
        gp_jdoc_error(d, key, "history file %s: %s",
                      gp_json_quote(file, quoted, sizeof quoted),
                      local.message);
        return st;
    }
    if (key[0] == 'a')
        st = gp_availability_parse(text, len, path, &spot->avail, d->err);
    else
        st = gp_catalog_parse_history(spot, text, len, path, d->err);
    gp_free(text);
    gp_free(path);
    return st;
}

/* ---- a type's spot section ---------------------------------------------- */

/* The keys a spot object may have (SPEC section 3), as catalog.c's lists
 * for the other objects. */
static const char *const spot_keys[] = {
    "hourly",   "history", "interruption_rate_monthly", "interruption_bucket",
    "estimate", "availability", "availability_history", NULL};

/* The availability keys of a spot object (SPEC 7.4): a probability above
 * 0 and at most 1, or a history file, not both. */
static gp_status parse_availability(gp_jdoc *d, const json_t *js,
                                    const char *base_dir, gp_spot_offer *s)
{
    const char *file = NULL;
    bool have_p = false, have_file = false;
    gp_status st;

    if ((st = gp_jdoc_number(d, js, "availability", false, &s->availability,
                             &have_p)) != GP_OK ||
        (st = gp_jdoc_string(d, js, "availability_history", false, &file,
                             &have_file)) != GP_OK)
        return st;
    if (have_p && have_file)
        return gp_jdoc_error(d, "availability_history",
                             "give either availability or "
                             "availability_history, not both");
    if (have_p && !(s->availability > 0 && s->availability <= 1))
        return gp_jdoc_error(d, "availability",
                             "must be a probability above 0 and at most 1, "
                             "got %g",
                             s->availability);
    if (have_file)
        return load_history(d, base_dir, file, s, "availability_history");
    return GP_OK;
}

/* Reads the spot object of a type (the current path is the type). */
gp_status gp_catalog_parse_spot(gp_jdoc *d, const json_t *jt,
                                const char *base_dir, gp_instance_type *t)
{
    json_t *js;
    gp_spot_offer *s = &t->spot;
    const char *history = NULL, *bucket = NULL;
    bool have_hourly = false, have_history = false, have_bucket = false;
    gp_status st = gp_jdoc_object(d, jt, "spot", false, &js);

    if (st != GP_OK || !js)
        return st;
    gp_jdoc_push_key(d, "spot");
    if ((st = gp_jdoc_known_keys(d, js, spot_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, js, "hourly", false, &s->hourly,
                             &have_hourly)) != GP_OK ||
        (have_hourly &&
         (st = gp_jdoc_check_positive(d, "hourly", s->hourly)) != GP_OK) ||
        (st = gp_jdoc_string(d, js, "history", false, &history,
                             &have_history)) != GP_OK)
        return st;
    if (have_hourly && have_history)
        return gp_jdoc_error(d, "history",
                             "give either hourly or history, not both");
    if (!have_hourly && !have_history)
        return gp_jdoc_error(d, NULL, "needs hourly or history");
    if ((st = gp_jdoc_number(d, js, "interruption_rate_monthly", true,
                             &s->interruption_rate_monthly, NULL)) != GP_OK ||
        (st = gp_jdoc_check_fraction(
             d, "interruption_rate_monthly", s->interruption_rate_monthly,
             "a fraction of instances per month")) != GP_OK ||
        (st = gp_jdoc_string(d, js, "interruption_bucket", false, &bucket,
                             &have_bucket)) != GP_OK ||
        (have_bucket &&
         (st = gp_catalog_check_length(d, "interruption_bucket", bucket,
                                       sizeof s->bucket - 1)) != GP_OK) ||
        (st = gp_jdoc_bool(d, js, "estimate", false, &s->estimate, NULL)) !=
            GP_OK)
        return st;
    if (have_bucket)
        snprintf(s->bucket, sizeof s->bucket, "%s", bucket);
    if (have_history &&
        (st = load_history(d, base_dir, history, s, "history")) != GP_OK)
        return st;
    if ((st = parse_availability(d, js, base_dir, s)) != GP_OK)
        return st;
    s->present = true;
    gp_jdoc_pop(d);
    return GP_OK;
}
