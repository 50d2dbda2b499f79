/*
 * test_spot_memo.c: the spot Monte Carlo's results kept across bills
 * (models/spot_memo.c).  A bill that takes them must be the bill made
 * without them, to the bit; a bill whose replay differs in any input (here
 * the restart overhead) must not take them.  Three training runs of
 * p4d.24xlarge on spot in the test catalog ($10.00 spot, 12.5% a month
 * interrupted), 300 replays each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "gpuplan.h"

#include "fixture.h"

static const char *jobs =
    "start,end,instance_type,instances,job_id,workload\n"
    "2026-01-01T00:00:00Z,2026-01-03T00:00:00Z,p4d.24xlarge,16,a,training\n"
    "2026-01-01T06:00:00Z,2026-01-05T06:00:00Z,p4d.24xlarge,32,b,training\n"
    "2026-01-02T00:00:00Z,2026-01-02T20:00:00Z,p4d.24xlarge,8,c,training\n";

/* The bill of t under s, with the memo m (NULL: none). */
static gp_ledger *bill(const gp_trace *t, const gp_scenario *s,
                       gp_spot_memo *m)
{
    gp_run_spec spec;
    gp_ledger *l = NULL;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(gp_run_spec_init(&spec, t, s, 0, NULL, &err), GP_OK);
    spec.spot_memo = m;
    if (gp_engine_run(t, pricing, &spec, &l, &err) != GP_OK)
        fail_msg("engine: %s", err.message);
    return l;
}

/* a and b are the same bill, every figure the memo could change equal to
 * the bit. */
static void assert_same_bill(const gp_ledger *a, const gp_ledger *b)
{
    assert_true(a->total_cost == b->total_cost);
    for (int k = 0; k < GP_N_MODELS; k++)
        assert_true(a->cost[k] == b->cost[k]);
    assert_int_equal(a->n_jobs, b->n_jobs);
    for (size_t i = 0; i < a->n_jobs; i++) {
        const gp_ledger_job *x = &a->jobs[i], *y = &b->jobs[i];
        assert_int_equal(x->run, y->run);
        assert_true(x->cost_mean == y->cost_mean);
        assert_true(x->cost_p50 == y->cost_p50);
        assert_true(x->cost_p95 == y->cost_p95);
        assert_true(x->interruptions_mean == y->interruptions_mean);
        assert_true(x->fallback_cost_mean == y->fallback_cost_mean);
        assert_true(x->failed_attempt_cost_mean == y->failed_attempt_cost_mean);
    }
}

static gp_scenario *spot_with_restart(double restart_h)
{
    char json[256];
    snprintf(json, sizeof json,
             "{\"policy\": {\"training\": {\"launch\": \"spot\", "
             "\"restart_overhead_h\": %g}}, "
             "\"monte_carlo\": {\"runs\": 300, \"seed\": 5}}",
             restart_h);
    return scenario_of(json);
}

static void test_a_bill_takes_the_results_of_the_same_replay(void **state)
{
    (void)state;
    gp_trace_options opt;
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    gp_trace *t = trace_with(jobs, &opt);
    gp_scenario *s = spot_with_restart(0.25);
    gp_spot_memo *m = gp_spot_memo_new();
    assert_non_null(m);

    gp_ledger *plain = bill(t, s, NULL);
    assert_int_equal(plain->n_jobs, 3);
    gp_ledger *first = bill(t, s, m); /* replayed, and kept */
    assert_int_equal(gp_spot_memo_hits(m), 0);
    gp_ledger *again = bill(t, s, m); /* taken */
    assert_int_equal(gp_spot_memo_hits(m), 1);
    assert_same_bill(plain, first);
    assert_same_bill(plain, again);

    /* another restart overhead: replayed anew, as without the memo */
    gp_scenario *s2 = spot_with_restart(1.0);
    gp_ledger *other = bill(t, s2, m);
    gp_ledger *other_plain = bill(t, s2, NULL);
    assert_int_equal(gp_spot_memo_hits(m), 1);
    assert_same_bill(other_plain, other);
    assert_true(other->jobs[0].cost_mean != plain->jobs[0].cost_mean);
    /* and the first is still there beside it */
    gp_ledger *third = bill(t, s, m);
    assert_int_equal(gp_spot_memo_hits(m), 2);
    assert_same_bill(plain, third);

    gp_ledger_free(plain);
    gp_ledger_free(first);
    gp_ledger_free(again);
    gp_ledger_free(other);
    gp_ledger_free(other_plain);
    gp_ledger_free(third);
    gp_spot_memo_free(m);
    gp_scenario_free(s);
    gp_scenario_free(s2);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_bill_takes_the_results_of_the_same_replay),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
