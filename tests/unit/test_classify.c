/*
 * test_classify.c: training or inference from the shape of demand
 * (classify.h, issue #7 part 2).
 *
 * Traces are built in memory from CSV text priced by
 * tests/data/engine/aws-test.json (g5.xlarge, p4d.24xlarge).  Feature values
 * are worked out by hand in the comment beside each, from the definitions
 * in classify.h: sample standard deviation (n - 1), Pearson
 * autocorrelation, the span from the first to the last hour with demand.
 * Tests of relabelling set the verdicts by hand, so that they check the
 * bookkeeping and not the fitted model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "gpuplan.h"
#include "writers.h"

#include "fixture.h"

/* A growable CSV text. */
typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void append(text *t, const char *fmt, ...)
{
    va_list ap;
    char line[512];
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof line);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
    memcpy(t->p + t->len, line, (size_t)n + 1);
    t->len += (size_t)n;
}

/* One hourly row of g5.xlarge for `team` at hour h after 2026-05-04
 * 00:00 UTC (a Monday). */
static void hour_row(text *t, int h, double instances, const char *team,
                     const char *workload, const char *interruptible)
{
    int64_t s = 1777852800 + (int64_t)h * 3600; /* 2026-05-04T00:00:00Z */
    char ts[32];
    gp_format_time(s, ts, sizeof ts);
    append(t, "%s,g5.xlarge,%g,%s,%s,%s\n", ts, instances, team, workload,
           interruptible);
}

#define HEADER "timestamp,instance_type,instances,team,workload,interruptible\n"

/*
 * 12 hours on (2 instances, 08:00-19:59 UTC) and 12 off, for five days,
 * rows only for the on hours.  Span: day 0 08:00 to day 4 19:00, so
 * n = 4 x 24 + 12 = 108 hours, k = 60 of them on.
 */
static void test_features_of_a_daily_square_wave(void **state)
{
    text csv = {0};
    (void)state;
    append(&csv, HEADER);
    for (int d = 0; d < 5; d++)
        for (int h = 8; h < 20; h++)
            hour_row(&csv, d * 24 + h, 2, "web", "", "");
    gp_trace *t = trace_of(csv.p);
    gp_classify_features f;
    assert_int_equal(t->n_series, 1);
    assert_int_equal(gp_classify_features_of(t, 0, &f), GP_OK);
    assert_close(f.span_hours, 108, 1e-9);
    /* 60 on-hours x 2 instances */
    assert_close(f.instance_hours, 120, 1e-9);
    /* k / n = 60 / 108 */
    assert_close(f.duty_cycle, 60.0 / 108, 1e-12);
    /* two values a and 0: cv = sqrt((n - k) n / (k (n - 1)))
     * = sqrt(48 x 108 / (60 x 107)) = 0.898597 */
    assert_close(f.cv, sqrt(48.0 * 108 / (60.0 * 107)), 1e-9);
    /* 8 switches of 2 over 107 steps, over sd = 2 sqrt(k (n - k) /
     * (n (n - 1))) = 2 sqrt(2880 / 11556) */
    assert_close(f.roughness,
                        (16.0 / 107) / (2 * sqrt(2880.0 / 11556)), 1e-9);
    /* the 5th percentile is 0 (48 of 108 hours are off) */
    assert_close(f.trough, 0, 1e-12);
    /* period 24: shifted by a day the series is itself, by half a day its
     * complement */
    assert_close(f.acf_daily, 1, 1e-9);
    assert_close(f.acf_half_day, -1, 1e-9);
    /* under two weeks: no weekly lag */
    assert_true(isnan(f.acf_weekly));
    /* the 2x24 moving average of a 24-periodic series is its mean, so the
     * hour-of-day profile explains all the detrended variance */
    assert_close(f.daily_strength, 1, 1e-9);
    /* five on-periods of 12 hours */
    assert_close(f.mean_on_run_h, 12, 1e-9);
    assert_true(isnan(f.mean_util));
    assert_int_equal(f.n_runs, 0);
    gp_trace_free(t);
    free(csv.p);
}

/* A constant series has no variance: cv 0, trough 1, and the features
 * that divide by the standard deviation are not defined. */
