/*
 * levers.c: a strategy's what-if levers (SPEC 7.5) on a copy of the
 * trace: autoscale replaces an inference series' instance count by the
 * one its gpu_util needs at the target; rightsize and migrate move a
 * type's demand to another type hour by hour.  Unchanged series share
 * the trace's arrays.  docs/scenarios.md says what each lever does.
 */
#include "levers.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The trace as the levers change it, and how to fold its ledger back. */
typedef struct lever_trace {
    gp_trace t;            /* pools, series, runs and low_util are ours */
    const gp_trace *orig;  /* the trace as read */
    uint32_t *origin;      /* [series of t] the series of orig it folds into */
    bool *own;             /* [series of t] whether its arrays are ours */
    int64_t *cut_s;        /* [series of t] job runs ending after it dropped */
    uint32_t *run_of;      /* [run of t] its index in orig */
    size_t cap_pools, cap_series;
    gp_ledger_levers stats;
} lever_trace;

bool gp_strategy_has_levers(const gp_strategy *g)
{
    return g->autoscale.on || g->rightsize.on || g->migrate.on;
}

/* Appends to buf (of size, holding text) one lever's account. */
static void describe_add(char *buf, size_t size, const char *text)
{
    size_t n = strlen(buf);
    if (n + 3 < size)
        snprintf(buf + n, size - n, "%s%s", n ? "; " : "", text);
}

void gp_levers_describe(const gp_strategy *g, char *buf, size_t size)
{
    static const char *const keys[] = {"team", "project", "instance_type"};
    char one[256], day[32];

    if (size == 0)
        return;
    buf[0] = '\0';
    if (g->autoscale.on) {
        const gp_autoscale *a = &g->autoscale;
        snprintf(one, sizeof one,
                 "autoscale %s=%s at %g%% util, min %g, scale-down delay "
                 "%g h",
                 keys[a->key], a->value, a->target_util, a->min_instances,
                 a->scale_down_delay_h);
        describe_add(buf, size, one);
    }
    if (g->rightsize.on) {
        snprintf(one, sizeof one, "rightsize %s -> %s x%g", g->rightsize.from,
                 g->rightsize.to, g->rightsize.equivalence);
        describe_add(buf, size, one);
    }
    if (g->migrate.on) {
        gp_format_time(g->migrate.at, day, sizeof day);
        snprintf(one, sizeof one, "migrate %s -> %s x%g on %s",
                 g->migrate.from, g->migrate.to, g->migrate.equivalence, day);
        describe_add(buf, size, one);
    }
}

/* Frees lt and the arrays it owns; NULL is fine. */
static void lever_trace_free(lever_trace *lt)
{
    if (!lt)
        return;
    for (size_t i = 0; lt->own && i < lt->t.n_series; i++)
        if (lt->own[i]) {
            gp_free(lt->t.series[i].instance_hours);
            gp_free(lt->t.series[i].useful_gpu_hours);
            gp_free(lt->t.series[i].util_gpu_hours);
        }
    gp_free(lt->t.pools);
    gp_free(lt->t.series);
    gp_free(lt->t.runs);
    gp_free(lt->t.low_util);
    gp_free(lt->origin);
    gp_free(lt->own);
    gp_free(lt->cut_s);
    gp_free(lt->run_of);
    gp_free(lt);
}

/* A copy of t whose pools and series have room for the moves' new ones,
 * sharing t's hourly arrays; NULL when out of memory. */
