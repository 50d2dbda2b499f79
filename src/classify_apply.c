/*
 * classify_apply.c: the verdicts written into the trace (classify.h,
 * gp_classify_apply): series relabelled, put back in the trace's order
 * and merged where their keys became equal.
 */
#include "classify.h"

#include <stdlib.h>

/* The trace whose labels series_order compares (qsort has no context);
 * thread-local, so two threads classifying at once do not mix traces. */
static _Thread_local const gp_trace *order_trace;

/* Orders series indices as the trace loader orders series
 * (gp_series_cmp); then label and series index, so that equal keys are
 * neighbours and the order is total. */
static int series_order(const void *pa, const void *pb)
{
    uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
    const gp_series *x = &order_trace->series[ia];
    const gp_series *y = &order_trace->series[ib];
    int c = gp_series_cmp(order_trace, x, y);
    if (c)
        return c;
    if (x->team != y->team)
        return x->team < y->team ? -1 : 1;
    if (x->project != y->project)
        return x->project < y->project ? -1 : 1;
    return ia < ib ? -1 : (ia > ib ? 1 : 0);
}

/* Whether two series have the same key. */
static bool same_key(const gp_series *x, const gp_series *y)
{
    return x->pool == y->pool && x->workload == y->workload &&
           x->interruptible == y->interruptible && x->team == y->team &&
           x->project == y->project;
}

/* The new order of a trace's series while gp_classify_apply builds it;
 * all of it allocated before the trace changes. */
struct reorder {
    size_t n;            /* series before merging */
    gp_series *sorted;   /* the series in the new order, merged in place */
    uint32_t *where;     /* old index -> new index */
    uint32_t *merged_into; /* sorted position -> index after merging */
};

/* Gives each decided series its new workload and moves its
 * instance-hours between the trace's totals by workload. */
static void move_labels(gp_trace *t, const gp_classification *c)
{
    size_t n = t->n_series;
    bool unlabeled_moved = false;

    for (size_t s = 0; s < n; s++) {
        gp_series *ser = &t->series[c->series[s].series];
        gp_workload to = gp_classify_planned(&c->series[s]);
        if (!c->series[s].decided)
            continue;
        /* training sure enough for spot takes training's default,
         * interruptible, unless its rows said otherwise */
        if (c->series[s].to_spot && !ser->said_not_interruptible)
            ser->interruptible = true;
        if (ser->workload == to)
            continue;
        double moved = 0;
        for (size_t h = 0; h < t->n_hours; h++)
            moved += ser->instance_hours[h];
        unlabeled_moved |= ser->workload == GP_UNLABELED;
        t->instance_hours[ser->workload] -= moved;
        t->instance_hours[to] += moved;
        ser->workload = to;
    }
    /* What is left unlabelled is summed again from the series that still
     * are, not left as the rows' total less what moved: the two sums add
     * the same hours in another order, and their difference (1e-17 when
     * every series moved) read as "0 instance-hours had no workload
     * label". */
    if (unlabeled_moved) {
        double left = 0;
        for (size_t s = 0; s < n; s++)
            if (t->series[s].workload == GP_UNLABELED)
                for (size_t h = 0; h < t->n_hours; h++)
                    left += t->series[s].instance_hours[h];
        t->instance_hours[GP_UNLABELED] = left;
    }
}

/* Sorts the series into r->sorted (series_order) and records where each
 * old index went in r->where. */
static void sort_series(const gp_trace *t, struct reorder *r)
{
    /* sort the indices (merged_into holds them for now), then place */
    for (size_t i = 0; i < r->n; i++)
        r->merged_into[i] = (uint32_t)i;
    order_trace = t;
    qsort(r->merged_into, r->n, sizeof *r->merged_into, series_order);
    for (size_t j = 0; j < r->n; j++) {
        r->sorted[j] = t->series[r->merged_into[j]];
        r->where[r->merged_into[j]] = (uint32_t)j;
    }
}

/* Merges neighbours of r->sorted with equal keys into the first of them
 * (the others' hourly arrays are added in and freed) and returns how many
 * series are left; r->merged_into maps each sorted position to its
 * series after merging. */
