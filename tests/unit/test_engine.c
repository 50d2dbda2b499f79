/*
 * test_engine.c: the replay engine and the purchasing models (SPEC
 * section 4).
 *
 * The prices come from tests/data/engine/aws-test.json, a fixture with
 * round rates; every expected figure is worked out by hand in the comment
 * beside it, from the billing rules in SPEC section 4 and AWS's documented
 * order of applying savings plans ("Savings Plans apply to usage with the
 * highest savings percentage first ... if there are multiple usages with
 * equal savings percentages, Savings Plans are applied to the first usage
 * with the lowest Savings Plans rate"; EC2 Instance Savings Plans apply
 * before Compute Savings Plans).
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

/* Hourly rows of `instances` of `type` for `hours` hours from 2026-01-05
 * 00:00Z, with an optional gpu_util. */
static char *hours_of(const char *type, double instances, int hours,
                      const char *util)
{
    size_t cap = 64 + (size_t)hours * 96;
    char *csv = malloc(cap);
    size_t n = (size_t)snprintf(csv, cap,
                                "timestamp,instance_type,instances,gpu_util\n");
    for (int h = 0; h < hours; h++)
        n += (size_t)snprintf(csv + n, cap - n,
                              "2026-01-05T%02d:00:00Z,%s,%g,%s\n", h, type,
                              instances, util ? util : "");
    return csv;
}

static void
test_cost_per_useful_gpu_hour_is_cost_over_gpus_times_util(void **state)
{
    (void)state;
    /* p4d.24xlarge at $32.77/h on demand, 22% GPU utilization:
     * $32.77 / (8 GPUs x 0.22) = $18.62 per useful GPU-hour. */
    char *csv = hours_of("p4d.24xlarge", 1, 1, "22");
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 32.77, 1e-9);
    assert_close(l->useful_gpu_hours, 1.76, 1e-12);
    assert_close(l->cost_per_useful_gpu_hour, 32.77 / (8 * 0.22), 1e-9);
    gp_ledger_free(l);
    gp_trace_free(t);
    free(csv);

    /* g5.xlarge at $1.006/h and 35%: $1.006 / 0.35 = $2.87. */
    csv = hours_of("g5.xlarge", 1, 1, "35");
    t = trace_of(csv);
    l = run(t, s, 0);
    assert_close(l->cost_per_useful_gpu_hour, 1.006 / 0.35, 1e-9);
    assert_close(l->all_on_demand_cost, 1.006, 1e-12);
    assert_close(l->savings, 0, 1e-12);
    gp_ledger_free(l);
    gp_trace_free(t);
    gp_scenario_free(s);
    free(csv);
}

static void test_a_year_of_hours_sums_to_the_rate_times_the_hours(void **state)
{
    (void)state;
    /* One p4d.24xlarge on demand at $32.77/h for 2026, one row of 365
     * days: 8,760 x $32.77 = $287,065.20 for the year, 744 x $32.77 =
     * $24,380.88 for January.  Adding $32.77 hour by hour with plain `+=`
     * drifts: 287065.1999999776 (2.2e-8 off) and 24380.880000000267
     * (2.7e-10 off), which the JSON prints at 15 digits; a compensated
     * sum is within an ulp (5.8e-11 and 3.6e-12 here).  Compared in
     * double: in float the ulp at 287,065 is 1/32 of a dollar. */
    gp_trace *t = trace_of("timestamp,step_s,instance_type,instances\n"
                           "2026-01-01T00:00:00Z,31536000,p4d.24xlarge,1\n");
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_hours, 8760);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 287065.2, 1e-9);
    assert_close(l->total_cost, 287065.2, 1e-9);
    assert_close(l->all_on_demand_cost, 287065.2, 1e-9);
    assert_close(l->series[0].cost, 287065.2, 1e-9);
    assert_int_equal(l->n_months, 12);
    assert_int_equal(l->months[0].month, 1);
    assert_close(l->months[0].cost[GP_MODEL_ON_DEMAND], 24380.88, 1e-11);
    assert_close(l->months[0].total_cost, 24380.88, 1e-11);
    assert_close(l->months[0].total_cash, 24380.88, 1e-11);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void
