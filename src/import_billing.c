/*
 * import_billing.c: `gpuplan import focus` and `gpuplan import aws-cur`,
 * billing exports turned into a usage trace, so that a user can start from
 * the bill finance already has (SPEC sections 1 and 2).
 *
 * Both exports list charges, one row per resource and charge period.  The
 * rows that are compute instance-hours (an EC2 "BoxUsage:g5.xlarge" line,
 * a FOCUS usage row "... per On Demand Linux g5.4xlarge Instance Hour")
 * become demand: their hours are summed per (provider, region, instance
 * type, period) and written as a trace row whose `instances` is those hours
 * over the period's length.  Every other row (storage, network, taxes,
 * fees) is skipped and counted; a row that is compute usage but malformed
 * is an error with file:line:column.
 *
 * Rows covered by a commitment name it (FOCUS CommitmentDiscountId, CUR
 * reservation/ReservationARN or savingsPlan/SavingsPlanARN).  They tell
 * which reservations and savings plans are owned, and with --commitments-out
 * those are written as a scenario (SPEC section 3b) whose `commitments` a
 * run can start from.  A reservation's count is the bill's number of
 * reservations, else the most instance-hours it covered in one clock hour;
 * a savings plan's hourly commitment is the bill's own figure, else the
 * most dollars charged to it (used plus unused) in one clock hour.  What the
 * export does not carry (FOCUS 1.0 has no term, payment option or start
 * date) takes a stated default, term 1 year, no upfront, start at the first
 * hour the bill shows, and the commitment lists it under "assumed" so that
 * the user can correct it; a term or payment the CUR states but that
 * cannot be read is an error.  Each commitment also carries what it covered:
 * "covered_instance_hours" and "covered_on_demand_cost" (extra keys the
 * scenario loader ignores).
 *
 * Several files (a CUR AWS delivered in parts) are one bill: each is read
 * against its own header and its errors name it, and their rows add up
 * into one trace and one set of owned commitments.
 *
 * The CSV is read with libcsv through gp_csv_rows_read (csv_rows.c).
 */
#include "csv_rows.h"
#include "import.h"
#include "json_util.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small helpers ------------------------------------------------------ */

/* Whether a billing field is empty: "", or the literal NULL FOCUS samples
 * write. */
static bool is_null(const char *s)
{
    return !s[0] || strcmp(s, "NULL") == 0;
}

/* The field of column col (-1 when the file lacks the column: ""). */
static const char *field(char **f, size_t n, int col)
{
    return col >= 0 && (size_t)col < n ? f[col] : "";
}

/* The last path component of a file name, for messages and sources. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "Hours", "Hrs", "hours", "Hour": a unit of instance time. */
static bool unit_is_hours(const char *u)
{
    return strcasecmp(u, "hours") == 0 || strcasecmp(u, "hrs") == 0 ||
           strcasecmp(u, "hour") == 0 || strcasecmp(u, "hr") == 0;
}

/* The gpuplan provider name for a billing ProviderName, or NULL. */
static const char *provider_code(const char *name)
{
    if (strcasecmp(name, "AWS") == 0 ||
        strcasecmp(name, "Amazon Web Services") == 0)
        return "aws";
    if (strcasecmp(name, "Microsoft") == 0 || strcasecmp(name, "Azure") == 0 ||
        strcasecmp(name, "Microsoft Azure") == 0)
        return "azure";
    if (strcasecmp(name, "Google Cloud") == 0 || strcasecmp(name, "GCP") == 0 ||
        strcasecmp(name, "Google") == 0)
        return "gcp";
    return NULL;
}

/* ---- what a bill adds up to --------------------------------------------- */

/* Instance-hours of one pool in one charge period. */
typedef struct usage_cell {
    char provider[16];
    char region[32];
    char type[64];
    int64_t start;
    int64_t step;
    double hours;
} usage_cell;

/* A commitment the bill shows as owned. */
typedef struct owned {
    char *id;
    gp_commitment_type type;
    char provider[16];
    char region[32];
    char instance_type[64];
    char family[32];
    bool kind_known, term_known, payment_known, start_known;
    bool unpriced; /* covered usage of a type the catalogs do not price */
    gp_plan_kind kind;
    int term_years;
    gp_payment payment;
    int64_t start;
    int64_t first_hour; /* first clock hour the bill charges it */
    double count;       /* reservations: from the bill, 0 if not given */
    double hourly;      /* savings plans: from the bill, 0 if not given */
    double covered_hours, covered_cost;
    double peak_hours, peak_dollars; /* the most in one clock hour */
} owned;

/* Instance-hours and dollars charged to one commitment in one clock hour. */
typedef struct owned_hour {
    uint32_t owner;
    int64_t hour;
    double hours, dollars;
} owned_hour;

typedef struct bill {
    const char *source; /* the file being read */
    /* the files read so far (a CUR comes in parts: one bill), the first
     * two named in the summary */
    const char *parts[2];
    size_t n_parts;
    usage_cell *cells;
    size_t n_cells, cap_cells;
    int64_t lo_hour, hi_hour; /* the clock hours [lo, hi) the cells cover */
    gp_strmap cell_index;
    owned *owned;
    size_t n_owned, cap_owned;
    gp_strmap owned_index;
    owned_hour *hours;
    size_t n_hours, cap_hours;
    gp_strmap hour_index;
    /* the catalogs: usage of a type they do not price in its region (a
     * CPU instance, or a region with no catalog) is left out, since
     * simulate could not bill it; NULL keeps every type */
    const gp_pricing *pricing;
    char unpriced_names[4][100]; /* the first few, "t3.medium in us-east-1" */
    size_t n_unpriced_names;
    /* counts for the summary */
    unsigned long rows, imported, not_usage, not_instance_hours, other_provider,
        spot, unpriced;
    /* the header's names (gp_malloc'd), for the reader's errors in a row */
    char **header;
    size_t n_header;
    long header_line;
} bill;

/* Frees what a bill holds. */
static void bill_free(bill *b)
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
static void bill_new_part(bill *b, const char *name)
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

/* The files of the bill for the summary and the scenario's name:
 * "cur.csv", "cur-1.csv and cur-2.csv", "cur-1.csv and 2 other files". */
static void bill_label(const bill *b, char *buf, size_t size)
{
    if (b->n_parts <= 1)
        snprintf(buf, size, "%s", base_name(b->parts[0]));
    else if (b->n_parts == 2)
        snprintf(buf, size, "%s and %s", base_name(b->parts[0]),
                 base_name(b->parts[1]));
    else
        snprintf(buf, size, "%s and %zu other files", base_name(b->parts[0]),
                 b->n_parts - 1);
}

