/*
 * engine.c: the replay engine (SPEC section 4): a run specification, and
 * the run that bills a trace hour by hour through the purchasing models
 * and charges each hour back to the series that caused it.  The ledger's
 * months and totals are in engine_ledger.c; the reasoning (chargeback,
 * idle GPUs, the tiles) is in docs/design/engine.md.
 */
#include "engine_internal.h"
#include "idle.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Billing order: job runs on capacity instruments first (their hours
 * leave the on-demand launch), then usage launched on demand, then spot. */
static const gp_model *const chain[] = {
    &gp_model_capacity,
    &gp_model_reserved,
    &gp_model_savings_plan,
    &gp_model_on_demand,
    &gp_model_spot,
};
#define N_CHAIN (sizeof chain / sizeof chain[0])

void gp_engine_options_init(gp_engine_options *o)
{
    memset(o, 0, sizeof *o);
    o->mc_runs = -1;
    o->mc_seed = -1;
}

void gp_engine_window(const gp_trace *trace, const gp_scenario *s,
                      int64_t *start_hour, size_t *n_hours)
{
    if (s && s->has_window) {
        int64_t a = gp_floor_hour(s->window_start);
        int64_t z = gp_floor_hour(s->window_end + 3599);
        *start_hour = a;
        *n_hours = z > a ? (size_t)(z - a) : 0;
    } else {
        *start_hour = trace->start_hour;
        *n_hours = trace->n_hours;
    }
}

#define TILE_HOURS 64

/*
 * Copies up to TILE_HOURS hours from `hour` (epoch hours) of every series
 * into three hour-major tiles: instance-hours, useful GPU-hours, GPU-hours
 * with utilization.  Hours outside the trace are zero.
 */
static void fill_tile(const gp_trace *t, double *tile, int64_t hour,
                      size_t left)
{
    size_t ns = t->n_series;
    size_t n = left < TILE_HOURS ? left : TILE_HOURS;

    memset(tile, 0, 3 * TILE_HOURS * ns * sizeof *tile);
    for (size_t i = 0; i < ns; i++) {
        const gp_series *s = &t->series[i];
        for (size_t k = 0; k < n; k++) {
            int64_t th = hour + (int64_t)k - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            tile[k * ns + i] = s->instance_hours[th];
            tile[(TILE_HOURS + k) * ns + i] = s->useful_gpu_hours[th];
            tile[(2 * TILE_HOURS + k) * ns + i] = s->util_gpu_hours[th];
        }
    }
}

/* Whether the spot model replays idle span `sp` by Monte Carlo in the
 * window [ws, we) (seconds): it is part of a job run that the strategy
 * launches on spot and that starts in the window (the runs spot.c
 * replays).  Those runs are billed whole, not shortened (idle.h), so
 * cutting their demand would remove instance-hours whose cost stays. */
/* The trace's job runs grouped by job label: the runs of label j are
 * run[at[j] .. at[j + 1]), so that a span looks at its own job's runs,
 * not at every run (which made the scan quadratic). */
struct runs_by_job {
    size_t *at;
    uint32_t *run;
};

/* Fills b for t; false when out of memory. */
static bool runs_by_job_of(const gp_trace *t, struct runs_by_job *b)
{
    size_t nl = t->n_labels;
    b->at = gp_calloc(nl + 2, sizeof *b->at);
    b->run = gp_malloc((t->n_runs + 1) * sizeof *b->run);
    if (!b->at || !b->run)
        return false;
    for (size_t i = 0; i < t->n_runs; i++)
        if (t->runs[i].job >= 0 && (size_t)t->runs[i].job < nl)
            b->at[t->runs[i].job + 2]++;
    for (size_t j = 0; j < nl; j++)
        b->at[j + 2] += b->at[j + 1];
    for (size_t i = 0; i < t->n_runs; i++)
        if (t->runs[i].job >= 0 && (size_t)t->runs[i].job < nl)
            b->run[b->at[t->runs[i].job + 1]++] = (uint32_t)i;
    return true;
}

