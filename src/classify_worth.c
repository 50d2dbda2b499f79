/*
 * classify_worth.c: what confirming a classification is worth: the series
 * that lean training but were held back from spot (unknown, or under the
 * spot confidence) are billed again as labelled training, interruptible,
 * with training launched on spot, and the difference is what labelling
 * them would save (issue #34: "label these 3 series training to save
 * $41,200 on spot").
 */
#include "classify.h"
#include "engine.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* Whether verdict v leans training but was billed as inference. */
static bool held_back(const gp_series_class *v)
{
    return v->decided && v->label == GP_TRAINING && !v->to_spot;
}

/* Marks in flip[] the series of t (after gp_classify_apply) whose every
 * verdict was held back: a series that also holds labelled or confirmed
 * usage is left as it is.  Returns how many verdicts it covers. */
static size_t mark(const gp_trace *t, const gp_classification *c,
                   unsigned char *flip)
{
    size_t n = 0;

    for (size_t s = 0; s < c->n_series; s++)
        if (c->series[s].series < t->n_series)
            flip[c->series[s].series] |= held_back(&c->series[s]) ? 1 : 2;
    for (size_t s = 0; s < c->n_series; s++)
        n += c->series[s].series < t->n_series &&
             flip[c->series[s].series] == 1;
    return n;
}

/* The baseline bill of `t` with training launched on spot. */
static gp_status bill(const gp_trace *t, const gp_pricing *p,
                      const gp_scenario *s, const gp_engine_options *eo,
                      double *cost, gp_error *err)
{
    gp_run_spec spec;
    gp_ledger *l = NULL;
    gp_status st = gp_run_spec_init(&spec, t, s, 0, eo, err);

    if (st != GP_OK)
        return st;
    spec.policy[GP_TRAINING].launch = GP_LAUNCH_SPOT;
    spec.progress.fn = NULL;
    if ((st = gp_engine_run(t, p, &spec, &l, err)) == GP_OK)
        *cost = l->total_cost;
    gp_ledger_free(l);
    return st;
}

gp_status gp_classification_worth(gp_classification *c, const gp_trace *t,
                                  const gp_pricing *p, const gp_scenario *s,
                                  const gp_engine_options *eo, gp_error *err)
{
    unsigned char *flip = gp_calloc(t->n_series + 1, 1);
    gp_series *series = gp_malloc((t->n_series + 1) * sizeof *series);
    gp_status st = GP_OK;

    c->worth_series = 0;
    c->worth = NAN;
    if (!flip || !series) {
        st = GP_ERR_NOMEM;
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        goto out;
    }
    c->worth_series = mark(t, c, flip);
    if (c->worth_series == 0)
        goto out;
    /* the same trace, its held-back series labelled training: a copy of
     * the series table sharing the hourly arrays */
    gp_trace confirmed = *t;
    memcpy(series, t->series, t->n_series * sizeof *series);
    for (size_t j = 0; j < t->n_series; j++)
        if (flip[j] == 1) {
            series[j].workload = GP_TRAINING;
            series[j].interruptible |= !series[j].said_not_interruptible;
        }
    confirmed.series = series;
    double as_billed = 0, as_labelled = 0;
    if ((st = bill(t, p, s, eo, &as_billed, err)) == GP_OK &&
        (st = bill(&confirmed, p, s, eo, &as_labelled, err)) == GP_OK)
        c->worth = as_billed - as_labelled;
out:
    gp_free(flip);
    gp_free(series);
    return st;
}
