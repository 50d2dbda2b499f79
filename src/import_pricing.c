/*
 * import_pricing.c: `gpuplan import aws-offer` and `gpuplan import
 * spot-advisor`, AWS's published prices turned into a gpuplan catalog
 * (SPEC section 3).
 *
 * aws-offer reads AWS Price List CSVs: the EC2 offer file (OfferCode
 * AmazonEC2: one row per SKU and offer term; an OnDemand row, and for each
 * reserved term an "Hrs" row with the recurring rate and, for upfront
 * payments, a "Quantity" row with the upfront fee) and the savings-plan
 * rate file (OfferCode AmazonComputeSavingsPlan: one row per plan and the
 * usage type it discounts).  Files are streamed, as a region's offer file
 * runs to gigabytes.  Of the offer rows only the ones a gpuplan price means
 * count: compute instances running Linux with shared tenancy, no
 * pre-installed software, no bring-your-own licence, capacity status
 * "Used" and market option OnDemand; of the reserved offers only the
 * standard class (convertible reservations are left out, as a catalog has
 * one reserved price per term and payment).  Of the savings-plan rows only
 * the ones discounting the same usage: "BoxUsage:<type>" with operation
 * "RunInstances" (Linux).  A type whose GPU column is empty or 0 is not a
 * GPU type and is left out (and counted).  One catalog is one region: with
 * --region the rows of other regions are skipped; without it the file must
 * hold a single region.  These are list prices, so `estimate` is false.
 *
 * spot-advisor reads the Spot Instance Advisor feed (per region and type,
 * `s` = % saved against on-demand and `r` = an index into `ranges`, the
 * monthly interruption buckets) together with a base catalog of the same
 * region, and writes the catalog back with spot sections: hourly =
 * on_demand x (1 - s/100), rounded to a millionth of a dollar, and
 * interruption_rate_monthly = the middle of the bucket ("<5%" -> 0.025,
 * "5-10%" -> 0.075, ">20%" -> 0.25: five points above the bound).  Both
 * are estimates.  A type that already has a spot price history keeps it
 * and only takes the interruption rate; types the advisor does not list
 * keep whatever spot section they had.
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

#define MAX_PREAMBLE_ROWS 20
#define MAX_REGIONS_LISTED 6

/* ---- small helpers ------------------------------------------------------ */

/* The last path component of a file name, for sources. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The field of column col ("" when the file lacks the column). */
static const char *field(char **f, size_t n, int col)
{
    return col >= 0 && (size_t)col < n ? f[col] : "";
}

/* The column named `name` in a header row, or -1. */
static int column(char **f, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i], name) == 0)
            return (int)i;
    return -1;
}

/* Puts the column named `name` in a header row in *col (-1 when there is
 * none); the column there twice is an error, since which of the two a
 * row's value came from would be a guess. */
static gp_status column_once(const char *source, long line, char **f, size_t n,
                             const char *name, int *col, gp_error *err)
{
    *col = -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i], name) != 0)
            continue;
        if (*col >= 0) {
            gp_error_set(err, source, line, (long)i + 1, name,
                         "the column is there twice (also column %d)",
                         *col + 1);
            return GP_ERR_INPUT;
        }
        *col = (int)i;
    }
    return GP_OK;
}

/* Rounds dollars to a millionth. */
static double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

/* "No Upfront" -> GP_NO_UPFRONT ...; -1 for anything else. */
static int payment_from_text(const char *s)
{
    if (strcmp(s, "No Upfront") == 0)
        return GP_NO_UPFRONT;
    if (strcmp(s, "Partial Upfront") == 0)
        return GP_PARTIAL_UPFRONT;
    if (strcmp(s, "All Upfront") == 0)
        return GP_ALL_UPFRONT;
    return -1;
}

/* ---- the catalog being built -------------------------------------------- */

/* A reserved offer (one term and payment) as its rows arrive. */
typedef struct offer_reserved {
    bool have_hourly, have_upfront;
    double hourly, upfront;
} offer_reserved;

/* One instance type of the catalog being built. */
typedef struct offer_type {
    char name[64];
    char family[32];
    int gpus;
    double vcpus, memory_gib, normalization;
    bool have_on_demand;
    double on_demand;
    long on_demand_line;
    offer_reserved reserved[2][3];          /* [term 1y/3y][payment] */
    bool have_plan[2][2][3];                /* [kind][term][payment] */
    double plan[2][2][3];
} offer_type;

/* The columns of an offer file the importer reads. */
enum {
    O_TERM_TYPE,
    O_UNIT,
    O_PRICE,
    O_CURRENCY,
    O_LEASE,
    O_PURCHASE,
    O_CLASS,
    O_PRODUCT_FAMILY,
    O_TYPE,
    O_VCPU,
    O_MEMORY,
    O_TENANCY,
    O_OS,
    O_LICENSE,
    O_SOFTWARE,
    O_CAPACITY,
    O_GPU,
    O_REGION,
    O_NORMALIZATION,
    O_MARKET,
    O_N
};

static const char *const offer_names[O_N] = {
    "TermType",        "Unit",          "PricePerUnit",
    "Currency",        "LeaseContractLength", "PurchaseOption",
    "OfferingClass",   "Product Family", "Instance Type",
    "vCPU",            "Memory",        "Tenancy",
    "Operating System", "License Model", "Pre Installed S/W",
    "CapacityStatus",  "GPU",           "Region Code",
    "Normalization Size Factor", "MarketOption"};

/* Offer columns a file must have (the rest are read when present). */
static const bool offer_required[O_N] = {
    true, true, true, true, true, true, false, true, true, false,
    false, true, true, true, true,  true, true,  true, false, false};

/* The columns of a savings-plan rate file. */
enum {
    S_RATE,
    S_UNIT,
    S_CURRENCY,
    S_USAGE_TYPE,
    S_OPERATION,
    S_PURCHASE,
    S_LEASE,
    S_LEASE_UNIT,
    S_PRODUCT_FAMILY,
    S_REGION,
    S_TYPE,
    S_N
};

static const char *const plan_names[S_N] = {
    "DiscountedRate",      "Unit",
    "Currency",            "DiscountedUsageType",
    "DiscountedOperation", "PurchaseOption",
    "LeaseContractLength", "LeaseContractLengthUnit",
    "Product Family",      "DiscountedRegionCode",
    "DiscountedInstanceType"};

/* A savings-plan rate waiting for its type's on-demand row. */
typedef struct plan_rate {
    char type[64];
    char region[32];
    int kind, term, payment;
    double rate;
    long line, column;
    const char *source;
} plan_rate;

typedef enum file_kind { FILE_UNKNOWN, FILE_OFFER, FILE_PLANS } file_kind;