static void test_flat_series_has_no_shape_features(void **state)
{
    text csv = {0};
    (void)state;
    append(&csv, HEADER);
    for (int h = 0; h < 100; h++)
        hour_row(&csv, h, 3, "batch", "", "");
    gp_trace *t = trace_of(csv.p);
    gp_classify_features f;
    assert_int_equal(gp_classify_features_of(t, 0, &f), GP_OK);
    assert_close(f.span_hours, 100, 1e-9);
    assert_close(f.duty_cycle, 1, 1e-12);
    assert_close(f.cv, 0, 1e-12);
    assert_close(f.trough, 1, 1e-12);
    assert_true(isnan(f.roughness));
    assert_true(isnan(f.skewness));
    assert_true(isnan(f.acf_daily));
    assert_true(isnan(f.daily_strength));
    assert_close(f.mean_on_run_h, 100, 1e-9);
    gp_trace_free(t);
    free(csv.p);
}

/* Under 6 hours there is no shape: g5.xlarge's GPU class (one A10G, an
 * inference part) decides, log-odds -1.2: inference at logistic(1.2) =
 * 1 / (1 + e^-1.2) = 0.76852, and the verdict is a short-series one. */
static void test_a_two_hour_series_is_decided_by_its_gpu(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    hour_row(&csv, 0, 4, "chat", "", "");
    hour_row(&csv, 1, 5, "chat", "", "");
    gp_trace *t = trace_of(csv.p);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    assert_int_equal(c->n_series, 1);
    assert_true(c->series[0].decided);
    assert_true(c->series[0].short_series);
    assert_int_equal(c->series[0].label, GP_INFERENCE);
    assert_close(c->series[0].evidence[GP_EV_PRIOR], -1.2, 1e-12);
    assert_close(c->series[0].evidence[GP_EV_SHAPE], 0, 0);
    assert_close(c->series[0].confidence, 1 / (1 + exp(-1.2)), 1e-12);
    assert_false(c->series[0].unknown);
    assert_int_equal(c->n_decided[GP_INFERENCE], 1);
    /* 4 + 5 instance-hours */
    assert_close(c->decided_hours[GP_INFERENCE], 9, 1e-9);
    assert_int_equal(c->n_short, 1);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/* interruptible=true on unlabelled rows adds log-odds 2 of training: with
 * g5.xlarge's -1.2 the sum is 0.8, training at logistic(0.8) = 0.68997,
 * under 0.7: unknown, billed as inference, not sent to spot. */
static void test_interruptible_rows_tip_a_tie_to_training(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    hour_row(&csv, 0, 4, "chat", "", "true");
    hour_row(&csv, 1, 5, "chat", "", "true");
    gp_trace *t = trace_of(csv.p);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    assert_int_equal(c->series[0].label, GP_TRAINING);
    assert_close(c->series[0].score, 0.8, 1e-12);
    assert_close(c->series[0].confidence, 1 / (1 + exp(-0.8)), 1e-12);
    assert_true(c->series[0].unknown);
    assert_false(c->series[0].to_spot);
    assert_int_equal(gp_classify_planned(&c->series[0]), GP_INFERENCE);
    assert_string_equal(gp_classify_label_name(&c->series[0]), "unknown");
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/* A row labelled training with interruptible empty is interruptible by
 * the SPEC's default, not because it said so: relabelled, it gains no
 * log-odds from the flag (README: only unlabelled rows that say
 * interruptible=true do).  Only the GPU prior speaks: inference at
 * logistic(1.2), as for the same rows unlabelled. */
static void test_relabel_ignores_the_training_default_flag(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    hour_row(&csv, 0, 4, "chat", "training", "");
    hour_row(&csv, 1, 5, "chat", "training", "");
    gp_trace *t = trace_of(csv.p);
    assert_true(t->series[0].interruptible); /* the default */
    assert_int_equal(gp_classify(t, true, &c, &err), GP_OK);
    assert_true(c->series[0].decided);
    assert_int_equal(c->series[0].label, GP_INFERENCE);
    assert_close(c->series[0].score, -1.2, 1e-12);
    assert_close(c->series[0].evidence[GP_EV_INTERRUPTIBLE], 0, 0);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/* Labelled series keep their label at confidence 1 unless relabel. */
static void test_labels_are_kept_unless_relabel(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    hour_row(&csv, 0, 4, "chat", "inference", "");
    hour_row(&csv, 1, 5, "chat", "inference", "");
    gp_trace *t = trace_of(csv.p);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    assert_false(c->series[0].decided);
    assert_int_equal(c->series[0].loaded, GP_INFERENCE);
    assert_int_equal(c->series[0].label, GP_INFERENCE);
    assert_close(c->series[0].confidence, 1, 1e-12);
    assert_int_equal(c->n_decided[0] + c->n_decided[1], 0);
    gp_classification_free(c);
    assert_int_equal(gp_classify(t, true, &c, &err), GP_OK);
    assert_true(c->series[0].decided);
    assert_true(c->relabel);
    /* the GPU prior alone: logistic(1.2) */
    assert_close(c->series[0].confidence, 1 / (1 + exp(-1.2)), 1e-12);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/* Every hour of one week: a floor of 1 instance, and 1 + 8 sin(pi (h -
 * 8) / 12) more from 08:00 to 20:00 UTC, with a lunchtime spike of 6 more
 * at 12:00 on weekdays: the shape of requests.  And a queue that holds 6
 * instances and steps to 7 for days at a time: the shape of training. */
static void test_request_shape_is_inference_queue_shape_training(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    for (int h = 0; h < 168; h++) {
        int hod = h % 24;
        double v = 1;
        if (hod >= 8 && hod < 20)
            v += 1 + 8 * sin(3.14159265358979 * (hod - 8) / 12.0);
        if (hod == 12 && h < 120)
            v += 6;
        hour_row(&csv, h, v, "api", "", "");
        hour_row(&csv, h, (h / 50) % 2 ? 7 : 6, "research", "", "");
    }
    gp_trace *t = trace_of(csv.p);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    assert_int_equal(c->n_series, 2);
    for (size_t s = 0; s < 2; s++) {
        const char *team = t->labels[t->series[s].team];
        gp_workload want =
            strcmp(team, "api") == 0 ? GP_INFERENCE : GP_TRAINING;
        assert_int_equal(c->series[s].label, want);
        assert_true(c->series[s].confidence > 0.5 &&
                    c->series[s].confidence <= 1);
        assert_false(c->series[s].short_series);
    }
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/*
 * Relabelling in place: an unlabelled series of team "a" decided training
 * (set by hand) gets the key of the labelled training series of team "a"
 * (interruptible=false both), so the two merge: 3 series become 2, the
 * merged one holds 2 + 3 instance-hours in hour 0 and 2 in hour 1, the job
 * run of the unlabelled rows points at it, and the trace's instance-hours
 * move from unlabelled (5) to training (2 + 5 = 7).
 */
static void test_apply_merges_series_that_become_equal(void **state)
{
    const char *csv =
        "timestamp,instance_type,instances,team,workload,interruptible,"
        "job_id\n"
        "2026-05-04T00:00:00Z,g5.xlarge,2,a,training,false,\n"
        "2026-05-04T00:00:00Z,g5.xlarge,3,a,,false,j1\n"
        "2026-05-04T01:00:00Z,g5.xlarge,2,a,,false,j1\n"
        "2026-05-04T00:00:00Z,g5.xlarge,1,b,inference,,\n";
    gp_classification *c;
    gp_error err;
    (void)state;
    gp_trace *t = trace_of(csv);
    assert_int_equal(t->n_series, 3);
    assert_close(t->instance_hours[GP_UNLABELED], 5, 1e-9);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    size_t unl = SIZE_MAX;
    for (size_t s = 0; s < c->n_series; s++)
        if (c->series[s].loaded == GP_UNLABELED)
            unl = s;
    assert_true(unl != SIZE_MAX);
    c->series[unl].label = GP_TRAINING;
    c->series[unl].to_spot = true; /* billed as training; its rows said
                                      interruptible=false, so not spot */
    /* the merged series' rows start at the earlier of the two: the
     * labelled one's moved by hand to 00:30, the unlabelled one's is 00:00
     * (2026-05-04 = 20577 days x 86400 = 1777852800 s) */
    for (size_t s = 0; s < t->n_series; s++)
        if (t->series[s].workload == GP_TRAINING)
            t->series[s].start_s += 1800;
    assert_int_equal(gp_classify_apply(t, c, &err), GP_OK);
    assert_int_equal(t->n_series, 2);
    size_t merged = c->series[unl].series;
    assert_true(merged < t->n_series);
    const gp_series *m = &t->series[merged];
    assert_int_equal(m->workload, GP_TRAINING);
    assert_false(m->interruptible);
    assert_string_equal(t->labels[m->team], "a");
    assert_close(m->instance_hours[0], 5, 1e-9);
    assert_close(m->instance_hours[1], 2, 1e-9);
    assert_close(m->start_s, 1777852800, 0);
    assert_int_equal(t->n_runs, 1);
    assert_int_equal(t->runs[0].series, merged);
    assert_close(t->instance_hours[GP_UNLABELED], 0, 1e-9);
    assert_close(t->instance_hours[GP_TRAINING], 7, 1e-9);
    assert_close(t->instance_hours[GP_INFERENCE], 1, 1e-9);
    /* the loader's order: pool, then workload (training before
     * inference) */
    assert_int_equal(t->series[0].workload, GP_TRAINING);
    assert_int_equal(t->series[1].workload, GP_INFERENCE);
    gp_classification_free(c);
    gp_trace_free(t);
}

/*
 * What is left unlabelled after relabelling is the instance-hours of the
 * series still unlabelled, exactly.  Rows in file order: team "b" 1 and 2
 * instances (hours 0, 1), then team "a" 0.1, 0.2, 0.6 (hours 0, 1, 0).
 * The loader's total adds them in that order, 3 + 0.1 + 0.2 + 0.6 =
 * 3.9000000000000004 in doubles; a's series holds 0.1 + 0.6 = 0.7 and 0.2,
 * 0.7 + 0.2 = 0.8999999999999999.  Moving a only, the total less a left
 * 3.0000000000000004 and not b's 3; moving both left 4.4e-16 (printed as
 * "0 instance-hours had no workload label") and not 0.
 */
static void test_apply_leaves_exactly_what_is_unlabelled(void **state)
{
    const char *csv = "timestamp,instance_type,instances,team\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,1,b\n"
                      "2026-05-04T01:00:00Z,g5.xlarge,2,b\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,0.1,a\n"
                      "2026-05-04T01:00:00Z,g5.xlarge,0.2,a\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,0.6,a\n";
    gp_error err;
    (void)state;
    for (int both = 0; both <= 1; both++) {
        gp_classification *c;
        gp_trace *t = trace_of(csv);
        assert_close(t->instance_hours[GP_UNLABELED], 3.9, 1e-9);
        assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
        for (size_t s = 0; s < c->n_series; s++) {
            const gp_series *ser = &t->series[c->series[s].series];
            bool is_a = strcmp(t->labels[ser->team], "a") == 0;
            c->series[s].label = GP_INFERENCE;
            c->series[s].decided = is_a || both;
        }
        assert_int_equal(gp_classify_apply(t, c, &err), GP_OK);
        assert_true(t->instance_hours[GP_UNLABELED] == (both ? 0 : 3));
        gp_classification_free(c);
        gp_trace_free(t);
    }
}

/* The warning simulate and recommend print, for one 9-instance-hour
 * series decided inference. */
static void test_warning_names_series_and_instance_hours(void **state)
{
    text csv = {0};
    gp_classification *c;
    gp_warnings w = {NULL, 0, 0};
    gp_error err;
    (void)state;
    append(&csv, HEADER);
    hour_row(&csv, 0, 4, "chat", "", "");
    hour_row(&csv, 1, 5, "chat", "", "");
    gp_trace *t = trace_of(csv.p);
    assert_int_equal(gp_classify_trace(t, false, &c, &err), GP_OK);
    gp_classification_warn(c, &w);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0],
                        "classified 1 series (9.0 instance-hours) as "
                        "training/inference: 0 training (0.0), 1 inference "
                        "(9.0), some from under two days of data; see "
                        "gpuplan classify");
    assert_int_equal(t->series[0].workload, GP_INFERENCE);
    gp_warnings_clear(&w);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv.p);
}

/*
 * Labelling every unlabelled series leaves no unlabelled instance-hours,
 * exactly: two series of 0.1 and 0.2 instance-hours sum to
 * 0.30000000000000004 in double, and moving 0.1 then 0.2 out of that left
 * 2.8e-17 (printed "0 instance-hours had no workload label" by simulate
 * and recommend).  Exact 0 is the point here, so == and no tolerance.
 */
static void test_apply_leaves_no_unlabelled_residue(void **state)
{
    const char *csv = "timestamp,instance_type,instances,team,workload\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,0.1,a,\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,0.2,b,\n";
    gp_classification *c;
    gp_error err;
    gp_warnings w = {NULL, 0, 0};
    (void)state;
    gp_trace *t = trace_of(csv);
    assert_int_equal(t->n_series, 2);
    assert_true(t->instance_hours[GP_UNLABELED] > 0.3); /* 0.3 + 4e-17 */
    assert_int_equal(gp_classify_trace(t, false, &c, &err), GP_OK);
    assert_true(t->instance_hours[GP_UNLABELED] == 0);
    assert_close(t->instance_hours[GP_INFERENCE], 0.3, 1e-12);
    gp_usage_warnings(t, NULL, &w);
    assert_int_equal(w.count, 0);
    gp_warnings_clear(&w);
    gp_classification_free(c);
    gp_trace_free(t);
}

/*
 * The unlabelled-usage warning says what the engine does with usage no
 * one labelled.  Billed as loaded, it follows the inference policy, and
 * when that launches spot, the interruptible row goes to spot (the warning
 * said "never on spot"): 2 instance-hours at the catalog's g5.xlarge spot
 * $0.40 = $0.80 (interruptions made negligible, no checkpoint cost), and
 * the other row's 1 instance-hour on demand at $1.006.  After
 * gp_classify_trace, as simulate, recommend and forecast call it, every
 * series is decided, the one-hour ones too (b inference by g5.xlarge's
 * prior, -1.2; a unknown, -1.2 + 2 for interruptible=true = 0.8 under
 * logistic^-1(0.7), billed as inference), so no unlabelled hours are left
 * to warn of.
 */
static void test_unlabelled_warning_says_what_is_billed(void **state)
{
    const char *csv = "timestamp,instance_type,instances,team,interruptible\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,2,a,true\n"
                      "2026-05-04T00:00:00Z,g5.xlarge,1,b,\n";
    gp_classification *c;
    gp_error err;
    gp_warnings w = {NULL, 0, 0};
    (void)state;
    gp_trace *t = trace_of(csv);
    gp_usage_warnings(t, NULL, &w);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0],
                        "3.0 instance-hours had no workload label and were "
                        "billed by the inference policy (on demand unless "
                        "it launches spot and their rows say "
                        "interruptible=true)");
    gp_warnings_clear(&w);
    gp_scenario *s = scenario_of(
        "{\"adjustments\": {\"interruption_factor\": 1e-9}, \"policy\": "
        "{\"inference\": {\"launch\": \"spot\", \"checkpoint_cost_h\": "
        "0}}}");
    gp_ledger *l = run(t, s, 0);
    assert_close(l->cost[GP_MODEL_SPOT], 0.80, 1e-6);
    assert_close(l->cost[GP_MODEL_ON_DEMAND], 1.006, 1e-9);
    gp_ledger_free(l);
    gp_scenario_free(s);

    assert_int_equal(gp_classify_trace(t, false, &c, &err), GP_OK);
    assert_int_equal(c->n_decided[0] + c->n_decided[1], 1);
    assert_int_equal(c->n_unknown, 1);
    assert_true(t->instance_hours[GP_UNLABELED] == 0);
    gp_usage_warnings(t, NULL, &w);
    assert_int_equal(w.count, 0);
    gp_classification_free(c);
    gp_trace_free(t);
}

