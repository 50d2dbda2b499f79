/*
 * catalog.c: pricing catalogs (SPEC section 3): loading and checking the
 * JSON files, their spot price histories, and looking prices up.
 *
 * One catalog holds one provider and region.  Loading checks everything a
 * later stage would otherwise trip over (types, ranges, names, offers that
 * cannot exist) and stops at the first mistake with file:line:column, the
 * JSON path of the value and what is wrong with it.  A key the format does
 * not have is an error (a misspelling would otherwise pass unseen); keys
 * starting with '_' are comments.  Instance types are kept
 * sorted by name, so lookups are binary searches; gp_pricing holds every
 * catalog loaded and the warnings loading produced (stale prices, spot
 * above on-demand).
 */
#include "csv_rows.h"
#include "json_util.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CATALOG_SCHEMA "gpuplan-catalog/1"
/* A pricing folder nested deeper than this is most likely a link loop. */
#define MAX_FOLDER_DEPTH 16
/* Older catalogs than this get a warning. */
#define STALE_DAYS 180

/* ---- small helpers ------------------------------------------------------ */

/* Copies s into *dst; GP_ERR_NOMEM (recorded in d) when that fails. */
static gp_status dup_into(gp_jdoc *d, char **dst, const char *s)
{
    *dst = gp_strdup(s);
    return *dst ? GP_OK : gp_jdoc_nomem(d);
}

/* Checks that string member `key` with value s is at most max bytes. */
static gp_status check_length(gp_jdoc *d, const char *key, const char *s,
                              size_t max)
{
    if (strlen(s) <= max)
        return GP_OK;
    return gp_jdoc_error(d, key, "too long (at most %zu characters)", max);
}

/* dir + "/" + name, or name alone when dir is empty or name is absolute.
 * Returns a new string or NULL when out of memory. */
static char *join_path(const char *dir, const char *name)
{
    size_t ld = dir ? strlen(dir) : 0, ln = strlen(name);
    char *p;

    if (ld == 0 || name[0] == '/')
        return gp_strdup(name);
    while (ld > 1 && dir[ld - 1] == '/')
        ld--; /* "pricing/" + "aws" is "pricing/aws" */
    p = gp_malloc(ld + 1 + ln + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, ld);
    p[ld] = '/';
    memcpy(p + ld + 1, name, ln + 1);
    if (ld == 1 && dir[0] == '/')
        memmove(p + 1, p + 2, ln + 1); /* "/" + "x" is "/x" */
    return p;
}

/* The folder part of a file path ("pricing/aws" for
 * "pricing/aws/us-east-1.json", "" for "cat.json").  New string or NULL. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return gp_strdup("");
    if (slash == path)
        return gp_strdup("/");
    return gp_strndup(path, (size_t)(slash - path));
}

/* qsort/bsearch order of instance types: by name. */
static int type_cmp(const void *a, const void *b)
{
    const gp_instance_type *x = a, *y = b;
    return strcmp(x->name, y->name);
}

/* bsearch key comparison: a name against a type. */
static int type_name_cmp(const void *key, const void *elem)
{
    const gp_instance_type *t = elem;
    return strcmp(key, t->name);
}

/* Money for messages in a catalog's currency: "$21.957642", "$7.25",
 * "$7"; "EUR 7.25" in another than USD. */
static void format_money(double v, const char *currency, char *buf, size_t size)
{
    char num[32];

    gp_format_trimmed(v, 6, num, sizeof num);
    if (strcmp(currency, "USD") == 0)
        snprintf(buf, size, "$%s", num);
    else
        snprintf(buf, size, "%s %s", currency, num);
}

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
    st = gp_csv_rows_read(text, len, NULL, source, history_row, &h, err);
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

/* Reads the history file `file` (relative to base_dir) named by member
 * "history" at the current path. */
static gp_status load_history(gp_jdoc *d, const char *base_dir,
                              const char *file, gp_spot_offer *spot)
{
    char *path, *text = NULL;
    size_t len = 0;
    gp_error local;
    gp_status st;
    char quoted[160];

    if (!file[0])
        return gp_jdoc_error(d, "history", "must name a CSV file");
    path = join_path(base_dir, file);
    if (!path)
        return gp_jdoc_nomem(d);
    gp_error_clear(&local);
    st = gp_read_file(path, &text, &len, &local);
    if (st == GP_ERR_NOMEM) {
        gp_free(path);
        return gp_jdoc_nomem(d);
    }
    if (st != GP_OK) {
        gp_free(path);
        gp_jdoc_error(d, "history", "history file %s: %s",
                      gp_json_quote(file, quoted, sizeof quoted),
                      local.message);
        return st;
    }
    st = gp_catalog_parse_history(spot, text, len, path, d->err);
    gp_free(text);
    gp_free(path);
    return st;
}

