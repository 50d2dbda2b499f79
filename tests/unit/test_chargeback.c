/*
 * test_chargeback.c: chargeback by team, project and workload (issue #7
 * part 4): every series carries its on-demand and spot cost, and each
 * commitment's cost goes to the usage it covered, in proportion to the
 * on-demand value it covered, never to a team that merely shares the
 * hour; cost per useful GPU-hour for each.
 *
 * Prices come from tests/data/engine/aws-test.json: g5.xlarge $1.006 on
 * demand, reserved 1y no upfront $0.62, compute plan rate $0.70;
 * g5.2xlarge $1.212, compute plan $0.85; g5.12xlarge reserved $3.50;
 * p4d.24xlarge (8 GPUs) $32.77, reserved $20.50.  AWS normalization
 * factors: xlarge 8, 2xlarge 16, 12xlarge 96.  Every expected figure is
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

#include "check.h"
#include "engine.h"
#include "gpuplan.h"

#include "fixture.h"

/* The ledger series of team `team` (and project `project` unless NULL). */
static const gp_ledger_series *series_of(const gp_trace *t,
                                         const gp_ledger *l, const char *team,
                                         const char *project, size_t *index)
{
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *s = &t->series[i];
        if (s->team < 0 || strcmp(t->labels[s->team], team) != 0)
            continue;
        if (project && (s->project < 0 ||
                        strcmp(t->labels[s->project], project) != 0))
            continue;
        if (index)
            *index = i;
        return &l->series[i];
    }
    fail_msg("no series for team %s", team);
    return NULL;
}

