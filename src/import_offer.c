/*
 * import_offer.c: `gpuplan import aws-offer`, AWS Price List CSVs (the EC2
 * offer file, savings-plan rate files) turned into one gpuplan catalog of
 * one region (SPEC section 3).  This file reads each price list (its
 * preamble, then its header and rows, import_offer_rows.c); the catalog is
 * written by import_offer_catalog.c.  See docs/design/import_pricing.md.
 */
#include "csv_rows.h"
#include "import_pricing_internal.h"

#include <string.h>

#define MAX_PREAMBLE_ROWS 20

/* ---- reading a price list ---------------------------------------------- */

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
            return gp_offer_header(x, f, n, line, err);
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
    return x->kind == FILE_OFFER ? gp_offer_row(x, f, n, line, err)
                                 : gp_offer_plan_row(x, f, n, line, err);
}

/* Reads one price list (in memory, or streamed from file). */
static gp_status offer_read(offer_ctx *x, gp_source *src, gp_error *err)
{
    const char *name = src->name;
    gp_status st;
    unsigned long rows_before = x->rows;
    offer_file_counts before = {name,          FILE_UNKNOWN, x->offer_rows,
                                x->not_gpu,    x->fractional, x->convertible,
                                x->other_rows, 0};

    x->source = name;
    x->kind = FILE_UNKNOWN;
    x->rows_before_header = 0;
    x->publication[0] = x->offer_code[0] = '\0';
    st = gp_csv_rows_read(src, price_list_row, x, err);
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
    /* this file's counts, for a summary of several files */
    if (gp_grow((void **)&x->files, &x->cap_files, x->n_files + 1,
                sizeof *x->files) != GP_OK)
        return GP_ERR_NOMEM;
    x->files[x->n_files++] = (offer_file_counts){
        name,
        x->kind,
        x->offer_rows - before.used,
        x->not_gpu - before.not_gpu,
        x->fractional - before.fractional,
        x->convertible - before.convertible,
        x->other_rows - before.other,
        0};
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

/* Frees what an offer_ctx holds. */
static void offer_free(offer_ctx *x)
{
    gp_free(x->types);
    gp_free(x->plans);
    gp_free(x->files);
    gp_strmap_free(&x->type_index);
}

/* ---- entry points ------------------------------------------------------- */

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
        gp_source src;
        if ((st = gp_source_open(&src, opt->inputs[i], GP_SOURCE_IMPORT_STREAM,
                                 err)) != GP_OK)
            break;
        st = offer_read(&x, &src, err);
        gp_source_close(&src);
    }
    if (st == GP_OK)
        st = gp_offer_finish(&x, out, err);
    offer_free(&x);
    return st;
}

gp_status gp_import_aws_offer_buffer(const char *data, size_t len,
                                     const char *name,
                                     const gp_import_options *opt, FILE *out,
                                     gp_error *err)
{
    offer_ctx x;
    gp_source src;
    gp_status st;

    memset(&x, 0, sizeof x);
    x.opt = opt;
    gp_source_buffer(&src, data, len, name, GP_SOURCE_IMPORT_STREAM);
    st = offer_read(&x, &src, err);
    if (st == GP_OK)
        st = gp_offer_finish(&x, out, err);
    offer_free(&x);
    return st;
}
