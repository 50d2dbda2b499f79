/*
 * import_offer_rows.c: the rows of AWS price lists for `gpuplan import
 * aws-offer`: the header row of an EC2 offer file or a savings-plan rate
 * file, then each row, filtered to what a gpuplan price means, checked, and
 * added to the catalog being built (offer_ctx).  See
 * docs/design/import_pricing.md.
 */
#include "import_pricing_internal.h"
#include "safe_text.h"

#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

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

/* The offer columns' names, as the header row writes them. */
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

/* The savings-plan rate columns' names. */
static const char *const plan_names[S_N] = {
    "DiscountedRate",      "Unit",
    "Currency",            "DiscountedUsageType",
    "DiscountedOperation", "PurchaseOption",
    "LeaseContractLength", "LeaseContractLengthUnit",
    "Product Family",      "DiscountedRegionCode",
    "DiscountedInstanceType"};

/* ---- the catalog being built -------------------------------------------- */

/* Records a region seen among the rows that pass the filters; returns
 * whether rows of this region are the ones kept. */
static bool offer_region(offer_ctx *x, const char *region)
{
    const char *want = x->opt->region;

    if (want && want[0])
        return strcmp(region, want) == 0;
    /* the first MAX_REGIONS_LISTED are listed; n_regions past that only
     * says there were more (each row of an unlisted one is not counted) */
    for (size_t i = 0; i < x->n_regions && i < MAX_REGIONS_LISTED; i++)
        if (strcmp(x->regions_seen[i], region) == 0)
            return i == 0;
    if (x->n_regions < MAX_REGIONS_LISTED)
        snprintf(x->regions_seen[x->n_regions], sizeof x->regions_seen[0], "%s",
                 region);
    if (x->n_regions <= MAX_REGIONS_LISTED)
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
        gp_strmap_put(&x->type_index, name, len, (uint32_t)x->n_types) != GP_OK)
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
static gp_status read_price(offer_ctx *x, long line, int col, const char *name,
                            const char *s, double *out, gp_error *err)
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
                                const char *name, const char *s, gp_error *err)
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
 * "missing required key"; a type, then the type).  Nor may it hold a
 * control character, which the catalog loader refuses (safe_text.h). */
static gp_status check_utf8(offer_ctx *x, long line, int col, const char *name,
                            const char *s, gp_error *err)
{
    char shown[160] = "";
    size_t bad;
    uint32_t code;

    /* the bytes escaped, as the trace reader shows them ("t\xffam") */
    gp_append_escaped(shown, sizeof shown, s, strlen(s));
    if (!gp_utf8_valid(s, strlen(s), &bad)) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "not UTF-8 (byte %zu is \\x%02x), got \"%s\"", bad + 1,
                     (unsigned char)s[bad], shown);
        return GP_ERR_INPUT;
    }
    if ((bad = gp_text_control_at(s, strlen(s), &code)) < strlen(s)) {
        gp_error_set(err, x->source, line, col + 1, name,
                     "a control character (U+%04X, byte %zu), which no "
                     "report can show: remove it, got \"%s\"",
                     (unsigned)code, bad + 1, shown);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* ---- the rows ----------------------------------------------------------- */

/* Reads the header row of a price list and decides which file it is. */
gp_status gp_offer_header(offer_ctx *x, char **f, size_t n, long line,
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

/* Whether an offer row is of what a gpuplan price means: a compute
 * instance running Linux with shared tenancy, no pre-installed software,
 * no licence to bring, capacity "Used", market OnDemand (when the file
 * says), on an on-demand or reserved term. */
static bool offer_wanted(const offer_ctx *x, char **f, size_t n)
{
    const int *c = x->cols;
    const char *term_type = field(f, n, c[O_TERM_TYPE]);

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
         strcmp(term_type, "Reserved") != 0))
        return false;
    return true;
}

/* Reads an offer row's GPU column into *gpus (left as it is when empty or
 * NA).  *keep is false for a row skipped (and counted): a share of one GPU,
 * or a count that does not read in a row of another region than
 * the region parameter's; in this catalog's region such a count is an error. */