static lever_trace *lever_trace_new(const gp_trace *t)
{
    lever_trace *lt = gp_calloc(1, sizeof *lt);
    if (!lt)
        return NULL;
    lt->t = *t;
    lt->orig = t;
    lt->cap_pools = 3 * t->n_pools + 1;
    lt->cap_series = 3 * t->n_series + 1;
    lt->t.pools = gp_calloc(lt->cap_pools, sizeof *lt->t.pools);
    lt->t.series = gp_calloc(lt->cap_series, sizeof *lt->t.series);
    lt->origin = gp_calloc(lt->cap_series, sizeof *lt->origin);
    lt->own = gp_calloc(lt->cap_series, sizeof *lt->own);
    lt->cut_s = gp_calloc(lt->cap_series, sizeof *lt->cut_s);
    lt->t.runs = NULL;
    lt->t.low_util = NULL;
    if (!lt->t.pools || !lt->t.series || !lt->origin || !lt->own ||
        !lt->cut_s) {
        lt->t.n_series = 0;
        lever_trace_free(lt);
        return NULL;
    }
    if (t->n_pools)
        memcpy(lt->t.pools, t->pools, t->n_pools * sizeof *t->pools);
    if (t->n_series)
        memcpy(lt->t.series, t->series, t->n_series * sizeof *t->series);
    for (size_t i = 0; i < t->n_series; i++) {
        lt->origin[i] = (uint32_t)i;
        lt->cut_s[i] = INT64_MAX;
    }
    return lt;
}

/* Gives series i arrays of its own (a copy of the shared ones, or zeros
 * for a new series); false when out of memory. */
static bool own_series(lever_trace *lt, size_t i, bool copy)
{
    gp_series *s = &lt->t.series[i];
    size_t n = lt->t.n_hours + 1;
    double *a[3];

    if (lt->own[i])
        return true;
    for (int k = 0; k < 3; k++)
        a[k] = gp_calloc(n, sizeof *a[k]);
    if (!a[0] || !a[1] || !a[2]) {
        for (int k = 0; k < 3; k++)
            gp_free(a[k]);
        return false;
    }
    if (copy && lt->t.n_hours) {
        size_t bytes = lt->t.n_hours * sizeof(double);
        memcpy(a[0], s->instance_hours, bytes);
        memcpy(a[1], s->useful_gpu_hours, bytes);
        memcpy(a[2], s->util_gpu_hours, bytes);
    }
    s->instance_hours = a[0];
    s->useful_gpu_hours = a[1];
    s->util_gpu_hours = a[2];
    lt->own[i] = true;
    return true;
}

/* Whether trace hour th (index) is in the spec's window. */
static bool in_window(const gp_trace *t, const gp_run_spec *spec, size_t th)
{
    int64_t h = t->start_hour + (int64_t)th;
    return h >= spec->start_hour &&
           h < spec->start_hour + (int64_t)spec->n_hours;
}

/* Whether autoscale a serves series s. */
static bool autoscale_matches(const gp_trace *t, const gp_autoscale *a,
                              const gp_series *s)
{
    if (s->workload != GP_INFERENCE)
        return false;
    if (a->key == GP_LEVER_INSTANCE_TYPE)
        return strcmp(t->pools[s->pool].type->name, a->value) == 0;
    int32_t label = a->key == GP_LEVER_TEAM ? s->team : s->project;
    return label >= 0 && strcmp(t->labels[label], a->value) == 0;
}

/* The instances series i needs in hour th at the target, need[th]: the
 * busy instances (instances x the hour's utilization) over the target,
 * rounded up, never under the floor; hours with no demand need none, and
 * hours with no gpu_util keep their count unless a utilization is
 * assumed (-1 marks them). */
static void autoscale_need(lever_trace *lt, size_t i, const gp_autoscale *a,
                           const gp_run_spec *spec, double *need)
{
    const gp_series *s = &lt->t.series[i];

    for (size_t th = 0; th < lt->t.n_hours; th++) {
        double n = s->instance_hours[th], u;
        need[th] = 0;
        if (n <= 0)
            continue;
        if (s->util_gpu_hours[th] > 0) {
            u = s->useful_gpu_hours[th] / s->util_gpu_hours[th];
        } else if (a->has_assumed_util) {
            u = a->assumed_util / 100;
            if (in_window(&lt->t, spec, th))
                lt->stats.autoscale_assumed_hours++;
        } else {
            need[th] = -1;
            if (in_window(&lt->t, spec, th))
                lt->stats.autoscale_unknown_hours++;
            continue;
        }
        /* 1e-9 keeps a need of exactly 8 from rounding up to 9 */
        need[th] = ceil(n * u / (a->target_util / 100) - 1e-9);
        if (need[th] < a->min_instances)
            need[th] = a->min_instances;
    }
}

