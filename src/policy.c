/*
 * policy.c: purchase policies replayed over a trace (policy.h): the
 * review dates, what each kind buys at a review from the history before
 * it, and the final bill with the policy's KPIs.  docs/policies.md says
 * what each kind stands for.
 */
#include "policy.h"
#include "forecast.h"
#include "optimizer.h"
#include "util.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

/* The optimizer's averaging rounds at a review (bench/README.md,
 * "Policies": 20 rounds change the replays' ESR by under 0.01 points). */
#define REVIEW_ROUNDS 20

/* A replay in progress. */
struct replay {
    const gp_trace *t;
    const gp_pricing *p;
    const gp_scenario *s;
    int threads;
    const gp_purchase_policy *pp;
    gp_run_spec base; /* the whole window, nothing bought */
    gp_commitment *bought;
    size_t n_bought, cap;
};

const char *gp_purchase_kind_name(gp_purchase_kind k)
{
    static const char *const names[] = {"aws", "forward", "ladder",
                                        "coverage"};
    return k <= GP_PURCHASE_COVERAGE ? names[k] : "?";
}

/* The epoch hour of the first day of the month `months` after the month
 * of epoch hour h, at 00:00 UTC. */
static int64_t month_start_after(int64_t h, int months)
{
    int y;
    unsigned m, d;
    gp_civil_from_days(h >= 0 ? h / 24 : (h - 23) / 24, &y, &m, &d);
    int64_t k = (int64_t)y * 12 + (m - 1) + months;
    return gp_days_from_civil(k / 12, (unsigned)(k % 12) + 1, 1) * 24;
}

/* Appends commitment c to what the replay bought. */
static gp_status add_bought(struct replay *r, const gp_commitment *c)
{
    if (gp_grow((void **)&r->bought, &r->cap, r->n_bought + 1,
                sizeof *r->bought) != GP_OK)
        return GP_ERR_NOMEM;
    r->bought[r->n_bought++] = *c;
    return GP_OK;
}

/* The shortest term the policy allows (plans are bought at it). */
static int shortest_term(const gp_purchase_policy *pp)
{
    return (pp->terms & (1u << 1)) ? 1 : 3;
}

/* The optimum over [from, from + n) of trace `t` (the trace itself, or a
 * forecast of it), on top of everything owned and bought, for the
 * policy's terms and payment, bought at hour T. */
static gp_status buy_optimum(struct replay *r, const gp_trace *t, int64_t T,
                             int64_t from, size_t n, gp_error *err)
{
    gp_run_spec spec = r->base;
    gp_opt_choices ch = {r->pp->terms, 1u << r->pp->payment, GP_BUY_ALL,
                         NULL, 0};
    gp_opt *o = NULL;
    gp_commitment *c = NULL;
    size_t nc = 0;

    spec.start_hour = from;
    spec.n_hours = n;
    spec.extra = r->bought;
    spec.n_extra = r->n_bought;
    gp_status st = gp_opt_build_choices(&o, t, r->p, &spec, &ch, err);
    if (st != GP_OK)
        return st;
    /* a review tops up what is owned: fewer averaging rounds than a
     * recommendation's solve (80) do, and a replay makes dozens */
    o->max_rounds = REVIEW_ROUNDS;
    /* a pass's halves on two threads; split on one thread too, so that
     * one or two give the same purchases */
    o->split = true;
    o->threads = r->threads > 0 ? r->threads
                                : (int)sysconf(_SC_NPROCESSORS_ONLN);
    gp_opt_solve(o);
    st = o->nomem ? GP_ERR_NOMEM : gp_opt_commitments(o, T * 3600, &c, &nc);
    for (size_t i = 0; st == GP_OK && i < nc; i++)
        st = add_bought(r, &c[i]);
    gp_free(c);
    gp_opt_free(o);
    return st;
}

/*
 * The demand forward plans on: trace t's series over [T, T + n), each
 * hour T + k being hour T - L + (k mod L) of the lookback L before T.
 * gpuplan's forecast (recommend's forward plan) was tried first, capped
 * at 1.1 x the last week, and then the last week repeated: on the
 * synthesized families the lookback repeated won every family's mean ESR
 * against the AWS method on seeds 1-10 and again on 11-20; the forecast
 * lost three of the four (bench/README.md, "Policies").  NULL when out
 * of memory.
 */