static bool span_replayed_on_spot(const gp_trace *t, const gp_policy *policy,
                                  const struct runs_by_job *b,
                                  const gp_idle_span *sp, double ws, double we)
{
    const gp_series *ser = &t->series[sp->series];

    if (sp->job < 0 || (size_t)sp->job >= t->n_labels ||
        gp_series_route(t, policy, ser) != GP_ROUTE_SPOT)
        return false;
    for (size_t k = b->at[sp->job]; k < b->at[sp->job + 1]; k++) {
        const gp_job_run *jr = &t->runs[b->run[k]];
        if (jr->job != sp->job || jr->series != sp->series ||
            (double)jr->start < ws || (double)jr->start >= we ||
            jr->instances <= 0 || jr->instance_hours <= 0)
            continue;
        if ((double)jr->start < sp->end && (double)jr->end > sp->start)
            return true;
    }
    return false;
}

/* The demand a strategy's terminate policy removes (idle.h), sorted by
 * hour; *cuts is NULL when the policy terminates nothing.  The window
 * (epoch hours) tells which job runs the spot model replays: their spans
 * are not cut. */
static gp_status strategy_cuts(const gp_trace *trace, const gp_policy *policy,
                               int64_t start_hour, size_t n_hours,
                               gp_idle_cut **cuts, size_t *n, gp_error *err)
{
    double keep[2] = {policy[0].terminate_idle_h, policy[1].terminate_idle_h};
    gp_idle_report *r = NULL;
    gp_status st;

    *cuts = NULL;
    *n = 0;
    if (!(keep[0] > 0) && !(keep[1] > 0))
        return GP_OK;
    st = gp_idle_detect(trace, 0, &r, err);
    struct runs_by_job b = {NULL, NULL};
    if (st == GP_OK && !runs_by_job_of(trace, &b)) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        st = GP_ERR_NOMEM;
    }
    if (st == GP_OK) {
        double ws = (double)start_hour * 3600.0;
        double we = (double)(start_hour + (int64_t)n_hours) * 3600.0;
        size_t k = 0;
        for (size_t i = 0; i < r->n_spans; i++)
            if (!span_replayed_on_spot(trace, policy, &b, &r->spans[i], ws,
                                       we))
                r->spans[k++] = r->spans[i];
        r->n_spans = k;
        st = gp_idle_cuts(trace, r, keep, cuts, n, NULL, err);
    }
    gp_free(b.at);
    gp_free(b.run);
    gp_idle_report_free(r);
    return st;
}

/*
 * Takes the terminate policy's cuts out of a tile just filled for `left`
 * hours from epoch hour `hour` (tile index k is window hour h0 + k).  *next
 * is the first cut not yet applied; cuts before the tile are skipped.  The
 * instance-hours removed go back into all_on_demand_cost of their hour
 * (the cost of the usage as it happened) and into *removed.
 */
static void apply_cuts(const gp_trace *t, double *tile, int64_t hour,
                       size_t left, const gp_idle_cut *cuts, size_t n_cuts,
                       size_t *next, gp_ledger_hour *rows,
                       const double *od_rate, double *removed)
{
    size_t ns = t->n_series;
    size_t n = left < TILE_HOURS ? left : TILE_HOURS;
    int64_t th0 = hour - t->start_hour;

    while (*next < n_cuts && (int64_t)cuts[*next].hour < th0)
        (*next)++;
    for (; *next < n_cuts && (int64_t)cuts[*next].hour < th0 + (int64_t)n;
         (*next)++) {
        const gp_idle_cut *c = &cuts[*next];
        if (c->hour >= t->n_hours || c->series >= ns)
            continue;
        size_t k = (size_t)((int64_t)c->hour - th0);
        size_t i = c->series;
        double *inst = &tile[k * ns + i];
        double *useful = &tile[(TILE_HOURS + k) * ns + i];
        double *util = &tile[(2 * TILE_HOURS + k) * ns + i];
        double cut = c->instance_hours < *inst ? c->instance_hours : *inst;
        *inst -= cut;
        *useful = *useful > c->useful_gpu_hours ? *useful - c->useful_gpu_hours
                                                : 0;
        *util = *util > c->util_gpu_hours ? *util - c->util_gpu_hours : 0;
        if (*inst < 1e-12)
            *inst = 0;
        rows[k].all_on_demand_cost += cut * od_rate[t->series[i].pool];
        *removed += cut;
    }
}

