/*
 * trace_finish.c: turning what a builder read into a gp_trace (series in
 * a stable order, job runs and idle spans pointing at them), and the
 * finished trace's own functions.
 */
#include "trace_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Orders series by pool, workload, interruptible, team and project. */
int gp_series_cmp(const gp_trace *t, const gp_series *x, const gp_series *y)
{
    if (x->pool != y->pool)
        return x->pool < y->pool ? -1 : 1;
    if (x->workload != y->workload)
        return x->workload < y->workload ? -1 : 1;
    if (x->interruptible != y->interruptible)
        return x->interruptible ? 1 : -1;
    const char *tx = x->team >= 0 ? t->labels[x->team] : "";
    const char *ty = y->team >= 0 ? t->labels[y->team] : "";
    int c = strcmp(tx, ty);
    if (c)
        return c;
    tx = x->project >= 0 ? t->labels[x->project] : "";
    ty = y->project >= 0 ? t->labels[y->project] : "";
    return strcmp(tx, ty);
}

/* Orders series indices by gp_series_cmp for stable output; sort_trace
 * holds the series and their labels (qsort has no context) and is
 * thread-local, so two threads finishing traces at once keep to their
 * own.  Ties, which the builder's one series per key rules out, fall back
 * to the index. */
static _Thread_local const gp_trace *sort_trace;
static int series_index_cmp(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int c = gp_series_cmp(sort_trace, &sort_trace->series[i],
                          &sort_trace->series[j]);
    return c ? c : (i > j) - (i < j);
}

/* Orders pools by provider, region and instance type name (qsort). */
static int pool_cmp(const void *a, const void *b)
{
    const gp_pool *x = a, *y = b;
    int c = strcmp(x->catalog->provider, y->catalog->provider);
    if (!c)
        c = strcmp(x->catalog->region, y->catalog->region);
    if (!c)
        c = strcmp(x->type->name, y->type->name);
    return c;
}

/* The files read, for a message about all of them: "a.csv, b.csv" (at
 * most three and a count of the rest). */
static void sources_list(const gp_trace_builder *b, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < b->n_sources && i < 3 && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                         b->sources[i]);
        if (w > 0)
            used += (size_t)w;
    }
    if (b->n_sources > 3 && used < size)
        snprintf(buf + used, size - used, " and %zu more", b->n_sources - 3);
}

/* The error for a trace without a row to use: it names the file when there
 * is one, and says when bad rows were all there was. */
static void no_data_rows(const gp_trace_builder *b, gp_error *err)
{
    char left[96] = "";
    const struct shard *s = &b->main;

    if (s->rows_rejected)
        snprintf(left, sizeof left, " left after rejecting %llu bad %s",
                 (unsigned long long)s->rows_rejected,
                 gp_plural(s->rows_rejected, "row", "rows"));
    if (b->n_sources == 1) {
        gp_error_set(err, b->sources[0], 0, 0, NULL, "no data rows%s", left);
    } else if (b->n_sources > 1) {
        char names[256];
        sources_list(b, names, sizeof names);
        gp_error_set(err, NULL, 0, 0, NULL,
                     "the traces (%s) have no data rows%s", names, left);
    } else {
        gp_error_set(err, NULL, 0, 0, NULL, "no trace was read");
    }
}

/* The error for series that together span more than GP_TRACE_MAX_SPAN_HOURS
 * (clock hours [lo, hi)). */
static void span_too_long(const gp_trace_builder *b, int64_t lo, int64_t hi,
                          gp_error *err)
{
    char first[32], last[32];

    gp_format_time(lo * 3600, first, sizeof first);
    gp_format_time(hi * 3600, last, sizeof last);
    if (b->n_sources == 1) {
        gp_error_set(err, b->sources[0], 0, 0, NULL,
                     "the trace spans %s to %s, more than 30 years; is a "
                     "timestamp wrong?",
                     first, last);
    } else {
        char names[256];
        sources_list(b, names, sizeof names);
        gp_error_set(err, NULL, 0, 0, NULL,
                     "the traces (%s) span %s to %s, more than 30 years; is "
                     "a timestamp wrong?",
                     names, first, last);
    }
}

/* Bytes a trace keeps per series and clock hour: instance-hours, useful
 * GPU-hours and GPU-hours with a gpu_util, a double each. */
#define BYTES_PER_SERIES_HOUR (3 * sizeof(double))

/* Refuses a trace whose series times clock hours need more memory than
 * the builder may use (gp_trace_options.max_bytes): memory is series x
 * hours, so a few rows decades apart with many labels asked for gigabytes
 * and then said only "out of memory". */
