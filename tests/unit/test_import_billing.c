/*
 * test_import_billing.c: unit tests of `gpuplan import focus` and `import
 * aws-cur` (import_billing.c): billing exports turned into a trace and the
 * commitments they show as owned.
 *
 * The fixtures are in tests/data/import/ (its README says which rows are
 * real and which were built for a case the real samples lack).  Every
 * expected trace row and commitment is worked out by hand from the fixture
 * rows; the comment beside each says how.  Every emitted scenario is loaded
 * back with gpuplan's own scenario loader.
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

/* A file of ../shared/data, or NULL when that folder is not there. */
static const char *shared_path(const char *rel)
{
    static char buf[1024];
    const char *s = getenv("GP_SHARED_DATA");
    snprintf(buf, sizeof buf, "%s/%s",
             s && s[0] ? s : GP_SOURCE_DIR "/../shared/data", rel);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

/* What one import run gave: status, error, output text, notes. */
typedef struct run_result {
    gp_status st;
    gp_error err;
    char *out;
    gp_warnings notes;
} run_result;

static void result_free(run_result *r)
{
    free(r->out);
    gp_warnings_clear(&r->notes);
}

/* Reads a FILE written so far into a malloc'd string. */
static char *slurp(FILE *f)
{
    long n;
    char *s;

    fflush(f);
    n = ftell(f);
    rewind(f);
    s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    return s;
}

/* The catalogs run_file passes to the importer (NULL: none, every type
 * is kept). */
static const gp_pricing *run_pricing;

/* Runs importer `fn` ("focus" or "aws-cur") on one file, with the owned
 * commitments written to commitments_out (may be NULL). */
static run_result run_file(const char *format, const char *path,
                           const char *commitments_out)
{
    run_result r;
    gp_import_options o;
    const char *inputs[1] = {path};
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    assert_non_null(out);
    o.inputs = inputs;
    o.n_inputs = 1;
    o.notes = &r.notes;
    o.commitments_out = commitments_out;
    o.pricing = run_pricing;
    gp_error_clear(&r.err);
    r.st = strcmp(format, "focus") == 0 ? gp_import_focus(&o, out, &r.err)
                                        : gp_import_aws_cur(&o, out, &r.err);
    r.out = slurp(out);
    fclose(out);
    return r;
}

/* Runs an importer on CSV text in memory. */
static run_result run_text(const char *format, const char *text)
{
    run_result r;
    gp_import_options o;
    FILE *out = tmpfile();

    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    assert_non_null(out);
    o.notes = &r.notes;
    gp_error_clear(&r.err);
    r.st = strcmp(format, "focus") == 0
               ? gp_import_focus_buffer(text, strlen(text), "bill.csv", &o, out,
                                        &r.err)
               : gp_import_aws_cur_buffer(text, strlen(text), "cur.csv", &o,
                                          out, &r.err);
    r.out = slurp(out);
    fclose(out);
    return r;
}

/* The error as the CLI prints it. */
static const char *formatted(const gp_error *err)
{
    static char buf[1400];
    gp_error_format(err, buf, sizeof buf);
    return buf;
}

/* Whether some note contains `what`. */
static bool has_note(const gp_warnings *w, const char *what)
{
    for (size_t i = 0; i < w->count; i++)
        if (strstr(w->items[i], what))
            return true;
    return false;
}

/* The number member `key` of a JSON object. */
static double number_of(const json_t *obj, const char *key)
{
    return json_number_value(json_object_get(obj, key));
}

/* A temporary file name for a scenario. */
static const char *temp_name(void)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "/tmp/gp_test_import_%ld.json", (long)getpid());
    return buf;
}

/* ---- AWS CUR ------------------------------------------------------------- */

/*
 * aws-cur-gpu.csv (built, see the README) bills 2026-01-05 13:00-15:00:
 *   13:00 us-east-1 g5.xlarge: Usage 1.0 + Usage 0.5 + SavingsPlanCovered
 *         1.0 + SpotUsage 1.0                                   = 3.5
 *   13:00 us-east-1 p4d.24xlarge: two DiscountedUsage rows of 1.0 = 2
 *   13:00 us-east-2 g5.xlarge (USE2-BoxUsage): 2.0               = 2
 *   14:00 us-east-1 g5.xlarge: Usage 1.0 + SavingsPlanCovered 1.0 = 2
 *   14:00 us-east-1 p4d.24xlarge: DiscountedUsage 1.0            = 1
 * The EBS, S3, data-transfer, tax and fee rows are not instance-hours.
 */
static void test_cur_sums_instance_hours_per_pool_and_hour(void **state)
{
    run_result r;
    (void)state;

    r = run_file("aws-cur", src_path("tests/data/import/aws-cur-gpu.csv"),
                 NULL);
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2026-01-05T13:00:00Z,3600,aws,us-east-1,g5.xlarge,3.5\n"
               "2026-01-05T13:00:00Z,3600,aws,us-east-1,p4d.24xlarge,2\n"
               "2026-01-05T13:00:00Z,3600,aws,us-east-2,g5.xlarge,2\n"
               "2026-01-05T14:00:00Z,3600,aws,us-east-1,g5.xlarge,2\n"
               "2026-01-05T14:00:00Z,3600,aws,us-east-1,p4d.24xlarge,1\n");
    /* 17 data rows: 10 instance-hour rows (one SpotUsage); not usage: two
     * SavingsPlanRecurringFee, one RIFee, one Tax; not instance-hours: EBS,
     * S3, data transfer */
    assert_true(has_note(&r.notes, "17 rows: 10 compute instance-hour rows "
                                   "imported (1 of them spot); skipped 4 not "
                                   "usage, 3 not instance-hours"));
    result_free(&r);
}