static gp_status offer_gpus(offer_ctx *x, char **f, size_t n, long line,
                            double *gpus, bool *keep, gp_error *err)
{
    const int *c = x->cols;
    const char *gpu_text = field(f, n, c[O_GPU]);
    char quoted[160];

    *keep = true;
    if (!gpu_text[0] || strcmp(gpu_text, "NA") == 0)
        return GP_OK;
    bool number = gp_parse_number(gpu_text, strlen(gpu_text), gpus);
    if (number && *gpus > 0 && *gpus < 1) {
        /* a share of one GPU (g6f): a catalog's GPUs are whole */
        x->fractional++;
        *keep = false;
        return GP_OK;
    }
    if (!number || *gpus < 0 || *gpus != floor(*gpus) ||
        *gpus > GP_CATALOG_MAX_GPUS) {
        if (x->opt->region && x->opt->region[0] &&
            strcmp(field(f, n, c[O_REGION]), x->opt->region) != 0) {
            x->other_rows++; /* not this catalog's region: no matter */
            *keep = false;
            return GP_OK;
        }
        gp_error_set(err, x->source, line, c[O_GPU] + 1, offer_names[O_GPU],
                     "expected a whole number of GPUs, got %s",
                     gp_json_quote(gpu_text, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Checks the region of an offer row of a GPU type: without a region given it
 * becomes the catalog's, so it must fit a catalog, not be empty and be
 * UTF-8; either way one in upper case is an error. */
static gp_status offer_check_region(offer_ctx *x, long line, const char *region,
                                    gp_error *err)
{
    const int *c = x->cols;
    char quoted[160];

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
         * (catalog.c); with a region given the row is another region's */
        if (!region[0]) {
            gp_error_set(err, x->source, line, c[O_REGION] + 1,
                         offer_names[O_REGION],
                         "missing value (a catalog is of one region: write "
                         "the row's, such as us-east-1, or choose one with "
                         GP_PARAM_TEXT("region") ")");
            return GP_ERR_INPUT;
        }
        if ((rst = check_utf8(x, line, c[O_REGION], offer_names[O_REGION],
                              region, err)) != GP_OK)
            return rst;
    }
    /* a catalog's region is lower case (catalog.c), as the region
     * parameter is read: without one the row's becomes the catalog's, and with it a
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
    return GP_OK;
}

/* Checks the instance type an offer row names: family, a dot and a size
 * ("g5.xlarge"), UTF-8, and a family no longer than a catalog's. */
static gp_status offer_check_type(offer_ctx *x, long line,
                                  const char *type_name, gp_error *err)
{
    const int *c = x->cols;
    char quoted[160];
    gp_status st;

    const char *dot = strchr(type_name, '.');
    if (!type_name[0] || strlen(type_name) >= sizeof x->types[0].name || !dot) {
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
    return GP_OK;
}

/* Reads the sizes of type t an offer row gives: vCPU, Memory ("768 GiB")
 * and Normalization Size Factor. */
static gp_status offer_sizes(offer_ctx *x, char **f, size_t n, long line,
                             offer_type *t, gp_error *err)
{
    const int *c = x->cols;
    gp_status st;

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
    return GP_OK;
}

/* An on-demand row: type t's on-demand `price`, per hour, above 0, and the
 * same in every row that gives it. */
static gp_status offer_on_demand(offer_ctx *x, char **f, size_t n, long line,
                                 offer_type *t, double price, gp_error *err)
{
    const int *c = x->cols;
    const char *unit = field(f, n, c[O_UNIT]);
    const char *type_name = field(f, n, c[O_TYPE]);
    char quoted[160];

    if (strcmp(unit, "Hrs") != 0) {
        gp_error_set(err, x->source, line, c[O_UNIT] + 1, offer_names[O_UNIT],
                     "an on-demand price is per hour (\"Hrs\"), got %s",
                     gp_json_quote(unit, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!(price > 0)) {
        gp_error_set(err, x->source, line, c[O_PRICE] + 1, offer_names[O_PRICE],
                     "an on-demand price must be above 0, got %s",
                     field(f, n, c[O_PRICE]));
        return GP_ERR_INPUT;
    }
    if (t->have_on_demand && fabs(t->on_demand - price) > 1e-12) {
        gp_error_set(err, x->source, line, c[O_PRICE] + 1, offer_names[O_PRICE],
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

/* A reserved row of type t: standard class only (a convertible one is
 * counted); its lease and purchase option name the offer, and its unit
 * says whether `price` is the hourly rate ("Hrs") or the upfront fee
 * ("Quantity"). */
static gp_status offer_reserved_row(offer_ctx *x, char **f, size_t n, long line,
                                    offer_type *t, double price, gp_error *err)
{
    const int *c = x->cols;
    const char *unit = field(f, n, c[O_UNIT]);
    char quoted[160];

    /* a reserved offer: standard class only */
    if (c[O_CLASS] >= 0 && field(f, n, c[O_CLASS])[0] &&
        strcmp(field(f, n, c[O_CLASS]), "standard") != 0) {
        x->convertible++;
        return GP_OK;
    }
    const char *lease = field(f, n, c[O_LEASE]);
    const char *option = field(f, n, c[O_PURCHASE]);
    int term = strcmp(lease, "1yr") == 0   ? 1
               : strcmp(lease, "3yr") == 0 ? 3
                                           : 0;
    int payment = payment_from_text(option);
    offer_reserved *r;

    if (!term) {
        gp_error_set(err, x->source, line, c[O_LEASE] + 1, offer_names[O_LEASE],
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
        gp_error_set(err, x->source, line, c[O_UNIT] + 1, offer_names[O_UNIT],
                     "expected \"Hrs\" or \"Quantity\", got %s",
                     gp_json_quote(unit, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* One row of an EC2 offer file, past the header. */
gp_status gp_offer_row(offer_ctx *x, char **f, size_t n, long line,
                       gp_error *err)
{
    const int *c = x->cols;
    const char *term_type = field(f, n, c[O_TERM_TYPE]);
    const char *type_name = field(f, n, c[O_TYPE]);
    double price, gpus = 0;
    bool keep;
    offer_type *t;
    gp_status st;

    /* the filter: what a gpuplan price means */
    if (!offer_wanted(x, f, n)) {
        x->other_rows++;
        return GP_OK;
    }
    if ((st = offer_gpus(x, f, n, line, &gpus, &keep, err)) != GP_OK || !keep)
        return st;
    if (gpus < 1) {
        x->not_gpu++;
        return GP_OK;
    }
    const char *region = field(f, n, c[O_REGION]);
    if ((st = offer_check_region(x, line, region, err)) != GP_OK)
        return st;
    if (!offer_region(x, region)) {
        x->other_rows++;
        return GP_OK;
    }
    if ((st = offer_check_type(x, line, type_name, err)) != GP_OK ||
        (st = read_price(x, line, c[O_PRICE], offer_names[O_PRICE],
                         field(f, n, c[O_PRICE]), &price, err)) != GP_OK ||
        (st = check_currency(x, line, c[O_CURRENCY], offer_names[O_CURRENCY],
                             field(f, n, c[O_CURRENCY]), err)) != GP_OK)
        return st;
    if (!(t = offer_type_get(x, type_name)))
        return GP_ERR_NOMEM;
    t->gpus = (int)gpus;
    if ((st = offer_sizes(x, f, n, line, t, err)) != GP_OK)
        return st;
    if (strcmp(term_type, "OnDemand") == 0)
        return offer_on_demand(x, f, n, line, t, price, err);
    return offer_reserved_row(x, f, n, line, t, price, err);
}

/* Reads the plan kind (its Product Family), term and payment of a
 * savings-plan rate row. */
static gp_status plan_terms(offer_ctx *x, char **f, size_t n, long line,
                            int *kind, int *term, int *payment, gp_error *err)
{
    const int *c = x->cols;
    const char *family = field(f, n, c[S_PRODUCT_FAMILY]);
    const char *lease = field(f, n, c[S_LEASE]);
    char quoted[160];

    if (strcmp(family, "ComputeSavingsPlans") == 0)
        *kind = GP_PLAN_COMPUTE;
    else if (strcmp(family, "EC2InstanceSavingsPlans") == 0)
        *kind = GP_PLAN_FAMILY;
    else {
        gp_error_set(err, x->source, line, c[S_PRODUCT_FAMILY] + 1,
                     plan_names[S_PRODUCT_FAMILY],
                     "expected ComputeSavingsPlans or EC2InstanceSavingsPlans, "
                     "got %s",
                     gp_json_quote(family, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    *term = strcmp(lease, "1") == 0 ? 1 : strcmp(lease, "3") == 0 ? 3 : 0;
    if (!*term || strcmp(field(f, n, c[S_LEASE_UNIT]), "year") != 0) {
        char both[96];
        snprintf(both, sizeof both, "%s %s", lease,
                 field(f, n, c[S_LEASE_UNIT]));
        gp_error_set(err, x->source, line, c[S_LEASE] + 1, plan_names[S_LEASE],
                     "expected a term of 1 or 3 years, got %s",
                     gp_json_quote(both, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if ((*payment = payment_from_text(field(f, n, c[S_PURCHASE]))) < 0) {
        gp_error_set(
            err, x->source, line, c[S_PURCHASE] + 1, plan_names[S_PURCHASE],
            "expected \"No Upfront\", \"Partial Upfront\" or \"All "
            "Upfront\", got %s",
            gp_json_quote(field(f, n, c[S_PURCHASE]), quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* One row of a savings-plan rate file, past the header. */
gp_status gp_offer_plan_row(offer_ctx *x, char **f, size_t n, long line,
                            gp_error *err)
{
    const int *c = x->cols;
    const char *usage = field(f, n, c[S_USAGE_TYPE]);
    const char *colon = strchr(usage, ':');
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
    if ((st = plan_terms(x, f, n, line, &kind, &term, &payment, err)) !=
            GP_OK ||
        (st = read_price(x, line, c[S_RATE], plan_names[S_RATE],
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
