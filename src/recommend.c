/*
 * recommend.c: the commitment recommender (see recommend.h).
 *
 * Every cost it reports comes from the engine (gp_engine_run), billing the
 * trace with the plan's commitments added on top of the ones owned; the
 * optimizer only chooses the levels.  Savings are measured against the
 * scenario's policy with no new commitments (policy_cost).
 */
#include "recommend.h"
#include "forecast.h"
#include "optimizer.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>


#define ALL_PAYMENTS 7u
#define NO_UPFRONT_ONLY (1u << GP_NO_UPFRONT)
#define WEEK 168

/* A run's fixed parts: the scenario with the baseline strategy, maybe
 * routed, and the window. */
struct ctx {
    const gp_trace *trace;
    const gp_pricing *pricing;
    gp_scenario scn;    /* shallow copy whose only strategy is strat */
    gp_strategy strat;  /* the baseline, training maybe on spot */
    int64_t start_hour; /* window */
    size_t n_hours;
    const gp_recommend_options *opt;
    const gp_trace *low; /* --forward: the P10 demand, the low case */
};

static void ctx_init(struct ctx *c, const gp_trace *t, const gp_pricing *p,
                     const gp_scenario *s, int64_t start_hour,
                     size_t n_hours, const gp_recommend_options *opt)
{
    c->trace = t;
    c->pricing = p;
    c->scn = *s;
    c->strat = s->strategies[0];
    c->strat.add_commitments = NULL;
    c->strat.n_add = 0;
    c->scn.strategies = &c->strat;
    c->scn.n_strategies = 1;
    c->start_hour = start_hour;
    c->n_hours = n_hours;
    c->opt = opt;
    c->low = NULL;
}

/* *dst = a copy of c whose scenario points at the copy's own strategy,
 * so that its policy can change without changing c's. */
static void ctx_copy(struct ctx *dst, const struct ctx *c)
{
    *dst = *c;
    dst->scn.strategies = &dst->strat;
}

/* Bills the window with `extra` commitments on top of the owned ones. */
static gp_status bill(const struct ctx *c, const gp_trace *t,
                      const gp_commitment *extra, size_t n_extra,
                      gp_ledger **out, gp_error *err)
{
    gp_engine_options eo;
    gp_engine_options_init(&eo);
    eo.window_start = c->start_hour * 3600;
    eo.window_end = (c->start_hour + (int64_t)c->n_hours) * 3600;
    eo.extra = extra;
    eo.n_extra = n_extra;
    eo.threads = c->opt->threads;
    eo.mc_runs = c->opt->mc_runs;
    eo.mc_seed = c->opt->mc_seed;
    eo.progress = c->opt->progress;
    return gp_engine_run(t ? t : c->trace, c->pricing, &c->scn, 0, &eo, out,
                         err);
}

static gp_status bill_cost(const struct ctx *c, const gp_trace *t,
                           const gp_commitment *extra, size_t n_extra,
                           double *cost, gp_error *err)
{
    gp_ledger *l;
    gp_status st = bill(c, t, extra, n_extra, &l, err);
    *cost = NAN;
    if (st != GP_OK)
        return st;
    *cost = l->total_cost;
    gp_ledger_free(l);
    return GP_OK;
}

/* A bill for running beside another (bill_two). */
struct bill_job {
    const struct ctx *c;
    const gp_trace *t;
    const gp_commitment *extra;
    size_t n_extra;
    gp_ledger *out;
    gp_status st;
    gp_error err;
};

static void *bill_job_run(void *arg)
{
    struct bill_job *j = arg;

    gp_error_clear(&j->err);
    j->st = bill(j->c, j->t, j->extra, j->n_extra, &j->out, &j->err);
    return NULL;
}

/* Runs two independent bills at once, b on a second thread when one can
 * be started.  Returns the first failure (its error in err); the ledgers
 * are the caller's to free either way. */
static gp_status bill_two(struct bill_job *a, struct bill_job *b,
                          gp_error *err)
{
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, bill_job_run, b) == 0;

    bill_job_run(a);
    if (threaded)
        pthread_join(thread, NULL);
    else
        bill_job_run(b);
    gp_status st = a->st != GP_OK ? a->st : b->st;
    if (st != GP_OK && err)
        *err = a->st != GP_OK ? a->err : b->err;
    return st;
}

/* ---- the low-demand case ----------------------------------------------- */

/*
 * A copy of the trace over the window in which every series repeats the
 * window's lowest-demand week (by on-demand value), or its lowest day when
 * the window is shorter than two weeks.  Pools and labels are borrowed;
 * free with downside_free.  Job runs are left out: spot work in it is
 * priced by the expected-value formula.
 */
static void downside_free(gp_trace *d);

/* *out is NULL (and GP_OK) when the window is too short for the case;
 * GP_ERR_NOMEM when memory ran out, nothing left allocated. */
static gp_status downside_trace(const struct ctx *c, gp_trace **out)
{
    /* --forward: the forecast's P10 over the whole window instead */
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
            downside_free(d);
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

static void downside_free(gp_trace *d)
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

/*
 * The low-demand case, built and billed on a second thread while the
 * balanced plan is solved: the solve needs neither, only the plan's bill
 * does (downside_wait).  `policy` is its cost under the scenario's own
 * policy; `base` as launched (training on spot when routing was taken).
 */
struct downside_job {
    const struct ctx *c;
    bool routed;
    gp_trace *down; /* NULL: the window is too short for the case */
    double policy, base;
    gp_status st;
    gp_error err;
    pthread_t thread;
    bool threaded, waited;
};

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
    ctx_copy(&plain, c);
    plain.strat.policy[0].launch = c->scn.policy[0].launch;
    gp_ledger *l = NULL;
    j->st = bill(&plain, j->down, NULL, 0, &l, &j->err);
    if (j->st == GP_OK)
        j->policy = j->base = l->total_cost;
    gp_ledger_free(l);
    l = NULL;
    if (j->st == GP_OK && j->routed) {
        /* and the routing action in the low-demand case */
        j->st = bill(c, j->down, NULL, 0, &l, &j->err);
        if (j->st == GP_OK)
            j->base = l->total_cost;
        gp_ledger_free(l);
    }
    return NULL;
}

/* Starts the low-demand case on a second thread, or runs it here when no
 * thread can be started. */
static void downside_start(struct downside_job *j, const struct ctx *c,
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
static gp_status downside_wait(struct downside_job *j, gp_error *err)
{
    if (j->threaded && !j->waited) {
        pthread_join(j->thread, NULL);
        j->waited = true; /* before the other plans' threads start */
    }
    if (j->st != GP_OK && err)
        *err = j->err;
    return j->st;
}

/* ---- what the history supports ----------------------------------------- */

/* A 1-year term sized on fewer hours of history than this carries a
 * caveat (README, "1-year terms"): four weeks, four of the weekly cycles
 * demand follows, the shortest window whose lowest week (the low-demand
 * case) is one of several. */
#define ONE_YEAR_HISTORY_HOURS (4 * WEEK)

/* 3 when the window has 26 weeks or more and its last 13 weeks average at
 * least 90% of the whole; else 1.  *share is that average over the
 * whole's (NAN under 26 weeks). */
static int supported_term(const struct ctx *c, double *share)
{
    const gp_trace *t = c->trace;
    double all = 0, last = 0;
    size_t last_from = c->n_hours > 13 * WEEK ? c->n_hours - 13 * WEEK : 0;

    *share = NAN;
    if (c->n_hours < 26 * WEEK)
        return 1;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < c->n_hours; h++) {
            int64_t th = c->start_hour + (int64_t)h - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            all += t->series[i].instance_hours[th];
            if (h >= last_from)
                last += t->series[i].instance_hours[th];
        }
    double mean_all = all / (double)c->n_hours;
    double mean_last = last / (double)(c->n_hours - last_from);
    *share = mean_all > 0 ? mean_last / mean_all : 1;
    return mean_last >= 0.9 * mean_all ? 3 : 1;
}

/* A span of hours in words: "13 weeks", "1 week", "27.5 weeks", or under a
 * week "100 hours", "1 hour".  Tenths of a week are cut, not rounded, so
 * a span short of a whole number of weeks never reads as it: 671 hours is
 * "3.9 weeks", under the 4 weeks a rule asks for, not "4.0 weeks". */
static void span_words(size_t hours, char *buf, size_t size)
{
    if (hours >= WEEK && hours % WEEK == 0)
        snprintf(buf, size, "%zu week%s", hours / WEEK,
                 gp_plural(hours / WEEK, "", "s"));
    else if (hours >= WEEK)
        snprintf(buf, size, "%zu.%zu weeks", hours / WEEK,
                 hours % WEEK * 10 / WEEK);
    else
        snprintf(buf, size, "%zu hour%s", hours, gp_plural(hours, "", "s"));
}

/* Why 3-year terms are not supported, after "as": the window is under 26
 * weeks, or it declines; with n_hours > 0 the text says how long the
 * window is. */