/* Serves series i as autoscale a says: each hour the most any of the
 * last scale_down_delay_h hours and this one needed (a scale-down waits
 * that long; a scale-up does not), GPU-hours with gpu_util in
 * proportion; useful GPU-hours, the work done, stay. */
static bool autoscale_series(lever_trace *lt, size_t i, const gp_autoscale *a,
                             const gp_run_spec *spec)
{
    size_t n = lt->t.n_hours, d = (size_t)a->scale_down_delay_h;
    double *need = gp_calloc(n + 1, sizeof *need);

    if (!need || !own_series(lt, i, true)) {
        gp_free(need);
        return false;
    }
    gp_series *s = &lt->t.series[i];
    autoscale_need(lt, i, a, spec, need);
    for (size_t th = 0; th < n; th++) {
        double rec = s->instance_hours[th], served = need[th];
        if (need[th] < 0)
            served = rec;
        for (size_t k = th > d ? th - d : 0; need[th] >= 0 && k < th; k++)
            if (need[k] > served && s->instance_hours[th] > 0)
                served = need[k];
        if (rec > 0)
            s->util_gpu_hours[th] *= served / rec;
        s->instance_hours[th] = served;
        if (in_window(&lt->t, spec, th)) {
            lt->stats.autoscale_recorded_ih += rec;
            lt->stats.autoscale_served_ih += served;
        }
    }
    lt->cut_s[i] = INT64_MIN;
    gp_free(need);
    return true;
}

/* The pool of type `to` in pool p's catalog, added when t has none:
 * its index in *out; an error naming the strategy when the catalog has
 * no such type. */
static gp_status pool_of(lever_trace *lt, const gp_pricing *pr, uint32_t p,
                         const char *to, const char *what,
                         const char *strategy, uint32_t *out, gp_error *err)
{
    const gp_catalog *cat = lt->t.pools[p].catalog;
    const gp_catalog *found = NULL;
    const gp_instance_type *it =
        gp_pricing_find(pr, cat->provider, cat->region, to, &found, NULL);

    if (!it) {
        gp_error_set(err, NULL, 0, 0, what,
                     "strategy %s: no instance type %s in the %s %s "
                     "catalog",
                     strategy, to, cat->provider, cat->region);
        return GP_ERR_INPUT;
    }
    for (size_t k = 0; k < lt->t.n_pools; k++)
        if (lt->t.pools[k].type == it && lt->t.pools[k].catalog == found) {
            *out = (uint32_t)k;
            return GP_OK;
        }
    if (lt->t.n_pools >= lt->cap_pools)
        return GP_ERR_NOMEM; /* cannot be: a move adds one per pool */
    lt->t.pools[lt->t.n_pools].catalog = found;
    lt->t.pools[lt->t.n_pools].type = it;
    *out = (uint32_t)lt->t.n_pools++;
    return GP_OK;
}

/* The series of pool `pool` with series i's workload and labels, added
 * (with zero demand, folding into i) when there is none: its index, or
 * -1 when out of memory. */
static long series_like(lever_trace *lt, size_t i, uint32_t pool)
{
    const gp_series *s = &lt->t.series[i];

    for (size_t k = 0; k < lt->t.n_series; k++) {
        const gp_series *o = &lt->t.series[k];
        if (o->pool == pool && o->workload == s->workload &&
            o->team == s->team && o->project == s->project &&
            o->interruptible == s->interruptible)
            return (long)k;
    }
    if (lt->t.n_series >= lt->cap_series)
        return -1;
    size_t j = lt->t.n_series++;
    gp_series *n = &lt->t.series[j];
    *n = *s;
    n->pool = pool;
    n->job_util = false;
    lt->origin[j] = (uint32_t)i;
    lt->cut_s[j] = INT64_MAX;
    lt->own[j] = false;
    if (!own_series(lt, j, false)) {
        lt->t.n_series--;
        return -1;
    }
    return (long)j;
}

