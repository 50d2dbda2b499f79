/*
 * test_classify_evidence.c: the evidence a classification adds up beyond
 * the shape of demand (issue #34): the GPU-class prior, gpu_util, job
 * structure, label words, robustness to one odd hour, and what is sent to
 * spot.  Sizes are the stated ones of src/classify_decide.c (prior 1.2,
 * utilisation 1.5, jobs 0.8, labels 0.6); expected confidences are
 * logistic(sum) = 1 / (1 + e^-sum), worked out beside each test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "gpuplan.h"

#include "fixture.h"

static double logistic(double z)
{
    return 1 / (1 + exp(-z));
}

/* 14 days of hourly rows from 2026-05-04 (a Monday) of `type` for team
 * `team`: instances x[h] (from f), gpu_util `util` (< 0: none). */
static char *hours_csv(const char *type, const char *team, double util,
                       double (*f)(int h))
{
    size_t cap = 400 * 100, len = 0;
    char *p = malloc(cap);
    assert_non_null(p);
    len += (size_t)snprintf(p, cap,
                            "timestamp,instance_type,instances,team,"
                            "gpu_util\n");
    for (int h = 0; h < 14 * 24; h++) {
        char ts[32], u[16] = "";
        gp_format_time(1777852800 + (int64_t)h * 3600, ts, sizeof ts);
        if (util >= 0)
            snprintf(u, sizeof u, "%g", util);
        len += (size_t)snprintf(p + len, cap - len, "%s,%s,%g,%s,%s\n", ts,
                                type, f(h), team, u);
        assert_true(len < cap);
    }
    return p;
}

static double flat8(int h)
{
    (void)h;
    return 8;
}

/* flat8 with hour 100 up 2% (8.16) */
static double flat8_odd_hour(int h)
{
    return h == 100 ? 8.16 : 8;
}

/* flat8 with a partial first hour (half of it) */
static double flat8_partial_first(int h)
{
    return h == 0 ? 4 : 8;
}

/* Requests: a floor of 1, a daytime sine of 8 and a weekday lunchtime
 * spike of 6, as in test_classify.c. */
static double requests(int h)
{
    int hod = h % 24;
    double v = 1;
    if (hod >= 8 && hod < 20)
        v += 1 + 8 * sin(3.14159265358979 * (hod - 8) / 12.0);
    if (hod == 12 && (h / 24) % 7 < 5)
        v += 6;
    return v;
}

/* The verdict on the only series of `csv`, with options o (NULL:
 * defaults). */
static gp_series_class verdict(const char *csv, const gp_classify_options *o)
{
    gp_classify_options def;
    gp_classification *c;
    gp_error err;
    gp_trace *t = trace_of(csv);
    gp_classify_options_init(&def);
    assert_int_equal(t->n_series, 1);
    assert_int_equal(gp_classify_with(t, o ? o : &def, &c, &err), GP_OK);
    gp_series_class v = c->series[0];
    gp_classification_free(c);
    gp_trace_free(t);
    return v;
}

/* Steady always-on serving on a 1-GPU inference part: flat, so the shape
 * says nothing, and g5.xlarge's A10G says inference at logistic(1.2) =
 * 0.7685. */
static void test_steady_serving_on_inference_gpus_is_inference(void **state)
{
    (void)state;
    char *csv = hours_csv("g5.xlarge", "t", -1, flat8);
    gp_series_class v = verdict(csv, NULL);
    assert_close(v.evidence[GP_EV_SHAPE], 0, 0);
    assert_close(v.evidence[GP_EV_PRIOR], -1.2, 1e-12);
    assert_int_equal(v.label, GP_INFERENCE);
    assert_false(v.unknown);
    assert_close(v.confidence, logistic(1.2), 1e-12);
    free(csv);
}

/* Saturated training on 8-GPU nodes: flat, p4d.24xlarge's 8 A100s say
 * +1.2 and gpu_util steady at 95% (median >= 70, spread 0) +1.5: training
 * at logistic(2.7) = 0.9370, over 0.9, so billed as training and
 * interruptible (the SPEC's default for training).  Without gpu_util, the
 * prior alone: training at 0.7685, billed as inference, not spot. */
