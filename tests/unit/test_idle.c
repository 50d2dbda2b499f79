/*
 * test_idle.c: idle GPUs and the "terminate after N idle hours" policy
 * (idle.h, issue #7 part 3).
 *
 * Prices come from tests/data/engine/aws-test.json (g5.xlarge: 1 GPU,
 * $1.006 on demand; p4d.24xlarge: 8 GPUs, $32.77).  Every expected figure
 * is worked out by hand in the comment beside it from the definition in
 * idle.h: an idle span is a maximal run of consecutive samples of one
 * job_id below the threshold (default 5%) lasting at least the minimum
 * (default 2 h); rows without job_id are judged per series and clock hour;
 * a span's cost is its instance-hours at the on-demand rate.
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
#include "idle.h"

#include "fixture.h"

static gp_idle_report *detect(const gp_trace *t)
{
    gp_error err;
    gp_idle_report *r = NULL;
    gp_error_clear(&err);
    assert_int_equal(gp_idle_detect(t, 0, &r, &err), GP_OK);
    return r;
}

/*
 * One GPU ("h/gpu0", a g5.xlarge) sampled every `step` seconds from
 * 2026-01-05T00:00Z, one sample per entry of utils ("" = no gpu_util,
 * "-" = no sample: a gap).
 */
static char *gpu_samples(const char *job, int step, const char *const *utils,
                         size_t n)
{
    size_t cap = 128 + n * 96;
    char *csv = malloc(cap);
    size_t len = (size_t)snprintf(
        csv, cap, "timestamp,step_s,instance_type,instances,gpu_util,job_id,"
                  "workload\n");
    for (size_t i = 0; i < n; i++) {
        if (strcmp(utils[i], "-") == 0)
            continue;
        len += (size_t)snprintf(csv + len, cap - len,
                                "%lld,%d,g5.xlarge,1,%s,%s,inference\n",
                                1767571200LL + (long long)i * step, step,
                                utils[i], job);
    }
    return csv;
}

static void test_two_hours_below_threshold_is_one_span(void **state)
{
    (void)state;
    /* Hourly samples 50, 4.9, 4.9, 60: the two at 4.9 (01:00 to 03:00)
     * last exactly the 2 h minimum.  One span: 2 h, 2 GPU-hours, 2
     * instance-hours, mean 4.9%, cost 2 x $1.006 = $2.012. */
    const char *u[] = {"50", "4.9", "4.9", "60"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 4);
    gp_trace *t = trace_of(csv);
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 1);
    const gp_idle_span *s = &r->spans[0];
    char label[64];
    gp_idle_span_label(t, s, label, sizeof label);
    assert_string_equal(label, "h/gpu0");
    assert_close(s->start, 1767571200.0 + 3600, 1e-6);
    assert_close(s->hours, 2, 1e-12);
    assert_close(s->gpu_hours, 2, 1e-12);
    assert_close(s->instance_hours, 2, 1e-12);
    assert_close(s->mean_util_pct, 4.9, 1e-9);
    assert_close(s->cost, 2.012, 1e-9);
    assert_close(r->cost, 2.012, 1e-9);
    assert_close(r->threshold_pct, 5, 0);
    assert_close(r->min_hours, 2, 0);
    /* all 4 samples came with gpu_util: 4 GPU-hours examined */
    assert_close(r->gpu_hours_with_util, 4, 1e-12);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);
}

static void test_one_point_nine_hours_is_too_short(void **state)
{
    (void)state;
    /* 19 samples of 6 minutes at 1%: 19 x 0.1 h = 1.9 h < 2 h, no span;
     * 20 such samples make 2.0 h, one span of 2 instance-hours. */
    const char *u[21];
    for (int i = 0; i < 21; i++)
        u[i] = "1";
    u[19] = "80";
    u[20] = "80";
    char *csv = gpu_samples("h/gpu0", 360, u, 21);
    gp_trace *t = trace_of(csv);
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 0);
    assert_close(r->cost, 0, 0);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);

    u[19] = "1";
    csv = gpu_samples("h/gpu0", 360, u, 21);
    t = trace_of(csv);
    r = detect(t);
    assert_int_equal(r->n_spans, 1);
    assert_close(r->spans[0].hours, 2.0, 1e-9);
    assert_close(r->spans[0].instance_hours, 2.0, 1e-9);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);
}

