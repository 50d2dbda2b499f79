/*
 * test_scenario.c: unit tests of scenario files (scenario.c): defaults,
 * reading every key, merging strategy policies over the baseline, the
 * errors a user sees (with positions counted by hand), and the checks of
 * commitments against catalogs (tests/data/pricing-small/).
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

#include "gpuplan.h"

/* Epoch seconds, each from `date -u -d <day> +%s`. */
#define T_2025_11_01 1761955200
#define T_2026_01_01 1767225600
#define T_2026_04_01 1775001600
#define T_2026_11_01 1793491200
#define T_2028_10_31 1856563200
#define TODAY 1795219200 /* 2026-11-21 */

/* The SPEC 3b example, filled in; line numbers on the right. */
static const char example[] =
    "{\n" /* 1 */
    "  \"schema\": \"gpuplan-scenario/1\",\n"
    "  \"name\": \"q1-2027-plan\",\n"
    "  \"window\": {\"start\": \"2026-01-01T00:00:00Z\", \"end\": "
    "\"2026-04-01T00:00:00Z\"},\n" /* 4 */
    "  \"adjustments\": {\"discount\": 0.1, \"spot_price_factor\": 1.5,\n"
    "                  \"interruption_factor\": 2.0},\n"
    "  \"policy\": {\n"
    "    \"training\":  {\"launch\": \"spot\", \"checkpoint_interval_h\": "
    "2.0,\n" /* 8 */
    "                  \"checkpoint_cost_h\": 0.1, \"restart_overhead_h\": "
    "0.5,\n"
    "                  \"max_interruptions\": 3, \"fallback\": "
    "\"on_demand\", \"terminate_idle_h\": 4},\n" /* 10 */
    "    \"inference\": {\"launch\": \"on_demand\"}\n"
    "  },\n"
    "  \"commitments\": [\n"
    "    {\"type\": \"reserved\", \"provider\": \"aws\", \"region\": "
    "\"us-east-1\",\n" /* 14 */
    "     \"instance_type\": \"g5.xlarge\", \"count\": 4, \"term_years\": "
    "1,\n" /* 15 */
    "     \"payment\": \"partial_upfront\", \"start\": "
    "\"2025-11-01T00:00:00Z\"},\n" /* 16 */
    "    {\"type\": \"savings_plan\", \"kind\": \"compute\", \"provider\": "
    "\"aws\",\n"
    "     \"hourly_commitment\": 50.0, \"term_years\": 1, \"payment\": "
    "\"no_upfront\",\n"
    "     \"start\": \"2026-01-01T00:00:00Z\"}\n"
    "  ],\n" /* 20 */
    "  \"strategies\": [\n"
    "    {\"name\": \"more-ri\", \"add_commitments\": [\n"
    "      {\"type\": \"reserved\", \"instance_type\": \"p4d.24xlarge\", "
    "\"count\": 2,\n" /* 23 */
    "       \"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
    "\"2026-01-01T00:00:00Z\"}],\n"
    "     \"policy\": {\"training\": {\"checkpoint_interval_h\": 0.5}}}\n"
    "  ],\n" /* 26 */
    "  \"growth\": {\"training\": 0.0, \"inference\": 0.05},\n"
    "  \"monte_carlo\": {\"runs\": 500, \"seed\": 7}\n"
    "}\n";

/* The example with its first `old` replaced by `new`, in a static buffer. */
static const char *edited(const char *old, const char *new_text)
{
    static char buf[8192];
    const char *at = strstr(example, old);

    assert_non_null(at);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - example), example,
             new_text, at + strlen(old));
    return buf;
}

/* Parses text that must be a valid scenario. */
static gp_scenario *parse_ok(const char *text)
{
    gp_scenario *s = NULL;
    gp_error err;

    gp_error_clear(&err);
    if (gp_scenario_parse(&s, text, strlen(text), "s.json", &err) != GP_OK)
        fail_msg("%s:%ld:%ld: %s: %s", err.source, err.line, err.column,
                 err.field, err.message);
    return s;
}

/* Parses text that must be rejected; returns the error. */
static gp_error parse_fails(const char *text)
{
    gp_scenario *s = (gp_scenario *)1;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(gp_scenario_parse(&s, text, strlen(text), "s.json", &err),
                     GP_ERR_INPUT);
    assert_null(s);
    return err;
}

/* The small test catalogs. */
static gp_pricing *small_pricing(void)
{
    gp_pricing *p = NULL;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(
        gp_pricing_load(&p, src_path("tests/data/pricing-small"), TODAY, &err),
        GP_OK);
    return p;
}