static void unsupported_why(const gp_recommendation *r, size_t n_hours,
                            bool forecast, char *buf, size_t size)
{
    char span[48] = "";
    if (n_hours) {
        char w[32];
        span_words(n_hours, w, sizeof w);
        snprintf(span, sizeof span, " (there %s %s)",
                 n_hours == 1 || n_hours == WEEK ? "is" : "are", w);
    }
    if (isnan(r->last_13_weeks_share))
        snprintf(buf, size, "3-year terms need 26 weeks of %s%s",
                 forecast ? "forecast" : "history", span);
    else
        snprintf(buf, size,
                 "the %s declines: its last 13 weeks average %.0f%% of the "
                 "whole, and 3-year terms need 90%% or more",
                 forecast ? "forecast" : "history",
                 100 * r->last_13_weeks_share);
}

/* ---- plans --------------------------------------------------------------- */

/* What the scenario's discount leaves of a catalog price (the engine
 * bills every price, commitment fees included, times this). */
static double kept(const struct ctx *c)
{
    return 1.0 - c->scn.discount;
}

/* A commitment's upfront payment, less the scenario's discount. */
static double upfront_of(const struct ctx *c, const gp_commitment *cm)
{
    double per_hour, upfront;
    gp_commitment_cash(cm, c->pricing, &per_hour, &upfront);
    return upfront * kept(c);
}

/* A year of a commitment's amortized cost, less the scenario's discount. */
static double annual_of(const struct ctx *c, const gp_commitment *cm)
{
    if (cm->type == GP_COMMIT_SAVINGS_PLAN)
        return cm->hourly_commitment * 8760.0 * kept(c);
    const gp_reserved_offer *o = gp_reserved_offer_of(c->pricing, cm, NULL);
    return o ? gp_reserved_effective_hourly(o) * cm->count * 8760.0 * kept(c)
             : 0;
}

/* Sizes one plan with the optimizer on `size_on` and bills it on the
 * window and, once `low` is ready, on the low-demand case. */
static gp_status make_plan(const struct ctx *c, const gp_trace *size_on,
                           struct downside_job *low, const char *name,
                           int max_term, unsigned payments, double policy_cost,
                           const gp_opt *warm, gp_plan_result *out,
                           gp_opt **opt_out, gp_ledger **ledger_out,
                           gp_error *err)
{
    gp_opt *o = NULL;
    gp_status st;

    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->route_training_to_spot = c->strat.policy[0].launch == GP_LAUNCH_SPOT;
    st = gp_opt_build(&o, size_on, c->pricing, &c->scn, 0, c->start_hour,
                      c->n_hours, max_term, payments, err);
    if (st != GP_OK)
        return st;
    if (warm) {
        /* the other plans start from the balanced one's levels */
        gp_opt_warm_start(o, warm);
        o->max_rounds = 15;
    }
    o->no_cost = true; /* the engine bills the plan below */
    gp_opt_solve(o);
    if (o->nomem) {
        st = GP_ERR_NOMEM;
        goto out;
    }
    st = gp_opt_commitments(o, c->start_hour * 3600, &out->commitments,
                            &out->n_commitments);
    if (st != GP_OK)
        goto out;
    /* the plan's bill and, beside it, its bill in the low-demand case */
    if ((st = downside_wait(low, err)) != GP_OK)
        goto out;
    const gp_trace *downside = low->down;
    struct bill_job pj, dj;
    memset(&pj, 0, sizeof pj);
    pj.c = c;
    pj.extra = out->commitments;
    pj.n_extra = out->n_commitments;
    dj = pj;
    dj.t = downside;
    st = downside ? bill_two(&pj, &dj, err)
                  : bill(c, NULL, out->commitments, out->n_commitments,
                         &pj.out, err);
    if (st == GP_OK) {
        out->total_cost = pj.out->total_cost;
        /* a window under a day has no low-demand case: unknown, not 0 */
        out->downside_net_savings =
            downside ? low->policy - dj.out->total_cost : NAN;
    }
    gp_ledger_free(dj.out);
    if (st == GP_OK && ledger_out)
        *ledger_out = pj.out;
    else
        gp_ledger_free(pj.out);
    if (st != GP_OK)
        goto out;
    out->net_savings = policy_cost - out->total_cost;
    for (size_t i = 0; i < out->n_commitments; i++) {
        out->upfront += upfront_of(c, &out->commitments[i]);
        out->annual_cost += annual_of(c, &out->commitments[i]);
    }
out:
    if (opt_out && st == GP_OK)
        *opt_out = o;
    else
        gp_opt_free(o);
    return st;
}

/* ---- actions ------------------------------------------------------------- */

static int action_grow(gp_recommendation *r)
{
    gp_action *a = gp_realloc(r->actions, (r->n_actions + 1) * sizeof *a);
    if (!a)
        return -1;
    r->actions = a;
    memset(&r->actions[r->n_actions], 0, sizeof *a);
    return (int)r->n_actions++;
}

/* The share of window hours in which x_h >= level. */
static double share_at_least(const double *x, size_t n, double level)
{
    size_t k = 0;
    for (size_t h = 0; h < n; h++)
        k += x[h] >= level - 1e-9;
    return n ? (double)k / (double)n : 0;
}

/* Standalone savings of a reservation of n in a pool with no plans:
 * on-demand value covered minus its cost. */
static double reservation_value(const gp_opt_pool *p, size_t hours)
{
    double covered = 0;
    for (size_t h = 0; h < hours; h++)
        covered += p->demand[h] < p->n ? p->demand[h] : p->n;
    return covered * p->od - p->n * p->ri_rate * (double)hours;
}

static _Thread_local const gp_opt *sort_o;
static int pool_value_cmp(const void *a, const void *b)
{
    double x = reservation_value(&sort_o->pools[*(const size_t *)a],
                                 sort_o->n_hours);
    double y = reservation_value(&sort_o->pools[*(const size_t *)b],
                                 sort_o->n_hours);
    return x > y ? -1 : (x < y);
}

/* Up to this many actions, each one's savings are billed by the engine. */
#define EXACT_ACTIONS 40

/* Sets the optimizer's decisions to the first `upto` of `ordered`
 * (reservations by type and region, plans by kind, family and region),
 * the rest to none. */
static void set_decisions(gp_opt *o, const gp_commitment *ordered,
                          size_t upto)
{
    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n_fixed < 0)
            o->pools[p].n = 0;
    for (size_t k = 0; k < o->n_plans; k++)
        if (!o->plans[k].fixed)
            o->plans[k].S = 0;
    for (size_t i = 0; i < upto; i++) {
        const gp_commitment *c = &ordered[i];
        if (c->type == GP_COMMIT_RESERVED) {
            for (size_t p = 0; p < o->n_pools; p++)
                if (strcmp(o->pools[p].type->name, c->instance_type) == 0 &&
                    strcmp(o->pools[p].catalog->region, c->region) == 0)
                    o->pools[p].n = c->count;
        } else {
            for (size_t k = 0; k < o->n_plans; k++)
                if (!o->plans[k].fixed && o->plans[k].kind == c->kind &&
                    strcmp(o->plans[k].provider, c->provider) == 0 &&
                    strcmp(o->plans[k].family, c->family) == 0 &&
                    strcmp(o->plans[k].region, c->region) == 0)
                    o->plans[k].S = c->hourly_commitment;
        }
    }
}

/* The optimizer-model savings of each action on top of those before it,
 * in the window and in the low-demand case.  GP_ERR_NOMEM when memory ran
 * out (the figures are then not to be used). */