gp_status gp_run_spec_init(gp_run_spec *spec, const gp_trace *trace,
                           const gp_scenario *s, size_t strategy,
                           const gp_engine_options *opt, gp_error *err)
{
    gp_engine_options defaults;
    const gp_strategy *strat;

    memset(spec, 0, sizeof *spec);
    if (!opt) {
        gp_engine_options_init(&defaults);
        opt = &defaults;
    }
    if (strategy >= s->n_strategies) {
        gp_error_set(err, NULL, 0, 0, NULL, "no strategy %zu", strategy);
        return GP_ERR_INPUT;
    }
    strat = &s->strategies[strategy];
    spec->strategy = strat->name;
    if (opt->window_end > opt->window_start) {
        spec->start_hour = gp_floor_hour(opt->window_start);
        spec->n_hours =
            (size_t)(gp_floor_hour(opt->window_end + 3599) - spec->start_hour);
    } else {
        gp_engine_window(trace, s, &spec->start_hour, &spec->n_hours);
    }
    spec->policy[0] = strat->policy[0];
    spec->policy[1] = strat->policy[1];
    spec->owned = s->commitments;
    spec->n_owned = s->n_commitments;
    spec->added = strat->add_commitments;
    spec->n_added = strat->n_add;
    spec->extra = opt->extra;
    spec->n_extra = opt->n_extra;
    spec->discount = s->discount;
    spec->spot_price_factor = s->spot_price_factor;
    spec->interruption_factor = s->interruption_factor;
    spec->mc_runs = opt->mc_runs > 0 ? opt->mc_runs : s->mc_runs;
    spec->mc_seed = opt->mc_seed >= 0 ? (uint64_t)opt->mc_seed : s->mc_seed;
    spec->threads = opt->threads;
    spec->progress = opt->progress;
    return GP_OK;
}

/* One run of gp_engine_run: what the models read, the ledger being
 * written and the hour loop's buffers, all owned by the run until the
 * ledger is handed to the caller. */
struct run {
    const gp_trace *trace;
    const gp_run_spec *spec;
    gp_model_input in;
    gp_ledger *l;
    void *state[N_CHAIN]; /* the models', in chain order */
    const gp_commitment **commits;
    double *od_rate;
    double *scratch;   /* the hour's per-pool arrays (hour) */
    gp_idle_cut *cuts; /* the terminate policy's (strategy_cuts) */
    size_t n_cuts, next_cut;
    gp_hour hour;
    double *od_launched; /* [pool] launched on demand in the hour */
    /* [pool] spot instance-hours not in a replayed job run, and the
     * runs' cost; [series] the runs' cost and instance-hours */
    double *rest_ih, *job_cost;
    double *per_series;
    /* [series x hour] the series' demand, TILE_HOURS at a time */
    double *tile;
    /* [series] its cost over the window, and the window's unallocated
     * commitment cost: compensated sums (gp_sum) over the hours */
    gp_sum *series_cost, unallocated;
    /* the hour's calendar month, counted from the window's first */
    size_t month;
};

/* The calendar month of epoch hour `hour`, counted from the month of
 * epoch hour `first` (the ledger's months are in that order). */
static size_t month_from(int64_t first, int64_t hour)
{
    int y0, y;
    unsigned m0, m, d;
    gp_civil_from_days(first >= 0 ? first / 24 : -((-first + 23) / 24), &y0,
                       &m0, &d);
    gp_civil_from_days(hour >= 0 ? hour / 24 : -((-hour + 23) / 24), &y, &m,
                       &d);
    return (size_t)((y - y0) * 12 + ((int)m - (int)m0));
}

/* Lists the run's commitments (owned, the strategy's, the caller's),
 * the pools' on-demand rates and a new ledger for the window. */