static void test_reservation_follows_usage_it_covered_three_to_one(
    void **state)
{
    (void)state;
    /* One g5.xlarge reservation over 4 hours; team a runs one g5.xlarge in
     * hours 0-2, team b in hour 3.  The reservation covers all of it, so
     * its 4 x 0.62 = 2.48 splits 3:1 as the usage it covered: a 1.86,
     * b 0.62, nothing on demand.  A p4d.24xlarge reservation nobody used
     * costs 4 x 20.50 = 82.00: it covered no usage, so no team pays it
     * (unallocated), though both teams ran in its hours.  Total 84.48. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T01:00:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T02:00:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T03:00:00Z,g5.xlarge,1,b\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": ["
        "{\"type\": \"reserved\", \"instance_type\": \"g5.xlarge\", "
        "\"count\": 1, \"term_years\": 1, \"payment\": \"no_upfront\", "
        "\"start\": \"2026-01-01T00:00:00Z\"},"
        "{\"type\": \"reserved\", \"instance_type\": \"p4d.24xlarge\", "
        "\"count\": 1, \"term_years\": 1, \"payment\": \"no_upfront\", "
        "\"start\": \"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 84.48, 1e-9);
    assert_close(series_of(t, l, "a", NULL, NULL)->cost, 1.86, 1e-9);
    assert_close(series_of(t, l, "b", NULL, NULL)->cost, 0.62, 1e-9);
    assert_close(l->unallocated_cost, 82.0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_savings_plan_cost_goes_to_the_pools_it_covered(
    void **state)
{
    (void)state;
    /* A $1.00/h compute plan; in one hour team a runs a g5.xlarge
     * (discount 1 - 0.70/1.006 = 30.4%), team b a g5.2xlarge (1 -
     * 0.85/1.212 = 29.9%).  The plan covers a's first: 1 x 0.70, leaving
     * 0.30, which covers 0.30/0.85 = 0.352941 of b's.  Covered value:
     * a 1.006, b 0.352941 x 1.212 = 0.427765, together 1.433765.  The
     * plan's $1.00 splits a 1.006/1.433765 = 0.701649, b 0.298351; b's
     * remaining 0.647059 x 1.212 = 0.784235 is on demand.  a 0.701649,
     * b 1.082586, total 1.784235. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T00:00:00Z,g5.2xlarge,1,b\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"savings_plan\", \"kind\": "
        "\"compute\", \"provider\": \"aws\", \"hourly_commitment\": 1.0, "
        "\"term_years\": 1, \"payment\": \"no_upfront\", \"start\": "
        "\"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    /* the figures above, unrounded */
    double b_covered = 0.30 / 0.85, b_on_demand = (1 - b_covered) * 1.212;
    double a_share = 1.006 / (1.006 + b_covered * 1.212);
    assert_close(l->total_cost, 1.0 + b_on_demand, 1e-9);
    assert_close(series_of(t, l, "a", NULL, NULL)->cost, a_share, 1e-9);
    assert_close(series_of(t, l, "b", NULL, NULL)->cost,
                 1.0 - a_share + b_on_demand, 1e-9);
    assert_close(l->unallocated_cost, 0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_size_flexible_reservation_splits_by_value_covered(
    void **state)
{
    (void)state;
    /* A g5.12xlarge reservation (96 units, $3.50/h) with no 12xlarge usage
     * covers the smaller sizes of its family, smallest first: team a's 4
     * g5.xlarge (32 units, value 4 x 1.006 = 4.024), then team b's 2
     * g5.2xlarge (32 units, value 2 x 1.212 = 2.424); 32 units unused.
     * $3.50 splits by value covered: a 3.5 x 4.024/6.448 = 2.184243,
     * b 3.5 x 2.424/6.448 = 1.315757; nothing on demand. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,4,a\n"
                           "2026-01-05T00:00:00Z,g5.2xlarge,2,b\n");
    gp_scenario *s = scenario_of(
        "{\"commitments\": [{\"type\": \"reserved\", \"instance_type\": "
        "\"g5.12xlarge\", \"count\": 1, \"term_years\": 1, \"payment\": "
        "\"no_upfront\", \"start\": \"2026-01-01T00:00:00Z\"}]}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->total_cost, 3.5, 1e-9);
    assert_close(series_of(t, l, "a", NULL, NULL)->cost, 3.5 * 4.024 / 6.448,
                 1e-9);
    assert_close(series_of(t, l, "b", NULL, NULL)->cost, 3.5 * 2.424 / 6.448,
                 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_cost_per_useful_gpu_hour_by_project_and_workload(
    void **state)
{
    (void)state;
    /* Team a, project p: a p4d.24xlarge training job for 2 hours, 50%
     * gpu_util in the first hour and none reported in the second.  Cost
     * 2 x 32.77 = 65.54; its GPU-hours with a gpu_util are 8 of 16, so
     * the cost they carry is 32.77, over 8 x 0.5 = 4 useful GPU-hours:
     * $8.1925 per useful GPU-hour.  Team a, project q: one g5.xlarge
     * inference hour at 25%: 1.006 / 0.25 = $4.024.  By workload:
     * training 65.54, inference 1.006.  The whole run: (32.77 + 1.006) /
     * 4.25 = $7.947294 (SPEC: cost over useful GPU-hours, over the usage
     * that reported gpu_util). */
    gp_trace *t = trace_of(
        "timestamp,instance_type,instances,gpu_util,team,project,workload\n"
        "2026-01-05T00:00:00Z,p4d.24xlarge,1,50,a,p,training\n"
        "2026-01-05T01:00:00Z,p4d.24xlarge,1,,a,p,training\n"
        "2026-01-05T00:00:00Z,g5.xlarge,1,25,a,q,inference\n");
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = run(t, s, 0);
    size_t ip, iq;
    const gp_ledger_series *p = series_of(t, l, "a", "p", &ip);
    const gp_ledger_series *q = series_of(t, l, "a", "q", &iq);
    assert_int_equal(t->series[ip].workload, GP_TRAINING);
    assert_int_equal(t->series[iq].workload, GP_INFERENCE);
    assert_close(p->cost, 65.54, 1e-9);
    assert_close(p->useful_gpu_hours, 4, 1e-12);
    assert_close(gp_ledger_series_cost_with_util(l, t, ip), 32.77, 1e-9);
    assert_close(gp_ledger_series_cost_per_useful_gpu_hour(l, t, ip), 8.1925,
                 1e-9);
    assert_close(q->cost, 1.006, 1e-9);
    assert_close(gp_ledger_series_cost_per_useful_gpu_hour(l, t, iq), 4.024,
                 1e-9);
    assert_close(l->workload_cost[GP_TRAINING], 65.54, 1e-9);
    assert_close(l->workload_cost[GP_INFERENCE], 1.006, 1e-9);
    assert_close(l->cost_per_useful_gpu_hour, (32.77 + 1.006) / 4.25, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_series_without_utilization_has_no_cost_per_useful_hour(
    void **state)
{
    (void)state;
    /* No gpu_util at all: cost per useful GPU-hour is not a number, for
     * the series and for the run. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,a\n");
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = run(t, s, 0);
    assert_true(isnan(gp_ledger_series_cost_per_useful_gpu_hour(l, t, 0)));
    assert_true(isnan(l->cost_per_useful_gpu_hour));
    assert_close(l->series[0].cost, 1.006, 1e-12);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_chargeback_groups_pools_by_team_project_workload(
    void **state)
{
    (void)state;
    /* Team a, project p, inference on two pools in one hour: a g5.xlarge
     * at 40% (1.006, 0.4 useful GPU-hours) and a g5.2xlarge at 60% (1.212,
     * 0.6): one row of 2.218 over 1.0 useful GPU-hour = $2.218.  Team a,
     * project p, training on a g5.xlarge at 10%: its own row, 1.006 / 0.1 =
     * $10.06.  Team b (no project), inference, g5.xlarge at 50%: 1.006 /
     * 0.5 = $2.012.  Rows in order: a/p/training, a/p/inference, b//
     * inference. */
    gp_trace *t = trace_of(
        "timestamp,instance_type,instances,gpu_util,team,project,workload\n"
        "2026-01-05T00:00:00Z,g5.xlarge,1,40,a,p,inference\n"
        "2026-01-05T00:00:00Z,g5.2xlarge,1,60,a,p,inference\n"
        "2026-01-05T00:00:00Z,g5.xlarge,1,10,a,p,training\n"
        "2026-01-05T00:00:00Z,g5.xlarge,1,50,b,,inference\n");
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = run(t, s, 0);
    gp_chargeback_row *rows;
    size_t n;
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(gp_ledger_chargeback(l, t, &rows, &n, &err), GP_OK);
    assert_int_equal(n, 3);
    assert_string_equal(t->labels[rows[0].team], "a");
    assert_int_equal(rows[0].workload, GP_TRAINING);
    assert_close(rows[0].cost_per_useful_gpu_hour, 10.06, 1e-9);
    assert_int_equal(rows[1].workload, GP_INFERENCE);
    assert_string_equal(t->labels[rows[1].project], "p");
    assert_close(rows[1].cost, 2.218, 1e-9);
    assert_close(rows[1].instance_hours, 2, 1e-12);
    assert_close(rows[1].useful_gpu_hours, 1.0, 1e-12);
    assert_close(rows[1].cost_per_useful_gpu_hour, 2.218, 1e-9);
    assert_string_equal(t->labels[rows[2].team], "b");
    assert_int_equal(rows[2].project, -1);
    assert_close(rows[2].cost_per_useful_gpu_hour, 2.012, 1e-9);
    gp_free(rows);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* Two job runs on spot share a pool-hour; each falls back to on demand at
 * once (interruption_factor 1e9: g5.xlarge's 5% a month becomes a hazard
 * of 7.03e4 per instance-hour, so the first interruption comes within
 * seconds; max_interruptions 1).  A fallback pays on demand for a restart
 * (0.25 h) and all the work.  Job j1, team b: 2 g5.xlarge for hours 0-2,
 * 2 x (0.25 + 3) x $1.006 = $6.5390; job j2, team c: 1 for hour 1,
 * 1 x (0.25 + 1) x $1.006 = $1.2575.  The seconds on spot before the
 * interruption cost about 2e-5 (tolerance 1e-4).  Each team pays its own
 * job's cost, what the Spot sheet shows per run.  Splitting hour 1's
 * pooled spot cost by instance-hours (j1's third, 2.1797, plus j2's
 * 1.2575, shared 2:1) billed b $6.6508 and c $1.1457. */
static void
test_spot_fallback_is_charged_to_the_job_that_needed_it(void **state)
{
    (void)state;
    gp_trace *t = trace_of(
        "timestamp,step_s,instance_type,instances,job_id,team,workload\n"
        "2026-01-05T00:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T01:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T02:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T01:00:00Z,3600,g5.xlarge,1,j2,c,training\n");
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 1e9}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\", \"max_interruptions\": 1}}, "
        "\"monte_carlo\": {\"runs\": 200, \"seed\": 1}}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_jobs, 2);
    const gp_ledger_series *b = series_of(t, l, "b", NULL, NULL);
    const gp_ledger_series *c = series_of(t, l, "c", NULL, NULL);
    assert_close(b->cost, 2 * 3.25 * 1.006, 1e-4);
    assert_close(c->cost, 1.25 * 1.006, 1e-4);
    /* the same as each run's cost in the Spot sheet */
    for (size_t i = 0; i < l->n_jobs; i++) {
        const gp_job_run *r = &t->runs[l->jobs[i].run];
        const char *job = t->labels[r->job];
        assert_close(l->jobs[i].cost_mean,
                     strcmp(job, "j1") == 0 ? b->cost : c->cost, 1e-9);
    }
    /* and the teams add up to the total */
    assert_close(b->cost + c->cost + l->unallocated_cost, l->total_cost, 1e-9);
    assert_close(l->unallocated_cost, 0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* Spot usage without job_id beside a job run in the same pool-hour keeps
 * its own expected-value cost.  Interruptions made negligible
 * (interruption_factor 1e-9), checkpoints every hour at 0.05 h: job j1,
 * team b, 2 g5.xlarge for hours 0-2, 2 x (3 + 3 x 0.05) x $0.40 = $2.52;
 * team d, 1 g5.xlarge in hour 1 without job_id, Daly's time for one hour
 * with no interruptions, 1.05 h: 1.05 x $0.40 = $0.42. */
static void test_spot_without_job_beside_a_job_run_pays_its_own(void **state)
{
    (void)state;
    gp_trace *t = trace_of(
        "timestamp,step_s,instance_type,instances,job_id,team,workload\n"
        "2026-01-05T00:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T01:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T02:00:00Z,3600,g5.xlarge,2,j1,b,training\n"
        "2026-01-05T01:00:00Z,3600,g5.xlarge,1,,d,training\n");
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 1e-9}, \"policy\": "
        "{\"training\": {\"launch\": \"spot\"}}}");
    gp_ledger *l = run(t, s, 0);
    assert_int_equal(l->n_jobs, 1);
    assert_close(series_of(t, l, "b", NULL, NULL)->cost, 2.52, 1e-6);
    assert_close(series_of(t, l, "d", NULL, NULL)->cost, 0.42, 1e-6);
    assert_close(l->total_cost, 2.94, 1e-6);
    assert_close(l->unallocated_cost, 0, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_reservation_follows_usage_it_covered_three_to_one),
        cmocka_unit_test(test_savings_plan_cost_goes_to_the_pools_it_covered),
        cmocka_unit_test(
            test_size_flexible_reservation_splits_by_value_covered),
        cmocka_unit_test(test_cost_per_useful_gpu_hour_by_project_and_workload),
        cmocka_unit_test(
            test_series_without_utilization_has_no_cost_per_useful_hour),
        cmocka_unit_test(test_chargeback_groups_pools_by_team_project_workload),
        cmocka_unit_test(
            test_spot_fallback_is_charged_to_the_job_that_needed_it),
        cmocka_unit_test(test_spot_without_job_beside_a_job_run_pays_its_own),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