static size_t merge_equal_keys(const gp_trace *t, struct reorder *r)
{
    gp_series *sorted = r->sorted;
    size_t kept = 0;

    for (size_t j = 0; j < r->n; j++) {
        if (kept > 0 && same_key(&sorted[kept - 1], &sorted[j])) {
            gp_series *into = &sorted[kept - 1];
            for (size_t h = 0; h < t->n_hours; h++) {
                into->instance_hours[h] += sorted[j].instance_hours[h];
                into->useful_gpu_hours[h] += sorted[j].useful_gpu_hours[h];
                into->util_gpu_hours[h] += sorted[j].util_gpu_hours[h];
            }
            gp_free(sorted[j].instance_hours);
            gp_free(sorted[j].useful_gpu_hours);
            gp_free(sorted[j].util_gpu_hours);
            into->job_util |= sorted[j].job_util;
            into->said_not_interruptible |= sorted[j].said_not_interruptible;
            /* the earlier start of demand (0: none, or not known) */
            if (sorted[j].start_s > 0 &&
                (into->start_s == 0 || sorted[j].start_s < into->start_s))
                into->start_s = sorted[j].start_s;
        } else {
            sorted[kept++] = sorted[j];
        }
        r->merged_into[j] = (uint32_t)(kept - 1);
    }
    return kept;
}

/* Points the trace's job runs, low-utilisation spans and c's verdicts at
 * their series' new indices. */
static void renumber(gp_trace *t, gp_classification *c, struct reorder *r)
{
    for (size_t i = 0; i < r->n; i++)
        r->where[i] = r->merged_into[r->where[i]];
    for (size_t i = 0; i < t->n_runs; i++)
        t->runs[i].series = r->where[t->runs[i].series];
    for (size_t i = 0; i < t->n_low_util; i++)
        t->low_util[i].series = r->where[t->low_util[i].series];
    for (size_t s = 0; s < r->n; s++)
        c->series[s].series = r->where[c->series[s].series];
}

/* Relabels, re-sorts and merges the trace's series in place; everything
 * it needs is allocated first, so on failure the trace is unchanged. */
gp_status gp_classify_apply(gp_trace *t, gp_classification *c,
                            gp_error *err)
{
    struct reorder r;

    r.n = t->n_series;
    if (c->n_series != r.n) {
        gp_error_set(err, NULL, 0, 0, NULL,
                     "classification of %zu series applied to a trace of "
                     "%zu",
                     c->n_series, r.n);
        return GP_ERR_INPUT;
    }
    if (r.n == 0)
        return GP_OK;
    /* everything allocated before anything changes: on failure the trace
     * is as it was */
    r.sorted = gp_malloc(r.n * sizeof *r.sorted);
    r.where = gp_malloc(r.n * sizeof *r.where);
    r.merged_into = gp_malloc(r.n * sizeof *r.merged_into);
    if (!r.sorted || !r.where || !r.merged_into) {
        gp_free(r.sorted);
        gp_free(r.where);
        gp_free(r.merged_into);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    move_labels(t, c);
    sort_series(t, &r);
    size_t kept = merge_equal_keys(t, &r);
    renumber(t, c, &r);
    gp_free(t->series);
    t->series = r.sorted;
    t->n_series = kept;
    gp_free(r.where);
    gp_free(r.merged_into);
    return GP_OK;
}

/* Classify, then relabel in place. */
gp_status gp_classify_trace_with(gp_trace *t, const gp_classify_options *o,
                                 gp_classification **out, gp_error *err)
{
    gp_classification *c;
    gp_status st = gp_classify_with(t, o, &c, err);

    if (out)
        *out = NULL;
    if (st != GP_OK)
        return st;
    st = gp_classify_apply(t, c, err);
    if (st != GP_OK || !out)
        gp_classification_free(c);
    else
        *out = c;
    return st;
}

gp_status gp_classify_trace(gp_trace *t, bool relabel,
                            gp_classification **out, gp_error *err)
{
    gp_classify_options o;

    gp_classify_options_init(&o);
    o.relabel = relabel;
    return gp_classify_trace_with(t, &o, out, err);
}