/* classify --out's rows for texts[0, n) (the files the trace t was read
 * from) into *out (malloc'd, for the caller to free); the status of
 * gp_classify_write_labeled. */
static gp_status write_labeled(const gp_trace *t, const gp_classification *c,
                               size_t n, const char **sources,
                               const char **texts, char **out, gp_error *err)
{
    gp_trace_options opt;
    size_t out_len = 0, lens[2];
    gp_trace_options_init(&opt);
    assert_true(n <= 2);
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(texts[i]);
    *out = NULL;
    FILE *f = open_memstream(out, &out_len);
    assert_non_null(f);
    gp_error_clear(err);
    gp_status st = gp_classify_write_labeled(f, t, pricing, &opt, c, n,
                                             sources, texts, lens, err);
    fclose(f);
    return st;
}

/*
 * --out: every row once, in order; the unlabelled rows get the verdict
 * (the two-hour series: inference at 0.500), the labelled row keeps its
 * text and confidence 1; a column the trace does not read ("note") and
 * quoting survive; a second text with another header adds its column.
 */
static void test_labeled_rows_are_written_once_in_order(void **state)
{
    const char *a = "timestamp,instance_type,instances,team,workload,note\n"
                    "2026-05-04T00:00:00Z,g5.xlarge,4,chat,,\"x, y\"\n"
                    "2026-05-04T01:00:00Z,g5.xlarge,5,chat,,plain\n"
                    "2026-05-04T00:00:00Z,g5.xlarge,1,ml,Training,\n";
    const char *b = "timestamp,instance_type,gpus,team\n"
                    "2026-05-04T02:00:00Z,g5.xlarge,1,chat\n";
    gp_error err;
    gp_trace_builder *bld;
    gp_trace *t;
    gp_classification *c;
    (void)state;
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&bld, pricing, NULL, &err), GP_OK);
    assert_int_equal(
        gp_trace_builder_add_buffer(bld, a, strlen(a), "a.csv", &err),
        GP_OK);
    assert_int_equal(
        gp_trace_builder_add_buffer(bld, b, strlen(b), "b.csv", &err),
        GP_OK);
    assert_int_equal(gp_trace_builder_finish(bld, &t, &err), GP_OK);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    char *out;
    const char *sources[2] = {"a.csv", "b.csv"};
    const char *texts[2] = {a, b};
    assert_int_equal(write_labeled(t, c, 2, sources, texts, &out, &err),
                     GP_OK);
    /* chat spans 00:00-02:59 (3 hours, under 6): g5.xlarge's prior alone,
     * inference at logistic(1.2) = 0.769.
     * Classified rows that left interruptible empty state the flag they
     * were billed with (an unlabelled series is not interruptible: false);
     * the labelled ml row keeps its empty field. */
    assert_string_equal(
        out,
        "timestamp,instance_type,instances,team,workload,note,gpus,"
        "workload_confidence,interruptible\n"
        "2026-05-04T00:00:00Z,g5.xlarge,4,chat,inference,\"x, y\",,0.769,"
        "false\n"
        "2026-05-04T01:00:00Z,g5.xlarge,5,chat,inference,plain,,0.769,false\n"
        "2026-05-04T00:00:00Z,g5.xlarge,1,ml,Training,,,1,\n"
        "2026-05-04T02:00:00Z,g5.xlarge,,chat,inference,,1,0.769,false\n");
    free(out);
    gp_classification_free(c);
    gp_trace_free(t);
}