typedef struct offer_ctx {
    const gp_import_options *opt;
    /* the file being read */
    const char *source;
    file_kind kind;
    long rows_before_header;
    long header_line;
    size_t n_header;
    char publication[48]; /* the preamble's "Publication Date" */
    char offer_code[64];
    int cols[(int)O_N > (int)S_N ? (int)O_N : (int)S_N];
    /* the catalog */
    char region[32];
    char currency[8];
    char as_of[16];
    offer_type *types;
    size_t n_types, cap_types;
    gp_strmap type_index;
    plan_rate *plans;
    size_t n_plans, cap_plans;
    char regions_seen[MAX_REGIONS_LISTED][32];
    size_t n_regions;
    char sources[4][320];
    size_t n_sources;
    /* counts for the summary */
    unsigned long rows, offer_rows, not_gpu, other_rows, convertible;
    unsigned long fractional; /* rows of types with a share of one GPU */
} offer_ctx;

/* Records a region seen among the rows that pass the filters; returns
 * whether rows of this region are the ones kept. */
static bool offer_region(offer_ctx *x, const char *region)
{
    const char *want = x->opt->region;

    if (want && want[0])
        return strcmp(region, want) == 0;
    for (size_t i = 0; i < x->n_regions; i++)
        if (strcmp(x->regions_seen[i], region) == 0)
            return i == 0;
    if (x->n_regions < MAX_REGIONS_LISTED)
        snprintf(x->regions_seen[x->n_regions], sizeof x->regions_seen[0],
                 "%s", region);
    x->n_regions++;
    return x->n_regions == 1;
}

/* The catalog's entry for type `name`, created when new; NULL when out of
 * memory. */