/* Moves series i's demand from m->at on into series j, the equivalence's
 * instances of the new type for each one; useful GPU-hours (the work)
 * move as they are, GPU-hours with gpu_util as the new instances' GPUs.
 * which: 0 rightsize, 1 migrate (the stats' index). */
static void move_hours(lever_trace *lt, size_t i, size_t j, const gp_move *m,
                       int which, const gp_run_spec *spec)
{
    gp_series *s = &lt->t.series[i], *to = &lt->t.series[j];
    double gpus_from = lt->t.pools[s->pool].type->gpus;
    double gpus_to = lt->t.pools[to->pool].type->gpus;
    double per_gpu = gpus_from > 0 ? m->equivalence * gpus_to / gpus_from : 0;

    for (size_t th = 0; th < lt->t.n_hours; th++) {
        int64_t hour = lt->t.start_hour + (int64_t)th;
        double v = s->instance_hours[th];
        if (v == 0 || (m->at != INT64_MIN && hour * 3600 < m->at))
            continue;
        to->instance_hours[th] += v * m->equivalence;
        to->useful_gpu_hours[th] += s->useful_gpu_hours[th];
        to->util_gpu_hours[th] += s->util_gpu_hours[th] * per_gpu;
        s->instance_hours[th] = 0;
        s->useful_gpu_hours[th] = 0;
        s->util_gpu_hours[th] = 0;
        if (in_window(&lt->t, spec, th)) {
            lt->stats.moved_ih[which] += v;
            lt->stats.moved_to_ih[which] += v * m->equivalence;
        }
    }
    int64_t cut = m->at == INT64_MIN ? INT64_MIN : m->at;
    if (cut < lt->cut_s[i])
        lt->cut_s[i] = cut;
}

/* Applies move m (which: 0 rightsize, 1 migrate) to every series of its
 * `from` type and workloads. */
static gp_status move_series(lever_trace *lt, const gp_pricing *pr,
                             const gp_strategy *g, int which,
                             const gp_run_spec *spec, gp_error *err)
{
    const gp_move *m = which == 0 ? &g->rightsize : &g->migrate;
    static const char *const what[] = {"rightsize.to", "migrate.to"};
    size_t n = lt->t.n_series;

    for (size_t i = 0; i < n; i++) {
        const gp_series *s = &lt->t.series[i];
        uint32_t pool;
        if (strcmp(lt->t.pools[s->pool].type->name, m->from) != 0 ||
            !(m->workloads & (1u << s->workload)))
            continue;
        gp_status st = pool_of(lt, pr, s->pool, m->to, what[which], g->name,
                               &pool, err);
        if (st != GP_OK)
            return st;
        long j = series_like(lt, i, pool);
        if (j < 0 || !own_series(lt, i, true) ||
            !own_series(lt, (size_t)j, true))
            return GP_ERR_NOMEM;
        move_hours(lt, i, (size_t)j, m, which, spec);
    }
    return GP_OK;
}

/* Keeps the job runs and low-utilization runs of series the levers left
 * alone, or that ended before their series changed (cut_s): the others'
 * instance-hours are no longer the ones they ran. */
static bool keep_runs(lever_trace *lt)
{
    const gp_trace *t = lt->orig;
    size_t n = 0;

    lt->t.runs = gp_calloc(t->n_runs + 1, sizeof *lt->t.runs);
    lt->run_of = gp_calloc(t->n_runs + 1, sizeof *lt->run_of);
    lt->t.low_util = gp_calloc(t->n_low_util + 1, sizeof *lt->t.low_util);
    if (!lt->t.runs || !lt->run_of || !lt->t.low_util)
        return false;
    for (size_t r = 0; r < t->n_runs; r++)
        if (t->runs[r].end <= lt->cut_s[t->runs[r].series]) {
            lt->run_of[n] = (uint32_t)r;
            lt->t.runs[n++] = t->runs[r];
        }
    lt->t.n_runs = n;
    n = 0;
    for (size_t r = 0; r < t->n_low_util; r++)
        if (t->low_util[r].end <= (double)lt->cut_s[t->low_util[r].series])
            lt->t.low_util[n++] = t->low_util[r];
    lt->t.n_low_util = n;
    return true;
}

