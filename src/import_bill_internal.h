/*
 * import_bill_internal.h: what the billing importers share (private to the
 * library): the bill being added up (import_bill.c), its writers
 * (import_bill_write.c) and the readers of fields the FOCUS
 * (import_focus.c) and CUR (import_cur.c) rows use.
 * See docs/design/import_billing.md.
 */
#ifndef GP_IMPORT_BILL_INTERNAL_H
#define GP_IMPORT_BILL_INTERNAL_H

#include "csv_rows.h"
#include "import.h"
#include "json_util.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* Whether a billing field is empty: "", or the literal NULL FOCUS samples
 * write. */
static inline bool is_null(const char *s)
{
    return !s[0] || strcmp(s, "NULL") == 0;
}

/* The field of column col (-1 when the file lacks the column: ""). */
static inline const char *field(char **f, size_t n, int col)
{
    return col >= 0 && (size_t)col < n ? f[col] : "";
}

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

/* A bill being read: what its rows add up to so far, and the counts for
 * the summary. */
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


/* Where a usage row's start, end and quantity are, for the errors
 * gp_bill_add_usage gives. */
typedef struct usage_at {
    long line;
    int col_start, col_end, col_quantity; /* 0-based */
    const char *name_start, *name_end, *name_quantity;
    const char *quantity; /* the field as written */
} usage_at;

/* The longest charge period spread over its clock hours by
 * gp_bill_charge_period: a year (bills come by the hour, day or month). */
#define MAX_CHARGE_PERIOD_S (366 * 86400LL)

/* Reads one file of a bill, a buffer or a file streamed (gp_source). */
typedef gp_status (*bill_part_fn)(void *ctx, gp_source *src, gp_error *err);

/* The bill (import_bill.c).  gp_bill_free frees what a bill holds (not
 * the struct); gp_bill_new_part starts the next file of the bill. */
void gp_bill_free(bill *b);
void gp_bill_new_part(bill *b, const char *name);
void gp_bill_name_field(const bill *b, gp_status st, gp_error *err);
gp_status gp_bill_add_usage(bill *b, const usage_at *at, const char *provider,
                            const char *region, const char *type,
                            int64_t start, int64_t step, double hours,
                            gp_error *err);
bool gp_bill_priced(bill *b, const char *provider, const char *region,
                    const char *type);
gp_status gp_bill_check_region_case(const bill *b, long line, int col,
                                    const char *name, const char *region,
                                    const char *cell, gp_error *err);
owned *gp_bill_owned(bill *b, const char *id, gp_commitment_type t);
gp_status gp_bill_covered_unpriced(bill *b, const char *id,
                                   gp_commitment_type t);
gp_status gp_bill_charge_period(bill *b, owned *o, int64_t start, int64_t step,
                                double hours, double dollars);
gp_status gp_bill_cover(bill *b, owned *o, const char *provider,
                        const char *region, const char *type, int64_t start,
                        int64_t step, double hours, double on_demand_cost,
                        double effective);
gp_status gp_bill_long_period(const char *source, long line, int col,
                              const char *name, gp_error *err);

/* Reading fields (import_bill.c): errors name source, line, the 0-based
 * column col + 1 and the column's name. */
gp_status gp_bill_read_time(const char *source, long line, int col,
                            const char *name, const char *s, int64_t *out,
                            gp_error *err);
gp_status gp_bill_read_amount(const char *source, long line, int col,
                              const char *name, const char *s, bool null_ok,
                              double *out, gp_error *err);
gp_status gp_bill_check_name(const char *source, long line, int col,
                             const char *name, const char *s, size_t max,
                             gp_error *err);
gp_status gp_bill_read_period(const char *source, long line, int col_start,
                              const char *name_start, const char *start_s,
                              int col_end, const char *name_end,
                              const char *end_s, int64_t *start, int64_t *step,
                              gp_error *err);
/* A part's header row: maps its n names f into cols (names[0, n_names)),
 * keeps a copy of it (the part then has its header,
 * b->header_line > 0, and its width, b->n_header), and checks that the
 * required columns are there (`format` names the export). */
gp_status gp_bill_read_header(bill *b, long line, char **f, size_t n,
                              const char *const *names, const bool *required,
                              size_t n_names, int *cols, const char *format,
                              gp_error *err);

/* Reading the input files into one bill (import_bill.c), and writing what
 * it adds up to (import_bill_write.c). */
gp_status gp_bill_read_files(bill_part_fn part, void *ctx,
                             const gp_import_options *opt, gp_error *err);
gp_status gp_bill_finish(bill *b, const char *expected,
                         const gp_import_options *opt, FILE *out,
                         gp_error *err);

#endif