static gp_trace *lookback_ahead(const struct replay *r, int64_t T, size_t n)
{
    const gp_trace *t = r->t;
    int64_t L = (int64_t)r->pp->lookback_hours;
    gp_trace *q = gp_calloc(1, sizeof *q);

    if (!q || L <= 0)
        return q;
    q->start_hour = T;
    q->n_hours = n;
    q->pools = t->pools;
    q->n_pools = t->n_pools;
    q->series = gp_calloc(t->n_series + 1, sizeof *q->series);
    if (!q->series)
        goto nomem;
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *hs = &t->series[i];
        gp_series *s = &q->series[q->n_series++];
        s->pool = hs->pool;
        s->workload = hs->workload;
        s->team = hs->team;
        s->project = hs->project;
        s->interruptible = hs->interruptible;
        s->said_not_interruptible = hs->said_not_interruptible;
        s->instance_hours = gp_calloc(n + 1, sizeof(double));
        s->useful_gpu_hours = gp_calloc(n + 1, sizeof(double));
        s->util_gpu_hours = gp_calloc(n + 1, sizeof(double));
        if (!s->instance_hours || !s->useful_gpu_hours || !s->util_gpu_hours)
            goto nomem;
        for (size_t k = 0; k < n; k++) {
            int64_t th = T - L + (int64_t)k % L - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            s->instance_hours[k] = hs->instance_hours[th];
            s->useful_gpu_hours[k] = hs->useful_gpu_hours[th];
            s->util_gpu_hours[k] = hs->util_gpu_hours[th];
        }
    }
    return q;
nomem:
    gp_forecast_trace_free(q);
    return NULL;
}

/* forward: gpuplan's plan for the next review period (on the demand of
 * lookback_ahead), on top of what is owned and bought: unlike the
 * lookback's optimum it sees the owned commitments that expire in the
 * period, and replaces them when they expire. */
static gp_status buy_forward(struct replay *r, int64_t T, gp_error *err)
{
    size_t h = (size_t)(month_start_after(T, r->pp->review_months) - T);
    gp_trace *q = lookback_ahead(r, T, h);

    if (!q) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gp_status st = buy_optimum(r, q, T, T, h, err);
    gp_forecast_trace_free(q);
    return st;
}

/* Per provider over [from, from + n): the on-demand value per hour of the
 * usage launched on demand that a compute plan of the policy's shortest
 * term and its payment can cover, and that usage at the plan's rates
 * (types without such a plan are left out: no plan covers them). */
static void plan_values(const struct replay *r, int64_t from, size_t n,
                        const char *provider, double *od, double *plan)
{
    const gp_trace *t = r->t;
    int term = shortest_term(r->pp);

    *od = *plan = 0;
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *ser = &t->series[i];
        const gp_pool *pool = &t->pools[ser->pool];
        if (strcmp(pool->catalog->provider, provider) != 0 ||
            gp_series_route(t, r->base.policy, ser) == GP_ROUTE_SPOT)
            continue;
        double rate = NAN;
        for (size_t k = 0; k < pool->type->n_plans; k++) {
            const gp_plan_offer *of = &pool->type->plans[k];
            if (of->kind == GP_PLAN_COMPUTE && of->term_years == term &&
                of->payment == r->pp->payment)
                rate = of->hourly;
        }
        if (isnan(rate))
            continue;
        for (size_t h = 0; h < n; h++) {
            int64_t th = from + (int64_t)h - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            *od += ser->instance_hours[th] * pool->type->on_demand;
            *plan += ser->instance_hours[th] * rate;
        }
    }
    *od /= n ? (double)n : 1;
    *plan /= n ? (double)n : 1;
}

/* The coverage of [from, from + n) under what is owned and bought. */
static gp_status coverage_now(struct replay *r, int64_t from, size_t n,
                              double *cov, gp_error *err)
{
    gp_run_spec spec = r->base;
    gp_ledger *l = NULL;

    spec.start_hour = from;
    spec.n_hours = n;
    spec.extra = r->bought;
    spec.n_extra = r->n_bought;
    spec.mc_runs = 1; /* coverage is of usage launched on demand */
    gp_status st = gp_engine_run(r->t, r->p, &spec, &l, err);
    if (st == GP_OK)
        *cov = isfinite(l->coverage) ? l->coverage : 0;
    gp_ledger_free(l);
    return st;
}