static gp_status model_marginals(const struct ctx *c, gp_opt *o,
                                 const gp_commitment *ordered, size_t k,
                                 const gp_trace *downside, double *marginal,
                                 double *marginal_down, gp_error *err)
{
    gp_opt *down = NULL;
    gp_status st = GP_OK;
    double *saved_n = gp_calloc(o->n_pools + 1, sizeof *saved_n);
    double *saved_S = gp_calloc(o->n_plans + 1, sizeof *saved_S);

    if (!saved_n || !saved_S) {
        gp_free(saved_n);
        gp_free(saved_S);
        return GP_ERR_NOMEM;
    }
    for (size_t p = 0; p < o->n_pools; p++)
        saved_n[p] = o->pools[p].n;
    for (size_t j = 0; j < o->n_plans; j++)
        saved_S[j] = o->plans[j].S;
    /* the same inputs built the window's problem: only memory can fail */
    if (downside)
        st = gp_opt_build(&down, downside, c->pricing, &c->scn, 0,
                          c->start_hour, c->n_hours, 3, ALL_PAYMENTS, err);
    for (int pass = 0; pass < (down ? 2 : 1); pass++) {
        gp_opt *m = pass == 0 ? o : down;
        double *out = pass == 0 ? marginal : marginal_down;
        double prev = NAN;
        for (size_t i = 0; i < k; i++) {
            if (ordered[i].type == GP_COMMIT_RESERVED) {
                /* independent of the other reservations */
                for (size_t p = 0; p < m->n_pools; p++)
                    if (strcmp(m->pools[p].type->name,
                               ordered[i].instance_type) == 0 &&
                        strcmp(m->pools[p].catalog->region,
                               ordered[i].region) == 0) {
                        double n = m->pools[p].n;
                        m->pools[p].n = ordered[i].count;
                        m->pools[p].ri_rate = gp_reserved_effective_hourly(
                            o->pools[p].ri_offer);
                        out[i] = reservation_value(&m->pools[p],
                                                   m->n_hours);
                        m->pools[p].n = n;
                    }
                continue;
            }
            /* plans: only this plan's dollars change, so only the pools
             * it covers need billing (all of them for a compute plan) */
            if (isnan(prev)) {
                set_decisions(m, ordered, i);
                prev = 0;
            }
            size_t q = m->n_plans;
            for (size_t j = 0; j < m->n_plans; j++)
                if (!m->plans[j].fixed &&
                    m->plans[j].kind == ordered[i].kind &&
                    strcmp(m->plans[j].provider, ordered[i].provider) == 0 &&
                    strcmp(m->plans[j].family, ordered[i].family) == 0 &&
                    strcmp(m->plans[j].region, ordered[i].region) == 0)
                    q = j;
            if (q == m->n_plans) {
                out[i] = 0;
                continue;
            }
            double before = gp_opt_cost_local(m, q);
            bool local = !isnan(before);
            if (!local)
                before = gp_opt_cost(m);
            m->plans[q].S = ordered[i].hourly_commitment;
            double after = local ? gp_opt_cost_local(m, q) : gp_opt_cost(m);
            if (isnan(after))
                after = gp_opt_cost(m);
            out[i] = before - after;
        }
    }
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = saved_n[p];
    for (size_t j = 0; j < o->n_plans; j++)
        o->plans[j].S = saved_S[j];
    if (st == GP_OK && (o->nomem || (down && down->nomem)))
        st = GP_ERR_NOMEM;
    gp_opt_free(down);
    gp_free(saved_n);
    gp_free(saved_S);
    return st;
}

/* Whether optimizer plan p is the one to buy that commitment c names. */
static bool plan_is(const gp_opt_plan *p, const gp_commitment *c)
{
    return !p->fixed && c->type == GP_COMMIT_SAVINGS_PLAN &&
           p->kind == c->kind && strcmp(p->provider, c->provider) == 0 &&
           strcmp(p->family, c->family) == 0 &&
           strcmp(p->region, c->region) == 0;
}

/* Counts in *hit the hours in which the usage that plan o->plans[pl] may
 * cover, at its rates, came to `commitment` or more: demand after the
 * reservations, less what the plans billed before it cover (each in its
 * covering order, up to its dollars: an owned plan's S, a bought one's
 * level among bought[0, n_bought), none when it is not bought).  Without
 * that, a compute plan bought under family plans looked fully used in
 * hours the family plans had covered. */
static gp_status plan_hours_reached(const gp_opt *o,
                                    const gp_commitment *bought,
                                    size_t n_bought, size_t pl,
                                    double commitment, size_t *hit)
{
    const gp_opt_plan *p = &o->plans[pl];
    size_t n_el = 0;
    for (size_t j = 0; j < pl; j++)
        n_el += o->plans[j].n_el;
    double *level = gp_calloc(pl + 1, sizeof *level);
    double *rest = gp_calloc(o->n_pools, sizeof *rest);
    bool *mine = gp_calloc(o->n_pools, sizeof *mine);
    /* the plans before p with elements over p's pools, plan[0, n_q),
     * and those elements in covering order: el[start[m], start[m + 1]) */
    gp_opt_eligible *el = gp_calloc(n_el + 1, sizeof *el);
    size_t *start = gp_calloc(pl + 1, sizeof *start);
    size_t *plan = gp_calloc(pl + 1, sizeof *plan), n_q = 0;

    *hit = 0;
    if (!level || !rest || !mine || !el || !start || !plan) {
        gp_free(plan);
        gp_free(level);
        gp_free(rest);
        gp_free(mine);
        gp_free(el);
        gp_free(start);
        return GP_ERR_NOMEM;
    }
    for (size_t j = 0; j < pl; j++) {
        level[j] = o->plans[j].fixed ? o->plans[j].S : 0;
        for (size_t b = 0; b < n_bought && !o->plans[j].fixed; b++)
            if (plan_is(&o->plans[j], &bought[b]))
                level[j] = bought[b].hourly_commitment;
    }
    /* A pool p cannot cover stays at 0 (the calloc), so a plan before p
     * takes nothing from it and its dollars go on: only its elements over
     * p's pools can change rest or its dollars left.  1,000 pools: the
     * ranking went over every element of every plan before p, each hour
     * (2.5 s of CPU, perf); the same hours are counted. */
    for (size_t e = 0; e < p->n_el; e++)
        mine[p->el[e].pool] = true;
    n_el = 0;
    for (size_t j = 0; j < pl; j++) {
        start[n_q] = n_el;
        for (size_t e = 0; e < o->plans[j].n_el; e++)
            if (mine[o->plans[j].el[e].pool])
                el[n_el++] = o->plans[j].el[e];
        if (n_el > start[n_q])
            plan[n_q++] = j;
    }
    start[n_q] = n_el;
    for (size_t h = 0; h < o->n_hours; h++) {
        for (size_t e = 0; e < p->n_el; e++) {
            const gp_opt_pool *pp = &o->pools[p->el[e].pool];
            rest[p->el[e].pool] =
                pp->demand[h] > pp->n ? pp->demand[h] - pp->n : 0;
        }
        for (size_t m = 0; m < n_q; m++) {
            const gp_opt_plan *q = &o->plans[plan[m]];
            double left = level[plan[m]];
            if (h < q->first || h >= q->last)
                continue;
            for (size_t e = start[m]; e < start[m + 1] && left > 0; e++) {
                double *r = &rest[el[e].pool], x = left / el[e].rate;
                x = x < *r ? x : *r;
                *r -= x;
                left -= x * el[e].rate;
            }
        }
        double need = 0;
        for (size_t e = 0; e < p->n_el; e++)
            need += rest[p->el[e].pool] * p->el[e].rate;
        /* the commitment was rounded to a step: usage within half a
         * step of it reached it */
        *hit += need >= commitment - 0.5 / GP_PLAN_STEPS - 1e-9;
    }
    gp_free(level);
    gp_free(rest);
    gp_free(mine);
    gp_free(el);
    gp_free(start);
    gp_free(plan);
    return GP_OK;
}

/* What a compute plan's reason says it covers: "on-demand usage the
 * reservations and family plans left", naming only the instruments the
 * catalogs sell for the types it covers (Azure sells no family plans, a
 * catalog of your own may have no reservations). */
static void compute_left(const gp_opt *o, const gp_opt_plan *p, char *buf,
                         size_t size)
{
    bool reserved = false, family = false;

    for (size_t e = 0; e < p->n_el; e++) {
        const gp_instance_type *it = o->pools[p->el[e].pool].type;
        reserved = reserved || it->n_reserved > 0;
        for (size_t j = 0; j < it->n_plans; j++)
            family = family || it->plans[j].kind == GP_PLAN_FAMILY;
    }
    snprintf(buf, size, "on-demand usage%s%s%s%s",
             reserved || family ? " the " : "", reserved ? "reservations" : "",
             reserved && family ? " and " : "",
             family     ? "family plans left"
             : reserved ? " left"
                        : "");
}

/*
 * The recommended plan's purchases in order: routing first, then
 * reservations by their standalone savings, then instance_family plans,
 * then compute plans (the order the bill applies them in).  Each action's
 * net savings are billed by the engine on top of the actions above it.
 */