/* Checks a valid scenario text against the small catalogs; must fail. */
static gp_error check_fails(const char *text)
{
    gp_scenario *s = parse_ok(text);
    gp_pricing *p = small_pricing();
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(gp_scenario_check(s, p, NULL, &err), GP_ERR_INPUT);
    gp_scenario_free(s);
    gp_pricing_free(p);
    return err;
}

/* ---- defaults and reading ----------------------------------------------- */

/* Checks that p is the default policy: SPEC 3b says only "training and
 * inference both launched on demand"; the other figures are the values of
 * its example scenario (checkpoint every 1 h costing 0.05 h, restart
 * 0.25 h, 5 interruptions before falling back on demand), which
 * policy_default in scenario.c takes as defaults.  No idle termination. */
static void check_default_policy(const gp_policy *p)
{
    assert_int_equal(p->launch, GP_LAUNCH_ON_DEMAND);
    assert_close(p->checkpoint_interval_h, 1.0, 0);
    assert_close(p->checkpoint_cost_h, 0.05, 0);
    assert_close(p->restart_overhead_h, 0.25, 0);
    assert_int_equal(p->max_interruptions, 5);
    assert_int_equal(p->fallback, GP_LAUNCH_ON_DEMAND);
    assert_close(p->terminate_idle_h, 0, 0);
}

static void test_default_scenario_has_the_documented_defaults(void **state)
{
    gp_scenario *s = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    assert_false(s->has_window);
    assert_close(s->discount, 0, 0);
    assert_close(s->spot_price_factor, 1, 0);
    assert_close(s->interruption_factor, 1, 0);
    check_default_policy(&s->policy[GP_TRAINING]);
    check_default_policy(&s->policy[GP_INFERENCE]);
    assert_int_equal(s->n_commitments, 0);
    assert_int_equal(s->n_strategies, 1);
    assert_string_equal(s->strategies[0].name, "baseline");
    assert_int_equal(s->strategies[0].n_add, 0);
    check_default_policy(&s->strategies[0].policy[GP_TRAINING]);
    assert_close(s->growth[GP_TRAINING], 0, 0);
    assert_close(s->growth[GP_INFERENCE], 0, 0);
    /* the SPEC 3b example's monte_carlo, taken as the default */
    assert_int_equal(s->mc_runs, 1000);
    assert_int_equal(s->mc_seed, 42);
    assert_null(s->text);
    gp_scenario_free(s);
}

static void test_an_empty_scenario_is_the_default(void **state)
{
    gp_scenario *s = parse_ok("{}");

    (void)state;
    /* named after its file: "s.json" -> "s" */
    assert_string_equal(s->name, "s");
    assert_false(s->has_window);
    check_default_policy(&s->policy[GP_TRAINING]);
    check_default_policy(&s->policy[GP_INFERENCE]);
    assert_int_equal(s->n_strategies, 1);
    assert_int_equal(s->mc_runs, 1000);
    assert_int_equal(s->mc_seed, 42);
    gp_scenario_free(s);
}

static void test_scenario_reads_every_key_of_the_spec_example(void **state)
{
    gp_scenario *s = parse_ok(example);
    const gp_commitment *r, *sp;

    (void)state;
    assert_string_equal(s->path, "s.json");
    assert_string_equal(s->name, "q1-2027-plan");
    assert_true(s->has_window);
    assert_int_equal(s->window_start, T_2026_01_01);
    assert_int_equal(s->window_end, T_2026_04_01);
    assert_close(s->discount, 0.1, 0);
    assert_close(s->spot_price_factor, 1.5, 0);
    assert_close(s->interruption_factor, 2.0, 0);
    assert_int_equal(s->policy[GP_TRAINING].launch, GP_LAUNCH_SPOT);
    assert_close(s->policy[GP_TRAINING].checkpoint_interval_h, 2.0, 0);
    assert_close(s->policy[GP_TRAINING].checkpoint_cost_h, 0.1, 0);
    assert_close(s->policy[GP_TRAINING].restart_overhead_h, 0.5, 0);
    assert_int_equal(s->policy[GP_TRAINING].max_interruptions, 3);
    assert_int_equal(s->policy[GP_TRAINING].fallback, GP_LAUNCH_ON_DEMAND);
    assert_close(s->policy[GP_TRAINING].terminate_idle_h, 4, 0);
    check_default_policy(&s->policy[GP_INFERENCE]);

    assert_int_equal(s->n_commitments, 2);
    r = &s->commitments[0];
    assert_int_equal(r->type, GP_COMMIT_RESERVED);
    assert_string_equal(r->provider, "aws");
    assert_string_equal(r->region, "us-east-1");
    assert_string_equal(r->instance_type, "g5.xlarge");
    assert_close(r->count, 4, 0);
    assert_int_equal(r->term_years, 1);
    assert_int_equal(r->payment, GP_PARTIAL_UPFRONT);
    assert_int_equal(r->start, T_2025_11_01);
    /* 365 days after 2025-11-01 is 2026-11-01 (no February 29 between) */
    assert_int_equal(r->end, T_2026_11_01);
    sp = &s->commitments[1];
    assert_int_equal(sp->type, GP_COMMIT_SAVINGS_PLAN);
    assert_int_equal(sp->kind, GP_PLAN_COMPUTE);
    assert_string_equal(sp->provider, "aws");
    assert_close(sp->hourly_commitment, 50.0, 0);
    assert_int_equal(sp->payment, GP_NO_UPFRONT);
    assert_int_equal(sp->start, T_2026_01_01);

    assert_close(s->growth[GP_TRAINING], 0.0, 0);
    assert_close(s->growth[GP_INFERENCE], 0.05, 0);
    assert_int_equal(s->mc_runs, 500);
    assert_int_equal(s->mc_seed, 7);
    gp_scenario_free(s);
}

