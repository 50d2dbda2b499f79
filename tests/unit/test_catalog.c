/*
 * test_catalog.c: unit tests of the pricing catalogs (catalog.c) and of the
 * JSON locator they share with scenarios (json_util.c).
 *
 * Every expected number and position is worked out by hand from the input
 * next to it; the comment beside each says how.  The small catalogs under
 * tests/data/pricing-small/ hold made-up prices chosen to make that easy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_rows.h"
#include "gpuplan.h"
#include "json_util.h"

/* 2026-11-21T00:00:00Z, the day the golden tests pin (date -u -d 2026-11-21
 * +%s). */
#define TODAY 1795219200

/* A catalog header on one line, so that what follows starts on line 2. */
#define HEAD                                                                   \
    "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", \"region\": "  \
    "\"us-east-1\", \"currency\": \"USD\", \"as_of\": \"2026-11-01\",\n"

/* Parses text as a catalog that must fail; returns the error. */
static gp_error parse_fails(const char *text)
{
    gp_catalog *c = (gp_catalog *)1;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(
        gp_catalog_parse(&c, text, strlen(text), "cat.json", "", &err),
        GP_ERR_INPUT);
    assert_null(c);
    return err;
}

/* Parses text as a catalog that must load. */
static gp_catalog *parse_ok(const char *text)
{
    gp_catalog *c = NULL;
    gp_error err;

    gp_error_clear(&err);
    if (gp_catalog_parse(&c, text, strlen(text), "cat.json", "", &err) != GP_OK)
        fail_msg("unexpected error: %s:%ld:%ld: %s: %s", err.source, err.line,
                 err.column, err.field, err.message);
    return c;
}

/* ---- the locator -------------------------------------------------------- */

/* Positions counted by hand, column by column, in the comments below. */
static const char locator_doc[] =
    "{\n"                                                           /* line 1 */
    "  \"name\": \"x\",\n"                                          /* line 2 */
    "  \"list\": [10, {\"k\": \"a{b]c\"}, [1, 2]],\n"               /* line 3 */
    "  \"t\\u00e9\": {\"\xc3\xa9\": 5, \"deep\": {\"v\": true}},\n" /* 4 */
    "  \"a\\u002eb\": null,\n"                                      /* line 5 */
    "\t\"tab\": 1\n"                                                /* line 6 */
    "}\n";

/* Locates path in locator_doc and checks the answer. */
static void check_locate(const gp_jstep *path, size_t depth, bool found,
                         long line, long column)
{
    long l = -1, c = -1;
    bool ok =
        gp_json_locate(locator_doc, strlen(locator_doc), path, depth, &l, &c);
    assert_int_equal(ok, found);
    assert_int_equal(l, line);
    assert_int_equal(c, column);
}

static void test_locator_finds_values_on_a_multiline_document(void **state)
{
    (void)state;
    /* the root: line 1, column 1 */
    check_locate(NULL, 0, true, 1, 1);
    /* line 2 is `  "name": "x",`: 2 spaces, "name" in columns 3-8, ':' 9,
     * space 10, the value at 11 */
    check_locate((gp_jstep[]){{"name", 0}}, 1, true, 2, 11);
    /* line 3 `  "list": [10, {"k": "a{b]c"}, [1, 2]],`: '[' at 11 */
    check_locate((gp_jstep[]){{"list", 0}}, 1, true, 3, 11);
    /* list[0] "10" at 12; list[1] '{' at 16 (1 at 12, 0 13, ',' 14, ' ' 15) */
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 0}}, 2, true, 3, 12);
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 1}}, 2, true, 3, 16);
    /* list[1].k: '{' 16, '"k"' 17-19, ':' 20, ' ' 21, value at 22 */
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 1}, {"k", 0}}, 3, true, 3,
                 22);
    /* list[2]: "a{b]c" spans 22-28 (the brackets inside it do not count),
     * '}' 29, ',' 30, ' ' 31, '[' 32; its [1] is the '2' at 36 */
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 2}, {NULL, 1}}, 3, true, 3,
                 36);
}

static void
test_locator_decodes_escaped_keys_and_counts_characters(void **state)
{
    (void)state;
    /* line 4 `  "t\u00e9": {"é": 5, "deep": {"v": true}},`: the key
     * "t\u00e9" (9 characters, columns 3-11) is "té"; ':' 12, ' ' 13,
     * '{' 14, '"' 15, 'é' 16 (one character, two bytes), '"' 17, ':' 18,
     * ' ' 19, the 5 at 20 */
    check_locate((gp_jstep[]){{"t\xc3\xa9", 0}, {"\xc3\xa9", 0}}, 2, true, 4,
                 20);
    /* ", "deep": {"v": true}": ',' 21, ' ' 22, "deep" 23-28, ':' 29,
     * ' ' 30, '{' 31, "v" 32-34, ':' 35, ' ' 36, true at 37 */
    check_locate((gp_jstep[]){{"t\xc3\xa9", 0}, {"deep", 0}, {"v", 0}}, 3, true,
                 4, 37);
    /* line 5 `  "a\u002eb": null,`: the key is "a.b" (10 characters,
     * columns 3-12), ':' 13, ' ' 14, null at 15 */
    check_locate((gp_jstep[]){{"a.b", 0}}, 1, true, 5, 15);
    /* line 6: a tab is one column: "tab" 2-6, ':' 7, ' ' 8, 1 at 9 */
    check_locate((gp_jstep[]){{"tab", 0}}, 1, true, 6, 9);
}

static void
test_locator_points_at_the_parent_when_the_path_is_missing(void **state)
{
    (void)state;
    /* list[1] exists (3:16) but has no key "zzz" */
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 1}, {"zzz", 0}}, 3, false, 3,
                 16);
    /* list has 3 elements: [5] falls back to the list at 3:11 */
    check_locate((gp_jstep[]){{"list", 0}, {NULL, 5}}, 2, false, 3, 11);
    /* a key on a number: "name" is a string, it has no members */
    check_locate((gp_jstep[]){{"name", 0}, {"x", 0}}, 2, false, 2, 11);
    /* no such top-level key: the root */
    check_locate((gp_jstep[]){{"nope", 0}}, 1, false, 1, 1);
}

