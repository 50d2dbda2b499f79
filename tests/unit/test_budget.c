/*
 * test_budget.c: the scenario's monthly budgets (SPEC 7.5, issue #38 item
 * 3): a team's and a project's spend month by month against them, the
 * month over budget flagged, and the month a forecast says a budget will
 * be crossed.  Prices from tests/data/engine/aws-test.json: g5.xlarge
 * $1.006 an hour on demand, g5.2xlarge $1.212.  Every expected figure is
 * worked out by hand in the comment beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "check.h"
#include "engine.h"
#include "forecast.h"
#include "gpuplan.h"
#include "util.h"

#include "fixture.h"

/* Appends a row a day from day `from` (0 = 2026-01-01) for `days` days:
 * `instances` of `type` for team and project, step_s a day. */
static void add_days(char *csv, size_t size, int from, int days,
                     const char *type, int instances, const char *team,
                     const char *project)
{
    for (int d = from; d < from + days; d++) {
        int64_t t = gp_days_from_civil(2026, 1, 1) + d;
        int y;
        unsigned m, day;
        gp_civil_from_days(t, &y, &m, &day);
        size_t n = strlen(csv);
        snprintf(csv + n, size - n, "%04d-%02u-%02uT00:00:00Z,86400,%s,%d,%s,%s\n",
                 y, m, day, type, instances, team, project);
    }
}

static void test_budget_is_crossed_in_month_two(void **state)
{
    (void)state;
    /* January to March 2026 (31 + 28 + 31 days).  Team a runs one
     * g5.xlarge in January, two in February, one in March; project p
     * (team b) runs one g5.2xlarge throughout.  Both launched on demand.
     *   team a, $1,000 a month:
     *     January  744 h x 1.006      =   748.464
     *     February 672 h x 2 x 1.006  = 1,352.064  over
     *     March    744 h x 1.006      =   748.464
     *   project p, $1,000 a month:
     *     January  744 x 1.212 = 901.728; February 672 x 1.212 = 814.464;
     *     March 901.728: never over. */
    static char csv[32768] = "timestamp,step_s,instance_type,instances,"
                             "team,project\n";
    add_days(csv, sizeof csv, 0, 31, "g5.xlarge", 1, "a", "");
    add_days(csv, sizeof csv, 31, 28, "g5.xlarge", 2, "a", "");
    add_days(csv, sizeof csv, 59, 31, "g5.xlarge", 1, "a", "");
    add_days(csv, sizeof csv, 0, 90, "g5.2xlarge", 1, "b", "p");
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of("{\"budgets\": ["
                                 "{\"team\": \"a\", \"monthly\": 1000},"
                                 "{\"project\": \"p\", \"monthly\": 1000}]}");
    gp_ledger *l = run(t, s, 0);
    gp_budget_report r;
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(gp_budget_report_make(l, t, s, NULL, &r, &err), GP_OK);
    assert_int_equal(r.n_months, 6);
    assert_int_equal(r.n_crossings, 0); /* no forecast given */
    const double want[6] = {748.464, 1352.064, 748.464,
                            901.728, 814.464,  901.728};
    const bool over[6] = {false, true, false, false, false, false};
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(r.months[i].budget, i / 3);
        assert_int_equal(r.months[i].year, 2026);
        assert_int_equal(r.months[i].month, (int)(i % 3) + 1);
        assert_close(r.months[i].budget_amount, 1000, 1e-12);
        assert_close(r.months[i].spent, want[i], 1e-6);
        assert_int_equal(r.months[i].over, over[i]);
    }
    gp_budget_report_clear(&r);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_budget_forecast_names_the_month_it_is_crossed(void **state)
{
    (void)state;
    /* Team c runs one g5.xlarge all January; its budget is $740 a month.
     * January: 744 h x 1.006 = 748.464, over.  The trace's demand is
     * flat, so the forecast's P50 is 1 instance an hour, priced at the
     * series' own $1.006 an instance-hour: February 672 x 1.006 =
     * 676.032 is under $740; March 744 x 1.006 = 748.464 is over, so
     * March is the month the forecast says it is crossed.  A budget of
     * $800 is crossed by no month of the 13 weeks (no month has over 744
     * hours: 748.464 is the most seen). */
    static char csv[8192] = "timestamp,step_s,instance_type,instances,"
                            "team,project\n";
    add_days(csv, sizeof csv, 0, 31, "g5.xlarge", 1, "c", "");
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of("{\"budgets\": ["
                                 "{\"team\": \"c\", \"monthly\": 740},"
                                 "{\"team\": \"c2\", \"monthly\": 1}]}");
    gp_ledger *l = run(t, s, 0);
    gp_forecast *fc = NULL;
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(t, s, GP_BUDGET_HORIZON_HOURS, NULL, &fc,
                                     &err),
                     GP_OK);
    gp_budget_report r;
    assert_int_equal(gp_budget_report_make(l, t, s, fc, &r, &err), GP_OK);
    assert_int_equal(r.n_crossings, 2);
    assert_true(r.months[0].over);
    assert_close(r.months[0].spent, 748.464, 1e-6);
    assert_int_equal(r.crossings[0].year, 2026);
    assert_int_equal(r.crossings[0].month, 3);
    assert_close(r.crossings[0].projected, 748.464, 1e-6);
    /* team c2 has no usage: its spend is 0 and no month crosses $1, and
     * a warning asks whether its name is spelt as the trace's */
    assert_close(r.months[1].spent, 0, 1e-12);
    assert_int_equal(r.crossings[1].year, 0);
    gp_warnings w = {NULL, 0, 0};
    gp_budget_warn(t, s, &w);
    assert_int_equal(w.count, 1);
    assert_non_null(strstr(w.items[0], "budgets[1]: team \"c2\" has no usage"));
    gp_warnings_clear(&w);
    gp_budget_report_clear(&r);
    gp_forecast_free(fc);

    gp_scenario *s8 = scenario_of("{\"budgets\": ["
                                  "{\"team\": \"c\", \"monthly\": 800}]}");
    assert_int_equal(gp_forecast_run(t, s8, GP_BUDGET_HORIZON_HOURS, NULL,
                                     &fc, &err),
                     GP_OK);
    assert_int_equal(gp_budget_report_make(l, t, s8, fc, &r, &err), GP_OK);
    assert_int_equal(r.crossings[0].year, 0);
    assert_close(r.crossings[0].projected, 748.464, 1e-6);
    gp_budget_report_clear(&r);
    gp_forecast_free(fc);
    gp_scenario_free(s8);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* The error a scenario's text gets: its field and message. */