/*
 * The same bill's commitments, as the fee rows state them:
 *   RIFee: reservation/NumberOfReservations 2, pricing/LeaseContractLength
 *   1yr, PurchaseOption No Upfront, StartTime 2025-11-01; it covered three
 *   p4d.24xlarge hours at publicOnDemandCost 21.957642 each = 65.872926.
 *   SavingsPlanRecurringFee: TotalCommitmentToDate 1.5 $/h, 1yr, No
 *   Upfront, ComputeSavingsPlans, StartTime 2025-12-01; it covered two
 *   g5.xlarge hours at 1.006 = 2.012.
 * Nothing is assumed: no "assumed" key.
 */
static void test_cur_commitments_load_as_a_scenario(void **state)
{
    run_result r;
    gp_scenario *s = NULL;
    gp_error err;
    json_t *root, *c;
    json_error_t jerr;
    (void)state;

    r = run_file("aws-cur", src_path("tests/data/import/aws-cur-gpu.csv"),
                 temp_name());
    assert_int_equal(r.st, GP_OK);
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_load(&s, temp_name(), &err), GP_OK);
    assert_int_equal(s->n_commitments, 2);
    assert_int_equal(s->commitments[0].type, GP_COMMIT_RESERVED);
    assert_string_equal(s->commitments[0].provider, "aws");
    assert_string_equal(s->commitments[0].region, "us-east-1");
    assert_string_equal(s->commitments[0].instance_type, "p4d.24xlarge");
    assert_close(s->commitments[0].count, 2, 0);
    assert_int_equal(s->commitments[0].term_years, 1);
    assert_int_equal(s->commitments[0].payment, GP_NO_UPFRONT);
    /* date -u -d 2025-11-01 +%s */
    assert_int_equal(s->commitments[0].start, 1761955200);
    assert_int_equal(s->commitments[1].type, GP_COMMIT_SAVINGS_PLAN);
    assert_int_equal(s->commitments[1].kind, GP_PLAN_COMPUTE);
    assert_close(s->commitments[1].hourly_commitment, 1.5, 1e-12);
    /* date -u -d 2025-12-01 +%s */
    assert_int_equal(s->commitments[1].start, 1764547200);
    gp_scenario_free(s);

    root = json_load_file(temp_name(), 0, &jerr);
    assert_non_null(root);
    c = json_array_get(json_object_get(root, "commitments"), 0);
    assert_close(number_of(c, "covered_instance_hours"),
                 3, 1e-9);
    assert_close(number_of(c, "covered_on_demand_cost"),
                 65.872926, 1e-9);
    assert_null(json_object_get(c, "assumed"));
    c = json_array_get(json_object_get(root, "commitments"), 1);
    assert_close(number_of(c, "covered_on_demand_cost"),
                 2.012, 1e-9);
    json_decref(root);
    unlink(temp_name());
    result_free(&r);
}

/* The real anonymised CUR sample has no EC2 rows (SOURCE.txt: S3, Glue,
 * SQS, ...; 1,281 rows), so it holds nothing to import. */
static void test_cur_real_sample_without_ec2_is_an_error(void **state)
{
    const char *path = shared_path(
        "billing/aws-cur/sample-anonymous-aws-export-dataset.csv");
    run_result r;
    (void)state;

    if (!path)
        skip();
    r = run_file("aws-cur", path, NULL);
    assert_int_equal(r.st, GP_ERR_INPUT);
    assert_non_null(strstr(r.err.message,
                           "no compute instance-hour rows among 1281 rows"));
    result_free(&r);
}

/* The header every CUR error case below shares. */
#define CUR_HEAD                                                               \
    "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,"     \
    "lineItem/ProductCode,lineItem/UsageType,lineItem/UsageAmount,"            \
    "product/regionCode\n"

/* Malformed instance-hour rows are errors at their line and column; a
 * non-instance row with the same junk is not read at all. */