/* recommend --json writes a compute plan's region as "" (a compute plan
 * spans regions); fed back as a commitment it must load, with no region */
static void test_a_compute_plan_may_have_an_empty_region(void **state)
{
    gp_scenario *s = parse_ok(edited("\"kind\": \"compute\",",
                                     "\"kind\": \"compute\", "
                                     "\"region\": \"\","));

    (void)state;
    assert_int_equal(s->commitments[1].kind, GP_PLAN_COMPUTE);
    assert_string_equal(s->commitments[1].region, "");
    gp_scenario_free(s);
}

static void test_a_three_year_term_is_three_times_365_days(void **state)
{
    gp_scenario *s = parse_ok(edited("\"count\": 4, \"term_years\": 1",
                                     "\"count\": 4, \"term_years\": 3"));

    (void)state;
    /* 3 x 365 = 1095 days after 2025-11-01 is 2028-10-31, a day short of
     * three calendar years because 2028-02-29 lies between */
    assert_int_equal(s->commitments[0].end, T_2028_10_31);
    assert_int_equal(s->commitments[0].end - s->commitments[0].start,
                     1095 * 86400);
    gp_scenario_free(s);
}

static void test_a_commitment_term_ends_by_9999_12_31T23(void **state)
{
    /* 9999-12-31T23:00:00Z is 253402297200 s (GP_TIME_LATEST); 365 days
     * before it is 9998-12-31T23:00:00Z (9999 is no leap year), and 1095
     * days before it 9996-12-31T23:00:00Z (9997 to 9999 have 365 days
     * each): terms that start then end on the limit itself */
    gp_scenario *s = parse_ok(
        edited("\"2025-11-01T00:00:00Z\"", "\"9998-12-31T23:00:00Z\""));
    gp_error err;

    (void)state;
    assert_int_equal(s->commitments[0].end, 253402297200LL);
    gp_scenario_free(s);
    s = parse_ok(edited("\"count\": 4, \"term_years\": 1,\n"
                        "     \"payment\": \"partial_upfront\", \"start\": "
                        "\"2025-11-01T00:00:00Z\"",
                        "\"count\": 4, \"term_years\": 3,\n"
                        "     \"payment\": \"partial_upfront\", \"start\": "
                        "\"9996-12-31T23:00:00Z\""));
    assert_int_equal(s->commitments[0].end, 253402297200LL);
    gp_scenario_free(s);
    /* an hour later the term would end at 10000-01-01T00:00:00Z */
    err = parse_fails(
        edited("\"2025-11-01T00:00:00Z\"", "\"9999-01-01T00:00:00Z\""));
    assert_int_equal(err.line, 16);
    assert_string_equal(err.field, "commitments[0].start");
    assert_non_null(strstr(err.message, "start it at 9998-12-31T23:00:00Z at "
                                        "the latest"));
}

static void
test_baseline_is_strategy_zero_with_the_owned_commitments(void **state)
{
    gp_scenario *s = parse_ok(example);
    const gp_strategy *b;

    (void)state;
    assert_int_equal(s->n_strategies, 2);
    b = &s->strategies[0];
    assert_string_equal(b->name, "baseline");
    assert_int_equal(b->n_add, 0);
    assert_null(b->add_commitments);
    assert_memory_equal(b->policy, s->policy, sizeof s->policy);
    assert_string_equal(s->strategies[1].name, "more-ri");
    assert_int_equal(s->strategies[1].n_add, 1);
    assert_string_equal(s->strategies[1].add_commitments[0].instance_type,
                        "p4d.24xlarge");
    assert_close(s->strategies[1].add_commitments[0].count, 2, 0);
    gp_scenario_free(s);
}

