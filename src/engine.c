/*
 * engine.c: the replay engine (SPEC section 4).
 *
 * For every clock hour of the window: sum the trace's series into what each
 * pool launches on demand and on spot (by the strategy's policy: spot only
 * for interruptible usage of a type that has a spot offer), hand the hour
 * to the purchasing models in billing order, then charge the hour's cost
 * back to the series that caused it.  Afterwards: monthly totals (amortized
 * and cash), window totals, and the scenario discount.
 *
 * Chargeback: on-demand and spot cost goes to the series in proportion to
 * their instance-hours in the pool; each commitment's cost of the hour
 * (used or not; a reservation family's together) goes to the pools it
 * covered in proportion to the on-demand value it covered there (the
 * models fill hour.commit_cost), then to the pool's series in proportion
 * to their on-demand launched instance-hours (which the commitments cover
 * alike).  A commitment that covered nothing in an hour keeps its cost as
 * `unallocated_cost`, so series costs plus unallocated always add up to
 * the total.
 *
 * Idle GPUs: when the strategy's policy sets terminate_idle_h, the idle
 * spans' instance-hours past that many hours (idle.h) are taken out of the
 * series' demand as the hours are read; all_on_demand_cost keeps them.
 */
#include "engine.h"
#include "idle.h"
#include "model.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Billing order for usage launched on demand, then spot. */
static const gp_model *const chain[] = {
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

static int64_t floor_hour(int64_t t)
{
    return t >= 0 ? t / 3600 : -((-t + 3599) / 3600);
}

void gp_engine_window(const gp_trace *trace, const gp_scenario *s,
                      int64_t *start_hour, size_t *n_hours)
{
    if (s && s->has_window) {
        int64_t a = floor_hour(s->window_start);
        int64_t z = floor_hour(s->window_end + 3599);
        *start_hour = a;
        *n_hours = z > a ? (size_t)(z - a) : 0;
    } else {
        *start_hour = trace->start_hour;
        *n_hours = trace->n_hours;
    }
}

void gp_ledger_free(gp_ledger *l)
{
    if (!l)
        return;
    gp_free(l->strategy);
    gp_free(l->hours);
    gp_free(l->months);
    gp_free(l->series);
    gp_free(l->jobs);
    gp_free(l->commitments);
    gp_free(l);
}

/* What a commitment pays in cash: per active hour, and once at its start. */
void gp_commitment_cash(const gp_commitment *c, const gp_pricing *p,
                        double *per_hour, double *upfront)
{
    *per_hour = 0;
    *upfront = 0;
    if (c->type == GP_COMMIT_RESERVED) {
        const gp_reserved_offer *o = gp_reserved_offer_of(p, c, NULL);
        if (o) {
            *per_hour = o->hourly * c->count;
            *upfront = o->upfront * c->count;
        }
    } else {
        /* savings plans: all upfront pays the whole term's commitment at
         * the start, partial upfront half of it, no upfront nothing */
        double term = c->hourly_commitment * c->term_years * 8760.0;
        switch (c->payment) {
        case GP_NO_UPFRONT:
            *per_hour = c->hourly_commitment;
            break;
        case GP_PARTIAL_UPFRONT:
            *per_hour = c->hourly_commitment / 2;
            *upfront = term / 2;
            break;
        case GP_ALL_UPFRONT:
            *upfront = term;
            break;
        }
    }
}

static size_t month_index(gp_ledger *l, int64_t t)
{
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    int y;
    unsigned m, d;
    gp_civil_from_days(days, &y, &m, &d);
    for (size_t i = l->n_months; i-- > 0;)
        if (l->months[i].year == y && l->months[i].month == (int)m)
            return i;
    l->months[l->n_months].year = y;
    l->months[l->n_months].month = (int)m;
    return l->n_months++;
}

/* Monthly totals from the hours (already discounted), and the cash view,
 * whose commitment fees take the same discount factor f. */
static void build_months(gp_ledger *l, const gp_model_input *in, double f)
{
    /* each month's hours are consecutive: compensated sums (gp_sum) over
     * them, written to the month when the next one starts */
    /* sum[k] for model k's cost (gp_model_id), then the rest */
    enum {
        RI_USED = GP_N_MODELS,
        RI_BOUGHT,
        SP_USED,
        SP_COMMITTED,
        LAUNCHED,
        COVERED,
        N_SUMS
    };
    gp_sum sum[N_SUMS] = {{0}};
    gp_ledger_month *m = NULL;
    for (size_t h = 0; h <= l->n_hours; h++) {
        gp_ledger_month *at = h < l->n_hours
                                  ? &l->months[month_index(
                                        l, (l->start_hour + (int64_t)h) * 3600)]
                                  : NULL;
        if (at != m && m) {
            for (int k = 0; k < GP_N_MODELS; k++)
                m->cost[k] = gp_sum_value(&sum[k]);
            m->reserved_used = gp_sum_value(&sum[RI_USED]);
            m->reserved_purchased = gp_sum_value(&sum[RI_BOUGHT]);
            m->sp_used = gp_sum_value(&sum[SP_USED]);
            m->sp_committed = gp_sum_value(&sum[SP_COMMITTED]);
            m->od_equiv_launched = gp_sum_value(&sum[LAUNCHED]);
            m->od_equiv_covered = gp_sum_value(&sum[COVERED]);
        }
        if (!at)
            break;
        if (at != m)
            memset(sum, 0, sizeof sum);
        m = at;
        const gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_sum_add(&sum[k], r->cost[k]);
        gp_sum_add(&sum[RI_USED], r->reserved_used);
        gp_sum_add(&sum[RI_BOUGHT], r->reserved_purchased);
        gp_sum_add(&sum[SP_USED], r->sp_used);
        gp_sum_add(&sum[SP_COMMITTED], r->sp_committed);
        gp_sum_add(&sum[LAUNCHED], r->od_equiv_launched);
        gp_sum_add(&sum[COVERED], r->od_equiv_covered);
    }
    for (size_t i = 0; i < in->n_commitments; i++) {
        const gp_commitment *c = in->commitments[i];
        double per_hour, upfront;
        size_t first, last;
        gp_commitment_cash(c, in->pricing, &per_hour, &upfront);
        per_hour *= f; /* the discount, as on the hours */
        upfront *= f;
        gp_commitment_active_hours(c, l->start_hour, l->n_hours, &first,
                                   &last);
        /* the fee times the month's active hours (a count, exact), not
         * the fee added once an hour */
        size_t n = 0;
        for (size_t h = first; h <= last; h++) {
            gp_ledger_month *at =
                h < last ? &l->months[month_index(
                               l, (l->start_hour + (int64_t)h) * 3600)]
                         : NULL;
            if (n > 0 && (at != m || !at)) {
                if (c->type == GP_COMMIT_RESERVED)
                    m->reserved_cash += per_hour * (double)n;
                else
                    m->savings_plan_cash += per_hour * (double)n;
                n = 0;
            }
            m = at;
            n++;
        }
        int64_t start_h = floor_hour(c->start);
        if (upfront > 0 && start_h >= l->start_hour &&
            start_h < l->start_hour + (int64_t)l->n_hours) {
            gp_ledger_month *um = &l->months[month_index(l, c->start)];
            if (c->type == GP_COMMIT_RESERVED)
                um->reserved_cash += upfront;
            else
                um->savings_plan_cash += upfront;
        }
    }
    for (size_t i = 0; i < l->n_months; i++) {
        m = &l->months[i];
        m->total_cost = gp_cost_total(m->cost);
        /* cash: the models without a commitment pay as they bill */
        m->total_cash = m->cost[GP_MODEL_ON_DEMAND] + m->cost[GP_MODEL_SPOT] +
                        m->reserved_cash + m->savings_plan_cash;
    }
}

/* The scenario's enterprise discount: a fraction off every price, so off
 * every cost (utilization and coverage are ratios and do not move). */
static void apply_discount(gp_ledger *l, double f)
{
    if (f == 1.0)
        return;
    for (size_t h = 0; h < l->n_hours; h++) {
        gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            r->cost[k] *= f;
        r->all_on_demand_cost *= f;
        r->od_equiv_launched *= f;
        r->od_equiv_covered *= f;
        r->sp_used *= f;
        r->sp_committed *= f;
    }
    for (size_t i = 0; i < l->n_series; i++)
        l->series[i].cost *= f;
    for (size_t i = 0; i < l->n_jobs; i++) {
        gp_ledger_job *j = &l->jobs[i];
        j->failed_attempt_cost_mean *= f;
        j->cost_mean *= f;
        j->cost_p50 *= f;
        j->cost_p95 *= f;
        j->base_cost *= f;
        j->cost_in_window *= f;
    }
    for (size_t i = 0; i < l->n_commitments; i++) {
        l->commitments[i].cost *= f;
        l->commitments[i].od_equiv_covered *= f;
        if (l->commitments[i].c->type == GP_COMMIT_SAVINGS_PLAN) {
            l->commitments[i].used *= f;
            l->commitments[i].purchased *= f;
        }
    }
    l->unallocated_cost *= f;
    l->spot_failed_attempt_cost_mean *= f;
    l->spot_cost_p50 *= f;
    l->spot_cost_p95 *= f;
}

double gp_ledger_series_cost_with_util(const gp_ledger *l, const gp_trace *t,
                                       size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    double gpu_hours =
        ls->instance_hours * t->pools[t->series[i].pool].type->gpus;

    if (ls->util_gpu_hours <= 0)
        return 0;
    /* with every row reporting gpu_util the share is 1, also when a gpus
     * column made whole instances of fewer GPUs */
    if (t->gpu_hours_without_util == 0 || ls->util_gpu_hours >= gpu_hours)
        return ls->cost;
    return ls->cost * ls->util_gpu_hours / gpu_hours;
}

double gp_ledger_series_useful_gpu_hours(const gp_ledger *l, size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    return ls->util_gpu_hours > 0 ? ls->useful_gpu_hours : NAN;
}

double gp_ledger_series_cost_per_useful_gpu_hour(const gp_ledger *l,
                                                 const gp_trace *t, size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    return ls->useful_gpu_hours > 0
               ? gp_ledger_series_cost_with_util(l, t, i) /
                     ls->useful_gpu_hours
               : NAN;
}

/* Orders chargeback rows by team, project (names, unlabelled first),
 * then workload.  chargeback_trace holds the labels (qsort has no
 * context); thread-local, so callers on two threads do not sort by each
 * other's labels. */
static _Thread_local const gp_trace *chargeback_trace;
static int chargeback_cmp(const void *a, const void *b)
{
    const gp_chargeback_row *x = a, *y = b;
    char *const *lab = chargeback_trace->labels;
    int c = strcmp(x->team >= 0 ? lab[x->team] : "",
                   y->team >= 0 ? lab[y->team] : "");
    if (!c)
        c = strcmp(x->project >= 0 ? lab[x->project] : "",
                   y->project >= 0 ? lab[y->project] : "");
    if (!c && x->workload != y->workload)
        c = x->workload < y->workload ? -1 : 1;
    return c;
}

gp_status gp_ledger_chargeback(const gp_ledger *l, const gp_trace *t,
                               gp_chargeback_row **rows, size_t *n,
                               gp_error *err)
{
    gp_chargeback_row *r = gp_calloc(l->n_series + 1, sizeof *r);
    size_t k = 0;

    *rows = NULL;
    *n = 0;
    if (!r) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < l->n_series; i++) {
        const gp_series *s = &t->series[i];
        size_t j;
        for (j = 0; j < k; j++)
            if (r[j].team == s->team && r[j].project == s->project &&
                r[j].workload == s->workload)
                break;
        if (j == k) {
            r[k].team = s->team;
            r[k].project = s->project;
            r[k].workload = s->workload;
            k++;
        }
        r[j].cost += l->series[i].cost;
        r[j].instance_hours += l->series[i].instance_hours;
        r[j].useful_gpu_hours += l->series[i].useful_gpu_hours;
        r[j].util_gpu_hours += l->series[i].util_gpu_hours;
        r[j].cost_with_util += gp_ledger_series_cost_with_util(l, t, i);
    }
    for (size_t j = 0; j < k; j++) {
        if (!(r[j].util_gpu_hours > 0))
            r[j].useful_gpu_hours = NAN;
        r[j].cost_per_useful_gpu_hour =
            r[j].useful_gpu_hours > 0
                ? r[j].cost_with_util / r[j].useful_gpu_hours
                : NAN;
    }
    if (k == 0) {
        gp_free(r);
        return GP_OK;
    }
    if (k > 1) {
        chargeback_trace = t;
        qsort(r, k, sizeof *r, chargeback_cmp);
    }
    *rows = r;
    *n = k;
    return GP_OK;
}