static void test_cur_bad_rows_give_file_line_column(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        /* line 3 (the header is line 1), column 6 = UsageAmount */
        {CUR_HEAD "Usage,2026-01-05T13:00:00Z,2026-01-05T14:00:00Z,AmazonS3,"
                  "TimedStorage,x,us-east-1\n"
                  "Usage,2026-01-05T13:00:00Z,2026-01-05T14:00:00Z,AmazonEC2,"
                  "BoxUsage:g5.xlarge,one,us-east-1\n",
         "cur.csv:3:6: lineItem/UsageAmount: expected a number, got \"one\""},
        {CUR_HEAD "Usage,2026-01-05T13:00:00Z,2026-01-05T14:00:00Z,AmazonEC2,"
                  "BoxUsage:g5.xlarge,-1,us-east-1\n",
         "cur.csv:2:6: lineItem/UsageAmount: must not be negative, got -1"},
        /* end before start: column 3 */
        {CUR_HEAD "Usage,2026-01-05T13:00:00Z,2026-01-05T12:00:00Z,AmazonEC2,"
                  "BoxUsage:g5.xlarge,1,us-east-1\n",
         "cur.csv:2:3: lineItem/UsageEndDate: the charge period ends before "
         "it starts (2026-01-05T13:00:00Z to 2026-01-05T12:00:00Z)"},
        {CUR_HEAD "Usage,2026-01-05T13:00:00Z,2026-01-05T14:00:00Z,AmazonEC2,"
                  "BoxUsage:g5.xlarge,1,\n",
         "cur.csv:2:7: product/regionCode: missing value (no region, region "
         "code or availability zone names where the usage ran)"},
        {"lineItem/LineItemType,lineItem/UsageStartDate\n",
         "cur.csv:1: lineItem/UsageEndDate: missing column (is this an AWS "
         "Cost and Usage Report?)"},
        {"", "cur.csv:1: empty file; expected an AWS Cost and Usage Report "
             "header row"},
        {CUR_HEAD "Usage,\"2026-01-05,x\n",
         "cur.csv:2:2: lineItem/UsageStartDate: malformed CSV: a quoted "
         "field is not closed"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_text("aws-cur", cases[i].text);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), cases[i].want);
        assert_string_equal(r.out, "");
        result_free(&r);
    }
}

/* The CUR 2.0 spelling of the columns (line_item_usage_type) and a daily
 * row: 48 instance-hours over one day are 2 instances. */
static void test_cur2_columns_and_daily_rows(void **state)
{
    run_result r;
    (void)state;

    r = run_text("aws-cur",
                 "line_item_line_item_type,line_item_usage_start_date,"
                 "line_item_usage_end_date,line_item_product_code,"
                 "line_item_usage_type,line_item_usage_amount,"
                 "line_item_availability_zone\n"
                 "Usage,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z,AmazonEC2,"
                 "EUW1-BoxUsage:g6.xlarge,48,eu-west-1b\n");
    assert_int_equal(r.st, GP_OK);
    /* region: the zone eu-west-1b without its letter */
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2026-01-05T00:00:00Z,86400,aws,eu-west-1,g6.xlarge,2\n");
    result_free(&r);
}

/* Local Zone usage types carry the zone after the region prefix
 * ("USW2-LAX1-BoxUsage:g4dn.xlarge").  They were read as the kind
 * "LAX1-BoxUsage" and skipped as not instance-hours; now each is its
 * zone's region (the zone without its letter, which is how the offer
 * files name a Local Zone's prices): LAX 2 on demand + 4 spot = 6, MIA 3,
 * and the region's own g5.xlarge 1, sorted by region. */
static void test_cur_local_zone_usage_counts_in_its_zones_region(void **state)
{
    run_result r;
    (void)state;

    r = run_text("aws-cur",
                 "line_item_line_item_type,line_item_usage_start_date,"
                 "line_item_usage_end_date,line_item_product_code,"
                 "line_item_usage_type,line_item_usage_amount,"
                 "line_item_availability_zone\n"
                 "Usage,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,AmazonEC2,"
                 "USW2-BoxUsage:g5.xlarge,1,us-west-2a\n"
                 "Usage,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,AmazonEC2,"
                 "USW2-LAX1-BoxUsage:g4dn.xlarge,2,us-west-2-lax-1a\n"
                 "Usage,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,AmazonEC2,"
                 "USW2-LAX1-SpotUsage:g4dn.xlarge,4,us-west-2-lax-1a\n"
                 "Usage,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,AmazonEC2,"
                 "USE1-MIA1-BoxUsage:g4dn.xlarge,3,us-east-1-mia-1a\n");
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2026-01-05T00:00:00Z,3600,aws,us-east-1-mia-1,g4dn.xlarge,3\n"
               "2026-01-05T00:00:00Z,3600,aws,us-west-2,g5.xlarge,1\n"
               "2026-01-05T00:00:00Z,3600,aws,us-west-2-lax-1,g4dn.xlarge,6\n");
    assert_non_null(strstr(r.notes.items[0], "0 not instance-hours"));
    result_free(&r);
}

/* ---- FOCUS --------------------------------------------------------------- */

/*
 * focus-sample-excerpt.csv holds 20 real rows of the FOCUS sample: the
 * eight "$1.624 per On Demand Linux g5.4xlarge Instance Hour" rows, whose
 * ConsumedQuantity values (read off the file) are 1, 0.683889, 0.303056,
 * 0.296111, 1, 1, 1 and 1 in hourly periods, so instances = quantity; four
 * Savings-Plan-covered rows (t2.medium, t3.micro, c5.large and Fargate,
 * which is not an instance-hour), two more EC2 instance rows, and six rows
 * of storage, network and queues.
 */