static gp_status run_open(struct run *r, const gp_pricing *pricing)
{
    const gp_trace *trace = r->trace;
    const gp_run_spec *spec = r->spec;
    size_t np = trace->n_pools;
    gp_model_input *in = &r->in;
    gp_ledger *l;

    in->trace = trace;
    in->pricing = pricing;
    in->spec = spec;
    size_t nc = spec->n_owned + spec->n_added + spec->n_extra;
    r->commits = gp_calloc(nc + 1, sizeof *r->commits);
    r->od_rate = gp_calloc(np + 1, sizeof *r->od_rate);
    r->scratch = gp_calloc(6 * (np + 1), sizeof *r->scratch);
    r->l = l = gp_calloc(1, sizeof *l);
    if (!r->commits || !r->od_rate || !r->scratch || !l)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < spec->n_owned; i++)
        r->commits[in->n_commitments++] = &spec->owned[i];
    for (size_t i = 0; i < spec->n_added; i++)
        r->commits[in->n_commitments++] = &spec->added[i];
    for (size_t i = 0; i < spec->n_extra; i++)
        r->commits[in->n_commitments++] = &spec->extra[i];
    in->commitments = r->commits;
    for (size_t p = 0; p < np; p++)
        r->od_rate[p] = trace->pools[p].type->on_demand;
    in->od_rate = r->od_rate;

    l->strategy = gp_strdup(spec->strategy);
    l->start_hour = spec->start_hour;
    l->n_hours = spec->n_hours;
    l->hours = gp_calloc(spec->n_hours + 1, sizeof *l->hours);
    /* a window of H hours touches at most H / 672 + 2 calendar months */
    l->months = gp_calloc(spec->n_hours / 672 + 3, sizeof *l->months);
    l->series = gp_calloc(trace->n_series + 1, sizeof *l->series);
    l->n_series = trace->n_series;
    l->month_slots = spec->n_hours / 672 + 3;
    l->series_month_cost = gp_calloc(trace->n_series * l->month_slots + 1,
                                     sizeof *l->series_month_cost);
    l->commitments = gp_calloc(nc + 1, sizeof *l->commitments);
    l->n_commitments = in->n_commitments;
    l->mc_runs = spec->mc_runs;
    l->mc_seed = spec->mc_seed;
    if (!l->strategy || !l->hours || !l->months || !l->series ||
        !l->series_month_cost || !l->commitments)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < in->n_commitments; i++)
        l->commitments[i].c = r->commits[i];
    return GP_OK;
}

/* Prepares the models in chain order (the spot model runs its Monte
 * Carlo here), then finds the demand the terminate policy removes. */
static gp_status run_prepare(struct run *r, gp_error *err)
{
    for (size_t k = 0; k < N_CHAIN; k++) {
        gp_status st = chain[k]->prepare(&r->in, &r->state[k], err);
        if (st != GP_OK)
            return st;
    }
    return strategy_cuts(r->trace, r->spec->policy, r->spec->start_hour,
                         r->spec->n_hours, &r->cuts, &r->n_cuts, err);
}

/* The hour loop's buffers: the hour's per-pool arrays (in scratch), the
 * chargeback's and the tile. */
static gp_status run_buffers(struct run *r)
{
    size_t np = r->trace->n_pools, ns = r->trace->n_series;
    gp_hour *hour = &r->hour;

    hour->remaining = r->scratch;
    hour->spot = r->scratch + (np + 1);
    hour->covered_value = r->scratch + 2 * (np + 1);
    hour->od_cost = r->scratch + 3 * (np + 1);
    hour->spot_cost = r->scratch + 4 * (np + 1);
    hour->commit_cost = r->scratch + 5 * (np + 1);
    r->od_launched = gp_calloc(np + 1, sizeof *r->od_launched);
    r->rest_ih = gp_calloc(2 * (np + 1), sizeof *r->rest_ih);
    r->job_cost = r->rest_ih ? r->rest_ih + (np + 1) : NULL;
    r->per_series = gp_calloc(2 * (ns + 1), sizeof *r->per_series);
    r->series_cost = gp_calloc(ns + 1, sizeof *r->series_cost);
    /* The series' arrays are read a block of hours at a time into
     * hour-major tiles: reading one value from each of thousands of arrays
     * every hour stalled on memory (bench/README.md). */
    r->tile = gp_malloc((3 * TILE_HOURS * ns + 1) * sizeof *r->tile);
    if (!r->od_launched || !r->rest_ih || !r->per_series || !r->series_cost ||
        !r->tile)
        return GP_ERR_NOMEM;
    hour->job_spot_cost = r->per_series;
    hour->job_spot_ih = r->per_series + (ns + 1);
    hour->job_spot = false;
    return GP_OK;
}

/* Sums the hour's demand d_inst ([series]) into what each pool launches
 * on spot and on demand, and into the ledger row; whether any went to
 * spot. */