/* ladder and coverage: a compute plan per provider, bought at hour T,
 * sized on the history [from, from + n). */
static gp_status buy_plans(struct replay *r, int64_t T, int64_t from,
                           size_t n, gp_error *err)
{
    const gp_trace *t = r->t;
    double cov = 0;
    gp_status st = GP_OK;

    if (r->pp->kind == GP_PURCHASE_COVERAGE &&
        (st = coverage_now(r, from, n, &cov, err)) != GP_OK)
        return st;
    for (size_t p = 0; p < t->n_pools && st == GP_OK; p++) {
        const char *provider = t->pools[p].catalog->provider;
        bool seen = false;
        for (size_t q = 0; q < p; q++)
            seen |= strcmp(t->pools[q].catalog->provider, provider) == 0;
        if (seen)
            continue;
        double od, plan;
        plan_values(r, from, n, provider, &od, &plan);
        double S = r->pp->kind == GP_PURCHASE_LADDER
                       ? r->pp->target_coverage * plan / r->pp->tranches
                       : (r->pp->target_coverage - cov) * plan;
        if (!(S >= 0.01))
            continue;
        gp_commitment c;
        memset(&c, 0, sizeof c);
        c.type = GP_COMMIT_SAVINGS_PLAN;
        c.kind = GP_PLAN_COMPUTE;
        snprintf(c.provider, sizeof c.provider, "%s", provider);
        c.hourly_commitment = floor(S * 1000) / 1000;
        c.term_years = shortest_term(r->pp);
        c.payment = r->pp->payment;
        c.start = T * 3600;
        c.end = c.start + (int64_t)c.term_years * 365 * 86400;
        st = add_bought(r, &c);
    }
    return st;
}

/* The purchases at every review date of the window. */
static gp_status review_all(struct replay *r, gp_error *err)
{
    int64_t start = r->base.start_hour;
    int64_t end = start + (int64_t)r->base.n_hours;
    size_t lookback = r->pp->lookback_hours;
    /* the first review: the first month start with a lookback behind it */
    int64_t T = month_start_after(start + (int64_t)lookback - 1, 1);
    gp_status st = GP_OK;

    while (T < end && st == GP_OK) {
        int64_t from = T - (int64_t)lookback;
        if (from < start)
            from = start;
        size_t n = (size_t)(T - from);
        if (r->pp->kind == GP_PURCHASE_AWS)
            st = buy_optimum(r, r->t, T, from, n, err);
        else if (r->pp->kind == GP_PURCHASE_FORWARD)
            st = buy_forward(r, T, err);
        else
            st = buy_plans(r, T, from, n, err);
        T = month_start_after(T, r->pp->review_months);
    }
    return st;
}

/* What commitment c costs an hour, amortized, after the discount. */
static double amortized_hourly(const struct replay *r, const gp_commitment *c)
{
    double per_hour, upfront;
    gp_commitment_cash(c, r->p, &per_hour, &upfront);
    return (per_hour + upfront / (c->term_years * 8760.0)) *
           (1 - r->base.discount);
}

/* Commitment still owed after the window ends: owned and bought. */
static double lock_in(const struct replay *r)
{
    int64_t end_s = (r->base.start_hour + (int64_t)r->base.n_hours) * 3600;
    double owed = 0;
    const gp_commitment *lists[2] = {r->base.owned, r->bought};
    size_t counts[2] = {r->base.n_owned, r->n_bought};

    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            const gp_commitment *c = &lists[k][i];
            int64_t from = c->start > end_s ? c->start : end_s;
            if (c->end > from)
                owed += amortized_hourly(r, c) * (double)(c->end - from) /
                        3600.0;
        }
    return owed;
}

/* The months of ledger l with what they cost at on-demand rates (summed
 * from its hours), their ESR and coverage, and the upfront cash of what
 * was bought in each. */