static void test_focus_real_rows_become_a_trace(void **state)
{
    run_result r;
    (void)state;

    r = run_file("focus",
                 src_path("tests/data/import/focus-sample-excerpt.csv"), NULL);
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out,
        "timestamp,step_s,provider,region,instance_type,instances\n"
        "2024-09-04T04:00:00Z,3600,aws,us-west-2,t2.medium,1\n"
        "2024-09-12T01:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
        "2024-09-13T20:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.683889\n"
        "2024-09-20T16:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.303056\n"
        "2024-09-20T20:00:00Z,3600,aws,ap-south-1,t3.micro,1\n"
        "2024-09-21T01:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.296111\n"
        "2024-09-22T17:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
        "2024-09-24T21:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
        "2024-09-26T00:00:00Z,3600,aws,us-east-1,c5.2xlarge,1\n"
        "2024-09-26T12:00:00Z,3600,aws,us-east-1,c5.large,1\n"
        "2024-09-27T15:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
        "2024-09-29T21:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n");
    assert_true(has_note(&r.notes, "20 rows: 12 compute instance-hour rows "
                                   "imported (0 of them spot); skipped 0 not "
                                   "usage, 8 not instance-hours"));
    result_free(&r);
}

/* With the bundled catalogs (as `gpuplan import` runs it), the rows of
 * types they do not price in the row's region are left out, so that the
 * trace simulates: of the rows above, the t2.medium (us-west-2), t3.micro
 * (ap-south-1), c5.2xlarge and c5.large (us-east-1) ones; the eight
 * g5.4xlarge rows stay.  The sample's savings plans covered only such
 * rows, so the note gives that reason for leaving them out. */
static void
test_focus_types_the_catalogs_do_not_price_are_left_out(void **state)
{
    run_result r;
    gp_pricing *p = NULL;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("pricing/aws/us-east-1.json"), 0, &err),
        GP_OK);
    run_pricing = p;
    r = run_file("focus",
                 src_path("tests/data/import/focus-sample-excerpt.csv"),
                 temp_name());
    run_pricing = NULL;
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2024-09-12T01:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
               "2024-09-13T20:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.683889\n"
               "2024-09-20T16:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.303056\n"
               "2024-09-21T01:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.296111\n"
               "2024-09-22T17:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
               "2024-09-24T21:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
               "2024-09-27T15:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
               "2024-09-29T21:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n");
    assert_true(has_note(&r.notes, "8 compute instance-hour rows imported"));
    assert_true(has_note(&r.notes, "4 of types the catalogs do not price in "
                                   "their region (such as c5.2xlarge in "
                                   "us-east-1, t2.medium in us-west-2, "
                                   "t3.micro in ap-south-1, c5.large in "
                                   "us-east-1: not GPU types"));
    assert_true(has_note(&r.notes, "e524c80342a2 left out: the bill shows it "
                                   "covering only "
                                   "types the catalogs do not price"));
    unlink(temp_name());
    result_free(&r);
    gp_pricing_free(p);
}

/* The sample's savings plans show BilledCost and EffectiveCost 0 (it is
 * anonymised), so their hourly commitment cannot be known: they are left
 * out of the scenario, and a note says so. */
static void test_focus_unsized_commitments_are_left_out(void **state)
{
    run_result r;
    gp_scenario *s = NULL;
    gp_error err;
    (void)state;

    r = run_file("focus",
                 src_path("tests/data/import/focus-sample-excerpt.csv"),
                 temp_name());
    assert_int_equal(r.st, GP_OK);
    assert_true(has_note(&r.notes, "savingsplan/37985e61-4fcb-4023-9dd7-"
                                   "e524c80342a2 left out: the bill shows "
                                   "nothing charged to it"));
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_load(&s, temp_name(), &err), GP_OK);
    assert_int_equal(s->n_commitments, 0);
    gp_scenario_free(s);
    unlink(temp_name());
    result_free(&r);
}

/*
 * focus-commitments.csv (built from the sample's columns) on 2024-09-10:
 *   05:00 two p4d.24xlarge rows under reservation R (category Usage),
 *         06:00 one more: count = the most in one hour = 2; covered 3 h
 *         at ListCost 21.957642 = 65.872926.
 *   05:00 g5.4xlarge 1 h under plan S, EffectiveCost 1.1, and the plan's
 *         Unused row of 0.4: 1.5 charged that hour; 06:00 0.5 h at 0.55.
 *         hourly_commitment = max(1.5, 0.55) = 1.5; covered 1.5 h worth
 *         1.624 + 0.812 = 2.436.
 * FOCUS 1.0 has no term, payment or start: 1 year, no upfront, the first
 * hour (05:00), listed under "assumed" (and kind for the plan).
 */
