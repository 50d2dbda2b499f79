/*
 * test_import_pricing.c: unit tests of `gpuplan import aws-offer` and
 * `import spot-advisor` (import_pricing.c).
 *
 * Every catalog an importer writes is loaded back with gpuplan's own
 * loader (gp_catalog_parse) and its numbers compared with the fixture rows
 * they came from (tests/data/import/, see its README).  The spot estimates
 * are checked against the bundled pricing/aws/us-east-1.json, whose spot
 * sections pricing/tools/build_catalogs.py computed independently (in
 * Python) from the same advisor snapshot and the same rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan.h"
#include "import.h"
#include "source.h"
#include "util.h"

/* What one import run gave. */
typedef struct run_result {
    gp_status st;
    gp_error err;
    char *out;
    size_t len;
    gp_warnings notes;
} run_result;

static void result_free(run_result *r)
{
    free(r->out);
    gp_warnings_clear(&r->notes);
}

/* Reads what was written to f into r. */
static void slurp(FILE *f, run_result *r)
{
    long n;

    fflush(f);
    n = ftell(f);
    rewind(f);
    r->out = malloc((size_t)n + 1);
    assert_non_null(r->out);
    assert_int_equal(fread(r->out, 1, (size_t)n, f), (size_t)n);
    r->out[n] = '\0';
    r->len = (size_t)n;
}

/* Runs aws-offer on fixture files (relative to tests/data/import/). */
static run_result run_offer(const char *region, const char *a, const char *b)
{
    run_result r;
    gp_import_options o;
    const char *inputs[2];
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    inputs[0] = src_path(a);
    inputs[1] = b ? src_path(b) : NULL;
    o.inputs = inputs;
    o.n_inputs = b ? 2 : 1;
    o.region = region;
    o.notes = &r.notes;
    gp_error_clear(&r.err);
    r.st = gp_import_aws_offer(&o, out, &r.err);
    slurp(out, &r);
    fclose(out);
    return r;
}

/* Runs aws-offer on CSV text. */
static run_result run_offer_text(const char *region, const char *text)
{
    run_result r;
    gp_import_options o;
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    o.region = region;
    o.notes = &r.notes;
    gp_error_clear(&r.err);
    r.st = gp_import_aws_offer_buffer(text, strlen(text), "offer.csv", &o, out,
                                      &r.err);
    slurp(out, &r);
    fclose(out);
    return r;
}

/* Runs spot-advisor on two files (the advisor first or not). */
static run_result run_spot(const char *a, const char *b)
{
    run_result r;
    gp_import_options o;
    const char *inputs[2] = {a, b};
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    o.inputs = inputs;
    o.n_inputs = 2;
    o.notes = &r.notes;
    gp_error_clear(&r.err);
    r.st = gp_import_spot_advisor(&o, out, &r.err);
    slurp(out, &r);
    fclose(out);
    return r;
}

/* Runs spot-advisor on an advisor text and a catalog text. */
static run_result run_spot_text(const char *advisor, const char *catalog)
{
    run_result r;
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    gp_error_clear(&r.err);
    r.st = gp_import_spot_advisor_buffer(advisor, strlen(advisor), "sa.json",
                                         catalog, strlen(catalog), "cat.json",
                                         out, &r.err);
    slurp(out, &r);
    fclose(out);
    return r;
}

/* Loads an importer's output with the catalog loader. */
static gp_catalog *load_output(const run_result *r)
{
    gp_catalog *c = NULL;
    gp_error err;
    char msg[1400];

    gp_error_clear(&err);
    if (gp_catalog_parse(&c, r->out, r->len, "imported.json", ".", &err) !=
        GP_OK) {
        gp_error_format(&err, msg, sizeof msg);
        fail_msg("the catalog loader rejects the output: %s", msg);
    }
    return c;
}