static void test_strategy_policy_replaces_only_the_keys_it_gives(void **state)
{
    gp_scenario *s = parse_ok(example);
    const gp_policy *t = &s->strategies[1].policy[GP_TRAINING];

    (void)state;
    /* "more-ri" gives only training.checkpoint_interval_h = 0.5 */
    assert_close(t->checkpoint_interval_h, 0.5, 0);
    /* the rest is the baseline's training policy, not the defaults */
    assert_int_equal(t->launch, GP_LAUNCH_SPOT);
    assert_close(t->checkpoint_cost_h, 0.1, 0);
    assert_close(t->restart_overhead_h, 0.5, 0);
    assert_int_equal(t->max_interruptions, 3);
    assert_close(t->terminate_idle_h, 4, 0);
    assert_memory_equal(&s->strategies[1].policy[GP_INFERENCE],
                        &s->policy[GP_INFERENCE], sizeof(gp_policy));
    gp_scenario_free(s);
}

static void test_scenario_without_a_name_takes_its_file_name(void **state)
{
    gp_scenario *s = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_scenario_load(&s, src_path("tests/data/scenario-unnamed.json"),
                         &err),
        GP_OK);
    assert_string_equal(s->name, "scenario-unnamed");
    assert_int_equal(s->policy[GP_TRAINING].launch, GP_LAUNCH_SPOT);
    assert_int_equal(s->policy[GP_INFERENCE].launch, GP_LAUNCH_ON_DEMAND);
    gp_scenario_free(s);
}

/* ---- errors while reading ----------------------------------------------- */

static void test_scenario_rejects_a_fractional_count(void **state)
{
    gp_error err = parse_fails(edited("\"count\": 4,", "\"count\": 4.5,"));

    (void)state;
    assert_string_equal(err.source, "s.json");
    /* line 15 `     "instance_type": "g5.xlarge", "count": 4.5,`: 5 spaces,
     * "instance_type" 6-20, ':' 21, ' ' 22, "g5.xlarge" 23-33, ',' 34,
     * ' ' 35, "count" 36-42, ':' 43, ' ' 44, 4.5 at 45 */
    assert_int_equal(err.line, 15);
    assert_int_equal(err.column, 45);
    assert_string_equal(err.field, "commitments[0].count");
    assert_string_equal(err.message, "must be a whole number, got 4.5");
}

static void test_scenario_rejects_a_strategy_named_baseline(void **state)
{
    gp_error err = parse_fails(edited("\"more-ri\"", "\"baseline\""));

    (void)state;
    /* line 22 `    {"name": "baseline"`: '{' 5, "name" 6-11, ':' 12,
     * ' ' 13, the value at 14 */
    assert_int_equal(err.line, 22);
    assert_int_equal(err.column, 14);
    assert_string_equal(err.field, "strategies[0].name");
    assert_string_equal(err.message,
                        "\"baseline\" names the scenario's own commitments "
                        "and policy; choose another name");
}

static void test_scenario_rejects_duplicate_strategy_names(void **state)
{
    gp_error err = parse_fails(
        edited("0.5}}}\n", "0.5}}},\n    {\"name\": \"more-ri\"}\n"));

    (void)state;
    /* the new line 26 `    {"name": "more-ri"}`: the value at 14 */
    assert_int_equal(err.line, 26);
    assert_int_equal(err.column, 14);
    assert_string_equal(err.field, "strategies[1].name");
    assert_string_equal(err.message,
                        "duplicate strategy name \"more-ri\" (also "
                        "strategies[0])");
}

static void
test_scenario_rejects_a_window_that_ends_before_it_starts(void **state)
{
    gp_error err = parse_fails(
        edited("\"end\": \"2026-04-01T00:00:00Z\"", "\"end\": \"2025-12-31\""));

    (void)state;
    assert_string_equal(err.field, "window.end");
    assert_string_equal(err.message, "must be after start "
                                     "(2026-01-01T00:00:00Z)");
}

static void test_scenario_rejects_percent_growth_and_discount(void **state)
{
    gp_error err =
        parse_fails(edited("\"inference\": 0.05", "\"inference\": 5"));

    (void)state;
    assert_string_equal(err.field, "growth.inference");
    /* 5 / 100 = 0.05 */
    assert_string_equal(err.message, "expected a monthly growth rate as a "
                                     "fraction, at most 1 (100% a month), "
                                     "got 5 (a percent? write 0.05)");
    err = parse_fails(edited("\"discount\": 0.1", "\"discount\": 12"));
    assert_string_equal(err.field, "adjustments.discount");
    assert_string_equal(err.message, "expected a fraction off every price in "
                                     "[0, 1), got 12 (a percent? write "
                                     "0.12)");
}