/* Keeps a copy of the header row's n names f (read on line `line`). */
static gp_status bill_keep_header(bill *b, char **f, size_t n, long line)
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
static void bill_name_field(const bill *b, gp_status st, gp_error *err)
{
    if (st == GP_ERR_INPUT && err && !err->field[0] && b->header_line > 0 &&
        err->line > b->header_line && err->column > 0 &&
        (size_t)err->column <= b->n_header)
        snprintf(err->field, sizeof err->field, "%s",
                 b->header[err->column - 1]);
}

/* Where a usage row's start, end and quantity are, for the errors
 * bill_add_usage gives. */
typedef struct usage_at {
    long line;
    int col_start, col_end, col_quantity; /* 0-based */
    const char *name_start, *name_end, *name_quantity;
    const char *quantity; /* the field as written */
} usage_at;

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
static gp_status bill_add_usage(bill *b, const usage_at *at,
                                const char *provider, const char *region,
                                const char *type, int64_t start, int64_t step,
                                double hours, gp_error *err)
{
    char key[256];
    uint32_t i;
    int n = snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%lld\x1f%lld",
                     provider, region, type, (long long)start,
                     (long long)step);
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
static bool bill_priced(bill *b, const char *provider, const char *region,
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
static gp_status check_region_case(const bill *b, long line, int col,
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
static owned *bill_owned(bill *b, const char *id, gp_commitment_type t)
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
 * (bill_priced counted it); the commitment that covered it (id, NULL for
 * none) is marked as covering unpriced usage. */
static gp_status covered_unpriced(bill *b, const char *id, gp_commitment_type t)
{
    owned *o;

    if (!id)
        return GP_OK;
    if (!(o = bill_owned(b, id, t)))
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

/* The longest charge period spread over its clock hours by
 * bill_charge_period: a year (bills come by the hour, day or month). */
#define MAX_CHARGE_PERIOD_S (366 * 86400LL)

/* Charges what a bill row covered over [start, start + step) to
 * commitment o, spread evenly over the clock hours the period overlaps: a
 * daily row's 48 covered instance-hours are 2 in each of its 24 hours,
 * not 48 in its first, which would size the commitment 24 times too big. */
static gp_status bill_charge_period(bill *b, owned *o, int64_t start,
                                    int64_t step, double hours, double dollars)
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
static gp_status bill_cover(bill *b, owned *o, const char *provider,
                            const char *region, const char *type,
                            int64_t start, int64_t step, double hours,
                            double on_demand_cost, double effective)
{
    snprintf(o->provider, sizeof o->provider, "%s", provider);
    if (!o->region[0])
        snprintf(o->region, sizeof o->region, "%s", region);
    if (!o->instance_type[0])
        snprintf(o->instance_type, sizeof o->instance_type, "%s", type);
    o->covered_hours += hours;
    o->covered_cost += on_demand_cost;
    return bill_charge_period(b, o, start, step, hours, effective);
}

/* The error for a row a commitment covered whose charge period is too
 * long to spread over its hours. */
static gp_status long_period(const char *source, long line, int col,
                             const char *name, gp_error *err)
{
    gp_error_set(err, source, line, col + 1, name,
                 "a charge period of more than a year on a row a commitment "
                 "covered");
    return GP_ERR_INPUT;
}

/* Orders trace rows by time, then pool. */
static int cell_cmp(const void *pa, const void *pb)
{
    const usage_cell *a = pa, *b = pb;
    int c;

    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if ((c = strcmp(a->provider, b->provider)) != 0 ||
        (c = strcmp(a->region, b->region)) != 0 ||
        (c = strcmp(a->type, b->type)) != 0)
        return c;
    return a->step < b->step ? -1 : a->step > b->step;
}

/* Writes the trace CSV: one row per pool and charge period. */
static gp_status bill_write_trace(bill *b, FILE *out, gp_error *err)
{
    char when[32], num[32];

    if (b->n_cells > 1)
        qsort(b->cells, b->n_cells, sizeof *b->cells, cell_cmp);
    fputs("timestamp,step_s,provider,region,instance_type,instances\n", out);
    for (size_t i = 0; i < b->n_cells; i++) {
        const usage_cell *c = &b->cells[i];
        gp_format_time(c->start, when, sizeof when);
        gp_json_format_number(c->hours / ((double)c->step / 3600.0), num,
                              sizeof num);
        fprintf(out, "%s,%lld,%s,%s,%s,%s\n", when, (long long)c->step,
                c->provider, c->region, c->type, num);
    }
    if (fflush(out) != 0 || ferror(out)) {
        gp_error_set(err, "", 0, 0, NULL, "cannot write the trace");
        return GP_ERR_IO;
    }
    return GP_OK;
}

/* Works out each commitment's peaks per clock hour. */
static void bill_peaks(bill *b)
{
    for (size_t i = 0; i < b->n_hours; i++) {
        owned *o = &b->owned[b->hours[i].owner];
        if (b->hours[i].hours > o->peak_hours)
            o->peak_hours = b->hours[i].hours;
        if (b->hours[i].dollars > o->peak_dollars)
            o->peak_dollars = b->hours[i].dollars;
    }
}

/* Rounds money to a tenth of a cent... of a cent: 1e-6 dollars. */
static double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

/* Commitment o's size in a scenario: reservations' count, savings plans'
 * hourly commitment; 0 when the bill does not show it. */
static double owned_size(const owned *o)
{
    if (o->type == GP_COMMIT_RESERVED)
        return o->count > 0 ? o->count : ceil(o->peak_hours - 1e-9);
    return round6(o->hourly > 0 ? o->hourly : o->peak_dollars);
}

/* Why commitment o cannot go into the scenario, as "the bill shows ...";
 * NULL when it can. */
static const char *owned_left_out(const owned *o)
{
    bool sized = owned_size(o) > 0;

    if (sized && !(o->type == GP_COMMIT_RESERVED && !o->instance_type[0]) &&
        !(o->type == GP_COMMIT_SAVINGS_PLAN && o->kind == GP_PLAN_FAMILY &&
          (!o->family[0] || !o->region[0])))
        return NULL;
    if (o->unpriced && o->covered_hours == 0)
        return "it covering only types the catalogs do not price";
    /* a reservation is sized by the usage it covered (or a CUR count): a
     * fee alone may have been charged, but says neither */
    if (o->type == GP_COMMIT_RESERVED || sized)
        return "no instance usage it covered";
    return "nothing charged to it, so its size is unknown";
}

/* Builds the scenario object for the commitments that can be sized; adds
 * a note for each that cannot. */
static json_t *bill_scenario(bill *b, const gp_import_options *opt)
{
    json_t *root = json_object(), *list = json_array();
    char label[200], name[240], when[32];

    if (!root || !list) {
        json_decref(root);
        json_decref(list);
        return NULL;
    }
    bill_label(b, label, sizeof label);
    snprintf(name, sizeof name, "owned commitments from %s", label);
    json_object_set_new(root, "schema", json_string("gpuplan-scenario/1"));
    json_object_set_new(root, "name", json_string(name));
    json_object_set_new(root, "commitments", list);
    for (size_t i = 0; i < b->n_owned; i++) {
        const owned *o = &b->owned[i];
        json_t *c = json_object(), *assumed = json_array();
        double size = owned_size(o);
        const char *why = owned_left_out(o);
        if (!c || !assumed) {
            json_decref(c);
            json_decref(assumed);
            json_decref(root);
            return NULL;
        }
        json_object_set_new(c, "type", json_string(o->type == GP_COMMIT_RESERVED
                                                       ? "reserved"
                                                       : "savings_plan"));
        if (o->type == GP_COMMIT_SAVINGS_PLAN) {
            json_object_set_new(c, "kind",
                                json_string(gp_plan_kind_name(o->kind)));
            if (!o->kind_known)
                json_array_append_new(assumed, json_string("kind"));
        }
        json_object_set_new(c, "provider", json_string(o->provider));
        if (o->type == GP_COMMIT_RESERVED ||
            (o->kind == GP_PLAN_FAMILY && o->region[0]))
            json_object_set_new(c, "region", json_string(o->region));
        if (o->type == GP_COMMIT_RESERVED) {
            json_object_set_new(c, "instance_type",
                                json_string(o->instance_type));
            json_object_set_new(c, "count", json_integer((json_int_t)size));
        } else {
            if (o->kind == GP_PLAN_FAMILY)
                json_object_set_new(c, "family", json_string(o->family));
            json_object_set_new(c, "hourly_commitment", json_real(size));
        }
        if (why) {
            if (opt->notes)
                gp_warnings_add(opt->notes,
                                "%s: commitment %s left out: the bill shows %s",
                                label, o->id, why);
            json_decref(c);
            json_decref(assumed);
            continue;
        }
        json_object_set_new(c, "term_years", json_integer(o->term_years));
        json_object_set_new(c, "payment",
                            json_string(gp_payment_name(o->payment)));
        gp_format_time(o->start_known ? o->start : o->first_hour * 3600, when,
                       sizeof when);
        json_object_set_new(c, "start", json_string(when));
        if (!o->term_known)
            json_array_append_new(assumed, json_string("term_years"));
        if (!o->payment_known)
            json_array_append_new(assumed, json_string("payment"));
        if (!o->start_known)
            json_array_append_new(assumed, json_string("start"));
        json_object_set_new(c, "id", json_string(o->id));
        json_object_set_new(c, "covered_instance_hours",
                            json_real(round6(o->covered_hours)));
        json_object_set_new(c, "covered_on_demand_cost",
                            json_real(round6(o->covered_cost)));
        if (json_array_size(assumed) > 0)
            json_object_set_new(c, "assumed", assumed);
        else
            json_decref(assumed);
        json_array_append_new(list, c);
    }
    return root;
}

/* gp_write_atomic's callback: dumps the scenario. */
struct scenario_out {
    const json_t *doc;
    const char *path;
    gp_error *err;
};

static gp_status write_json(FILE *f, void *ctx)
{
    const struct scenario_out *o = ctx;
    return gp_json_write(o->doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15), f,
                         o->path, o->err);
}

/* Writes the trace, the owned commitments (when asked) and the summary. */
static gp_status bill_finish(bill *b, const char *expected,
                             const gp_import_options *opt, FILE *out,
                             gp_error *err)
{
    gp_status st;
    char label[200];

    if (b->imported == 0) {
        /* like the telemetry importers, named by the first file */
        char files[40] = "";
        if (b->n_parts > 1)
            snprintf(files, sizeof files, " of %zu files", b->n_parts);
        gp_error_set(err, b->parts[0], 0, 0, NULL,
                     "no compute instance-hour rows among %lu %s%s "
                     "(expected %s)",
                     b->rows, gp_plural(b->rows, "row", "rows"), files,
                     expected);
        return GP_ERR_INPUT;
    }
    bill_label(b, label, sizeof label);
    bill_peaks(b);
    if (opt->notes) {
        char names[500] = "";
        for (size_t i = 0; i < b->n_unpriced_names; i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s",
                     i ? ", " : " (such as ", b->unpriced_names[i]);
        }
        if (names[0])
            strncat(names,
                    ": not GPU types, or add their catalog with "
                    "--pricing)",
                    sizeof names - strlen(names) - 1);
        /* "(1 of them spot)" when several were imported; one row is
         * "(spot)" or "(not spot)" */
        char spot[40];
        if (b->imported == 1)
            snprintf(spot, sizeof spot, "%s", b->spot ? "spot" : "not spot");
        else
            snprintf(spot, sizeof spot, "%lu of them spot", b->spot);
        gp_warnings_add(opt->notes,
                        "%s: %lu %s: %lu compute instance-hour %s imported "
                        "(%s); skipped %lu not usage, %lu not "
                        "instance-hours, %lu from providers gpuplan does not "
                        "price, %lu of types the catalogs do not price in "
                        "their region%s",
                        label, b->rows, gp_plural(b->rows, "row", "rows"),
                        b->imported, gp_plural(b->imported, "row", "rows"),
                        spot, b->not_usage, b->not_instance_hours,
                        b->other_provider, b->unpriced, names);
    }
    if (opt->commitments_out) {
        json_t *scenario = bill_scenario(b, opt);
        if (!scenario)
            return GP_ERR_NOMEM;
        struct scenario_out o = {scenario, opt->commitments_out, err};
        st = gp_write_atomic(opt->commitments_out, write_json, &o, err);
        json_decref(scenario);
        if (st != GP_OK)
            return st;
    }
    if ((st = bill_write_trace(b, out, err)) != GP_OK)
        return st;
    if (opt->notes) {
        for (size_t i = 0; i < b->n_owned; i++) {
            const owned *o = &b->owned[i];
            /* its usage is not in the trace, so "covered 0 instance-hours"
             * would deny what the bill shows; when it is left out of
             * --commitments-out, that note (bill_scenario) says so */
            if (o->unpriced && o->covered_hours == 0) {
                if (!opt->commitments_out || !owned_left_out(o))
                    gp_warnings_add(opt->notes,
                                    "%s: owned %s %s covered only types the "
                                    "catalogs do not price",
                                    label,
                                    o->type == GP_COMMIT_RESERVED
                                        ? "reservation"
                                        : "savings plan",
                                    o->id);
                continue;
            }
            gp_warnings_add(opt->notes,
                            "%s: owned %s %s covered %.6g instance-hour%s "
                            "worth %.2f at on-demand rates",
                            label,
                            o->type == GP_COMMIT_RESERVED ? "reservation"
                                                          : "savings plan",
                            o->id, o->covered_hours,
                            o->covered_hours == 1 ? "" : "s", o->covered_cost);
        }
    }
    return GP_OK;
}

/* ---- reading fields ----------------------------------------------------- */

/* Parses a time field into epoch seconds. */
static gp_status read_time(const char *source, long line, int col,
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
static gp_status read_amount(const char *source, long line, int col,
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

/* Checks that a name fits the trace's and the scenario's fields. */
static gp_status check_name(const char *source, long line, int col,
                            const char *name, const char *s, size_t max,
                            gp_error *err)
{
    char quoted[160];

    if (is_null(s)) {
        gp_error_set(err, source, line, col + 1, name, "missing value");
        return GP_ERR_INPUT;
    }
    if (strlen(s) >= max || strpbrk(s, ",\"\r\n")) {
        gp_error_set(err, source, line, col + 1, name,
                     "not a usable name: %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* The charge period [start, end) of a row, checked. */
static gp_status read_period(const char *source, long line, int col_start,
                             const char *name_start, const char *start_s,
                             int col_end, const char *name_end,
                             const char *end_s, int64_t *start, int64_t *step,
                             gp_error *err)
{
    int64_t end;
    gp_status st;

    if ((st = read_time(source, line, col_start, name_start, start_s, start,
                        err)) != GP_OK ||
        (st = read_time(source, line, col_end, name_end, end_s, &end, err)) !=
            GP_OK)
        return st;
    if (end <= *start) {
        /* both read (read_time held them to the second): say which it is,
         * from the times as written */
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

/* ---- FOCUS -------------------------------------------------------------- */

enum {
    F_CATEGORY,
    F_START,
    F_END,
    F_PRICING_CATEGORY,
    F_COMMIT_ID,
    F_COMMIT_CATEGORY,
    F_COMMIT_TYPE,
    F_COMMIT_STATUS,
    F_QUANTITY,
    F_UNIT,
    F_PROVIDER,
    F_REGION,
    F_DESCRIPTION,
    F_EFFECTIVE,
    F_LIST_COST,
    F_SERVICE_CATEGORY,
    F_INSTANCE_TYPE,
    F_N
};

static const char *const focus_names[F_N] = {
    "ChargeCategory",   "ChargePeriodStart",
    "ChargePeriodEnd",  "PricingCategory",
    "CommitmentDiscountId", "CommitmentDiscountCategory",
    "CommitmentDiscountType", "CommitmentDiscountStatus",
    "ConsumedQuantity", "ConsumedUnit",
    "ProviderName",     "RegionId",
    "ChargeDescription", "EffectiveCost",
    "ListCost",         "ServiceCategory",
    "x_InstanceType"};

static const bool focus_required[F_N] = {
    true, true, true, true, true, true, true, false, true,
    true, true, true, true, true, true, false, false};

typedef struct focus_ctx {
    bill b;
    bool have_header;
    size_t n_header;
    int cols[F_N];
} focus_ctx;

/* The instance type a FOCUS usage row bills: the x_InstanceType column when
 * the export has one, else AWS's description (lineItem/LineItemDescription):
 * on demand "$1.624 per On Demand Linux g5.4xlarge Instance Hour" and
 * reservation-covered "Linux/UNIX (Amazon VPC), g5.4xlarge Reserved Instance
 * applied" (the word before the marker), spot "g5.4xlarge Linux/UNIX Spot
 * Instance-hour in US East (N. Virginia) in VPC Zone #1" (the first word).
 * The word must look like family.size (a letter first, so a price such
 * as "$0.35" is not taken).  Copies it into buf; false when
 * there is none. */
static bool focus_instance_type(const char *explicit_type, const char *desc,
                                char *buf, size_t size)
{
    const char *end, *start;

    if (!is_null(explicit_type)) {
        snprintf(buf, size, "%s", explicit_type);
        return true;
    }
    if (strstr(desc, " Spot Instance-hour")) {
        start = desc;
        end = strchr(desc, ' ');
    } else {
        end = strstr(desc, " Instance Hour");
        if (!end)
            end = strstr(desc, " Reserved Instance applied");
        if (!end)
            return false;
        start = end;
        while (start > desc && start[-1] != ' ')
            start--;
    }
    if (!end || end - start < 3 || (size_t)(end - start) >= size ||
        !((*start >= 'a' && *start <= 'z') ||
          (*start >= 'A' && *start <= 'Z')) ||
        !memchr(start, '.', (size_t)(end - start)))
        return false;
    memcpy(buf, start, (size_t)(end - start));
    buf[end - start] = '\0';
    return true;
}

/* The commitment type a FOCUS row names: "Spend" category or a "Savings
 * Plan" type is a savings plan, "Usage" or a reservation type a
 * reservation. */
static bool focus_commitment_type(const char *category, const char *type,
                                  gp_commitment_type *out)
{
    if (strcasecmp(category, "Spend") == 0 || strstr(type, "Savings") ||
        strstr(type, "savings")) {
        *out = GP_COMMIT_SAVINGS_PLAN;
        return true;
    }
    if (strcasecmp(category, "Usage") == 0 || strstr(type, "Reserv") ||
        strstr(type, "reserv")) {
        *out = GP_COMMIT_RESERVED;
        return true;
    }
    return false;
}

/* One FOCUS row. */
static gp_status focus_row(void *pctx, char **f, size_t n, long line,
                           gp_error *err)
{
    focus_ctx *x = pctx;
    bill *b = &x->b;
    const int *c = x->cols;
    const char *src = b->source, *provider, *commit_id, *region;
    char type[64];
    int64_t start, step;
    double quantity, effective, list_cost;
    usage_at at;
    gp_commitment_type ctype = GP_COMMIT_RESERVED;
    bool committed, explicit_type;
    gp_status st;

    if (!x->have_header) {
        if ((st = map_columns(src, line, f, n, focus_names, F_N, x->cols,
                              err)) != GP_OK)
            return st;
        x->have_header = true;
        x->n_header = n;
        if (bill_keep_header(b, f, n, line) != GP_OK)
            return GP_ERR_NOMEM;
        return check_columns(src, line, focus_names, focus_required, F_N,
                             x->cols, "a FOCUS 1.0 export", err);
    }
    if ((st = gp_csv_check_row_width(src, line, n, x->n_header, err)) != GP_OK)
        return st;
    b->rows++;
    commit_id = field(f, n, c[F_COMMIT_ID]);
    committed = !is_null(commit_id) &&
                focus_commitment_type(field(f, n, c[F_COMMIT_CATEGORY]),
                                      field(f, n, c[F_COMMIT_TYPE]), &ctype);
    /* a commitment's own charges (its purchase, its unused part) size it,
     * but are not usage */
    if (committed && (strcasecmp(field(f, n, c[F_CATEGORY]), "Purchase") == 0 ||
                      strcasecmp(field(f, n, c[F_COMMIT_STATUS]), "Unused") ==
                          0)) {
        owned *o;
        b->not_usage++;
        if (!(provider = provider_code(field(f, n, c[F_PROVIDER]))))
            return GP_OK;
        int64_t end;
        if ((st = read_time(src, line, c[F_START], focus_names[F_START],
                            field(f, n, c[F_START]), &start, err)) != GP_OK ||
            (st = read_amount(src, line, c[F_EFFECTIVE],
                              focus_names[F_EFFECTIVE],
                              field(f, n, c[F_EFFECTIVE]), true, &effective,
                              err)) != GP_OK)
            return st;
        /* an unused part over a day is spread over the day's hours; a
         * period that does not read counts as the hour it starts in */
        step = 3600;
        if (!is_null(field(f, n, c[F_END]))) {
            if (read_time(src, line, c[F_END], focus_names[F_END],
                          field(f, n, c[F_END]), &end, err) != GP_OK)
                gp_error_clear(err);
            else if (end > start && end - start <= MAX_CHARGE_PERIOD_S)
                step = end - start;
        }
        if (!(o = bill_owned(b, commit_id, ctype)))
            return GP_ERR_NOMEM;
        snprintf(o->provider, sizeof o->provider, "%s", provider);
        return bill_charge_period(b, o, start, step, 0, effective);
    }
    if (strcasecmp(field(f, n, c[F_CATEGORY]), "Usage") != 0) {
        b->not_usage++;
        return GP_OK;
    }
    if (!unit_is_hours(field(f, n, c[F_UNIT])) ||
        (c[F_SERVICE_CATEGORY] >= 0 &&
         strcasecmp(field(f, n, c[F_SERVICE_CATEGORY]), "Compute") != 0) ||
        !focus_instance_type(field(f, n, c[F_INSTANCE_TYPE]),
                             field(f, n, c[F_DESCRIPTION]), type,
                             sizeof type)) {
        b->not_instance_hours++;
        return GP_OK;
    }
    if (!(provider = provider_code(field(f, n, c[F_PROVIDER])))) {
        b->other_provider++;
        return GP_OK;
    }
    region = field(f, n, c[F_REGION]);
    /* the type goes into the trace as it is: no comma or quote in it */
    explicit_type = !is_null(field(f, n, c[F_INSTANCE_TYPE]));
    if ((st = check_name(
             src, line, c[explicit_type ? F_INSTANCE_TYPE : F_DESCRIPTION],
             focus_names[explicit_type ? F_INSTANCE_TYPE : F_DESCRIPTION],
             explicit_type ? field(f, n, c[F_INSTANCE_TYPE]) : type,
             sizeof type, err)) != GP_OK ||
        (st = check_name(src, line, c[F_REGION], focus_names[F_REGION], region,
                         32, err)) != GP_OK ||
        (st = check_region_case(b, line, c[F_REGION], focus_names[F_REGION],
                                region, region, err)) != GP_OK ||
        (st = read_period(src, line, c[F_START], focus_names[F_START],
                          field(f, n, c[F_START]), c[F_END], focus_names[F_END],
                          field(f, n, c[F_END]), &start, &step, err)) !=
            GP_OK ||
        (st = read_amount(src, line, c[F_QUANTITY], focus_names[F_QUANTITY],
                          field(f, n, c[F_QUANTITY]), false, &quantity, err)) !=
            GP_OK)
        return st;
    if (quantity < 0) {
        gp_error_set(err, src, line, c[F_QUANTITY] + 1,
                     focus_names[F_QUANTITY], "must not be negative, got %s",
                     field(f, n, c[F_QUANTITY]));
        return GP_ERR_INPUT;
    }
    if (!bill_priced(b, provider, region, type))
        return covered_unpriced(b, committed ? commit_id : NULL, ctype);
    at = (usage_at){line,
                    c[F_START],
                    c[F_END],
                    c[F_QUANTITY],
                    focus_names[F_START],
                    focus_names[F_END],
                    focus_names[F_QUANTITY],
                    field(f, n, c[F_QUANTITY])};
    if ((st = bill_add_usage(b, &at, provider, region, type, start, step,
                             quantity, err)) != GP_OK)
        return st;
    b->imported++;
    if (strcasecmp(field(f, n, c[F_PRICING_CATEGORY]), "Dynamic") == 0)
        b->spot++;
    if (committed) {
        owned *o;
        if ((st = read_amount(src, line, c[F_EFFECTIVE],
                              focus_names[F_EFFECTIVE],
                              field(f, n, c[F_EFFECTIVE]), true, &effective,
                              err)) != GP_OK ||
            (st = read_amount(src, line, c[F_LIST_COST],
                              focus_names[F_LIST_COST],
                              field(f, n, c[F_LIST_COST]), true, &list_cost,
                              err)) != GP_OK)
            return st;
        if (!(o = bill_owned(b, commit_id, ctype)))
            return GP_ERR_NOMEM;
        if (step > MAX_CHARGE_PERIOD_S)
            return long_period(src, line, c[F_END], focus_names[F_END], err);
        return bill_cover(b, o, provider, region, type, start, step,
                          quantity, list_cost, effective);
    }
    return GP_OK;
}

/* Reads one file of a FOCUS bill, held in memory or open as a file. */
static gp_status focus_part(void *ctx, const char *text, size_t len, FILE *file,
                            const char *name, gp_error *err)
{
    focus_ctx *x = ctx;
    gp_status st;

    bill_new_part(&x->b, name);
    x->have_header = false;
    st = gp_csv_rows_read(text, len, file, name, focus_row, x, err);
    bill_name_field(&x->b, st, err);
    if (st == GP_OK && !x->have_header) {
        gp_error_set(err, name, 1, 0, NULL,
                     "empty file; expected a FOCUS 1.0 header row");
        st = GP_ERR_INPUT;
    }
    return st;
}

static const char focus_expected[] =
    "usage rows billed in hours whose ChargeDescription names an instance "
    "type, or an x_InstanceType column";

/* ---- AWS Cost and Usage Report ------------------------------------------ */

enum {
    C_TYPE,
    C_START,
    C_END,
    C_PRODUCT,
    C_USAGE_TYPE,
    C_AMOUNT,
    C_AZ,
    C_INSTANCE_TYPE,
    C_REGION_CODE,
    C_REGION,
    C_ON_DEMAND_COST,
    C_LEASE,
    C_PURCHASE_OPTION,
    C_RI_ARN,
    C_RI_COUNT,
    C_RI_START,
    C_RI_END,
    C_RI_EFFECTIVE,
    C_SP_ARN,
    C_SP_COMMITMENT,
    C_SP_EFFECTIVE,
    C_SP_START,
    C_SP_TERM,
    C_SP_PAYMENT,
    C_SP_OFFERING,
    C_SP_FAMILY,
    C_N
};

static const char *const cur_names[C_N] = {
    "lineItem/LineItemType",
    "lineItem/UsageStartDate",
    "lineItem/UsageEndDate",
    "lineItem/ProductCode",
    "lineItem/UsageType",
    "lineItem/UsageAmount",
    "lineItem/AvailabilityZone",
    "product/instanceType",
    "product/regionCode",
    "product/region",
    "pricing/publicOnDemandCost",
    "pricing/LeaseContractLength",
    "pricing/PurchaseOption",
    "reservation/ReservationARN",
    "reservation/NumberOfReservations",
    "reservation/StartTime",
    "reservation/EndTime",
    "reservation/EffectiveCost",
    "savingsPlan/SavingsPlanARN",
    "savingsPlan/TotalCommitmentToDate",
    "savingsPlan/SavingsPlanEffectiveCost",
    "savingsPlan/StartTime",
    "savingsPlan/PurchaseTerm",
    "savingsPlan/PaymentOption",
    "savingsPlan/OfferingType",
    "savingsPlan/InstanceTypeFamily"};

static const bool cur_required[C_N] = {true, true, true, true, true, true};

typedef struct cur_ctx {
    bill b;
    bool have_header;
    size_t n_header;
    int cols[C_N];
} cur_ctx;

/* The instance type of an EC2 usage type such as "BoxUsage:g5.xlarge",
 * "USE2-SpotUsage:p4d.24xlarge", "HeavyUsage:p5.48xlarge" or, in a Local
 * Zone or Wavelength Zone, "USW2-LAX1-BoxUsage:g4dn.xlarge" (the kinds
 * listed in kinds[]); false for any other usage type. */
static bool cur_usage_instance_type(const char *usage_type,
                                    const char *const *kinds, char *buf,
                                    size_t size, bool *spot)
{
    const char *colon = strchr(usage_type, ':'), *dash, *kind;
    size_t klen;

    if (!colon || !colon[1])
        return false;
    /* the kind sits between an optional region (and zone) prefix and the
     * colon: after the last dash before it */
    kind = usage_type;
    for (dash = usage_type; dash < colon; dash++)
        if (*dash == '-')
            kind = dash + 1;
    klen = (size_t)(colon - kind);
    for (size_t i = 0; kinds[i]; i++)
        if (strlen(kinds[i]) == klen && memcmp(kind, kinds[i], klen) == 0) {
            if (strlen(colon + 1) >= size || !strchr(colon + 1, '.'))
                return false;
            snprintf(buf, size, "%s", colon + 1);
            if (spot)
                *spot = strcmp(kinds[i], "SpotUsage") == 0;
            return true;
        }
    return false;
}

/* "1yr" / "3yr" / "1 year": a term in years, 0 when unreadable. */
static int term_from_text(const char *s)
{
    if (s[0] == '1' && (s[1] == 'y' || s[1] == ' '))
        return 1;
    if (s[0] == '3' && (s[1] == 'y' || s[1] == ' '))
        return 3;
    return 0;
}

/* "No Upfront" and friends (and the CUR's "NoUpfront"); -1 when unknown. */
static int payment_from_text(const char *s)
{
    char squeezed[32];
    size_t j = 0;

    for (; *s && j + 1 < sizeof squeezed; s++)
        if (*s != ' ')
            squeezed[j++] =
                (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
    squeezed[j] = '\0';
    if (strcmp(squeezed, "noupfront") == 0)
        return GP_NO_UPFRONT;
    if (strcmp(squeezed, "partialupfront") == 0)
        return GP_PARTIAL_UPFRONT;
    if (strcmp(squeezed, "allupfront") == 0)
        return GP_ALL_UPFRONT;
    return -1;
}

/* The region code of a CUR row: product/regionCode, product/region (a code
 * in CUR 1), or the availability zone without its letter; returns the key
 * of the column it came from (C_N: none). */
static int cur_region(char **f, size_t n, const int *c, char *buf, size_t size)
{
    const char *s = field(f, n, c[C_REGION_CODE]);
    size_t len;

    if (s[0]) {
        snprintf(buf, size, "%s", s);
        return C_REGION_CODE;
    }
    s = field(f, n, c[C_REGION]);
    if (s[0] && !strchr(s, ' ') && !strchr(s, '(')) {
        snprintf(buf, size, "%s", s);
        return C_REGION;
    }
    s = field(f, n, c[C_AZ]);
    len = strlen(s);
    if (len > 1 && s[len - 1] >= 'a' && s[len - 1] <= 'z' &&
        s[len - 2] >= '0' && s[len - 2] <= '9' && len < size) {
        memcpy(buf, s, len - 1);
        buf[len - 1] = '\0';
        return C_AZ;
    }
    buf[0] = '\0';
    return C_N;
}

/* Takes a commitment's term, payment and start from a fee row. */
static gp_status cur_terms(cur_ctx *x, char **f, size_t n, long line,
                           owned *o, int term_key, int payment_key,
                           int start_key, gp_error *err)
{
    int col_term = x->cols[term_key], col_payment = x->cols[payment_key];
    int col_start = x->cols[start_key];
    const char *s;
    int v;
    gp_status st;

    char quoted[96];

    /* a term or payment the bill states but gpuplan cannot read is an
     * error, not the assumed default: it sets what the commitment costs */
    s = field(f, n, col_term);
    if (!is_null(s)) {
        if ((v = term_from_text(s)) == 0) {
            gp_error_set(err, x->b.source, line, col_term + 1,
                         cur_names[term_key],
                         "expected a term of one or three years (\"1yr\" or "
                         "\"3yr\"), got %s",
                         gp_json_quote(s, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        o->term_years = v;
        o->term_known = true;
    }
    s = field(f, n, col_payment);
    if (!is_null(s)) {
        if ((v = payment_from_text(s)) < 0) {
            gp_error_set(err, x->b.source, line, col_payment + 1,
                         cur_names[payment_key],
                         "expected \"No Upfront\", \"Partial Upfront\" or "
                         "\"All Upfront\", got %s",
                         gp_json_quote(s, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        o->payment = (gp_payment)v;
        o->payment_known = true;
    }
    s = field(f, n, col_start);
    if (s[0]) {
        if ((st = read_time(x->b.source, line, col_start, cur_names[start_key],
                            s, &o->start, err)) != GP_OK)
            return st;
        o->start_known = true;
    }
    return GP_OK;
}

/* A fee row: RIFee or SavingsPlanRecurringFee, which describe the
 * commitment itself. */
static gp_status cur_fee_row(cur_ctx *x, char **f, size_t n, long line,
                             bool reservation, gp_error *err)
{
    const int *c = x->cols;
    static const char *const heavy[] = {"HeavyUsage", NULL};
    const char *id = field(f, n, c[reservation ? C_RI_ARN : C_SP_ARN]);
    owned *o;
    char type[64];
    double v;
    gp_status st;

    x->b.not_usage++;
    if (is_null(id))
        return GP_OK;
    if (!(o = bill_owned(&x->b, id, reservation ? GP_COMMIT_RESERVED
                                                : GP_COMMIT_SAVINGS_PLAN)))
        return GP_ERR_NOMEM;
    snprintf(o->provider, sizeof o->provider, "aws");
    if (reservation) {
        if (cur_usage_instance_type(field(f, n, c[C_USAGE_TYPE]), heavy, type,
                                    sizeof type, NULL))
            snprintf(o->instance_type, sizeof o->instance_type, "%s", type);
        /* the owned reservation's region, written to --commitments-out */
        int key = cur_region(f, n, c, o->region, sizeof o->region);
        if (key != C_N && (st = check_region_case(
                               &x->b, line, c[key], cur_names[key], o->region,
                               field(f, n, c[key]), err)) != GP_OK)
            return st;
        if ((st = read_amount(x->b.source, line, c[C_RI_COUNT],
                              cur_names[C_RI_COUNT],
                              field(f, n, c[C_RI_COUNT]), true, &v, err)) !=
            GP_OK)
            return st;
        if (v > 0)
            o->count = v;
        return cur_terms(x, f, n, line, o, C_LEASE, C_PURCHASE_OPTION,
                         C_RI_START, err);
    }
    if ((st = read_amount(x->b.source, line, c[C_SP_COMMITMENT],
                          cur_names[C_SP_COMMITMENT],
                          field(f, n, c[C_SP_COMMITMENT]), true, &v, err)) !=
        GP_OK)
        return st;
    if (v > 0)
        o->hourly = v;
    {
        const char *offering = field(f, n, c[C_SP_OFFERING]);
        if (strstr(offering, "EC2Instance") || strstr(offering, "Instance")) {
            o->kind = GP_PLAN_FAMILY;
            o->kind_known = true;
        } else if (strstr(offering, "Compute")) {
            o->kind = GP_PLAN_COMPUTE;
            o->kind_known = true;
        }
    }
    if (!is_null(field(f, n, c[C_SP_FAMILY])))
        snprintf(o->family, sizeof o->family, "%s",
                 field(f, n, c[C_SP_FAMILY]));
    return cur_terms(x, f, n, line, o, C_SP_TERM, C_SP_PAYMENT, C_SP_START,
                     err);
}

/* One CUR row. */
static gp_status cur_row(void *pctx, char **f, size_t n, long line,
                         gp_error *err)
{
    static const char *const usage_kinds[] = {
        "BoxUsage", "DedicatedUsage", "SpotUsage", "HostBoxUsage", NULL};
    cur_ctx *x = pctx;
    bill *b = &x->b;
    const int *c = x->cols;
    const char *src = b->source, *kind, *id;
    char type[64], region[32];
    int64_t start, step;
    double amount, on_demand_cost, effective;
    usage_at at;
    bool spot = false, ri, sp;
    gp_status st;

    if (!x->have_header) {
        if ((st = map_columns(src, line, f, n, cur_names, C_N, x->cols, err)) !=
            GP_OK)
            return st;
        x->have_header = true;
        x->n_header = n;
        if (bill_keep_header(b, f, n, line) != GP_OK)
            return GP_ERR_NOMEM;
        return check_columns(src, line, cur_names, cur_required, C_N, x->cols,
                             "an AWS Cost and Usage Report", err);
    }
    if ((st = gp_csv_check_row_width(src, line, n, x->n_header, err)) != GP_OK)
        return st;
    b->rows++;
    kind = field(f, n, c[C_TYPE]);
    if (strcmp(kind, "RIFee") == 0)
        return cur_fee_row(x, f, n, line, true, err);
    if (strcmp(kind, "SavingsPlanRecurringFee") == 0)
        return cur_fee_row(x, f, n, line, false, err);
    ri = strcmp(kind, "DiscountedUsage") == 0;
    sp = strcmp(kind, "SavingsPlanCoveredUsage") == 0;
    if (!ri && !sp && strcmp(kind, "Usage") != 0) {
        b->not_usage++;
        return GP_OK;
    }
    if (strcmp(field(f, n, c[C_PRODUCT]), "AmazonEC2") != 0 ||
        !cur_usage_instance_type(field(f, n, c[C_USAGE_TYPE]), usage_kinds,
                                 type, sizeof type, &spot)) {
        b->not_instance_hours++;
        return GP_OK;
    }
    /* product/instanceType, when given, names the type outright */
    if (!is_null(field(f, n, c[C_INSTANCE_TYPE]))) {
        if ((st = check_name(src, line, c[C_INSTANCE_TYPE],
                             cur_names[C_INSTANCE_TYPE],
                             field(f, n, c[C_INSTANCE_TYPE]), sizeof type,
                             err)) != GP_OK)
            return st;
        snprintf(type, sizeof type, "%s", field(f, n, c[C_INSTANCE_TYPE]));
    }
    int region_key = cur_region(f, n, c, region, sizeof region);
    if (!region[0]) {
        gp_error_set(err, src, line,
                     c[C_REGION_CODE] >= 0 ? c[C_REGION_CODE] + 1 : 0,
                     "product/regionCode",
                     "missing value (no region, region code or availability "
                     "zone names where the usage ran)");
        return GP_ERR_INPUT;
    }
    if ((st = check_name(src, line, c[C_REGION_CODE], "product/regionCode",
                         region, sizeof region, err)) != GP_OK ||
        (st = check_region_case(b, line, c[region_key], cur_names[region_key],
                                region, field(f, n, c[region_key]), err)) !=
            GP_OK ||
        (st = read_period(src, line, c[C_START], cur_names[C_START],
                          field(f, n, c[C_START]), c[C_END], cur_names[C_END],
                          field(f, n, c[C_END]), &start, &step, err)) !=
            GP_OK ||
        (st = read_amount(src, line, c[C_AMOUNT], cur_names[C_AMOUNT],
                          field(f, n, c[C_AMOUNT]), false, &amount, err)) !=
            GP_OK)
        return st;
    if (amount < 0) {
        gp_error_set(err, src, line, c[C_AMOUNT] + 1, cur_names[C_AMOUNT],
                     "must not be negative, got %s", field(f, n, c[C_AMOUNT]));
        return GP_ERR_INPUT;
    }
    id = field(f, n, c[ri ? C_RI_ARN : C_SP_ARN]);
    if (!bill_priced(b, "aws", region, type))
        return covered_unpriced(b, (ri || sp) && !is_null(id) ? id : NULL,
                                ri ? GP_COMMIT_RESERVED
                                   : GP_COMMIT_SAVINGS_PLAN);
    at = (usage_at){line,
                    c[C_START],
                    c[C_END],
                    c[C_AMOUNT],
                    cur_names[C_START],
                    cur_names[C_END],
                    cur_names[C_AMOUNT],
                    field(f, n, c[C_AMOUNT])};
    if ((st = bill_add_usage(b, &at, "aws", region, type, start, step, amount,
                             err)) != GP_OK)
        return st;
    b->imported++;
    if (spot)
        b->spot++;
    if ((ri || sp) && !is_null(id)) {
        owned *o;
        int col_effective = c[ri ? C_RI_EFFECTIVE : C_SP_EFFECTIVE];
        if ((st = read_amount(src, line, col_effective,
                              cur_names[ri ? C_RI_EFFECTIVE : C_SP_EFFECTIVE],
                              field(f, n, col_effective), true, &effective,
                              err)) != GP_OK ||
            (st = read_amount(src, line, c[C_ON_DEMAND_COST],
                              cur_names[C_ON_DEMAND_COST],
                              field(f, n, c[C_ON_DEMAND_COST]), true,
                              &on_demand_cost, err)) != GP_OK)
            return st;
        if (!(o = bill_owned(b, id, ri ? GP_COMMIT_RESERVED
                                       : GP_COMMIT_SAVINGS_PLAN)))
            return GP_ERR_NOMEM;
        if (!o->family[0]) {
            const char *dot = strchr(type, '.');
            snprintf(o->family, sizeof o->family, "%.*s",
                     (int)(dot ? (size_t)(dot - type) : strlen(type)), type);
        }
        if (step > MAX_CHARGE_PERIOD_S)
            return long_period(src, line, c[C_END], cur_names[C_END], err);
        return bill_cover(b, o, "aws", region, type, start, step, amount,
                          on_demand_cost, effective);
    }
    return GP_OK;
}

/* Reads one file (one part) of a CUR, held in memory or open as a file. */
static gp_status cur_part(void *ctx, const char *text, size_t len, FILE *file,
                          const char *name, gp_error *err)
{
    cur_ctx *x = ctx;
    gp_status st;

    bill_new_part(&x->b, name);
    x->have_header = false;
    st = gp_csv_rows_read(text, len, file, name, cur_row, x, err);
    bill_name_field(&x->b, st, err);
    if (st == GP_OK && !x->have_header) {
        gp_error_set(err, name, 1, 0, NULL,
                     "empty file; expected an AWS Cost and Usage Report "
                     "header row");
        st = GP_ERR_INPUT;
    }
    return st;
}

static const char cur_expected[] =
    "AmazonEC2 rows with a usage type such as BoxUsage:g5.xlarge";

/* ---- entry points ------------------------------------------------------- */

typedef gp_status (*bill_part_fn)(void *ctx, const char *text, size_t len,
                                  FILE *file, const char *name, gp_error *err);

/* Reads every input file the options name, in order, into one bill (a
 * CUR delivered in several parts is one bill), as the telemetry
 * importers read several files into one trace; the first error wins. */
static gp_status read_files(bill_part_fn part, void *ctx,
                            const gp_import_options *opt, gp_error *err)
{
    gp_status st = GP_OK;

    for (size_t i = 0; i < opt->n_inputs && st == GP_OK; i++) {
        const char *path = opt->inputs[i];
        FILE *f;
        if (strcmp(path, "-") == 0) {
            st = part(ctx, NULL, 0, stdin, path, err);
            continue;
        }
        if (!(f = fopen(path, "rb"))) {
            gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                         strerror(errno));
            return GP_ERR_INPUT;
        }
        st = part(ctx, NULL, 0, f, path, err);
        fclose(f);
    }
    return st;
}

gp_status gp_import_focus(const gp_import_options *opt, FILE *out,
                          gp_error *err)
{
    focus_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = read_files(focus_part, &x, opt, err)) == GP_OK)
        st = bill_finish(&x.b, focus_expected, opt, out, err);
    bill_free(&x.b);
    return st;
}

gp_status gp_import_aws_cur(const gp_import_options *opt, FILE *out,
                            gp_error *err)
{
    cur_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = read_files(cur_part, &x, opt, err)) == GP_OK)
        st = bill_finish(&x.b, cur_expected, opt, out, err);
    bill_free(&x.b);
    return st;
}

gp_status gp_import_focus_buffer(const char *data, size_t len,
                                 const char *name, const gp_import_options *opt,
                                 FILE *out, gp_error *err)
{
    focus_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = focus_part(&x, data, len, NULL, name, err)) == GP_OK)
        st = bill_finish(&x.b, focus_expected, opt, out, err);
    bill_free(&x.b);
    return st;
}

gp_status gp_import_aws_cur_buffer(const char *data, size_t len,
                                   const char *name,
                                   const gp_import_options *opt, FILE *out,
                                   gp_error *err)
{
    cur_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = cur_part(&x, data, len, NULL, name, err)) == GP_OK)
        st = bill_finish(&x.b, cur_expected, opt, out, err);
    bill_free(&x.b);
    return st;
}