/* The type `name` of catalog c (must exist). */
static const gp_instance_type *type_of(const gp_catalog *c, const char *name)
{
    for (size_t i = 0; i < c->n_types; i++)
        if (strcmp(c->types[i].name, name) == 0)
            return &c->types[i];
    fail_msg("no type %s", name);
    return NULL;
}

/* The error as the CLI prints it. */
static const char *formatted(const gp_error *err)
{
    static char buf[1400];
    gp_error_format(err, buf, sizeof buf);
    return buf;
}

/* ---- aws-offer ----------------------------------------------------------- */

/*
 * aws-offer-gpu-us-east-1.csv (built in the real file's 91 columns; see the
 * README) prices, for Linux / Shared / us-east-1:
 *   g5.xlarge:   OnDemand 1.006; standard 1yr No Upfront 0.634; 1yr
 *                Partial Upfront 0.302 + Upfront Fee 2646; 1yr All Upfront
 *                0.0 + 5186; 3yr No Upfront 0.423.  A convertible 1yr No
 *                Upfront row (0.712) is left out.
 *   p4d.24xlarge: OnDemand 21.957642; 1yr No Upfront 13.8333.
 * and rows that must not count: Windows g5.xlarge 1.19, Dedicated 1.107,
 * c5.xlarge (no GPU column), g5.xlarge in us-west-2.
 * aws-savingsplan-gpu-us-east-1.csv: g5.xlarge compute 1yr No Upfront
 * 0.722 and EC2 instance (family) 0.634; p4d.24xlarge compute 3yr Partial
 * Upfront 9.5403; and rows that must not count (DedicatedUsage 0.801,
 * Windows RunInstances:0002 0.911, c5.xlarge, us-west-2).
 */