static void test_focus_commitments_are_sized_from_the_bill(void **state)
{
    run_result r;
    gp_scenario *s = NULL;
    gp_error err;
    json_t *root, *c;
    json_error_t jerr;
    (void)state;

    r = run_file("focus", src_path("tests/data/import/focus-commitments.csv"),
                 temp_name());
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2024-09-10T05:00:00Z,3600,aws,us-east-1,g5.4xlarge,1\n"
               "2024-09-10T05:00:00Z,3600,aws,us-east-1,p4d.24xlarge,2\n"
               "2024-09-10T06:00:00Z,3600,aws,us-east-1,g5.4xlarge,0.5\n"
               "2024-09-10T06:00:00Z,3600,aws,us-east-1,p4d.24xlarge,1\n");
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_load(&s, temp_name(), &err), GP_OK);
    assert_int_equal(s->n_commitments, 2);
    assert_int_equal(s->commitments[0].type, GP_COMMIT_RESERVED);
    assert_string_equal(s->commitments[0].instance_type, "p4d.24xlarge");
    assert_close(s->commitments[0].count, 2, 0);
    /* date -u -d 2024-09-10T05:00:00Z +%s */
    assert_int_equal(s->commitments[0].start, 1725944400);
    assert_int_equal(s->commitments[1].type, GP_COMMIT_SAVINGS_PLAN);
    assert_close(s->commitments[1].hourly_commitment, 1.5, 1e-12);
    gp_scenario_free(s);

    root = json_load_file(temp_name(), 0, &jerr);
    assert_non_null(root);
    c = json_array_get(json_object_get(root, "commitments"), 0);
    assert_int_equal(json_array_size(json_object_get(c, "assumed")), 3);
    assert_close(number_of(c, "covered_on_demand_cost"),
                 65.872926, 1e-9);
    c = json_array_get(json_object_get(root, "commitments"), 1);
    assert_string_equal(
        json_string_value(json_array_get(json_object_get(c, "assumed"), 0)),
        "kind");
    assert_close(number_of(c, "covered_instance_hours"),
                 1.5, 1e-9);
    assert_close(number_of(c, "covered_on_demand_cost"),
                 2.436, 1e-9);
    json_decref(root);
    unlink(temp_name());
    result_free(&r);
}

/* The whole real sample (SOURCE.txt: 1,000 rows, 8 g5.4xlarge rows): its
 * g5.4xlarge instance-hours add up to 1 + 0.683889 + 0.303056 + 0.296111
 * + 4 x 1 = 6.283056. */
static void test_focus_whole_real_sample(void **state)
{
    const char *path = shared_path("billing/focus/focus_sample.csv");
    run_result r;
    double g5 = 0;
    char *line;
    (void)state;

    if (!path)
        skip();
    r = run_file("focus", path, NULL);
    assert_int_equal(r.st, GP_OK);
    for (line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        const char *hit = strstr(line, ",g5.4xlarge,");
        if (hit)
            g5 += strtod(hit + strlen(",g5.4xlarge,"), NULL);
    }
    assert_close(g5, 6.283056, 1e-9);
    assert_true(has_note(&r.notes, "1000 rows:"));
    result_free(&r);
}

/* The header every FOCUS error case below shares. */
#define FOCUS_HEAD                                                             \
    "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,PricingCategory,"        \
    "CommitmentDiscountId,CommitmentDiscountCategory,CommitmentDiscountType,"  \
    "ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ChargeDescription,"   \
    "EffectiveCost,ListCost\n"
#define FOCUS_ROW(start, end, quantity, region)                               \
    "Usage," start "," end ",Standard,NULL,NULL,NULL," quantity               \
    ",Hours,AWS," region ",$1.006 per On Demand Linux g5.xlarge Instance "    \
    "Hour,1.006,1.006\n"

/* Malformed instance-hour rows: file:line:column: field: message. */
static void test_focus_bad_rows_give_file_line_column(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00",
                              "lots", "us-east-1"),
         "bill.csv:2:8: ConsumedQuantity: expected a number, got \"lots\""},
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00",
                              "-2", "us-east-1"),
         "bill.csv:2:8: ConsumedQuantity: must not be negative, got -2"},
        {FOCUS_HEAD FOCUS_ROW("yesterday", "2024-09-10 06:00:00", "1",
                              "us-east-1"),
         "bill.csv:2:2: ChargePeriodStart: expected an ISO 8601 time "
         "(2026-01-05T13:00:00Z) or epoch seconds, got \"yesterday\""},
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 05:00:00", "1",
                              "us-east-1"),
         "bill.csv:2:3: ChargePeriodEnd: the charge period is empty (it "
         "starts and ends at 2024-09-10 05:00:00)"},
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00", "1",
                              "NULL"),
         "bill.csv:2:11: RegionId: missing value"},
        {"ChargeCategory,ChargePeriodStart\n",
         "bill.csv:1: ChargePeriodEnd: missing column (is this a FOCUS 1.0 "
         "export?)"},
        {FOCUS_HEAD "Usage,x\"y\n",
         "bill.csv:2:2: ChargePeriodStart: malformed CSV: a double quote "
         "inside an unquoted field or after a closing quote"},
        /* 2 fields and 15 against the header's 14: the column named is
         * the first one the two disagree on (the header's third name; the
         * 15th field has none) */
        {FOCUS_HEAD "Usage,2024-09-10 05:00:00\n",
         "bill.csv:2:3: ChargePeriodEnd: row has 2 fields, the header has 14"},
        {FOCUS_HEAD "Tax,,,,,,,,,,,,,,\n",
         "bill.csv:2:15: row has 15 fields, the header has 14"},
        {FOCUS_HEAD "Tax,2024-09-10 05:00:00,2024-09-10 06:00:00,,,,,,,,,,,\n",
         "bill.csv: no compute instance-hour rows among 1 row (expected "
         "usage rows billed in hours whose ChargeDescription names an "
         "instance type, or an x_InstanceType column)"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r = run_text("focus", cases[i].text);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), cases[i].want);
        assert_string_equal(r.out, "");
        result_free(&r);
    }
}