static void test_five_percent_is_not_below_five_percent(void **state)
{
    (void)state;
    /* Three hours at exactly 5.0%: not below 5%, no span.  Three at 4.9
     * after them: one span of 3 h, cost 3 x 1.006 = 3.018. */
    const char *u[] = {"5.0", "5", "5.0", "4.9", "4.9", "4.9"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 6);
    gp_trace *t = trace_of(csv);
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 1);
    assert_close(r->spans[0].start, 1767571200.0 + 3 * 3600, 1e-6);
    assert_close(r->spans[0].hours, 3, 1e-12);
    assert_close(r->spans[0].cost, 3.018, 1e-9);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);
}

static void test_gap_or_missing_util_ends_a_span(void **state)
{
    (void)state;
    /* 2 h idle, an hour with no sample, 2 h idle, an hour without
     * gpu_util, 1 h idle: two spans of 2 h (the last run is 1 h, too
     * short).  Cost 2 x 2 x 1.006 = 4.024. */
    const char *u[] = {"0", "0", "-", "2", "3", "", "0"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 7);
    gp_trace *t = trace_of(csv);
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 2);
    assert_close(r->spans[0].start, 1767571200.0, 1e-6);
    assert_close(r->spans[1].start, 1767571200.0 + 3 * 3600, 1e-6);
    assert_close(r->spans[1].mean_util_pct, 2.5, 1e-9);
    assert_close(r->cost, 4.024, 1e-9);
    assert_close(r->hours, 4, 1e-12);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);
}

static void test_sampling_jitter_does_not_end_a_span(void **state)
{
    (void)state;
    /* Hourly samples at 00:00, 01:10 and 02:10, all at 1%: the 10-minute
     * gap is under half a sample (30 minutes), so one span from 00:00 to
     * 03:10 (3 h 10 min) holding 3 instance-hours ($3.018).  A 40-minute
     * gap (next sample at 03:50) would end it there. */
    gp_trace *t = trace_of(
        "timestamp,instance_type,instances,gpu_util,job_id\n"
        "2026-01-05T00:00:00Z,g5.xlarge,1,1,g\n"
        "2026-01-05T01:10:00Z,g5.xlarge,1,1,g\n"
        "2026-01-05T02:10:00Z,g5.xlarge,1,1,g\n"
        "2026-01-05T03:50:00Z,g5.xlarge,1,1,g\n");
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 1);
    assert_close(r->spans[0].hours, 3 + 10 / 60.0, 1e-9);
    assert_close(r->spans[0].instance_hours, 3, 1e-12);
    assert_close(r->cost, 3.018, 1e-9);
    gp_idle_report_free(r);
    gp_trace_free(t);
}

static void test_threshold_and_minimum_are_options(void **state)
{
    (void)state;
    /* With threshold 10% and minimum 1 h, samples 8, 9, 50, 9, 20: spans
     * 00:00-02:00 (2 h) and 03:00-04:00 (1 h): 3 instance-hours, $3.018. */
    const char *u[] = {"8", "9", "50", "9", "20"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 5);
    gp_trace_options opt;
    gp_trace_options_init(&opt);
    assert_close(opt.idle_threshold_pct, 5, 0);
    assert_close(opt.idle_min_hours, 2, 0);
    opt.idle_threshold_pct = 10;
    opt.idle_min_hours = 1;
    gp_trace *t = trace_with(csv, &opt);
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 2);
    assert_close(r->instance_hours, 3, 1e-12);
    assert_close(r->cost, 3.018, 1e-9);
    assert_close(r->threshold_pct, 10, 0);
    gp_idle_report_free(r);
    gp_trace_free(t);
    free(csv);
}