/* ---- one instance type -------------------------------------------------- */

/* The keys each object of a catalog may have (SPEC section 3); anything else
 * is a misspelling, and a misspelt "upfront" or "estimate" would otherwise
 * change the numbers without a word. */
static const char *const catalog_keys[] = {
    "schema", "provider", "region",         "currency",
    "as_of",  "sources",  "instance_types", NULL};
static const char *const type_keys[] = {
    "family",    "gpu_model",  "gpus",
    "vcpus",     "memory_gib", "normalization_factor",
    "on_demand", "reserved",   "savings_plans",
    "spot",      NULL};
static const char *const reserved_keys[] = {"term_years", "payment",  "hourly",
                                            "upfront",    "estimate", NULL};
static const char *const plan_keys[] = {"kind",   "term_years", "payment",
                                        "hourly", "estimate",   NULL};
static const char *const spot_keys[] = {
    "hourly",   "history", "interruption_rate_monthly", "interruption_bucket",
    "estimate", NULL};

/* Reads reserved[] of a type (the current path is the type). */
static gp_status parse_reserved(gp_jdoc *d, const json_t *jt,
                                gp_instance_type *t)
{
    json_t *arr, *jo;
    size_t i;
    gp_status st = gp_jdoc_array(d, jt, "reserved", false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    t->reserved = gp_calloc(json_array_size(arr), sizeof *t->reserved);
    if (!t->reserved)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, "reserved");
    json_array_foreach(arr, i, jo)
    {
        gp_reserved_offer *o = &t->reserved[i];
        int payment = 0;
        char num[32];

        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jo)) != GP_OK ||
            (st = gp_jdoc_known_keys(d, jo, reserved_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_term_years(d, jo, "term_years", true, &o->term_years,
                                     NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "payment", true, "payment",
                               gp_json_payment_names, 3, &payment, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_number(d, jo, "hourly", true, &o->hourly, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_nonnegative(d, "hourly", o->hourly)) != GP_OK ||
            (st = gp_jdoc_number(d, jo, "upfront", false, &o->upfront, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_nonnegative(d, "upfront", o->upfront)) !=
                GP_OK ||
            (st = gp_jdoc_bool(d, jo, "estimate", false, &o->estimate, NULL)) !=
                GP_OK)
            return st;
        o->payment = (gp_payment)payment;
        if (o->payment == GP_ALL_UPFRONT && o->hourly != 0) {
            gp_json_format_number(o->hourly, num, sizeof num);
            return gp_jdoc_error(d, "hourly",
                                 "an all_upfront offer has no hourly "
                                 "charge, got %s (put the whole price in "
                                 "upfront)",
                                 num);
        }
        if (o->payment == GP_NO_UPFRONT && o->upfront != 0) {
            gp_json_format_number(o->upfront, num, sizeof num);
            return gp_jdoc_error(d, "upfront",
                                 "a no_upfront offer has no upfront "
                                 "payment, got %s",
                                 num);
        }
        /* a reservation that costs nothing would win every plan, as free
         * spot would: each payment's own charges must be above 0 */
        if (o->payment == GP_NO_UPFRONT && o->hourly == 0)
            return gp_jdoc_error(d, "hourly",
                                 "a no_upfront offer is paid by the hour: "
                                 "hourly must be above 0");
        if (o->payment == GP_ALL_UPFRONT && o->upfront == 0)
            return gp_jdoc_error(d, "upfront",
                                 "an all_upfront offer is paid upfront: "
                                 "upfront must be above 0");
        if (o->payment == GP_PARTIAL_UPFRONT && o->hourly == 0)
            return gp_jdoc_error(d, "hourly",
                                 "a partial_upfront offer is paid in part by "
                                 "the hour: hourly must be above 0 (all of it "
                                 "upfront? write payment all_upfront)");
        if (o->payment == GP_PARTIAL_UPFRONT && o->upfront == 0)
            return gp_jdoc_error(d, "upfront",
                                 "a partial_upfront offer is paid in part "
                                 "upfront: upfront must be above 0 (none "
                                 "upfront? write payment no_upfront)");
        for (size_t k = 0; k < i; k++)
            if (t->reserved[k].term_years == o->term_years &&
                t->reserved[k].payment == o->payment)
                return gp_jdoc_error(d, NULL,
                                     "duplicate %d-year %s offer (also "
                                     "reserved[%zu])",
                                     o->term_years, gp_payment_name(o->payment),
                                     k);
        t->n_reserved = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads savings_plans[] of a type (the current path is the type). */
static gp_status parse_plans(gp_jdoc *d, const json_t *jt, gp_instance_type *t)
{
    json_t *arr, *jo;
    size_t i;
    gp_status st = gp_jdoc_array(d, jt, "savings_plans", false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    t->plans = gp_calloc(json_array_size(arr), sizeof *t->plans);
    if (!t->plans)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, "savings_plans");
    json_array_foreach(arr, i, jo)
    {
        gp_plan_offer *o = &t->plans[i];
        int payment = 0, kind = 0;

        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jo)) != GP_OK ||
            (st = gp_jdoc_known_keys(d, jo, plan_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "kind", true, "kind",
                               gp_json_plan_kind_names, 2, &kind, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_term_years(d, jo, "term_years", true, &o->term_years,
                                     NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "payment", true, "payment",
                               gp_json_payment_names, 3, &payment, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_number(d, jo, "hourly", true, &o->hourly, NULL)) !=
                GP_OK ||
            /* a plan rate of 0 would cover usage for nothing */
            (st = gp_jdoc_check_positive(d, "hourly", o->hourly)) != GP_OK ||
            (st = gp_jdoc_bool(d, jo, "estimate", false, &o->estimate, NULL)) !=
                GP_OK)
            return st;
        o->kind = (gp_plan_kind)kind;
        o->payment = (gp_payment)payment;
        if (o->kind == GP_PLAN_FAMILY && !t->family[0])
            return gp_jdoc_error(d, "kind",
                                 "an instance_family plan rate needs the "
                                 "type's family");
        for (size_t k = 0; k < i; k++)
            if (t->plans[k].kind == o->kind &&
                t->plans[k].term_years == o->term_years &&
                t->plans[k].payment == o->payment)
                return gp_jdoc_error(d, NULL,
                                     "duplicate %d-year %s %s offer (also "
                                     "savings_plans[%zu])",
                                     o->term_years, gp_payment_name(o->payment),
                                     gp_plan_kind_name(o->kind), k);
        t->n_plans = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads the spot object of a type (the current path is the type). */
static gp_status parse_spot(gp_jdoc *d, const json_t *jt, const char *base_dir,
                            gp_instance_type *t)
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
        (have_bucket && (st = check_length(d, "interruption_bucket", bucket,
                                           sizeof s->bucket - 1)) != GP_OK) ||
        (st = gp_jdoc_bool(d, js, "estimate", false, &s->estimate, NULL)) !=
            GP_OK)
        return st;
    if (have_bucket)
        snprintf(s->bucket, sizeof s->bucket, "%s", bucket);
    if (have_history && (st = load_history(d, base_dir, history, s)) != GP_OK)
        return st;
    s->present = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads one entry of instance_types (the current path is that entry). */
static gp_status parse_type(gp_jdoc *d, const json_t *jt, const char *name,
                            const char *base_dir, gp_instance_type *t)
{
    const char *family = "", *gpu_model = "";
    double gpus = 0;
    gp_status st;

    if ((st = dup_into(d, &t->name, name)) != GP_OK)
        return st;
    if (!name[0])
        return gp_jdoc_error(d, NULL, "an instance type needs a name");
    if (strlen(name) > GP_CATALOG_MAX_TYPE_NAME)
        return gp_jdoc_error(d, NULL,
                             "instance type name too long (at most %d "
                             "characters)",
                             GP_CATALOG_MAX_TYPE_NAME);
    if ((st = gp_jdoc_expect_object(d, jt)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jt, type_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_string(d, jt, "family", false, &family, NULL)) != GP_OK ||
        (st = check_length(d, "family", family, GP_CATALOG_MAX_FAMILY)) !=
            GP_OK ||
        (st = gp_jdoc_string(d, jt, "gpu_model", false, &gpu_model, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jt, "gpus", true, &gpus, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "gpus", gpus, 1, GP_CATALOG_MAX_GPUS)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jt, "vcpus", false, &t->vcpus, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "vcpus", t->vcpus)) != GP_OK ||
        (st = gp_jdoc_number(d, jt, "memory_gib", false, &t->memory_gib,
                             NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "memory_gib", t->memory_gib)) !=
            GP_OK)
        return st;
    t->gpus = (int)gpus;
    if ((st = dup_into(d, &t->family, family)) != GP_OK ||
        (st = dup_into(d, &t->gpu_model, gpu_model)) != GP_OK)
        return st;
    {
        bool have = false;
        if ((st = gp_jdoc_number(d, jt, "normalization_factor", false,
                                 &t->normalization_factor, &have)) != GP_OK ||
            (have &&
             (st = gp_jdoc_check_positive(d, "normalization_factor",
                                          t->normalization_factor)) != GP_OK))
            return st;
    }
    if ((st = gp_jdoc_number(d, jt, "on_demand", true, &t->on_demand, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_positive(d, "on_demand", t->on_demand)) != GP_OK ||
        (st = parse_reserved(d, jt, t)) != GP_OK ||
        (st = parse_plans(d, jt, t)) != GP_OK ||
        (st = parse_spot(d, jt, base_dir, t)) != GP_OK)
        return st;
    return GP_OK;
}

/* ---- one catalog -------------------------------------------------------- */

/* Reads the top level of a catalog document into c. */
static gp_status parse_catalog(gp_jdoc *d, const json_t *root,
                               const char *base_dir, gp_catalog *c)
{
    const char *region, *currency, *as_of, *why, *key;
    int schema = 0, provider = 0;
    json_t *sources, *types, *jt;
    double as_of_seconds;
    char quoted[160];
    size_t i;
    gp_status st;
    static const char *const schema_names[1] = {CATALOG_SCHEMA};

    /* the schema first: a scenario given as a catalog should say so */
    if ((st = gp_jdoc_enum(d, root, "schema", true, "schema", schema_names, 1,
                           &schema, NULL)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, root, catalog_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, root, "provider", true, "provider",
                           gp_json_provider_names, 3, &provider, NULL)) !=
            GP_OK ||
        (st = dup_into(d, &c->provider, gp_json_provider_names[provider])) !=
            GP_OK ||
        (st = gp_jdoc_string(d, root, "region", true, &region, NULL)) != GP_OK)
        return st;
    if (!region[0])
        return gp_jdoc_error(d, "region", "must not be empty");
    if ((st = check_length(d, "region", region, GP_CATALOG_MAX_REGION)) !=
        GP_OK)
        return st;
    /* as the providers write them, and as --region is read (lower-cased):
     * a catalog of "US-EAST-1" could not be chosen with it, and a trace's
     * region column must then name it in upper case, which gpuplan says
     * to write in lower case */
    char lower[GP_CATALOG_MAX_REGION + 1];
    if (gp_ascii_lower(lower, sizeof lower, region))
        return gp_jdoc_error(
            d, "region", "%s: regions are lower case (write \"%s\")",
            gp_json_quote(region, quoted, sizeof quoted), lower);
    if ((st = dup_into(d, &c->region, region)) != GP_OK ||
        (st = gp_jdoc_string(d, root, "currency", true, &currency, NULL)) !=
            GP_OK)
        return st;
    if (strlen(currency) != 3 || currency[0] < 'A' || currency[0] > 'Z' ||
        currency[1] < 'A' || currency[1] > 'Z' || currency[2] < 'A' ||
        currency[2] > 'Z')
        return gp_jdoc_error(d, "currency",
                             "expected a 3-letter currency code such as "
                             "\"USD\", got %s",
                             gp_json_quote(currency, quoted, sizeof quoted));
    if ((st = dup_into(d, &c->currency, currency)) != GP_OK ||
        (st = gp_jdoc_string(d, root, "as_of", true, &as_of, NULL)) != GP_OK)
        return st;
    /* exactly YYYY-MM-DD, and a day the calendar has */
    if (strlen(as_of) != 10 || as_of[4] != '-' || as_of[7] != '-' ||
        strspn(as_of, "0123456789-") != 10)
        return gp_jdoc_error(d, "as_of", "expected a date YYYY-MM-DD, got %s",
                             gp_json_quote(as_of, quoted, sizeof quoted));
    if (!gp_parse_time(as_of, 10, &as_of_seconds, &why))
        return gp_jdoc_error(d, "as_of", "%s, got %s", why,
                             gp_json_quote(as_of, quoted, sizeof quoted));
    c->as_of_t = (int64_t)as_of_seconds;
    if ((st = dup_into(d, &c->as_of, as_of)) != GP_OK)
        return st;

    if ((st = gp_jdoc_array(d, root, "sources", false, &sources)) != GP_OK)
        return st;
    if (sources && json_array_size(sources) > 0) {
        json_t *js;
        c->sources = gp_calloc(json_array_size(sources), sizeof *c->sources);
        if (!c->sources)
            return gp_jdoc_nomem(d);
        gp_jdoc_push_key(d, "sources");
        json_array_foreach(sources, i, js)
        {
            gp_jdoc_push_index(d, i);
            if (!json_is_string(js))
                return gp_jdoc_error(d, NULL, "expected a string, got %s",
                                     gp_json_type_phrase(js));
            if ((st = dup_into(d, &c->sources[i], json_string_value(js))) !=
                GP_OK)
                return st;
            c->n_sources = i + 1;
            gp_jdoc_pop(d);
        }
        gp_jdoc_pop(d);
    }

    if ((st = gp_jdoc_object(d, root, "instance_types", true, &types)) != GP_OK)
        return st;
    if (json_object_size(types) > 0) {
        c->types = gp_calloc(json_object_size(types), sizeof *c->types);
        if (!c->types)
            return gp_jdoc_nomem(d);
    }
    gp_jdoc_push_key(d, "instance_types");
    json_object_foreach(types, key, jt)
    {
        /* counted before parsing, so that a half-read type is freed too */
        gp_instance_type *t = &c->types[c->n_types++];
        gp_jdoc_push_key(d, key);
        if ((st = parse_type(d, jt, key, base_dir, t)) != GP_OK)
            return st;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    if (c->n_types > 1)
        qsort(c->types, c->n_types, sizeof *c->types, type_cmp);
    return GP_OK;
}

/* Parses and checks one catalog held in memory; base_dir is where its spot
 * history files are looked for ("" or NULL: the current folder). */
gp_status gp_catalog_parse(gp_catalog **out, const char *text, size_t len,
                           const char *source, const char *base_dir,
                           gp_error *err)
{
    gp_jdoc d;
    json_t *root = NULL;
    gp_catalog *c;
    gp_status st;

    *out = NULL;
    gp_jdoc_init(&d, text, len, source, err);
    c = gp_calloc(1, sizeof *c);
    if (!c)
        return gp_jdoc_nomem(&d);
    c->path = gp_strdup(source ? source : "");
    if (!c->path) {
        gp_free(c);
        return gp_jdoc_nomem(&d);
    }
    st = gp_jdoc_parse(&d, &root);
    if (st == GP_OK)
        st = parse_catalog(&d, root, base_dir, c);
    json_decref(root);
    if (st != GP_OK) {
        gp_catalog_free(c);
        return st;
    }
    *out = c;
    return GP_OK;
}

/* Frees what one instance type owns (not the struct itself). */
static void type_free(gp_instance_type *t)
{
    gp_free(t->name);
    gp_free(t->family);
    gp_free(t->gpu_model);
    gp_free(t->reserved);
    gp_free(t->plans);
    gp_free(t->spot.history);
}

/* Frees a catalog and everything it owns; NULL is fine. */
void gp_catalog_free(gp_catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_types; i++)
        type_free(&c->types[i]);
    gp_free(c->types);
    for (size_t i = 0; i < c->n_sources; i++)
        gp_free(c->sources[i]);
    gp_free(c->sources);
    gp_free(c->path);
    gp_free(c->provider);
    gp_free(c->region);
    gp_free(c->currency);
    gp_free(c->as_of);
    gp_free(c->as_of_warning);
    gp_free(c);
}

/* ---- sets of catalogs --------------------------------------------------- */

/* Adds the warnings a freshly loaded catalog deserves: prices older than
 * STALE_DAYS before today or dated a day or more after it (today <= 0:
 * unknown, no check), and spot prices (the highest of a history) above
 * on-demand. */
static gp_status warn_about(gp_pricing *p, gp_catalog *c, int64_t today)
{
    char as_of[1024] = "";

    if (today > 0 && today > c->as_of_t) {
        int64_t days = (today - c->as_of_t) / 86400;
        if (days > STALE_DAYS)
            snprintf(as_of, sizeof as_of,
                     "%s: prices as of %s are %lld days old", c->path, c->as_of,
                     (long long)days);
    } else if (today > 0 && c->as_of_t - today >= 86400) {
        /* a date after today is a typo (2062 for 2026) or a clock set
         * wrong: the staleness check cannot be trusted either way */
        int64_t days = (c->as_of_t - today) / 86400;
        snprintf(as_of, sizeof as_of,
                 "%s: prices as of %s are dated %lld %s after today; "
                 "check as_of",
                 c->path, c->as_of, (long long)days,
                 gp_plural(days, "day", "days"));
    }
    /* kept on the catalog, so that a run that uses none of its types can
     * take it back (gp_pricing_drop_unused_warnings) */
    if (as_of[0]) {
        gp_warnings_add(&p->warnings, "%s", as_of);
        /* without its copy the warning could not be taken back */
        if (!(c->as_of_warning = gp_strdup(as_of)))
            return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->n_types; i++) {
        const gp_instance_type *t = &c->types[i];
        double spot = t->spot.hourly;
        char s_buf[48], od_buf[48]; /* a currency code, a space, 31 digits */

        if (!t->spot.present)
            continue;
        for (size_t k = 0; k < t->spot.n_history; k++)
            if (t->spot.history[k].hourly > spot)
                spot = t->spot.history[k].hourly;
        if (spot <= t->on_demand)
            continue;
        format_money(spot, c->currency, s_buf, sizeof s_buf);
        format_money(t->on_demand, c->currency, od_buf, sizeof od_buf);
        gp_warnings_add(&p->warnings,
                        "%s: spot %s/h is above on-demand %s/h for %s", c->path,
                        s_buf, od_buf, t->name);
    }
    return GP_OK;
}

/* Loads one catalog file into p: parses it, refuses a second catalog for a
 * provider and region already loaded, or one in another currency than
 * those loaded, appends it and adds its warnings. */
static gp_status load_file(gp_pricing *p, const char *path, int64_t today,
                           gp_error *err)
{
    char *text = NULL, *base_dir = NULL;
    size_t len = 0;
    gp_catalog *c = NULL, **grown;
    gp_status st = gp_read_file(path, &text, &len, err);

    if (st != GP_OK)
        return st;
    base_dir = dir_of(path);
    if (!base_dir) {
        gp_free(text);
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    st = gp_catalog_parse(&c, text, len, path, base_dir, err);
    gp_free(base_dir);
    if (st != GP_OK) {
        gp_free(text);
        return st;
    }
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *o = p->catalogs[i];
        if (strcmp(o->provider, c->provider) == 0 &&
            strcmp(o->region, c->region) == 0) {
            gp_jdoc d;
            gp_jdoc_init(&d, text, len, path, err);
            gp_jdoc_error(&d, "region", "%s %s is already loaded from %s",
                          c->provider, c->region, o->path);
            gp_free(text);
            gp_catalog_free(c);
            return GP_ERR_INPUT;
        }
    }
    /* a run adds up one currency: no exchange rates to mix two */
    if (p->n_catalogs > 0 &&
        strcmp(p->catalogs[0]->currency, c->currency) != 0) {
        const gp_catalog *o = p->catalogs[0];
        gp_jdoc d;
        gp_jdoc_init(&d, text, len, path, err);
        gp_jdoc_error(&d, "currency",
                      "%s, but %s is in %s: the catalogs of a run must "
                      "share one currency, as their prices are added up "
                      "(convert this catalog's prices to %s and write "
                      "\"%s\", or run it apart)",
                      c->currency, o->path, o->currency, o->currency,
                      o->currency);
        gp_free(text);
        gp_catalog_free(c);
        return GP_ERR_INPUT;
    }
    gp_free(text);
    grown = gp_realloc(p->catalogs, (p->n_catalogs + 1) * sizeof *grown);
    if (!grown) {
        gp_catalog_free(c);
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    p->catalogs = grown;
    p->catalogs[p->n_catalogs++] = c;
    if (warn_about(p, c, today) != GP_OK) {
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    return GP_OK;
}

/* Whether the run prices anything from catalog c: a pool of the trace, or
 * a reservation owned or added by a strategy, is of one of its types. */
static bool catalog_used(const gp_pricing *p, const gp_catalog *c,
                         const gp_trace *t, const gp_scenario *s)
{
    for (size_t i = 0; t && i < t->n_pools; i++)
        if (t->pools[i].catalog == c)
            return true;
    for (size_t k = 0; s && k <= s->n_strategies; k++) {
        const gp_commitment *cm =
            k ? s->strategies[k - 1].add_commitments : s->commitments;
        size_t n = k ? s->strategies[k - 1].n_add : s->n_commitments;
        for (size_t i = 0; i < n; i++) {
            const gp_catalog *of = NULL;
            if (cm[i].type == GP_COMMIT_RESERVED &&
                gp_pricing_find(p, cm[i].provider, cm[i].region,
                                cm[i].instance_type, &of, NULL) &&
                of == c)
                return true;
        }
    }
    return false;
}

void gp_pricing_drop_unused_warnings(gp_pricing *p, const gp_trace *t,
                                     const gp_scenario *s)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        gp_warnings *w = &p->warnings;
        if (!c->as_of_warning || catalog_used(p, c, t, s))
            continue;
        for (size_t k = 0; k < w->count; k++)
            if (strcmp(w->items[k], c->as_of_warning) == 0) {
                gp_free(w->items[k]);
                memmove(&w->items[k], &w->items[k + 1],
                        (w->count - k - 1) * sizeof *w->items);
                w->count--;
                break;
            }
    }
}

/* qsort order of folder entries: by name, bytewise. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name ends in suffix. */
static bool ends_with(const char *name, const char *suffix)
{
    size_t ln = strlen(name), ls = strlen(suffix);
    return ln >= ls && strcmp(name + ln - ls, suffix) == 0;
}

/*
 * Loads every *.json below folder `dir` into p, entries in name order and
 * subfolders where their names fall.  Other files (READMEs, spot histories
 * such as p4d-history.csv) and hidden entries are skipped.
 */
static gp_status load_folder(gp_pricing *p, const char *dir, int depth,
                             int64_t today, gp_error *err)
{
    DIR *dp;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    gp_status st = GP_OK;

    if (depth > MAX_FOLDER_DEPTH) {
        gp_error_set(err, dir, 0, 0, "",
                     "folders nested more than %d deep (a link loop?)",
                     MAX_FOLDER_DEPTH);
        return GP_ERR_INPUT;
    }
    dp = opendir(dir);
    if (!dp) {
        gp_error_set(err, dir, 0, 0, "", "cannot open folder: %s",
                     strerror(errno));
        return GP_ERR_INPUT;
    }
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ".", ".." and hidden files */
        if (gp_grow((void **)&names, &cap, n + 1, sizeof *names) != GP_OK ||
            !(names[n] = gp_strdup(e->d_name))) {
            st = GP_ERR_NOMEM;
            break;
        }
        n++;
    }
    closedir(dp);
    if (st == GP_OK && n > 1)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n && st == GP_OK; i++) {
        struct stat sb;
        char *path = join_path(dir, names[i]);
        if (!path) {
            st = GP_ERR_NOMEM;
            break;
        }
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = load_folder(p, path, depth + 1, today, err);
        else if (ends_with(names[i], ".json"))
            st = load_file(p, path, today, err);
        gp_free(path);
    }
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, dir, 0, 0, "", "out of memory");
    for (size_t i = 0; i < n; i++)
        gp_free(names[i]);
    gp_free(names);
    return st;
}