/* A trace saved with CR line ends (Excel's "CSV (Macintosh)") is loaded
 * with its CRs as line ends, so --out must read it the same way: both rows
 * come out, with LF line ends.  Expected: the two-hour chat series is
 * inference at logistic(1.2) = 0.769 and, with interruptible left out, not interruptible
 * ("false"), as in test_labeled_rows_are_written_once_in_order. */
static void test_write_labeled_reads_cr_line_ends(void **state)
{
    const char *a = "timestamp,instance_type,instances,team,workload\r"
                    "2026-05-04T00:00:00Z,g5.xlarge,4,chat,\r"
                    "2026-05-04T01:00:00Z,g5.xlarge,5,chat,\r";
    gp_error err;
    gp_classification *c;
    (void)state;
    gp_trace *t = trace_of(a);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    char *out;
    const char *source = "a.csv";
    assert_int_equal(write_labeled(t, c, 1, &source, &a, &out, &err), GP_OK);
    assert_string_equal(out, "timestamp,instance_type,instances,team,workload,"
                             "workload_confidence,interruptible\n"
                             "2026-05-04T00:00:00Z,g5.xlarge,4,chat,inference,"
                             "0.769,false\n"
                             "2026-05-04T01:00:00Z,g5.xlarge,5,chat,inference,"
                             "0.769,false\n");
    free(out);
    gp_classification_free(c);
    gp_trace_free(t);
}

