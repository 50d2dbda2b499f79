/*
 * test_recommend.c: the recommender when memory runs out.
 *
 * Its figures are checked end to end by the e2e tests (recommend_*.sh)
 * against hand-worked bills; what those cannot reach is an allocation that
 * fails part-way.  The optimizer used to absorb such failures: a work area
 * that could not grow left a pool's reservations where they were, a
 * sample that could not be made was solved whole, and gp_recommend went on
 * to rank and bill a plan the optimizer had not finished, as if nothing
 * had happened.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four above first */
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "recommend.h"

/* Two weeks of a service on g5.xlarge with a day cycle (6 to 10
 * instances), g5.2xlarge at 3 by day, and a training job on p4d.24xlarge
 * for ten hours a day: reservations, both kinds of plan and spot routing
 * all have something to buy. */
static gp_trace *two_weeks(void)
{
    size_t cap = 64 + 336 * 3 * 96, n = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    n += (size_t)snprintf(csv, cap,
                          "timestamp,step_s,instance_type,"
                          "workload,instances,interruptible\n");
    for (int h = 0; h < 336; h++) {
        long t = 1767571200L + h * 3600L; /* 2026-01-05, a Monday */
        int hod = h % 24;
        n += (size_t)snprintf(csv + n, cap - n,
                              "%ld,3600,g5.xlarge,inference,%d,false\n", t,
                              6 + (hod >= 8 && hod < 20 ? 4 : 0));
        if (hod >= 8 && hod < 20)
            n += (size_t)snprintf(csv + n, cap - n,
                                  "%ld,3600,g5.2xlarge,inference,3,false\n", t);
        if (hod < 10)
            n += (size_t)snprintf(csv + n, cap - n,
                                  "%ld,3600,p4d.24xlarge,training,1,true\n", t);
    }
    gp_trace *tr = trace_of(csv);
    free(csv);
    return tr;
}

static gp_status recommend_run(const gp_trace *t, const gp_scenario *s,
                               gp_recommendation **r, gp_error *err)
{
    gp_recommend_options opt;
    gp_recommend_options_init(&opt);
    opt.threads = 1;
    gp_error_clear(err);
    *r = NULL;
    return gp_recommend(t, pricing, s, &opt, r, err);
}

/*
 * Each allocation fails in turn, alone (gp_alloc_fail_only(n), n = 0, 1,
 * ...: the run goes on past it, so a failure it absorbed shows), until a
 * run needs none refused.  A run that had one refused must say
 * "out of memory" and return nothing, unless all it lost was a note, which
 * its notes then say (gp_warnings_lost); the ASan build's leak check sees
 * what it left.  The last run must give the plans of a run without
 * failures, to the cent.
 */
static void test_out_of_memory_anywhere_is_said(void **state)
{
    (void)state;
    gp_trace *t = two_weeks();
    gp_scenario *s =
        scenario_of("{\"policy\": {\"training\": {\"launch\": \"spot\"}}, "
                    "\"monte_carlo\": {\"runs\": 20, \"seed\": 1}}");
    gp_error err;
    gp_recommendation *want, *got = NULL;
    assert_int_equal(recommend_run(t, s, &want, &err), GP_OK);
    /* the case reaches the optimizer's plans, not only the engine */
    assert_true(want->plans[1].n_commitments > 0);

    long n, absorbed = 0;
    for (n = 0; n < 1000000; n++) {
        gp_alloc_fail_only(n);
        gp_status st = recommend_run(t, s, &got, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (refused == 0) {
            assert_int_equal(st, GP_OK);
            break;
        }
        if (st == GP_OK) {
            /* only a note may be lost, and the notes then say so */
            if (!says_a_warning_was_lost(&got->notes)) {
                print_message("allocation %ld refused, yet the run went "
                              "on\n",
                              n);
                absorbed++;
            }
            gp_recommendation_free(got);
            got = NULL;
            continue;
        }
        if (st != GP_ERR_NOMEM)
            print_message("allocation %ld: status %d: %s: %s\n", n, (int)st,
                          err.field, err.message);
        if (st != GP_ERR_NOMEM)
            absorbed += 1000;
    }
    print_message("%ld runs, %ld absorbed a refused allocation\n", n + 1,
                  absorbed);
    assert_int_equal(absorbed, 0);
    assert_non_null(got);
    for (int i = 0; i < 3; i++) {
        assert_close(got->plans[i].total_cost, want->plans[i].total_cost,
                     0.005);
        assert_int_equal(got->plans[i].n_commitments,
                         want->plans[i].n_commitments);
    }
    assert_int_equal(got->n_actions, want->n_actions);
    gp_recommendation_free(got);
    gp_recommendation_free(want);
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_memory_anywhere_is_said),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
