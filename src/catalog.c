/*
 * catalog.c: pricing catalogs (SPEC section 3): loading and checking the
 * JSON files, their spot price histories, and looking prices up.
 *
 * One catalog holds one provider and region.  Loading checks everything a
 * later stage would otherwise trip over (types, ranges, names, offers that
 * cannot exist) and stops at the first mistake with file:line:column, the
 * JSON path of the value and what is wrong with it.  Keys the format does
 * not know are ignored, so the format can grow.  Instance types are kept
 * sorted by name, so lookups are binary searches; gp_pricing holds every
 * catalog loaded and the warnings loading produced (stale prices, spot
 * above on-demand).
 */
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
/* Longest names, so that a scenario's commitment can name them. */
#define MAX_REGION 31
#define MAX_TYPE_NAME 63
#define MAX_FAMILY 31
#define MAX_GPUS 1024
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

/* Money for messages: "$21.957642", "$7.25", "$7". */
static void format_money(double v, char *buf, size_t size)
{
    char num[32];

    snprintf(num, sizeof num, "%.6f", v);
    /* trim trailing zeros and a bare point */
    for (size_t n = strlen(num); n > 0 && strchr(num, '.'); n--) {
        if (num[n - 1] == '0' || num[n - 1] == '.') {
            char last = num[n - 1];
            num[n - 1] = '\0';
            if (last == '.')
                break;
        } else {
            break;
        }
    }
    snprintf(buf, size, "$%s", num);
}

/* ---- spot price history (CSV) ------------------------------------------- */

/* One field of a CSV line: its bytes, without surrounding quotes. */
typedef struct csv_field {
    const char *p;
    size_t len;
} csv_field;

/*
 * Splits one line (no newline) into at most max fields at commas; a field
 * in double quotes may hold commas ("" inside stays doubled, which no
 * timestamp or price needs).  Returns the number of fields.
 */
static size_t split_csv_line(const char *line, size_t len, csv_field *f,
                             size_t max)
{
    size_t n = 0, i = 0;

    for (;;) {
        size_t start = i;
        bool quoted = i < len && line[i] == '"';
        if (quoted) {
            start = ++i;
            while (i < len &&
                   !(line[i] == '"' && (i + 1 >= len || line[i + 1] != '"')))
                i += line[i] == '"' ? 2 : 1;
        } else {
            while (i < len && line[i] != ',')
                i++;
        }
        if (n < max) {
            f[n].p = line + start;
            f[n].len = (i < len ? i : len) - start;
        }
        n++;
        if (quoted && i < len)
            i++; /* the closing quote */
        while (i < len && line[i] != ',')
            i++; /* stray bytes after a closing quote */
        if (i >= len)
            break;
        i++; /* the comma */
    }
    return n;
}

/* Whether a field is exactly the word w. */
static bool field_is(const csv_field *f, const char *w)
{
    return f->len == strlen(w) && memcmp(f->p, w, f->len) == 0;
}

/* A field's text as a quoted string for messages. */
static const char *quote_field(const csv_field *f, char *buf, size_t size)
{
    char raw[128];

    snprintf(raw, sizeof raw, "%.*s", (int)(f->len < 100 ? f->len : 100), f->p);
    return gp_json_quote(raw, buf, size);
}

/*
 * Parses a price series "timestamp,hourly" (header row first; columns in
 * any order, others ignored; blank lines skipped; CRLF or LF; optional
 * UTF-8 byte order mark) into spot->history.  Times must increase.  Errors
 * name `source` with the line and the CSV column.
 */