static void test_locator_takes_the_last_of_duplicate_keys(void **state)
{
    const char *doc = "{\"a\": 1,\n \"a\": 2}";
    long l = 0, c = 0;

    (void)state;
    /* line 2 ` "a": 2}`: ' ' 1, "a" 2-4, ':' 5, ' ' 6, the 2 at 7 */
    assert_true(
        gp_json_locate(doc, strlen(doc), (gp_jstep[]){{"a", 0}}, 1, &l, &c));
    assert_int_equal(l, 2);
    assert_int_equal(c, 7);
}

static void test_locator_stops_at_the_end_of_truncated_text(void **state)
{
    /* every prefix of a document, in a buffer with no terminator after it,
     * so that ASan catches any read past the end */
    const char *doc = "{\"a\": [1, {\"b\\\"\": \"x\\u12\"}, \"\\";
    size_t n = strlen(doc);

    (void)state;
    for (size_t len = 0; len <= n; len++) {
        char *buf = malloc(len ? len : 1);
        long l = 0, c = 0;
        memcpy(buf, doc, len);
        gp_json_locate(buf, len, (gp_jstep[]){{"a", 0}, {NULL, 1}, {"b\"", 0}},
                       3, &l, &c);
        assert_true(l >= 1 && c >= 1);
        free(buf);
    }
}

static void test_path_format_joins_keys_and_indices(void **state)
{
    char buf[96];

    (void)state;
    gp_json_path_format((gp_jstep[]){{"instance_types", 0},
                                     {"p4d.24xlarge", 0},
                                     {"reserved", 0},
                                     {NULL, 1},
                                     {"hourly", 0}},
                        5, buf, sizeof buf);
    assert_string_equal(buf, "instance_types.p4d.24xlarge.reserved[1].hourly");
    gp_json_path_format((gp_jstep[]){{"commitments", 0}, {NULL, 1}}, 2, buf,
                        sizeof buf);
    assert_string_equal(buf, "commitments[1]");
    gp_json_path_format(NULL, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
    /* cut at the buffer: 9 characters and the terminator */
    gp_json_path_format((gp_jstep[]){{"commitments", 0}, {NULL, 1}}, 2, buf,
                        10);
    assert_string_equal(buf, "commitmen");
    gp_json_path_format((gp_jstep[]){{"ab", 0}, {NULL, 12}, {"c", 0}}, 3, buf,
                        8);
    assert_string_equal(buf, "ab[12].");
}

static void test_numbers_in_messages_are_short_and_exact(void **state)
{
    char buf[32];

    (void)state;
    gp_json_format_number(2.5, buf, sizeof buf);
    assert_string_equal(buf, "2.5");
    gp_json_format_number(12.5 / 100, buf, sizeof buf);
    assert_string_equal(buf, "0.125");
    gp_json_format_number(21.957642, buf, sizeof buf);
    assert_string_equal(buf, "21.957642");
    gp_json_format_number(20000000, buf, sizeof buf);
    assert_string_equal(buf, "20000000");
    gp_json_format_number(-0.1, buf, sizeof buf);
    assert_string_equal(buf, "-0.1");
}

static void test_quoted_strings_stay_on_one_line(void **state)
{
    char buf[64];

    (void)state;
    /* each escaped as the trace reader's messages escape it
     * (gp_append_escaped): \n, \r, \t, \x01, and \xff for a byte that is
     * not UTF-8; "é" (C3 A9) is UTF-8 and stays as it is */
    assert_string_equal(
        gp_json_quote("a\"b\\c\nd\x01\re\tf\xff\xc3\xa9", buf, sizeof buf),
        "\"a\\\"b\\\\c\\nd\\x01\\re\\tf\\xff\xc3\xa9\"");
}

/* ---- parsing one catalog ------------------------------------------------ */

static void test_catalog_reads_every_field(void **state)
{
    gp_catalog *c = parse_ok(
        HEAD
        " \"sources\": [\"list prices\", \"estimates\"],\n"
        " \"instance_types\": {\"p4d.24xlarge\": {\n"
        "  \"family\": \"p4d\", \"gpu_model\": \"A100-40GB\", \"gpus\": 8,\n"
        "  \"vcpus\": 96, \"memory_gib\": 1152, \"normalization_factor\": "
        "192,\n"
        "  \"on_demand\": 21.957642,\n"
        "  \"reserved\": [{\"term_years\": 1, \"payment\": "
        "\"partial_upfront\", \"hourly\": 6.5, \"upfront\": 57000, "
        "\"estimate\": true}],\n"
        "  \"savings_plans\": [{\"kind\": \"compute\", \"term_years\": 3, "
        "\"payment\": \"all_upfront\", \"hourly\": 9.5}],\n"
        "  \"spot\": {\"hourly\": 7.25, \"interruption_rate_monthly\": "
        "0.125, \"interruption_bucket\": \"10-15%\", \"estimate\": true}\n"
        "}}}\n");
    const gp_instance_type *t;

    (void)state;
    assert_string_equal(c->path, "cat.json");
    assert_string_equal(c->provider, "aws");
    assert_string_equal(c->region, "us-east-1");
    assert_string_equal(c->currency, "USD");
    assert_string_equal(c->as_of, "2026-11-01");
    /* date -u -d 2026-11-01 +%s */
    assert_int_equal(c->as_of_t, 1793491200);
    assert_int_equal(c->n_sources, 2);
    assert_string_equal(c->sources[1], "estimates");
    assert_int_equal(c->n_types, 1);
    t = &c->types[0];
    assert_string_equal(t->name, "p4d.24xlarge");
    assert_string_equal(t->family, "p4d");
    assert_string_equal(t->gpu_model, "A100-40GB");
    assert_int_equal(t->gpus, 8);
    assert_close(t->vcpus, 96, 1e-12);
    assert_close(t->memory_gib, 1152, 1e-12);
    assert_close(t->normalization_factor, 192, 1e-12);
    assert_close(t->on_demand, 21.957642, 1e-12);
    assert_int_equal(t->n_reserved, 1);
    assert_int_equal(t->reserved[0].term_years, 1);
    assert_int_equal(t->reserved[0].payment, GP_PARTIAL_UPFRONT);
    assert_close(t->reserved[0].hourly, 6.5, 1e-12);
    assert_close(t->reserved[0].upfront, 57000, 1e-12);
    assert_true(t->reserved[0].estimate);
    assert_int_equal(t->n_plans, 1);
    assert_int_equal(t->plans[0].kind, GP_PLAN_COMPUTE);
    assert_int_equal(t->plans[0].term_years, 3);
    assert_int_equal(t->plans[0].payment, GP_ALL_UPFRONT);
    assert_false(t->plans[0].estimate);
    assert_true(t->spot.present);
    assert_close(t->spot.hourly, 7.25, 1e-12);
    assert_close(t->spot.interruption_rate_monthly, 0.125, 1e-12);
    assert_string_equal(t->spot.bucket, "10-15%");
    assert_true(t->spot.estimate);
    assert_null(t->spot.history);
    gp_catalog_free(c);
}

static void
test_catalog_sorts_types_by_name_and_defaults_optional_keys(void **state)
{
    gp_catalog *c = parse_ok(HEAD " \"instance_types\": {\n"
                                  "  \"p5.48xlarge\": {\"gpus\": 8, "
                                  "\"on_demand\": 55.04},\n"
                                  "  \"g5.xlarge\": {\"gpus\": 1, "
                                  "\"on_demand\": 1.006},\n"
                                  "  \"g5.12xlarge\": {\"gpus\": 4, "
                                  "\"on_demand\": 5.672}}}\n");

    (void)state;
    assert_int_equal(c->n_types, 3);
    /* strcmp order: "g5.12xlarge" < "g5.xlarge" ('1' < 'x') < "p5..." */
    assert_string_equal(c->types[0].name, "g5.12xlarge");
    assert_string_equal(c->types[1].name, "g5.xlarge");
    assert_string_equal(c->types[2].name, "p5.48xlarge");
    /* absent keys: empty strings, zeros, no offers, no spot */
    assert_string_equal(c->types[1].family, "");
    assert_string_equal(c->types[1].gpu_model, "");
    assert_close(c->types[1].normalization_factor, 0, 0);
    assert_int_equal(c->types[1].n_reserved, 0);
    assert_int_equal(c->types[1].n_plans, 0);
    assert_false(c->types[1].spot.present);
    assert_int_equal(c->n_sources, 0);
    gp_catalog_free(c);
}

/* A key the catalog format does not have is a misspelling (a misspelt
 * "upfront" would make the reservation cheaper without a word); keys that
 * start with '_' are comments. */
static void test_catalog_rejects_unknown_keys_but_reads_comments(void **state)
{
    gp_catalog *c = parse_ok(
        HEAD " \"_note\": {\"anything\": [1, 2]}, \"instance_types\": {\n"
             "  \"g5.xlarge\": {\"gpus\": 1, \"on_demand\": 1.006, \"_color\": "
             "\"blue\",\n"
             "   \"reserved\": [{\"term_years\": 1, \"payment\": "
             "\"no_upfront\", \"hourly\": 0.63, \"_\": null}]}}}\n");
    gp_error err;

    (void)state;
    assert_int_equal(c->n_types, 1);
    assert_int_equal(c->types[0].n_reserved, 1);
    gp_catalog_free(c);

    err = parse_fails(
        HEAD " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, "
             "\"on_demand\": 1.006,\n"
             "   \"reserved\": [{\"term_years\": 1, \"payment\": "
             "\"partial_upfront\", \"hourly\": 0.3, \"upfrnt\": 2628}]}}}\n");
    /* line 3 `   "reserved": [{"term_years": 1, "payment": "partial_upfront",
     * "hourly": 0.3, "upfrnt": 2628`: 3 spaces, "reserved" 4-13, ':' 14,
     * ' ' 15, '[' 16, '{' 17, "term_years" 18-29, ':' 30, ' ' 31, 1 at 32,
     * ',' 33, ' ' 34, "payment" 35-43, ':' 44, ' ' 45, "partial_upfront"
     * 46-62, ',' 63, ' ' 64, "hourly" 65-72, ':' 73, ' ' 74, 0.3 75-77,
     * ',' 78, ' ' 79, "upfrnt" 80-87, ':' 88, ' ' 89, 2628 at 90.
     * "upfrnt" is one edit from "upfront". */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 90);
    assert_string_equal(err.field,
                        "instance_types.g5.xlarge.reserved[0].upfrnt");
    assert_string_equal(err.message, "unknown key (did you mean \"upfront\"?)");

    /* "types" is 9 edits from "instance_types", but held in it whole */
    err = parse_fails(HEAD " \"types\": {}}\n");
    assert_string_equal(err.field, "types");
    assert_string_equal(err.message,
                        "unknown key (did you mean \"instance_types\"?)");

    /* nothing near: the message lists the keys */
    err = parse_fails(HEAD " \"instance_types\": {}, \"zz\": 1}\n");
    assert_string_equal(err.field, "zz");
    assert_string_equal(err.message,
                        "unknown key (expected schema, provider, region, "
                        "currency, as_of, sources, instance_types)");
}

