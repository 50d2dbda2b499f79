/*
 * fixture.h: what the unit tests that bill small hand-made traces share:
 * the test catalog (tests/data/engine/aws-test.json, whose rates the tests'
 * hand-worked figures use) loaded once per group, and traces, scenarios
 * and ledgers made from text, failing the test on any error.
 *
 * Header-only: include it after cmocka.h in one test file.  Everything is
 * static inline, so a test that needs only part of it gets no warning.
 */
#ifndef GP_TEST_FIXTURE_H
#define GP_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "gpuplan.h"

static gp_pricing *pricing;

/* Loads the test catalog into `pricing`: 0, or -1 after printing why. */
static inline int fixture_load_pricing(void)
{
    gp_error err;
    const char *path = src_path("tests/data/engine/aws-test.json");
    gp_error_clear(&err);
    if (gp_pricing_load(&pricing, path, 0, &err) != GP_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return -1;
    }
    return 0;
}

/* cmocka group setup and teardown around fixture_load_pricing. */
static inline int setup(void **state)
{
    (void)state;
    return fixture_load_pricing();
}

static inline int teardown(void **state)
{
    (void)state;
    gp_pricing_free(pricing);
    pricing = NULL;
    return 0;
}

/* A trace from CSV text with the given options (NULL: defaults). */
static inline gp_trace *trace_with(const char *csv,
                                   const gp_trace_options *opt)
{
    gp_error err;
    gp_trace_builder *b;
    gp_trace *t = NULL;
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&b, pricing, opt, &err), GP_OK);
    if (gp_trace_builder_add_buffer(b, csv, strlen(csv), "t.csv", &err) !=
        GP_OK)
        fail_msg("trace: %s", err.message);
    assert_int_equal(gp_trace_builder_finish(b, &t, &err), GP_OK);
    return t;
}

static inline gp_trace *trace_of(const char *csv)
{
    return trace_with(csv, NULL);
}

/* A scenario from JSON text, checked against the test catalog. */
static inline gp_scenario *scenario_of(const char *json)
{
    gp_error err;
    gp_scenario *s = NULL;
    gp_error_clear(&err);
    if (gp_scenario_parse(&s, json, strlen(json), "s.json", &err) != GP_OK)
        fail_msg("scenario: %s: %s", err.field, err.message);
    if (gp_scenario_check(s, pricing, NULL, &err) != GP_OK)
        fail_msg("scenario check: %s: %s", err.field, err.message);
    return s;
}

/* Bills strategy `strat` of s as gp_run_spec_init makes it of `opt`
 * (NULL: the defaults), into *l. */
static inline gp_status run_strategy(const gp_trace *t, const gp_scenario *s,
                                     size_t strat, const gp_engine_options *opt,
                                     gp_ledger **l, gp_error *err)
{
    gp_run_spec spec;
    gp_status st = gp_run_spec_init(&spec, t, s, strat, opt, err);
    if (st != GP_OK)
        return st;
    return gp_engine_run(t, pricing, &spec, l, err);
}

/* The ledger of strategy `strat` of s. */
static inline gp_ledger *run(const gp_trace *t, const gp_scenario *s,
                             size_t strat)
{
    gp_error err;
    gp_ledger *l = NULL;
    gp_error_clear(&err);
    if (run_strategy(t, s, strat, NULL, &l, &err) != GP_OK)
        fail_msg("engine: %s", err.message);
    return l;
}

#endif