/* The levers' keys (SPEC 7.5): a utilization is a percent (0.7 reads as
 * a fraction: 0.7 x 100 = 70), autoscale names one series key, a
 * migration needs its date, rightsize and migrate may not move the same
 * type in one strategy. */
static void test_scenario_rejects_bad_levers(void **state)
{
    static const char *const cases[][3] = {
        {"{\"strategies\": [{\"name\": \"a\", \"autoscale\": {\"series\": "
         "{\"team\": \"t\"}, \"target_util\": 0.7}}]}",
         "strategies[0].autoscale.target_util",
         "expected a percent in (1, 100], got 0.7 (a fraction? write 70)"},
        {"{\"strategies\": [{\"name\": \"a\", \"autoscale\": {\"series\": "
         "{\"team\": \"t\", \"project\": \"p\"}}}]}",
         "strategies[0].autoscale.series",
         "expected one of team, project or instance_type, got 2"},
        {"{\"strategies\": [{\"name\": \"a\", \"migrate\": {\"from\": "
         "\"x\", \"to\": \"y\", \"equivalence\": 1}}]}",
         "strategies[0].migrate.at", "missing required key"},
        {"{\"strategies\": [{\"name\": \"a\", \"rightsize\": {\"from\": "
         "\"x\", \"to\": \"x\", \"equivalence\": 6}}]}",
         "strategies[0].rightsize.to", "moves x to itself"},
        {"{\"strategies\": [{\"name\": \"a\", \"rightsize\": {\"from\": "
         "\"x\", \"to\": \"y\", \"equivalence\": 6}, \"migrate\": "
         "{\"from\": \"x\", \"to\": \"z\", \"equivalence\": 1, \"at\": "
         "\"2026-01-01\"}}]}",
         "strategies[0].migrate",
         "moves x, which rightsize moves too: give each its own strategy"}};

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_error err = parse_fails(cases[i][0]);
        assert_string_equal(err.field, cases[i][1]);
        assert_string_equal(err.message, cases[i][2]);
    }
}

static void test_scenario_rejects_unknown_names(void **state)
{
    gp_error err =
        parse_fails(edited("\"launch\": \"spot\"", "\"launch\": \"spotty\""));

    (void)state;
    assert_string_equal(err.field, "policy.training.launch");
    assert_string_equal(err.message,
                        "unknown launch model \"spotty\" (expected "
                        "on_demand, spot, capacity_block, flex_start or "
                        "calendar)");
    err = parse_fails(edited("\"type\": \"reserved\"", "\"type\": \"ri\""));
    assert_string_equal(err.field, "commitments[0].type");
    assert_string_equal(err.message, "unknown commitment type \"ri\" "
                                     "(expected reserved or savings_plan)");
}

/* A key the format does not have is an error.  The figures gpuplan's own
 * outputs put on a commitment (rank, id, ...) are read past, but never
 * offered as what was meant: "x" is two edits from "id", yet the message
 * lists the commitment's own keys. */
static void test_scenario_rejects_unknown_keys(void **state)
{
    gp_error err = parse_fails(
        edited("\"type\": \"reserved\"", "\"type\": \"reserved\", \"x\": 1"));

    (void)state;
    assert_string_equal(err.field, "commitments[0].x");
    assert_string_equal(err.message,
                        "unknown key (expected type, provider, region, "
                        "instance_type, family, count, kind, "
                        "hourly_commitment, term_years, payment, start)");
    gp_scenario *s = parse_ok(edited(
        "\"type\": \"reserved\"",
        "\"type\": \"reserved\", \"rank\": 1, \"id\": \"ri-1\", \"_why\": 2"));
    gp_scenario_free(s);
    /* "launhc" is two edits (a swap) from "launch", a third of its length */
    err = parse_fails(edited("\"launch\": \"spot\"", "\"launhc\": \"spot\""));
    assert_string_equal(err.field, "policy.training.launhc");
    assert_string_equal(err.message, "unknown key (did you mean \"launch\"?)");
    /* a control byte in a key is shown escaped, so the message stays on
     * one line */
    err =
        parse_fails(edited("\"launch\": \"spot\"", "\"a\\u001bb\": \"spot\""));
    assert_string_equal(err.field, "policy.training.a\\x1bb");
}