test_a_year_of_commitment_costs_the_rate_times_the_hours(void **state)
{
    (void)state;
    /* One g5.xlarge for 2026 under a 1-year no-upfront reservation at
     * $0.62/h and a 1-year compute plan of $1.10/h, both from 2026-01-01:
     * 8,760 x $0.62 = $5,431.20 and 8,760 x $1.10 = $9,636.00 for the
     * year.  Plain `+=` once an hour made 5431.199999999231 and
     * 9636.000000001593; a compensated sum is within an ulp (1.8e-12).
     * The reservation covers the instance every hour, so it is all used
     * (8,760 instance-hours) and the plan covers nothing. */
    gp_trace *t = trace_of("timestamp,step_s,instance_type,instances\n"
                           "2026-01-01T00:00:00Z,31536000,g5.xlarge,1\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.xlarge\", \"count\": 1, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"}, "
        "{\"type\": \"savings_plan\", \"kind\": \"compute\", \"provider\": "
        "\"aws\", \"hourly_commitment\": 1.1, \"term_years\": 1, "
        "\"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_hours, 8760);
    assert_int_equal(l->n_commitments, 2);
    assert_int_equal(l->commitments[0].c->type, GP_COMMIT_RESERVED);
    assert_close(l->commitments[0].cost, 5431.2, 1e-11);
    assert_close(l->commitments[0].used, 8760, 1e-11);
    assert_int_equal(l->commitments[1].c->type, GP_COMMIT_SAVINGS_PLAN);
    assert_close(l->commitments[1].cost, 9636, 1e-11);
    assert_close(l->commitments[1].used, 0, 1e-11);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_a_year_on_spot_costs_the_hour_times_the_hours(void **state)
{
    (void)state;
    /* One g5.xlarge for 2026 launched on spot ($0.40/h, 5% a month
     * interrupted): every hour bills the same, hours[0].cost[GP_MODEL_SPOT]
     * (the spot price times Daly's expected wall time of an hour), so the year
     * is 8,760 times it, and with no job run every Monte Carlo replicate is
     * that same cost, so P50 and P95 are too.  By hand (SPEC 4; tau 1 h, delta
     * 0.05 h, R 0.25 h, the defaults): lambda = -ln(0.95) / 730 = 7.0264787e-5
     * /h, M = 1 / lambda = 14231.880 h, wall = M e^(R/M) (e^((tau + delta)/M) -
     * 1) = 1.05005718 h (python3), so $0.420022872 an hour and $3,679.40036 a
     * year.  Plain `+=` once an hour made P50 3679.4003578972738 against 8,760
     * x the hour = 3679.4003578975594 (2.9e-10 off); compensated sums agree
     * within an ulp (4.5e-13). */
    gp_trace *t = trace_of(
        "timestamp,step_s,instance_type,workload,instances,interruptible\n"
        "2026-01-01T00:00:00Z,31536000,g5.xlarge,training,1,true\n");
    gp_scenario *s =
        scenario_of("{\"policy\": {\"training\": {\"launch\": \"spot\"}}, "
                    "\"monte_carlo\": {\"runs\": 10, \"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_hours, 8760);
    assert_int_equal(l->n_jobs, 0);
    double hour = l->hours[0].cost[GP_MODEL_SPOT];
    double m = 730 / -log(0.95);
    assert_close(hour, 0.40 * m * exp(0.25 / m) * (exp(1.05 / m) - 1), 1e-12);
    assert_close(hour, 0.420022872, 1e-9);
    assert_close(8760 * hour, 3679.40036, 1e-5);
    assert_close(l->hours[8759].cost[GP_MODEL_SPOT], hour, 0);
    assert_close(l->cost[GP_MODEL_SPOT], 8760 * hour, 1e-11);
    assert_close(l->spot_cost_p50, 8760 * hour, 1e-11);
    assert_close(l->spot_cost_p95, 8760 * hour, 1e-11);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_savings_plan_covers_highest_discount_first(void **state)
{
    (void)state;
    /* One hour: 10 g5.xlarge (on demand 1.006, compute rate 0.70, discount
     * 1 - 0.70/1.006 = 30.4%) and 10 g5.2xlarge (1.212, 0.85, 29.9%).
     * A $10/h compute plan covers g5.xlarge first: 10 x 0.70 = $7.00,
     * then $3.00 / 0.85 = 3.529412 g5.2xlarge hours.  Left on demand:
     * (10 - 3.529412) x 1.212 = $7.842353.  Total = 10 + 7.842353. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,10\n"
                           "2026-01-05T00:00:00Z,g5.2xlarge,10\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"savings_plan\", \"kind\": "
        "\"compute\", \"provider\": \"aws\", \"hourly_commitment\": 10, "
        "\"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    double left = 10 - 3.0 / 0.85;
    assert_close(l->cost[GP_MODEL_ON_DEMAND], left * 1.212, 1e-9);
    assert_close(l->cost[GP_MODEL_SAVINGS_PLAN], 10, 1e-9);
    assert_close(l->total_cost, 10 + left * 1.212, 1e-9);
    assert_close(l->savings_plan_utilization, 1.0, 1e-12);
    /* coverage = covered on-demand value / launched on-demand value
     *          = (10 x 1.006 + 3.529412 x 1.212) / (10.06 + 12.12) */
    assert_close(l->coverage, (10.06 + (3.0 / 0.85) * 1.212) / 22.18, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_instance_family_plan_applies_before_compute(void **state)
{
    (void)state;
    /* The same hour with a $5 g5 instance_family plan too (rates 0.65 and
     * 0.80, g5.xlarge again the higher discount).  Family first: 5 / 0.65
     * = 7.692308 g5.xlarge hours.  Then compute $10: the other 2.307692
     * g5.xlarge hours use 2.307692 x 0.70 = $1.615385; $8.384615 / 0.85 =
     * 9.864253 g5.2xlarge hours; 0.135747 left at 1.212 = $0.164525.
     * Total = 5 + 10 + 0.164525. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,10\n"
                           "2026-01-05T00:00:00Z,g5.2xlarge,10\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": ["
        "{\"type\": \"savings_plan\", \"kind\": \"compute\", \"provider\": "
        "\"aws\", \"hourly_commitment\": 10, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"},"
        "{\"type\": \"savings_plan\", \"kind\": \"instance_family\", "
        "\"provider\": \"aws\", \"region\": \"us-east-1\", \"family\": "
        "\"g5\", \"hourly_commitment\": 5, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    double xl_left = 10 - 5 / 0.65;
    double budget = 10 - xl_left * 0.70;
    double od = (10 - budget / 0.85) * 1.212;
    assert_close(l->cost[GP_MODEL_ON_DEMAND], od, 1e-9);
    assert_close(l->total_cost, 15 + od, 1e-9);
    assert_close(l->savings_plan_utilization, 1.0, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_equal_discounts_go_to_the_lower_plan_rate(void **state)
{
    (void)state;
    /* tie.a: on demand 1.0, rate 0.6; tie.b: 2.0, rate 1.2: both 40% off.
     * With 1 instance-hour of each and a $1.00 plan, the lower rate (tie.a)
     * is covered first: $0.60, then 0.40 / 1.2 = 1/3 of tie.b.
     * On demand: 2/3 x 2.0 = $1.333333.  Total $2.333333. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,tie.b,1\n"
                           "2026-01-05T00:00:00Z,tie.a,1\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"savings_plan\", \"kind\": "
        "\"compute\", \"provider\": \"aws\", \"hourly_commitment\": 1, "
        "\"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 2.0 * 2.0 / 3.0, 1e-9);
    assert_close(l->total_cost, 1 + 4.0 / 3.0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_partly_used_savings_plan_loses_the_rest(void **state)
{
    (void)state;
    /* 5 g5.xlarge for 2 hours under a $10/h compute plan: each hour uses
     * 5 x 0.70 = $3.50 of $10.  Utilization 3.5/10 = 35%; cost = the
     * commitment, $20, more than on demand (10 x 1.006 = $10.06): savings
     * are negative. */
    char *csv = hours_of("g5.xlarge", 5, 2, NULL);
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"savings_plan\", \"kind\": "
        "\"compute\", \"provider\": \"aws\", \"hourly_commitment\": 10, "
        "\"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->savings_plan_utilization, 0.35, 1e-12);
    assert_close(l->total_cost, 20.0, 1e-9);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 0, 1e-12);
    assert_close(l->savings, 10.06 - 20.0, 1e-9);
    assert_close(l->coverage, 1.0, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
    free(csv);
}

static void test_size_flexibility_covers_smaller_sizes_smallest_first(
    void **state)
{
    (void)state;
    /* One g5.12xlarge reservation = 96 units.  Usage: 3 g5.xlarge (8 units
     * each, 24) and 2 g5.2xlarge (16 each, 32): 56 units, all covered.
     * Cost = the reservation's $3.50; utilization 56/96 = 58.33%. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,3\n"
                           "2026-01-05T00:00:00Z,g5.2xlarge,2\n");
    gp_scenario *s = scenario_of(
        "{\"window\": {\"start\": \"2026-01-05T00:00:00Z\", \"end\": "
        "\"2026-01-05T01:00:00Z\"}, \"commitments\": [{\"type\": "
        "\"reserved\", \"provider\": \"aws\", \"region\": \"us-east-1\", "
        "\"instance_type\": \"g5.12xlarge\", \"count\": 1, \"term_years\": "
        "1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 3.5, 1e-9);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 0, 1e-12);
    assert_close(l->reserved_utilization, 56.0 / 96.0, 1e-12);
    /* reported in g5.12xlarge instance-hours (SPEC section 4): 56/96 of
     * one used, one purchased; the on-demand value it covered is
     * 3 x 1.006 + 2 x 1.212 = 5.442 */
    assert_int_equal(l->n_commitments, 1);
    assert_close(l->commitments[0].used, 56.0 / 96.0, 1e-12);
    assert_close(l->commitments[0].purchased, 1.0, 1e-12);
    assert_close(l->commitments[0].od_equiv_covered, 5.442, 1e-9);
    assert_close(l->hours[0].reserved_used, 56.0 / 96.0, 1e-12);
    assert_close(l->hours[0].reserved_purchased, 1.0, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);

    /* A g5.2xlarge reservation (16 units) with 1 g5.2xlarge and 1
     * g5.xlarge running: its own type first, nothing left for the
     * g5.xlarge, billed on demand: 0.75 + 1.006. */
    t = trace_of("timestamp,instance_type,instances\n"
                 "2026-01-05T00:00:00Z,g5.xlarge,1\n"
                 "2026-01-05T00:00:00Z,g5.2xlarge,1\n");
    s = scenario_of("{\"commitments\": [{\"type\": \"reserved\", "
                    "\"instance_type\": \"g5.2xlarge\", \"count\": 1, "
                    "\"term_years\": 1, \"payment\": \"no_upfront\", "
                    "\"start\": \"2026-01-01T00:00:00Z\"}]}");
    l = run(t, s, 0);
    assert_close(l->total_cost, 0.75 + 1.006, 1e-9);
    assert_close(l->reserved_utilization, 1.0, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_reservation_starting_mid_window_and_its_cash(void **state)
{
    (void)state;
    /* 2 g5.xlarge for 10 hours (00:00-10:00).  One g5.xlarge reservation,
     * 1-year partial upfront (0.31/h + $2715.60 upfront, effective
     * 0.31 + 2715.6/8760 = 0.62/h), starting at 04:00.
     * Hours 0-3: 2 x 1.006 = 2.012 each -> 8.048.
     * Hours 4-9: reservation 0.62 + 1 x 1.006 -> 6 x 1.626 = 9.756.
     * Amortized total 17.804; utilization 6/6 = 100%.
     * Cash for January: on demand 4 x 2.012 + 6 x 1.006 = 14.084, plus the
     * reservation's recurring 6 x 0.31 = 1.86 and its upfront 2715.60. */
    char *csv = hours_of("g5.xlarge", 2, 10, NULL);
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.xlarge\", \"count\": 1, \"term_years\": 1, \"payment\": "
        "\"partial_upfront\", \"start\": \"2026-01-05T04:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 17.804, 1e-9);
    assert_close(l->cost[GP_MODEL_RESERVED], 6 * 0.62, 1e-9);
    assert_close(l->reserved_utilization, 1.0, 1e-12);
    assert_int_equal(l->n_months, 1);
    assert_close(l->months[0].total_cost, 17.804, 1e-9);
    assert_close(l->months[0].reserved_cash, 6 * 0.31 + 2715.6, 1e-9);
    assert_close(l->months[0].total_cash, 14.084 + 1.86 + 2715.6, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
    free(csv);
}

static void test_expiring_reservation_stops_covering(void **state)
{
    (void)state;
    /* A 1-year reservation bought 2025-01-05T03:00Z ends 365 days later,
     * 2026-01-05T03:00Z: it covers hours 0-2 of the 10-hour window.
     * 1 g5.xlarge running: 3 x 0.62 + 7 x 1.006 = 1.86 + 7.042 = 8.902. */
    char *csv = hours_of("g5.xlarge", 1, 10, NULL);
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.xlarge\", \"count\": 1, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2025-01-05T03:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 8.902, 1e-9);
    assert_close(l->cost[GP_MODEL_RESERVED], 1.86, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
    free(csv);
}

static void test_unused_reservation_is_paid_and_months_split(void **state)
{
    (void)state;
    /* Window 2026-01-31T22:00 to 2026-02-01T02:00 (4 hours) with no usage
     * in the last two hours; a g5.xlarge reservation is paid all 4 hours:
     * January 2 x 0.62, February 2 x 0.62.  Usage 1 instance in the first
     * two hours only: utilization 2/4. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-31T22:00:00Z,g5.xlarge,1\n"
                           "2026-01-31T23:00:00Z,g5.xlarge,1\n");
    gp_scenario *s = scenario_of(
        "{\"window\": {\"start\": \"2026-01-31T22:00:00Z\", \"end\": "
        "\"2026-02-01T02:00:00Z\"}, \"commitments\": [{\"type\": "
        "\"reserved\", \"instance_type\": \"g5.xlarge\", \"count\": 1, "
        "\"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_hours, 4);
    assert_int_equal(l->n_months, 2);
    assert_close(l->months[0].total_cost, 1.24, 1e-9);
    assert_close(l->months[1].total_cost, 1.24, 1e-9);
    assert_close(l->reserved_utilization, 0.5, 1e-12);
    /* the two idle hours covered nothing: their cost has no series to go
     * to, and shows as unallocated */
    assert_close(l->unallocated_cost, 1.24, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_discount_takes_a_fraction_off_every_cost(void **state)
{
    (void)state;
    /* 10% off: 2 g5.xlarge for one hour, 2 x 1.006 x 0.9 = 1.8108. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,2\n");
    gp_scenario *s =
        scenario_of("{\"adjustments\": {\"discount\": 0.1}}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 1.8108, 1e-9);
    assert_close(l->all_on_demand_cost, 1.8108, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_discount_comes_off_the_months_and_their_cash(void **state)
{
    (void)state;
    /* 10% off, one hour of 2 g5.xlarge, one of them under a partial-upfront
     * reservation bought that hour (0.31/h plus 2715.6 upfront, amortized
     * 0.31 + 2715.6 / 8760 = 0.62/h).  Cost: (0.62 + 1.006) x 0.9 = 1.4634,
     * in the month as in the total: reserved 0.62 x 0.9 = 0.558, on demand
     * 1.006 x 0.9 = 0.9054.  Cash: reserved (0.31 + 2715.6) x 0.9 =
     * 2444.319, in all (0.31 + 2715.6 + 1.006) x 0.9 = 2445.2244.  The
     * months were built before the discount: 1.626 and 2716.916. */
    gp_trace *t = trace_of("timestamp,instance_type,instances\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,2\n");
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"discount\": 0.1}, \"commitments\": [{\"type\": "
        "\"reserved\", \"instance_type\": \"g5.xlarge\", \"count\": 1, "
        "\"term_years\": 1, \"payment\": \"partial_upfront\", \"start\": "
        "\"2026-01-05T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 1.4634, 1e-9);
    assert_int_equal(l->n_months, 1);
    assert_close(l->months[0].total_cost, 1.4634, 1e-9);
    assert_close(l->months[0].cost[GP_MODEL_RESERVED], 0.558, 1e-9);
    assert_close(l->months[0].cost[GP_MODEL_ON_DEMAND], 0.9054, 1e-9);
    assert_close(l->months[0].reserved_cash, 2444.319, 1e-9);
    assert_close(l->months[0].total_cash, 2445.2244, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_chargeback_allocates_commitments_by_covered_value(
    void **state)
{
    (void)state;
    /* Team a runs 1 g5.xlarge, team b 3, in one hour; a reservation of 2
     * g5.xlarge covers 2 of the 4 (half of each team's usage).  On demand:
     * 2 x 1.006 = 2.012, split 1:3 -> a 0.503, b 1.509.  Reservation
     * 2 x 0.62 = 1.24, split by covered value 1:3 -> a 0.31, b 0.93.
     * a = 0.813, b = 2.439; together the total, 3.252. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,3,b\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.xlarge\", \"count\": 2, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 3.252, 1e-9);
    for (size_t i = 0; i < t->n_series; i++) {
        const char *team = t->labels[t->series[i].team];
        double want = strcmp(team, "a") == 0 ? 0.813 : 2.439;
        assert_close(l->series[i].cost, want, 1e-9);
    }
    assert_close(l->unallocated_cost, 0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_spot_hazard_and_daly_time_match_hand_figures(void **state)
{
    (void)state;
    /* lambda = -ln(1 - 0.125) / 730 = 0.1335314 / 730 = 1.829197e-4 /h */
    assert_close(gp_spot_hazard(0.125), -log(0.875) / 730, 1e-15);
    assert_close(gp_spot_hazard(0.125), 1.829197e-4, 1e-10);
    /* Daly with M = 100 h, tau = 1, delta = 0.05, R = 0.25, W = 10:
     * 100 e^0.0025 (e^0.0105 - 1) x 10 = 100 x 1.0025031 x 0.0105553 x 10
     * = 10.58174 (worked with a calculator). */
    assert_close(gp_daly_expected_time(10, 1, 0.05, 0.25, 100), 10.58174, 1e-5);
    /* no failures: W (1 + delta/tau) */
    assert_close(gp_daly_expected_time(10, 1, 0.05, 0.25, INFINITY), 10.5,
                 1e-12);
}

/* A long job on spot: the Monte Carlo mean of its cost agrees with Daly's
 * expected time x N x spot price, and the same seed gives the same numbers
 * whatever the thread count. */
static void test_monte_carlo_mean_agrees_with_daly(void **state)
{
    (void)state;
    /* 8 p4d.24xlarge for 2000 hours, one job: W = 2000 h.  lambda from
     * 12.5%/month = 1.829197e-4, N lambda = 1.463358e-3, M = 683.36 h.
     * tau 1, delta 0.05, R 0.25 (the scenario defaults); no fallback
     * (max_interruptions 1000000). */
    gp_trace *t;
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    const char *csv = "start,end,instance_type,instances,job_id,workload\n"
                      "2026-01-01T00:00:00Z,2026-03-25T08:00:00Z,"
                      "p4d.24xlarge,8,long,training\n";
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&b, pricing, &opt, &err), GP_OK);
    assert_int_equal(
        gp_trace_builder_add_buffer(b, csv, strlen(csv), "j.csv", &err),
        GP_OK);
    assert_int_equal(gp_trace_builder_finish(b, &t, &err), GP_OK);
    assert_int_equal(t->n_runs, 1);
    assert_close(t->runs[0].instance_hours, 8 * 2000.0, 1e-9);

    gp_scenario *s = scenario_of(
        "{\"policy\": {\"training\": {\"launch\": \"spot\", "
        "\"max_interruptions\": 1000000}}, \"monte_carlo\": {\"runs\": "
        "4000, \"seed\": 7}}");
    gp_engine_options eo;
    gp_engine_options_init(&eo);
    eo.threads = 1;
    gp_ledger *one = NULL, *two = NULL;
    assert_int_equal(run_strategy(t, s, 0, &eo, &one, &err), GP_OK);
    eo.threads = 2;
    assert_int_equal(run_strategy(t, s, 0, &eo, &two, &err), GP_OK);

    double lambda = -log(0.875) / 730;
    double wall = gp_daly_expected_time(2000, 1, 0.05, 0.25,
                                        1 / (8 * lambda));
    double want = wall * 8 * 10.0; /* spot $10.00/h in the fixture */
    assert_int_equal(one->n_jobs, 1);
    double got = one->jobs[0].cost_mean;
    if (fabs(got - want) / want > 0.02)
        fail_msg("Monte Carlo mean %.2f vs Daly %.2f: more than 2%% apart",
                 got, want);
    /* interruptions: about (wall) x N lambda = 2102.38 x 1.463358e-3 =
     * 3.0765 (wall from Daly's formula above) */
    assert_close(one->jobs[0].interruptions_mean, wall * 8 * lambda, 0.15);
    /* bit for bit the same on one thread and two */
    assert_memory_equal(&one->jobs[0], &two->jobs[0], sizeof one->jobs[0]);
    assert_true(one->spot_cost_p50 == two->spot_cost_p50);
    assert_true(one->spot_cost_p95 == two->spot_cost_p95);
    assert_true(one->total_cost == two->total_cost);
    /* p95 above p50; the ledger's spot cost is the mean over runs */
    assert_true(one->spot_cost_p95 > one->spot_cost_p50);
    assert_close(one->cost[GP_MODEL_SPOT], got, 1e-6 * got);
    gp_ledger_free(one);
    gp_ledger_free(two);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_spot_without_jobs_uses_daly_per_hour(void **state)
{
    (void)state;
    /* 2 g5.xlarge training on spot for one hour, no job_id.  lambda =
     * -ln(0.95)/730 = 7.02648e-5; N = 2; M = 1/(2 lambda) = 7115.9 h.
     * Daly for W = 1: M e^(0.25/M) (e^(1.05/M) - 1) = 1.0501...; cost =
     * 2 x wall x $0.40.  Inference never goes to spot. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,workload\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,2,training\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,inference\n");
    gp_scenario *s = scenario_of("{\"policy\": {\"training\": {\"launch\": "
                                 "\"spot\"}, \"inference\": {\"launch\": "
                                 "\"spot\"}}}");
    gp_ledger *l = run(t, s, 0);
    double lambda = -log(0.95) / 730;
    double wall = gp_daly_expected_time(1, 1, 0.05, 0.25, 1 / (2 * lambda));
    assert_close(l->cost[GP_MODEL_SPOT], 2 * wall * 0.40, 1e-12);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 1.006, 1e-12);
    assert_close(l->all_on_demand_cost, 3 * 1.006, 1e-12);
    assert_close(l->workload_cost[GP_TRAINING], 2 * wall * 0.40, 1e-12);
    assert_close(l->workload_cost[GP_INFERENCE], 1.006, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* A job run whose instance count changes: job j1 runs 10 g5.xlarge in
 * its first hour and 2 in each of the next three, 16 instance-hours in
 * all, on spot at $0.40 with interruptions made negligible
 * (interruption_factor 1e-9) and checkpoints free.  By hand: $6.40 of
 * spot, $4.00 in the first hour and $0.80 in each other, all of it charged
 * to the series.  The run's cost used to be spread evenly over its four
 * hours (1.60 each, as if 4 instances ran throughout), and the 6
 * instance-hours of the first hour above that were billed again as
 * spot usage without a job: $8.80. */
static void test_spot_job_with_changing_instances_bills_each_hour(void **state)
{
    (void)state;
    gp_trace *t =
        trace_of("timestamp,step_s,instance_type,instances,"
                 "job_id,workload\n"
                 "2026-01-05T00:00:00Z,3600,g5.xlarge,10,j1,training\n"
                 "2026-01-05T01:00:00Z,3600,g5.xlarge,2,j1,training\n"
                 "2026-01-05T02:00:00Z,3600,g5.xlarge,2,j1,training\n"
                 "2026-01-05T03:00:00Z,3600,g5.xlarge,2,j1,training\n");
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 1e-9}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\", \"checkpoint_cost_h\": 0}}}");
    assert_int_equal(t->n_runs, 1);
    assert_int_equal(t->runs[0].n_hours, 4);
    assert_close(t->runs[0].hour_ih[0], 10, 1e-12);
    assert_close(t->runs[0].hour_ih[3], 2, 1e-12);
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_jobs, 1);
    assert_close(l->cost[GP_MODEL_SPOT], 16 * 0.40, 1e-6);
    assert_close(l->hours[0].cost[GP_MODEL_SPOT], 10 * 0.40, 1e-6);
    for (int h = 1; h < 4; h++)
        assert_close(l->hours[h].cost[GP_MODEL_SPOT], 2 * 0.40, 1e-6);
    assert_close(l->unallocated_cost, 0, 1e-9);
    assert_close(l->series[0].cost, 16 * 0.40, 1e-6);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* One job run in the jobs layout: 8 p4d.24xlarge training for 24 hours
 * (2026-01-01), job_id j. */
static gp_trace *one_day_job(void)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t;
    const char *csv = "start,end,instance_type,instances,job_id,workload\n"
                      "2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,"
                      "p4d.24xlarge,8,j,training\n";
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&b, pricing, &opt, &err), GP_OK);
    assert_int_equal(
        gp_trace_builder_add_buffer(b, csv, strlen(csv), "j.csv", &err),
        GP_OK);
    assert_int_equal(gp_trace_builder_finish(b, &t, &err), GP_OK);
    return t;
}

static void test_fallback_after_max_interruptions(void **state)
{
    (void)state;
    /* With a monthly rate the fixture does not have, force interruptions
     * with interruption_factor 2000 (lambda x 2000 = 0.366/h per p4d, so
     * 8 instances see one about every 20 minutes): with
     * max_interruptions 2 every replicate falls back to on demand after
     * two interruptions (finishing the 24 h job on spot first would need
     * an interruption-free 25.2 h: probability e^-73).
     *
     * By hand, from the checkpoint rules (tau 1 h, delta 0.05 h, R 0.25 h,
     * the scenario defaults): the 8 instances are interrupted at rate
     * a = 8 x 2000 x 1.829197e-4 = 2.926715/h.  An attempt saves
     * floor(progress / 1.05) whole hours of work; with q = e^(-1.05 a) =
     * 0.046280, the first saves on average q / (1 - q) = 0.048525 h, the
     * second (after its restart R) e^(-0.25 a) x 0.048525 = 0.023346 h:
     * 0.071871 h in all.  The fallback runs a restart and what is left on
     * demand: 0.25 + 24 - 0.071871 = 24.178129 h x 8 x $32.77 =
     * $6,338.54.  The two attempts last 1/a each on average and lose all
     * but their saved hours and checkpoints: 2/a - 1.05 x 0.071871 =
     * 0.607895 h on spot at $10.00, plus the fallback's restart on demand:
     * 8 x (0.607895 x 10 + 0.25 x 32.77) = $114.17 of failed attempts.
     * The 500 runs' standard errors are about $3.3 and $1.7: tolerances
     * $15 and $7. */
    gp_trace *t = one_day_job();
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 2000}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\", \"max_interruptions\": 2}}, "
        "\"monte_carlo\": {\"runs\": 500, \"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    double a = 8 * 2000 * -log(1 - 0.125) / 730;
    double q = exp(-1.05 * a);
    double saved = q / (1 - q) * (1 + exp(-0.25 * a));
    assert_int_equal(l->n_jobs, 1);
    assert_close(l->jobs[0].fallback_share, 1, 1e-12);
    assert_close(l->jobs[0].interruptions_mean, 2, 1e-12);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 8 * (0.25 + 24 - saved) * 32.77,
                 15);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 6338.54, 15);
    assert_close(l->jobs[0].failed_attempt_cost_mean,
                 8 * ((2 / a - 1.05 * saved) * 10 + 0.25 * 32.77), 7);
    assert_close(l->jobs[0].failed_attempt_cost_mean, 114.17, 7);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_fallback_when_the_deadline_is_at_risk(void **state)
{
    (void)state;
    /* A 24-hour job on 8 p4d.24xlarge with deadline_slack_h 0: any
     * interruption puts the deadline at risk (one more could lose a restart
     * and a checkpoint interval), so a replicate falls back at its first
     * interruption or finishes on spot untouched.  Worked from the
     * exponential: lambda = -ln(1 - 0.125) / 730 per instance (the
     * fixture's monthly rate) x interruption_factor 27, so 8 instances at
     * rate 8 x 27 x 1.82920e-4 = 0.0395107/h; the first attempt needs
     * 24 h of work plus 24 checkpoints of 0.05 h = 25.2 h; it is
     * interrupted with probability 1 - exp(-0.0395107 x 25.2) = 0.6305.
     * That is both the share that falls back and the mean interruptions
     * (4,000 runs: standard error 0.0076; tolerance 4 of them). */
    gp_trace *t = one_day_job();
    double rate = 8 * 27 * -log(1 - 0.125) / 730;
    double p = 1 - exp(-rate * 25.2);
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 27}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\", \"max_interruptions\": 1000, "
        "\"deadline_slack_h\": 0}}, \"monte_carlo\": {\"runs\": 4000, "
        "\"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_jobs, 1);
    assert_close(l->jobs[0].fallback_share, p, 0.03);
    assert_close(l->jobs[0].interruptions_mean, p, 0.03);
    gp_ledger_free(l);
    gp_scenario_free(s);

    /* without a deadline the same runs stay on spot through their
     * interruptions: more of them on average than the share interrupted */
    s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 27}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\", \"max_interruptions\": "
        "1000}}, \"monte_carlo\": {\"runs\": 4000, \"seed\": 1}}");
    l = run(t, s, 0);
    assert_close(l->jobs[0].fallback_share, 0, 0);
    assert_true(l->jobs[0].interruptions_mean > p + 0.1);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* A job run the window cuts: the 24-hour run of one_day_job (8
 * p4d.24xlarge) in a window of its first 12 hours is replayed whole and
 * half of it is billed, so the spot statistics beside the bill count half
 * of it too.  By hand: lambda = -ln(1 - 0.125) / 730 = 1.829197e-4 per
 * instance, x interruption_factor 0.5 x 8 instances = 7.31679e-4/h;
 * deadline_slack_h 0 sends a run to on demand at its first interruption,
 * so a replicate is interrupted at most once, with probability
 * p = 1 - exp(-7.31679e-4 x 25.2) = 0.018269 (24 h of work and 24
 * checkpoints of 0.05 h).  A run not interrupted costs 8 x 25.2 x $10.00
 * = $2016 whole, $1008 in the window; that is P50 and P95 (the share
 * interrupted, under 5%, lies above P95: a fallback pays on demand for
 * its restart and the work it lost, $32.77/h against $10.00).  Expected
 * interruptions in the window: p / 2 = 0.009135 (4,000 runs: standard
 * error of p 0.0021, tolerance 2 of them, halved).  They used to be the
 * whole run's: P50 $2016 beside a window's bill of about $1028. */
static void test_spot_statistics_cover_the_window_of_a_cut_run(void **state)
{
    (void)state;
    gp_trace *t = one_day_job();
    gp_scenario *s = scenario_of(
        "{\"window\": {\"start\": \"2026-01-01T00:00:00Z\", \"end\": "
        "\"2026-01-01T12:00:00Z\"}, \"adjustments\": "
        "{\"interruption_factor\": 0.5}, \"policy\": {\"training\": "
        "{\"launch\": \"spot\", \"max_interruptions\": 1000, "
        "\"deadline_slack_h\": 0}}, \"monte_carlo\": {\"runs\": 4000, "
        "\"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    double rate = 8 * 0.5 * -log(1 - 0.125) / 730;
    double p = 1 - exp(-rate * 25.2);
    assert_int_equal(l->n_hours, 12);
    assert_int_equal(l->n_jobs, 1);
    const gp_ledger_job *j = &l->jobs[0];
    /* the run's own row is the whole run */
    assert_close(j->cost_p50, 2016, 1e-9);
    assert_close(j->cost_p95, 2016, 1e-9);
    assert_close(j->interruptions_mean, p, 0.0042);
    assert_close(j->base_cost, 8 * 24 * 10.0, 1e-9);
    /* the statistics beside the bill: half the run */
    assert_close(l->spot_cost_p50, 1008, 1e-9);
    assert_close(l->spot_cost_p95, 1008, 1e-9);
    assert_close(l->spot_interruptions_mean, p / 2, 0.0021);
    assert_close(l->spot_interruptions_mean, j->interruptions_mean / 2, 1e-12);
    assert_close(l->spot_failed_attempt_cost_mean,
                 j->failed_attempt_cost_mean / 2, 1e-9);
    /* its cost in the window is what the window bills: spot plus the
     * fallback (the only on-demand usage) */
    assert_close(j->cost_in_window, j->cost_mean / 2, 1e-9);
    assert_close(l->cost[GP_MODEL_SPOT] + l->cost[GP_MODEL_ON_DEMAND],
                 j->cost_in_window, 1e-6);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_out_of_memory_anywhere_fails_cleanly(void **state)
{
    (void)state;
    /* Every allocation of a run fails in turn, alone (gp_alloc_fail_only,
     * so that a failure the run absorbed and went on past would show): the
     * run says out of memory and leaves its out-pointer NULL (the ASan
     * build's LeakSanitizer finds anything left behind), until the run
     * needs no more and succeeds; then the same for the chargeback.  A
     * reservation, a savings plan and a strategy on spot with a job run
     * take every model's allocations. */
    gp_trace *t =
        trace_of("timestamp,step_s,instance_type,workload,instances,job_id,"
                 "interruptible,team\n"
                 "2026-01-05T00:00:00Z,3600,g5.xlarge,inference,2,,false,a\n"
                 "2026-01-05T01:00:00Z,3600,g5.xlarge,inference,3,,false,b\n"
                 "2026-01-05T00:00:00Z,3600,p4d.24xlarge,training,1,j1,true,a\n"
                 "2026-01-05T01:00:00Z,3600,p4d.24xlarge,training,1,j1,true,a\n"
                 "2026-01-05T02:00:00Z,3600,g5.2xlarge,training,2,,true,b\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.xlarge\", \"count\": 1, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"}, "
        "{\"type\": \"savings_plan\", \"kind\": \"compute\", \"provider\": "
        "\"aws\", \"hourly_commitment\": 1, \"term_years\": 1, "
        "\"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}], \"strategies\": [{\"name\": "
        "\"spot\", \"policy\": {\"training\": {\"launch\": "
        "\"spot\"}}}], \"monte_carlo\": {\"runs\": 20, \"seed\": 1}}");
    for (size_t strat = 0; strat < s->n_strategies; strat++) {
        gp_ledger *l = NULL;
        long failed = 0;
        for (long n = 0; n < 100000; n++) {
            gp_error err;
            gp_error_clear(&err);
            l = (gp_ledger *)&err; /* not NULL: the run must set it */
            gp_alloc_fail_only(n);
            gp_status st = run_strategy(t, s, strat, NULL, &l, &err);
            long refused = gp_alloc_refused();
            gp_alloc_fail_after(-1);
            if (st == GP_OK && refused)
                fail_msg("strategy %zu: allocation %ld refused, yet the run "
                         "went on",
                         strat, n);
            if (st == GP_OK)
                break;
            assert_int_equal(st, GP_ERR_NOMEM);
            assert_null(l);
            assert_string_equal(err.message, "out of memory");
            failed++;
        }
        assert_non_null(l);
        assert_true(failed > 5);
        for (long n = 0;; n++) {
            gp_error err;
            gp_chargeback_row *rows = (gp_chargeback_row *)&err;
            size_t n_rows = 1;
            gp_error_clear(&err);
            gp_alloc_fail_only(n);
            gp_status st = gp_ledger_chargeback(l, t, &rows, &n_rows, &err);
            long refused = gp_alloc_refused();
            gp_alloc_fail_after(-1);
            if (st == GP_OK && refused)
                fail_msg("chargeback: allocation %ld refused, yet it went on",
                         n);
            if (st == GP_OK) {
                assert_true(n_rows > 0);
                gp_free(rows);
                break;
            }
            assert_int_equal(st, GP_ERR_NOMEM);
            assert_null(rows);
            assert_int_equal(n_rows, 0);
        }
        gp_ledger_free(l);
    }
    gp_ledger_free(NULL); /* a no-op */
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_cost_per_useful_gpu_hour_is_cost_over_gpus_times_util),
        cmocka_unit_test(test_savings_plan_covers_highest_discount_first),
        cmocka_unit_test(test_instance_family_plan_applies_before_compute),
        cmocka_unit_test(test_equal_discounts_go_to_the_lower_plan_rate),
        cmocka_unit_test(test_partly_used_savings_plan_loses_the_rest),
        cmocka_unit_test(
            test_size_flexibility_covers_smaller_sizes_smallest_first),
        cmocka_unit_test(test_reservation_starting_mid_window_and_its_cash),
        cmocka_unit_test(test_expiring_reservation_stops_covering),
        cmocka_unit_test(test_unused_reservation_is_paid_and_months_split),
        cmocka_unit_test(test_discount_takes_a_fraction_off_every_cost),
        cmocka_unit_test(test_discount_comes_off_the_months_and_their_cash),
        cmocka_unit_test(
            test_chargeback_allocates_commitments_by_covered_value),
        cmocka_unit_test(test_spot_hazard_and_daly_time_match_hand_figures),
        cmocka_unit_test(test_monte_carlo_mean_agrees_with_daly),
        cmocka_unit_test(test_spot_without_jobs_uses_daly_per_hour),
        cmocka_unit_test(test_spot_job_with_changing_instances_bills_each_hour),
        cmocka_unit_test(test_fallback_after_max_interruptions),
        cmocka_unit_test(test_fallback_when_the_deadline_is_at_risk),
        cmocka_unit_test(test_spot_statistics_cover_the_window_of_a_cut_run),
        cmocka_unit_test(test_a_year_of_hours_sums_to_the_rate_times_the_hours),
        cmocka_unit_test(
            test_a_year_of_commitment_costs_the_rate_times_the_hours),
        cmocka_unit_test(test_a_year_on_spot_costs_the_hour_times_the_hours),
        cmocka_unit_test(test_out_of_memory_anywhere_fails_cleanly),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