static void test_catalog_rejects_percent_interruption_rate(void **state)
{
    gp_error err = parse_fails(
        HEAD
        " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, \"on_demand\": "
        "1.006,\n"
        "   \"spot\": {\"hourly\": 0.35, \"interruption_rate_monthly\": "
        "12.5}}}}\n");

    (void)state;
    assert_string_equal(err.source, "cat.json");
    /* line 3 `   "spot": {"hourly": 0.35, "interruption_rate_monthly": 12.5`:
     * 3 spaces, "spot" 4-9, ':' 10, ' ' 11, '{' 12, "hourly" 13-20, ':' 21,
     * ' ' 22, 0.35 23-26, ',' 27, ' ' 28, the 27-character key 29-55,
     * ':' 56, ' ' 57, 12.5 at 58 */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 58);
    assert_string_equal(
        err.field, "instance_types.g5.xlarge.spot.interruption_rate_monthly");
    /* 12.5 / 100 = 0.125 */
    assert_string_equal(err.message,
                        "expected a fraction of instances per month in [0, 1), "
                        "got 12.5 (a percent? write 0.125)");
}

static void test_catalog_rejects_fractional_gpus(void **state)
{
    gp_error err =
        parse_fails(HEAD " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 2.5, "
                         "\"on_demand\": 1.006}}}\n");

    (void)state;
    /* line 2 ` "instance_types": {"g5.xlarge": {"gpus": 2.5`: ' ' 1,
     * "instance_types" 2-17, ':' 18, ' ' 19, '{' 20, "g5.xlarge" 21-31,
     * ':' 32, ' ' 33, '{' 34, "gpus" 35-40, ':' 41, ' ' 42, 2.5 at 43 */
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 43);
    assert_string_equal(err.field, "instance_types.g5.xlarge.gpus");
    assert_string_equal(err.message, "must be a whole number, got 2.5");
}

