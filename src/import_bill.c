/*
 * import_bill.c: the bill the billing importers (import_focus.c,
 * import_cur.c) add their rows to: usage per pool and charge period, the
 * commitments the bill shows as owned and what was charged to them per
 * clock hour; the readers of fields both formats share; and the reading of
 * several input files into one bill.  See docs/design/import_billing.md.
 */
#include "import_bill_internal.h"
#include "safe_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a bill adds up to --------------------------------------------- */

/* Frees what a bill holds. */
void gp_bill_free(bill *b)
{
    for (size_t i = 0; i < b->n_owned; i++)
        gp_free(b->owned[i].id);
    gp_free(b->cells);
    gp_free(b->owned);
    gp_free(b->hours);
    gp_strmap_free(&b->cell_index);
    gp_strmap_free(&b->owned_index);
    gp_strmap_free(&b->hour_index);
    for (size_t i = 0; i < b->n_header; i++)
        gp_free(b->header[i]);
    gp_free(b->header);
}

/* Starts reading the next file of the bill: its rows are read against
 * its own header row, and its errors name it. */
void gp_bill_new_part(bill *b, const char *name)
{
    for (size_t i = 0; i < b->n_header; i++)
        gp_free(b->header[i]);
    gp_free(b->header);
    b->header = NULL;
    b->n_header = 0;
    b->header_line = 0;
    b->source = name;
    if (b->n_parts < 2)
        b->parts[b->n_parts] = name;
    b->n_parts++;
}

/* Keeps a copy of the header row's n names f (read on line `line`). */
static gp_status keep_header(bill *b, char **f, size_t n, long line)
{
    if (!(b->header = gp_calloc(n, sizeof *b->header)))
        return GP_ERR_NOMEM;
    for (b->n_header = 0; b->n_header < n; b->n_header++)
        if (!(b->header[b->n_header] = gp_strdup(f[b->n_header])))
            return GP_ERR_NOMEM;
    b->header_line = line;
    return GP_OK;
}

/* An error the CSV reader gave in a row past the header (a quoting error,
 * a NUL byte, a stray carriage return, a row shorter than the header)
 * names the CSV column only: the header gives its name, as the importer's
 * own errors give it.  A field past the header's last has none. */
void gp_bill_name_field(const bill *b, gp_status st, gp_error *err)
{
    if (st == GP_ERR_INPUT && err && !err->field[0] && b->header_line > 0 &&
        err->line > b->header_line && err->column > 0 &&
        (size_t)err->column <= b->n_header)
        snprintf(err->field, sizeof err->field, "%s",
                 b->header[err->column - 1]);
}
/* The clock hour that holds time t. */
static int64_t hour_of(int64_t t)
{
    return t >= 0 ? t / 3600 : -((-t + 3599) / 3600);
}

/* Checks that a usage row keeps the trace loadable (trace.c's limits, see
 * util.h): its period is shorter than GP_TRACE_MAX_SPAN_HOURS and covers
 * at most that many clock hours, the trace with it spans at most that many, and
 * the trace row it adds to
 * (`hours` instance-hours so far, this row's included) holds at most
 * GP_TRACE_MAX_ROW_INSTANCES instances. */