static gp_status rank_actions(const struct ctx *c, gp_recommendation *r,
                              const gp_plan_result *plan,
                              const gp_ledger *plan_bill, gp_opt *o,
                              const gp_trace *downside, double down_base,
                              gp_error *err)
{
    size_t n = plan->n_commitments;
    gp_commitment *ordered = gp_calloc(n + 1, sizeof *ordered);
    size_t *src = gp_calloc(n + 1, sizeof *src); /* index in the plan */
    size_t *pools = gp_calloc(o->n_pools + 1, sizeof *pools);
    size_t k = 0, np = 0;
    gp_ledger *full = NULL;
    double *marginal = NULL, *marginal_down = NULL;
    gp_status st = GP_ERR_NOMEM;

    if (!ordered || !src || !pools)
        goto out;
    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0 && o->pools[p].ri_offer)
            pools[np++] = p;
    sort_o = o;
    qsort(pools, np, sizeof *pools, pool_value_cmp);
    for (size_t i = 0; i < np; i++)
        for (size_t j = 0; j < n; j++)
            if (plan->commitments[j].type == GP_COMMIT_RESERVED &&
                strcmp(plan->commitments[j].instance_type,
                       o->pools[pools[i]].type->name) == 0 &&
                strcmp(plan->commitments[j].region,
                       o->pools[pools[i]].catalog->region) == 0) {
                src[k] = j;
                ordered[k++] = plan->commitments[j];
            }
    for (int kind = GP_PLAN_FAMILY; kind >= GP_PLAN_COMPUTE; kind--)
        for (size_t j = 0; j < n; j++)
            if (plan->commitments[j].type == GP_COMMIT_SAVINGS_PLAN &&
                plan->commitments[j].kind == (gp_plan_kind)kind) {
                src[k] = j;
                ordered[k++] = plan->commitments[j];
            }

    /* the full plan: expected utilization and break-even per commitment,
     * from the plan's own bill (its commitments in the plan's order) */
    if (!plan_bill) {
        st = bill(c, NULL, plan->commitments, n, &full, err);
        if (st != GP_OK)
            goto out;
        plan_bill = full;
    }
    size_t owned = plan_bill->n_commitments - n;
    double prev = r->actions && r->n_actions ? r->policy_cost -
                                                   r->actions[0].net_savings
                                             : r->policy_cost;
    double prev_down = down_base;
    if (downside && isnan(prev_down)) {
        st = bill_cost(c, downside, NULL, 0, &prev_down, err);
        if (st != GP_OK)
            goto out;
    }
    /* With many actions, billing every prefix would take one engine run
     * per action: their savings then come from the optimizer's model
     * (reservations are independent of each other with no plan above
     * them; each plan takes one pass) and a note says so. */
    bool modelled = k > EXACT_ACTIONS;
    if (modelled) {
        marginal = gp_calloc(k + 1, sizeof *marginal);
        marginal_down = gp_calloc(k + 1, sizeof *marginal_down);
        if (!marginal || !marginal_down) {
            st = GP_ERR_NOMEM;
            goto out;
        }
        st = model_marginals(c, o, ordered, k, downside, marginal,
                             marginal_down, err);
        if (st != GP_OK)
            goto out;
        gp_warnings_add(&r->notes,
                        "%zu actions: each one's savings are the optimizer's "
                        "estimate (reservations without size flexibility); "
                        "the plans' totals are billed by the engine",
                        k);
    }
    for (size_t i = 0; i < k; i++) {
        double cost = prev - (modelled ? marginal[i] : 0);
        if (!modelled &&
            (st = bill_cost(c, NULL, ordered, i + 1, &cost, err)) != GP_OK)
            goto out;
        int ai = action_grow(r);
        if (ai < 0) {
            st = GP_ERR_NOMEM;
            goto out;
        }
        gp_action *a = &r->actions[ai];
        const gp_commitment *cm = &ordered[i];
        const gp_ledger_commitment *lc =
            &plan_bill->commitments[owned + src[i]];
        a->type = cm->type == GP_COMMIT_RESERVED ? GP_ACTION_RESERVED
                                                 : GP_ACTION_SAVINGS_PLAN;
        a->c = *cm;
        a->upfront = upfront_of(c, cm);
        a->net_savings = prev - cost;
        prev = cost;
        a->expected_utilization =
            lc->purchased > 0 ? lc->used / lc->purchased : 0;
        if (downside && modelled) {
            a->downside_net_savings = marginal_down[i];
        } else if (downside) {
            double d;
            st = bill_cost(c, downside, ordered, i + 1, &d, err);
            if (st != GP_OK)
                goto out;
            a->downside_net_savings = prev_down - d;
            prev_down = d;
        } else {
            a->downside_net_savings = NAN; /* no low-demand case */
        }
        if (cm->type == GP_COMMIT_RESERVED) {
            const gp_opt_pool *pool = NULL;
            for (size_t p = 0; p < o->n_pools; p++)
                if (strcmp(o->pools[p].type->name, cm->instance_type) == 0 &&
                    strcmp(o->pools[p].catalog->region, cm->region) == 0)
                    pool = &o->pools[p];
            double od = pool ? pool->od : 1;
            a->breakeven_utilization = pool ? pool->ri_rate / od : 0;
            /* net savings over the on-demand value it covered, at the
             * discounted prices the savings are billed at, as a savings
             * plan's */
            double equiv = lc->od_equiv_covered;
            a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
            double share =
                pool ? share_at_least(pool->demand, o->n_hours, cm->count)
                     : 0;
            snprintf(a->reason, sizeof a->reason,
                     "demand was at or above %g %s in %.0f%% of hours; "
                     "break-even is %.0f%%",
                     cm->count, cm->instance_type, 100 * share,
                     100 * a->breakeven_utilization);
        } else {
            a->breakeven_utilization = lc->od_equiv_covered > 0
                                           ? lc->used / lc->od_equiv_covered
                                           : 0;
            double equiv = lc->od_equiv_covered;
            a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
            /* hours in which eligible usage, at plan rates, reached the
             * commitment (after the reservations and the plans billed
             * before it) */
            size_t pl = o->n_plans, hit = 0;
            for (size_t j = 0; j < o->n_plans; j++)
                if (plan_is(&o->plans[j], cm))
                    pl = j;
            if (pl < o->n_plans &&
                (st = plan_hours_reached(o, ordered, k, pl,
                                         cm->hourly_commitment, &hit)) != GP_OK)
                goto out;
            char family_usage[64], compute_usage[80];
            snprintf(family_usage, sizeof family_usage, "%s usage not reserved",
                     cm->family);
            if (pl < o->n_plans)
                compute_left(o, &o->plans[pl], compute_usage,
                             sizeof compute_usage);
            else
                snprintf(compute_usage, sizeof compute_usage,
                         "on-demand usage");
            char per_hour[48];
            gp_format_money(cm->hourly_commitment, per_hour, sizeof per_hour);
            snprintf(a->reason, sizeof a->reason,
                     "%s came to %s/h or more at plan rates in %.0f%% of "
                     "hours; break-even is %.0f%%",
                     cm->kind == GP_PLAN_FAMILY ? family_usage : compute_usage,
                     per_hour,
                     o->n_hours ? 100.0 * (double)hit / (double)o->n_hours : 0,
                     100 * a->breakeven_utilization);
        }
        if (cm->term_years == 3) {
            char span[32];
            span_words(c->n_hours, span, sizeof span);
            snprintf(a->reason + strlen(a->reason),
                     sizeof a->reason - strlen(a->reason),
                     "; a 3-year term outlasts the %s of %s", span,
                     c->low ? "forecast" : "history");
        }
    }
    st = GP_OK;
out:
    gp_free(marginal);
    gp_free(marginal_down);
    gp_ledger_free(full);
    gp_free(ordered);
    gp_free(src);
    gp_free(pools);
    return st;
}

/* Whether o's decisions buy nothing: no reservation, no plan dollar (owned
 * plans aside, which are in every bill). */
static bool nothing_bought(const gp_opt *o)
{
    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0)
            return false;
    for (size_t k = 0; k < o->n_plans; k++)
        if (!o->plans[k].fixed && o->plans[k].S > 0)
            return false;
    return true;
}

/* Net savings of each of the first few instruments at levels from none to
 * twice the plan's, the others held at the plan's levels (optimizer costs,
 * shifted to the engine's bill of the plan). */
static gp_status make_curves(gp_recommendation *r, gp_opt *full,
                             double plan_net)
{
    size_t want = full->n_pools <= 50 ? 12 : 4;
    size_t points = full->n_pools <= 50 ? 21 : 11;
    /* a problem the optimizer solved on a sample of its hours is costed
     * on the same sample, scaled to the window */
    gp_opt *sample = gp_opt_sampled(full);
    gp_opt *o = sample ? sample : full;
    if (full->nomem)
        return GP_ERR_NOMEM;
    double scale = (double)full->n_hours / (double)o->n_hours;
    double base = gp_opt_cost(o);
    /* what buying nothing saves, as billed: the routing action's savings
     * (training on spot), or none */
    double none = r->n_actions && r->actions[0].type == GP_ACTION_ROUTING
                      ? r->actions[0].net_savings
                      : 0;

    r->curves = gp_calloc(want + 1, sizeof *r->curves);
    if (!r->curves) {
        gp_opt_free(sample);
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < r->n_actions && r->n_curves < want; i++) {
        gp_action *a = &r->actions[i];
        gp_curve *cv = &r->curves[r->n_curves];
        double *x = NULL;
        if (a->type == GP_ACTION_RESERVED) {
            for (size_t p = 0; p < o->n_pools; p++)
                if (strcmp(o->pools[p].type->name, a->c.instance_type) == 0 &&
                    strcmp(o->pools[p].catalog->region, a->c.region) == 0)
                    x = &o->pools[p].n;
            snprintf(cv->instrument, sizeof cv->instrument,
                     "reserved %s %s %dy %s", a->c.instance_type,
                     a->c.region, a->c.term_years,
                     gp_payment_name(a->c.payment));
            cv->unit = "instances";
        } else if (a->type == GP_ACTION_SAVINGS_PLAN) {
            for (size_t k = 0; k < o->n_plans; k++)
                if (!o->plans[k].fixed && o->plans[k].kind == a->c.kind &&
                    strcmp(o->plans[k].family, a->c.family) == 0 &&
                    strcmp(o->plans[k].region, a->c.region) == 0 &&
                    strcmp(o->plans[k].provider, a->c.provider) == 0)
                    x = &o->plans[k].S;
            /* an instance_family plan is of one region, as a
             * reservation: g5 plans in two regions are two curves */
            bool family = a->c.kind == GP_PLAN_FAMILY;
            snprintf(cv->instrument, sizeof cv->instrument,
                     "%s savings plan %s%s%s%s%s %dy %s",
                     gp_plan_kind_name(a->c.kind), a->c.provider,
                     family ? " " : "", family ? a->c.family : "",
                     family ? " " : "", family ? a->c.region : "",
                     a->c.term_years, gp_payment_name(a->c.payment));
            cv->unit = gp_money_per_hour();
        }
        if (!x)
            continue;
        double chosen = *x;
        cv->chosen = chosen;
        cv->n = points;
        for (size_t j = 0; j < points; j++) {
            double level = 2 * chosen * (double)j / (double)(points - 1);
            if (a->type == GP_ACTION_RESERVED)
                level = floor(level + 0.5);
            *x = level;
            cv->level[j] = level;
            /* with nothing bought the bill is known exactly: the shift from
             * the optimizer's costs left 1.04e-10 there for "0" */
            cv->net_savings[j] =
                nothing_bought(o) ? none
                                  : plan_net + scale * (base - gp_opt_cost(o));
        }
        *x = chosen;
        r->n_curves++;
    }
    gp_opt_free(sample);
    return full->nomem ? GP_ERR_NOMEM : GP_OK;
}