/*
 * Rows whose trace the loader would reject (trace.c's limits, util.h) are
 * an error at the bill's own line, column and field, and nothing is
 * written; rows just inside the limits are written.  The bounds, worked out
 * by hand: a trace row holds at most 1e7 instances, so 1e7 instance-hours
 * in one hour pass and 10000001 do not, nor do two rows of 5000001 for the
 * same pool and hour (10000002); a row's period is shorter than 263520
 * hours (30 x 366 x 24), and 263520 hours after 2000-01-01T00:00 is
 * 2030-01-23T00:00 (10980 days: 30 years of which 8 leap, 10958, plus 22),
 * so a period ending an hour before that passes and one ending then does
 * not; the trace spans at most 263520 clock hours, so a year from
 * 2029-01-23 with an hour of 2000-01-01 passes, an hour more does not;
 * 1e306 instance-hours in 1 s are 3.6e309 instances, past a double.
 */
static void test_focus_rows_past_the_trace_limits(void **state)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00",
                              "10000001", "us-east-1"),
         "bill.csv:2:8: ConsumedQuantity: 10000001 instance-hours in a "
         "charge period of 3600 s are 10000001 instances of g5.xlarge; a "
         "trace row holds at most 10000000"},
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 05:00:01",
                              "1e306", "us-east-1"),
         "bill.csv:2:8: ConsumedQuantity: 1e306 instance-hours in a charge "
         "period of 1 s are more than 1e308 instances of g5.xlarge; a trace "
         "row holds at most 10000000"},
        {FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00",
                              "5000001", "us-east-1")
             FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00", "5000001",
                       "us-east-1"),
         "bill.csv:3:8: ConsumedQuantity: with the rows before it of this "
         "type, region and period, 10000002 instance-hours in a charge "
         "period of 3600 s are 10000002 instances of g5.xlarge; a trace row "
         "holds at most 10000000"},
        {FOCUS_HEAD FOCUS_ROW("2000-01-01 00:00:00", "2030-01-23 00:00:00", "1",
                              "us-east-1"),
         "bill.csv:2:3: ChargePeriodEnd: the charge period covers 263520 "
         "hours (30 years) or more; is this time right?"},
        {FOCUS_HEAD FOCUS_ROW("2030-01-23 00:00:00", "2030-01-23 01:00:00", "1",
                              "us-east-1")
             FOCUS_ROW("2000-01-01 00:00:00", "2000-01-01 01:00:00", "1",
                       "us-east-1"),
         "bill.csv:3:2: ChargePeriodStart: with this row the trace would "
         "span 2000-01-01T00:00:00Z to 2030-01-23T01:00:00Z, more than "
         "263520 hours (30 years); is this time right?"},
    };
    static const char *const good[] = {
        FOCUS_HEAD FOCUS_ROW("2024-09-10 05:00:00", "2024-09-10 06:00:00",
                             "10000000", "us-east-1"),
        FOCUS_HEAD FOCUS_ROW("2000-01-01 00:00:00", "2030-01-22 23:00:00",
                             "263519", "us-east-1"),
        FOCUS_HEAD FOCUS_ROW("2029-01-23 00:00:00", "2030-01-23 00:00:00", "1",
                             "us-east-1")
            FOCUS_ROW("2000-01-01 00:00:00", "2000-01-01 01:00:00", "1",
                      "us-east-1"),
    };
    (void)state;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_result r = run_text("focus", bad[i].text);
        assert_int_equal(r.st, GP_ERR_INPUT);
        assert_string_equal(formatted(&r.err), bad[i].want);
        assert_string_equal(r.out, "");
        result_free(&r);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        run_result r = run_text("focus", good[i]);
        assert_int_equal(r.st, GP_OK);
        result_free(&r);
    }
    {
        /* 1e7 instance-hours in one hour: the row says 1e7 instances */
        run_result r = run_text("focus", good[0]);
        assert_non_null(strstr(r.out, ",g5.xlarge,10000000\n"));
        result_free(&r);
    }
}

/* Half an hour billed over a 30-minute period is one instance; a UTF-8
 * byte order mark and CRLF line ends are read; other providers' rows are
 * counted, not imported. */
static void test_focus_period_length_bom_and_crlf(void **state)
{
    run_result r;
    (void)state;

    r = run_text("focus",
                 "\xEF\xBB\xBF"
                 "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,"
                 "PricingCategory,CommitmentDiscountId,"
                 "CommitmentDiscountCategory,CommitmentDiscountType,"
                 "ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,"
                 "ChargeDescription,EffectiveCost,ListCost\r\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 05:30:00,Dynamic,,,,0.5,"
                 "Hours,AWS,us-east-1,$0.4 per Linux g5.xlarge Instance "
                 "Hour,0.2,0.503\r\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Standard,,,,1,"
                 "Hours,Oracle,us-ashburn-1,$1 per Linux BM.GPU.A10 Instance "
                 "Hour,1,1\r\n");
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2024-09-10T05:00:00Z,1800,aws,us-east-1,g5.xlarge,1\n");
    /* PricingCategory Dynamic is spot */
    /* one row of the two imported: singular, and "(spot)" rather than
     * "(1 of them spot)" */
    assert_true(has_note(&r.notes, "bill.csv: 2 rows: 1 compute instance-hour "
                                   "row imported (spot); skipped 0 not usage"));
    assert_true(has_note(&r.notes, "1 from providers gpuplan does not price"));
    result_free(&r);
}