static void test_catalog_names_the_wrong_json_type(void **state)
{
    gp_error err =
        parse_fails(HEAD " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, "
                         "\"on_demand\": \"1.006\"}}}\n");

    (void)state;
    assert_string_equal(err.field, "instance_types.g5.xlarge.on_demand");
    assert_string_equal(err.message, "expected a number, got a string");
}

static void
test_catalog_reports_malformed_json_where_jansson_saw_it(void **state)
{
    gp_error err = parse_fails("{\"a\": 1,\n  \"b\": x}");

    (void)state;
    /* line 2 `  "b": x}`: the x at column 8 */
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 8);
    assert_string_equal(err.field, "");
    assert_string_equal(err.message, "invalid token near 'x'");
}

static void test_catalog_rejects_unknown_payment(void **state)
{
    gp_error err = parse_fails(
        HEAD
        " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, \"on_demand\": "
        "1.006,\n"
        "  \"reserved\": [{\"term_years\": 1, \"payment\": \"upfront\", "
        "\"hourly\": 0.6}]}}}\n");

    (void)state;
    assert_string_equal(err.field,
                        "instance_types.g5.xlarge.reserved[0].payment");
    assert_string_equal(err.message,
                        "unknown payment \"upfront\" (expected no_upfront, "
                        "partial_upfront or all_upfront)");
}

static void test_catalog_rejects_all_upfront_offer_with_hourly(void **state)
{
    gp_error err = parse_fails(
        HEAD
        " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, \"on_demand\": "
        "1.006,\n"
        "  \"reserved\": [{\"term_years\": 1, \"payment\": "
        "\"all_upfront\", \"hourly\": 0.1, \"upfront\": 5000}]}}}\n");

    (void)state;
    assert_string_equal(err.field,
                        "instance_types.g5.xlarge.reserved[0].hourly");
    assert_string_equal(err.message,
                        "an all_upfront offer has no hourly charge, got 0.1 "
                        "(put the whole price in upfront)");
}

static void test_catalog_rejects_duplicate_offers(void **state)
{
    gp_error err = parse_fails(
        HEAD
        " \"instance_types\": {\"g5.xlarge\": {\"gpus\": 1, \"on_demand\": "
        "1.006,\n"
        "  \"reserved\": [{\"term_years\": 1, \"payment\": \"no_upfront\", "
        "\"hourly\": 0.63},\n"
        "               {\"term_years\": 1, \"payment\": \"no_upfront\", "
        "\"hourly\": 0.61}]}}}\n");

    (void)state;
    /* line 4: 15 spaces, the offer's '{' at 16 */
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 16);
    assert_string_equal(err.field, "instance_types.g5.xlarge.reserved[1]");
    assert_string_equal(err.message,
                        "duplicate 1-year no_upfront offer (also reserved[0])");
}

static void test_catalog_rejects_a_wrong_schema_and_provider(void **state)
{
    gp_error err = parse_fails(
        "{\"schema\": \"gpuplan-catalog/9\", \"instance_types\": {}}");

    (void)state;
    assert_string_equal(err.field, "schema");
    assert_string_equal(err.message, "unknown schema \"gpuplan-catalog/9\" "
                                     "(expected gpuplan-catalog/1)");
    err = parse_fails("{\"schema\": \"gpuplan-catalog/1\", \"provider\": "
                      "\"oracle\"}");
    assert_string_equal(err.message, "unknown provider \"oracle\" (expected "
                                     "aws, gcp or azure)");
}

static void test_catalog_requires_instance_types(void **state)
{
    gp_error err = parse_fails(
        "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", "
        "\"region\": \"us-east-1\", \"currency\": \"USD\", \"as_of\": "
        "\"2026-11-01\"}");

    (void)state;
    /* a missing key is reported at the object that lacks it: the root */
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 1);
    assert_string_equal(err.field, "instance_types");
    assert_string_equal(err.message, "missing required key");
}

static void test_catalog_rejects_impossible_as_of_date(void **state)
{
    gp_error err = parse_fails(
        "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", "
        "\"region\": \"us-east-1\", \"currency\": \"USD\", \"as_of\": "
        "\"2026-02-29\", \"instance_types\": {}}");

    (void)state;
    /* 2026 is not a leap year */
    assert_string_equal(err.field, "as_of");
    assert_string_equal(err.message, "impossible date: that month has no "
                                     "such day, got \"2026-02-29\"");
}

/* ---- loading files and folders ------------------------------------------ */

static void test_bundled_catalogs_load_without_error(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    if (gp_pricing_load(&p, src_path("pricing"), TODAY, &err) != GP_OK)
        fail_msg("%s:%ld:%ld: %s: %s", err.source, err.line, err.column,
                 err.field, err.message);
    /* pricing/aws/us-east-1.json, pricing/azure/eastus.json and
     * pricing/gcp/us-central1.json, in name order */
    assert_int_equal(p->n_catalogs, 3);
    assert_string_equal(p->catalogs[0]->provider, "aws");
    assert_string_equal(p->catalogs[0]->region, "us-east-1");
    assert_string_equal(p->catalogs[1]->provider, "azure");
    assert_string_equal(p->catalogs[2]->provider, "gcp");
    /* the keys of each file's instance_types, counted with python3's json
     * module: 36 (aws), 7 (azure), 7 (gcp) */
    assert_int_equal(p->catalogs[0]->n_types, 36);
    assert_int_equal(p->catalogs[1]->n_types, 7);
    assert_int_equal(p->catalogs[2]->n_types, 7);
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        for (size_t k = 1; k < c->n_types; k++)
            assert_true(strcmp(c->types[k - 1].name, c->types[k].name) < 0);
    }
    gp_pricing_free(p);
}