static void test_offer_catalog_has_the_list_prices(void **state)
{
    run_result r;
    gp_catalog *c;
    const gp_instance_type *g5, *p4d;
    (void)state;

    r = run_offer("us-east-1", "tests/data/import/aws-offer-gpu-us-east-1.csv",
                  "tests/data/import/aws-savingsplan-gpu-us-east-1.csv");
    assert_int_equal(r.st, GP_OK);
    c = load_output(&r);
    assert_string_equal(c->provider, "aws");
    assert_string_equal(c->region, "us-east-1");
    assert_string_equal(c->currency, "USD");
    /* "Publication Date","2025-09-12T22:53:08Z" of the offer file, newer
     * than the savings-plan file's 2025-09-11 */
    assert_string_equal(c->as_of, "2025-09-12");
    assert_int_equal(c->n_sources, 2);
    assert_int_equal(c->n_types, 2);

    /* the g5.xlarge rows' columns: GPU 1, vCPU 4, Memory "16 GiB",
     * Normalization Size Factor 8 (p4d.24xlarge's: 8, 96, 1152, 192) */
    g5 = type_of(c, "g5.xlarge");
    assert_string_equal(g5->family, "g5");
    assert_int_equal(g5->gpus, 1);
    assert_close(g5->vcpus, 4, 0);
    assert_close(g5->memory_gib, 16, 0);
    assert_close(g5->normalization_factor, 8, 0);
    assert_close(g5->on_demand, 1.006, 1e-12);
    assert_int_equal(g5->n_reserved, 4);
    /* in the order 1yr no/partial/all, then 3yr no */
    assert_int_equal(g5->reserved[0].term_years, 1);
    assert_int_equal(g5->reserved[0].payment, GP_NO_UPFRONT);
    assert_close(g5->reserved[0].hourly, 0.634, 1e-12);
    assert_close(g5->reserved[0].upfront, 0, 0);
    assert_false(g5->reserved[0].estimate);
    assert_int_equal(g5->reserved[1].payment, GP_PARTIAL_UPFRONT);
    assert_close(g5->reserved[1].hourly, 0.302, 1e-12);
    assert_close(g5->reserved[1].upfront, 2646, 0);
    assert_int_equal(g5->reserved[2].payment, GP_ALL_UPFRONT);
    assert_close(g5->reserved[2].hourly, 0, 0);
    assert_close(g5->reserved[2].upfront, 5186, 0);
    /* effective hourly of the all-upfront offer: 5186 / 8760 */
    assert_close(gp_reserved_effective_hourly(&g5->reserved[2]),
                 5186.0 / 8760.0, 1e-12);
    assert_int_equal(g5->reserved[3].term_years, 3);
    assert_close(g5->reserved[3].hourly, 0.423, 1e-12);
    assert_int_equal(g5->n_plans, 2);
    assert_int_equal(g5->plans[0].kind, GP_PLAN_COMPUTE);
    assert_close(g5->plans[0].hourly, 0.722, 1e-12);
    assert_int_equal(g5->plans[1].kind, GP_PLAN_FAMILY);
    assert_close(g5->plans[1].hourly, 0.634, 1e-12);
    assert_false(g5->spot.present);

    p4d = type_of(c, "p4d.24xlarge");
    assert_int_equal(p4d->gpus, 8);
    assert_close(p4d->on_demand, 21.957642, 1e-12);
    assert_int_equal(p4d->n_reserved, 1);
    assert_close(p4d->reserved[0].hourly, 13.8333, 1e-12);
    assert_int_equal(p4d->n_plans, 1);
    assert_int_equal(p4d->plans[0].term_years, 3);
    assert_int_equal(p4d->plans[0].payment, GP_PARTIAL_UPFRONT);
    assert_close(p4d->plans[0].hourly, 9.5403, 1e-12);
    gp_catalog_free(c);

    /* two files, each counted under its name (#39).  The offer file's 14
     * rows: 9 kept (g5: on-demand and 6 reserved rows, p4d: 2), skipped
     * c5.xlarge (no GPU), the convertible row, and Windows, Dedicated and
     * us-west-2 (3 other).  The plan file's 7: 5 rates read, of which c5
     * and us-west-2 have no on-demand price (2 left out, 3 used), and
     * the DedicatedUsage and Windows rows (2 other).  9 + 5 = 14 price
     * rows in all. */
    assert_int_equal(r.notes.count, 3);
    assert_non_null(strstr(r.notes.items[0], "2 GPU instance types from 14 "
                                             "price rows in 2 files"));
    assert_non_null(strstr(r.notes.items[1],
                           ": 9 price rows; skipped 1 row of non-GPU types, "
                           "0 of types with a share of one GPU (such as "
                           "g6f), 1 convertible reserved row, 3 other rows"));
    assert_non_null(strstr(r.notes.items[2],
                           ": 3 savings-plan rates used, 2 left out (types "
                           "or regions without an on-demand price); "
                           "skipped 2 other rows"));
    result_free(&r);
}

/* The fixture has us-east-1 and us-west-2 GPU rows: without --region it is
 * not one catalog. */
static void test_offer_with_two_regions_needs_region(void **state)
{
    run_result r;
    (void)state;

    r = run_offer(NULL, "tests/data/import/aws-offer-gpu-us-east-1.csv", NULL);
    assert_int_equal(r.st, GP_ERR_INPUT);
    assert_string_equal(r.err.source,
                        src_path("tests/data/import/"
                                 "aws-offer-gpu-us-east-1.csv"));
    assert_string_equal(r.err.message,
                        "prices for 2 regions (us-east-1, us-west-2); a "
                        "catalog is one region: choose it with "
                        GP_PARAM_TEXT("region"));
    result_free(&r);
}

/* With --region us-west-2 the one g5.xlarge row there makes the catalog. */
static void test_offer_region_picks_the_rows(void **state)
{
    run_result r;
    gp_catalog *c;
    (void)state;

    r = run_offer("us-west-2", "tests/data/import/aws-offer-gpu-us-east-1.csv",
                  NULL);
    assert_int_equal(r.st, GP_OK);
    c = load_output(&r);
    assert_string_equal(c->region, "us-west-2");
    assert_int_equal(c->n_types, 1);
    assert_close(c->types[0].on_demand, 1.006, 1e-12);
    assert_int_equal(c->types[0].n_reserved, 0);
    gp_catalog_free(c);
    result_free(&r);
}