/* A bill of one on-demand row: the summary is singular throughout.  It
 * read "bill.csv: 1 rows: 1 compute instance-hour rows imported (0 of
 * them spot)". */
static void test_focus_one_row_summary_is_singular(void **state)
{
    run_result r;
    (void)state;

    r = run_text("focus",
                 "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,"
                 "PricingCategory,CommitmentDiscountId,"
                 "CommitmentDiscountCategory,CommitmentDiscountType,"
                 "ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,"
                 "ChargeDescription,EffectiveCost,ListCost\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Standard,,,,1,"
                 "Hours,AWS,us-east-1,$1.006 per On Demand Linux g5.xlarge "
                 "Instance Hour,1.006,1.006\n");
    assert_int_equal(r.st, GP_OK);
    assert_true(has_note(&r.notes,
                         "bill.csv: 1 row: 1 compute instance-hour row "
                         "imported (not spot); skipped 0 not "
                         "usage"));
    result_free(&r);
}

/* AWS writes the instance type into lineItem/LineItemDescription (FOCUS
 * ChargeDescription) differently per purchase option.  The two forms below
 * are AWS's own: spot "c4.large Linux/UNIX Spot Instance-hour in US West
 * (Oregon) in VPC Zone #1" and reservation-covered "Linux/UNIX (Amazon
 * VPC), m4.large Reserved Instance applied" (as in AWS's CUR user guide
 * and the CUR rows of Netflix ice's tests).  Both are instance-hours and
 * were skipped as "not instance-hours" before.  Expected by hand: g5.xlarge
 * spot, 2 hours in one hour -> 2 instances; p4d.24xlarge covered by the
 * reservation, 1 hour in one hour -> 1 instance, and the reservation
 * covered 1 instance-hour. */
static void
test_focus_spot_and_reserved_descriptions_are_instance_hours(void **state)
{
    run_result r;
    (void)state;

    r = run_text("focus",
                 "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,"
                 "PricingCategory,CommitmentDiscountId,"
                 "CommitmentDiscountCategory,CommitmentDiscountType,"
                 "CommitmentDiscountStatus,ConsumedQuantity,ConsumedUnit,"
                 "ProviderName,RegionId,ChargeDescription,EffectiveCost,"
                 "ListCost\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Dynamic,,,,,2,"
                 "Hours,AWS,us-east-1,g5.xlarge Linux/UNIX Spot Instance-hour "
                 "in US East (N. Virginia) in VPC Zone #1,0.8,2.012\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Committed,"
                 "arn:aws:ec2:us-east-1:1:reserved-instances/r1,Usage,"
                 "Reserved Instance,Used,1,Hours,AWS,us-east-1,"
                 "\"Linux/UNIX (Amazon VPC), p4d.24xlarge Reserved Instance "
                 "applied\",13.7,32.77\n"
                 /* a first word that is a price is no instance type */
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Dynamic,,,,,1,"
                 "Hours,AWS,us-east-1,$0.35 per Linux/UNIX Spot Instance-hour,"
                 "0.35,1\n");
    assert_int_equal(r.st, GP_OK);
    assert_string_equal(
        r.out, "timestamp,step_s,provider,region,instance_type,instances\n"
               "2024-09-10T05:00:00Z,3600,aws,us-east-1,g5.xlarge,2\n"
               "2024-09-10T05:00:00Z,3600,aws,us-east-1,p4d.24xlarge,1\n");
    assert_true(has_note(&r.notes, "2 compute instance-hour rows imported (1 "
                                   "of them spot); skipped 0 not usage, 1 not "
                                   "instance-hours"));
    assert_true(has_note(&r.notes, "reserved-instances/r1 covered 1 "
                                   "instance-hour worth"));
    result_free(&r);
}

/* An x_InstanceType with a comma would have been written into the trace
 * as it is, splitting the row into one field too many. */
static void test_focus_unusable_x_instance_type_is_an_error(void **state)
{
    run_result r;
    (void)state;

    r = run_text("focus",
                 "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,"
                 "PricingCategory,CommitmentDiscountId,"
                 "CommitmentDiscountCategory,CommitmentDiscountType,"
                 "ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,"
                 "ChargeDescription,EffectiveCost,ListCost,x_InstanceType\n"
                 "Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Standard,,,,1,"
                 "Hours,AWS,us-east-1,compute,1,1,\"g5,xlarge\"\n");
    assert_int_equal(r.st, GP_ERR_INPUT);
    /* x_InstanceType is the 15th column */
    assert_string_equal(formatted(&r.err),
                        "bill.csv:2:15: x_InstanceType: not a usable name: "
                        "\"g5,xlarge\"");
    assert_string_equal(r.out, "");
    result_free(&r);
}

