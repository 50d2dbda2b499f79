/*
 * idle.c: idle GPUs and the "terminate after N idle hours" policy (idle.h
 * says what counts as idle and what the policy removes).
 *
 * Job spans come ready from the loader (gp_trace.low_util: runs of one
 * job's consecutive samples below the threshold that lasted the minimum).
 * Series spans are found here, from the hourly arrays of the series whose
 * rows carry no job_id with their gpu_util: a clock hour is idle when the
 * GPU-hours that came with a gpu_util averaged below the threshold.
 */
#include "idle.h"
#include "engine.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Durations within this many hours of the minimum count as reaching it. */
#define HOURS_EPS 1e-6

void gp_idle_report_free(gp_idle_report *r)
{
    if (!r)
        return;
    gp_free(r->spans);
    gp_free(r);
}

/* Appends a span to the report, growing its array; false when out of
 * memory. */
static bool add_span(gp_idle_report *r, size_t *cap, const gp_idle_span *s)
{
    if (gp_grow((void **)&r->spans, cap, r->n_spans + 1, sizeof *r->spans) !=
        GP_OK)
        return false;
    r->spans[r->n_spans++] = *s;
    return true;
}

/* Orders spans by series, then job (series spans first), then start. */
static int span_cmp(const void *a, const void *b)
{
    const gp_idle_span *x = a, *y = b;
    if (x->series != y->series)
        return x->series < y->series ? -1 : 1;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return 0;
}

/* Fills the derived fields of a span from its sums. */
static void finish_span(const gp_trace *t, gp_idle_span *s, double useful,
                        double discount)
{
    s->pool = t->series[s->series].pool;
    s->hours = (s->end - s->start) / 3600.0;
    s->mean_util_pct = s->gpu_hours > 0 ? 100.0 * useful / s->gpu_hours : 0;
    s->cost = s->instance_hours * t->pools[s->pool].type->on_demand *
              (1.0 - discount);
}

/* The idle spans of one series judged hour by hour (rows without job_id).
 * `hours` is set to the clock hours of each span (partly used edge hours
 * count whole). */
static bool series_spans(const gp_trace *t, uint32_t i, double discount,
                         gp_idle_report *r, size_t *cap)
{
    const gp_series *ser = &t->series[i];
    size_t h = 0;

    while (h < t->n_hours) {
        size_t k = h;
        double inst = 0, gpu = 0, useful = 0;
        while (k < t->n_hours && ser->instance_hours[k] > 0 &&
               ser->util_gpu_hours[k] > 0 &&
               100.0 * ser->useful_gpu_hours[k] / ser->util_gpu_hours[k] <
                   t->idle_threshold_pct) {
            inst += ser->instance_hours[k];
            gpu += ser->util_gpu_hours[k];
            useful += ser->useful_gpu_hours[k];
            k++;
        }
        if (k > h && (double)(k - h) >= t->idle_min_hours - HOURS_EPS) {
            gp_idle_span s;
            memset(&s, 0, sizeof s);
            s.job = -1;
            s.series = i;
            s.start = (double)(t->start_hour + (int64_t)h) * 3600.0;
            s.end = (double)(t->start_hour + (int64_t)k) * 3600.0;
            s.gpu_hours = gpu;
            s.instance_hours = inst;
            finish_span(t, &s, useful, discount);
            if (!add_span(r, cap, &s))
                return false;
        }
        h = k > h ? k : h + 1;
    }
    return true;
}

gp_status gp_idle_detect(const gp_trace *t, double discount,
                         gp_idle_report **out, gp_error *err)
{
    gp_idle_report *r = gp_calloc(1, sizeof *r);
    size_t cap = 0;

    *out = NULL;
    if (!r)
        goto nomem;
    r->threshold_pct = t->idle_threshold_pct;
    r->min_hours = t->idle_min_hours;
    for (size_t i = 0; i < t->n_low_util; i++) {
        const gp_low_util_run *lr = &t->low_util[i];
        gp_idle_span s;
        memset(&s, 0, sizeof s);
        s.job = lr->job;
        s.series = lr->series;
        s.start = lr->start;
        s.end = lr->end;
        s.gpu_hours = lr->gpu_hours;
        s.instance_hours = lr->instance_hours;
        finish_span(t, &s, lr->useful_gpu_hours, discount);
        if (!add_span(r, &cap, &s))
            goto nomem;
    }
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *ser = &t->series[i];
        for (size_t h = 0; h < t->n_hours; h++)
            r->gpu_hours_with_util += ser->util_gpu_hours[h];
        if (!ser->job_util && !series_spans(t, (uint32_t)i, discount, r, &cap))
            goto nomem;
    }
    if (r->n_spans > 1)
        qsort(r->spans, r->n_spans, sizeof *r->spans, span_cmp);
    for (size_t i = 0; i < r->n_spans; i++) {
        r->hours += r->spans[i].hours;
        r->gpu_hours += r->spans[i].gpu_hours;
        r->instance_hours += r->spans[i].instance_hours;
        r->cost += r->spans[i].cost;
    }
    *out = r;
    return GP_OK;
nomem:
    gp_idle_report_free(r);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