/* ---- renewals ------------------------------------------------------------- */

/* The on-demand value of the usage a bill's commitments covered. */
static double covered_value(const gp_ledger *l)
{
    double v = 0;
    for (size_t h = 0; h < l->n_hours; h++)
        v += l->hours[h].od_equiv_covered;
    return v;
}

/* Whether owned commitment cm is offered for renewal: it ends in the
 * window [open, close) or within 13 weeks after it. */
static bool renewable(const gp_commitment *cm, int64_t open, int64_t close)
{
    return cm->end >= open && cm->end <= close + 13 * WEEK * 3600L;
}

/* Values renewing owned commitment cm on top of the plan and the renewals
 * already advised (extra[0..n)), whose bill of `w` (the owned
 * commitments, those that end after the window left out) is l0, and
 * down0 in the low-demand case: bills it with cm, and fills *a but for
 * its rank. */
static gp_status value_renewal(const struct ctx *w, const gp_commitment *cm,
                               gp_commitment *extra, size_t n, size_t n_plan,
                               const gp_trace *downside, const gp_ledger *l0,
                               double down0, gp_action *a, gp_error *err)
{
    int64_t close = (w->start_hour + (int64_t)w->n_hours) * 3600;
    bool inside = cm->end < close;
    gp_ledger *l = NULL;
    double cost0 = l0->total_cost;
    extra[n] = *cm;
    extra[n].start = inside ? cm->end : w->start_hour * 3600;
    extra[n].end = extra[n].start + (int64_t)cm->term_years * 365 * 86400;
    gp_status st = bill(w, NULL, extra, n + 1, &l, err);
    if (st != GP_OK)
        goto out;
    double cost1 = l->total_cost;
    double down1 = 0;
    if (downside &&
        (st = bill_cost(w, downside, extra, n + 1, &down1, err)) != GP_OK)
        goto out;
    memset(a, 0, sizeof *a);
    const gp_ledger_commitment *lc = &l->commitments[l->n_commitments - 1];
    a->type = cm->type == GP_COMMIT_RESERVED ? GP_ACTION_RESERVED
                                             : GP_ACTION_SAVINGS_PLAN;
    a->c = *cm;
    a->c.start = cm->end;
    a->c.end = cm->end + (int64_t)cm->term_years * 365 * 86400;
    a->renewal = true;
    a->upfront = upfront_of(w, cm);
    a->net_savings = cost0 - cost1;
    a->downside_net_savings = downside ? down0 - down1 : NAN;
    /* its own use: what it covers beyond what the plan (and the
     * renewals above it) already cover, in on-demand value, over what
     * it would cover fully used.  The engine shares a reservation
     * family's use among its reservations (and a renewed savings plan
     * may take usage another plan covered), so the ledger's figure for
     * it is the pool's: a renewal that adds nothing showed 67% used */
    double added = covered_value(l) - covered_value(l0);
    a->expected_utilization =
        lc->purchased > 0 && lc->od_equiv_covered > 0
            ? fmax(0, added) / lc->od_equiv_covered * (lc->used / lc->purchased)
            : 0;
    double equiv = lc->od_equiv_covered;
    if (cm->type == GP_COMMIT_RESERVED) {
        /* today's effective rate over today's on-demand price */
        const gp_instance_type *it;
        const gp_reserved_offer *o = gp_reserved_offer_of(w->pricing, cm, &it);
        if (o && it->on_demand > 0)
            a->breakeven_utilization =
                gp_reserved_effective_hourly(o) / it->on_demand;
    } else if (lc->od_equiv_covered > 0) {
        a->breakeven_utilization = lc->used / lc->od_equiv_covered;
    }
    a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
    const char *above = n == n_plan ? ""
                        : n == n_plan + 1
                            ? " and the renewal above it that saves"
                            : " and the renewals above it that save";
    char when[32], amount[48];
    gp_format_time(cm->end, when, sizeof when);
    gp_format_money(fabs(a->net_savings), amount, sizeof amount);
    if (inside)
        snprintf(a->reason, sizeof a->reason,
                 "expires %s; renewed then at today's rates, on top of "
                 "the plan%s, it %s %s over the %.0f hour%s of the "
                 "window left%s",
                 when, above, a->net_savings < 0 ? "costs" : "saves", amount,
                 (double)(close - cm->end) / 3600.0,
                 close - cm->end == 3600 ? "" : "s",
                 a->net_savings < 0 ? ": let it lapse" : "");
    else
        snprintf(a->reason, sizeof a->reason,
                 "expires %s, after the window; at today's rates, on "
                 "top of the plan%s, it would %s %s over a window "
                 "like this one%s",
                 when, above, a->net_savings < 0 ? "cost" : "save", amount,
                 a->net_savings < 0 ? ": let it lapse" : "");
out:
    gp_ledger_free(l);
    return st;
}

/* Owned commitments that end in the window or within 13 weeks after it,
 * each renewed at today's rates for its term, on top of the plan's
 * actions (SPEC section 5: an action's savings are on top of the actions
 * ranked above it).
 *
 * One that ends in the window is renewed when it ends: its savings are
 * over the hours left, so the hours it still covers are not counted
 * twice.  One that ends after the window holds none of it; its savings
 * are what it would save over a window like this one in place of the
 * owned one, with the plan as bought (the plan was sized with the owned
 * one in place, so it leaves that usage to it).
 *
 * They are valued against each other lapsing ("let it lapse" is read
 * that way): the ones that end after the window are left out of the
 * owned commitments, the others end when they do, and the renewals are
 * picked greedily, each the one that saves most on top of the plan and
 * those picked before it, while one saves anything.  The rest are valued
 * on top of all the picked ones.  So the renewals the ranking advises
 * cost less together than letting them lapse, and adding any other would
 * cost more: with 5 instances and two owned reservations of 3 and 4 that
 * both end after the window, each used to be valued with the other in
 * place (both "let it lapse"), where renewing the 4 saves most. */