static void test_scenario_limits_monte_carlo_runs(void **state)
{
    gp_error err = parse_fails(edited("\"runs\": 500", "\"runs\": 10000001"));

    (void)state;
    assert_string_equal(err.field, "monte_carlo.runs");
    assert_string_equal(err.message, "must be at most 10000000, got 10000001");
    err = parse_fails(edited("\"runs\": 500", "\"runs\": 0"));
    assert_string_equal(err.message, "must be at least 1, got 0");
}

static void test_instance_family_plans_need_a_family_and_region(void **state)
{
    gp_error err = parse_fails(
        edited("\"kind\": \"compute\"", "\"kind\": \"instance_family\""));

    (void)state;
    /* region is asked for first; the position is the commitment's '{' on
     * line 17, column 5 */
    assert_int_equal(err.line, 17);
    assert_int_equal(err.column, 5);
    assert_string_equal(err.field, "commitments[1].region");
    assert_string_equal(err.message, "missing required key");
    err = parse_fails(edited("\"kind\": \"compute\"",
                             "\"kind\": \"instance_family\", \"region\": "
                             "\"us-east-1\""));
    assert_string_equal(err.field, "commitments[1].family");
}

static void test_scenario_reports_malformed_json_at_the_token(void **state)
{
    gp_error err = parse_fails("{\n  \"name\": \"x\"\n  \"window\": {}}");

    (void)state;
    /* jansson stops after the unexpected string "window"; the error is at
     * its opening quote: line 3, after two spaces, column 3 */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 3);
    assert_string_equal(err.field, "");
    assert_string_equal(err.message, "'}' expected near '\"window\"'");
    /* columns count characters: in {"\xc3\xa9": 1 "x": 2} the key é is
     * one column, so the '"' of "x" is column 9 (byte 10) */
    err = parse_fails("{\"\xc3\xa9\": 1 \"x\": 2}");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 9);
    assert_string_equal(err.message, "'}' expected near '\"x\"'");
    /* with no token to name (the end of the input), jansson's own place:
     * line 2, past the newline */
    err = parse_fails("{\n");
    assert_int_equal(err.line, 2);
    assert_string_equal(err.message, "string or '}' expected near end of file");
}

/* ---- checks against catalogs -------------------------------------------- */

static void test_spec_example_checks_against_the_small_catalogs(void **state)
{
    gp_scenario *s = parse_ok(example);
    gp_pricing *p = small_pricing();
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_check(s, p, NULL, &err), GP_OK);
    gp_scenario_free(s);
    gp_pricing_free(p);
}

static void
test_sample_scenario_checks_against_the_bundled_catalogs(void **state)
{
    gp_scenario *s = NULL;
    gp_pricing *p = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_pricing_load(&p, src_path("pricing"), TODAY, &err),
                     GP_OK);
    assert_int_equal(
        gp_scenario_load(&s, src_path("scenarios/sample/scenario.json"), &err),
        GP_OK);
    if (gp_scenario_check(s, p, NULL, &err) != GP_OK)
        fail_msg("%s:%ld:%ld: %s: %s", err.source, err.line, err.column,
                 err.field, err.message);
    /* scenarios/sample/scenario.json as written: the window 2026-05-01 to
     * 2026-05-15 (date -u -d <day> +%s), four strategies after the
     * baseline: "train-on-spot", that puts training on spot with a
     * checkpoint every hour, then one per lever (the migration on
     * 2026-05-08, 1778198400); inference grows 5% a month; 1000 runs,
     * seed 42 */
    assert_string_equal(s->name, "sample");
    assert_int_equal(s->window_start, 1777593600);
    assert_int_equal(s->window_end, 1778803200);
    assert_int_equal(s->policy[GP_TRAINING].launch, GP_LAUNCH_ON_DEMAND);
    assert_int_equal(s->n_strategies, 5);
    assert_string_equal(s->strategies[0].name, "baseline");
    /* and the three levers as the file gives them (SPEC 7.5) */
    assert_string_equal(s->strategies[2].name, "autoscale-inference");
    assert_true(s->strategies[2].autoscale.on);
    assert_int_equal(s->strategies[2].autoscale.key, GP_LEVER_INSTANCE_TYPE);
    assert_string_equal(s->strategies[2].autoscale.value, "g6e.xlarge");
    assert_close(s->strategies[2].autoscale.target_util, 85, 0);
    assert_close(s->strategies[2].autoscale.min_instances, 4, 0);
    assert_true(s->strategies[3].rightsize.on);
    assert_string_equal(s->strategies[3].rightsize.to, "g5.xlarge");
    assert_close(s->strategies[3].rightsize.equivalence, 2, 0);
    assert_int_equal(s->strategies[3].rightsize.workloads,
                     1u << GP_INFERENCE);
    assert_true(s->strategies[4].migrate.on);
    assert_close(s->strategies[4].migrate.equivalence, 0.35, 0);
    assert_int_equal(s->strategies[4].migrate.at, 1778198400);
    assert_string_equal(s->strategies[1].name, "train-on-spot");
    assert_int_equal(s->strategies[1].policy[GP_TRAINING].launch,
                     GP_LAUNCH_SPOT);
    assert_close(s->strategies[1].policy[GP_TRAINING].checkpoint_interval_h,
                 1.0, 0);
    assert_int_equal(s->strategies[1].policy[GP_TRAINING].max_interruptions, 5);
    assert_close(s->growth[GP_INFERENCE], 0.05, 0);
    assert_int_equal(s->mc_runs, 1000);
    assert_int_equal(s->mc_seed, 42);
    gp_scenario_free(s);
    gp_pricing_free(p);
}