static void test_rows_without_job_are_judged_per_series_hour(void **state)
{
    (void)state;
    /* Team a runs 2 g5.xlarge at 3% for hours 0-2 and at 40% in hour 3:
     * one series span of 3 h, 6 instance-hours, 6 GPU-hours, mean 3%,
     * cost 6 x 1.006 = 6.036.  Team b's hour 01:00 is two rows, 0% and
     * 12% of one GPU each: the mean is 6%, not idle, so its hours at 4%
     * (00:00 and 02:00) are runs of 1 h, too short: no span. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,gpu_util,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T01:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T02:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T03:00:00Z,g5.xlarge,2,40,a\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,4,b\n"
                           "2026-01-05T01:00:00Z,g5.xlarge,1,0,b\n"
                           "2026-01-05T01:00:00Z,g5.xlarge,1,12,b\n"
                           "2026-01-05T02:00:00Z,g5.xlarge,1,4,b\n");
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 1);
    const gp_idle_span *s = &r->spans[0];
    char label[96];
    gp_idle_span_label(t, s, label, sizeof label);
    assert_string_equal(label, "g5.xlarge/unlabeled/a");
    assert_int_equal(s->job, -1);
    assert_close(s->hours, 3, 1e-12);
    assert_close(s->instance_hours, 6, 1e-12);
    assert_close(s->gpu_hours, 6, 1e-12);
    assert_close(s->mean_util_pct, 3, 1e-9);
    assert_close(s->cost, 6.036, 1e-9);
    gp_idle_report_free(r);
    gp_trace_free(t);
}

static void test_eight_gpu_job_priced_at_its_instance(void **state)
{
    (void)state;
    /* A p4d.24xlarge job (8 GPUs, 1 instance) at 2% for 2.5 h in 30-minute
     * samples: one span, 2.5 instance-hours, 20 GPU-hours, cost
     * 2.5 x 32.77 = 81.925; with a 10% scenario discount 73.7325. */
    gp_trace *t = trace_of(
        "timestamp,step_s,instance_type,instances,gpu_util,job_id\n"
        "2026-01-05T00:00:00Z,1800,p4d.24xlarge,1,2,j\n"
        "2026-01-05T00:30:00Z,1800,p4d.24xlarge,1,2,j\n"
        "2026-01-05T01:00:00Z,1800,p4d.24xlarge,1,2,j\n"
        "2026-01-05T01:30:00Z,1800,p4d.24xlarge,1,2,j\n"
        "2026-01-05T02:00:00Z,1800,p4d.24xlarge,1,2,j\n");
    gp_idle_report *r = detect(t);
    assert_int_equal(r->n_spans, 1);
    assert_close(r->spans[0].gpu_hours, 20, 1e-12);
    assert_close(r->spans[0].instance_hours, 2.5, 1e-12);
    assert_close(r->spans[0].cost, 81.925, 1e-9);
    gp_idle_report_free(r);
    gp_error err;
    gp_error_clear(&err);
    assert_int_equal(gp_idle_detect(t, 0.1, &r, &err), GP_OK);
    assert_close(r->cost, 73.7325, 1e-9);
    gp_idle_report_free(r);
    gp_trace_free(t);
}

static void test_terminate_after_one_idle_hour(void **state)
{
    (void)state;
    /* Hourly samples 50, 2, 2, 2, 60 of one g5.xlarge inference GPU: 5
     * instance-hours, $5.03 on demand.  The idle span is 01:00-04:00 (3 h);
     * terminate_idle_h = 1 keeps its first hour and removes 02:00-04:00,
     * 2 instance-hours: the strategy costs 3 x 1.006 = 3.018, saving
     * 2 x 1.006 = 2.012 against the baseline; all_on_demand_cost stays
     * 5.03 (the usage as it happened), so `savings` is 2.012 too. */
    const char *u[] = {"50", "2", "2", "2", "60"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 5);
    gp_trace *t = trace_of(csv);
    gp_scenario *s = scenario_of(
        "{\"strategies\": [{\"name\": \"stop-idle\", \"policy\": "
        "{\"inference\": {\"terminate_idle_h\": 1}}}]}");
    gp_ledger *base = run(t, s, 0);
    gp_ledger *stop = run(t, s, 1);
    assert_close(base->total_cost, 5.03, 1e-9);
    assert_close(base->idle_terminated_instance_hours, 0, 0);
    assert_close(stop->total_cost, 3.018, 1e-9);
    assert_close(base->total_cost - stop->total_cost, 2.012, 1e-9);
    assert_close(stop->idle_terminated_instance_hours, 2, 1e-12);
    assert_close(stop->all_on_demand_cost, 5.03, 1e-9);
    assert_close(stop->savings, 2.012, 1e-9);
    /* hours 02:00 and 03:00 are empty, 01:00 still billed */
    assert_close(stop->hours[1].cost[GP_MODEL_ON_DEMAND], 1.006, 1e-9);
    assert_close(stop->hours[2].cost[GP_MODEL_ON_DEMAND], 0, 1e-12);
    assert_close(stop->hours[3].cost[GP_MODEL_ON_DEMAND], 0, 1e-12);
    /* the removed hours had 2% of a GPU each: useful GPU-hours fall from
     * 0.5 + 3 x 0.02 + 0.6 = 1.16 to 1.16 - 0.04 = 1.12 */
    assert_close(base->useful_gpu_hours, 1.16, 1e-9);
    assert_close(stop->useful_gpu_hours, 1.12, 1e-9);
    gp_ledger_free(base);
    gp_ledger_free(stop);
    gp_scenario_free(s);
    gp_trace_free(t);
    free(csv);
}

