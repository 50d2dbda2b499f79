/*
 * trace_merge.c: a shard's making and freeing, and merging the shard one
 * thread read into the one read before it, in file order: pools, labels,
 * series, job runs and low utilization runs.
 */
#include "trace_internal.h"

#include <string.h>

/* ---- a shard's life ------------------------------------------------------ */

/* Makes an empty shard, its caches empty too. */
void gp_trace_shard_init(struct shard *s)
{
    memset(s, 0, sizeof *s);
    s->last_pool = UINT32_MAX;
    for (int i = 0; i < 3; i++)
        s->last_label_id[i] = -2;
}

/* Frees everything the shard holds; it is then empty. */
void gp_trace_shard_free(struct shard *s)
{
    gp_strmap_free(&s->pool_map);
    gp_strmap_free(&s->series_map);
    gp_strmap_free(&s->label_map);
    gp_strmap_free(&s->job_map);
    gp_free(s->pools);
    for (size_t i = 0; i < s->n_series; i++) {
        gp_free(s->series[i].ih);
        gp_free(s->series[i].uc);
    }
    gp_free(s->series);
    gp_free(s->pool_series);
    for (size_t i = 0; i < s->n_labels; i++)
        gp_free(s->labels[i]);
    gp_free(s->labels);
    gp_free(s->open_run);
    for (size_t i = 0; i < s->n_runs; i++)
        gp_free(s->runs[i].ih);
    gp_free(s->runs);
    gp_free(s->job_idle);
    gp_free(s->lows);
    gp_free(s->memo);
    if (s->rejects)
        fclose(s->rejects);
    memset(s, 0, sizeof *s);
}

/* ---- merging shards ------------------------------------------------------ */

/*
 * Adds the low runs of shard `from` (read after `into`) to `into`: a run
 * that began at its job's first sample in `from` joins the job's open run
 * in `into` when it carries it on; then each job's state is `from`'s.
 * Short runs are left for gp_trace_builder_finish to drop.
 */
static bool merge_lows(struct shard *into, struct shard *from,
                       const uint32_t *label_map, const int64_t *series_map)
{
    for (size_t i = 0; i < from->n_lows; i++) {
        const struct shard_low *r = &from->lows[i];
        if (r->series == UINT32_MAX)
            continue;
        int32_t job = (int32_t)label_map[r->job];
        uint32_t series = (uint32_t)series_map[r->series];
        struct job_idle *j = &into->job_idle[job];
        bool open_in_from = from->job_idle[r->job].open == (int64_t)i;
        if (r->head && j->open >= 0 &&
            into->lows[j->open].series == series &&
            sample_follows(j, r->start)) {
            struct shard_low *d = &into->lows[j->open];
            if (r->end > d->end)
                d->end = r->end;
            d->instance_hours += r->instance_hours;
            d->gpu_hours += r->gpu_hours;
            d->useful_gpu_hours += r->useful_gpu_hours;
            if (!open_in_from)
                j->open = -1;
            continue;
        }
        if (gp_grow((void **)&into->lows, &into->cap_lows, into->n_lows + 1,
                    sizeof *into->lows) != GP_OK)
            return false;
        into->lows[into->n_lows] = *r;
        into->lows[into->n_lows].job = job;
        into->lows[into->n_lows].series = series;
        into->lows[into->n_lows].head = false;
        j->open = open_in_from ? (int64_t)into->n_lows : -1;
        into->n_lows++;
    }
    for (size_t k = 0; k < from->n_labels; k++) {
        const struct job_idle *f = &from->job_idle[k];
        struct job_idle *j = &into->job_idle[label_map[k]];
        if (!f->seen)
            continue;
        /* the job's latest sample is in `from`: an open run in `into` that
         * nothing in `from` carried on is over */
        if (f->open < 0)
            j->open = -1;
        j->seen = true;
        j->last_start = f->last_start;
        j->last_end = f->last_end;
    }
    return true;
}

/* Where the pools, labels and series of a shard being merged (by their
 * index there) are in the shard it is merged into. */
struct merge_maps {
    uint32_t *pool;
    uint32_t *label;
    int64_t *series;
};

/* Maps from's pools to into's, adding the ones into lacks. */
static bool merge_pools(struct shard *into, const struct shard *from,
                        uint32_t *pool_map)
{
    for (size_t i = 0; i < from->n_pools; i++) {
        size_t j;
        for (j = 0; j < into->n_pools; j++)
            if (into->pools[j].catalog == from->pools[i].catalog &&
                into->pools[j].type == from->pools[i].type)
                break;
        if (j == into->n_pools) {
            if (gp_grow((void **)&into->pools, &into->cap_pools, j + 1,
                        sizeof *into->pools) != GP_OK)
                return false;
            into->pools[into->n_pools++] = from->pools[i];
        }
        pool_map[i] = (uint32_t)j;
    }
    return true;
}

