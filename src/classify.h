/*
 * classify.h: labels unlabelled usage as training or inference from the
 * shape of its demand (issue #7, `gpuplan classify`).  Each series of a
 * trace is classified on its own from scale-free features of its hourly
 * demand; labels read from the trace are kept unless `relabel`.
 * docs/design/classify.md has the features, the rule and the confidence;
 * bench/classify/ measures it on the shared real traces.
 *
 * Library code: never prints; errors go to the caller's gp_error.
 */
#ifndef GP_CLASSIFY_H
#define GP_CLASSIFY_H

#include "gpuplan.h"

#include <stdio.h>

/* Series with fewer hours than this between their first and last hour of
 * demand are classified by the short-series fallback (two days: the least
 * that shows a daily cycle twice). */
#define GP_CLASSIFY_MIN_HOURS 48

/* Classified usage is launched on spot only when it is training at this
 * confidence or more (SPEC 7.1, `spot-confidence`); below it, and for
 * `unknown`, it is planned as inference. */
#define GP_SPOT_CONFIDENCE 0.9

/* A verdict less sure than this is `unknown`: the evidence is weak. */
#define GP_CLASSIFY_UNKNOWN_BELOW 0.7

/* The sources of evidence a verdict adds up, each a log-odds of training
 * (docs/classify.md says where each size comes from). */
typedef enum gp_evidence {
    GP_EV_PRIOR,         /* the GPU class of the instance type */
    GP_EV_SHAPE,         /* the shape of hourly demand (fitted model) */
    GP_EV_JOBS,          /* job structure: finite gang runs vs replicas */
    GP_EV_UTIL,          /* gpu_util: high and flat vs following load */
    GP_EV_LABELS,        /* words in team, project and job_id */
    GP_EV_INTERRUPTIBLE, /* unlabelled rows that said interruptible=true */
    GP_N_EVIDENCE
} gp_evidence;

/* "prior", "shape", "jobs", "utilization", "labels", "interruptible". */
extern const char *const gp_evidence_names[GP_N_EVIDENCE];

/* How a trace is classified. */
typedef struct gp_classify_options {
    bool relabel;           /* reconsider loaded labels too */
    double spot_confidence; /* GP_SPOT_CONFIDENCE unless the user says */
    /* the scenario's overrides of the GPU-class prior, or none */
    const gp_classify_prior *priors;
    size_t n_priors;
} gp_classify_options;

/* Defaults: no relabelling, GP_SPOT_CONFIDENCE, the built-in priors. */
void gp_classify_options_init(gp_classify_options *o);

/* The features one decision rests on.  Values that cannot be computed
 * (too short a span, no variance, no gpu_util, no job runs) are NAN. */
typedef struct gp_classify_features {
    double span_hours;     /* first to last hour with demand, inclusive */
    double instance_hours; /* total over the span */
    double duty_cycle;     /* fraction of span hours with demand > 0 */
    double cv;             /* std / mean of hourly demand over the span */
    double trough;         /* 5th percentile / mean: how far demand falls */
    double roughness;      /* mean |x[h+1] - x[h]| / std: jumps vs drift */
    double skewness;       /* of hourly demand: peaks above a floor (> 0)
                              or dips below a ceiling (< 0) */
    double acf_daily;      /* autocorrelation at lag 24 */
    double acf_half_day;   /* ... at lag 12 (a daily cycle makes it low) */
    double acf_weekly;     /* ... at lag 168, NAN under two weeks */
    double daily_strength; /* share of detrended variance explained by
                              the hour-of-day profile, 0..1 */
    double mean_on_run_h;  /* mean length of runs of hours with demand */
    double mean_util;      /* mean gpu_util percent, NAN without one */
    size_t n_runs;         /* job runs of the series */
    double median_run_h;   /* median job-run length, NAN without runs */
    /* robustness: shape features are computed on the series winsorised
     * at its 2nd and 98th percentiles, so no single hour decides them;
     * `shape_weight` (0..1) tapers the shape evidence off below a cv of
     * 0.05 and to none under 0.02 (a flat series has no shape) */
    double shape_weight;
    double util_hours;     /* hours with a gpu_util */
    double util_median;    /* median hourly gpu_util percent, NAN */
    double util_spread;    /* (90th - 10th percentile) / median, NAN */
    double median_gang;    /* median peak instances of a job run, NAN */
    double replica_share;  /* share of run instance-hours in runs that
                              span 90% of the series or more, NAN */
} gp_classify_features;