static void test_terminate_mid_hour_and_policy_by_workload(void **state)
{
    (void)state;
    /* One p4d.24xlarge training row of 9,000 s (2.5 h) at 2%: a 2.5 h
     * span.  terminate_idle_h = 1.5 for training removes 01:30-02:30, 1
     * instance-hour, saving 32.77.  The same policy set for inference
     * removes nothing (the job is training). */
    gp_trace *t = trace_of(
        "timestamp,step_s,instance_type,instances,gpu_util,job_id,workload\n"
        "2026-01-05T00:00:00Z,9000,p4d.24xlarge,1,2,j,training\n");
    gp_scenario *s = scenario_of(
        "{\"strategies\": [{\"name\": \"train\", \"policy\": {\"training\": "
        "{\"terminate_idle_h\": 1.5}}}, {\"name\": \"infer\", \"policy\": "
        "{\"inference\": {\"terminate_idle_h\": 1.5}}}]}");
    gp_ledger *base = run(t, s, 0);
    gp_ledger *train = run(t, s, 1);
    gp_ledger *infer = run(t, s, 2);
    /* 2.5 x 32.77 = 81.925 */
    assert_close(base->total_cost, 81.925, 1e-9);
    assert_close(train->idle_terminated_instance_hours, 1, 1e-9);
    assert_close(base->total_cost - train->total_cost, 32.77, 1e-9);
    /* hour 01:00 keeps its first half, hour 02:00 (half used) loses it */
    assert_close(train->hours[1].cost[GP_MODEL_ON_DEMAND], 16.385, 1e-9);
    assert_close(train->hours[2].cost[GP_MODEL_ON_DEMAND], 0, 1e-9);
    assert_close(infer->total_cost, 81.925, 1e-9);
    assert_close(infer->idle_terminated_instance_hours, 0, 0);
    gp_ledger_free(base);
    gp_ledger_free(train);
    gp_ledger_free(infer);
    gp_scenario_free(s);
    gp_trace_free(t);
}