/* Daily rows (the real FOCUS sample has 51 rows of 24 hours; CUR comes
 * daily too): what a commitment covered is spread over the day's hours.
 * Worked by hand: a reservation covering 48 p4d.24xlarge instance-hours
 * over 2024-09-10 is 2 instances in each of the 24 hours, so count 2 (it
 * was 48: the whole day charged to 00:00); a savings plan charged 36
 * dollars of covered usage and 12 unused over the same day is (36 + 12) /
 * 24 = 2 dollars an hour (it was 48). */
static void test_focus_daily_rows_size_commitments_per_hour(void **state)
{
    static const char path[] = "/tmp/gp_test_import_daily.csv";
    static const char head[] =
        "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,PricingCategory,"
        "CommitmentDiscountId,CommitmentDiscountCategory,"
        "CommitmentDiscountType,CommitmentDiscountStatus,ConsumedQuantity,"
        "ConsumedUnit,ProviderName,RegionId,ChargeDescription,EffectiveCost,"
        "ListCost\n";
    run_result r;
    gp_scenario *s = NULL;
    gp_error err;
    FILE *f = fopen(path, "w");
    (void)state;

    assert_non_null(f);
    fputs(head, f);
    fputs("Usage,2024-09-10 00:00:00,2024-09-11 00:00:00,Committed,ri-1,Usage,"
          "Reserved Instance,Used,48,Hours,AWS,us-east-1,\"Linux/UNIX (Amazon "
          "VPC), p4d.24xlarge Reserved Instance applied\",660,1054\n"
          "Usage,2024-09-10 00:00:00,2024-09-11 00:00:00,Committed,sp-1,Spend,"
          "Savings Plan,Used,24,Hours,AWS,us-east-1,$1.624 per On Demand "
          "Linux g5.4xlarge Instance Hour,36,38.976\n"
          "Usage,2024-09-10 00:00:00,2024-09-11 00:00:00,Committed,sp-1,Spend,"
          "Savings Plan,Unused,0,Hours,AWS,us-east-1,unused commitment,12,"
          "0\n",
          f);
    fclose(f);
    r = run_file("focus", path, temp_name());
    assert_int_equal(r.st, GP_OK);
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_load(&s, temp_name(), &err), GP_OK);
    assert_int_equal(s->n_commitments, 2);
    assert_int_equal(s->commitments[0].type, GP_COMMIT_RESERVED);
    assert_close(s->commitments[0].count, 2, 0);
    assert_int_equal(s->commitments[1].type, GP_COMMIT_SAVINGS_PLAN);
    assert_close(s->commitments[1].hourly_commitment, 2.0, 1e-9);
    /* date -u -d 2024-09-10T00:00:00Z +%s: the first hour stays the start */
    assert_int_equal(s->commitments[0].start, 1725926400);
    gp_scenario_free(s);
    unlink(temp_name());
    unlink(path);
    result_free(&r);
}

/* Every allocation failing in turn: the import fails cleanly (ASan checks
 * that nothing leaks) until enough allocations succeed. */
static void test_allocation_failures_do_not_leak(void **state)
{
    char *text = NULL;
    size_t len = 0;
    gp_error err;
    gp_status st = GP_ERR_NOMEM;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(
        gp_source_load(src_path("tests/data/import/aws-cur-gpu.csv"),
                       GP_SOURCE_IMPORT, &text, &len, &err),
        GP_OK);
    for (long n = 0; n < 10000 && st == GP_ERR_NOMEM; n++) {
        gp_import_options o;
        FILE *out = tmpfile();
        memset(&o, 0, sizeof o);
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_import_aws_cur_buffer(text, len, "cur.csv", &o, out, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        fclose(out);
    }
    assert_int_equal(st, GP_OK);
    gp_free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cur_sums_instance_hours_per_pool_and_hour),
        cmocka_unit_test(test_cur_commitments_load_as_a_scenario),
        cmocka_unit_test(test_cur_real_sample_without_ec2_is_an_error),
        cmocka_unit_test(test_cur_bad_rows_give_file_line_column),
        cmocka_unit_test(test_cur2_columns_and_daily_rows),
        cmocka_unit_test(test_cur_local_zone_usage_counts_in_its_zones_region),
        cmocka_unit_test(test_focus_real_rows_become_a_trace),
        cmocka_unit_test(test_focus_unsized_commitments_are_left_out),
        cmocka_unit_test(
            test_focus_types_the_catalogs_do_not_price_are_left_out),
        cmocka_unit_test(test_focus_commitments_are_sized_from_the_bill),
        cmocka_unit_test(test_focus_whole_real_sample),
        cmocka_unit_test(test_focus_bad_rows_give_file_line_column),
        cmocka_unit_test(test_focus_rows_past_the_trace_limits),
        cmocka_unit_test(test_focus_period_length_bom_and_crlf),
        cmocka_unit_test(test_focus_one_row_summary_is_singular),
        cmocka_unit_test(
            test_focus_spot_and_reserved_descriptions_are_instance_hours),
        cmocka_unit_test(test_focus_unusable_x_instance_type_is_an_error),
        cmocka_unit_test(test_focus_daily_rows_size_commitments_per_hour),
        cmocka_unit_test(test_allocation_failures_do_not_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