static gp_status renewals(const struct ctx *c, gp_recommendation *r,
                          const gp_plan_result *plan, const gp_trace *downside,
                          gp_error *err)
{
    const gp_scenario *s = &c->scn;
    int64_t open = c->start_hour * 3600;
    int64_t close = (c->start_hour + (int64_t)c->n_hours) * 3600;
    size_t n_plan = plan->n_commitments, n = n_plan;
    gp_commitment *extra =
        gp_calloc(n_plan + s->n_commitments + 1, sizeof *extra);
    gp_commitment *rest = gp_calloc(s->n_commitments + 1, sizeof *rest);
    size_t *cand = gp_calloc(s->n_commitments + 1, sizeof *cand);
    gp_action *tried = gp_calloc(s->n_commitments + 1, sizeof *tried);
    gp_ledger *l0 = NULL;
    gp_status st = GP_ERR_NOMEM;

    if (!extra || !rest || !cand || !tried)
        goto out;
    for (size_t i = 0; i < n_plan; i++)
        extra[i] = plan->commitments[i];
    /* the owned commitments in a window like this one: those that end
     * after it have lapsed (or are renewed: extra) */
    struct ctx w;
    ctx_copy(&w, c);
    size_t m = 0, k = 0;
    for (size_t i = 0; i < s->n_commitments; i++) {
        const gp_commitment *cm = &s->commitments[i];
        if (renewable(cm, open, close))
            cand[k++] = i;
        if (!renewable(cm, open, close) || cm->end < close)
            rest[m++] = *cm;
    }
    w.scn.commitments = rest;
    w.scn.n_commitments = m;
    while (k > 0) {
        /* the bill every candidate of this round is valued on top of */
        size_t best = k;
        gp_ledger_free(l0);
        l0 = NULL;
        st = bill(&w, NULL, extra, n, &l0, err);
        if (st != GP_OK)
            goto out;
        double down0 = 0;
        if (downside &&
            (st = bill_cost(&w, downside, extra, n, &down0, err)) != GP_OK)
            goto out;
        for (size_t j = 0; j < k; j++) {
            st = value_renewal(&w, &s->commitments[cand[j]], extra, n, n_plan,
                               downside, l0, down0, &tried[j], err);
            if (st != GP_OK)
                goto out;
            if (tried[j].net_savings > 0 &&
                (best == k || tried[j].net_savings > tried[best].net_savings))
                best = j;
        }
        if (best == k)
            break; /* none saves on top of those picked: they lapse */
        int ai = action_grow(r);
        st = GP_ERR_NOMEM;
        if (ai < 0)
            goto out;
        r->actions[ai] = tried[best];
        /* the next ones are on top of this one, as it is valued */
        const gp_commitment *cm = &s->commitments[cand[best]];
        extra[n] = *cm;
        extra[n].start = cm->end < close ? cm->end : open;
        extra[n].end = extra[n].start + (int64_t)cm->term_years * 365 * 86400;
        n++;
        for (size_t j = best; j + 1 < k; j++)
            cand[j] = cand[j + 1];
        k--;
    }
    /* the ones to let lapse, valued on top of all the picked ones */
    for (size_t j = 0; j < k; j++) {
        int ai = action_grow(r);
        st = GP_ERR_NOMEM;
        if (ai < 0)
            goto out;
        r->actions[ai] = tried[j];
    }
    st = GP_OK;
out:
    gp_ledger_free(l0);
    gp_free(extra);
    gp_free(rest);
    gp_free(cand);
    gp_free(tried);
    return st;
}

/* The conservative or aggressive plan, from a copy of the balanced
 * levels, for a second thread. */
struct other_plan {
    const struct ctx *c;
    struct downside_job *down; /* waited for already */
    double policy_cost;
    const gp_opt *warm; /* a copy of the balanced levels (NULL: start cold) */
    bool conservative;
    gp_plan_result *out;
    gp_status st;
    gp_error err;
};

static void *other_plan_run(void *arg)
{
    struct other_plan *j = arg;
    const struct ctx *c = j->c;

    gp_error_clear(&j->err);
    if (j->conservative)
        j->st = make_plan(c, j->down->down ? j->down->down : c->trace, j->down,
                          "conservative", 1, NO_UPFRONT_ONLY, j->policy_cost,
                          j->warm, j->out, NULL, NULL, &j->err);
    else
        j->st = make_plan(c, c->trace, j->down, "aggressive", 3, ALL_PAYMENTS,
                          j->policy_cost, j->warm, j->out, NULL, NULL, &j->err);
    return NULL;
}

/* The share of the best purchase's net savings that `got` captured.
 * When nothing was worth buying (best <= 0) it is 1 if `got` did as well
 * and undefined (NAN: null, "n/a") if it lost money: a loss is not all of
 * nothing. */
static double captured(double got, double best)
{
    if (best > 0)
        return got / best;
    return got >= best - 0.005 ? 1.0 : NAN;
}

static gp_status recommend_window(struct ctx *c, gp_recommendation *r,
                                  bool details, gp_error *err)
{
    gp_ledger *policy = NULL;
    gp_opt *balanced_opt = NULL;
    gp_ledger *balanced_bill = NULL;
    struct downside_job low;
    gp_status st;

    r->start_hour = c->start_hour;
    r->n_hours = c->n_hours;
    /* the policy's bill and, beside it, training on spot */
    bool may_route = c->strat.policy[0].launch == GP_LAUNCH_ON_DEMAND;
    struct ctx spot;
    ctx_copy(&spot, c);
    spot.strat.policy[0].launch = GP_LAUNCH_SPOT;
    struct bill_job pj, sj;
    memset(&pj, 0, sizeof pj);
    pj.c = c;
    sj = pj;
    sj.c = &spot;
    st = may_route ? bill_two(&pj, &sj, err)
                   : bill(c, NULL, NULL, 0, &pj.out, err);
    if (st != GP_OK) {
        gp_ledger_free(pj.out);
        gp_ledger_free(sj.out);
        return st;
    }
    policy = pj.out;
    r->all_on_demand_cost = policy->all_on_demand_cost;
    r->policy_cost = policy->total_cost;
    gp_ledger_free(policy);

    /* routing: training on spot, if it pays */
    if (may_route) {
        gp_ledger *l = sj.out;
        if (l->total_cost < r->policy_cost - 0.005 && l->spot_cost > 0) {
            int ai = action_grow(r);
            if (ai < 0) {
                gp_ledger_free(l);
                return GP_ERR_NOMEM;
            }
            gp_action *a = &r->actions[ai];
            a->type = GP_ACTION_ROUTING;
            a->net_savings = r->policy_cost - l->total_cost;
            a->interruption_cost = l->spot_failed_attempt_cost_mean;
            a->routed_cost = l->workload_cost[GP_TRAINING];
            a->savings_pct = l->workload_cost[GP_TRAINING] > 0
                                 ? a->net_savings /
                                       (a->net_savings +
                                        l->workload_cost[GP_TRAINING])
                                 : 0;
            /* the amounts as the tables write them: "$63,451.50" */
            char on_spot[48], od[48], lost[48];
            gp_format_money(l->workload_cost[GP_TRAINING], on_spot,
                            sizeof on_spot);
            gp_format_money(l->workload_cost[GP_TRAINING] + a->net_savings, od,
                            sizeof od);
            /* neither the money lost nor the expected count reads as zero
             * when it is not (a few hours of training at a low rate), as
             * in simulate's spot line */
            gp_format_money_small(a->interruption_cost, lost, sizeof lost);
            char count[48];
            gp_format_small(l->spot_interruptions_mean, "no", count,
                            sizeof count);
            snprintf(a->reason, sizeof a->reason,
                     "training on spot costs %s instead of %s, "
                     "interruptions included (%s expected, %s "
                     "interruptions); checkpoint every %g h",
                     on_spot, od, lost, count,
                     c->strat.policy[0].checkpoint_interval_h);
            c->strat.policy[0].launch = GP_LAUNCH_SPOT;
        }
        gp_ledger_free(l);
    }

    r->supported_term = supported_term(c, &r->last_13_weeks_share);
    /* the low-demand case, beside the balanced plan's solve */
    downside_start(&low, c,
                   r->n_actions && r->actions[0].type == GP_ACTION_ROUTING);
    /* the balanced plan first: the others start from its levels */
    st = make_plan(c, c->trace, &low, "balanced", r->supported_term,
                   ALL_PAYMENTS, r->policy_cost, NULL, &r->plans[1],
                   &balanced_opt, &balanced_bill, err);
    if (st != GP_OK)
        goto out;
    if (low.routed)
        r->actions[0].downside_net_savings =
            low.down ? low.policy - low.base : NAN;
    /* the aggressive plan on a second thread, from a copy of the balanced
     * levels, while this one ranks the balanced plan's actions, draws its
     * curves (which move the balanced levels about) and then makes the
     * conservative plan; all of them only read the inputs */
    struct other_plan jobs[2];
    memset(jobs, 0, sizeof jobs);
    jobs[0].c = c;
    jobs[0].down = &low;
    jobs[0].policy_cost = r->policy_cost;
    jobs[0].warm = gp_opt_clone(balanced_opt);
    /* without the copy the other plans start cold: said after the join */
    bool warm_lost = balanced_opt && !jobs[0].warm;
    jobs[1] = jobs[0];
    jobs[0].out = &r->plans[2];
    jobs[1].conservative = true;
    jobs[1].out = &r->plans[0];
    pthread_t thread;
    bool threaded =
        pthread_create(&thread, NULL, other_plan_run, &jobs[0]) == 0;
    if (!threaded)
        other_plan_run(&jobs[0]);
    if (details) {
        st = rank_actions(c, r, &r->plans[1], balanced_bill, balanced_opt,
                          low.down, low.base, err);
        if (st == GP_OK)
            st = renewals(c, r, &r->plans[1], low.down, err);
        for (size_t i = 0; i < r->n_actions; i++)
            r->actions[i].rank = (int)i + 1;
        if (st == GP_OK)
            st = make_curves(r, balanced_opt, r->plans[1].net_savings);
    }
    other_plan_run(&jobs[1]);
    if (threaded)
        pthread_join(thread, NULL);
    gp_opt_free((gp_opt *)jobs[0].warm);
    if (st == GP_OK && warm_lost)
        st = GP_ERR_NOMEM;
    for (int i = 0; i < 2; i++)
        if (st == GP_OK && jobs[i].st != GP_OK) {
            st = jobs[i].st;
            if (err)
                *err = jobs[i].err;
        }
    if (st != GP_OK)
        goto out;
    for (int i = 0; i < 3; i++) {
        /* the terms it buys, not the terms it was allowed: an aggressive
         * plan may find no 3-year offer worth buying */
        int longest = 0;
        for (size_t k = 0; k < r->plans[i].n_commitments; k++)
            if (r->plans[i].commitments[k].term_years > longest)
                longest = r->plans[i].commitments[k].term_years;
        r->plans[i].max_term = longest; /* 0: it buys nothing */
        const char *terms = longest ? "1-year terms" : "buys no commitments";
        /* the low-demand case, said alike for 1- and 3-year terms */
        char low_case[160];
        if (isnan(r->plans[i].downside_net_savings))
            snprintf(low_case, sizeof low_case,
                     "no low-demand case, as the window is under a day (the "
                     "case repeats its lowest day)");
        else {
            char low_amount[48];
            gp_format_money(fabs(r->plans[i].downside_net_savings), low_amount,
                            sizeof low_amount);
            snprintf(low_case, sizeof low_case,
                     "in the low-demand case it %s %s over the window",
                     r->plans[i].downside_net_savings < 0 ? "loses" : "saves",
                     low_amount);
        }
        if (longest == 3) {
            char span[32], why[200], annual[48];
            span_words(c->n_hours, span, sizeof span);
            unsupported_why(r, 0, c->low != NULL, why, sizeof why);
            /* as the low-demand case writes money: "$119,005.27" */
            gp_format_money(r->plans[i].annual_cost, annual, sizeof annual);
            snprintf(r->plans[i].risk, sizeof r->plans[i].risk,
                     "3-year terms on %s of %s (%s%s): the plan pays "
                     "%s a year for 3 years whatever demand does; %s",
                     span, c->low ? "forecast" : "history",
                     r->supported_term == 3 ? "supported: 26+ weeks, not "
                                              "declining"
                                            : "not supported, as ",
                     r->supported_term == 3 ? "" : why, annual, low_case);
        } else {
            /* on a forecast shorter than the term, the plan is billed for
             * the forecast's hours of each term only (amortized): the rest
             * of the year is in neither its savings nor its low case */
            char covers[160] = "";
            if (longest == 1 && !c->low &&
                c->n_hours < ONE_YEAR_HISTORY_HOURS) {
                /* a year bought on a few days of history */
                char span[32];
                span_words(c->n_hours, span, sizeof span);
                snprintf(covers, sizeof covers,
                         " sized on %s of history (under 4 weeks: too "
                         "little to tell whether demand lasts the year)",
                         span);
            } else if (longest == 1 && c->low && c->n_hours < 365 * 24) {
                char span[32];
                span_words(c->n_hours, span, sizeof span);
                snprintf(covers, sizeof covers,
                         ", of which the forecast covers %s: its savings "
                         "and low-demand case count only those, not the "
                         "rest of each term",
                         span);
            }
            snprintf(r->plans[i].risk, sizeof r->plans[i].risk, "%s%s; %s",
                     terms, covers, low_case);
        }
    }
    r->recommended = 1;
    r->hindsight_cost = r->plans[1].total_cost;
    r->hindsight_net_savings = r->plans[1].net_savings;
    r->hindsight_any_term_cost = r->plans[2].total_cost;
    r->hindsight_any_term_net_savings = r->plans[2].net_savings;
    if (r->plans[2].net_savings > r->hindsight_net_savings &&
        r->supported_term == 3) {
        r->hindsight_cost = r->plans[2].total_cost;
        r->hindsight_net_savings = r->plans[2].net_savings;
    }
    r->captured_fraction = captured(r->plans[r->recommended].net_savings,
                                    r->hindsight_net_savings);
out:
    gp_ledger_free(balanced_bill);
    gp_opt_free(balanced_opt);
    downside_wait(&low, NULL);
    downside_free(low.down);
    return st;
}