static void expect_error(const char *json, const char *field,
                         const char *message)
{
    gp_scenario *s = NULL;
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_parse(&s, json, strlen(json), "s.json", &err),
                     GP_ERR_INPUT);
    assert_null(s);
    assert_string_equal(err.field, field);
    if (!strstr(err.message, message))
        fail_msg("message \"%s\" lacks \"%s\"", err.message, message);
}

static void test_budget_mistakes_are_named(void **state)
{
    (void)state;
    expect_error("{\"budgets\": [{\"team\": \"a\", \"project\": \"p\", "
                 "\"monthly\": 1}]}",
                 "budgets[0].project", "not both");
    expect_error("{\"budgets\": [{\"monthly\": 1}]}", "budgets[0]",
                 "names a team or a project");
    expect_error("{\"budgets\": [{\"team\": \"a\", \"monthly\": 0}]}",
                 "budgets[0].monthly", "above 0");
    expect_error("{\"budgets\": [{\"team\": \"a\"}]}", "budgets[0].monthly",
                 "missing");
    expect_error("{\"budgets\": [{\"team\": \"a\", \"monthly\": 1},"
                 "{\"team\": \"a\", \"monthly\": 2}]}",
                 "budgets[1].team", "two budgets");
    expect_error("{\"budgets\": [{\"team\": \"a\", \"monthy\": 1}]}",
                 "budgets[0].monthy", "");
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_is_crossed_in_month_two),
        cmocka_unit_test(test_budget_forecast_names_the_month_it_is_crossed),
        cmocka_unit_test(test_budget_mistakes_are_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