/* The trace as strategy g's levers change it, into *out. */
static gp_status levers_apply(const gp_trace *t, const gp_pricing *pr,
                              const gp_strategy *g, const gp_run_spec *spec,
                              lever_trace **out, gp_error *err)
{
    lever_trace *lt = lever_trace_new(t);
    gp_status st = lt ? GP_OK : GP_ERR_NOMEM;

    for (size_t i = 0; st == GP_OK && g->autoscale.on && i < t->n_series;
         i++)
        if (autoscale_matches(t, &g->autoscale, &t->series[i]) &&
            !autoscale_series(lt, i, &g->autoscale, spec))
            st = GP_ERR_NOMEM;
    if (st == GP_OK && g->rightsize.on)
        st = move_series(lt, pr, g, 0, spec, err);
    if (st == GP_OK && g->migrate.on)
        st = move_series(lt, pr, g, 1, spec, err);
    if (st == GP_OK && !keep_runs(lt))
        st = GP_ERR_NOMEM;
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    if (st != GP_OK) {
        lever_trace_free(lt);
        lt = NULL;
    }
    *out = lt;
    return st;
}

/* Whether reservation c (of type it in catalog cat) may cover usage of
 * type `name` in some pool of t. */
static bool covers_type(const gp_trace *t, const gp_catalog *cat,
                        const gp_instance_type *it, const char *name)
{
    for (size_t p = 0; p < t->n_pools; p++)
        if (strcmp(t->pools[p].type->name, name) == 0 &&
            gp_reserved_covers(cat, it, t->pools[p].catalog,
                               t->pools[p].type))
            return true;
    return false;
}

/* Whether usage of move m's `from` type is left after the move (hour
 * `at` on, in the changed trace): usage of other workloads than a
 * rightsize's. */
static bool from_left(const lever_trace *lt, const gp_move *m, int64_t at)
{
    for (size_t i = 0; i < lt->t.n_series; i++) {
        const gp_series *s = &lt->t.series[i];
        if (strcmp(lt->t.pools[s->pool].type->name, m->from) != 0)
            continue;
        for (size_t th = 0; th < lt->t.n_hours; th++)
            if ((lt->t.start_hour + (int64_t)th) * 3600 >= at &&
                s->instance_hours[th] > 0)
                return true;
    }
    return false;
}

/* Whether savings plan c covers usage of type `name` in the changed
 * trace (name NULL: any type) from `at` on, or, with `used`, only whether
 * it covers a pool of that type. */
static bool plan_covers(const lever_trace *lt, const gp_commitment *c,
                        const char *name, int64_t at, bool used)
{
    for (size_t i = 0; i < lt->t.n_series; i++) {
        const gp_series *s = &lt->t.series[i];
        const gp_pool *p = &lt->t.pools[s->pool];
        if ((name && strcmp(p->type->name, name) != 0) ||
            !gp_plan_offer_of(c, p->catalog, p->type))
            continue;
        if (!used)
            return true;
        for (size_t th = 0; th < lt->t.n_hours; th++)
            if ((lt->t.start_hour + (int64_t)th) * 3600 >= at &&
                s->instance_hours[th] > 0)
                return true;
    }
    return false;
}

/* Adds to the stats savings plan c when move m leaves it without usage:
 * it covers the `from` type and no usage from `at` on (an instance-family
 * plan the move leaves; a compute plan follows the usage). */
static void stranded_plan(lever_trace *lt, const gp_run_spec *spec,
                          const gp_move *m, const gp_commitment *c,
                          int64_t at)
{
    int64_t from = c->start > at ? c->start : at;

    if (c->end <= from || !plan_covers(lt, c, m->from, at, false) ||
        plan_covers(lt, c, NULL, at, true))
        return;
    lt->stats.stranded_commitment_cost += c->hourly_commitment *
                                          (double)(c->end - from) / 3600.0 *
                                          (1.0 - spec->discount);
}