static void totals(gp_ledger *l, const gp_trace *t)
{
    /* over every hour of the window: compensated sums (gp_sum) */
    gp_sum cost[GP_N_MODELS] = {{0}}, all_od = {0};
    gp_sum ri_used = {0}, ri_bought = {0}, sp_used = {0}, sp_bought = {0};
    gp_sum launched = {0}, covered = {0}, ih[GP_N_WORKLOADS] = {{0}};

    for (size_t h = 0; h < l->n_hours; h++) {
        const gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_sum_add(&cost[k], r->cost[k]);
        gp_sum_add(&all_od, r->all_on_demand_cost);
        gp_sum_add(&ri_used, r->reserved_used);
        gp_sum_add(&ri_bought, r->reserved_purchased);
        gp_sum_add(&sp_used, r->sp_used);
        gp_sum_add(&sp_bought, r->sp_committed);
        gp_sum_add(&launched, r->od_equiv_launched);
        gp_sum_add(&covered, r->od_equiv_covered);
        for (int w = 0; w < GP_N_WORKLOADS; w++)
            gp_sum_add(&ih[w], r->instance_hours[w]);
    }
    for (int k = 0; k < GP_N_MODELS; k++)
        l->cost[k] = gp_sum_value(&cost[k]);
    l->all_on_demand_cost = gp_sum_value(&all_od);
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        l->workload_instance_hours[w] = gp_sum_value(&ih[w]);
    l->total_cost = gp_cost_total(l->cost);
    l->savings = l->all_on_demand_cost - l->total_cost;
    l->savings_pct =
        l->all_on_demand_cost > 0 ? l->savings / l->all_on_demand_cost : 0;
    double bought = gp_sum_value(&ri_bought), sp_all = gp_sum_value(&sp_bought);
    double od_launched = gp_sum_value(&launched);
    l->reserved_utilization =
        bought > 0 ? gp_sum_value(&ri_used) / bought : NAN;
    l->savings_plan_utilization =
        sp_all > 0 ? gp_sum_value(&sp_used) / sp_all : NAN;
    l->coverage = od_launched > 0 ? gp_sum_value(&covered) / od_launched : 0;
    /* cost per useful GPU-hour over the usage that reported gpu_util: a
     * series' cost counts in the share of its GPU-hours that had one */
    gp_sum useful = {0}, util = {0}, with_util = {0};
    gp_sum by_workload[GP_N_WORKLOADS] = {{0}};
    for (size_t i = 0; i < l->n_series; i++) {
        const gp_ledger_series *ls = &l->series[i];
        gp_sum_add(&useful, ls->useful_gpu_hours);
        gp_sum_add(&util, ls->util_gpu_hours);
        gp_sum_add(&by_workload[t->series[i].workload], ls->cost);
        gp_sum_add(&with_util, gp_ledger_series_cost_with_util(l, t, i));
    }
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        l->workload_cost[w] = gp_sum_value(&by_workload[w]);
    l->useful_gpu_hours = gp_sum_value(&useful);
    double util_gpu_hours = gp_sum_value(&util);
    double cost_with_util = gp_sum_value(&with_util);
    if (!(util_gpu_hours > 0))
        l->useful_gpu_hours = NAN; /* unknown: no usage reported gpu_util */
    if (t->gpu_hours_without_util == 0)
        cost_with_util = l->total_cost; /* SPEC: total / useful */
    l->cost_per_useful_gpu_hour = l->useful_gpu_hours > 0
                                      ? cost_with_util / l->useful_gpu_hours
                                      : NAN;
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
static bool span_replayed_on_spot(const gp_trace *t, const gp_policy *policy,
                                  const gp_idle_span *sp, double ws, double we)
{
    const gp_series *ser = &t->series[sp->series];

    if (sp->job < 0 || gp_series_route(t, policy, ser) != GP_ROUTE_SPOT)
        return false;
    for (size_t i = 0; i < t->n_runs; i++) {
        const gp_job_run *jr = &t->runs[i];
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
    if (st == GP_OK) {
        double ws = (double)start_hour * 3600.0;
        double we = (double)(start_hour + (int64_t)n_hours) * 3600.0;
        size_t k = 0;
        for (size_t i = 0; i < r->n_spans; i++)
            if (!span_replayed_on_spot(trace, policy, &r->spans[i], ws, we))
                r->spans[k++] = r->spans[i];
        r->n_spans = k;
        st = gp_idle_cuts(trace, r, keep, cuts, n, NULL, err);
    }
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
        spec->start_hour = floor_hour(opt->window_start);
        spec->n_hours =
            (size_t)(floor_hour(opt->window_end + 3599) - spec->start_hour);
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

gp_status gp_engine_run(const gp_trace *trace, const gp_pricing *pricing,
                        const gp_run_spec *spec, gp_ledger **out, gp_error *err)
{
    gp_model_input in;
    gp_ledger *l = NULL;
    void *state[N_CHAIN] = {NULL};
    const gp_commitment **commits = NULL;
    double *od_rate = NULL, *scratch = NULL;
    gp_idle_cut *cuts = NULL;
    size_t n_cuts = 0, next_cut = 0;
    gp_status st = GP_ERR_NOMEM;
    const gp_policy *policy = spec->policy;
    size_t np = trace->n_pools;

    *out = NULL;
    memset(&in, 0, sizeof in);
    in.trace = trace;
    in.pricing = pricing;
    in.spec = spec;

    /* the run's commitments: owned, the strategy's, the caller's */
    size_t nc = spec->n_owned + spec->n_added + spec->n_extra;
    commits = gp_calloc(nc + 1, sizeof *commits);
    od_rate = gp_calloc(np + 1, sizeof *od_rate);
    scratch = gp_calloc(6 * (np + 1), sizeof *scratch);
    l = gp_calloc(1, sizeof *l);
    if (!commits || !od_rate || !scratch || !l)
        goto fail;
    for (size_t i = 0; i < spec->n_owned; i++)
        commits[in.n_commitments++] = &spec->owned[i];
    for (size_t i = 0; i < spec->n_added; i++)
        commits[in.n_commitments++] = &spec->added[i];
    for (size_t i = 0; i < spec->n_extra; i++)
        commits[in.n_commitments++] = &spec->extra[i];
    in.commitments = commits;
    for (size_t p = 0; p < np; p++)
        od_rate[p] = trace->pools[p].type->on_demand;
    in.od_rate = od_rate;

    l->strategy = gp_strdup(spec->strategy);
    l->start_hour = spec->start_hour;
    l->n_hours = spec->n_hours;
    l->hours = gp_calloc(spec->n_hours + 1, sizeof *l->hours);
    /* a window of H hours touches at most H / 672 + 2 calendar months */
    l->months = gp_calloc(spec->n_hours / 672 + 3, sizeof *l->months);
    l->series = gp_calloc(trace->n_series + 1, sizeof *l->series);
    l->n_series = trace->n_series;
    l->commitments = gp_calloc(nc + 1, sizeof *l->commitments);
    l->n_commitments = in.n_commitments;
    l->mc_runs = spec->mc_runs;
    l->mc_seed = spec->mc_seed;
    if (!l->strategy || !l->hours || !l->months || !l->series ||
        !l->commitments)
        goto fail;
    for (size_t i = 0; i < in.n_commitments; i++)
        l->commitments[i].c = commits[i];

    for (size_t k = 0; k < N_CHAIN; k++) {
        st = chain[k]->prepare(&in, &state[k], err);
        if (st != GP_OK)
            goto fail;
    }
    st = strategy_cuts(trace, policy, spec->start_hour, spec->n_hours, &cuts,
                       &n_cuts, err);
    if (st != GP_OK)
        goto fail;
    st = GP_ERR_NOMEM;

    gp_hour hour;
    memset(&hour, 0, sizeof hour);
    hour.remaining = scratch;
    hour.spot = scratch + (np + 1);
    hour.covered_value = scratch + 2 * (np + 1);
    hour.od_cost = scratch + 3 * (np + 1);
    hour.spot_cost = scratch + 4 * (np + 1);
    hour.commit_cost = scratch + 5 * (np + 1);
    double *od_launched = gp_calloc(np + 1, sizeof *od_launched);
    /* [pool] spot instance-hours not in a replayed job run, and the
     * runs' cost; [series] the runs' cost and instance-hours */
    double *rest_ih = gp_calloc(2 * (np + 1), sizeof *rest_ih);
    double *job_cost = rest_ih ? rest_ih + (np + 1) : NULL;
    double *per_series =
        gp_calloc(2 * (trace->n_series + 1), sizeof *per_series);
    /* [series] its cost over the window, and the window's unallocated
     * commitment cost: compensated sums (gp_sum) over the hours */
    gp_sum *series_cost = gp_calloc(trace->n_series + 1, sizeof *series_cost);
    gp_sum unallocated = {0};
    if (!od_launched || !rest_ih || !per_series || !series_cost) {
        gp_free(od_launched);
        gp_free(rest_ih);
        gp_free(per_series);
        gp_free(series_cost);
        st = GP_ERR_NOMEM;
        goto fail;
    }
    hour.job_spot_cost = per_series;
    hour.job_spot_ih = per_series + (trace->n_series + 1);
    hour.job_spot = false;
    /* The series' arrays are read a block of hours at a time into
     * hour-major tiles: reading one value from each of thousands of arrays
     * every hour stalled on memory (bench/README.md). */
    size_t ns = trace->n_series;
    double *tile = gp_malloc((3 * TILE_HOURS * ns + 1) * sizeof *tile);
    if (!tile) {
        gp_free(od_launched);
        gp_free(rest_ih);
        gp_free(per_series);
        gp_free(series_cost);
        st = GP_ERR_NOMEM;
        goto fail;
    }
    for (size_t h = 0; h < spec->n_hours; h++) {
        int64_t th = spec->start_hour + (int64_t)h - trace->start_hour;
        gp_ledger_hour *row = &l->hours[h];
        size_t slot = h % TILE_HOURS;

        if (slot == 0) {
            fill_tile(trace, tile, spec->start_hour + (int64_t)h,
                      spec->n_hours - h);
            if (n_cuts)
                apply_cuts(trace, tile, spec->start_hour + (int64_t)h,
                           spec->n_hours - h, cuts, n_cuts, &next_cut,
                           &l->hours[h], od_rate,
                           &l->idle_terminated_instance_hours);
        }
        const double *d_inst = tile + slot * ns;
        const double *d_useful = tile + (TILE_HOURS + slot) * ns;
        const double *d_util = tile + (2 * TILE_HOURS + slot) * ns;
        memset(scratch, 0, 6 * (np + 1) * sizeof *scratch);
        /* cleared only after an hour a model wrote to them: a memset of
         * every series every hour cost the 1,000-pool bench 15% */
        if (hour.job_spot)
            memset(per_series, 0, 2 * (ns + 1) * sizeof *per_series);
        hour.job_spot = false;
        bool spot_any = false;
        hour.h = h;
        hour.t = (spec->start_hour + (int64_t)h) * 3600;
        hour.row = row;
        hour.commitment_cost = 0;
        if (th >= 0 && th < (int64_t)trace->n_hours) {
            for (size_t i = 0; i < trace->n_series; i++) {
                const gp_series *ser = &trace->series[i];
                double d = d_inst[i];
                if (d == 0)
                    continue;
                if (gp_series_route(trace, policy, ser) == GP_ROUTE_SPOT) {
                    hour.spot[ser->pool] += d;
                    spot_any = true;
                } else
                    hour.remaining[ser->pool] += d;
                row->instance_hours[ser->workload] += d;
                row->all_on_demand_cost += d * od_rate[ser->pool];
            }
        }
        for (size_t p = 0; p < np; p++) {
            od_launched[p] = hour.remaining[p];
            row->od_equiv_launched += hour.remaining[p] * od_rate[p];
        }
        for (size_t k = 0; k < N_CHAIN; k++)
            chain[k]->bill_hour(state[k], &in, &hour);
        double covered = 0;
        for (size_t p = 0; p < np; p++)
            covered += hour.covered_value[p];
        row->od_equiv_covered = covered;

        /* charge the hour back to its series: a job run's spot cost
         * (its fallback included) to its own series, the rest of a pool's
         * spot cost by the instance-hours outside job runs */
        double allocated = 0;
        if (th >= 0 && th < (int64_t)trace->n_hours) {
            if (spot_any || hour.job_spot) {
                memset(rest_ih, 0, 2 * (np + 1) * sizeof *rest_ih);
                for (size_t i = 0; i < ns; i++) {
                    const gp_series *ser = &trace->series[i];
                    double rest = d_inst[i] - hour.job_spot_ih[i];
                    if ((d_inst[i] == 0 && hour.job_spot_cost[i] == 0) ||
                        gp_series_route(trace, policy, ser) != GP_ROUTE_SPOT)
                        continue;
                    rest_ih[ser->pool] += rest > 0 ? rest : 0;
                    job_cost[ser->pool] += hour.job_spot_cost[i];
                }
            }
            for (size_t i = 0; i < trace->n_series; i++) {
                const gp_series *ser = &trace->series[i];
                double d = d_inst[i];
                gp_ledger_series *ls = &l->series[i];
                /* a job run's cost goes to its series whatever the
                 * series' demand in the hour shows */
                double job = hour.job_spot ? hour.job_spot_cost[i] : 0;
                if (d == 0 && d_useful[i] == 0 && job == 0)
                    continue;
                ls->instance_hours += d;
                ls->useful_gpu_hours += d_useful[i];
                ls->util_gpu_hours += d_util[i];
                if (d == 0 && job == 0)
                    continue;
                size_t p = ser->pool;
                double c;
                if (gp_series_route(trace, policy, ser) == GP_ROUTE_SPOT) {
                    double rest = d - hour.job_spot_ih[i];
                    c = job;
                    if (rest > 0 && rest_ih[p] > 0)
                        c += (hour.spot_cost[p] - job_cost[p]) * rest /
                             rest_ih[p];
                } else {
                    double share = d / od_launched[p];
                    c = (hour.od_cost[p] + hour.commit_cost[p]) * share;
                }
                gp_sum_add(&series_cost[i], c);
                allocated += c;
            }
        }
        gp_sum_add(&unallocated, gp_cost_total(row->cost) - allocated);
    }
    for (size_t i = 0; i < trace->n_series; i++)
        l->series[i].cost = gp_sum_value(&series_cost[i]);
    l->unallocated_cost = gp_sum_value(&unallocated);
    gp_free(series_cost);
    gp_free(od_launched);
    gp_free(rest_ih);
    gp_free(per_series);
    gp_free(tile);

    for (size_t k = 0; k < N_CHAIN; k++) {
        st = chain[k]->finish(state[k], &in, l);
        if (st != GP_OK)
            goto fail;
    }
    /* the months are built from the discounted hours */
    apply_discount(l, 1.0 - spec->discount);
    build_months(l, &in, 1.0 - spec->discount);
    totals(l, trace);
    /* rounding noise in the allocation is not a cost of its own */
    if (fabs(l->unallocated_cost) < 1e-6 * (1 + l->total_cost))
        l->unallocated_cost = 0;

    for (size_t k = 0; k < N_CHAIN; k++)
        chain[k]->free(state[k]);
    gp_free(commits);
    gp_free(od_rate);
    gp_free(scratch);
    gp_free(cuts);
    *out = l;
    return GP_OK;
fail:
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    for (size_t k = 0; k < N_CHAIN; k++)
        if (state[k])
            chain[k]->free(state[k]);
    gp_free(commits);
    gp_free(od_rate);
    gp_free(scratch);
    gp_free(cuts);
    gp_ledger_free(l);
    return st == GP_OK ? GP_ERR_NOMEM : st;
}
