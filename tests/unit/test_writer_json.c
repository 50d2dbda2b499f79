/*
 * test_writer_json.c: the JSON writer never loses a key.  jansson will not
 * hold an infinite or NaN real (json_real gives NULL, json_pack with "f"
 * fails), so a computed number that overflowed used to drop its key, or a
 * whole object; every such number is now written as null.
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "fixture.h"
#include "idle.h"
#include "json_util.h"
#include "writers.h"

/* Fails unless o (an object) has `key`, and its value is null. */
static void assert_null_key(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        fail_msg("key \"%s\" is missing", key);
    if (!json_is_null(v))
        fail_msg("key \"%s\" is not null", key);
}

static void test_ledger_writes_null_for_every_non_finite_number(void **state)
{
    gp_ledger_month month;
    gp_ledger l;
    char name[] = "baseline";
    (void)state;

    memset(&l, 0, sizeof l);
    memset(&month, 0, sizeof month);
    l.strategy = name;
    /* every number infinite (NaN for one), as a cost past DBL_MAX is */
    l.total_cost = l.all_on_demand_cost = HUGE_VAL;
    l.savings = -HUGE_VAL;
    l.savings_pct = NAN;
    for (int k = 0; k < GP_N_MODELS; k++)
        l.cost[k] = HUGE_VAL;
    l.reserved_utilization = l.savings_plan_utilization = HUGE_VAL;
    l.coverage = l.useful_gpu_hours = l.cost_per_useful_gpu_hour = HUGE_VAL;
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        l.workload_cost[w] = l.workload_instance_hours[w] = HUGE_VAL;
    l.unallocated_cost = l.idle_terminated_instance_hours = HUGE_VAL;
    l.spot_interruptions_mean = l.spot_failed_attempt_cost_mean = HUGE_VAL;
    l.spot_cost_p50 = l.spot_cost_p95 = HUGE_VAL;
    l.mc_runs = 3;
    l.n_jobs = 1; /* a job run was replayed: runs are the Monte Carlo's */
    month.year = 2026;
    month.month = 1;
    for (int k = 0; k < GP_N_MODELS; k++)
        month.cost[k] = HUGE_VAL;
    month.total_cost = month.reserved_cash = HUGE_VAL;
    month.savings_plan_cash = month.total_cash = HUGE_VAL;
    l.months = &month;
    l.n_months = 1;

    json_t *o = gp_json_ledger(&l, NULL);
    assert_non_null(o);
    static const char *const top[] = {
        "total_cost",          "all_on_demand_cost",
        "savings",             "savings_pct",
        "on_demand_cost",      "reserved_cost",
        "savings_plan_cost",   "spot_cost",
        "reserved_utilization", "savings_plan_utilization",
        "coverage",            "useful_gpu_hours",
        "cost_per_useful_gpu_hour", "unallocated_cost",
        "idle_terminated_instance_hours"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        assert_null_key(o, top[i]);
    /* the nested objects are there whole: three workloads (unlabeled too,
     * its instance-hours are not 0), spot with its runs, the month */
    const json_t *by = json_object_get(o, "by_workload");
    assert_int_equal(json_object_size(by), 3);
    assert_null_key(json_object_get(by, "training"), "total_cost");
    assert_null_key(json_object_get(by, "inference"), "instance_hours");
    const json_t *spot = json_object_get(o, "spot");
    assert_non_null(spot);
    assert_null_key(spot, "interruptions_mean");
    assert_null_key(spot, "failed_attempt_cost_mean");
    assert_null_key(spot, "cost_p50");
    assert_null_key(spot, "cost_p95");
    assert_int_equal(json_integer_value(json_object_get(spot, "runs")), 3);
    const json_t *months = json_object_get(o, "months");
    assert_int_equal(json_array_size(months), 1);
    const json_t *m = json_array_get(months, 0);
    assert_string_equal(json_string_value(json_object_get(m, "month")),
                        "2026-01");
    assert_null_key(m, "total_cost");
    assert_null_key(m, "total_cash");
    json_decref(o);
}

static void test_idle_report_writes_null_for_non_finite_totals(void **state)
{
    gp_idle_report r;
    (void)state;

    memset(&r, 0, sizeof r);
    r.threshold_pct = 5;
    r.min_hours = 2;
    r.hours = r.gpu_hours = r.instance_hours = r.cost = HUGE_VAL;
    r.gpu_hours_with_util = NAN;
    json_t *o = gp_json_idle(&r, NULL);
    assert_non_null(o);
    assert_null_key(o, "cost");
    assert_null_key(o, "gpu_hours_with_util");
    /* the finite ones stay numbers: 5 and 2 as given */
    assert_close(json_real_value(json_object_get(o, "threshold_pct")), 5,
                 1e-12);
    assert_close(json_real_value(json_object_get(o, "min_hours")), 2, 1e-12);
    assert_int_equal(json_array_size(json_object_get(o, "spans")), 0);
    json_decref(o);
}

/* The whole text of the file f. */
static char *contents(FILE *f)
{
    long n;
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    return buf;
}

/* A simulate document, built as cmd_simulate builds it. */
static json_t *simulate_doc(const gp_ledger *l)
{
    json_t *doc = json_object();
    json_t *arr = json_array();
    json_array_append_new(arr, gp_json_ledger(l, NULL));
    json_object_set_new(doc, "window",
                        gp_json_window(l->start_hour, l->n_hours));
    json_object_set_new(doc, "strategies", arr);
    return doc;
}

/*
 * jansson drops a key whose value could not be made (json_object_set_new
 * with NULL) and goes on: --json printed a document without parts of it
 * when memory ran out.  Each of jansson's allocations while building and
 * writing is refused in turn, alone: the write says out of memory and
 * writes nothing, or, when none was refused, writes the document the run
 * without failures wrote, byte for byte.
 */
static void test_a_document_that_lost_a_part_is_not_written(void **state)
{
    (void)state;
    gp_json_alloc_init();
    gp_trace *t = trace_of("timestamp,step_s,instance_type,workload,instances\n"
                           "2026-01-05T00:00:00Z,3600,g5.xlarge,inference,2\n"
                           "2026-01-05T01:00:00Z,3600,g5.xlarge,inference,3\n");
    gp_scenario *s = scenario_of("{}");
    gp_ledger *l = NULL;
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(run_strategy(t, s, 0, NULL, &l, &err), GP_OK);

    FILE *f = tmpfile();
    assert_non_null(f);
    json_t *doc = simulate_doc(l);
    assert_int_equal(gp_json_write(doc, JSON_COMPACT, f, NULL, &err), GP_OK);
    json_decref(doc);
    char *want = contents(f);
    fclose(f);
    assert_non_null(strstr(want, "\"total_cost\""));

    long n, failed = 0;
    for (n = 0; n < 100000; n++) {
        f = tmpfile();
        assert_non_null(f);
        gp_json_alloc_clear();
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        doc = simulate_doc(l);
        gp_status st = gp_json_write(doc, JSON_COMPACT, f, NULL, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        json_decref(doc);
        char *got = contents(f);
        fclose(f);
        if (!refused) {
            assert_int_equal(st, GP_OK);
            assert_string_equal(got, want);
            free(got);
            break;
        }
        if (st != GP_ERR_NOMEM)
            print_message("allocation %ld refused, yet written\n", n);
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_string_equal(err.message, "out of memory");
        assert_string_equal(got, "");
        free(got);
        failed++;
    }
    assert_true(failed > 10);
    gp_json_alloc_clear();
    free(want);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ledger_writes_null_for_every_non_finite_number),
        cmocka_unit_test(test_idle_report_writes_null_for_non_finite_totals),
        cmocka_unit_test(test_a_document_that_lost_a_part_is_not_written),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