static void
test_pricing_folder_loads_in_name_order_and_skips_other_files(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    /* README.md, g5-spot-history.csv and .hidden.json are skipped */
    assert_int_equal(p->n_catalogs, 3);
    assert_string_equal(
        p->catalogs[0]->path,
        src_path("tests/data/pricing-small/aws/us-east-1.json"));
    assert_string_equal(p->catalogs[1]->region, "us-west-2");
    assert_string_equal(p->catalogs[2]->provider, "gcp");
    gp_pricing_free(p);
}

static void test_pricing_load_warns_about_stale_and_odd_prices(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    char spot[1200], stale[1200];

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    /* us-west-2 prices g5.xlarge spot at 1.25 and on demand at 1.1 */
    snprintf(spot, sizeof spot,
             "%s: spot $1.25/h is above on-demand $1.1/h for g5.xlarge",
             src_path("tests/data/pricing-small/aws/us-west-2.json"));
    /* gcp/us-central1.json is as of 2026-01-01; from then to 2026-11-21 is
     * 31+28+31+30+31+30+31+31+30+31 = 304 days to November 1, + 20 = 324 */
    snprintf(stale, sizeof stale,
             "%s: prices as of 2026-01-01 are 324 days old",
             src_path("tests/data/pricing-small/gcp/us-central1.json"));
    assert_int_equal(p->warnings.count, 2);
    assert_string_equal(p->warnings.items[0], spot);
    assert_string_equal(p->warnings.items[1], stale);
    gp_pricing_free(p);
}

/* The stale-prices warning stays only for a catalog the run prices from:
 * a pool of the trace or a reservation of the scenario is of its types.
 * pricing-small's gcp catalog (as of 2026-01-01, 324 days before TODAY, as
 * above) has g2-standard-4; the aws ones are fresh, and us-west-2's spot
 * warning is about a type, not a date, so it always stays. */
static void test_pricing_drops_stale_warning_of_unused_catalogs(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    char stale[1200];
    const gp_catalog *east = NULL, *gcp = NULL;
    gp_pool pool;
    gp_trace t;
    gp_commitment owned;
    gp_scenario s;

    (void)state;
    gp_error_clear(&err);
    snprintf(stale, sizeof stale,
             "%s: prices as of 2026-01-01 are 324 days old",
             src_path("tests/data/pricing-small/gcp/us-central1.json"));
    memset(&t, 0, sizeof t);
    memset(&s, 0, sizeof s);
    memset(&owned, 0, sizeof owned);

    /* a trace of g5.xlarge in us-east-1 only: the gcp date goes */
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    assert_non_null(
        gp_pricing_find(p, "aws", "us-east-1", "g5.xlarge", &east, NULL));
    pool.catalog = east;
    pool.type = &east->types[0];
    t.pools = &pool;
    t.n_pools = 1;
    gp_pricing_drop_unused_warnings(p, &t, &s);
    assert_int_equal(p->warnings.count, 1);
    assert_non_null(strstr(p->warnings.items[0], "spot $1.25/h"));

    /* the same trace, and a scenario owning a g2-standard-4 reservation:
     * the gcp date stays */
    gp_pricing_free(p);
    p = NULL;
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    assert_non_null(
        gp_pricing_find(p, "aws", "us-east-1", "g5.xlarge", &east, NULL));
    pool.catalog = east;
    pool.type = &east->types[0];
    owned.type = GP_COMMIT_RESERVED;
    snprintf(owned.instance_type, sizeof owned.instance_type, "g2-standard-4");
    s.commitments = &owned;
    s.n_commitments = 1;
    gp_pricing_drop_unused_warnings(p, &t, &s);
    assert_int_equal(p->warnings.count, 2);
    assert_string_equal(p->warnings.items[1], stale);

    /* a trace of g2-standard-4 and no commitments: it stays */
    assert_non_null(
        gp_pricing_find(p, "gcp", "us-central1", "g2-standard-4", &gcp, NULL));
    pool.catalog = gcp;
    pool.type = &gcp->types[0];
    s.n_commitments = 0;
    gp_pricing_drop_unused_warnings(p, &t, &s);
    assert_int_equal(p->warnings.count, 2);
    assert_string_equal(p->warnings.items[1], stale);
    gp_pricing_free(p);
}

static void test_pricing_load_rejects_two_catalogs_for_one_region(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    char msg[1200];

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/dup-region"), TODAY, &err),
        GP_ERR_INPUT);
    assert_null(p);
    assert_string_equal(err.source, src_path("tests/data/dup-region/b.json"));
    /* line 2 ` "region": "us-east-1",`: ' ' 1, "region" 2-9, ':' 10,
     * ' ' 11, the value at 12 */
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 12);
    assert_string_equal(err.field, "region");
    snprintf(msg, sizeof msg, "aws us-east-1 is already loaded from %s",
             src_path("tests/data/dup-region/a.json"));
    assert_string_equal(err.message, msg);
}

static void
test_pricing_load_failure_leaves_an_existing_set_as_it_was(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    /* a.json is aws us-east-1 again */
    assert_int_equal(gp_pricing_load(&p,
                                     src_path("tests/data/dup-region/a.json"),
                                     TODAY, &err),
                     GP_ERR_INPUT);
    assert_non_null(p);
    assert_int_equal(p->n_catalogs, 3);
    assert_int_equal(p->warnings.count, 2);
    gp_pricing_free(p);
}

static void test_pricing_load_reports_a_missing_file(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_pricing_load(&p, "no-such-catalog.json", TODAY, &err),
                     GP_ERR_INPUT);
    assert_null(p);
    assert_string_equal(err.source, "no-such-catalog.json");
    assert_string_equal(err.message, "cannot open: No such file or directory");
}

static void test_spot_history_is_read_relative_to_the_catalog(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    const gp_catalog *c = NULL;
    const gp_instance_type *t;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    t = gp_pricing_find(p, "aws", "us-east-1", "g5.xlarge", &c, NULL);
    assert_non_null(t);
    /* g5-spot-history.csv: CRLF lines, a blank line, three prices:
     * 2026-04-02 0.35, 2026-04-03 0.40, 2026-04-05 0.30 */
    assert_int_equal(t->spot.n_history, 3);
    /* date -u -d 2026-04-02 +%s */
    assert_int_equal(t->spot.history[0].t, 1775088000);
    assert_close(t->spot.history[0].hourly, 0.35, 1e-12);
    /* date -u -d 2026-04-05 +%s */
    assert_int_equal(t->spot.history[2].t, 1775347200);
    /* hourly stands for the latest price */
    assert_close(t->spot.hourly, 0.30, 1e-12);
    gp_pricing_free(p);
}