/* The real excerpts: the offer sample has no Linux shared-tenancy row of a
 * GPU type (its only GPU row is a SUSE dedicated g5.48xlarge, and its Linux
 * row is a dedicated host), so nothing is left to import. */
static void test_offer_real_samples_have_no_gpu_linux_prices(void **state)
{
    run_result r;
    (void)state;

    r = run_offer("ap-southeast-2",
                  "tests/data/import/aws-offer-global-sample.csv",
                  "tests/data/import/aws-savingsplan-ap-east-2-sample.csv");
    assert_int_equal(r.st, GP_ERR_INPUT);
    assert_non_null(strstr(r.err.message, "no GPU instance prices for "
                                          "ap-southeast-2: of 88 rows"));
    result_free(&r);
}

/* The preamble and header the error cases share (columns renumbered: the
 * header is line 2). */
#define OFFER_HEAD                                                             \
    "\"Publication Date\",\"2025-09-12T22:53:08Z\"\n"                          \
    "SKU,TermType,Unit,PricePerUnit,Currency,LeaseContractLength,"             \
    "PurchaseOption,OfferingClass,Product Family,Instance Type,Tenancy,"       \
    "Operating System,License Model,Pre Installed S/W,CapacityStatus,GPU,"     \
    "Region Code\n"
#define OFFER_TAIL                                                             \
    ",Compute Instance,g5.xlarge,Shared,Linux,No License "                     \
    "required,NA,Used,1,us-east-1\n"

/* Bad rows give file:line:column: field: message. */
static void test_offer_bad_rows_give_file_line_column(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {OFFER_HEAD "A,OnDemand,Hrs,cheap,USD,,," OFFER_TAIL,
         "offer.csv:3:4: PricePerUnit: expected a price (a number >= 0), got "
         "\"cheap\""},
        {OFFER_HEAD "A,OnDemand,Hrs,0,USD,,," OFFER_TAIL,
         "offer.csv:3:4: PricePerUnit: an on-demand price must be above 0, "
         "got 0"},
        {OFFER_HEAD "A,OnDemand,Hrs,1.006,USD,,," OFFER_TAIL
                    "B,OnDemand,Hrs,1.1,USD,,," OFFER_TAIL,
         "offer.csv:4:4: PricePerUnit: a second on-demand price for "
         "g5.xlarge: 1.1 here, 1.006 on line 3"},
        {OFFER_HEAD "A,Reserved,Hrs,0.6,USD,2yr,No Upfront,standard" OFFER_TAIL,
         "offer.csv:3:6: LeaseContractLength: expected \"1yr\" or \"3yr\", got "
         "\"2yr\""},
        {OFFER_HEAD
         "A,Reserved,Hrs,0.6,USD,1yr,Heavy Utilization,standard" OFFER_TAIL,
         "offer.csv:3:7: PurchaseOption: expected \"No Upfront\", \"Partial "
         "Upfront\" or \"All Upfront\", got \"Heavy Utilization\""},
        {OFFER_HEAD
         "A,Reserved,Each,0.6,USD,1yr,No Upfront,standard" OFFER_TAIL,
         "offer.csv:3:3: Unit: expected \"Hrs\" or \"Quantity\", got "
         "\"Each\""},
        {OFFER_HEAD "A,OnDemand,Hrs,1,usd,,," OFFER_TAIL,
         "offer.csv:3:5: Currency: expected a 3-letter currency code, got "
         "\"usd\""},
        {OFFER_HEAD "A,OnDemand,Hrs,1,USD,,,,Compute Instance,g5.xlarge,"
                    "Shared,Linux,No License required,NA,Used,one,us-east-1\n",
         "offer.csv:3:16: GPU: expected a whole number of GPUs, got \"one\""},
        {"Publication Date,2025-09-12\nSKU,TermType\n",
         "offer.csv:2: Unit: missing column (is this an AWS EC2 price list "
         "offer file?)"},
        {"Publication Date,yesterday\nSKU,TermType\n",
         "offer.csv:1:2: Publication Date: expected an ISO 8601 time "
         "(2025-09-12T22:53:08Z), got \"yesterday\""},
        {"Publication Date,2025-02-30\nSKU,TermType\n",
         "offer.csv:1:2: Publication Date: impossible date: that month has no "
         "such day, got \"2025-02-30\""},
        {"OfferCode,AmazonEC2\nSKU,TermType\n",
         "offer.csv:2: no \"Publication Date\" row before the header; the "
         "catalog's as_of is taken from it"},
        {"a,b\n",
         "offer.csv:1: no price list header row (SKU, ...); is this an AWS "
         "Price List CSV?"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_offer_text("us-east-1", cases[i].text);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), cases[i].want);
        assert_int_equal(r.len, 0);
        result_free(&r);
    }
}

