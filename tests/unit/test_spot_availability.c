/*
 * test_spot_availability.c: spot job runs when capacity is not always
 * there (SPEC 7.4): the greedy rule of "Can't Be Late" (NSDI 2024) as
 * docs/billing.md "Spot availability" states it, replayed by hand on the
 * histories of tests/data/availability (capacity there in hours 0-9,
 * gone 10-15, there 16-29, gone 30-39, there from 40), and an hourly
 * probability.  Prices: p4d.24xlarge spot $10.00, on demand $32.77.
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

#include "check.h"
#include "engine.h"
#include "gpuplan.h"

#include "fixture.h"

/* Loads tests/data/availability/aws-<name>.json as the fixture's pricing. */
static void use_catalog(const char *name)
{
    char rel[128];
    gp_error err;

    gp_pricing_free(pricing);
    pricing = NULL;
    snprintf(rel, sizeof rel, "tests/data/availability/aws-%s.json", name);
    gp_error_clear(&err);
    if (gp_pricing_load(&pricing, src_path(rel), 0, &err) != GP_OK)
        fail_msg("%s: %s", rel, err.message);
}

/* One job run of one p4d.24xlarge for `hours` from 2026-01-01 at hour
 * `from` (UTC). */
static gp_trace *job_from(int from, int hours)
{
    char csv[256];
    gp_trace_options opt;

    snprintf(csv, sizeof csv,
             "start,end,instance_type,instances,job_id,workload\n"
             "%d,%d,p4d.24xlarge,1,j,training\n",
             1767225600 + from * 3600, 1767225600 + (from + hours) * 3600);
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    return trace_with(csv, &opt);
}

static gp_trace *job_of(int hours)
{
    return job_from(0, hours);
}

/* The ledger of the job under a spot policy with restart overhead r and
 * deadline_h d (extra: more policy keys, "" for none). */
static gp_ledger *replay(const gp_trace *t, double r, double d,
                         const char *extra, gp_scenario **s)
{
    char json[512];

    snprintf(json, sizeof json,
             "{\"policy\": {\"training\": {\"launch\": \"spot\", "
             "\"restart_overhead_h\": %g, \"deadline_h\": %g%s}}, "
             "\"monte_carlo\": {\"runs\": 3, \"seed\": 1}}",
             r, d, extra);
    *s = scenario_of(json);
    return run(t, *s, 0);
}

/* What a replay by hand gives for one job row. */
struct by_hand {
    double wait, interruptions, spot_h, fallback_h, restart_on_od, met;
};

static void check_row(const gp_ledger *l, const struct by_hand *e)
{
    const gp_ledger_job *j = &l->jobs[0];
    assert_int_equal(l->n_jobs, 1);
    assert_close(j->wait_h_mean, e->wait, 1e-9);
    assert_close(j->interruptions_mean, e->interruptions, 1e-12);
    assert_close(j->fallback_cost_mean, e->fallback_h * 32.77, 1e-6);
    assert_close(j->cost_mean, e->spot_h * 10.0 + e->fallback_h * 32.77, 1e-6);
    assert_close(j->met_deadline, e->met, 0);
    /* billed in the window: the spot hours at spot, the fallback on demand */
    assert_close(l->cost[GP_MODEL_SPOT], e->spot_h * 10.0, 1e-6);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], e->fallback_h * 32.77, 1e-6);
    (void)e->restart_on_od;
}

/*
 * A 48-hour job, deadline 52 h, restart 0.05 h, on the hourly history
 * (1-hour ticks).  Hours 0-9 on spot: 38 h of work left at t = 10, when
 * capacity goes (1 interruption).  At each tick it waits unless
 * 52 - t < 38 + 0.05 + 1 = 39.05: t = 10, 11, 12 wait (42, 41, 40 are not
 * less), t = 13 switches (39 < 39.05).  On demand: 0.05 + 38 = 38.05 h,
 * done at 51.05 <= 52: met.  Wait 3 h; spot 10 h ($100); fallback
 * 38.05 x $32.77 = $1246.90.  With restart 0.2 the bound is 39.2: the same
 * tick, 38.2 h on demand, done at 51.2.  The CSV (with times, the run
 * starts at its first row) and the JSON (from the run's start) agree.
 */
static void test_deadline_52_falls_back_at_hour_13(void **state)
{
    (void)state;
    const char *cats[2] = {"csv", "json"};
    for (int c = 0; c < 2; c++) {
        use_catalog(cats[c]);
        gp_trace *t = job_of(48);
        gp_scenario *s;
        gp_ledger *l = replay(t, 0.05, 52, "", &s);
        struct by_hand e = {3, 1, 10, 38.05, 0.05, 1};
        check_row(l, &e);
        gp_ledger_free(l);
        gp_scenario_free(s);
        l = replay(t, 0.2, 52, "", &s);
        struct by_hand e2 = {3, 1, 10, 38.2, 0.2, 1};
        check_row(l, &e2);
        assert_close(l->jobs[0].failed_attempt_cost_mean, 0.2 * 32.77, 1e-9);
        gp_ledger_free(l);
        gp_scenario_free(s);
        gp_trace_free(t);
    }
}