static gp_status parse_history(const char *text, size_t len, const char *source,
                               gp_spot_offer *spot, gp_error *err)
{
    size_t pos = 0, cap = 0;
    long line_no = 0;
    int col_time = -1, col_price = -1;
    csv_field f[32];
    char quoted[160];

    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        size_t nf;
        double t, price;
        const char *why;

        pos += n + (nl ? 1 : 0);
        line_no++;
        if (n > 0 && line[n - 1] == '\r')
            n--;
        if (n == 0)
            continue;
        nf = split_csv_line(line, n, f, 32);
        if (nf > 32)
            nf = 32;
        if (col_time < 0) { /* the header */
            for (size_t i = 0; i < nf; i++) {
                if (field_is(&f[i], "timestamp") && col_time < 0)
                    col_time = (int)i;
                else if (field_is(&f[i], "hourly") && col_price < 0)
                    col_price = (int)i;
            }
            if (col_time < 0 || col_price < 0) {
                gp_error_set(
                    err, source, line_no, 0, "",
                    "the header needs the columns timestamp and "
                    "hourly, got %s",
                    quote_field(&(csv_field){line, n}, quoted, sizeof quoted));
                return GP_ERR_INPUT;
            }
            continue;
        }
        if ((size_t)col_time >= nf || (size_t)col_price >= nf) {
            int missing = (size_t)col_time >= nf ? col_time : col_price;
            gp_error_set(err, source, line_no, missing + 1,
                         missing == col_time ? "timestamp" : "hourly",
                         "missing value");
            return GP_ERR_INPUT;
        }
        if (!gp_parse_time(f[col_time].p, f[col_time].len, &t, &why)) {
            gp_error_set(err, source, line_no, col_time + 1, "timestamp",
                         "%s, got %s", why,
                         quote_field(&f[col_time], quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        if (!gp_parse_number(f[col_price].p, f[col_price].len, &price)) {
            gp_error_set(err, source, line_no, col_price + 1, "hourly",
                         "expected a number, got %s",
                         quote_field(&f[col_price], quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        if (price < 0) {
            char num[32];
            gp_json_format_number(price, num, sizeof num);
            gp_error_set(err, source, line_no, col_price + 1, "hourly",
                         "must not be negative, got %s", num);
            return GP_ERR_INPUT;
        }
        if (spot->n_history > 0 &&
            (int64_t)floor(t) <= spot->history[spot->n_history - 1].t) {
            char prev[32];
            gp_format_time(spot->history[spot->n_history - 1].t, prev,
                           sizeof prev);
            gp_error_set(err, source, line_no, col_time + 1, "timestamp",
                         "must be later than the row before (%s)", prev);
            return GP_ERR_INPUT;
        }
        if (gp_grow((void **)&spot->history, &cap, spot->n_history + 1,
                    sizeof *spot->history) != GP_OK) {
            gp_error_set(err, source, 0, 0, "", "out of memory");
            return GP_ERR_NOMEM;
        }
        spot->history[spot->n_history].t = (int64_t)floor(t);
        spot->history[spot->n_history].hourly = price;
        spot->n_history++;
    }
    if (spot->n_history == 0) {
        gp_error_set(err, source, line_no > 0 ? 1 : 0, 0, "",
                     "no prices (expected a header timestamp,hourly and at "
                     "least one row)");
        return GP_ERR_INPUT;
    }
    /* the latest price stands in where one number is wanted */
    spot->hourly = spot->history[spot->n_history - 1].hourly;
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
    st = parse_history(text, len, path, spot, d->err);
    gp_free(text);
    gp_free(path);
    return st;
}

/* ---- one instance type -------------------------------------------------- */

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
            (st = gp_jdoc_check_nonnegative(d, "hourly", o->hourly)) != GP_OK ||
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
    if ((st = gp_jdoc_number(d, js, "hourly", false, &s->hourly,
                             &have_hourly)) != GP_OK ||
        (have_hourly &&
         (st = gp_jdoc_check_nonnegative(d, "hourly", s->hourly)) != GP_OK) ||
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
    if (strlen(name) > MAX_TYPE_NAME)
        return gp_jdoc_error(d, NULL,
                             "instance type name too long (at most %d "
                             "characters)",
                             MAX_TYPE_NAME);
    if ((st = gp_jdoc_expect_object(d, jt)) != GP_OK ||
        (st = gp_jdoc_string(d, jt, "family", false, &family, NULL)) != GP_OK ||
        (st = check_length(d, "family", family, MAX_FAMILY)) != GP_OK ||
        (st = gp_jdoc_string(d, jt, "gpu_model", false, &gpu_model, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jt, "gpus", true, &gpus, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "gpus", gpus, 1, MAX_GPUS)) != GP_OK ||
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

    if ((st = gp_jdoc_enum(d, root, "schema", true, "schema", schema_names, 1,
                           &schema, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, root, "provider", true, "provider",
                           gp_json_provider_names, 3, &provider, NULL)) !=
            GP_OK ||
        (st = dup_into(d, &c->provider, gp_json_provider_names[provider])) !=
            GP_OK ||
        (st = gp_jdoc_string(d, root, "region", true, &region, NULL)) != GP_OK)
        return st;
    if (!region[0])
        return gp_jdoc_error(d, "region", "must not be empty");
    if ((st = check_length(d, "region", region, MAX_REGION)) != GP_OK ||
        (st = dup_into(d, &c->region, region)) != GP_OK ||
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
    gp_free(c);
}

/* ---- sets of catalogs --------------------------------------------------- */

/* Adds the warnings a freshly loaded catalog deserves: prices older than
 * STALE_DAYS before today (today <= 0: unknown, no check), and spot prices
 * (the highest of a history) above on-demand. */
static void warn_about(gp_pricing *p, const gp_catalog *c, int64_t today)
{
    if (today > 0 && today > c->as_of_t) {
        int64_t days = (today - c->as_of_t) / 86400;
        if (days > STALE_DAYS)
            gp_warnings_add(&p->warnings,
                            "%s: prices as of %s are %lld days old", c->path,
                            c->as_of, (long long)days);
    }
    for (size_t i = 0; i < c->n_types; i++) {
        const gp_instance_type *t = &c->types[i];
        double spot = t->spot.hourly;
        char s_buf[32], od_buf[32];

        if (!t->spot.present)
            continue;
        for (size_t k = 0; k < t->spot.n_history; k++)
            if (t->spot.history[k].hourly > spot)
                spot = t->spot.history[k].hourly;
        if (spot <= t->on_demand)
            continue;
        format_money(spot, s_buf, sizeof s_buf);
        format_money(t->on_demand, od_buf, sizeof od_buf);
        gp_warnings_add(&p->warnings,
                        "%s: spot %s/h is above on-demand %s/h for %s", c->path,
                        s_buf, od_buf, t->name);
    }
}

/* Loads one catalog file into p: parses it, refuses a second catalog for a
 * provider and region already loaded, appends it and adds its warnings. */
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
    gp_free(text);
    grown = gp_realloc(p->catalogs, (p->n_catalogs + 1) * sizeof *grown);
    if (!grown) {
        gp_catalog_free(c);
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    p->catalogs = grown;
    p->catalogs[p->n_catalogs++] = c;
    warn_about(p, c, today);
    return GP_OK;
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
    while (p->warnings.count > w_before)
        gp_free(p->warnings.items[--p->warnings.count]);
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