/* A field that would make a catalog the loader rejects (an empty region:
 * "region: must not be empty") or that JSON cannot hold (bytes that are not
 * UTF-8: the key was left out, then "region: missing required key", or the
 * type dropped) is an error at its row and column, and nothing is written.
 * Columns: Instance Type is the 10th, Region Code the 17th; the row is line
 * 3.  With --region an empty Region Code is another region's row, skipped,
 * and what is written (the one us-east-1 row, 1.006) loads. */
static void test_offer_writes_no_catalog_the_loader_rejects(void **state)
{
#define OFFER_ROW_TO_TYPE "A,OnDemand,Hrs,1.006,USD,,,,Compute Instance,"
#define OFFER_ROW_AFTER_TYPE ",Shared,Linux,No License required,NA,Used,1,"
    static const struct {
        const char *text, *want;
    } cases[] = {
        {OFFER_HEAD OFFER_ROW_TO_TYPE "g5.xlarge" OFFER_ROW_AFTER_TYPE "\n",
         "offer.csv:3:17: Region Code: missing value (a catalog is of one "
         "region: write the row's, such as us-east-1, or choose one with "
         "region)"}, /* the library names the parameter; gpuplan, --region */
        {OFFER_HEAD OFFER_ROW_TO_TYPE "g5.xlarge" OFFER_ROW_AFTER_TYPE
                                      "us-east-\xb9\n",
         "offer.csv:3:17: Region Code: not UTF-8 (byte 9 is \\xb9), got "
         "\"us-east-\\xb9\""},
        {OFFER_HEAD OFFER_ROW_TO_TYPE "g5.\xe2\x80xlarge" OFFER_ROW_AFTER_TYPE
                                      "us-east-1\n",
         "offer.csv:3:10: Instance Type: not UTF-8 (byte 4 is \\xe2), got "
         "\"g5.\\xe2\\x80xlarge\""},
        {OFFER_HEAD OFFER_ROW_TO_TYPE OFFER_ROW_AFTER_TYPE "us-east-1\n",
         "offer.csv:3:10: Instance Type: expected an instance type such as "
         "g5.xlarge, got \"\""},
        {OFFER_HEAD "A,OnDemand,Hrs,1.006,,,," OFFER_TAIL,
         "offer.csv:3:5: Currency: expected a 3-letter currency code, got "
         "\"\""},
    };
    run_result r;
    gp_catalog *c;
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = run_offer_text(NULL, cases[i].text);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), cases[i].want);
        assert_int_equal(r.len, 0);
        result_free(&r);
    }
    r = run_offer_text("us-east-1", OFFER_HEAD OFFER_ROW_TO_TYPE
                       "g5.xlarge" OFFER_ROW_AFTER_TYPE "\n" OFFER_ROW_TO_TYPE
                       "g5.xlarge" OFFER_ROW_AFTER_TYPE "us-east-1\n");
    assert_int_equal(r.st, GP_OK);
    c = load_output(&r);
    assert_string_equal(c->region, "us-east-1");
    assert_close(type_of(c, "g5.xlarge")->on_demand, 1.006, 1e-12);
    gp_catalog_free(c);
    result_free(&r);