/* Adds to the stats the commitments move m leaves without usage, from
 * the move (for a rightsize, the window's start) to the end of their
 * terms, whole: reservations that cover its `from` type and not its `to`
 * type, none when usage of `from` is left for them to cover; savings
 * plans as stranded_plan says. */
static void stranded(lever_trace *lt, const gp_pricing *pr,
                     const gp_run_spec *spec, const gp_move *m)
{
    const gp_commitment *lists[3] = {spec->owned, spec->added, spec->extra};
    size_t counts[3] = {spec->n_owned, spec->n_added, spec->n_extra};
    int64_t at = m->at == INT64_MIN ? spec->start_hour * 3600 : m->at;
    bool left = from_left(lt, m, at);

    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            const gp_commitment *c = &lists[k][i];
            const gp_catalog *cat = NULL;
            const gp_instance_type *it;
            if (c->type == GP_COMMIT_SAVINGS_PLAN)
                stranded_plan(lt, spec, m, c, at);
            if (c->type != GP_COMMIT_RESERVED || left)
                continue;
            it = gp_pricing_find(pr, c->provider, c->region,
                                 c->instance_type, &cat, NULL);
            const gp_reserved_offer *o = gp_reserved_offer_of(pr, c, NULL);
            int64_t from = c->start > at ? c->start : at;
            if (!it || !o || c->end <= from ||
                !covers_type(&lt->t, cat, it, m->from) ||
                covers_type(&lt->t, cat, it, m->to))
                continue;
            double hours = (double)(c->end - from) / 3600.0;
            lt->stats.stranded_instance_hours += c->count * hours;
            lt->stats.stranded_commitment_cost +=
                c->count * hours * gp_reserved_effective_hourly(o) *
                (1.0 - spec->discount);
        }
}

/* Folds ledger l of the changed trace back onto the trace as read: the
 * new series (their cost month by month too) into the ones they came
 * from, job runs (spot, on demand, capacity) to their indices,
 * all_on_demand_cost to that of the demand as recorded. */
static void fold(const lever_trace *lt, const gp_run_spec *spec,
                 gp_ledger *l)
{
    const gp_trace *t = lt->orig;
    gp_sum all_od = {0};

    for (size_t k = t->n_series; k < l->n_series; k++) {
        gp_ledger_series *o = &l->series[lt->origin[k]];
        double *to = &l->series_month_cost[lt->origin[k] * l->month_slots];
        o->cost += l->series[k].cost;
        o->instance_hours += l->series[k].instance_hours;
        o->useful_gpu_hours += l->series[k].useful_gpu_hours;
        o->util_gpu_hours += l->series[k].util_gpu_hours;
        for (size_t m = 0; m < l->month_slots; m++)
            to[m] += l->series_month_cost[k * l->month_slots + m];
    }
    l->n_series = t->n_series;
    for (size_t i = 0; i < l->n_jobs; i++)
        l->jobs[i].run = lt->run_of[l->jobs[i].run];
    for (size_t i = 0; i < l->n_od_jobs; i++)
        l->od_jobs[i].run = lt->run_of[l->od_jobs[i].run];
    for (size_t i = 0; i < l->n_capacity; i++)
        l->capacity[i].run = lt->run_of[l->capacity[i].run];
    for (size_t h = 0; h < l->n_hours; h++) {
        int64_t th = spec->start_hour + (int64_t)h - t->start_hour;
        double od = 0;
        for (size_t i = 0; th >= 0 && th < (int64_t)t->n_hours &&
                           i < t->n_series; i++)
            od += t->series[i].instance_hours[th] *
                  t->pools[t->series[i].pool].type->on_demand;
        l->hours[h].all_on_demand_cost = od * (1.0 - spec->discount);
        gp_sum_add(&all_od, l->hours[h].all_on_demand_cost);
    }
    l->all_on_demand_cost = gp_sum_value(&all_od);
    l->savings = l->all_on_demand_cost - l->total_cost;
    l->savings_pct =
        l->all_on_demand_cost > 0 ? l->savings / l->all_on_demand_cost : 0;
    l->levers = lt->stats;
    l->levers.any = true;
}

