/*
 * import_cur.c: `gpuplan import aws-cur`, an AWS Cost and Usage Report (CUR
 * 1 or 2.0, one file or several parts) turned into a usage trace and the
 * reservations and savings plans it shows as owned (SPEC sections 1 and 2).
 * The rows add up in a bill (import_bill.c), which import_bill_write.c
 * writes out.  See docs/design/import_billing.md.
 */
#include "import_bill_internal.h"

#include <string.h>

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

/* A CUR being read: its bill and its header's columns. */
typedef struct cur_ctx {
    bill b; /* its header row read when b.header_line > 0 */
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
static gp_status cur_terms(cur_ctx *x, char **f, size_t n, long line, owned *o,
                           int term_key, int payment_key, int start_key,
                           gp_error *err)
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
        if ((st = gp_bill_read_time(x->b.source, line, col_start,
                                    cur_names[start_key], s, &o->start, err)) !=
            GP_OK)
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
    if (!(o = gp_bill_owned(&x->b, id,
                            reservation ? GP_COMMIT_RESERVED
                                        : GP_COMMIT_SAVINGS_PLAN)))
        return GP_ERR_NOMEM;
    snprintf(o->provider, sizeof o->provider, "aws");
    if (reservation) {
        if (cur_usage_instance_type(field(f, n, c[C_USAGE_TYPE]), heavy, type,
                                    sizeof type, NULL)) {
            if ((st = gp_bill_check_name(x->b.source, line, c[C_USAGE_TYPE],
                                         cur_names[C_USAGE_TYPE], type,
                                         sizeof o->instance_type, err)) !=
                GP_OK)
                return st;
            snprintf(o->instance_type, sizeof o->instance_type, "%s", type);
        }
        /* the owned reservation's region, written to commitments-out */
        int key = cur_region(f, n, c, o->region, sizeof o->region);
        if (key != C_N && (st = gp_bill_check_region_case(
                               &x->b, line, c[key], cur_names[key], o->region,
                               field(f, n, c[key]), err)) != GP_OK)
            return st;
        if ((st = gp_bill_read_amount(
                 x->b.source, line, c[C_RI_COUNT], cur_names[C_RI_COUNT],
                 field(f, n, c[C_RI_COUNT]), true, &v, err)) != GP_OK)
            return st;
        if (v > 0)
            o->count = v;
        return cur_terms(x, f, n, line, o, C_LEASE, C_PURCHASE_OPTION,
                         C_RI_START, err);
    }
    if ((st = gp_bill_read_amount(
             x->b.source, line, c[C_SP_COMMITMENT], cur_names[C_SP_COMMITMENT],
             field(f, n, c[C_SP_COMMITMENT]), true, &v, err)) != GP_OK)
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

/* What a CUR usage row bills, as cur_is_instance_hours and cur_usage_read
 * read it. */
typedef struct cur_usage {
    char type[64], region[32];
    int64_t start, step;
    double amount;
    bool spot;
} cur_usage;

/* The header row: maps and keeps its columns, then checks that the ones a
 * CUR must have are there. */
static gp_status cur_header(cur_ctx *x, char **f, size_t n, long line,
                            gp_error *err)
{
    return gp_bill_read_header(&x->b, line, f, n, cur_names, cur_required, C_N,
                               x->cols, "an AWS Cost and Usage Report", err);
}

/* Whether a usage row is EC2 instance-hours; sets u's type (from the usage
 * type) and whether it is spot, and counts a row that is not. */
static bool cur_is_instance_hours(cur_ctx *x, char **f, size_t n, cur_usage *u)
{
    static const char *const usage_kinds[] = {
        "BoxUsage", "DedicatedUsage", "SpotUsage", "HostBoxUsage", NULL};
    const int *c = x->cols;

    if (strcmp(field(f, n, c[C_PRODUCT]), "AmazonEC2") != 0 ||
        !cur_usage_instance_type(field(f, n, c[C_USAGE_TYPE]), usage_kinds,
                                 u->type, sizeof u->type, &u->spot)) {
        x->b.not_instance_hours++;
        return false;
    }
    return true;
}

/* Reads the rest of what a usage row bills into u and checks it: the type
 * product/instanceType names, the region, the charge period and the usage
 * amount (not negative). */
static gp_status cur_usage_read(cur_ctx *x, char **f, size_t n, long line,
                                cur_usage *u, gp_error *err)
{
    const int *c = x->cols;
    const char *src = x->b.source;
    gp_status st;

    /* product/instanceType, when given, names the type outright */
    if (!is_null(field(f, n, c[C_INSTANCE_TYPE]))) {
        if ((st = gp_bill_check_name(src, line, c[C_INSTANCE_TYPE],
                                     cur_names[C_INSTANCE_TYPE],
                                     field(f, n, c[C_INSTANCE_TYPE]),
                                     sizeof u->type, err)) != GP_OK)
            return st;
        snprintf(u->type, sizeof u->type, "%s",
                 field(f, n, c[C_INSTANCE_TYPE]));
    } else if ((st = gp_bill_check_name(src, line, c[C_USAGE_TYPE],
                                        cur_names[C_USAGE_TYPE], u->type,
                                        sizeof u->type, err)) != GP_OK) {
        return st; /* the type lineItem/UsageType names */
    }
    int region_key = cur_region(f, n, c, u->region, sizeof u->region);
    if (!u->region[0]) {
        gp_error_set(err, src, line,
                     c[C_REGION_CODE] >= 0 ? c[C_REGION_CODE] + 1 : 0,
                     "product/regionCode",
                     "missing value (no region, region code or availability "
                     "zone names where the usage ran)");
        return GP_ERR_INPUT;
    }
    if ((st = gp_bill_check_name(src, line, c[C_REGION_CODE],
                                 "product/regionCode", u->region,
                                 sizeof u->region, err)) != GP_OK ||
        (st = gp_bill_check_region_case(
             &x->b, line, c[region_key], cur_names[region_key], u->region,
             field(f, n, c[region_key]), err)) != GP_OK ||
        (st = gp_bill_read_period(src, line, c[C_START], cur_names[C_START],
                                  field(f, n, c[C_START]), c[C_END],
                                  cur_names[C_END], field(f, n, c[C_END]),
                                  &u->start, &u->step, err)) != GP_OK ||
        (st = gp_bill_read_amount(src, line, c[C_AMOUNT], cur_names[C_AMOUNT],
                                  field(f, n, c[C_AMOUNT]), false, &u->amount,
                                  err)) != GP_OK)
        return st;
    if (u->amount < 0) {
        gp_error_set(err, src, line, c[C_AMOUNT] + 1, cur_names[C_AMOUNT],
                     "must not be negative, got %s", field(f, n, c[C_AMOUNT]));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* A usage row u that reservation (ri) or savings plan `id` covered: the
 * commitment takes the instance-hours, their on-demand cost and the
 * effective cost charged, and the type's family when it has none. */
static gp_status cur_cover(cur_ctx *x, char **f, size_t n, long line,
                           const char *id, bool ri, const cur_usage *u,
                           gp_error *err)
{
    bill *b = &x->b;
    const int *c = x->cols;
    const char *src = b->source;
    double on_demand_cost, effective;
    owned *o;
    gp_status st;
    int col_effective = c[ri ? C_RI_EFFECTIVE : C_SP_EFFECTIVE];

    if ((st = gp_bill_read_amount(
             src, line, col_effective,
             cur_names[ri ? C_RI_EFFECTIVE : C_SP_EFFECTIVE],
             field(f, n, col_effective), true, &effective, err)) != GP_OK ||
        (st = gp_bill_read_amount(src, line, c[C_ON_DEMAND_COST],
                                  cur_names[C_ON_DEMAND_COST],
                                  field(f, n, c[C_ON_DEMAND_COST]), true,
                                  &on_demand_cost, err)) != GP_OK)
        return st;
    if (!(o = gp_bill_owned(b, id,
                            ri ? GP_COMMIT_RESERVED : GP_COMMIT_SAVINGS_PLAN)))
        return GP_ERR_NOMEM;
    if (!o->family[0]) {
        const char *dot = strchr(u->type, '.');
        snprintf(o->family, sizeof o->family, "%.*s",
                 (int)(dot ? (size_t)(dot - u->type) : strlen(u->type)),
                 u->type);
    }
    if (u->step > MAX_CHARGE_PERIOD_S)
        return gp_bill_long_period(src, line, c[C_END], cur_names[C_END], err);
    return gp_bill_cover(b, o, "aws", u->region, u->type, u->start, u->step,
                         u->amount, on_demand_cost, effective);
}

/* One CUR row. */
static gp_status cur_row(void *pctx, char **f, size_t n, long line,
                         gp_error *err)
{
    cur_ctx *x = pctx;
    bill *b = &x->b;
    const int *c = x->cols;
    const char *kind, *id;
    cur_usage u;
    usage_at at;
    bool ri, sp;
    gp_status st;

    if (b->header_line == 0)
        return cur_header(x, f, n, line, err);
    if ((st = gp_csv_check_row_width(b->source, line, n, b->n_header, err)) !=
        GP_OK)
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
    u.spot = false;
    if (!cur_is_instance_hours(x, f, n, &u))
        return GP_OK;
    if ((st = cur_usage_read(x, f, n, line, &u, err)) != GP_OK)
        return st;
    id = field(f, n, c[ri ? C_RI_ARN : C_SP_ARN]);
    if (!gp_bill_priced(b, "aws", u.region, u.type))
        return gp_bill_covered_unpriced(
            b, (ri || sp) && !is_null(id) ? id : NULL,
            ri ? GP_COMMIT_RESERVED : GP_COMMIT_SAVINGS_PLAN);
    at = (usage_at){line,
                    c[C_START],
                    c[C_END],
                    c[C_AMOUNT],
                    cur_names[C_START],
                    cur_names[C_END],
                    cur_names[C_AMOUNT],
                    field(f, n, c[C_AMOUNT])};
    if ((st = gp_bill_add_usage(b, &at, "aws", u.region, u.type, u.start,
                                u.step, u.amount, err)) != GP_OK)
        return st;
    b->imported++;
    if (u.spot)
        b->spot++;
    if ((ri || sp) && !is_null(id))
        return cur_cover(x, f, n, line, id, ri, &u, err);
    return GP_OK;
}

/* Reads one file (one part) of a CUR, a buffer or a file streamed. */
static gp_status cur_part(void *ctx, gp_source *src, gp_error *err)
{
    const char *name = src->name;
    cur_ctx *x = ctx;
    gp_status st;

    gp_bill_new_part(&x->b, name);
    st = gp_csv_rows_read(src, cur_row, x, err);
    gp_bill_name_field(&x->b, st, err);
    if (st == GP_OK && x->b.header_line == 0) {
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

gp_status gp_import_aws_cur(const gp_import_options *opt, FILE *out,
                            gp_error *err)
{
    cur_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    if ((st = gp_bill_read_files(cur_part, &x, opt, err)) == GP_OK)
        st = gp_bill_finish(&x.b, cur_expected, opt, out, err);
    gp_bill_free(&x.b);
    return st;
}

gp_status gp_import_aws_cur_buffer(const char *data, size_t len,
                                   const char *name,
                                   const gp_import_options *opt, FILE *out,
                                   gp_error *err)
{
    cur_ctx x;
    gp_source src;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.b.pricing = opt->pricing;
    gp_source_buffer(&src, data, len, name, GP_SOURCE_IMPORT_STREAM);
    if ((st = cur_part(&x, &src, err)) == GP_OK)
        st = gp_bill_finish(&x.b, cur_expected, opt, out, err);
    gp_bill_free(&x.b);
    return st;
}