/* Maps from's labels to into's, interning the ones into lacks. */
static bool merge_labels(struct shard *into, const struct shard *from,
                         uint32_t *label_map)
{
    for (size_t i = 0; i < from->n_labels; i++) {
        int32_t id = gp_trace_shard_label(into, from->labels[i],
                                          strlen(from->labels[i]));
        if (id < 0)
            return false;
        label_map[i] = (uint32_t)id;
    }
    return true;
}

/* Adds series fs of the shard being merged to into (found or added by
 * its key there, which m->series[i] then holds): its start, job_util
 * and the hours that hold anything. */
static bool merge_one_series(struct shard *into, const struct shard_series *fs,
                             const struct merge_maps *m, size_t i)
{
    struct series_key key;

    memset(&key, 0, sizeof key);
    key.pool = m->pool[fs->pool];
    key.workload = fs->workload;
    key.interruptible = fs->interruptible;
    key.team = fs->team >= 0 ? (int32_t)m->label[fs->team] : -1;
    key.project = fs->project >= 0 ? (int32_t)m->label[fs->project] : -1;
    int64_t sid = gp_trace_shard_series(into, &key);
    if (sid < 0)
        return false;
    m->series[i] = sid;
    if (fs->job_util)
        into->series[sid].job_util = true;
    if (fs->said_not_interruptible)
        into->series[sid].said_not_interruptible = true;
    if (fs->has_start && (!into->series[sid].has_start ||
                          fs->start_s < into->series[sid].start_s)) {
        into->series[sid].has_start = true;
        into->series[sid].start_s = fs->start_s;
    }
    struct shard_series *d = &into->series[sid];
    for (size_t k = 0; k < fs->n; k++) {
        const struct util_cell *u = fs->uc ? &fs->uc[k] : NULL;
        bool util = u && u->util_gpu_hours != 0;
        if (fs->ih[k] == 0 && !util)
            continue;
        int64_t j = gp_trace_series_hour(d, fs->base + (int64_t)k, util);
        if (j < 0)
            return false;
        d->ih[j] += fs->ih[k];
        if (util) {
            d->uc[j].useful_gpu_hours += u->useful_gpu_hours;
            d->uc[j].util_gpu_hours += u->util_gpu_hours;
        }
    }
    return true;
}

/* Adds from's job runs to into; a run cut by the thread boundary joins
 * its first half. */
static bool merge_runs(struct shard *into, const struct shard *from,
                       const struct merge_maps *m)
{
    for (size_t i = 0; i < from->n_runs; i++) {
        const struct shard_run *r = &from->runs[i];
        int32_t job = (int32_t)m->label[r->job];
        struct shard_run *to = gp_trace_add_run(
            into, job, (uint32_t)m->series[r->series], r->start, r->end,
            r->instances, r->instance_hours, true);
        if (!to)
            return false;
        for (size_t k = 0; k < r->n; k++)
            if (!gp_trace_run_hour_add(to, r->h0 + (int64_t)k, r->ih[k]))
                return false;
    }
    return true;
}

/* Adds from's counts and totals to into's, and its first and last times. */
static void merge_totals(struct shard *into, const struct shard *from)
{
    into->rows_read += from->rows_read;
    into->rows_rejected += from->rows_rejected;
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        into->instance_hours[w] += from->instance_hours[w];
    into->useful_gpu_hours += from->useful_gpu_hours;
    into->gpu_hours_without_util += from->gpu_hours_without_util;
    if (from->end_s > 0 && (into->end_s == 0 || from->start_s < into->start_s))
        into->start_s = from->start_s;
    if (from->end_s > into->end_s) {
        into->end_s = from->end_s;
        into->end_line = from->end_line;
    }
}

/* Adds shard `from` (read after `into`) to `into`: pools, labels, series,
 * runs, low runs, then totals; GP_ERR_NOMEM when out of memory.  `from`
 * is left for gp_trace_shard_free. */
gp_status gp_trace_shard_merge(struct shard *into, struct shard *from)
{
    struct merge_maps m;
    gp_status st = GP_ERR_NOMEM;

    m.pool = gp_calloc(from->n_pools, sizeof *m.pool);
    m.label = gp_calloc(from->n_labels, sizeof *m.label);
    m.series = gp_calloc(from->n_series, sizeof *m.series);
    if (!m.pool || !m.label || !m.series)
        goto out;
    if (!merge_pools(into, from, m.pool) ||
        !merge_labels(into, from, m.label))
        goto out;
    for (size_t i = 0; i < from->n_series; i++)
        if (!merge_one_series(into, &from->series[i], &m, i))
            goto out;
    if (!merge_runs(into, from, &m) ||
        !merge_lows(into, from, m.label, m.series))
        goto out;
    merge_totals(into, from);
    st = GP_OK;
out:
    gp_free(m.pool);
    gp_free(m.label);
    gp_free(m.series);
    return st;
}