void gp_recommend_options_init(gp_recommend_options *o)
{
    memset(o, 0, sizeof *o);
    o->mc_runs = -1;
    o->mc_seed = -1;
}

void gp_recommendation_free(gp_recommendation *r)
{
    if (!r)
        return;
    for (int i = 0; i < 3; i++)
        gp_free(r->plans[i].commitments);
    gp_free(r->actions);
    gp_free(r->curves);
    gp_forecast_free(r->forecast);
    gp_warnings_clear(&r->notes);
    gp_free(r);
}

/*
 * --forward: forecast the next forward_hours from the whole trace, then
 * recommend for the forecast's P50 demand as if it were history, with the
 * P10 demand as the low-demand case (downside) and the plan billed on the
 * P90 demand too (upside).
 */
static gp_status recommend_forward(const gp_trace *trace,
                                   const gp_pricing *pricing,
                                   const gp_scenario *s,
                                   const gp_recommend_options *opt,
                                   gp_recommendation *r, gp_error *err)
{
    gp_forecast_options fo;
    gp_forecast *fc = NULL;
    gp_trace *q[3] = {NULL, NULL, NULL};
    struct ctx c, high, high_policy;
    gp_status st;

    gp_forecast_options_init(&fo);
    fo.threads = opt->threads;
    fo.progress = opt->progress;
    st = gp_forecast_run(trace, s, opt->forward_hours, &fo, &fc, err);
    if (st == GP_ERR_USAGE && err && err->param == GP_PARAM_HORIZON)
        err->param = GP_PARAM_FORWARD;
    for (int i = 0; st == GP_OK && i < 3; i++) {
        st = gp_forecast_trace(fc, trace, (gp_forecast_quantile)i, &q[i],
                               err);
        if (st == GP_ERR_INPUT && err) {
            err->field[0] = '\0';
            err->param = GP_PARAM_FORWARD;
        }
    }
    if (st != GP_OK)
        goto out;
    ctx_init(&c, q[GP_FC_P50], pricing, s, fc->start_hour, fc->n_hours, opt);
    c.low = q[GP_FC_P10];
    st = recommend_window(&c, r, true, err);
    if (st != GP_OK)
        goto out;
    /* the recommended plan (routing included) on P90 demand, against the
     * scenario's policy on the same demand */
    const gp_plan_result *plan = &r->plans[r->recommended];
    ctx_copy(&high, &c);
    high.trace = q[GP_FC_P90];
    ctx_init(&high_policy, q[GP_FC_P90], pricing, s, fc->start_hour,
             fc->n_hours, opt);
    double policy_cost, plan_cost;
    st = bill_cost(&high_policy, NULL, NULL, 0, &policy_cost, err);
    if (st == GP_OK)
        st = bill_cost(&high, NULL, plan->commitments, plan->n_commitments,
                       &plan_cost, err);
    if (st != GP_OK)
        goto out;
    r->forward = true;
    r->forward_hours = fc->n_hours;
    r->forward_upside_policy_cost = policy_cost;
    r->forward_upside_net_savings = policy_cost - plan_cost;
    r->forward_downside_net_savings = plan->downside_net_savings;
    r->forward_p50_net_savings = plan->net_savings;
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < q[i]->n_series; k++)
            for (size_t h = 0; h < q[i]->n_hours; h++)
                r->forward_instance_hours[i] +=
                    q[i]->series[k].instance_hours[h];
    char why[240] = "";
    if (r->supported_term == 1) {
        char reason[200];
        unsupported_why(r, fc->n_hours, true, reason, sizeof reason);
        snprintf(why, sizeof why, "; 1-year terms only, as %s", reason);
    }
    gp_warnings_add(&r->notes,
                    "forward plan: bought against the forecast of the next "
                    "%zu hour%s (P50 demand), downside on P10 demand, upside "
                    "on P90 demand%s",
                    fc->n_hours, gp_plural(fc->n_hours, "", "s"), why);
    /* the plan is only as good as the forecast: its notes (a partial
     * hour left out, a short history, a series left out for having no
     * demand, exact baselines, ...) are the plan's too */
    for (size_t i = 0; i < fc->notes.count; i++)
        gp_warnings_add(&r->notes, "forecast: %s", fc->notes.items[i]);
    r->forecast = fc; /* the workbook's Forecast sheet shows it */
    fc = NULL;
out:
    for (int i = 0; i < 3; i++)
        gp_forecast_trace_free(q[i]);
    gp_forecast_free(fc);
    return st;
}