/* A text that is not the one loaded (a row of a team the trace never
 * saw) is an error naming the file and line, not a silently dropped row. */
static void test_write_labeled_rejects_a_row_not_in_the_trace(void **state)
{
    const char *loaded = "timestamp,instance_type,instances,team\n"
                         "2026-05-04T00:00:00Z,g5.xlarge,4,chat\n";
    const char *other = "timestamp,instance_type,instances,team\n"
                        "2026-05-04T00:00:00Z,g5.xlarge,4,chat\n"
                        "2026-05-04T01:00:00Z,g5.xlarge,4,search\n";
    gp_error err;
    gp_classification *c;
    (void)state;
    gp_trace *t = trace_of(loaded);
    assert_int_equal(gp_classify(t, false, &c, &err), GP_OK);
    char *out;
    const char *source = "t.csv";
    assert_int_equal(write_labeled(t, c, 1, &source, &other, &out, &err),
                     GP_ERR_INPUT);
    free(out);
    char msg[1024];
    gp_error_format(&err, msg, sizeof msg);
    /* line 3 of the text: the header is line 1 */
    assert_string_equal(msg, "t.csv:3: row is not in the trace that was "
                             "classified (was the file changed while it "
                             "was read?)");
    gp_classification_free(c);
    gp_trace_free(t);
}

