/*
 * import_pricing_internal.h: what the pricing importers share (private to
 * the library): the catalog aws-offer builds as it reads price lists
 * (import_offer.c, its rows in import_offer_rows.c, the catalog written by
 * import_offer_catalog.c) and the writing of a catalog, which
 * import_spot_advisor.c uses too.  See docs/design/import_pricing.md.
 */
#ifndef GP_IMPORT_PRICING_INTERNAL_H
#define GP_IMPORT_PRICING_INTERNAL_H

#include "import.h"
#include "json_util.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The regions named in the error for a file of several. */
#define MAX_REGIONS_LISTED 6

/* The last path component of a file name, for sources. */
static inline const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Rounds dollars to a millionth. */
static inline double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

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

/* A savings-plan rate waiting for its type's on-demand row. */
typedef struct plan_rate {
    char type[64];
    char region[32];
    int kind, term, payment;
    double rate;
    long line, column;
    const char *source;
} plan_rate;

/* Which price list a file is, once its header is read. */
typedef enum file_kind { FILE_UNKNOWN, FILE_OFFER, FILE_PLANS } file_kind;

/* What one price list gave and skipped, for a summary of several that
 * names the file each count belongs to. */
typedef struct offer_file_counts {
    const char *source;
    file_kind kind;
    unsigned long used, not_gpu, fractional, convertible, other;
    unsigned long unused_plans; /* rates of types without an on-demand price */
} offer_file_counts;

/* aws-offer at work: the file being read, and the catalog being built from
 * every file read so far. */
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
    offer_file_counts *files; /* each file's share of those counts */
    size_t n_files, cap_files;
} offer_ctx;

/* Reading the rows of a price list (import_offer_rows.c): the header row,
 * which decides which file it is (x->kind), then each row of an offer file
 * or of a savings-plan rate file. */
gp_status gp_offer_header(offer_ctx *x, char **f, size_t n, long line,
                          gp_error *err);
gp_status gp_offer_row(offer_ctx *x, char **f, size_t n, long line,
                       gp_error *err);
gp_status gp_offer_plan_row(offer_ctx *x, char **f, size_t n, long line,
                            gp_error *err);

/* Turns what was read into the catalog on out (import_offer_catalog.c). */
gp_status gp_offer_finish(offer_ctx *x, FILE *out, gp_error *err);

/* Writes a catalog's JSON document to out, as catalogs are written
 * (import_offer_catalog.c). */
gp_status gp_import_write_catalog(const json_t *root, FILE *out,
                                  gp_error *err);

#endif