static gp_status check_memory(const gp_trace_builder *b, size_t n_series,
                              size_t n_hours, gp_error *err)
{
    double need = (double)n_series * (double)n_hours * BYTES_PER_SERIES_HOUR;

    if (b->opt.max_bytes == 0 || need <= (double)b->opt.max_bytes)
        return GP_OK;
    char first[32];
    gp_format_time(b->main.start_s > 0 ? (int64_t)b->main.start_s : 0, first,
                   sizeof first);
    gp_error_set(err, b->n_sources == 1 ? b->sources[0] : NULL, 0, 0, NULL,
                 "%zu series over %zu hours need %.1f GB of memory, more "
                 "than the %.1f GB this run may use: the rows lie far apart "
                 "in time (the trace starts %s), or the labels (team, "
                 "project, job_id) make many series; drop the rows far from "
                 "the rest, split the trace, or leave out labels you do not "
                 "need",
                 n_series, n_hours, need / 1e9, (double)b->opt.max_bytes / 1e9,
                 first);
    return GP_ERR_INPUT;
}

/* What gp_trace_builder_finish is building, passed between its steps.
 * The arrays here are the step's own until the finish frees them. */
struct finish {
    gp_trace_builder *b;
    struct shard *s; /* b->main */
    gp_trace *t;
    int64_t lo, hi;       /* the clock hours [lo, hi) the series span */
    uint32_t *pool_order; /* shard pool i is t->pools[pool_order[i]] */
    uint32_t *order;      /* t->series[j] was shard series order[j] */
    uint32_t *where;      /* shard series i is t->series[where[i]] */
};

/* Finds the clock hours [f->lo, f->hi) the series span; GP_ERR_INPUT with
 * err set when no row was usable or the span is too long. */
static gp_status finish_span(struct finish *f, gp_error *err)
{
    const struct shard *s = f->s;
    int64_t lo = INT64_MAX, hi = INT64_MIN;

    if (s->rows_read == s->rows_rejected) {
        no_data_rows(f->b, err);
        return GP_ERR_INPUT;
    }
    for (size_t i = 0; i < s->n_series; i++) {
        const struct shard_series *ser = &s->series[i];
        if (ser->n == 0)
            continue;
        if (ser->base < lo)
            lo = ser->base;
        if (ser->base + (int64_t)ser->n > hi)
            hi = ser->base + (int64_t)ser->n;
    }
    if (lo == INT64_MAX) {
        lo = hi = 0;
    } else if (hi - lo > GP_TRACE_MAX_SPAN_HOURS) {
        /* each series is within the bound (rows past it are rejected where
         * they are read), so the times are in different series: which one
         * is wrong cannot be known, so say what was found */
        span_too_long(f->b, lo, hi, err);
        return GP_ERR_INPUT;
    }
    f->lo = lo;
    f->hi = hi;
    return check_memory(f->b, s->n_series, (size_t)(hi - lo), err);
}

/* Copies the pools into the trace in name order and sets f->pool_order
 * (memcpy and qsort only with n > 0: with nothing read their source
 * pointers may be NULL).  False when out of memory. */
static bool finish_pools(struct finish *f)
{
    const struct shard *s = f->s;
    gp_trace *t = f->t;

    t->pools = gp_calloc(s->n_pools, sizeof *t->pools);
    f->pool_order = gp_calloc(s->n_pools, sizeof *f->pool_order);
    if (!t->pools || !f->pool_order)
        return false;
    if (s->n_pools > 0) {
        memcpy(t->pools, s->pools, s->n_pools * sizeof *t->pools);
        qsort(t->pools, s->n_pools, sizeof *t->pools, pool_cmp);
    }
    t->n_pools = s->n_pools;
    for (size_t i = 0; i < s->n_pools; i++)
        for (size_t j = 0; j < t->n_pools; j++)
            if (t->pools[j].type == s->pools[i].type &&
                t->pools[j].catalog == s->pools[i].catalog)
                f->pool_order[i] = (uint32_t)j;
    return true;
}

/* Copies series i of the shard onto the trace's hours as d, and frees
 * its loader arrays, so that the loader's arrays and the trace's are not
 * all held at once.  Only hours that hold something are written: zeros
 * stay the untouched pages calloc gave.  False when out of memory. */
