/*
 * writer_json_classify.c: classification verdicts as JSON: the
 * "classified" block simulate, recommend and forecast add to `inputs`,
 * and classify's own document (SPEC 7.1: every series with its label,
 * confidence and evidence terms).  Formats only; classify.c decides.
 */
#include "classify.h"
#include "writers.h"

#include <string.h>

/* The features behind a decided verdict. */
static json_t *features_obj(const gp_classify_features *f)
{
    json_t *o = json_object();
    const struct {
        const char *key;
        double v;
    } num[] = {
        {"span_hours", f->span_hours},
        {"duty_cycle", f->duty_cycle},
        {"cv", f->cv},
        {"roughness", f->roughness},
        {"skewness", f->skewness},
        {"trough", f->trough},
        {"acf_daily", f->acf_daily},
        {"acf_half_day", f->acf_half_day},
        {"acf_weekly", f->acf_weekly},
        {"daily_strength", f->daily_strength},
        {"mean_on_run_hours", f->mean_on_run_h},
        {"mean_gpu_util", f->mean_util},
        {"median_job_run_hours", f->median_run_h},
        {"shape_weight", f->shape_weight},
        {"util_hours", f->util_hours},
        {"util_median", f->util_median},
        {"util_spread", f->util_spread},
        {"median_gang", f->median_gang},
        {"replica_share", f->replica_share},
    };
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) {
        json_object_set_new(o, num[i].key, gp_json_number_or_null(num[i].v));
        /* a count, not a number that may be unknown, after the
         * utilization as the document has always listed it */
        if (strcmp(num[i].key, "mean_gpu_util") == 0)
            json_object_set_new(o, "job_runs",
                                json_integer((json_int_t)f->n_runs));
    }
    return o;
}

/* [{"term", "log_odds"}...] of a decided verdict. */
static json_t *evidence_arr(const gp_series_class *v)
{
    json_t *arr = json_array();
    for (int k = 0; k < GP_N_EVIDENCE; k++)
        json_array_append_new(
            arr, json_pack("{s:s, s:o}", "term", gp_evidence_names[k],
                           "log_odds", gp_json_number_or_null(v->evidence[k])));
    return arr;
}

/* One series: its pool keys, label and confidence; for a decided one,
 * what it is billed as, its evidence and (with `features`) features. */
static json_t *series_obj(const gp_series_class *v, const gp_trace *t,
                          bool features)
{
    const gp_pool *p = &t->pools[v->pool];
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s?, s:s?, s:s, s:s, s:o, s:b}", "provider",
        p->catalog->provider, "region", p->catalog->region, "instance_type",
        p->type->name, "team", v->team >= 0 ? t->labels[v->team] : NULL,
        "project", v->project >= 0 ? t->labels[v->project] : NULL, "loaded",
        gp_workload_name(v->loaded), "workload", gp_classify_label_name(v),
        "confidence", gp_json_number_or_null(v->confidence), "decided",
        v->decided);
    if (!o || !v->decided)
        return o;
    json_object_set_new(o, "billed_as",
                        json_string(gp_workload_name(gp_classify_planned(v))));
    json_object_set_new(o, "interruptible",
                        json_boolean(v->billed_interruptible));
    json_object_set_new(o, "short_series", json_boolean(v->short_series));
    json_object_set_new(o, "score", gp_json_number_or_null(v->score));
    json_object_set_new(o, "instance_hours",
                        gp_json_number_or_null(v->f.instance_hours));
    json_object_set_new(o, "evidence", evidence_arr(v));
    if (features)
        json_object_set_new(o, "features", features_obj(&v->f));
    return o;
}

/* The "classified" JSON block: totals, then the decided series. */
json_t *gp_json_classification(const struct gp_classification *c,
                               const gp_trace *t)
{
    json_t *o = json_object();
    json_t *arr = json_array();

    json_object_set_new(o, "series",
                        json_integer((json_int_t)(c->n_decided[0] +
                                                  c->n_decided[1] +
                                                  c->n_unknown)));
    json_object_set_new(o, "relabel", json_boolean(c->relabel));
    json_object_set_new(o, "spot_confidence",
                        json_real(c->spot_confidence));
    for (int k = 0; k < 2; k++)
        json_object_set_new(
            o, k == 0 ? "training" : "inference",
            json_pack("{s:I, s:o}", "series", (json_int_t)c->n_decided[k],
                      "instance_hours",
                      gp_json_number_or_null(c->decided_hours[k])));
    json_object_set_new(o, "unknown",
                        json_pack("{s:I, s:o}", "series",
                                  (json_int_t)c->n_unknown, "instance_hours",
                                  gp_json_number_or_null(c->unknown_hours)));
    json_object_set_new(o, "training_billed_as_inference",
                        json_integer((json_int_t)c->n_planned_inference));
    json_object_set_new(
        o, "worth_confirming",
        json_pack("{s:I, s:o}", "series", (json_int_t)c->worth_series,
                  "savings", gp_json_number_or_null(c->worth)));
    json_object_set_new(o, "changed", json_integer((json_int_t)c->n_changed));
    json_object_set_new(o, "short_series",
                        json_integer((json_int_t)c->n_short));
    for (size_t s = 0; s < c->n_series; s++)
        if (c->series[s].decided)
            json_array_append_new(arr, series_obj(&c->series[s], t, true));
    json_object_set_new(o, "decided", arr);
    return o;
}

json_t *gp_json_classify(const gp_classification *c, const gp_trace *t)
{
    json_t *doc = json_object();
    json_t *all = json_array();

    for (size_t s = 0; s < c->n_series; s++)
        json_array_append_new(all, series_obj(&c->series[s], t, false));
    json_object_set_new(doc, "series", all);
    json_object_set_new(doc, "classified", gp_json_classification(c, t));
    return doc;
}