/*
 * Loads a catalog file or a folder of them into *out (see gpuplan.h).  On
 * failure, the catalogs and warnings this call added are taken back out: a
 * set that existed before is left as it was (still the caller's to free), a
 * set this call made is freed and *out stays NULL.
 */
gp_status gp_pricing_load(gp_pricing **out, const char *path, int64_t today,
                          gp_error *err)
{
    gp_pricing *p = *out;
    size_t n_before, w_before;
    struct stat sb;
    gp_status st;

    if (!p) {
        p = gp_calloc(1, sizeof *p);
        if (!p) {
            gp_error_set(err, path, 0, 0, "", "out of memory");
            return GP_ERR_NOMEM;
        }
    }
    n_before = p->n_catalogs;
    w_before = p->warnings.count;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        st = load_folder(p, path, 0, today, err);
        if (st == GP_OK && p->n_catalogs == n_before) {
            gp_error_set(err, path, 0, 0, "",
                         "no catalogs (*.json files) in this folder");
            st = GP_ERR_INPUT;
        }
    } else {
        st = load_file(p, path, today, err);
    }
    if (st == GP_OK) {
        *out = p;
        return GP_OK;
    }
    while (p->n_catalogs > n_before)
        gp_catalog_free(p->catalogs[--p->n_catalogs]);
    gp_warnings_truncate(&p->warnings, w_before);
    if (!*out) {
        gp_pricing_free(p);
    }
    return st;
}