/* The verdict on one series. */
typedef struct gp_series_class {
    uint32_t series;    /* index into the trace's series as classified */
    uint32_t pool;      /* the series' key, copied so it outlives a */
    int32_t team;       /* relabelling that merges or reorders series */
    int32_t project;
    bool interruptible;
    gp_workload loaded; /* the label read from the trace */
    gp_workload label;  /* training or inference: the side the evidence
                           leans to (planned as inference unless
                           `to_spot` or kept) */
    double confidence;  /* 0.5..1; 1 when the loaded label was kept */
    bool unknown;       /* decided, but confidence under
                           GP_CLASSIFY_UNKNOWN_BELOW */
    bool to_spot;       /* decided training at the spot confidence or more:
                           billed as training, interruptible unless its
                           rows said false */
    bool billed_interruptible; /* the flag it is billed with */
    double evidence[GP_N_EVIDENCE]; /* log-odds of training, by source */
    bool decided;       /* classify chose the label (unlabelled or
                           relabel) rather than keeping the loaded one */
    bool short_series;  /* decided by the short-series fallback */
    double score;       /* the rule's log-odds of training */
    gp_classify_features f;
} gp_series_class;

/* The verdicts on every series of a trace, in the trace's series order
 * at the time of classification. */
typedef struct gp_classification {
    gp_series_class *series;
    size_t n_series;
    bool relabel; /* loaded labels were reconsidered too */
    /* totals over the decided series, by the label chosen (unknown ones
     * apart) */
    size_t n_decided[2];          /* training, inference */
    double decided_hours[2];      /* their instance-hours */
    size_t n_changed;             /* decided to differ from a loaded label */
    size_t n_short;               /* decided by the short-series fallback */
    size_t n_unknown;             /* decided, but too unsure to say; not
                                     in n_decided */
    double unknown_hours;
    size_t n_planned_inference;   /* leaning training, planned as
                                     inference (under the spot confidence) */
    double spot_confidence;       /* what it was decided with */
    /* what labelling the held-back series training would save on spot
     * (gp_classification_worth): how many verdicts, and the money (NAN
     * until worked out) */
    size_t worth_series;
    double worth;
} gp_classification;

/* Computes the features of series `s` of trace `t` (GP_ERR_NOMEM when
 * its scratch space cannot be had). */
gp_status gp_classify_features_of(const gp_trace *t, size_t s,
                                  gp_classify_features *f);

/* The shape evidence of features f: the fitted model's log-odds of
 * training, tapered by f->shape_weight, 0 under 6 hours of span; sets
 * *is_short when the short-series model decided (its evidence is held
 * within +-0.405, a confidence of 0.6 on its own). */
double gp_classify_shape(const gp_classify_features *f, bool *is_short);

/* The verdict from the evidence: label, confidence and unknown, to_spot
 * from o->spot_confidence (v->evidence and v->interruptible filled). */
void gp_classify_verdict(gp_series_class *v, const gp_classify_options *o);

/* The name a verdict is shown by: "training", "inference" or "unknown"
 * (a kept label by its name). */
const char *gp_classify_label_name(const gp_series_class *v);

/* The workload a verdict is billed as: a kept label as it is; a decided
 * one as training only when it may go to spot, else as inference. */
static inline gp_workload gp_classify_planned(const gp_series_class *v)
{
    if (!v->decided)
        return v->label;
    return v->to_spot ? GP_TRAINING : GP_INFERENCE;
}