static void test_check_suggests_the_nearest_instance_types(void **state)
{
    gp_error err = check_fails(edited("\"p4d.24xlarge\"", "\"p4.24xlarge\""));

    (void)state;
    /* line 23 `      {"type": "reserved", "instance_type": "p4.24xlarge"`:
     * 6 spaces, '{' 7, "type" 8-13, ':' 14, ' ' 15, "reserved" 16-25,
     * ',' 26, ' ' 27, "instance_type" 28-42, ':' 43, ' ' 44, value at 45 */
    assert_int_equal(err.line, 23);
    assert_int_equal(err.column, 45);
    assert_string_equal(err.field,
                        "strategies[0].add_commitments[0].instance_type");
    /* one, two and two edits away (see test_catalog.c) */
    assert_string_equal(err.message,
                        "unknown instance type \"p4.24xlarge\" (nearest: "
                        "p4d.24xlarge, p4de.24xlarge, p3.2xlarge)");
}

static void
test_check_needs_a_reserved_offer_of_the_term_and_payment(void **state)
{
    gp_error err = check_fails(edited("\"partial_upfront\"", "\"no_upfront\""));

    (void)state;
    /* line 16 `     "payment": "no_upfront"`: 5 spaces, "payment" 6-14,
     * ':' 15, ' ' 16, value at 17 */
    assert_int_equal(err.line, 16);
    assert_int_equal(err.column, 17);
    assert_string_equal(err.field, "commitments[0].payment");
    /* pricing-small's g5.xlarge has only a 1-year partial_upfront offer */
    assert_string_equal(err.message,
                        "g5.xlarge has no 1-year no_upfront reserved offer in "
                        "aws us-east-1 (offers: 1-year partial_upfront)");
    /* a term no offer has points at term_years instead */
    err = check_fails(edited("\"count\": 4, \"term_years\": 1",
                             "\"count\": 4, \"term_years\": 3"));
    assert_string_equal(err.field, "commitments[0].term_years");
}

static void test_check_asks_which_region_when_a_type_is_in_several(void **state)
{
    gp_error err = check_fails(edited(" \"region\": \"us-east-1\",", ""));

    (void)state;
    /* g5.xlarge is in aws us-east-1 and aws us-west-2; the position is
     * its instance_type on line 15, column 23 (5 spaces, "instance_type"
     * 6-20, ':' 21, ' ' 22, as in the fractional-count test) */
    assert_int_equal(err.line, 15);
    assert_int_equal(err.column, 23);
    assert_string_equal(err.field, "commitments[0].instance_type");
    assert_string_equal(err.message,
                        "instance type \"g5.xlarge\" is in several catalogs "
                        "(aws us-east-1, aws us-west-2); give provider and "
                        "region");
}

static void test_check_finds_instance_family_plans(void **state)
{
    const char *family_plan =
        "\"kind\": \"instance_family\", \"region\": \"us-east-1\", "
        "\"family\": \"p4d\"";
    gp_scenario *s = parse_ok(edited("\"kind\": \"compute\"", family_plan));
    gp_pricing *p = small_pricing();
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    /* p4d.24xlarge has a 1-year no_upfront instance_family plan rate */
    assert_int_equal(gp_scenario_check(s, p, NULL, &err), GP_OK);
    gp_scenario_free(s);
    gp_pricing_free(p);
    err = check_fails(edited("\"kind\": \"compute\"",
                             "\"kind\": \"instance_family\", \"region\": "
                             "\"us-east-1\", \"family\": \"p9\""));
    assert_string_equal(err.field, "commitments[1].family");
    assert_string_equal(err.message,
                        "no instance type of family \"p9\" in aws us-east-1");
}