/* Out of memory at every allocation in turn: a clean GP_ERR_NOMEM (no
 * leak, which the ASan build checks), never a crash. */
static void test_out_of_memory_anywhere_fails_cleanly(void **state)
{
    text csv = {0};
    (void)state;
    append(&csv, HEADER);
    for (int h = 0; h < 120; h++) {
        hour_row(&csv, h, 1 + h % 5, "a", "", "");
        hour_row(&csv, h, 2, "a", "training", "false");
    }
    int ok = 0;
    for (long n = 0; n < 400 && !ok; n++) {
        gp_trace *t = trace_of(csv.p);
        gp_classification *c = NULL;
        gp_error err;
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        gp_status st = gp_classify_trace(t, false, &c, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            ok = 1;
            assert_non_null(c);
            /* merged when the unlabelled series was decided training */
            size_t unl = c->series[0].loaded == GP_UNLABELED ? 0 : 1;
            assert_int_equal(t->n_series,
                             c->series[unl].label == GP_TRAINING ? 1 : 2);
        } else {
            assert_int_equal(st, GP_ERR_NOMEM);
            assert_null(c);
        }
        gp_classification_free(c);
        gp_trace_free(t);
    }
    assert_true(ok);
    free(csv.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_of_a_daily_square_wave),
        cmocka_unit_test(test_flat_series_has_no_shape_features),
        cmocka_unit_test(test_a_two_hour_series_is_decided_by_its_gpu),
        cmocka_unit_test(test_interruptible_rows_tip_a_tie_to_training),
        cmocka_unit_test(test_labels_are_kept_unless_relabel),
        cmocka_unit_test(test_relabel_ignores_the_training_default_flag),
        cmocka_unit_test(test_request_shape_is_inference_queue_shape_training),
        cmocka_unit_test(test_apply_merges_series_that_become_equal),
        cmocka_unit_test(test_apply_leaves_no_unlabelled_residue),
        cmocka_unit_test(test_apply_leaves_exactly_what_is_unlabelled),
        cmocka_unit_test(test_unlabelled_warning_says_what_is_billed),
        cmocka_unit_test(test_warning_names_series_and_instance_hours),
        cmocka_unit_test(test_labeled_rows_are_written_once_in_order),
        cmocka_unit_test(test_write_labeled_reads_cr_line_ends),
        cmocka_unit_test(test_write_labeled_rejects_a_row_not_in_the_trace),
        cmocka_unit_test(test_out_of_memory_anywhere_fails_cleanly),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup, teardown);
}