/* Frees every catalog of the set and its warnings; NULL is fine. */
void gp_pricing_free(gp_pricing *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_catalogs; i++)
        gp_catalog_free(p->catalogs[i]);
    gp_free(p->catalogs);
    gp_warnings_clear(&p->warnings);
    gp_free(p);
}

/* ---- lookups ------------------------------------------------------------ */

/* Returns NULL (and sets *ambiguous) when several catalogs hold the type:
 * a caller must then ask for a provider and region. */
const gp_instance_type *gp_pricing_find(const gp_pricing *p,
                                        const char *provider,
                                        const char *region, const char *name,
                                        const gp_catalog **catalog_out,
                                        bool *ambiguous)
{
    const gp_instance_type *found = NULL;
    const gp_catalog *found_in = NULL;
    size_t matches = 0;

    if (ambiguous)
        *ambiguous = false;
    if (catalog_out)
        *catalog_out = NULL;
    if (!p || !name)
        return NULL;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        const gp_instance_type *t;
        if (provider && provider[0] && strcmp(c->provider, provider) != 0)
            continue;
        if (region && region[0] && strcmp(c->region, region) != 0)
            continue;
        t = c->n_types
                ? bsearch(name, c->types, c->n_types, sizeof *t, type_name_cmp)
                : NULL;
        if (!t)
            continue;
        if (matches++ == 0) {
            found = t;
            found_in = c;
        }
    }
    if (matches > 1) {
        if (ambiguous)
            *ambiguous = true;
        return NULL;
    }
    if (catalog_out)
        *catalog_out = found_in;
    return found;
}