/* Classifies every series of `t` without changing it: unlabelled series
 * always, labelled ones too when `relabel` (then `decided` is set for
 * every series).  Returns a new classification in *out (NULL on
 * failure). */
gp_status gp_classify_with(const gp_trace *t, const gp_classify_options *o,
                           gp_classification **out, gp_error *err);
/* The same with the default options, relabelling when `relabel`. */
gp_status gp_classify(const gp_trace *t, bool relabel,
                      gp_classification **out, gp_error *err);

/* Writes the decided labels into `t` in place: series take the workload
 * they are billed as (gp_classify_planned), series whose keys become
 * equal are merged (demand added, job runs pointed at the merged series),
 * series are put back in the trace's order (pool, workload, team,
 * project, interruptible) and the trace's instance-hours by workload are
 * moved.  Training at the spot confidence or more becomes interruptible,
 * as labelled training is by default, unless a row said false; any other
 * series keeps its flag.  `c` must come from gp_classify on
 * this trace; its `series` indices are updated to the new order.  Call it
 * before the trace is shared as const. */
gp_status gp_classify_apply(gp_trace *t, gp_classification *c,
                            gp_error *err);

/* gp_classify then gp_classify_apply: what simulate, recommend and
 * forecast do first.  *out may be NULL when the caller does not want the
 * verdicts.  Typical use:
 *
 *   gp_classification *c;
 *   if (gp_classify_trace(trace, false, &c, &err) != GP_OK) ...
 *   gp_classification_warn(c, &warnings);  // "classified 3 series ..."
 *   ... bill the trace, now without GP_UNLABELED series ...
 *   gp_classification_free(c);
 */
gp_status gp_classify_trace_with(gp_trace *t, const gp_classify_options *o,
                                 gp_classification **out, gp_error *err);
gp_status gp_classify_trace(gp_trace *t, bool relabel,
                            gp_classification **out, gp_error *err);

/* ", N unknown (H, billed as inference)" when any verdict was unknown,
 * else "": how the warning and classify's summary say it. */
void gp_classification_unknown_note(const gp_classification *c, char *buf,
                                    size_t size);

/* Adds "classified N series (M instance-hours) as training/inference
 * (...); see gpuplan classify" to w when any series was decided. */
void gp_classification_warn(const gp_classification *c, gp_warnings *w);

/*
 * Writes CSV trace texts again, labelled (classify's labelled copy): a header that
 * is the union of the texts' headers (names compared without case), plus
 * `workload` and `workload_confidence` when absent, then every data row of
 * every text, in order, once.  A row that names no workload (or every row,
 * when c->relabel) gets its series' label and confidence ("0.734"); the
 * others keep their text and confidence 1.  Other fields are written as
 * read, quoted only where they must be.  `t` is the trace the texts were
 * loaded into with options `opt`, before any gp_classify_apply, and `c` is
 * gp_classify's verdict on it.  A row whose series is not in `t` is an
 * error (the text is not what was loaded).
 */
gp_status gp_classify_write_labeled(FILE *f, const gp_trace *t,
                                    const gp_pricing *pricing,
                                    const gp_trace_options *opt,
                                    const gp_classification *c,
                                    size_t n_texts,
                                    const char *const *sources,
                                    const char *const *texts,
                                    const size_t *lens, gp_error *err);

/* Works out c->worth and c->worth_series on `t` as gp_classify_apply left
 * it: the baseline strategy of s (by `eo`) with training launched on spot,
 * billed as classified and again with every series whose verdicts all
 * lean training but were held back from spot labelled training,
 * interruptible unless its rows said false.  Two engine runs, or none
 * when nothing was held back. */
struct gp_engine_options;
gp_status gp_classification_worth(gp_classification *c, const gp_trace *t,
                                  const gp_pricing *p, const gp_scenario *s,
                                  const struct gp_engine_options *eo,
                                  gp_error *err);

void gp_classification_free(gp_classification *c);

#endif
