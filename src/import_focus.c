/*
 * import_focus.c: `gpuplan import focus`, a FOCUS 1.0 billing export turned
 * into a usage trace and the commitments it shows as owned (SPEC sections 1
 * and 2).  The rows add up in a bill (import_bill.c), which
 * import_bill_write.c writes out.  See docs/design/import_billing.md.
 */
#include "import_bill_internal.h"

#include <string.h>
#include <strings.h>

/* ---- small helpers ------------------------------------------------------ */

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

/* A FOCUS export being read: its bill and its header's columns. */
typedef struct focus_ctx {
    bill b; /* its header row read when b.header_line > 0 */
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

/* What a FOCUS usage row bills, as focus_is_usage and focus_usage_read
 * read it. */
typedef struct focus_usage {
    const char *provider, *region;
    char type[64];
    int64_t start, step;
    double quantity;
} focus_usage;

/* The header row: maps and keeps its columns, then checks that the ones a
 * FOCUS 1.0 export must have are there. */
static gp_status focus_header(focus_ctx *x, char **f, size_t n, long line,
                              gp_error *err)
{
    return gp_bill_read_header(&x->b, line, f, n, focus_names, focus_required,
                               F_N, x->cols, "a FOCUS 1.0 export", err);
}

/* A row of a commitment's own charges (its purchase, its unused part):
 * counted as not usage, and charged to commitment commit_id (of type
 * ctype) over its period, as it sizes the commitment. */
static gp_status focus_commitment_charge(focus_ctx *x, char **f, size_t n,
                                         long line, const char *commit_id,
                                         gp_commitment_type ctype,
                                         gp_error *err)
{
    bill *b = &x->b;
    const int *c = x->cols;
    const char *src = b->source, *provider;
    int64_t start, step, end;
    double effective;
    owned *o;
    gp_status st;

    b->not_usage++;
    if (!(provider = provider_code(field(f, n, c[F_PROVIDER]))))
        return GP_OK;
    if ((st = gp_bill_read_time(src, line, c[F_START], focus_names[F_START],
                                field(f, n, c[F_START]), &start, err)) !=
            GP_OK ||
        (st = gp_bill_read_amount(
             src, line, c[F_EFFECTIVE], focus_names[F_EFFECTIVE],
             field(f, n, c[F_EFFECTIVE]), true, &effective, err)) != GP_OK)
        return st;
    /* an unused part over a day is spread over the day's hours; a
     * period that does not read counts as the hour it starts in */
    step = 3600;
    if (!is_null(field(f, n, c[F_END]))) {
        if (gp_bill_read_time(src, line, c[F_END], focus_names[F_END],
                              field(f, n, c[F_END]), &end, err) != GP_OK)
            gp_error_clear(err);
        else if (end > start && end - start <= MAX_CHARGE_PERIOD_S)
            step = end - start;
    }
    if (!(o = gp_bill_owned(b, commit_id, ctype)))
        return GP_ERR_NOMEM;
    snprintf(o->provider, sizeof o->provider, "%s", provider);
    return gp_bill_charge_period(b, o, start, step, 0, effective);
}

/* Whether a row is usage in compute instance-hours of a provider gpuplan
 * prices; a row that is not is counted (not usage, not instance-hours,
 * another provider).  Sets u's type and provider. */
static bool focus_is_usage(focus_ctx *x, char **f, size_t n, focus_usage *u)
{
    bill *b = &x->b;
    const int *c = x->cols;

    if (strcasecmp(field(f, n, c[F_CATEGORY]), "Usage") != 0) {
        b->not_usage++;
        return false;
    }
    if (!unit_is_hours(field(f, n, c[F_UNIT])) ||
        (c[F_SERVICE_CATEGORY] >= 0 &&
         strcasecmp(field(f, n, c[F_SERVICE_CATEGORY]), "Compute") != 0) ||
        !focus_instance_type(field(f, n, c[F_INSTANCE_TYPE]),
                             field(f, n, c[F_DESCRIPTION]), u->type,
                             sizeof u->type)) {
        b->not_instance_hours++;
        return false;
    }
    if (!(u->provider = provider_code(field(f, n, c[F_PROVIDER])))) {
        b->other_provider++;
        return false;
    }
    return true;
}

/* Reads the rest of what a usage row bills into u and checks it: the type
 * and region as names, the charge period, the quantity (not negative). */
static gp_status focus_usage_read(focus_ctx *x, char **f, size_t n, long line,
                                  focus_usage *u, gp_error *err)
{
    const int *c = x->cols;
    const char *src = x->b.source;
    bool explicit_type;
    gp_status st;

    u->region = field(f, n, c[F_REGION]);
    /* the type goes into the trace as it is: no comma or quote in it */
    explicit_type = !is_null(field(f, n, c[F_INSTANCE_TYPE]));
    if ((st = gp_bill_check_name(
             src, line, c[explicit_type ? F_INSTANCE_TYPE : F_DESCRIPTION],
             focus_names[explicit_type ? F_INSTANCE_TYPE : F_DESCRIPTION],
             explicit_type ? field(f, n, c[F_INSTANCE_TYPE]) : u->type,
             sizeof u->type, err)) != GP_OK ||
        (st = gp_bill_check_name(src, line, c[F_REGION], focus_names[F_REGION],
                                 u->region, 32, err)) != GP_OK ||
        (st = gp_bill_check_region_case(&x->b, line, c[F_REGION],
                                        focus_names[F_REGION], u->region,
                                        u->region, err)) != GP_OK ||
        (st = gp_bill_read_period(src, line, c[F_START], focus_names[F_START],
                                  field(f, n, c[F_START]), c[F_END],
                                  focus_names[F_END], field(f, n, c[F_END]),
                                  &u->start, &u->step, err)) != GP_OK ||
        (st = gp_bill_read_amount(
             src, line, c[F_QUANTITY], focus_names[F_QUANTITY],
             field(f, n, c[F_QUANTITY]), false, &u->quantity, err)) != GP_OK)
        return st;
    if (u->quantity < 0) {
        gp_error_set(err, src, line, c[F_QUANTITY] + 1, focus_names[F_QUANTITY],
                     "must not be negative, got %s",
                     field(f, n, c[F_QUANTITY]));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* A usage row u that commitment commit_id (of type ctype) covered: the
 * commitment takes the instance-hours, their list cost and the effective
 * cost charged. */
static gp_status focus_cover(focus_ctx *x, char **f, size_t n, long line,
                             const char *commit_id, gp_commitment_type ctype,
                             const focus_usage *u, gp_error *err)
{
    bill *b = &x->b;
    const int *c = x->cols;
    const char *src = b->source;
    double effective, list_cost;
    owned *o;
    gp_status st;

    if ((st = gp_bill_read_amount(
             src, line, c[F_EFFECTIVE], focus_names[F_EFFECTIVE],
             field(f, n, c[F_EFFECTIVE]), true, &effective, err)) != GP_OK ||
        (st = gp_bill_read_amount(
             src, line, c[F_LIST_COST], focus_names[F_LIST_COST],
             field(f, n, c[F_LIST_COST]), true, &list_cost, err)) != GP_OK)
        return st;
    /* what the hours would cost on demand: never below zero (a credit is
     * a row of its own, not a usage row's list cost) */
    if (list_cost < 0) {
        gp_error_set(err, src, line, c[F_LIST_COST] + 1,
                     focus_names[F_LIST_COST],
                     "must not be negative (the on-demand cost of the "
                     "hours), got %s", field(f, n, c[F_LIST_COST]));
        return GP_ERR_INPUT;
    }
    if (!(o = gp_bill_owned(b, commit_id, ctype)))
        return GP_ERR_NOMEM;
    if (u->step > MAX_CHARGE_PERIOD_S)
        return gp_bill_long_period(src, line, c[F_END], focus_names[F_END],
                                   err);
    return gp_bill_cover(b, o, u->provider, u->region, u->type, u->start,
                         u->step, u->quantity, list_cost, effective);
}

/* One FOCUS row. */
static gp_status focus_row(void *pctx, char **f, size_t n, long line,
                           gp_error *err)
{
    focus_ctx *x = pctx;
    bill *b = &x->b;
    const int *c = x->cols;
    const char *commit_id;
    focus_usage u;
    usage_at at;
    gp_commitment_type ctype = GP_COMMIT_RESERVED;
    bool committed;
    gp_status st;

    if (b->header_line == 0)
        return focus_header(x, f, n, line, err);
    if ((st = gp_csv_check_row_width(b->source, line, n, b->n_header, err)) !=
        GP_OK)
        return st;
    b->rows++;
    commit_id = field(f, n, c[F_COMMIT_ID]);
    committed = !is_null(commit_id) &&
                focus_commitment_type(field(f, n, c[F_COMMIT_CATEGORY]),
                                      field(f, n, c[F_COMMIT_TYPE]), &ctype);
    /* a commitment's own charges (its purchase, its unused part) size it,
     * but are not usage */
    if (committed &&
        (strcasecmp(field(f, n, c[F_CATEGORY]), "Purchase") == 0 ||
         strcasecmp(field(f, n, c[F_COMMIT_STATUS]), "Unused") == 0))
        return focus_commitment_charge(x, f, n, line, commit_id, ctype, err);
    if (!focus_is_usage(x, f, n, &u))
        return GP_OK;
    if ((st = focus_usage_read(x, f, n, line, &u, err)) != GP_OK)
        return st;
    if (!gp_bill_priced(b, u.provider, u.region, u.type))
        return gp_bill_covered_unpriced(b, committed ? commit_id : NULL, ctype);
    at = (usage_at){line,
                    c[F_START],
                    c[F_END],
                    c[F_QUANTITY],
                    focus_names[F_START],
                    focus_names[F_END],
                    focus_names[F_QUANTITY],
                    field(f, n, c[F_QUANTITY])};
    if ((st = gp_bill_add_usage(b, &at, u.provider, u.region, u.type, u.start,
                                u.step, u.quantity, err)) != GP_OK)
        return st;
    b->imported++;
    if (strcasecmp(field(f, n, c[F_PRICING_CATEGORY]), "Dynamic") == 0)
        b->spot++;
    if (committed)
        return focus_cover(x, f, n, line, commit_id, ctype, &u, err);
    return GP_OK;
}

/* Reads one file of a FOCUS bill, a buffer or a file streamed. */
static gp_status focus_part(void *ctx, gp_source *src, gp_error *err)
{
    const char *name = src->name;
    focus_ctx *x = ctx;
    gp_status st;

    gp_bill_new_part(&x->b, name);
    st = gp_csv_rows_read(src, focus_row, x, err);
    gp_bill_name_field(&x->b, st, err);
    if (st == GP_OK && x->b.header_line == 0) {
        gp_error_set(err, name, 1, 0, NULL,
                     "empty file; expected a FOCUS 1.0 header row");
        st = GP_ERR_INPUT;
    }
    return st;
}

static const char focus_expected[] =
    "usage rows billed in hours whose ChargeDescription names an instance "
    "type, or an x_InstanceType column";

/* ---- entry points ------------------------------------------------------- */

gp_status gp_import_focus(const gp_import_options *opt, FILE *out,
                          gp_error *err)
{
    focus_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = gp_bill_read_files(focus_part, &x, opt, err)) == GP_OK)
        st = gp_bill_finish(&x.b, focus_expected, opt, out, err);
    gp_bill_free(&x.b);
    return st;
}

gp_status gp_import_focus_buffer(const char *data, size_t len, const char *name,
                                 const gp_import_options *opt, FILE *out,
                                 gp_error *err)
{
    focus_ctx x;
    gp_source src;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    gp_source_buffer(&src, data, len, name, GP_SOURCE_IMPORT_STREAM);
    if ((st = focus_part(&x, &src, err)) == GP_OK)
        st = gp_bill_finish(&x.b, focus_expected, opt, out, err);
    gp_bill_free(&x.b);
    return st;
}