static bool finish_one_series(struct finish *f, struct shard_series *src,
                              gp_series *d)
{
    size_t at = (size_t)(src->base - f->lo), n_hours = f->t->n_hours;

    d->pool = f->pool_order[src->pool];
    d->workload = (gp_workload)src->workload;
    d->team = src->team;
    d->project = src->project;
    d->interruptible = src->interruptible;
    d->job_util = src->job_util;
    d->said_not_interruptible = src->said_not_interruptible;
    d->start_s = src->has_start ? src->start_s : 0;
    if (at == 0 && src->n == n_hours) {
        /* it spans the trace: its hours are the trace's as they are (the
         * capacity past them is never written, so never resident) */
        d->instance_hours = src->ih;
        src->ih = NULL;
    } else {
        d->instance_hours = gp_calloc(n_hours, sizeof(double));
    }
    d->useful_gpu_hours = gp_calloc(n_hours, sizeof(double));
    d->util_gpu_hours = gp_calloc(n_hours, sizeof(double));
    if (!d->instance_hours || !d->useful_gpu_hours || !d->util_gpu_hours)
        return false;
    for (size_t k = 0; src->ih && k < src->n; k++)
        if (src->ih[k] != 0)
            d->instance_hours[at + k] = src->ih[k];
    for (size_t k = 0; src->uc && k < src->n; k++) {
        if (src->uc[k].util_gpu_hours == 0 && src->uc[k].useful_gpu_hours == 0)
            continue;
        d->useful_gpu_hours[at + k] = src->uc[k].useful_gpu_hours;
        d->util_gpu_hours[at + k] = src->uc[k].util_gpu_hours;
    }
    gp_free(src->ih);
    gp_free(src->uc);
    src->ih = NULL;
    src->uc = NULL;
    src->n = src->cap = 0;
    return true;
}

/* Copies the series into the trace, in the shard's order, their hours
 * onto the trace's; the shard's series are left without hours.  False
 * when out of memory. */
static bool finish_series(struct finish *f)
{
    struct shard *s = f->s;
    gp_trace *t = f->t;

    t->series = gp_calloc(s->n_series, sizeof *t->series);
    if (!t->series)
        return false;
    for (size_t i = 0; i < s->n_series; i++)
        if (!finish_one_series(f, &s->series[i], &t->series[t->n_series++]))
            return false;
    return true;
}

/* Sorts the trace's series by gp_series_cmp; runs and low runs, which
 * point at the shard's series, then go through f->where.  False when out
 * of memory. */
static bool finish_sort(struct finish *f)
{
    gp_trace *t = f->t;
    gp_series *sorted;

    f->order = gp_calloc(t->n_series, sizeof *f->order);
    sorted = gp_calloc(t->n_series, sizeof *sorted);
    f->where = gp_calloc(t->n_series, sizeof *f->where);
    if (!f->order || !sorted || !f->where) {
        gp_free(sorted);
        return false;
    }
    /* sort the indices: sorted[j] is old series order[j], and old
     * series i goes to where[i] */
    for (size_t i = 0; i < t->n_series; i++)
        f->order[i] = (uint32_t)i;
    if (t->n_series > 0) {
        sort_trace = t;
        qsort(f->order, t->n_series, sizeof *f->order, series_index_cmp);
    }
    for (size_t j = 0; j < t->n_series; j++) {
        sorted[j] = t->series[f->order[j]];
        f->where[f->order[j]] = (uint32_t)j;
    }
    gp_free(t->series);
    t->series = sorted;
    return true;
}

/* Copies the job runs into the trace, their hours into one array, each
 * pointing at its sorted series.  False when out of memory. */
static bool finish_runs(struct finish *f)
{
    const struct shard *s = f->s;
    gp_trace *t = f->t;
    size_t run_hours = 0;

    for (size_t i = 0; i < s->n_runs; i++)
        run_hours += s->runs[i].n;
    t->runs = gp_calloc(s->n_runs, sizeof *t->runs);
    t->run_hours = gp_calloc(run_hours + 1, sizeof *t->run_hours);
    if (!t->runs || !t->run_hours)
        return false;
    run_hours = 0;
    for (size_t i = 0; i < s->n_runs; i++) {
        const struct shard_run *r = &s->runs[i];
        double *ih = t->run_hours + run_hours;
        if (r->n)
            memcpy(ih, r->ih, r->n * sizeof *ih);
        run_hours += r->n;
        t->runs[i] = (gp_job_run){r->job,
                                  f->where[r->series],
                                  (int64_t)floor(r->start),
                                  (int64_t)ceil(r->end),
                                  r->instances,
                                  r->instance_hours,
                                  r->h0,
                                  r->n,
                                  ih};
    }
    t->n_runs = s->n_runs;
    return true;
}

/* Keeps the low-utilization runs that last long enough to be idle spans,
 * with the options they were found with.  False when out of memory. */