static bool route_demand(struct run *r, const double *d_inst,
                         gp_ledger_hour *row)
{
    const gp_trace *trace = r->trace;
    bool spot_any = false;

    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        double d = d_inst[i];
        if (d == 0)
            continue;
        if (gp_series_route(trace, r->spec->policy, ser) == GP_ROUTE_SPOT) {
            r->hour.spot[ser->pool] += d;
            spot_any = true;
        } else
            r->hour.remaining[ser->pool] += d;
        row->instance_hours[ser->workload] += d;
        row->all_on_demand_cost += d * r->od_rate[ser->pool];
    }
    return spot_any;
}

/* Per pool: the spot instance-hours of the hour outside replayed job
 * runs (rest_ih) and the runs' cost (job_cost). */
static void spot_rest(struct run *r, const double *d_inst)
{
    const gp_trace *trace = r->trace;
    const gp_hour *hour = &r->hour;

    memset(r->rest_ih, 0, 2 * (trace->n_pools + 1) * sizeof *r->rest_ih);
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        double rest = d_inst[i] - hour->job_spot_ih[i];
        if ((d_inst[i] == 0 && hour->job_spot_cost[i] == 0) ||
            gp_series_route(trace, r->spec->policy, ser) != GP_ROUTE_SPOT)
            continue;
        r->rest_ih[ser->pool] += rest > 0 ? rest : 0;
        r->job_cost[ser->pool] += hour->job_spot_cost[i];
    }
}

/*
 * Charges the hour back to its series (the tile's slot: instance-hours,
 * useful and with-utilization GPU-hours): a job run's spot cost (its
 * fallback included) to its own series, the rest of a pool's spot cost
 * by the instance-hours outside job runs, the on-demand and commitment
 * cost by on-demand launched instance-hours.  Returns what it charged.
 */
static double charge_back(struct run *r, const double *d_inst,
                          const double *d_useful, const double *d_util,
                          bool spot_any)
{
    const gp_trace *trace = r->trace;
    const gp_hour *hour = &r->hour;
    double allocated = 0;

    if (spot_any || hour->job_spot)
        spot_rest(r, d_inst);
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        double d = d_inst[i];
        gp_ledger_series *ls = &r->l->series[i];
        /* a job run's cost goes to its series whatever the
         * series' demand in the hour shows */
        double job = hour->job_spot ? hour->job_spot_cost[i] : 0;
        if (d == 0 && d_useful[i] == 0 && job == 0)
            continue;
        ls->instance_hours += d;
        ls->useful_gpu_hours += d_useful[i];
        ls->util_gpu_hours += d_util[i];
        if (d == 0 && job == 0)
            continue;
        size_t p = ser->pool;
        double c;
        if (gp_series_route(trace, r->spec->policy, ser) == GP_ROUTE_SPOT) {
            double rest = d - hour->job_spot_ih[i];
            c = job;
            if (rest > 0 && r->rest_ih[p] > 0)
                c += (hour->spot_cost[p] - r->job_cost[p]) * rest /
                     r->rest_ih[p];
        } else {
            /* a job run on a capacity instrument (job) is not in the
             * on-demand launch the rest shares */
            double rest = d - (hour->job_spot ? hour->job_spot_ih[i] : 0);
            c = job;
            if (rest > 0 && r->od_launched[p] > 0)
                c += (hour->od_cost[p] + hour->commit_cost[p]) *
                     (rest / r->od_launched[p]);
        }
        gp_sum_add(&r->series_cost[i], c);
        r->l->series_month_cost[i * r->l->month_slots + r->month] += c;
        allocated += c;
    }
    return allocated;
}

/* Bills window hour h: reads its demand (a new tile every TILE_HOURS
 * hours, with the terminate policy's cuts), hands it to the models in
 * chain order and charges it back to the series. */
