/*
 * classify_decide.c: the verdict on a series as a sum of evidence, each a
 * log-odds of training with its reason: the GPU class of its instance
 * type, the shape of its demand (a fitted model), its job structure, its
 * gpu_util, the words in its labels; then training, inference or unknown,
 * and whether it may go to spot.  docs/classify.md says where each size
 * comes from; bench/classify/ measures the whole.
 */
#include "classify_internal.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

const char *const gp_evidence_names[GP_N_EVIDENCE] = {
    "prior", "shape", "jobs", "utilization", "labels", "interruptible"};

/* The logistic function: log-odds to probability. */
static double logistic(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

/* x clamped to [lo, hi]; NAN becomes `otherwise`. */
static double clamp_or(double x, double lo, double hi, double otherwise)
{
    if (!isfinite(x))
        return otherwise;
    return x < lo ? lo : (x > hi ? hi : x);
}

/*
 * The model's inputs, in the order of the coefficients below.  Features
 * that could not be computed count as 0 (on-period length as 1 hour), as
 * bench/classify/fit.py does when it fits them.  `n` is 7 for the
 * short-series model, 11 for the full one.
 */
#define N_SHORT 8
#define N_FULL 11
static void model_inputs(const gp_classify_features *f, double *x, size_t n)
{
    x[0] = 1.0;
    x[1] = log(clamp_or(f->cv, 0, INFINITY, 0) + 0.01);
    x[2] = clamp_or(f->roughness, 0, INFINITY, 0);
    x[3] = log(x[2] + 0.01);
    x[4] = clamp_or(f->skewness, -5, 5, 0);
    x[5] = clamp_or(f->trough, -INFINITY, 1, 0);
    x[6] = clamp_or(f->duty_cycle, 0, 1, 0);
    x[7] = log(clamp_or(f->mean_on_run_h, 1, 168, 1)) / log(168.0);
    if (n < N_FULL)
        return;
    x[8] = clamp_or(f->acf_half_day, -1, 1, 0);
    x[9] = isfinite(f->acf_daily) && isfinite(f->acf_half_day)
               ? f->acf_daily - f->acf_half_day
               : 0;
    x[10] = clamp_or(f->daily_strength, 0, 1, 0);
}

/*
 * The shape models, log-odds of training, fitted by bench/classify/fit.py
 * (L2-penalised IRLS, lambda 1, every source and both labels weighted
 * equally, the other evidence as an offset) on the 1,170 series of
 * bench/classify/make_eval.py: Helios, Philly, ServeGen, Azure LLM, their
 * mixtures and synthetic hard cases.  Left out one source at a time the
 * whole verdict is right on 92.1% of series, 95.5% of those it does not
 * call unknown, and never wrong at 0.9 or more (bench/README.md).
 *
 * What the signs say: training demand is a queue of long jobs, so it
 * changes little from one hour to the next (roughness, -); serving demand
 * follows requests: spiky above a floor (skewness, -), with a daily rhythm
 * where it has one (acf_half_day, acf_daily - acf_half_day, -).
 *
 * Inputs: 1, log(cv + 0.01), roughness, log(roughness + 0.01), skewness
 * (clamped to +-5), trough (at most 1), duty cycle, log(mean on-period
 * hours, 1..168) / log 168; then for the full model acf_half_day,
 * acf_daily - acf_half_day, daily_strength.
 */
static const double full_beta[N_FULL] = {
    0.0375, -1.0544, -1.4909, -2.1920, -0.4889, 0.0548,
    -1.5339, -2.4886, -1.6614, -0.8030, -0.0819};
static const double short_beta[N_SHORT] = {
    -1.2336, -1.1957, -0.8673, -1.8493, -0.3175, 0.1413, -0.9174, -0.8700};


/* Series with fewer hours of span than this have no shape to speak of. */
#define MIN_SHAPE_HOURS 6

/* The most a short series' shape says either way: logit(0.6).  A long
 * series' shape says at most logit(0.92): no one source of evidence is
 * sure on its own (steady serving can look like a training queue). */
#define SHORT_MAX_LOG_ODDS 0.405
#define SHAPE_MAX_LOG_ODDS 2.5

/* The shape evidence: the fitted model, tapered off on flat series. */
double gp_classify_shape(const gp_classify_features *f, bool *is_short)
{
    double x[N_FULL], z = 0;

    *is_short = !(f->span_hours >= GP_CLASSIFY_MIN_HOURS);
    if (!(f->span_hours >= MIN_SHAPE_HOURS) || !(f->shape_weight > 0))
        return 0;
    const double *beta = *is_short ? short_beta : full_beta;
    size_t n = *is_short ? N_SHORT : N_FULL;
    model_inputs(f, x, n);
    for (size_t i = 0; i < n; i++)
        z += beta[i] * x[i];
    double cap = *is_short ? SHORT_MAX_LOG_ODDS : SHAPE_MAX_LOG_ODDS;
    z = z > cap ? cap : (z < -cap ? -cap : z);
    return z * f->shape_weight;
}

/* ---- the stated terms (docs/classify.md, "Evidence") ---- */

/* The GPU-class prior: 8-GPU NVLink/HBM training nodes lean training,
 * 1-GPU inference parts lean inference; odds of about 3.3 to 1 either
 * way, stated, not fitted. */
#define PRIOR_LOG_ODDS 1.2
static const char *const training_parts[] = {"A100", "H100", "H200", "B200",
                                             "GB200", "MI300X", NULL};
static const char *const inference_parts[] = {
    "T4", "A10G", "A10", "L4", "L40S", "L40", "Inferentia", "Inferentia2",
    "T4G", NULL};

/* Whether gpu_model names one of parts[] (compared up to a '-' suffix
 * such as "-40GB", without case). */
static bool part_in(const char *model, const char *const *parts)
{
    size_t n = strcspn(model, "-");
    for (size_t i = 0; parts[i]; i++)
        if (strlen(parts[i]) == n && strncasecmp(model, parts[i], n) == 0)
            return true;
    return false;
}

/* The prior of an instance type: the scenario's override for the type's
 * name, else for its GPU model, else the built-in class. */
static double prior_of(const gp_instance_type *type,
                       const gp_classify_options *o)
{
    for (size_t i = 0; i < o->n_priors; i++)
        if (strcasecmp(o->priors[i].key, type->name) == 0)
            return o->priors[i].log_odds;
    for (size_t i = 0; type->gpu_model && i < o->n_priors; i++)
        if (strcasecmp(o->priors[i].key, type->gpu_model) == 0)
            return o->priors[i].log_odds;
    if (!type->gpu_model)
        return 0;
    if (type->gpus >= 8 && part_in(type->gpu_model, training_parts))
        return PRIOR_LOG_ODDS;
    if (type->gpus == 1 && part_in(type->gpu_model, inference_parts))
        return -PRIOR_LOG_ODDS;
    return 0;
}

/* Job structure, with 3 runs or more: replicas that live as long as the
 * series (half its run hours or more) lean inference; gang-scheduled runs
 * (a median of 2 instances or more) that end lean training. */
#define JOBS_LOG_ODDS 0.8
static double jobs_term(const gp_classify_features *f)
{
    if (f->n_runs < 3)
        return 0;
    if (f->replica_share >= 0.5)
        return -JOBS_LOG_ODDS;
    if (f->median_gang >= 2)
        return JOBS_LOG_ODDS;
    return 0;
}

/* gpu_util, with a day of it or more: training runs high and flat
 * (median 70% or more, 10th to 90th percentile within a quarter of it);
 * serving follows load (a spread of half the median or more) or idles
 * (a median under 40%). */
#define UTIL_LOG_ODDS 1.5
static double util_term(const gp_classify_features *f)
{
    if (!(f->util_hours >= 24))
        return 0;
    if (f->util_median >= 70 && f->util_spread <= 0.25)
        return UTIL_LOG_ODDS;
    if (f->util_spread >= 0.5)
        return -UTIL_LOG_ODDS;
    if (f->util_median < 40)
        return -UTIL_LOG_ODDS / 2;
    return 0;
}

/* Words that name the kind of work, as the start of a word of a label. */
static const char *const training_words[] = {
    "train", "pretrain", "finetun", "fine-tun", "sft", "rlhf", "sweep",
    "eval", "experiment", "research", "hpo", NULL};
static const char *const inference_words[] = {
    "serv", "infer", "endpoint", "api", "prod", "online", "deploy",
    "predict", NULL};

/* Bit 1 when a word of `label` starts with one of training_words, bit 2
 * for inference_words.  Words are runs of letters and digits. */
static unsigned label_words(const char *label)
{
    unsigned found = 0;

    for (const char *p = label; p && *p;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        const char *w = p;
        while (*p && isalnum((unsigned char)*p))
            p++;
        for (size_t i = 0; training_words[i]; i++)
            if (strncasecmp(w, training_words[i],
                            strlen(training_words[i])) == 0)
                found |= 1;
        for (size_t i = 0; inference_words[i]; i++)
            if (strncasecmp(w, inference_words[i],
                            strlen(inference_words[i])) == 0)
                found |= 2;
    }
    return found;
}

/* Label text, a weak term: team and project, and the job ids of up to
 * 64 of its runs; one side only. */
#define LABELS_LOG_ODDS 0.6
static double labels_term(const gp_trace *t, size_t s,
                          const gp_classify_scratch *w)
{
    const gp_series *ser = &t->series[s];
    unsigned found = 0;

    if (ser->team >= 0)
        found |= label_words(t->labels[ser->team]);
    if (ser->project >= 0)
        found |= label_words(t->labels[ser->project]);
    for (size_t k = w->at[s]; k < w->at[s + 1] && k < w->at[s] + 64; k++) {
        const gp_job_run *jr = &t->runs[w->run[k]];
        if (jr->job >= 0)
            found |= label_words(t->labels[jr->job]);
    }
    return found == 1 ? LABELS_LOG_ODDS
                      : (found == 2 ? -LABELS_LOG_ODDS : 0);
}

/* The log-odds an unlabelled series gains when its rows said
 * interruptible=true: the SPEC makes that the training default, so a user
 * who wrote it said as much.  Set by hand (odds x e^2, about 7). */
#define INTERRUPTIBLE_LOG_ODDS 2.0

/* Every term but the shape. */
void gp_classify_evidence(const gp_trace *t, size_t s,
                          const gp_classify_scratch *w,
                          const gp_classify_features *f,
                          const gp_classify_options *o, double *ev)
{
    const gp_series *ser = &t->series[s];

    ev[GP_EV_PRIOR] = prior_of(t->pools[ser->pool].type, o);
    ev[GP_EV_JOBS] = jobs_term(f);
    ev[GP_EV_UTIL] = util_term(f);
    ev[GP_EV_LABELS] = labels_term(t, s, w);
    /* only an unlabelled row's flag is what the user said: a training
     * row's may be the SPEC's default */
    ev[GP_EV_INTERRUPTIBLE] =
        ser->interruptible && ser->workload == GP_UNLABELED
            ? INTERRUPTIBLE_LOG_ODDS
            : 0;
}

/* Sums the evidence into the verdict. */
void gp_classify_verdict(gp_series_class *v, const gp_classify_options *o)
{
    double z = 0;

    for (int k = 0; k < GP_N_EVIDENCE; k++)
        z += v->evidence[k];
    v->score = z;
    /* a tie goes to inference, the cheaper mistake */
    v->label = z > 0 ? GP_TRAINING : GP_INFERENCE;
    v->confidence = logistic(fabs(z));
    v->unknown = v->confidence < GP_CLASSIFY_UNKNOWN_BELOW;
    v->to_spot = v->label == GP_TRAINING && !v->unknown &&
                 v->confidence >= o->spot_confidence;
}

const char *gp_classify_label_name(const gp_series_class *v)
{
    if (v->decided && v->unknown)
        return "unknown";
    return gp_workload_name(v->label);
}

void gp_classify_options_init(gp_classify_options *o)
{
    memset(o, 0, sizeof *o);
    o->spot_confidence = GP_SPOT_CONFIDENCE;
}

/* One series' verdict: its features and evidence when it is decided,
 * else its loaded label kept, with no feature pass at all. */
static void classify_one(const gp_trace *t, size_t s, gp_classify_scratch *w,
                         const gp_classify_options *o, gp_series_class *v)
{
    const gp_series *ser = &t->series[s];

    v->series = (uint32_t)s;
    v->pool = ser->pool;
    v->team = ser->team;
    v->project = ser->project;
    v->interruptible = ser->interruptible;
    v->loaded = ser->workload;
    v->decided = o->relabel || ser->workload == GP_UNLABELED;
    v->billed_interruptible = ser->interruptible;
    if (!v->decided) {
        /* a labelled series is not looked at: its features would be
         * computed only to be thrown away */
        gp_classify_features_clear(&v->f);
        v->label = ser->workload;
        v->confidence = 1.0;
        return;
    }
    gp_classify_features_at(t, s, w, &v->f);
    gp_classify_evidence(t, s, w, &v->f, o, v->evidence);
    v->evidence[GP_EV_SHAPE] = gp_classify_shape(&v->f, &v->short_series);
    gp_classify_verdict(v, o);
    if (v->to_spot && !ser->said_not_interruptible)
        v->billed_interruptible = true;
}

/* Adds a decided verdict to the totals. */
static void count(gp_classification *c, const gp_series_class *v)
{
    if (v->unknown) {
        c->n_unknown++;
        c->unknown_hours += v->f.instance_hours;
    } else {
        c->n_decided[v->label]++;
        c->decided_hours[v->label] += v->f.instance_hours;
    }
    c->n_changed += v->loaded != GP_UNLABELED &&
                    v->loaded != gp_classify_planned(v);
    c->n_short += v->short_series;
    c->n_planned_inference +=
        v->label == GP_TRAINING && !v->unknown && !v->to_spot;
}

/* Classifies every series: features and evidence, then the verdict, then
 * the totals. */
gp_status gp_classify_with(const gp_trace *t, const gp_classify_options *o,
                           gp_classification **out, gp_error *err)
{
    gp_classification *c = gp_calloc(1, sizeof *c);
    gp_classify_scratch w;
    bool ok = gp_classify_scratch_init(t, &w);

    *out = NULL;
    if (!c || !ok ||
        (t->n_series &&
         !(c->series = gp_calloc(t->n_series, sizeof *c->series)))) {
        gp_free(c);
        gp_classify_scratch_free(&w);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    c->n_series = t->n_series;
    c->relabel = o->relabel;
    c->spot_confidence = o->spot_confidence;
    c->worth = NAN;
    for (size_t s = 0; s < t->n_series; s++) {
        classify_one(t, s, &w, o, &c->series[s]);
        if (c->series[s].decided)
            count(c, &c->series[s]);
    }
    gp_classify_scratch_free(&w);
    *out = c;
    return GP_OK;
}

gp_status gp_classify(const gp_trace *t, bool relabel,
                      gp_classification **out, gp_error *err)
{
    gp_classify_options o;

    gp_classify_options_init(&o);
    o.relabel = relabel;
    return gp_classify_with(t, &o, out, err);
}

void gp_classification_unknown_note(const gp_classification *c, char *buf,
                                    size_t size)
{
    char unk[32];

    buf[0] = '\0';
    if (!c->n_unknown)
        return;
    gp_format_small(c->unknown_hours, "0.0", unk, sizeof unk);
    snprintf(buf, size, ", %zu unknown (%s, billed as inference)",
             c->n_unknown, unk);
}

/* The one-line warning for the reports, when anything was decided. */
void gp_classification_warn(const gp_classification *c, gp_warnings *w)
{
    size_t n = c->n_decided[0] + c->n_decided[1] + c->n_unknown;

    if (n == 0)
        return;
    /* the hours of a short trace (a few minutes) never read "0.0" */
    char all[32], train[32], infer[32], unknown[96];
    char under[160] = "", worth[160] = "", money[48];
    gp_format_small(c->decided_hours[0] + c->decided_hours[1] +
                        c->unknown_hours,
                    "0.0", all, sizeof all);
    gp_format_small(c->decided_hours[0], "0.0", train, sizeof train);
    gp_format_small(c->decided_hours[1], "0.0", infer, sizeof infer);
    gp_classification_unknown_note(c, unknown, sizeof unknown);
    if (c->n_planned_inference)
        snprintf(under, sizeof under,
                 "; %zu training below " GP_PARAM_TEXT("spot-confidence")
                 " %g, billed as inference",
                 c->n_planned_inference, c->spot_confidence);
    if (c->worth_series && c->worth >= 0.005) {
        gp_format_money(c->worth, money, sizeof money);
        if (c->worth_series == 1)
            snprintf(worth, sizeof worth,
                     "; label that series training to save %s on spot",
                     money);
        else
            snprintf(worth, sizeof worth,
                     "; label these %zu series training to save %s on spot",
                     c->worth_series, money);
    }
    gp_warnings_add(w,
                    "classified %zu series (%s instance-hours) as "
                    "training/inference: %zu training (%s), %zu inference "
                    "(%s)%s%s%s%s; see gpuplan classify",
                    n, all, c->n_decided[0], train, c->n_decided[1], infer,
                    unknown, under, worth,
                    c->n_short ? ", some from under two days of data" : "");
}

/* Frees a classification; NULL is fine. */
void gp_classification_free(gp_classification *c)
{
    if (!c)
        return;
    gp_free(c->series);
    gp_free(c);
}