#undef OFFER_ROW_TO_TYPE
#undef OFFER_ROW_AFTER_TYPE
}

/* g6f types carry a share of one L4 (1/8 for g6f.large): a catalog's GPUs
 * are whole, so the row is skipped and counted, not an error that stops
 * the whole region's import.  A GPU count that is not a number, in a row
 * of another region than --region's, is no matter either.  What is left
 * is the one g5.xlarge row at 1.006. */
static void test_offer_skips_fractional_gpu_types(void **state)
{
    run_result r;
    (void)state;

    r = run_offer_text(
        "us-east-1",
        OFFER_HEAD "A,OnDemand,Hrs,1.006,USD,,," OFFER_TAIL
                   "B,OnDemand,Hrs,0.293,USD,,,,Compute Instance,g6f.large,"
                   "Shared,Linux,No License required,NA,Used,0.125,us-east-1\n"
                   "C,OnDemand,Hrs,0.9,USD,,,,Compute Instance,g6.xlarge,"
                   "Shared,Linux,No License required,NA,Used,one,us-west-2\n");
    assert_int_equal(r.st, GP_OK);
    assert_non_null(strstr(r.out, "\"g5.xlarge\""));
    assert_non_null(strstr(r.out, "1.006"));
    assert_null(strstr(r.out, "g6f"));
    assert_null(strstr(r.out, "g6.xlarge"));
    /* singular at 1: one type from one price row (g5.xlarge's), and one
     * "other row" (the us-west-2 one) */
    assert_non_null(strstr(r.notes.items[0], "1 GPU instance type from 1 "
                                             "price row;"));
    assert_non_null(strstr(r.notes.items[0],
                           "skipped 0 rows of non-GPU types, 1 of types "
                           "with a share of one GPU (such as g6f), 0 "
                           "convertible reserved rows, 1 other row (other "
                           "OS"));
    result_free(&r);
}