static void test_saturated_training_on_8_gpu_nodes_is_training(void **state)
{
    (void)state;
    char *csv = hours_csv("p4d.24xlarge", "t", 95, flat8);
    gp_classification *c;
    gp_error err;
    gp_trace *t = trace_of(csv);
    assert_int_equal(gp_classify_trace(t, false, &c, &err), GP_OK);
    assert_int_equal(c->series[0].label, GP_TRAINING);
    assert_close(c->series[0].evidence[GP_EV_UTIL], 1.5, 1e-12);
    assert_close(c->series[0].confidence, logistic(2.7), 1e-12);
    assert_true(c->series[0].to_spot);
    assert_int_equal(t->series[0].workload, GP_TRAINING);
    assert_true(t->series[0].interruptible);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv);

    csv = hours_csv("p4d.24xlarge", "t", -1, flat8);
    t = trace_of(csv);
    assert_int_equal(gp_classify_trace(t, false, &c, &err), GP_OK);
    assert_int_equal(c->series[0].label, GP_TRAINING);
    assert_close(c->series[0].confidence, logistic(1.2), 1e-12);
    assert_false(c->series[0].to_spot);
    assert_int_equal(c->n_planned_inference, 1);
    assert_int_equal(t->series[0].workload, GP_INFERENCE);
    assert_false(t->series[0].interruptible);
    gp_classification_free(c);
    gp_trace_free(t);
    free(csv);
}

/* --spot-confidence 0.95: the 0.937 training verdict above is billed as
 * inference. */
static void test_spot_confidence_holds_back_a_less_sure_verdict(void **state)
{
    (void)state;
    char *csv = hours_csv("p4d.24xlarge", "t", 95, flat8);
    gp_classify_options o;
    gp_classify_options_init(&o);
    o.spot_confidence = 0.95;
    gp_series_class v = verdict(csv, &o);
    assert_int_equal(v.label, GP_TRAINING);
    assert_false(v.to_spot);
    assert_int_equal(gp_classify_planned(&v), GP_INFERENCE);
    free(csv);
}

/* A series with clear shape evidence keeps its label when only its type
 * changes: the shape term is the same on both (it does not read the
 * type), only the prior moves, by 2.4; requests lean inference on both. */
static void test_clear_shape_keeps_its_label_across_types(void **state)
{
    (void)state;
    char *a = hours_csv("g5.xlarge", "t", -1, requests);
    char *b = hours_csv("p4d.24xlarge", "t", -1, requests);
    gp_series_class va = verdict(a, NULL), vb = verdict(b, NULL);
    assert_close(va.evidence[GP_EV_SHAPE], vb.evidence[GP_EV_SHAPE], 0);
    assert_true(va.evidence[GP_EV_SHAPE] < -1.2);
    assert_close(vb.score - va.score, 2.4, 1e-12);
    assert_int_equal(va.label, GP_INFERENCE);
    assert_int_equal(vb.label, GP_INFERENCE);
    free(a);
    free(b);
}

/* A flat series' verdict does not move when one hour is 2% off, or when
 * its first hour is half an hour: winsorised at the 2nd and 98th
 * percentiles, all three are flat (cv 0), so the shape term is 0 and the
 * verdicts are equal to the last bit. */
static void test_one_odd_hour_does_not_move_a_flat_series(void **state)
{
    (void)state;
    char *a = hours_csv("p4d.24xlarge", "t", -1, flat8);
    char *b = hours_csv("p4d.24xlarge", "t", -1, flat8_odd_hour);
    char *c = hours_csv("p4d.24xlarge", "t", -1, flat8_partial_first);
    gp_series_class va = verdict(a, NULL), vb = verdict(b, NULL),
                    vc = verdict(c, NULL);
    assert_close(vb.f.cv, 0, 0);
    assert_close(vc.f.cv, 0, 0);
    assert_close(va.score, vb.score, 0);
    assert_close(va.score, vc.score, 0);
    assert_int_equal(va.label, vb.label);
    assert_int_equal(va.label, vc.label);
    free(a);
    free(b);
    free(c);
}

/* classify.priors: the scenario's log-odds for a type replace the GPU
 * class's; a GPU model's apply to every type with it. */
static void test_scenario_priors_override_the_gpu_class(void **state)
{
    (void)state;
    char *csv = hours_csv("g5.xlarge", "t", -1, flat8);
    gp_classify_prior by_type = {(char *)"g5.xlarge", 3.0};
    gp_classify_prior by_model = {(char *)"a10g", -0.5};
    gp_classify_options o;
    gp_classify_options_init(&o);
    o.priors = &by_type;
    o.n_priors = 1;
    gp_series_class v = verdict(csv, &o);
    assert_close(v.evidence[GP_EV_PRIOR], 3.0, 0);
    assert_int_equal(v.label, GP_TRAINING);
    o.priors = &by_model;
    v = verdict(csv, &o);
    assert_close(v.evidence[GP_EV_PRIOR], -0.5, 0);
    free(csv);
}