void gp_idle_clip(gp_idle_report *r, const gp_trace *t, int64_t start_hour,
                  size_t n_hours)
{
    double ws = (double)start_hour * 3600.0;
    double we = (double)(start_hour + (int64_t)n_hours) * 3600.0;
    size_t k = 0;

    for (size_t i = 0; i < r->n_spans; i++) {
        gp_idle_span s = r->spans[i];
        double a = s.start > ws ? s.start : ws;
        double z = s.end < we ? s.end : we;
        if (!(z > a))
            continue;
        if (a > s.start || z < s.end) {
            double f = (z - a) / (s.end - s.start);
            s.gpu_hours *= f;
            s.instance_hours *= f;
            s.cost *= f;
            s.start = a;
            s.end = z;
            s.hours = (z - a) / 3600.0;
        }
        r->spans[k++] = s;
    }
    r->n_spans = k;
    r->hours = r->gpu_hours = r->instance_hours = r->cost = 0;
    for (size_t i = 0; i < r->n_spans; i++) {
        r->hours += r->spans[i].hours;
        r->gpu_hours += r->spans[i].gpu_hours;
        r->instance_hours += r->spans[i].instance_hours;
        r->cost += r->spans[i].cost;
    }
    r->gpu_hours_with_util = 0;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < t->n_hours; h++) {
            int64_t eh = t->start_hour + (int64_t)h;
            if (eh >= start_hour && eh < start_hour + (int64_t)n_hours)
                r->gpu_hours_with_util += t->series[i].util_gpu_hours[h];
        }
}

gp_status gp_idle_for_hours(const gp_trace *t, const gp_scenario *s,
                            int64_t start_hour, size_t n_hours,
                            gp_idle_report **out, gp_error *err)
{
    gp_status st = gp_idle_detect(t, s->discount, out, err);

    if (st != GP_OK)
        return st;
    gp_idle_clip(*out, t, start_hour, n_hours);
    return GP_OK;
}

gp_status gp_idle_for_run(const gp_trace *t, const gp_scenario *s,
                          gp_idle_report **out, gp_error *err)
{
    int64_t wh;
    size_t wn;

    gp_engine_window(t, s, &wh, &wn);
    return gp_idle_for_hours(t, s, wh, wn, out, err);
}

void gp_idle_span_label(const gp_trace *t, const gp_idle_span *s, char *buf,
                        size_t size)
{
    const gp_series *ser = &t->series[s->series];

    if (s->job >= 0) {
        snprintf(buf, size, "%s", t->labels[s->job]);
        return;
    }
    snprintf(buf, size, "%s/%s%s%s%s%s", t->pools[ser->pool].type->name,
             gp_workload_name(ser->workload), ser->team >= 0 ? "/" : "",
             ser->team >= 0 ? t->labels[ser->team] : "",
             ser->project >= 0 ? "/" : "",
             ser->project >= 0 ? t->labels[ser->project] : "");
}

/* A growable list of cuts. */
struct cuts {
    gp_idle_cut *v;
    size_t n, cap;
};

static bool add_cut(struct cuts *c, int64_t hour, uint32_t series,
                    double inst, double useful, double util)
{
    if (hour < 0 || inst <= 0)
        return true;
    if (gp_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v) != GP_OK)
        return false;
    c->v[c->n++] = (gp_idle_cut){(size_t)hour, series, inst, useful, util};
    return true;
}

/* Orders cuts by hour, then series. */
static int cut_cmp(const void *a, const void *b)
{
    const gp_idle_cut *x = a, *y = b;
    if (x->hour != y->hour)
        return x->hour < y->hour ? -1 : 1;
    if (x->series != y->series)
        return x->series < y->series ? -1 : 1;
    return 0;
}

/* The cuts of a job span after its first n hours: the span's sums spread
 * evenly over [start, end), the part from start + n hours on, by clock
 * hour. */
static bool job_span_cuts(const gp_trace *t, const gp_idle_span *s, double n,
                          double useful, struct cuts *c)
{
    double len = s->end - s->start;
    double from = s->start + n * 3600.0;

    for (double a = from; a < s->end - 1e-9;) {
        double hour = floor(a / 3600.0);
        double z = (hour + 1) * 3600.0;
        if (z > s->end)
            z = s->end;
        double f = (z - a) / len;
        if (!add_cut(c, (int64_t)hour - t->start_hour, s->series,
                     s->instance_hours * f, useful * f, s->gpu_hours * f))
            return false;
        a = z;
    }
    return true;
}

gp_status gp_idle_cuts(const gp_trace *t, const gp_idle_report *r,
                       const double terminate_h[2], gp_idle_cut **out,
                       size_t *n, double *removed, gp_error *err)
{
    struct cuts c = {NULL, 0, 0};

    *out = NULL;
    *n = 0;
    if (removed)
        *removed = 0;
    for (size_t i = 0; i < r->n_spans; i++) {
        const gp_idle_span *s = &r->spans[i];
        const gp_series *ser = &t->series[s->series];
        double keep = terminate_h[ser->workload == GP_TRAINING ? 0 : 1];
        if (!(keep > 0) || s->hours <= keep + HOURS_EPS)
            continue;
        double useful = s->mean_util_pct / 100.0 * s->gpu_hours;
        if (s->job >= 0) {
            if (!job_span_cuts(t, s, keep, useful, &c))
                goto nomem;
            continue;
        }
        /* a series span: hour k of it keeps what falls in the first
         * `keep` hours and loses the rest */
        int64_t h0 = (int64_t)floor(s->start / 3600.0) - t->start_hour;
        for (int64_t k = 0; k < (int64_t)llround(s->hours); k++) {
            double f = (double)(k + 1) - keep;
            if (f <= 0)
                continue;
            if (f > 1)
                f = 1;
            size_t h = (size_t)(h0 + k);
            if (!add_cut(&c, h0 + k, s->series, ser->instance_hours[h] * f,
                         ser->useful_gpu_hours[h] * f,
                         ser->util_gpu_hours[h] * f))
                goto nomem;
        }
    }
    if (c.n > 1)
        qsort(c.v, c.n, sizeof *c.v, cut_cmp);
    for (size_t i = 0; removed && i < c.n; i++)
        *removed += c.v[i].instance_hours;
    *out = c.v;
    *n = c.n;
    return GP_OK;
nomem:
    gp_free(c.v);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}