static void test_spot_history_reads_any_columns_and_rfc4180_quotes(void **state)
{
    /* 40 columns c0..c39 with hourly at column 37 and timestamp at column
     * 40 (1-based), past the 32 an older reader kept; a byte order mark,
     * CRLF, a blank line, a quoted price and a quoted comma elsewhere */
    char text[2048];
    size_t n = 0;
    gp_spot_offer spot = {.hourly = 9};
    gp_error err;

    (void)state;
    n += (size_t)snprintf(text + n, sizeof text - n, "\xEF\xBB\xBF");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? "," : "",
                              i == 36   ? "hourly"
                              : i == 39 ? "timestamp"
                                        : "c");
    n += (size_t)snprintf(text + n, sizeof text - n, "\r\n\r\n");
    for (int row = 0; row < 2; row++) {
        for (int i = 0; i < 40; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s",
                                  i ? "," : "",
                                  i == 36   ? (row ? "\"0.40\"" : "0.35")
                                  : i == 39 ? (row ? "2026-04-03T00:00:00Z"
                                                   : "\"2026-04-02T00:00:00Z\"")
                                            : "\"a,b\"");
        n += (size_t)snprintf(text + n, sizeof text - n, "\r\n");
    }
    assert_true(n < sizeof text);
    gp_error_clear(&err);
    assert_int_equal(gp_catalog_parse_history(&spot, text, n, "h.csv", &err),
                     GP_OK);
    assert_int_equal(spot.n_history, 2);
    /* date -u -d 2026-04-02 +%s, and a day later */
    assert_int_equal(spot.history[0].t, 1775088000);
    assert_close(spot.history[0].hourly, 0.35, 1e-12);
    assert_int_equal(spot.history[1].t, 1775088000 + 86400);
    assert_close(spot.history[1].hourly, 0.40, 1e-12);
    /* the latest price replaces the 9 that was there */
    assert_close(spot.hourly, 0.40, 1e-12);
    gp_free(spot.history);
}