/* Words at the start of a word of team or project: "llm-serving" leans
 * inference (-0.6), "pretrain-7b" training (+0.6); "microsoft" holds
 * "sft" but not as a word's start, and "constraint" holds "train" inside
 * a word: neither says anything. */
static void test_label_words_are_a_weak_term(void **state)
{
    (void)state;
    const struct {
        const char *team;
        double want;
    } cases[] = {{"llm-serving", -0.6},
                 {"pretrain-7b", 0.6},
                 {"microsoft", 0},
                 {"constraint", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *csv = hours_csv("g5.xlarge", cases[i].team, -1, flat8);
        gp_series_class v = verdict(csv, NULL);
        assert_close(v.evidence[GP_EV_LABELS], cases[i].want, 0);
        free(csv);
    }
}

/* gpu_util that follows load: a median of 35% whose 10th to 90th
 * percentile spread is over half the median leans inference, -1.5.  Rows
 * alternate 10% and 60% by the hour: median 35 (the middle of 168 and 168
 * values), spread (60 - 10) / 35 = 1.43. */
static void test_util_that_follows_load_leans_inference(void **state)
{
    (void)state;
    char *csv = hours_csv("p4d.24xlarge", "t", 10, flat8);
    /* every other row's gpu_util to 60: ",10\n" -> ",60\n" */
    int k = 0;
    for (char *p = strstr(csv, ",10\n"); p; p = strstr(p + 1, ",10\n"))
        if (k++ % 2)
            p[1] = '6', p[2] = '0';
    gp_series_class v = verdict(csv, NULL);
    assert_close(v.f.util_median, 35, 1e-9);
    assert_close(v.evidence[GP_EV_UTIL], -1.5, 0);
    free(csv);
}

/* Job structure: three runs of 4 instances (gang-scheduled) that end
 * lean training, +0.8; a replica that lives the whole span, -0.8. */
static void test_job_structure(void **state)
{
    (void)state;
    const char *gangs =
        "timestamp,instance_type,instances,job_id\n"
        "2026-05-04T00:00:00Z,g5.xlarge,4,a\n"
        "2026-05-04T01:00:00Z,g5.xlarge,4,a\n"
        "2026-05-04T05:00:00Z,g5.xlarge,4,b\n"
        "2026-05-04T06:00:00Z,g5.xlarge,4,b\n"
        "2026-05-04T10:00:00Z,g5.xlarge,4,c\n"
        "2026-05-04T11:00:00Z,g5.xlarge,4,c\n";
    gp_series_class v = verdict(gangs, NULL);
    assert_int_equal(v.f.n_runs, 3);
    assert_close(v.f.median_gang, 4, 0);
    assert_close(v.evidence[GP_EV_JOBS], 0.8, 0);
    const char *replicas =
        "timestamp,instance_type,instances,job_id\n"
        "2026-05-04T00:00:00Z,g5.xlarge,1,r1\n"
        "2026-05-04T00:00:00Z,g5.xlarge,1,r2\n"
        "2026-05-04T00:00:00Z,g5.xlarge,1,r3\n"
        "2026-05-04T01:00:00Z,g5.xlarge,1,r1\n"
        "2026-05-04T01:00:00Z,g5.xlarge,1,r2\n"
        "2026-05-04T01:00:00Z,g5.xlarge,1,r3\n";
    v = verdict(replicas, NULL);
    assert_close(v.f.replica_share, 1, 0);
    assert_close(v.evidence[GP_EV_JOBS], -0.8, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steady_serving_on_inference_gpus_is_inference),
        cmocka_unit_test(test_saturated_training_on_8_gpu_nodes_is_training),
        cmocka_unit_test(test_spot_confidence_holds_back_a_less_sure_verdict),
        cmocka_unit_test(test_clear_shape_keeps_its_label_across_types),
        cmocka_unit_test(test_one_odd_hour_does_not_move_a_flat_series),
        cmocka_unit_test(test_scenario_priors_override_the_gpu_class),
        cmocka_unit_test(test_label_words_are_a_weak_term),
        cmocka_unit_test(test_util_that_follows_load_leans_inference),
        cmocka_unit_test(test_job_structure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