/* Every allocation failing in turn: clean failure, no leak. */
static void test_offer_allocation_failures_do_not_leak(void **state)
{
    char *text = NULL;
    size_t len = 0;
    gp_error err;
    gp_status st = GP_ERR_NOMEM;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(
        gp_source_load(
            src_path("tests/data/import/aws-offer-gpu-us-east-1.csv"),
            GP_SOURCE_IMPORT, &text, &len, &err),
        GP_OK);
    for (long n = 0; n < 10000 && st == GP_ERR_NOMEM; n++) {
        gp_import_options o;
        FILE *out = tmpfile();
        memset(&o, 0, sizeof o);
        o.region = "us-east-1";
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_import_aws_offer_buffer(text, len, "offer.csv", &o, out, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        fclose(out);
    }
    assert_int_equal(st, GP_OK);
    gp_free(text);
}

/* ---- spot-advisor -------------------------------------------------------- */

/*
 * The advisor excerpt (real values, us-east-1 and us-west-2) on the bundled
 * us-east-1 catalog: each listed type's spot must be on_demand x (1 -
 * s/100) and the bucket's middle, worked out here from the excerpt's own
 * numbers, and must agree with the bundled catalog, whose spot sections
 * pricing/tools/build_catalogs.py computed on its own.  p5.4xlarge is not
 * in the feed and keeps its spot section.
 */
static void test_spot_advisor_matches_the_rule_and_the_bundled_catalog(
    void **state)
{
    static const double middle[5] = {0.025, 0.075, 0.125, 0.175, 0.25};
    const char *advisor =
        src_path("tests/data/import/spot-advisor-excerpt.json");
    const char *base = src_path("pricing/aws/us-east-1.json");
    run_result r;
    gp_catalog *c, *bundled = NULL;
    json_t *feed, *linux_types;
    json_error_t jerr;
    char *text = NULL;
    size_t len = 0, listed = 0;
    gp_error err;
    (void)state;

    /* the catalog first, the feed second: the importer tells them apart */
    r = run_spot(base, advisor);
    assert_int_equal(r.st, GP_OK);
    c = load_output(&r);
    gp_error_clear(&err);
    assert_int_equal(
        gp_source_load(base, GP_SOURCE_CATALOG, &text, &len, &err), GP_OK);
    assert_int_equal(gp_catalog_parse(&bundled, text, len, base, ".", &err),
                     GP_OK);
    gp_free(text);
    feed = json_load_file(advisor, 0, &jerr);
    assert_non_null(feed);
    linux_types = json_object_get(
        json_object_get(json_object_get(feed, "spot_advisor"), "us-east-1"),
        "Linux");
    assert_int_equal(c->n_types, bundled->n_types);
    for (size_t i = 0; i < c->n_types; i++) {
        const gp_instance_type *t = &c->types[i], *b = &bundled->types[i];
        json_t *entry = json_object_get(linux_types, t->name);
        assert_string_equal(t->name, b->name);
        if (!entry) {
            /* not listed: the base's spot stays as it was */
            assert_int_equal(t->spot.present, b->spot.present);
            assert_close(t->spot.hourly, b->spot.hourly, 0);
            continue;
        }
        assert_true(t->spot.present);
        listed++;
        double s = json_number_value(json_object_get(entry, "s"));
        size_t bucket = (size_t)json_integer_value(json_object_get(entry, "r"));
        /* rounded to a millionth: at most half of one off.  p4de.24xlarge
         * is a tie, 27.44705 x 0.35 = 9.6064675, which the importer rounds
         * down and the test's own product lands within 1e-15 of the bound:
         * the extra 1e-12 is for that product's rounding, not the price */
        assert_close(t->spot.hourly, t->on_demand * (1 - s / 100),
                     5e-7 + 1e-12);
        assert_close(t->spot.interruption_rate_monthly, middle[bucket], 1e-12);
        assert_true(t->spot.estimate);
        assert_close(t->spot.hourly, b->spot.hourly, 5e-7);
        assert_close(t->spot.interruption_rate_monthly,
                     b->spot.interruption_rate_monthly, 1e-12);
        assert_string_equal(t->spot.bucket, b->spot.bucket);
    }
    /* 36 bundled types, p5.4xlarge not in the feed: one type, singular */
    assert_int_equal(listed, 35);
    assert_non_null(strstr(r.notes.items[0],
                           "spot estimates for 35 types; 1 type the advisor "
                           "does not list keeps its spot section"));
    /* one more source line says where the spot numbers came from */
    assert_int_equal(c->n_sources, bundled->n_sources + 1);
    json_decref(feed);
    gp_catalog_free(c);
    gp_catalog_free(bundled);
    result_free(&r);
}

/* A small catalog and feed to work the rule by hand: on-demand 2.0, 60%
 * saved -> 0.8; bucket "5-10%" -> 0.075; ">20%" -> 0.25. */
#define SMALL_CATALOG                                                          \
    "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", \"region\": "  \
    "\"us-east-1\", \"currency\": \"USD\", \"as_of\": \"2026-11-01\", "        \
    "\"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, \"on_demand\": 2.0}, "  \
    "\"g6.xlarge\": {\"gpus\": 1, \"on_demand\": 1.0}}}"

static void test_spot_advisor_rule_by_hand(void **state)
{
    run_result r;
    gp_catalog *c;
    (void)state;

    r = run_spot_text(
        "{\"ranges\": [{\"index\": 0, \"label\": \"<5%\"}, {\"index\": 1, "
        "\"label\": \"5-10%\"}, {\"index\": 4, \"label\": \">20%\"}], "
        "\"spot_advisor\": {\"us-east-1\": {\"Linux\": {\"g5.xlarge\": "
        "{\"s\": 60, \"r\": 1}, \"g6.xlarge\": {\"s\": 35, \"r\": 4}}}}}",
        SMALL_CATALOG);
    assert_int_equal(r.st, GP_OK);
    c = load_output(&r);
    assert_close(c->types[0].spot.hourly, 0.8, 1e-12);
    assert_close(c->types[0].spot.interruption_rate_monthly, 0.075, 1e-12);
    assert_string_equal(c->types[0].spot.bucket, "5-10%");
    /* 1.0 x (1 - 0.35) = 0.65 */
    assert_close(c->types[1].spot.hourly, 0.65, 1e-12);
    assert_close(c->types[1].spot.interruption_rate_monthly, 0.25, 1e-12);
    gp_catalog_free(c);
    result_free(&r);
}

/* Feed and catalog mistakes, located in the feed. */
static void test_spot_advisor_errors_are_located_in_the_feed(void **state)
{
    /* columns counted on the text (python3: line.index(value) + 1) */
    static const struct {
        const char *advisor, *catalog, *want;
    } cases[] = {
        {"{\"ranges\": [{\"index\": 0, \"label\": \"<5%\"}],\n"
         "\"spot_advisor\": {\"eu-west-1\": {}}}",
         SMALL_CATALOG,
         "sa.json:2:17: spot_advisor: no region \"us-east-1\" in the advisor "
         "feed"},
        {"{\"ranges\": [{\"index\": 0, \"label\": \"<5%\"}],\n"
         "\"spot_advisor\": {\"us-east-1\": {\"Linux\": {\"g5.xlarge\": "
         "{\"s\": 60, \"r\": 3}}}}}",
         SMALL_CATALOG,
         "sa.json:2:70: spot_advisor.us-east-1.Linux.g5.xlarge.r: must be at "
         "most 0, got 3"},
        {"{\"ranges\": [{\"index\": 0, \"label\": \"<5%\"}],\n"
         "\"spot_advisor\": {\"us-east-1\": {\"Linux\": {\"g5.xlarge\": "
         "{\"s\": 160, \"r\": 0}}}}}",
         SMALL_CATALOG,
         "sa.json:2:61: spot_advisor.us-east-1.Linux.g5.xlarge.s: expected a "
         "percent saved in [0, 100), got 160"},
        {"{\"ranges\": [{\"index\": 0, \"label\": \"rare\"}],\n"
         "\"spot_advisor\": {}}",
         SMALL_CATALOG,
         "sa.json:1:35: ranges[0].label: expected a bucket such as \"<5%\", "
         "\"10-15%\" or \">20%\", got \"rare\""},
        {"{\"ranges\": [], \"spot_advisor\": {}}", SMALL_CATALOG,
         "sa.json:1:12: ranges: no interruption buckets"},
        {"{\"ranges\": [], \"spot_advisor\": {}}",
         "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"gcp\", "
         "\"region\": \"us-central1\", \"currency\": \"USD\", \"as_of\": "
         "\"2026-11-01\", \"instance_types\": {}}",
         "cat.json: provider: the Spot Instance Advisor covers aws, not gcp"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_spot_text(cases[i].advisor, cases[i].catalog);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), cases[i].want);
        assert_int_equal(r.len, 0);
        result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offer_catalog_has_the_list_prices),
        cmocka_unit_test(test_offer_with_two_regions_needs_region),
        cmocka_unit_test(test_offer_region_picks_the_rows),
        cmocka_unit_test(test_offer_real_samples_have_no_gpu_linux_prices),
        cmocka_unit_test(test_offer_bad_rows_give_file_line_column),
        cmocka_unit_test(test_offer_writes_no_catalog_the_loader_rejects),
        cmocka_unit_test(test_offer_skips_fractional_gpu_types),
        cmocka_unit_test(test_offer_allocation_failures_do_not_leak),
        cmocka_unit_test(
            test_spot_advisor_matches_the_rule_and_the_bundled_catalog),
        cmocka_unit_test(test_spot_advisor_rule_by_hand),
        cmocka_unit_test(test_spot_advisor_errors_are_located_in_the_feed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