/* Names the levers strategy g pulled in l->levers. */
static void name_levers(const gp_strategy *g, gp_ledger *l)
{
    l->levers.autoscale = g->autoscale.on;
    l->levers.rightsize = g->rightsize.on;
    l->levers.migrate = g->migrate.on;
    gp_levers_describe(g, l->levers.what, sizeof l->levers.what);
}

gp_status gp_levers_run(const gp_trace *t, const gp_pricing *p,
                        const gp_scenario *s, size_t strategy,
                        const gp_run_spec *spec, gp_ledger **out,
                        gp_error *err)
{
    const gp_strategy *g = &s->strategies[strategy];
    lever_trace *lt = NULL;

    *out = NULL;
    if (!gp_strategy_has_levers(g))
        return gp_engine_run(t, p, spec, out, err);
    gp_status st = levers_apply(t, p, g, spec, &lt, err);
    if (st == GP_OK)
        st = gp_engine_run(&lt->t, p, spec, out, err);
    if (st == GP_OK) {
        if (g->rightsize.on)
            stranded(lt, p, spec, &g->rightsize);
        if (g->migrate.on)
            stranded(lt, p, spec, &g->migrate);
        fold(lt, spec, *out);
        name_levers(g, *out);
    }
    lever_trace_free(lt);
    return st;
}

/* Adds to the notes whether rightsize m of strategy g pays at on-demand
 * rates over the window's demand it moves. */
static void rightsize_note(const gp_trace *t, const gp_pricing *p,
                           const gp_strategy *g, int64_t start_hour,
                           size_t n_hours, gp_warnings *notes)
{
    const gp_move *m = &g->rightsize;
    double ih = 0, before = 0, after = 0;
    char a[32], b[32], d[32];

    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *s = &t->series[i];
        const gp_pool *pool = &t->pools[s->pool];
        if (strcmp(pool->type->name, m->from) != 0 ||
            !(m->workloads & (1u << s->workload)))
            continue;
        const gp_instance_type *to = gp_pricing_find(
            p, pool->catalog->provider, pool->catalog->region, m->to, NULL,
            NULL);
        if (!to)
            continue;
        for (size_t h = 0; h < n_hours; h++) {
            int64_t th = start_hour + (int64_t)h - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            double v = s->instance_hours[th];
            ih += v;
            before += v * pool->type->on_demand;
            after += v * m->equivalence * to->on_demand;
        }
    }
    if (ih <= 0)
        return;
    gp_format_money(before, a, sizeof a);
    gp_format_money(after, b, sizeof b);
    gp_format_money(fabs(before - after), d, sizeof d);
    gp_warnings_add(notes,
                    "strategy %s: rightsizing %s to %s (%g for 1) %s: at "
                    "on-demand rates the window's %.1f instance-hours of it "
                    "cost %s and would cost %s (%s %s); simulate bills it "
                    "with the strategy's commitments and policy",
                    g->name, m->from, m->to, m->equivalence,
                    after < before ? "pays" : "does not pay", ih, a, b, d,
                    after < before ? "saved" : "more");
}

void gp_levers_notes(const gp_trace *t, const gp_pricing *p,
                     const gp_scenario *s, int64_t start_hour, size_t n_hours,
                     gp_warnings *notes)
{
    char day[32];

    for (size_t k = 1; k < s->n_strategies; k++) {
        const gp_strategy *g = &s->strategies[k];
        if (g->rightsize.on)
            rightsize_note(t, p, g, start_hour, n_hours, notes);
        if (!g->migrate.on)
            continue;
        gp_format_time(g->migrate.at, day, sizeof day);
        gp_warnings_add(notes,
                        "strategy %s migrates %s to %s on %s: a reservation "
                        "of %s, or an instance-family plan it leaves, bought "
                        "now strands its hours after that date, so one is "
                        "bought only where it pays for itself before it; "
                        "compute plans follow the usage",
                        g->name, g->migrate.from, g->migrate.to, day,
                        g->migrate.from);
    }
}