static void test_spot_history_rejects_bad_csv_and_keeps_no_prices(void **state)
{
    static const struct {
        const char *text;
        long line, column;
        const char *field;
    } cases[] = {
        /* bytes after a closing quote: the price "0.3" must not be read */
        {"timestamp,hourly\n2026-01-01T00:00:00Z,\"0.3\"9\n", 2, 2, "hourly"},
        /* a quote that never closes */
        {"timestamp,hourly\n2026-01-01T00:00:00Z,\"0.3\n", 2, 2, "hourly"},
        /* a row shorter and one longer than the header */
        {"timestamp,hourly\n2026-01-01T00:00:00Z,0.3\n2026-01-02T00:00:00Z\n",
         3, 2, "hourly"},
        {"hourly,timestamp\n0.3,2026-01-01T00:00:00Z,x\n", 2, 3, ""},
        /* hourly twice: the second one is the mistake */
        {"hourly,timestamp,hourly\n0.3,2026-01-01T00:00:00Z,0.4\n", 1, 3,
         "hourly"},
        /* lines ended by a lone CR (old Mac) or by CRLF, counted by hand:
         * the bad price, a quote error, a short row and an unclosed quote
         * are on the line they are on, with the column's name */
        {"timestamp,hourly\r2026-01-01T00:00:00Z,0.3\r"
         "2026-01-02T00:00:00Z,-1\r",
         3, 2, "hourly"},
        {"timestamp,hourly\r2026-01-01T00:00:00Z,0.3\r"
         "2026-01-02T00:00:00Z,\"0.3\"9\r",
         3, 2, "hourly"},
        {"timestamp,hourly\r\r2026-01-01T00:00:00Z,0.3\r"
         "2026-01-02T00:00:00Z\r",
         4, 2, "hourly"},
        {"timestamp,hourly\r2026-01-01T00:00:00Z,\"0.3\r", 2, 2, "hourly"},
        {"timestamp,hourly\r\n\r\n2026-01-01T00:00:00Z,0.3\r\n"
         "2026-01-02T00:00:00Z,-1\r\n",
         4, 2, "hourly"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_spot_offer spot = {.hourly = 9};
        gp_error err;
        gp_error_clear(&err);
        assert_int_equal(gp_catalog_parse_history(&spot, cases[i].text,
                                                  strlen(cases[i].text),
                                                  "h.csv", &err),
                         GP_ERR_INPUT);
        assert_null(spot.history);
        assert_int_equal(spot.n_history, 0);
        assert_close(spot.hourly, 9, 0);
        assert_string_equal(err.source, "h.csv");
        assert_int_equal(err.line, cases[i].line);
        assert_int_equal(err.column, cases[i].column);
        assert_string_equal(err.field, cases[i].field);
    }
}

/* gp_csv_rows_read's callback for the test below: the line of each row. */
static gp_status record_line(void *ctx, char **f, size_t n, long line,
                             gp_error *err)
{
    long *lines = ctx;
    (void)f;
    (void)n;
    (void)err;
    if (lines[0] < 7)
        lines[++lines[0]] = line;
    return GP_OK;
}

/* Streams `head`, n bytes "x" and `tail` through gp_csv_rows_read; the
 * lines its rows start on go to lines[1..lines[0]]. */
static gp_status stream_rows(const char *head, size_t n, const char *tail,
                             long *lines, gp_error *err)
{
    FILE *f = tmpfile();
    gp_source src;
    gp_status st;

    assert_non_null(f);
    fputs(head, f);
    for (size_t i = 0; i < n; i++)
        fputc('x', f);
    fputs(tail, f);
    rewind(f);
    gp_error_clear(err);
    memset(lines, 0, 8 * sizeof *lines);
    gp_source_stream(&src, f, "big.csv", GP_SOURCE_IMPORT_STREAM);
    st = gp_csv_rows_read(&src, record_line, lines, err);
    gp_source_close(&src);
    fclose(f);
    return st;
}

/* A streamed file is read in chunks of 1 MiB (csv_rows.c's READ_CHUNK),
 * and each case below puts a CR as the first chunk's last byte (head and
 * the x's are 2^20 - 1 bytes).
 * 1. A file whose first line ends in a lone CR ("a" CR): the CRLF the
 *    chunks cut apart ends one line, not two, and a lone CR or an LF ends
 *    a line too.  Lines: a, x..x CRLF, b CR, c LF, d CRLF: rows on 1-5.
 * 2. A file of LF lines ("h" LF): the CR cut from the "y" after it is a
 *    CR outside quotes, an error at line 2, column 1 (not a line end).
 * 3. The same CR inside a quoted field is part of it and ends no line:
 *    rows on lines 1 and 2 (the quoted one), and "z" on line 3. */
static void test_csv_rows_count_cr_and_crlf_lines_across_chunks(void **state)
{
    const size_t chunk = 1u << 20;
    long lines[8];
    gp_error err;

    (void)state;
    assert_int_equal(
        stream_rows("a\r", chunk - 3, "\r\nb\rc\nd\r\n", lines, &err), GP_OK);
    assert_int_equal(lines[0], 5);
    for (long k = 1; k <= 5; k++)
        assert_int_equal(lines[k], k);

    assert_int_equal(stream_rows("h\n", chunk - 3, "\ry\n", lines, &err),
                     GP_ERR_INPUT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 1);
    assert_non_null(strstr(err.message, "a carriage return inside a row, "
                                        "outside quotes"));

    assert_int_equal(stream_rows("h\n\"", chunk - 4, "\ry\"\nz\n", lines, &err),
                     GP_OK);
    assert_int_equal(lines[0], 3);
    assert_int_equal(lines[1], 1);
    assert_int_equal(lines[2], 2);
    assert_int_equal(lines[3], 3);
}

static void test_spot_history_fails_cleanly_at_every_allocation(void **state)
{
    const char *text = "timestamp,hourly\n2026-04-02T00:00:00Z,0.35\n"
                       "2026-04-03T00:00:00Z,\"0.40\"\n";
    long n;

    (void)state;
    for (n = 0;; n++) {
        gp_spot_offer spot = {.hourly = 9};
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_catalog_parse_history(&spot, text, strlen(text), "h.csv", &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            assert_int_equal(spot.n_history, 2);
            gp_free(spot.history);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(spot.history);
        assert_string_equal(err.message, "out of memory");
    }
    assert_true(n > 2);
}

static void test_spot_price_at_steps_through_the_history(void **state)
{
    gp_price_point h[] = {{1775088000, 0.35},  /* 2026-04-02 */
                          {1775174400, 0.40},  /* 2026-04-03 */
                          {1775347200, 0.30}}; /* 2026-04-05 */
    gp_spot_offer s = {
        .present = true, .hourly = 9, .history = h, .n_history = 3};
    gp_spot_offer flat = {.present = true, .hourly = 7.25};

    (void)state;
    /* before the series: its first price */
    assert_close(gp_spot_price_at(&s, 1775000000), 0.35, 1e-12);
    assert_close(gp_spot_price_at(&s, 1775088000), 0.35, 1e-12);
    /* 2026-04-03T12:00Z and 2026-04-04T00:00Z: still the April 3 price */
    assert_close(gp_spot_price_at(&s, 1775174400 + 43200), 0.40, 1e-12);
    assert_close(gp_spot_price_at(&s, 1775260800), 0.40, 1e-12);
    /* from April 5 on: the last price */
    assert_close(gp_spot_price_at(&s, 1775347200), 0.30, 1e-12);
    assert_close(gp_spot_price_at(&s, 1900000000), 0.30, 1e-12);
    /* no history: hourly */
    assert_close(gp_spot_price_at(&flat, 1775088000), 7.25, 1e-12);
}

static void
test_reserved_effective_hourly_adds_the_amortized_upfront(void **state)
{
    gp_reserved_offer partial = {1, GP_PARTIAL_UPFRONT, 0.3, 2628, false};
    gp_reserved_offer all3 = {3, GP_ALL_UPFRONT, 0, 262800, false};
    gp_reserved_offer none = {1, GP_NO_UPFRONT, 13.74, 0, false};

    (void)state;
    /* 0.3 + 2628 / 8760 = 0.3 + 0.3 = 0.6 */
    assert_close(gp_reserved_effective_hourly(&partial), 0.6, 1e-12);
    /* 262800 / (3 * 8760) = 262800 / 26280 = 10 */
    assert_close(gp_reserved_effective_hourly(&all3), 10.0, 1e-12);
    assert_close(gp_reserved_effective_hourly(&none), 13.74, 1e-12);
}

/* ---- lookups ------------------------------------------------------------ */

static void test_pricing_find_matches_provider_and_region(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    const gp_catalog *c = NULL;
    bool ambiguous = true;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    /* g5.xlarge is in aws us-east-1 and aws us-west-2 */
    assert_non_null(
        gp_pricing_find(p, "aws", "us-west-2", "g5.xlarge", &c, &ambiguous));
    assert_ptr_equal(c, p->catalogs[1]);
    assert_false(ambiguous);
    assert_null(gp_pricing_find(p, "aws", NULL, "g5.xlarge", &c, &ambiguous));
    assert_true(ambiguous);
    assert_null(c);
    assert_null(gp_pricing_find(p, "", "", "g5.xlarge", NULL, &ambiguous));
    assert_true(ambiguous);
    /* only one catalog has p4d.24xlarge; gcp has no g5.xlarge */
    assert_non_null(
        gp_pricing_find(p, NULL, NULL, "p4d.24xlarge", &c, &ambiguous));
    assert_false(ambiguous);
    assert_string_equal(c->region, "us-east-1");
    assert_null(gp_pricing_find(p, "gcp", NULL, "g5.xlarge", &c, &ambiguous));
    assert_false(ambiguous);
    assert_non_null(
        gp_pricing_find(p, NULL, NULL, "g2-standard-4", NULL, NULL));
    gp_pricing_free(p);
}

static void test_pricing_suggest_lists_the_nearest_names(void **state)
{
    gp_pricing *p = NULL;
    gp_error err;
    char buf[256];

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    /* "p4.24xlarge": p4d.24xlarge is one insertion away, p4de.24xlarge two,
     * p3.2xlarge two (4 -> 3, drop a 4) but shares a shorter start */
    gp_pricing_suggest(p, "p4.24xlarge", buf, sizeof buf, 2);
    assert_string_equal(buf, "p4d.24xlarge, p4de.24xlarge");
    gp_pricing_suggest(p, "p4.24xlarge", buf, sizeof buf, 3);
    assert_string_equal(buf, "p4d.24xlarge, p4de.24xlarge, p3.2xlarge");
    /* case does not count; g5.xlarge is listed once for its two regions;
     * p3.2xlarge is 3 edits from it (g->p, 5->3, insert 2), more than the
     * 2 allowed for a 9-character name */
    gp_pricing_suggest(p, "G5.XLARGE", buf, sizeof buf, 3);
    assert_string_equal(buf, "g5.xlarge");
    gp_pricing_suggest(p, "m7i.metal-48xl", buf, sizeof buf, 3);
    assert_string_equal(buf, "");
    gp_pricing_free(p);
}

/* ---- out of memory ------------------------------------------------------ */

static void test_catalog_parse_fails_cleanly_at_every_allocation(void **state)
{
    const char *text = HEAD
        " \"sources\": [\"a\", \"b\"], \"instance_types\": {\n"
        "  \"p4d.24xlarge\": {\"family\": \"p4d\", \"gpus\": 8, "
        "\"on_demand\": 21.96,\n"
        "   \"reserved\": [{\"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"hourly\": 13.74}],\n"
        "   \"savings_plans\": [{\"kind\": \"compute\", \"term_years\": 1, "
        "\"payment\": \"no_upfront\", \"hourly\": 15.37}],\n"
        "   \"spot\": {\"hourly\": 7.25, \"interruption_rate_monthly\": "
        "0.1}},\n"
        "  \"g5.xlarge\": {\"gpus\": 1, \"on_demand\": 1.006}}}\n";
    long n;

    (void)state;
    /* the Nth allocation fails, for N = 0, 1, ... until none does: every
     * failure must say GP_ERR_NOMEM and leak nothing (ASan checks that) */
    for (n = 0;; n++) {
        gp_catalog *c = (gp_catalog *)1;
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_catalog_parse(&c, text, strlen(text), "cat.json", "", &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            assert_int_equal(c->n_types, 2);
            gp_catalog_free(c);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(c);
        assert_string_equal(err.message, "out of memory");
    }
    assert_true(n > 10);
}

static void test_pricing_load_fails_cleanly_at_every_allocation(void **state)
{
    long n;

    (void)state;
    for (n = 0;; n++) {
        gp_pricing *p = NULL;
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY,
                             &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK) {
            /* one that went on past a refusal lost only a warning (the
             * catalogs' spot-above-on-demand ones), and says so */
            if (refused && !says_a_warning_was_lost(&p->warnings))
                fail_msg("allocation %ld refused, yet it went on", n);
            assert_int_equal(p->n_catalogs, 3);
            gp_pricing_free(p);
            if (!refused)
                break;
            continue;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(p);
    }
    assert_true(n > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locator_finds_values_on_a_multiline_document),
        cmocka_unit_test(
            test_locator_decodes_escaped_keys_and_counts_characters),
        cmocka_unit_test(
            test_locator_points_at_the_parent_when_the_path_is_missing),
        cmocka_unit_test(test_locator_takes_the_last_of_duplicate_keys),
        cmocka_unit_test(test_locator_stops_at_the_end_of_truncated_text),
        cmocka_unit_test(test_path_format_joins_keys_and_indices),
        cmocka_unit_test(test_numbers_in_messages_are_short_and_exact),
        cmocka_unit_test(test_quoted_strings_stay_on_one_line),
        cmocka_unit_test(test_catalog_reads_every_field),
        cmocka_unit_test(
            test_catalog_sorts_types_by_name_and_defaults_optional_keys),
        cmocka_unit_test(test_catalog_rejects_unknown_keys_but_reads_comments),
        cmocka_unit_test(test_catalog_rejects_percent_interruption_rate),
        cmocka_unit_test(test_catalog_rejects_fractional_gpus),
        cmocka_unit_test(test_catalog_names_the_wrong_json_type),
        cmocka_unit_test(
            test_catalog_reports_malformed_json_where_jansson_saw_it),
        cmocka_unit_test(test_catalog_rejects_unknown_payment),
        cmocka_unit_test(test_catalog_rejects_all_upfront_offer_with_hourly),
        cmocka_unit_test(test_catalog_rejects_duplicate_offers),
        cmocka_unit_test(test_catalog_rejects_a_wrong_schema_and_provider),
        cmocka_unit_test(test_catalog_requires_instance_types),
        cmocka_unit_test(test_catalog_rejects_impossible_as_of_date),
        cmocka_unit_test(test_bundled_catalogs_load_without_error),
        cmocka_unit_test(
            test_pricing_folder_loads_in_name_order_and_skips_other_files),
        cmocka_unit_test(test_pricing_load_warns_about_stale_and_odd_prices),
        cmocka_unit_test(test_pricing_drops_stale_warning_of_unused_catalogs),
        cmocka_unit_test(test_pricing_load_rejects_two_catalogs_for_one_region),
        cmocka_unit_test(
            test_pricing_load_failure_leaves_an_existing_set_as_it_was),
        cmocka_unit_test(test_pricing_load_reports_a_missing_file),
        cmocka_unit_test(test_spot_history_is_read_relative_to_the_catalog),
        cmocka_unit_test(
            test_spot_history_reads_any_columns_and_rfc4180_quotes),
        cmocka_unit_test(test_spot_history_rejects_bad_csv_and_keeps_no_prices),
        cmocka_unit_test(test_csv_rows_count_cr_and_crlf_lines_across_chunks),
        cmocka_unit_test(test_spot_history_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_spot_price_at_steps_through_the_history),
        cmocka_unit_test(
            test_reserved_effective_hourly_adds_the_amortized_upfront),
        cmocka_unit_test(test_pricing_find_matches_provider_and_region),
        cmocka_unit_test(test_pricing_suggest_lists_the_nearest_names),
        cmocka_unit_test(test_catalog_parse_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_pricing_load_fails_cleanly_at_every_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