gp_status gp_recommend(const gp_trace *trace, const gp_pricing *pricing,
                       const gp_scenario *s, const gp_recommend_options *opt,
                       gp_recommendation **out, gp_error *err)
{
    gp_recommend_options defaults;
    gp_recommendation *r = gp_calloc(1, sizeof *r);
    int64_t start;
    size_t hours;
    struct ctx c;
    gp_status st;

    *out = NULL;
    if (!r) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    if (!opt) {
        gp_recommend_options_init(&defaults);
        opt = &defaults;
    }
    gp_engine_window(trace, s, &start, &hours);
    if (opt->forward_hours > 0) {
        st = recommend_forward(trace, pricing, s, opt, r, err);
        if (st != GP_OK)
            goto fail;
    } else if (opt->train_until > 0) {
        int64_t cut = opt->train_until / 3600;
        if (opt->train_until % 3600 != 0 || cut <= start ||
            cut >= start + (int64_t)hours) {
            char a[32], z[32], g[32];
            gp_format_time(start * 3600, a, sizeof a);
            gp_format_time((start + (int64_t)hours) * 3600, z, sizeof z);
            gp_format_time(opt->train_until, g, sizeof g);
            /* a cut inside an hour used to be moved to the hour's start */
            gp_error_set(err, NULL, 0, 0, "--train-until",
                         "must be a whole hour inside the window, %s to %s, "
                         "got %s",
                         a, z, g);
            gp_free(r);
            return GP_ERR_USAGE;
        }
        /* recommend from the hours before the cut, buy at the cut, bill the
         * rest; compare with the best buy for the rest in hindsight */
        ctx_init(&c, trace, pricing, s, start, (size_t)(cut - start), opt);
        st = recommend_window(&c, r, true, err);
        if (st != GP_OK)
            goto fail;
        struct ctx test;
        ctx_init(&test, trace, pricing, s, cut,
                 (size_t)(start + (int64_t)hours - cut), opt);
        test.strat.policy[0] = c.strat.policy[0]; /* the routing decision */
        const gp_plan_result *bought = &r->plans[r->recommended];
        gp_commitment *moved =
            gp_calloc(bought->n_commitments + 1, sizeof *moved);
        if (!moved) {
            st = GP_ERR_NOMEM;
            goto fail;
        }
        for (size_t i = 0; i < bought->n_commitments; i++) {
            moved[i] = bought->commitments[i];
            moved[i].start = cut * 3600;
            moved[i].end = moved[i].start +
                           (int64_t)moved[i].term_years * 365 * 86400;
        }
        struct ctx test_policy;
        ctx_init(&test_policy, trace, pricing, s, cut, test.n_hours, opt);
        r->backtest = true;
        r->train_until = cut * 3600;
        r->test_hours = test.n_hours;
        st = bill_cost(&test_policy, NULL, NULL, 0, &r->test_policy_cost, err);
        if (st == GP_OK)
            st = bill_cost(&test, NULL, moved, bought->n_commitments,
                           &r->test_plan_cost, err);
        gp_free(moved);
        /* what the commitments alone saved, on top of the routing */
        double routed;
        if (st == GP_OK)
            st = bill_cost(&test, NULL, NULL, 0, &routed, err);
        if (st != GP_OK)
            goto fail;
        r->test_plan_net_savings = r->test_policy_cost - r->test_plan_cost;
        r->test_commitment_net_savings = routed - r->test_plan_cost;
        gp_recommendation *hind = gp_calloc(1, sizeof *hind);
        if (!hind) {
            st = GP_ERR_NOMEM;
            goto fail;
        }
        st = recommend_window(&test_policy, hind, false, err);
        if (st == GP_OK) {
            double route = hind->n_actions &&
                                   hind->actions[0].type == GP_ACTION_ROUTING
                               ? hind->actions[0].net_savings
                               : 0;
            r->test_hindsight_commitment_savings =
                hind->hindsight_net_savings - route;
            r->test_commitment_captured_fraction =
                captured(r->test_commitment_net_savings,
                         r->test_hindsight_commitment_savings);
            r->test_hindsight_net_savings = hind->hindsight_net_savings;
            r->test_captured_fraction =
                captured(r->test_plan_net_savings, hind->hindsight_net_savings);
        }
        gp_recommendation_free(hind);
        if (st != GP_OK)
            goto fail;
    } else {
        ctx_init(&c, trace, pricing, s, start, hours, opt);
        st = recommend_window(&c, r, true, err);
        if (st != GP_OK)
            goto fail;
    }
    if (r->supported_term == 1 && !r->forward) {
        char why[200];
        unsupported_why(r, r->n_hours, false, why, sizeof why);
        if (r->plans[1].max_term > 0)
            gp_warnings_add(&r->notes,
                            "the balanced plan buys 1-year terms only, as %s",
                            why);
        else /* it buys no terms at all */
            gp_warnings_add(&r->notes,
                            "the balanced plan buys nothing; it may buy "
                            "1-year terms only, as %s",
                            why);
    }
    /* forward, the history is what the forecast was fitted on */
    size_t history = r->forward ? r->forecast->history_hours : r->n_hours;
    if (r->plans[r->recommended].max_term == 1 &&
        history < ONE_YEAR_HISTORY_HOURS) {
        char span[32];
        span_words(history, span, sizeof span);
        gp_warnings_add(&r->notes,
                        "the %s plan buys 1-year terms sized on %s%s of "
                        "history: under 4 weeks, too little to tell whether "
                        "demand lasts the year; size the plan on a longer "
                        "trace before buying",
                        r->plans[r->recommended].name,
                        r->forward ? "a forecast from " : "", span);
    }
    *out = r;
    return GP_OK;
fail:
    if (st == GP_ERR_NOMEM && err && !err->message[0])
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    gp_recommendation_free(r);
    return st;
}

/* ---- in words ------------------------------------------------------------ */

const char *gp_action_type_name(gp_action_type t)
{
    return t == GP_ACTION_RESERVED
               ? "reserved"
               : (t == GP_ACTION_SAVINGS_PLAN ? "savings_plan" : "routing");
}

void gp_commitment_describe(const gp_commitment *c, bool renewal, char *buf,
                            size_t size)
{
    if (c->type == GP_COMMIT_RESERVED)
        snprintf(buf, size, "%s%g x %s %s, %dy %s", renewal ? "renew " : "",
                 c->count, c->instance_type, c->region, c->term_years,
                 gp_payment_name(c->payment));
    else if (c->kind == GP_PLAN_FAMILY)
        snprintf(buf, size,
                 "%sinstance_family plan %s %s%.3f/h, %dy %s "
                 "(%s %s)",
                 renewal ? "renew " : "", c->provider, gp_money_prefix(),
                 c->hourly_commitment, c->term_years,
                 gp_payment_name(c->payment), c->family, c->region);
    else
        snprintf(buf, size, "%scompute plan %s %s%.3f/h, %dy %s",
                 renewal ? "renew " : "", c->provider, gp_money_prefix(),
                 c->hourly_commitment, c->term_years,
                 gp_payment_name(c->payment));
}

void gp_action_describe(const gp_action *a, char *buf, size_t size)
{
    if (a->type == GP_ACTION_ROUTING)
        snprintf(buf, size, "launch training on spot");
    else
        gp_commitment_describe(&a->c, a->renewal, buf, size);
}

gp_status gp_recommend_bill_plan(const gp_trace *trace,
                                 const gp_pricing *pricing,
                                 const gp_scenario *s,
                                 const gp_recommendation *rec, int threads,
                                 int mc_runs, long mc_seed,
                                 const gp_progress *progress, gp_ledger *out[2],
                                 gp_error *err)
{
    const gp_plan_result *p = &rec->plans[rec->recommended];
    gp_scenario scn = *s;
    gp_strategy strat = s->strategies[0];
    gp_engine_options eo;
    gp_status st;

    out[0] = out[1] = NULL;
    if (rec->forward)
        return GP_OK; /* planned on forecast demand: nothing to bill */
    /* as the recommender bills: the baseline strategy alone, nothing
     * added, over the recommendation's window */
    strat.add_commitments = NULL;
    strat.n_add = 0;
    scn.strategies = &strat;
    scn.n_strategies = 1;
    gp_engine_options_init(&eo);
    eo.window_start = rec->start_hour * 3600;
    eo.window_end = (rec->start_hour + (int64_t)rec->n_hours) * 3600;
    eo.threads = threads;
    eo.mc_runs = mc_runs;
    eo.mc_seed = mc_seed;
    eo.progress = *progress;
    st = gp_engine_run(trace, pricing, &scn, 0, &eo, &out[0], err);
    if (st != GP_OK)
        return st;
    gp_free(out[0]->strategy);
    out[0]->strategy = gp_strdup("current");
    if (p->route_training_to_spot)
        strat.policy[0].launch = GP_LAUNCH_SPOT;
    eo.extra = p->commitments;
    eo.n_extra = p->n_commitments;
    st = gp_engine_run(trace, pricing, &scn, 0, &eo, &out[1], err);
    if (st != GP_OK) {
        gp_ledger_free(out[0]);
        out[0] = NULL;
        return st;
    }
    gp_free(out[1]->strategy);
    out[1]->strategy = gp_strdup(p->name);
    if (!out[0]->strategy || !out[1]->strategy) {
        gp_ledger_free(out[0]);
        gp_ledger_free(out[1]);
        out[0] = out[1] = NULL;
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    return GP_OK;
}