static offer_type *offer_type_get(offer_ctx *x, const char *name)
{
    uint32_t at;
    size_t len = strlen(name);
    offer_type *t;
    const char *dot;

    if (gp_strmap_get(&x->type_index, name, len, &at))
        return &x->types[at];
    if (gp_grow((void **)&x->types, &x->cap_types, x->n_types + 1,
                sizeof *x->types) != GP_OK ||
        gp_strmap_put(&x->type_index, name, len, (uint32_t)x->n_types) !=
            GP_OK)
        return NULL;
    t = &x->types[x->n_types++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    dot = strchr(name, '.');
    snprintf(t->family, sizeof t->family, "%.*s",
             (int)(dot ? (size_t)(dot - name) : len), name);
    return t;
}

/* Parses a price field that must be a number >= 0 (and at most
 * GP_NUMBER_MAX, as catalogs are). */
static gp_status read_price(offer_ctx *x, long line, int col,
                            const char *name, const char *s, double *out,
                            gp_error *err)
{
    char quoted[160];

    if (!gp_parse_number(s, strlen(s), out) || *out < 0) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "expected a price (a number >= 0), got %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (*out > GP_NUMBER_MAX) {
        /* catalog.c's limit: what is written must load */
        gp_error_set(err, x->source, line, col + 1, name,
                     "must be at most " GP_NUMBER_MAX_TEXT ", got %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Reads an optional size attribute of an instance type (vCPU, Memory,
 * Normalization Size Factor): empty or "NA" leaves *out as it is; otherwise
 * a number above 0 and at most GP_NUMBER_MAX (as catalogs take), followed
 * by `unit` when that is not NULL ("768 GiB"; thousands may be grouped with
 * commas).  Anything else is an error: a
 * normalization factor dropped without a word would take the reservations'
 * size flexibility with it. */
static gp_status read_size(offer_ctx *x, long line, int col, const char *name,
                           const char *s, const char *unit, double *out,
                           gp_error *err)
{
    char num[64] = "", quoted[160];
    size_t len = strlen(s), k = 0, ul = unit ? strlen(unit) : 0;
    double v;

    if (len == 0 || strcmp(s, "NA") == 0)
        return GP_OK;
    bool ok = !unit || (len > ul && strcmp(s + len - ul, unit) == 0);
    for (size_t i = 0; ok && i < len - ul; i++)
        if (s[i] != ',' && k + 1 < sizeof num)
            num[k++] = s[i];
    if (!ok || !gp_parse_number(num, k, &v) || !(v > 0)) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "expected a number above 0%s%s%s, or NA, got %s",
                     unit ? " followed by \"" : "", unit ? unit : "",
                     unit ? "\"" : "", gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (v > GP_NUMBER_MAX) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "must be at most " GP_NUMBER_MAX_TEXT ", got %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    *out = v;
    return GP_OK;
}

/* Checks the currency of a row against the catalog's. */
static gp_status check_currency(offer_ctx *x, long line, int col,
                                const char *name, const char *s,
                                gp_error *err)
{
    char quoted[160];

    if (strlen(s) != 3 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' ||
        s[1] > 'Z' || s[2] < 'A' || s[2] > 'Z') {
        gp_error_set(err, x->source, line, col + 1, name,
                     "expected a 3-letter currency code, got %s",
                     gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!x->currency[0])
        snprintf(x->currency, sizeof x->currency, "%s", s);
    else if (strcmp(x->currency, s) != 0) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "prices in %s and %s; a catalog has one currency",
                     x->currency, s);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Checks that a name the catalog will hold (its region, a type's name) is
 * UTF-8: a JSON catalog holds no other text, and one that is not would be
 * left out of it without a word (the region key, then the loader's
 * "missing required key"; a type, then the type). */
static gp_status check_utf8(offer_ctx *x, long line, int col, const char *name,
                            const char *s, gp_error *err)
{
    char shown[160] = "";
    size_t bad;

    if (gp_utf8_valid(s, strlen(s), &bad))
        return GP_OK;
    /* the bytes escaped, as the trace reader shows them ("t\xffam") */
    gp_append_escaped(shown, sizeof shown, s, strlen(s));
    gp_error_set(err, x->source, line, col + 1, name,
                 "not UTF-8 (byte %zu is \\x%02x), got \"%s\"", bad + 1,
                 (unsigned char)s[bad], shown);
    return GP_ERR_INPUT;
}

/* Reads the header row of a price list and decides which file it is. */
static gp_status offer_header(offer_ctx *x, char **f, size_t n, long line,
                              gp_error *err)
{
    gp_status st;

    if (column(f, n, "DiscountedRate") >= 0) {
        x->kind = FILE_PLANS;
        for (int k = 0; k < S_N; k++) {
            if ((st = column_once(x->source, line, f, n, plan_names[k],
                                  &x->cols[k], err)) != GP_OK)
                return st;
            if (x->cols[k] < 0) {
                gp_error_set(err, x->source, line, 0, plan_names[k],
                             "missing column (is this an AWS savings-plan "
                             "price list CSV?)");
                return GP_ERR_INPUT;
            }
        }
        return GP_OK;
    }
    x->kind = FILE_OFFER;
    for (int k = 0; k < O_N; k++) {
        if ((st = column_once(x->source, line, f, n, offer_names[k],
                              &x->cols[k], err)) != GP_OK)
            return st;
        if (x->cols[k] < 0 && offer_required[k]) {
            gp_error_set(err, x->source, line, 0, offer_names[k],
                         "missing column (is this an AWS EC2 price list "
                         "offer file?)");
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* One row of an EC2 offer file, past the header. */
static gp_status offer_row(offer_ctx *x, char **f, size_t n, long line,
                           gp_error *err)
{
    const int *c = x->cols;
    const char *term_type = field(f, n, c[O_TERM_TYPE]);
    const char *unit = field(f, n, c[O_UNIT]);
    const char *gpu_text = field(f, n, c[O_GPU]);
    const char *type_name = field(f, n, c[O_TYPE]);
    char quoted[160];
    double price, gpus = 0;
    offer_type *t;
    gp_status st;

    /* the filter: what a gpuplan price means */
    if (strncmp(field(f, n, c[O_PRODUCT_FAMILY]), "Compute Instance", 16) !=
            0 ||
        strcmp(field(f, n, c[O_OS]), "Linux") != 0 ||
        strcmp(field(f, n, c[O_TENANCY]), "Shared") != 0 ||
        strcmp(field(f, n, c[O_SOFTWARE]), "NA") != 0 ||
        strcmp(field(f, n, c[O_LICENSE]), "No License required") != 0 ||
        strcmp(field(f, n, c[O_CAPACITY]), "Used") != 0 ||
        (c[O_MARKET] >= 0 && field(f, n, c[O_MARKET])[0] &&
         strcmp(field(f, n, c[O_MARKET]), "OnDemand") != 0) ||
        (strcmp(term_type, "OnDemand") != 0 &&
         strcmp(term_type, "Reserved") != 0)) {
        x->other_rows++;
        return GP_OK;
    }
    if (gpu_text[0] && strcmp(gpu_text, "NA") != 0) {
        bool number = gp_parse_number(gpu_text, strlen(gpu_text), &gpus);
        if (number && gpus > 0 && gpus < 1) {
            /* a share of one GPU (g6f): a catalog's GPUs are whole */
            x->fractional++;
            return GP_OK;
        }
        if (!number || gpus < 0 || gpus != floor(gpus) ||
            gpus > GP_CATALOG_MAX_GPUS) {
            if (x->opt->region && x->opt->region[0] &&
                strcmp(field(f, n, c[O_REGION]), x->opt->region) != 0) {
                x->other_rows++; /* not this catalog's region: no matter */
                return GP_OK;
            }
            gp_error_set(err, x->source, line, c[O_GPU] + 1, offer_names[O_GPU],
                         "expected a whole number of GPUs, got %s",
                         gp_json_quote(gpu_text, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
    }
    if (gpus < 1) {
        x->not_gpu++;
        return GP_OK;
    }
    const char *region = field(f, n, c[O_REGION]);
    if (strlen(region) > GP_CATALOG_MAX_REGION &&
        !(x->opt->region && x->opt->region[0])) {
        /* a catalog's limit (catalog.c): cut short, it would be another
         * region's name, and two such codes one region */
        gp_error_set(err, x->source, line, c[O_REGION] + 1,
                     offer_names[O_REGION],
                     "too long (at most %d characters) to be a region: %s",
                     GP_CATALOG_MAX_REGION,
                     gp_json_quote(region, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!(x->opt->region && x->opt->region[0])) {
        gp_status rst;
        /* the row's region becomes the catalog's, which must not be empty
         * (catalog.c); with --region the row is another region's */
        if (!region[0]) {
            gp_error_set(err, x->source, line, c[O_REGION] + 1,
                         offer_names[O_REGION],
                         "missing value (a catalog is of one region: write "
                         "the row's, such as us-east-1, or choose one with "
                         "--region)");
            return GP_ERR_INPUT;
        }
        if ((rst = check_utf8(x, line, c[O_REGION], offer_names[O_REGION],
                              region, err)) != GP_OK)
            return rst;
    }
    /* a catalog's region is lower case (catalog.c), as --region is read:
     * without --region the row's becomes the catalog's, and with it a
     * row of that region in upper case is not another region's */
    char lower[GP_CATALOG_MAX_REGION + 1];
    if (strlen(region) <= GP_CATALOG_MAX_REGION &&
        gp_ascii_lower(lower, sizeof lower, region) &&
        (!(x->opt->region && x->opt->region[0]) ||
         strcmp(lower, x->opt->region) == 0)) {
        gp_error_set(err, x->source, line, c[O_REGION] + 1,
                     offer_names[O_REGION],
                     "%s: regions are lower case (write \"%s\")",
                     gp_json_quote(region, quoted, sizeof quoted), lower);
        return GP_ERR_INPUT;
    }
    if (!offer_region(x, region)) {
        x->other_rows++;
        return GP_OK;
    }
    const char *dot = strchr(type_name, '.');
    if (!type_name[0] || strlen(type_name) >= sizeof t->name || !dot) {
        gp_error_set(err, x->source, line, c[O_TYPE] + 1, offer_names[O_TYPE],
                     "expected an instance type such as g5.xlarge, got %s",
                     gp_json_quote(type_name, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if ((st = check_utf8(x, line, c[O_TYPE], offer_names[O_TYPE], type_name,
                         err)) != GP_OK)
        return st;
    /* the family is the name up to the first dot (g5 of g5.xlarge): the
     * catalog's family plans and size flexibility go by it */
    if (dot == type_name || !dot[1]) {
        gp_error_set(err, x->source, line, c[O_TYPE] + 1, offer_names[O_TYPE],
                     "expected a family, a dot and a size (such as "
                     "g5.xlarge), got %s with %s",
                     gp_json_quote(type_name, quoted, sizeof quoted),
                     dot == type_name ? "no family before the dot"
                                      : "no size after the dot");
        return GP_ERR_INPUT;
    }
    if ((size_t)(dot - type_name) > GP_CATALOG_MAX_FAMILY) {
        gp_error_set(err, x->source, line, c[O_TYPE] + 1, offer_names[O_TYPE],
                     "its family, the name up to the first dot, is too long "
                     "(at most %d characters): %s",
                     GP_CATALOG_MAX_FAMILY,
                     gp_json_quote(type_name, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if ((st = read_price(x, line, c[O_PRICE], offer_names[O_PRICE],
                         field(f, n, c[O_PRICE]), &price, err)) != GP_OK ||
        (st = check_currency(x, line, c[O_CURRENCY], offer_names[O_CURRENCY],
                             field(f, n, c[O_CURRENCY]), err)) != GP_OK)
        return st;
    if (!(t = offer_type_get(x, type_name)))
        return GP_ERR_NOMEM;
    t->gpus = (int)gpus;
    if ((st = read_size(x, line, c[O_VCPU], offer_names[O_VCPU],
                        field(f, n, c[O_VCPU]), NULL, &t->vcpus, err)) !=
            GP_OK ||
        (st = read_size(x, line, c[O_MEMORY], offer_names[O_MEMORY],
                        field(f, n, c[O_MEMORY]), " GiB", &t->memory_gib,
                        err)) != GP_OK ||
        (st = read_size(x, line, c[O_NORMALIZATION],
                        offer_names[O_NORMALIZATION],
                        field(f, n, c[O_NORMALIZATION]), NULL,
                        &t->normalization, err)) != GP_OK)
        return st;

    if (strcmp(term_type, "OnDemand") == 0) {
        if (strcmp(unit, "Hrs") != 0) {
            gp_error_set(err, x->source, line, c[O_UNIT] + 1,
                         offer_names[O_UNIT],
                         "an on-demand price is per hour (\"Hrs\"), got %s",
                         gp_json_quote(unit, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        if (!(price > 0)) {
            gp_error_set(err, x->source, line, c[O_PRICE] + 1,
                         offer_names[O_PRICE],
                         "an on-demand price must be above 0, got %s",
                         field(f, n, c[O_PRICE]));
            return GP_ERR_INPUT;
        }
        if (t->have_on_demand && fabs(t->on_demand - price) > 1e-12) {
            gp_error_set(err, x->source, line, c[O_PRICE] + 1,
                         offer_names[O_PRICE],
                         "a second on-demand price for %s: %s here, %.10g on "
                         "line %ld",
                         type_name, field(f, n, c[O_PRICE]), t->on_demand,
                         t->on_demand_line);
            return GP_ERR_INPUT;
        }
        t->have_on_demand = true;
        t->on_demand = price;
        t->on_demand_line = line;
        x->offer_rows++;
        return GP_OK;
    }

    /* a reserved offer: standard class only */
    if (c[O_CLASS] >= 0 && field(f, n, c[O_CLASS])[0] &&
        strcmp(field(f, n, c[O_CLASS]), "standard") != 0) {
        x->convertible++;
        return GP_OK;
    }
    {
        const char *lease = field(f, n, c[O_LEASE]);
        const char *option = field(f, n, c[O_PURCHASE]);
        int term = strcmp(lease, "1yr") == 0   ? 1
                   : strcmp(lease, "3yr") == 0 ? 3
                                               : 0;
        int payment = payment_from_text(option);
        offer_reserved *r;

        if (!term) {
            gp_error_set(err, x->source, line, c[O_LEASE] + 1,
                         offer_names[O_LEASE],
                         "expected \"1yr\" or \"3yr\", got %s",
                         gp_json_quote(lease, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        if (payment < 0) {
            gp_error_set(err, x->source, line, c[O_PURCHASE] + 1,
                         offer_names[O_PURCHASE],
                         "expected \"No Upfront\", \"Partial Upfront\" or "
                         "\"All Upfront\", got %s",
                         gp_json_quote(option, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
        r = &t->reserved[term == 3][payment];
        x->offer_rows++;
        if (strcmp(unit, "Hrs") == 0) {
            r->have_hourly = true;
            r->hourly = price;
        } else if (strcmp(unit, "Quantity") == 0) {
            r->have_upfront = true;
            r->upfront = price;
        } else {
            gp_error_set(err, x->source, line, c[O_UNIT] + 1,
                         offer_names[O_UNIT],
                         "expected \"Hrs\" or \"Quantity\", got %s",
                         gp_json_quote(unit, quoted, sizeof quoted));
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* One row of a savings-plan rate file, past the header. */
static gp_status plan_row(offer_ctx *x, char **f, size_t n, long line,
                          gp_error *err)
{
    const int *c = x->cols;
    const char *usage = field(f, n, c[S_USAGE_TYPE]);
    const char *family = field(f, n, c[S_PRODUCT_FAMILY]);
    const char *lease = field(f, n, c[S_LEASE]);
    const char *colon = strchr(usage, ':');
    char quoted[160];
    plan_rate *p;
    int kind, payment, term;
    double rate;
    gp_status st;

    /* the usage an on-demand Linux shared-tenancy price is for */
    if (!colon || colon - usage < 8 || strncmp(colon - 8, "BoxUsage", 8) != 0 ||
        (colon - usage > 8 && colon[-9] != '-') ||
        strcmp(field(f, n, c[S_OPERATION]), "RunInstances") != 0 ||
        strcmp(field(f, n, c[S_UNIT]), "Hrs") != 0) {
        x->other_rows++;
        return GP_OK;
    }
    if (strcmp(family, "ComputeSavingsPlans") == 0)
        kind = GP_PLAN_COMPUTE;
    else if (strcmp(family, "EC2InstanceSavingsPlans") == 0)
        kind = GP_PLAN_FAMILY;
    else {
        gp_error_set(err, x->source, line, c[S_PRODUCT_FAMILY] + 1,
                     plan_names[S_PRODUCT_FAMILY],
                     "expected ComputeSavingsPlans or EC2InstanceSavingsPlans, "
                     "got %s",
                     gp_json_quote(family, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    term = strcmp(lease, "1") == 0 ? 1 : strcmp(lease, "3") == 0 ? 3 : 0;
    if (!term || strcmp(field(f, n, c[S_LEASE_UNIT]), "year") != 0) {
        char both[96];
        snprintf(both, sizeof both, "%s %s", lease,
                 field(f, n, c[S_LEASE_UNIT]));
        gp_error_set(err, x->source, line, c[S_LEASE] + 1,
                     plan_names[S_LEASE],
                     "expected a term of 1 or 3 years, got %s",
                     gp_json_quote(both, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if ((payment = payment_from_text(field(f, n, c[S_PURCHASE]))) < 0) {
        gp_error_set(err, x->source, line, c[S_PURCHASE] + 1,
                     plan_names[S_PURCHASE],
                     "expected \"No Upfront\", \"Partial Upfront\" or \"All "
                     "Upfront\", got %s",
                     gp_json_quote(field(f, n, c[S_PURCHASE]), quoted,
                                   sizeof quoted));
        return GP_ERR_INPUT;
    }
    if ((st = read_price(x, line, c[S_RATE], plan_names[S_RATE],
                         field(f, n, c[S_RATE]), &rate, err)) != GP_OK ||
        (st = check_currency(x, line, c[S_CURRENCY], plan_names[S_CURRENCY],
                             field(f, n, c[S_CURRENCY]), err)) != GP_OK)
        return st;
    if ((st = gp_grow((void **)&x->plans, &x->cap_plans, x->n_plans + 1,
                      sizeof *x->plans)) != GP_OK)
        return st;
    if (strlen(field(f, n, c[S_REGION])) >= sizeof p->region ||
        strlen(field(f, n, c[S_TYPE])) >= sizeof p->type) {
        /* longer than any catalog's region or type: cut short, it could
         * be taken for one */
        x->other_rows++;
        return GP_OK;
    }
    p = &x->plans[x->n_plans++];
    memset(p, 0, sizeof *p);
    snprintf(p->type, sizeof p->type, "%s", field(f, n, c[S_TYPE]));
    snprintf(p->region, sizeof p->region, "%s", field(f, n, c[S_REGION]));
    p->kind = kind;
    p->term = term;
    p->payment = payment;
    p->rate = rate;
    p->line = line;
    p->column = c[S_RATE] + 1;
    p->source = x->source;
    x->offer_rows++;
    return GP_OK;
}

/* Reads the value of the preamble's "Publication Date" row: an ISO 8601
 * time ("2025-09-12T22:53:08Z") whose date becomes the catalog's as_of. */
static gp_status offer_publication(offer_ctx *x, const char *s, long line,
                                   gp_error *err)
{
    const char *expected = "expected an ISO 8601 time (2025-09-12T22:53:08Z)";
    const char *why = expected;
    char quoted[160];
    double t;

    /* a bare number parses as epoch seconds, which is no date to copy:
     * the parser's own "... or epoch seconds" would offer one */
    if (strlen(s) < 10 || s[4] != '-' ||
        !gp_parse_time(s, strlen(s), &t, &why)) {
        if (strcmp(why, GP_TIME_EXPECTED) == 0)
            why = expected;
        gp_error_set(err, x->source, line, 2, "Publication Date", "%s, got %s",
                     why, gp_json_quote(s, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    snprintf(x->publication, sizeof x->publication, "%s", s);
    return GP_OK;
}

/* The row callback for every price list CSV: the preamble ("FormatVersion",
 * "Publication Date", ...), the header, then offer or plan rows. */
static gp_status price_list_row(void *pctx, char **f, size_t n, long line,
                                gp_error *err)
{
    offer_ctx *x = pctx;
    gp_status st;

    if (x->kind == FILE_UNKNOWN) {
        if (strcmp(f[0], "SKU") == 0) {
            /* the catalog's as_of comes from it, and a catalog without
             * one does not load */
            if (!x->publication[0]) {
                gp_error_set(err, x->source, line, 0, NULL,
                             "no \"Publication Date\" row before the "
                             "header; the catalog's as_of is taken from it");
                return GP_ERR_INPUT;
            }
            x->n_header = n;
            x->header_line = line;
            return offer_header(x, f, n, line, err);
        }
        if (++x->rows_before_header > MAX_PREAMBLE_ROWS) {
            gp_error_set(err, x->source, line, 0, NULL,
                         "no price list header row (SKU, ...) in the first "
                         "%d rows; is this an AWS Price List CSV?",
                         MAX_PREAMBLE_ROWS);
            return GP_ERR_INPUT;
        }
        if (n >= 2 && strcmp(f[0], "Publication Date") == 0)
            return offer_publication(x, f[1], line, err);
        if (n >= 2 && strcmp(f[0], "OfferCode") == 0)
            snprintf(x->offer_code, sizeof x->offer_code, "%s", f[1]);
        return GP_OK;
    }
    if ((st = gp_csv_check_row_width(x->source, line, n, x->n_header, err)) !=
        GP_OK)
        return st;
    x->rows++;
    return x->kind == FILE_OFFER ? offer_row(x, f, n, line, err)
                                 : plan_row(x, f, n, line, err);
}

/* Reads one price list (in memory, or streamed from file). */
static gp_status offer_read(offer_ctx *x, const char *text, size_t len,
                            FILE *file, const char *name, gp_error *err)
{
    gp_status st;
    unsigned long rows_before = x->rows;

    x->source = name;
    x->kind = FILE_UNKNOWN;
    x->rows_before_header = 0;
    x->publication[0] = x->offer_code[0] = '\0';
    st = gp_csv_rows_read(text, len, file, name, price_list_row, x, err);
    if (st != GP_OK)
        return st;
    if (x->kind == FILE_UNKNOWN) {
        gp_error_set(err, name, 1, 0, NULL,
                     "no price list header row (SKU, ...); is this an AWS "
                     "Price List CSV?");
        return GP_ERR_INPUT;
    }
    if (x->rows == rows_before) {
        /* a download cut short after the header, most likely */
        gp_error_set(err, name, x->header_line, 0, NULL,
                     "the %s has a header but no rows after it; is the file "
                     "complete?",
                     x->kind == FILE_OFFER ? "offer file"
                                           : "savings-plan rate file");
        return GP_ERR_INPUT;
    }
    /* the catalog is dated by its newest price list */
    if (strncmp(x->publication, x->as_of, 10) > 0)
        snprintf(x->as_of, sizeof x->as_of, "%.10s", x->publication);
    if (x->n_sources < sizeof x->sources / sizeof x->sources[0])
        snprintf(x->sources[x->n_sources++], sizeof x->sources[0],
                 "%s: AWS Price List %s (%s, published %s): %s",
                 base_name(name), x->kind == FILE_OFFER ? "offer file"
                                                        : "savings-plan rates",
                 x->offer_code[0] ? x->offer_code : "no offer code",
                 x->publication,
                 x->kind == FILE_OFFER
                     ? "on-demand and standard reserved list prices, Linux, "
                       "shared tenancy"
                     : "savings-plan rates for Linux shared-tenancy usage");
    return GP_OK;
}

/* Puts the savings-plan rates on their types; rates of other regions or of
 * types without an on-demand price are skipped (and counted). */
static gp_status offer_apply_plans(offer_ctx *x, unsigned long *unused,
                                   gp_error *err)
{
    for (size_t i = 0; i < x->n_plans; i++) {
        const plan_rate *p = &x->plans[i];
        uint32_t at;
        offer_type *t;
        int term = p->term == 3;

        if (strcmp(p->region, x->region) != 0 ||
            !gp_strmap_get(&x->type_index, p->type, strlen(p->type), &at) ||
            !x->types[at].have_on_demand) {
            (*unused)++;
            continue;
        }
        t = &x->types[at];
        if (t->have_plan[p->kind][term][p->payment] &&
            fabs(t->plan[p->kind][term][p->payment] - p->rate) > 1e-12) {
            gp_error_set(err, p->source, p->line, p->column, "DiscountedRate",
                         "a second %d-year %s %s rate for %s: %.10g here, "
                         "%.10g before",
                         p->term, gp_payment_name((gp_payment)p->payment),
                         gp_plan_kind_name((gp_plan_kind)p->kind), p->type,
                         p->rate, t->plan[p->kind][term][p->payment]);
            return GP_ERR_INPUT;
        }
        t->have_plan[p->kind][term][p->payment] = true;
        t->plan[p->kind][term][p->payment] = p->rate;
    }
    return GP_OK;
}

/* Orders types by name. */
static int type_cmp(const void *a, const void *b)
{
    return strcmp(((const offer_type *)a)->name, ((const offer_type *)b)->name);
}

/* Builds the catalog JSON of the types that have an on-demand price. */
static json_t *offer_catalog(offer_ctx *x, unsigned long *incomplete)
{
    json_t *root = json_object(), *types = json_object(), *sources =
                                                              json_array();

    if (!root || !types || !sources) {
        json_decref(root);
        json_decref(types);
        json_decref(sources);
        return NULL;
    }
    json_object_set_new(root, "schema", json_string("gpuplan-catalog/1"));
    json_object_set_new(root, "provider", json_string("aws"));
    json_object_set_new(root, "region", json_string(x->region));
    json_object_set_new(root, "currency", json_string(x->currency));
    json_object_set_new(root, "as_of", json_string(x->as_of));
    for (size_t i = 0; i < x->n_sources; i++)
        json_array_append_new(sources, json_string(x->sources[i]));
    json_object_set_new(root, "sources", sources);
    json_object_set_new(root, "instance_types", types);
    if (x->n_types > 1)
        qsort(x->types, x->n_types, sizeof *x->types, type_cmp);
    for (size_t i = 0; i < x->n_types; i++) {
        const offer_type *t = &x->types[i];
        json_t *jt, *reserved, *plans;
        if (!t->have_on_demand) {
            (*incomplete)++;
            continue;
        }
        jt = json_object();
        reserved = json_array();
        plans = json_array();
        if (!jt || !reserved || !plans) {
            json_decref(jt);
            json_decref(reserved);
            json_decref(plans);
            json_decref(root);
            return NULL;
        }
        json_object_set_new(jt, "family", json_string(t->family));
        json_object_set_new(jt, "gpus", json_integer(t->gpus));
        if (t->vcpus > 0)
            json_object_set_new(jt, "vcpus", json_real(t->vcpus));
        if (t->memory_gib > 0)
            json_object_set_new(jt, "memory_gib", json_real(t->memory_gib));
        if (t->normalization > 0)
            json_object_set_new(jt, "normalization_factor",
                                json_real(t->normalization));
        json_object_set_new(jt, "on_demand", json_real(t->on_demand));
        for (int term = 0; term < 2; term++)
            for (int pay = 0; pay < 3; pay++) {
                const offer_reserved *r = &t->reserved[term][pay];
                json_t *o;
                /* an offer needs the rows its payment implies */
                bool complete =
                    pay == GP_NO_UPFRONT    ? r->have_hourly
                    : pay == GP_ALL_UPFRONT ? r->have_upfront
                                            : r->have_hourly && r->have_upfront;
                if (!r->have_hourly && !r->have_upfront)
                    continue;
                if (!complete || (pay == GP_ALL_UPFRONT && r->hourly != 0) ||
                    (pay == GP_NO_UPFRONT && r->upfront != 0)) {
                    (*incomplete)++;
                    continue;
                }
                o = json_object();
                json_object_set_new(o, "term_years",
                                    json_integer(term ? 3 : 1));
                json_object_set_new(o, "payment",
                                    json_string(gp_payment_name(
                                        (gp_payment)pay)));
                json_object_set_new(o, "hourly", json_real(r->hourly));
                json_object_set_new(o, "upfront", json_real(r->upfront));
                json_object_set_new(o, "estimate", json_false());
                json_array_append_new(reserved, o);
            }
        for (int kind = 0; kind < 2; kind++)
            for (int term = 0; term < 2; term++)
                for (int pay = 0; pay < 3; pay++) {
                    json_t *o;
                    if (!t->have_plan[kind][term][pay])
                        continue;
                    o = json_object();
                    json_object_set_new(
                        o, "kind",
                        json_string(gp_plan_kind_name((gp_plan_kind)kind)));
                    json_object_set_new(o, "term_years",
                                        json_integer(term ? 3 : 1));
                    json_object_set_new(o, "payment",
                                        json_string(gp_payment_name(
                                            (gp_payment)pay)));
                    json_object_set_new(o, "hourly",
                                        json_real(t->plan[kind][term][pay]));
                    json_object_set_new(o, "estimate", json_false());
                    json_array_append_new(plans, o);
                }
        if (json_array_size(reserved))
            json_object_set_new(jt, "reserved", reserved);
        else
            json_decref(reserved);
        if (json_array_size(plans))
            json_object_set_new(jt, "savings_plans", plans);
        else
            json_decref(plans);
        json_object_set_new(types, t->name, jt);
    }
    return root;
}

/* Writes a JSON document to out, as catalogs are written. */
static gp_status dump_json(const json_t *root, FILE *out, gp_error *err)
{
    gp_status st = gp_json_write(root, JSON_INDENT(2) | JSON_REAL_PRECISION(15),
                                 out, NULL, err);
    if (st == GP_ERR_IO)
        gp_error_set(err, "", 0, 0, NULL, "cannot write the catalog");
    return st;
}

/* Frees what an offer_ctx holds. */
static void offer_free(offer_ctx *x)
{
    gp_free(x->types);
    gp_free(x->plans);
    gp_strmap_free(&x->type_index);
}

/* Turns what was read into the catalog on out. */
static gp_status offer_finish(offer_ctx *x, FILE *out, gp_error *err)
{
    unsigned long unused_plans = 0, incomplete = 0;
    json_t *root;
    gp_status st;
    char list[256] = "";
    size_t written;

    if (x->n_regions > 1 && !(x->opt->region && x->opt->region[0])) {
        size_t k = x->n_regions < MAX_REGIONS_LISTED ? x->n_regions
                                                     : MAX_REGIONS_LISTED;
        for (size_t i = 0; i < k; i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                     x->regions_seen[i]);
        }
        gp_error_set(err, x->source, 0, 0, NULL,
                     "prices for %zu regions (%s%s); a catalog is one region: "
                     "choose it with --region",
                     x->n_regions, list,
                     x->n_regions > MAX_REGIONS_LISTED ? ", ..." : "");
        return GP_ERR_INPUT;
    }
    if (x->opt->region && x->opt->region[0])
        snprintf(x->region, sizeof x->region, "%s", x->opt->region);
    else if (x->n_regions == 1)
        snprintf(x->region, sizeof x->region, "%s", x->regions_seen[0]);
    if (x->n_types == 0) {
        gp_error_set(err, x->source, 0, 0, NULL,
                     "no GPU instance prices%s%s: %s%lu %s %s a Linux, "
                     "shared-tenancy, on-demand or standard reserved price "
                     "of a type with a GPU column of 1 or more",
                     x->region[0] ? " for " : "", x->region,
                     gp_plural(x->rows, "the ", "of "), x->rows,
                     gp_plural(x->rows, "row", "rows"),
                     gp_plural(x->rows, "is not", "none is"));
        return GP_ERR_INPUT;
    }
    if ((st = offer_apply_plans(x, &unused_plans, err)) != GP_OK)
        return st;
    if (!(root = offer_catalog(x, &incomplete)))
        return GP_ERR_NOMEM;
    if (json_object_size(json_object_get(root, "instance_types")) == 0) {
        json_decref(root);
        gp_error_set(err, x->source, 0, 0, NULL,
                     "no on-demand price for %s %zu GPU %s found (a "
                     "catalog needs one per type)",
                     gp_plural(x->n_types, "the", "any of the"), x->n_types,
                     gp_plural(x->n_types, "type", "types"));
        return GP_ERR_INPUT;
    }
    st = dump_json(root, out, err);
    written = json_object_size(json_object_get(root, "instance_types"));
    json_decref(root);
    if (st == GP_OK && x->opt->notes)
        gp_warnings_add(
            x->opt->notes,
            "aws-offer: %s: %zu GPU instance %s from %lu price %s; skipped "
            "%lu %s of non-GPU types, %lu of types with a share of one GPU "
            "(such as g6f), %lu convertible reserved %s, %lu other %s (other "
            "OS, tenancy, region, capacity), %lu savings-plan %s of types or "
            "regions without an on-demand price, %lu incomplete %s",
            x->region, written, gp_plural(written, "type", "types"),
            x->offer_rows, gp_plural(x->offer_rows, "row", "rows"), x->not_gpu,
            gp_plural(x->not_gpu, "row", "rows"), x->fractional, x->convertible,
            gp_plural(x->convertible, "row", "rows"), x->other_rows,
            gp_plural(x->other_rows, "row", "rows"), unused_plans,
            gp_plural(unused_plans, "rate", "rates"), incomplete,
            gp_plural(incomplete, "type or offer", "types or offers"));
    return st;
}

gp_status gp_import_aws_offer(const gp_import_options *opt, FILE *out,
                              gp_error *err)
{
    offer_ctx x;
    gp_status st = GP_OK;

    memset(&x, 0, sizeof x);
    x.opt = opt;
    if (opt->n_inputs == 0) {
        gp_error_set(err, "", 0, 0, NULL,
                     "import aws-offer takes one or more AWS Price List CSVs "
                     "(the EC2 offer file, savings-plan rate files)");
        return GP_ERR_USAGE;
    }
    for (size_t i = 0; i < opt->n_inputs && st == GP_OK; i++) {
        const char *path = opt->inputs[i];
        FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
        if (!f) {
            gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                         strerror(errno));
            st = GP_ERR_INPUT;
            break;
        }
        st = offer_read(&x, NULL, 0, f, path, err);
        if (f != stdin)
            fclose(f);
    }
    if (st == GP_OK)
        st = offer_finish(&x, out, err);
    offer_free(&x);
    return st;
}

gp_status gp_import_aws_offer_buffer(const char *data, size_t len,
                                     const char *name,
                                     const gp_import_options *opt, FILE *out,
                                     gp_error *err)
{
    offer_ctx x;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.opt = opt;
    st = offer_read(&x, data, len, NULL, name, err);
    if (st == GP_OK)
        st = offer_finish(&x, out, err);
    offer_free(&x);
    return st;
}

/* ---- Spot Instance Advisor ---------------------------------------------- */

/* The monthly interruption rate a bucket label stands for: the middle of
 * "A-B%", half of "<B%", and five points above ">A%".  False when the
 * label is none of these. */
static bool bucket_rate(const char *label, double *rate)
{
    double a, b;
    char tail;

    if (sscanf(label, "<%lf%c", &b, &tail) == 2 && tail == '%' && b > 0 &&
        b <= 100) {
        *rate = b / 2 / 100;
        return true;
    }
    if (sscanf(label, ">%lf%c", &a, &tail) == 2 && tail == '%' && a >= 0 &&
        a < 95) {
        *rate = (a + 5) / 100;
        return true;
    }
    if (sscanf(label, "%lf-%lf%c", &a, &b, &tail) == 3 && tail == '%' &&
        a >= 0 && b > a && b <= 100) {
        *rate = (a + b) / 2 / 100;
        return true;
    }
    return false;
}

/* A bucket of the feed's `ranges`. */
typedef struct spot_bucket {
    char label[24];
    double rate;
} spot_bucket;

/* Reads `ranges` into buckets (by their index). */
static gp_status advisor_ranges(gp_jdoc *d, const json_t *root,
                                spot_bucket *buckets, size_t max,
                                size_t *n_out)
{
    json_t *ranges, *jr;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "ranges", true, &ranges);
    char quoted[160];

    if (st != GP_OK)
        return st;
    *n_out = 0;
    gp_jdoc_push_key(d, "ranges");
    json_array_foreach(ranges, i, jr)
    {
        double index;
        const char *label;
        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jr)) != GP_OK ||
            (st = gp_jdoc_number(d, jr, "index", true, &index, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_whole(d, "index", index, 0,
                                      (double)max - 1)) != GP_OK ||
            (st = gp_jdoc_string(d, jr, "label", true, &label, NULL)) != GP_OK)
            return st;
        if (strlen(label) >= sizeof buckets[0].label ||
            !bucket_rate(label, &buckets[(size_t)index].rate))
            return gp_jdoc_error(d, "label",
                                 "expected a bucket such as \"<5%%\", "
                                 "\"10-15%%\" or \">20%%\", got %s",
                                 gp_json_quote(label, quoted, sizeof quoted));
        snprintf(buckets[(size_t)index].label, sizeof buckets[0].label, "%s",
                 label);
        if ((size_t)index + 1 > *n_out)
            *n_out = (size_t)index + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    if (*n_out == 0)
        return gp_jdoc_error(d, "ranges", "no interruption buckets");
    return GP_OK;
}

/* Adds the advisor's spot estimates to the catalog document `cat` (the
 * base catalog, already checked by gp_catalog_parse). */
static gp_status advisor_apply(gp_jdoc *d, const json_t *root, json_t *cat,
                               const char *advisor_name,
                               const gp_import_options *opt)
{
    spot_bucket buckets[16];
    size_t n_buckets = 0, listed = 0, kept = 0;
    const char *region = json_string_value(json_object_get(cat, "region"));
    const char *key;
    json_t *by_region, *jr, *linux_types, *types, *jt, *sources;
    char quoted[160], source[400];
    gp_status st;

    memset(buckets, 0, sizeof buckets);
    if ((st = advisor_ranges(d, root, buckets, 16, &n_buckets)) != GP_OK ||
        (st = gp_jdoc_object(d, root, "spot_advisor", true, &by_region)) !=
            GP_OK)
        return st;
    gp_jdoc_push_key(d, "spot_advisor");
    if ((st = gp_jdoc_object(d, by_region, region, false, &jr)) != GP_OK)
        return st;
    if (!jr)
        return gp_jdoc_error(d, NULL, "no region %s in the advisor feed",
                             gp_json_quote(region, quoted, sizeof quoted));
    gp_jdoc_push_key(d, region);
    if ((st = gp_jdoc_object(d, jr, "Linux", true, &linux_types)) != GP_OK)
        return st;
    gp_jdoc_push_key(d, "Linux");
    types = json_object_get(cat, "instance_types");
    json_object_foreach(types, key, jt)
    {
        json_t *ja, *spot, *history;
        double saved, index, on_demand, hourly;
        if ((st = gp_jdoc_object(d, linux_types, key, false, &ja)) != GP_OK)
            return st;
        if (!ja) {
            kept++;
            continue;
        }
        gp_jdoc_push_key(d, key);
        if ((st = gp_jdoc_number(d, ja, "s", true, &saved, NULL)) != GP_OK ||
            (st = gp_jdoc_number(d, ja, "r", true, &index, NULL)) != GP_OK ||
            (st = gp_jdoc_check_whole(d, "r", index, 0,
                                      (double)n_buckets - 1)) != GP_OK)
            return st;
        if (saved < 0 || saved >= 100) {
            char num[32];
            gp_json_format_number(saved, num, sizeof num);
            return gp_jdoc_error(d, "s",
                                 "expected a percent saved in [0, 100), got %s",
                                 num);
        }
        if (!buckets[(size_t)index].label[0])
            return gp_jdoc_error(d, "r", "no bucket with index %d in ranges",
                                 (int)index);
        on_demand = json_number_value(json_object_get(jt, "on_demand"));
        hourly = round6(on_demand * (1 - saved / 100));
        spot = json_object_get(jt, "spot");
        history = spot ? json_object_get(spot, "history") : NULL;
        if (!(history && json_is_string(history)) && !(hourly > 0)) {
            /* a catalog's spot price is above 0 (catalog.c) */
            char num[32], price[32];
            gp_json_format_number(saved, num, sizeof num);
            gp_json_format_number(on_demand, price, sizeof price);
            return gp_jdoc_error(d, "s",
                                 "%s%% saved on %s's on-demand %s gives a spot "
                                 "price that rounds to 0 (prices are kept to "
                                 "a millionth); a spot price must be greater "
                                 "than 0",
                                 num, key, price);
        }
        gp_jdoc_pop(d);
        if (history && json_is_string(history)) {
            /* a price series beats a savings snapshot: keep it */
            json_incref(history);
            spot = json_object();
            json_object_set_new(spot, "history", history);
        } else {
            spot = json_object();
            json_object_set_new(spot, "hourly", json_real(hourly));
        }
        if (!spot)
            return gp_jdoc_nomem(d);
        json_object_set_new(
            spot, "interruption_rate_monthly",
            json_real(buckets[(size_t)index].rate));
        json_object_set_new(spot, "interruption_bucket",
                            json_string(buckets[(size_t)index].label));
        json_object_set_new(spot, "estimate", json_true());
        json_object_set_new(jt, "spot", spot);
        listed++;
    }
    gp_jdoc_pop(d);
    gp_jdoc_pop(d);
    gp_jdoc_pop(d);
    snprintf(source, sizeof source,
             "spot: AWS Spot Instance Advisor feed %s (Linux): hourly = "
             "on_demand x (1 - savings%%), interruption_rate_monthly = the "
             "middle of the advisor's bucket; estimates",
             base_name(advisor_name));
    sources = json_object_get(cat, "sources");
    if (!sources) {
        sources = json_array();
        json_object_set_new(cat, "sources", sources);
    }
    json_array_append_new(sources, json_string(source));
    if (opt && opt->notes)
        gp_warnings_add(opt->notes,
                        "spot-advisor: %s: spot estimates for %zu type%s; "
                        "%zu type%s the advisor does not list keep%s %s "
                        "spot section%s",
                        region, listed, gp_plural(listed, "", "s"), kept,
                        gp_plural(kept, "", "s"), gp_plural(kept, "s", ""),
                        gp_plural(kept, "its", "their"),
                        gp_plural(kept, "", "s"));
    return GP_OK;
}

/* Runs spot-advisor on the feed and base catalog held in memory. */
static gp_status spot_run(const char *advisor, size_t len, const char *name,
                          const char *catalog, size_t catalog_len,
                          const char *catalog_name,
                          const gp_import_options *opt, FILE *out,
                          gp_error *err)
{
    gp_catalog *checked = NULL;
    json_t *root = NULL, *cat = NULL;
    json_error_t jerr;
    gp_jdoc d;
    gp_status st;
    char dir[512];
    const char *slash = strrchr(catalog_name, '/');

    /* the base catalog must be one gpuplan loads (its spot history files
     * are found next to it); the checked copy is only for its errors, the
     * JSON tree is what gets written back */
    snprintf(dir, sizeof dir, "%.*s",
             slash ? (int)(slash - catalog_name) : 1,
             slash ? catalog_name : ".");
    if ((st = gp_catalog_parse(&checked, catalog, catalog_len, catalog_name,
                               dir[0] ? dir : "/", err)) != GP_OK)
        return st;
    if (strcmp(checked->provider, "aws") != 0) {
        gp_error_set(err, catalog_name, 0, 0, "provider",
                     "the Spot Instance Advisor covers aws, not %s",
                     checked->provider);
        gp_catalog_free(checked);
        return GP_ERR_INPUT;
    }
    gp_catalog_free(checked);
    if (catalog_len >= 3 && memcmp(catalog, "\xEF\xBB\xBF", 3) == 0) {
        catalog += 3;
        catalog_len -= 3;
    }
    cat = json_loadb(catalog, catalog_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!cat) {
        gp_error_set(err, catalog_name, jerr.line, jerr.column, NULL, "%s",
                     jerr.text);
        return GP_ERR_INPUT;
    }
    gp_jdoc_init(&d, advisor, len, name, err);
    if ((st = gp_jdoc_parse(&d, &root)) == GP_OK &&
        (st = advisor_apply(&d, root, cat, name, opt)) == GP_OK)
        st = dump_json(cat, out, err);
    json_decref(root);
    json_decref(cat);
    return st;
}

/* Whether a JSON text is the advisor feed (it has "spot_advisor") rather
 * than a catalog. */
static bool looks_like_advisor(const char *text, size_t len)
{
    static const char key[] = "\"spot_advisor\"";
    size_t k = sizeof key - 1;

    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(text + i, key, k) == 0)
            return true;
    return false;
}

gp_status gp_import_spot_advisor(const gp_import_options *opt, FILE *out,
                                 gp_error *err)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    int advisor;
    gp_status st = GP_OK;

    if (opt->n_inputs != 2) {
        gp_error_set(err, "", 0, 0, NULL,
                     "import spot-advisor takes two files, the advisor "
                     "feed (spot-advisor-data.json) and the catalog to add "
                     "spot prices to; got %zu",
                     opt->n_inputs);
        return GP_ERR_USAGE;
    }
    for (int i = 0; i < 2 && st == GP_OK; i++)
        st = gp_read_file(opt->inputs[i], &text[i], &len[i], err);
    if (st == GP_OK) {
        advisor = looks_like_advisor(text[0], len[0]) ? 0 : 1;
        if (advisor == 0 && looks_like_advisor(text[1], len[1])) {
            /* the same feed twice, or two feeds: no catalog to add to */
            bool same = strcmp(opt->inputs[0], opt->inputs[1]) == 0;
            gp_error_set(err, opt->inputs[1], 0, 0, NULL,
                         "%s%s%s; give one feed and the catalog to add spot "
                         "prices to (such as pricing/aws/us-east-1.json)",
                         same ? "the advisor feed is given twice"
                              : "a second Spot Instance Advisor feed (also ",
                         same ? "" : opt->inputs[0], same ? "" : ")");
            st = GP_ERR_INPUT;
        } else if (!looks_like_advisor(text[advisor], len[advisor])) {
            /* a feed cut short before its "spot_advisor" key is not JSON
             * at all: say where it breaks, not that it is something else */
            for (int i = 0; i < 2 && st == GP_OK; i++) {
                gp_jdoc d;
                json_t *root;
                gp_jdoc_init(&d, text[i], len[i], opt->inputs[i], err);
                st = gp_jdoc_parse(&d, &root);
                json_decref(root);
            }
            if (st == GP_OK) {
                gp_error_set(err, opt->inputs[0], 0, 0, NULL,
                             "neither input is a Spot Instance Advisor feed "
                             "(a JSON object with \"spot_advisor\")");
                st = GP_ERR_INPUT;
            }
        } else {
            st = spot_run(text[advisor], len[advisor], opt->inputs[advisor],
                          text[1 - advisor], len[1 - advisor],
                          opt->inputs[1 - advisor], opt, out, err);
        }
    }
    gp_free(text[0]);
    gp_free(text[1]);
    return st;
}

gp_status gp_import_spot_advisor_buffer(const char *advisor, size_t len,
                                        const char *name, const char *catalog,
                                        size_t catalog_len,
                                        const char *catalog_name, FILE *out,
                                        gp_error *err)
{
    return spot_run(advisor, len, name, catalog, catalog_len, catalog_name,
                    NULL, out, err);
}