static void test_terminate_a_series_span(void **state)
{
    (void)state;
    /* Team a's series span of 3 h on 2 instances (no job_id) with
     * terminate_idle_h = 1 in the baseline policy: hours 01:00 and 02:00
     * removed, 4 instance-hours, cost 8 x 1.006 = 8.048 -> 4 x 1.006 =
     * 4.024.  A span shorter than the minimum (team b: 1 h) is never
     * cut. */
    gp_trace *t = trace_of("timestamp,instance_type,instances,gpu_util,team\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T01:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T02:00:00Z,g5.xlarge,2,3,a\n"
                           "2026-01-05T03:00:00Z,g5.xlarge,2,40,a\n"
                           "2026-01-05T00:00:00Z,g5.xlarge,1,4,b\n");
    gp_scenario *s = scenario_of(
        "{\"policy\": {\"inference\": {\"terminate_idle_h\": 1}}}");
    gp_ledger *l = run(t, s, 0);
    /* before: 8 (a) + 1 (b) instance-hours = 9 x 1.006 = 9.054 */
    assert_close(l->all_on_demand_cost, 9.054, 1e-9);
    assert_close(l->idle_terminated_instance_hours, 4, 1e-12);
    assert_close(l->total_cost, 5 * 1.006, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* Appends rows to a growing buffer. */
static void append(char **buf, size_t *len, size_t *cap, const char *row)
{
    size_t n = strlen(row);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, row, n + 1);
    *len += n;
}

static void test_threads_find_the_same_spans(void **state)
{
    (void)state;
    /* Over 8 MB of rows (the loader splits such a buffer across threads
     * and merges what each found): 40 GPUs sampled every 5 minutes for 25
     * days, each idle (1%) for 3 h of every 12 h at its own offset, busy
     * (70%) otherwise.  One thread and two must find the same spans, and
     * the ones the generator's rule gives (counted below). */
    char *csv = NULL, row[160];
    size_t len = 0, cap = 0;
    append(&csv, &len, &cap,
           "timestamp,step_s,instance_type,instances,gpu_util,job_id\n");
    for (int k = 0; k < 25 * 288; k++) {
        for (int g = 0; g < 40; g++) {
            int minute = (k * 5 + g * 15) % 720; /* within its 12 h cycle */
            snprintf(row, sizeof row, "%lld,300,g5.xlarge,1,%s,host%02d/gpu%d\n",
                     1767571200LL + (long long)k * 300,
                     minute < 180 ? "1" : "70", g / 8, g % 8);
            append(&csv, &len, &cap, row);
        }
    }
    assert_true(len > (8u << 20));
    gp_trace_options one, two;
    gp_trace_options_init(&one);
    gp_trace_options_init(&two);
    one.threads = 1;
    two.threads = 2;
    gp_trace *t1 = trace_with(csv, &one), *t2 = trace_with(csv, &two);
    gp_idle_report *r1 = detect(t1), *r2 = detect(t2);
    /* GPU g starts 15 g minutes into its cycle, so its first idle run may
     * be short (under 2 h: no span) and its last may be cut by the end of
     * the trace: count the runs of 2 h or more from the rule itself */
    size_t want = 0;
    double want_h = 0;
    for (int g = 0; g < 40; g++) {
        /* GPU g is idle in sample k when (5 k + 15 g) mod 720 < 180 */
        int run = 0;
        for (int k = 0; k <= 25 * 288; k++) {
            int idle = k < 25 * 288 && (k * 5 + g * 15) % 720 < 180;
            if (idle) {
                run++;
            } else if (run) {
                if (run * 5 >= 120) {
                    want++;
                    want_h += run * 5 / 60.0;
                }
                run = 0;
            }
        }
    }
    assert_int_equal(r1->n_spans, want);
    assert_int_equal(r2->n_spans, want);
    assert_close(r1->instance_hours, want_h, 1e-6);
    assert_close(r2->instance_hours, want_h, 1e-6);
    for (size_t i = 0; i < r1->n_spans && i < r2->n_spans; i++) {
        assert_close(r1->spans[i].start, r2->spans[i].start, 1e-6);
        assert_close(r1->spans[i].end, r2->spans[i].end, 1e-6);
    }
    gp_idle_report_free(r1);
    gp_idle_report_free(r2);
    gp_trace_free(t1);
    gp_trace_free(t2);
    free(csv);
}

static void test_allocation_failures_leak_nothing(void **state)
{
    (void)state;
    /* every allocation of detection and of the cuts failing in turn,
     * alone: out of memory, never a result that went on past it, never a
     * leak (ASan checks); until a run needs none refused */
    const char *u[] = {"50", "2", "2", "2", "60"};
    char *csv = gpu_samples("h/gpu0", 3600, u, 5);
    gp_trace *t = trace_of(csv);
    const double keep[2] = {1, 1};
    long n;
    for (n = 0; n < 100000; n++) {
        gp_error err;
        gp_idle_report *r = NULL;
        gp_idle_cut *cuts = NULL;
        size_t n_cuts = 0;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        gp_status st = gp_idle_detect(t, 0, &r, &err);
        if (st == GP_OK)
            st = gp_idle_cuts(t, r, keep, &cuts, &n_cuts, NULL, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st != GP_OK)
            assert_int_equal(st, GP_ERR_NOMEM);
        gp_free(cuts);
        gp_idle_report_free(r);
        if (!refused)
            break;
    }
    assert_true(n > 0 && n < 100000); /* some failed, then none needed */
    gp_trace_free(t);
    free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_hours_below_threshold_is_one_span),
        cmocka_unit_test(test_one_point_nine_hours_is_too_short),
        cmocka_unit_test(test_five_percent_is_not_below_five_percent),
        cmocka_unit_test(test_gap_or_missing_util_ends_a_span),
        cmocka_unit_test(test_sampling_jitter_does_not_end_a_span),
        cmocka_unit_test(test_threshold_and_minimum_are_options),
        cmocka_unit_test(test_rows_without_job_are_judged_per_series_hour),
        cmocka_unit_test(test_eight_gpu_job_priced_at_its_instance),
        cmocka_unit_test(test_terminate_after_one_idle_hour),
        cmocka_unit_test(test_terminate_mid_hour_and_policy_by_workload),
        cmocka_unit_test(test_terminate_a_series_span),
        cmocka_unit_test(test_threads_find_the_same_spans),
        cmocka_unit_test(test_allocation_failures_leak_nothing),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