static gp_status months_of(const struct replay *r, const gp_ledger *l,
                           gp_policy_result *out)
{
    out->months = gp_calloc(l->n_months + 1, sizeof *out->months);
    if (!out->months)
        return GP_ERR_NOMEM;
    out->n_months = l->n_months;
    size_t m = 0;
    for (size_t h = 0; h < l->n_hours && l->n_months; h++) {
        int y;
        unsigned mo, d;
        gp_civil_from_days((l->start_hour + (int64_t)h) / 24, &y, &mo, &d);
        while (m + 1 < l->n_months &&
               !(l->months[m].year == y && l->months[m].month == (int)mo))
            m++;
        out->months[m].all_on_demand_cost += l->hours[h].all_on_demand_cost;
    }
    for (size_t k = 0; k < l->n_months; k++) {
        gp_policy_month *pm = &out->months[k];
        const gp_ledger_month *lm = &l->months[k];
        pm->year = lm->year;
        pm->month = lm->month;
        pm->total_cost = lm->total_cost;
        pm->esr = pm->all_on_demand_cost > 0
                      ? (pm->all_on_demand_cost - pm->total_cost) /
                            pm->all_on_demand_cost
                      : NAN;
        pm->coverage = lm->od_equiv_launched > 0
                           ? lm->od_equiv_covered / lm->od_equiv_launched
                           : NAN;
    }
    for (size_t i = 0; i < r->n_bought; i++) {
        int y;
        unsigned mo, d;
        double per_hour, upfront;
        gp_civil_from_days(r->bought[i].start / 86400, &y, &mo, &d);
        gp_commitment_cash(&r->bought[i], r->p, &per_hour, &upfront);
        for (size_t k = 0; k < l->n_months; k++)
            if (out->months[k].year == y && out->months[k].month == (int)mo)
                out->months[k].upfront += upfront * (1 - r->base.discount);
    }
    return GP_OK;
}

/* The policy's figures from the bill of the whole window. */
static gp_status results(struct replay *r, const gp_ledger *l,
                         gp_policy_result *out)
{
    double cost = 0, unused = 0;

    out->total_cost = l->total_cost;
    out->all_on_demand_cost = l->all_on_demand_cost;
    out->esr = l->all_on_demand_cost > 0
                   ? (l->all_on_demand_cost - l->total_cost) /
                         l->all_on_demand_cost
                   : NAN;
    out->coverage = l->coverage;
    for (size_t i = 0; i < l->n_commitments; i++) {
        const gp_ledger_commitment *lc = &l->commitments[i];
        cost += lc->cost;
        if (lc->purchased > 0)
            unused += lc->cost * (1 - lc->used / lc->purchased);
    }
    out->unused_commitment_cost = unused;
    out->commitment_utilization = cost > 0 ? 1 - unused / cost : NAN;
    out->lock_in_cost = lock_in(r);
    double last = l->n_months ? l->months[l->n_months - 1].total_cost : 0;
    out->lock_in_months = last > 0 ? out->lock_in_cost / last : NAN;
    return months_of(r, l, out);
}

gp_status gp_policy_replay(const gp_trace *t, const gp_pricing *p,
                           const gp_scenario *s, const gp_purchase_policy *pp,
                           const gp_engine_options *eo, gp_policy_result *out,
                           gp_error *err)
{
    struct replay r;
    gp_ledger *l = NULL;
    gp_status st;

    memset(out, 0, sizeof *out);
    memset(&r, 0, sizeof r);
    out->policy = pp;
    r.t = t;
    r.s = s;
    r.threads = eo ? eo->threads : 0;
    r.p = p;
    r.pp = pp;
    if ((st = gp_run_spec_init(&r.base, t, s, 0, eo, err)) != GP_OK)
        return st;
    r.base.added = NULL; /* the baseline: owned commitments only */
    r.base.n_added = 0;
    if ((st = review_all(&r, err)) == GP_OK) {
        gp_run_spec spec = r.base;
        spec.extra = r.bought;
        spec.n_extra = r.n_bought;
        spec.strategy = pp->name;
        st = gp_engine_run(t, p, &spec, &l, err);
    }
    if (st == GP_OK)
        st = results(&r, l, out);
    gp_ledger_free(l);
    out->purchases = r.bought;
    out->n_purchases = r.n_bought;
    if (st == GP_ERR_NOMEM && err && !err->message[0])
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return st;
}

void gp_policy_result_free(gp_policy_result *r)
{
    if (!r)
        return;
    gp_free(r->purchases);
    gp_free(r->months);
    r->purchases = NULL;
    r->months = NULL;
}