/* A candidate for gp_pricing_suggest. */
typedef struct suggestion {
    size_t distance;
    size_t prefix; /* characters shared at the start */
    const char *name;
} suggestion;

/* Whether a ranks before b: nearer, then a longer shared start, then by
 * name. */
static bool ranks_before(const suggestion *a, const suggestion *b)
{
    if (a->distance != b->distance)
        return a->distance < b->distance;
    if (a->prefix != b->prefix)
        return a->prefix > b->prefix;
    return strcmp(a->name, b->name) < 0;
}

/* Lower-cases s into buf (cut at size - 1 bytes). */
static void lower_into(const char *s, char *buf, size_t size)
{
    size_t i = 0;

    for (; s[i] && i + 1 < size; i++)
        buf[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    buf[i] = '\0';
}

/*
 * Names within a few edits of `name` (ignoring case; at most a quarter of
 * its length, but 2 for short names), nearest first; a longer shared start
 * breaks ties, so "p4.24xlarge" suggests p4d.24xlarge before p3.2xlarge.
 */
void gp_pricing_suggest(const gp_pricing *p, const char *name, char *buf,
                        size_t size, int max)
{
    suggestion best[16];
    size_t n_best = 0, limit, used = 0;
    char want[128], have[128];

    if (size == 0)
        return;
    buf[0] = '\0';
    if (!p || !name || max <= 0)
        return;
    if (max > 16)
        max = 16;
    lower_into(name, want, sizeof want);
    limit = strlen(want) / 4 < 2 ? 2 : strlen(want) / 4;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        for (size_t j = 0; j < c->n_types; j++) {
            suggestion s;
            bool seen = false;
            size_t k;

            s.name = c->types[j].name;
            for (k = 0; k < n_best; k++)
                if (strcmp(best[k].name, s.name) == 0)
                    seen = true; /* the same type in another region */
            if (seen)
                continue;
            lower_into(s.name, have, sizeof have);
            s.distance = gp_edit_distance(want, have, limit + 1);
            if (s.distance > limit)
                continue;
            for (s.prefix = 0;
                 want[s.prefix] && want[s.prefix] == have[s.prefix]; s.prefix++)
                ;
            /* insertion into the sorted list of the best `max` */
            if (n_best < (size_t)max)
                k = n_best++;
            else if (ranks_before(&s, &best[max - 1]))
                k = (size_t)max - 1;
            else
                continue;
            while (k > 0 && ranks_before(&s, &best[k - 1])) {
                best[k] = best[k - 1];
                k--;
            }
            best[k] = s;
        }
    }
    for (size_t k = 0; k < n_best && used < size; k++) {
        int w = snprintf(buf + used, size - used, "%s%s", k ? ", " : "",
                         best[k].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The price in force at t: the last history point at or before t (the
 * first point for earlier times), or the flat hourly price. */
double gp_spot_price_at(const gp_spot_offer *s, int64_t t)
{
    size_t lo = 0, hi;

    if (!s)
        return 0;
    if (s->n_history == 0)
        return s->hourly;
    if (t < s->history[0].t)
        return s->history[0].hourly; /* before the series: its first price */
    /* the last point at or before t */
    hi = s->n_history;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->history[mid].t <= t)
            lo = mid;
        else
            hi = mid;
    }
    return s->history[lo].hourly;
}

/* What an instance-hour of the reservation costs with its upfront payment
 * spread evenly over the term's hours (8760 a year). */
double gp_reserved_effective_hourly(const gp_reserved_offer *o)
{
    if (o->term_years <= 0)
        return o->hourly;
    return o->hourly + o->upfront / (o->term_years * 8760.0);
}

const gp_reserved_offer *gp_reserved_offer_of(const gp_pricing *p,
                                              const gp_commitment *c,
                                              const gp_instance_type **type)
{
    const gp_instance_type *it = gp_pricing_find(p, c->provider, c->region,
                                                 c->instance_type, NULL, NULL);
    const gp_reserved_offer *offer = NULL;

    for (size_t k = 0; it && k < it->n_reserved; k++)
        if (it->reserved[k].term_years == c->term_years &&
            it->reserved[k].payment == c->payment)
            offer = &it->reserved[k];
    if (type)
        *type = it;
    return offer;
}

const gp_plan_offer *gp_plan_offer_of(const gp_commitment *c,
                                      const gp_catalog *cat,
                                      const gp_instance_type *it)
{
    if (strcmp(cat->provider, c->provider) != 0)
        return NULL;
    if (c->kind == GP_PLAN_FAMILY && (strcmp(cat->region, c->region) != 0 ||
                                      strcmp(it->family, c->family) != 0))
        return NULL;
    for (size_t k = 0; k < it->n_plans; k++) {
        const gp_plan_offer *o = &it->plans[k];
        if (o->kind == c->kind && o->term_years == c->term_years &&
            o->payment == c->payment && o->hourly > 0)
            return o;
    }
    return NULL;
}

bool gp_pricing_region_upper(const gp_pricing *p, const char *r, char *lower,
                             size_t size)
{
    if (!gp_ascii_lower(lower, size, r))
        return false;
    for (size_t i = 0; p && i < p->n_catalogs; i++)
        if (strcmp(p->catalogs[i]->region, r) == 0)
            return false;
    return true;
}

bool gp_reserved_covers(const gp_catalog *cat, const gp_instance_type *it,
                        const gp_catalog *pcat, const gp_instance_type *pt)
{
    if (pcat != cat)
        return false;
    if (it->normalization_factor > 0)
        return pt->normalization_factor > 0 &&
               strcmp(pt->family, it->family) == 0;
    return pt == it;
}

const char *gp_pricing_currency(const gp_pricing *p)
{
    return p && p->n_catalogs > 0 ? p->catalogs[0]->currency : "USD";
}