static bool finish_lows(struct finish *f)
{
    const gp_trace_builder *b = f->b;
    const struct shard *s = f->s;
    gp_trace *t = f->t;

    t->idle_threshold_pct = b->opt.idle_threshold_pct;
    t->idle_min_hours = b->opt.idle_min_hours;
    t->low_util = gp_calloc(s->n_lows + 1, sizeof *t->low_util);
    if (!t->low_util)
        return false;
    for (size_t i = 0; i < s->n_lows; i++) {
        const struct shard_low *r = &s->lows[i];
        if (r->series == UINT32_MAX ||
            r->end - r->start < b->opt.idle_min_hours * 3600.0 - SAMPLE_GAP_S)
            continue;
        t->low_util[t->n_low_util++] = (gp_low_util_run){
            r->job,          f->where[r->series], r->start,
            r->end,          r->instance_hours,   r->gpu_hours,
            r->useful_gpu_hours};
    }
    return true;
}

/* Frees what the finish's steps allocated for themselves, the trace when
 * it is not handed out, and the builder. */
static void finish_free(struct finish *f, bool trace_too)
{
    gp_free(f->order);
    gp_free(f->where);
    gp_free(f->pool_order);
    if (trace_too)
        gp_trace_free(f->t);
    gp_trace_builder_free(f->b);
}

/* Turns what the builder read into a trace, step by step (the helpers
 * above, in order); the builder is freed either way. */
gp_status gp_trace_builder_finish(gp_trace_builder *b, gp_trace **out,
                                  gp_error *err)
{
    struct finish f = {b, &b->main, NULL, 0, 0, NULL, NULL, NULL};
    struct shard *s = &b->main;
    gp_trace *t = gp_calloc(1, sizeof *t);
    gp_status st;

    *out = NULL;
    f.t = t;
    if (!t)
        goto nomem;
    if ((st = finish_span(&f, err)) != GP_OK) {
        finish_free(&f, true);
        return st;
    }
    t->start_hour = f.lo;
    t->n_hours = (size_t)(f.hi - f.lo);
    t->start_s = s->start_s;
    t->end_s = s->end_s;
    t->end_row = b->end_row;
    if (!finish_pools(&f))
        goto nomem;
    /* labels move over as they are */
    t->labels = s->labels;
    t->n_labels = s->n_labels;
    s->labels = NULL;
    s->n_labels = 0;
    if (!finish_series(&f) || !finish_sort(&f) || !finish_runs(&f) ||
        !finish_lows(&f))
        goto nomem;
    t->rows_read = s->rows_read;
    t->rows_rejected = s->rows_rejected;
    t->bytes_read = b->bytes_read;
    memcpy(t->instance_hours, s->instance_hours, sizeof t->instance_hours);
    t->useful_gpu_hours = s->useful_gpu_hours;
    t->gpu_hours_without_util = s->gpu_hours_without_util;
    t->sources = b->sources;
    t->n_sources = b->n_sources;
    b->sources = NULL;
    b->n_sources = 0;
    finish_free(&f, false);
    *out = t;
    return GP_OK;
nomem:
    finish_free(&f, true);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

/* Frees a trace and everything it holds; NULL is a no-op. */
void gp_trace_free(gp_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_series; i++) {
        gp_free(t->series[i].instance_hours);
        gp_free(t->series[i].useful_gpu_hours);
        gp_free(t->series[i].util_gpu_hours);
    }
    gp_free(t->series);
    gp_free(t->pools);
    for (size_t i = 0; i < t->n_labels; i++)
        gp_free(t->labels[i]);
    gp_free(t->labels);
    gp_free(t->runs);
    gp_free(t->run_hours);
    gp_free(t->low_util);
    for (size_t i = 0; i < t->n_sources; i++)
        gp_free(t->sources[i]);
    gp_free(t->sources);
    gp_free(t);
}

/* Names pool p "provider/region/type" into buf. */
void gp_trace_pool_name(const gp_trace *t, size_t p, char *buf, size_t size)
{
    const gp_pool *pool = &t->pools[p];
    if (pool->catalog && pool->type)
        snprintf(buf, size, "%s/%s/%s", pool->catalog->provider,
                 pool->catalog->region, pool->type->name);
    else
        snprintf(buf, size, "pool %zu", p);
}

/* The instance-hours of workload w in pool `pool` in hour h, over all
 * its series. */
double gp_trace_pool_demand(const gp_trace *t, size_t pool, gp_workload w,
                            size_t h)
{
    double sum = 0;
    for (size_t i = 0; i < t->n_series; i++)
        if (t->series[i].pool == pool && t->series[i].workload == w)
            sum += t->series[i].instance_hours[h];
    return sum;
}

/* The GPU-hours of rows that had a gpu_util, over the whole trace. */
double gp_trace_util_gpu_hours(const gp_trace *t)
{
    double sum = 0;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < t->n_hours; h++)
            sum += t->series[i].util_gpu_hours[h];
    return sum;
}
