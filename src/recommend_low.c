/*
 * recommend_low.c: the recommender's low-demand case: the window's
 * lowest-demand week (or day) repeated, or the forecast's P10 demand,
 * built and billed on a second thread while the balanced plan is solved.
 */
#include "recommend_internal.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* ---- the low-demand case ----------------------------------------------- */

/*
 * A copy of the trace over the window in which every series repeats the
 * window's lowest-demand week (by on-demand value), or its lowest day when
 * the window is shorter than two weeks.  Pools and labels are borrowed;
 * free with gp_rec_downside_free.  Job runs are left out: spot work in it is
 * priced by the expected-value formula.
 */

/* *out is NULL (and GP_OK) when the window is too short for the case;
 * GP_ERR_NOMEM when memory ran out, nothing left allocated. */
static gp_status downside_trace(const struct ctx *c, gp_trace **out)
{
    /* the forward parameter: the forecast's P10 over the whole window instead
     */
    const gp_trace *t = c->low ? c->low : c->trace;
    size_t block = c->low ? c->n_hours : (c->n_hours >= 2 * WEEK ? WEEK : 24);
    size_t n_blocks = c->n_hours / block;
    size_t best = 0;
    double best_value = INFINITY;
    gp_trace *d;

    *out = NULL;
    if (n_blocks == 0)
        return GP_OK;
    for (size_t b = 0; b < n_blocks; b++) {
        double v = 0;
        for (size_t i = 0; i < t->n_series; i++) {
            double od = t->pools[t->series[i].pool].type->on_demand;
            for (size_t h = b * block; h < (b + 1) * block; h++) {
                int64_t th = c->start_hour + (int64_t)h - t->start_hour;
                if (th >= 0 && th < (int64_t)t->n_hours)
                    v += t->series[i].instance_hours[th] * od;
            }
        }
        if (v < best_value) {
            best_value = v;
            best = b;
        }
    }
    d = gp_calloc(1, sizeof *d);
    if (!d)
        return GP_ERR_NOMEM;
    *d = *t;
    d->start_hour = c->start_hour;
    d->n_hours = c->n_hours;
    d->runs = NULL;
    d->n_runs = 0;
    d->run_hours = NULL;
    d->low_util = NULL; /* job idle spans are in the trace's own hours */
    d->n_low_util = 0;
    d->series = gp_calloc(t->n_series + 1, sizeof *d->series);
    if (!d->series) {
        gp_free(d);
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < t->n_series; i++) {
        gp_series *s = &d->series[i];
        *s = t->series[i];
        s->instance_hours = gp_calloc(c->n_hours + 1, sizeof(double));
        s->useful_gpu_hours = gp_calloc(c->n_hours + 1, sizeof(double));
        s->util_gpu_hours = gp_calloc(c->n_hours + 1, sizeof(double));
        if (!s->instance_hours || !s->useful_gpu_hours || !s->util_gpu_hours) {
            /* the series not yet reached hold NULL (calloc) */
            gp_rec_downside_free(d);
            return GP_ERR_NOMEM;
        }
        for (size_t h = 0; h < c->n_hours; h++) {
            int64_t th = c->start_hour + (int64_t)(best * block + h % block) -
                         t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            s->instance_hours[h] = t->series[i].instance_hours[th];
            s->useful_gpu_hours[h] = t->series[i].useful_gpu_hours[th];
            s->util_gpu_hours[h] = t->series[i].util_gpu_hours[th];
        }
    }
    *out = d;
    return GP_OK;
}

void gp_rec_downside_free(gp_trace *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n_series; i++) {
        gp_free(d->series[i].instance_hours);
        gp_free(d->series[i].useful_gpu_hours);
        gp_free(d->series[i].util_gpu_hours);
    }
    gp_free(d->series);
    gp_free(d);
}

static void *downside_run(void *arg)
{
    struct downside_job *j = arg;
    const struct ctx *c = j->c;

    gp_error_clear(&j->err);
    j->st = GP_OK;
    j->policy = j->base = NAN;
    j->st = downside_trace(c, &j->down);
    if (j->st != GP_OK) {
        gp_error_set(&j->err, NULL, 0, 0, NULL, "out of memory");
        return NULL;
    }
    if (!j->down)
        return NULL; /* the window is under a day: no case */
    struct ctx plain;
    gp_rec_ctx_copy(&plain, c);
    plain.spec.policy[0].launch = c->scenario->policy[0].launch;
    gp_ledger *l = NULL;
    j->st = gp_rec_bill(&plain, j->down, NULL, 0, &l, &j->err);
    if (j->st == GP_OK)
        j->policy = j->base = l->total_cost;
    gp_ledger_free(l);
    l = NULL;
    if (j->st == GP_OK && j->routed) {
        /* and the routing action in the low-demand case */
        j->st = gp_rec_bill(c, j->down, NULL, 0, &l, &j->err);
        if (j->st == GP_OK)
            j->base = l->total_cost;
        gp_ledger_free(l);
    }
    return NULL;
}

/* Starts the low-demand case on a second thread, or runs it here when no
 * thread can be started. */
void gp_rec_downside_start(struct downside_job *j, const struct ctx *c,
                           bool routed)
{
    memset(j, 0, sizeof *j);
    j->c = c;
    j->routed = routed;
    j->threaded = pthread_create(&j->thread, NULL, downside_run, j) == 0;
    if (!j->threaded)
        downside_run(j);
}

/* Waits for the low-demand case (once; later calls return at once). */
gp_status gp_rec_downside_wait(struct downside_job *j, gp_error *err)
{
    if (j->threaded && !j->waited) {
        pthread_join(j->thread, NULL);
        j->waited = true; /* before the other plans' threads start */
    }
    if (j->st != GP_OK && err)
        *err = j->err;
    return j->st;
}