static gp_status usage_limits(bill *b, const usage_at *at, const char *type,
                              int64_t start, int64_t step, double hours,
                              bool added, gp_error *err)
{
    int64_t first = hour_of(start), end = hour_of(start + step - 1) + 1;
    int64_t lo = b->n_cells && b->lo_hour < first ? b->lo_hour : first;
    int64_t hi = b->n_cells && b->hi_hour > end ? b->hi_hour : end;
    double instances = hours / ((double)step / 3600.0);
    char from[32], to[32], num[32], total[32];

    if (!((double)step / 3600.0 < (double)GP_TRACE_MAX_SPAN_HOURS) ||
        end - first > GP_TRACE_MAX_SPAN_HOURS) {
        gp_error_set(err, b->source, at->line, at->col_end + 1, at->name_end,
                     "the charge period covers %ld hours (30 years) or "
                     "more; is this time right?",
                     GP_TRACE_MAX_SPAN_HOURS);
        return GP_ERR_INPUT;
    }
    if (hi - lo > GP_TRACE_MAX_SPAN_HOURS) {
        bool earlier = first < b->lo_hour;
        gp_format_time(lo * 3600, from, sizeof from);
        gp_format_time(hi * 3600, to, sizeof to);
        gp_error_set(err, b->source, at->line,
                     (earlier ? at->col_start : at->col_end) + 1,
                     earlier ? at->name_start : at->name_end,
                     "with this row the trace would span %s to %s, more than "
                     "%ld hours (30 years); is this time right?",
                     from, to, GP_TRACE_MAX_SPAN_HOURS);
        return GP_ERR_INPUT;
    }
    if (!(instances <= GP_TRACE_MAX_ROW_INSTANCES)) {
        if (isfinite(instances))
            gp_json_format_number(instances, num, sizeof num);
        else
            snprintf(num, sizeof num, "more than 1e308");
        if (added)
            gp_json_format_number(hours, total, sizeof total);
        gp_error_set(err, b->source, at->line, at->col_quantity + 1,
                     at->name_quantity,
                     "%s%s instance-hours in a charge period of %lld s are %s "
                     "instances of %s; a trace row holds at most %.0f",
                     added ? "with the rows before it of this type, region "
                             "and period, "
                           : "",
                     added ? total : at->quantity, (long long)step, num, type,
                     GP_TRACE_MAX_ROW_INSTANCES);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Adds `hours` instance-hours of a pool in the period [start, start+step),
 * from the row at `at`; an error there when the trace would not load. */
gp_status gp_bill_add_usage(bill *b, const usage_at *at, const char *provider,
                            const char *region, const char *type, int64_t start,
                            int64_t step, double hours, gp_error *err)
{
    char key[256];
    uint32_t i;
    int n = snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%lld\x1f%lld",
                     provider, region, type, (long long)start, (long long)step);
    bool found;
    gp_status st;

    if (n < 0 || (size_t)n >= sizeof key)
        return GP_ERR_INPUT; /* names were length-checked before */
    found = gp_strmap_get(&b->cell_index, key, (size_t)n, &i);
    if ((st = usage_limits(b, at, type, start, step,
                           found ? b->cells[i].hours + hours : hours, found,
                           err)) != GP_OK)
        return st;
    if (!b->n_cells || hour_of(start) < b->lo_hour)
        b->lo_hour = hour_of(start);
    if (!b->n_cells || hour_of(start + step - 1) + 1 > b->hi_hour)
        b->hi_hour = hour_of(start + step - 1) + 1;
    if (found) {
        b->cells[i].hours += hours;
        return GP_OK;
    }
    if ((st = gp_grow((void **)&b->cells, &b->cap_cells, b->n_cells + 1,
                      sizeof *b->cells)) != GP_OK ||
        (st = gp_strmap_put(&b->cell_index, key, (size_t)n,
                            (uint32_t)b->n_cells)) != GP_OK)
        return st;
    usage_cell *c = &b->cells[b->n_cells++];
    memset(c, 0, sizeof *c);
    snprintf(c->provider, sizeof c->provider, "%s", provider);
    snprintf(c->region, sizeof c->region, "%s", region);
    snprintf(c->type, sizeof c->type, "%s", type);
    c->start = start;
    c->step = step;
    c->hours = hours;
    return GP_OK;
}

/* Whether the catalogs price this type in this region (always, without
 * catalogs); counts and remembers the usage left out when they do not. */
bool gp_bill_priced(bill *b, const char *provider, const char *region,
                    const char *type)
{
    char name[100];

    if (!b->pricing ||
        gp_pricing_find(b->pricing, provider, region, type, NULL, NULL))
        return true;
    b->unpriced++;
    snprintf(name, sizeof name, "%s in %s", type, region);
    for (size_t i = 0; i < b->n_unpriced_names; i++)
        if (strcmp(b->unpriced_names[i], name) == 0)
            return false;
    if (b->n_unpriced_names < 4)
        memcpy(b->unpriced_names[b->n_unpriced_names++], name, sizeof name);
    return false;
}

/* Regions are lower case, as the providers write them (README, as a
 * trace's region column): one with an upper-case letter that no loaded
 * catalog is of ("US-EAST-1") is an error at its row and column, not usage
 * left out as of a region the catalogs do not price. */
gp_status gp_bill_check_region_case(const bill *b, long line, int col,
                                    const char *name, const char *region,
                                    const char *cell, gp_error *err)
{
    char lower[64], quoted[160];

    if (!gp_pricing_region_upper(b->pricing, region, lower, sizeof lower))
        return GP_OK;
    /* the cell as written (an availability zone holds more than the
     * region) */
    gp_ascii_lower(lower, sizeof lower, cell);
    gp_error_set(err, b->source, line, col + 1, name,
                 "%s: regions are lower case (write \"%s\")",
                 gp_json_quote(cell, quoted, sizeof quoted), lower);
    return GP_ERR_INPUT;
}

/* The commitment with this id, created (of type t) when new; NULL when out
 * of memory. */
owned *gp_bill_owned(bill *b, const char *id, gp_commitment_type t)
{
    uint32_t at;
    size_t len = strlen(id);
    owned *o;

    if (gp_strmap_get(&b->owned_index, id, len, &at))
        return &b->owned[at];
    if (gp_grow((void **)&b->owned, &b->cap_owned, b->n_owned + 1,
                sizeof *b->owned) != GP_OK ||
        gp_strmap_put(&b->owned_index, id, len, (uint32_t)b->n_owned) != GP_OK)
        return NULL;
    o = &b->owned[b->n_owned];
    memset(o, 0, sizeof *o);
    if (!(o->id = gp_strdup(id)))
        return NULL;
    b->n_owned++;
    o->type = t;
    o->first_hour = INT64_MAX;
    /* what a bill that does not say gets (listed under "assumed") */
    o->kind = GP_PLAN_COMPUTE;
    o->term_years = 1;
    o->payment = GP_NO_UPFRONT;
    return o;
}

/* A usage row of a type no catalog prices stays out of the trace
 * (gp_bill_priced counted it); the commitment that covered it (id, NULL for
 * none) is marked as covering unpriced usage. */
gp_status gp_bill_covered_unpriced(bill *b, const char *id,
                                   gp_commitment_type t)
{
    owned *o;

    if (!id)
        return GP_OK;
    if (!(o = gp_bill_owned(b, id, t)))
        return GP_ERR_NOMEM;
    o->unpriced = true;
    return GP_OK;
}

/* Charges `hours` instance-hours and `dollars` to commitment o in the clock
 * hour that contains time t. */
static gp_status bill_charge(bill *b, owned *o, int64_t t, double hours,
                             double dollars)
{
    char key[64];
    uint32_t at;
    uint32_t owner = (uint32_t)(o - b->owned);
    int64_t hour = t >= 0 ? t / 3600 : -((-t + 3599) / 3600);
    int n = snprintf(key, sizeof key, "%u\x1f%lld", owner, (long long)hour);
    gp_status st;

    if (hour < o->first_hour)
        o->first_hour = hour;
    if (gp_strmap_get(&b->hour_index, key, (size_t)n, &at)) {
        b->hours[at].hours += hours;
        b->hours[at].dollars += dollars;
        return GP_OK;
    }
    if ((st = gp_grow((void **)&b->hours, &b->cap_hours, b->n_hours + 1,
                      sizeof *b->hours)) != GP_OK ||
        (st = gp_strmap_put(&b->hour_index, key, (size_t)n,
                            (uint32_t)b->n_hours)) != GP_OK)
        return st;
    b->hours[b->n_hours++] = (owned_hour){owner, hour, hours, dollars};
    return GP_OK;
}
/* Charges what a bill row covered over [start, start + step) to
 * commitment o, spread evenly over the clock hours the period overlaps: a
 * daily row's 48 covered instance-hours are 2 in each of its 24 hours,
 * not 48 in its first, which would size the commitment 24 times too big. */
gp_status gp_bill_charge_period(bill *b, owned *o, int64_t start, int64_t step,
                                double hours, double dollars)
{
    int64_t first, last;
    gp_status st;

    if (step <= 3600 && (start % 3600 + 3600) % 3600 + step <= 3600)
        return bill_charge(b, o, start, hours, dollars);
    first = start >= 0 ? start / 3600 : -((-start + 3599) / 3600);
    last = start + step - 1;
    last = last >= 0 ? last / 3600 : -((-last + 3599) / 3600);
    for (int64_t h = first; h <= last; h++) {
        int64_t from = h * 3600 > start ? h * 3600 : start;
        int64_t to =
            (h + 1) * 3600 < start + step ? (h + 1) * 3600 : start + step;
        double part = (double)(to - from) / (double)step;
        if ((st = bill_charge(b, o, from, hours * part, dollars * part)) !=
            GP_OK)
            return st;
    }
    return GP_OK;
}

/* A bill row covered by owned commitment o: the commitment takes the
 * row's provider, and its region and instance type unless an earlier row
 * set them; it adds the instance-hours and their on-demand cost to what it
 * covered, and its effective cost is charged over the row's period (at
 * most MAX_CHARGE_PERIOD_S, which the caller checks for its error). */
gp_status gp_bill_cover(bill *b, owned *o, const char *provider,
                        const char *region, const char *type, int64_t start,
                        int64_t step, double hours, double on_demand_cost,
                        double effective)
{
    snprintf(o->provider, sizeof o->provider, "%s", provider);
    if (!o->region[0])
        snprintf(o->region, sizeof o->region, "%s", region);
    if (!o->instance_type[0])
        snprintf(o->instance_type, sizeof o->instance_type, "%s", type);
    o->covered_hours += hours;
    o->covered_cost += on_demand_cost;
    return gp_bill_charge_period(b, o, start, step, hours, effective);
}

/* The error for a row a commitment covered whose charge period is too
 * long to spread over its hours. */
gp_status gp_bill_long_period(const char *source, long line, int col,
                              const char *name, gp_error *err)
{
    gp_error_set(err, source, line, col + 1, name,
                 "a charge period of more than a year on a row a commitment "
                 "covered");
    return GP_ERR_INPUT;
}

/* ---- reading fields ----------------------------------------------------- */

/* Parses a time field into epoch seconds. */
gp_status gp_bill_read_time(const char *source, long line, int col,
                            const char *name, const char *s, int64_t *out,
                            gp_error *err)
{
    double t;
    const char *why = "not a time";
    char quoted[160];

    if (!gp_parse_time(s, strlen(s), &t, &why)) {
        gp_error_set(err, source, line, col + 1, name, "%s, got %s", why,
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    *out = (int64_t)floor(t);
    return GP_OK;
}

/* Parses a number field that must be >= 0; a null field reads as 0 when
 * `null_ok`. */
gp_status gp_bill_read_amount(const char *source, long line, int col,
                              const char *name, const char *s, bool null_ok,
                              double *out, gp_error *err)
{
    char quoted[160];

    if (null_ok && is_null(s)) {
        *out = 0;
        return GP_OK;
    }
    if (!gp_parse_number(s, strlen(s), out)) {
        gp_error_set(err, source, line, col + 1, name,
                     "expected a number, got %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Checks that a name fits the trace's and the scenario's fields.  It must
 * be UTF-8 (the commitments file is JSON, which holds no other text, and
 * a name that is not would be left out of it without a word) and hold no
 * control character (the scenario loader would refuse the file). */
gp_status gp_bill_check_name(const char *source, long line, int col,
                             const char *name, const char *s, size_t max,
                             gp_error *err)
{
    char quoted[160];
    size_t bad;
    uint32_t code;

    if (is_null(s)) {
        gp_error_set(err, source, line, col + 1, name, "missing value");
        return GP_ERR_INPUT;
    }
    if (strlen(s) >= max || strpbrk(s, ",\"\r\n")) {
        gp_error_set(err, source, line, col + 1, name, "not a usable name: %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!gp_utf8_valid(s, strlen(s), &bad)) {
        gp_error_set(err, source, line, col + 1, name,
                     "not UTF-8 (byte %zu is \\x%02x), got %s", bad + 1,
                     (unsigned char)s[bad],
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    /* as the trace and scenario loaders refuse it (safe_text.h) */
    if ((bad = gp_text_control_at(s, strlen(s), &code)) < strlen(s)) {
        gp_error_set(err, source, line, col + 1, name,
                     "a control character (U+%04X, byte %zu), which no "
                     "report can show: remove it, got %s",
                     (unsigned)code, bad + 1,
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* The charge period [start, end) of a row, checked. */
gp_status gp_bill_read_period(const char *source, long line, int col_start,
                              const char *name_start, const char *start_s,
                              int col_end, const char *name_end,
                              const char *end_s, int64_t *start, int64_t *step,
                              gp_error *err)
{
    int64_t end;
    gp_status st;

    if ((st = gp_bill_read_time(source, line, col_start, name_start, start_s,
                                start, err)) != GP_OK ||
        (st = gp_bill_read_time(source, line, col_end, name_end, end_s, &end,
                                err)) != GP_OK)
        return st;
    if (end <= *start) {
        /* both read (gp_bill_read_time held them to the second): say which it
         * is, from the times as written */
        double t0 = 0, t1 = 0;
        const char *why;
        gp_parse_time(start_s, strlen(start_s), &t0, &why);
        gp_parse_time(end_s, strlen(end_s), &t1, &why);
        if (t1 < t0)
            gp_error_set(err, source, line, col_end + 1, name_end,
                         "the charge period ends before it starts (%s to %s)",
                         start_s, end_s);
        else if (t1 > t0)
            gp_error_set(err, source, line, col_end + 1, name_end,
                         "the charge period is under a second (%s to %s), "
                         "and times are read to the second",
                         start_s, end_s);
        else if (strcmp(start_s, end_s) == 0)
            gp_error_set(err, source, line, col_end + 1, name_end,
                         "the charge period is empty (it starts and ends at "
                         "%s)",
                         start_s);
        else
            gp_error_set(err, source, line, col_end + 1, name_end,
                         "the charge period is empty (%s and %s are the "
                         "same time)",
                         start_s, end_s);
        return GP_ERR_INPUT;
    }
    if (end > GP_TIME_LATEST) {
        char quoted[160];
        gp_error_set(err, source, line, col_end + 1, name_end,
                     "must be at most " GP_TIME_LATEST_WHY ", got %s",
                     gp_json_quote(end_s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    *step = end - *start;
    return GP_OK;
}

/* Reads a header row into column indices: names[i] -> cols[i], -1 when
 * absent.  The CUR 2.0 spelling of a CUR 1 name (line_item_usage_type for
 * lineItem/UsageType) is accepted too.  A column read twice is an error:
 * which of the two a row's value came from would be a guess. */
static gp_status map_columns(const char *source, long line, char **f, size_t n,
                             const char *const *names, size_t n_names,
                             int *cols, gp_error *err)
{
    for (size_t k = 0; k < n_names; k++) {
        char snake[128];
        size_t j = 0;
        for (const char *s = names[k]; *s && j + 3 < sizeof snake; s++) {
            if (*s == '/')
                snake[j++] = '_';
            else if (*s >= 'A' && *s <= 'Z') {
                if (j > 0 && snake[j - 1] != '_')
                    snake[j++] = '_';
                snake[j++] = (char)(*s - 'A' + 'a');
            } else
                snake[j++] = *s;
        }
        snake[j] = '\0';
        cols[k] = -1;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(f[i], names[k]) != 0 && strcmp(f[i], snake) != 0)
                continue;
            if (cols[k] >= 0) {
                gp_error_set(err, source, line, (long)i + 1, f[i],
                             "the column is there twice (also column %d%s%s)",
                             cols[k] + 1, strcmp(f[cols[k]], f[i]) ? ", " : "",
                             strcmp(f[cols[k]], f[i]) ? f[cols[k]] : "");
                return GP_ERR_INPUT;
            }
            cols[k] = (int)i;
        }
    }
    return GP_OK;
}

/* Reports the first required column (required[k]) that is missing. */
static gp_status check_columns(const char *source, long line,
                               const char *const *names, const bool *required,
                               size_t n_names, const int *cols,
                               const char *format, gp_error *err)
{
    for (size_t k = 0; k < n_names; k++)
        if (required[k] && cols[k] < 0) {
            gp_error_set(err, source, line, 0, names[k],
                         "missing column (is this %s?)", format);
            return GP_ERR_INPUT;
        }
    return GP_OK;
}

/* ---- the files of a bill ------------------------------------------------ */

/* Reads every input file the options name, in order, into one bill (a
 * CUR delivered in several parts is one bill), as the telemetry
 * importers read several files into one trace; the first error wins. */
gp_status gp_bill_read_files(bill_part_fn part, void *ctx,
                             const gp_import_options *opt, gp_error *err)
{
    gp_status st = GP_OK;

    for (size_t i = 0; i < opt->n_inputs && st == GP_OK; i++) {
        gp_source src;
        if ((st = gp_source_open(&src, opt->inputs[i], GP_SOURCE_IMPORT_STREAM,
                                 err)) != GP_OK)
            return st;
        st = part(ctx, &src, err);
        gp_source_close(&src);
    }
    return st;
}

gp_status gp_bill_read_header(bill *b, long line, char **f, size_t n,
                              const char *const *names, const bool *required,
                              size_t n_names, int *cols, const char *format,
                              gp_error *err)
{
    gp_status st;

    if ((st = map_columns(b->source, line, f, n, names, n_names, cols, err)) !=
        GP_OK)
        return st;
    if (keep_header(b, f, n, line) != GP_OK)
        return GP_ERR_NOMEM;
    return check_columns(b->source, line, names, required, n_names, cols,
                         format, err);
}