static void
test_check_of_a_scenario_without_text_gives_no_position(void **state)
{
    gp_scenario *s = NULL;
    gp_pricing *p = small_pricing();
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    /* a commitment added in memory, as a program might */
    s->commitments = gp_calloc(1, sizeof *s->commitments);
    s->n_commitments = 1;
    snprintf(s->commitments[0].instance_type,
             sizeof s->commitments[0].instance_type, "g5.xlargee");
    s->commitments[0].term_years = 1;
    assert_int_equal(gp_scenario_check(s, p, NULL, &err), GP_ERR_INPUT);
    assert_int_equal(err.line, 0);
    assert_int_equal(err.column, 0);
    assert_string_equal(err.field, "commitments[0].instance_type");
    assert_string_equal(err.message, "unknown instance type \"g5.xlargee\" "
                                     "(nearest: g5.xlarge)");
    gp_scenario_free(s);
    gp_pricing_free(p);
}

/* ---- out of memory ------------------------------------------------------ */

static void test_scenario_parse_fails_cleanly_at_every_allocation(void **state)
{
    long n;

    (void)state;
    /* the Nth allocation fails, for N = 0, 1, ... until none does: every
     * failure must say GP_ERR_NOMEM and leak nothing (ASan checks that) */
    for (n = 0;; n++) {
        gp_scenario *s = (gp_scenario *)1;
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_scenario_parse(&s, example, strlen(example), "s.json", &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            assert_int_equal(s->n_strategies, 2);
            gp_scenario_free(s);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(s);
        assert_string_equal(err.message, "out of memory");
    }
    assert_true(n > 5);
}

static void
test_scenario_default_and_load_fail_cleanly_when_memory_runs_out(void **state)
{
    long n;

    (void)state;
    for (n = 0;; n++) {
        gp_scenario *s = (gp_scenario *)1;
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_scenario_default(&s, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            gp_scenario_free(s);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(s);
    }
    for (n = 0;; n++) {
        gp_scenario *s = (gp_scenario *)1;
        gp_error err;
        gp_status st;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        st = gp_scenario_load(&s, src_path("tests/data/scenario-unnamed.json"),
                              &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            gp_scenario_free(s);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_null(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_scenario_has_the_documented_defaults),
        cmocka_unit_test(test_an_empty_scenario_is_the_default),
        cmocka_unit_test(test_scenario_reads_every_key_of_the_spec_example),
        cmocka_unit_test(test_a_three_year_term_is_three_times_365_days),
        cmocka_unit_test(test_a_commitment_term_ends_by_9999_12_31T23),
        cmocka_unit_test(test_a_compute_plan_may_have_an_empty_region),
        cmocka_unit_test(
            test_baseline_is_strategy_zero_with_the_owned_commitments),
        cmocka_unit_test(test_strategy_policy_replaces_only_the_keys_it_gives),
        cmocka_unit_test(test_scenario_without_a_name_takes_its_file_name),
        cmocka_unit_test(test_scenario_rejects_a_fractional_count),
        cmocka_unit_test(test_scenario_rejects_a_strategy_named_baseline),
        cmocka_unit_test(test_scenario_rejects_duplicate_strategy_names),
        cmocka_unit_test(
            test_scenario_rejects_a_window_that_ends_before_it_starts),
        cmocka_unit_test(test_scenario_rejects_percent_growth_and_discount),
        cmocka_unit_test(test_scenario_rejects_bad_levers),
        cmocka_unit_test(test_scenario_rejects_unknown_names),
        cmocka_unit_test(test_scenario_rejects_unknown_keys),
        cmocka_unit_test(test_scenario_limits_monte_carlo_runs),
        cmocka_unit_test(test_instance_family_plans_need_a_family_and_region),
        cmocka_unit_test(test_scenario_reports_malformed_json_at_the_token),
        cmocka_unit_test(test_spec_example_checks_against_the_small_catalogs),
        cmocka_unit_test(
            test_sample_scenario_checks_against_the_bundled_catalogs),
        cmocka_unit_test(test_check_suggests_the_nearest_instance_types),
        cmocka_unit_test(
            test_check_needs_a_reserved_offer_of_the_term_and_payment),
        cmocka_unit_test(
            test_check_asks_which_region_when_a_type_is_in_several),
        cmocka_unit_test(test_check_finds_instance_family_plans),
        cmocka_unit_test(
            test_check_of_a_scenario_without_text_gives_no_position),
        cmocka_unit_test(test_scenario_parse_fails_cleanly_at_every_allocation),
        cmocka_unit_test(
            test_scenario_default_and_load_fail_cleanly_when_memory_runs_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