static void bill_hour(struct run *r, size_t h)
{
    const gp_trace *trace = r->trace;
    const gp_run_spec *spec = r->spec;
    size_t np = trace->n_pools, ns = trace->n_series;
    int64_t th = spec->start_hour + (int64_t)h - trace->start_hour;
    gp_ledger_hour *row = &r->l->hours[h];
    size_t slot = h % TILE_HOURS;
    gp_hour *hour = &r->hour;

    if (slot == 0) {
        fill_tile(trace, r->tile, spec->start_hour + (int64_t)h,
                  spec->n_hours - h);
        if (r->n_cuts)
            apply_cuts(trace, r->tile, spec->start_hour + (int64_t)h,
                       spec->n_hours - h, r->cuts, r->n_cuts, &r->next_cut,
                       &r->l->hours[h], r->od_rate,
                       &r->l->idle_terminated_instance_hours);
    }
    const double *d_inst = r->tile + slot * ns;
    const double *d_useful = r->tile + (TILE_HOURS + slot) * ns;
    const double *d_util = r->tile + (2 * TILE_HOURS + slot) * ns;
    memset(r->scratch, 0, 6 * (np + 1) * sizeof *r->scratch);
    /* cleared only after an hour a model wrote to them: a memset of
     * every series every hour cost the 1,000-pool bench 15% */
    if (hour->job_spot)
        memset(r->per_series, 0, 2 * (ns + 1) * sizeof *r->per_series);
    hour->job_spot = false;
    bool spot_any = false;
    bool in_trace = th >= 0 && th < (int64_t)trace->n_hours;
    hour->h = h;
    hour->t = (spec->start_hour + (int64_t)h) * 3600;
    r->month = month_from(spec->start_hour, spec->start_hour + (int64_t)h);
    hour->row = row;
    hour->commitment_cost = 0;
    if (in_trace)
        spot_any = route_demand(r, d_inst, row);
    /* capacity first: what it takes is not launched on demand */
    chain[0]->bill_hour(r->state[0], &r->in, hour);
    for (size_t p = 0; p < np; p++) {
        r->od_launched[p] = hour->remaining[p];
        row->od_equiv_launched += hour->remaining[p] * r->od_rate[p];
    }
    for (size_t k = 1; k < N_CHAIN; k++)
        chain[k]->bill_hour(r->state[k], &r->in, hour);
    double covered = 0;
    for (size_t p = 0; p < np; p++)
        covered += hour->covered_value[p];
    row->od_equiv_covered = covered;

    double allocated =
        in_trace ? charge_back(r, d_inst, d_useful, d_util, spot_any) : 0;
    gp_sum_add(&r->unallocated, gp_cost_total(row->cost) - allocated);
}

/* After the last hour: the series' costs, the models' per-commitment
 * and per-job results, then the discount, months and totals. */
static gp_status run_close(struct run *r)
{
    gp_ledger *l = r->l;

    for (size_t i = 0; i < r->trace->n_series; i++)
        l->series[i].cost = gp_sum_value(&r->series_cost[i]);
    l->unallocated_cost = gp_sum_value(&r->unallocated);
    for (size_t k = 0; k < N_CHAIN; k++) {
        gp_status st = chain[k]->finish(r->state[k], &r->in, l);
        if (st != GP_OK)
            return st;
    }
    gp_ledger_finish(l, &r->in, 1.0 - r->spec->discount);
    return GP_OK;
}

/* Frees what the run owns: the models' states, its buffers and the
 * ledger, unless it was handed over (r->l NULL). */
static void run_free(struct run *r)
{
    for (size_t k = 0; k < N_CHAIN; k++)
        if (r->state[k])
            chain[k]->free(r->state[k]);
    gp_free(r->commits);
    gp_free(r->od_rate);
    gp_free(r->scratch);
    gp_free(r->cuts);
    gp_free(r->od_launched);
    gp_free(r->rest_ih);
    gp_free(r->per_series);
    gp_free(r->series_cost);
    gp_free(r->tile);
    gp_ledger_free(r->l);
}

gp_status gp_engine_run(const gp_trace *trace, const gp_pricing *pricing,
                        const gp_run_spec *spec, gp_ledger **out, gp_error *err)
{
    struct run r;
    gp_status st;

    *out = NULL;
    memset(&r, 0, sizeof r);
    r.trace = trace;
    r.spec = spec;
    st = run_open(&r, pricing);
    if (st == GP_OK)
        st = run_prepare(&r, err);
    if (st == GP_OK)
        st = run_buffers(&r);
    if (st == GP_OK) {
        for (size_t h = 0; h < spec->n_hours; h++)
            bill_hour(&r, h);
        st = run_close(&r);
    }
    if (st == GP_OK) {
        *out = r.l;
        r.l = NULL;
    } else if (st == GP_ERR_NOMEM) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    }
    run_free(&r);
    return st;
}