/*
 * Deadline 70 h, restart 0.2: the waits never reach the bound.  Hours 0-9
 * spot (left 38); 10-15 wait (70 - 15 = 55 is not < 39.2); t = 16 restarts:
 * 0.2 h restart + 0.8 h work (left 37.2); 17-29 work 13 h (left 24.2);
 * t = 30 interruption 2, waits 30-39 (70 - 39 = 31 is not < 25.4); t = 40
 * restarts: 0.2 + 0.8 (left 23.4); 41-63 work 23 h (left 0.4); done at
 * 64.4 <= 70.  Wait 6 + 10 = 16 h; 2 interruptions; spot 48 + 2 x 0.2 =
 * 48.4 h ($484); no fallback; failed-attempt cost 0.4 x $10 = $4.  With
 * restart 0.05: spot 48.1 h ($481), done at 64.1.
 */
static void test_deadline_70_waits_through_both_outages(void **state)
{
    (void)state;
    use_catalog("json");
    gp_trace *t = job_of(48);
    gp_scenario *s;
    gp_ledger *l = replay(t, 0.2, 70, "", &s);
    struct by_hand e = {16, 2, 48.4, 0, 0, 1};
    check_row(l, &e);
    assert_close(l->jobs[0].failed_attempt_cost_mean, 4, 1e-9);
    assert_close(l->jobs[0].attempts_mean, 3, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    l = replay(t, 0.05, 70, "", &s);
    struct by_hand e2 = {16, 2, 48.1, 0, 0, 1};
    check_row(l, &e2);
    gp_ledger_free(l);
    gp_scenario_free(s);

    /* deadline 60, restart 0.2: at t = 30 the bound is 24.2 + 0.2 + 1 =
     * 25.4; 60 - 35 = 25 < 25.4, so it switches at 35: 0.2 + 24.2 = 24.4 h
     * on demand, done at 59.4; wait 6 + 5 = 11 h; spot 10 + 14 = 24 h. */
    l = replay(t, 0.2, 60, "", &s);
    struct by_hand e3 = {11, 2, 24, 24.4, 0.2, 1};
    check_row(l, &e3);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/*
 * Half-hour ticks (the same history, each hour twice): the margin is one
 * tick, 0.5 h.  Deadline 52, restart 0.05: the bound is 38 + 0.05 + 0.5 =
 * 38.55; t = 13 waits (39 is not less), t = 13.5 switches (38.5 < 38.55):
 * on demand 38.05 h, done at 51.55; wait 3.5 h.
 */
static void test_the_margin_is_one_tick_of_the_history(void **state)
{
    (void)state;
    use_catalog("half");
    gp_trace *t = job_of(48);
    gp_scenario *s;
    gp_ledger *l = replay(t, 0.05, 52, "", &s);
    struct by_hand e = {3.5, 1, 10, 38.05, 0.05, 1};
    check_row(l, &e);
    gp_ledger_free(l);
    gp_scenario_free(s);

    /* a deadline shorter than the work: on demand from the start, no
     * restart (it never ran), and the deadline missed: 48 > 47 */
    l = replay(t, 0.05, 47, "", &s);
    struct by_hand e2 = {0, 0, 0, 48, 0, 0};
    check_row(l, &e2);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/*
 * Availability 0.5 per hour, no interruptions (rate 0), a 24-hour job.
 * With deadline_h 26 (slack 2): before the start it tries hour by hour;
 * after w hours of waiting it falls back when w + 1 > 2, that is at w = 2.
 * So it falls back when the first two hours both lack capacity:
 * 0.5 x 0.5 = 0.25; the mean wait is 0.25 x 1 + 0.25 x 2 = 0.75 h.  On
 * spot the work takes 24 h + 24 checkpoints of 0.05 h (the defaults) =
 * 25.2 h: a start at 0 is done at 25.2 (met), a start at 1 at 26.2 (late:
 * the greedy rule does not look past the start), and a fallback at 2 runs
 * 24 h on demand, done at 26 (met): met 0.5 + 0.25 = 0.75.  Without a deadline the wait is geometric: mean (1 - p) / p =
 * 1 h, and it never falls back.  4,000 replays: standard errors 0.007
 * (share), 0.013 and 0.022 h (waits); tolerances about 4 of them.
 */
static void test_an_hourly_probability_waits_and_falls_back(void **state)
{
    (void)state;
    use_catalog("half-p");
    gp_trace *t = job_of(24);
    gp_scenario *s = scenario_of(
        "{\"policy\": {\"training\": {\"launch\": \"spot\", "
        "\"deadline_h\": 26}}, \"monte_carlo\": {\"runs\": 4000, "
        "\"seed\": 7}}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->jobs[0].fallback_share, 0.25, 0.03);
    assert_close(l->jobs[0].wait_h_mean, 0.75, 0.05);
    assert_close(l->jobs[0].met_deadline, 0.75, 0.03);
    assert_close(l->jobs[0].deadline_h, 26, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    s = scenario_of("{\"policy\": {\"training\": {\"launch\": \"spot\"}}, "
                    "\"monte_carlo\": {\"runs\": 4000, \"seed\": 7}}");
    l = run(t, s, 0);
    assert_close(l->jobs[0].fallback_share, 0, 0);
    assert_close(l->jobs[0].wait_h_mean, 1, 0.09);
    assert_true(l->jobs[0].met_deadline < 0); /* no deadline */
    /* waiting is not billed: 25.2 h at $10 */
    assert_close(l->jobs[0].cost_mean, 10.0 * (24 + 24 * 0.05), 1e-6);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/*
 * #38's true cost of a training run: a 10-hour job on 2 p4d.24xlarge on a
 * history whose capacity goes at hours 2, 5 and 8 (three-outages.json),
 * restart 0.25 h (the default), no deadline.  By hand: hours 0-1 work
 * (left 8); 2 gone (interruption 1, wait); 3 restart 0.25 + work 0.75
 * (left 7.25); 4 (6.25); 5 gone (2); 6 0.25 + 0.75 (5.5); 7 (4.5); 8 gone
 * (3); 9 0.25 + 0.75 (3.75); 10-12 (0.75); 13 done at 13.75.  Attempts 4,
 * interruptions 3, wait 3 h; spot 10 + 3 x 0.25 = 10.75 h on 2 instances
 * at $10: $215 per completed run, of it failed attempts 2 x 0.75 x $10 =
 * $15.  Beside it a 5-hour inference job on demand: one attempt, 5 x
 * $32.77 = $163.85, no interruption.
 */
static void test_three_interruptions_and_the_cost_per_completed_run(
    void **state)
{
    (void)state;
    gp_trace_options opt;
    use_catalog("three");
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    gp_trace *t = trace_with(
        "start,end,instance_type,instances,job_id,workload\n"
        "2026-01-01T00:00:00Z,2026-01-01T10:00:00Z,p4d.24xlarge,2,train,"
        "training\n"
        "2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,p4d.24xlarge,1,serve,"
        "inference\n",
        &opt);
    gp_scenario *s = scenario_of(
        "{\"policy\": {\"training\": {\"launch\": \"spot\"}}, "
        "\"monte_carlo\": {\"runs\": 5, \"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_jobs, 1);
    const gp_ledger_job *j = &l->jobs[0];
    assert_close(j->interruptions_mean, 3, 1e-12);
    assert_close(j->attempts_mean, 4, 1e-12);
    assert_close(j->wait_h_mean, 3, 1e-12);
    assert_close(j->cost_mean, 215, 1e-9);
    assert_close(j->failed_attempt_cost_mean, 15, 1e-9);
    assert_close(j->fallback_cost_mean, 0, 0);
    assert_true(j->met_deadline < 0);
    assert_int_equal(l->n_od_jobs, 1);
    const gp_ledger_job *o = &l->od_jobs[0];
    assert_string_equal(t->labels[t->runs[o->run].job], "serve");
    assert_close(o->attempts_mean, 1, 0);
    assert_close(o->interruptions_mean, 0, 0);
    assert_close(o->cost_mean, 5 * 32.77, 1e-9);
    assert_close(o->failed_attempt_cost_mean, 0, 0);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/*
 * A CSV history has times: a run that starts at 12:00 reads it from its
 * row 12 (capacity gone 10-15).  Deadline 52, restart 0.05: t = 0..3
 * wait (52 - t is 52, 51, 50, 49, not below 48 + 0 + 1: it never ran, so
 * no restart is owed); at t = 4 capacity is back, but 48 < 49: on demand
 * for 48 h, no restart, done at 52, met.  The JSON has no times and
 * replays from the run's start whatever its clock time: as the run at
 * 00:00 (t = 13 switches, 38.05 h on demand).
 */
static void test_a_csv_history_is_read_at_the_clock_time(void **state)
{
    (void)state;
    use_catalog("csv");
    gp_trace *t = job_from(12, 48);
    gp_scenario *s;
    gp_ledger *l = replay(t, 0.05, 52, "", &s);
    struct by_hand e = {4, 0, 0, 48, 0, 1};
    check_row(l, &e);
    gp_ledger_free(l);
    gp_scenario_free(s);
    use_catalog("json");
    gp_trace_free(t);
    t = job_from(12, 48);
    l = replay(t, 0.05, 52, "", &s);
    struct by_hand e2 = {3, 1, 10, 38.05, 0.05, 1};
    check_row(l, &e2);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadline_52_falls_back_at_hour_13),
        cmocka_unit_test(test_deadline_70_waits_through_both_outages),
        cmocka_unit_test(test_the_margin_is_one_tick_of_the_history),
        cmocka_unit_test(test_a_csv_history_is_read_at_the_clock_time),
        cmocka_unit_test(test_an_hourly_probability_waits_and_falls_back),
        cmocka_unit_test(
            test_three_interruptions_and_the_cost_per_completed_run),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, teardown);
}
